//! Customs of online play beyond the Laws: takebacks by agreement, network lag
//! credited from a bounded quota, and games aborted when a first move never comes.

use caissa_arbiter::{Action, EventKind, GameResult, Ruleset, Termination, TimeControl};
use caissa_rules::Color::{Black, White};

use crate::support::*;

fn online_3_2() -> caissa_arbiter::Game {
    new_game(
        Ruleset::Online,
        TimeControl::fischer(3 * MINUTE, 2 * SECOND),
    )
}

#[test]
fn takeback_of_own_last_move_when_the_opponent_accepts() {
    let mut game = online_3_2();
    let at = play(&mut game, &["e4", "e5", "Nf3"], 0, SECOND);
    act(&mut game, White, Action::ProposeTakeback, at + 100);
    assert_eq!(game.takeback(), Some(White));
    act(&mut game, Black, Action::AcceptTakeback, at + 500);
    assert_eq!(game.sans(), ["e4", "e5"]);
    assert_eq!(to_move(&game), White);
    assert_eq!(game.takeback(), None);
    assert_eq!(game.clock().running(), Some(White));
    assert_replays(&game);
}

#[test]
fn takeback_on_own_turn_takes_back_both_last_moves() {
    let mut game = online_3_2();
    let at = play(&mut game, &["e4", "e5", "Nf3", "Nc6"], 0, SECOND);
    act(&mut game, White, Action::ProposeTakeback, at + 100);
    act(&mut game, Black, Action::AcceptTakeback, at + 200);
    assert_eq!(game.sans(), ["e4", "e5"]);
    assert_eq!(to_move(&game), White);
    assert_replays(&game);
}

#[test]
fn proposing_while_the_opponent_proposes_is_agreement() {
    let mut game = online_3_2();
    let at = play(&mut game, &["d4", "d5"], 0, SECOND);
    act(&mut game, Black, Action::ProposeTakeback, at + 100);
    act(&mut game, White, Action::ProposeTakeback, at + 200);
    assert_eq!(game.sans(), ["d4"]);
    assert_eq!(to_move(&game), Black);
}

#[test]
fn declined_takeback_leaves_the_game_as_it_was() {
    let mut game = online_3_2();
    let at = play(&mut game, &["e4", "e5"], 0, SECOND);
    act(&mut game, Black, Action::ProposeTakeback, at + 100);
    act(&mut game, White, Action::DeclineTakeback, at + 200);
    assert_eq!(game.takeback(), None);
    assert_eq!(game.sans(), ["e4", "e5"]);
    let before = game.events().len();
    let refused = is_not_allowed(game.act(White, Action::AcceptTakeback, at + 300));
    assert!(refused.contains("no takeback"), "{refused}");
    assert_eq!(game.events().len(), before);
}

#[test]
fn a_move_lets_a_pending_takeback_proposal_lapse() {
    let mut game = online_3_2();
    let at = play(&mut game, &["e4"], 0, SECOND);
    act(&mut game, White, Action::ProposeTakeback, at + 100);
    mv(&mut game, "e5", at + 200);
    assert_eq!(game.takeback(), None);
    assert!(game.act(Black, Action::AcceptTakeback, at + 300).is_err());
}

#[test]
fn takeback_needs_a_move_of_ones_own() {
    let mut game = online_3_2();
    play(&mut game, &["e4"], 0, SECOND);
    let refused = is_not_allowed(game.act(Black, Action::ProposeTakeback, 2 * SECOND));
    assert!(refused.contains("no move"), "{refused}");
}

#[test]
fn art_4_the_laws_know_no_takebacks() {
    for ruleset in [
        Ruleset::FideStandard,
        Ruleset::FideRapid,
        Ruleset::FideBlitz,
        Ruleset::FideSeedEdition,
        Ruleset::Ladder,
    ] {
        let mut game = new_game(ruleset, TimeControl::fischer(10 * MINUTE, 0));
        let at = play(&mut game, &["e4", "e5"], 0, SECOND);
        let refused = is_not_allowed(game.act(White, Action::ProposeTakeback, at + 100));
        assert!(refused.contains("do not allow"), "{ruleset:?}: {refused}");
    }
}

#[test]
fn takeback_keeps_the_clocks_and_gives_no_increment() {
    let mut game = online_3_2();
    // The clock starts after both first moves online.
    let at = play(&mut game, &["e4", "e5", "Nf3"], 0, SECOND);
    let white_before = game.clock().remaining(White, at);
    let black_at_proposal = game.clock().remaining(Black, at + 4 * SECOND);
    act(&mut game, White, Action::ProposeTakeback, at + 4 * SECOND);
    act(&mut game, Black, Action::AcceptTakeback, at + 4 * SECOND);
    // Black's 4 s of thought are charged, with no increment; White's clock now runs.
    assert_eq!(
        game.clock().remaining(Black, at + 10 * SECOND),
        black_at_proposal
    );
    assert_eq!(
        game.clock().remaining(White, at + 10 * SECOND),
        white_before - 6 * SECOND
    );
}

