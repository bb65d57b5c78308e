//! The NDJSON streams: a user's events (`/api/stream/event`), a player's game
//! (`/api/board/game/stream/{id}`) and a spectator's (`/api/stream/game/{id}`).
//! Each stream is driven by its reader: a line is made when the connection can
//! take one, so a reader who does not read holds nothing but its own place.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use caissa_rules::Color;
use futures_util::Stream;
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, watch};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::live::handle::{Changes, ChatLine, GameHandle, Presence, PresenceGuard, WatcherGuard};
use crate::protocol::lichess;
use crate::routes::docs::ErrorBody;
use crate::routes::session::Authed;
use crate::services::accounts::is_bot;
use crate::services::challenges::Challenges;
use crate::services::events::UserEvents;
use crate::services::games::{Found, Games};
use crate::services::safety::Safety;
use crate::state::AppState;

/// The keep-alive of an event stream, as lichess sends it.
const EVENT_KEEPALIVE: Duration = Duration::from_secs(6);
/// The keep-alive of a game stream.
const GAME_KEEPALIVE: Duration = Duration::from_secs(3);

/// An NDJSON answer whose body is `lines`.
pub fn ndjson(lines: impl Stream<Item = Bytes> + Send + 'static) -> Response {
    use futures_util::StreamExt;
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines.map(Ok::<_, Infallible>)),
    )
        .into_response()
}

/// A line of JSON and its newline.
fn json_line(value: &Value) -> Bytes {
    Bytes::from(format!("{value}\n"))
}

/// The user's events: challenges made, declined and withdrawn (`challenge`,
/// `challengeDeclined`, `challengeCanceled`, sent to both players as lichess
/// does, with `compat` and the reader's `direction`), games starting and
/// ending (`gameStart`, `gameFinish`), and an empty line every 6 s. What is
/// pending (games, incoming challenges) comes first. A user may have 16
/// streams open at once.
#[utoipa::path(get, path = "/api/stream/event", tag = "streams",
    responses(
        (status = 200, description = "NDJSON lines", content_type = "application/x-ndjson"),
        (status = 429, description = "Too many streams open for this account", body = ErrorBody)))]
async fn event_stream(
    State(events): State<Arc<UserEvents>>,
    State(challenges): State<Arc<Challenges>>,
    State(games): State<Arc<Games>>,
    Authed(user): Authed,
) -> Result<Response, ApiError> {
    let mut first: Vec<Value> = challenges
        .waiting(|c| c.is_for(user.id))
        .iter()
        .map(|c| {
            json!({
                "type": "challenge",
                "challenge": lichess::challenge_json(c, "in"),
                "compat": lichess::compat(is_bot(&user)),
            })
        })
        .collect();
    for game in games.playing(user.id).await? {
        first.push(lichess::game_event("gameStart", &game.view(), user.id));
    }
    let rx = events.open(user.id, first)?;
    let tick = tokio::time::interval_at(
        tokio::time::Instant::now() + EVENT_KEEPALIVE,
        EVENT_KEEPALIVE,
    );
    let lines = futures_util::stream::unfold(
        (rx, tick),
        |(mut rx, mut tick): (mpsc::Receiver<Arc<str>>, tokio::time::Interval)| async move {
            let line = tokio::select! {
                line = rx.recv() => Bytes::copy_from_slice(line?.as_bytes()),
                _ = tick.tick() => Bytes::from_static(b"\n"),
            };
            Some((line, (rx, tick)))
        },
    );
    Ok(ndjson(lines))
}

/// A game's stream for its reader, made line by line as the reader reads.
struct GameStream {
    handle: GameHandle,
    changes: Changes,
    presence: watch::Receiver<[Presence; 2]>,
    chat: broadcast::Receiver<ChatLine>,
    /// The reader's colour, if a player.
    color: Option<Color>,
    /// The (lower-cased) names whose chat lines the reader blocks.
    hidden: HashSet<String>,
    /// Whether the opponent was away when last told.
    opponent_was_gone: bool,
    /// Lines to send before waiting for news.
    queued: Vec<Bytes>,
    finished: bool,
    _present: Option<PresenceGuard>,
    _watching: Option<WatcherGuard>,
}

