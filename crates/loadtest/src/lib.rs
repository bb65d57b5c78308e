//! The load generator (`caissa loadtest`): many games played at once against the server, to measure
//! its sustained move rate, the round trip of every move, the memory a game costs,
//! and that every acknowledged move is durable.
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
//! 3. **Games.** `N` games are created through the API (all the challenges, then
//!    each accepted, so that no game's first-move deadline runs while others are
//!    still being challenged); the
//!    server's resident memory (`VmRSS`) is read before and after, which gives the
//!    memory per game: in-process from `/proc/self` (server and load generator
//!    together), with `--addr` from `/proc/<--server-pid>` if given.
//! 4. **Sockets.** Each of the `2N` players opens its game's WebSocket with its own
//!    bearer token — or, with `--board`, its game's NDJSON stream of the Board API.
//! 5. **Play.** `2N` tasks (on a runtime whose threads are named `lt-client`), one
//!    per player. Each follows its game's states and, whenever the move list says it
//!    is its turn, plays a random legal move (a socket message answered by `ack`, or
//!    a POST answered by `200`), until the game has `M` plies, ends, or the time is
//!    up. Each move is timed twice: from sending it to its acknowledgement, and
//!    from sending it to the moment the opponent's socket or stream shows it.
//!    Percentiles are given over all moves and over the steady window (moves sent
//!    between the moments 10 % and 90 % of all moves were done), which leaves out
//!    the transients of thousands of games starting, and ending, at the same time.
//! 6. **Check.** With `--addr`, the games left unfinished are resigned. Every game's
//!    moves are read back from the store and compared with the acknowledged ones,
//!    then a summary table is printed on stdout (progress and phases go to stderr).
//!
//! Over HTTP/1.1 (the default) each socket (or stream) holds a connection for the
//! whole run — and Board API moves go over a shared pool — so the open-file limit
//! (`ulimit -n`) bounds the number of games: in-process both ends of every
//! connection are in this process (4 descriptors per game), with `--addr` 2 per
//! game in each process. The command refuses a run that cannot fit, and caps the
//! Board API's move requests in flight to what fits (the wait for a slot counts in
//! the round trip). With `--http2` the players are multiplexed over HTTP/2
//! connections, `--http2-players` to each, as browsers behind one proxy would be:
//! ten thousand games then need a few thousand descriptors at most.
//! It also reports the CPU time of the server's threads, of SQLite's worker threads
//! and of its own, and the CPU used by other processes meanwhile (which makes the
//! figures noisy).
//!
//! Without `--think-ms` the players answer at once, so each game always has one
//! move in flight and the run measures the server at saturation: by Little's law,
//! moves/s × round trip ≈ games. With a think time `T` the offered load is about
//! `N / (T + round trip)` moves/s, and the round trips show the latency at that load.

mod arena;
mod board;
mod chart;
mod durability;
mod limits;
mod player;
mod procstat;
mod progress;
mod report;
mod setup;
mod socket;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use caissa_store::Store;
use futures_util::StreamExt;
use tokio::sync::{oneshot, Semaphore};

use durability::{verify, Durability};
use player::{Ctx, End, GameSlot, Me, Sample};
use procstat::{proc_status_kib, CpuUse, ProcessCpu};
use report::{Latencies, Memory, Report};
use setup::{
    accept_game, connect_players, create_accounts, create_game, http_clients, resign, start_server,
    Account,
};

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
    /// started in this process; several nodes of one installation as
    /// HOST:PORT,HOST:PORT,...: each player is connected to one of them in turn
    /// (the two players of a game to different nodes, unless --http2 puts them on
    /// one connection) and each game is accepted on the node after the one its
    /// challenge was made on.
    #[arg(long)]
    addr: Option<String>,
    /// Database URL (sqlite://<path> or postgres://...). With --addr: the running server's database, in
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
    /// Play over the lichess Board API (an NDJSON stream per player, a POST per
    /// move) instead of the games' WebSockets.
    #[arg(long)]
    board: bool,
    /// Multiplex the players over HTTP/2 connections (cleartext, prior knowledge),
    /// --http2-players to a connection, instead of an HTTP/1.1 connection per socket
    /// (or per stream and per request in flight): the players stay separate clients
    /// (own token, own socket or stream), but the open-file limit no longer bounds
    /// the games. WebSockets go over HTTP/2 streams opened with an extended CONNECT
    /// (RFC 8441).
    #[arg(long)]
    http2: bool,
    /// With --http2: players sharing one connection, 1 to 100 (each holds a socket,
    /// or a stream and at most one move request; the server allows 200 streams a
    /// connection).
    #[arg(long, default_value_t = 10, requires = "http2")]
    http2_players: usize,
    /// Write every round trip to this CSV file, to plot the latency over the run:
    /// `kind,sent_ms,us` where kind is `ack` (move sent → acknowledged) or `seen`
    /// (move sent → the opponent has it) and `sent_ms` is when the move was sent,
    /// since the play started.
    #[arg(long)]
    samples: Option<PathBuf>,
    /// Draw the run as an SVG chart in this file: the round trip's median, 90th and
    /// 99th percentile and maximum for the moves sent in each second, and the
    /// moves per second. With --arena, also NAME-pairing.svg beside it: the wait
    /// for the next game by the second the last one ended, and pairings per second.
    #[arg(long)]
    chart: Option<PathBuf>,
    /// Instead of games between pairs: an arena of this many players on the
    /// in-process server, played for --arena-minutes with --clock-secs games of at
    /// most --moves plies, reporting the pairing latency, moves/s and errors.
    #[arg(long, conflicts_with_all = ["addr", "board", "http2", "games"])]
    arena: Option<usize>,
    /// The arena's length, minutes (1 to 720).
    #[arg(long, default_value_t = 3, requires = "arena")]
    arena_minutes: u32,
}

