//! The Caissa service as a library: `app(state)` is the whole HTTP API, so tests
//! drive it on an ephemeral port with a real SQLite file.
//!
//! This first slice covers accounts and tokens, direct challenges, live games as
//! actors with durable event logs (recovered after a restart without charging the
//! downtime), and the lichess Board API endpoints a client needs to play a game.

mod accounts;
mod api;
pub mod auth;
pub mod computer;
mod error;
mod lichess;
mod live;
mod ratings;
mod socket;
mod writer;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use caissa_arbiter::{Game, GameSetup, TimeControl};
use caissa_store::{Store, StoredGame, User};
use tokio::sync::mpsc;

pub use api::app;
pub use error::ApiError;
pub use live::{now_ms, GameHandle, Player, View};

/// A direct challenge waiting for an answer.
#[derive(Clone, Debug)]
pub struct Challenge {
    /// Its id (the game's id once accepted).
    pub id: String,
    /// Who challenges.
    pub challenger: User,
    /// Who is challenged.
    pub dest: User,
    /// The clock.
    pub time_control: TimeControl,
    /// `white`, `black` or `random`: the challenger's colour.
    pub color: String,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The rules it will be played under.
    pub ruleset: caissa_arbiter::Ruleset,
    /// When, ms.
    pub created_at: u64,
}

/// Shared server state: cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
    writer: writer::Writer,
    inner: Arc<Inner>,
}

/// An open seek: someone waiting for any opponent with the same time control.
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub user: User,
    /// The clock.
    pub time_control: TimeControl,
    /// `white`, `black` or `random`.
    pub color: String,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The rules it will be played under.
    pub ruleset: caissa_arbiter::Ruleset,
    /// Told when the seek is taken, so the seeker's request ends.
    done: tokio::sync::oneshot::Sender<()>,
}

/// Open connections of a player to a game, and since when there are none.
#[derive(Default)]
struct Presence {
    connections: u32,
    gone_since: Option<u64>,
}

/// Held while a player's connection to a game is open.
pub struct PresenceGuard {
    state: AppState,
    game: String,
    user: i64,
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        let mut presence = self
            .state
            .inner
            .presence
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(p) = presence.get_mut(&(self.game.clone(), self.user)) {
            p.connections = p.connections.saturating_sub(1);
            if p.connections == 0 {
                p.gone_since = Some(now_ms());
            }
        }
    }
}

#[derive(Default)]
struct Inner {
    logins: accounts::LoginLimiter,
    presence: Mutex<HashMap<(String, i64), Presence>>,
    seeks: Mutex<Vec<Seek>>,
    actions: std::sync::atomic::AtomicU64,
    games: Mutex<HashMap<String, GameHandle>>,
    challenges: Mutex<HashMap<String, Challenge>>,
    /// Open `/api/stream/event` connections per user.
    listeners: Mutex<HashMap<i64, Vec<mpsc::UnboundedSender<String>>>>,
}

impl AppState {
    /// State over an open store, with every unfinished game resumed.
    pub async fn new(store: Store) -> Result<AppState, ApiError> {
        let state = AppState {
            writer: writer::Writer::spawn(store.clone()),
            store,
            inner: Arc::default(),
        };
        state.recover().await?;
        Ok(state)
    }

    async fn recover(&self) -> Result<(), ApiError> {
        for stored in self.store.live_games().await? {
            if let Err(e) = self.resume(stored).await {
                tracing::error!("cannot resume a game: {e}");
            }
        }
        Ok(())
    }

