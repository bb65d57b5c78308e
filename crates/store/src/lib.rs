//! Persistence: accounts, API tokens, games and each game's event log, ratings,
//! tournaments — behind one interface with two backends, chosen by the URL:
//! SQLite (`sqlite://<path>`, embedded, the default) and PostgreSQL
//! (`postgres://...`, for several nodes). The server never knows which.
//!
//! A game is stored as its setup and an append-only list of events (JSON written by
//! the arbiter); appending is a transaction, so an event is either durable or not
//! there at all. The store knows nothing of chess: it keeps text.

mod backend;
mod cluster;
mod copy;
mod model;
mod postgres;
mod puzzles;
pub mod rows;
mod safety;
pub mod scratch;
mod shared;
mod sqlite;

pub use cluster::{Heard, Lease, Listener, Owner, TakenOver};
pub use copy::{Copied, TableCopy};
pub use model::{
    Append, Backup, ChatLine, GameFilter, GameRating, Outcome, Report, StoredChallenge, StoredGame,
    StoredRating, StoredToken, StoredTournament, User,
};
pub use puzzles::{PuzzlePick, PuzzleRound, StoredPuzzle};

use std::path::Path;
use std::sync::Arc;

use backend::Backend;

/// What went wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL names no backend this store has.
    #[error("unsupported database URL {0:?}: expected sqlite://<path> or postgres://[user[:password]@]host[:port]/database")]
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
    /// Copying an installation found the copy different from the original.
    #[error("copy of table {table}: {reason}")]
    Copy {
        /// The table.
        table: &'static str,
        /// How the copy differs.
        reason: String,
    },
    /// The game belongs to another node now: this one may no longer write it.
    #[error("game {game} is owned by another node now")]
    Fenced {
        /// The game.
        game: String,
    },
    /// A backup could not be written.
    #[error("backup to {path}: {reason}")]
    Backup {
        /// The file it was to be written to.
        path: String,
        /// Why not.
        reason: String,
    },
}

/// The database: a backend chosen by the URL, cheap to clone.
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn Backend>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({})", self.backend.kind())
    }
}

/// The path of a SQLite URL (`sqlite://<path>` or `sqlite:<path>`, query
/// string left out), or `None` for another kind of URL.
pub fn sqlite_path(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    Some(rest.split('?').next().unwrap_or(rest))
}

/// Whether `url` names a PostgreSQL database.
pub fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

