//! The game of chess: squares, bitboards, moves, positions, legal move generation,
//! FEN, SAN and UCI notation, repetition and the game-ending rules of the Laws.
//!
//! ```
//! use caissa_rules::{Position, san::San};
//!
//! let mut pos = Position::new();
//! for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
//!     let m = San::parse(san).unwrap().to_move(&pos).unwrap();
//!     pos.play_unchecked(m);
//! }
//! assert!(pos.is_checkmate());
//! ```
//!
//! Vocabulary types live at the crate root; notations are modules ([`fen`], [`san`],
//! [`uci`]). The move generator allocates nothing: it fills a [`MoveList`] on the stack.

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod chess960;
mod color;
mod dead;
mod explain;
pub mod fen;
mod history;
mod material;
mod movegen;
mod moves;
pub mod perft;
mod position;
mod role;
pub mod san;
mod square;
pub mod uci;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{CastlingMode, CastlingSide};
pub use color::Color;
pub use dead::{MateSearch, MATE_SEARCH_BUDGET};
pub use history::{ClaimableDraw, Game, Outcome, Termination};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use position::{IllegalMove, Position, PositionError, Setup};
pub use role::{Piece, Role};
pub use square::{File, Rank, Square};
