//! The chess clock (Laws 6): press semantics, increments, delays, periods, the
//! per-move limit, correspondence, pauses and the arbiter's corrections — on the bare
//! `Clock` and through a `Game`.

use caissa_arbiter::{
    ActionError, ArbiterAction, Clock, ClockError, Delay, EventKind, GameResult, Ruleset, Status,
    Termination, TimeControl,
};
use caissa_rules::Color::{Black, White};

use crate::support::*;

fn running_clock(control: TimeControl) -> Clock {
    let mut clock = Clock::new(control);
    clock.start(White, 0).unwrap();
    clock
}

fn parse(text: &str) -> TimeControl {
    TimeControl::parse(text).unwrap()
}

// ---- starting the clock ----

#[test]
fn art_6_6_white_clock_starts_at_the_start_of_the_game() {
    let game = caissa_arbiter::Game::new(
        setup(Ruleset::FideStandard, TimeControl::fischer(5 * MINUTE, 0)),
        7_000,
    )
    .unwrap();
    assert_eq!(
        kinds(game.events()),
        vec![EventKind::Started, EventKind::ClockStarted { color: White }]
    );
    assert_eq!(game.events()[0].at, 7_000);
    assert_eq!(game.clock().running(), Some(White));
    // White's time runs before any move is made.
    assert_eq!(game.clock().remaining(White, 67_000), 4 * MINUTE);
    assert_eq!(game.clock().remaining(Black, 67_000), 5 * MINUTE);
}

#[test]
fn art_6_6_game_from_a_position_with_black_to_move_starts_black_clock() {
    let game = new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(5 * MINUTE, 0),
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
    );
    assert_eq!(game.clock().running(), Some(Black));
}

#[test]
fn online_clock_starts_after_both_first_moves() {
    let mut game = new_game(Ruleset::Online, TimeControl::fischer(10 * SECOND, 0));
    assert_eq!(kinds(game.events()), vec![EventKind::Started]);
    assert_eq!(game.clock().running(), None);
    // Only the first-move limit (bullet: 20 s) runs, not the clock.
    assert_eq!(game.next_deadline(0), Some(20 * SECOND));
    // White thinks longer than the whole game time: no flag before the clock runs.
    mv(&mut game, "e4", 15 * SECOND);
    assert_eq!(game.clock().running(), None);
    mv(&mut game, "e5", 30 * SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(game.clock().running(), Some(White));
    assert_eq!(
        game.events().last().unwrap().kind,
        EventKind::ClockStarted { color: White }
    );
    assert_eq!(game.events().last().unwrap().at, 30 * SECOND);
    assert_eq!(game.clock().remaining(White, 32 * SECOND), 8 * SECOND);
    assert_eq!(game.clock().remaining(Black, 32 * SECOND), 10 * SECOND);
    assert_eq!(game.next_deadline(0), Some(40 * SECOND + 1));
}

#[test]
fn unlimited_game_has_no_clock_and_no_flag() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::unlimited());
    assert_eq!(kinds(game.events()), vec![EventKind::Started]);
    mv(&mut game, "e4", 10 * DAY);
    assert_eq!(game.tick(100 * DAY).unwrap(), 0);
    assert_eq!(game.finish(), None);
    assert_eq!(game.next_deadline(0), None);
    assert_eq!(game.move_clocks(), &[None]);
}

// ---- pressing ----

#[test]
fn art_6_2_1_press_charges_the_time_since_the_turn_began() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    clock.press(White, 10 * SECOND).unwrap();
    assert_eq!(clock.side(White).remaining_ms, 50 * SECOND);
    assert_eq!(clock.side(White).used_ms, 10 * SECOND);
    assert_eq!(clock.side(White).moves, 1);
    assert_eq!(clock.running(), Some(Black));
    clock.press(Black, 25 * SECOND).unwrap();
    assert_eq!(clock.side(Black).remaining_ms, 45 * SECOND);
    assert_eq!(clock.side(White).remaining_ms, 50 * SECOND);
    assert_eq!(clock.running(), Some(White));
}

#[test]
fn art_6_1_only_the_running_clock_moves() {
    let clock = running_clock(TimeControl::fischer(MINUTE, 0));
    assert_eq!(clock.remaining(White, 15 * SECOND), 45 * SECOND);
    assert_eq!(clock.remaining(Black, 15 * SECOND), MINUTE);
    assert_eq!(clock.flag(2 * MINUTE), Some(White));
}

