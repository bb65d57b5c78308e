//! The tiebreaks built on the opponents' scores: Buchholz (C.07 8.1), Sonneborn-Berger
//! (9.1) and Koya (9.2), with the cut and median modifiers (14) and the unplayed-round
//! rules (16.4, 16.5).

use super::context::{Context, Round};
use super::{Modifier, Value};
use crate::points::Points;

/// What one round adds to a Buchholz-like sum.
#[derive(Copy, Clone, Debug)]
struct Contribution {
    /// The opponent's adjusted score, or the dummy's (the player's own) score, in tenths.
    score: i64,
    /// What the round adds, in hundredths.
    value: i64,
    /// Whether it comes from a voluntary unplayed round.
    voluntary: bool,
}

impl Context<'_> {
    /// For each round of `player`: the score it is weighed by (the opponent's adjusted
    /// score, or for an unplayed round the dummy's, which is the player's own, 16.4)
    /// and whether the round was a voluntary unplayed one.
    fn opponent_scores(&self, player: usize) -> impl Iterator<Item = (&Round, Points)> + '_ {
        self.rounds[player].iter().map(move |round| {
            let score = match *round {
                Round::Played { opponent, .. } => self.adjusted[opponent],
                Round::Unplayed { .. } => self.score[player],
            };
            (round, score)
        })
    }

    fn contributions(&self, player: usize, weighted: bool) -> Vec<Contribution> {
        self.opponent_scores(player)
            .map(|(round, score)| {
                let score = i64::from(score.0);
                let value = if weighted {
                    score * i64::from(round.points().0)
                } else {
                    score * 10
                };
                Contribution {
                    score,
                    value,
                    voluntary: round.is_voluntary(),
                }
            })
            .collect()
    }

    /// `BH`: the sum of the opponents' adjusted scores, each unplayed round counting the
    /// player's own score.
    pub(crate) fn buchholz(&self, modifier: Option<Modifier>) -> Vec<Value> {
        (0..self.t.players.len())
            .map(|p| Value::Points(cut_sum(self.contributions(p, false), modifier)))
            .collect()
    }

    /// `SB`: the sum of each opponent's adjusted score times the points scored in that
    /// round, each unplayed round counting the player's own score times its points.
    pub(crate) fn sonneborn_berger(&self, modifier: Option<Modifier>) -> Vec<Value> {
        (0..self.t.players.len())
            .map(|p| Value::Points(cut_sum(self.contributions(p, true), modifier)))
            .collect()
    }

    /// `KS`: the points scored in rounds paired against opponents whose score is at
    /// least half the maximum possible (a win's points times the rounds). A forfeit
    /// counts against its scheduled opponent; byes count nothing.
    pub(crate) fn koya(&self) -> Vec<Value> {
        let maximum = u64::from(self.t.point_system.win.0) * self.round_count() as u64;
        (0..self.t.players.len())
            .map(|p| {
                let points: Points = self.rounds[p]
                    .iter()
                    .filter(|round| {
                        round
                            .paired_with()
                            .is_some_and(|o| 2 * u64::from(self.score[o].0) >= maximum)
                    })
                    .map(Round::points)
                    .sum();
                Value::Points(i64::from(points.0) * 10)
            })
            .collect()
    }
}

/// The sum of the contributions once the modifier's values are cut.
///
/// The least significant value is the contribution weighed by the lowest score, the
/// lowest of them where several share that score (14); the most significant, the
/// one weighed by the highest score, the highest of them. For each low cut, the lowest
/// contribution of a voluntary unplayed round is cut instead when there is one that
/// is worth at least the least significant value (16.5). High cuts take no exception.
fn cut_sum(mut contributions: Vec<Contribution>, modifier: Option<Modifier>) -> i64 {
    let (lowest, highest) = modifier.map_or((0, 0), |m| (m.lowest(), m.highest()));
    for _ in 0..lowest {
        let Some(least) = position_min(&contributions, |c| (c.score, c.value)) else {
            break;
        };
        let voluntary = contributions
            .iter()
            .enumerate()
            .filter(|(_, c)| c.voluntary)
            .min_by_key(|(_, c)| (c.value, c.score))
            .map(|(i, _)| i);
        let cut = match voluntary {
            Some(v) if contributions[v].value >= contributions[least].value => v,
            _ => least,
        };
        contributions.remove(cut);
    }
    for _ in 0..highest {
        let Some(most) = position_max(&contributions, |c| (c.score, c.value)) else {
            break;
        };
        contributions.remove(most);
    }
    contributions.iter().map(|c| c.value).sum()
}

fn position_min<K: Ord>(items: &[Contribution], key: impl Fn(&Contribution) -> K) -> Option<usize> {
    items
        .iter()
        .enumerate()
        .min_by_key(|(_, c)| key(c))
        .map(|(i, _)| i)
}

fn position_max<K: Ord>(items: &[Contribution], key: impl Fn(&Contribution) -> K) -> Option<usize> {
    items
        .iter()
        .enumerate()
        .max_by_key(|(_, c)| key(c))
        .map(|(i, _)| i)
}
