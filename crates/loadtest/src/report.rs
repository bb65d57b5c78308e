//! The summary of a run: round-trip percentiles, rates, memory and CPU per game,
//! durability, and the verdict.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::bail;

use super::durability::Durability;
use super::player::Sample;
use super::procstat::CpuUse;
use super::{Api, Plan};

/// Round trips, sorted: of all moves, and of the moves sent in the steady window
/// (between the moments 10 % and 90 % of the moves were done), which leaves out
/// the transients of thousands of games starting, and ending, at once.
#[derive(Default)]
pub(super) struct Latencies {
    all_us: Vec<u32>,
    steady_us: Vec<u32>,
}

impl Latencies {
    pub(super) fn new(samples: &[Sample], steady: Option<(f64, f64)>) -> Latencies {
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
pub(super) struct Report {
    pub addrs: Vec<SocketAddr>,
    pub db_url: String,
    pub accounts_time: Duration,
    pub games_time: Duration,
    /// Opening the players' streams or sockets.
    pub connect_time: Duration,
    pub play_time: Duration,
    pub moves: u64,
    pub errors: u64,
    pub first_errors: Vec<String>,
    pub ends: HashMap<String, usize>,
    /// The steady window (seconds since the play started) and the move rate in it.
    pub steady: Option<(f64, f64, f64)>,
    /// Move sent → acknowledged.
    pub ack: Latencies,
    /// Move sent → seen by the opponent.
    pub seen: Latencies,
    pub memory: Option<Memory>,
    pub cpu: Option<CpuUse>,
    pub durability: Durability,
    /// With `--addr`: games resigned after the run, and resignations that failed.
    pub resigned: Option<(usize, usize)>,
}

/// Resident memory of the server (in-process: of this process) at the phases of
/// a run, KiB.
pub(super) struct Memory {
    pub before_games: u64,
    pub after_games: u64,
    pub after_connect: u64,
    pub after_play: u64,
    pub peak: u64,
}

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
    pub(super) fn table(&self, plan: &Plan) -> String {
        let mut rows: Vec<(&str, String)> = Vec::new();
        let addrs: Vec<String> = self.addrs.iter().map(ToString::to_string).collect();
        let target = match (&plan.target, addrs.len()) {
            (None, _) => format!(
                "in-process server at {} ({})",
                addrs.join(", "),
                self.db_url
            ),
            (Some(_), 1) => format!("server at {} (accounts in {})", addrs[0], self.db_url),
            (Some(_), n) => format!(
                "{n} nodes at {} (accounts in {})",
                addrs.join(", "),
                self.db_url
            ),
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
        let transport = match (plan.api, plan.connections) {
            (Api::Socket, None) => "WebSocket over HTTP/1.1: a connection per player".into(),
            (Api::Socket, Some(n)) => format!(
                "WebSocket over HTTP/2 (RFC 8441): {n} connections, ≤ {} players' sockets each",
                plan.http2_players
            ),
            (Api::Board, None) => {
                "Board API over HTTP/1.1: a connection per player's stream, pooled ones for moves"
                    .into()
            }
            (Api::Board, Some(n)) => format!(
                "Board API over HTTP/2: {n} connections, ≤ {} players (streams and moves) each",
                plan.http2_players
            ),
        };
        rows.push(("transport", transport));
        let (links, ack_rows, seen_rows) = match plan.api {
            Api::Socket => (
                "sockets",
                ["move→ack, all moves", "move→ack, steady"],
                ["move→opponent, all", "move→opponent, steady"],
            ),
            Api::Board => (
                "streams",
                ["POST→200, all moves", "POST→200, steady"],
                ["POST→opponent, all", "POST→opponent, steady"],
            ),
        };
        rows.push((
            "setup",
            format!(
                "accounts {:.1} s, games {:.1} s ({:.0}/s), {links} {:.1} s",
                self.accounts_time.as_secs_f64(),
                self.games_time.as_secs_f64(),
                plan.games as f64 / self.games_time.as_secs_f64().max(1e-9),
                self.connect_time.as_secs_f64()
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
        for (latencies, [all, steady]) in [(&self.ack, ack_rows), (&self.seen, seen_rows)] {
            rows.push((all, latency_line(&latencies.all_us)));
            if !latencies.steady_us.is_empty() {
                rows.push((steady, latency_line(&latencies.steady_us)));
            }
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
                        "{:.1} KiB created, {:.1} KiB with both {links} open, {:.1} KiB after play",
                        per_game(m.after_games),
                        per_game(m.after_connect),
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
                        "{whose}: {} before games, {} after, {} with {links}, {} after play, \
                         peak {}",
                        mib(m.before_games),
                        mib(m.after_games),
                        mib(m.after_connect),
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
    pub(super) fn verdict(&self) -> anyhow::Result<()> {
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
