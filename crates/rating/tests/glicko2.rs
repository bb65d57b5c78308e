//! Glicko-2 as online servers use it: defaults, inactivity, provisional ratings,
//! bounds and the one-game entry point.

use caissa_rating::glicko2::{Config, Rating};

fn rating(rating: f64, deviation: f64, volatility: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility,
    }
}

fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance
}

// ---------------------------------------------------------------------------
// Defaults.
// ---------------------------------------------------------------------------

#[test]
fn glicko2_default_new_player_is_1500_500_0_09() {
    let config = Config::default();
    assert_eq!(config.new_rating(), rating(1500.0, 500.0, 0.09));
    assert_eq!(config.tau, 0.75);
    assert_eq!(config.min_deviation, 45.0);
    assert_eq!(config.min_rating, 400.0);
    assert_eq!(config.max_rating, 4000.0);
    assert_eq!(config.provisional_deviation, 110.0);
}

#[test]
fn glicko2_paper_new_player_is_1500_350_0_06_without_bounds() {
    let config = Config::paper();
    assert_eq!(config.new_rating(), rating(1500.0, 350.0, 0.06));
    assert_eq!(config.tau, 0.5);
    assert_eq!(config.min_deviation, 0.0);
    assert_eq!(config.min_rating, f64::NEG_INFINITY);
    assert_eq!(config.max_rating, f64::INFINITY);
}

// ---------------------------------------------------------------------------
// Inactivity.
// ---------------------------------------------------------------------------

#[test]
fn glicko2_deviation_grows_with_inactivity() {
    let config = Config::default();
    let r = rating(1800.0, 100.0, 0.09);
    // σ on the Glicko scale: 0.09 × 173.7178 = 15.6346, squared 244.4408.
    // One day: √(100² + 244.4408) = 101.2148; ten days: √(100² + 2444.408) = 111.5545.
    assert!(close(config.deviation_after(&r, 0.0), 100.0, 1e-9));
    assert!(close(config.deviation_after(&r, 1.0), 101.2148, 1e-4));
    assert!(close(config.deviation_after(&r, 10.0), 111.5545, 1e-4));
    // Half a period grows it half as much (in variance).
    let half = config.deviation_after(&r, 0.5);
    assert!(
        close(half * half, 100.0 * 100.0 + 244.4408 / 2.0, 1e-2),
        "{half}"
    );
    // Negative idle time changes nothing.
    assert!(close(config.deviation_after(&r, -3.0), 100.0, 1e-9));
}

#[test]
fn glicko2_deviation_growth_is_capped_at_the_initial_deviation() {
    let config = Config::default();
    let r = rating(1800.0, 100.0, 0.09);
    // (500² − 100²) / 244.4408 = 981.8 days to reach the cap.
    assert!(config.deviation_after(&r, 900.0) < 500.0);
    assert_eq!(config.deviation_after(&r, 1000.0), 500.0);
    assert_eq!(config.deviation_after(&r, 1e9), 500.0);
    let paper = Config::paper();
    assert_eq!(
        paper.deviation_after(&rating(1500.0, 340.0, 0.06), 1e6),
        350.0
    );
}

#[test]
fn glicko2_deviation_growth_follows_the_period_length() {
    let weekly = Config {
        period_days: 7.0,
        ..Config::default()
    };
    let r = rating(1800.0, 100.0, 0.09);
    // Seven days are one period.
    assert!(close(weekly.deviation_after(&r, 7.0), 101.2148, 1e-4));
}

#[test]
fn glicko2_rating_period_without_games_only_grows_the_deviation() {
    let config = Config::default();
    let r = rating(1800.0, 100.0, 0.09);
    let after = config.rate(&r, &[]);
    assert_eq!(after.rating, 1800.0);
    assert_eq!(after.volatility, 0.09);
    assert!(close(after.deviation, 101.2148, 1e-4));
    // Capped at the initial deviation.
    let new = config.new_rating();
    assert_eq!(config.rate(&new, &[]).deviation, 500.0);
}

// ---------------------------------------------------------------------------
// Provisional ratings.
// ---------------------------------------------------------------------------

#[test]
fn glicko2_provisional_while_deviation_above_110() {
    let config = Config::default();
    assert!(config.is_provisional(&config.new_rating()));
    assert!(config.is_provisional(&rating(1500.0, 110.5, 0.09)));
    assert!(!config.is_provisional(&rating(1500.0, 110.0, 0.09)));
    assert!(!config.is_provisional(&rating(1500.0, 60.0, 0.09)));
}

#[test]
fn glicko2_a_rating_becomes_provisional_again_after_long_inactivity() {
    let config = Config::default();
    let r = rating(2000.0, 80.0, 0.09);
    assert!(!config.is_provisional(&r));
    let later = Rating {
        deviation: config.deviation_after(&r, 365.0),
        ..r
    };
    assert!(config.is_provisional(&later), "{}", later.deviation);
}

// ---------------------------------------------------------------------------
// Bounds.
// ---------------------------------------------------------------------------

