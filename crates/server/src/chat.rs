//! A game's chat, as the lichess Board API has it: two rooms, `player` (the two
//! players) and `spectator` (anyone else signed in); `POST` a line, `GET` the
//! room the reader reads (players the players', anyone else the spectators'),
//! and every line arrives on the players' game streams as a `chatLine` (and on
//! game sockets, each its reader's room). A line is stored before its writer is
//! told it was said, so it is there after a restart and after the game, like
//! the moves.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};
use tokio::sync::broadcast;

use crate::auth::Authed;
use crate::error::ApiError;
use crate::limits::Kind;
use crate::live::{now_ms, GameHandle};
use crate::AppState;

/// The longest line, in characters (lichess's).
const MAX_CHARS: usize = 140;
/// The most lines a reader is given, per room.
const KEPT: i64 = 200;

/// One line of a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// `player` or `spectator`.
    pub room: &'static str,
    /// Who wrote it.
    pub username: String,
    /// What was written.
    pub text: String,
}

impl Line {
    /// The line as a game stream's `chatLine`.
    pub fn json(&self) -> Value {
        json!({ "type": "chatLine", "room": self.room, "username": self.username, "text": self.text })
    }
}

/// The lines of a live game's chat as they are said, for its streams.
pub struct Chat {
    lines: broadcast::Sender<Line>,
}

impl Default for Chat {
    fn default() -> Chat {
        Chat {
            lines: broadcast::channel(16).0,
        }
    }
}

impl Chat {
    /// Every line from now on.
    pub fn follow(&self) -> broadcast::Receiver<Line> {
        self.lines.subscribe()
    }

    fn said(&self, line: Line) {
        let _ = self.lines.send(line);
    }
}

/// The ids of a game's players, and its task if it is live (a finished game's
/// players are read from the store, without replaying the game).
async fn players(state: &AppState, id: &str) -> Result<([i64; 2], Option<GameHandle>), ApiError> {
    if let Some(handle) = state.game(id) {
        let view = handle.view();
        return Ok(([view.white.id, view.black.id], Some(handle)));
    }
    match state.store.game(id).await? {
        Some(game) => Ok(([game.white_id, game.black_id], None)),
        None => Err(ApiError::NotFound(format!("game {id}"))),
    }
}

/// `POST /api/board/game/{id}/chat` (`room`, `text`): a line in a room of a game,
/// during it or after (players say "good game"); the players' room is the
/// players' own.
pub async fn post(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let f = crate::api::fields(&headers, &body)?;
    let room = match f.get("room").map(String::as_str) {
        Some("player") => "player",
        Some("spectator") => "spectator",
        other => {
            return Err(ApiError::BadRequest(format!(
                "room: {other:?} must be player or spectator"
            )))
        }
    };
    let text = f.get("text").map(|t| t.trim()).unwrap_or_default();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_CHARS {
        return Err(ApiError::BadRequest(format!(
            "text: a line has 1 to {MAX_CHARS} characters, not {chars}"
        )));
    }
    let (players, live) = players(&state, &id).await?;
    if room == "player" && !players.contains(&user.id) {
        return Err(ApiError::Forbidden(
            "only the players write in the player room".into(),
        ));
    }
    state.inner.limits.take(user.id, Kind::Chat)?;
    let stored = caissa_store::ChatLine {
        room: room.to_string(),
        username: user.name,
        text: text.to_string(),
        at: now_ms() as i64,
    };
    state.store.add_chat_line(&id, &stored).await?;
    if let Some(handle) = live {
        handle.chat.said(Line {
            room,
            username: stored.username,
            text: stored.text,
        });
    }
    Ok(Json(json!({ "ok": true })))
}

/// `GET /api/board/game/{id}/chat`: the last lines of a game's chat, oldest first,
/// live or finished: the players' room for its players, the spectators' room
/// for anyone else (the players' room is theirs alone).
pub async fn get(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let (players, _) = players(&state, &id).await?;
    let room = if players.contains(&user.id) {
        "player"
    } else {
        "spectator"
    };
    let lines = state.store.chat_lines(&id, room, KEPT).await?;
    let lines: Vec<Value> = lines
        .iter()
        .map(|l| json!({ "user": l.username, "text": l.text }))
        .collect();
    Ok(Json(Value::Array(lines)))
}
