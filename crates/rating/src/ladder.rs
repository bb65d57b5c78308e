//! The ladder of the seed's online game: points and levels.
//!
//! Levels go from *unrated* to 30, then up to 1; each level takes 100 points. Two
//! point schemes appear in the seed and both are here; scheme A (a formula) is the
//! default, scheme B (a table) the alternative. In both the loser loses what the
//! winner gains. `diff` is the absolute difference of the players' current points;
//! results are rounded to whole points (half away from zero).
//!
//! | result | diff | scheme A (lower / higher rated) | scheme B |
//! |---|---|---|---|
//! | draw | < 10 | 0 | each +1 |
//! | draw | 10–99 | lower + (10 + diff/10)/2 | lower +5, higher −5 |
//! | draw | ≥ 100 | lower + diff/4 | lower +10, higher −10 |
//! | lower wins | < 10 | 10 | 10 |
//! | lower wins | 10–99 | 10 + diff/10 | 15 |
//! | lower wins | ≥ 100 | diff/2 | 20 |
//! | higher wins | < 10 | 10 | 10 |
//! | higher wins | 10–99 | 10 − diff/12.5 | 5 |
//! | higher wins | 100–199 | 2 | 3 |
//! | higher wins | ≥ 200 | 0 | 1 |

use serde::{Deserialize, Serialize};

/// Points per level.
pub const POINTS_PER_LEVEL: i64 = 100;
/// The lowest level.
pub const LOWEST_LEVEL: u8 = 30;

/// Which of the seed's two schemes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Scheme {
    /// The formula (default).
    #[default]
    A,
    /// The table.
    B,
}

/// A game result between two ladder players, from the first player's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Result {
    /// The first player won.
    Win,
    /// Drawn.
    Draw,
    /// The first player lost.
    Loss,
    /// The first player left the game ("escape"); `moves` were played.
    Escaped {
        /// Moves played before leaving.
        moves: u32,
    },
    /// The game does not count.
    Void,
}

/// A level: unrated before the first game, else 30 (lowest) to 1 (highest).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Level {
    /// No rated game yet.
    Unrated,
    /// Level 30 (lowest) to 1 (highest).
    Level(u8),
}

impl Level {
    /// The level for `points` after `games` games.
    pub fn of(points: i64, games: u32) -> Level {
        if games == 0 {
            return Level::Unrated;
        }
        let climbed = points.max(0) / POINTS_PER_LEVEL;
        Level::Level((i64::from(LOWEST_LEVEL) - climbed).max(1) as u8)
    }
}

impl core::fmt::Display for Level {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Level::Unrated => f.write_str("unrated"),
            Level::Level(n) => write!(f, "level {n}"),
        }
    }
}

fn round(x: f64) -> i64 {
    x.round() as i64
}

/// Points the winner gains (and the loser loses) when the winner had `winner` and
/// the loser `loser` points.
pub fn win_points(scheme: Scheme, winner: i64, loser: i64) -> i64 {
    let diff = (winner - loser).abs();
    let lower_won = winner < loser;
    match (scheme, lower_won) {
        (Scheme::A, true) => match diff {
            d if d >= 100 => round(d as f64 / 2.0),
            d if d >= 10 => round(10.0 + d as f64 / 10.0),
            _ => 10,
        },
        (Scheme::A, false) => match diff {
            d if d >= 200 => 0,
            d if d >= 100 => 2,
            d if d >= 10 => round(10.0 - d as f64 / 12.5),
            _ => 10,
        },
        (Scheme::B, true) => match diff {
            d if d >= 100 => 20,
            d if d >= 10 => 15,
            _ => 10,
        },
        (Scheme::B, false) => match diff {
            d if d >= 200 => 1,
            d if d >= 100 => 3,
            d if d >= 10 => 5,
            _ => 10,
        },
    }
}

/// Point changes `(first, second)` for a draw between players with `a` and `b` points.
pub fn draw_points(scheme: Scheme, a: i64, b: i64) -> (i64, i64) {
    let diff = (a - b).abs();
    let lower_gain = match scheme {
        Scheme::A => match diff {
            d if d >= 100 => round(d as f64 / 4.0),
            d if d >= 10 => round((10.0 + d as f64 / 10.0) / 2.0),
            _ => 0,
        },
        Scheme::B => match diff {
            d if d >= 100 => 10,
            d if d >= 10 => 5,
            _ => return (1, 1),
        },
    };
    if a < b {
        (lower_gain, -lower_gain)
    } else if b < a {
        (-lower_gain, lower_gain)
    } else {
        (0, 0)
    }
}

/// Point changes `(first, second)` for a game between players with `a` and `b`
/// points. Escaping costs three times a loss; after more than 25 moves the
/// opponent is scored as for a draw, before that as for a win. Void changes nothing.
pub fn change(scheme: Scheme, a: i64, b: i64, result: Result) -> (i64, i64) {
    match result {
        Result::Win => {
            let p = win_points(scheme, a, b);
            (p, -p)
        }
        Result::Loss => {
            let p = win_points(scheme, b, a);
            (-p, p)
        }
        Result::Draw => draw_points(scheme, a, b),
        Result::Escaped { moves } => {
            let loss = win_points(scheme, b, a);
            let opponent = if moves > 25 {
                draw_points(scheme, a, b).1
            } else {
                loss
            };
            (-3 * loss, opponent)
        }
        Result::Void => (0, 0),
    }
}
