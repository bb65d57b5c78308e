//! The cheap, cloneable handle to a live game's task, and what it publishes: every
//! view in order ([`Changes`]), who is connected ([`Presence`]), how many watch,
//! and the lines of its chat rooms.

use std::sync::Arc;

use caissa_arbiter::{Action, ArbiterAction};
use caissa_rules::Color;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::http::error::ApiError;
use crate::live::view::{GameInfo, View};

/// What the game's task is asked to do.
pub(crate) enum Command {
    /// A player acts; `ply`: the number of half-moves the player saw played, if
    /// the client said (a move sent for an older position is refused).
    Act {
        user: i64,
        action: Action,
        ply: Option<u32>,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// An arbiter acts, saying why (Laws 12).
    Arbitrate {
        arbiter: String,
        reason: String,
        action: ArbiterAction,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// The game's PGN now.
    Pgn { reply: oneshot::Sender<String> },
    /// What the game looks like now (the clocks as they run, not as at the last
    /// change).
    View { reply: oneshot::Sender<Arc<View>> },
}

/// What a game's task hears besides its mailbox.
pub(crate) enum Note {
    /// (A copy following another node's game.) The log grew.
    Grew(crate::cluster::Growth),
    /// (A copy.) Look at the log again: messages may have been missed.
    Resync,
    /// This node owns the game now: `game` is its log as stored, and its
    /// last owner was last seen running at `down_since` (ms).
    Adopt {
        /// The game as stored.
        game: Box<caissa_arbiter::Game>,
        /// When the last owner was last seen.
        down_since: Option<u64>,
    },
}

/// How many views a slow follower may be behind before it skips to the latest.
pub(crate) const CHANGES_KEPT: usize = 32;

/// Every view a game publishes, in order (from [`GameHandle::follow`]).
pub struct Changes {
    rx: broadcast::Receiver<Arc<View>>,
    latest: watch::Receiver<Arc<View>>,
    /// The serial of the last view given (or included in the reader's
    /// snapshot): views up to it are not given again.
    seen: u64,
}

impl Changes {
    /// The next view; `None` once the game's task has ended. A follower that fell
    /// more than [`CHANGES_KEPT`] views behind gets the latest one (its move list
    /// has every move) and goes on from there.
    pub async fn next(&mut self) -> Option<Arc<View>> {
        loop {
            let view = match self.rx.recv().await {
                Ok(view) => view,
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    self.rx = self.rx.resubscribe();
                    self.latest.borrow().clone()
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            };
            if view.serial > self.seen {
                self.seen = view.serial;
                return Some(view);
            }
        }
    }
}

pub use crate::live::seats::Presence;

/// A chat room of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// The two players.
    Player,
    /// Everyone else.
    Spectator,
}

impl Room {
    /// `player` or `spectator`.
    pub fn name(self) -> &'static str {
        match self {
            Room::Player => "player",
            Room::Spectator => "spectator",
        }
    }
}

/// One line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// The room.
    pub room: Room,
    /// Who wrote it.
    pub username: String,
    /// What was written.
    pub text: String,
}

/// A cheap handle to a live game's task.
#[derive(Clone)]
pub struct GameHandle {
    pub(crate) tx: mpsc::Sender<Command>,
    pub(crate) info: Arc<GameInfo>,
    pub(crate) view: watch::Receiver<Arc<View>>,
    pub(crate) changes: broadcast::Sender<Arc<View>>,
    pub(crate) chat: broadcast::Sender<ChatLine>,
    pub(crate) seats: Arc<crate::live::seats::Seats>,
    pub(crate) watchers: Arc<watch::Sender<usize>>,
    pub(crate) notes: mpsc::UnboundedSender<Note>,
    /// Whether the task follows a game another node owns.
    pub(crate) following: Arc<std::sync::atomic::AtomicBool>,
}

/// Held while a player's connection to a game is open.
pub struct PresenceGuard {
    seats: Arc<crate::live::seats::Seats>,
    color: Color,
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        self.seats.here(self.color, -1);
    }
}

/// Held while a spectator watches.
pub struct WatcherGuard(Arc<watch::Sender<usize>>);

impl Drop for WatcherGuard {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

fn ended() -> ApiError {
    ApiError::game_over()
}

impl GameHandle {
    /// What does not change in this game.
    pub fn info(&self) -> &Arc<GameInfo> {
        &self.info
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.info.id
    }

    /// The colour `user` plays in this game, if any.
    pub fn color_of(&self, user: i64) -> Option<Color> {
        self.info.color_of(user)
    }