#[test]
fn art_6_2_only_the_player_whose_clock_runs_can_press() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    assert_eq!(
        clock.press(Black, SECOND),
        Err(ClockError::NotRunning("black"))
    );
    let mut stopped = Clock::new(TimeControl::fischer(MINUTE, 0));
    assert!(matches!(
        stopped.press(White, SECOND),
        Err(ClockError::NotRunning(_))
    ));
    // Nothing changed.
    assert_eq!(clock.running(), Some(White));
    assert_eq!(clock.side(Black).remaining_ms, MINUTE);
}

#[test]
fn art_6_3_1_fischer_increment_is_added_after_each_move() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 2 * SECOND));
    clock.press(White, 10 * SECOND).unwrap();
    assert_eq!(clock.side(White).remaining_ms, 52 * SECOND);
    assert_eq!(clock.side(White).credited_ms, 62 * SECOND);
    clock.press(Black, 11 * SECOND).unwrap();
    assert_eq!(clock.side(Black).remaining_ms, 61 * SECOND);
    // The increment comes only with the press, not while thinking.
    assert_eq!(clock.remaining(White, 13 * SECOND), 50 * SECOND);
}

#[test]
fn art_6_3_2_unused_time_carries_into_next_period() {
    // Two moves in 60 s, then 30 s for the rest.
    let mut clock = running_clock(parse("2/60:30"));
    clock.press(White, 10 * SECOND).unwrap();
    clock.press(Black, 20 * SECOND).unwrap();
    assert_eq!(clock.side(White).period, 0);
    clock.press(White, 30 * SECOND).unwrap();
    // 20 s used of 60: the 40 s left carry over and the 30 s are added.
    assert_eq!(clock.side(White).remaining_ms, 70 * SECOND);
    assert_eq!(clock.side(White).period, 1);
    assert_eq!(clock.side(Black).remaining_ms, 50 * SECOND);
    assert_eq!(clock.side(Black).period, 0);
}

#[test]
fn art_6_3_2_each_period_adds_its_time_once_its_moves_are_done() {
    let mut clock = running_clock(parse("2/60:2/30:10"));
    let mut now = 0;
    let mut after = Vec::new();
    for _ in 0..6 {
        now += SECOND;
        clock.press(White, now).unwrap();
        after.push(clock.side(White).remaining_ms / SECOND);
        now += SECOND;
        clock.press(Black, now).unwrap();
    }
    // Moves 1–2 in the first period, 3–4 in the second, 5 on in the third (no more
    // time after it).
    assert_eq!(after, vec![59, 88, 87, 96, 95, 94]);
    assert_eq!(clock.side(White).period, 2);
    assert_eq!(clock.side(White).credited_ms, 100 * SECOND);
}

#[test]
fn art_6_3_2_increment_belongs_to_the_period_of_the_move() {
    let mut clock = running_clock(parse("2/60+1:30+5"));
    let mut now = 0;
    let mut after = Vec::new();
    for _ in 0..3 {
        now += SECOND;
        clock.press(White, now).unwrap();
        after.push(clock.side(White).remaining_ms / SECOND);
        now += SECOND;
        clock.press(Black, now).unwrap();
    }
    assert_eq!(after, vec![60, 90, 94]);
}

#[test]
fn art_6_3_2_simple_delay_main_time_runs_only_after_the_delay() {
    let mut clock = running_clock(TimeControl::with_delay(MINUTE, Delay::Simple(5 * SECOND)));
    // During the delay the display does not move.
    assert_eq!(clock.remaining(White, 3 * SECOND), MINUTE);
    assert_eq!(clock.remaining(White, 7 * SECOND), 58 * SECOND);
    // Pressed before the delay ran out: the main time is unchanged.
    clock.press(White, 4 * SECOND).unwrap();
    assert_eq!(clock.side(White).remaining_ms, MINUTE);
    clock.press(Black, 12 * SECOND).unwrap();
    assert_eq!(clock.side(Black).remaining_ms, 57 * SECOND);
    // No saving: the unused delay is not added to the main time.
    clock.press(White, 13 * SECOND).unwrap();
    assert_eq!(clock.side(White).remaining_ms, MINUTE);
}

