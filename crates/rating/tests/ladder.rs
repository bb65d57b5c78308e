//! The ladder of the seed's online game, case by case.
//!
//! Every expected value below is computed by hand from the seed (lines ~163-172 for
//! the table, scheme B, and ~350-352 for the formula, scheme A; ~193-196 for
//! escapes; ~349 for levels). `diff` is the absolute difference of the players'
//! current points; fractional results are rounded half away from zero, as the
//! module documents. Positions are `(first player's points, second player's
//! points)` and the results `(first player's change, second player's change)`.

use caissa_rating::ladder::{change, draw_points, win_points, Level, Result, Scheme};

use Result::{Draw, Escaped, Loss, Void, Win};
use Scheme::{A, B};

// ---------------------------------------------------------------------------
// Scheme A (the formula).
// ---------------------------------------------------------------------------

#[test]
fn ladder_a_draw_diff_under_10_no_points() {
    assert_eq!(change(A, 500, 500, Draw), (0, 0));
    assert_eq!(change(A, 500, 505, Draw), (0, 0));
    assert_eq!(change(A, 509, 500, Draw), (0, 0));
    assert_eq!(draw_points(A, 0, 9), (0, 0));
}

#[test]
fn ladder_a_draw_diff_10_to_99_lower_gets_half_of_10_plus_tenth_of_diff() {
    // diff 40: (10 + 4) / 2 = 7.
    assert_eq!(change(A, 500, 540, Draw), (7, -7));
    assert_eq!(change(A, 540, 500, Draw), (-7, 7));
    // diff 60: (10 + 6) / 2 = 8.
    assert_eq!(change(A, 1000, 1060, Draw), (8, -8));
    // diff 20: (10 + 2) / 2 = 6.
    assert_eq!(draw_points(A, 80, 100), (6, -6));
    // diff 30: (10 + 3) / 2 = 6.5 -> 7.
    assert_eq!(draw_points(A, 100, 130), (7, -7));
}

#[test]
fn ladder_a_draw_diff_100_plus_lower_gets_quarter_of_diff() {
    // diff 240: 60.
    assert_eq!(change(A, 260, 500, Draw), (60, -60));
    assert_eq!(change(A, 500, 260, Draw), (-60, 60));
    // diff 400: 100.
    assert_eq!(draw_points(A, 1000, 600), (-100, 100));
    // diff 130: 32.5 -> 33.
    assert_eq!(draw_points(A, 0, 130), (33, -33));
}

#[test]
fn ladder_a_lower_wins_diff_under_10() {
    assert_eq!(change(A, 500, 505, Win), (10, -10));
    assert_eq!(change(A, 505, 500, Loss), (-10, 10));
    assert_eq!(win_points(A, 491, 500), 10);
}

#[test]
fn ladder_a_lower_wins_diff_10_to_99() {
    // diff 60: 10 + 6 = 16.
    assert_eq!(change(A, 500, 560, Win), (16, -16));
    assert_eq!(change(A, 560, 500, Loss), (-16, 16));
    // diff 45: 10 + 4.5 = 14.5 -> 15.
    assert_eq!(win_points(A, 100, 145), 15);
    // diff 80: 18.
    assert_eq!(win_points(A, 0, 80), 18);
}

#[test]
fn ladder_a_lower_wins_diff_100_plus() {
    // diff 300: 150.
    assert_eq!(change(A, 200, 500, Win), (150, -150));
    assert_eq!(change(A, 500, 200, Loss), (-150, 150));
    // diff 150: 75.
    assert_eq!(win_points(A, 1000, 1150), 75);
    // diff 101: 50.5 -> 51.
    assert_eq!(win_points(A, 1000, 1101), 51);
}

#[test]
fn ladder_a_higher_wins_diff_under_10() {
    assert_eq!(change(A, 505, 500, Win), (10, -10));
    assert_eq!(change(A, 500, 505, Loss), (-10, 10));
    assert_eq!(win_points(A, 509, 500), 10);
}

#[test]
fn ladder_a_higher_wins_diff_10_to_99() {
    // diff 50: 10 - 4 = 6.
    assert_eq!(change(A, 550, 500, Win), (6, -6));
    assert_eq!(change(A, 500, 550, Loss), (-6, 6));
    // diff 25: 10 - 2 = 8.
    assert_eq!(win_points(A, 125, 100), 8);
    // diff 75: 10 - 6 = 4.
    assert_eq!(win_points(A, 175, 100), 4);
    // diff 40: 10 - 3.2 = 6.8 -> 7.
    assert_eq!(win_points(A, 140, 100), 7);
}

