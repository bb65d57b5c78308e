//! Tiebreaks by the FIDE Tie-Break Regulations (Handbook C.07, the 2023 edition:
//! approved 1 August 2023, applied to all FIDE-rated events from 1 April 2024), named
//! by their C.07 acronyms with the cut and median modifiers of article 14.
//!
//! Every value is computed from the round entries alone: the file's points column and
//! any acceleration (`XXA`) are ignored, and the points come from the tournament's
//! point system. Unplayed rounds follow article 16 (see [`Unplayed`] for how TRF
//! codes map onto its categories):
//!
//! - an opponent's score is taken with each requested bye that is followed only by
//!   voluntary unplayed rounds, or that falls in the last round, counted as a draw
//!   (16.3); every other round counts what it was worth;
//! - a participant's own unplayed round counts as a game against a dummy opponent
//!   whose score is the participant's own (16.4);
//! - when cutting the least significant values, a voluntary unplayed round's
//!   contribution is cut first, unless it is worth less than the least significant
//!   value (16.5).
//!
//! C.07 lets tournaments with pre-determined pairings (round robins) count forfeits as
//! games against the scheduled opponent; this module always applies the Swiss handling
//! of article 16.
//!
//! ```
//! use caissa_tournament::tiebreak::Tiebreak;
//! let tb: Tiebreak = "bh-c1".parse().unwrap();
//! assert_eq!(tb.to_string(), "BH-C1");
//! ```

mod context;
mod direct;
mod opponents;
mod own;
mod rating;

pub(crate) use context::Context;
pub use context::Unplayed;
pub(crate) use direct::{encounter_scores, order_by_encounters};

use crate::model::Tournament;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A cut or median modifier (C.07 article 14): how many of the least and of the most
/// significant values are left out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// `C1`, Cut-1: the least significant value is cut.
    Cut1,
    /// `C2`, Cut-2: the two least significant values are cut.
    Cut2,
    /// `M1`, Median-1: the least and the most significant values are cut.
    Median1,
    /// `M2`, Median-2: the two least and the two most significant values are cut.
    Median2,
}

impl Modifier {
    /// How many of the least significant values are cut.
    pub fn lowest(self) -> usize {
        match self {
            Modifier::Cut1 | Modifier::Median1 => 1,
            Modifier::Cut2 | Modifier::Median2 => 2,
        }
    }

    /// How many of the most significant values are cut.
    pub fn highest(self) -> usize {
        match self {
            Modifier::Cut1 | Modifier::Cut2 => 0,
            Modifier::Median1 => 1,
            Modifier::Median2 => 2,
        }
    }

    /// The modifier's code: `C1`, `C2`, `M1`, `M2`.
    pub fn code(self) -> &'static str {
        match self {
            Modifier::Cut1 => "C1",
            Modifier::Cut2 => "C2",
            Modifier::Median1 => "M1",
            Modifier::Median2 => "M2",
        }
    }

    const ALL: [Modifier; 4] = [
        Modifier::Cut1,
        Modifier::Cut2,
        Modifier::Median1,
        Modifier::Median2,
    ];
}

/// A tiebreak of C.07, with its modifier where it takes one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// `BH`: the sum of the opponents' scores (8.1).
    Buchholz(Option<Modifier>),
    /// `SB`: the sum, over the rounds, of each opponent's score times the points scored
    /// against them (9.1).
    SonnebornBerger(Option<Modifier>),
    /// `DE`: the points scored in games between the tied participants (6).
    DirectEncounter,
    /// `WIN`: rounds won, over the board or not (a forfeit win, a full-point bye, a
    /// pairing-allocated bye worth a win) (7.1).
    Wins,
    /// `WON`: games won over the board (7.2).
    GamesWon,
    /// `BPG`: games played over the board with Black (7.3).
    BlackGames,
    /// `BWG`: games won over the board with Black (7.4).
    BlackWins,
    /// `PS`: the sum of the running scores after each round (7.5); a cut drops the
    /// earliest rounds.
    ProgressiveScore(Option<Modifier>),
    /// `KS`: the points scored against opponents who finished with at least half of
    /// the maximum possible score (9.2).
    Koya,
    /// `ARO`: the average rating of the opponents of games played, rounded to the
    /// nearest whole number, half up (10.1).
    AverageRatingOfOpponents(Option<Modifier>),
    /// `TPR`: ARO plus FIDE's `dp` for the fraction scored in those games, rounded to
    /// the hundredth (10.2).
    PerformanceRating,
    /// `APRO`: the average of the opponents' TPRs, rounded half up (10.4).
    AveragePerformanceOfOpponents,
}