impl Store {
    /// Opens the database at `url` and applies the migrations: a SQLite file
    /// (`sqlite://<path>`, created if missing) or a PostgreSQL database
    /// (`postgres://...`, which must exist).
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let backend: Arc<dyn Backend> = if let Some(path) = sqlite_path(url) {
            if path.is_empty() {
                return Err(StoreError::BadUrl(url.to_string()));
            }
            sqlite::SqliteStore::open(path).await?
        } else if is_postgres(url) {
            postgres::PgStore::open(url).await?
        } else {
            return Err(StoreError::BadUrl(url.to_string()));
        };
        Ok(Store { backend })
    }

    /// `sqlite` or `postgres`.
    pub fn kind(&self) -> &'static str {
        self.backend.kind()
    }

    /// Creates an account; names are unique regardless of case.
    pub async fn create_user(
        &self,
        name: &str,
        password_hash: Option<&str>,
        now: i64,
    ) -> Result<User, StoreError> {
        self.backend.create_user(name, password_hash, now).await
    }

    /// The account with this name (any case).
    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        self.backend.user_by_name(name).await
    }

    /// The account with this id.
    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>, StoreError> {
        self.backend.user_by_id(id).await
    }

    /// Gives user `user_id` a title (`BOT`), for ever: false if they already
    /// have one (or there is no such user).
    pub async fn give_title(&self, user_id: i64, title: &str) -> Result<bool, StoreError> {
        self.backend.give_title(user_id, title).await
    }

    /// Adds `ms` to the time user `user_id` has spent in finished games.
    pub async fn add_play_time(&self, user_id: i64, ms: i64) -> Result<(), StoreError> {
        self.backend.add_play_time(user_id, ms).await
    }

    /// The time user `user_id` has spent in finished games, ms (0 for no
    /// such user).
    pub async fn play_time(&self, user_id: i64) -> Result<i64, StoreError> {
        self.backend.play_time(user_id).await
    }

    /// Records an API token (by its hash) for a user.
    pub async fn create_token(&self, token: &StoredToken) -> Result<(), StoreError> {
        self.backend.create_token(token).await
    }

    /// A user's tokens, newest first.
    pub async fn tokens_of(&self, user_id: i64) -> Result<Vec<StoredToken>, StoreError> {
        self.backend.tokens_of(user_id).await
    }

    /// The user and scopes of a token, by the token's hash.
    pub async fn user_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<(User, String)>, StoreError> {
        self.backend.user_by_token(token_hash).await
    }

    /// Revokes one of a user's tokens, by its hash; whether the user had it.
    pub async fn delete_token(&self, user_id: i64, token_hash: &str) -> Result<bool, StoreError> {
        self.backend.delete_token(user_id, token_hash).await
    }

    /// Records a browser session (by the cookie's hash) with its CSRF token.
    pub async fn create_session(
        &self,
        session_hash: &str,
        user_id: i64,
        csrf: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.backend
            .create_session(session_hash, user_id, csrf, now)
            .await
    }

    /// The user and CSRF token of a session started at `created_after` or later
    /// (an older one has expired).
    pub async fn session(
        &self,
        session_hash: &str,
        created_after: i64,
    ) -> Result<Option<(User, String)>, StoreError> {
        self.backend.session(session_hash, created_after).await
    }

    /// Forgets the sessions started before `before` (expired); how many.
    pub async fn delete_sessions_before(&self, before: i64) -> Result<u64, StoreError> {
        self.backend.delete_sessions_before(before).await
    }

    /// Ends a session.
    pub async fn delete_session(&self, session_hash: &str) -> Result<(), StoreError> {
        self.backend.delete_session(session_hash).await
    }

    /// Closes an account for good: it can no longer sign in, its sessions, API
    /// tokens and waiting challenges go; its name, games and ratings stay.
    /// False if it was closed already.
    pub async fn close_account(&self, user_id: i64, at: i64) -> Result<bool, StoreError> {
        self.backend.close_account(user_id, at).await
    }

    /// Replaces an account's password hash.
    pub async fn set_password(&self, user_id: i64, password_hash: &str) -> Result<(), StoreError> {
        self.backend.set_password(user_id, password_hash).await
    }

    /// Ends every browser session of a user but `keep` (the one asking); how
    /// many ended.
    pub async fn delete_sessions_of(
        &self,
        user_id: i64,
        keep: Option<&str>,
    ) -> Result<u64, StoreError> {
        self.backend.delete_sessions_of(user_id, keep).await
    }

    /// `user_id` blocks `blocked_id`; false if it did already.
    pub async fn block(&self, user_id: i64, blocked_id: i64, at: i64) -> Result<bool, StoreError> {
        self.backend.block(user_id, blocked_id, at).await
    }

    /// `user_id` no longer blocks `blocked_id`; false if it did not.
    pub async fn unblock(&self, user_id: i64, blocked_id: i64) -> Result<bool, StoreError> {
        self.backend.unblock(user_id, blocked_id).await
    }

    /// The users `user_id` blocks, by name.
    pub async fn blocked_by(&self, user_id: i64) -> Result<Vec<User>, StoreError> {
        self.backend.blocked_by(user_id).await
    }

    /// Whether `user_id` blocks `other_id`.
    pub async fn blocks(&self, user_id: i64, other_id: i64) -> Result<bool, StoreError> {
        self.backend.blocks(user_id, other_id).await
    }

    /// Keeps a report (its `id` and `closed_at` are ignored); its number.
    pub async fn add_report(&self, report: &Report) -> Result<i64, StoreError> {
        self.backend.add_report(report).await
    }

    /// Reports in the order they came, only the open ones with `open_only`.
    pub async fn reports(&self, open_only: bool, limit: i64) -> Result<Vec<Report>, StoreError> {
        self.backend.reports(open_only, limit).await
    }

    /// A learner earned `stars` in exercise `exercise` (from 0) of a lesson:
    /// kept if it is more than before; whether it was.
    pub async fn record_stars(
        &self,
        user_id: i64,
        lesson: &str,
        exercise: i64,
        stars: i64,
        at: i64,
    ) -> Result<bool, StoreError> {
        self.backend
            .record_stars(user_id, lesson, exercise, stars, at)
            .await
    }

    /// The most stars a learner earned in each exercise: (lesson, exercise,
    /// stars), by lesson and exercise.
    pub async fn lesson_progress(
        &self,
        user_id: i64,
    ) -> Result<Vec<(String, i64, i64)>, StoreError> {
        self.backend.lesson_progress(user_id).await
    }

    /// Adds puzzles, skipping ids already there; how many were added.
    pub async fn add_puzzles(&self, puzzles: &[StoredPuzzle]) -> Result<u64, StoreError> {
        self.backend.add_puzzles(puzzles).await
    }

    /// The puzzle with this id.
    pub async fn puzzle(&self, id: &str) -> Result<Option<StoredPuzzle>, StoreError> {
        self.backend.puzzle(id).await
    }

    /// How many puzzles there are.
    pub async fn puzzle_count(&self) -> Result<i64, StoreError> {
        self.backend.puzzle_count().await
    }

    /// The puzzle at this place (from 0) in the order of the ids.
    pub async fn puzzle_by_rank(&self, rank: i64) -> Result<Option<StoredPuzzle>, StoreError> {
        self.backend.puzzle_by_rank(rank).await
    }

    /// At most `limit` puzzles whose ids come after `id`, in the order of the ids.
    pub async fn puzzles_after(
        &self,
        id: &str,
        limit: i64,
    ) -> Result<Vec<StoredPuzzle>, StoreError> {
        self.backend.puzzles_after(id, limit).await
    }

    /// Puzzles as `pick` asks, in random order.
    pub async fn pick_puzzles(&self, pick: &PuzzlePick) -> Result<Vec<StoredPuzzle>, StoreError> {
        self.backend.pick_puzzles(pick).await
    }

    /// Records a round in one transaction: the round itself, one more play
    /// and the new Glicko-2 rating `(rating, deviation, volatility)` of the
    /// puzzle, and the player's new `puzzle` rating.
    pub async fn finish_round(
        &self,
        round: &PuzzleRound,
        puzzle_rating: Option<(f64, f64, f64)>,
        player_rating: Option<&StoredRating>,
    ) -> Result<(), StoreError> {
        self.backend
            .finish_round(round, puzzle_rating, player_rating)
            .await
    }

    /// A player's rounds played from `since` to before `before` (ms), newest
    /// first, at most `limit`, each with its puzzle.
    pub async fn puzzle_rounds(
        &self,
        user_id: i64,
        since: i64,
        before: i64,
        limit: i64,
    ) -> Result<Vec<(PuzzleRound, StoredPuzzle)>, StoreError> {
        self.backend
            .puzzle_rounds(user_id, since, before, limit)
            .await
    }

    /// An operator closes report `id`; false if there is no such open report.
    pub async fn close_report(&self, id: i64, at: i64) -> Result<bool, StoreError> {
        self.backend.close_report(id, at).await
    }

    /// Grants `right` (e.g. `arbiter`) to a user; false if the user had it already.
    pub async fn grant_right(
        &self,
        user_id: i64,
        right: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        self.backend.grant_right(user_id, right, at).await
    }

    /// Takes `right` back; false if the user did not have it.
    pub async fn revoke_right(&self, user_id: i64, right: &str) -> Result<bool, StoreError> {
        self.backend.revoke_right(user_id, right).await
    }

    /// Whether a user holds `right`.
    pub async fn has_right(&self, user_id: i64, right: &str) -> Result<bool, StoreError> {
        self.backend.has_right(user_id, right).await
    }

    /// Creates a game with its first events, in one transaction.
    pub async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        self.backend.create_game(game).await
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
    /// are durable when this returns, or none is written. An event whose
    /// sequence number is taken is a [`StoreError::Conflict`].
    pub async fn append_batch(&self, batch: &[Append]) -> Result<(), StoreError> {
        self.backend.append_batch(batch).await
    }

    /// A game with all its events.
    pub async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.backend.game(id).await
    }

    /// A game's events from number `first_seq` on (none for an unknown game):
    /// how a node following a game reads what its owner added.
    pub async fn events_from(
        &self,
        game_id: &str,
        first_seq: u64,
    ) -> Result<Vec<String>, StoreError> {
        self.backend.events_from(game_id, first_seq).await
    }

    /// Games not yet finished (to resume after a restart), oldest first.
    pub async fn live_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.backend.live_games().await
    }

    /// The ids of a user's games that pass `filter`, newest first unless it
    /// says oldest.
    pub async fn game_ids_of_user(
        &self,
        user_id: i64,
        filter: &GameFilter,
    ) -> Result<Vec<String>, StoreError> {
        self.backend.game_ids_of_user(user_id, filter).await
    }

    /// Keeps a challenge until it is answered.
    pub async fn save_challenge(&self, c: &StoredChallenge) -> Result<(), StoreError> {
        self.backend.save_challenge(c).await
    }

    /// Forgets an answered (or withdrawn) challenge; whether it was there: of several nodes answering one challenge at once,
    /// the one that deleted it answered it.
    pub async fn delete_challenge(&self, id: &str) -> Result<bool, StoreError> {
        self.backend.delete_challenge(id).await
    }

    /// One challenge waiting for an answer.
    pub async fn challenge(&self, id: &str) -> Result<Option<StoredChallenge>, StoreError> {
        self.backend.challenge(id).await
    }

    /// Every challenge waiting for an answer, oldest first.
    pub async fn challenges(&self) -> Result<Vec<StoredChallenge>, StoreError> {
        self.backend.challenges().await
    }

    /// Keeps a line of `game_id`'s chat.
    pub async fn add_chat_line(&self, game_id: &str, line: &ChatLine) -> Result<(), StoreError> {
        self.backend.add_chat_line(game_id, line).await
    }

    /// The last `limit` lines of a room of `game_id`'s chat, oldest first.
    pub async fn chat_lines(
        &self,
        game_id: &str,
        room: &str,
        limit: i64,
    ) -> Result<Vec<ChatLine>, StoreError> {
        self.backend.chat_lines(game_id, room, limit).await
    }

    /// Names the arbiters of a game (adding to any named before).
    pub async fn add_game_arbiters(
        &self,
        game_id: &str,
        user_ids: &[i64],
    ) -> Result<(), StoreError> {
        self.backend.add_game_arbiters(game_id, user_ids).await
    }

    /// The users named arbiters of a game.
    pub async fn game_arbiters(&self, game_id: &str) -> Result<Vec<i64>, StoreError> {
        self.backend.game_arbiters(game_id).await
    }

    /// The games a user was named arbiter of, newest first: every unfinished one
    /// and the last `finished` finished ones, as (id, whether finished).
    pub async fn arbitrated_games(
        &self,
        user_id: i64,
        finished: u32,
    ) -> Result<Vec<(String, bool)>, StoreError> {
        self.backend.arbitrated_games(user_id, finished).await
    }

    /// Records that the server is running at `at` (ms since the epoch).
    pub async fn beat(&self, at: i64) -> Result<(), StoreError> {
        self.backend.beat(at).await
    }

    /// When the server was last recorded running, if ever.
    pub async fn last_beat(&self) -> Result<Option<i64>, StoreError> {
        self.backend.last_beat().await
    }

    /// A user's rating for a speed, if they have played it.
    pub async fn rating(
        &self,
        user_id: i64,
        perf: &str,
    ) -> Result<Option<StoredRating>, StoreError> {
        self.backend.rating(user_id, perf).await
    }

    /// All of a user's ratings, by speed.
    pub async fn ratings(&self, user_id: i64) -> Result<Vec<(String, StoredRating)>, StoreError> {
        self.backend.ratings(user_id).await
    }

    /// The best-rated players at a speed whose deviation is at most
    /// `max_deviation` (established ratings), best first, at most `limit`.
    pub async fn leaderboard(
        &self,
        perf: &str,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<(User, StoredRating)>, StoreError> {
        self.backend.leaderboard(perf, max_deviation, limit).await
    }

    /// A user's ladder points and games.
    pub async fn ladder(&self, user_id: i64) -> Result<(i64, i64), StoreError> {
        self.backend.ladder(user_id).await
    }

    /// Records the rating changes of one finished game for both players in one
    /// transaction: `(user, perf, new rating, ladder points delta)`.
    pub async fn record_ratings(
        &self,
        game_id: &str,
        now: i64,
        updates: &[(i64, String, StoredRating, i64)],
    ) -> Result<(), StoreError> {
        self.backend.record_ratings(game_id, now, updates).await
    }

    /// A user's rating history for a speed: `(ms, rating)`, oldest first.
    pub async fn rating_history(
        &self,
        user_id: i64,
        perf: &str,
    ) -> Result<Vec<(i64, f64)>, StoreError> {
        self.backend.rating_history(user_id, perf).await
    }

    /// How a rated game moved its players' ratings at its speed.
    pub async fn game_ratings(&self, game_id: &str) -> Result<Vec<GameRating>, StoreError> {
        self.backend.game_ratings(game_id).await
    }

    /// Stores a tournament, replacing what was stored of it.
    pub async fn save_tournament(&self, t: &StoredTournament) -> Result<(), StoreError> {
        self.backend.save_tournament(t).await
    }

    /// The tournament with this id.
    pub async fn tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        self.backend.tournament(id).await
    }

    /// Tournaments with this status, the next to start first (finished ones: the
    /// latest first), at most `limit`.
    pub async fn tournaments(
        &self,
        status: &str,
        limit: i64,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        self.backend.tournaments(status, limit).await
    }

    /// Takes the installation for this process alone while the store lives
    /// (PostgreSQL: an advisory lock on a connection of its own, gone with the
    /// process; SQLite files are locked beside the file by the server). False if
    /// another process holds it.
    pub async fn claim_exclusive(&self) -> Result<bool, StoreError> {
        self.backend.claim_exclusive().await
    }

    /// Joins the nodes serving this installation, reachable by the others at
    /// `address`, with a lease of `ttl` to renew; `None` on SQLite (one node).
    /// Games this node creates are its own from now on. A running lease at
    /// the same address is an earlier run of this node: it ends now.
    pub async fn join(
        &self,
        address: &str,
        ttl: std::time::Duration,
    ) -> Result<Option<Lease>, StoreError> {
        self.backend.join(address, ttl.as_millis() as i64).await
    }

    /// Renews this node's lease for `ttl` more; false if it had run out (the
    /// node must then stop running its games: others may have taken them).
    pub async fn renew(&self, ttl: std::time::Duration) -> Result<bool, StoreError> {
        self.backend.renew(ttl.as_millis() as i64).await
    }

    /// Ends this node's lease now, so that others take its games at once.
    pub async fn leave(&self) -> Result<(), StoreError> {
        self.backend.leave().await
    }

    /// Takes over up to `limit` unfinished games that no running node owns:
    /// on SQLite, at the first call, those the last run left; on PostgreSQL,
    /// those of nodes whose lease ran out. Each comes with all its events.
    pub async fn take_over(&self, limit: i64) -> Result<Vec<TakenOver>, StoreError> {
        self.backend.take_over(limit).await
    }

    /// The node owning a game (none on SQLite, or for a game nobody owns).
    pub async fn owner_of(&self, game_id: &str) -> Result<Option<Owner>, StoreError> {
        self.backend.owner_of(game_id).await
    }

    /// The nodes whose lease runs now, oldest first (none on SQLite).
    pub async fn running_nodes(&self) -> Result<Vec<Lease>, StoreError> {
        self.backend.running_nodes().await
    }

    /// The secret nodes show each other: the first node's `candidate`, kept.
    pub async fn cluster_secret(&self, candidate: &str) -> Result<String, StoreError> {
        self.backend.cluster_secret(candidate).await
    }

    /// Tells every node listening (this one included) `message`.
    pub async fn publish(&self, message: &str) -> Result<(), StoreError> {
        self.backend.publish(message).await
    }

    /// Hears what nodes publish; `None` on SQLite (one node).
    pub async fn listen(&self) -> Result<Option<Listener>, StoreError> {
        self.backend.listen().await
    }

    /// Writes a consistent copy of a SQLite database to `target`, which must not
    /// exist yet, while the server goes on reading and writing. (PostgreSQL is
    /// backed up with `pg_dump`: this says so.)
    pub async fn backup_to(&self, target: &Path) -> Result<Backup, StoreError> {
        self.backend.backup_to(target).await
    }

    /// Copies every row of this installation into `target` (an empty database,
    /// or one holding an earlier copy: rows already there are kept, so a second
    /// run copies nothing), then checks that each table holds the same rows on
    /// both sides. `progress` hears of each table as it is done.
    pub async fn copy_to(
        &self,
        target: &Store,
        progress: impl FnMut(&TableCopy),
    ) -> Result<Copied, StoreError> {
        copy::copy(self.backend.as_ref(), target.backend.as_ref(), progress).await
    }
}

/// The rows of a batch of appends: (game, sequence number, event).
pub(crate) fn event_rows(batch: &[Append]) -> Vec<(&str, i64, &str)> {
    batch
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
        .collect()
}

/// The error for an event whose number is taken.
pub(crate) fn conflict(game: &str, seq: i64) -> StoreError {
    StoreError::Conflict {
        game: game.to_string(),
        seq: seq as u64,
    }
}

#[cfg(test)]
mod nodes_tests;
#[cfg(test)]
mod tests;