/// How many error messages are kept to be printed.
const ERRORS_SHOWN: usize = 10;
/// Concurrency of the setup phases (accounts, games, sockets or streams).
const SETUP_CONCURRENCY: usize = 32;
/// How long a setup or clean-up request may take.
const SETUP_TIMEOUT: Duration = Duration::from_secs(30);

/// What the players speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Api {
    /// The games' WebSockets, as the web app plays.
    Socket,
    /// The lichess Board API: NDJSON streams and POSTs.
    Board,
}

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
    if !(1..=10_800).contains(&args.clock_secs) {
        bail!(
            "--clock-secs must be from 1 to 10800 (three hours, the most a challenge may ask for)"
        );
    }
    if let Some(players) = args.arena {
        return run_arena(&args, players);
    }
    let target = args
        .addr
        .as_deref()
        .map(|list| {
            list.split(',')
                .map(|one| limits::loopback_addr(one.trim()))
                .collect::<anyhow::Result<Vec<_>>>()
        })
        .transpose()?;
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
    let api = if args.board { Api::Board } else { Api::Socket };
    let connections = args
        .http2
        .then(|| (2 * args.games).div_ceil(args.http2_players));
    let max_inflight = limits::inflight_budget(
        api,
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
        api,
        games: args.games,
        plies: args.moves,
        think: Duration::from_millis(args.think_ms),
        clock_secs: args.clock_secs,
        max_inflight,
        connections,
        http2_players: args.http2_players,
        samples: args.samples.clone(),
        chart: args.chart.clone(),
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

/// `--arena`: one arena on an in-process server and a fresh database.
fn run_arena(args: &Args, players: usize) -> anyhow::Result<()> {
    if !(1..=720).contains(&args.arena_minutes) {
        bail!("--arena-minutes must be from 1 to 720");
    }
    let dir = std::env::temp_dir().join(format!(
        "caissa-loadtest-arena-{}-{}",
        std::process::id(),
        caissa_server::now_ms()
    ));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let plan = arena::ArenaPlan {
        players,
        minutes: args.arena_minutes,
        clock_secs: args.clock_secs,
        plies: args.moves,
        db_url: args
            .db
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}", dir.join("arena.db").display())),
        seed: args.seed.unwrap_or_else(rand::random),
        deadline: Instant::now() + Duration::from_secs(args.timeout_secs),
        chart: args.chart.clone(),
    };
    let result = arena::run(&plan);
    if args.keep_db {
        eprintln!("loadtest: database kept at {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

/// What to do, with every default resolved.
struct Plan {
    api: Api,
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
    /// Where to draw the run.
    chart: Option<PathBuf>,
    seed: u64,
    deadline: Instant,
    /// The running server to test; `None`: start one in this process.
    target: Option<Vec<SocketAddr>>,
    db_url: String,
    /// The server's `/proc/<pid>` directory, if known (`/proc/self` in-process).
    server_proc: Option<PathBuf>,
}

impl Plan {
    /// What the players speak, in a few words.
    fn transport_name(&self) -> &'static str {
        match (self.api, self.connections) {
            (Api::Socket, None) => "WebSockets over HTTP/1.1",
            (Api::Socket, Some(_)) => "WebSockets over HTTP/2",
            (Api::Board, None) => "Board API over HTTP/1.1",
            (Api::Board, Some(_)) => "Board API over HTTP/2",
        }
    }

    /// The HTTP/2 connection (index) player `a` speaks through.
    fn connection_of(&self, a: usize) -> usize {
        a / self.http2_players
    }

    /// Which of `nodes` player `a` talks to (its connection's, with HTTP/2).
    fn node_of(&self, a: usize, nodes: usize) -> usize {
        match self.connections {
            Some(_) => self.connection_of(a) % nodes,
            None => a % nodes,
        }
    }
}

/// One Tokio runtime whose threads carry `name` (for the CPU accounting).
fn runtime(name: &str) -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name(name)
        .build()?)
}