#[test]
fn glicko2_rating_is_clamped_at_the_maximum() {
    let config = Config::default();
    let top = rating(3990.0, 500.0, 0.09);
    let (after, _) = config.rate_game(&top, 1.0, &top, 1.0, 1.0);
    assert_eq!(after.rating, 4000.0);
}

#[test]
fn glicko2_rating_is_clamped_at_the_minimum() {
    let config = Config::default();
    let bottom = rating(410.0, 500.0, 0.09);
    let (after, _) = config.rate_game(&bottom, 1.0, &bottom, 1.0, 0.0);
    assert_eq!(after.rating, 400.0);
}

#[test]
fn glicko2_deviation_never_drops_below_the_minimum() {
    let config = Config::default();
    let player = rating(1500.0, 50.0, 0.09);
    let opponent = rating(1500.0, 50.0, 0.09);
    let games = vec![(opponent, 0.5); 300];
    let after = config.rate(&player, &games);
    assert_eq!(after.deviation, 45.0);
    // Without bounds (the paper's settings) the same period goes below 45.
    let paper = Config::paper().rate(&player, &games);
    assert!(paper.deviation < 45.0, "{}", paper.deviation);
}

// ---------------------------------------------------------------------------
// Expected score and single games.
// ---------------------------------------------------------------------------

#[test]
fn glicko2_expected_score() {
    let config = Config::default();
    let a = rating(1700.0, 80.0, 0.09);
    let b = rating(1500.0, 150.0, 0.09);
    let ab = config.expected_score(&a, &b);
    let ba = config.expected_score(&b, &a);
    assert!(ab > 0.5 && ba < 0.5);
    assert!(close(ab + ba, 1.0, 1e-12));
    assert_eq!(config.expected_score(&a, &a), 0.5);
    // Hand computation: φ = √(80² + 150²)/173.7178 = 170/173.7178 = 0.978598,
    // g = 1/√(1 + 3φ²/π²) = 0.880078, E = 1/(1 + e^(−g × 200/173.7178)) = 0.733651.
    assert!(close(ab, 0.733_651, 1e-5), "{ab}");
}

#[test]
fn glicko2_rate_game_rates_both_players_after_their_inactivity() {
    let config = Config::default();
    let a = rating(1650.0, 90.0, 0.085);
    let b = rating(1580.0, 130.0, 0.095);
    let (a_idle, b_idle) = (12.0, 3.0);
    let (a2, b2) = config.rate_game(&a, a_idle, &b, b_idle, 0.0);
    // Each player's deviation first grows for the idle days beyond the game's own
    // period; each is then rated against the other's grown rating.
    let a_now = Rating {
        deviation: config.deviation_after(&a, a_idle - 1.0),
        ..a
    };
    let b_now = Rating {
        deviation: config.deviation_after(&b, b_idle - 1.0),
        ..b
    };
    assert_eq!(a2, config.rate(&a_now, &[(b_now, 0.0)]));
    assert_eq!(b2, config.rate(&b_now, &[(a_now, 1.0)]));
    assert!(a2.rating < a.rating);
    assert!(b2.rating > b.rating);
}

#[test]
fn glicko2_rate_game_within_one_period_is_rate() {
    let config = Config::default();
    let a = rating(1650.0, 90.0, 0.085);
    let b = rating(1580.0, 130.0, 0.095);
    for score in [0.0, 0.5, 1.0] {
        let (a2, b2) = config.rate_game(&a, 1.0, &b, 0.25, score);
        let a3 = config.rate(&a, &[(b, score)]);
        let b3 = config.rate(&b, &[(a, 1.0 - score)]);
        for (x, y) in [(a2, a3), (b2, b3)] {
            assert!(close(x.rating, y.rating, 1e-9), "{x:?} {y:?}");
            assert!(close(x.deviation, y.deviation, 1e-9), "{x:?} {y:?}");
            assert!(close(x.volatility, y.volatility, 1e-12), "{x:?} {y:?}");
        }
    }
}

#[test]
fn glicko2_rate_game_between_new_players() {
    let config = Config::default();
    let new = config.new_rating();
    let (w, l) = config.rate_game(&new, 0.0, &new, 0.0, 1.0);
    assert!(w.rating > 1500.0 && l.rating < 1500.0);
    // Equal players: the changes mirror each other.
    assert!(close(w.rating - 1500.0, 1500.0 - l.rating, 1e-9));
    assert_eq!(w.deviation, l.deviation);
    assert!(w.deviation < 500.0);
    let (d1, d2) = config.rate_game(&new, 0.0, &new, 0.0, 0.5);
    assert_eq!(d1.rating, 1500.0);
    assert_eq!(d2.rating, 1500.0);
}

#[test]
fn glicko2_longer_inactivity_moves_the_rating_further() {
    let config = Config::default();
    let a = rating(1800.0, 60.0, 0.06);
    let b = rating(1800.0, 60.0, 0.06);
    let (fresh, _) = config.rate_game(&a, 1.0, &b, 1.0, 1.0);
    let (rusty, _) = config.rate_game(&a, 200.0, &b, 1.0, 1.0);
    assert!(
        rusty.rating - 1800.0 > fresh.rating - 1800.0,
        "{} vs {}",
        rusty.rating,
        fresh.rating
    );
}
