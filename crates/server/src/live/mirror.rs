//! A game another node owns, followed here: its task keeps a copy of the game
//! that it brings up to date from the stored log whenever the owner says the
//! log grew (or after a gap in what was heard), publishes every change to this
//! node's streams and sockets as the owner's task does, and forwards players'
//! and arbiters' actions to the owner. An action is answered once the owner
//! stored it and this copy has read it back, so the client that sent it sees
//! its own move on any node it then asks.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use futures_util::stream::{FuturesUnordered, StreamExt};
use tokio::sync::{mpsc, oneshot};

use crate::cluster::Forwarded;
use crate::http::error::ApiError;
use crate::live::actor::{LiveGame, Turn};
use crate::live::codec;
use crate::live::handle::{Command, Note};
use crate::live::view::{now_ms, pgn_tags};

/// An action on its way to the owner: its number, and the owner's answer.
type Flight = Pin<Box<dyn Future<Output = (u64, Result<(), ApiError>)> + Send>>;

/// The actions forwarded and not answered yet. The copy goes on following
/// while they are away: an owner that does not answer (stopped, cut off) must
/// not keep this node from adopting the game.
#[derive(Default)]
struct InFlight {
    flights: FuturesUnordered<Flight>,
    replies: HashMap<u64, oneshot::Sender<Result<(), ApiError>>>,
    next: u64,
}

impl LiveGame {
    /// Follows the owner's log until the game ends or this node adopts it.
    pub(super) async fn follow(
        &mut self,
        rx: &mut mpsc::Receiver<Command>,
        notes: &mut mpsc::UnboundedReceiver<Note>,
    ) -> Turn {
        let mut away = InFlight::default();
        self.catch_up().await;
        if let Some(command) = self.pending.take() {
            self.answer(command, &mut away);
        }
        loop {
            if self.game.finish().is_some() && away.replies.is_empty() {
                return Turn::End;
            }
            tokio::select! {
                command = rx.recv() => match command {
                    None => return Turn::End,
                    Some(command) => self.answer(command, &mut away),
                },
                Some((n, answered)) = away.flights.next(), if !away.flights.is_empty() => {
                    // Stored by the owner: read back before the answer.
                    if answered.is_ok() {
                        self.catch_up().await;
                    }
                    if let Some(reply) = away.replies.remove(&n) {
                        let _ = reply.send(answered);
                    }
                }
                Some(note) = notes.recv() => match note {
                    Note::Grew(growth) => {
                        let have = self.game.events().len() as u64;
                        if growth.len > have {
                            if growth.first_seq == have && !growth.events.is_empty() {
                                self.play_along(have as usize, &growth.events);
                            } else {
                                self.catch_up().await;
                            }
                        }
                    }
                    Note::Resync => self.catch_up().await,
                    Note::Adopt { game, down_since } => {
                        // What the lost owner never answered may or may not
                        // have been stored: the sender looks again and retries.
                        for (_, reply) in away.replies.drain() {
                            let _ = reply.send(Err(ApiError::Unavailable {
                                message: format!(
                                    "game {} changed nodes while this was sent: look at it again and retry",
                                    self.info.id
                                ),
                                retry_after_ms: 500,
                            }));
                        }
                        self.adopt(*game, down_since);
                        return Turn::Own;
                    }
                },
            }
        }
    }

    /// Answers a command from the copy, or sends an action to the owner.
    fn answer(&mut self, command: Command, away: &mut InFlight) {
        let (forwarded, reply) = match command {
            Command::Pgn { reply } => {
                let tags = pgn_tags(&self.info, &self.game);
                let _ = reply.send(self.game.pgn_with(&tags));
                return;
            }
            Command::View { reply } => {
                let _ = reply.send(std::sync::Arc::new(self.snapshot(now_ms())));
                return;
            }
            Command::Act {
                user,
                action,
                ply,
                reply,
            } => (Forwarded::Act { user, action, ply }, reply),
            Command::Arbitrate {
                arbiter,
                reason,
                action,
                reply,
            } => (
                Forwarded::Arbitrate {
                    arbiter,
                    reason,
                    action,
                },
                reply,
            ),
        };
        let n = away.next;
        away.next += 1;
        away.replies.insert(n, reply);
        let cluster = self.context.cluster.clone();
        let id = self.info.id.clone();
        away.flights.push(Box::pin(async move {
            (n, cluster.forward(&id, &forwarded).await)
        }));
    }

    /// Reads the events the owner stored since the copy's last and plays them
    /// here, publishing the change.
    async fn catch_up(&mut self) {
        let id = self.info.id.clone();
        let have = self.game.events().len();
        let added = match self.context.store.events_from(&id, have as u64).await {
            Ok(added) => added,
            Err(e) => {
                tracing::warn!("game {id}: the owner's log could not be read: {e}");
                return;
            }
        };
        self.play_along(have, &added);
    }

    /// Plays the owner's events numbered from `first` here, and publishes the
    /// change.
    fn play_along(&mut self, first: usize, events: &[String]) {
        let id = self.info.id.clone();
        for (seq, text) in events.iter().enumerate().map(|(i, t)| (first + i, t)) {
            let replayed = codec::decode_event(&id, seq, text)
                .and_then(|event| self.game.replay(&event).map_err(Into::into));
            if let Err(e) = replayed {
                tracing::error!("game {id}: the owner's event {seq} cannot be followed: {e}");
                break;
            }
        }
        self.persisted = self.game.events().len();
        self.publish_if_new();
    }
}
