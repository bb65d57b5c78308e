//! Live games: one task (actor) per game owns its `arbiter::Game`. Everything that
//! changes a game goes through the task's mailbox; new events are stored durably
//! before the change is acknowledged or shown to anyone.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use caissa_arbiter::{
    Action, ActionError, ArbiterAction, ClaimKind, Event, Game, GameSetup, Status,
};
use caissa_rules::Color;
use caissa_store::Append;

use crate::writer::Writer;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::error::ApiError;

/// Milliseconds since the Unix epoch: the server's clock, the authority.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A player of a live game.
#[derive(Clone, Debug)]
pub struct Player {
    /// User id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Rating at the game's speed when the game began.
    pub rating: u32,
    /// Whether that rating is still provisional.
    pub provisional: bool,
}

impl Player {
    /// A player with the default (provisional) rating.
    pub fn new(id: i64, name: String) -> Player {
        Player {
            id,
            name,
            rating: 1500,
            provisional: true,
        }
    }
}

/// What everyone may see of a game at one moment.
#[derive(Clone, Debug)]
pub struct View {
    /// The game id.
    pub id: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The setup.
    pub setup: GameSetup,
    /// When the game was created, ms.
    pub created_at: u64,
    /// Moves so far in UCI.
    pub moves: Vec<String>,
    /// Clocks at `at` (White, Black), ms; `None` without a clock.
    pub clocks: Option<[u64; 2]>,
    /// When this view was taken, ms.
    pub at: u64,
    /// The arbiter's status.
    pub status: Status,
    /// Result and reason when finished.
    pub finish: Option<caissa_arbiter::Finish>,
    /// A pending draw offer.
    pub draw_offer: Option<Color>,
    /// The current FEN.
    pub fen: String,
    /// The side to move.
    pub turn: Color,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// A pending takeback proposal.
    pub takeback: Option<Color>,
    /// The draws the side to move may claim now (9.2, 9.3).
    pub claims: Vec<ClaimKind>,
    /// Time left for the current move where the mode limits each move, ms.
    pub move_time_left: Option<u64>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// The PGN, once the game is over (ask the game's task while it is live).
    pub pgn: Option<String>,
    /// The `gameState` JSON, written once for every stream and socket that sends
    /// this view (see [`crate::lichess::game_state_json`]).
    pub(crate) state_json: std::sync::OnceLock<String>,
}

/// What a game looks like at `now`.
pub fn view_of(
    id: &str,
    white: Player,
    black: Player,
    created_at: u64,
    rated: bool,
    game: &Game,
    now: u64,
) -> View {
    let mut pos = *game.line().start();
    let mut moves = Vec::with_capacity(game.line().moves().len());
    for &m in game.line().moves() {
        moves.push(pos.to_uci(m));
        pos.play_unchecked(m);
    }
    let pgn = game
        .finish()
        .map(|_| game.pgn_with(&pgn_tags(id, &white, &black, created_at, rated, game)));
    let clock = game.clock();
    let clocks = (!game.setup().time_control.periods.is_empty()).then(|| {
        [
            clock.remaining(Color::White, now),
            clock.remaining(Color::Black, now),
        ]
    });
    View {
        id: id.to_string(),
        white,
        black,
        setup: game.setup().clone(),
        created_at,
        moves,
        clocks,
        at: now,
        status: game.status(),
        finish: game.finish(),
        draw_offer: game.draw_offer(),
        fen: game.position().fen(),
        turn: game.position().turn(),
        rated,
        takeback: game.takeback(),
        claims: claims_of(game),
        move_time_left: clock.move_time_left(now),
        running: clock.running().filter(|_| !clock.is_paused()),
        pgn,
        state_json: std::sync::OnceLock::new(),
    }
}

/// The tags a game's PGN gets from the server (`Site` is the export's: it is
/// where the game is seen from).
pub fn pgn_tags(
    id: &str,
    white: &Player,
    black: &Player,
    created_at: u64,
    rated: bool,
    game: &Game,
) -> Vec<(&'static str, String)> {
    let speed = crate::lichess::speed(&game.setup().time_control);
    let kind = if rated { "Rated" } else { "Casual" };
    let at = created_at as i64;
    vec![
        ("Event", format!("{kind} {speed} game")),
        ("Date", caissa_pgn::date::date_tag(at)),
        ("UTCDate", caissa_pgn::date::date_tag(at)),
        ("UTCTime", caissa_pgn::date::time_tag(at)),
        ("WhiteElo", white.rating.to_string()),
        ("BlackElo", black.rating.to_string()),
        ("GameId", id.to_string()),
    ]
}

