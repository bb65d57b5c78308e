//! FIDE Elo (FIDE Rating Regulations, B.02, section 8), hand-computed.

use caissa_rating::elo::{dp, expected_score, k_factor, performance, rating_change, Player};

fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance
}

fn adult(rating: f64) -> Player {
    Player {
        rating,
        games: 200,
        age: 40,
        reached_2400: rating >= 2400.0,
    }
}

// ---------------------------------------------------------------------------
// Expected score.
// ---------------------------------------------------------------------------

#[test]
fn elo_expected_score_equal_ratings_is_one_half() {
    assert_eq!(expected_score(1500.0, 1500.0), 0.5);
    assert_eq!(expected_score(2700.0, 2700.0), 0.5);
}

#[test]
fn elo_expected_score_is_symmetric() {
    for (a, b) in [
        (1500.0, 1600.0),
        (2000.0, 1750.0),
        (1200.0, 2400.0),
        (2399.0, 2401.0),
    ] {
        let sum = expected_score(a, b) + expected_score(b, a);
        assert!(close(sum, 1.0, 1e-12), "{a} {b}: {sum}");
    }
    assert!(expected_score(1600.0, 1500.0) > 0.5);
    assert!(expected_score(1500.0, 1600.0) < 0.5);
}

#[test]
fn elo_expected_score_caps_the_difference_at_400() {
    // Ratings below 2650, where the 400-point rule (8.3.1) applies without exception.
    let at_400 = expected_score(2400.0, 2000.0);
    assert_eq!(expected_score(2400.0, 1900.0), at_400);
    assert_eq!(expected_score(2400.0, 1000.0), at_400);
    let at_minus_400 = expected_score(2000.0, 2400.0);
    assert_eq!(expected_score(1900.0, 2400.0), at_minus_400);
    assert_eq!(expected_score(1000.0, 2400.0), at_minus_400);
    // Below the cap the difference still matters (the table steps at 391/392).
    assert!(expected_score(2400.0, 2009.0) < at_400);
    assert!(close(at_400 + at_minus_400, 1.0, 1e-12));
}

