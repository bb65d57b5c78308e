//! A game's chat, as the lichess Board API has it: two rooms, `player` (the two
//! players) and `spectator` (anyone else signed in); `POST` a line, `GET` the
//! players' room, and every line arrives on the players' game streams as a
//! `chatLine`. Kept in memory while the game is live, like lichess's bots expect
//! (they greet and say goodbye), not stored.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};
use tokio::sync::broadcast;

use crate::auth::Authed;
use crate::error::ApiError;
use crate::limits::Kind;
use crate::AppState;

/// The longest line, in characters (lichess's).
const MAX_CHARS: usize = 140;
/// Lines kept per room.
const KEPT: usize = 200;

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

/// A game's two rooms and the lines as they come.
pub struct Chat {
    rooms: Mutex<HashMap<&'static str, Vec<Line>>>,
    lines: broadcast::Sender<Line>,
}

impl Default for Chat {
    fn default() -> Chat {
        Chat {
            rooms: Mutex::default(),
            lines: broadcast::channel(16).0,
        }
    }
}

impl Chat {
    /// Every line from now on.
    pub fn follow(&self) -> broadcast::Receiver<Line> {
        self.lines.subscribe()
    }

    fn say(&self, line: Line) {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        let room = rooms.entry(line.room).or_default();
        if room.len() == KEPT {
            room.remove(0);
        }
        room.push(line.clone());
        let _ = self.lines.send(line);
    }

    fn room(&self, room: &str) -> Vec<Line> {
        let rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.get(room).cloned().unwrap_or_default()
    }
}

/// `POST /api/board/game/{id}/chat` (`room`, `text`): a line in a room of a live
/// game; the players' room is the players' own.
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
    let handle = state.playable(&id).await?;
    if room == "player" && handle.color_of(user.id).is_none() {
        return Err(ApiError::Forbidden(
            "only the players write in the player room".into(),
        ));
    }
    state.inner.limits.take(user.id, Kind::Chat)?;
    handle.chat.say(Line {
        room,
        username: user.name,
        text: text.to_string(),
    });
    Ok(Json(json!({ "ok": true })))
}

/// `GET /api/board/game/{id}/chat`: the players' room, oldest first (empty once
/// the game is over).
pub async fn get(
    State(state): State<AppState>,
    Authed(_user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let lines = match state.game(&id) {
        Some(handle) => handle.chat.room("player"),
        None => Vec::new(),
    };
    let lines: Vec<Value> = lines
        .iter()
        .map(|l| json!({ "user": l.username, "text": l.text }))
        .collect();
    Ok(Json(Value::Array(lines)))
}
