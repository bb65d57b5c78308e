//! Live games: the registry of the games being played (by id and by player),
//! starting a game (stored before anyone is told), resuming the unfinished ones
//! after a restart, and finding a game live or in the store. A finished game
//! stays in memory a little while (late readers, a rematch) and is then served
//! from the store.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use caissa_arbiter::{Game, GameSetup};
use caissa_store::{Store, StoredGame};

use crate::http::error::ApiError;
use crate::live::actor::{self, Start};
use crate::live::codec;
use crate::live::handle::GameHandle;
use crate::live::news::{Effect, NewsBus, Subscriber};
use crate::live::view::{
    now_ms, pgn_tags, view_of, GameInfo, GameSource, MoveRecorder, Player, View,
};
use crate::live::writer::Writer;
use crate::metrics::Metrics;
use crate::services::ratings::Ratings;

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

/// The live games of a server.
pub struct Games {
    store: Store,
    writer: Writer,
    metrics: Arc<Metrics>,
    news: Arc<NewsBus>,
    ratings: Arc<Ratings>,
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
    ) -> Arc<Games> {
        let games = Arc::new(Games {
            store,
            writer,
            metrics,
            news: news.clone(),
            ratings,
            registry: Mutex::default(),
            finished_kept,
        });
        news.subscribe(Arc::new(Evict(Arc::downgrade(&games))));
        games
    }

    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Resumes every unfinished game in the store (after a restart): the player on
    /// move is charged up to `down_since` (the last heartbeat), not for the time
    /// the server was down. A game that cannot be read is left where it is.
    pub async fn recover(&self, down_since: Option<u64>) -> Result<usize, ApiError> {
        let mut resumed = 0;
        for stored in self.store.live_games().await? {
            match self.rebuild(&stored).await {
                Ok((game, white, black)) => {
                    let speed = game.setup().time_control.speed();
                    let white = self.ratings.player(white.id, white.name, speed).await;
                    let black = self.ratings.player(black.id, black.name, speed).await;
                    let info = GameInfo {
                        id: stored.id.clone(),
                        white,
                        black,
                        setup: game.setup().clone(),
                        created_at: stored.created_at as u64,
                        rated: stored.rated,
                        source: GameSource::from_stored(&stored.source),
                    };
                    self.launch(info, game, Start::Recovering { down_since });
                    resumed += 1;
                }
                Err(e) => tracing::error!("cannot resume game {}: {e}", stored.id),
            }
        }
        Ok(resumed)
    }

    fn launch(&self, info: GameInfo, game: Game, start: Start) -> GameHandle {
        let handle = actor::spawn(
            self.writer.clone(),
            self.metrics.clone(),
            self.news.clone(),
            info,
            game,
            start,
        );
        self.registry().insert(handle.clone());
        handle
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
        Ok(Player::new(user.id, user.name))
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
            Some(_) => Err(ApiError::game_over()),
            None => Err(ApiError::NotFound(format!("game {id}"))),
        }
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

    /// (games being played, games held in memory).
    pub fn counts(&self) -> (usize, usize) {
        let registry = self.registry();
        let live = registry.games.values().filter(|g| !g.is_finished()).count();
        (live, registry.games.len())
    }
}

/// Lets a finished game go from memory after [`Games::finished_kept`].
struct Evict(Weak<Games>);

impl Subscriber for Evict {
    fn finished(&self, view: Arc<View>) -> Effect {
        let games = self.0.clone();
        Box::pin(async move {
            let Some(kept) = games.upgrade().map(|g| g.finished_kept) else {
                return;
            };
            // Not awaited by the other effects of this game's end.
            tokio::spawn(async move {
                tokio::time::sleep(kept).await;
                if let Some(games) = games.upgrade() {
                    games.registry().remove(view.id());
                }
            });
        })
    }
}
