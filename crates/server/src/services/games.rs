//! Live games: the registry of the games being played (by id and by player),
//! starting a game (stored before anyone is told), resuming the unfinished ones
//! after a restart, and finding a game live or in the store. A finished game
//! stays in memory a little while (late readers, a rematch) and is then served
//! from the store.
//!
//! With several nodes, a game asked for here that another node owns is
//! followed here (see `live::mirror`), and the games of a node that was lost
//! are adopted: each node looks for them every second.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use caissa_arbiter::{Game, GameSetup};
use caissa_rules::Color;
use caissa_store::{GameFilter, Store, StoredGame};

use crate::cluster::{Cluster, Hears, Message};
use crate::http::error::ApiError;
use crate::live::actor::{self, Context, Start};
use crate::live::codec;
use crate::live::handle::{ChatLine, GameHandle, Note, Room};
use crate::live::news::{Effect, NewsBus, Subscriber};
use crate::live::view::{
    now_ms, pgn_tags, view_of, GameInfo, GameSource, MoveRecorder, Player, View,
};
use crate::live::writer::Writer;
use crate::metrics::Metrics;
use crate::services::ratings::Ratings;

/// The most games adopted at one look.
const ADOPT_AT_ONCE: i64 = 256;

/// A game that is being played, or one only in the store (finished).
pub enum Found {
    /// Its task.
    Live(GameHandle),
    /// How it ended.
    Stored(Arc<View>),
}

impl Found {
    /// The view of the game now (the latest published, for a live one).
    pub fn view(&self) -> Arc<View> {
        match self {
            Found::Live(handle) => handle.view(),
            Found::Stored(view) => view.clone(),
        }
    }
}

#[derive(Default)]
struct Registry {
    games: HashMap<String, GameHandle>,
    by_user: HashMap<i64, Vec<String>>,
}

impl Registry {
    fn insert(&mut self, handle: GameHandle) {
        let info = handle.info().clone();
        for user in [info.white.id, info.black.id] {
            self.by_user.entry(user).or_default().push(info.id.clone());
        }
        self.games.insert(info.id.clone(), handle);
    }

    fn remove(&mut self, id: &str) {
        let Some(handle) = self.games.remove(id) else {
            return;
        };
        for user in [handle.info().white.id, handle.info().black.id] {
            if let Some(ids) = self.by_user.get_mut(&user) {
                ids.retain(|g| g != id);
                if ids.is_empty() {
                    self.by_user.remove(&user);
                }
            }
        }
    }
}

/// Where a node answers what it has on its boards (`/internal/` route).
pub const ON_BOARD_PATH: &str = "/internal/on-board";

/// A game being played, in brief (what TV chooses by).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct OnBoard {
    /// The game.
    pub id: String,
    /// Its speed, as lichess names it (`blitz`, `rapid` ...).
    pub speed: String,
    /// White.
    pub white: Seat,
    /// Black.
    pub black: Seat,
    /// Plies played.
    pub plies: usize,
    /// When it began, ms since the Unix epoch.
    pub created_at: u64,
}

/// A player on a board, in brief.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Seat {
    /// The name.
    pub name: String,
    /// The rating at the game's speed when it began.
    pub rating: u32,
}

impl Seat {
    fn of(player: &Player) -> Seat {
        Seat {
            name: player.name.clone(),
            rating: player.rating,
        }
    }
}

/// The live games of a server.
pub struct Games {
    store: Store,
    writer: Writer,
    metrics: Arc<Metrics>,
    news: Arc<NewsBus>,
    ratings: Arc<Ratings>,
    cluster: Arc<Cluster>,
    registry: Mutex<Registry>,
    /// How long a finished game stays in memory.
    finished_kept: Duration,
}

