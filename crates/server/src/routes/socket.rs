//! A game's WebSocket, for browsers and API clients (see `protocol::socket` for
//! its messages): a player's with a bearer token or session, else a spectator's.
//! Without a player's session or token the socket only receives, and every
//! action is refused.
//!
//! Lag: when a player's turn comes and their lag was last measured more than 15 s
//! ago, the server pings them right behind the state that says so (in the same
//! write) and measures the round trip itself; half of it is the lag claimed for
//! their moves, which the arbiter credits from the
//! player's bounded quota. Nothing the client says about its lag is trusted. A
//! socket the server has said nothing on for 20 s gets a ping; a client that
//! answers nothing (no message, no pong) for a minute is disconnected.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, Method, Uri};
use axum::response::Response;
use caissa_arbiter::Action;
use caissa_rules::Color;
use futures_util::{stream, FutureExt, SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_stream::wrappers::{BroadcastStream, WatchStream};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth;
use crate::http::error::ApiError;
use crate::http::limits::{Kind, RateLimits};
use crate::http::security::same_origin;
use crate::live::handle::{GameHandle, Presence, Room};
use crate::live::view::{now_ms, View};
use crate::protocol::lichess;
use crate::protocol::socket::ClientMessage;
use crate::routes::docs::ErrorBody;
use crate::routes::session::{bearer_token, cookie, SESSION_COOKIE};
use crate::services::accounts::Accounts;
use crate::services::games::{Found, Games};
use crate::services::safety::Safety;
use crate::services::tokens::{Tokens, TOKEN_TTL};
use crate::state::AppState;

/// A socket the server has sent nothing for this long gets a ping.
const KEEPALIVE: Duration = Duration::from_secs(20);
/// A socket that says nothing (not even a pong) for this long is closed.
const SILENT_FOR: Duration = Duration::from_secs(60);
/// The most lag one move can claim, ms (the quota bounds the total).
const MAX_LAG_MS: u64 = 1_000;
/// The largest message a client may send.
const MAX_MESSAGE: usize = 4096;

fn with_tag(tag: &str, mut value: Value) -> String {
    value["t"] = json!(tag);
    value.to_string()
}

/// The answer to an action that was done (and is durable).
const ACK: &str = r#"{"t":"ack"}"#;

fn error_message(e: &ApiError) -> String {
    json!({ "t": "error", "status": e.status().as_u16(), "error": e.public_message() }).to_string()
}

/// The `state` message: the view's `gameState` (written once for all who receive
/// it) with the tag and the number of spectators in front.
fn state_message(view: &View, watchers: usize) -> String {
    let state = lichess::game_state_json(view);
    let fields = state.strip_prefix('{').unwrap_or(state);
    format!("{{\"t\":\"state\",\"watchers\":{watchers},{fields}")
}

/// The `gone` message about `color`.
fn gone_message(handle: &GameHandle, color: Color, p: Presence) -> String {
    let mut message = lichess::opponent_gone(handle, color, p.is_gone());
    message["color"] = json!(color.name());
    with_tag("gone", message)
}

/// How long a lag measurement is trusted before the player's next turn
/// measures it again.
const LAG_FRESH: Duration = Duration::from_secs(15);

/// Whether the lag is unmeasured or older than [`LAG_FRESH`].
fn lag_is_stale(at: Option<Instant>) -> bool {
    at.is_none_or(|at| at.elapsed() > LAG_FRESH)
}

/// A ping carrying when it was sent (ms since the socket opened), so its pong
/// gives the round trip.
fn ping(started: Instant) -> Message {
    let at = started.elapsed().as_millis() as u64;
    Message::Ping(at.to_be_bytes().to_vec().into())
}

/// What a socket's keep-alive timer finds to do.
#[derive(Debug, PartialEq, Eq)]
enum Keepalive {
    /// The client has said nothing for [`SILENT_FOR`]: close.
    Close,
    /// The server has said nothing for [`KEEPALIVE`]: ping.
    Ping,
    /// Neither yet.
    Nothing,
}

/// What to do at `now`, having last heard the client at `heard` and last sent at
/// `last_sent`, and when to look again.
fn keepalive_due(now: Instant, heard: Instant, last_sent: Instant) -> (Keepalive, Instant) {
    let silence_ends = heard + SILENT_FOR;
    if now >= silence_ends {
        return (Keepalive::Close, now);
    }
    if now >= last_sent + KEEPALIVE {
        return (Keepalive::Ping, (now + KEEPALIVE).min(silence_ends));
    }
    (
        Keepalive::Nothing,
        (last_sent + KEEPALIVE).min(silence_ends),
    )
}

/// The closing frame once the game is over (a normal closure, RFC 6455 7.4.1).
fn game_over() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::NORMAL,
        reason: "the game is over".into(),
    }))
}