#[test]
fn ladder_a_higher_wins_diff_100_to_199() {
    assert_eq!(change(A, 650, 500, Win), (2, -2));
    assert_eq!(change(A, 500, 650, Loss), (-2, 2));
    assert_eq!(win_points(A, 600, 500), 2);
    assert_eq!(win_points(A, 699, 500), 2);
}

#[test]
fn ladder_a_higher_wins_diff_200_plus() {
    assert_eq!(change(A, 700, 500, Win), (0, 0));
    assert_eq!(change(A, 500, 1500, Loss), (0, 0));
    assert_eq!(win_points(A, 3000, 0), 0);
}

#[test]
fn ladder_a_boundary_at_exactly_10() {
    // 9 is "within 10", 10 starts the 10-99 band.
    assert_eq!(draw_points(A, 100, 109), (0, 0));
    // (10 + 1) / 2 = 5.5 -> 6.
    assert_eq!(draw_points(A, 100, 110), (6, -6));
    assert_eq!(win_points(A, 100, 109), 10);
    assert_eq!(win_points(A, 100, 110), 11);
    assert_eq!(win_points(A, 109, 100), 10);
    // 10 - 0.8 = 9.2 -> 9.
    assert_eq!(win_points(A, 110, 100), 9);
}

#[test]
fn ladder_a_boundary_at_99_and_100() {
    // Draw: (10 + 9.9) / 2 = 9.95 -> 10; then 100 / 4 = 25.
    assert_eq!(draw_points(A, 100, 199), (10, -10));
    assert_eq!(draw_points(A, 100, 200), (25, -25));
    // Lower wins: 10 + 9.9 = 19.9 -> 20; then 100 / 2 = 50.
    assert_eq!(win_points(A, 100, 199), 20);
    assert_eq!(win_points(A, 100, 200), 50);
    // Higher wins: 10 - 7.92 = 2.08 -> 2; then 2.
    assert_eq!(win_points(A, 199, 100), 2);
    assert_eq!(win_points(A, 200, 100), 2);
}

#[test]
fn ladder_a_boundary_at_199_and_200() {
    assert_eq!(win_points(A, 399, 200), 2);
    assert_eq!(win_points(A, 400, 200), 0);
    // The lower-rated side is unaffected by the 200 line: diff / 2.
    assert_eq!(win_points(A, 200, 399), 100);
    assert_eq!(win_points(A, 200, 400), 100);
    // Draws: 199 / 4 = 49.75 -> 50; 200 / 4 = 50.
    assert_eq!(draw_points(A, 200, 399), (50, -50));
    assert_eq!(draw_points(A, 200, 400), (50, -50));
}

#[test]
fn ladder_a_rounds_half_points_away_from_zero() {
    // Lower wins diff 15: 11.5 -> 12; diff 25: 12.5 -> 13.
    assert_eq!(win_points(A, 0, 15), 12);
    assert_eq!(win_points(A, 0, 25), 13);
    // Draw diff 50: 7.5 -> 8; diff 90: 9.5 -> 10; diff 102: 25.5 -> 26.
    assert_eq!(draw_points(A, 0, 50), (8, -8));
    assert_eq!(draw_points(A, 90, 0), (-10, 10));
    assert_eq!(draw_points(A, 0, 102), (26, -26));
}

#[test]
fn ladder_a_is_the_default_scheme() {
    assert_eq!(Scheme::default(), A);
}

// ---------------------------------------------------------------------------
// Scheme B (the table).
// ---------------------------------------------------------------------------

#[test]
fn ladder_b_draw_diff_under_10_each_gains_one() {
    assert_eq!(change(B, 500, 500, Draw), (1, 1));
    assert_eq!(change(B, 500, 509, Draw), (1, 1));
    assert_eq!(change(B, 509, 500, Draw), (1, 1));
}

#[test]
fn ladder_b_draw_diff_10_to_99_lower_plus_5_higher_minus_5() {
    assert_eq!(change(B, 500, 550, Draw), (5, -5));
    assert_eq!(change(B, 550, 500, Draw), (-5, 5));
    assert_eq!(draw_points(B, 0, 99), (5, -5));
}