impl Games {
    /// The registry, its games' ends told to `news` (which it also follows, to let
    /// finished games go).
    pub fn new(
        store: Store,
        writer: Writer,
        metrics: Arc<Metrics>,
        news: Arc<NewsBus>,
        ratings: Arc<Ratings>,
        finished_kept: Duration,
        cluster: Arc<Cluster>,
    ) -> Arc<Games> {
        let games = Arc::new(Games {
            store,
            writer,
            metrics,
            news: news.clone(),
            ratings,
            cluster: cluster.clone(),
            registry: Mutex::default(),
            finished_kept,
        });
        news.subscribe(Arc::new(Evict(Arc::downgrade(&games))));
        let hears: Weak<dyn Hears> = Arc::downgrade(&games) as Weak<Games>;
        cluster.subscribe(hears);
        if cluster.is_multi() {
            tokio::spawn(adopt_orphans(Arc::downgrade(&games)));
        }
        games
    }

    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adopts the unfinished games nobody runs: after a restart, those of the
    /// last run (on one node); with several, those of nodes that were lost. The
    /// player on move is charged up to when their last runner was last seen
    /// (its heartbeat or lease), not for the outage. A game that cannot be read
    /// is left where it is. How many were adopted.
    pub async fn adopt(&self) -> Result<usize, ApiError> {
        let mut adopted = 0;
        loop {
            let orphans = self.store.take_over(ADOPT_AT_ONCE).await?;
            let more = orphans.len() as i64 == ADOPT_AT_ONCE;
            for orphan in orphans {
                let stored = orphan.game;
                let down_since = orphan.last_seen.map(|at| at as u64);
                match self.rebuild(&stored).await {
                    Ok((game, white, black)) => {
                        if let Some(handle) = self.live(&stored.id) {
                            handle.note(Note::Adopt {
                                game: Box::new(game),
                                down_since,
                            });
                        } else {
                            let info = self.info_of(&stored, &game, white, black).await;
                            self.launch(info, game, Start::Recovering { down_since });
                        }
                        adopted += 1;
                    }
                    Err(e) => tracing::error!("cannot resume game {}: {e}", stored.id),
                }
            }
            if !more {
                return Ok(adopted);
            }
        }
    }

    /// Looks at which nodes run (and so which is the hub), and forgets the
    /// connections to games held on nodes that are no longer running (their
    /// players reconnect elsewhere).
    async fn forget_lost_nodes(&self) {
        let running = match self.store.running_nodes().await {
            Ok(running) => running,
            Err(e) => {
                tracing::warn!("looking for running nodes: {e}");
                return;
            }
        };
        self.cluster.running(&running);
        let running: Vec<i64> = running.iter().map(|l| l.generation).collect();
        let handles: Vec<GameHandle> = self.registry().games.values().cloned().collect();
        for handle in handles {
            handle.seats.keep_nodes(&running);
        }
    }

    /// What does not change in a stored game, its players rated as they stand.
    async fn info_of(
        &self,
        stored: &StoredGame,
        game: &Game,
        white: Player,
        black: Player,
    ) -> GameInfo {
        let speed = game.setup().time_control.speed();
        let white = self.ratings.player(white.id, white.name, speed).await;
        let black = self.ratings.player(black.id, black.name, speed).await;
        GameInfo {
            id: stored.id.clone(),
            white,
            black,
            setup: game.setup().clone(),
            created_at: stored.created_at as u64,
            rated: stored.rated,
            source: GameSource::from_stored(&stored.source),
        }
    }

    fn context(&self) -> Context {
        Context {
            writer: self.writer.clone(),
            store: self.store.clone(),
            cluster: self.cluster.clone(),
            metrics: self.metrics.clone(),
            news: self.news.clone(),
        }
    }

    fn launch(&self, info: GameInfo, game: Game, start: Start) -> GameHandle {
        let handle = actor::spawn(self.context(), info, game, start);
        self.registry().insert(handle.clone());
        handle
    }

    /// A copy of a game another node owns, followed here from now on (the
    /// one already followed, if another request made it meanwhile).
    async fn follow(&self, stored: &StoredGame) -> Result<GameHandle, ApiError> {
        let (game, white, black) = self.rebuild(stored).await?;
        let info = self.info_of(stored, &game, white, black).await;
        let mut registry = self.registry();
        if let Some(handle) = registry.games.get(&stored.id) {
            return Ok(handle.clone());
        }
        let handle = actor::spawn(self.context(), info, game, Start::Following);
        registry.insert(handle.clone());
        Ok(handle)
    }

