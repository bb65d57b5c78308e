//! A game's chat, as the lichess Board API has it: two rooms, `player` (the two
//! players) and `spectator` (anyone else signed in). A line is stored before its
//! writer is told it was said, so it is there after a restart and after the game,
//! like the moves; a live game's streams and sockets hear it at once. Control
//! characters and the marks that reorder text are taken out of every line.

use std::sync::Arc;

use caissa_store::{Store, User};

use crate::cluster::{Cluster, Message};
use crate::http::error::ApiError;
use crate::http::limits::{Kind, RateLimits};
use crate::live::handle::{ChatLine, GameHandle, Room};
use crate::live::view::now_ms;
use crate::services::games::Games;

/// The longest line, in characters (lichess's).
pub const MAX_CHARS: usize = 140;
/// The most lines a reader is given, per room.
const KEPT: i64 = 200;

/// The chat of a server's games.
pub struct Chat {
    store: Store,
    games: Arc<Games>,
    limits: Arc<RateLimits>,
    cluster: Arc<Cluster>,
}

/// A line as its room's readers get it.
pub struct Said {
    /// Who wrote it.
    pub username: String,
    /// What was written.
    pub text: String,
}

/// `text` without control characters (a newline or tab becomes a space) nor the
/// invisible marks that reorder or hide text, trimmed.
pub fn clean(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\t' || c == '\r' { ' ' } else { c })
        .filter(|&c| {
            !c.is_control()
                && !matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
        })
        .collect();
    kept.trim().to_string()
}

impl Chat {
    /// The chat of `games`, stored in `store`; a line said here is told to
    /// the other nodes' streams and sockets too.
    pub fn new(
        store: Store,
        games: Arc<Games>,
        limits: Arc<RateLimits>,
        cluster: Arc<Cluster>,
    ) -> Chat {
        Chat {
            store,
            games,
            limits,
            cluster,
        }
    }

    /// The ids of a game's players, and its task if it is live (a finished game's
    /// players are read from the store, without replaying the game).
    async fn players(&self, id: &str) -> Result<([i64; 2], Option<GameHandle>), ApiError> {
        if let Some(handle) = self.games.live(id) {
            let info = handle.info();
            return Ok(([info.white.id, info.black.id], Some(handle)));
        }
        match self.store.game(id).await? {
            Some(game) => Ok(([game.white_id, game.black_id], None)),
            None => Err(ApiError::NotFound(format!("game {id}"))),
        }
    }

    /// `user` writes `text` in a room of game `id`, during it or after (players
    /// say "good game"); the players' room is the players' own.
    pub async fn say(&self, id: &str, user: User, room: Room, text: &str) -> Result<(), ApiError> {
        let text = clean(text);
        let chars = text.chars().count();
        if chars == 0 || chars > MAX_CHARS {
            return Err(ApiError::BadRequest(format!(
                "text: a line has 1 to {MAX_CHARS} characters, not {chars}"
            )));
        }
        let (players, live) = self.players(id).await?;
        if room == Room::Player && !players.contains(&user.id) {
            return Err(ApiError::Forbidden(
                "only the players write in the player room".into(),
            ));
        }
        self.limits.take(user.id, Kind::Chat)?;
        let stored = caissa_store::ChatLine {
            room: room.name().to_string(),
            username: user.name,
            text,
            at: now_ms() as i64,
        };
        self.store.add_chat_line(id, &stored).await?;
        self.cluster.tell(Message::Chat {
            from: self.cluster.generation(),
            game: id.to_string(),
            room: room.name().to_string(),
            username: stored.username.clone(),
            text: stored.text.clone(),
        });
        if let Some(handle) = live {
            handle.say(ChatLine {
                room,
                username: stored.username,
                text: stored.text,
            });
        }
        Ok(())
    }

    /// The last lines of a game's chat that `user` reads, oldest first, live or
    /// finished: the players' room for its players, the spectators' room for
    /// anyone else; without the lines of those `user` blocks.
    pub async fn lines(&self, id: &str, user: i64) -> Result<Vec<Said>, ApiError> {
        let (players, _) = self.players(id).await?;
        let room = if players.contains(&user) {
            Room::Player
        } else {
            Room::Spectator
        };
        let lines = self.store.chat_lines(id, room.name(), KEPT).await?;
        let blocked = self.store.blocked_by(user).await?;
        Ok(lines
            .into_iter()
            .filter(|l| {
                !blocked
                    .iter()
                    .any(|b| b.name.eq_ignore_ascii_case(&l.username))
            })
            .map(|l| Said {
                username: l.username,
                text: l.text,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn control_characters_and_reordering_marks_are_taken_out() {
        assert_eq!(clean("good\u{0007} game\u{0000}"), "good game");
        assert_eq!(clean("line\none"), "line one");
        assert_eq!(clean("\u{202E}evil"), "evil");
        assert_eq!(clean("  你好  "), "你好");
        assert_eq!(clean("\u{0001}\u{0002}"), "");
    }
}