fn execute(plan: &Plan) -> anyhow::Result<Report> {
    let server_rt = match &plan.target {
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
        let addrs = match (&server_rt, &plan.target) {
            (Some(rt), _) => vec![rt.block_on(start_server(store.clone()))?],
            (None, Some(addrs)) => addrs.clone(),
            (None, None) => unreachable!("a target or a server"),
        };
        let (mut report, games) = client_rt.block_on(drive(plan, &addrs, accounts))?;
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

/// Creates the games, connects the players and plays (on the client runtime).
/// Returns the measurements and the games (for the durability check).
async fn drive(
    plan: &Plan,
    addrs: &[SocketAddr],
    accounts: Vec<Account>,
) -> anyhow::Result<(Report, Vec<Arc<GameSlot>>)> {
    let deadline = tokio::time::Instant::from_std(plan.deadline);
    let clients = http_clients(plan)?;
    let client = &clients[0];
    let bases: Vec<String> = addrs.iter().map(|addr| format!("http://{addr}")).collect();
    for (addr, base) in addrs.iter().zip(&bases) {
        let health = client
            .get(format!("{base}/healthz"))
            .send()
            .await
            .with_context(|| format!("no server at {addr}"))?;
        if !health.status().is_success() {
            bail!("{base}/healthz answered {}", health.status());
        }
    }
    let base = &bases[0];
    let node = |g: usize| &bases[g % bases.len()];
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
        .map(|g| create_game(&clients[g % clients.len()], node(g), &accounts, g, plan))
        .buffer_unordered(SETUP_CONCURRENCY)
        .collect::<Vec<_>>();
    let mut games = tokio::time::timeout_at(deadline, creating)
        .await
        .context("timed out creating the games")?
        .into_iter()
        .collect::<anyhow::Result<Vec<GameSlot>>>()?;
    games.sort_by_key(|g| g.white);
    // Accepted only once every challenge is made: a game's clock (and the
    // online rules' deadline for its first move) starts when it is accepted, so
    // a slow disk making the challenges cannot make early games expire.
    let accepting = futures_util::stream::iter(games.iter().enumerate())
        .map(|(g, game)| accept_game(&clients[g % clients.len()], node(g + 1), &accounts, game))
        .buffer_unordered(SETUP_CONCURRENCY)
        .collect::<Vec<_>>();
    tokio::time::timeout_at(deadline, accepting)
        .await
        .context("timed out accepting the games")?
        .into_iter()
        .collect::<anyhow::Result<Vec<()>>>()?;
    let games: Vec<Arc<GameSlot>> = games.into_iter().map(Arc::new).collect();
    let games_time = t.elapsed();
    let after_games = rss();

    let what = match plan.api {
        Api::Socket => "sockets",
        Api::Board => "game streams",
    };
    eprintln!("loadtest: opening {} {what}", 2 * plan.games);
    let t = Instant::now();
    let connecting = connect_players(plan, addrs, &clients, &games, &accounts);
    let links = tokio::time::timeout_at(deadline, connecting)
        .await
        .with_context(|| format!("timed out opening the {what}"))??;
    let connect_time = t.elapsed();
    let after_connect = rss();

    // Play.
    eprintln!(
        "loadtest: playing {} games of {} plies with {} players",
        plan.games,
        plan.plies,
        2 * plan.games
    );
    let ctx = Arc::new(Ctx {
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
    let progress = tokio::spawn(progress::show_progress(
        ctx.clone(),
        (plan.games * plan.plies) as u64,
        start,
        stopped,
    ));
    let mut tasks = Vec::with_capacity(2 * plan.games);
    for (a, link) in links.into_iter().enumerate() {
        let game = games[a / 2].clone();
        let seed = plan.seed ^ (a as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let me = Me {
            name: accounts[a].name.clone(),
            white: a % 2 == 0,
        };
        tasks.push(tokio::spawn(player::player(
            ctx.clone(),
            game,
            a / 2,
            me,
            link,
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
            Some(resign(&clients, base, &games, &accounts, &unfinished).await)
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
    if let Some(path) = &plan.chart {
        let title = format!(
            "caissa loadtest: {} games, {}, think {} ms: {} moves, {} errors",
            plan.games,
            plan.transport_name(),
            plan.think.as_millis(),
            ctx.moves.load(Ordering::Relaxed),
            ctx.errors.load(Ordering::Relaxed)
        );
        chart::write(path, &title, &chart::MOVES, &ack, &timeline)?;
    }
    let moves = ctx.moves.load(Ordering::Relaxed);
    let steady = progress::steady_window(&timeline, moves);
    let window = steady.map(|(from, to, _)| (from, to));
    let memory = match (before_games, after_games, after_connect, after_play) {
        (Some(before_games), Some(after_games), Some(after_connect), Some(after_play)) => {
            Some(Memory {
                before_games,
                after_games,
                after_connect,
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
            addrs: addrs.to_vec(),
            db_url: plan.db_url.clone(),
            accounts_time: Duration::ZERO,
            games_time,
            connect_time,
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
