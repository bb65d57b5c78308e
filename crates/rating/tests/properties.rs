//! Properties of the three rating systems, checked on generated inputs with a fixed
//! seed and fixed case counts.

use caissa_rating::elo::{self, Player};
use caissa_rating::glicko2::{Config, Rating};
use caissa_rating::ladder::{self, change, win_points, Level, Scheme};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0xCA15_5A00),
        ..ProptestConfig::with_cases(cases)
    }
}

fn scheme() -> impl Strategy<Value = Scheme> {
    prop_oneof![Just(Scheme::A), Just(Scheme::B)]
}

/// Ladder points, mostly where players are, sometimes below zero.
fn points() -> impl Strategy<Value = i64> {
    prop_oneof![4 => 0i64..3200, 1 => -300i64..0]
}

/// A pair of ladder points, often close together so that the small-difference
/// branches and their boundaries are hit.
fn pair() -> impl Strategy<Value = (i64, i64)> {
    prop_oneof![
        (points(), points()),
        (points(), -12i64..=12).prop_map(|(a, d)| (a, a + d)),
        (
            points(),
            prop::sample::select(vec![-200, -199, -100, -99, 99, 100, 199, 200])
        )
            .prop_map(|(a, d)| (a, a + d)),
    ]
}

/// A played (non-escape) result.
fn played() -> impl Strategy<Value = ladder::Result> {
    prop_oneof![
        Just(ladder::Result::Win),
        Just(ladder::Result::Draw),
        Just(ladder::Result::Loss),
        Just(ladder::Result::Void),
    ]
}

fn mirror(r: ladder::Result) -> ladder::Result {
    match r {
        ladder::Result::Win => ladder::Result::Loss,
        ladder::Result::Loss => ladder::Result::Win,
        other => other,
    }
}

fn score() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![0.0, 0.5, 1.0])
}

fn elo_player() -> impl Strategy<Value = Player> {
    (1000.0f64..2800.0, 0u32..300, 8u32..80, any::<bool>()).prop_map(
        |(rating, games, age, reached)| Player {
            rating,
            games,
            age,
            reached_2400: reached || rating >= 2400.0,
        },
    )
}

/// A Glicko-2 rating within the default configuration's bounds.
fn glicko() -> impl Strategy<Value = Rating> {
    (400.0f64..=4000.0, 45.0f64..=500.0, 0.04f64..0.12).prop_map(
        |(rating, deviation, volatility)| Rating {
            rating,
            deviation,
            volatility,
        },
    )
}

fn idle() -> impl Strategy<Value = f64> {
    prop_oneof![0.0f64..3.0, 0.0f64..2000.0]
}

// ---------------------------------------------------------------------------
// Ladder.
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn ladder_scheme_a_is_zero_sum((a, b) in pair(), result in played()) {
        let (x, y) = change(Scheme::A, a, b, result);
        prop_assert_eq!(x + y, 0, "{} {} {:?}: ({}, {})", a, b, result, x, y);
    }

    #[test]
    fn ladder_scheme_b_is_zero_sum_except_close_draws((a, b) in pair(), result in played()) {
        let (x, y) = change(Scheme::B, a, b, result);
        if result == ladder::Result::Draw && (a - b).abs() < 10 {
            prop_assert_eq!((x, y), (1, 1));
        } else {
            prop_assert_eq!(x + y, 0, "{} {} {:?}: ({}, {})", a, b, result, x, y);
        }
    }

    #[test]
    fn ladder_swapping_players_mirrors_the_changes(
        s in scheme(), (a, b) in pair(), result in played()
    ) {
        let (x, y) = change(s, a, b, result);
        let (y2, x2) = change(s, b, a, mirror(result));
        prop_assert_eq!((x, y), (x2, y2));
    }

    #[test]
    fn ladder_winner_never_loses_and_loser_never_gains(s in scheme(), (a, b) in pair()) {
        let (w, l) = change(s, a, b, ladder::Result::Win);
        prop_assert!(w >= 0 && l <= 0, "{:?} {} {}: ({}, {})", s, a, b, w, l);
        let (l, w) = change(s, a, b, ladder::Result::Loss);
        prop_assert!(w >= 0 && l <= 0, "{:?} {} {}: ({}, {})", s, a, b, l, w);
        prop_assert!(win_points(s, a, b) >= 0);
    }

    #[test]
    fn ladder_draw_never_costs_the_lower_rated_player(s in scheme(), (a, b) in pair()) {
        let (x, y) = change(s, a, b, ladder::Result::Draw);
        let (lower, higher) = if a <= b { (x, y) } else { (y, x) };
        prop_assert!(lower >= 0, "{:?} {} {}: ({}, {})", s, a, b, x, y);
        if (a - b).abs() >= 10 {
            prop_assert!(higher <= 0, "{:?} {} {}: ({}, {})", s, a, b, x, y);
        }
    }

    #[test]
    fn ladder_a_win_over_more_points_never_gains_less(
        s in scheme(), w in points(), l1 in points(), l2 in points()
    ) {
        let (lo, hi) = if l1 <= l2 { (l1, l2) } else { (l2, l1) };
        prop_assert!(
            win_points(s, w, hi) >= win_points(s, w, lo),
            "{:?} winner {}: {} vs {}", s, w, lo, hi
        );
    }

    #[test]
    fn ladder_escape_costs_three_losses(
        s in scheme(), (a, b) in pair(), moves in 0u32..80
    ) {
        let (x, y) = change(s, a, b, ladder::Result::Escaped { moves });
        let (loss, opponent_win) = change(s, a, b, ladder::Result::Loss);
        prop_assert_eq!(x, 3 * loss);
        if moves > 25 {
            prop_assert_eq!(y, change(s, a, b, ladder::Result::Draw).1);
        } else {
            prop_assert_eq!(y, opponent_win);
        }
    }

    #[test]
    fn ladder_level_is_between_30_and_1_and_climbs_with_points(
        p in -1000i64..5000, q in -1000i64..5000, games in 1u32..1000
    ) {
        let level = |x| match Level::of(x, games) {
            Level::Level(n) => n,
            Level::Unrated => 0,
        };
        let (lp, lq) = (level(p), level(q));
        prop_assert!((1..=30).contains(&lp));
        if p <= q {
            prop_assert!(lq <= lp, "{} -> {}, {} -> {}", p, lp, q, lq);
        }
        if (0..2900).contains(&p) {
            prop_assert_eq!(i64::from(lp), 30 - p / 100);
        }
        prop_assert_eq!(Level::of(p, 0), Level::Unrated);
    }
}