/// The draws the side to move could claim now.
fn claims_of(game: &Game) -> Vec<ClaimKind> {
    if game.finish().is_some() || game.params().automatic_claimable_draws {
        return Vec::new();
    }
    game.line()
        .claimable()
        .into_iter()
        .map(|c| match c {
            caissa_rules::ClaimableDraw::ThreefoldRepetition => ClaimKind::ThreefoldRepetition,
            caissa_rules::ClaimableDraw::FiftyMoves => ClaimKind::FiftyMoves,
        })
        .collect()
}

enum Command {
    Act {
        user: i64,
        action: Action,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    Pgn {
        reply: oneshot::Sender<String>,
    },
    /// What the game looks like now (the clocks as they run, not as at the last
    /// change).
    View {
        reply: oneshot::Sender<Arc<View>>,
    },
}

/// How many views a slow follower may be behind before it skips to the latest.
const CHANGES_KEPT: usize = 32;

/// Every view a game publishes, in order (from [`GameHandle::follow`]).
pub struct Changes {
    rx: broadcast::Receiver<Arc<View>>,
    latest: watch::Receiver<Arc<View>>,
    /// The view given last, not to be given twice.
    last: Arc<View>,
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
            if !Arc::ptr_eq(&view, &self.last) {
                self.last = view.clone();
                return Some(view);
            }
        }
    }
}

/// Whether a player is connected to a game (an open stream or socket).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    /// Open connections.
    pub connections: u32,
    /// Since when there are none, ms (`None`: connected, or never was).
    pub gone_since: Option<u64>,
}

/// A cheap handle to a live game's task.
#[derive(Clone)]
pub struct GameHandle {
    tx: mpsc::Sender<Command>,
    view: watch::Receiver<Arc<View>>,
    changes: broadcast::Sender<Arc<View>>,
    /// The lines of the game's chat as they are said.
    pub chat: Arc<crate::chat::Chat>,
    presence: Arc<watch::Sender<[Presence; 2]>>,
    watchers: Arc<watch::Sender<usize>>,
}

/// Held while a player's connection to a game is open.
pub struct PresenceGuard {
    presence: Arc<watch::Sender<[Presence; 2]>>,
    color: Color,
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        let i = self.color.index();
        self.presence.send_modify(|p| {
            p[i].connections = p[i].connections.saturating_sub(1);
            if p[i].connections == 0 {
                p[i].gone_since = Some(now_ms());
            }
        });
    }
}

/// Held while a spectator watches.
pub struct WatcherGuard(Arc<watch::Sender<usize>>);

impl Drop for WatcherGuard {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

impl GameHandle {
    /// The colour `user` plays in this game, if any.
    pub fn color_of(&self, user: i64) -> Option<Color> {
        let view = self.view.borrow();
        if view.white.id == user {
            Some(Color::White)
        } else if view.black.id == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// Marks `color` connected while the guard lives.
    pub fn present(&self, color: Color) -> PresenceGuard {
        let i = color.index();
        self.presence.send_modify(|p| {
            p[i].connections += 1;
            p[i].gone_since = None;
        });
        PresenceGuard {
            presence: self.presence.clone(),
            color,
        }
    }

    /// Who is connected; a receiver sees every change.
    pub fn presence(&self) -> watch::Receiver<[Presence; 2]> {
        self.presence.subscribe()
    }

    /// How long `color` has had no connection at `now` (since the game began if never
    /// connected); 0 while connected.
    pub fn gone_ms(&self, color: Color, now: u64) -> u64 {
        let p = self.presence.borrow()[color.index()];
        if p.connections > 0 {
            return 0;
        }
        let since = p.gone_since.unwrap_or(self.view.borrow().created_at);
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

    /// A receiver that sees the newest view whenever there is one (views in
    /// between may be skipped).
    pub fn subscribe(&self) -> watch::Receiver<Arc<View>> {
        self.view.clone()
    }

    /// The latest view, and every view after it in order: for streams and
    /// sockets, where each move's state (with its clocks) is sent.
    pub fn follow(&self) -> (Arc<View>, Changes) {
        // Subscribe first: a view published in between is then seen twice (and
        // skipped), never missed.
        let rx = self.changes.subscribe();
        let latest = self.view();
        let changes = Changes {
            rx,
            latest: self.view.clone(),
            last: latest.clone(),
        };
        (latest, changes)
    }

    /// A user acts; returns once the change is durable.
    pub async fn act(&self, user: i64, action: Action) -> Result<(), ApiError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Command::Act {
                user,
                action,
                reply,
            })
            .await
            .map_err(|_| ApiError::BadRequest("the game is over".into()))?;
        answer
            .await
            .map_err(|_| ApiError::BadRequest("the game is over".into()))?
    }
}

struct LiveGame {
    id: String,
    white: Player,
    black: Player,
    created_at: u64,
    rated: bool,
    game: Game,
    persisted: usize,
    writer: Writer,
    view: watch::Sender<Arc<View>>,
    changes: broadcast::Sender<Arc<View>>,
    /// Events there were when the view was last published.
    published: usize,
}

impl LiveGame {
    fn snapshot(&self, now: u64) -> View {
        view_of(
            &self.id,
            self.white.clone(),
            self.black.clone(),
            self.created_at,
            self.rated,
            &self.game,
            now,
        )
    }