#[test]
fn bronstein_delay_gives_back_the_time_used_up_to_the_delay() {
    let mut clock = running_clock(TimeControl::with_delay(
        MINUTE,
        Delay::Bronstein(5 * SECOND),
    ));
    // The display runs at once.
    assert_eq!(clock.remaining(White, 3 * SECOND), 57 * SECOND);
    clock.press(White, 3 * SECOND).unwrap();
    assert_eq!(clock.side(White).remaining_ms, MINUTE);
    clock.press(Black, 11 * SECOND).unwrap();
    assert_eq!(clock.side(Black).remaining_ms, 57 * SECOND);
}

#[test]
fn bronstein_flag_falls_when_the_display_reaches_zero_simple_delay_after_the_delay() {
    let base = 10 * SECOND;
    let delay = 5 * SECOND;
    let simple = running_clock(TimeControl::with_delay(base, Delay::Simple(delay)));
    let bronstein = running_clock(TimeControl::with_delay(base, Delay::Bronstein(delay)));
    // 12 s into the move: the simple-delay player still has 3 s of main time.
    assert_eq!(simple.flag(12 * SECOND), None);
    assert_eq!(simple.remaining(White, 12 * SECOND), 3 * SECOND);
    assert_eq!(bronstein.flag(12 * SECOND), Some(White));
    assert_eq!(bronstein.remaining(White, 12 * SECOND), 0);
    assert_eq!(bronstein.flag(9 * SECOND), None);
    assert_eq!(simple.flag(15 * SECOND + 1), Some(White));
    let (s, b) = (simple.flag_time().unwrap(), bronstein.flag_time().unwrap());
    assert_eq!(s - b, delay);
    assert!(b > base && b <= base + 1);
}

#[test]
fn per_move_limit_flags_even_with_game_time_left() {
    let mut clock = running_clock(TimeControl::fast(10 * MINUTE, 30 * SECOND, 0));
    assert_eq!(clock.move_time_left(10 * SECOND), Some(20 * SECOND));
    assert_eq!(clock.flag(29 * SECOND), None);
    assert_eq!(clock.flag(31 * SECOND), Some(White));
    assert!(clock.remaining(White, 31 * SECOND) > 9 * MINUTE);
    // Each move gets the full limit again.
    clock.press(White, 20 * SECOND).unwrap();
    assert_eq!(clock.move_time_left(20 * SECOND), Some(30 * SECOND));
    assert_eq!(clock.flag(49 * SECOND), None);
    assert_eq!(clock.flag(51 * SECOND), Some(Black));
}

#[test]
fn per_move_limit_flag_time_is_the_earlier_of_the_two_limits() {
    let clock = running_clock(TimeControl::fast(20 * SECOND, 30 * SECOND, 0));
    assert_eq!(clock.flag(21 * SECOND), Some(White));
    let clock = running_clock(TimeControl::fast(MINUTE, 30 * SECOND, 0));
    let t = clock.flag_time().unwrap();
    assert!(t > 30 * SECOND && t <= 30 * SECOND + 1);
}

#[test]
fn fast_mode_adds_increment_and_match_mode_does_not() {
    let mut fast = running_clock(TimeControl::fast(MINUTE, 30 * SECOND, 3 * SECOND));
    fast.press(White, 10 * SECOND).unwrap();
    assert_eq!(fast.side(White).remaining_ms, 53 * SECOND);
    let mut matched = running_clock(TimeControl::match_mode(MINUTE, 30 * SECOND));
    matched.press(White, 10 * SECOND).unwrap();
    assert_eq!(matched.side(White).remaining_ms, 50 * SECOND);
}

#[test]
fn correspondence_gives_days_per_move() {
    let mut clock = running_clock(TimeControl::correspondence(3));
    assert_eq!(clock.move_time_left(DAY), Some(2 * DAY));
    assert_eq!(clock.flag(3 * DAY - 1), None);
    assert_eq!(clock.flag(3 * DAY + 1), Some(White));
    clock.press(White, 2 * DAY).unwrap();
    // The reply has three full days again.
    assert_eq!(clock.move_time_left(2 * DAY), Some(3 * DAY));
    assert_eq!(clock.flag(5 * DAY - 1), None);
    assert_eq!(clock.flag(5 * DAY + 1), Some(Black));
}

#[test]
fn correspondence_game_is_lost_when_the_days_run_out() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::correspondence(2));
    mv(&mut game, "e4", DAY);
    mv(&mut game, "e5", 2 * DAY);
    assert_eq!(game.next_deadline(0), Some(4 * DAY + 1));
    assert_eq!(game.tick(4 * DAY).unwrap(), 0);
    game.tick(4 * DAY + 1).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

