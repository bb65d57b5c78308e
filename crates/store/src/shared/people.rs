//! Accounts, API tokens, browser sessions and rights, in SQL both backends take.

/// Implements [`People`](crate::backend::People) for a backend with a `pool`
/// field, inside [`shared_sql`](super::shared_sql)'s expansion (its row readers).
macro_rules! shared_people {
    ($store:ty) => {
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
    };
}

pub(crate) use shared_people;