    /// A stored game rebuilt from its log, with its players.
    pub(crate) async fn rebuild(
        &self,
        stored: &StoredGame,
    ) -> Result<(Game, Player, Player), ApiError> {
        let setup: GameSetup = serde_json::from_str(&stored.setup)
            .map_err(|e| ApiError::BadRequest(format!("game {}: bad setup: {e}", stored.id)))?;
        let events = stored
            .events
            .iter()
            .map(|e| serde_json::from_str(e))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ApiError::BadRequest(format!("game {}: bad event: {e}", stored.id)))?;
        let game =
            Game::from_events(setup, &events).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let white = self.player(stored.white_id).await?;
        let black = self.player(stored.black_id).await?;
        Ok((game, white, black))
    }

    /// What a stored game looks like now.
    pub(crate) async fn stored_view(&self, stored: &StoredGame) -> Result<View, ApiError> {
        let (game, white, black) = self.rebuild(stored).await?;
        Ok(live::view_of(
            &stored.id,
            white,
            black,
            stored.created_at as u64,
            &game,
            now_ms(),
        ))
    }

    async fn resume(&self, stored: StoredGame) -> Result<(), ApiError> {
        let (game, white, black) = self.rebuild(&stored).await?;
        self.launch(
            stored.id,
            white,
            black,
            stored.created_at as u64,
            game,
            true,
            stored.rated,
        );
        Ok(())
    }

    pub(crate) async fn player(&self, id: i64) -> Result<Player, ApiError> {
        let user = self
            .store
            .user_by_id(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("user {id}")))?;
        Ok(Player {
            id: user.id,
            name: user.name,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        id: String,
        white: Player,
        black: Player,
        created_at: u64,
        game: Game,
        recovering: bool,
        rated: bool,
    ) -> GameHandle {
        let handle = live::spawn(
            self.writer.clone(),
            id.clone(),
            white,
            black,
            created_at,
            game,
            recovering,
        );
        self.inner
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, handle.clone());
        // Tell both players when the game ends.
        let state = self.clone();
        let mut updates = handle.subscribe();
        tokio::spawn(async move {
            loop {
                let view = updates.borrow_and_update().clone();
                if view.finish.is_some() {
                    if rated {
                        if let Err(e) = ratings::record(&state, &view).await {
                            tracing::error!("ratings for game {}: {e}", view.id);
                        }
                    }
                    for user in [view.white.id, view.black.id] {
                        state.notify(user, &lichess::game_event("gameFinish", &view, user));
                    }
                    break;
                }
                if updates.changed().await.is_err() {
                    break;
                }
            }
        });
        handle
    }

    /// Starts a new game and stores it before anyone is told.
    pub async fn start_game(
        &self,
        id: String,
        white: Player,
        black: Player,
        setup: GameSetup,
        rated: bool,
    ) -> Result<GameHandle, ApiError> {
        let now = now_ms();
        let game =
            Game::new(setup.clone(), now).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let stored = StoredGame {
            id: id.clone(),
            white_id: white.id,
            black_id: black.id,
            setup: serde_json::to_string(&setup).unwrap_or_default(),
            created_at: now as i64,
            finished: false,
            result: None,
            rated,
            events: game
                .events()
                .iter()
                .map(|e| serde_json::to_string(e).unwrap_or_default())
                .collect(),
        };
        self.store.create_game(&stored).await?;
        let handle = self.launch(id, white.clone(), black.clone(), now, game, false, rated);
        let view = handle.view();
        for user in [white.id, black.id] {
            self.notify(user, &lichess::game_event("gameStart", &view, user));
        }
        Ok(handle)
    }

    fn logins(&self) -> &accounts::LoginLimiter {
        &self.inner.logins
    }

    fn count_action(&self) {
        self.inner
            .actions
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    fn actions(&self) -> u64 {
        self.inner
            .actions
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// (games being played, games held in memory).
    fn game_counts(&self) -> (usize, usize) {
        let games = self.inner.games.lock().unwrap_or_else(|e| e.into_inner());
        let live = games.values().filter(|g| g.view().finish.is_none()).count();
        (live, games.len())
    }

    /// Marks `user` present in `game` while the guard lives.
    pub fn present(&self, game: &str, user: i64) -> PresenceGuard {
        let mut presence = self
            .inner
            .presence
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let p = presence.entry((game.to_string(), user)).or_default();
        p.connections += 1;
        p.gone_since = None;
        PresenceGuard {
            state: self.clone(),
            game: game.to_string(),
            user,
        }
    }

    /// How long `user`'s opponent in `game` has had no connection (since the game
    /// began if they never connected); 0 while connected.
    pub fn opponent_gone_ms(&self, game: &str, user: i64) -> Result<u64, ApiError> {
        let handle = self
            .game(game)
            .ok_or_else(|| ApiError::NotFound(format!("game {game}")))?;
        let view = handle.view();
        let opponent = if view.white.id == user {
            view.black.id
        } else if view.black.id == user {
            view.white.id
        } else {
            return Err(ApiError::Forbidden("you are not playing this game".into()));
        };
        let presence = self
            .inner
            .presence
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let since = match presence.get(&(game.to_string(), opponent)) {
            Some(p) if p.connections > 0 => return Ok(0),
            Some(p) => p.gone_since.unwrap_or(view.created_at),
            None => view.created_at,
        };
        Ok(now_ms().saturating_sub(since))
    }

    /// The live game with this id.
    pub fn game(&self, id: &str) -> Option<GameHandle> {
        self.inner
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    fn games_of(&self, user: i64) -> Vec<GameHandle> {
        let games = self.inner.games.lock().unwrap_or_else(|e| e.into_inner());
        games
            .values()
            .filter(|g| {
                let v = g.view();
                v.finish.is_none() && (v.white.id == user || v.black.id == user)
            })
            .cloned()
            .collect()
    }

    /// Sends one NDJSON line to every event stream of `user`.
    fn notify(&self, user: i64, value: &serde_json::Value) {
        let line = format!("{value}\n");
        let mut listeners = self
            .inner
            .listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(senders) = listeners.get_mut(&user) {
            senders.retain(|tx| tx.send(line.clone()).is_ok());
        }
    }

    fn listen(&self, user: i64) -> mpsc::UnboundedReceiver<String> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.inner
            .listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(user)
            .or_default()
            .push(tx);
        rx
    }
}

impl AppState {
    /// Places a seek, or pairs it with a waiting one of the same time control from
    /// another user (the game starts at once). Returns the seek's id and, if it
    /// waits, a receiver that fires when it is taken.
    pub async fn seek(
        &self,
        user: User,
        time_control: TimeControl,
        color: String,
        rated: bool,
        ruleset: caissa_arbiter::Ruleset,
    ) -> Result<(String, Option<tokio::sync::oneshot::Receiver<()>>), ApiError> {
        let matched = {
            let mut seeks = self.inner.seeks.lock().unwrap_or_else(|e| e.into_inner());
            let compatible = |s: &Seek| {
                s.user.id != user.id
                    && s.rated == rated
                    && s.ruleset == ruleset
                    && s.time_control == time_control
                    && !(s.color == color && color != "random")
            };
            seeks.iter().position(compatible).map(|i| seeks.remove(i))
        };
        let id = new_id();
        let Some(other) = matched else {
            let (done, wait) = tokio::sync::oneshot::channel();
            let seek = Seek {
                id: id.clone(),
                user,
                time_control,
                color,
                rated,
                ruleset,
                done,
            };
            self.inner
                .seeks
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(seek);
            return Ok((id, Some(wait)));
        };
        let other_white = match (other.color.as_str(), color.as_str()) {
            ("white", _) | (_, "black") => true,
            ("black", _) | (_, "white") => false,
            _ => rand::random(),
        };
        let (white, black) = if other_white {
            (&other.user, &user)
        } else {
            (&user, &other.user)
        };
        let setup = GameSetup::new(&white.name, &black.name, ruleset, time_control);
        let white = Player {
            id: white.id,
            name: white.name.clone(),
        };
        let black = Player {
            id: black.id,
            name: black.name.clone(),
        };
        self.start_game(id.clone(), white, black, setup, rated)
            .await?;
        let _ = other.done.send(());
        Ok((id, None))
    }

    /// The clocks of the seeks waiting now.
    pub fn waiting_seeks(&self) -> Vec<TimeControl> {
        let seeks = self.inner.seeks.lock().unwrap_or_else(|e| e.into_inner());
        seeks.iter().map(|s| s.time_control.clone()).collect()
    }

    /// Withdraws a seek (its seeker went away).
    pub fn cancel_seek(&self, id: &str) {
        self.inner
            .seeks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|s| s.id != id);
    }
}