// ---- pauses ----

#[test]
fn art_6_11_paused_time_is_not_charged() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    clock.pause(10 * SECOND).unwrap();
    assert!(clock.is_paused());
    assert_eq!(clock.remaining(White, 40 * SECOND), 50 * SECOND);
    assert_eq!(clock.flag(10 * MINUTE), None);
    assert_eq!(clock.flag_time(), None);
    clock.resume(70 * SECOND).unwrap();
    assert_eq!(clock.remaining(White, 75 * SECOND), 45 * SECOND);
    clock.press(White, 80 * SECOND).unwrap();
    assert_eq!(clock.side(White).used_ms, 20 * SECOND);
    assert_eq!(clock.side(White).remaining_ms, 40 * SECOND);
}

#[test]
fn art_6_11_pressing_a_paused_clock_is_refused() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    clock.pause(10 * SECOND).unwrap();
    assert_eq!(clock.press(White, 20 * SECOND), Err(ClockError::Paused));
    assert_eq!(clock.running(), Some(White));
}

#[test]
fn art_6_11_arbiter_pause_in_a_game_is_not_charged_and_blocks_moves() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(10 * MINUTE, 0));
    mv(&mut game, "e4", 10 * SECOND);
    arbiter(&mut game, ArbiterAction::Pause, 20 * SECOND);
    assert_eq!(game.status(), Status::Paused);
    assert_eq!(game.next_deadline(0), None);
    let refused = try_mv(&mut game, "e5", 30 * SECOND);
    assert!(matches!(refused, Err(ActionError::NotAllowed(_))));
    assert!(matches!(
        game.arbiter(ArbiterAction::Pause, 40 * SECOND),
        Err(ActionError::NotAllowed(_))
    ));
    // A whole hour of pause would flag Black if it were charged.
    arbiter(&mut game, ArbiterAction::Resume, 3_620 * SECOND);
    assert_eq!(game.status(), Status::WaitingForFirstMoves);
    mv(&mut game, "e5", 3_625 * SECOND);
    // Black thought 10 s before the pause and 5 s after.
    assert_eq!(
        game.clock().side(Black).remaining_ms,
        10 * MINUTE - 15 * SECOND
    );
    assert!(matches!(
        game.arbiter(ArbiterAction::Resume, 3_630 * SECOND),
        Err(ActionError::NotAllowed(_))
    ));
}

// ---- time going backwards ----

#[test]
fn clock_refuses_time_going_backwards() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    clock.press(White, 10 * SECOND).unwrap();
    assert_eq!(
        clock.press(Black, 9 * SECOND),
        Err(ClockError::TimeWentBack {
            now: 9 * SECOND,
            last: 10 * SECOND
        })
    );
    assert!(matches!(
        clock.pause(5 * SECOND),
        Err(ClockError::TimeWentBack { .. })
    ));
    // Nothing changed.
    assert_eq!(clock.running(), Some(Black));
    assert!(!clock.is_paused());
}

#[test]
fn game_refuses_time_going_backwards() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    mv(&mut game, "e4", 10 * SECOND);
    let before = game.events().len();
    let err = try_mv(&mut game, "e5", 9 * SECOND).unwrap_err();
    assert!(matches!(
        err,
        ActionError::Clock(ClockError::TimeWentBack { .. })
    ));
    assert!(game.tick(5 * SECOND).is_err());
    assert!(game.arbiter(ArbiterAction::Pause, 5 * SECOND).is_err());
    assert_eq!(game.events().len(), before);
    mv(&mut game, "e5", 11 * SECOND);
}

// ---- flags ----

#[test]
fn art_6_9_flag_fall_is_found_at_any_later_time() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    mv(&mut game, "e4", 10 * SECOND);
    // Black's flag falls 60 s after 10 s; nobody looks until much later.
    let deadline = game.next_deadline(0).unwrap();
    assert!(deadline > 70 * SECOND && deadline <= 70 * SECOND + 1);
    assert_eq!(game.tick(deadline - 1).unwrap(), 0);
    assert_eq!(game.finish(), None);
    assert_eq!(game.tick(10 * DAY).unwrap(), 1);
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::TimeForfeit)
    );
    assert_eq!(game.clock().side(Black).remaining_ms, 0);
    assert_eq!(game.clock().running(), None);
    // A move after the flag is too late.
    assert_eq!(
        try_mv(&mut game, "e5", 10 * DAY + 1),
        Err(ActionError::GameOver)
    );
}

