//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), used the way online
//! servers use it: each game is its own rating period, the deviation grows with the
//! time since the player's last game, and ratings and deviations are kept in bounds.

use serde::{Deserialize, Serialize};

/// The Glicko-2 scale factor between the Glicko and Glicko-2 scales (173.7178).
const SCALE: f64 = 173.7178;

/// A player's Glicko-2 rating on the Glicko scale.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (r).
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// The volatility (σ).
    pub volatility: f64,
}

/// System settings; the defaults are those lichess uses.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// τ, constraining volatility change.
    pub tau: f64,
    /// A new player's rating.
    pub initial_rating: f64,
    /// A new player's deviation (also the largest deviation).
    pub initial_deviation: f64,
    /// A new player's volatility.
    pub initial_volatility: f64,
    /// The smallest deviation kept.
    pub min_deviation: f64,
    /// Ratings stay within these bounds.
    pub min_rating: f64,
    /// Ratings stay within these bounds.
    pub max_rating: f64,
    /// A rating is provisional while its deviation is above this.
    pub provisional_deviation: f64,
    /// How long one rating period lasts, in days (inactivity raises RD per period).
    pub period_days: f64,
    /// Convergence tolerance of the volatility iteration (ε).
    pub epsilon: f64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            tau: 0.75,
            initial_rating: 1500.0,
            initial_deviation: 500.0,
            initial_volatility: 0.09,
            min_deviation: 45.0,
            min_rating: 400.0,
            max_rating: 4000.0,
            provisional_deviation: 110.0,
            period_days: 1.0,
            epsilon: 1e-6,
        }
    }
}

impl Config {
    /// The paper's settings: τ = 0.5, no bounds, new players at 1500/350/0.06.
    pub fn paper() -> Config {
        Config {
            tau: 0.5,
            initial_rating: 1500.0,
            initial_deviation: 350.0,
            initial_volatility: 0.06,
            min_deviation: 0.0,
            min_rating: f64::NEG_INFINITY,
            max_rating: f64::INFINITY,
            provisional_deviation: 110.0,
            period_days: 1.0,
            epsilon: 1e-6,
        }
    }

    /// A new player's rating.
    pub fn new_rating(&self) -> Rating {
        Rating {
            rating: self.initial_rating,
            deviation: self.initial_deviation,
            volatility: self.initial_volatility,
        }
    }

    /// Whether a rating is still provisional.
    pub fn is_provisional(&self, r: &Rating) -> bool {
        r.deviation > self.provisional_deviation
    }

    /// The deviation after `days` without games (step 6 of the paper applied for the
    /// elapsed fraction of periods), capped at the initial deviation.
    pub fn deviation_after(&self, r: &Rating, days: f64) -> f64 {
        let periods = (days / self.period_days).max(0.0);
        let phi = r.deviation / SCALE;
        let grown = (phi * phi + r.volatility * r.volatility * periods).sqrt() * SCALE;
        grown.min(self.initial_deviation)
    }

    /// Rates one player over one rating period with the games `(opponent, score)`
    /// (score 1, 0.5 or 0), exactly as the paper's steps 2–8. With no games only the
    /// deviation grows.
    pub fn rate(&self, player: &Rating, games: &[(Rating, f64)]) -> Rating {
        let mu = (player.rating - 1500.0) / SCALE;
        let phi = player.deviation / SCALE;
        let sigma = player.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return self.bounded(Rating {
                deviation: phi_star * SCALE,
                ..*player
            });
        }
        // Steps 3 and 4: estimated variance v and improvement delta.
        let mut v_inv = 0.0;
        let mut delta_sum = 0.0;
        for (opp, score) in games {
            let mu_j = (opp.rating - 1500.0) / SCALE;
            let phi_j = opp.deviation / SCALE;
            let g = g(phi_j);
            let e = expected(mu, mu_j, phi_j);
            v_inv += g * g * e * (1.0 - e);
            delta_sum += g * (score - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * delta_sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let tau = self.tau;
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        let mut iterations = 0;
        while (big_b - big_a).abs() > self.epsilon && iterations < 1000 {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
            iterations += 1;
        }
        let new_sigma = (big_a / 2.0).exp();
        // Steps 6–8.
        let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * delta_sum;
        self.bounded(Rating {
            rating: new_mu * SCALE + 1500.0,
            deviation: new_phi * SCALE,
            volatility: new_sigma,
        })
    }

    /// Rates both players of one game (one period each), after growing their
    /// deviations for the days since each one's previous game. `score` is the
    /// first player's (1, 0.5, 0).
    pub fn rate_game(
        &self,
        a: &Rating,
        a_idle_days: f64,
        b: &Rating,
        b_idle_days: f64,
        score: f64,
    ) -> (Rating, Rating) {
        // One period is the game itself; inactivity beyond it grows the deviation.
        let a_now = Rating {
            deviation: self.deviation_after(a, (a_idle_days - self.period_days).max(0.0)),
            ..*a
        };
        let b_now = Rating {
            deviation: self.deviation_after(b, (b_idle_days - self.period_days).max(0.0)),
            ..*b
        };
        (
            self.rate(&a_now, &[(b_now, score)]),
            self.rate(&b_now, &[(a_now, 1.0 - score)]),
        )
    }

    /// The expected score of `a` against `b` (both deviations counted).
    pub fn expected_score(&self, a: &Rating, b: &Rating) -> f64 {
        let phi = ((a.deviation.powi(2) + b.deviation.powi(2)).sqrt()) / SCALE;
        expected(
            (a.rating - 1500.0) / SCALE,
            (b.rating - 1500.0) / SCALE,
            phi,
        )
    }

    fn bounded(&self, r: Rating) -> Rating {
        Rating {
            rating: r.rating.clamp(self.min_rating, self.max_rating),
            deviation: r
                .deviation
                .clamp(self.min_deviation, self.initial_deviation),
            volatility: r.volatility,
        }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (core::f64::consts::PI * core::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}
