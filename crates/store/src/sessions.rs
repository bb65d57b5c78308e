//! Browser sessions, by the hash of their cookie, with their CSRF tokens.

use sqlx::Row;

use crate::{Store, StoreError, User};

impl Store {
    /// Records a browser session (by the cookie's hash) with its CSRF token.
    pub async fn create_session(
        &self,
        session_hash: &str,
        user_id: i64,
        csrf: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (session_hash, user_id, csrf, created_at) VALUES (?, ?, ?, ?)",
        )
        .bind(session_hash)
        .bind(user_id)
        .bind(csrf)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The user and CSRF token of a session started at `created_after` or later
    /// (an older one has expired).
    pub async fn session(
        &self,
        session_hash: &str,
        created_after: i64,
    ) -> Result<Option<(User, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT u.id, u.name, u.password_hash, u.created_at, s.csrf FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.session_hash = ? AND s.created_at >= ?",
        )
        .bind(session_hash)
        .bind(created_after)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            None => Ok(None),
            Some(r) => Ok(Some((Store::user_from(&r)?, r.try_get("csrf")?))),
        }
    }

    /// Forgets the sessions started before `before` (expired); how many.
    pub async fn delete_sessions_before(&self, before: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE created_at < ?")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Ends a session.
    pub async fn delete_session(&self, session_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE session_hash = ?")
            .bind(session_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
