//! Tournaments: one row each, the server's record of it as JSON beside the
//! columns a list is sorted and filtered by.

use sqlx::Row;

use crate::{Store, StoreError};

/// A stored tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTournament {
    /// Its id.
    pub id: String,
    /// `created`, `started` or `finished`.
    pub status: String,
    /// The organiser.
    pub created_by: i64,
    /// When it was created, ms.
    pub created_at: i64,
    /// When it starts (or started), ms.
    pub starts_at: i64,
    /// The whole record, JSON.
    pub data: String,
}

fn read(row: &sqlx::sqlite::SqliteRow) -> Result<StoredTournament, StoreError> {
    Ok(StoredTournament {
        id: row.try_get("id")?,
        status: row.try_get("status")?,
        created_by: row.try_get("created_by")?,
        created_at: row.try_get("created_at")?,
        starts_at: row.try_get("starts_at")?,
        data: row.try_get("data")?,
    })
}

impl Store {
    /// Stores a tournament, replacing what was stored of it.
    pub async fn save_tournament(&self, t: &StoredTournament) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournaments (id, status, created_by, created_at, starts_at, data) \
             VALUES (?, ?, ?, ?, ?, ?) \
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

    /// The tournament with this id.
    pub async fn tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        let row = sqlx::query("SELECT * FROM tournaments WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(read).transpose()
    }

    /// Tournaments with this status, the next to start first (finished ones: the
    /// latest first), at most `limit`.
    pub async fn tournaments(
        &self,
        status: &str,
        limit: i64,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        let order = if status == "finished" { "DESC" } else { "ASC" };
        let rows = sqlx::query(&format!(
            "SELECT * FROM tournaments WHERE status = ? ORDER BY starts_at {order}, id LIMIT ?"
        ))
        .bind(status)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read).collect()
    }
}
