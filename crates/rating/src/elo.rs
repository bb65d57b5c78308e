//! FIDE Elo (FIDE Rating Regulations, B.02): expected scores with the 400-point
//! rule, the K factor, rating changes and performance ratings.

/// The expected score of a player rated `rating` against `opponent`. A difference
/// of more than 400 points counts as 400 (rule 8.3.1).
pub fn expected_score(rating: f64, opponent: f64) -> f64 {
    let d = (opponent - rating).clamp(-400.0, 400.0);
    1.0 / (1.0 + 10f64.powf(d / 400.0))
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

/// The K factor: 40 for a player's first 30 games and for players under 18 rated
/// below 2300; 20 below 2400; 10 once 2400 has been reached.
pub fn k_factor(p: &Player) -> f64 {
    if p.games < 30 || (p.age < 18 && p.rating < 2300.0) {
        40.0
    } else if p.rating < 2400.0 && !p.reached_2400 {
        20.0
    } else {
        10.0
    }
}

/// The rating change for a list of games `(opponent rating, score)`: K × Σ(score −
/// expected). FIDE caps K × games at 700 for a period, applied here.
pub fn rating_change(p: &Player, games: &[(f64, f64)]) -> f64 {
    let mut k = k_factor(p);
    let n = games.len() as f64;
    if k * n > 700.0 {
        k = 700.0 / n;
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
