//! What the store keeps, as plain values: the same for every backend.

use std::path::PathBuf;

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
    /// The title as lichess writes it (`BOT` for an account upgraded for the
    /// Bot API), if any.
    pub title: Option<String>,
    /// When the account was closed (by its owner or an operator), ms; `None`
    /// while it is open. A closed account keeps its name and games but can no
    /// longer sign in.
    pub closed_at: Option<i64>,
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
    /// Only games the user won (`Some(Outcome::Win)`), lost or drew.
    pub outcome: Option<Outcome>,
    /// Only games created at or after this moment, ms.
    pub since: Option<i64>,
    /// Only games created at or before this moment, ms.
    pub until: Option<i64>,
    /// Oldest first instead of newest first.
    pub oldest_first: bool,
    /// At most this many.
    pub limit: i64,
}

/// A finished game's result for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
    /// Drawn.
    Draw,
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
            outcome: None,
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

/// A stored Glicko-2 rating for one speed.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRating {
    /// Rating.
    pub rating: f64,
    /// Rating deviation.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played at this speed.
    pub games: i64,
    /// When the last one was played, ms.
    pub last_played: i64,
}

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

/// What a backup holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backup {
    /// Where it was written.
    pub path: PathBuf,
    /// Its size, bytes.
    pub bytes: u64,
    /// The rows of each table, by table name.
    pub rows: Vec<(String, i64)>,
}

/// How one rated game moved one player's rating at its speed.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRating {
    /// The player.
    pub user: i64,
    /// The rating before the game; `None` for the player's first game at the
    /// speed (they started from the initial rating).
    pub before: Option<f64>,
    /// The rating after it.
    pub after: f64,
}

/// What a user reported to the operators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Its number, in the order reports came.
    pub id: i64,
    /// Who reported.
    pub reporter_id: i64,
    /// Who is reported.
    pub suspect_id: i64,
    /// The kind of offence, as the reporter chose it (`abuse`, `cheat` ...).
    pub reason: String,
    /// What the reporter wrote, or the chat line reported.
    pub text: String,
    /// The game it happened in, if any.
    pub game_id: Option<String>,
    /// When it came, ms.
    pub created_at: i64,
    /// When an operator closed it, ms; `None` while open.
    pub closed_at: Option<i64>,
}
