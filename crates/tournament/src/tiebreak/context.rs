//! The rounds of a tournament as the tiebreaks see them: each player's rounds up to
//! the cut-off, classified by C.07 article 16, with the scores and the adjusted scores
//! (16.3) every opponent-based tiebreak reads.

use crate::model::{Bye, Colour, Entry, GameResult, PlayerId, Tournament};
use crate::points::Points;
use std::collections::HashMap;

/// Why a round was not played over the board, in the categories of C.07 16.2.
///
/// TRF codes map as follows: `U` → [`PairingAllocatedBye`](Unplayed::PairingAllocatedBye),
/// `F` → [`FullPointBye`](Unplayed::FullPointBye), `+` → [`ForfeitWin`](Unplayed::ForfeitWin),
/// `-` against an opponent → [`ForfeitLoss`](Unplayed::ForfeitLoss); `H`, `Z`, an absence
/// (`-` without an opponent) and a round left blank → [`RequestedBye`](Unplayed::RequestedBye),
/// since a player who is not paired (absent, withdrawn, not yet entered) is treated as
/// having a zero-point bye.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unplayed {
    /// The pairing-allocated bye (16.2.1).
    PairingAllocatedBye,
    /// A full-point bye (16.2.1).
    FullPointBye,
    /// A win by forfeit (16.2.2).
    ForfeitWin,
    /// A half- or zero-point bye, or not being paired (16.2.3, or 16.2.5 when only
    /// voluntary unplayed rounds follow it or it is the last round).
    RequestedBye,
    /// A loss by forfeit (16.2.4).
    ForfeitLoss,
}

impl Unplayed {
    /// A voluntary unplayed round (16.1): a requested bye or a forfeit loss.
    pub fn is_voluntary(self) -> bool {
        matches!(self, Unplayed::RequestedBye | Unplayed::ForfeitLoss)
    }
}

/// One round of one player.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Round {
    /// A game over the board (a pending game too: it is being played, for no points yet).
    Played {
        /// The opponent's index in `Tournament::players`.
        opponent: usize,
        colour: Colour,
        result: GameResult,
        points: Points,
    },
    /// No game over the board.
    Unplayed {
        kind: Unplayed,
        /// The scheduled opponent of a forfeit, as an index.
        opponent: Option<usize>,
        points: Points,
    },
}

impl Round {
    /// The points the round was worth.
    pub(crate) fn points(&self) -> Points {
        match *self {
            Round::Played { points, .. } | Round::Unplayed { points, .. } => points,
        }
    }

    /// Whether it was a voluntary unplayed round.
    pub(crate) fn is_voluntary(&self) -> bool {
        matches!(self, Round::Unplayed { kind, .. } if kind.is_voluntary())
    }

    /// The opponent paired, whether or not the game was played.
    pub(crate) fn paired_with(&self) -> Option<usize> {
        match *self {
            Round::Played { opponent, .. } => Some(opponent),
            Round::Unplayed { opponent, .. } => opponent,
        }
    }

    /// The opponent and result of a game played over the board with a result.
    pub(crate) fn finished_game(&self) -> Option<(usize, GameResult)> {
        match *self {
            Round::Played {
                result: GameResult::Pending,
                ..
            } => None,
            Round::Played {
                opponent, result, ..
            } => Some((opponent, result)),
            Round::Unplayed { .. } => None,
        }
    }
}

/// The tournament cut after some rounds, ready for the tiebreaks.
pub(crate) struct Context<'a> {
    pub(crate) t: &'a Tournament,
    /// Each player's rounds, round 1 first, exactly `rounds` of them.
    pub(crate) rounds: Vec<Vec<Round>>,
    /// Each player's score.
    pub(crate) score: Vec<Points>,
    /// Each player's score as their opponents' tiebreaks take it (16.3).
    pub(crate) adjusted: Vec<Points>,
}

