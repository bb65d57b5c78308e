//! `caissa loadtest`: many games played at once over the HTTP API, to measure the
//! server's sustained move rate, the round trip of every move, the memory a game
//! costs, and that every acknowledged move is durable.
//!
//! A run goes through these phases:
//!
//! 1. **Target.** By default a server is started in this process, on its own Tokio
//!    runtime (threads named `lt-server`), on `127.0.0.1` with an ephemeral port and
//!    a fresh SQLite file in a temporary directory. With `--addr`, a server already
//!    running on a loopback address is tested instead, and the test accounts are
//!    written into its database (`--db`). Only loopback addresses are ever contacted
//!    (and no HTTP proxy is used).
//! 2. **Accounts.** `2N` accounts with API tokens are written straight into the store.
//! 3. **Games.** `N` games are created through the API (challenge, then accept); the
//!    server's resident memory (`VmRSS`) is read before and after, which gives the
//!    memory per game: in-process from `/proc/self` (server and load generator
//!    together), with `--addr` from `/proc/<--server-pid>` if given.
//! 4. **Streams.** Each of the `2N` players opens its game's NDJSON stream.
//! 5. **Play.** `2N` tasks (on a runtime whose threads are named `lt-client`), one
//!    per player, each with its own token and stream. Each reads its stream and,
//!    whenever the stream's move list says it is its turn, plays a random legal
//!    move, until the game has `M` plies, ends, or the time is up. Each move is
//!    timed twice: from sending the request to its `200`, and from sending it to
//!    the moment the opponent's stream shows it.
//!    Percentiles are given over all moves and over the steady window (moves sent
//!    between the moments 10 % and 90 % of all moves were done), which leaves out
//!    the transients of thousands of games starting, and ending, at the same time.
//! 6. **Check.** With `--addr`, the games left unfinished are resigned. Every game's
//!    moves are read back from the store and compared with the acknowledged ones,
//!    then a summary table is printed on stdout (progress and phases go to stderr).
//!
//! Over HTTP/1.1 (the default) each player's stream holds a connection for the whole
//! run and moves go over a shared pool, so the open-file limit (`ulimit -n`) bounds
//! the number of games: in-process both ends of every connection are in this process
//! (4 descriptors per game), with `--addr` 2 per game in each process. The command
//! refuses a run that cannot fit, and caps the move requests in flight to what fits
//! (the wait for a slot counts in the round trip). With `--http2` the players are
//! multiplexed over HTTP/2 connections, `--http2-players` to each (a stream and at
//! most one move request per player), as a browser or a lichess client behind one
//! proxy would be: ten thousand games then need a few thousand descriptors at most.
//! It also reports the CPU time of the server's threads, of SQLite's worker threads
//! and of its own, and the CPU used by other processes meanwhile (which makes the
//! figures noisy).
//!
//! Without `--think-ms` the players answer at once, so each game always has one
//! move in flight and the run measures the server at saturation: by Little's law,
//! moves/s × round trip ≈ games. With a think time `T` the offered load is about
//! `N / (T + round trip)` moves/s, and the round trips show the latency at that load.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use caissa_rules::Position;
use caissa_server::{auth, serve_on, AppState};
use caissa_store::Store;
use futures_util::{Stream, StreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tokio::sync::{oneshot, watch, Semaphore};

/// Arguments of `caissa loadtest`.
#[derive(clap::Args)]
pub struct Args {
    /// Number of games played at the same time (two players, two streams each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Plies (half-moves) to play in each game, unless it ends sooner.
    #[arg(long, default_value_t = 60)]
    moves: usize,
    /// Test the server running at HOST:PORT (loopback addresses only) instead of one
    /// started in this process.
    #[arg(long)]
    addr: Option<String>,
    /// Database URL (sqlite://<path>). With --addr: the running server's database, in
    /// which the test accounts are created (default sqlite://caissa.db). Without: the
    /// in-process server's database (default: a fresh temporary file).
    #[arg(long)]
    db: Option<String>,
    /// Give up after this many seconds in all (setup included), and report.
    #[arg(long, default_value_t = 300)]
    timeout_secs: u64,
    /// Mean think time: each player waits from 0.5 to 1.5 times this before each of
    /// its moves, ms (0: moves at once, which measures the server at saturation).
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Initial clock of each game, seconds (no increment).
    #[arg(long, default_value_t = 10_800)]
    clock_secs: u64,
    /// At most this many move requests in flight at once (default: one per game, or
    /// fewer if the open-file limit requires). The wait for a slot counts in the
    /// round trip.
    #[arg(long)]
    max_inflight: Option<usize>,
    /// Seed of the random move choices (default: random); with the same seed the
    /// same games are played.
    #[arg(long)]
    seed: Option<u64>,
    /// Keep the temporary database of the in-process server (its path is printed).
    #[arg(long)]
    keep_db: bool,
    /// With --addr: the server's process id, to report its memory per game and CPU
    /// use (read from /proc/PID).
    #[arg(long, requires = "addr")]
    server_pid: Option<u32>,
    /// Multiplex the players over HTTP/2 connections (cleartext, prior knowledge),
    /// --http2-players to a connection, instead of one HTTP/1.1 connection per stream and
    /// per request in flight: the players stay separate clients (own token, own
    /// stream, own requests), but the open-file limit no longer bounds the games.
    #[arg(long)]
    http2: bool,
    /// With --http2: players sharing one connection, 1 to 100 (each holds a stream
    /// and at most one move request; the server allows 200 streams a connection).
    #[arg(long, default_value_t = 50, requires = "http2")]
    http2_players: usize,
    /// Write every round trip to this CSV file, to plot the latency over the run:
    /// `kind,sent_ms,us` where kind is `ack` (POST→200) or `seen` (POST→opponent's
    /// stream) and `sent_ms` is when the request was sent, since the play started.
    #[arg(long)]
    samples: Option<PathBuf>,
}

/// How long one move request may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How many times a player sends a move that failed before giving up the game.
const ATTEMPTS: u32 = 3;
/// How many error messages are kept to be printed.
const ERRORS_SHOWN: usize = 10;
/// File descriptors kept free for everything that is not a player's connection.
const FD_RESERVE: u64 = 256;
/// Concurrency of the setup phases (accounts, games, streams).
const SETUP_CONCURRENCY: usize = 32;
/// Clock ticks per second in `/proc/*/stat` (`USER_HZ`, 100 on Linux).
const TICKS_PER_SEC: f64 = 100.0;

/// Runs a load test and prints its summary; fails if any move failed, was lost,
/// or did not finish in time.
pub fn run(args: Args) -> anyhow::Result<()> {
    if !(1..=100_000).contains(&args.games) {
        bail!("--games must be from 1 to 100000");
    }
    if !(1..=1_000).contains(&args.moves) {
        bail!("--moves must be from 1 to 1000");
    }
    if args.timeout_secs == 0 {
        bail!("--timeout-secs must be at least 1");
    }
    if !(1..=1_000_000).contains(&args.clock_secs) {
        bail!("--clock-secs must be from 1 to 1000000");
    }
    let target = args.addr.as_deref().map(loopback_addr).transpose()?;
    let server_proc = match args.server_pid {
        None => target.is_none().then(|| PathBuf::from("/proc/self")),
        Some(pid) => {
            let dir = PathBuf::from(format!("/proc/{pid}"));
            if !dir.join("status").exists() {
                bail!("--server-pid {pid}: no such process");
            }
            Some(dir)
        }
    };
    let in_process = target.is_none();
    if !(1..=100).contains(&args.http2_players) {
        bail!("--http2-players must be from 1 to 100");
    }
    let connections = args
        .http2
        .then(|| (2 * args.games).div_ceil(args.http2_players));
    let max_inflight = inflight_budget(
        args.games,
        server_proc.as_deref(),
        connections,
        args.max_inflight,
    )?;

    // The database: given, or (in-process only) a fresh temporary file.
    let temp_dir = if args.db.is_none() && in_process {
        let dir = std::env::temp_dir().join(format!(
            "caissa-loadtest-{}-{}",
            std::process::id(),
            caissa_server::now_ms()
        ));
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        Some(dir)
    } else {
        None
    };
    let db_url = match (&args.db, &temp_dir) {
        (Some(db), _) => db.clone(),
        (None, Some(dir)) => format!("sqlite://{}", dir.join("loadtest.db").display()),
        (None, None) => "sqlite://caissa.db".to_string(),
    };

    let plan = Plan {
        games: args.games,
        plies: args.moves,
        think: Duration::from_millis(args.think_ms),
        clock_secs: args.clock_secs,
        max_inflight,
        connections,
        http2_players: args.http2_players,
        samples: args.samples.clone(),
        seed: args.seed.unwrap_or_else(rand::random),
        deadline: Instant::now() + Duration::from_secs(args.timeout_secs),
        target,
        db_url,
        server_proc,
    };
    let result = execute(&plan);
    if let Some(dir) = &temp_dir {
        if args.keep_db && result.is_ok() {
            eprintln!("loadtest: database kept at {}", dir.display());
        } else {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    let report = result?;
    print!("{}", report.table(&plan));
    report.verdict()
}

/// What to do, with every default resolved.
struct Plan {
    games: usize,
    plies: usize,
    think: Duration,
    clock_secs: u64,
    max_inflight: usize,
    /// HTTP/2 connections the players are spread over; `None`: HTTP/1.1.
    connections: Option<usize>,
    /// Players to an HTTP/2 connection.
    http2_players: usize,
    /// Where to write every move's round trips.
    samples: Option<PathBuf>,
    seed: u64,
    deadline: Instant,
    /// The running server to test; `None`: start one in this process.
    target: Option<SocketAddr>,
    db_url: String,
    /// The server's `/proc/<pid>` directory, if known (`/proc/self` in-process).
    server_proc: Option<PathBuf>,
}

// ---------------------------------------------------------------------------------
// Target and limits
// ---------------------------------------------------------------------------------

/// Resolves `HOST:PORT`, refusing anything that is not a loopback address.
fn loopback_addr(text: &str) -> anyhow::Result<SocketAddr> {
    let addrs: Vec<SocketAddr> = text
        .to_socket_addrs()
        .with_context(|| format!("--addr {text:?}: expected HOST:PORT"))?
        .collect();
    if let Some(bad) = addrs.iter().find(|a| !a.ip().is_loopback()) {
        bail!("--addr {text}: {bad} is not a loopback address; loadtest only targets this machine");
    }
    addrs
        .first()
        .copied()
        .with_context(|| format!("--addr {text}: no address"))
}

/// The soft limit on open files (`ulimit -n`) of the process of a `/proc/<pid>`
/// directory, if known.
fn open_file_limit(proc_dir: &Path) -> Option<u64> {
    let limits = std::fs::read_to_string(proc_dir.join("limits")).ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line.split_whitespace().nth(3)?;
    if soft == "unlimited" {
        return Some(u64::MAX);
    }
    soft.parse().ok()
}

/// How many files the process of a `/proc/<pid>` directory has open now.
fn open_files(proc_dir: &Path) -> u64 {
    std::fs::read_dir(proc_dir.join("fd")).map_or(0, |d| d.count() as u64)
}

/// How many move requests may be in flight at once: one per game at most (a game
/// has one move in flight at a time), fewer if an open-file limit would be
/// exceeded — this process's and, if known, the server's.
///
/// Over HTTP/1.1 every player's stream holds a connection, and in-process each
/// connection costs two descriptors (the client's end and the server's). Each
/// request in flight needs a connection, and the client's pool can hold about as
/// many idle ones besides (a connection opened for a request that meanwhile got a
/// pooled one is kept), so each slot is counted as two connections, and a quarter
/// of what is left stays free. Over HTTP/2 (`connections`) only the connections
/// count, and every game may have its move in flight.
fn inflight_budget(
    games: usize,
    server_proc: Option<&Path>,
    connections: Option<usize>,
    asked: Option<usize>,
) -> anyhow::Result<usize> {
    let own = Path::new("/proc/self");
    let in_process = server_proc == Some(own);
    let mut processes = vec![(own, if in_process { 2 } else { 1 })];
    if let Some(server) = server_proc.filter(|_| !in_process) {
        processes.push((server, 1));
    }
    let mut room = games;
    for (proc_dir, per_connection) in processes {
        let Some(limit) = open_file_limit(proc_dir) else {
            continue;
        };
        let whose = if proc_dir == own {
            "this process"
        } else {
            "the server"
        };
        let (held, what) = match connections {
            Some(n) => (n as u64, "HTTP/2 connections"),
            None => (2 * games as u64, "players' streams alone"),
        };
        let needed = held * per_connection;
        let reserved = open_files(proc_dir) + FD_RESERVE;
        if needed + reserved + 16 * per_connection > limit {
            bail!(
                "{games} games need {needed} file descriptors in {whose} for the {what} \
                 ({per_connection} per connection{}), plus about {reserved} more, \
                 but its open-file limit (ulimit -n) is {limit}: raise the limit, lower \
                 --games{}",
                if in_process {
                    ": both ends are in this process"
                } else {
                    ""
                },
                match (connections, in_process) {
                    (None, _) => ", or use --http2",
                    (Some(_), true) => ", or run `caissa serve` separately and use --addr",
                    (Some(_), false) => "",
                }
            );
        }
        if connections.is_none() {
            let fits = (limit - needed - reserved) * 3 / 4 / (2 * per_connection);
            room = room.min(fits as usize);
        }
    }
    match asked {
        Some(0) => bail!("--max-inflight must be at least 1"),
        Some(n) if n > room => bail!(
            "--max-inflight {n} does not fit in the open-file limits (ulimit -n): at most {room}"
        ),
        Some(n) => Ok(n),
        None => Ok(room.max(1)),
    }
}

/// One Tokio runtime whose threads carry `name` (for the CPU accounting).
fn runtime(name: &str) -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name(name)
        .build()?)
}

// ---------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------

/// A test account.
struct Account {
    name: String,
    token: String,
}

/// A player: its account and the client (in `Ctx::clients`) it speaks through.
struct Me {
    account: Account,
    client: usize,
}

/// The HTTP clients: one pooling HTTP/1.1 connections, or one per HTTP/2
/// connection (a client keeps a single HTTP/2 connection to a host).
fn http_clients(plan: &Plan) -> anyhow::Result<Vec<reqwest::Client>> {
    let builder = || {
        reqwest::Client::builder()
            .no_proxy()
            .tcp_nodelay(true)
            .connect_timeout(Duration::from_secs(10))
            .pool_idle_timeout(None)
    };
    match plan.connections {
        None => Ok(vec![builder()
            .http1_only()
            .pool_max_idle_per_host(plan.max_inflight.max(SETUP_CONCURRENCY))
            .build()?]),
        Some(n) => (0..n.max(1))
            .map(|_| Ok(builder().http2_prior_knowledge().build()?))
            .collect(),
    }
}

/// The client player `a` speaks through.
fn client_of(a: usize, plan: &Plan, clients: &[reqwest::Client]) -> usize {
    (a / plan.http2_players).min(clients.len() - 1)
}

/// One ply of a game, as its mover recorded it.
#[derive(Clone, Default)]
struct Ply {
    /// When the move's request was (last) sent.
    sent: Option<Instant>,
    /// The move, once the server acknowledged it.
    acked: Option<String>,
}

/// A game under test, shared by its two players.
struct GameSlot {
    id: String,
    /// Account indices.
    white: usize,
    black: usize,
    plies: Mutex<Vec<Ply>>,
    /// Set when one player gives up, so that the other stops waiting.
    abandoned: watch::Sender<bool>,
}

impl GameSlot {
    fn plies(&self) -> std::sync::MutexGuard<'_, Vec<Ply>> {
        self.plies.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What every player task shares.
struct Ctx {
    /// One HTTP/1.1 client, or one client per HTTP/2 connection.
    clients: Vec<reqwest::Client>,
    /// `http://host:port`.
    base: String,
    plies: usize,
    think: Duration,
    deadline: tokio::time::Instant,
    inflight: Semaphore,
    /// When the play started.
    start: Instant,
    /// Moves acknowledged so far.
    moves: AtomicU64,
    /// Failures so far, and the first messages.
    errors: AtomicU64,
    first_errors: Mutex<Vec<String>>,
    /// Player tasks still running.
    active: AtomicUsize,
}

impl Ctx {
    fn error(&self, message: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut shown = self.first_errors.lock().unwrap_or_else(|e| e.into_inner());
        if shown.len() < ERRORS_SHOWN {
            shown.push(message);
        }
    }
}

/// How a player's part ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum End {
    /// The game ended; lichess's status name (`mate`, `draw`, ...).
    Finished(String),
    /// The game reached the planned number of plies.
    Reached,
    /// The total time ran out.
    TimedOut,
    /// A failure (this player's or the opponent's) stopped the game.
    Abandoned,
}

/// One round trip: when its request was sent (ms since the play started) and how
/// long it took (µs).
#[derive(Clone, Copy)]
struct Sample {
    sent_ms: u32,
    us: u32,
}

/// One player's measurements.
struct PlayerReport {
    game: usize,
    end: End,
    /// Request sent → `200`, for each of its moves.
    ack: Vec<Sample>,
    /// Opponent's request sent → seen on this player's stream.
    seen: Vec<Sample>,
}

/// Round trips, sorted: of all moves, and of the moves sent in the steady window
/// (between the moments 10 % and 90 % of the moves were done), which leaves out
/// the transients of thousands of games starting, and ending, at once.
#[derive(Default)]
struct Latencies {
    all_us: Vec<u32>,
    steady_us: Vec<u32>,
}

impl Latencies {
    fn new(samples: &[Sample], steady: Option<(f64, f64)>) -> Latencies {
        let mut all_us: Vec<u32> = samples.iter().map(|s| s.us).collect();
        let mut steady_us: Vec<u32> = match steady {
            Some((from, to)) => samples
                .iter()
                .filter(|s| (from..to).contains(&(f64::from(s.sent_ms) / 1000.0)))
                .map(|s| s.us)
                .collect(),
            None => Vec::new(),
        };
        all_us.sort_unstable();
        steady_us.sort_unstable();
        Latencies { all_us, steady_us }
    }
}

/// Everything measured, for the summary.
struct Report {
    addr: SocketAddr,
    db_url: String,
    accounts_time: Duration,
    games_time: Duration,
    streams_time: Duration,
    play_time: Duration,
    moves: u64,
    errors: u64,
    first_errors: Vec<String>,
    ends: HashMap<String, usize>,
    /// The steady window (seconds since the play started) and the move rate in it.
    steady: Option<(f64, f64, f64)>,
    ack: Latencies,
    seen: Latencies,
    memory: Option<Memory>,
    cpu: Option<CpuUse>,
    durability: Durability,
    /// With `--addr`: games resigned after the run, and resignations that failed.
    resigned: Option<(usize, usize)>,
}

/// Resident memory of this process at the phases of an in-process run, KiB.
struct Memory {
    before_games: u64,
    after_games: u64,
    after_streams: u64,
    after_play: u64,
    peak: u64,
}

/// The acknowledged moves compared with the stored ones.
#[derive(Default)]
struct Durability {
    /// Moves acknowledged with a `200`.
    acked: u64,
    /// Acknowledged moves missing from the store (or different there).
    lost: u64,
    /// Stored moves never acknowledged (a request that failed on the way back).
    unacked: u64,
    /// Games missing from the store.
    missing_games: u64,
}

fn execute(plan: &Plan) -> anyhow::Result<Report> {
    let server_rt = match plan.target {
        None => Some(runtime("lt-server")?),
        Some(_) => None,
    };
    let client_rt = runtime("lt-client")?;
    // The store lives on the server's runtime, or the client's with --addr.
    let store_rt = server_rt.as_ref().unwrap_or(&client_rt);
    let deadline = tokio::time::Instant::from_std(plan.deadline);

    let store = store_rt
        .block_on(Store::open(&plan.db_url))
        .with_context(|| format!("opening {}", plan.db_url))?;
    let result = (|| {
        eprintln!("loadtest: creating {} accounts", 2 * plan.games);
        let t = Instant::now();
        let accounts = store_rt.block_on(async {
            tokio::time::timeout_at(deadline, create_accounts(&store, 2 * plan.games))
                .await
                .context("timed out creating the accounts")?
        })?;
        let accounts_time = t.elapsed();
        let addr = match (&server_rt, plan.target) {
            (Some(rt), _) => rt.block_on(start_server(store.clone()))?,
            (None, Some(addr)) => addr,
            (None, None) => unreachable!("a target or a server"),
        };
        let (mut report, games) = client_rt.block_on(drive(plan, addr, accounts))?;
        report.accounts_time = accounts_time;
        eprintln!("loadtest: checking the stored moves");
        report.durability = store_rt.block_on(verify(&store, &games))?;
        Ok::<_, anyhow::Error>(report)
    })();
    // Close the database and stop both runtimes.
    store_rt.block_on(async move { drop(store) });
    client_rt.shutdown_timeout(Duration::from_secs(2));
    if let Some(rt) = server_rt {
        rt.shutdown_timeout(Duration::from_secs(2));
    }
    result
}

/// Starts the server on 127.0.0.1 with an ephemeral port.
async fn start_server(store: Store) -> anyhow::Result<SocketAddr> {
    let state = AppState::new(store)
        .await
        .map_err(|e| anyhow::anyhow!("starting the server: {e}"))?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        if let Err(e) = serve_on(listener, state, std::future::pending()).await {
            eprintln!("loadtest: the server stopped: {e}");
        }
    });
    Ok(addr)
}