#[test]
fn takeback_in_the_event_log_rebuilds_the_same_game() {
    let mut game = online_3_2();
    let at = play(&mut game, &["e4", "e5", "Nf3", "Nc6", "Bb5"], 0, SECOND);
    act(&mut game, Black, Action::ProposeTakeback, at + 10);
    act(&mut game, White, Action::AcceptTakeback, at + 20);
    // Black proposed on Black's turn: Bb5 and Nc6 are gone, Black moves again.
    let at = play(&mut game, &["Nf6", "Bc4", "Bc5"], at + 20, SECOND);
    assert_eq!(game.sans(), ["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5"]);
    assert!(game
        .events()
        .iter()
        .any(|e| e.kind == EventKind::TakenBack { plies: 2 }));
    assert_replays(&game);
    assert!(at > 0);
}

fn moved_lag(game: &caissa_arbiter::Game) -> u64 {
    match &game.events().last().expect("an event").kind {
        EventKind::Moved { lag_ms, .. } => *lag_ms,
        other => panic!("last event is {other:?}"),
    }
}

fn play_lagged(game: &mut caissa_arbiter::Game, text: &str, lag_ms: u64, at: u64) {
    let by = to_move(game);
    act(
        game,
        by,
        Action::Move {
            text: text.into(),
            lag_ms,
            offering_draw: false,
        },
        at,
    );
}

#[test]
fn lag_is_credited_to_the_mover_not_charged() {
    let mut game = online_3_2();
    let at = play(&mut game, &["e4", "e5"], 0, SECOND);
    let before = game.clock().remaining(White, at);
    play_lagged(&mut game, "Nf3", 300, at + 2 * SECOND);
    assert_eq!(moved_lag(&game), 300);
    // 2 s thought, 0.3 s of it lag: 1.7 s charged, 2 s increment.
    assert_eq!(
        game.clock().remaining(White, at + 2 * SECOND),
        before - 1_700 + 2 * SECOND
    );
    assert_replays(&game);
}

#[test]
fn lag_compensation_is_bounded_by_the_quota() {
    // 3+2: 1 s gained per move, 3 s at the start, at most 7 s banked.
    let mut game = online_3_2();
    let mut at = play(&mut game, &["e4", "e5"], 0, SECOND);
    assert_eq!(game.lag_quota(White), 3_000);
    let mut credited = Vec::new();
    for (white, black) in [("Nf3", "Nc6"), ("Bc4", "Bc5"), ("d3", "d6")] {
        at += 5 * SECOND;
        play_lagged(&mut game, white, 2_900, at);
        credited.push(moved_lag(&game));
        at += SECOND;
        mv(&mut game, black, at);
    }
    // 3 s quota, +1 s a move: 2.9 s credited, then 0.1 + 1 = 1.1 s, then 1 s a move.
    assert_eq!(credited, [2_900, 1_100, 1_000]);
    assert_eq!(game.lag_quota(White), 1_000);
}

#[test]
fn lag_compensation_never_exceeds_the_time_thought() {
    let mut game = online_3_2();
    let at = play(&mut game, &["e4", "e5"], 0, SECOND);
    play_lagged(&mut game, "Nf3", 2_000, at + 500);
    assert_eq!(moved_lag(&game), 500);
}

#[test]
fn lag_quota_is_smaller_in_bullet() {
    // 1+0: 0.39 s a move (60 × 2/5 + 15 = 39 cs).
    let game = new_game(Ruleset::Online, TimeControl::fischer(MINUTE, 0));
    assert_eq!(game.lag_quota(White), 3 * 390);
}

#[test]
fn no_lag_is_credited_before_the_clock_runs() {
    let mut game = online_3_2();
    play_lagged(&mut game, "e4", 500, SECOND);
    assert_eq!(moved_lag(&game), 0);
}

#[test]
fn online_game_is_aborted_when_white_never_makes_a_first_move() {
    // Blitz: 25 s for the first move, counted from the start.
    let mut game = online_3_2();
    assert_eq!(game.next_deadline(0), Some(25 * SECOND));
    assert_eq!(game.tick(25 * SECOND - 1).unwrap(), 0);
    assert_eq!(game.finish(), None);
    assert_eq!(game.tick(25 * SECOND).unwrap(), 1);
    assert_eq!(finished(&game), (GameResult::Void, Termination::Aborted));
    assert_eq!(game.next_deadline(25 * SECOND), None);
    assert_replays(&game);
}

#[test]
fn blacks_first_move_is_counted_from_whites() {
    let mut game = online_3_2();
    mv(&mut game, "e4", 20 * SECOND);
    assert_eq!(game.next_deadline(20 * SECOND), Some(45 * SECOND));
    // A move after the limit finds the game already aborted.
    let late = try_mv(&mut game, "e5", 45 * SECOND);
    assert!(late.is_err(), "{late:?}");
    assert_eq!(finished(&game), (GameResult::Void, Termination::Aborted));
    assert_replays(&game);
}

