//! Ratings, the ladder, rating history and tournaments, in SQL both backends take.

/// Implements [`Standings`](crate::backend::Standings) for a backend with a `pool`
/// field, inside [`shared_sql`](super::shared_sql)'s expansion (its row readers).
macro_rules! shared_standings {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::backend::Standings for $store {
            async fn rating(&self, user_id: i64, perf: &str) -> Result<Option<$crate::StoredRating>, $crate::StoreError> {
                let row = sqlx::query(
                    "SELECT rating, deviation, volatility, games, last_played FROM ratings \
                     WHERE user_id = $1 AND perf = $2",
                )
                .bind(user_id)
                .bind(perf)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(|r| rating_from(&r)).transpose()?)
            }

            async fn ratings(&self, user_id: i64) -> Result<Vec<(String, $crate::StoredRating)>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT perf, rating, deviation, volatility, games, last_played FROM ratings \
                     WHERE user_id = $1 ORDER BY perf",
                )
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| Ok((r.try_get("perf")?, rating_from(r)?)))
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }

            async fn leaderboard(
                &self,
                perf: &str,
                max_deviation: f64,
                limit: i64,
            ) -> Result<Vec<($crate::User, $crate::StoredRating)>, $crate::StoreError> {
                let rows = sqlx::query(
                    "SELECT u.id, u.name, u.password_hash, u.created_at, u.title, u.closed_at, \
                     r.rating, r.deviation, r.volatility, r.games, r.last_played \
                     FROM ratings r JOIN users u ON u.id = r.user_id \
                     WHERE r.perf = $1 AND r.deviation <= $2 AND u.closed_at IS NULL \
                     ORDER BY r.rating DESC, u.id ASC LIMIT $3",
                )
                .bind(perf)
                .bind(max_deviation)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| Ok((user_from(r)?, rating_from(r)?)))
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }

            async fn ladder(&self, user_id: i64) -> Result<(i64, i64), $crate::StoreError> {
                use sqlx::Row;
                let row = sqlx::query("SELECT points, games FROM ladder WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(match row {
                    None => (0, 0),
                    Some(r) => (r.try_get("points")?, r.try_get("games")?),
                })
            }

            async fn record_ratings(
                &self,
                game_id: &str,
                now: i64,
                updates: &[(i64, String, $crate::StoredRating, i64)],
            ) -> Result<(), $crate::StoreError> {
                let mut tx = self.pool.begin().await?;
                for (user_id, perf, r, ladder_delta) in updates {
                    sqlx::query(
                        "INSERT INTO ratings (user_id, perf, rating, deviation, volatility, games, last_played) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7) \
                         ON CONFLICT (user_id, perf) DO UPDATE SET rating = excluded.rating, \
                         deviation = excluded.deviation, volatility = excluded.volatility, \
                         games = excluded.games, last_played = excluded.last_played",
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
                    sqlx::query(
                        "INSERT INTO rating_history (user_id, perf, game_id, rating, at) \
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(user_id)
                    .bind(perf)
                    .bind(game_id)
                    .bind(r.rating)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO ladder (user_id, points, games) VALUES ($1, $2, 1) \
                         ON CONFLICT (user_id) DO UPDATE SET points = ladder.points + excluded.points, \
                         games = ladder.games + 1",
                    )
                    .bind(user_id)
                    .bind(ladder_delta)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn rating_history(&self, user_id: i64, perf: &str) -> Result<Vec<(i64, f64)>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(&format!(
                    "SELECT at, rating FROM rating_history WHERE user_id = $1 AND perf = $2 \
                     ORDER BY at, {}",
                    <$store>::HISTORY_ORDER
                ))
                .bind(user_id)
                .bind(perf)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| Ok((r.try_get("at")?, r.try_get("rating")?)))
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }

            async fn game_ratings(&self, game_id: &str) -> Result<Vec<$crate::GameRating>, $crate::StoreError> {
                use sqlx::Row;
                // The rating before: the player's previous entry at that speed.
                let order = <$store>::HISTORY_ORDER;
                let rows = sqlx::query(&format!(
                    "SELECT h.user_id, h.rating, \
                     (SELECT p.rating FROM rating_history p \
                      WHERE p.user_id = h.user_id AND p.perf = h.perf \
                      AND (p.at < h.at OR (p.at = h.at AND p.{order} < h.{order})) \
                      ORDER BY p.at DESC, p.{order} DESC LIMIT 1) AS before \
                     FROM rating_history h WHERE h.game_id = $1"
                ))
                .bind(game_id)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::GameRating {
                            user: r.try_get("user_id")?,
                            before: r.try_get("before")?,
                            after: r.try_get("rating")?,
                        })
                    })
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }

            async fn save_tournament(&self, t: &$crate::StoredTournament) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "INSERT INTO tournaments (id, status, created_by, created_at, starts_at, data) \
                     VALUES ($1, $2, $3, $4, $5, $6) \
                     ON CONFLICT (id) DO UPDATE SET status = excluded.status, \
                     starts_at = excluded.starts_at, data = excluded.data",
                )
                .bind(&t.id)
                .bind(&t.status)
                .bind(t.created_by)
                .bind(t.created_at)
                .bind(t.starts_at)
                .bind(&t.data)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn tournament(&self, id: &str) -> Result<Option<$crate::StoredTournament>, $crate::StoreError> {
                let row = sqlx::query(
                    "SELECT id, status, created_by, created_at, starts_at, data FROM tournaments WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.as_ref().map(tournament_from).transpose()?)
            }

            async fn tournaments(&self, status: &str, limit: i64) -> Result<Vec<$crate::StoredTournament>, $crate::StoreError> {
                let order = if status == "finished" { "DESC" } else { "ASC" };
                let rows = sqlx::query(&format!(
                    "SELECT id, status, created_by, created_at, starts_at, data FROM tournaments \
                     WHERE status = $1 ORDER BY starts_at {order}, id LIMIT $2"
                ))
                .bind(status)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(tournament_from)
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }
        }
    };
}

pub(crate) use shared_standings;
