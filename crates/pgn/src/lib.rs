//! PGN, the Portable Game Notation: a streaming reader with a visitor API and an
//! export-format writer, built on `caissa-rules`.
//!
//! ```
//! use caissa_pgn::{Reader, Replayer};
//!
//! let pgn = b"[Event \"Casual\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let mut reader = Reader::from_bytes(pgn);
//! let game = reader.read_game(&mut Replayer::new()).unwrap().unwrap();
//! assert_eq!(game.plies, 7);
//! assert!(game.position.is_checkmate());
//! ```
//!
//! * [`Reader`] reads games one at a time from any `std::io::Read`, with memory that
//!   does not depend on the input's size, and reports each part to a [`Visitor`].
//! * [`Replayer`] is the visitor that checks every move (variations included).
//! * [`TreeBuilder`] builds a [`GameTree`]; [`write_game`] writes one back.

pub mod clock;
pub mod date;
mod reader;
mod replay;
mod setup;
mod tree;
mod writer;

pub use reader::{Flow, Location, PgnError, RawComment, Reader, SanToken, Visitor};
pub use replay::{ReplayedGame, Replayer};
pub use setup::{starting_position, variant_is_chess960, SetupError};
pub use tree::{GameTree, Node, TreeBuilder, Variation};
pub use writer::{write_game, WriteError, LINE_WIDTH, SEVEN_TAG_ROSTER};