#[test]
fn after_both_first_moves_only_the_clock_counts() {
    let mut game = online_3_2();
    let at = play(&mut game, &["e4", "e5"], 0, 24 * SECOND);
    // White's clock now runs: its flag is the next deadline, three minutes away.
    assert_eq!(game.next_deadline(at), Some(at + 3 * MINUTE + 1));
    mv(&mut game, "Nf3", at + 2 * MINUTE);
    assert_eq!(game.finish(), None);
}

#[test]
fn taking_back_the_first_move_gives_white_the_full_time_again() {
    let mut game = online_3_2();
    mv(&mut game, "e4", 10 * SECOND);
    act(&mut game, White, Action::ProposeTakeback, 12 * SECOND);
    act(&mut game, Black, Action::AcceptTakeback, 14 * SECOND);
    assert_eq!(game.plies(), 0);
    assert_eq!(game.next_deadline(14 * SECOND), Some(39 * SECOND));
}

#[test]
fn slower_games_allow_longer_for_the_first_move_and_some_wait() {
    let first_move = |control: TimeControl| new_game(Ruleset::Online, control).next_deadline(0);
    assert_eq!(
        first_move(TimeControl::fischer(MINUTE, 0)),
        Some(20 * SECOND)
    );
    assert_eq!(
        first_move(TimeControl::fischer(15 * MINUTE, 10 * SECOND)),
        Some(30 * SECOND)
    );
    assert_eq!(
        first_move(TimeControl::fischer(90 * MINUTE, 30 * SECOND)),
        Some(35 * SECOND)
    );
    // Correspondence and games without a clock wait for the first move.
    assert_eq!(first_move(TimeControl::correspondence(3)), None);
    assert_eq!(first_move(TimeControl::unlimited()), None);
    // Over the board a late player loses by default (6.7), which the arbiter
    // declares; nothing is aborted by itself.
    let mut fide = new_game(
        Ruleset::FideBlitz,
        TimeControl::fischer(3 * MINUTE, 2 * SECOND),
    );
    assert_eq!(fide.tick(MINUTE).unwrap(), 0);
    assert_eq!(fide.finish(), None);
}

fn arena_game(base: u64, increment: u64) -> caissa_arbiter::Game {
    let setup = caissa_arbiter::GameSetup {
        berserkable: true,
        ..setup(Ruleset::Online, TimeControl::fischer(base, increment))
    };
    caissa_arbiter::Game::new(setup, 0).expect("a valid setup")
}

#[test]
fn arena_berserk_halves_the_base_and_drops_the_increment() {
    let mut game = arena_game(3 * MINUTE, 2 * SECOND);
    act(&mut game, Black, Action::Berserk, 100);
    assert!(game.berserked(Black));
    assert!(!game.berserked(White));
    assert_eq!(game.clock().remaining(Black, 100), 90 * SECOND);
    assert_eq!(game.clock().remaining(White, 100), 3 * MINUTE);
    // Black's moves earn no increment; White's still do.
    let at = play(&mut game, &["e4", "e5", "Nf3", "Nc6"], 1000, SECOND);
    assert_eq!(game.clock().remaining(Black, at), 90 * SECOND - SECOND);
    assert_eq!(game.clock().remaining(White, at), 3 * MINUTE + SECOND);
    assert_replays(&game);
}

#[test]
fn arena_berserk_keeps_a_base_under_forty_increments() {
    // 1+2: lichess keeps the minute and takes the increment.
    let mut game = arena_game(MINUTE, 2 * SECOND);
    act(&mut game, White, Action::Berserk, 0);
    assert_eq!(game.clock().remaining(White, 0), MINUTE);
    let at = play(&mut game, &["d4", "d5", "c4"], 1000, SECOND);
    assert!(game.clock().remaining(White, at) < MINUTE);
}

#[test]
fn arena_berserk_only_before_ones_first_move_and_once() {
    let mut game = arena_game(3 * MINUTE, 0);
    let at = play(&mut game, &["e4"], 0, SECOND);
    let why = is_not_allowed(game.act(White, Action::Berserk, at));
    assert!(why.contains("before your first move"), "{why}");
    act(&mut game, Black, Action::Berserk, at + 10);
    let why = is_not_allowed(game.act(Black, Action::Berserk, at + 20));
    assert!(why.contains("already"), "{why}");
}

#[test]
fn arena_berserk_refused_outside_an_arena_and_without_base_time() {
    let mut game = online_3_2();
    let why = is_not_allowed(game.act(White, Action::Berserk, 0));
    assert!(why.contains("berserk"), "{why}");
    let mut game = arena_game(0, 2 * SECOND);
    let why = is_not_allowed(game.act(White, Action::Berserk, 0));
    assert!(why.contains("no base time"), "{why}");
}