/// Creates `count` accounts with tokens, with a name prefix unique to this run.
async fn create_accounts(store: &Store, count: usize) -> anyhow::Result<Vec<Account>> {
    let prefix = format!("lt{:06x}", rand::random::<u32>() & 0xff_ffff);
    let now = caissa_server::now_ms() as i64;
    let mut accounts: Vec<(usize, Account)> = futures_util::stream::iter(0..count)
        .map(|i| {
            let name = format!("{prefix}-{i}");
            async move {
                let user = store
                    .create_user(&name, None, now)
                    .await
                    .with_context(|| format!("creating account {name}"))?;
                let (token, hash) = auth::new_token();
                store
                    .create_token(user.id, &hash, "board:play challenge:write", now)
                    .await?;
                Ok::<_, anyhow::Error>((i, Account { name, token }))
            }
        })
        .buffer_unordered(4)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<anyhow::Result<_>>()?;
    accounts.sort_by_key(|(i, _)| *i);
    Ok(accounts.into_iter().map(|(_, a)| a).collect())
}

/// Creates the games, opens the streams and plays (on the client runtime).
/// Returns the measurements and the games (for the durability check).
async fn drive(
    plan: &Plan,
    addr: SocketAddr,
    accounts: Vec<Account>,
) -> anyhow::Result<(Report, Vec<Arc<GameSlot>>)> {
    let deadline = tokio::time::Instant::from_std(plan.deadline);
    let clients = http_clients(plan)?;
    let client = &clients[0];
    let base = format!("http://{addr}");
    let health = client
        .get(format!("{base}/healthz"))
        .send()
        .await
        .with_context(|| format!("no server at {addr}"))?;
    if !health.status().is_success() {
        bail!("{base}/healthz answered {}", health.status());
    }
    let rss = || {
        plan.server_proc
            .as_deref()
            .and_then(|dir| proc_status_kib(dir, "VmRSS"))
    };

    // Games.
    eprintln!("loadtest: creating {} games", plan.games);
    let before_games = rss();
    let t = Instant::now();
    let creating = futures_util::stream::iter(0..plan.games)
        .map(|g| create_game(&clients[g % clients.len()], &base, &accounts, g, plan))
        .buffer_unordered(SETUP_CONCURRENCY)
        .collect::<Vec<_>>();
    let mut games = tokio::time::timeout_at(deadline, creating)
        .await
        .context("timed out creating the games")?
        .into_iter()
        .collect::<anyhow::Result<Vec<GameSlot>>>()?;
    games.sort_by_key(|g| g.white);
    let games: Vec<Arc<GameSlot>> = games.into_iter().map(Arc::new).collect();
    let games_time = t.elapsed();
    let after_games = rss();

    // Streams: white's and black's for each game, in that order.
    eprintln!("loadtest: opening {} game streams", 2 * plan.games);
    let t = Instant::now();
    let opening = futures_util::stream::iter(games.iter().flat_map(|g| [g.white, g.black]))
        .map(|a| {
            let game = &games[a / 2];
            let url = format!("{base}/api/board/game/stream/{}", game.id);
            let request = clients[client_of(a, plan, &clients)]
                .get(url)
                .bearer_auth(&accounts[a].token)
                .send();
            async move {
                let response = request
                    .await
                    .with_context(|| format!("opening the stream of game {}", game.id))?;
                if !response.status().is_success() {
                    bail!("stream of game {}: HTTP {}", game.id, response.status());
                }
                Ok(response)
            }
        })
        .buffered(SETUP_CONCURRENCY)
        .collect::<Vec<_>>();
    let streams = tokio::time::timeout_at(deadline, opening)
        .await
        .context("timed out opening the streams")?
        .into_iter()
        .collect::<anyhow::Result<Vec<_>>>()?;
    let streams_time = t.elapsed();
    let after_streams = rss();

    // Play.
    eprintln!(
        "loadtest: playing {} games of {} plies with {} players",
        plan.games,
        plan.plies,
        2 * plan.games
    );
    let ctx = Arc::new(Ctx {
        clients,
        base,
        plies: plan.plies,
        think: plan.think,
        deadline,
        inflight: Semaphore::new(plan.max_inflight),
        start: Instant::now(),
        moves: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        first_errors: Mutex::new(Vec::new()),
        active: AtomicUsize::new(2 * plan.games),
    });
    let cpu_before = ProcessCpu::now(plan.server_proc.as_deref());
    let start = ctx.start;
    let (stop, stopped) = oneshot::channel();
    let progress = tokio::spawn(show_progress(
        ctx.clone(),
        (plan.games * plan.plies) as u64,
        start,
        stopped,
    ));
    let mut tasks = Vec::with_capacity(2 * plan.games);
    for (a, stream) in streams.into_iter().enumerate() {
        let game = games[a / 2].clone();
        let white = a % 2 == 0;
        let seed = plan.seed ^ (a as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        tasks.push(tokio::spawn(player(
            ctx.clone(),
            game,
            a / 2,
            Me {
                account: Account {
                    name: accounts[a].name.clone(),
                    token: accounts[a].token.clone(),
                },
                client: client_of(a, plan, &ctx.clients),
            },
            white,
            stream,
            seed,
        )));
    }
    let mut reports = Vec::with_capacity(tasks.len());
    for task in tasks {
        match task.await {
            Ok(report) => reports.push(report),
            Err(e) => ctx.error(format!("a player task failed: {e}")),
        }
    }
    let play_time = start.elapsed();
    let cpu_after = ProcessCpu::now(plan.server_proc.as_deref());
    let _ = stop.send(());
    let timeline = progress.await.unwrap_or_default();
    let after_play = rss();

    let mut ack = Vec::new();
    let mut seen = Vec::new();
    let mut ends: HashMap<String, usize> = HashMap::new();
    let mut per_game: Vec<Option<End>> = vec![None; plan.games];
    for r in reports {
        ack.extend(r.ack);
        seen.extend(r.seen);
        // A game's outcome: the worst of its players' (abandoned > timed out > ...).
        let slot = &mut per_game[r.game];
        let rank = |e: &End| match e {
            End::Abandoned => 3,
            End::TimedOut => 2,
            End::Finished(_) => 1,
            End::Reached => 0,
        };
        if slot.as_ref().is_none_or(|e| rank(&r.end) > rank(e)) {
            *slot = Some(r.end);
        }
    }
    // A running server keeps unfinished games (with long clocks) in memory: resign
    // them. Not timed; an in-process server simply stops.
    let unfinished: Vec<usize> = per_game
        .iter()
        .enumerate()
        .filter(|(_, end)| !matches!(end, Some(End::Finished(_))))
        .map(|(g, _)| g)
        .collect();
    let resigned = match plan.target {
        Some(_) if !unfinished.is_empty() => {
            eprintln!("loadtest: resigning {} unfinished games", unfinished.len());
            Some(resign(&ctx, &games, &accounts, &unfinished).await)
        }
        _ => None,
    };
    for end in per_game.into_iter().flatten() {
        let key = match end {
            End::Finished(status) => format!("ended early ({status})"),
            End::Reached => format!("reached {} plies", plan.plies),
            End::TimedOut => "timed out".to_string(),
            End::Abandoned => "abandoned after errors".to_string(),
        };
        *ends.entry(key).or_default() += 1;
    }
    if let Some(path) = &plan.samples {
        write_samples(path, &ack, &seen)?;
    }
    let moves = ctx.moves.load(Ordering::Relaxed);
    let steady = steady_window(&timeline, moves);
    let window = steady.map(|(from, to, _)| (from, to));
    let memory = match (before_games, after_games, after_streams, after_play) {
        (Some(before_games), Some(after_games), Some(after_streams), Some(after_play)) => {
            Some(Memory {
                before_games,
                after_games,
                after_streams,
                after_play,
                peak: plan
                    .server_proc
                    .as_deref()
                    .and_then(|dir| proc_status_kib(dir, "VmHWM"))
                    .unwrap_or(0),
            })
        }
        _ => None,
    };
    let first_errors = ctx
        .first_errors
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    Ok((
        Report {
            addr,
            db_url: plan.db_url.clone(),
            accounts_time: Duration::ZERO,
            games_time,
            streams_time,
            play_time,
            moves,
            errors: ctx.errors.load(Ordering::Relaxed),
            first_errors,
            ends,
            steady,
            ack: Latencies::new(&ack, window),
            seen: Latencies::new(&seen, window),
            memory,
            cpu: CpuUse::between(&cpu_before, &cpu_after, play_time),
            durability: Durability::default(),
            resigned,
        },
        games,
    ))
}

/// Writes the round trips as CSV (`kind,sent_ms,us`), in the order they were sent.
fn write_samples(path: &Path, ack: &[Sample], seen: &[Sample]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut rows: Vec<(&str, Sample)> = ack.iter().map(|s| ("ack", *s)).collect();
    rows.extend(seen.iter().map(|s| ("seen", *s)));
    rows.sort_by_key(|(_, s)| s.sent_ms);
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    writeln!(out, "kind,sent_ms,us")?;
    for (kind, s) in rows {
        writeln!(out, "{kind},{},{}", s.sent_ms, s.us)?;
    }
    out.flush()
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// Resigns games (White resigns), at most 32 at a time; returns (resigned, failed).
async fn resign(
    ctx: &Ctx,
    games: &[Arc<GameSlot>],
    accounts: &[Account],
    which: &[usize],
) -> (usize, usize) {
    let results = futures_util::stream::iter(which)
        .map(|&g| {
            let url = format!("{}/api/board/game/{}/resign", ctx.base, games[g].id);
            let request = ctx.clients[g % ctx.clients.len()]
                .post(url)
                .bearer_auth(&accounts[games[g].white].token)
                .timeout(REQUEST_TIMEOUT)
                .send();
            async move { request.await.is_ok_and(|r| r.status().is_success()) }
        })
        .buffer_unordered(SETUP_CONCURRENCY)
        .collect::<Vec<bool>>()
        .await;
    let done = results.iter().filter(|&&ok| ok).count();
    (done, results.len() - done)
}

/// Creates game `g` (accounts `2g` and `2g + 1`): a challenge, then its acceptance.
async fn create_game(
    client: &reqwest::Client,
    base: &str,
    accounts: &[Account],
    g: usize,
    plan: &Plan,
) -> anyhow::Result<GameSlot> {
    let (white, black) = (2 * g, 2 * g + 1);
    let clock = plan.clock_secs.to_string();
    let response = client
        .post(format!("{base}/api/challenge/{}", accounts[black].name))
        .bearer_auth(&accounts[white].token)
        .form(&[
            ("clock.limit", clock.as_str()),
            ("clock.increment", "0"),
            ("color", "white"),
        ])
        .send()
        .await?;
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("challenge {g}: HTTP {status}: {body}");
    }
    let id = body["id"]
        .as_str()
        .with_context(|| format!("challenge {g}: no id in {body}"))?
        .to_string();
    let response = client
        .post(format!("{base}/api/challenge/{id}/accept"))
        .bearer_auth(&accounts[black].token)
        .send()
        .await?;
    let status = response.status();
    if !status.is_success() {
        let body = response.text().await.unwrap_or_default();
        bail!("accepting challenge {id}: HTTP {status}: {body}");
    }
    Ok(GameSlot {
        id,
        white,
        black,
        plies: Mutex::new(vec![Ply::default(); plan.plies]),
        abandoned: watch::Sender::new(false),
    })
}

// ---------------------------------------------------------------------------------
// Players
// ---------------------------------------------------------------------------------

/// NDJSON lines from a response body (keep-alive blank lines skipped).
struct Lines<S> {
    body: S,
    buffer: Vec<u8>,
}

impl<S, B> Lines<S>
where
    S: Stream<Item = reqwest::Result<B>> + Unpin,
    B: AsRef<[u8]>,
{
    /// The next non-blank line, or `None` at the end of the body.
    async fn next(&mut self) -> reqwest::Result<Option<Vec<u8>>> {
        loop {
            while let Some(i) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=i).collect();
                if line.iter().any(|b| !b.is_ascii_whitespace()) {
                    return Ok(Some(line));
                }
            }
            match self.body.next().await {
                Some(chunk) => self.buffer.extend_from_slice(chunk?.as_ref()),
                None => return Ok(None),
            }
        }
    }
}

