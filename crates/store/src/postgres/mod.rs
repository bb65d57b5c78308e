//! The backend for several nodes: PostgreSQL, reached over a pool of
//! connections. Its own migrations keep the same tables as SQLite's, with
//! PostgreSQL's types (`BIGINT`, `BOOLEAN`, `DOUBLE PRECISION`, sequences).

mod nodes;

use std::path::Path;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use async_trait::async_trait;
use sqlx::postgres::{PgPoolOptions, PgRow};
use sqlx::{PgConnection, PgPool};

use crate::backend::{EventLog, Installation};
use crate::model::{Append, Backup, StoredGame};
use crate::puzzles::puzzle_sql;
use crate::rows::{Table, TableSql, Value};
use crate::safety::safety_sql;
use crate::shared::shared_sql;
use crate::StoreError;

/// A PostgreSQL installation.
pub(crate) struct PgStore {
    pool: PgPool,
    /// The connection holding the installation's advisory lock, once claimed.
    exclusive: tokio::sync::Mutex<Option<PgConnection>>,
    /// This node's lease generation once it joined: the owner of the games it
    /// creates, and the only owner it may append for.
    generation: RwLock<Option<i64>>,
}

/// The advisory lock a server holds on its installation (any number: the
/// database is the installation).
const EXCLUSIVE_LOCK: i64 = 0x6361_6973_7361; // "caissa"

/// Connections each node keeps to the database.
const CONNECTIONS: u32 = 16;

impl PgStore {
    /// Tokens made in the same millisecond, newest first: by their sequence.
    const TOKEN_ORDER: &'static str = "seq";
    /// Ratings recorded in the same millisecond, in order: by their sequence.
    const HISTORY_ORDER: &'static str = "seq";

    /// Connects to the database at `url` (`postgres://...`) and applies the
    /// migrations (several nodes starting at once take turns: sqlx holds an
    /// advisory lock while it migrates).
    pub async fn open(url: &str) -> Result<Arc<PgStore>, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await?;
        sqlx::migrate!("../../migrations/postgres")
            .run(&pool)
            .await?;
        Ok(Arc::new(PgStore {
            pool,
            exclusive: tokio::sync::Mutex::new(None),
            generation: RwLock::new(None),
        }))
    }
}

shared_sql!(PgStore, PgRow);
safety_sql!(PgStore, PgRow);
puzzle_sql!(PgStore, PgRow);

impl PgStore {
    /// This node's lease generation, once it joined.
    fn generation(&self) -> Option<i64> {
        *self.generation.read().unwrap_or_else(|e| e.into_inner())
    }
}