/// FIDE table 8.1.2 (8.3.2 a: "Use table 8.1.2 to determine the player's score
/// probability PD"): the higher-rated player's PD for a rating difference D, and
/// the lower-rated player's 1 − PD. The values are printed to two decimals.
#[test]
fn elo_expected_score_follows_fide_table_8_1_2() {
    let table = [
        (0.0, 0.50),
        (3.0, 0.50),
        (4.0, 0.51),
        (10.0, 0.51),
        (50.0, 0.57),
        (100.0, 0.64),
        (150.0, 0.70),
        (200.0, 0.76),
        (250.0, 0.81),
        (300.0, 0.85),
        (350.0, 0.89),
        (392.0, 0.92),
        (400.0, 0.92),
    ];
    let mut wrong = Vec::new();
    for (d, h) in table {
        let high = expected_score(1800.0 + d, 1800.0);
        let low = expected_score(1800.0, 1800.0 + d);
        if !close(high, h, 1e-9) || !close(low, 1.0 - h, 1e-9) {
            wrong.push(format!("D={d}: table {h:.2}, got {high:.4} / {low:.4}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("; "));
}

// ---------------------------------------------------------------------------
// K factor.
// ---------------------------------------------------------------------------

#[test]
fn elo_k_is_40_for_the_first_30_games() {
    for games in [0, 1, 15, 29] {
        let p = Player {
            rating: 1800.0,
            games,
            age: 35,
            reached_2400: false,
        };
        assert_eq!(k_factor(&p), 40.0, "{games} games");
    }
    let p = Player {
        rating: 1800.0,
        games: 30,
        age: 35,
        reached_2400: false,
    };
    assert_eq!(k_factor(&p), 20.0);
}

#[test]
fn elo_k_is_40_for_juniors_under_2300() {
    for age in [8, 12, 17] {
        let p = Player {
            rating: 2299.0,
            games: 150,
            age,
            reached_2400: false,
        };
        assert_eq!(k_factor(&p), 40.0, "age {age}");
    }
    // At 2300 the junior rule stops.
    let p = Player {
        rating: 2300.0,
        games: 150,
        age: 16,
        reached_2400: false,
    };
    assert_eq!(k_factor(&p), 20.0);
}

/// FIDE 8.3.3: "K = 40 for all players until the end of the year of their 18th
/// birthday". `Player::age` is the age at the end of the year, so a player whose
/// age at the end of the year is 18 is in the year of their 18th birthday and
/// still has K = 40; at 19 the junior rule no longer applies.
#[test]
fn elo_k_is_40_until_the_end_of_the_year_of_the_18th_birthday() {
    let mut p = Player {
        rating: 2000.0,
        games: 150,
        age: 18,
        reached_2400: false,
    };
    assert_eq!(k_factor(&p), 40.0, "age 18 at the end of the year");
    p.age = 19;
    assert_eq!(k_factor(&p), 20.0, "age 19 at the end of the year");
}

#[test]
fn elo_k_is_20_below_2400() {
    assert_eq!(k_factor(&adult(1000.0)), 20.0);
    assert_eq!(k_factor(&adult(2300.0)), 20.0);
    assert_eq!(k_factor(&adult(2399.0)), 20.0);
}

#[test]
fn elo_k_is_10_once_2400_was_reached() {
    assert_eq!(k_factor(&adult(2400.0)), 10.0);
    assert_eq!(k_factor(&adult(2750.0)), 10.0);
    // Stays at 10 after dropping below 2400.
    let p = Player {
        rating: 2350.0,
        games: 500,
        age: 40,
        reached_2400: true,
    };
    assert_eq!(k_factor(&p), 10.0);
}

// ---------------------------------------------------------------------------
// Rating change.
// ---------------------------------------------------------------------------

#[test]
fn elo_rating_change_single_games() {
    let p = adult(2000.0);
    // K 20 × (1 − 0.5) = 10.
    assert!(close(rating_change(&p, &[(2000.0, 1.0)]), 10.0, 1e-9));
    assert!(close(rating_change(&p, &[(2000.0, 0.5)]), 0.0, 1e-9));
    assert!(close(rating_change(&p, &[(2000.0, 0.0)]), -10.0, 1e-9));
    // A loss to a 2100: the table gives the lower-rated player 1 − 0.64 = 0.36,
    // so 20 × (0 − 0.36) = −7.2.
    assert!(close(rating_change(&p, &[(2100.0, 0.0)]), -7.2, 1e-9));
    // Win, draw, loss against 2000: the changes cancel.
    let games = [(2000.0, 1.0), (2000.0, 0.5), (2000.0, 0.0)];
    assert!(close(rating_change(&p, &games), 0.0, 1e-9));
    // K 40: a win over an equal opponent is worth 20.
    let junior = Player {
        rating: 1500.0,
        games: 100,
        age: 12,
        reached_2400: false,
    };
    assert!(close(rating_change(&junior, &[(1500.0, 1.0)]), 20.0, 1e-9));
    // No games, no change.
    assert_eq!(rating_change(&p, &[]), 0.0);
}

#[test]
fn elo_rating_change_uses_the_400_cap() {
    let p = adult(2300.0);
    // A loss to a much weaker player costs as if the difference were 400:
    // the table gives 0.92 at D = 400, so 20 × (0 − 0.92) = −18.4.
    let capped = rating_change(&p, &[(1500.0, 0.0)]);
    assert!(close(capped, -18.4, 1e-9), "{capped}");
    assert_eq!(capped, rating_change(&p, &[(1900.0, 0.0)]));
}

#[test]
fn elo_k_times_games_up_to_700_is_not_capped() {
    // K 40 × 17 games = 680: no cap. 17 wins over equal opponents: 40 × 8.5 = 340.
    let new = Player {
        rating: 1600.0,
        games: 0,
        age: 30,
        reached_2400: false,
    };
    let games = vec![(1600.0, 1.0); 17];
    assert!(close(rating_change(&new, &games), 340.0, 1e-9));
    // K 40 × 20 = 800 > 700: K = 35 (a whole number, 35 × 20 = 700). 20 wins: 350.
    let games = vec![(1600.0, 1.0); 20];
    assert!(close(rating_change(&new, &games), 350.0, 1e-9));
    // K 20 × 35 = 700 is not *more* than 700: no cap. 35 wins: 350.
    let games = vec![(2000.0, 1.0); 35];
    assert!(close(rating_change(&adult(2000.0), &games), 350.0, 1e-9));
}

/// FIDE 8.3.3: "If the number of games (n) ... multiplied by K exceeds 700, then K
/// shall be the largest whole number such that K x n does not exceed 700."
#[test]
fn elo_k_cap_is_the_largest_whole_number_with_k_times_n_at_most_700() {
    // K 40, 18 games: 720 > 700, K = 38 (38 × 18 = 684), not 700/18 = 38.89.
    let new = Player {
        rating: 1600.0,
        games: 0,
        age: 30,
        reached_2400: false,
    };
    let wins = vec![(1600.0, 1.0); 18];
    let change = rating_change(&new, &wins);
    assert!(close(change, 38.0 * 9.0, 1e-9), "K 40, 18 wins: {change}");
    // K 20, 36 games: 720 > 700, K = 19 (684), not 19.44.
    let wins = vec![(2000.0, 1.0); 36];
    let change = rating_change(&adult(2000.0), &wins);
    assert!(close(change, 19.0 * 18.0, 1e-9), "K 20, 36 wins: {change}");
}

// ---------------------------------------------------------------------------
// dp and performance.
// ---------------------------------------------------------------------------

#[test]
fn elo_dp_table_spot_values() {
    let cases = [
        (1.0, 800.0),
        (0.99, 677.0),
        (0.92, 401.0),
        (0.90, 366.0),
        (0.80, 240.0),
        (0.75, 193.0),
        (0.67, 125.0),
        (0.60, 72.0),
        (0.51, 7.0),
        (0.50, 0.0),
        (0.49, -7.0),
        (0.40, -72.0),
        (0.25, -193.0),
        (0.10, -366.0),
        (0.01, -677.0),
        (0.0, -800.0),
    ];
    for (p, expected) in cases {
        assert_eq!(dp(p), expected, "p = {p}");
    }
}

#[test]
fn elo_dp_rounds_p_to_the_hundredth() {
    // 2/3 -> 0.67 -> 125; 1/3 -> 0.33 -> -125; 5.5/6 = 0.9166 -> 0.92 -> 401.
    assert_eq!(dp(2.0 / 3.0), 125.0);
    assert_eq!(dp(1.0 / 3.0), -125.0);
    assert_eq!(dp(5.5 / 6.0), 401.0);
    assert_eq!(dp(0.754), 193.0);
}

#[test]
fn elo_performance() {
    assert_eq!(performance(&[]), None);
    // Average 2200, 50 %: 2200.
    let games = [(2000.0, 1.0), (2200.0, 0.5), (2400.0, 0.0)];
    assert_eq!(performance(&games), Some(2200.0));
    // Average 2000, 75 %: 2193.
    let games = [(1900.0, 1.0), (2100.0, 1.0), (1950.0, 0.5), (2050.0, 0.5)];
    assert_eq!(performance(&games), Some(2193.0));
    // Average 2100, 25 %: 1907.
    let games = [(2000.0, 0.0), (2200.0, 0.0), (2100.0, 0.5), (2100.0, 0.5)];
    assert_eq!(performance(&games), Some(1907.0));
    // All wins: average + 800; all losses: average − 800.
    assert_eq!(performance(&[(1500.0, 1.0), (1700.0, 1.0)]), Some(2400.0));
    assert_eq!(performance(&[(1500.0, 0.0), (1700.0, 0.0)]), Some(800.0));
    // 6 of 9 = 0.667 -> 0.67 -> 125, average 2300.
    let mut games = vec![(2300.0, 1.0); 6];
    games.extend([(2300.0, 0.0); 3]);
    assert_eq!(performance(&games), Some(2425.0));
}
