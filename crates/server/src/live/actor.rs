//! The task that owns one live game: it takes commands from its mailbox in order,
//! lets the arbiter decide, stores the new events (and waits until they are
//! durable) before it answers or publishes anything, and ticks the clocks.
//!
//! With several nodes, a game's task on a node that does not own it follows the
//! owner's log instead (`mirror`); a task turns from one role into the other
//! when the game changes hands: a follower adopts a game whose owner was lost,
//! and an owner whose write is refused (its lease ran out, another node took
//! the game) goes back to following.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use caissa_arbiter::{Action, ArbiterAction, Event, Game};
use caissa_store::{Append, Store};
use tokio::sync::{broadcast, mpsc, watch};

use crate::cluster::Cluster;
use crate::http::error::ApiError;
use crate::live::codec;
use crate::live::handle::{Command, GameHandle, Note, CHANGES_KEPT};
use crate::live::news::NewsBus;
use crate::live::view::{now_ms, pgn_tags, view_of, GameInfo, MoveRecorder, View};
use crate::live::writer::{WriteError, Writer};
use crate::metrics::Metrics;

/// How a game's task starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// A new game.
    New,
    /// A game resumed after the server was down. The server was last seen running
    /// at `down_since` (ms, if known): the player on move is charged up to then,
    /// and not for the time the server was down.
    Recovering {
        /// The server's last heartbeat before it stopped.
        down_since: Option<u64>,
    },
    /// A game another node owns: follow its log.
    Following,
}

/// What the game's task needs besides the game.
pub struct Context {
    /// The group-commit writer.
    pub writer: Writer,
    /// The store, read by a follower.
    pub store: Store,
    /// The other nodes.
    pub cluster: Arc<Cluster>,
    /// Counters.
    pub metrics: Arc<Metrics>,
    /// News of games starting and ending.
    pub news: Arc<NewsBus>,
}

pub(super) struct LiveGame {
    pub(super) info: Arc<GameInfo>,
    pub(super) game: Game,
    pub(super) moves: MoveRecorder,
    pub(super) persisted: usize,
    pub(super) context: Context,
    view: watch::Sender<Arc<View>>,
    changes: broadcast::Sender<Arc<View>>,
    /// Events there were when the view was last published.
    published: usize,
    /// Views published so far (each view's [`View::serial`]).
    publications: u64,
    /// A write was refused: another node owns the game now.
    fenced: bool,
    pub(super) following: Arc<AtomicBool>,
    /// A command taken from the mailbox by the owner, who then found the game
    /// is another node's: the follower forwards it.
    pub(super) pending: Option<Command>,
}

/// Why a role's loop ended.
pub(super) enum Turn {
    /// The game is over (or nobody can reach the task any more).
    End,
    /// Another node owns the game now: follow it.
    Follow,
    /// This node owns the game now.
    Own,
}

impl LiveGame {
    pub(super) fn snapshot(&mut self, now: u64) -> View {
        let moves = self.moves.sync(&self.game);
        let mut view = view_of(&self.info, &self.game, moves, None, now);
        view.serial = self.publications;
        view
    }

    /// Stores events not yet stored; on failure, forgets them (the game goes back to
    /// what is durable) so nothing unacknowledged is ever shown.
    async fn persist(&mut self) -> Result<(), ApiError> {
        let events = self.game.events();
        if events.len() == self.persisted {
            return Ok(());
        }
        let stored = match codec::encode_events(&events[self.persisted..]) {
            Ok(stored) => stored,
            Err(e) => {
                self.forget_unstored();
                return Err(e);
            }
        };
        let append = Append {
            game_id: self.info.id.clone(),
            first_seq: self.persisted as u64,
            events: stored,
            result: self.game.finish().map(|f| f.result.pgn().to_string()),
        };
        match self.context.writer.append(append).await {
            Ok(()) => {
                self.persisted = self.game.events().len();
                Ok(())
            }
            Err(e) => {
                self.forget_unstored();
                if matches!(e, WriteError::Fenced(_)) {
                    self.fenced = true;
                }
                Err(e.into())
            }
        }
    }

    pub(super) fn forget_unstored(&mut self) {
        let durable = self.game.events()[..self.persisted].to_vec();
        match Game::from_events(self.game.setup().clone(), &durable) {
            Ok(game) => self.game = game,
            Err(e) => tracing::error!("game {}: cannot go back to its log: {e}", self.info.id),
        }
    }

    /// Publishes the change, if there is one not shown yet.
    pub(super) fn publish_if_new(&mut self) {
        if self.published != self.game.events().len() {
            self.publish();
        }
    }

