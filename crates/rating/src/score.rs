//! A game's result from one player's side, and its points (Laws 10.1: 1, ½, 0).

use serde::{Deserialize, Serialize};

/// How a game ended for one player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Won over the board.
    Win,
    /// Drawn.
    Draw,
    /// Lost over the board.
    Loss,
    /// Won because the opponent forfeited (did not appear, was excluded).
    WinByForfeit,
    /// Lost by forfeit.
    LossByForfeit,
    /// Both forfeited: no points for either.
    DoubleForfeit,
    /// The game does not count (aborted or voided).
    Void,
}

/// Points in half-points, so that ½ is exact.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct Score(pub u32);

impl Score {
    /// The score as a number (1.0, 0.5, 0.0, ...).
    pub fn value(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl core::ops::Add for Score {
    type Output = Score;
    fn add(self, rhs: Score) -> Score {
        Score(self.0 + rhs.0)
    }
}

impl core::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score(0), |a, b| a + b)
    }
}

impl core::fmt::Display for Score {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (n, 1) => write!(f, "{n}½"),
            (n, _) => write!(f, "{n}"),
        }
    }
}

impl Outcome {
    /// Points for this outcome: a win (also by forfeit) 1, a draw ½, a loss 0;
    /// `None` for a void game, which is not scored.
    pub fn score(self) -> Option<Score> {
        match self {
            Outcome::Win | Outcome::WinByForfeit => Some(Score(2)),
            Outcome::Draw => Some(Score(1)),
            Outcome::Loss | Outcome::LossByForfeit | Outcome::DoubleForfeit => Some(Score(0)),
            Outcome::Void => None,
        }
    }

    /// The score used in rating formulas (1, 0.5, 0), or `None` when the game is not
    /// rated: void games and forfeits (FIDE does not rate unplayed games).
    pub fn rating_score(self) -> Option<f64> {
        match self {
            Outcome::Win => Some(1.0),
            Outcome::Draw => Some(0.5),
            Outcome::Loss => Some(0.0),
            _ => None,
        }
    }

    /// The same game from the opponent's side.
    pub fn opposite(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::WinByForfeit => Outcome::LossByForfeit,
            Outcome::LossByForfeit => Outcome::WinByForfeit,
            other => other,
        }
    }
}