#[test]
fn ladder_b_draw_diff_100_plus_lower_plus_10_higher_minus_10() {
    assert_eq!(change(B, 500, 700, Draw), (10, -10));
    assert_eq!(change(B, 1700, 500, Draw), (-10, 10));
}

#[test]
fn ladder_b_lower_wins_diff_under_10() {
    assert_eq!(change(B, 500, 505, Win), (10, -10));
    assert_eq!(change(B, 505, 500, Loss), (-10, 10));
}

#[test]
fn ladder_b_lower_wins_diff_10_to_99() {
    assert_eq!(change(B, 500, 560, Win), (15, -15));
    assert_eq!(change(B, 560, 500, Loss), (-15, 15));
}

#[test]
fn ladder_b_lower_wins_diff_100_plus() {
    assert_eq!(change(B, 500, 800, Win), (20, -20));
    assert_eq!(change(B, 2000, 500, Loss), (-20, 20));
}

#[test]
fn ladder_b_higher_wins_diff_under_10() {
    assert_eq!(change(B, 505, 500, Win), (10, -10));
    assert_eq!(change(B, 500, 505, Loss), (-10, 10));
}

#[test]
fn ladder_b_higher_wins_diff_10_to_99() {
    assert_eq!(change(B, 550, 500, Win), (5, -5));
    assert_eq!(change(B, 500, 550, Loss), (-5, 5));
}

#[test]
fn ladder_b_higher_wins_diff_100_to_199() {
    assert_eq!(change(B, 650, 500, Win), (3, -3));
    assert_eq!(change(B, 500, 650, Loss), (-3, 3));
}

#[test]
fn ladder_b_higher_wins_diff_200_plus() {
    assert_eq!(change(B, 700, 500, Win), (1, -1));
    assert_eq!(change(B, 500, 1500, Loss), (-1, 1));
}

#[test]
fn ladder_b_boundary_at_exactly_10() {
    assert_eq!(draw_points(B, 100, 109), (1, 1));
    assert_eq!(draw_points(B, 100, 110), (5, -5));
    assert_eq!(win_points(B, 100, 109), 10);
    assert_eq!(win_points(B, 100, 110), 15);
    assert_eq!(win_points(B, 109, 100), 10);
    assert_eq!(win_points(B, 110, 100), 5);
}

#[test]
fn ladder_b_boundary_at_99_and_100() {
    assert_eq!(draw_points(B, 100, 199), (5, -5));
    assert_eq!(draw_points(B, 100, 200), (10, -10));
    assert_eq!(win_points(B, 100, 199), 15);
    assert_eq!(win_points(B, 100, 200), 20);
    assert_eq!(win_points(B, 199, 100), 5);
    assert_eq!(win_points(B, 200, 100), 3);
}

#[test]
fn ladder_b_boundary_at_199_and_200() {
    assert_eq!(win_points(B, 399, 200), 3);
    assert_eq!(win_points(B, 400, 200), 1);
    assert_eq!(win_points(B, 200, 399), 20);
    assert_eq!(win_points(B, 200, 400), 20);
    assert_eq!(draw_points(B, 200, 399), (10, -10));
    assert_eq!(draw_points(B, 200, 400), (10, -10));
}

// ---------------------------------------------------------------------------
// Escapes and void games.
// ---------------------------------------------------------------------------

#[test]
fn ladder_escape_equal_points_costs_three_losses_opponent_scored_as_win() {
    // Equal points: a loss costs 10, so escaping costs 30; the opponent gets a win's 10.
    assert_eq!(change(A, 500, 500, Escaped { moves: 0 }), (-30, 10));
    assert_eq!(change(A, 500, 500, Escaped { moves: 10 }), (-30, 10));
    assert_eq!(change(B, 500, 500, Escaped { moves: 10 }), (-30, 10));
}

#[test]
fn ladder_escape_after_exactly_25_moves_still_scores_opponent_as_win() {
    // "超过25回合" is *more than* 25: at 25 the opponent is still scored as a winner.
    assert_eq!(change(A, 500, 500, Escaped { moves: 25 }), (-30, 10));
    assert_eq!(change(B, 500, 500, Escaped { moves: 25 }), (-30, 10));
}

