//! The tiebreaks built on the participant's own results: the counts of C.07 7.1–7.4
//! and the progressive score (7.5).

use super::context::{Context, Round};
use super::{Modifier, Value};

impl Context<'_> {
    /// For each player, how many rounds satisfy `test(context, player, round)`.
    pub(crate) fn count(&self, test: impl Fn(&Context<'_>, usize, usize) -> bool) -> Vec<Value> {
        (0..self.t.players.len())
            .map(|p| {
                let n = (0..self.round_count())
                    .filter(|&r| test(self, p, r))
                    .count();
                Value::Number(n as i64)
            })
            .collect()
    }

    /// `PS`: the sum of the running scores after each round, unplayed rounds counting
    /// the points they were worth. A cut leaves out the running scores of the earliest
    /// rounds, the least significant ones; a median also those of the latest.
    pub(crate) fn progressive(&self, modifier: Option<Modifier>) -> Vec<Value> {
        let (lowest, highest) = modifier.map_or((0, 0), |m| (m.lowest(), m.highest()));
        self.rounds
            .iter()
            .map(|rounds| {
                let running: Vec<i64> = rounds
                    .iter()
                    .map(Round::points)
                    .scan(0i64, |sum, points| {
                        *sum += i64::from(points.0);
                        Some(*sum)
                    })
                    .collect();
                let end = running
                    .len()
                    .saturating_sub(highest)
                    .max(lowest.min(running.len()));
                let kept: i64 = running[lowest.min(running.len())..end].iter().sum();
                Value::Points(kept * 10)
            })
            .collect()
    }
}
