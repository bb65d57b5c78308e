//! The FIDE Laws of Chess (2023 edition), one test per rule, named after the article
//! it checks (`art_3_7_3_2_...` is Article 3.7.3.2); Chess960 castling follows
//! Guidelines II of the Laws. Then the notations the rules core reads and writes: FEN
//! validation, SAN (Appendix C, with the usual PGN conventions) and UCI.
//!
//! The expected values come from the Laws, not from the implementation.

use caissa_rules::fen::{self, FenError};
use caissa_rules::san::{San, SanError};
use caissa_rules::uci::UciError;
use caissa_rules::{
    Bitboard, Board, CastlingMode, ClaimableDraw, Color, Game, Move, Outcome, Piece, Position,
    PositionError, Role, Setup, Square, Termination,
};

mod completion;
mod moves;
mod notation;

// ---------------------------------------------------------------------------------
// Helpers

fn pos(fen_text: &str) -> Position {
    fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

fn pos960(fen_text: &str) -> Position {
    fen::parse_with_mode(fen_text, CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

/// The legal move written `text` in UCI; panics if it is not legal.
fn uci(p: &Position, text: &str) -> Move {
    p.parse_uci(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.fen()))
}

/// Plays UCI moves on a copy of `p`.
fn after(p: &Position, moves: &[&str]) -> Position {
    let mut p = *p;
    for text in moves {
        let m = uci(&p, text);
        p.play_unchecked(m);
    }
    p
}

/// The legal moves in UCI notation.
fn legal_uci(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.to_uci(m)).collect()
}

fn is_legal_uci(p: &Position, text: &str) -> bool {
    legal_uci(p).iter().any(|m| m == text)
}

/// A game from `fen_text` with UCI moves played.
fn game(fen_text: &str, moves: &[&str]) -> Game {
    let mut g = Game::new(pos(fen_text));
    for text in moves {
        let m = uci(g.position(), text);
        g.play(m).expect("legal");
    }
    g
}

fn castles(p: &Position) -> Vec<Move> {
    p.legal_moves()
        .iter()
        .copied()
        .filter(|m| m.is_castle())
        .collect()
}

const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

fn fen_err(fen_text: &str) -> FenError {
    match fen::parse(fen_text) {
        Ok(p) => panic!("{fen_text} was accepted as {}", p.fen()),
        Err(e) => e,
    }
}

/// Knight shuffles that bring the initial position back every four plies.
const KNIGHT_CYCLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

fn knight_cycles(n: usize) -> Vec<&'static str> {
    KNIGHT_CYCLE.iter().copied().cycle().take(4 * n).collect()
}

// ---------------------------------------------------------------------------------
// Small constructors

fn white(role: Role) -> Piece {
    Piece {
        color: Color::White,
        role,
    }
}

fn black(role: Role) -> Piece {
    Piece {
        color: Color::Black,
        role,
    }
}

fn board(pieces: &[(Square, Piece)]) -> Board {
    let mut b = Board::empty();
    for &(sq, piece) in pieces {
        b.put(sq, piece);
    }
    b
}
