//! `--chart`: the run as a picture (an SVG file). Above, the round trip of the
//! moves sent in each second — median, 90th and 99th percentile and the slowest —
//! on a logarithmic scale, with the goal's line; below, the moves acknowledged
//! per second. A stall, a ramp or a slow start is seen at a glance, where the
//! summary's percentiles only say that it happened.

use std::fmt::Write;
use std::path::Path;

use anyhow::Context;

use super::player::Sample;

/// The picture's size, px.
const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 560.0;
/// Margins of the plot areas, px.
const LEFT: f64 = 84.0;
const RIGHT: f64 = 20.0;
/// The latency panel (top) and the rate panel (bottom): top and bottom edges, px.
const LATENCY: (f64, f64) = (50.0, 330.0);
const RATE: (f64, f64) = (390.0, 520.0);
/// The latency axis, ms: from 0.1 ms to 10 s, a decade a grid line.
const LATENCY_MIN_MS: f64 = 0.1;
const LATENCY_MAX_MS: f64 = 10_000.0;
/// The round trip the 99th percentile must stay under.
const GOAL_MS: f64 = 50.0;

/// The round-trip percentiles of the moves sent in one second.
struct Second {
    p50: f64,
    p90: f64,
    p99: f64,
    max: f64,
}

/// A line of the latency panel: its name, colour and value in each second.
type Series = (&'static str, &'static str, fn(&Second) -> f64);

/// Percentiles per second of `samples` (by when each move was sent), for
/// `seconds` seconds; `None` for a second in which nothing was sent.
fn per_second(samples: &[Sample], seconds: usize) -> Vec<Option<Second>> {
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); seconds];
    for s in samples {
        if let Some(bucket) = buckets.get_mut(s.sent_ms as usize / 1000) {
            bucket.push(s.us);
        }
    }
    buckets
        .into_iter()
        .map(|mut us| {
            if us.is_empty() {
                return None;
            }
            us.sort_unstable();
            let q = |q: f64| {
                let rank = ((q * us.len() as f64).ceil() as usize).clamp(1, us.len());
                f64::from(us[rank - 1]) / 1000.0
            };
            Some(Second {
                p50: q(0.5),
                p90: q(0.9),
                p99: q(0.99),
                max: q(1.0),
            })
        })
        .collect()
}

/// Moves acknowledged in each second, from the progress timeline of (seconds,
/// moves so far).
fn rate_per_second(timeline: &[(f64, u64)], seconds: usize) -> Vec<f64> {
    let moves_at = |t: f64| {
        // The count at the last sample at or before `t`.
        timeline
            .iter()
            .take_while(|(at, _)| *at <= t)
            .last()
            .map_or(0, |(_, m)| *m)
    };
    (0..seconds)
        .map(|s| moves_at(s as f64 + 1.0).saturating_sub(moves_at(s as f64)) as f64)
        .collect()
}

/// A latency for an axis label: `0.1 ms` ... `100 ms`, then `1 s`, `10 s`.
fn label(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.0} s", ms / 1000.0)
    } else if ms >= 1.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{ms} ms")
    }
}

/// The step of a round scale (1, 2 or 5 times a power of ten) that divides
/// `max` into at most `steps` steps.
fn round_step(max: f64, steps: f64) -> f64 {
    let rough = (max / steps).max(1.0);
    let power = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|step| *step >= rough)
        .unwrap_or(10.0 * power)
}

/// What a chart's two panels show: the wait measured above, what is counted
/// per second below, and the goal line of the wait, if it has one.
pub(super) struct Axes {
    /// The upper panel's label.
    pub wait: &'static str,
    /// The lower panel's label.
    pub rate: &'static str,
    /// The goal for the 99th percentile, ms.
    pub goal_ms: Option<f64>,
}

/// A game run: each move's round trip, moves per second, the p99 goal.
pub(super) const MOVES: Axes = Axes {
    wait: "move → acknowledged, by second sent",
    rate: "moves/s",
    goal_ms: Some(GOAL_MS),
};

