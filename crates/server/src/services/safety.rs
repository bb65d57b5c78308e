//! Keeping people safe from each other: blocks (a blocked user can no longer
//! challenge the one who blocked them, is not paired with them from the
//! lobby, and their chat lines are not shown to them) and reports to the
//! operators, who read them with `caissa reports`.

use std::collections::HashSet;
use std::sync::Arc;

use caissa_store::{Report, Store, User};

use crate::http::error::ApiError;
use crate::http::limits::{Kind, RateLimits};
use crate::live::view::now_ms;
use crate::services::chat::clean;

/// What a report may be about, as lichess's report form names them.
pub const REPORT_REASONS: [&str; 5] = ["cheat", "stall", "boost", "comm", "other"];
/// The longest report, in characters.
pub const MAX_REPORT_CHARS: usize = 2_000;

/// Blocks and reports.
pub struct Safety {
    store: Store,
    limits: Arc<RateLimits>,
}

/// A report as the reporter sends it.
pub struct NewReport<'a> {
    /// Who is reported.
    pub suspect: &'a User,
    /// One of [`REPORT_REASONS`].
    pub reason: &'a str,
    /// What happened, or the chat line reported.
    pub text: &'a str,
    /// The game it happened in, if any.
    pub game_id: Option<&'a str>,
}

impl Safety {
    /// Blocks and reports kept in `store`.
    pub fn new(store: Store, limits: Arc<RateLimits>) -> Safety {
        Safety { store, limits }
    }

    /// `user` blocks `other`; false if they did already.
    pub async fn block(&self, user: &User, other: &User) -> Result<bool, ApiError> {
        if user.id == other.id {
            return Err(ApiError::BadRequest("you cannot block yourself".into()));
        }
        Ok(self.store.block(user.id, other.id, now_ms() as i64).await?)
    }

    /// `user` no longer blocks `other`; false if they did not.
    pub async fn unblock(&self, user: &User, other: &User) -> Result<bool, ApiError> {
        Ok(self.store.unblock(user.id, other.id).await?)
    }

    /// The users `user` blocks, by name.
    pub async fn blocked_by(&self, user: i64) -> Result<Vec<User>, ApiError> {
        Ok(self.store.blocked_by(user).await?)
    }

    /// Whether `user` blocks `other`.
    pub async fn blocks(&self, user: i64, other: i64) -> Result<bool, ApiError> {
        Ok(self.store.blocks(user, other).await?)
    }

    /// The names (lower-cased) whose chat lines `reader` is not shown: those
    /// they block. Nobody's for a reader who is not signed in.
    pub async fn hidden_for(&self, reader: Option<i64>) -> Result<HashSet<String>, ApiError> {
        let Some(reader) = reader else {
            return Ok(HashSet::new());
        };
        Ok(self
            .blocked_by(reader)
            .await?
            .into_iter()
            .map(|u| u.name.to_lowercase())
            .collect())
    }

    /// `reporter` reports someone to the operators; the report's number.
    pub async fn report(&self, reporter: &User, report: NewReport<'_>) -> Result<i64, ApiError> {
        if !REPORT_REASONS.contains(&report.reason) {
            return Err(ApiError::BadRequest(format!(
                "reason: {:?} is not one of {}",
                report.reason,
                REPORT_REASONS.join(", ")
            )));
        }
        if report.suspect.id == reporter.id {
            return Err(ApiError::BadRequest("you cannot report yourself".into()));
        }
        let text = clean(report.text);
        let chars = text.chars().count();
        if chars == 0 || chars > MAX_REPORT_CHARS {
            return Err(ApiError::BadRequest(format!(
                "text: a report says what happened in 1 to {MAX_REPORT_CHARS} characters, not {chars}"
            )));
        }
        if let Some(game) = report.game_id {
            let known = self.store.game(game).await?;
            let involved = known.is_some_and(|g| {
                g.white_id == report.suspect.id || g.black_id == report.suspect.id
            });
            if !involved && !self.said_in(game, &report.suspect.name).await? {
                return Err(ApiError::BadRequest(format!(
                    "gameId: {} neither played nor wrote in game {game}",
                    report.suspect.name
                )));
            }
        }
        self.limits.take(reporter.id, Kind::Report)?;
        Ok(self
            .store
            .add_report(&Report {
                id: 0,
                reporter_id: reporter.id,
                suspect_id: report.suspect.id,
                reason: report.reason.to_string(),
                text,
                game_id: report.game_id.map(str::to_string),
                created_at: now_ms() as i64,
                closed_at: None,
            })
            .await?)
    }

    /// Whether `name` wrote in either room of game `id`'s chat.
    async fn said_in(&self, id: &str, name: &str) -> Result<bool, ApiError> {
        for room in ["player", "spectator"] {
            let lines = self.store.chat_lines(id, room, 1_000).await?;
            if lines.iter().any(|l| l.username.eq_ignore_ascii_case(name)) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
