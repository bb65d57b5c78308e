//! The arena load run (`caissa loadtest --arena N`): `N` players join one arena
//! on an in-process server and play it through for its whole length over the
//! lichess API, as bots would: each follows its event stream
//! (`/api/stream/event`), plays every game it is given through the Board API
//! (random legal moves, at once, until the game has a chosen number of plies, then
//! the side to move resigns) and is paired again by the arena when it ends.
//!
//! It measures what a player of an arena feels: the **pairing latency** (from the
//! moment a player's game ends, as its game stream shows it, to the `gameStart` of
//! its next game; and from the arena's start to each player's first game), the
//! moves per second the server sustained and each move's round trip, and counts
//! every error. At the end, the arena's own results must account for the games
//! the players saw finish. With `--chart`, two pictures of the run: the moves'
//! round trips and moves per second, and the pairing latency and pairings per
//! second, by the second the wait began.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use caissa_rules::Position;
use caissa_store::Store;
use futures_util::StreamExt;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::{create_accounts, runtime, start_server, Account, ERRORS_SHOWN, SETUP_CONCURRENCY};
use crate::chart::{self, Axes};
use crate::player::Sample;
use crate::procstat::proc_status_kib;

/// Players sharing one HTTP/2 connection (each holds two streams and at most one
/// request: well under the server's 200 streams a connection).
const PLAYERS_PER_CONNECTION: usize = 40;
/// How long a request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How many times one action is sent again after a 429 before it is an error.
const RETRIES_AFTER_429: u32 = 20;

/// What to run.
pub(crate) struct ArenaPlan {
    /// Players in the arena.
    pub players: usize,
    /// Its length, minutes.
    pub minutes: u32,
    /// Each game's clock, seconds (no increment).
    pub clock_secs: u64,
    /// The most plies a game is played to before the side to move resigns.
    pub plies: usize,
    /// The database.
    pub db_url: String,
    /// The random moves' seed.
    pub seed: u64,
    /// Give up after this.
    pub deadline: Instant,
    /// Draw the run in this SVG file (and the pairing latency beside it).
    pub chart: Option<PathBuf>,
}

/// The pairing chart: each wait for a new game, and the pairings per second.
const PAIRINGS: Axes = Axes {
    wait: "game end → next game, by second it ended",
    rate: "pairings/s",
    goal_ms: None,
};

/// What every player adds to.
#[derive(Default)]
struct Tally {
    /// Move round trips (sent → 200), by when they were sent.
    moves: Mutex<Vec<Sample>>,
    /// Game end → next `gameStart`, by when the game ended.
    pairings: Mutex<Vec<Sample>>,
    /// Arena start → first `gameStart`, µs.
    first_us: Mutex<Vec<u32>>,
    games_started: AtomicU64,
    games_finished: AtomicU64,
    /// Game actions the server asked to send again later (429).
    throttled: AtomicU64,
    errors: AtomicU64,
    error_lines: Mutex<Vec<String>>,
}

impl Tally {
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut lines = self.error_lines.lock().unwrap_or_else(|e| e.into_inner());
        if lines.len() < ERRORS_SHOWN {
            lines.push(what);
        }
    }
}

fn micros(d: Duration) -> u32 {
    d.as_micros().min(u128::from(u32::MAX)) as u32
}

/// Runs the arena and prints its report.
pub(crate) fn run(plan: &ArenaPlan) -> anyhow::Result<()> {
    if !(2..=20_000).contains(&plan.players) {
        bail!("--arena must be from 2 to 20000 players");
    }
    let server_rt = runtime("lt-server")?;
    let client_rt = runtime("lt-client")?;
    let store = server_rt
        .block_on(Store::open(&plan.db_url))
        .with_context(|| format!("opening {}", plan.db_url))?;
    eprintln!("loadtest: creating {} accounts", plan.players + 1);
    let accounts = server_rt.block_on(create_accounts(&store, plan.players + 1))?;
    let addr = server_rt.block_on(start_server(store.clone()))?;
    let rss_before = proc_status_kib(std::path::Path::new("/proc/self"), "VmRSS");
    let result = client_rt.block_on(drive(plan, addr, accounts));
    let rss_after = proc_status_kib(std::path::Path::new("/proc/self"), "VmRSS");
    server_rt.block_on(async move { drop(store) });
    client_rt.shutdown_timeout(Duration::from_secs(2));
    server_rt.shutdown_timeout(Duration::from_secs(2));
    let mut report = result?;
    report.rss_kib = (rss_before, rss_after);
    print!("{}", report.table(plan));
    if let Some(path) = &plan.chart {
        report.charts(plan, path)?;
    }
    if report.errors > 0 {
        bail!("{} errors", report.errors);
    }
    if report.unaccounted != 0 {
        bail!(
            "the arena's results do not account for {} of the games the players finished",
            report.unaccounted
        );
    }
    Ok(())
}