    /// Whether this node owns the game (else its task follows the owner's log
    /// and forwards actions there).
    pub fn is_owned_here(&self) -> bool {
        !self.following.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Tells the task something from outside its mailbox (it may have ended).
    pub(crate) fn note(&self, note: Note) {
        let _ = self.notes.send(note);
    }

    /// Marks `color` connected (here, and so everywhere) while the guard lives.
    pub fn present(&self, color: Color) -> PresenceGuard {
        self.seats.here(color, 1);
        PresenceGuard {
            seats: self.seats.clone(),
            color,
        }
    }

    /// Who is connected, on any node; a receiver sees every change.
    pub fn presence(&self) -> watch::Receiver<[Presence; 2]> {
        self.seats.presence.subscribe()
    }

    /// How long `color` has had no connection at `now` (since the game began if never
    /// connected); 0 while connected.
    pub fn gone_ms(&self, color: Color, now: u64) -> u64 {
        let p = self.seats.presence.borrow()[color.index()];
        if p.connections > 0 {
            return 0;
        }
        let since = p.gone_since.unwrap_or(self.info.created_at);
        now.saturating_sub(since)
    }

    /// Counts a spectator while the guard lives.
    pub fn watch(&self) -> WatcherGuard {
        self.watchers.send_modify(|n| *n += 1);
        WatcherGuard(self.watchers.clone())
    }

    /// Spectators now.
    pub fn watchers(&self) -> usize {
        *self.watchers.borrow()
    }

    /// The number of spectators; a receiver sees it change.
    pub fn follow_watchers(&self) -> watch::Receiver<usize> {
        self.watchers.subscribe()
    }

    /// Every chat line said from now on.
    pub fn follow_chat(&self) -> broadcast::Receiver<ChatLine> {
        self.chat.subscribe()
    }

    /// Tells the game's streams and sockets a line was said.
    pub fn say(&self, line: ChatLine) {
        // Nobody listening is not an error.
        let _ = self.chat.send(line);
    }

    /// The game in PGN now.
    pub async fn pgn(&self) -> String {
        if let Some(pgn) = self.view().pgn.clone() {
            return pgn;
        }
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::Pgn { reply }).await.is_err() {
            // The task ended meanwhile: the final view has the PGN.
            return self.view().pgn.clone().unwrap_or_default();
        }
        match answer.await {
            Ok(pgn) => pgn,
            Err(_) => self.view().pgn.clone().unwrap_or_default(),
        }
    }

    /// The game as it is now, its clocks counted down to this moment: for a
    /// `gameFull` sent to a player or spectator joining mid-game (the latest
    /// published view has the clocks as they were at the last change).
    pub async fn view_now(&self) -> Arc<View> {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::View { reply }).await.is_err() {
            return self.view();
        }
        answer.await.unwrap_or_else(|_| self.view())
    }

    /// The latest view.
    pub fn view(&self) -> Arc<View> {
        self.view.borrow().clone()
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.view.borrow().finish.is_some()
    }

    /// A receiver that sees the newest view whenever there is one (views in
    /// between may be skipped).
    pub fn subscribe(&self) -> watch::Receiver<Arc<View>> {
        self.view.clone()
    }

    /// The game as it is now (as [`GameHandle::view_now`]), and every view
    /// published after it, in order: for streams and sockets, where each
    /// move's state (with its clocks) is sent once.
    pub async fn follow_from_now(&self) -> (Arc<View>, Changes) {
        // Subscribe first: a view published before the snapshot is then
        // skipped by its serial, and none after it is missed.
        let rx = self.changes.subscribe();
        let now = self.view_now().await;
        let changes = Changes {
            rx,
            latest: self.view.clone(),
            seen: now.serial,
        };
        (now, changes)
    }

    /// A user acts; returns once the change is durable. `ply`: see [`Command::Act`].
    pub async fn act(&self, user: i64, action: Action, ply: Option<u32>) -> Result<(), ApiError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Command::Act {
                user,
                action,
                ply,
                reply,
            })
            .await
            .map_err(|_| ended())?;
        answer.await.map_err(|_| ended())?
    }

    /// An arbiter acts on the game, saying why; returns once it is durable. Who
    /// may is decided before (see `services::arbiters`).
    pub async fn arbitrate(
        &self,
        arbiter: String,
        reason: String,
        action: ArbiterAction,
    ) -> Result<(), ApiError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Command::Arbitrate {
                arbiter,
                reason,
                action,
                reply,
            })
            .await
            .map_err(|_| ended())?;
        answer.await.map_err(|_| ended())?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::view::{view_of, GameSource, MoveRecorder, Player};
    use caissa_arbiter::{Game, GameSetup, Ruleset, TimeControl};

    fn view(serial: u64) -> Arc<View> {
        let setup = GameSetup::new("a", "b", Ruleset::Online, TimeControl::unlimited());
        let game = Game::new(setup.clone(), 0).unwrap();
        let info = Arc::new(GameInfo {
            id: "g".into(),
            white: Player::new(1, "a".into()),
            black: Player::new(2, "b".into()),
            setup,
            created_at: 0,
            rated: false,
            source: GameSource::Friend,
        });
        let mut view = view_of(&info, &game, MoveRecorder::default().sync(&game), None, 0);
        view.serial = serial;
        Arc::new(view)
    }

    /// A reader that opens a stream just after a move (the move published
    /// between its subscription and its snapshot) must not hear that move
    /// again: a bot told twice that it is to move plays twice.
    #[tokio::test]
    async fn a_view_the_readers_snapshot_includes_is_not_given_again() {
        let (changes, rx) = broadcast::channel(8);
        let (_latest_tx, latest) = watch::channel(view(0));
        let mut following = Changes {
            rx,
            latest,
            seen: 2,
        };
        for serial in 1..=4 {
            changes.send(view(serial)).unwrap();
        }
        drop(changes);
        assert_eq!(following.next().await.unwrap().serial, 3);
        assert_eq!(following.next().await.unwrap().serial, 4);
        assert!(following.next().await.is_none());
    }
}