// ---------------------------------------------------------------------------
// Elo.
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn elo_expected_scores_sum_to_one_and_stay_within_the_cap(
        a in 0.0f64..3500.0, b in 0.0f64..3500.0
    ) {
        let (ea, eb) = (elo::expected_score(a, b), elo::expected_score(b, a));
        prop_assert!((ea + eb - 1.0).abs() < 1e-12);
        // The 400-point cap bounds the expectation at the table's 0.08 and 0.92.
        prop_assert!((0.08 - 1e-12..=0.92 + 1e-12).contains(&ea), "{}", ea);
        if a >= b {
            prop_assert!(ea >= 0.5);
        }
    }

    #[test]
    fn elo_win_against_stronger_opponent_gains_at_least_as_much(
        p in elo_player(), o1 in 1000.0f64..2800.0, o2 in 1000.0f64..2800.0
    ) {
        let (weak, strong) = if o1 <= o2 { (o1, o2) } else { (o2, o1) };
        let win = |o| elo::rating_change(&p, &[(o, 1.0)]);
        let loss = |o| elo::rating_change(&p, &[(o, 0.0)]);
        let draw = |o| elo::rating_change(&p, &[(o, 0.5)]);
        prop_assert!(win(strong) >= win(weak), "{} {}", win(strong), win(weak));
        prop_assert!(loss(strong) >= loss(weak), "{} {}", loss(strong), loss(weak));
        prop_assert!(draw(strong) >= draw(weak), "{} {}", draw(strong), draw(weak));
    }

    #[test]
    fn elo_winner_never_loses_and_loser_never_gains(p in elo_player(), o in 0.0f64..3500.0) {
        prop_assert!(elo::rating_change(&p, &[(o, 1.0)]) >= 0.0);
        prop_assert!(elo::rating_change(&p, &[(o, 0.0)]) <= 0.0);
    }

    #[test]
    fn elo_is_zero_sum_for_equal_k(
        a in 1000.0f64..2399.0, b in 1000.0f64..2399.0, s in score()
    ) {
        // Two adults below 2400 with 100 games: both K 20.
        let pa = Player { rating: a, games: 100, age: 40, reached_2400: false };
        let pb = Player { rating: b, games: 100, age: 40, reached_2400: false };
        let sum = elo::rating_change(&pa, &[(b, s)]) + elo::rating_change(&pb, &[(a, 1.0 - s)]);
        prop_assert!(sum.abs() < 1e-9, "{}", sum);
    }

    #[test]
    fn elo_period_change_never_exceeds_700(
        p in elo_player(),
        games in prop::collection::vec((1000.0f64..2800.0, score()), 0..80)
    ) {
        let change = elo::rating_change(&p, &games);
        prop_assert!(change.abs() <= 700.0, "{}", change);
        // Never more than K per game.
        prop_assert!(change.abs() <= elo::k_factor(&p) * games.len() as f64 + 1e-9);
    }

    #[test]
    fn elo_dp_is_antisymmetric_and_increasing(k in 0u32..=100, j in 0u32..=100) {
        let p = f64::from(k) / 100.0;
        let q = f64::from(100 - k) / 100.0;
        prop_assert_eq!(elo::dp(p), -elo::dp(q));
        if k <= j {
            prop_assert!(elo::dp(p) <= elo::dp(f64::from(j) / 100.0));
        }
    }

    #[test]
    fn elo_performance_is_average_plus_dp(
        games in prop::collection::vec((1000.0f64..2800.0, score()), 1..20)
    ) {
        let n = games.len() as f64;
        let average = games.iter().map(|g| g.0).sum::<f64>() / n;
        let fraction = games.iter().map(|g| g.1).sum::<f64>() / n;
        let perf = elo::performance(&games).unwrap();
        prop_assert!((perf - average - elo::dp(fraction)).abs() < 1e-9);
        prop_assert!((average - 800.0 - 1e-9..=average + 800.0 + 1e-9).contains(&perf));
    }
}