    /// Stores events not yet stored; on failure, forgets them (the game goes back to
    /// what is durable) so nothing unacknowledged is ever shown.
    async fn persist(&mut self) -> Result<(), ApiError> {
        let events = self.game.events();
        if events.len() == self.persisted {
            return Ok(());
        }
        let new: Vec<String> = events[self.persisted..]
            .iter()
            .map(|e| serde_json::to_string(e).unwrap_or_default())
            .collect();
        let append = Append {
            game_id: self.id.clone(),
            first_seq: self.persisted as u64,
            events: new,
            result: self.game.finish().map(|f| f.result.pgn().to_string()),
        };
        match self.writer.append(append).await {
            Ok(()) => {
                self.persisted = self.game.events().len();
                Ok(())
            }
            Err(e) => {
                let durable = self.game.events()[..self.persisted].to_vec();
                if let Ok(game) = Game::from_events(self.game.setup().clone(), &durable) {
                    self.game = game;
                }
                Err(e)
            }
        }
    }

    fn publish(&mut self) {
        self.published = self.game.events().len();
        let view = Arc::new(self.snapshot(now_ms()));
        // Nobody listening is not an error.
        let _ = self.changes.send(view.clone());
        let _ = self.view.send(view);
    }

    fn color_of(&self, user: i64) -> Option<Color> {
        if user == self.white.id {
            Some(Color::White)
        } else if user == self.black.id {
            Some(Color::Black)
        } else {
            None
        }
    }

    async fn handle(&mut self, user: i64, action: Action) -> Result<(), ApiError> {
        let color = self
            .color_of(user)
            .ok_or_else(|| ApiError::Forbidden("you are not playing this game".into()))?;
        let outcome = self.game.act(color, action, now_ms());
        self.persist().await?;
        outcome.map_err(|e| match e {
            ActionError::GameOver => ApiError::BadRequest("the game is over".into()),
            other => ApiError::BadRequest(other.to_string()),
        })
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        loop {
            if self.game.finish().is_some() {
                break;
            }
            let deadline = self.game.next_deadline(now_ms());
            let sleep = async {
                match deadline {
                    Some(at) => {
                        let wait = at.saturating_sub(now_ms());
                        tokio::time::sleep(std::time::Duration::from_millis(wait)).await
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                command = rx.recv() => {
                    let (user, action, reply) = match command {
                        None => break,
                        Some(Command::Pgn { reply }) => {
                            let tags = pgn_tags(
                                &self.id,
                                &self.white,
                                &self.black,
                                self.created_at,
                                self.rated,
                                &self.game,
                            );
                            let _ = reply.send(self.game.pgn_with(&tags));
                            continue;
                        }
                        Some(Command::View { reply }) => {
                            let _ = reply.send(Arc::new(self.snapshot(now_ms())));
                            continue;
                        }
                        Some(Command::Act { user, action, reply }) => (user, action, reply),
                    };
                    let before = self.game.events().len();
                    let started = std::time::Instant::now();
                    let moved = matches!(action, Action::Move { .. });
                    let result = self.handle(user, action).await;
                    crate::metrics::record(
                        started.elapsed().as_micros() as u64,
                        moved && result.is_ok(),
                    );
                    if self.game.events().len() != before {
                        self.publish();
                    }
                    let _ = reply.send(result);
                }
                () = sleep => {
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
    }
}

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

/// Starts a game's task (its stored events are all in `game`).
#[allow(clippy::too_many_arguments)]
pub fn spawn(
    writer: Writer,
    id: String,
    white: Player,
    black: Player,
    created_at: u64,
    rated: bool,
    mut game: Game,
    start: Start,
) -> GameHandle {
    let persisted = game.events().len();
    if let Start::Recovering { down_since } = start {
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
    let first = view_of(
        &id,
        white.clone(),
        black.clone(),
        created_at,
        rated,
        &game,
        now_ms(),
    );
    let (view_tx, view_rx) = watch::channel(Arc::new(first));
    let (changes, _) = broadcast::channel(CHANGES_KEPT);
    let (tx, rx) = mpsc::channel(64);
    let mut live = LiveGame {
        id,
        white,
        black,
        created_at,
        rated,
        game,
        persisted,
        writer,
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
        view: view_rx,
        changes,
        chat: Arc::default(),
        presence: Arc::new(watch::channel([Presence::default(); 2]).0),
        watchers: Arc::new(watch::channel(0).0),
    }
}
