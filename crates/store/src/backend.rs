//! The interface every backend implements, one trait per kind of record. The
//! [`Store`](crate::Store) is a backend behind these traits: the server never
//! knows which database it talks to. Each method's contract is documented on
//! the store's method of the same name.

use std::path::Path;

use async_trait::async_trait;

use crate::cluster::{Lease, Listener, Owner, TakenOver};
use crate::model::{
    Append, Backup, ChatLine, GameFilter, Report, StoredChallenge, StoredGame, StoredRating,
    StoredToken, StoredTournament, User,
};
use crate::puzzles::{PuzzlePick, PuzzleRound, StoredPuzzle};
use crate::rows::{Table, Value};
use crate::StoreError;

/// Accounts, API tokens, browser sessions and rights.
#[async_trait]
pub(crate) trait People: Send + Sync {
    async fn create_user(
        &self,
        name: &str,
        password_hash: Option<&str>,
        now: i64,
    ) -> Result<User, StoreError>;
    async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError>;
    async fn user_by_id(&self, id: i64) -> Result<Option<User>, StoreError>;
    async fn give_title(&self, user_id: i64, title: &str) -> Result<bool, StoreError>;
    async fn add_play_time(&self, user_id: i64, ms: i64) -> Result<(), StoreError>;
    async fn play_time(&self, user_id: i64) -> Result<i64, StoreError>;
    async fn create_token(&self, token: &StoredToken) -> Result<(), StoreError>;
    async fn tokens_of(&self, user_id: i64) -> Result<Vec<StoredToken>, StoreError>;
    async fn user_by_token(&self, token_hash: &str) -> Result<Option<(User, String)>, StoreError>;
    async fn delete_token(&self, user_id: i64, token_hash: &str) -> Result<bool, StoreError>;
    async fn create_session(
        &self,
        session_hash: &str,
        user_id: i64,
        csrf: &str,
        now: i64,
    ) -> Result<(), StoreError>;
    async fn session(
        &self,
        session_hash: &str,
        created_after: i64,
    ) -> Result<Option<(User, String)>, StoreError>;
    async fn delete_sessions_before(&self, before: i64) -> Result<u64, StoreError>;
    async fn delete_session(&self, session_hash: &str) -> Result<(), StoreError>;
    async fn grant_right(&self, user_id: i64, right: &str, at: i64) -> Result<bool, StoreError>;
    async fn revoke_right(&self, user_id: i64, right: &str) -> Result<bool, StoreError>;
    async fn has_right(&self, user_id: i64, right: &str) -> Result<bool, StoreError>;
}

/// Games' event logs: where every move is made durable, which each backend
/// does its own way.
#[async_trait]
pub(crate) trait EventLog: Send + Sync {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError>;
    async fn append_batch(&self, batch: &[Append]) -> Result<(), StoreError>;
}

/// Games as read back, challenges, chat, arbiters named for games, and the
/// heartbeat.
#[async_trait]
pub(crate) trait Records: Send + Sync {
    async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    async fn events_from(&self, game_id: &str, first_seq: u64) -> Result<Vec<String>, StoreError>;
    async fn live_games(&self) -> Result<Vec<StoredGame>, StoreError>;
    async fn game_ids_of_user(
        &self,
        user_id: i64,
        filter: &GameFilter,
    ) -> Result<Vec<String>, StoreError>;
    async fn save_challenge(&self, c: &StoredChallenge) -> Result<(), StoreError>;
    async fn delete_challenge(&self, id: &str) -> Result<bool, StoreError>;
    async fn challenges(&self) -> Result<Vec<StoredChallenge>, StoreError>;
    async fn challenge(&self, id: &str) -> Result<Option<StoredChallenge>, StoreError>;
    async fn add_chat_line(&self, game_id: &str, line: &ChatLine) -> Result<(), StoreError>;
    async fn chat_lines(
        &self,
        game_id: &str,
        room: &str,
        limit: i64,
    ) -> Result<Vec<ChatLine>, StoreError>;
    async fn add_game_arbiters(&self, game_id: &str, user_ids: &[i64]) -> Result<(), StoreError>;
    async fn game_arbiters(&self, game_id: &str) -> Result<Vec<i64>, StoreError>;
    async fn arbitrated_games(
        &self,
        user_id: i64,
        finished: u32,
    ) -> Result<Vec<(String, bool)>, StoreError>;
    async fn beat(&self, at: i64) -> Result<(), StoreError>;
    async fn last_beat(&self) -> Result<Option<i64>, StoreError>;
}

