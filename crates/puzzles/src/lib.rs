//! Chess puzzles as the lichess puzzle database writes them, so that any
//! collection in that format can be loaded and ours exported to it.
//!
//! A puzzle is a position and a line: `FEN` is the position *before* the
//! opponent's move, and `Moves` (UCI) starts with that move, then alternates
//! the solver's move and the opponent's reply, ending with the solver's. Every
//! puzzle read here is replayed by the rules: a move that is not legal where it
//! is played is refused, naming the line, the column and the move.

mod csv;
pub mod generate;
mod themes;

pub use csv::{csv_line, read_csv, read_line, write_csv, CsvError, HEADER};
pub use themes::{theme_name, THEMES};

/// The puzzles Caissa ships: made by [`generate`] from the engine's self-play
/// and checked by Stockfish (see the README's "Puzzles").
pub const STARTER_SET: &str = include_str!("../data/starter.csv");

/// [`STARTER_SET`], read.
pub fn starter_set() -> Result<Vec<Puzzle>, CsvError> {
    read_csv(STARTER_SET)
}

use caissa_rules::Position;

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its id (letters and digits).
    pub id: String,
    /// The position before the opponent's move, as FEN.
    pub fen: String,
    /// The opponent's move, then the solution with the replies, in UCI.
    pub moves: Vec<String>,
    /// Its Glicko-2 rating.
    pub rating: i32,
    /// The rating's deviation.
    pub rating_deviation: i32,
    /// How much people liked it, -100 to 100.
    pub popularity: i32,
    /// How many times it was played.
    pub plays: u64,
    /// Its themes, as lichess's theme keys (`mateIn2`, `fork` ...).
    pub themes: Vec<String>,
    /// The game it comes from (empty when none), with the ply.
    pub game_url: String,
    /// The opening it arose in, as lichess's tags (`Sicilian_Defense` ...).
    pub opening_tags: Vec<String>,
}

/// Why a puzzle cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The FEN is not a legal position.
    #[error("FEN: {0}")]
    Fen(String),
    /// A move is not legal where it is played.
    #[error("Moves: move {index} ({mv}) is not legal in {fen}: {reason}")]
    Move {
        /// Its number in `Moves`, from 1.
        index: usize,
        /// The move.
        mv: String,
        /// The position it was played in.
        fen: String,
        /// Why not.
        reason: String,
    },
    /// The line is not the opponent's move and the solver's answers.
    #[error("Moves: {0}")]
    Line(String),
    /// The id is empty or has other characters than letters and digits.
    #[error("PuzzleId: {0:?} must be 1 to 32 letters or digits")]
    Id(String),
}

impl Puzzle {
    /// Replays the puzzle: the position after each move, the first being the
    /// position the solver faces. Fails on an illegal position or move, or a
    /// line without an even number of moves (the opponent's move, then the
    /// solver's and the replies, the solver's last).
    pub fn positions(&self) -> Result<Vec<Position>, PuzzleError> {
        if self.id.is_empty()
            || self.id.len() > 32
            || !self.id.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(PuzzleError::Id(self.id.clone()));
        }
        if self.moves.len() < 2 || !self.moves.len().is_multiple_of(2) {
            return Err(PuzzleError::Line(format!(
                "{} moves; a puzzle has the opponent's move then the solver's, an even number",
                self.moves.len()
            )));
        }
        let mut pos = Position::from_fen(&self.fen).map_err(|e| PuzzleError::Fen(e.to_string()))?;
        let mut seen = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let fen = pos.fen();
            let illegal = |reason: String| PuzzleError::Move {
                index: i + 1,
                mv: text.clone(),
                fen: fen.clone(),
                reason,
            };
            let mv = pos.parse_uci(text).map_err(|e| illegal(e.to_string()))?;
            pos.play(mv).map_err(|e| illegal(e.to_string()))?;
            seen.push(pos);
        }
        Ok(seen)
    }

    /// The position the solver faces (after the opponent's move), as FEN.
    pub fn solver_fen(&self) -> Result<String, PuzzleError> {
        Ok(self.positions()?[0].fen())
    }
}

#[cfg(test)]
mod tests;
