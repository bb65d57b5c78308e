//! The Caissa service as a library: `app(state)` is the whole HTTP API, so tests
//! drive it on an ephemeral port with a real SQLite file.
//!
//! This first slice covers accounts and tokens, direct challenges, live games as
//! actors with durable event logs (recovered after a restart without charging the
//! downtime), and the lichess Board API endpoints a client needs to play a game.

mod accounts;
mod analysis;
mod api;
pub mod assets;
pub mod auth;
mod chat;
pub mod computer;
mod edges;
mod error;
mod lichess;
mod limits;
mod live;
mod lobby;
mod lookups;
mod metrics;
mod ratings;
mod rematch;
mod socket;
mod tokens;
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
    /// Who is challenged; `None` for an open challenge (a link anyone may accept).
    pub dest: Option<User>,
    /// The clock.
    pub time_control: TimeControl,
    /// `white`, `black` or `random`: the challenger's colour as asked.
    pub color: String,
    /// The challenger's colour in the game (`random` drawn when the challenge is
    /// made, as lichess shows it).
    pub final_color: caissa_rules::Color,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The rules it will be played under.
    pub ruleset: caissa_arbiter::Ruleset,
    /// When, ms.
    pub created_at: u64,
    /// The finished game this challenge offers to play again, colours swapped.
    pub rematch_of: Option<String>,
    /// The starting position, if not the usual one (FEN).
    pub fen: Option<String>,
    /// Whether the game is Chess960.
    pub chess960: bool,
}

/// The challenger's colour for `white`, `black` or `random` (drawn now).
pub(crate) fn final_color_of(color: &str) -> caissa_rules::Color {
    match color {
        "white" => caissa_rules::Color::White,
        "black" => caissa_rules::Color::Black,
        _ if rand::random::<bool>() => caissa_rules::Color::White,
        _ => caissa_rules::Color::Black,
    }
}

/// A challenge's terms as stored (the players are stored by id beside them).
#[derive(serde::Serialize, serde::Deserialize)]
struct ChallengeTerms {
    time_control: TimeControl,
    color: String,
    /// Absent in challenges stored before it was kept: drawn again.
    #[serde(default)]
    final_color: Option<caissa_rules::Color>,
    rated: bool,
    ruleset: caissa_arbiter::Ruleset,
    rematch_of: Option<String>,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    chess960: bool,
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
    /// The seeker's rating at the seek's speed.
    pub rating: u32,
    /// Opponents' ratings the seeker accepts (inclusive), if limited.
    pub rating_range: Option<(u32, u32)>,
    /// Told when the seek is taken, so the seeker's request ends.
    done: tokio::sync::oneshot::Sender<()>,
}