#[async_trait]
impl EventLog for PgStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, white_id, black_id, setup, created_at, finished, result, rated, source, owner) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&game.id)
        .bind(game.white_id)
        .bind(game.black_id)
        .bind(&game.setup)
        .bind(game.created_at)
        .bind(game.finished)
        .bind(&game.result)
        .bind(game.rated)
        .bind(&game.source)
        .bind(self.generation())
        .execute(&mut *tx)
        .await?;
        let rows: Vec<(&str, i64, &str)> = (game.events.iter().enumerate())
            .map(|(seq, event)| (game.id.as_str(), seq as i64, event.as_str()))
            .collect();
        if !insert_events(&mut tx, &rows).await? {
            drop(tx);
            return Err(self.conflict_in(&rows).await);
        }
        tx.commit().await?;
        Ok(())
    }

    /// One transaction: once this node joined, the games' rows locked and
    /// checked to be its own (see `nodes`); the events in multi-row inserts;
    /// the games that finished.
    async fn append_batch(&self, batch: &[Append]) -> Result<(), StoreError> {
        let rows = crate::event_rows(batch);
        let mut tx = self.pool.begin().await?;
        if let Some(generation) = self.generation() {
            let mut games: Vec<&str> = batch.iter().map(|a| a.game_id.as_str()).collect();
            games.sort_unstable();
            games.dedup();
            let owned: Vec<String> = sqlx::query_scalar(
                "SELECT id FROM games WHERE id = ANY($1) AND owner = $2 ORDER BY id FOR SHARE",
            )
            .bind(&games)
            .bind(generation)
            .fetch_all(&mut *tx)
            .await?;
            if let Some(lost) = games.iter().find(|g| !owned.iter().any(|o| o == *g)) {
                return Err(StoreError::Fenced {
                    game: lost.to_string(),
                });
            }
        }
        if !insert_events(&mut tx, &rows).await? {
            // The transaction is spoilt by the failed insert: rolled back, and
            // the conflict looked up outside it.
            drop(tx);
            return Err(self.conflict_in(&rows).await);
        }
        for append in batch {
            if let Some(result) = &append.result {
                sqlx::query("UPDATE games SET finished = TRUE, result = $1 WHERE id = $2")
                    .bind(result)
                    .bind(&append.game_id)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }
}

impl PgStore {
    /// The conflict that made inserting `rows` fail: the first row already stored.
    async fn conflict_in(&self, rows: &[(&str, i64, &str)]) -> StoreError {
        for &(game, seq, _) in rows {
            let found = sqlx::query("SELECT 1 FROM game_events WHERE game_id = $1 AND seq = $2")
                .bind(game)
                .bind(seq)
                .fetch_optional(&self.pool)
                .await;
            match found {
                Ok(Some(_)) => return crate::conflict(game, seq),
                Ok(None) => {}
                Err(e) => return e.into(),
            }
        }
        // Two rows of the batch itself had the same game and number.
        let (game, seq, _) = rows[0];
        crate::conflict(game, seq)
    }
}

/// Rows in one multi-row insert: three parameters each, far below PostgreSQL's
/// limit of 65,535.
const ROWS_PER_INSERT: usize = 1_000;

/// Inserts events, given as (game, sequence number, event); false when one of
/// them was already there (the transaction must then be abandoned).
async fn insert_events(
    conn: &mut PgConnection,
    rows: &[(&str, i64, &str)],
) -> Result<bool, StoreError> {
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut insert = sqlx::QueryBuilder::new("INSERT INTO game_events (game_id, seq, event) ");
        insert.push_values(chunk, |mut row, (game, seq, event)| {
            row.push_bind(*game).push_bind(*seq).push_bind(*event);
        });
        match insert.build().execute(&mut *conn).await {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Ok(false),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(true)
}

/// The tables whose ids come from a sequence, and the column.
const SEQUENCES: [(&str, &str); 5] = [
    ("users", "id"),
    ("reports", "id"),
    ("tokens", "seq"),
    ("chat_lines", "seq"),
    ("rating_history", "seq"),
];

#[async_trait]
impl Installation for PgStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    async fn read_rows(
        &self,
        table: Table,
        after: Option<&[Value]>,
        limit: i64,
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        read_table_rows(
            &self.pool,
            table,
            &TableSql::new(table, false),
            after,
            limit,
        )
        .await
    }

    async fn write_rows(&self, table: Table, rows: &[Vec<Value>]) -> Result<u64, StoreError> {
        write_table_rows(&self.pool, table, &TableSql::new(table, false), rows).await
    }

    async fn after_copy(&self) -> Result<(), StoreError> {
        for (table, column) in SEQUENCES {
            // The next id after the largest copied (or 1 in an empty table).
            sqlx::query(&format!(
                "SELECT setval(pg_get_serial_sequence('{table}', '{column}'), \
                 COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
            ))
            .execute(&self.pool)
            .await?;
        }
        Ok(())
    }

    async fn claim_exclusive(&self) -> Result<bool, StoreError> {
        let mut held = self.exclusive.lock().await;
        if held.is_some() {
            return Ok(true);
        }
        // A node serving the installation holds a running lease.
        let serving: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM node_leases WHERE expires_at > {}",
            nodes::NOW_MS
        ))
        .fetch_one(&self.pool)
        .await?;
        if serving > 0 {
            return Ok(false);
        }
        // A connection of its own, out of the pool: the lock lasts as long as
        // it does, and goes with it if this process dies.
        let mut conn = self.pool.acquire().await?.detach();
        let (taken,): (bool,) = sqlx::query_as("SELECT pg_try_advisory_lock($1)")
            .bind(EXCLUSIVE_LOCK)
            .fetch_one(&mut conn)
            .await?;
        if taken {
            *held = Some(conn);
        }
        Ok(taken)
    }

    async fn backup_to(&self, target: &Path) -> Result<Backup, StoreError> {
        Err(StoreError::Backup {
            path: target.display().to_string(),
            reason: "a PostgreSQL installation is backed up with its own tools: \
                     pg_dump -Fc -f caissa.dump postgres://... (pg_restore puts it back)"
                .into(),
        })
    }
}