/// The base codes, in the order the error message lists them; `true` where the
/// tiebreak takes the cut and median modifiers.
const BASES: [(&str, bool); 12] = [
    ("BH", true),
    ("SB", true),
    ("DE", false),
    ("WIN", false),
    ("WON", false),
    ("BPG", false),
    ("BWG", false),
    ("PS", true),
    ("KS", false),
    ("ARO", true),
    ("TPR", false),
    ("APRO", false),
];

impl Tiebreak {
    /// The tiebreak's base acronym, without its modifier.
    pub fn acronym(self) -> &'static str {
        match self {
            Tiebreak::Buchholz(_) => "BH",
            Tiebreak::SonnebornBerger(_) => "SB",
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::Wins => "WIN",
            Tiebreak::GamesWon => "WON",
            Tiebreak::BlackGames => "BPG",
            Tiebreak::BlackWins => "BWG",
            Tiebreak::ProgressiveScore(_) => "PS",
            Tiebreak::Koya => "KS",
            Tiebreak::AverageRatingOfOpponents(_) => "ARO",
            Tiebreak::PerformanceRating => "TPR",
            Tiebreak::AveragePerformanceOfOpponents => "APRO",
        }
    }

    /// The modifier, if any.
    pub fn modifier(self) -> Option<Modifier> {
        match self {
            Tiebreak::Buchholz(m)
            | Tiebreak::SonnebornBerger(m)
            | Tiebreak::ProgressiveScore(m)
            | Tiebreak::AverageRatingOfOpponents(m) => m,
            _ => None,
        }
    }

    /// Every code [`FromStr`] accepts, canonical spelling, in a fixed order.
    pub fn known_codes() -> Vec<String> {
        let mut codes = Vec::new();
        for (base, cuttable) in BASES {
            codes.push(base.to_string());
            if cuttable {
                codes.extend(Modifier::ALL.iter().map(|m| format!("{base}-{}", m.code())));
            }
        }
        codes
    }

    fn from_parts(base: &str, modifier: Option<Modifier>) -> Option<Tiebreak> {
        let plain = |tb: Tiebreak| modifier.is_none().then_some(tb);
        match base {
            "BH" => Some(Tiebreak::Buchholz(modifier)),
            "SB" => Some(Tiebreak::SonnebornBerger(modifier)),
            "PS" => Some(Tiebreak::ProgressiveScore(modifier)),
            "ARO" => Some(Tiebreak::AverageRatingOfOpponents(modifier)),
            "DE" => plain(Tiebreak::DirectEncounter),
            "WIN" => plain(Tiebreak::Wins),
            "WON" => plain(Tiebreak::GamesWon),
            "BPG" => plain(Tiebreak::BlackGames),
            "BWG" => plain(Tiebreak::BlackWins),
            "KS" => plain(Tiebreak::Koya),
            "TPR" => plain(Tiebreak::PerformanceRating),
            "APRO" => plain(Tiebreak::AveragePerformanceOfOpponents),
            _ => None,
        }
    }
}

impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = match self.modifier() {
            Some(m) => format!("{}-{}", self.acronym(), m.code()),
            None => self.acronym().to_string(),
        };
        f.pad(&code)
    }
}

/// A tiebreak code that names no tiebreak of C.07 (or a modifier the tiebreak does
/// not take); it holds the text as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTiebreak(pub String);

impl fmt::Display for UnknownTiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown tiebreak {:?} (known: {})",
            self.0,
            Tiebreak::known_codes().join(", ")
        )
    }
}

impl std::error::Error for UnknownTiebreak {}

impl FromStr for Tiebreak {
    type Err = UnknownTiebreak;