/// Writes the chart of a run to `path`: `ack` are the waits measured (a move's
/// round trip), `timeline` what was done over time (moves), `title` what was run.
pub(super) fn write(
    path: &Path,
    title: &str,
    axes: &Axes,
    ack: &[Sample],
    timeline: &[(f64, u64)],
) -> anyhow::Result<()> {
    let seconds = timeline.last().map_or(1, |(t, _)| t.ceil() as usize).max(1);
    let latency = per_second(ack, seconds);
    let rate = rate_per_second(timeline, seconds);
    let x = |second: f64| LEFT + (WIDTH - LEFT - RIGHT) * second / seconds as f64;
    let y_latency = |ms: f64| {
        let (top, bottom) = LATENCY;
        let span = (LATENCY_MAX_MS / LATENCY_MIN_MS).log10();
        let at = (ms.clamp(LATENCY_MIN_MS, LATENCY_MAX_MS) / LATENCY_MIN_MS).log10() / span;
        bottom - (bottom - top) * at
    };
    let rate_step = round_step(rate.iter().copied().fold(1.0, f64::max), 4.0);
    let rate_max = rate_step * (rate.iter().copied().fold(1.0, f64::max) / rate_step).ceil();
    let y_rate = |per_s: f64| {
        let (top, bottom) = RATE;
        bottom - (bottom - top) * per_s / rate_max
    };

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="24" font-size="15" font-weight="bold">{}</text>"#,
        escape(title)
    );
    // Latency grid: a line a decade, labelled in ms.
    let mut decade = LATENCY_MIN_MS;
    while decade <= LATENCY_MAX_MS * 1.001 {
        let y = y_latency(decade);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            label(decade)
        );
        decade *= 10.0;
    }
    if let Some(goal_ms) = axes.goal_ms {
        let goal = y_latency(goal_ms);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{goal:.1}" y2="{goal:.1}" stroke="#c0392b" stroke-dasharray="6 4"/><text x="{}" y="{:.1}" fill="#c0392b" text-anchor="end">goal: p99 under {goal_ms} ms</text>"##,
            WIDTH - RIGHT,
            WIDTH - RIGHT - 4.0,
            goal - 5.0
        );
    }
    let series: [Series; 4] = [
        ("slowest", "#bbbbbb", |s| s.max),
        ("p99", "#e67e22", |s| s.p99),
        ("p90", "#2980b9", |s| s.p90),
        ("p50", "#27ae60", |s| s.p50),
    ];
    for (i, (name, colour, value)) in series.iter().enumerate() {
        let points: Vec<String> = latency
            .iter()
            .enumerate()
            .filter_map(|(second, s)| {
                s.as_ref()
                    .map(|s| format!("{:.1},{:.1}", x(second as f64 + 0.5), y_latency(value(s))))
            })
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
            points.join(" ")
        );
        let lx = LEFT + 10.0 + 90.0 * i as f64;
        let _ = writeln!(
            svg,
            r#"<line x1="{lx}" x2="{}" y1="{}" y2="{}" stroke="{colour}" stroke-width="3"/><text x="{}" y="{}">{name}</text>"#,
            lx + 18.0,
            LATENCY.0 - 8.0,
            LATENCY.0 - 8.0,
            lx + 22.0,
            LATENCY.0 - 4.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="16" y="{:.1}" transform="rotate(-90 16 {:.1})" text-anchor="middle">{}</text>"#,
        (LATENCY.0 + LATENCY.1) / 2.0,
        (LATENCY.0 + LATENCY.1) / 2.0,
        axes.wait
    );
    // The rate panel.
    let mut per_s = 0.0;
    while per_s <= rate_max * 1.001 {
        let y = y_rate(per_s);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{per_s:.0}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0
        );
        per_s += rate_step;
    }
    let bar = (WIDTH - LEFT - RIGHT) / seconds as f64;
    for (second, per_s) in rate.iter().enumerate() {
        let y = y_rate(*per_s);
        let _ = writeln!(
            svg,
            r##"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="#7f8c8d"/>"##,
            x(second as f64),
            (bar - 1.0).max(0.5),
            RATE.1 - y
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="16" y="{:.1}" transform="rotate(-90 16 {:.1})" text-anchor="middle">{}</text>"#,
        (RATE.0 + RATE.1) / 2.0,
        (RATE.0 + RATE.1) / 2.0,
        axes.rate
    );
    // The time axis, under both panels.
    let tick = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600]
        .into_iter()
        .find(|t| seconds / t <= 12)
        .unwrap_or(1200);
    for t in (0..=seconds).step_by(tick) {
        let tx = x(t as f64);
        let _ = writeln!(
            svg,
            r##"<line x1="{tx:.1}" x2="{tx:.1}" y1="{}" y2="{}" stroke="#eee"/><text x="{tx:.1}" y="{}" text-anchor="middle">{t} s</text>"##,
            LATENCY.0,
            RATE.1,
            RATE.1 + 16.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{}" text-anchor="middle">time since the play started</text>"#,
        (LEFT + WIDTH - RIGHT) / 2.0,
        RATE.1 + 34.0
    );
    svg.push_str("</svg>\n");
    std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))
}

/// Text for an SVG element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(sent_ms: u32, us: u32) -> Sample {
        Sample { sent_ms, us }
    }

    #[test]
    fn each_second_has_the_percentiles_of_the_moves_sent_in_it() {
        // Second 0: 1..=100 ms; second 1: nothing; second 2: one slow move.
        let mut samples: Vec<Sample> = (1..=100).map(|ms| sample(10 * ms - 5, ms * 1000)).collect();
        samples.push(sample(2_500, 900_000));
        let seconds = per_second(&samples, 3);
        let first = seconds[0].as_ref().unwrap();
        assert_eq!(
            (first.p50, first.p90, first.p99, first.max),
            (50.0, 90.0, 99.0, 100.0)
        );
        assert!(seconds[1].is_none());
        assert_eq!(seconds[2].as_ref().unwrap().p99, 900.0);
    }

    #[test]
    fn scales_step_by_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(round_step(5_300.0, 4.0), 2_000.0);
        assert_eq!(round_step(1_331.0, 4.0), 500.0);
        assert_eq!(round_step(90.0, 4.0), 50.0);
        assert_eq!(round_step(3.0, 4.0), 1.0);
    }

    #[test]
    fn the_rate_is_the_moves_done_within_each_second() {
        let timeline = [(0.0, 0), (0.5, 40), (1.0, 100), (1.5, 100), (2.0, 250)];
        assert_eq!(rate_per_second(&timeline, 2), vec![100.0, 150.0]);
    }
}
