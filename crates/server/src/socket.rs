//! The WebSocket protocol for browsers: one socket per game.
//!
//! Client → server (JSON): `{"t":"move","uci":"e2e4"}`, `{"t":"resign"}`,
//! `{"t":"abort"}`, `{"t":"draw","accept":true|false}` (true offers, or accepts an
//! open offer), `{"t":"claim","claim":"threefold_repetition"|"fifty_moves","uci":..}`,
//! `{"t":"takeback","accept":true|false}`, `{"t":"claim-victory"}`,
//! `{"t":"claim-draw-gone"}`. Server → client: `{"t":"full", ...gameFull}` once,
//! `{"t":"state", ...gameState, "watchers": n}` on every change, `{"t":"gone",
//! "color", "gone", "claimWinInSeconds"}` when a player leaves or comes back,
//! `{"t":"watchers","n"}` when the number of spectators changes,
//! `{"t":"chat", "room", "username", "text"}` for each line of the chat room the
//! socket's user reads (the players' room for players, the spectators' for
//! anyone else; lines are written with `POST /api/board/game/{id}/chat`), and
//! `{"t":"ack"}` or `{"t":"error","error":"..."}` answering each action in order.
//! Without a player's session or token the socket is a spectator's: it receives, and
//! every action is refused.
//!
//! Lag: the server pings every few seconds and measures the round trip itself; half
//! of it is the lag claimed for the player's next move, which the arbiter credits
//! from the player's bounded quota. Nothing the client says about its lag is trusted.

use std::time::Duration;

use std::sync::Arc;

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket};
use caissa_arbiter::{Action, ClaimKind};
use caissa_rules::Color;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_stream::wrappers::{BroadcastStream, WatchStream};

use crate::lichess;
use crate::limits::Kind;
use crate::live::{now_ms, GameHandle, Presence, View};
use crate::AppState;

/// How often the server pings to measure the round trip.
const PING_EVERY: Duration = Duration::from_secs(4);

/// The most lag one move can claim, ms (the quota bounds the total).
const MAX_LAG_MS: u64 = 1_000;

fn with_tag(tag: &str, mut value: Value) -> String {
    value["t"] = json!(tag);
    value.to_string()
}

fn action_of(message: &Value, lag_ms: u64) -> Result<Action, String> {
    match message["t"].as_str() {
        Some("move") => match message["uci"].as_str() {
            Some(uci) => Ok(Action::Move {
                text: uci.to_string(),
                lag_ms,
            }),
            None => Err("a move needs \"uci\"".into()),
        },
        Some("resign") => Ok(Action::Resign),
        Some("abort") => Ok(Action::Abort),
        Some("draw") => Ok(if message["accept"].as_bool() == Some(false) {
            Action::DeclineDraw
        } else {
            Action::OfferDraw
        }),
        Some("takeback") => Ok(if message["accept"].as_bool() == Some(false) {
            Action::DeclineTakeback
        } else {
            Action::ProposeTakeback
        }),
        Some("claim") => {
            let claim = match message["claim"].as_str() {
                Some("threefold_repetition") => ClaimKind::ThreefoldRepetition,
                Some("fifty_moves") => ClaimKind::FiftyMoves,
                other => return Err(format!("unknown claim {other:?}")),
            };
            Ok(Action::ClaimDraw {
                claim,
                with_move: message["uci"].as_str().map(str::to_string),
            })
        }
        // The gone time is filled in by the server, never taken from the client.
        Some("claim-victory") => Ok(Action::ClaimVictory {
            opponent_gone_ms: 0,
        }),
        Some("claim-draw-gone") => Ok(Action::CallDraw {
            opponent_gone_ms: 0,
        }),
        other => Err(format!("unknown message type {other:?}")),
    }
}

/// The answer to an action that was done (and is durable).
const ACK: &str = r#"{"t":"ack"}"#;

/// The `state` message: the view's `gameState` (written once for all who receive
/// it) with the tag and the number of spectators in front.
fn state_message(view: &View, watchers: usize) -> String {
    let state = lichess::game_state_json(view);
    let fields = state.strip_prefix('{').unwrap_or(state);
    format!("{{\"t\":\"state\",\"watchers\":{watchers},{fields}")
}

/// "Offer a draw" while the opponent's offer is open means accepting it.
fn accept_if_offered(handle: &GameHandle, mine: Color, action: Action) -> Action {
    let view = handle.view();
    match action {
        Action::OfferDraw if view.draw_offer == Some(!mine) => Action::AcceptDraw,
        other => other,
    }
}

/// The `gone` message about `color`.
fn gone_message(handle: &GameHandle, color: Color, p: Presence) -> String {
    let gone = p.connections == 0 && p.gone_since.is_some();
    let mut message = lichess::opponent_gone(handle, color, gone);
    message["color"] = json!(color.name());
    with_tag("gone", message)
}

/// The closing frame once the game is over (a normal closure, RFC 6455 7.4.1).
fn game_over() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::NORMAL,
        reason: "the game is over".into(),
    }))
}