#[test]
fn art_6_9_move_after_flag_fall_is_refused_and_the_flag_recorded() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    let result = try_mv(&mut game, "e4", 61 * SECOND);
    assert_eq!(result, Err(ActionError::GameOver));
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
    assert!(game.line().moves().is_empty());
}

#[test]
fn next_deadline_ends_the_game_exactly_when_ticked() {
    let mut game = new_game(
        Ruleset::FideStandard,
        TimeControl::fischer(MINUTE, 2 * SECOND),
    );
    mv(&mut game, "e4", 10 * SECOND);
    mv(&mut game, "e5", 20 * SECOND);
    // White has 52 s from 20 s.
    let deadline = game.next_deadline(0).unwrap();
    assert!(deadline > 72 * SECOND && deadline <= 72 * SECOND + 1);
    assert_eq!(game.tick(deadline - 1).unwrap(), 0);
    assert_eq!(game.tick(deadline).unwrap(), 1);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
    assert_eq!(game.next_deadline(0), None);
}

// ---- the arbiter's corrections ----

#[test]
fn art_12_9_arbiter_adds_time() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    clock.adjust(Black, 2 * MINUTE as i64, 0);
    assert_eq!(clock.remaining(Black, 5 * SECOND), 3 * MINUTE);
    assert_eq!(clock.side(Black).credited_ms, 3 * MINUTE);
    // Adding to the running side shows at once.
    clock.adjust(White, 30 * SECOND as i64, 0);
    assert_eq!(clock.remaining(White, 10 * SECOND), 80 * SECOND);
}

#[test]
fn art_12_9_arbiter_removes_time_but_never_below_zero() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    clock.adjust(Black, -(20 * SECOND as i64), 0);
    assert_eq!(clock.remaining(Black, 0), 40 * SECOND);
    assert_eq!(clock.side(Black).debited_ms, 20 * SECOND);
    clock.adjust(Black, -(100 * MINUTE as i64), 0);
    assert_eq!(clock.remaining(Black, 0), 0);
    assert_eq!(clock.side(Black).debited_ms, MINUTE);
}

#[test]
fn art_12_9_removing_more_than_is_shown_debits_only_what_was_shown() {
    // 50 s into White's turn the display shows 10 s; the arbiter removes 30 s. The
    // clock cannot go below zero, so only the 10 s shown are taken: the other 50 s
    // are time White used thinking.
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    let shown = clock.remaining(White, 50 * SECOND);
    assert_eq!(shown, 10 * SECOND);
    clock.adjust(White, -(30 * SECOND as i64), 50 * SECOND);
    assert_eq!(clock.remaining(White, 50 * SECOND), 0);
    clock.stop(50 * SECOND);
    let side = clock.side(White);
    assert_eq!(
        (side.used_ms, side.debited_ms),
        (50 * SECOND, shown),
        "White thought 50 s; the arbiter could take only the 10 s shown"
    );
}

#[test]
fn art_6_10_arbiter_sets_a_clock_display() {
    let mut clock = running_clock(TimeControl::with_delay(MINUTE, Delay::Simple(2 * SECOND)));
    clock.set_remaining(White, 30 * SECOND, 20 * SECOND);
    assert_eq!(clock.remaining(White, 20 * SECOND), 30 * SECOND);
    assert_eq!(clock.remaining(White, 25 * SECOND), 25 * SECOND);
    clock.set_remaining(Black, 100 * SECOND, 20 * SECOND);
    assert_eq!(clock.remaining(Black, 20 * SECOND), 100 * SECOND);
    assert_eq!(clock.side(Black).credited_ms, 100 * SECOND);
    clock.set_remaining(Black, 10 * SECOND, 20 * SECOND);
    assert_eq!(clock.remaining(Black, 20 * SECOND), 10 * SECOND);
    assert_eq!(clock.side(Black).debited_ms, 90 * SECOND);
}

#[test]
fn art_6_10_setting_a_clock_that_shows_zero_shows_the_time_set() {
    // White's time has run out 10 s ago (60 s, 70 s into the turn). The arbiter finds
    // the clock was set wrong and sets White's display to 30 s.
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    assert_eq!(clock.remaining(White, 70 * SECOND), 0);
    clock.set_remaining(White, 30 * SECOND, 70 * SECOND);
    assert_eq!(clock.remaining(White, 70 * SECOND), 30 * SECOND);
    assert_eq!(clock.flag(70 * SECOND), None);
}

