//! The server's state: its services, composed once, and what configures them.
//! Handlers take the services they use (`State<Arc<Games>>` ...), each found in
//! [`AppState`] by type.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use caissa_store::Store;

use crate::assets::Assets;
use crate::cluster::Cluster;
use crate::http::error::ApiError;
use crate::http::limits::{Budget, Kind, RateLimits};
use crate::live::news::NewsBus;
use crate::live::view::now_ms;
use crate::live::writer::Writer;
use crate::metrics::Metrics;
use crate::services::accounts::Accounts;
use crate::services::analysis::Analysis;
use crate::services::arbiters::Arbiters;
use crate::services::challenges::Challenges;
use crate::services::chat::Chat;
use crate::services::computer::Computer;
use crate::services::events::UserEvents;
use crate::services::exports::Exports;
use crate::services::game_news::GameNews;
use crate::services::games::Games;
use crate::services::learning::Learning;
use crate::services::lobby::Lobby;
use crate::services::puzzles::Puzzles;
use crate::services::ratings::Ratings;
use crate::services::safety::Safety;
use crate::services::tokens::Tokens;
use crate::services::tournaments::Tournaments;

/// What an operator (or a test) may change.
#[derive(Clone, Debug)]
pub struct Config {
    /// Serve the web app from this folder instead of the embedded copy.
    pub web_dir: Option<PathBuf>,
    /// Whether the peer is a reverse proxy whose `X-Forwarded-For` is trusted.
    pub trust_proxy: bool,
    /// Longest wait for a request's headers.
    pub header_read_timeout: Duration,
    /// A connection with no bytes either way for this long is closed.
    pub idle_timeout: Duration,
    /// Most connections at once (beyond: 503); `None`: from the open-file limit.
    pub max_connections: Option<usize>,
    /// Event streams one user may have open.
    pub max_event_streams_per_user: usize,
    /// Challenges waiting for or from one user.
    pub max_pending_challenges: usize,
    /// How long a finished game stays in memory.
    pub finished_game_kept: Duration,
    /// How long a browser session lasts.
    pub session_ttl: Duration,
    /// Rate-limit budgets other than the defaults.
    pub budgets: HashMap<Kind, Budget>,
    /// Whether the per-address limits (registrations, logins, guests) also
    /// count this machine's own loopback address. Off by default: local
    /// scripts and test suites are the owner's, and behind a proxy on the same
    /// machine `trust_proxy` gives the real addresses.
    pub limit_loopback: bool,
    /// Where other nodes reach this one (`host:port`), on PostgreSQL.
    pub node_address: Option<String>,
    /// How long a node's lease lasts unrenewed: a lost node's games are
    /// adopted by the others after this.
    pub lease_ttl: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            web_dir: None,
            trust_proxy: false,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: None,
            max_event_streams_per_user: 16,
            max_pending_challenges: 20,
            finished_game_kept: Duration::from_secs(60),
            session_ttl: Duration::from_secs(30 * 24 * 3600),
            budgets: HashMap::new(),
            limit_loopback: false,
            node_address: None,
            lease_ttl: Duration::from_secs(5),
        }
    }
}

/// The services of one server: cheap to clone.
#[derive(Clone, FromRef)]
pub struct AppState {
    /// The configuration.
    pub config: Arc<Config>,
    /// Accounts and sessions.
    pub accounts: Arc<Accounts>,
    /// API tokens.
    pub tokens: Arc<Tokens>,
    /// Users' event streams.
    pub events: Arc<UserEvents>,
    /// Games starting and ending, for streams following players.
    pub game_news: Arc<GameNews>,
    /// Challenges.
    pub challenges: Arc<Challenges>,
    /// Seeks.
    pub lobby: Arc<Lobby>,
    /// Live games.
    pub games: Arc<Games>,
    /// The computer player.
    pub computer: Arc<Computer>,
    /// Games' chat.
    pub chat: Arc<Chat>,
    /// Blocks and reports.
    pub safety: Arc<Safety>,
    /// The lessons and learners' stars.
    pub learning: Arc<Learning>,
    /// Puzzles and the players' puzzle ratings.
    pub puzzles: Arc<Puzzles>,
    /// Ratings.
    pub ratings: Arc<Ratings>,
    /// Exports.
    pub exports: Arc<Exports>,
    /// The analysis engine.
    pub analysis: Arc<Analysis>,
    /// The arbiters' seat.
    pub arbiters: Arc<Arbiters>,
    /// Tournaments.
    pub tournaments: Arc<Tournaments>,
    /// Rate limits.
    pub limits: Arc<RateLimits>,
    /// Counters.
    pub metrics: Arc<Metrics>,
    /// The other nodes.
    pub cluster: Arc<Cluster>,
    /// The web app's files.
    pub assets: Arc<Assets>,
}

impl AppState {
    /// State over an open store with the default configuration, every unfinished
    /// game resumed.
    pub async fn new(store: Store) -> Result<AppState, ApiError> {
        AppState::with_config(store, Config::default()).await
    }