// ---------------------------------------------------------------------------
// Glicko-2.
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn glicko2_ratings_and_deviations_stay_within_bounds(
        a in glicko(), b in glicko(), da in idle(), db in idle(), s in score()
    ) {
        let config = Config::default();
        let (a2, b2) = config.rate_game(&a, da, &b, db, s);
        for r in [a2, b2] {
            prop_assert!((400.0..=4000.0).contains(&r.rating), "{:?}", r);
            prop_assert!((45.0..=500.0).contains(&r.deviation), "{:?}", r);
            prop_assert!(r.volatility.is_finite() && r.volatility > 0.0, "{:?}", r);
        }
    }

    #[test]
    fn glicko2_period_with_many_games_stays_within_bounds(
        p in glicko(),
        games in prop::collection::vec((glicko(), score()), 0..40)
    ) {
        let config = Config::default();
        let r = config.rate(&p, &games);
        prop_assert!((400.0..=4000.0).contains(&r.rating), "{:?}", r);
        prop_assert!((45.0..=500.0).contains(&r.deviation), "{:?}", r);
    }

    #[test]
    fn glicko2_deviation_after_grows_with_time_up_to_the_initial(
        r in glicko(), d1 in 0.0f64..5000.0, d2 in 0.0f64..5000.0
    ) {
        let config = Config::default();
        let (short, long) = if d1 <= d2 { (d1, d2) } else { (d2, d1) };
        let (x, y) = (config.deviation_after(&r, short), config.deviation_after(&r, long));
        prop_assert!(x >= r.deviation - 1e-9, "{} < {}", x, r.deviation);
        prop_assert!(y >= x);
        prop_assert!(y <= 500.0);
    }

    #[test]
    fn glicko2_swapping_players_mirrors_the_result(
        a in glicko(), b in glicko(), da in idle(), db in idle(), s in score()
    ) {
        let config = Config::default();
        let (a2, b2) = config.rate_game(&a, da, &b, db, s);
        let (b3, a3) = config.rate_game(&b, db, &a, da, 1.0 - s);
        prop_assert_eq!(a2, a3);
        prop_assert_eq!(b2, b3);
    }

    #[test]
    fn glicko2_winner_never_loses_and_loser_never_gains(
        a in glicko(), b in glicko(), da in idle(), db in idle()
    ) {
        let config = Config::default();
        let (w, l) = config.rate_game(&a, da, &b, db, 1.0);
        prop_assert!(w.rating >= a.rating, "{:?} -> {:?}", a, w);
        prop_assert!(l.rating <= b.rating, "{:?} -> {:?}", b, l);
    }

    #[test]
    fn glicko2_win_against_stronger_opponent_gains_at_least_as_much(
        p in glicko(),
        o1 in 400.0f64..=4000.0,
        o2 in 400.0f64..=4000.0,
        deviation in 45.0f64..=500.0,
        volatility in 0.04f64..0.12,
        s in score(),
    ) {
        let config = Config::default();
        let (weak, strong) = if o1 <= o2 { (o1, o2) } else { (o2, o1) };
        let opponent = |rating| Rating { rating, deviation, volatility };
        let change = |o: f64| config.rate(&p, &[(opponent(o), s)]).rating - p.rating;
        let (against_strong, against_weak) = (change(strong), change(weak));
        // A tiny tolerance for the volatility iteration's ε.
        prop_assert!(
            against_strong >= against_weak - 1e-6,
            "score {}: {} against {}, {} against {}",
            s, against_strong, strong, against_weak, weak
        );
    }

    #[test]
    fn glicko2_draw_between_equals_changes_no_rating(
        r in glicko(), d in idle()
    ) {
        let config = Config::default();
        let (a, b) = config.rate_game(&r, d, &r, d, 0.5);
        // Exact up to the conversion to the Glicko-2 scale and back.
        prop_assert!((a.rating - r.rating).abs() < 1e-9, "{:?} -> {:?}", r, a);
        prop_assert!((b.rating - r.rating).abs() < 1e-9, "{:?} -> {:?}", r, b);
        prop_assert_eq!(a, b);
    }
}
