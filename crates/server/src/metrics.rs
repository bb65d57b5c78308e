//! Counters for `/metrics` (Prometheus text format): moves played, how long an
//! action takes from the game's mailbox to durable and acknowledged, and how long
//! the group commit's transactions take (the part of that time spent storing).
//! One [`Metrics`] belongs to each server (tests build many side by side).

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Upper bounds of the latency buckets, ms.
const BUCKETS_MS: [u64; 11] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500];

/// A latency histogram with the buckets above.
#[derive(Default)]
struct Histogram {
    count: AtomicU64,
    sum_us: AtomicU64,
    buckets: [AtomicU64; BUCKETS_MS.len()],
}

impl Histogram {
    fn observe(&self, micros: u64) {
        self.count.fetch_add(1, Relaxed);
        self.sum_us.fetch_add(micros, Relaxed);
        if let Some(i) = BUCKETS_MS.iter().position(|&ms| micros <= ms * 1000) {
            self.buckets[i].fetch_add(1, Relaxed);
        }
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bucket, ms) in self.buckets.iter().zip(BUCKETS_MS) {
            cumulative += bucket.load(Relaxed);
            let le = ms as f64 / 1000.0;
            let _ = writeln!(out, "{name}_bucket{{le=\"{le}\"}} {cumulative}");
        }
        let count = self.count.load(Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_us.load(Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}");
        let _ = writeln!(out, "{name}_count {count}");
    }
}

/// The server's counters.
#[derive(Default)]
pub struct Metrics {
    moves: AtomicU64,
    actions_total: AtomicU64,
    actions: Histogram,
    commits: Histogram,
    committed_appends: AtomicU64,
}

impl Metrics {
    /// Records one action handled by a game in `micros`; `moved`: it was a move.
    pub fn record_action(&self, micros: u64, moved: bool) {
        if moved {
            self.moves.fetch_add(1, Relaxed);
        }
        self.actions_total.fetch_add(1, Relaxed);
        self.actions.observe(micros);
    }

    /// Records one group-commit transaction of `appends` games' events in `micros`.
    pub fn record_commit(&self, micros: u64, appends: usize) {
        self.commits.observe(micros);
        self.committed_appends.fetch_add(appends as u64, Relaxed);
    }

    /// The counters in Prometheus text format, after `gauges` (name, help, value).
    pub fn render(&self, gauges: &[(&str, &str, u64)]) -> String {
        let mut out = String::new();
        for (name, help, value) in gauges {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}"
            );
        }
        let _ = writeln!(out, "# HELP caissa_actions_total Player actions handled.");
        let _ = writeln!(out, "# TYPE caissa_actions_total counter");
        let _ = writeln!(
            out,
            "caissa_actions_total {}",
            self.actions_total.load(Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP caissa_moves_total Moves played (rate() gives moves/s)."
        );
        let _ = writeln!(out, "# TYPE caissa_moves_total counter");
        let _ = writeln!(out, "caissa_moves_total {}", self.moves.load(Relaxed));
        self.actions.render(
            &mut out,
            "caissa_action_seconds",
            "Time from a game's mailbox to the action being durable.",
        );
        self.commits.render(
            &mut out,
            "caissa_commit_seconds",
            "Time of one group-commit transaction (the events of many games).",
        );
        let _ = writeln!(
            out,
            "# HELP caissa_committed_appends_total Games' appends stored by group commits (over caissa_commit_seconds_count: games per transaction)."
        );
        let _ = writeln!(out, "# TYPE caissa_committed_appends_total counter");
        let _ = writeln!(
            out,
            "caissa_committed_appends_total {}",
            self.committed_appends.load(Relaxed)
        );
        out
    }
}
