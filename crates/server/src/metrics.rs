//! Counters for `/metrics` (Prometheus text format): moves played and how long an
//! action takes from the game's mailbox to durable and acknowledged.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Upper bounds of the latency buckets, ms.
const BUCKETS_MS: [u64; 11] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500];

static MOVES: AtomicU64 = AtomicU64::new(0);
static ACTIONS: AtomicU64 = AtomicU64::new(0);
static LATENCY_SUM_US: AtomicU64 = AtomicU64::new(0);
static LATENCY: [AtomicU64; BUCKETS_MS.len()] = [const { AtomicU64::new(0) }; BUCKETS_MS.len()];

/// Records one action handled by a game in `micros`; `moved`: it was a move.
pub fn record(micros: u64, moved: bool) {
    ACTIONS.fetch_add(1, Relaxed);
    if moved {
        MOVES.fetch_add(1, Relaxed);
    }
    LATENCY_SUM_US.fetch_add(micros, Relaxed);
    if let Some(i) = BUCKETS_MS.iter().position(|&ms| micros <= ms * 1000) {
        LATENCY[i].fetch_add(1, Relaxed);
    }
}

/// The counters in Prometheus text format.
pub fn render(out: &mut String) {
    let _ = writeln!(
        out,
        "# HELP caissa_moves_total Moves played (rate() gives moves/s)."
    );
    let _ = writeln!(out, "# TYPE caissa_moves_total counter");
    let _ = writeln!(out, "caissa_moves_total {}", MOVES.load(Relaxed));
    let _ = writeln!(
        out,
        "# HELP caissa_action_seconds Time from a game's mailbox to the action being durable."
    );
    let _ = writeln!(out, "# TYPE caissa_action_seconds histogram");
    let mut cumulative = 0;
    for (i, ms) in BUCKETS_MS.iter().enumerate() {
        cumulative += LATENCY[i].load(Relaxed);
        let _ = writeln!(
            out,
            "caissa_action_seconds_bucket{{le=\"{}\"}} {cumulative}",
            *ms as f64 / 1000.0
        );
    }
    let count = ACTIONS.load(Relaxed);
    let _ = writeln!(out, "caissa_action_seconds_bucket{{le=\"+Inf\"}} {count}");
    let _ = writeln!(
        out,
        "caissa_action_seconds_sum {}",
        LATENCY_SUM_US.load(Relaxed) as f64 / 1e6
    );
    let _ = writeln!(out, "caissa_action_seconds_count {count}");
}