/// The socket's options.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SocketQuery {
    /// A bearer token, for clients that cannot set headers on a WebSocket.
    pub token: Option<String>,
}

/// A game's WebSocket (HTTP/1.1 upgrade, or an extended CONNECT over HTTP/2,
/// RFC 8441). Client → server: `{"t":"move","uci":"e2e4","ply":0}` (`ply` the
/// half-moves played before it; a stale one is refused with status 409),
/// `resign`, `berserk`, `abort`, `draw` (`accept`), `takeback` (`accept`), `claim` (`claim`,
/// `uci`), `claim-victory`, `claim-draw-gone`. Server → client: `full` (gameFull)
/// once, `state` (gameState with `watchers`; a move's with `uci`, `san`, `ply`,
/// `fen`, `check`, `dests`) at every change, `gone`, `watchers`, `chat`, and
/// `ack` or `error` (`status`, `error`) answering each action in order.
#[utoipa::path(get, path = "/api/socket/game/{id}", tag = "streams", security((), ("bearer" = [])),
    params(("id" = String, Path, description = "The game"), SocketQuery),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, description = "Not a WebSocket request", body = ErrorBody),
        (status = 401, description = "An unknown token", body = ErrorBody),
        (status = 403, description = "A player's token without board:play", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody)))]
#[allow(clippy::too_many_arguments)]
async fn game_socket(
    State(games): State<Arc<Games>>,
    State(safety): State<Arc<Safety>>,
    State(tokens): State<Arc<Tokens>>,
    State(accounts): State<Arc<Accounts>>,
    State(limits): State<Arc<RateLimits>>,
    Path(id): Path<String>,
    Query(query): Query<SocketQuery>,
    uri: Uri,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Messages are small and sockets many: read in 4 KiB chunks, not tungstenite's
    // default 128 KiB (zeroed before every read, and resident for each socket).
    let ws = ws
        .max_message_size(MAX_MESSAGE)
        .read_buffer_size(MAX_MESSAGE);
    let handle = match games.find(&id).await? {
        Found::Live(handle) => handle,
        // Over: the socket says how it ended, and closes.
        Found::Stored(view) => return Ok(ws.on_upgrade(move |socket| ended(socket, view))),
    };
    let token = match query.token.as_deref() {
        Some(token) => Some(token),
        None => bearer_token(&headers)?,
    };
    let bearer = match token {
        Some(token) => Some(tokens.user_of(token).await?),
        None => None,
    };
    // A player's token is asked again before each action: one revoked while the
    // socket is open stops it acting.
    let token_hash = token.map(auth::token_hash);
    let user = match bearer {
        // Playing needs board:play; watching needs no scope (nor a token).
        Some((user, scopes)) => {
            if handle.color_of(user.id).is_some() {
                auth::check_scopes(&scopes, &Method::GET, uri.path())?;
            }
            Some(user.id)
        }
        // A browser: its session cookie, if the page is our own (a cross-site page
        // cannot open a player's socket with the player's cookie).
        None => match cookie(&headers, SESSION_COOKIE) {
            Some(secret) if same_origin(&headers, &uri) => {
                accounts.session(secret).await?.map(|(user, _)| user.id)
            }
            _ => None,
        },
    };
    let hidden = safety.hidden_for(user).await?;
    let seat = Seat {
        handle,
        user,
        hidden,
        token_hash,
        tokens,
        limits,
    };
    Ok(ws.on_upgrade(move |socket| seat.run(socket)))
}