    /// Starts a new game between two users (rated as they stand at its speed) and
    /// stores it before anyone is told.
    pub async fn start(
        &self,
        id: String,
        white: (i64, String),
        black: (i64, String),
        setup: GameSetup,
        rated: bool,
        source: GameSource,
    ) -> Result<GameHandle, ApiError> {
        if source.tournament().is_some() && !self.cluster.is_hub() {
            // A hub that was paused past its lease and came back: the new hub
            // directs the tournaments now.
            return Err(ApiError::Unavailable {
                message: "tournaments are directed by another node now".into(),
                retry_after_ms: 1_000,
            });
        }
        let speed = setup.time_control.speed();
        let white = self.ratings.player(white.0, white.1, speed).await;
        let black = self.ratings.player(black.0, black.1, speed).await;
        let now = now_ms();
        let game = Game::new(setup.clone(), now)?;
        let stored = StoredGame {
            id: id.clone(),
            white_id: white.id,
            black_id: black.id,
            setup: codec::encode_setup(&setup)?,
            created_at: now as i64,
            finished: false,
            result: None,
            rated,
            source: source.stored(),
            events: codec::encode_events(game.events())?,
        };
        self.store.create_game(&stored).await?;
        let info = GameInfo {
            id,
            white,
            black,
            setup,
            created_at: now,
            rated,
            source,
        };
        let handle = self.launch(info, game, Start::New);
        self.news.started(&handle.view());
        Ok(handle)
    }

    /// A stored game rebuilt from its log, with its players (unrated).
    pub async fn rebuild(&self, stored: &StoredGame) -> Result<(Game, Player, Player), ApiError> {
        let setup = codec::decode_setup(&stored.id, &stored.setup)?;
        let events = stored
            .events
            .iter()
            .enumerate()
            .map(|(seq, text)| codec::decode_event(&stored.id, seq, text))
            .collect::<Result<Vec<_>, _>>()?;
        let game = Game::from_events(setup, &events)?;
        let white = self.player(stored.white_id).await?;
        let black = self.player(stored.black_id).await?;
        Ok((game, white, black))
    }

    async fn player(&self, id: i64) -> Result<Player, ApiError> {
        let user =
            self.store.user_by_id(id).await?.ok_or_else(|| {
                ApiError::Internal(format!("a game's player {id} does not exist"))
            })?;
        let mut player = Player::new(user.id, user.name);
        player.title = user.title;
        Ok(player)
    }

    /// What a stored game looks like, with its PGN.
    pub async fn stored_view(&self, stored: &StoredGame) -> Result<View, ApiError> {
        let (game, white, black) = self.rebuild(stored).await?;
        let info = Arc::new(GameInfo {
            id: stored.id.clone(),
            white,
            black,
            setup: game.setup().clone(),
            created_at: stored.created_at as u64,
            rated: stored.rated,
            source: GameSource::from_stored(&stored.source),
        });
        let moves = MoveRecorder::default().sync(&game);
        let view = view_of(&info, &game, moves, None, now_ms());
        let pgn = game.pgn_with(&pgn_tags(&info, &game));
        Ok(view.with_pgn(pgn))
    }

