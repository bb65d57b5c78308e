//! The rating-based tiebreaks of C.07 article 10: ARO, TPR and APRO. They read the
//! games played over the board against rated opponents only (a rating of 0 is
//! unrated; C.07 leaves the handling of unrated players to the tournament's
//! regulations) and score them 1 / ½ / 0 whatever the tournament's point system.

use super::context::{Context, Round};
use super::{Modifier, Value};
use crate::model::GameResult;
use caissa_rating::elo;

/// `sum / n` rounded to the nearest whole number, half up.
fn round_half_up(sum: i64, n: i64) -> i64 {
    (2 * sum + n).div_euclid(2 * n)
}

impl Context<'_> {
    /// The finished games of `player` against rated opponents: (rating, half-points).
    fn rated_games(&self, player: usize) -> Vec<(i64, i64)> {
        self.rounds[player]
            .iter()
            .filter_map(Round::finished_game)
            .filter_map(|(opponent, result)| {
                let rating = i64::from(self.t.players[opponent].rating);
                let halves = match result {
                    GameResult::Win | GameResult::UnratedWin => 2,
                    GameResult::Draw | GameResult::UnratedDraw => 1,
                    _ => 0,
                };
                (rating > 0).then_some((rating, halves))
            })
            .collect()
    }

    /// `ARO` (10.1): the average rating of the rated opponents of games played, rounded
    /// half up. Cuts leave out the lowest ratings, medians also the highest.
    pub(crate) fn average_rating_of_opponents(&self, modifier: Option<Modifier>) -> Vec<Value> {
        let (lowest, highest) = modifier.map_or((0, 0), |m| (m.lowest(), m.highest()));
        (0..self.t.players.len())
            .map(|p| {
                let mut ratings: Vec<i64> = self.rated_games(p).iter().map(|g| g.0).collect();
                ratings.sort_unstable();
                let start = lowest.min(ratings.len());
                let end = ratings.len().saturating_sub(highest).max(start);
                average(&ratings[start..end])
            })
            .collect()
    }

    /// `TPR` (10.2) of one player: ARO plus `dp` (FIDE table 8.1(a)) for the fraction
    /// scored, the fraction rounded to the hundredth, half up.
    fn performance_rating(&self, player: usize) -> Value {
        let games = self.rated_games(player);
        if games.is_empty() {
            return Value::None;
        }
        let n = games.len() as i64;
        let ratings: Vec<i64> = games.iter().map(|g| g.0).collect();
        let Value::Number(aro) = average(&ratings) else {
            return Value::None;
        };
        let halves: i64 = games.iter().map(|g| g.1).sum();
        // halves / (2n) in hundredths, half up.
        let hundredths = round_half_up(halves * 100, 2 * n);
        Value::Number(aro + elo::dp(hundredths as f64 / 100.0) as i64)
    }

    /// `TPR` for every player.
    pub(crate) fn performance_ratings(&self) -> Vec<Value> {
        (0..self.t.players.len())
            .map(|p| self.performance_rating(p))
            .collect()
    }

    /// `APRO` (10.4): the average, rounded half up, of the TPRs of the opponents of
    /// games played over the board (opponents without a TPR left out).
    pub(crate) fn average_performance_of_opponents(&self) -> Vec<Value> {
        let tpr = self.performance_ratings();
        (0..self.t.players.len())
            .map(|p| {
                let values: Vec<i64> = self.rounds[p]
                    .iter()
                    .filter_map(Round::finished_game)
                    .filter_map(|(opponent, _)| match tpr[opponent] {
                        Value::Number(r) => Some(r),
                        _ => None,
                    })
                    .collect();
                average(&values)
            })
            .collect()
    }
}

fn average(values: &[i64]) -> Value {
    if values.is_empty() {
        Value::None
    } else {
        Value::Number(round_half_up(values.iter().sum(), values.len() as i64))
    }
}
