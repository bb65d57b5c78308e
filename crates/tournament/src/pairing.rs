//! The pairing of one round, whatever system made it, and the output format pairing
//! programs print it in (JaVaFo / bbpPairings: the number of lines that follow, then
//! `WHITE BLACK` per board, the pairing-allocated bye as `N 0`).

use crate::model::PlayerId;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// One board: who has White, who has Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// The player with White.
    pub white: PlayerId,
    /// The player with Black.
    pub black: PlayerId,
}

/// The pairing of one round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The boards, first board first.
    pub boards: Vec<Board>,
    /// The player who gets the pairing-allocated bye, if the number was odd.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<PlayerId>,
}

impl Pairing {
    /// The pairing in the JaVaFo / bbpPairings output format.
    pub fn to_program_output(&self) -> String {
        let mut out = String::new();
        let lines = self.boards.len() + usize::from(self.bye.is_some());
        let _ = writeln!(out, "{lines}");
        for board in &self.boards {
            let _ = writeln!(out, "{} {}", board.white, board.black);
        }
        if let Some(bye) = self.bye {
            let _ = writeln!(out, "{bye} 0");
        }
        out
    }
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// The system needs the total number of rounds (`XXR`).
    #[error("the total number of rounds is not given (an XXR line is needed)")]
    TotalRoundsMissing,
    /// Every round the tournament has was already paired.
    #[error("all {0} rounds have been paired")]
    TournamentOver(u32),
    /// No pairing satisfies the absolute criteria.
    #[error("no pairing of round {0} satisfies the absolute criteria (no repeat games, colour limits)")]
    Impossible(u32),
    /// The file is not a tournament of this system.
    #[error("{0}")]
    Invalid(String),
}
