//! The embedded backend: one SQLite file in write-ahead-log mode, a pool for
//! reads and everything else, and one connection of its own for the games'
//! event logs (group commits), with checkpoints kept beside the writer.

mod backup;
mod copy;
mod nodes;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Acquire, SqliteConnection, SqlitePool};
use tokio::sync::oneshot;

use crate::backend::EventLog;
use crate::model::{Append, StoredGame};
use crate::puzzles::puzzle_sql;
use crate::safety::safety_sql;
use crate::shared::shared_sql;
use crate::StoreError;

/// A SQLite installation.
pub(crate) struct SqliteStore {
    pool: SqlitePool,
    /// One connection for appending to games' event logs. SQLite has one writer at
    /// a time anyway; keeping the appends on one connection keeps its page cache
    /// valid from one group commit to the next (a connection whose cache another
    /// connection's write made stale must read the pages again).
    appends: SqlitePool,
    /// Stops the background checkpoints when the store is dropped.
    _checkpoints: oneshot::Sender<()>,
    /// Whether the games left unfinished by the last run were taken over.
    taken_over: std::sync::atomic::AtomicBool,
}

/// Each connection's page cache, KiB: the index pages of ten thousand live games'
/// event logs stay in memory instead of being read again on every commit.
const CACHE_KIB: u32 = 32 * 1024;

/// How often the write-ahead log is copied back into the database file while
/// something is being written, and while nothing is.
const CHECKPOINT_BUSY: Duration = Duration::from_millis(25);
const CHECKPOINT_IDLE: Duration = Duration::from_millis(500);
/// The log's length, in pages, at which the appends' connection checkpoints.
pub(crate) const CHECKPOINT_PAGES: u32 = 8192;

impl SqliteStore {
    /// Tokens made in the same millisecond, newest first: by row id.
    const TOKEN_ORDER: &'static str = "rowid";
    /// Ratings recorded in the same millisecond, in order: by row id.
    const HISTORY_ORDER: &'static str = "rowid";

    /// Opens (creating if missing) the database file at `path` and applies the
    /// migrations.
    pub async fn open(path: &str) -> Result<Arc<SqliteStore>, StoreError> {
        // FULL: a commit returns once its part of the log is on the disk (fsync),
        // so an acknowledged move survives a power cut or a crash of the machine,
        // not only of the server (NORMAL's promise). Group commit pays one fsync
        // for many games: at 5,000 moves/s it adds about half a millisecond.
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{path}"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true)
            .pragma("cache_size", format!("-{CACHE_KIB}"));
        // A connection is a local file handle, not a socket: testing it before each
        // use would only add a round trip to SQLite's worker thread.
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        sqlx::migrate!("../../migrations/sqlite").run(&pool).await?;
        // SQLite copies the write-ahead log back into the database (a checkpoint)
        // inside the commit that makes the log long enough (a thousand pages by
        // default), and every game waiting for the next group commit waits for it.
        // So a task checkpoints often, beside the writer, and the appends'
        // connection checkpoints itself only at a longer log, when little is left
        // to copy: that last checkpoint lets the next write start the log afresh
        // (a log checkpointed only beside a busy writer would grow forever).
        let appends = SqlitePoolOptions::new()
            .max_connections(1)
            .test_before_acquire(false)
            .connect_with(options.pragma("wal_autocheckpoint", CHECKPOINT_PAGES.to_string()))
            .await?;
        let (stop, stopped) = oneshot::channel();
        tokio::spawn(checkpoints(pool.clone(), stopped));
        Ok(Arc::new(SqliteStore {
            pool,
            appends,
            _checkpoints: stop,
            taken_over: std::sync::atomic::AtomicBool::new(false),
        }))
    }
}

shared_sql!(SqliteStore, SqliteRow);
safety_sql!(SqliteStore, SqliteRow);
puzzle_sql!(SqliteStore, SqliteRow);

#[async_trait]
impl EventLog for SqliteStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, white_id, black_id, setup, created_at, finished, result, rated, source) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
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
        .execute(&mut *tx)
        .await?;
        let rows: Vec<(&str, i64, &str)> = (game.events.iter().enumerate())
            .map(|(seq, event)| (game.id.as_str(), seq as i64, event.as_str()))
            .collect();
        insert_events(&mut tx, &rows).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The events go in with multi-row inserts, so a batch costs a few
    /// statements, not one per event — and a batch that is one insert and
    /// finishes no game is that one statement, which SQLite makes a transaction
    /// of its own.
    async fn append_batch(&self, batch: &[Append]) -> Result<(), StoreError> {
        let rows = crate::event_rows(batch);
        let mut conn = self.appends.acquire().await?;
        if rows.len() <= ROWS_PER_INSERT && batch.iter().all(|a| a.result.is_none()) {
            return insert_events(&mut conn, &rows).await;
        }
        let mut tx = conn.begin().await?;
        insert_events(&mut tx, &rows).await?;
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

/// Checkpoints the write-ahead log until `stop` is dropped: every
/// [`CHECKPOINT_BUSY`] while the log has pages not yet copied, else every
/// [`CHECKPOINT_IDLE`]. Passive: it copies what no reader still needs and never
/// blocks the writer; what is left is copied next time.
async fn checkpoints(pool: SqlitePool, mut stop: oneshot::Receiver<()>) {
    let mut wait = CHECKPOINT_IDLE;
    loop {
        tokio::select! {
            _ = &mut stop => break,
            () = tokio::time::sleep(wait) => {}
        }
        // (busy, pages in the log, pages copied); a failure is retried later.
        let done = sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&pool)
            .await;
        wait = match done {
            Ok((_, log, copied)) if copied < log => CHECKPOINT_BUSY,
            _ => CHECKPOINT_IDLE,
        };
    }
}

/// Rows in one multi-row insert: three parameters each, far below SQLite's limit.
const ROWS_PER_INSERT: usize = 1_000;

/// Inserts events, given as (game, sequence number, event), a thousand to a
/// statement; a number already taken is a [`StoreError::Conflict`].
async fn insert_events(
    conn: &mut SqliteConnection,
    rows: &[(&str, i64, &str)],
) -> Result<(), StoreError> {
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut insert = sqlx::QueryBuilder::new("INSERT INTO game_events (game_id, seq, event) ");
        insert.push_values(chunk, |mut row, (game, seq, event)| {
            row.push_bind(*game).push_bind(*seq).push_bind(*event);
        });
        match insert.build().execute(&mut *conn).await {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(conflict_in(conn, chunk).await);
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// The conflict that made inserting `rows` fail: the first row already stored.
async fn conflict_in(conn: &mut SqliteConnection, rows: &[(&str, i64, &str)]) -> StoreError {
    for &(game, seq, _) in rows {
        let found = sqlx::query("SELECT 1 FROM game_events WHERE game_id = $1 AND seq = $2")
            .bind(game)
            .bind(seq)
            .fetch_optional(&mut *conn)
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
