//! One player of a game under test, whatever it speaks (a game's WebSocket, or the
//! Board API's stream and POSTs): it follows the game's states, plays a random
//! legal move whenever it is its turn, and times every move.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use caissa_rules::Position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tokio::sync::{watch, Semaphore};

use super::{board, socket, ERRORS_SHOWN};

/// One ply of a game, as its mover recorded it.
#[derive(Clone, Default)]
pub(super) struct Ply {
    /// When the move was (last) sent.
    pub sent: Option<Instant>,
    /// The move, once the server acknowledged it.
    pub acked: Option<String>,
}

/// A game under test, shared by its two players.
pub(super) struct GameSlot {
    pub id: String,
    /// Account indices.
    pub white: usize,
    pub black: usize,
    pub plies: Mutex<Vec<Ply>>,
    /// Set when one player gives up, so that the other stops waiting.
    pub abandoned: watch::Sender<bool>,
}

impl GameSlot {
    pub(super) fn plies(&self) -> std::sync::MutexGuard<'_, Vec<Ply>> {
        self.plies.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What every player task shares.
pub(super) struct Ctx {
    pub plies: usize,
    pub think: Duration,
    pub deadline: tokio::time::Instant,
    pub inflight: Semaphore,
    /// When the play started.
    pub start: Instant,
    /// Moves acknowledged so far.
    pub moves: AtomicU64,
    /// Failures so far, and the first messages.
    pub errors: AtomicU64,
    pub first_errors: Mutex<Vec<String>>,
    /// Player tasks still running.
    pub active: AtomicUsize,
}

impl Ctx {
    pub(super) fn error(&self, message: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut shown = self.first_errors.lock().unwrap_or_else(|e| e.into_inner());
        if shown.len() < ERRORS_SHOWN {
            shown.push(message);
        }
    }

    /// The round trip of a move sent at `sent` and answered (or seen) at `done`.
    pub(super) fn sample(&self, sent: Instant, done: Instant) -> Sample {
        let since_start = sent.saturating_duration_since(self.start).as_millis();
        let took = done.saturating_duration_since(sent).as_micros();
        Sample {
            sent_ms: since_start.min(u128::from(u32::MAX)) as u32,
            us: took.min(u128::from(u32::MAX)) as u32,
        }
    }
}

/// How a player's part ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum End {
    /// The game ended; lichess's status name (`mate`, `draw`, ...).
    Finished(String),
    /// The game reached the planned number of plies.
    Reached,
    /// The total time ran out.
    TimedOut,
    /// A failure (this player's or the opponent's) stopped the game.
    Abandoned,
}

/// One round trip: when its move was sent (ms since the play started) and how
/// long it took (µs).
#[derive(Clone, Copy)]
pub(super) struct Sample {
    pub sent_ms: u32,
    pub us: u32,
}

/// One player's measurements.
pub(super) struct PlayerReport {
    pub game: usize,
    pub end: End,
    /// Move sent → acknowledged, for each of its moves.
    pub ack: Vec<Sample>,
    /// Opponent's move sent → seen by this player.
    pub seen: Vec<Sample>,
}

/// A player's connection to its game.
pub(super) enum Link {
    /// The Board API: an NDJSON stream, a POST per move.
    Board(board::Link),
    /// The game's WebSocket (boxed: its buffers make it several times larger).
    Socket(Box<socket::Link>),
}

impl Link {
    /// The next message about the game (a `gameFull` or `gameState` object, or
    /// anything else the player ignores) and when it arrived; `None` when the
    /// server closed the link.
    async fn next(&mut self) -> Result<Option<(Value, Instant)>, String> {
        match self {
            Link::Board(link) => link.next().await,
            Link::Socket(link) => link.next().await,
        }
    }

    /// Sends a move and waits for the server's answer.
    async fn send_move(&mut self, uci: &str) -> Sent {
        match self {
            Link::Board(link) => link.send_move(uci).await,
            Link::Socket(link) => link.send_move(uci).await,
        }
    }
}

/// What became of a move sent.
pub(super) enum Sent {
    /// The server acknowledged it: it is durable.
    Acked,
    /// The server refused it, or the request failed; it may be sent again.
    Refused(String),
    /// The link is gone.
    Broken(String),
}

/// Who a player is.
pub(super) struct Me {
    /// The account's name.
    pub name: String,
    pub white: bool,
}

/// How many times a player sends a move that failed before giving up the game.
const ATTEMPTS: u32 = 3;

