//! Time controls: sudden death, Fischer increment, simple (US) and Bronstein delay,
//! several periods ("40 moves in 90 minutes, then 30 minutes"), a per-move limit
//! (the online game's "fast" and "match" modes) and correspondence.

use core::fmt;

use serde::{Deserialize, Serialize};

/// How a delay protects the main time (Laws 6.3.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(tag = "kind", content = "ms", rename_all = "snake_case")]
pub enum Delay {
    /// No delay.
    #[default]
    None,
    /// Simple (US) delay: the main time starts running only after this many ms.
    Simple(u64),
    /// Bronstein delay: the clock runs at once, and the time used, up to this many
    /// ms, is given back when the move is completed.
    Bronstein(u64),
}

impl Delay {
    /// The delay in ms (0 for none).
    pub fn ms(self) -> u64 {
        match self {
            Delay::None => 0,
            Delay::Simple(ms) | Delay::Bronstein(ms) => ms,
        }
    }
}

/// One period of a time control.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Period {
    /// Moves to complete in this period; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// Time given at the start of the period (added to what is left, Laws 6.3.2).
    pub base_ms: u64,
    /// Fischer increment added after each move completed in this period.
    pub increment_ms: u64,
    /// Delay for each move in this period.
    pub delay: Delay,
}

/// The time rules of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    /// The periods in order; empty for a game without a game clock.
    pub periods: Vec<Period>,
    /// A limit on each single move, besides the game time (the online game's modes;
    /// correspondence chess's days per move).
    pub per_move_ms: Option<u64>,
}

/// Fastest speed class a time control falls into (Laws A.1, B.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// Under 3 minutes on the estimate (time + 40 × increment), as servers count it.
    Bullet,
    /// 10 minutes or less, counting time + 60 × increment (B.1).
    Blitz,
    /// More than 10 and less than 60 minutes (A.1).
    Rapid,
    /// 60 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
    /// No clock at all.
    Unlimited,
}

impl Speed {
    /// The speed's name as servers write it: `bullet`, `blitz`, `rapid`,
    /// `classical`, `correspondence`, `unlimited`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
            Speed::Unlimited => "unlimited",
        }
    }

    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
        Speed::Unlimited,
    ];
}

/// Why a time-control description could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid time control {text:?}: {why}")]
pub struct TimeControlError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub why: String,
}

impl TimeControl {
    /// No clock.
    pub fn unlimited() -> TimeControl {
        TimeControl {
            periods: Vec::new(),
            per_move_ms: None,
        }
    }

    /// All moves in `base_ms`, with `increment_ms` added after each move.
    pub fn fischer(base_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl {
            periods: vec![Period {
                moves: None,
                base_ms,
                increment_ms,
                delay: Delay::None,
            }],
            per_move_ms: None,
        }
    }

    /// All moves in `base_ms`, each move protected by a delay.
    pub fn with_delay(base_ms: u64, delay: Delay) -> TimeControl {
        TimeControl {
            periods: vec![Period {
                moves: None,
                base_ms,
                increment_ms: 0,
                delay,
            }],
            per_move_ms: None,
        }
    }

    /// The online game's "fast" mode: game time, a per-move limit and an increment.
    pub fn fast(base_ms: u64, per_move_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl {
            per_move_ms: Some(per_move_ms),
            ..TimeControl::fischer(base_ms, increment_ms)
        }
    }

    /// The online game's "match" mode: game time and a per-move limit, no increment.
    pub fn match_mode(base_ms: u64, per_move_ms: u64) -> TimeControl {
        TimeControl::fast(base_ms, per_move_ms, 0)
    }

    /// Correspondence: `days` per move, no game clock.
    pub fn correspondence(days: u32) -> TimeControl {
        TimeControl {
            periods: Vec::new(),
            per_move_ms: Some(u64::from(days) * 86_400_000),
        }
    }

    /// Whether there is any clock.
    pub fn is_unlimited(&self) -> bool {
        self.periods.is_empty() && self.per_move_ms.is_none()
    }

    /// The starting time of the first period.
    pub fn initial_ms(&self) -> u64 {
        self.periods.first().map_or(0, |p| p.base_ms)
    }

    /// Whether any period has an increment.
    pub fn has_increment(&self) -> bool {
        self.periods.iter().any(|p| p.increment_ms > 0)
    }

    /// Whether any period has a delay.
    pub fn has_delay(&self) -> bool {
        self.periods.iter().any(|p| p.delay != Delay::None)
    }

    /// The speed class by the Laws' measure (time + 60 × increment for 60 moves).
    pub fn speed(&self) -> Speed {
        if self.periods.is_empty() {
            return if self.per_move_ms.is_some() {
                Speed::Correspondence
            } else {
                Speed::Unlimited
            };
        }
        let first = &self.periods[0];
        let fide = first.base_ms + 60 * (first.increment_ms + first.delay.ms());
        let estimate = first.base_ms + 40 * (first.increment_ms + first.delay.ms());
        if estimate < 180_000 {
            Speed::Bullet
        } else if fide <= 600_000 {
            Speed::Blitz
        } else if fide < 3_600_000 {
            Speed::Rapid
        } else {
            Speed::Classical
        }
    }