    fn publish(&mut self) {
        self.published = self.game.events().len();
        let before = self.view.borrow().moves.len();
        let moves = self.moves.sync(&self.game);
        let last_move = (moves.len() == before + 1).then(|| moves.last()).flatten();
        self.publications += 1;
        let mut view = view_of(&self.info, &self.game, moves, last_move, now_ms());
        view.serial = self.publications;
        let view = Arc::new(view);
        // Nobody listening is not an error.
        let _ = self.changes.send(view.clone());
        let _ = self.view.send(view);
    }

    async fn handle(
        &mut self,
        user: i64,
        action: Action,
        ply: Option<u32>,
    ) -> Result<(), ApiError> {
        let color = self
            .info
            .color_of(user)
            .ok_or_else(|| ApiError::Forbidden("you are not playing this game".into()))?;
        if let (Some(ply), Action::Move { .. }) = (ply, &action) {
            let played = self.game.plies();
            if ply != played && self.game.finish().is_none() {
                return Err(ApiError::Conflict(format!("stale ply: expected {played}")));
            }
        }
        let outcome = self.game.act(color, action, now_ms());
        self.persist().await?;
        outcome.map_err(ApiError::from)
    }

    /// Plays the game as its owner until it ends or changes hands.
    async fn run(
        &mut self,
        rx: &mut mpsc::Receiver<Command>,
        notes: &mut mpsc::UnboundedReceiver<Note>,
    ) -> Turn {
        // What was adopted (pause and resume around the outage) is stored first.
        if self.persist().await.is_err() && self.fenced {
            return Turn::Follow;
        }
        if self.published != self.game.events().len() {
            self.publish();
        }
        // One timer for the game's life, moved only when the next deadline
        // changes: a timer made and dropped around every command costs two trips
        // to the runtime's timer wheel per move.
        let timer = tokio::time::sleep(std::time::Duration::ZERO);
        tokio::pin!(timer);
        let mut armed: Option<u64> = None;
        loop {
            if self.fenced {
                return Turn::Follow;
            }
            if self.game.finish().is_some() {
                return Turn::End;
            }
            let deadline = self.game.next_deadline(now_ms());
            if let Some(at) = deadline.filter(|&at| armed != Some(at)) {
                let wait = std::time::Duration::from_millis(at.saturating_sub(now_ms()));
                timer.as_mut().reset(tokio::time::Instant::now() + wait);
            }
            armed = deadline;
            tokio::select! {
                command = rx.recv() => {
                    let acts = matches!(command, Some(Command::Act { .. } | Command::Arbitrate { .. }));
                    if acts && !self.still_owner().await {
                        self.pending = command;
                        return Turn::Follow;
                    }
                    let (user, action, ply, reply) = match command {
                        None => return Turn::End,
                        Some(Command::Pgn { reply }) => {
                            let tags = pgn_tags(&self.info, &self.game);
                            let _ = reply.send(self.game.pgn_with(&tags));
                            continue;
                        }
                        Some(Command::View { reply }) => {
                            let _ = reply.send(Arc::new(self.snapshot(now_ms())));
                            continue;
                        }
                        Some(Command::Arbitrate { arbiter, reason, action, reply }) => {
                            let before = self.game.events().len();
                            let outcome = self.game.arbitrate(&arbiter, &reason, action, now_ms());
                            let stored = self.persist().await;
                            if self.game.events().len() != before {
                                self.publish();
                            }
                            let _ = reply.send(stored.and(outcome.map_err(ApiError::from)));
                            continue;
                        }
                        Some(Command::Act { user, action, ply, reply }) => (user, action, ply, reply),
                    };
                    let before = self.game.events().len();
                    let started = std::time::Instant::now();
                    let moved = matches!(action, Action::Move { .. });
                    let result = self.handle(user, action, ply).await;
                    self.context.metrics.record_action(
                        started.elapsed().as_micros() as u64,
                        moved && result.is_ok(),
                    );
                    if self.game.events().len() != before {
                        self.publish();
                    }
                    let _ = reply.send(result);
                }
                Some(note) = notes.recv() => {
                    if let Note::Adopt { game, down_since } = note {
                        // Adopted again after this node's lease was renewed
                        // under a new generation: the stored log is the game.
                        self.adopt(*game, down_since);
                        if self.persist().await.is_ok() {
                            self.publish();
                        }
                    }
                }
                () = &mut timer, if armed.is_some() => {
                    // Looked at again when the next deadline is known.
                    armed = None;
                    if self.game.tick(now_ms()).is_ok() && self.persist().await.is_ok() {
                        self.publish();
                    }
                }
            }
        }
    }