/// One player: plays its side of a game and reports what it measured.
pub(super) async fn player(
    ctx: Arc<Ctx>,
    game: Arc<GameSlot>,
    index: usize,
    me: Me,
    link: Link,
    seed: u64,
) -> PlayerReport {
    let mut report = PlayerReport {
        game: index,
        end: End::Abandoned,
        ack: Vec::new(),
        seen: Vec::new(),
    };
    let mut rng = StdRng::seed_from_u64(seed);
    report.end = play(&ctx, &game, &me, link, &mut rng, &mut report).await;
    if report.end == End::Abandoned {
        game.abandoned.send_replace(true);
    }
    ctx.active.fetch_sub(1, Ordering::Relaxed);
    report
}

/// The game's state in a message: a `gameState` object, or the one in `gameFull`
/// (after checking that the player plays the colour it was told); `None` for any
/// other message.
fn state_of<'a>(value: &'a Value, me: &Me) -> Result<Option<&'a Value>, String> {
    match value["type"].as_str() {
        Some("gameFull") => {
            let side = if me.white { "white" } else { "black" };
            if !value[side]["name"]
                .as_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(&me.name))
            {
                return Err(format!("{} is not {side}", me.name));
            }
            Ok(Some(&value["state"]))
        }
        Some("gameState") => Ok(Some(value)),
        _ => Ok(None),
    }
}

/// The player's loop: follow the game, move when it is this player's turn.
async fn play(
    ctx: &Ctx,
    game: &GameSlot,
    me: &Me,
    mut link: Link,
    rng: &mut StdRng,
    report: &mut PlayerReport,
) -> End {
    let mut abandoned = game.abandoned.subscribe();
    let parity = usize::from(!me.white);
    let mut pos = Position::new();
    // Plies applied to `pos`, plies whose arrival was timed, the ply last played.
    let (mut applied, mut seen, mut posted) = (0, 0, None);
    loop {
        let message = tokio::select! {
            () = tokio::time::sleep_until(ctx.deadline) => return End::TimedOut,
            _ = abandoned.wait_for(|&a| a) => return End::Abandoned,
            message = link.next() => message,
        };
        let (value, arrived) = match message {
            Ok(Some(message)) => message,
            Ok(None) => {
                ctx.error(format!("game {}: {}'s link closed early", game.id, me.name));
                return End::Abandoned;
            }
            Err(e) => {
                ctx.error(format!("game {}: {}'s link failed: {e}", game.id, me.name));
                return End::Abandoned;
            }
        };
        let state = match state_of(&value, me) {
            Ok(Some(state)) => state,
            Ok(None) => continue,
            Err(e) => {
                ctx.error(format!("game {}: {e}", game.id));
                return End::Abandoned;
            }
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
                    report.seen.push(ctx.sample(sent, arrived));
                }
            }
            seen = moves.len();
        }
        for uci in moves.iter().skip(applied) {
            match pos.parse_uci(uci) {
                Ok(m) => pos.play_unchecked(m),
                Err(e) => {
                    ctx.error(format!("game {}: move {uci} from the server: {e}", game.id));
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
                continue; // The server ends the game and says so.
            }
            pos.to_uci(legal[rng.gen_range(0..legal.len())])
        };
        if let Err(end) = send_move(ctx, game, &mut link, ply, &uci, report).await {
            return end;
        }
        posted = Some(ply);
    }
}

/// Plays `uci` at `ply`, retrying a refused move a few times; `Err` ends the
/// player's part.
async fn send_move(
    ctx: &Ctx,
    game: &GameSlot,
    link: &mut Link,
    ply: usize,
    uci: &str,
    report: &mut PlayerReport,
) -> Result<(), End> {
    for attempt in 1..=ATTEMPTS {
        let sent = Instant::now();
        game.plies()[ply].sent = Some(sent);
        let outcome = async {
            let _slot = ctx.inflight.acquire().await;
            link.send_move(uci).await
        };
        let outcome = tokio::select! {
            () = tokio::time::sleep_until(ctx.deadline) => return Err(End::TimedOut),
            outcome = outcome => outcome,
        };
        let done = Instant::now();
        let what = format!("game {} ply {} {uci} (attempt {attempt})", game.id, ply + 1);
        match outcome {
            Sent::Acked => {
                report.ack.push(ctx.sample(sent, done));
                game.plies()[ply].acked = Some(uci.to_string());
                ctx.moves.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            Sent::Refused(why) => ctx.error(format!("{what}: {why}")),
            Sent::Broken(failed) => {
                ctx.error(format!("{what}: {failed}"));
                return Err(End::Abandoned);
            }
        }
    }
    Err(End::Abandoned)
}
