//! Ratings: Glicko-2 per speed and the ladder's points, read when a game starts
//! (each player's rating at its speed) and recorded when a rated game ends (it
//! subscribes to the games' news), and the time each player spends playing.

use std::sync::Arc;

use caissa_arbiter::{GameResult, Speed};
use caissa_rating::glicko2::{Config, Rating};
use caissa_rating::ladder::{self, Scheme};
use caissa_store::{Store, StoredRating};
use serde_json::{json, Value};

use crate::http::error::ApiError;
use crate::live::news::{Effect, Subscriber};
use crate::live::view::{now_ms, Player, View};

const DAY_MS: f64 = 86_400_000.0;

/// A stored rating as Glicko-2 works with it.
pub fn to_rating(r: &StoredRating) -> Rating {
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// The ratings of a server's players.
pub struct Ratings {
    store: Store,
}

impl Subscriber for Ratings {
    fn finished(&self, view: Arc<View>) -> Effect {
        let store = self.store.clone();
        Box::pin(async move {
            // A game played (not aborted) adds to both players' play time.
            if view.moves.len() >= 2 {
                let spent = (now_ms() as i64 - view.info.created_at as i64).max(0);
                for user in [view.info.white.id, view.info.black.id] {
                    if let Err(e) = store.add_play_time(user, spent).await {
                        tracing::warn!("play time of game {}: {e}", view.id());
                    }
                }
            }
            if !view.info.rated {
                return;
            }
            if let Err(e) = record(&store, &view).await {
                tracing::error!("ratings for game {}: {e}", view.id());
            }
        })
    }
}

/// The games lichess's `prog` (rating progress) looks back over.
const PROGRESS_GAMES: usize = 12;

impl Ratings {
    /// Ratings kept in `store`.
    pub fn new(store: Store) -> Ratings {
        Ratings { store }
    }

    /// A game's player, with their rating at `speed` (the default for a
    /// newcomer) and their title.
    pub async fn player(&self, id: i64, name: String, speed: Speed) -> Player {
        let mut player = Player::new(id, name);
        if let Ok(Some(user)) = self.store.user_by_id(id).await {
            player.title = user.title;
        }
        if let Ok(Some(r)) = self.store.rating(id, speed.name()).await {
            let config = Config::default();
            player.rating = r.rating.round().clamp(0.0, 10_000.0) as u32;
            player.provisional = config.is_provisional(&to_rating(&r));
        }
        player
    }

    /// lichess's `playTime` of `user`: `{total, tv}` in seconds, `total` the
    /// time spent in finished games (`tv`, time shown on TV, is not kept: 0).
    pub async fn play_time(&self, user: i64) -> Result<Value, ApiError> {
        let total = self.store.play_time(user).await? / 1000;
        Ok(json!({ "total": total, "tv": 0 }))
    }

    /// `user`'s rating at `speed` (the default for a newcomer).
    pub async fn rating_of(&self, user: i64, speed: Speed) -> u32 {
        match self.store.rating(user, speed.name()).await {
            Ok(Some(r)) => r.rating.round().clamp(0.0, 10_000.0) as u32,
            _ => Player::new(user, String::new()).rating,
        }
    }

    /// A user's ratings by speed, as lichess's `perfs`: every rated speed
    /// (`bullet`, `blitz`, `rapid`, `classical`, `correspondence`) with
    /// `{games, rating, rd, prog, prov}` — a speed never played at its
    /// starting values — where `prog` is the change over the last 12 games;
    /// whole numbers, as lichess sends them.
    pub async fn perfs(&self, user: i64) -> Result<Value, ApiError> {
        let config = Config::default();
        let mut perfs = serde_json::Map::new();
        for speed in ["bullet", "blitz", "rapid", "classical", "correspondence"] {
            perfs.insert(
                speed.to_string(),
                json!({
                    "games": 0,
                    "rating": config.initial_rating.round() as i64,
                    "rd": config.initial_deviation.round() as i64,
                    "prog": 0,
                    "prov": true,
                }),
            );
        }
        for (perf, r) in self.store.ratings(user).await? {
            let history = self.store.rating_history(user, &perf).await?;
            let before = match history.len() {
                n if n > PROGRESS_GAMES => history[n - PROGRESS_GAMES - 1].1,
                _ => config.initial_rating,
            };
            perfs.insert(
                perf,
                json!({
                    "games": r.games,
                    "rating": r.rating.round() as i64,
                    "rd": r.deviation.round() as i64,
                    "prog": (r.rating - before).round() as i64,
                    "prov": config.is_provisional(&to_rating(&r)),
                }),
            );
        }
        Ok(Value::Object(perfs))
    }

    /// The `nb` best established players at `speed`, lichess's leaderboard:
    /// `[{id, username, title?, perfs: {SPEED: {rating, progress}}}]`, where
    /// `progress` is the change over the last 12 games.
    pub async fn leaderboard(&self, speed: &str, nb: i64) -> Result<Vec<Value>, ApiError> {
        let config = Config::default();
        let mut users = Vec::new();
        for (user, r) in self
            .store
            .leaderboard(speed, config.provisional_deviation, nb)
            .await?
        {
            let history = self.store.rating_history(user.id, speed).await?;
            let before = match history.len() {
                n if n > PROGRESS_GAMES => history[n - PROGRESS_GAMES - 1].1,
                _ => config.initial_rating,
            };
            let mut entry = json!({
                "id": user.name.to_lowercase(),
                "username": user.name,
                "perfs": { speed: { "rating": r.rating.round() as i64, "progress": (r.rating - before).round() as i64 } },
            });
            if let Some(title) = &user.title {
                entry["title"] = json!(title);
            }
            users.push(entry);
        }
        Ok(users)
    }

    /// A user's ladder points and games.
    pub async fn ladder(&self, user: i64) -> Result<(i64, i64), ApiError> {
        Ok(self.store.ladder(user).await?)
    }

    /// Per speed played, the rating after each rated game: `(speed, [(ms, rating)])`.
    pub async fn history(&self, user: i64) -> Result<Vec<(String, Vec<(i64, f64)>)>, ApiError> {
        let mut out = Vec::new();
        for (perf, _) in self.store.ratings(user).await? {
            let points = self.store.rating_history(user, &perf).await?;
            out.push((perf, points));
        }
        Ok(out)
    }
}

/// Updates both players' Glicko-2 ratings for the game's speed and their ladder
/// points, in one transaction. Void games and the arbiter's unequal scores change
/// nothing.
async fn record(store: &Store, view: &View) -> Result<(), ApiError> {
    let Some(finish) = view.finish else {
        return Ok(());
    };
    if finish.result.is_arbiters_score() {
        return Ok(());
    }
    let white_score = match finish.result.points(caissa_rules::Color::White) {
        Some(p) => p,
        None => return Ok(()),
    };
    let perf = view.info.setup.time_control.speed().name();
    if perf == "unlimited" {
        return Ok(());
    }
    let config = Config::default();
    let now = now_ms() as i64;
    let mut current = Vec::new();
    for user in [view.info.white.id, view.info.black.id] {
        let stored = store.rating(user, perf).await?;
        let (rating, idle_days, games) = match &stored {
            Some(r) => (
                to_rating(r),
                (now - r.last_played).max(0) as f64 / DAY_MS,
                r.games,
            ),
            None => (config.new_rating(), 0.0, 0),
        };
        current.push((rating, idle_days, games, store.ladder(user).await?.0));
    }
    let (w, b) = (&current[0], &current[1]);
    let (new_w, new_b) = config.rate_game(&w.0, w.1, &b.0, b.1, white_score);
    let escaped = (view.info.setup.ruleset == caissa_arbiter::Ruleset::Ladder
        && finish.termination == caissa_arbiter::Termination::Abandoned)
        .then_some(view.turn());
    let (dw, db) = ladder_points(finish.result, escaped, view.moves.len(), w.3, b.3);
    let stored = |r: Rating, games: i64| StoredRating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
        games: games + 1,
        last_played: now,
    };
    store
        .record_ratings(
            view.id(),
            now,
            &[
                (view.info.white.id, perf.to_string(), stored(new_w, w.2), dw),
                (view.info.black.id, perf.to_string(), stored(new_b, b.2), db),
            ],
        )
        .await?;
    Ok(())
}