#[test]
fn ladder_escape_after_more_than_25_moves_scores_opponent_as_draw() {
    // Equal points: a scheme A draw gives nothing, a scheme B draw gives each +1.
    assert_eq!(change(A, 500, 500, Escaped { moves: 26 }), (-30, 0));
    assert_eq!(change(B, 500, 500, Escaped { moves: 26 }), (-30, 1));
    assert_eq!(change(B, 500, 500, Escaped { moves: 80 }), (-30, 1));
}

#[test]
fn ladder_escape_by_higher_rated_player() {
    // 500 escapes against 300 (diff 200). Scheme A: the lower side's win would be
    // worth 200 / 2 = 100, so escaping costs 300. Scheme B: a lower win is 20 -> 60.
    assert_eq!(change(A, 500, 300, Escaped { moves: 12 }), (-300, 100));
    assert_eq!(change(B, 500, 300, Escaped { moves: 12 }), (-60, 20));
    // After 25 moves the opponent is scored as for a draw: lower +200/4 = 50 in
    // scheme A, lower +10 in scheme B.
    assert_eq!(change(A, 500, 300, Escaped { moves: 40 }), (-300, 50));
    assert_eq!(change(B, 500, 300, Escaped { moves: 40 }), (-60, 10));
}

#[test]
fn ladder_escape_by_lower_rated_player() {
    // 450 escapes against 500 (diff 50). A higher-rated win would be worth
    // 10 - 50/12.5 = 6 (scheme A) or 5 (scheme B).
    assert_eq!(change(A, 450, 500, Escaped { moves: 5 }), (-18, 6));
    assert_eq!(change(B, 450, 500, Escaped { moves: 5 }), (-15, 5));
    // After more than 25 moves the (higher-rated) opponent is scored as for a
    // draw, which for the higher side is (10 + 5) / 2 = 7.5 -> -8 (A) or -5 (B).
    assert_eq!(change(A, 450, 500, Escaped { moves: 26 }), (-18, -8));
    assert_eq!(change(B, 450, 500, Escaped { moves: 26 }), (-15, -5));
}

#[test]
fn ladder_void_changes_nothing() {
    for scheme in [A, B] {
        for (a, b) in [
            (0, 0),
            (500, 505),
            (500, 560),
            (500, 800),
            (800, 500),
            (0, 3000),
        ] {
            assert_eq!(change(scheme, a, b, Void), (0, 0), "{scheme:?} {a} {b}");
        }
    }
}

// ---------------------------------------------------------------------------
// Levels.
// ---------------------------------------------------------------------------

#[test]
fn ladder_level_unrated_before_the_first_game() {
    assert_eq!(Level::of(0, 0), Level::Unrated);
    assert_eq!(Level::of(500, 0), Level::Unrated);
    assert_eq!(Level::of(0, 0).to_string(), "unrated");
}

#[test]
fn ladder_level_30_at_0_to_99_points() {
    assert_eq!(Level::of(0, 1), Level::Level(30));
    assert_eq!(Level::of(50, 3), Level::Level(30));
    assert_eq!(Level::of(99, 10), Level::Level(30));
    assert_eq!(Level::of(0, 1).to_string(), "level 30");
}

#[test]
fn ladder_level_climbs_one_per_100_points() {
    assert_eq!(Level::of(100, 1), Level::Level(29));
    assert_eq!(Level::of(199, 1), Level::Level(29));
    assert_eq!(Level::of(200, 1), Level::Level(28));
    assert_eq!(Level::of(1500, 40), Level::Level(15));
    assert_eq!(Level::of(2899, 400), Level::Level(2));
    assert_eq!(Level::of(2900, 400), Level::Level(1));
    assert_eq!(Level::of(2900, 400).to_string(), "level 1");
}

#[test]
fn ladder_level_never_above_1() {
    assert_eq!(Level::of(2999, 500), Level::Level(1));
    assert_eq!(Level::of(3000, 500), Level::Level(1));
    assert_eq!(Level::of(1_000_000, 500), Level::Level(1));
}

#[test]
fn ladder_level_negative_points_stay_at_30() {
    // Points can go below zero (losses from 0); the level cannot go below 30.
    assert_eq!(Level::of(-1, 5), Level::Level(30));
    assert_eq!(Level::of(-450, 5), Level::Level(30));
}