/// The account the computer plays with.
pub const COMPUTER_NAME: &str = "Caissa-AI";

impl AppState {
    /// The computer's account (created on first use).
    pub async fn computer_user(&self) -> Result<User, ApiError> {
        if let Some(user) = self.store.user_by_name(COMPUTER_NAME).await? {
            return Ok(user);
        }
        match self
            .store
            .create_user(COMPUTER_NAME, None, now_ms() as i64)
            .await
        {
            Ok(user) => Ok(user),
            Err(caissa_store::StoreError::NameTaken(_)) => self
                .store
                .user_by_name(COMPUTER_NAME)
                .await?
                .ok_or_else(|| ApiError::NotFound("the computer's account".into())),
            Err(e) => Err(e.into()),
        }
    }

    /// Lets the computer play `color` in a game: whenever it is its turn, a move is
    /// chosen off the async runtime (blocking pool) and played like any player's.
    pub fn drive_computer(
        &self,
        handle: GameHandle,
        user: i64,
        color: caissa_rules::Color,
        level: u8,
    ) {
        let player: std::sync::Arc<dyn computer::ComputerPlayer> =
            std::sync::Arc::new(computer::GreedyPlayer);
        tokio::spawn(async move {
            let mut updates = handle.subscribe();
            loop {
                let view = updates.borrow_and_update().clone();
                if view.finish.is_some() {
                    break;
                }
                if view.turn == color && !view.fen.is_empty() {
                    let fen = view.fen.clone();
                    let seed = now_ms() ^ view.moves.len() as u64;
                    let player = player.clone();
                    let chosen = tokio::task::spawn_blocking(move || {
                        let pos = caissa_rules::Position::from_fen(&fen).ok()?;
                        let m = player.choose(&pos, level, seed)?;
                        Some(pos.to_uci(m))
                    })
                    .await
                    .ok()
                    .flatten();
                    if let Some(uci) = chosen {
                        if let Err(e) = handle
                            .act(user, caissa_arbiter::Action::Move { text: uci })
                            .await
                        {
                            tracing::warn!("the computer's move was refused: {e}");
                        }
                    }
                }
                if updates.changed().await.is_err() {
                    break;
                }
            }
        });
    }

    /// Games being played now, newest first.
    pub fn live_views(&self) -> Vec<std::sync::Arc<View>> {
        let games = self.inner.games.lock().unwrap_or_else(|e| e.into_inner());
        let mut views: Vec<_> = games
            .values()
            .map(|g| g.view())
            .filter(|v| v.finish.is_none())
            .collect();
        views.sort_by_key(|v| std::cmp::Reverse(v.created_at));
        views
    }
}

/// A short random id, as lichess uses for games and challenges.
pub fn new_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut rng = rand::thread_rng();
    (0..8)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Runs the service on `addr` with the database at `db_url` until Ctrl-C.
pub async fn serve(
    addr: std::net::SocketAddr,
    db_url: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::open(db_url).await?;
    let state = AppState::new(store).await?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    tracing::info!("Caissa listening on http://{}", listener.local_addr()?);
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
