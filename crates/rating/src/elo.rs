//! FIDE Elo (FIDE Rating Regulations, B.02): expected scores with the 400-point
//! rule, the K factor, rating changes and performance ratings.

/// FIDE table 8.1(b): the largest rating difference for each expected score of the
/// higher-rated player, from 0.50 (differences 0–3) up to 0.99 (620–735).
const PD_UPPER: [u16; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 411, 432, 456, 484, 517, 559, 619, 735,
];

/// The expected score of a player rated `rating` against `opponent`, from FIDE's
/// table (rule 8.3.2(a)). A difference of more than 400 points counts as 400
/// (rule 8.3.1).
pub fn expected_score(rating: f64, opponent: f64) -> f64 {
    let d = (rating - opponent).clamp(-400.0, 400.0);
    let steps = d.abs().round() as u16;
    let index = PD_UPPER
        .iter()
        .position(|&upper| steps <= upper)
        .unwrap_or(PD_UPPER.len());
    let higher = (50 + index) as f64 / 100.0;
    if d >= 0.0 {
        higher
    } else {
        1.0 - higher
    }
}

/// What FIDE knows about a player when choosing K (rule 8.3.3).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Player {
    /// Current rating.
    pub rating: f64,
    /// Rated games played so far.
    pub games: u32,
    /// Age at the end of the year.
    pub age: u32,
    /// Whether the player has ever reached 2400.
    pub reached_2400: bool,
}

/// The K factor: 40 for a player's first 30 games and, while rated below 2300, until
/// the end of the year of the 18th birthday; 20 below 2400; 10 once 2400 has been
/// reached.
pub fn k_factor(p: &Player) -> f64 {
    if p.games < 30 || (p.age <= 18 && p.rating < 2300.0) {
        40.0
    } else if p.rating < 2400.0 && !p.reached_2400 {
        20.0
    } else {
        10.0
    }
}

/// The rating change for a list of games `(opponent rating, score)`: K × Σ(score −
/// expected). When K × games would exceed 700 in a period, K is the largest whole
/// number for which it does not (rule 8.3.3).
pub fn rating_change(p: &Player, games: &[(f64, f64)]) -> f64 {
    let mut k = k_factor(p);
    let n = games.len() as f64;
    if k * n > 700.0 {
        k = (700.0 / n).floor();
    }
    let sum: f64 = games
        .iter()
        .map(|&(opp, score)| score - expected_score(p.rating, opp))
        .sum();
    k * sum
}

/// FIDE's table 8.1(a): the rating difference `dp` for a percentage score p
/// (in hundredths, 50 to 100).
const DP: [u16; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// `dp` for a fractional score `p` in 0..=1 (p rounded to the hundredth, as FIDE does).
pub fn dp(p: f64) -> f64 {
    let hundredths = (p.clamp(0.0, 1.0) * 100.0).round() as i32;
    let i = (hundredths - 50).unsigned_abs() as usize;
    let value = f64::from(DP[i.min(50)]);
    if hundredths >= 50 {
        value
    } else {
        -value
    }
}

/// The performance rating: the opponents' average plus `dp` for the score fraction.
/// `None` without games.
pub fn performance(games: &[(f64, f64)]) -> Option<f64> {
    if games.is_empty() {
        return None;
    }
    let n = games.len() as f64;
    let average = games.iter().map(|g| g.0).sum::<f64>() / n;
    let score = games.iter().map(|g| g.1).sum::<f64>() / n;
    Some(average + dp(score))
}