#[test]
fn art_6_10_arbiter_set_clock_in_a_game() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(5 * MINUTE, 0));
    mv(&mut game, "e4", 10 * SECOND);
    arbiter(
        &mut game,
        ArbiterAction::SetClock {
            color: White,
            ms: 90 * SECOND,
        },
        20 * SECOND,
    );
    arbiter(
        &mut game,
        ArbiterAction::SetClock {
            color: Black,
            ms: 2 * MINUTE,
        },
        20 * SECOND,
    );
    assert_eq!(game.clock().remaining(White, 20 * SECOND), 90 * SECOND);
    assert_eq!(game.clock().remaining(Black, 20 * SECOND), 2 * MINUTE);
    assert_eq!(game.clock().remaining(Black, 30 * SECOND), 110 * SECOND);
    assert_replays(&game);
}

#[test]
fn art_12_9_arbiter_time_adjustments_in_a_game() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(5 * MINUTE, 0));
    mv(&mut game, "e4", 10 * SECOND);
    arbiter(
        &mut game,
        ArbiterAction::AdjustClock {
            color: White,
            delta_ms: 2 * MINUTE as i64,
            reason: "disturbance".into(),
        },
        15 * SECOND,
    );
    arbiter(
        &mut game,
        ArbiterAction::AdjustClock {
            color: Black,
            delta_ms: -(MINUTE as i64),
            reason: "penalty".into(),
        },
        15 * SECOND,
    );
    assert_eq!(
        game.clock().remaining(White, 15 * SECOND),
        7 * MINUTE - 10 * SECOND
    );
    assert_eq!(
        game.clock().remaining(Black, 15 * SECOND),
        4 * MINUTE - 5 * SECOND
    );
    assert_eq!(
        adjustments(&game),
        vec![(White, 2 * MINUTE as i64), (Black, -(MINUTE as i64))]
    );
    assert_replays(&game);
}

#[test]
fn art_12_9_removing_all_time_makes_the_flag_fall() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(5 * MINUTE, 0));
    mv(&mut game, "e4", 10 * SECOND);
    arbiter(
        &mut game,
        ArbiterAction::AdjustClock {
            color: Black,
            delta_ms: -(10 * MINUTE as i64),
            reason: "penalty".into(),
        },
        15 * SECOND,
    );
    assert_eq!(game.clock().remaining(Black, 15 * SECOND), 0);
    // The display shows zero; the flag falls as soon as time is overstepped.
    game.tick(15 * SECOND + 1).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::TimeForfeit)
    );
}

#[test]
fn clock_stop_charges_the_running_side() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 2 * SECOND));
    clock.stop(12 * SECOND);
    assert_eq!(clock.running(), None);
    assert_eq!(clock.side(White).used_ms, 12 * SECOND);
    // No increment: the move was not completed with a press.
    assert_eq!(clock.side(White).remaining_ms, 48 * SECOND);
    assert_eq!(clock.flag(10 * MINUTE), None);
}

#[test]
fn guidelines_iii_4_added_increment_counts_from_the_next_press() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    clock.press(White, 10 * SECOND).unwrap();
    clock.add_increment(5 * SECOND);
    assert!(clock.control().has_increment());
    clock.press(Black, 20 * SECOND).unwrap();
    assert_eq!(clock.side(White).remaining_ms, 50 * SECOND);
    assert_eq!(clock.side(Black).remaining_ms, 55 * SECOND);
}

#[test]
fn move_clocks_record_the_movers_time_after_each_move() {
    let mut game = new_game(
        Ruleset::FideStandard,
        TimeControl::fischer(3 * MINUTE, 2 * SECOND),
    );
    play(&mut game, &["e4", "e5", "Nf3"], 0, 5 * SECOND);
    assert_eq!(
        game.move_clocks(),
        &[Some(177 * SECOND), Some(177 * SECOND), Some(174 * SECOND)]
    );
}

#[test]
fn flag_of_the_side_not_running_never_falls() {
    let mut clock = running_clock(TimeControl::fischer(MINUTE, 0));
    clock.adjust(Black, -(MINUTE as i64), 0);
    assert_eq!(clock.remaining(Black, 10 * SECOND), 0);
    assert_eq!(clock.flag(10 * SECOND), None);
    clock.press(White, 10 * SECOND).unwrap();
    assert_eq!(clock.flag(10 * SECOND + 1), Some(Black));
}
