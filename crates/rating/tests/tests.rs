//! Rating tests.

mod elo;
mod glicko2;
mod ladder;
mod properties;
mod score;

use caissa_rating::glicko2::{Config, Rating};

fn round_to(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f
}

/// Glickman's example: 1500/200/0.06 against 1400/30 (win), 1550/100 (loss) and
/// 1700/300 (loss). The paper works on the Glicko-2 scale rounded to 4 decimals
/// (μ' = −0.2069, φ' = 0.8722, σ' = 0.05999) and converts back: 1464.06 / 151.52.
#[test]
fn glicko2_reproduces_glickmans_worked_example() {
    let config = Config::paper();
    let player = Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let games = [
        (
            Rating {
                rating: 1400.0,
                deviation: 30.0,
                volatility: 0.06,
            },
            1.0,
        ),
        (
            Rating {
                rating: 1550.0,
                deviation: 100.0,
                volatility: 0.06,
            },
            0.0,
        ),
        (
            Rating {
                rating: 1700.0,
                deviation: 300.0,
                volatility: 0.06,
            },
            0.0,
        ),
    ];
    let r = config.rate(&player, &games);
    let mu = round_to((r.rating - 1500.0) / 173.7178, 4);
    let phi = round_to(r.deviation / 173.7178, 4);
    assert_eq!(mu, -0.2069);
    assert_eq!(phi, 0.8722);
    assert!((r.volatility - 0.05999).abs() < 0.00001, "{}", r.volatility);
    assert_eq!(round_to(mu * 173.7178 + 1500.0, 2), 1464.06);
    assert_eq!(round_to(phi * 173.7178, 2), 151.52);
    // Unrounded, the same computation gives 1464.05 and 151.52.
    assert!((r.rating - 1464.05).abs() < 0.01);
    assert!((r.deviation - 151.52).abs() < 0.01);
}