/// The socket of a game that is over (and not in memory): how it ended, then the
/// closing frame.
async fn ended(mut socket: WebSocket, view: Arc<View>) {
    let mut full = lichess::game_full(&view);
    full["state"]["watchers"] = json!(0);
    if socket
        .send(Message::Text(with_tag("full", full).into()))
        .await
        .is_ok()
    {
        let _ = socket.send(game_over()).await;
    }
}

/// When a socket's token was last found valid, and under which mark of
/// revocations.
struct TokenChecked {
    revocations: u64,
    at: Instant,
}

/// Who holds a socket, and what it needs to act.
struct Seat {
    handle: GameHandle,
    user: Option<i64>,
    /// The (lower-cased) names whose chat lines the user blocks.
    hidden: HashSet<String>,
    token_hash: Option<String>,
    tokens: Arc<Tokens>,
    limits: Arc<RateLimits>,
}

impl Seat {
    /// Serves one socket until the client leaves, goes silent, or the game is over.
    async fn run(self, socket: WebSocket) {
        let handle = &self.handle;
        let color = self.user.and_then(|u| handle.color_of(u));
        let _presence = color.map(|c| handle.present(c));
        let _watcher = color.is_none().then(|| handle.watch());
        let mut socket = socket;
        // The clocks as they are now, not as at the last move.
        let (now, changes) = handle.follow_from_now().await;
        // The wait for the next view is kept across the loop's turns, like the
        // streams below.
        let mut changes = Box::pin(
            stream::unfold(changes, |mut changes| async move {
                changes.next().await.map(|view| (view, changes))
            })
            .fuse(),
        );
        // Streams that live across the loop's turns keep their place in the
        // channels' waiting lists, instead of joining and leaving them on every turn.
        let mut chat = BroadcastStream::new(handle.follow_chat());
        let mut watchers = WatchStream::from_changes(handle.follow_watchers());
        let room = if color.is_some() {
            Room::Player
        } else {
            Room::Spectator
        };
        let mut presence = handle.presence();
        let mut last_presence = *presence.borrow_and_update();
        let mut presence = WatchStream::from_changes(presence);
        let mut full = lichess::game_full(&now);
        full["state"]["watchers"] = json!(handle.watchers());
        if socket
            .send(Message::Text(with_tag("full", full).into()))
            .await
            .is_err()
        {
            return;
        }
        if now.finish.is_some() {
            let _ = socket.send(game_over()).await;
            return;
        }
        // Whoever is away now (the opponent, or for spectators either player).
        for c in [Color::White, Color::Black] {
            let p = last_presence[c.index()];
            if Some(c) != color && p.is_gone() && now.finish.is_none() {
                let message = gone_message(handle, c, p);
                if socket.send(Message::Text(message.into())).await.is_err() {
                    return;
                }
            }
        }
        let started = Instant::now();
        let mut heard = Instant::now();
        let mut last_sent = Instant::now();
        let mut lag_ms = 0u64;
        let mut lag_at: Option<Instant> = None;
        // Not yet: the first action asks.
        let mut checked: Option<TokenChecked> = None;
        // What one turn of the loop says, written together (one flush, so the
        // answer to a move and the state it made leave in the same write).
        let mut out: Vec<Message> = Vec::with_capacity(4);
        // One timer for both the ping and the silence, set for the sooner of the
        // two and looked at only when it fires: a socket that keeps talking costs
        // no timer work on each message.
        let keepalive = tokio::time::sleep(KEEPALIVE);
        tokio::pin!(keepalive);
        loop {
            let mut done = false;
            tokio::select! {
                incoming = socket.next() => {
                    let Some(Ok(message)) = incoming else { break };
                    heard = Instant::now();
                    let text = match message {
                        Message::Text(text) => text,
                        Message::Pong(payload) => {
                            if let Ok(bytes) = <[u8; 8]>::try_from(payload.as_ref()) {
                                let sent = u64::from_be_bytes(bytes);
                                let now = started.elapsed().as_millis() as u64;
                                if now >= sent {
                                    lag_ms = ((now - sent) / 2).min(MAX_LAG_MS);
                                    lag_at = Some(Instant::now());
                                }
                            }
                            continue;
                        }
                        Message::Close(_) => break,
                        _ => continue,
                    };
                    if self.revoked(color, &mut checked).await {
                        let error = json!({ "t": "error", "status": 401, "error": "the token was revoked" });
                        out.push(Message::Text(error.to_string().into()));
                        out.push(Message::Close(Some(CloseFrame {
                            code: close_code::POLICY,
                            reason: "the token was revoked".into(),
                        })));
                        done = true;
                    } else {
                        let answer = match self.act(color, text.as_str(), lag_ms).await {
                            Ok(()) => ACK.to_string(),
                            Err(e) => error_message(&e),
                        };
                        out.push(Message::Text(answer.into()));
                        // The game's task publishes a change before it answers:
                        // the state the action made is there already.
                        while let Some(Some(view)) = changes.next().now_or_never() {
                            if self.deliver(&view, color, started, lag_at, &mut out) {
                                done = true;
                                break;
                            }
                        }
                    }
                }
                view = changes.next() => {
                    let Some(view) = view else { break };
                    done = self.deliver(&view, color, started, lag_at, &mut out);
                    while !done {
                        let Some(Some(view)) = changes.next().now_or_never() else { break };
                        done = self.deliver(&view, color, started, lag_at, &mut out);
                    }
                }
                now = presence.next() => {
                    // None only when the game itself is gone.
                    let Some(now) = now else { break };
                    for c in [Color::White, Color::Black] {
                        let (before, after) = (last_presence[c.index()], now[c.index()]);
                        let was_gone = before.connections == 0;
                        let is_gone = after.connections == 0;
                        // A player hears about the opponent; spectators about both.
                        if was_gone != is_gone && Some(c) != color {
                            out.push(Message::Text(gone_message(handle, c, after).into()));
                        }
                    }
                    last_presence = now;
                }
                n = watchers.next() => {
                    // None only when the game itself is gone.
                    let Some(n) = n else { break };
                    out.push(Message::Text(format!("{{\"t\":\"watchers\",\"n\":{n}}}").into()));
                }
                line = chat.next() => {
                    let line = match line {
                        Some(Ok(line)) => line,
                        // Lines missed by a slow socket are not sent late.
                        Some(Err(_lagged)) => continue,
                        // Only when the game itself is gone.
                        None => break,
                    };
                    if line.room != room || self.hidden.contains(&line.username.to_lowercase()) {
                        continue;
                    }
                    let message = json!({ "t": "chat", "type": "chatLine", "room": line.room.name(), "username": line.username, "text": line.text });
                    out.push(Message::Text(message.to_string().into()));
                }
                () = &mut keepalive => {
                    let (due, next) = keepalive_due(Instant::now(), heard, last_sent);
                    match due {
                        Keepalive::Close => {
                            out.push(Message::Close(Some(CloseFrame {
                                code: close_code::AWAY,
                                reason: "nothing heard for a minute".into(),
                            })));
                            done = true;
                        }
                        Keepalive::Ping => out.push(ping(started)),
                        Keepalive::Nothing => {}
                    }
                    keepalive.as_mut().reset(next.into());
                }
            }
            if out.is_empty() {
                continue;
            }
            let mut failed = false;
            for message in out.drain(..) {
                if socket.feed(message).await.is_err() {
                    failed = true;
                    break;
                }
            }
            if failed || socket.flush().await.is_err() || done {
                break;
            }
            last_sent = Instant::now();
        }
    }

