//! The WebSocket protocol for browsers: one socket per game.
//!
//! Client → server (JSON): `{"t":"move","uci":"e2e4"}`, `{"t":"resign"}`,
//! `{"t":"abort"}`, `{"t":"draw","accept":true|false}`, `{"t":"claim","claim":
//! "threefold_repetition"|"fifty_moves"}`. Server → client: `{"t":"full", ...gameFull}`
//! once, `{"t":"state", ...gameState}` on every change, and `{"t":"ack"}` or
//! `{"t":"error","error":"..."}` answering each action in order. Without a player's
//! token (`?token=`) the socket is a spectator's: it receives, and every action is
//! refused.

use axum::extract::ws::{Message, WebSocket};
use caissa_arbiter::{Action, ClaimKind};
use caissa_rules::Color;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};

use crate::lichess;
use crate::live::GameHandle;

fn with_tag(tag: &str, mut value: Value) -> String {
    value["t"] = json!(tag);
    value.to_string()
}

fn action_of(message: &Value) -> Result<Action, String> {
    match message["t"].as_str() {
        Some("move") => match message["uci"].as_str() {
            Some(uci) => Ok(Action::Move {
                text: uci.to_string(),
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
        other => Err(format!("unknown message type {other:?}")),
    }
}

/// "Offer a draw" while the opponent's offer is open means accepting it.
fn accept_if_offered(handle: &GameHandle, user: i64, action: Action) -> Action {
    let view = handle.view();
    let mine = if view.white.id == user {
        Color::White
    } else {
        Color::Black
    };
    match action {
        Action::OfferDraw if view.draw_offer == Some(!mine) => Action::AcceptDraw,
        other => other,
    }
}

/// Serves one socket until the client leaves.
pub async fn run(
    socket: WebSocket,
    handle: GameHandle,
    user: Option<i64>,
    presence: Option<crate::PresenceGuard>,
) {
    let _presence = presence;
    let (mut sink, mut stream) = socket.split();
    let mut updates = handle.subscribe();
    let first = updates.borrow_and_update().clone();
    if sink
        .send(Message::Text(
            with_tag("full", lichess::game_full(&first)).into(),
        ))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            incoming = stream.next() => {
                let Some(Ok(message)) = incoming else { break };
                let text = match message {
                    Message::Text(text) => text.to_string(),
                    Message::Close(_) => break,
                    _ => continue,
                };
                let reply = match (serde_json::from_str::<Value>(&text), user) {
                    (Err(e), _) => Err(format!("invalid JSON: {e}")),
                    (Ok(_), None) => Err("spectators cannot act".to_string()),
                    (Ok(message), Some(user)) => match action_of(&message) {
                        Err(e) => Err(e),
                        Ok(action) => {
                            let action = accept_if_offered(&handle, user, action);
                            handle.act(user, action).await.map_err(|e| e.to_string())
                        }
                    },
                };
                let answer = match reply {
                    Ok(()) => json!({ "t": "ack" }).to_string(),
                    Err(error) => json!({ "t": "error", "error": error }).to_string(),
                };
                if sink.send(Message::Text(answer.into())).await.is_err() {
                    break;
                }
            }
            changed = updates.changed() => {
                if changed.is_err() {
                    break;
                }
                let view = updates.borrow_and_update().clone();
                if sink.send(Message::Text(with_tag("state", lichess::game_state(&view)).into())).await.is_err() {
                    break;
                }
            }
        }
    }
}