/// What a run found.
struct ArenaReport {
    join_time: Duration,
    played: Duration,
    moves: Vec<Sample>,
    pairings: Vec<Sample>,
    first_us: Vec<u32>,
    games_started: u64,
    games_finished: u64,
    sheet_games: u64,
    /// Games finished before the end that the arena's sheets lack (or hold too many).
    unaccounted: i64,
    ranked: usize,
    throttled: u64,
    errors: u64,
    error_lines: Vec<String>,
    rss_kib: (Option<u64>, Option<u64>),
}

fn quantiles(name: &str, us: &mut [u32]) -> String {
    if us.is_empty() {
        return format!("{name:<28} -\n");
    }
    us.sort_unstable();
    let q = |p: f64| us[((us.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0;
    format!(
        "{name:<28} p50 {:.1} ms · p90 {:.1} ms · p99 {:.1} ms · max {:.1} ms ({} samples)\n",
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0),
        us.len()
    )
}

/// The running count of `samples` at the end of each second: a chart's timeline.
fn timeline(samples: &[Sample]) -> Vec<(f64, u64)> {
    let mut sent: Vec<u32> = samples.iter().map(|s| s.sent_ms).collect();
    sent.sort_unstable();
    let seconds = sent.last().map_or(0, |ms| ms / 1000 + 1);
    let mut done = 0;
    (0..=seconds)
        .map(|s| {
            while done < sent.len() && sent[done] < s * 1000 {
                done += 1;
            }
            (f64::from(s), done as u64)
        })
        .collect()
}

/// `name.svg` → `name-pairing.svg`, beside it.
fn pairing_chart_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("arena");
    path.with_file_name(format!("{stem}-pairing.svg"))
}

impl ArenaReport {
    /// The moves' chart in `path`, the pairings' beside it.
    fn charts(&self, plan: &ArenaPlan, path: &Path) -> anyhow::Result<()> {
        let title = |what: &str| {
            format!(
                "caissa loadtest --arena {}: {} min, {}+0, {what}, {} errors",
                plan.players, plan.minutes, plan.clock_secs, self.errors
            )
        };
        let moves = title(&format!("{} moves", self.moves.len()));
        chart::write(
            path,
            &moves,
            &chart::MOVES,
            &self.moves,
            &timeline(&self.moves),
        )?;
        let pairing_path = pairing_chart_path(path);
        let pairings = title(&format!("{} pairings after a game", self.pairings.len()));
        chart::write(
            &pairing_path,
            &pairings,
            &PAIRINGS,
            &self.pairings,
            &timeline(&self.pairings),
        )?;
        eprintln!(
            "loadtest: charts in {} and {}",
            path.display(),
            pairing_path.display()
        );
        Ok(())
    }

    fn table(&mut self, plan: &ArenaPlan) -> String {
        let secs = self.played.as_secs_f64().max(1e-9);
        let moves = self.moves.len();
        let mut out = format!(
            "arena: {} players, {} min, {}+0 clock, games of at most {} plies\n",
            plan.players, plan.minutes, plan.clock_secs, plan.plies
        );
        out += &format!(
            "{:<28} {:.1} s\n",
            "joining (all players)",
            self.join_time.as_secs_f64()
        );
        out += &format!(
            "{:<28} {} started, {} finished, {} on the sheets\n",
            "games", self.games_started, self.games_finished, self.sheet_games
        );
        out += &format!(
            "{:<28} {moves} in {:.0} s: {:.0} moves/s\n",
            "moves",
            secs,
            moves as f64 / secs
        );
        let waits = |samples: &[Sample]| samples.iter().map(|s| s.us).collect::<Vec<_>>();
        out += &quantiles("move round trip", &mut waits(&self.moves));
        out += &quantiles("pairing after a game", &mut waits(&self.pairings));
        out += &quantiles("first pairing after start", &mut self.first_us);
        out += &format!("{:<28} {} players ranked\n", "standings", self.ranked);
        if let (Some(before), Some(after)) = self.rss_kib {
            out += &format!(
                "{:<28} {} MiB before, {} MiB after (server and players)\n",
                "memory",
                before / 1024,
                after / 1024
            );
        }
        out += &format!(
            "{:<28} {} (429, sent again after Retry-After)\n",
            "game actions throttled", self.throttled
        );
        out += &format!("{:<28} {}\n", "errors", self.errors);
        for line in &self.error_lines {
            out += &format!("  {line}\n");
        }
        out
    }
}

/// The HTTP/2 clients the players are spread over.
fn clients(players: usize) -> anyhow::Result<Vec<reqwest::Client>> {
    (0..players.div_ceil(PLAYERS_PER_CONNECTION).max(1))
        .map(|_| {
            Ok(reqwest::Client::builder()
                .no_proxy()
                .tcp_nodelay(true)
                .http2_prior_knowledge()
                .build()?)
        })
        .collect()
}

/// Posts a game action. A 429 (the server's limit of game actions per player)
/// is waited out as its `Retry-After` says and sent again, as a well-behaved bot
/// does, and counted in `tally.throttled`; the wait counts in the round trip.
async fn post(
    client: &reqwest::Client,
    url: String,
    token: &str,
    form: &[(&str, String)],
    tally: &Tally,
) -> Result<Value, String> {
    let mut attempts = 0;
    loop {
        let response = client
            .post(&url)
            .bearer_auth(token)
            .form(form)
            .timeout(REQUEST_TIMEOUT)
            .send()
            .await
            .map_err(|e| format!("POST {url}: {e}"))?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS && attempts < RETRIES_AFTER_429 {
            attempts += 1;
            tally.throttled.fetch_add(1, Ordering::Relaxed);
            let wait = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<f64>().ok())
                .map_or(Duration::from_millis(100), |s| {
                    Duration::from_secs_f64(s.clamp(0.05, 5.0))
                });
            tokio::time::sleep(wait).await;
            continue;
        }
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            return Err(format!("POST {url}: HTTP {status}: {body}"));
        }
        return Ok(body);
    }
}