/// Ratings, the ladder and rating history; tournaments.
#[async_trait]
pub(crate) trait Standings: Send + Sync {
    async fn rating(&self, user_id: i64, perf: &str) -> Result<Option<StoredRating>, StoreError>;
    async fn ratings(&self, user_id: i64) -> Result<Vec<(String, StoredRating)>, StoreError>;
    async fn ladder(&self, user_id: i64) -> Result<(i64, i64), StoreError>;
    async fn leaderboard(
        &self,
        perf: &str,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<(User, StoredRating)>, StoreError>;
    async fn record_ratings(
        &self,
        game_id: &str,
        now: i64,
        updates: &[(i64, String, StoredRating, i64)],
    ) -> Result<(), StoreError>;
    async fn rating_history(&self, user_id: i64, perf: &str)
        -> Result<Vec<(i64, f64)>, StoreError>;
    async fn game_ratings(&self, game_id: &str) -> Result<Vec<crate::GameRating>, StoreError>;
    async fn save_tournament(&self, t: &StoredTournament) -> Result<(), StoreError>;
    async fn tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError>;
    async fn tournaments(
        &self,
        status: &str,
        limit: i64,
    ) -> Result<Vec<StoredTournament>, StoreError>;
}

/// The whole installation as rows, for copying it to another backend and
/// checking the copy; and backups.
#[async_trait]
pub(crate) trait Installation: Send + Sync {
    /// The URL's scheme, for messages: `sqlite` or `postgres`.
    fn kind(&self) -> &'static str;
    /// Up to `limit` rows of `table` whose key comes after `after` (all from the
    /// start with `None`), in key order.
    async fn read_rows(
        &self,
        table: Table,
        after: Option<&[Value]>,
        limit: i64,
    ) -> Result<Vec<Vec<Value>>, StoreError>;
    /// Inserts rows of `table`, skipping those whose key is there already; how
    /// many were new.
    async fn write_rows(&self, table: Table, rows: &[Vec<Value>]) -> Result<u64, StoreError>;
    /// After rows were written with their own ids: ids handed out from now on
    /// come after them.
    async fn after_copy(&self) -> Result<(), StoreError>;
    /// Takes the installation for this process alone, for as long as the store
    /// lives; false if another process holds it.
    async fn claim_exclusive(&self) -> Result<bool, StoreError>;
    /// A consistent copy of the database in `target`.
    async fn backup_to(&self, target: &Path) -> Result<Backup, StoreError>;
}

/// The nodes serving one installation: leases, who owns which game, and
/// messages between nodes.
#[async_trait]
pub(crate) trait Nodes: Send + Sync {
    async fn join(&self, address: &str, ttl_ms: i64) -> Result<Option<Lease>, StoreError>;
    async fn renew(&self, ttl_ms: i64) -> Result<bool, StoreError>;
    async fn leave(&self) -> Result<(), StoreError>;
    async fn take_over(&self, limit: i64) -> Result<Vec<TakenOver>, StoreError>;
    async fn owner_of(&self, game_id: &str) -> Result<Option<Owner>, StoreError>;
    async fn running_nodes(&self) -> Result<Vec<Lease>, StoreError>;
    async fn cluster_secret(&self, candidate: &str) -> Result<String, StoreError>;
    async fn publish(&self, message: &str) -> Result<(), StoreError>;
    async fn listen(&self) -> Result<Option<Listener>, StoreError>;
}

/// Closing accounts, passwords, blocks and reports; lesson progress.
#[async_trait]
pub(crate) trait Safety: Send + Sync {
    async fn close_account(&self, user_id: i64, at: i64) -> Result<bool, StoreError>;
    async fn set_password(&self, user_id: i64, password_hash: &str) -> Result<(), StoreError>;
    async fn delete_sessions_of(&self, user_id: i64, keep: Option<&str>)
        -> Result<u64, StoreError>;
    async fn block(&self, user_id: i64, blocked_id: i64, at: i64) -> Result<bool, StoreError>;
    async fn unblock(&self, user_id: i64, blocked_id: i64) -> Result<bool, StoreError>;
    async fn blocked_by(&self, user_id: i64) -> Result<Vec<User>, StoreError>;
    async fn blocks(&self, user_id: i64, other_id: i64) -> Result<bool, StoreError>;
    async fn add_report(&self, report: &Report) -> Result<i64, StoreError>;
    async fn reports(&self, open_only: bool, limit: i64) -> Result<Vec<Report>, StoreError>;
    async fn close_report(&self, id: i64, at: i64) -> Result<bool, StoreError>;
    async fn record_stars(
        &self,
        user_id: i64,
        lesson: &str,
        exercise: i64,
        stars: i64,
        at: i64,
    ) -> Result<bool, StoreError>;
    async fn lesson_progress(&self, user_id: i64) -> Result<Vec<(String, i64, i64)>, StoreError>;
}

/// Puzzles, their ratings and the rounds played.
#[async_trait]
pub(crate) trait Puzzles: Send + Sync {
    async fn add_puzzles(&self, puzzles: &[StoredPuzzle]) -> Result<u64, StoreError>;
    async fn puzzle(&self, id: &str) -> Result<Option<StoredPuzzle>, StoreError>;
    async fn puzzle_count(&self) -> Result<i64, StoreError>;
    async fn puzzle_by_rank(&self, rank: i64) -> Result<Option<StoredPuzzle>, StoreError>;
    async fn puzzles_after(&self, id: &str, limit: i64) -> Result<Vec<StoredPuzzle>, StoreError>;
    async fn pick_puzzles(&self, pick: &PuzzlePick) -> Result<Vec<StoredPuzzle>, StoreError>;
    async fn finish_round(
        &self,
        round: &PuzzleRound,
        puzzle_rating: Option<(f64, f64, f64)>,
        player_rating: Option<&StoredRating>,
    ) -> Result<(), StoreError>;
    async fn puzzle_rounds(
        &self,
        user_id: i64,
        since: i64,
        before: i64,
        limit: i64,
    ) -> Result<Vec<(PuzzleRound, StoredPuzzle)>, StoreError>;
}

/// A whole backend.
pub(crate) trait Backend:
    People + EventLog + Records + Standings + Safety + Puzzles + Installation + Nodes
{
}

impl<T: People + EventLog + Records + Standings + Safety + Puzzles + Installation + Nodes> Backend
    for T
{
}
