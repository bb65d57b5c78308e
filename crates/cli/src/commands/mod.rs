//! One module per subcommand.

pub mod admin;
pub mod bench;
pub mod db;
pub mod engine;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod puzzles;
pub mod replay;
pub mod reports;
pub mod serve;
pub mod tournament;
pub mod uci;

use anyhow::Context;
use caissa_rules::{fen, CastlingMode, Position};

/// Options shared by commands that start from a position.
#[derive(clap::Args)]
pub struct PositionArgs {
    /// Start from this FEN instead of the initial position (X-FEN and Shredder-FEN
    /// castling accepted; Chess960 is detected from the castling rights).
    #[arg(long)]
    pub fen: Option<String>,
    /// Treat the position as Chess960 (castling written king-takes-rook in UCI).
    #[arg(long)]
    pub chess960: bool,
}

impl PositionArgs {
    /// The position these options describe.
    pub fn position(&self) -> anyhow::Result<Position> {
        let pos = match &self.fen {
            None => Position::new(),
            Some(text) => fen::parse(text).with_context(|| format!("FEN {text:?}"))?,
        };
        if self.chess960 {
            Ok(pos.with_castling_mode(CastlingMode::Chess960)?)
        } else {
            Ok(pos)
        }
    }
}
