//! Time controls and the chess clocks the runner keeps for each engine.

use core::fmt;
use std::str::FromStr;
use std::time::Duration;

use caissa_rules::Color;

/// A time control: `base` for the game (or for every `moves` moves), plus `increment`
/// after each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period, when the base time is renewed every so many moves.
    pub moves: Option<u32>,
    /// Time at the start (and at each new period).
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

impl TimeControl {
    /// `base` seconds plus `increment` seconds a move.
    pub fn new(base: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            moves: None,
            base,
            increment,
        }
    }
}

fn seconds(text: &str) -> Result<Duration, String> {
    let bad = || format!("{text:?} is not a number of seconds");
    // `m:ss` is accepted for the base time.
    let value = match text.split_once(':') {
        Some((m, s)) => {
            let m: f64 = m.parse().map_err(|_| bad())?;
            let s: f64 = s.parse().map_err(|_| bad())?;
            m * 60.0 + s
        }
        None => text.parse::<f64>().map_err(|_| bad())?,
    };
    if !value.is_finite() || value < 0.0 {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(value))
}

/// Writes seconds without trailing zeros: `10`, `0.1`, `2.05`.
fn write_seconds(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let millis = d.as_millis();
    let whole = millis / 1000;
    let frac = millis % 1000;
    if frac == 0 {
        write!(f, "{whole}")
    } else {
        let digits = format!("{frac:03}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

impl FromStr for TimeControl {
    type Err = String;

    /// Reads `[moves/]base[+increment]` in seconds: `10+0.1`, `60`, `40/120+1`,
    /// `1:30+2` (minutes:seconds).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| format!("{m:?} is not a number of moves"))?;
                if m == 0 {
                    return Err("moves per period must be at least 1".to_string());
                }
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b)?, seconds(i)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        if base.is_zero() && increment.is_zero() {
            return Err(format!("time control {text:?} gives no time"));
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `10+0.1`, `40/120+1`, `60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write_seconds(f, self.base)?;
        if !self.increment.is_zero() {
            f.write_str("+")?;
            write_seconds(f, self.increment)?;
        }
        Ok(())
    }
}

/// Both players' clocks during a game.
#[derive(Clone, Debug)]
pub struct Clocks {
    tc: TimeControl,
    remaining: [Duration; 2],
    moves_made: [u32; 2],
}

impl Clocks {
    /// Clocks at the start of a game.
    pub fn new(tc: TimeControl) -> Clocks {
        Clocks {
            tc,
            remaining: [tc.base; 2],
            moves_made: [0; 2],
        }
    }

    /// Time left for `color`.
    pub fn remaining(&self, color: Color) -> Duration {
        self.remaining[color.index()]
    }

    /// The increment.
    pub fn increment(&self) -> Duration {
        self.tc.increment
    }

    /// Moves `color` still has to make before its next period starts.
    pub fn moves_to_go(&self, color: Color) -> Option<u32> {
        self.tc
            .moves
            .map(|period| period - self.moves_made[color.index()] % period)
    }

    /// Charges `color` for a move that took `elapsed`: returns `false` if that was
    /// more than it had plus `margin` (the flag fell). Otherwise the time is taken off
    /// (never below zero), the increment added, and a new period's time when one starts.
    pub fn charge(&mut self, color: Color, elapsed: Duration, margin: Duration) -> bool {
        let i = color.index();
        if elapsed > self.remaining[i] + margin {
            self.remaining[i] = Duration::ZERO;
            return false;
        }
        self.remaining[i] = self.remaining[i].saturating_sub(elapsed) + self.tc.increment;
        self.moves_made[i] += 1;
        if let Some(period) = self.tc.moves {
            if self.moves_made[i].is_multiple_of(period) {
                self.remaining[i] += self.tc.base;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_writes_time_controls() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!("60".parse::<TimeControl>().unwrap().to_string(), "60");
        assert_eq!(
            "40/120+1".parse::<TimeControl>().unwrap().to_string(),
            "40/120+1"
        );
        assert_eq!("1:30+2".parse::<TimeControl>().unwrap().to_string(), "90+2");
        assert_eq!(
            "2+0.05".parse::<TimeControl>().unwrap().to_string(),
            "2+0.05"
        );
        assert!("0".parse::<TimeControl>().is_err());
        assert!("x+1".parse::<TimeControl>().is_err());
        assert!("-5".parse::<TimeControl>().is_err());
    }

    #[test]
    fn clocks_charge_increment_and_flag() {
        let mut c = Clocks::new("1+0.5".parse().unwrap());
        let margin = Duration::from_millis(100);
        assert!(c.charge(Color::White, Duration::from_millis(300), margin));
        assert_eq!(c.remaining(Color::White), Duration::from_millis(1200));
        assert_eq!(c.remaining(Color::Black), Duration::from_secs(1));
        // Within the margin: allowed, clock floors at zero before the increment.
        assert!(c.charge(Color::Black, Duration::from_millis(1050), margin));
        assert_eq!(c.remaining(Color::Black), Duration::from_millis(500));
        assert!(!c.charge(Color::Black, Duration::from_millis(601), margin));
    }

    #[test]
    fn periods_renew_the_base_time() {
        let mut c = Clocks::new("2/10".parse().unwrap());
        let m = Duration::ZERO;
        assert_eq!(c.moves_to_go(Color::White), Some(2));
        assert!(c.charge(Color::White, Duration::from_secs(4), m));
        assert_eq!(c.moves_to_go(Color::White), Some(1));
        assert!(c.charge(Color::White, Duration::from_secs(4), m));
        assert_eq!(c.remaining(Color::White), Duration::from_secs(12));
        assert_eq!(c.moves_to_go(Color::White), Some(2));
    }
}