    /// Adds what a published view says to `out`: its state, then (once the game
    /// is over) the closing frame; to the player now to move, a ping, whose
    /// answer measures the lag that their move will be credited. Whether the game
    /// is over.
    fn deliver(
        &self,
        view: &View,
        color: Option<Color>,
        started: Instant,
        lag_at: Option<Instant>,
        out: &mut Vec<Message>,
    ) -> bool {
        out.push(Message::Text(
            state_message(view, self.handle.watchers()).into(),
        ));
        if view.finish.is_some() {
            out.push(game_over());
            return true;
        }
        if color == Some(view.turn()) && lag_is_stale(lag_at) {
            out.push(ping(started));
        }
        false
    }

    /// Whether the player's token has been revoked since the socket opened. It is
    /// asked again only if a token was revoked here since it was last found
    /// valid, or that was a while ago (a revocation on another node).
    async fn revoked(&self, color: Option<Color>, checked: &mut Option<TokenChecked>) -> bool {
        let (Some(hash), Some(_)) = (&self.token_hash, color) else {
            return false;
        };
        let revocations = self.tokens.revocations();
        if checked
            .as_ref()
            .is_some_and(|c| c.revocations == revocations && c.at.elapsed() < TOKEN_TTL)
        {
            return false;
        }
        match self.tokens.user_of_hash(hash).await {
            Err(ApiError::Unauthorized) => true,
            Err(_) => false,
            Ok(_) => {
                *checked = Some(TokenChecked {
                    revocations,
                    at: Instant::now(),
                });
                false
            }
        }
    }

