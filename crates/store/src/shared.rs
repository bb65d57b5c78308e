//! The SQL both backends share: SQLite and PostgreSQL both take `$N`
//! parameters, `ON CONFLICT`, `RETURNING`, `TRUE` and row values, so accounts,
//! ratings, tournaments, challenges, chat and reading games back are written
//! once here and expanded for each backend's own pool and row types (the macro
//! only stamps the same code out twice; every query is checked against each).
//! What differs — where moves are made durable, copying and backups — each
//! backend writes itself.

/// Implements [`People`](crate::backend::People),
/// [`Records`](crate::backend::Records) and
/// [`Standings`](crate::backend::Standings) for a backend with a `pool` field.
macro_rules! shared_sql {
    ($store:ty, $row:ty) => {
        fn user_from(row: &$row) -> Result<$crate::User, sqlx::Error> {
            use sqlx::Row;
            Ok($crate::User {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
                password_hash: row.try_get("password_hash")?,
                created_at: row.try_get("created_at")?,
                title: row.try_get("title")?,
                closed_at: row.try_get("closed_at")?,
            })
        }

        fn rating_from(row: &$row) -> Result<$crate::StoredRating, sqlx::Error> {
            use sqlx::Row;
            Ok($crate::StoredRating {
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
                games: row.try_get("games")?,
                last_played: row.try_get("last_played")?,
            })
        }

        fn tournament_from(row: &$row) -> Result<$crate::StoredTournament, sqlx::Error> {
            use sqlx::Row;
            Ok($crate::StoredTournament {
                id: row.try_get("id")?,
                status: row.try_get("status")?,
                created_by: row.try_get("created_by")?,
                created_at: row.try_get("created_at")?,
                starts_at: row.try_get("starts_at")?,
                data: row.try_get("data")?,
            })
        }

        /// A row of `table` as plain values, read by each column's kind.
        fn row_values(row: &$row, table: $crate::rows::Table) -> Result<Vec<$crate::rows::Value>, sqlx::Error> {
            use $crate::rows::{Kind, Value};
            use sqlx::Row;
            let mut values = Vec::with_capacity(table.columns().len());
            for (i, (_, kind)) in table.columns().iter().enumerate() {
                values.push(match kind {
                    Kind::Int => Value::Int(row.try_get(i)?),
                    Kind::OptInt => row.try_get::<Option<i64>, _>(i)?.map_or(Value::Null, Value::Int),
                    Kind::Real => Value::Real(row.try_get(i)?),
                    Kind::Text => Value::Text(row.try_get(i)?),
                    Kind::OptText => row.try_get::<Option<String>, _>(i)?.map_or(Value::Null, Value::Text),
                    Kind::Bool => Value::Bool(row.try_get(i)?),
                });
            }
            Ok(values)
        }

        /// Reads a page of `table` after `after` (from the start with `None`).
        async fn read_table_rows(
            pool: &sqlx::Pool<<$row as sqlx::Row>::Database>,
            table: $crate::rows::Table,
            sql: &$crate::rows::TableSql,
            after: Option<&[$crate::rows::Value]>,
            limit: i64,
        ) -> Result<Vec<Vec<$crate::rows::Value>>, $crate::StoreError> {
            use $crate::rows::Value;
            let rows = match after {
                None => sqlx::query(&sql.select_first).bind(limit).fetch_all(pool).await?,
                Some(key) => {
                    let mut query = sqlx::query(&sql.select_after);
                    for value in key {
                        query = match value {
                            Value::Int(i) => query.bind(*i),
                            Value::Text(t) => query.bind(t.as_str()),
                            Value::Real(r) => query.bind(*r),
                            Value::Bool(b) => query.bind(*b),
                            Value::Null => query.bind(Option::<i64>::None),
                        };
                    }
                    query.bind(limit).fetch_all(pool).await?
                }
            };
            Ok(rows
                .iter()
                .map(|row| row_values(row, table))
                .collect::<Result<_, _>>()?)
        }

        /// Inserts `rows` of `table`, skipping keys already there; how many were new.
        async fn write_table_rows(
            pool: &sqlx::Pool<<$row as sqlx::Row>::Database>,
            table: $crate::rows::Table,
            sql: &$crate::rows::TableSql,
            rows: &[Vec<$crate::rows::Value>],
        ) -> Result<u64, $crate::StoreError> {
            use $crate::rows::{Kind, Value};
            let kinds: Vec<Kind> = table.columns().iter().map(|(_, k)| *k).collect();
            let mut tx = pool.begin().await?;
            let mut written = 0;
            // Within both backends' limits on parameters in one statement.
            let per_statement = (30_000 / kinds.len()).max(1);
            for chunk in rows.chunks(per_statement) {
                let mut insert = sqlx::QueryBuilder::new(&sql.insert_head);
                insert.push_values(chunk, |mut out, row| {
                    for (value, kind) in row.iter().zip(&kinds) {
                        match (value, kind) {
                            (Value::Int(i), _) => out.push_bind(*i),
                            (Value::Real(r), _) => out.push_bind(*r),
                            (Value::Text(t), _) => out.push_bind(t.clone()),
                            (Value::Bool(b), _) => out.push_bind(*b),
                            (Value::Null, Kind::OptText | Kind::Text) => out.push_bind(Option::<String>::None),
                            (Value::Null, _) => out.push_bind(Option::<i64>::None),
                        };
                    }
                });
                insert.push(" ON CONFLICT DO NOTHING");
                written += insert.build().execute(&mut *tx).await?.rows_affected();
            }
            tx.commit().await?;
            Ok(written)
        }

        const GAME_COLUMNS: &str =
            "id, white_id, black_id, setup, created_at, finished, result, rated, source";

        impl $store {
            async fn with_events(&self, row: &$row) -> Result<$crate::StoredGame, $crate::StoreError> {
                use sqlx::Row;
                let id: String = row.try_get("id")?;
                let events = sqlx::query("SELECT event FROM game_events WHERE game_id = $1 ORDER BY seq")
                    .bind(&id)
                    .fetch_all(&self.pool)
                    .await?
                    .iter()
                    .map(|r| r.try_get::<String, _>("event"))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok($crate::StoredGame {
                    id,
                    white_id: row.try_get("white_id")?,
                    black_id: row.try_get("black_id")?,
                    setup: row.try_get("setup")?,
                    created_at: row.try_get("created_at")?,
                    finished: row.try_get("finished")?,
                    result: row.try_get("result")?,
                    rated: row.try_get("rated")?,
                    source: row.try_get("source")?,
                    events,
                })
            }
        }

        #[async_trait::async_trait]
        impl $crate::backend::People for $store {
            async fn create_user(
                &self,
                name: &str,
                password_hash: Option<&str>,
                now: i64,
            ) -> Result<$crate::User, $crate::StoreError> {
                use sqlx::Row;
                let result = sqlx::query(
                    "INSERT INTO users (name, name_key, password_hash, created_at) \
                     VALUES ($1, $2, $3, $4) RETURNING id",
                )
                .bind(name)
                .bind(name.to_lowercase())
                .bind(password_hash)
                .bind(now)
                .fetch_one(&self.pool)
                .await;
                match result {
                    Ok(row) => Ok($crate::User {
                        id: row.try_get("id")?,
                        name: name.to_string(),
                        password_hash: password_hash.map(str::to_string),
                        created_at: now,
                        title: None,
                        closed_at: None,
                    }),
                    Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                        Err($crate::StoreError::NameTaken(name.to_string()))
                    }
                    Err(e) => Err(e.into()),
                }
            }

            async fn user_by_name(&self, name: &str) -> Result<Option<$crate::User>, $crate::StoreError> {
                let row = sqlx::query(
                    "SELECT id, name, password_hash, created_at, title, closed_at FROM users WHERE name_key = $1",
                )
                .bind(name.to_lowercase())
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(|r| user_from(&r)).transpose()?)
            }

            async fn user_by_id(&self, id: i64) -> Result<Option<$crate::User>, $crate::StoreError> {
                let row =
                    sqlx::query("SELECT id, name, password_hash, created_at, title, closed_at FROM users WHERE id = $1")
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                Ok(row.map(|r| user_from(&r)).transpose()?)
            }

            async fn give_title(&self, user_id: i64, title: &str) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query("UPDATE users SET title = $1 WHERE id = $2 AND title IS NULL")
                    .bind(title)
                    .bind(user_id)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() > 0)
            }

            async fn add_play_time(&self, user_id: i64, ms: i64) -> Result<(), $crate::StoreError> {
                sqlx::query("UPDATE users SET play_time_ms = play_time_ms + $1 WHERE id = $2")
                    .bind(ms)
                    .bind(user_id)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn play_time(&self, user_id: i64) -> Result<i64, $crate::StoreError> {
                let ms: Option<i64> = sqlx::query_scalar("SELECT play_time_ms FROM users WHERE id = $1")
                    .bind(user_id)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(ms.unwrap_or(0))
            }

            async fn create_token(&self, token: &$crate::StoredToken) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "INSERT INTO tokens (token_hash, user_id, scopes, description, created_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&token.hash)
                .bind(token.user_id)
                .bind(&token.scopes)
                .bind(&token.description)
                .bind(token.created_at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn tokens_of(&self, user_id: i64) -> Result<Vec<$crate::StoredToken>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(&format!(
                    "SELECT token_hash, user_id, scopes, description, created_at FROM tokens \
                     WHERE user_id = $1 ORDER BY created_at DESC, {} DESC",
                    <$store>::TOKEN_ORDER
                ))
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::StoredToken {
                            hash: r.try_get("token_hash")?,
                            user_id: r.try_get("user_id")?,
                            scopes: r.try_get("scopes")?,
                            description: r.try_get("description")?,
                            created_at: r.try_get("created_at")?,
                        })
                    })
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err($crate::StoreError::from)
            }

            async fn user_by_token(
                &self,
                token_hash: &str,
            ) -> Result<Option<($crate::User, String)>, $crate::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT u.id, u.name, u.password_hash, u.created_at, u.title, u.closed_at, t.scopes FROM tokens t \
                     JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1",
                )
                .bind(token_hash)
                .fetch_optional(&self.pool)
                .await?;
                match row {
                    None => Ok(None),
                    Some(r) => Ok(Some((user_from(&r)?, r.try_get("scopes")?))),
                }
            }

            async fn delete_token(&self, user_id: i64, token_hash: &str) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query("DELETE FROM tokens WHERE token_hash = $1 AND user_id = $2")
                    .bind(token_hash)
                    .bind(user_id)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() > 0)
            }

            async fn create_session(
                &self,
                session_hash: &str,
                user_id: i64,
                csrf: &str,
                now: i64,
            ) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "INSERT INTO sessions (session_hash, user_id, csrf, created_at) VALUES ($1, $2, $3, $4)",
                )
                .bind(session_hash)
                .bind(user_id)
                .bind(csrf)
                .bind(now)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn session(
                &self,
                session_hash: &str,
                created_after: i64,
            ) -> Result<Option<($crate::User, String)>, $crate::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT u.id, u.name, u.password_hash, u.created_at, u.title, u.closed_at, s.csrf FROM sessions s \
                     JOIN users u ON u.id = s.user_id WHERE s.session_hash = $1 AND s.created_at >= $2",
                )
                .bind(session_hash)
                .bind(created_after)
                .fetch_optional(&self.pool)
                .await?;
                match row {
                    None => Ok(None),
                    Some(r) => Ok(Some((user_from(&r)?, r.try_get("csrf")?))),
                }
            }

            async fn delete_sessions_before(&self, before: i64) -> Result<u64, $crate::StoreError> {
                let done = sqlx::query("DELETE FROM sessions WHERE created_at < $1")
                    .bind(before)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected())
            }

            async fn delete_session(&self, session_hash: &str) -> Result<(), $crate::StoreError> {
                sqlx::query("DELETE FROM sessions WHERE session_hash = $1")
                    .bind(session_hash)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn grant_right(&self, user_id: i64, right: &str, at: i64) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query(
                    "INSERT INTO user_rights (user_id, name, granted_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (user_id, name) DO NOTHING",
                )
                .bind(user_id)
                .bind(right)
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn revoke_right(&self, user_id: i64, right: &str) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query("DELETE FROM user_rights WHERE user_id = $1 AND name = $2")
                    .bind(user_id)
                    .bind(right)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn has_right(&self, user_id: i64, right: &str) -> Result<bool, $crate::StoreError> {
                let row = sqlx::query("SELECT 1 FROM user_rights WHERE user_id = $1 AND name = $2")
                    .bind(user_id)
                    .bind(right)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(row.is_some())
            }
        }

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

pub(crate) use shared_sql;