#[derive(Default)]
struct Inner {
    logins: accounts::LoginLimiter,
    tokens: auth::TokenCache,
    limits: limits::RateLimits,
    analysis: analysis::Analysis,
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
        // When the server last ran, read before this one says it runs.
        let down_since = state.store.last_beat().await?.map(|at| at as u64);
        state.recover(down_since).await?;
        state.load_challenges().await?;
        tokio::spawn(heartbeat(state.store.clone(), Arc::downgrade(&state.inner)));
        Ok(state)
    }

    async fn recover(&self, down_since: Option<u64>) -> Result<(), ApiError> {
        for stored in self.store.live_games().await? {
            if let Err(e) = self.resume(stored, down_since).await {
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
        let mut view = live::view_of(
            &stored.id,
            white,
            black,
            stored.created_at as u64,
            stored.rated,
            &game,
            now_ms(),
        );
        view.pgn = Some(game.pgn_with(&live::pgn_tags(
            &stored.id,
            &view.white,
            &view.black,
            view.created_at,
            view.rated,
            &game,
        )));
        Ok(view)
    }

    async fn resume(&self, stored: StoredGame, down_since: Option<u64>) -> Result<(), ApiError> {
        let (game, mut white, mut black) = self.rebuild(&stored).await?;
        let speed = lichess::speed(&game.setup().time_control);
        self.rate(&mut white, speed).await;
        self.rate(&mut black, speed).await;
        self.launch(
            stored.id,
            white,
            black,
            stored.created_at as u64,
            game,
            live::Start::Recovering { down_since },
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
        Ok(Player::new(user.id, user.name))
    }

    /// Sets `player`'s rating at `speed` from the store (the default if none).
    async fn rate(&self, player: &mut Player, speed: &str) {
        if let Ok(Some(r)) = self.store.rating(player.id, speed).await {
            let config = caissa_rating::glicko2::Config::default();
            player.rating = r.rating.round().clamp(0.0, 10_000.0) as u32;
            player.provisional = config.is_provisional(&ratings::to_rating(&r));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        id: String,
        white: Player,
        black: Player,
        created_at: u64,
        game: Game,
        start: live::Start,
        rated: bool,
    ) -> GameHandle {
        let handle = live::spawn(
            self.writer.clone(),
            id.clone(),
            white,
            black,
            created_at,
            rated,
            game,
            start,
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
        let (mut white, mut black) = (white, black);
        let speed = lichess::speed(&setup.time_control);
        self.rate(&mut white, speed).await;
        self.rate(&mut black, speed).await;
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
        let handle = self.launch(
            id,
            white.clone(),
            black.clone(),
            now,
            game,
            live::Start::New,
            rated,
        );
        let view = handle.view();
        for user in [white.id, black.id] {
            self.notify(user, &lichess::game_event("gameStart", &view, user));
        }
        Ok(handle)
    }

    fn logins(&self) -> &accounts::LoginLimiter {
        &self.inner.logins
    }

    pub(crate) fn count_action(&self) {
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

    /// How long `user`'s opponent in `game` has had no connection (since the game
    /// began if they never connected); 0 while connected.
    pub async fn opponent_gone_ms(&self, game: &str, user: i64) -> Result<u64, ApiError> {
        let handle = self.playable(game).await?;
        let color = handle
            .color_of(user)
            .ok_or_else(|| ApiError::Forbidden("you are not playing this game".into()))?;
        Ok(handle.gone_ms(!color, now_ms()))
    }

    /// The game with this id: live, or (finished, or from before a restart) as
    /// stored; `NotFound` if there is none.
    pub(crate) async fn live_or_stored(&self, id: &str) -> Result<LiveOrStored, ApiError> {
        if let Some(handle) = self.game(id) {
            return Ok(LiveOrStored::Live(handle));
        }
        match self.store.game(id).await? {
            Some(stored) => Ok(LiveOrStored::Stored(Arc::new(
                self.stored_view(&stored).await?,
            ))),
            None => Err(ApiError::NotFound(format!("game {id}"))),
        }
    }

    /// Stores a challenge until it is answered.
    pub(crate) async fn store_challenge(&self, c: &Challenge) -> Result<(), ApiError> {
        let terms = ChallengeTerms {
            time_control: c.time_control.clone(),
            color: c.color.clone(),
            final_color: Some(c.final_color),
            rated: c.rated,
            ruleset: c.ruleset,
            rematch_of: c.rematch_of.clone(),
            fen: c.fen.clone(),
            chess960: c.chess960,
        };
        let stored = caissa_store::StoredChallenge {
            id: c.id.clone(),
            challenger_id: c.challenger.id,
            dest_id: c.dest.as_ref().map(|d| d.id),
            terms: serde_json::to_string(&terms)
                .map_err(|e| ApiError::Storage(format!("challenge {}: {e}", c.id)))?,
            created_at: c.created_at as i64,
        };
        Ok(self.store.save_challenge(&stored).await?)
    }

    /// Forgets an answered challenge in the store. A failure leaves it there, to
    /// be dropped at the next start (its game exists, or it is re-offered).
    pub(crate) async fn forget_challenge(&self, id: &str) {
        if let Err(e) = self.store.delete_challenge(id).await {
            tracing::warn!("challenge {id} answered but not forgotten: {e}");
        }
    }

    /// The challenges still waiting for an answer when the server stopped.
    async fn load_challenges(&self) -> Result<(), ApiError> {
        for stored in self.store.challenges().await? {
            // Accepted just before the stop: its game is there.
            if self.store.game(&stored.id).await?.is_some() {
                self.forget_challenge(&stored.id).await;
                continue;
            }
            let terms: ChallengeTerms = match serde_json::from_str(&stored.terms) {
                Ok(terms) => terms,
                Err(e) => {
                    tracing::error!("challenge {}: unreadable terms: {e}", stored.id);
                    continue;
                }
            };
            let challenger = self.store.user_by_id(stored.challenger_id).await?;
            // `None`: the challenged player no longer exists.
            let dest = match stored.dest_id {
                Some(id) => self.store.user_by_id(id).await?.map(Some),
                None => Some(None),
            };
            let (Some(challenger), Some(dest)) = (challenger, dest) else {
                tracing::error!("challenge {}: a player no longer exists", stored.id);
                continue;
            };
            let challenge = Challenge {
                id: stored.id.clone(),
                challenger,
                dest,
                time_control: terms.time_control,
                final_color: terms
                    .final_color
                    .unwrap_or_else(|| final_color_of(&terms.color)),
                color: terms.color,
                rated: terms.rated,
                ruleset: terms.ruleset,
                created_at: stored.created_at as u64,
                rematch_of: terms.rematch_of,
                fen: terms.fen,
                chess960: terms.chess960,
            };
            self.inner
                .challenges
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(stored.id, challenge);
        }
        Ok(())
    }

    /// The live game with this id, to act on: a stored (finished) one is over,
    /// anything else is not found.
    pub(crate) async fn playable(&self, id: &str) -> Result<GameHandle, ApiError> {
        match self.live_or_stored(id).await? {
            LiveOrStored::Live(handle) => Ok(handle),
            LiveOrStored::Stored(_) => Err(ApiError::BadRequest("the game is over".into())),
        }
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

    pub(crate) fn games_of(&self, user: i64) -> Vec<GameHandle> {
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

    /// Whether `user` has an event stream open, or a connection to a live game.
    pub(crate) fn is_online(&self, user: i64) -> bool {
        let listening = self
            .inner
            .listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&user)
            .is_some_and(|senders| senders.iter().any(|tx| !tx.is_closed()));
        listening
            || self.games_of(user).iter().any(|g| {
                g.color_of(user)
                    .is_some_and(|c| g.presence().borrow()[c.index()].connections > 0)
            })
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
    /// `user`'s rating at `speed` (the default for a newcomer).
    pub(crate) async fn rating_of(&self, user: i64, speed: &str) -> u32 {
        let mut player = Player::new(user, String::new());
        self.rate(&mut player, speed).await;
        player.rating
    }

    /// Places a seek, or pairs it with a waiting one of the same terms from another
    /// user whose rating each accepts (the game starts at once). Returns the seek's
    /// id and, if it waits, a receiver that fires when it is taken.
    #[allow(clippy::too_many_arguments)]
    pub async fn seek(
        &self,
        user: User,
        time_control: TimeControl,
        color: String,
        rated: bool,
        ruleset: caissa_arbiter::Ruleset,
        rating_range: Option<(u32, u32)>,
    ) -> Result<(String, Option<tokio::sync::oneshot::Receiver<()>>), ApiError> {
        self.inner.limits.take(user.id, limits::Kind::Seek)?;
        let rating = self.rating_of(user.id, lichess::speed(&time_control)).await;
        let accepts = |range: Option<(u32, u32)>, r: u32| {
            range.is_none_or(|(low, high)| (low..=high).contains(&r))
        };
        let matched = {
            let mut seeks = self.inner.seeks.lock().unwrap_or_else(|e| e.into_inner());
            let compatible = |s: &Seek| {
                s.user.id != user.id
                    && s.rated == rated
                    && s.ruleset == ruleset
                    && s.time_control == time_control
                    && !(s.color == color && color != "random")
                    && accepts(s.rating_range, rating)
                    && accepts(rating_range, s.rating)
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
                rating,
                rating_range,
                done,
            };
            self.inner
                .seeks
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(seek);
            return Ok((id, Some(wait)));
        };
        self.pair(other, user, &color, id.clone()).await?;
        Ok((id, None))
    }

    /// Takes the open seek `seek_id` (from the lobby's list); returns the game's id.
    pub async fn accept_seek(&self, seek_id: &str, user: User) -> Result<String, ApiError> {
        self.inner.limits.take(user.id, limits::Kind::Seek)?;
        let seek = {
            let mut seeks = self.inner.seeks.lock().unwrap_or_else(|e| e.into_inner());
            let i = seeks.iter().position(|s| s.id == seek_id).ok_or_else(|| {
                ApiError::NotFound(format!("seek {seek_id} (already taken or withdrawn)"))
            })?;
            if seeks[i].user.id == user.id {
                return Err(ApiError::BadRequest(
                    "you cannot accept your own seek".into(),
                ));
            }
            seeks.remove(i)
        };
        let speed = lichess::speed(&seek.time_control);
        let rating = self.rating_of(user.id, speed).await;
        if let Some((low, high)) = seek.rating_range {
            if !(low..=high).contains(&rating) {
                let message = format!(
                    "{} seeks opponents rated {low}-{high}; your {speed} rating is {rating}",
                    seek.user.name
                );
                self.inner
                    .seeks
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(seek);
                return Err(ApiError::Forbidden(message));
            }
        }
        let id = new_id();
        self.pair(seek, user, "random", id.clone()).await?;
        Ok(id)
    }

    /// Starts the game of a waiting seek and its taker, and ends the seek's wait.
    async fn pair(&self, other: Seek, user: User, color: &str, id: String) -> Result<(), ApiError> {
        let other_white = match (other.color.as_str(), color) {
            ("white", _) | (_, "black") => true,
            ("black", _) | (_, "white") => false,
            _ => rand::random(),
        };
        let (white, black) = if other_white {
            (&other.user, &user)
        } else {
            (&user, &other.user)
        };
        let setup = GameSetup::new(
            &white.name,
            &black.name,
            other.ruleset,
            other.time_control.clone(),
        );
        let white = Player::new(white.id, white.name.clone());
        let black = Player::new(black.id, black.name.clone());
        self.start_game(id, white, black, setup, other.rated)
            .await?;
        let _ = other.done.send(());
        Ok(())
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
            std::sync::Arc::new(computer::EnginePlayer);
        tokio::spawn(async move {
            let mut updates = handle.subscribe();
            loop {
                let view = updates.borrow_and_update().clone();
                if view.finish.is_some() {
                    break;
                }
                if view.turn == color && !view.fen.is_empty() {
                    let seed = now_ms() ^ view.moves.len() as u64;
                    let player = player.clone();
                    let remaining = view.clocks.map(|c| c[color.index()]);
                    let increment = view
                        .setup
                        .time_control
                        .periods
                        .first()
                        .map_or(0, |p| p.increment_ms);
                    let budget = computer::budget(remaining, increment);
                    let game = view.clone();
                    let chosen = tokio::task::spawn_blocking(move || {
                        // The whole game, so the engine sees repetitions.
                        let positions = positions_of(&game)?;
                        let last = *positions.last()?;
                        let m = player.choose(&positions, level, budget, seed)?;
                        Some(last.to_uci(m))
                    })
                    .await
                    .ok()
                    .flatten();
                    if let Some(uci) = chosen {
                        if let Err(e) = handle.act(user, caissa_arbiter::Action::play(uci)).await {
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

/// How often the server records that it is running.
const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(1);

/// Records every [`HEARTBEAT`] that the server runs, while `alive` does: after a
/// crash, the last record says when the clocks stopped.
async fn heartbeat(store: Store, alive: std::sync::Weak<Inner>) {
    let mut tick = tokio::time::interval(HEARTBEAT);
    loop {
        tick.tick().await;
        if alive.upgrade().is_none() {
            break;
        }
        if let Err(e) = store.beat(now_ms() as i64).await {
            tracing::warn!("heartbeat not recorded: {e}");
        }
    }
}

/// A game that is being played, or one only in the store (finished).
pub(crate) enum LiveOrStored {
    /// Its task.
    Live(GameHandle),
    /// How it ended.
    Stored(Arc<View>),
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
    serve_on(listener, state, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await?;
    Ok(())
}

/// Serves `state` on `listener` (HTTP/1.1, and HTTP/2 with prior knowledge) until
/// `shutdown` completes, then finishes the requests in progress.
///
/// Nagle's algorithm is turned off on every connection: a move's answer and the
/// line that tells the opponent are a few dozen bytes, often written as several
/// frames (HTTP/2 headers then data, WebSocket messages), and holding the second
/// back until the first is acknowledged would add tens of milliseconds.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY not set: {e}");
        }
    });
    // Paths are made canonical before routing (so outside the router).
    let service = tower::Layer::layer(
        &axum::middleware::map_request(edges::trim_trailing_slash),
        app(state),
    );
    let service = axum::ServiceExt::<axum::extract::Request>::into_make_service(service);
    axum::serve(listener, service)
        .with_graceful_shutdown(shutdown)
        .await
}

/// The positions of a game from its start, one per move played.
fn positions_of(view: &View) -> Option<Vec<caissa_rules::Position>> {
    let mut pos = match &view.setup.fen {
        Some(fen) if view.setup.chess960 => {
            caissa_rules::fen::parse_with_mode(fen, caissa_rules::CastlingMode::Chess960).ok()?
        }
        Some(fen) => caissa_rules::Position::from_fen(fen).ok()?,
        None => caissa_rules::Position::new(),
    };
    let mut positions = Vec::with_capacity(view.moves.len() + 1);
    positions.push(pos);
    for uci in &view.moves {
        let m = pos.parse_uci(uci).ok()?;
        pos.play_unchecked(m);
        positions.push(pos);
    }
    Some(positions)
}
