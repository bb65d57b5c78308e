//! Time management: how long one move may think.
//!
//! Two limits come out of the clock: an *optimum* (the search does not start another
//! iteration once a share of it has passed: 60% at first, then from about 30% to
//! 195% as the best move has held or kept changing, and as it took most or little
//! of the root's nodes) and a *hard* limit at which the running search
//! is abandoned, checked every 1024 nodes. With a clock, after subtracting the move
//! overhead (network and GUI lag):
//!
//! * optimum = remaining / moves-to-go + 0.8 × increment, at most half the remaining
//!   time (moves-to-go is the `movestogo` given, at most 30, else 30);
//! * hard = 3 × optimum, at most 75% of the remaining time.
//!
//! With `movetime` the hard limit is the move time less the overhead, and every
//! iteration that fits is searched. The first iteration
//! (depth 1) is never abandoned, so a legal best move exists even at zero time.

use std::time::Duration;

use caissa_rules::Color;

use crate::Limits;

/// The time limits of one search. `None`: no limit from the clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct TimeBudget {
    /// Stop deepening once 60% of this has passed.
    pub optimum: Option<Duration>,
    /// Abort the search at this point.
    pub hard: Option<Duration>,
}

/// Moves-to-go assumed when the clock does not say.
pub const DEFAULT_MOVES_TO_GO: u64 = 30;

/// The budget for `turn` under `limits`, with `overhead_ms` kept in reserve.
pub fn budget(limits: &Limits, turn: Color, overhead_ms: u64) -> TimeBudget {
    if limits.infinite {
        return TimeBudget::default();
    }
    let mut out = TimeBudget::default();
    if let Some(mt) = limits.movetime {
        let t = Duration::from_millis(mt.saturating_sub(overhead_ms));
        // A fixed move time is used in full: no early stop between iterations.
        out = TimeBudget {
            optimum: None,
            hard: Some(t),
        };
    }
    let (time, inc) = limits.clock(turn);
    if let Some(time) = time {
        let remaining = time.saturating_sub(overhead_ms);
        let inc = inc.unwrap_or(0);
        let mtg = limits.movestogo.map_or(DEFAULT_MOVES_TO_GO, |m| {
            u64::from(m).clamp(1, DEFAULT_MOVES_TO_GO)
        });
        let optimum = (remaining / mtg + inc * 4 / 5).min(remaining / 2);
        let hard = (optimum * 3).min(remaining * 3 / 4).max(optimum);
        let clock = TimeBudget {
            optimum: Some(Duration::from_millis(optimum)),
            hard: Some(Duration::from_millis(hard)),
        };
        out = TimeBudget {
            optimum: min_opt(out.optimum, clock.optimum),
            hard: min_opt(out.hard, clock.hard),
        };
    }
    out
}

/// The share of the optimum time after which no new iteration starts, when
/// nothing is known of how sure the search is.
pub const BASE_SOFT_SHARE: f64 = 0.6;

/// How much the time to think shrinks as the best move stays the same from
/// one iteration to the next (index: iterations it has stayed).
const STABILITY_SCALE: [f64; 5] = [1.6, 1.25, 1.0, 0.85, 0.75];

/// The most iterations of a stable best move that still change the budget.
pub const MAX_STABLE_ITERATIONS: usize = STABILITY_SCALE.len() - 1;

/// The share of the optimum time after which no new iteration starts, given
/// how many iterations the best move has stayed best and the share of the
/// root's nodes spent below it: more time when the search is unsure (the best
/// move keeps changing, or others took most of the effort), less when it is
/// stable and took nearly all of it. Never past the hard limit, which the
/// search checks on its own.
pub fn soft_stop_share(stable_iterations: usize, best_move_node_share: f64) -> f64 {
    let stability = STABILITY_SCALE[stable_iterations.min(MAX_STABLE_ITERATIONS)];
    let effort = (1.5 - best_move_node_share.clamp(0.0, 1.0)) * 1.35;
    BASE_SOFT_SHARE * stability * effort
}

fn min_opt(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Option<Duration>) -> u64 {
        d.map(|d| d.as_millis() as u64).unwrap_or(u64::MAX)
    }

    #[test]
    fn one_second_sudden_death_uses_a_thirtieth() {
        let l = Limits {
            wtime: Some(1000),
            btime: Some(1000),
            ..Limits::default()
        };
        let b = budget(&l, Color::White, 30);
        assert_eq!(ms(b.optimum), 970 / 30);
        assert_eq!(ms(b.hard), 3 * (970 / 30));
    }

    #[test]
    fn increment_counts_four_fifths() {
        let l = Limits {
            wtime: Some(60_000),
            btime: Some(1),
            winc: Some(1000),
            binc: Some(0),
            ..Limits::default()
        };
        let b = budget(&l, Color::White, 0);
        assert_eq!(ms(b.optimum), 2000 + 800);
        // Black, with 1 ms left, gets nothing beyond the first iteration.
        let b = budget(&l, Color::Black, 30);
        assert_eq!(ms(b.optimum), 0);
        assert_eq!(ms(b.hard), 0);
    }

    #[test]
    fn never_more_than_three_quarters_of_the_clock() {
        for time in [0u64, 10, 50, 100, 1000, 5000, 100_000] {
            for inc in [0u64, 100, 2000, 100_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let l = Limits {
                        wtime: Some(time),
                        winc: Some(inc),
                        movestogo: mtg,
                        ..Limits::default()
                    };
                    let b = budget(&l, Color::White, 30);
                    let remaining = time.saturating_sub(30);
                    assert!(
                        ms(b.hard) <= remaining * 3 / 4,
                        "{time} {inc} {mtg:?}: {b:?}"
                    );
                    assert!(ms(b.optimum) <= ms(b.hard));
                }
            }
        }
    }

    #[test]
    fn an_unsure_search_thinks_longer_than_a_settled_one() {
        let settled = soft_stop_share(MAX_STABLE_ITERATIONS, 0.95);
        let unsure = soft_stop_share(0, 0.3);
        assert!(settled < BASE_SOFT_SHARE, "{settled}");
        assert!(unsure > 2.0 * BASE_SOFT_SHARE, "{unsure}");
        for stable in 0..MAX_STABLE_ITERATIONS {
            assert!(soft_stop_share(stable, 0.5) > soft_stop_share(stable + 1, 0.5));
        }
        for share in [0.0, 0.25, 0.5, 0.75] {
            assert!(soft_stop_share(2, share) > soft_stop_share(2, share + 0.25));
        }
        // Out-of-range inputs are held to the table and to a share of 0..=1.
        assert_eq!(
            soft_stop_share(99, 2.0),
            soft_stop_share(MAX_STABLE_ITERATIONS, 1.0)
        );
    }

    #[test]
    fn movetime_less_overhead() {
        let l = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        let b = budget(&l, Color::Black, 30);
        assert_eq!(ms(b.hard), 470);
        assert_eq!(b.optimum, None);
        let l = Limits {
            movetime: Some(10),
            ..Limits::default()
        };
        assert_eq!(ms(budget(&l, Color::Black, 30).hard), 0);
    }

    #[test]
    fn infinite_and_depth_have_no_clock() {
        let l = Limits {
            infinite: true,
            wtime: Some(10),
            ..Limits::default()
        };
        assert_eq!(budget(&l, Color::White, 30), TimeBudget::default());
        let l = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&l, Color::White, 30), TimeBudget::default());
    }
}
