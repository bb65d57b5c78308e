//! Persistence: accounts, API tokens, games and each game's event log.
//!
//! A game is stored as its setup and an append-only list of events (JSON written by
//! the arbiter); appending is a transaction, so an event is either durable or not
//! there at all. The store knows nothing of chess: it keeps text.

mod arbiters;
mod backup;
mod ratings;
mod sessions;
mod tournaments;

pub use backup::Backup;
pub use ratings::StoredRating;
pub use tournaments::StoredTournament;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Acquire, Row, SqliteConnection, SqlitePool};
use tokio::sync::oneshot;

/// What went wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL is not `sqlite://<path>` (PostgreSQL comes later).
    #[error("unsupported database URL {0:?}: expected sqlite://<path>")]
    BadUrl(String),
    /// A name is taken.
    #[error("the name {0:?} is already taken")]
    NameTaken(String),
    /// An event with this sequence number exists: someone else appended first.
    #[error("game {game}: event {seq} was already written")]
    Conflict {
        /// The game.
        game: String,
        /// The sequence number.
        seq: u64,
    },
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A backup could not be written.
    #[error("backup to {path}: {reason}")]
    Backup {
        /// The file it was to be written to.
        path: String,
        /// Why not.
        reason: String,
    },
}

/// An account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// Database id.
    pub id: i64,
    /// The name as chosen.
    pub name: String,
    /// The argon2id hash of the password, if the account has one.
    pub password_hash: Option<String>,
    /// Creation time, ms since the Unix epoch.
    pub created_at: i64,
}

/// Which of a user's games to list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFilter {
    /// Finished games.
    pub finished: bool,
    /// Games being played.
    pub ongoing: bool,
    /// Only against this user.
    pub vs: Option<i64>,
    /// Only rated (`true`) or casual (`false`) games.
    pub rated: Option<bool>,
    /// Only as White (`true`) or as Black (`false`).
    pub color_white: Option<bool>,
    /// Only games created at or after this moment, ms.
    pub since: Option<i64>,
    /// Only games created at or before this moment, ms.
    pub until: Option<i64>,
    /// Oldest first instead of newest first.
    pub oldest_first: bool,
    /// At most this many.
    pub limit: i64,
}

impl Default for GameFilter {
    /// The finished games, newest first, a hundred at most.
    fn default() -> GameFilter {
        GameFilter {
            finished: true,
            ongoing: false,
            vs: None,
            rated: None,
            color_white: None,
            since: None,
            until: None,
            oldest_first: false,
            limit: 100,
        }
    }
}

/// An API token, as stored: its hash, never the token itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredToken {
    /// The SHA-256 of the token, hex.
    pub hash: String,
    /// Whose it is.
    pub user_id: i64,
    /// What it may be used for, separated by spaces.
    pub scopes: String,
    /// What its owner said it is for.
    pub description: String,
    /// When it was made, ms.
    pub created_at: i64,
}

/// A challenge waiting for an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChallenge {
    /// Its id (the game's, once accepted).
    pub id: String,
    /// Who challenges.
    pub challenger_id: i64,
    /// Who is challenged; `None` for an open challenge.
    pub dest_id: Option<i64>,
    /// Its terms, as the server wrote them.
    pub terms: String,
    /// When it was made, ms.
    pub created_at: i64,
}

/// A line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// `player` (the two players' room) or `spectator`.
    pub room: String,
    /// Who wrote it.
    pub username: String,
    /// What was written.
    pub text: String,
    /// When, ms since the Unix epoch.
    pub at: i64,
}

/// A stored game: setup and events, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's id.
    pub id: String,
    /// White's user id.
    pub white_id: i64,
    /// Black's user id.
    pub black_id: i64,
    /// The setup, as JSON.
    pub setup: String,
    /// Creation time, ms since the Unix epoch.
    pub created_at: i64,
    /// Whether the game has ended.
    pub finished: bool,
    /// The PGN result of a finished game.
    pub result: Option<String>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// Where the game comes from: `friend`, `lobby`, `ai`, `arena:ID`, `swiss:ID`.
    pub source: String,
    /// The events in order, as JSON.
    pub events: Vec<String>,
}

/// New events of one game, for [`Store::append_batch`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Append {
    /// The game.
    pub game_id: String,
    /// Sequence number of the first event.
    pub first_seq: u64,
    /// The events, as JSON.
    pub events: Vec<String>,
    /// The PGN result if the game has just finished.
    pub result: Option<String>,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
    /// One connection for appending to games' event logs. SQLite has one writer at
    /// a time anyway; keeping the appends on one connection keeps its page cache
    /// valid from one group commit to the next (a connection whose cache another
    /// connection's write made stale must read the pages again).
    appends: SqlitePool,
    /// Stops the background checkpoints when the last clone is dropped.
    _checkpoints: Arc<oneshot::Sender<()>>,
}

/// Each connection's page cache, KiB: the index pages of ten thousand live games'
/// event logs stay in memory instead of being read again on every commit.
const CACHE_KIB: u32 = 32 * 1024;