/// One player: plays its side of a game and reports what it measured.
async fn player(
    ctx: Arc<Ctx>,
    game: Arc<GameSlot>,
    index: usize,
    me: Me,
    white: bool,
    stream: reqwest::Response,
    seed: u64,
) -> PlayerReport {
    let mut report = PlayerReport {
        game: index,
        end: End::Abandoned,
        ack: Vec::new(),
        seen: Vec::new(),
    };
    let mut rng = StdRng::seed_from_u64(seed);
    report.end = play(&ctx, &game, &me, white, stream, &mut rng, &mut report).await;
    if report.end == End::Abandoned {
        game.abandoned.send_replace(true);
    }
    ctx.active.fetch_sub(1, Ordering::Relaxed);
    report
}

/// The round trip of a request sent at `sent` and answered at `done`.
fn sample(ctx: &Ctx, sent: Instant, done: Instant) -> Sample {
    let since_start = sent.saturating_duration_since(ctx.start).as_millis();
    let took = done.saturating_duration_since(sent).as_micros();
    Sample {
        sent_ms: since_start.min(u128::from(u32::MAX)) as u32,
        us: took.min(u128::from(u32::MAX)) as u32,
    }
}

/// The player's loop: read the stream, move when it is this player's turn.
async fn play(
    ctx: &Ctx,
    game: &GameSlot,
    me: &Me,
    white: bool,
    stream: reqwest::Response,
    rng: &mut StdRng,
    report: &mut PlayerReport,
) -> End {
    let mut lines = Lines {
        body: Box::pin(stream.bytes_stream()),
        buffer: Vec::new(),
    };
    let mut abandoned = game.abandoned.subscribe();
    let parity = usize::from(!white);
    let mut pos = Position::new();
    // Plies applied to `pos`, plies whose arrival was timed, the ply last played.
    let (mut applied, mut seen, mut posted) = (0, 0, None);
    loop {
        let line = tokio::select! {
            () = tokio::time::sleep_until(ctx.deadline) => return End::TimedOut,
            _ = abandoned.wait_for(|&a| a) => return End::Abandoned,
            line = lines.next() => line,
        };
        let arrived = Instant::now();
        let line = match line {
            Ok(Some(line)) => line,
            Ok(None) => {
                ctx.error(format!(
                    "game {}: {}'s stream ended early",
                    game.id, me.account.name
                ));
                return End::Abandoned;
            }
            Err(e) => {
                ctx.error(format!(
                    "game {}: {}'s stream failed: {:#}",
                    game.id,
                    me.account.name,
                    anyhow::Error::from(e)
                ));
                return End::Abandoned;
            }
        };
        let value: Value = match serde_json::from_slice(&line) {
            Ok(value) => value,
            Err(e) => {
                ctx.error(format!("game {}: bad stream line: {e}", game.id));
                return End::Abandoned;
            }
        };
        let state = match value["type"].as_str() {
            Some("gameFull") => {
                let side = if white { "white" } else { "black" };
                if !value[side]["name"]
                    .as_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case(&me.account.name))
                {
                    ctx.error(format!(
                        "game {}: {} is not {side}",
                        game.id, me.account.name
                    ));
                    return End::Abandoned;
                }
                &value["state"]
            }
            Some("gameState") => &value,
            _ => continue,
        };
        let moves: Vec<&str> = state["moves"]
            .as_str()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        // Time the opponent's moves that just arrived.
        if moves.len() > seen {
            let plies = game.plies();
            for p in (seen..moves.len()).filter(|p| p % 2 != parity) {
                if let Some(sent) = plies.get(p).and_then(|ply| ply.sent) {
                    report.seen.push(sample(ctx, sent, arrived));
                }
            }
            seen = moves.len();
        }
        for uci in moves.iter().skip(applied) {
            match pos.parse_uci(uci) {
                Ok(m) => pos.play_unchecked(m),
                Err(e) => {
                    ctx.error(format!("game {}: stream move {uci}: {e}", game.id));
                    return End::Abandoned;
                }
            }
        }
        applied = moves.len();
        let status = state["status"].as_str().unwrap_or_default();
        if status != "started" {
            return End::Finished(status.to_string());
        }
        let ply = moves.len();
        if ply >= ctx.plies {
            return End::Reached;
        }
        if ply % 2 != parity || posted == Some(ply) {
            continue;
        }
        if !ctx.think.is_zero() {
            // Uniform around the mean, so that the games do not move in lockstep.
            let think = ctx.think.mul_f64(rng.gen_range(0.5..1.5));
            tokio::select! {
                () = tokio::time::sleep_until(ctx.deadline) => return End::TimedOut,
                () = tokio::time::sleep(think) => {}
            }
        }
        let uci = {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                continue; // The server ends the game; its stream will say so.
            }
            pos.to_uci(legal[rng.gen_range(0..legal.len())])
        };
        if let Err(end) = send_move(ctx, game, me, ply, &uci, report).await {
            return end;
        }
        posted = Some(ply);
    }
}