/// Ladder point changes (White, Black) for a result between players with `white`
/// and `black` points. `escaped`: the player who left the game (claimed on their own
/// turn after being gone), who pays the seed's escape penalty; `plies` played.
fn ladder_points(
    result: GameResult,
    escaped: Option<caissa_rules::Color>,
    plies: usize,
    white: i64,
    black: i64,
) -> (i64, i64) {
    // Moves the escaper's side had made, as the seed counts them.
    let moves = plies.div_ceil(2) as u32;
    match escaped {
        Some(caissa_rules::Color::White) => {
            ladder::change(Scheme::A, white, black, ladder::Result::Escaped { moves })
        }
        Some(caissa_rules::Color::Black) => {
            let (b, w) = ladder::change(Scheme::A, black, white, ladder::Result::Escaped { moves });
            (w, b)
        }
        None => {
            let result = match result {
                GameResult::WhiteWins => ladder::Result::Win,
                GameResult::BlackWins => ladder::Result::Loss,
                GameResult::Draw => ladder::Result::Draw,
                GameResult::Void
                | GameResult::BothLose
                | GameResult::WhiteHalf
                | GameResult::BlackHalf => ladder::Result::Void,
            };
            ladder::change(Scheme::A, white, black, result)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladder_escape_costs_three_losses_whoever_leaves() {
        use caissa_rules::Color;
        let (lose_w, win_b) = ladder_points(GameResult::BlackWins, None, 20, 100, 100);
        assert!(lose_w < 0 && win_b > 0);
        // White left after 10 moves: three times the loss; Black scored as for a win.
        assert_eq!(
            ladder_points(GameResult::BlackWins, Some(Color::White), 20, 100, 100),
            (3 * lose_w, win_b)
        );
        // Black left: the same, mirrored.
        let (win_w, lose_b) = ladder_points(GameResult::WhiteWins, None, 21, 100, 100);
        assert_eq!(
            ladder_points(GameResult::WhiteWins, Some(Color::Black), 21, 100, 100),
            (win_w, 3 * lose_b)
        );
        // After more than 25 moves the one who stayed is scored as for a draw.
        let (escaper, stayer) =
            ladder_points(GameResult::BlackWins, Some(Color::White), 60, 100, 100);
        assert_eq!(escaper, 3 * lose_w);
        assert_eq!(
            stayer,
            ladder_points(GameResult::Draw, None, 60, 100, 100).1
        );
    }
}