    /// Parses the PGN `TimeControl` tag form, in seconds: `300+2`, `300`,
    /// `40/5400:1800+30`, `-`; a delay as `d` (simple) or `b` (Bronstein) instead of
    /// `+` (`300d5`); `3d` for three days per move (correspondence); and a per-move
    /// limit after a one-period control as `/N` (`600+5/30`, `600+0/30`).
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse_with_unit(text, 1.0)
    }

    /// Parses the `minutes+seconds` form players use (`5+3`, `0.5+0`, `90+30`), with
    /// the same extensions as [`TimeControl::parse`] (base times in minutes).
    pub fn parse_minutes(text: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse_with_unit(text, 60.0)
    }

    fn parse_with_unit(text: &str, unit: f64) -> Result<TimeControl, TimeControlError> {
        let err = |why: &str| TimeControlError {
            text: text.to_string(),
            why: why.to_string(),
        };
        let t = text.trim();
        if t == "-" || t.eq_ignore_ascii_case("unlimited") {
            return Ok(TimeControl::unlimited());
        }
        if let Some(days) = t
            .strip_suffix('d')
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        {
            let days: u32 = days.parse().map_err(|_| err("days must be a number"))?;
            if days == 0 || days > 30 {
                return Err(err("correspondence needs 1 to 30 days per move"));
            }
            return Ok(TimeControl::correspondence(days));
        }
        // A per-move limit is a '/' after the last period's increment or delay mark.
        let last_start = t.rfind(':').map_or(0, |i| i + 1);
        let last = &t[last_start..];
        let (main, per_move) = match last.rfind('/') {
            Some(j) if last[..j].contains(['+', 'd', 'b']) => {
                let secs: f64 = last[j + 1..]
                    .parse()
                    .map_err(|_| err("per-move limit must be seconds"))?;
                let ms = seconds(secs)
                    .filter(|&ms| ms > 0)
                    .ok_or_else(|| err("per-move limit must be positive"))?;
                (&t[..last_start + j], Some(ms))
            }
            _ => (t, None),
        };
        let mut periods = Vec::new();
        for part in main.split(':') {
            let (moves, rest) = match part.split_once('/') {
                Some((n, rest)) => (
                    Some(
                        n.parse::<u32>()
                            .map_err(|_| err("moves per period must be a whole number"))?,
                    ),
                    rest,
                ),
                None => (None, part),
            };
            if moves == Some(0) {
                return Err(err("a period needs at least one move"));
            }
            // base, then any of "+inc", "dDELAY", "bDELAY" in that order.
            let mut pieces = rest.split_inclusive(['+', 'd', 'b']).peekable();
            let number = |s: &str| -> Result<u64, TimeControlError> {
                let v: f64 = s
                    .parse()
                    .map_err(|_| err("times must be numbers of seconds"))?;
                seconds(v).ok_or_else(|| err("times must not be negative"))
            };
            let first = pieces.next().unwrap_or("");
            let (base_text, mut mark) = match first.char_indices().last() {
                Some((i, c @ ('+' | 'd' | 'b'))) => (&first[..i], Some(c)),
                _ => (first, None),
            };
            let base: f64 = base_text
                .parse()
                .map_err(|_| err("the base time must be a number"))?;
            let base_ms =
                seconds(base * unit).ok_or_else(|| err("the base time must not be negative"))?;
            let mut period = Period {
                moves,
                base_ms,
                increment_ms: 0,
                delay: Delay::None,
            };
            while let Some(kind) = mark {
                let piece = pieces
                    .next()
                    .ok_or_else(|| err("a mark without a number"))?;
                let (value, next) = match piece.char_indices().last() {
                    Some((i, c @ ('+' | 'd' | 'b'))) => (&piece[..i], Some(c)),
                    _ => (piece, None),
                };
                let ms = number(value)?;
                match kind {
                    '+' => period.increment_ms = ms,
                    'd' => period.delay = Delay::Simple(ms),
                    _ => period.delay = Delay::Bronstein(ms),
                }
                mark = next;
            }
            periods.push(period);
        }
        if periods.iter().rev().skip(1).any(|p| p.moves.is_none()) {
            return Err(err("only the last period may be for the rest of the game"));
        }
        if periods
            .iter()
            .all(|p| p.base_ms == 0 && p.increment_ms == 0 && p.delay == Delay::None)
        {
            return Err(err("no time at all"));
        }
        Ok(TimeControl {
            periods,
            per_move_ms: per_move,
        })
    }
}

fn seconds(s: f64) -> Option<u64> {
    (0.0..1e9).contains(&s).then(|| (s * 1000.0).round() as u64)
}

fn fmt_seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag form (seconds): `300+2`, `40/5400:1800+30`, `-`;
    /// delays as `d`/`b`, a per-move limit as `/N` after the last period.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.periods.is_empty() {
            return match self.per_move_ms {
                Some(ms) => write!(f, "{}d", ms / 86_400_000),
                None => f.write_str("-"),
            };
        }
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            if let Some(n) = p.moves {
                write!(f, "{n}/")?;
            }
            f.write_str(&fmt_seconds(p.base_ms))?;
            if p.increment_ms > 0 {
                write!(f, "+{}", fmt_seconds(p.increment_ms))?;
            }
            match p.delay {
                Delay::None => {}
                Delay::Simple(ms) => write!(f, "d{}", fmt_seconds(ms))?,
                Delay::Bronstein(ms) => write!(f, "b{}", fmt_seconds(ms))?,
            }
        }
        if let Some(ms) = self.per_move_ms {
            let last = self.periods.last();
            let marked = last.is_some_and(|p| p.increment_ms > 0 || p.delay != Delay::None);
            if !marked {
                f.write_str("+0")?;
            }
            write!(f, "/{}", fmt_seconds(ms))?;
        }
        Ok(())
    }
}