impl GameStream {
    async fn start(handle: GameHandle, user: Option<i64>, hidden: HashSet<String>) -> GameStream {
        // The clocks as they are now, not as at the last move.
        let (now, changes) = handle.follow_from_now().await;
        let color = user.and_then(|u| handle.color_of(u));
        let present = color.map(|c| handle.present(c));
        let watching = color.is_none().then(|| handle.watch());
        let mut presence = handle.presence();
        let chat = handle.follow_chat();
        let full = lichess::game_full(&now);
        let mut queued = vec![json_line(&full)];
        let finished = now.finish.is_some();
        // A player (re)connecting hears at once that the opponent is away.
        let mut opponent_was_gone = false;
        if let Some(mine) = color {
            let p = presence.borrow_and_update()[(!mine).index()];
            if p.is_gone() && !finished {
                opponent_was_gone = true;
                queued.push(json_line(&lichess::opponent_gone(&handle, !mine, true)));
            }
        }
        queued.reverse();
        GameStream {
            handle,
            changes,
            presence,
            chat,
            color,
            hidden,
            opponent_was_gone,
            queued,
            finished,
            _present: present,
            _watching: watching,
        }
    }

    /// The next line, or `None` once the game is over and said so.
    async fn next(&mut self) -> Option<Bytes> {
        if let Some(line) = self.queued.pop() {
            return Some(line);
        }
        loop {
            if self.finished {
                return None;
            }
            tokio::select! {
                view = self.changes.next() => {
                    let view = view?;
                    self.finished = view.finish.is_some();
                    let mut line = lichess::game_state_json(&view).to_string();
                    line.push('\n');
                    return Some(Bytes::from(line));
                }
                changed = self.presence.changed(), if self.color.is_some() => {
                    if changed.is_err() {
                        continue;
                    }
                    let Some(mine) = self.color else { continue };
                    let p = self.presence.borrow_and_update()[(!mine).index()];
                    let is_gone = p.is_gone();
                    if is_gone == self.opponent_was_gone {
                        continue;
                    }
                    self.opponent_was_gone = is_gone;
                    return Some(json_line(&lichess::opponent_gone(&self.handle, !mine, is_gone)));
                }
                // The players' streams carry the chat, as on lichess.
                line = self.chat.recv(), if self.color.is_some() => match line {
                    Ok(line) if self.hidden.contains(&line.username.to_lowercase()) => continue,
                    Ok(line) => {
                        let value = json!({ "type": "chatLine", "room": line.room.name(), "username": line.username, "text": line.text });
                        return Some(json_line(&value));
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                () = tokio::time::sleep(GAME_KEEPALIVE) => return Some(Bytes::from_static(b"\n")),
            }
        }
    }
}

/// The NDJSON game stream. A player's open stream counts as the player being
/// present; an empty line every few seconds finds out when it is gone.
pub(crate) async fn stream_game(
    games: &Games,
    safety: &Safety,
    id: &str,
    user: Option<i64>,
) -> Result<Response, ApiError> {
    let handle = match games.find(id).await? {
        Found::Live(handle) => handle,
        // Over (and perhaps from before a restart): how it ended, and the end.
        Found::Stored(view) => {
            let line = json_line(&lichess::game_full(&view));
            return Ok(ndjson(futures_util::stream::iter([line])));
        }
    };
    let hidden = safety.hidden_for(user).await?;
    let stream = GameStream::start(handle, user, hidden).await;
    let lines = futures_util::stream::unfold(stream, |mut s| async move {
        let line = s.next().await?;
        Some((line, s))
    });
    Ok(ndjson(lines))
}

/// A player's game: `gameFull`, then a `gameState` at every change (each move's
/// with `uci`, `san`, `ply`, `fen`, `check` and `dests`), `chatLine`s,
/// `opponentGone`; an empty line every 3 s. It ends when the game does.
#[utoipa::path(get, path = "/api/board/game/stream/{id}", tag = "streams",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "NDJSON lines", content_type = "application/x-ndjson"),
        (status = 404, description = "No such game", body = ErrorBody)))]
async fn game_stream(
    State(games): State<Arc<Games>>,
    State(safety): State<Arc<Safety>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    stream_game(&games, &safety, &id, Some(user.id)).await
}

/// A spectator's view of a game: the same stream without an account (and
/// without the players' chat); read-only by construction.
#[utoipa::path(get, path = "/api/stream/game/{id}", tag = "streams", security(()),
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "NDJSON lines", content_type = "application/x-ndjson"),
        (status = 404, description = "No such game", body = ErrorBody)))]
async fn watch_game(
    State(games): State<Arc<Games>>,
    State(safety): State<Arc<Safety>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    stream_game(&games, &safety, &id, None).await
}

/// The stream routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(event_stream))
        .routes(routes!(game_stream))
        .routes(routes!(watch_game))
}