impl<'a> Context<'a> {
    /// Classifies the first `rounds` rounds of every player.
    pub(crate) fn new(t: &'a Tournament, rounds: usize) -> Context<'a> {
        let index: HashMap<PlayerId, usize> = t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect();
        let system = &t.point_system;
        let classified: Vec<Vec<Round>> = t
            .players
            .iter()
            .map(|player| {
                (1..=rounds)
                    .map(|round| {
                        let entry = player.entry(round);
                        let points = entry.map_or(Points::ZERO, |e| e.points(system));
                        classify(entry, points, &index)
                    })
                    .collect()
            })
            .collect();
        let score: Vec<Points> = classified
            .iter()
            .map(|rounds| rounds.iter().map(Round::points).sum())
            .collect();
        let adjusted = classified
            .iter()
            .map(|rounds| adjusted_score(rounds, system.draw))
            .collect();
        Context {
            t,
            rounds: classified,
            score,
            adjusted,
        }
    }

    /// The number of rounds taken into account.
    pub(crate) fn round_count(&self) -> usize {
        self.rounds.first().map_or(0, Vec::len)
    }

    /// Whether `round` of `player` scored a win's points: won over the board, by
    /// forfeit, or by a bye that is worth a win (7.1).
    pub(crate) fn is_win(&self, player: usize, round: usize) -> bool {
        match self.rounds[player][round] {
            Round::Played { result, .. } => {
                matches!(result, GameResult::Win | GameResult::UnratedWin)
            }
            Round::Unplayed { kind, points, .. } => {
                !kind.is_voluntary() && points == self.t.point_system.win
            }
        }
    }

    /// Whether `round` of `player` was a game won over the board (7.2).
    pub(crate) fn is_won(&self, player: usize, round: usize) -> bool {
        matches!(
            self.rounds[player][round],
            Round::Played {
                result: GameResult::Win | GameResult::UnratedWin,
                ..
            }
        )
    }

    /// Whether `round` of `player` was a game over the board with Black (7.3).
    pub(crate) fn is_black_game(&self, player: usize, round: usize) -> bool {
        matches!(
            self.rounds[player][round],
            Round::Played {
                colour: Colour::Black,
                ..
            }
        )
    }
}

fn classify(entry: Option<&Entry>, points: Points, index: &HashMap<PlayerId, usize>) -> Round {
    let unplayed = |kind, opponent| Round::Unplayed {
        kind,
        opponent,
        points,
    };
    match entry {
        None => unplayed(Unplayed::RequestedBye, None),
        Some(Entry::Bye { bye }) => unplayed(
            match bye {
                Bye::PairingAllocated => Unplayed::PairingAllocatedBye,
                Bye::Full => Unplayed::FullPointBye,
                Bye::Half | Bye::Zero | Bye::Absent => Unplayed::RequestedBye,
            },
            None,
        ),
        Some(Entry::Game {
            opponent,
            colour,
            result,
        }) => {
            let opponent = index.get(opponent).copied();
            match (result, opponent) {
                (GameResult::ForfeitWin, _) => unplayed(Unplayed::ForfeitWin, opponent),
                (GameResult::ForfeitLoss, _) => unplayed(Unplayed::ForfeitLoss, opponent),
                (_, Some(opponent)) => Round::Played {
                    opponent,
                    colour: *colour,
                    result: *result,
                    points,
                },
                // An opponent missing from the tournament (only a hand-built one can
                // have that): the game counts as a forfeit.
                (GameResult::Win | GameResult::UnratedWin, None) => {
                    unplayed(Unplayed::ForfeitWin, None)
                }
                (_, None) => unplayed(Unplayed::ForfeitLoss, None),
            }
        }
    }
}

/// A player's score for their opponents' tiebreaks (C.07 16.3): a requested bye
/// followed only by voluntary unplayed rounds, or in the last round, counts as a draw
/// (16.2.5, 16.3.2); every other round counts what it was worth (16.3.1).
fn adjusted_score(rounds: &[Round], draw: Points) -> Points {
    // Rounds from `tail` on are all voluntary unplayed rounds.
    let tail = rounds
        .iter()
        .rposition(|r| !r.is_voluntary())
        .map_or(0, |i| i + 1);
    rounds
        .iter()
        .enumerate()
        .map(|(i, round)| match round {
            Round::Unplayed {
                kind: Unplayed::RequestedBye,
                ..
            } if i >= tail => draw,
            _ => round.points(),
        })
        .sum()
}