/// How often the write-ahead log is copied back into the database file while
/// something is being written, and while nothing is.
const CHECKPOINT_BUSY: Duration = Duration::from_millis(25);
const CHECKPOINT_IDLE: Duration = Duration::from_millis(500);
/// The log's length, in pages, at which the appends' connection checkpoints.
const CHECKPOINT_PAGES: u32 = 8192;

impl Store {
    /// Opens (creating if missing) the database at `url` (`sqlite://<path>`) and
    /// applies the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .ok_or_else(|| StoreError::BadUrl(url.to_string()))?;
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
        sqlx::migrate!("../../migrations").run(&pool).await?;
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
        Ok(Store {
            pool,
            appends,
            _checkpoints: Arc::new(stop),
        })
    }

    /// Creates an account; names are unique regardless of case.
    pub async fn create_user(
        &self,
        name: &str,
        password_hash: Option<&str>,
        now: i64,
    ) -> Result<User, StoreError> {
        let result = sqlx::query(
            "INSERT INTO users (name, name_key, password_hash, created_at) VALUES (?, ?, ?, ?)",
        )
        .bind(name)
        .bind(name.to_lowercase())
        .bind(password_hash)
        .bind(now)
        .execute(&self.pool)
        .await;
        match result {
            Ok(done) => Ok(User {
                id: done.last_insert_rowid(),
                name: name.to_string(),
                password_hash: password_hash.map(str::to_string),
                created_at: now,
            }),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(StoreError::NameTaken(name.to_string()))
            }
            Err(e) => Err(e.into()),
        }
    }

    fn user_from(row: &sqlx::sqlite::SqliteRow) -> Result<User, sqlx::Error> {
        Ok(User {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            password_hash: row.try_get("password_hash")?,
            created_at: row.try_get("created_at")?,
        })
    }

    /// The account with this name (any case).
    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        let row =
            sqlx::query("SELECT id, name, password_hash, created_at FROM users WHERE name_key = ?")
                .bind(name.to_lowercase())
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| Store::user_from(&r)).transpose()?)
    }

    /// The account with this id.
    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>, StoreError> {
        let row = sqlx::query("SELECT id, name, password_hash, created_at FROM users WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| Store::user_from(&r)).transpose()?)
    }

    /// Records an API token (by its hash) for a user.
    pub async fn create_token(&self, token: &StoredToken) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tokens (token_hash, user_id, scopes, description, created_at) VALUES (?, ?, ?, ?, ?)",
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

    /// A user's tokens, newest first.
    pub async fn tokens_of(&self, user_id: i64) -> Result<Vec<StoredToken>, StoreError> {
        let rows = sqlx::query(
            "SELECT token_hash, user_id, scopes, description, created_at FROM tokens \
             WHERE user_id = ? ORDER BY created_at DESC, rowid DESC",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredToken {
                    hash: r.try_get("token_hash")?,
                    user_id: r.try_get("user_id")?,
                    scopes: r.try_get("scopes")?,
                    description: r.try_get("description")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// The user and scopes of a token, by the token's hash.
    pub async fn user_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<(User, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT u.id, u.name, u.password_hash, u.created_at, t.scopes FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            None => Ok(None),
            Some(r) => Ok(Some((Store::user_from(&r)?, r.try_get("scopes")?))),
        }
    }

    /// Revokes one of a user's tokens, by its hash; whether the user had it.
    pub async fn delete_token(&self, user_id: i64, token_hash: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM tokens WHERE token_hash = ? AND user_id = ?")
            .bind(token_hash)
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Creates a game with its first events, in one transaction.
    pub async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO games (id, white_id, black_id, setup, created_at, finished, result, rated, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
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

    /// Appends events starting at sequence number `first_seq`, and marks the game
    /// finished with `result` if given — all durable when this returns.
    pub async fn append_events(
        &self,
        game_id: &str,
        first_seq: u64,
        events: &[String],
        result: Option<&str>,
    ) -> Result<(), StoreError> {
        let append = Append {
            game_id: game_id.to_string(),
            first_seq,
            events: events.to_vec(),
            result: result.map(str::to_string),
        };
        self.append_batch(std::slice::from_ref(&append)).await
    }

    /// Appends the events of several games in one transaction (group commit): all
    /// are durable when this returns, or none is written. The events go in with
    /// multi-row inserts, so a batch costs a few statements, not one per event —
    /// and a batch that is one insert and finishes no game is that one statement,
    /// which SQLite makes a transaction of its own.
    pub async fn append_batch(&self, batch: &[Append]) -> Result<(), StoreError> {
        let rows: Vec<(&str, i64, &str)> = batch
            .iter()
            .flat_map(|a| {
                a.events.iter().enumerate().map(move |(i, event)| {
                    (
                        a.game_id.as_str(),
                        (a.first_seq + i as u64) as i64,
                        event.as_str(),
                    )
                })
            })
            .collect();
        let mut conn = self.appends.acquire().await?;
        if rows.len() <= ROWS_PER_INSERT && batch.iter().all(|a| a.result.is_none()) {
            return insert_events(&mut conn, &rows).await;
        }
        let mut tx = conn.begin().await?;
        insert_events(&mut tx, &rows).await?;
        for append in batch {
            if let Some(result) = &append.result {
                sqlx::query("UPDATE games SET finished = 1, result = ? WHERE id = ?")
                    .bind(result)
                    .bind(&append.game_id)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// A game with all its events.
    pub async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let row = sqlx::query("SELECT id, white_id, black_id, setup, created_at, finished, result, rated, source FROM games WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            None => Ok(None),
            Some(row) => Ok(Some(self.with_events(&row).await?)),
        }
    }

    async fn with_events(&self, row: &sqlx::sqlite::SqliteRow) -> Result<StoredGame, StoreError> {
        let id: String = row.try_get("id")?;
        let events = sqlx::query("SELECT event FROM game_events WHERE game_id = ? ORDER BY seq")
            .bind(&id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.try_get::<String, _>("event"))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(StoredGame {
            id,
            white_id: row.try_get("white_id")?,
            black_id: row.try_get("black_id")?,
            setup: row.try_get("setup")?,
            created_at: row.try_get("created_at")?,
            finished: row.try_get::<i64, _>("finished")? != 0,
            result: row.try_get("result")?,
            rated: row.try_get::<i64, _>("rated")? != 0,
            source: row.try_get("source")?,
            events,
        })
    }

    /// Games not yet finished (to resume after a restart).
    pub async fn live_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        let rows = sqlx::query("SELECT id, white_id, black_id, setup, created_at, finished, result, rated, source FROM games WHERE finished = 0 ORDER BY created_at")
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            out.push(self.with_events(row).await?);
        }
        Ok(out)
    }

    /// Keeps a challenge until it is answered.
    pub async fn save_challenge(&self, c: &StoredChallenge) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO challenges (id, challenger_id, dest_id, terms, created_at) VALUES (?, ?, ?, ?, ?)")
            .bind(&c.id)
            .bind(c.challenger_id)
            .bind(c.dest_id)
            .bind(&c.terms)
            .bind(c.created_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets an answered (or withdrawn) challenge.
    pub async fn delete_challenge(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM challenges WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Every challenge waiting for an answer, oldest first.
    pub async fn challenges(&self) -> Result<Vec<StoredChallenge>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, challenger_id, dest_id, terms, created_at FROM challenges ORDER BY created_at",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredChallenge {
                    id: r.try_get("id")?,
                    challenger_id: r.try_get("challenger_id")?,
                    dest_id: r.try_get("dest_id")?,
                    terms: r.try_get("terms")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// Keeps a line of `game_id`'s chat.
    pub async fn add_chat_line(&self, game_id: &str, line: &ChatLine) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO chat_lines (game_id, room, username, text, at) VALUES (?, ?, ?, ?, ?)",
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

    /// The last `limit` lines of a room of `game_id`'s chat, oldest first.
    pub async fn chat_lines(
        &self,
        game_id: &str,
        room: &str,
        limit: i64,
    ) -> Result<Vec<ChatLine>, StoreError> {
        let rows = sqlx::query(
            "SELECT room, username, text, at FROM (SELECT * FROM chat_lines \
             WHERE game_id = ? AND room = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq",
        )
        .bind(game_id)
        .bind(room)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatLine {
                    room: r.try_get("room")?,
                    username: r.try_get("username")?,
                    text: r.try_get("text")?,
                    at: r.try_get("at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// Records that the server is running at `at` (ms since the epoch).
    pub async fn beat(&self, at: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO heartbeat (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at")
            .bind(at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// When the server was last recorded running, if ever.
    pub async fn last_beat(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT at FROM heartbeat WHERE id = 1")
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("at")).transpose()?)
    }

    /// The ids of a user's games that pass `filter`, newest first unless it
    /// says oldest.
    pub async fn game_ids_of_user(
        &self,
        user_id: i64,
        filter: &GameFilter,
    ) -> Result<Vec<String>, StoreError> {
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
            .push(" AND ((finished = 1 AND ")
            .push_bind(filter.finished)
            .push(") OR (finished = 0 AND ")
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
        if let Some(since) = filter.since {
            query.push(" AND created_at >= ").push_bind(since);
        }
        if let Some(until) = filter.until {
            query.push(" AND created_at <= ").push_bind(until);
        }
        query.push(if filter.oldest_first {
            " ORDER BY created_at ASC"
        } else {
            " ORDER BY created_at DESC"
        });
        query.push(" LIMIT ").push_bind(filter.limit);
        let rows = query.build().fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(StoreError::from))
            .collect()
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
        let found = sqlx::query("SELECT 1 FROM game_events WHERE game_id = ? AND seq = ?")
            .bind(game)
            .bind(seq)
            .fetch_optional(&mut *conn)
            .await;
        match found {
            Ok(Some(_)) => {
                return StoreError::Conflict {
                    game: game.to_string(),
                    seq: seq as u64,
                }
            }
            Ok(None) => {}
            Err(e) => return e.into(),
        }
    }
    // Two rows of the batch itself had the same game and number.
    let (game, seq, _) = rows[0];
    StoreError::Conflict {
        game: game.to_string(),
        seq: seq as u64,
    }
}

#[cfg(test)]
mod tests;