    /// An arbiter's action on a finished game (only correcting its result can be
    /// one): applied to the stored log, stored with the new result, and the game
    /// let go from memory so that every reader sees the stored one.
    pub async fn arbitrate_stored(
        &self,
        id: &str,
        arbiter: &str,
        reason: &str,
        action: caissa_arbiter::ArbiterAction,
    ) -> Result<(), ApiError> {
        let stored = self
            .store
            .game(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("game {id}")))?;
        let (mut game, _, _) = self.rebuild(&stored).await?;
        let first = game.events().len();
        let now = now_ms().max(game.events().last().map_or(0, |e| e.at));
        game.arbitrate(arbiter, reason, action, now)?;
        let events = codec::encode_events(&game.events()[first..])?;
        let result = game.finish().map(|f| f.result.pgn().to_string());
        self.store
            .append_events(id, first as u64, &events, result.as_deref())
            .await?;
        self.registry().remove(id);
        Ok(())
    }

    /// The live game with this id.
    pub fn live(&self, id: &str) -> Option<GameHandle> {
        self.registry().games.get(id).cloned()
    }

    /// The game with this id, live or (finished, or from before a restart) as
    /// stored; `NotFound` if there is none.
    pub async fn find(&self, id: &str) -> Result<Found, ApiError> {
        if let Some(handle) = self.live(id) {
            return Ok(Found::Live(handle));
        }
        match self.store.game(id).await? {
            Some(stored) if !stored.finished && self.cluster.is_multi() => {
                Ok(Found::Live(self.follow(&stored).await?))
            }
            Some(stored) => Ok(Found::Stored(Arc::new(self.stored_view(&stored).await?))),
            None => Err(ApiError::NotFound(format!("game {id}"))),
        }
    }

    /// The live game with this id, to act on: a stored (finished) one is over
    /// (409), anything else is not found.
    pub async fn playable(&self, id: &str) -> Result<GameHandle, ApiError> {
        if let Some(handle) = self.live(id) {
            return Ok(handle);
        }
        match self.store.game(id).await? {
            Some(stored) if !stored.finished && self.cluster.is_multi() => {
                self.follow(&stored).await
            }
            Some(_) => Err(ApiError::game_over()),
            None => Err(ApiError::NotFound(format!("game {id}"))),
        }
    }

    /// What `a` and `b` scored against each other over their last 1,000
    /// finished games (1 a win, ½ a draw), and how many there were.
    pub async fn score_between(&self, a: i64, b: i64) -> Result<(f64, f64, u32), ApiError> {
        let filter = GameFilter {
            vs: Some(b),
            limit: 1_000,
            ..GameFilter::default()
        };
        let (mut a_score, mut b_score, mut played) = (0.0, 0.0, 0);
        for id in self.store.game_ids_of_user(a, &filter).await? {
            let Some(game) = self.store.game(&id).await? else {
                continue;
            };
            let a_white = game.white_id == a;
            let (white, black) = match game.result.as_deref() {
                Some("1-0") => (1.0, 0.0),
                Some("0-1") => (0.0, 1.0),
                Some("1/2-1/2") => (0.5, 0.5),
                _ => continue,
            };
            played += 1;
            let (mine, theirs) = if a_white {
                (white, black)
            } else {
                (black, white)
            };
            a_score += mine;
            b_score += theirs;
        }
        Ok((a_score, b_score, played))
    }

    /// The games `user` is playing now, on any node (those another node owns
    /// are followed here from now on).
    pub async fn playing(&self, user: i64) -> Result<Vec<GameHandle>, ApiError> {
        let mut games = self.of_user(user);
        if !self.cluster.is_multi() {
            return Ok(games);
        }
        let filter = GameFilter {
            ongoing: true,
            limit: 100,
            ..GameFilter::default()
        };
        for id in self.store.game_ids_of_user(user, &filter).await? {
            if games.iter().all(|g| g.id() != id) {
                if let Ok(Found::Live(handle)) = self.find(&id).await {
                    if !handle.is_finished() {
                        games.push(handle);
                    }
                }
            }
        }
        Ok(games)
    }

    /// The games `user` is playing now.
    pub fn of_user(&self, user: i64) -> Vec<GameHandle> {
        let registry = self.registry();
        registry
            .by_user
            .get(&user)
            .into_iter()
            .flatten()
            .filter_map(|id| registry.games.get(id))
            .filter(|g| !g.is_finished())
            .cloned()
            .collect()
    }

    /// Games being played now, newest first.
    pub fn live_views(&self) -> Vec<Arc<View>> {
        let mut views: Vec<_> = self
            .registry()
            .games
            .values()
            .map(|g| g.view())
            .filter(|v| v.finish.is_none())
            .collect();
        views.sort_by_key(|v| std::cmp::Reverse(v.info.created_at));
        views
    }

    /// The games being played on every node, in brief, for TV: those this
    /// node owns, and on several nodes what the others say they own (a node
    /// that does not answer in time is left out).
    pub async fn on_board_everywhere(&self) -> Vec<OnBoard> {
        let mut boards = self.on_board_here();
        if self.cluster.is_multi() {
            boards.extend(self.cluster.ask_nodes::<OnBoard>(ON_BOARD_PATH).await);
        }
        boards
    }

    /// The games this node owns and are being played, in brief.
    pub fn on_board_here(&self) -> Vec<OnBoard> {
        let registry = self.registry();
        registry
            .games
            .values()
            .filter(|g| g.is_owned_here())
            .map(|g| g.view())
            .filter(|v| v.finish.is_none())
            .map(|v| OnBoard {
                id: v.info.id.clone(),
                speed: crate::protocol::lichess::speed(&v.info.setup.time_control).to_string(),
                white: Seat::of(&v.info.white),
                black: Seat::of(&v.info.black),
                plies: v.moves.len(),
                created_at: v.info.created_at,
            })
            .collect()
    }

    /// (games being played, games held in memory).
    pub fn counts(&self) -> (usize, usize) {
        let registry = self.registry();
        let live = registry.games.values().filter(|g| !g.is_finished()).count();
        (live, registry.games.len())
    }
}