    /// State over an open store, every unfinished game resumed and every
    /// unanswered challenge waiting again.
    pub async fn with_config(store: Store, config: Config) -> Result<AppState, ApiError> {
        let metrics = Arc::new(Metrics::default());
        let limits = Arc::new(RateLimits::with_budgets(
            config.budgets.clone(),
            config.limit_loopback,
        ));
        let news = Arc::new(NewsBus::default());
        let ratings = Arc::new(Ratings::new(store.clone()));
        let cluster = Cluster::join(
            store.clone(),
            config.node_address.as_deref().unwrap_or(UNREACHABLE),
            config.lease_ttl,
        )
        .await?;
        cluster.share_limits(limits.clone());
        let events = UserEvents::new(config.max_event_streams_per_user, cluster.clone());
        // Ratings first: the players hear that a game is over once it is rated.
        news.subscribe(ratings.clone());
        news.subscribe(events.clone());
        let game_news = GameNews::new(cluster.clone());
        news.subscribe(game_news.clone());
        let writer = Writer::spawn(store.clone(), metrics.clone(), cluster.clone());
        let games = Games::new(
            store.clone(),
            writer,
            metrics.clone(),
            news.clone(),
            ratings.clone(),
            config.finished_game_kept,
            cluster.clone(),
        );
        let arbiters = Arc::new(Arbiters::new(store.clone(), games.clone()));
        let tournaments = Tournaments::new(
            store.clone(),
            games.clone(),
            ratings.clone(),
            arbiters.clone(),
        );
        news.subscribe(tournaments.clone());
        let safety = Arc::new(Safety::new(store.clone(), limits.clone()));
        let state = AppState {
            accounts: Arc::new(Accounts::new(
                store.clone(),
                limits.clone(),
                config.session_ttl,
            )),
            tokens: Tokens::new(store.clone(), cluster.clone()),
            challenges: Challenges::new(
                store.clone(),
                games.clone(),
                ratings.clone(),
                events.clone(),
                config.max_pending_challenges,
                cluster.clone(),
            ),
            lobby: Arc::new(Lobby::new(games.clone(), ratings.clone(), safety.clone())),
            safety,
            learning: Arc::new(Learning::new(store.clone())),
            puzzles: Arc::new(Puzzles::new(store.clone())),
            computer: Arc::new(Computer::default()),
            chat: Arc::new(Chat::new(
                store.clone(),
                games.clone(),
                limits.clone(),
                cluster.clone(),
            )),
            exports: Arc::new(Exports::new(store.clone(), games.clone())),
            analysis: Arc::new(Analysis::default()),
            arbiters,
            tournaments,
            assets: Arc::new(Assets::new(config.web_dir.clone())),
            config: Arc::new(config),
            events,
            game_news,
            games,
            ratings,
            limits,
            metrics,
            cluster,
        };
        // What the last run left (read before this one says it runs), or on
        // several nodes, the games of nodes that were lost.
        state.games.adopt().await?;
        state.challenges.load().await?;
        // The tournaments are directed by the hub: this node now, or once
        // it becomes the hub.
        if state.cluster.is_hub() {
            state.tournaments.load().await?;
        }
        if let Some(mut hub_here) = state.cluster.follow_hub() {
            let tournaments = Arc::downgrade(&state.tournaments);
            let loaded_now = state.cluster.is_hub();
            tokio::spawn(async move {
                let mut loaded = loaded_now;
                while hub_here.changed().await.is_ok() {
                    let here = *hub_here.borrow_and_update();
                    let Some(tournaments) = tournaments.upgrade() else {
                        return;
                    };
                    if here && !loaded {
                        match tournaments.load().await {
                            Ok(n) => tracing::info!(
                                "this node is the hub now: {n} tournaments directed here"
                            ),
                            Err(e) => {
                                tracing::error!("loading the tournaments on the new hub: {e}")
                            }
                        }
                        loaded = true;
                    }
                }
            });
        }
        tokio::spawn(housekeeping(store, Arc::downgrade(&state.accounts)));
        Ok(state)
    }
}

/// The address a node gives when it was told none (in-process tests): other
/// nodes cannot forward to it.
const UNREACHABLE: &str = "unreachable.invalid:0";

/// How often the server records that it is running.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// How often expired sessions are forgotten.
const SESSION_PRUNE_EVERY: u32 = 3600;

/// Records every [`HEARTBEAT`] that the server runs, while it does (after a
/// crash, the last record says when the clocks stopped), and now and then
/// forgets expired sessions.
async fn housekeeping(store: Store, alive: std::sync::Weak<Accounts>) {
    let mut tick = tokio::time::interval(HEARTBEAT);
    let mut beats = 0u32;
    loop {
        tick.tick().await;
        let Some(accounts) = alive.upgrade() else {
            break;
        };
        if let Err(e) = store.beat(now_ms() as i64).await {
            tracing::warn!("heartbeat not recorded: {e}");
        }
        if beats.is_multiple_of(SESSION_PRUNE_EVERY) {
            match accounts.prune_sessions().await {
                Ok(0) => {}
                Ok(n) => tracing::info!("{n} expired sessions forgotten"),
                Err(e) => tracing::warn!("expired sessions not forgotten: {e}"),
            }
        }
        beats = beats.wrapping_add(1);
    }
}
