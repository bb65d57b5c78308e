//! Match statistics: the Elo difference a score implies, its 95 % error margin (from
//! the trinomial game results or the pentanomial game-pair results), the likelihood of
//! superiority, and a sequential probability ratio test.
//!
//! Elo here is the logistic model of the rating lists: a player `d` points stronger
//! scores `1 / (1 + 10^(-d/400))` on average.

/// The two-sided 95 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Game results from one player's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Trinomial {
    /// Results from counts.
    pub fn new(wins: u32, draws: u32, losses: u32) -> Trinomial {
        Trinomial {
            wins,
            draws,
            losses,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored (a win is 1, a draw 1/2).
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Mean score per game, in `[0, 1]` (1/2 before any game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / f64::from(n),
        }
    }

    /// Share of drawn games, in `[0, 1]`.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => f64::from(self.draws) / f64::from(n),
        }
    }

    /// The same results seen by the opponent.
    pub fn flipped(&self) -> Trinomial {
        Trinomial::new(self.losses, self.draws, self.wins)
    }

    /// Mean and variance of a single game's score under the observed frequencies.
    fn moments(&self) -> (f64, f64) {
        let outcomes = [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)];
        moments(&outcomes)
    }

    /// The Elo difference these results imply, with its 95 % margin and the LOS.
    pub fn elo(&self) -> EloEstimate {
        let (mean, variance) = self.moments();
        EloEstimate::from_sample(mean, variance, self.games(), los(self.wins, self.losses))
    }
}

/// Results of game pairs (the same opening played with each colour), from one
/// player's point of view: how many pairs scored 0, 1/2, 1, 3/2 and 2 points.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts a pair that scored `points` (0, 0.5, 1, 1.5 or 2).
    pub fn add(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[index] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The Elo difference with a margin from the variance of pair scores, which
    /// accounts for the correlation between the two games of a pair (both played from
    /// the same opening). The LOS is the normal approximation on pair scores.
    pub fn elo(&self) -> EloEstimate {
        let outcomes: Vec<(f64, u32)> = self
            .0
            .iter()
            .enumerate()
            .map(|(i, &count)| (i as f64 / 4.0, count))
            .collect();
        let (mean, variance) = moments(&outcomes);
        let n = self.pairs();
        let los = if n == 0 {
            0.5
        } else if variance <= 0.0 {
            if mean > 0.5 {
                1.0
            } else if mean < 0.5 {
                0.0
            } else {
                0.5
            }
        } else {
            normal_cdf((mean - 0.5) / (variance / f64::from(n)).sqrt())
        };
        EloEstimate::from_sample(mean, variance, n, los)
    }
}

/// Mean and population variance of values with counts.
fn moments(outcomes: &[(f64, u32)]) -> (f64, f64) {
    let n: f64 = outcomes.iter().map(|&(_, c)| f64::from(c)).sum();
    if n == 0.0 {
        return (0.5, 0.0);
    }
    let mean = outcomes.iter().map(|&(x, c)| x * f64::from(c)).sum::<f64>() / n;
    let variance = outcomes
        .iter()
        .map(|&(x, c)| f64::from(c) * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, variance)
}

/// An Elo difference with its uncertainty.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// The most likely Elo difference (infinite after a 100 % or 0 % score).
    pub elo: f64,
    /// Half the width of the 95 % confidence interval, in Elo (infinite when the
    /// interval reaches a 0 % or 100 % score, or when all results are alike so that
    /// the spread is unknown).
    pub margin: f64,
    /// Likelihood of superiority: the probability, in `[0, 1]`, that the player is
    /// the stronger one.
    pub los: f64,
}

impl EloEstimate {
    /// From the mean score, the variance of one sample's score, the number of samples
    /// and the LOS: the interval `mean ± 1.96 σ/√n` transformed to Elo.
    fn from_sample(mean: f64, variance: f64, n: u32, los: f64) -> EloEstimate {
        if n == 0 {
            return EloEstimate {
                elo: 0.0,
                margin: f64::INFINITY,
                los: 0.5,
            };
        }
        if variance <= 0.0 {
            // Every sample alike: no estimate of the spread yet.
            return EloEstimate {
                elo: elo_from_score(mean),
                margin: f64::INFINITY,
                los,
            };
        }
        let deviation = (variance / f64::from(n)).sqrt();
        let low = elo_from_score(mean - Z95 * deviation);
        let high = elo_from_score(mean + Z95 * deviation);
        EloEstimate {
            elo: elo_from_score(mean),
            margin: (high - low) / 2.0,
            los,
        }
    }
}

