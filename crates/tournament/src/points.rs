//! Points in tenths, so that any point system a TRF can state (1 / ½ / 0, 3 / 1 / 0,
//! 2 / 1 / 0 ...) is exact and totals compare without floating-point error.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A number of points, held in tenths of a point.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u32);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// Half a point.
    pub const HALF: Points = Points(5);
    /// One point.
    pub const ONE: Points = Points(10);

    /// Points from tenths.
    pub const fn tenths(tenths: u32) -> Points {
        Points(tenths)
    }

    /// The value as a float, for tiebreaks such as ARO that divide.
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }

    /// Parses `5`, `5.5`, ` 11.0` (one decimal at most; surrounding blanks allowed).
    pub fn parse(text: &str) -> Option<Points> {
        let text = text.trim();
        let (whole, tenth) = match text.split_once('.') {
            Some((w, t)) => (w, t),
            None => (text, ""),
        };
        if whole.is_empty() && tenth.is_empty() {
            return None;
        }
        let whole: u32 = if whole.is_empty() {
            0
        } else if whole.bytes().all(|b| b.is_ascii_digit()) {
            whole.parse().ok()?
        } else {
            return None;
        };
        let tenth: u32 = match tenth.len() {
            0 => 0,
            1 if tenth.as_bytes()[0].is_ascii_digit() => u32::from(tenth.as_bytes()[0] - b'0'),
            // "5.50" is written by some programs; anything finer than a tenth is refused.
            2 if tenth.bytes().all(|b| b.is_ascii_digit()) && tenth.ends_with('0') => {
                u32::from(tenth.as_bytes()[0] - b'0')
            }
            _ => return None,
        };
        whole.checked_mul(10)?.checked_add(tenth).map(Points)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{}.{}", self.0 / 10, self.0 % 10);
        f.pad(&text)
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        Points(self.0 + rhs.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        self.0 += rhs.0;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, rhs: Points) -> Points {
        Points(self.0.saturating_sub(rhs.0))
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl Serialize for Points {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.value())
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Points, D::Error> {
        let value = f64::deserialize(d)?;
        let tenths = (value * 10.0).round();
        if !(0.0..=f64::from(u32::MAX)).contains(&tenths) || (value * 10.0 - tenths).abs() > 1e-6 {
            return Err(serde::de::Error::custom(format!(
                "points must be a non-negative multiple of 0.1, not {value}"
            )));
        }
        Ok(Points(tenths as u32))
    }
}

/// How many points each kind of result is worth (TRF's `BBW`, `BBD` ... lines; the
/// standard 1 / ½ / 0 when absent).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PointSystem {
    /// A win, over the board or by forfeit (`BBW`); also a full-point bye.
    pub win: Points,
    /// A draw (`BBD`); also a half-point bye.
    pub draw: Points,
    /// A loss over the board (`BBL`).
    pub loss: Points,
    /// A zero-point bye or an absence (`BBZ`).
    pub zero_bye: Points,
    /// A loss by forfeit (`BBF`).
    pub forfeit_loss: Points,
    /// The pairing-allocated bye (`BBU`; a win's worth unless stated).
    pub pairing_bye: Points,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem {
            win: Points::ONE,
            draw: Points::HALF,
            loss: Points::ZERO,
            zero_bye: Points::ZERO,
            forfeit_loss: Points::ZERO,
            pairing_bye: Points::ONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_tenths() {
        assert_eq!(Points::parse(" 5.5"), Some(Points(55)));
        assert_eq!(Points::parse("11"), Some(Points(110)));
        assert_eq!(Points::parse("0.0"), Some(Points(0)));
        assert_eq!(Points::parse("2.50"), Some(Points(25)));
        assert_eq!(Points::parse("2.55"), None);
        assert_eq!(Points::parse("-1"), None);
        assert_eq!(Points::parse(""), None);
        assert_eq!(Points(55).to_string(), "5.5");
        assert_eq!(format!("{:>4}", Points(10)), " 1.0");
    }
}