/// Plays `uci` at `ply`, retrying a few times; `Err` ends the player's part.
async fn send_move(
    ctx: &Ctx,
    game: &GameSlot,
    me: &Me,
    ply: usize,
    uci: &str,
    report: &mut PlayerReport,
) -> Result<(), End> {
    let url = format!("{}/api/board/game/{}/move/{uci}", ctx.base, game.id);
    for attempt in 1..=ATTEMPTS {
        let sent = Instant::now();
        game.plies()[ply].sent = Some(sent);
        let request = async {
            let _slot = ctx.inflight.acquire().await;
            let response = ctx.clients[me.client]
                .post(&url)
                .bearer_auth(&me.account.token)
                .timeout(REQUEST_TIMEOUT)
                .send()
                .await?;
            let status = response.status();
            let body = response.bytes().await?;
            Ok::<_, reqwest::Error>((status, body))
        };
        let outcome = tokio::select! {
            () = tokio::time::sleep_until(ctx.deadline) => return Err(End::TimedOut),
            outcome = request => outcome,
        };
        let took = sent.elapsed();
        let what = format!("game {} ply {} {uci} (attempt {attempt})", game.id, ply + 1);
        match outcome {
            Ok((status, _)) if status == reqwest::StatusCode::OK => {
                report.ack.push(sample(ctx, sent, sent + took));
                game.plies()[ply].acked = Some(uci.to_string());
                ctx.moves.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            Ok((status, body)) => ctx.error(format!(
                "{what}: HTTP {status}: {}",
                String::from_utf8_lossy(&body).trim()
            )),
            Err(e) => ctx.error(format!("{what}: {:#}", anyhow::Error::from(e))),
        }
    }
    Err(End::Abandoned)
}

// ---------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------

/// Shows the progress on stderr until told to stop; returns the timeline of
/// (seconds since the start, moves so far), sampled four times a second.
async fn show_progress(
    ctx: Arc<Ctx>,
    total: u64,
    start: Instant,
    mut stop: oneshot::Receiver<()>,
) -> Vec<(f64, u64)> {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} {bar:40} {pos}/{len} moves {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let mut timeline = vec![(0.0, 0)];
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    let mut last_print = (0.0, 0);
    loop {
        tokio::select! {
            _ = &mut stop => break,
            _ = tick.tick() => {}
        }
        let now = start.elapsed().as_secs_f64();
        let moves = ctx.moves.load(Ordering::Relaxed);
        timeline.push((now, moves));
        let errors = ctx.errors.load(Ordering::Relaxed);
        let games_left = ctx.active.load(Ordering::Relaxed).div_ceil(2);
        let interval = if bar.is_some() { 1.0 } else { 5.0 };
        if now - last_print.0 < interval {
            continue;
        }
        let rate_now = (moves - last_print.1) as f64 / (now - last_print.0);
        let average = moves as f64 / now.max(1e-9);
        last_print = (now, moves);
        match &bar {
            Some(bar) => {
                bar.set_position(moves);
                bar.set_message(format!(
                    "{rate_now:.0}/s now, {average:.0}/s avg, {games_left} games left, {errors} errors"
                ));
            }
            None => eprintln!(
                "loadtest: {now:6.1} s  {moves}/{total} moves  {rate_now:.0}/s now  \
                 {average:.0}/s avg  {games_left} games left  {errors} errors"
            ),
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    timeline
}

/// The steady window — from the moment 10 % of the moves were done to the moment
/// 90 % were, which leaves out the ramp-up and the tail of the last games — as
/// (start, end) in seconds since the play started, with the move rate within.
fn steady_window(timeline: &[(f64, u64)], moves: u64) -> Option<(f64, f64, f64)> {
    let at = |share: u64| {
        timeline
            .iter()
            .find(|(_, m)| *m * 100 >= moves * share)
            .copied()
    };
    let (t0, m0) = at(10)?;
    let (t1, m1) = at(90)?;
    (t1 - t0 > 0.5 && m1 > m0).then(|| (t0, t1, (m1 - m0) as f64 / (t1 - t0)))
}

// ---------------------------------------------------------------------------------
// Durability
// ---------------------------------------------------------------------------------

/// Compares every game's stored moves with the acknowledged ones.
async fn verify(store: &Store, games: &[Arc<GameSlot>]) -> anyhow::Result<Durability> {
    let checks = futures_util::stream::iter(games)
        .map(|game| async move {
            let stored = store.game(&game.id).await?;
            let acked: Vec<Option<String>> = game.plies().iter().map(|p| p.acked.clone()).collect();
            Ok::<_, anyhow::Error>((stored, acked))
        })
        .buffer_unordered(4)
        .collect::<Vec<_>>()
        .await;
    let mut d = Durability::default();
    for check in checks {
        let (stored, acked) = check?;
        let acked_count = acked.iter().flatten().count() as u64;
        d.acked += acked_count;
        let Some(stored) = stored else {
            d.missing_games += 1;
            d.lost += acked_count;
            continue;
        };
        let moved: Vec<String> = stored
            .events
            .iter()
            .filter_map(|e| serde_json::from_str::<Value>(e).ok())
            .filter(|e| e["type"] == "moved")
            .filter_map(|e| e["uci"].as_str().map(str::to_string))
            .collect();
        for (p, uci) in acked.iter().enumerate() {
            if let Some(uci) = uci {
                if moved.get(p) != Some(uci) {
                    d.lost += 1;
                }
            }
        }
        d.unacked += (moved.len() as u64).saturating_sub(acked_count);
    }
    Ok(d)
}

// ---------------------------------------------------------------------------------
// Process statistics (/proc)
// ---------------------------------------------------------------------------------

/// A `kB` field (`VmRSS`, `VmHWM`, ...) of the `status` file of a `/proc/<pid>`
/// directory.
fn proc_status_kib(proc_dir: &Path, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(proc_dir.join("status")).ok()?;
    status.lines().find_map(|line| {
        let value = line.strip_prefix(field)?.strip_prefix(':')?;
        value.trim().strip_suffix("kB")?.trim().parse().ok()
    })
}

/// CPU time (user + system, clock ticks) of each thread of a process, by thread id,
/// with the thread's name.
fn thread_cpu_ticks(proc_dir: &Path) -> HashMap<u64, (String, u64)> {
    let mut out = HashMap::new();
    let Ok(tasks) = std::fs::read_dir(proc_dir.join("task")) else {
        return out;
    };
    for task in tasks.flatten() {
        let Some(tid) = task.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let path = task.path();
        let name = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        let Ok(stat) = std::fs::read_to_string(path.join("stat")) else {
            continue;
        };
        // Fields after the parenthesised name: state is field 3, utime 14, stime 15.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
        if let (Some(user), Some(system)) = (ticks(11), ticks(12)) {
            out.insert(tid, (name.trim().to_string(), user + system));
        }
    }
    out
}

/// Busy CPU time of the whole machine (all cores, all processes), clock ticks,
/// from the first line of `/proc/stat` (everything but idle and iowait).
fn machine_busy_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    let total: u64 = ticks.iter().take(8).sum();
    Some(total - ticks.get(3)? - ticks.get(4)?)
}

/// The CPU counters of this process's threads, of the server's if it is another
/// process, and of the whole machine.
struct ProcessCpu {
    own: HashMap<u64, (String, u64)>,
    server: Option<HashMap<u64, (String, u64)>>,
    machine: Option<u64>,
}

impl ProcessCpu {
    fn now(server_proc: Option<&Path>) -> ProcessCpu {
        ProcessCpu {
            own: thread_cpu_ticks(Path::new("/proc/self")),
            server: server_proc
                .filter(|dir| *dir != Path::new("/proc/self"))
                .map(thread_cpu_ticks),
            machine: machine_busy_ticks(),
        }
    }
}

/// CPU seconds used during the play by each group of threads.
struct CpuUse {
    /// The server's threads other than SQLite's (in-process: named `lt-server`).
    server: f64,
    /// sqlx's SQLite worker threads (one per pooled connection).
    sqlite: f64,
    /// The load generator's threads (`lt-client`).
    client: f64,
    other: f64,
    /// Busy time of the whole machine, if known: more than the groups above means
    /// that other processes competed for the cores (and the figures are noisy).
    machine: Option<f64>,
    /// Whether the server's threads were seen at all (in-process or `--server-pid`).
    server_known: bool,
    /// Cores × wall time: what was available.
    available: f64,
}

impl CpuUse {
    fn between(before: &ProcessCpu, after: &ProcessCpu, wall: Duration) -> Option<CpuUse> {
        let mut cpu = CpuUse {
            server: 0.0,
            sqlite: 0.0,
            client: 0.0,
            other: 0.0,
            machine: match (before.machine, after.machine) {
                (Some(b), Some(a)) => Some(a.saturating_sub(b) as f64 / TICKS_PER_SEC),
                _ => None,
            },
            server_known: false,
            available: wall.as_secs_f64()
                * std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
        };
        let used = |before: &HashMap<u64, (String, u64)>, tid: &u64, ticks: u64| {
            ticks.saturating_sub(before.get(tid).map_or(0, |(_, t)| *t)) as f64 / TICKS_PER_SEC
        };
        for (tid, (name, ticks)) in &after.own {
            let group = if name.starts_with("lt-server") {
                cpu.server_known = true;
                &mut cpu.server
            } else if name.starts_with("sqlx-sqlite") {
                &mut cpu.sqlite
            } else if name.starts_with("lt-client") {
                &mut cpu.client
            } else {
                &mut cpu.other
            };
            *group += used(&before.own, tid, *ticks);
        }
        if let (Some(before), Some(after)) = (&before.server, &after.server) {
            cpu.server_known = true;
            for (tid, (name, ticks)) in after {
                let group = if name.starts_with("sqlx-sqlite") {
                    &mut cpu.sqlite
                } else {
                    &mut cpu.server
                };
                *group += used(before, tid, *ticks);
            }
        }
        Some(cpu)
    }
}

// ---------------------------------------------------------------------------------
// Summary
// ---------------------------------------------------------------------------------

/// The `q` quantile (0..=1) of sorted samples, in ms.
fn quantile_ms(sorted: &[u32], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(f64::from(sorted[rank - 1]) / 1000.0)
}

fn latency_line(sorted: &[u32]) -> String {
    let q = |q: f64| quantile_ms(sorted, q).map_or("-".to_string(), |ms| format!("{ms:.1}"));
    format!(
        "p50 {}  p90 {}  p99 {}  max {} ms  ({} samples)",
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0),
        sorted.len()
    )
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

impl Report {
    /// The summary table.
    fn table(&self, plan: &Plan) -> String {
        let mut rows: Vec<(&str, String)> = Vec::new();
        let target = match plan.target {
            None => format!("in-process server at {} ({})", self.addr, self.db_url),
            Some(_) => format!("server at {} (accounts in {})", self.addr, self.db_url),
        };
        rows.push(("target", target));
        rows.push((
            "load",
            format!(
                "{} games × {} plies, think {} ms, ≤ {} moves in flight, seed {}",
                plan.games,
                plan.plies,
                plan.think.as_millis(),
                plan.max_inflight,
                plan.seed
            ),
        ));
        let transport = match plan.connections {
            None => "HTTP/1.1: a connection per player's stream, pooled ones for moves".into(),
            Some(n) => format!(
                "HTTP/2: {n} connections, ≤ {} players (streams and moves) each",
                plan.http2_players
            ),
        };
        rows.push(("transport", transport));
        rows.push((
            "setup",
            format!(
                "accounts {:.1} s, games {:.1} s ({:.0}/s), streams {:.1} s",
                self.accounts_time.as_secs_f64(),
                self.games_time.as_secs_f64(),
                plan.games as f64 / self.games_time.as_secs_f64().max(1e-9),
                self.streams_time.as_secs_f64()
            ),
        ));
        let mut ends: Vec<_> = self.ends.iter().collect();
        ends.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let ends = ends
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", ");
        rows.push(("games", format!("{} ({ends})", plan.games)));
        rows.push(("total moves", self.moves.to_string()));
        let wall = self.play_time.as_secs_f64();
        rows.push(("wall time (play)", format!("{wall:.2} s")));
        let steady = self.steady.map_or(String::new(), |(from, to, rate)| {
            format!(", {rate:.0} steady (from {from:.1} s to {to:.1} s: 10% to 90% of the moves)")
        });
        rows.push((
            "moves/s",
            format!("{:.0} overall{steady}", self.moves as f64 / wall.max(1e-9)),
        ));
        // The steady rows only when the run was long enough to have a steady window.
        rows.push(("POST→200, all moves", latency_line(&self.ack.all_us)));
        if !self.ack.steady_us.is_empty() {
            rows.push(("POST→200, steady", latency_line(&self.ack.steady_us)));
        }
        rows.push(("POST→opponent, all", latency_line(&self.seen.all_us)));
        if !self.seen.steady_us.is_empty() {
            rows.push(("POST→opponent, steady", latency_line(&self.seen.steady_us)));
        }
        rows.push(("errors", self.errors.to_string()));
        let d = &self.durability;
        let mut durable = format!(
            "{} acknowledged moves checked in the store: {} lost",
            d.acked, d.lost
        );
        if d.unacked > 0 {
            durable.push_str(&format!(", {} stored but never acknowledged", d.unacked));
        }
        if d.missing_games > 0 {
            durable.push_str(&format!(", {} games missing", d.missing_games));
        }
        rows.push(("durability", durable));
        if let Some((done, failed)) = self.resigned {
            rows.push((
                "clean-up",
                format!("{done} unfinished games resigned after the run, {failed} failed"),
            ));
        }
        match &self.memory {
            Some(m) => {
                let per_game =
                    |after: u64| after.saturating_sub(m.before_games) as f64 / plan.games as f64;
                rows.push((
                    "memory per game",
                    format!(
                        "{:.1} KiB created, {:.1} KiB with both streams open, {:.1} KiB after play",
                        per_game(m.after_games),
                        per_game(m.after_streams),
                        per_game(m.after_play)
                    ),
                ));
                let whose = if plan.target.is_none() {
                    "this process (server and load generator)"
                } else {
                    "the server process"
                };
                rows.push((
                    "resident memory",
                    format!(
                        "{whose}: {} before games, {} after, {} with streams, {} after play, \
                         peak {}",
                        mib(m.before_games),
                        mib(m.after_games),
                        mib(m.after_streams),
                        mib(m.after_play),
                        mib(m.peak)
                    ),
                ));
            }
            None => rows.push((
                "memory per game",
                "unknown: the server is another process (give --server-pid)".to_string(),
            )),
        }
        if let Some(c) = &self.cpu {
            let total = c.server + c.sqlite + c.client + c.other;
            let per_move = |seconds: f64| 1e6 * seconds / (self.moves.max(1) as f64);
            let text = if c.server_known {
                format!(
                    "server {:.1} s, SQLite workers {:.1} s, load generator {:.1} s, other {:.1} s \
                     of {:.1} s available ({:.0}% busy); per move: server {:.0} µs, \
                     SQLite {:.0} µs, load generator {:.0} µs",
                    c.server,
                    c.sqlite,
                    c.client,
                    c.other,
                    c.available,
                    100.0 * total / c.available.max(1e-9),
                    per_move(c.server),
                    per_move(c.sqlite),
                    per_move(c.client)
                )
            } else {
                format!(
                    "load generator {:.1} s of {:.1} s available ({:.0} µs per move); \
                     the server's: unknown (give --server-pid)",
                    c.client + c.other,
                    c.available,
                    per_move(c.client + c.other)
                )
            };
            rows.push(("CPU during play", text));
            if let Some(machine) = c.machine {
                let known = if c.server_known {
                    total
                } else {
                    c.client + c.other
                };
                rows.push((
                    "other processes",
                    format!(
                        "{:.1} s of CPU during play{}",
                        (machine - known).max(0.0),
                        if c.server_known {
                            " (anything above ~1 s: the figures are disturbed)"
                        } else {
                            " (the server's included)"
                        }
                    ),
                ));
            }
        }
        let width = rows
            .iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = String::from("\ncaissa loadtest\n");
        for (key, value) in &rows {
            out.push_str(&format!("  {key:<width$}  {value}\n"));
        }
        if !self.first_errors.is_empty() {
            out.push_str(&format!("\nfirst {} errors:\n", self.first_errors.len()));
            for e in &self.first_errors {
                out.push_str(&format!("  {e}\n"));
            }
        }
        out
    }

    /// Success, or what went wrong.
    fn verdict(&self) -> anyhow::Result<()> {
        let timed_out = self.ends.get("timed out").copied().unwrap_or(0);
        let abandoned = self
            .ends
            .get("abandoned after errors")
            .copied()
            .unwrap_or(0);
        let d = &self.durability;
        if self.errors > 0 || d.lost > 0 || d.missing_games > 0 || timed_out > 0 || abandoned > 0 {
            bail!(
                "load test failed: {} errors, {} lost moves, {} games timed out, {} abandoned",
                self.errors,
                d.lost,
                timed_out,
                abandoned
            );
        }
        Ok(())
    }
}