/// The Elo difference that makes `score` (in `[0, 1]`) the expected score:
/// `-400 log10(1/score - 1)`. Infinite at 0 and 1 (and beyond).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Likelihood of superiority from wins and losses (draws carry no information on
/// who is stronger): `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`.
pub fn los(wins: u32, losses: u32) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let w = f64::from(wins);
    let l = f64::from(losses);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// The cumulative distribution function of the standard normal distribution.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function, to about 1e-15 relative error on the range that matters.
///
/// Its Maclaurin series `2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))` converges everywhere;
/// below |x| = 6 it is summed (the cancellation then costs a few digits at most), and
/// beyond, erf is 1 to double precision.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        return x;
    }
    if x.abs() >= 6.0 {
        return x.signum();
    }
    if x.abs() > 2.5 {
        // 1 - erfc(x) by the continued fraction of erfc, accurate away from zero.
        return x.signum() * (1.0 - erfc_continued_fraction(x.abs()));
    }
    let x2 = x * x;
    let mut term = x; // x^(2n+1) (-1)^n / n!
    let mut sum = x;
    let mut n = 0.0;
    loop {
        n += 1.0;
        term *= -x2 / n;
        let contribution = term / (2.0 * n + 1.0);
        sum += contribution;
        if contribution.abs() <= 1e-17 * sum.abs() || n > 200.0 {
            break;
        }
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

/// erfc(x) for x > 2 by the continued fraction
/// `e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))`, evaluated bottom-up.
fn erfc_continued_fraction(x: f64) -> f64 {
    let mut tail = x;
    for k in (1..=60).rev() {
        tail = x + (f64::from(k) / 2.0) / tail;
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / tail
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis H0.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
}

/// Where a sequential test stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    /// Neither bound crossed: keep playing.
    Continue,
    /// The lower bound was crossed: the difference is at most `elo0`.
    AcceptH0,
    /// The upper bound was crossed: the difference is at least `elo1`.
    AcceptH1,
}

impl SprtStatus {
    /// `H0`, `H1` or `continue`.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0",
            SprtStatus::AcceptH1 => "H1",
        }
    }
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl Sprt {
    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05` (any order; alpha and beta default
    /// to 0.05, elo0 to 0 and elo1 to 10).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("SPRT parameter {part:?} is not key=value"))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("SPRT parameter {part:?}: not a number"))?;
            match key.trim().to_ascii_lowercase().as_str() {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                other => return Err(format!("unknown SPRT parameter {other:?}")),
            }
        }
        if sprt.elo1.partial_cmp(&sprt.elo0) != Some(std::cmp::Ordering::Greater) {
            return Err("SPRT needs elo1 > elo0".to_string());
        }
        let valid = |p: f64| p > 0.0 && p < 0.5;
        if !valid(sprt.alpha) || !valid(sprt.beta) {
            return Err("SPRT alpha and beta must be in (0, 0.5)".to_string());
        }
        Ok(sprt)
    }

    /// The log-likelihood-ratio bounds `(ln(β/(1-α)), ln((1-β)/α))`: below the first H0
    /// is accepted, above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these results, by the generalized
    /// SPRT's normal approximation: with expected scores `s0`, `s1` of the hypotheses
    /// and the sample's mean `x̄` and per-game variance `σ²`,
    /// `LLR = N (s1 - s0) (2x̄ - s0 - s1) / (2σ²)`.
    ///
    /// It is 0 while the variance is 0 (all games with the same result): no estimate
    /// of the spread exists yet, and a tiny regularised one would end the test after a
    /// couple of games.
    pub fn llr(&self, results: &Trinomial) -> f64 {
        let (mean, variance) = results.moments();
        if results.games() == 0 || variance <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        f64::from(results.games()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Whether a bound is crossed.
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_reference_values() {
        // Values from tables of the error function.
        let table = [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (1.5, 0.966_105_146_475_310_7),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (4.0, 0.999_999_984_582_742_1),
        ];
        for (x, want) in table {
            assert!((erf(x) - want).abs() < 1e-13, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + want).abs() < 1e-13);
        }
        assert_eq!(erf(7.0), 1.0);
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-12);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-600.0, -100.0, 0.0, 35.5, 400.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn pentanomial_counts_pairs() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0] {
            p.add(points);
        }
        assert_eq!(p.0, [1, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 6);
        let e = p.elo();
        assert!(e.elo.abs() < 1e-9);
        assert!((e.los - 0.5).abs() < 1e-12);
    }
}
