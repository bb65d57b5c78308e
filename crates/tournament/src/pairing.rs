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
    #[error(
        "no pairing of round {0} satisfies the absolute criteria (no repeat games, colour limits)"
    )]
    Impossible(u32),
    /// The file is not a tournament of this system.
    #[error("{0}")]
    Invalid(String),
}

impl Pairing {
    /// How `other` differs from this pairing, in words, or `None` if the two are
    /// the same (board order aside).
    pub fn difference(&self, other: &Pairing) -> Option<String> {
        let board_of = |pairing: &Pairing, id: PlayerId| {
            pairing
                .boards
                .iter()
                .find(|b| b.white == id || b.black == id)
                .copied()
        };
        let describe = |board: Option<Board>, pairing: &Pairing, id: PlayerId| match board {
            Some(b) => format!("{} (White) - {} (Black)", b.white, b.black),
            None if pairing.bye == Some(id) => format!("{id} gets the pairing-allocated bye"),
            None => format!("{id} is not paired"),
        };
        for board in &self.boards {
            if !other.boards.contains(board) {
                let theirs = board_of(other, board.white);
                return Some(format!(
                    "the file has {}, the system pairs {}",
                    describe(Some(*board), self, board.white),
                    describe(theirs, other, board.white)
                ));
            }
        }
        for board in &other.boards {
            if !self.boards.contains(board) {
                return Some(format!(
                    "the system pairs {}, the file has {}",
                    describe(Some(*board), other, board.white),
                    describe(board_of(self, board.white), self, board.white)
                ));
            }
        }
        if self.bye != other.bye {
            return Some(match (self.bye, other.bye) {
                (Some(a), Some(b)) => format!("the file gives the bye to {a}, the system to {b}"),
                (Some(a), None) => format!("the file gives the bye to {a}, the system gives none"),
                (None, Some(b)) => format!("the system gives the bye to {b}, the file gives none"),
                (None, None) => unreachable!("byes differ"),
            });
        }
        None
    }
}
