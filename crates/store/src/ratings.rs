//! Glicko-2 ratings per speed, the ladder, and each rating's history.

use sqlx::Row;

use crate::{Store, StoreError};

/// A stored Glicko-2 rating for one speed.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRating {
    /// Rating.
    pub rating: f64,
    /// Rating deviation.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played at this speed.
    pub games: i64,
    /// When the last one was played, ms.
    pub last_played: i64,
}

impl Store {
    /// A user's rating for a speed, if they have played it.
    pub async fn rating(
        &self,
        user_id: i64,
        perf: &str,
    ) -> Result<Option<StoredRating>, StoreError> {
        let row = sqlx::query("SELECT rating, deviation, volatility, games, last_played FROM ratings WHERE user_id = ? AND perf = ?")
            .bind(user_id)
            .bind(perf)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            None => None,
            Some(r) => Some(StoredRating {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
                games: r.try_get("games")?,
                last_played: r.try_get("last_played")?,
            }),
        })
    }

    /// All of a user's ratings, by speed.
    pub async fn ratings(&self, user_id: i64) -> Result<Vec<(String, StoredRating)>, StoreError> {
        let rows = sqlx::query("SELECT perf, rating, deviation, volatility, games, last_played FROM ratings WHERE user_id = ? ORDER BY perf")
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("perf")?,
                    StoredRating {
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                        volatility: r.try_get("volatility")?,
                        games: r.try_get("games")?,
                        last_played: r.try_get("last_played")?,
                    },
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A user's ladder points and games.
    pub async fn ladder(&self, user_id: i64) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query("SELECT points, games FROM ladder WHERE user_id = ?")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            None => (0, 0),
            Some(r) => (r.try_get("points")?, r.try_get("games")?),
        })
    }

    /// Records the rating changes of one finished game for both players in one
    /// transaction: `(user, perf, new rating, ladder points delta)`.
    pub async fn record_ratings(
        &self,
        game_id: &str,
        now: i64,
        updates: &[(i64, String, StoredRating, i64)],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for (user_id, perf, r, ladder_delta) in updates {
            sqlx::query(
                "INSERT INTO ratings (user_id, perf, rating, deviation, volatility, games, last_played) VALUES (?, ?, ?, ?, ?, ?, ?) \
                 ON CONFLICT(user_id, perf) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, \
                 volatility = excluded.volatility, games = excluded.games, last_played = excluded.last_played",
            )
            .bind(user_id)
            .bind(perf)
            .bind(r.rating)
            .bind(r.deviation)
            .bind(r.volatility)
            .bind(r.games)
            .bind(r.last_played)
            .execute(&mut *tx)
            .await?;
            sqlx::query("INSERT INTO rating_history (user_id, perf, game_id, rating, at) VALUES (?, ?, ?, ?, ?)")
                .bind(user_id)
                .bind(perf)
                .bind(game_id)
                .bind(r.rating)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO ladder (user_id, points, games) VALUES (?, ?, 1) \
                 ON CONFLICT(user_id) DO UPDATE SET points = points + excluded.points, games = games + 1",
            )
            .bind(user_id)
            .bind(ladder_delta)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// A user's rating history for a speed: `(ms, rating)`, oldest first.
    pub async fn rating_history(
        &self,
        user_id: i64,
        perf: &str,
    ) -> Result<Vec<(i64, f64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT at, rating FROM rating_history WHERE user_id = ? AND perf = ? ORDER BY at",
        )
        .bind(user_id)
        .bind(perf)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("at")?, r.try_get("rating")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}
