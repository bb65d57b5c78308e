//! Progress on stderr while the games are played (a bar on a terminal, a line
//! every few seconds otherwise), and the steady window computed from it.

use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tokio::sync::oneshot;

use super::player::Ctx;

/// Shows the progress on stderr until told to stop; returns the timeline of
/// (seconds since the start, moves so far), sampled four times a second.
pub(super) async fn show_progress(
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
pub(super) fn steady_window(timeline: &[(f64, u64)], moves: u64) -> Option<(f64, f64, f64)> {
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
