//! Games as read back, challenges, chat, the arbiters named for games and the
//! heartbeat, in SQL both backends take.

/// Implements [`Records`](crate::backend::Records) for a backend with a `pool`
/// field, inside [`shared_sql`](super::shared_sql)'s expansion (its row readers).
macro_rules! shared_records {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::backend::Records for $store {
            async fn game(&self, id: &str) -> Result<Option<$crate::StoredGame>, $crate::StoreError> {
                let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await?;
                match row {
                    None => Ok(None),
                    Some(row) => Ok(Some(self.with_events(&row).await?)),
                }
            }

            async fn events_from(
                &self,
                game_id: &str,
                first_seq: u64,
            ) -> Result<Vec<String>, $crate::StoreError> {
                use sqlx::Row;
                Ok(sqlx::query("SELECT event FROM game_events WHERE game_id = $1 AND seq >= $2 ORDER BY seq")
                    .bind(game_id)
                    .bind(first_seq as i64)
                    .fetch_all(&self.pool)
                    .await?
                    .iter()
                    .map(|r| r.try_get::<String, _>("event"))
                    .collect::<Result<Vec<_>, _>>()?)
            }

            async fn live_games(&self) -> Result<Vec<$crate::StoredGame>, $crate::StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE finished = FALSE ORDER BY created_at, id"
                ))
                .fetch_all(&self.pool)
                .await?;
                let mut out = Vec::with_capacity(rows.len());
                for row in &rows {
                    out.push(self.with_events(row).await?);
                }
                Ok(out)
            }

            async fn game_ids_of_user(
                &self,
                user_id: i64,
                filter: &$crate::GameFilter,
            ) -> Result<Vec<String>, $crate::StoreError> {
                use sqlx::Row;
                let mut query = sqlx::QueryBuilder::new("SELECT id FROM games WHERE ");
                match filter.color_white {
                    None => query
                        .push("(white_id = ")
                        .push_bind(user_id)
                        .push(" OR black_id = ")
                        .push_bind(user_id)
                        .push(")"),
                    Some(true) => query.push("white_id = ").push_bind(user_id),
                    Some(false) => query.push("black_id = ").push_bind(user_id),
                };
                query
                    .push(" AND ((finished = TRUE AND ")
                    .push_bind(filter.finished)
                    .push(") OR (finished = FALSE AND ")
                    .push_bind(filter.ongoing)
                    .push("))");
                if let Some(vs) = filter.vs {
                    query
                        .push(" AND (white_id = ")
                        .push_bind(vs)
                        .push(" OR black_id = ")
                        .push_bind(vs)
                        .push(")");
                }
                if let Some(rated) = filter.rated {
                    query.push(" AND rated = ").push_bind(rated);
                }
                match filter.outcome {
                    None => {}
                    Some($crate::Outcome::Draw) => {
                        query.push(" AND result = '1/2-1/2'");
                    }
                    Some(outcome) => {
                        let won = outcome == $crate::Outcome::Win;
                        query
                            .push(" AND ((white_id = ")
                            .push_bind(user_id)
                            .push(" AND result = ")
                            .push_bind(if won { "1-0" } else { "0-1" })
                            .push(") OR (black_id = ")
                            .push_bind(user_id)
                            .push(" AND result = ")
                            .push_bind(if won { "0-1" } else { "1-0" })
                            .push("))");
                    }
                }
                if let Some(since) = filter.since {
                    query.push(" AND created_at >= ").push_bind(since);
                }
                if let Some(until) = filter.until {
                    query.push(" AND created_at <= ").push_bind(until);
                }
                query.push(if filter.oldest_first {
                    " ORDER BY created_at ASC, id ASC"
                } else {
                    " ORDER BY created_at DESC, id DESC"
                });
                query.push(" LIMIT ").push_bind(filter.limit);
                let rows = query.build().fetch_all(&self.pool).await?;
                rows.iter()
                    .map(|r| r.try_get("id").map_err($crate::StoreError::from))
                    .collect()
            }

            async fn save_challenge(&self, c: &$crate::StoredChallenge) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "INSERT INTO challenges (id, challenger_id, dest_id, terms, created_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&c.id)
                .bind(c.challenger_id)
                .bind(c.dest_id)
                .bind(&c.terms)
                .bind(c.created_at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn delete_challenge(&self, id: &str) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query("DELETE FROM challenges WHERE id = $1")
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn challenges(&self) -> Result<Vec<$crate::StoredChallenge>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT id, challenger_id, dest_id, terms, created_at FROM challenges \
                     ORDER BY created_at, id",
                )
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::StoredChallenge {
                            id: r.try_get("id")?,
                            challenger_id: r.try_get("challenger_id")?,
                            dest_id: r.try_get("dest_id")?,
                            terms: r.try_get("terms")?,
                            created_at: r.try_get("created_at")?,
                        })
                    })
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err($crate::StoreError::from)
            }

            async fn challenge(&self, id: &str) -> Result<Option<$crate::StoredChallenge>, $crate::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT id, challenger_id, dest_id, terms, created_at FROM challenges WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(|r| {
                    Ok($crate::StoredChallenge {
                        id: r.try_get("id")?,
                        challenger_id: r.try_get("challenger_id")?,
                        dest_id: r.try_get("dest_id")?,
                        terms: r.try_get("terms")?,
                        created_at: r.try_get("created_at")?,
                    })
                })
                .transpose()
                .map_err(|e: sqlx::Error| $crate::StoreError::from(e))
            }

            async fn add_chat_line(&self, game_id: &str, line: &$crate::ChatLine) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "INSERT INTO chat_lines (game_id, room, username, text, at) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(game_id)
                .bind(&line.room)
                .bind(&line.username)
                .bind(&line.text)
                .bind(line.at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn chat_lines(
                &self,
                game_id: &str,
                room: &str,
                limit: i64,
            ) -> Result<Vec<$crate::ChatLine>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT room, username, text, at FROM (SELECT * FROM chat_lines \
                     WHERE game_id = $1 AND room = $2 ORDER BY seq DESC LIMIT $3) AS last ORDER BY seq",
                )
                .bind(game_id)
                .bind(room)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::ChatLine {
                            room: r.try_get("room")?,
                            username: r.try_get("username")?,
                            text: r.try_get("text")?,
                            at: r.try_get("at")?,
                        })
                    })
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err($crate::StoreError::from)
            }

            async fn add_game_arbiters(&self, game_id: &str, user_ids: &[i64]) -> Result<(), $crate::StoreError> {
                for &user_id in user_ids {
                    sqlx::query(
                        "INSERT INTO game_arbiters (game_id, user_id) VALUES ($1, $2) \
                         ON CONFLICT (game_id, user_id) DO NOTHING",
                    )
                    .bind(game_id)
                    .bind(user_id)
                    .execute(&self.pool)
                    .await?;
                }
                Ok(())
            }

            async fn game_arbiters(&self, game_id: &str) -> Result<Vec<i64>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT user_id FROM game_arbiters WHERE game_id = $1 ORDER BY user_id",
                )
                .bind(game_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .iter()
                    .map(|r| r.try_get("user_id"))
                    .collect::<Result<_, _>>()?)
            }

            async fn arbitrated_games(
                &self,
                user_id: i64,
                finished: u32,
            ) -> Result<Vec<(String, bool)>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT id, finished FROM ( \
                       SELECT g.id, g.finished, g.created_at FROM game_arbiters a \
                         JOIN games g ON g.id = a.game_id \
                         WHERE a.user_id = $1 AND g.finished = FALSE \
                       UNION ALL \
                       SELECT * FROM (SELECT g.id, g.finished, g.created_at FROM game_arbiters a \
                         JOIN games g ON g.id = a.game_id WHERE a.user_id = $1 AND g.finished = TRUE \
                         ORDER BY g.created_at DESC, g.id DESC LIMIT $2) AS done) AS seats \
                     ORDER BY created_at DESC, id DESC",
                )
                .bind(user_id)
                .bind(i64::from(finished))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| Ok((r.try_get("id")?, r.try_get::<bool, _>("finished")?)))
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err($crate::StoreError::from)
            }

            async fn beat(&self, at: i64) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "INSERT INTO heartbeat (id, at) VALUES (1, $1) \
                     ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                )
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn last_beat(&self) -> Result<Option<i64>, $crate::StoreError> {
                use sqlx::Row;
                let row = sqlx::query("SELECT at FROM heartbeat WHERE id = 1")
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(row.map(|r| r.try_get("at")).transpose()?)
            }
        }
    };
}

pub(crate) use shared_records;