/// An NDJSON stream, line by line.
struct Lines {
    body: std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    buffer: Vec<u8>,
}

impl Lines {
    async fn open(client: &reqwest::Client, url: String, token: &str) -> Result<Lines, String> {
        let response = client
            .get(&url)
            .bearer_auth(token)
            .send()
            .await
            .map_err(|e| format!("GET {url}: {e}"))?;
        if !response.status().is_success() {
            return Err(format!("GET {url}: HTTP {}", response.status()));
        }
        Ok(Lines {
            body: Box::pin(response.bytes_stream()),
            buffer: Vec::new(),
        })
    }

    /// The next non-blank line as JSON; `None` when the stream ends.
    async fn next(&mut self) -> Result<Option<Value>, String> {
        loop {
            while let Some(i) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=i).collect();
                if line.iter().any(|b| !b.is_ascii_whitespace()) {
                    return serde_json::from_slice(&line)
                        .map(Some)
                        .map_err(|e| format!("a line that is not JSON: {e}"));
                }
            }
            match self.body.next().await {
                Some(Ok(bytes)) => self.buffer.extend_from_slice(&bytes),
                Some(Err(e)) => return Err(e.to_string()),
                None => return Ok(None),
            }
        }
    }
}

async fn drive(
    plan: &ArenaPlan,
    addr: SocketAddr,
    accounts: Vec<Account>,
) -> anyhow::Result<ArenaReport> {
    let base = format!("http://{addr}");
    let clients = clients(plan.players)?;
    let (organiser, players) = accounts.split_first().context("no accounts")?;
    let tally = Arc::new(Tally::default());
    let created = post(
        &clients[0],
        format!("{base}/api/tournament"),
        &organiser.token,
        &[
            ("name", "Load Arena".into()),
            ("clockTime", format!("{}", plan.clock_secs as f64 / 60.0)),
            ("clockIncrement", "0".into()),
            ("minutes", plan.minutes.to_string()),
            ("waitMinutes", "60".into()),
        ],
        &tally,
    )
    .await
    .map_err(anyhow::Error::msg)?;
    let id = created["id"].as_str().context("no arena id")?.to_string();

    eprintln!("loadtest: {} players join arena {id}", players.len());
    let t = Instant::now();
    let joined: Vec<Result<Value, String>> = futures_util::stream::iter(players.iter().enumerate())
        .map(|(i, p)| {
            let client = &clients[i / PLAYERS_PER_CONNECTION];
            post(
                client,
                format!("{base}/api/tournament/{id}/join"),
                &p.token,
                &[],
                &tally,
            )
        })
        .buffer_unordered(SETUP_CONCURRENCY)
        .collect()
        .await;
    if let Some(Err(e)) = joined.into_iter().find(Result::is_err) {
        bail!("joining: {e}");
    }
    let join_time = t.elapsed();

    let start = Arc::new(Mutex::new(None::<Instant>));
    let ends = tokio::time::Instant::now()
        + Duration::from_secs(u64::from(plan.minutes) * 60)
        + Duration::from_secs(5);
    let deadline = tokio::time::Instant::from_std(plan.deadline).min(ends);
    // Every player's event stream is open before the start.
    let mut streams = Vec::with_capacity(players.len());
    for (i, p) in players.iter().enumerate() {
        let client = &clients[i / PLAYERS_PER_CONNECTION];
        let lines = Lines::open(client, format!("{base}/api/stream/event"), &p.token)
            .await
            .map_err(anyhow::Error::msg)?;
        streams.push(lines);
    }
    let tasks: Vec<_> = streams
        .into_iter()
        .enumerate()
        .map(|(i, events)| {
            let ctx = PlayerCtx {
                client: clients[i / PLAYERS_PER_CONNECTION].clone(),
                base: base.clone(),
                token: players[i].token.clone(),
                plies: plan.plies,
                tally: tally.clone(),
                start: start.clone(),
            };
            let rng = StdRng::seed_from_u64(plan.seed ^ (i as u64).wrapping_mul(0x9e37_79b9));
            tokio::spawn(async move {
                let _ = tokio::time::timeout_at(deadline, player(ctx, events, rng)).await;
            })
        })
        .collect();

    eprintln!("loadtest: the arena starts ({} min)", plan.minutes);
    *start.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    let played_from = Instant::now();
    post(
        &clients[0],
        format!("{base}/api/swiss/{id}/schedule-next-round"),
        &organiser.token,
        &[("date", caissa_server::now_ms().to_string())],
        &tally,
    )
    .await
    .map_err(anyhow::Error::msg)?;
    let progress = {
        let tally = tally.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(10));
            tick.tick().await;
            loop {
                tick.tick().await;
                eprintln!(
                    "loadtest: {:.0} s, {} games started, {} finished, {} moves, {} errors",
                    played_from.elapsed().as_secs_f64(),
                    tally.games_started.load(Ordering::Relaxed) / 2,
                    tally.games_finished.load(Ordering::Relaxed) / 2,
                    tally.moves.lock().map_or(0, |m| m.len()),
                    tally.errors.load(Ordering::Relaxed),
                );
            }
        })
    };
    for task in tasks {
        let _ = task.await;
    }
    progress.abort();
    let played = played_from.elapsed();

    // The arena's own account of it, once it is over.
    let mut finished = Value::Null;
    while tokio::time::Instant::now() < deadline + Duration::from_secs(30) {
        finished = clients[0]
            .get(format!("{base}/api/tournament/{id}"))
            .send()
            .await?
            .json()
            .await?;
        if finished["isFinished"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    if finished["isFinished"] != true {
        tally.error(format!("the arena did not finish: {finished}"));
    }
    let results = clients[0]
        .get(format!("{base}/api/tournament/{id}/results?sheet=true"))
        .send()
        .await?
        .text()
        .await?;
    let mut sheet_games = 0;
    let mut ranked = 0;
    for line in results.lines() {
        let v: Value = serde_json::from_str(line)?;
        sheet_games += v["sheet"]["scores"].as_str().map_or(0, str::len) as u64;
        ranked += 1;
    }
    // Each game is on two sheets; a forfeit (nobody moved) on none.
    let sheet_games = sheet_games / 2;
    let tally = Arc::try_unwrap(tally).map_err(|_| anyhow::anyhow!("a player still runs"))?;
    let games_finished = tally.games_finished.load(Ordering::Relaxed) / 2;
    fn take<T>(m: Mutex<Vec<T>>) -> Vec<T> {
        m.into_inner().unwrap_or_else(|e| e.into_inner())
    }
    Ok(ArenaReport {
        join_time,
        played,
        moves: take(tally.moves),
        pairings: take(tally.pairings),
        first_us: take(tally.first_us),
        games_started: tally.games_started.load(Ordering::Relaxed) / 2,
        games_finished,
        sheet_games,
        // Games that end in the last moments may end after the arena: not on
        // the sheets; none may be on the sheets that no player saw end.
        unaccounted: (sheet_games as i64 - games_finished as i64).max(0),
        ranked,
        throttled: tally.throttled.load(Ordering::Relaxed),
        errors: tally.errors.load(Ordering::Relaxed),
        error_lines: take(tally.error_lines),
        rss_kib: (None, None),
    })
}

/// What a player needs.
struct PlayerCtx {
    client: reqwest::Client,
    base: String,
    token: String,
    plies: usize,
    tally: Arc<Tally>,
    start: Arc<Mutex<Option<Instant>>>,
}

impl PlayerCtx {
    /// Ms from the arena's start to `at` (0 before it, or if not known).
    fn since_start(&self, at: Instant) -> u32 {
        let start = *self.start.lock().unwrap_or_else(|e| e.into_inner());
        start.map_or(0, |s| {
            at.saturating_duration_since(s)
                .as_millis()
                .min(u128::from(u32::MAX)) as u32
        })
    }
}

/// A player: each `gameStart` of its event stream is a game to play through.
async fn player(ctx: PlayerCtx, mut events: Lines, mut rng: StdRng) {
    let mut last_end: Option<Instant> = None;
    loop {
        let event = match events.next().await {
            Ok(Some(event)) => event,
            Ok(None) => return,
            Err(e) => {
                ctx.tally.error(format!("event stream: {e}"));
                return;
            }
        };
        if event["type"] != "gameStart" {
            continue;
        }
        let now = Instant::now();
        match last_end {
            Some(end) => lock(&ctx.tally.pairings).push(Sample {
                sent_ms: ctx.since_start(end),
                us: micros(now - end),
            }),
            None => {
                let start = *ctx.start.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(start) = start {
                    lock(&ctx.tally.first_us).push(micros(now.saturating_duration_since(start)));
                }
            }
        }
        ctx.tally.games_started.fetch_add(1, Ordering::Relaxed);
        let game = &event["game"];
        let id = game["gameId"].as_str().unwrap_or_default().to_string();
        let white = game["color"] == "white";
        let plies = rng.gen_range(ctx.plies / 2..=ctx.plies.max(1));
        match play(&ctx, &id, white, plies, &mut rng).await {
            Ok(()) => {
                ctx.tally.games_finished.fetch_add(1, Ordering::Relaxed);
                last_end = Some(Instant::now());
            }
            Err(e) => {
                ctx.tally.error(format!("game {id}: {e}"));
                return;
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Plays game `id` until it ends: random legal moves until `plies`, then the
/// side to move resigns.
async fn play(
    ctx: &PlayerCtx,
    id: &str,
    white: bool,
    plies: usize,
    rng: &mut StdRng,
) -> Result<(), String> {
    let mut stream = Lines::open(
        &ctx.client,
        format!("{}/api/board/game/stream/{id}", ctx.base),
        &ctx.token,
    )
    .await?;
    let mut pos = Position::new();
    let mut applied = 0;
    let mut posted = None;
    loop {
        let Some(line) = stream.next().await? else {
            return Err("the game stream ended before the game".into());
        };
        let state = match line["type"].as_str() {
            Some("gameFull") => &line["state"],
            Some("gameState") => &line,
            _ => continue,
        };
        let moves: Vec<&str> = state["moves"]
            .as_str()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        for uci in moves.iter().skip(applied) {
            let m = pos
                .parse_uci(uci)
                .map_err(|e| format!("move {uci} from the server: {e}"))?;
            pos.play_unchecked(m);
        }
        applied = moves.len();
        if state["status"] != "started" {
            return Ok(());
        }
        let ply = moves.len();
        if ply.is_multiple_of(2) != white || posted == Some(ply) {
            continue;
        }
        posted = Some(ply);
        let legal = pos.legal_moves();
        let url = if ply >= plies || legal.is_empty() {
            format!("{}/api/board/game/{id}/resign", ctx.base)
        } else {
            let uci = pos.to_uci(legal[rng.gen_range(0..legal.len())]);
            format!("{}/api/board/game/{id}/move/{uci}", ctx.base)
        };
        let sent = Instant::now();
        match post(&ctx.client, url, &ctx.token, &[], &ctx.tally).await {
            Ok(_) => {
                if ply < plies {
                    let us = micros(sent.elapsed());
                    let sent_ms = ctx.since_start(sent);
                    lock(&ctx.tally.moves).push(Sample { sent_ms, us });
                }
            }
            // The opponent's flag fell or it resigned meanwhile: the stream says so.
            Err(e) if e.contains("409") => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_counts_what_was_sent_before_the_end_of_each_second() {
        let at = |sent_ms| Sample { sent_ms, us: 1 };
        let samples = [at(2_500), at(10), at(999), at(1_000)];
        assert_eq!(
            timeline(&samples),
            vec![(0.0, 0), (1.0, 2), (2.0, 3), (3.0, 4)]
        );
        assert_eq!(timeline(&[]), vec![(0.0, 0)]);
    }

    #[test]
    fn the_pairing_chart_lies_beside_the_moves_chart() {
        assert_eq!(
            pairing_chart_path(Path::new("/tmp/run.svg")),
            Path::new("/tmp/run-pairing.svg")
        );
    }
}