/// What other nodes say of games followed here.
impl Hears for Games {
    fn heard(&self, message: &Message) {
        match message {
            Message::Grew { games, .. } => {
                let registry = self.registry();
                for growth in games {
                    if let Some(handle) = registry.games.get(&growth.game) {
                        handle.note(Note::Grew(growth.clone()));
                    }
                }
            }
            Message::Chat {
                game,
                room,
                username,
                text,
                ..
            } => {
                let room = match room.as_str() {
                    "player" => Room::Player,
                    _ => Room::Spectator,
                };
                if let Some(handle) = self.live(game) {
                    handle.say(ChatLine {
                        room,
                        username: username.clone(),
                        text: text.clone(),
                    });
                }
            }
            Message::Presence {
                from,
                game,
                white,
                connected,
            } => {
                if let Some(handle) = self.live(game) {
                    let color = if *white { Color::White } else { Color::Black };
                    handle.seats.elsewhere(*from, color, *connected);
                }
            }
            Message::PresenceAsked { game, .. } => {
                if let Some(handle) = self.live(game) {
                    handle.seats.asked();
                }
            }
            Message::User { .. }
            | Message::Token { .. }
            | Message::ChallengeGone { .. }
            | Message::Spent { .. }
            | Message::GameTold { .. } => {}
        }
    }

    fn gap(&self) {
        for handle in self.registry().games.values() {
            handle.note(Note::Resync);
        }
    }
}

/// Adopts, every second while the server runs, the games of nodes that were
/// lost.
async fn adopt_orphans(games: Weak<Games>) {
    let every = Duration::from_secs(1);
    loop {
        tokio::time::sleep(every).await;
        let Some(games) = games.upgrade() else {
            return;
        };
        games.forget_lost_nodes().await;
        match games.adopt().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("adopted {n} games of a node that was lost"),
            Err(e) => tracing::warn!("looking for games to adopt: {e}"),
        }
    }
}

/// Lets a finished game go from memory after [`Games::finished_kept`].
struct Evict(Weak<Games>);

impl Evict {
    fn later(&self, view: Arc<View>) {
        let games = self.0.clone();
        let Some(kept) = games.upgrade().map(|g| g.finished_kept) else {
            return;
        };
        tokio::spawn(async move {
            tokio::time::sleep(kept).await;
            if let Some(games) = games.upgrade() {
                games.registry().remove(view.id());
            }
        });
    }
}

impl Subscriber for Evict {
    fn followed_to_end(&self, view: &Arc<View>) {
        self.later(view.clone());
    }

    fn finished(&self, view: Arc<View>) -> Effect {
        // Not awaited by the other effects of this game's end.
        self.later(view);
        Box::pin(async {})
    }
}