    /// Whether this node still owns the game: surely while its lease runs;
    /// past it (the node was paused or cut off), as the database says. A
    /// database that cannot say leaves it to the write's fencing.
    async fn still_owner(&self) -> bool {
        let cluster = &self.context.cluster;
        if cluster.holds_lease() {
            return true;
        }
        cluster.owns(&self.info.id).await.unwrap_or(true)
    }

    /// Takes `game` (as stored) as this node's own, its clocks stopped while
    /// nobody ran it.
    pub(super) fn adopt(&mut self, mut game: Game, down_since: Option<u64>) {
        self.persisted = game.events().len();
        resume_after_outage(&mut game, down_since);
        self.game = game;
        self.fenced = false;
    }

    /// Runs the game in whichever role is its now, until it ends; then shows
    /// the last change and tells the news (the owner's news: a follower only
    /// lets the game go from memory).
    async fn live(
        mut self,
        mut rx: mpsc::Receiver<Command>,
        mut notes: mpsc::UnboundedReceiver<Note>,
    ) {
        loop {
            let following = self.following.load(Ordering::SeqCst);
            let turn = if following {
                self.follow(&mut rx, &mut notes).await
            } else {
                self.run(&mut rx, &mut notes).await
            };
            match turn {
                Turn::End => break,
                Turn::Follow => {
                    tracing::info!("game {} is owned by another node now", self.info.id);
                    self.following.store(true, Ordering::SeqCst);
                }
                Turn::Own => {
                    tracing::info!("game {} adopted by this node", self.info.id);
                    self.following.store(false, Ordering::SeqCst);
                }
            }
        }
        // The last change may not have been shown yet (never twice: every stream
        // and socket would send the final state again).
        if self.published != self.game.events().len() {
            self.publish();
        }
        if self.game.finish().is_some() {
            let last = self.view.borrow().clone();
            if self.following.load(Ordering::SeqCst) {
                self.context.news.followed_to_end(last);
            } else {
                self.context.news.finished(last);
            }
        }
    }
}

/// A game resumed after nobody ran it (the server was down, or its node was
/// lost): the player on move is charged up to `down_since` (when the last
/// runner was last seen), not for the outage. An adjourned game whose time to
/// resume came meanwhile resumes now. The new events are stored by the task's
/// first persist.
fn resume_after_outage(game: &mut Game, down_since: Option<u64>) {
    let _ = game.resume_overdue(now_ms());
    if game.finish().is_none() && game.clock().running().is_some() && !game.clock().is_paused() {
        // Stop the clock when the server stopped (its last heartbeat, or the
        // last event if that is later), and start it again now. A flag that
        // fell before the server stopped still falls.
        let last = game.events().last().map_or(0, |e: &Event| e.at);
        let now = now_ms().max(last);
        let stopped = down_since.map_or(last, |beat| beat.clamp(last, now));
        if game.arbiter(ArbiterAction::Pause, stopped).is_ok() {
            let _ = game.arbiter(ArbiterAction::Resume, now);
        }
    }
}

/// Starts a game's task (its stored events are all in `game`); its end is told to
/// the news.
pub fn spawn(context: Context, info: GameInfo, mut game: Game, start: Start) -> GameHandle {
    let persisted = game.events().len();
    if let Start::Recovering { down_since } = start {
        resume_after_outage(&mut game, down_since);
    }
    let info = Arc::new(info);
    let mut moves = MoveRecorder::default();
    let first = view_of(&info, &game, moves.sync(&game), None, now_ms());
    let (view_tx, view_rx) = watch::channel(Arc::new(first));
    let (changes, _) = broadcast::channel(CHANGES_KEPT);
    let (tx, rx) = mpsc::channel(64);
    let (notes_tx, notes) = mpsc::unbounded_channel();
    let following = Arc::new(AtomicBool::new(start == Start::Following));
    let seats = crate::live::seats::Seats::new(info.id.clone(), context.cluster.clone());
    if start != Start::New && context.cluster.is_multi() {
        // Who is connected to it on other nodes.
        context
            .cluster
            .tell(crate::cluster::Message::PresenceAsked {
                from: context.cluster.generation(),
                game: info.id.clone(),
            });
    }
    let live = LiveGame {
        info: info.clone(),
        game,
        moves,
        persisted,
        context,
        view: view_tx,
        changes: changes.clone(),
        published: 0,
        publications: 0,
        fenced: false,
        following: following.clone(),
        pending: None,
    };
    tokio::spawn(live.live(rx, notes));
    GameHandle {
        tx,
        info,
        view: view_rx,
        changes,
        chat: broadcast::channel(16).0,
        seats,
        watchers: Arc::new(watch::channel(0).0),
        notes: notes_tx,
        following,
    }
}
