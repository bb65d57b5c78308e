//! The task that owns one live game: it takes commands from its mailbox in order,
//! lets the arbiter decide, stores the new events (and waits until they are
//! durable) before it answers or publishes anything, and ticks the clocks.

use std::sync::Arc;

use caissa_arbiter::{Action, ArbiterAction, Event, Game};
use caissa_store::Append;
use tokio::sync::{broadcast, mpsc, watch};

use crate::http::error::ApiError;
use crate::live::codec;
use crate::live::handle::{Command, GameHandle, Presence, CHANGES_KEPT};
use crate::live::news::NewsBus;
use crate::live::view::{now_ms, pgn_tags, view_of, GameInfo, MoveRecorder, View};
use crate::live::writer::Writer;
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
}

struct LiveGame {
    info: Arc<GameInfo>,
    game: Game,
    moves: MoveRecorder,
    persisted: usize,
    writer: Writer,
    metrics: Arc<Metrics>,
    news: Arc<NewsBus>,
    view: watch::Sender<Arc<View>>,
    changes: broadcast::Sender<Arc<View>>,
    /// Events there were when the view was last published.
    published: usize,
}

impl LiveGame {
    fn snapshot(&mut self, now: u64) -> View {
        let moves = self.moves.sync(&self.game);
        view_of(&self.info, &self.game, moves, None, now)
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
        match self.writer.append(append).await {
            Ok(()) => {
                self.persisted = self.game.events().len();
                Ok(())
            }
            Err(e) => {
                self.forget_unstored();
                Err(e)
            }
        }
    }

    fn forget_unstored(&mut self) {
        let durable = self.game.events()[..self.persisted].to_vec();
        match Game::from_events(self.game.setup().clone(), &durable) {
            Ok(game) => self.game = game,
            Err(e) => tracing::error!("game {}: cannot go back to its log: {e}", self.info.id),
        }
    }

    fn publish(&mut self) {
        self.published = self.game.events().len();
        let before = self.view.borrow().moves.len();
        let moves = self.moves.sync(&self.game);
        let last_move = (moves.len() == before + 1).then(|| moves.last()).flatten();
        let view = Arc::new(view_of(&self.info, &self.game, moves, last_move, now_ms()));
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

    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        // One timer for the game's life, moved only when the next deadline
        // changes: a timer made and dropped around every command costs two trips
        // to the runtime's timer wheel per move.
        let timer = tokio::time::sleep(std::time::Duration::ZERO);
        tokio::pin!(timer);
        let mut armed: Option<u64> = None;
        loop {
            if self.game.finish().is_some() {
                break;
            }
            let deadline = self.game.next_deadline(now_ms());
            if let Some(at) = deadline.filter(|&at| armed != Some(at)) {
                let wait = std::time::Duration::from_millis(at.saturating_sub(now_ms()));
                timer.as_mut().reset(tokio::time::Instant::now() + wait);
            }
            armed = deadline;
            tokio::select! {
                command = rx.recv() => {
                    let (user, action, ply, reply) = match command {
                        None => break,
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
                    self.metrics.record_action(
                        started.elapsed().as_micros() as u64,
                        moved && result.is_ok(),
                    );
                    if self.game.events().len() != before {
                        self.publish();
                    }
                    let _ = reply.send(result);
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
        // The last change may not have been shown yet (never twice: every stream
        // and socket would send the final state again).
        if self.published != self.game.events().len() {
            self.publish();
        }
        if self.game.finish().is_some() {
            let last = self.view.borrow().clone();
            self.news.finished(last);
        }
    }
}

/// Starts a game's task (its stored events are all in `game`); its end is told to
/// `news`.
pub fn spawn(
    writer: Writer,
    metrics: Arc<Metrics>,
    news: Arc<NewsBus>,
    info: GameInfo,
    mut game: Game,
    start: Start,
) -> GameHandle {
    let persisted = game.events().len();
    if let Start::Recovering { down_since } = start {
        // An adjourned game whose time to resume came while the server was down
        // resumes now, not back then: nobody was charged for the outage.
        let _ = game.resume_overdue(now_ms());
        if game.finish().is_none() && game.clock().running().is_some() && !game.clock().is_paused()
        {
            // Stop the clock when the server stopped (its last heartbeat, or the
            // last event if that is later), and start it again now. A flag that
            // fell before the server stopped still falls.
            let last = game.events().last().map_or(0, |e: &Event| e.at);
            let now = now_ms().max(last);
            let stopped = down_since.map_or(last, |beat| beat.clamp(last, now));
            if game.arbiter(ArbiterAction::Pause, stopped).is_ok() {
                let _ = game.arbiter(ArbiterAction::Resume, now);
            }
            // These events are stored by the task's first persist.
        }
    }
    let info = Arc::new(info);
    let mut moves = MoveRecorder::default();
    let first = view_of(&info, &game, moves.sync(&game), None, now_ms());
    let (view_tx, view_rx) = watch::channel(Arc::new(first));
    let (changes, _) = broadcast::channel(CHANGES_KEPT);
    let (tx, rx) = mpsc::channel(64);
    let mut live = LiveGame {
        info: info.clone(),
        game,
        moves,
        persisted,
        writer,
        metrics,
        news,
        view: view_tx,
        changes: changes.clone(),
        published: 0,
    };
    tokio::spawn(async move {
        let _ = live.persist().await;
        live.publish();
        live.run(rx).await;
    });
    GameHandle {
        tx,
        info,
        view: view_rx,
        changes,
        chat: broadcast::channel(16).0,
        presence: Arc::new(watch::channel([Presence::default(); 2]).0),
        watchers: Arc::new(watch::channel(0).0),
    }
}
