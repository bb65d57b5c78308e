//! Time management: how long one move may think.
//!
//! Two limits come out of the clock: an *optimum* (the search does not start another
//! iteration once 60% of it has passed) and a *hard* limit at which the running search
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