/// The socket of a game that is over (and not in memory): how it ended, then the
/// closing frame.
pub async fn ended(mut socket: WebSocket, view: Arc<View>) {
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

/// Serves one socket until the client leaves, or the game is over; `token` is
/// the hash of the bearer token it was opened with, if any.
pub async fn run(
    state: AppState,
    socket: WebSocket,
    handle: GameHandle,
    user: Option<i64>,
    token: Option<String>,
) {
    let color = user.and_then(|u| handle.color_of(u));
    let _presence = color.map(|c| handle.present(c));
    let _watcher = color.is_none().then(|| handle.watch());
    let (mut sink, mut stream) = socket.split();
    let (first, mut changes) = handle.follow();
    // Streams that live across the loop's turns keep their place in the
    // channels' waiting lists, instead of joining and leaving them on every turn.
    let mut chat = BroadcastStream::new(handle.chat.follow());
    let mut watchers = WatchStream::from_changes(handle.follow_watchers());
    let room = if color.is_some() {
        "player"
    } else {
        "spectator"
    };
    let mut presence = handle.presence();
    let mut last_presence = *presence.borrow_and_update();
    let mut presence = WatchStream::from_changes(presence);
    // The clocks as they are now, not as at the last move.
    let now = handle.view_now().await;
    let mut full = lichess::game_full(&now);
    full["state"]["watchers"] = json!(handle.watchers());
    if sink
        .send(Message::Text(with_tag("full", full).into()))
        .await
        .is_err()
    {
        return;
    }
    if now.finish.is_some() {
        let _ = sink.send(game_over()).await;
        return;
    }
    // Whoever is away now (the opponent, or for spectators either player).
    for c in [Color::White, Color::Black] {
        let p = last_presence[c.index()];
        if Some(c) != color
            && p.connections == 0
            && p.gone_since.is_some()
            && first.finish.is_none()
        {
            let message = gone_message(&handle, c, p);
            if sink.send(Message::Text(message.into())).await.is_err() {
                return;
            }
        }
    }
    let mut ping = tokio::time::interval(PING_EVERY);
    let started = std::time::Instant::now();
    let mut lag_ms = 0u64;
    loop {
        tokio::select! {
            incoming = stream.next() => {
                let Some(Ok(message)) = incoming else { break };
                let text = match message {
                    Message::Text(text) => text,
                    Message::Pong(payload) => {
                        if let Ok(bytes) = <[u8; 8]>::try_from(payload.as_ref()) {
                            let sent = u64::from_be_bytes(bytes);
                            let now = started.elapsed().as_millis() as u64;
                            if now >= sent {
                                lag_ms = ((now - sent) / 2).min(MAX_LAG_MS);
                            }
                        }
                        continue;
                    }
                    Message::Close(_) => break,
                    _ => continue,
                };
                if let (Some(hash), Some(_)) = (&token, color) {
                    let revoked = matches!(
                        crate::auth::hash_user(hash, &state).await,
                        Err(crate::error::ApiError::Unauthorized)
                    );
                    if revoked {
                        let error = json!({ "t": "error", "error": "the token was revoked" });
                        let _ = sink.send(Message::Text(error.to_string().into())).await;
                        let _ = sink.send(Message::Close(Some(CloseFrame {
                            code: close_code::POLICY,
                            reason: "the token was revoked".into(),
                        }))).await;
                        break;
                    }
                }
                let reply = match (serde_json::from_str::<Value>(text.as_str()), user, color) {
                    (Err(e), _, _) => Err(format!("invalid JSON: {e}")),
                    (Ok(_), _, None) => Err("spectators cannot act".to_string()),
                    (Ok(message), Some(user), Some(color)) => {
                        act(&state, &handle, user, color, &message, lag_ms).await
                    }
                    (Ok(_), None, Some(_)) => Err("spectators cannot act".to_string()),
                };
                let answer = match reply {
                    Ok(()) => ACK.to_string(),
                    Err(error) => json!({ "t": "error", "error": error }).to_string(),
                };
                if sink.send(Message::Text(answer.into())).await.is_err() {
                    break;
                }
            }
            view = changes.next() => {
                let Some(view) = view else { break };
                let message = state_message(&view, handle.watchers());
                if sink.send(Message::Text(message.into())).await.is_err() {
                    break;
                }
                if view.finish.is_some() {
                    let _ = sink.send(game_over()).await;
                    break;
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
                        let message = gone_message(&handle, c, after);
                        if sink.send(Message::Text(message.into())).await.is_err() {
                            return;
                        }
                    }
                }
                last_presence = now;
            }
            n = watchers.next() => {
                // None only when the game itself is gone.
                let Some(n) = n else { break };
                let message = format!("{{\"t\":\"watchers\",\"n\":{n}}}");
                if sink.send(Message::Text(message.into())).await.is_err() {
                    break;
                }
            }
            line = chat.next() => {
                let line = match line {
                    Some(Ok(line)) => line,
                    // Lines missed by a slow socket are not sent late.
                    Some(Err(_lagged)) => continue,
                    // Only when the game itself is gone.
                    None => break,
                };
                if line.room != room {
                    continue;
                }
                let message = with_tag("chat", line.json());
                if sink.send(Message::Text(message.into())).await.is_err() {
                    break;
                }
            }
            _ = ping.tick() => {
                let at = started.elapsed().as_millis() as u64;
                if sink.send(Message::Ping(at.to_be_bytes().to_vec().into())).await.is_err() {
                    break;
                }
            }
        }
    }
}

async fn act(
    state: &AppState,
    handle: &GameHandle,
    user: i64,
    color: Color,
    message: &Value,
    lag_ms: u64,
) -> Result<(), String> {
    state
        .inner
        .limits
        .take(user, Kind::GameAction)
        .map_err(|e| e.to_string())?;
    let action = match action_of(message, lag_ms)? {
        Action::ClaimVictory { .. } => Action::ClaimVictory {
            opponent_gone_ms: handle.gone_ms(!color, now_ms()),
        },
        Action::CallDraw { .. } => Action::CallDraw {
            opponent_gone_ms: handle.gone_ms(!color, now_ms()),
        },
        other => accept_if_offered(handle, color, other),
    };
    state.count_action();
    handle.act(user, action).await.map_err(|e| e.to_string())
}
