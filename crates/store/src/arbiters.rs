//! Who may act as arbiter: rights granted to accounts by an operator, and the
//! arbiters named for single games.

use sqlx::Row;

use crate::{Store, StoreError};

impl Store {
    /// Grants `right` (e.g. `arbiter`) to a user; false if the user had it already.
    pub async fn grant_right(
        &self,
        user_id: i64,
        right: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO user_rights (user_id, name, granted_at) VALUES (?, ?, ?) \
             ON CONFLICT (user_id, name) DO NOTHING",
        )
        .bind(user_id)
        .bind(right)
        .bind(at)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes `right` back; false if the user did not have it.
    pub async fn revoke_right(&self, user_id: i64, right: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM user_rights WHERE user_id = ? AND name = ?")
            .bind(user_id)
            .bind(right)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Whether a user holds `right`.
    pub async fn has_right(&self, user_id: i64, right: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM user_rights WHERE user_id = ? AND name = ?")
            .bind(user_id)
            .bind(right)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Names the arbiters of a game (adding to any named before).
    pub async fn add_game_arbiters(
        &self,
        game_id: &str,
        user_ids: &[i64],
    ) -> Result<(), StoreError> {
        for &user_id in user_ids {
            sqlx::query(
                "INSERT INTO game_arbiters (game_id, user_id) VALUES (?, ?) \
                 ON CONFLICT (game_id, user_id) DO NOTHING",
            )
            .bind(game_id)
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        }
        Ok(())
    }

    /// The users named arbiters of a game.
    pub async fn game_arbiters(&self, game_id: &str) -> Result<Vec<i64>, StoreError> {
        let rows =
            sqlx::query("SELECT user_id FROM game_arbiters WHERE game_id = ? ORDER BY user_id")
                .bind(game_id)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("user_id"))
            .collect::<Result<_, _>>()?)
    }

    /// The games a user was named arbiter of, newest first: every unfinished one
    /// and the last `finished` finished ones, as (id, whether finished).
    pub async fn arbitrated_games(
        &self,
        user_id: i64,
        finished: u32,
    ) -> Result<Vec<(String, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, finished FROM ( \
               SELECT g.id, g.finished, g.created_at FROM game_arbiters a JOIN games g ON g.id = a.game_id \
               WHERE a.user_id = ? AND g.finished = 0 \
               UNION ALL \
               SELECT * FROM (SELECT g.id, g.finished, g.created_at FROM game_arbiters a \
                 JOIN games g ON g.id = a.game_id WHERE a.user_id = ? AND g.finished = 1 \
                 ORDER BY g.created_at DESC LIMIT ?)) ORDER BY created_at DESC",
        )
        .bind(user_id)
        .bind(user_id)
        .bind(finished)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get::<bool, _>("finished")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }
}