    /// Does what a client's message asks.
    async fn act(&self, color: Option<Color>, text: &str, lag_ms: u64) -> Result<(), ApiError> {
        let message: ClientMessage = serde_json::from_str(text)
            .map_err(|e| ApiError::BadRequest(format!("invalid message: {e}")))?;
        let (Some(user), Some(color)) = (self.user, color) else {
            return Err(ApiError::Forbidden("spectators cannot act".into()));
        };
        self.limits.take(user, Kind::GameAction)?;
        let (action, ply) = message.action(lag_ms);
        // The time the opponent has been gone is the server's, never the client's.
        let action = match action {
            Action::ClaimVictory { .. } => Action::ClaimVictory {
                opponent_gone_ms: self.handle.gone_ms(!color, now_ms()),
            },
            Action::CallDraw { .. } => Action::CallDraw {
                opponent_gone_ms: self.handle.gone_ms(!color, now_ms()),
            },
            other => other,
        };
        self.handle.act(user, action, ply).await
    }
}

/// The socket's route: GET upgrades over HTTP/1.1, CONNECT over HTTP/2 (RFC 8441,
/// documented as the GET).
pub fn router() -> OpenApiRouter<AppState> {
    let (schemas, paths, method_router) = routes!(game_socket);
    OpenApiRouter::new().routes((schemas, paths, method_router.connect(game_socket)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_socket_the_server_was_silent_on_for_20_s_gets_a_ping_and_is_looked_at_20_s_later() {
        let t0 = Instant::now();
        let now = t0 + KEEPALIVE;
        assert_eq!(
            keepalive_due(now, now, t0),
            (Keepalive::Ping, now + KEEPALIVE)
        );
    }

    #[test]
    fn a_socket_in_use_is_looked_at_again_when_its_silence_would_reach_20_s() {
        let t0 = Instant::now();
        let sent = t0 + Duration::from_secs(15);
        let (due, next) = keepalive_due(t0 + KEEPALIVE, t0 + KEEPALIVE, sent);
        assert_eq!(due, Keepalive::Nothing);
        assert_eq!(next, sent + KEEPALIVE);
    }

    #[test]
    fn a_client_silent_for_a_minute_is_closed_and_looked_at_no_later_than_then() {
        let t0 = Instant::now();
        // Pings keep going out, but the client answers nothing.
        let (due, next) = keepalive_due(t0 + Duration::from_secs(50), t0, t0 + KEEPALIVE * 2);
        assert_eq!(due, Keepalive::Nothing);
        assert_eq!(next, t0 + SILENT_FOR);
        let (due, _) = keepalive_due(t0 + SILENT_FOR, t0, t0 + KEEPALIVE * 2);
        assert_eq!(due, Keepalive::Close);
    }
}