    /// Parses a code, case-insensitively: `BH`, `bh-c1`, `Sb/C1` (the modifier follows
    /// `-` or, as FIDE's MTB26 writes it, `/`).
    fn from_str(text: &str) -> Result<Tiebreak, UnknownTiebreak> {
        let unknown = || UnknownTiebreak(text.trim().to_string());
        let upper = text.trim().to_ascii_uppercase();
        let (base, modifier) = match upper.split_once(['-', '/']) {
            Some((base, code)) => {
                let modifier = Modifier::ALL
                    .into_iter()
                    .find(|m| m.code() == code)
                    .ok_or_else(unknown)?;
                (base, Some(modifier))
            }
            None => (upper.as_str(), None),
        };
        Tiebreak::from_parts(base, modifier).ok_or_else(unknown)
    }
}

impl Serialize for Tiebreak {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Tiebreak {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Tiebreak, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A tiebreak value, exact: points (and Sonneborn-Berger products of points) in
/// hundredths, counts and ratings as whole numbers, and no value where a rating-based
/// tiebreak has no rated game to work from. Higher is better; no value ranks below
/// any value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Points, in hundredths (`1725` is 17.25). Printed with one decimal at least.
    Points(i64),
    /// A count or a rating. Printed as a whole number.
    Number(i64),
    /// Not defined (no rated game played). Printed as `-`, serialised as `null`.
    None,
}

impl Value {
    /// The value as a float (`None` as NaN), for callers that want one number.
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Points(h) => h as f64 / 100.0,
            Value::Number(n) => n as f64,
            Value::None => f64::NAN,
        }
    }

    /// A key that orders values: no value lowest, then by size.
    fn key(self) -> (bool, i64) {
        match self {
            Value::Points(h) => (true, h),
            Value::Number(n) => (true, n.saturating_mul(100)),
            Value::None => (false, 0),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match *self {
            Value::Points(h) => {
                let sign = if h < 0 { "-" } else { "" };
                let (whole, cents) = (h.unsigned_abs() / 100, h.unsigned_abs() % 100);
                if cents % 10 == 0 {
                    format!("{sign}{whole}.{}", cents / 10)
                } else {
                    format!("{sign}{whole}.{cents:02}")
                }
            }
            Value::Number(n) => n.to_string(),
            Value::None => "-".to_string(),
        };
        f.pad(&text)
    }
}

impl Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Value::Points(_) => s.serialize_f64(self.as_f64()),
            Value::Number(n) => s.serialize_i64(n),
            Value::None => s.serialize_none(),
        }
    }
}

/// The value of `tiebreak` for every player after `rounds` rounds, in the order of
/// `t.players`.
///
/// Direct encounter, computed alone, is taken among the players tied on points;
/// [`crate::standings::standings`] applies it to the players still tied when its turn
/// comes, and also ranks them by it as article 6 says.
pub fn compute(t: &Tournament, rounds: usize, tiebreak: &Tiebreak) -> Vec<Value> {
    Context::new(t, rounds).compute(*tiebreak)
}

impl Context<'_> {
    /// The value of `tiebreak` for every player, in player order.
    pub(crate) fn compute(&self, tiebreak: Tiebreak) -> Vec<Value> {
        match tiebreak {
            Tiebreak::Buchholz(m) => self.buchholz(m),
            Tiebreak::SonnebornBerger(m) => self.sonneborn_berger(m),
            Tiebreak::DirectEncounter => self.direct_encounter_by_points(),
            Tiebreak::Wins => self.count(|c, p, r| c.is_win(p, r)),
            Tiebreak::GamesWon => self.count(|c, p, r| c.is_won(p, r)),
            Tiebreak::BlackGames => self.count(|c, p, r| c.is_black_game(p, r)),
            Tiebreak::BlackWins => self.count(|c, p, r| c.is_black_game(p, r) && c.is_won(p, r)),
            Tiebreak::ProgressiveScore(m) => self.progressive(m),
            Tiebreak::Koya => self.koya(),
            Tiebreak::AverageRatingOfOpponents(m) => self.average_rating_of_opponents(m),
            Tiebreak::PerformanceRating => self.performance_ratings(),
            Tiebreak::AveragePerformanceOfOpponents => self.average_performance_of_opponents(),
        }
    }
}
