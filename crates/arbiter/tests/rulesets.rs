//! What differs between rulesets: the seed's online game ("ladder") and its house
//! rules, online play, and the seed's older edition of the Laws (numbered "L" as in
//! RULES.md).

use caissa_arbiter::{
    Action, ActionError, ArbiterAction, ClaimKind, EventKind, FlagDraw, GameResult, IllegalMoves,
    Ruleset, Termination, TimeControl, UnknownRuleset, WrongClaim,
};
use caissa_rules::Color::{Black, White};

use crate::support::*;

fn ladder() -> caissa_arbiter::Game {
    new_game(Ruleset::Ladder, TimeControl::fast(20 * MINUTE, MINUTE, 0))
}

fn online() -> caissa_arbiter::Game {
    new_game(
        Ruleset::Online,
        TimeControl::fischer(5 * MINUTE, 3 * SECOND),
    )
}

fn seed() -> caissa_arbiter::Game {
    new_game(
        Ruleset::FideSeedEdition,
        TimeControl::fischer(2 * 60 * MINUTE, 0),
    )
}

fn claim(kind: ClaimKind, with_move: Option<&str>) -> Action {
    Action::ClaimDraw {
        claim: kind,
        with_move: with_move.map(str::to_string),
    }
}

// ---- names ----

#[test]
fn ruleset_names_parse_and_display() {
    for ruleset in Ruleset::ALL {
        assert_eq!(ruleset.name().parse::<Ruleset>(), Ok(ruleset));
        assert_eq!(ruleset.to_string(), ruleset.name());
        let json = serde_json::to_string(&ruleset).unwrap();
        assert_eq!(json, format!("\"{}\"", ruleset.name()));
    }
    assert_eq!(
        "fide".parse::<Ruleset>(),
        Err(UnknownRuleset("fide".to_string()))
    );
    assert!(Ruleset::FideSeedEdition.is_over_the_board());
    assert!(!Ruleset::Ladder.is_over_the_board());
    assert!(!Ruleset::Online.is_over_the_board());
}

#[test]
fn ruleset_parameters_follow_the_table() {
    let p = Ruleset::FideStandard.params();
    assert_eq!(
        p.illegal_moves,
        IllegalMoves::Penalize {
            opponent_bonus_ms: 2 * MINUTE,
            lose_at: 2
        }
    );
    assert_eq!(p.wrong_claim, WrongClaim::OpponentBonus(2 * MINUTE));
    assert_eq!(p.default_time_ms, Some(0));
    let p = Ruleset::FideSeedEdition.params();
    assert_eq!(p.flag_draw, FlagDraw::LoneKing);
    assert_eq!(p.wrong_claim, WrongClaim::ClaimantPenalty(5 * MINUTE));
    assert_eq!(p.default_time_ms, Some(60 * MINUTE));
    assert!(!p.automatic_fivefold_and_75);
    let p = Ruleset::Online.params();
    assert_eq!(p.illegal_moves, IllegalMoves::Reject);
    assert_eq!(p.clock_starts_after_plies, 2);
    let p = Ruleset::Ladder.params();
    assert_eq!(
        (p.resign_after_moves, p.offer_after_moves, p.max_offers),
        (15, 15, Some(3))
    );
    assert_eq!(p.void_timeout_within_moves, Some(5));
    assert_eq!(p.no_progress_draw_moves, Some(30));
    assert_eq!(
        (p.consecutive_checks_draw, p.total_checks_draw),
        (Some(10), Some(30))
    );
}

// ---- the ladder (the seed's online game) ----

#[test]
fn ladder_resign_only_after_15_moves() {
    let mut game = ladder();
    play(&mut game, &QUIET_LINE[..28], 0, SECOND);
    let why = is_not_allowed(game.act(White, Action::Resign, 29 * SECOND));
    assert!(why.contains("15"), "{why}");
    mv(&mut game, QUIET_LINE[28], 29 * SECOND);
    // Black has made 14 moves, White 15.
    is_not_allowed(game.act(Black, Action::Resign, 30 * SECOND));
    act(&mut game, White, Action::Resign, 30 * SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::Resignation)
    );
}

#[test]
fn ladder_timeout_within_5_moves_voids_game() {
    let mut game = new_game(Ruleset::Ladder, TimeControl::fischer(MINUTE, 0));
    let at = play(&mut game, &QUIET_LINE[..4], 0, SECOND);
    game.tick(at + 2 * MINUTE).unwrap();
    let (result, termination) = finished(&game);
    assert_eq!(result, GameResult::Void);
    assert_eq!(termination, Termination::TimeForfeit);
    assert_eq!(result.points(White), None);
    assert_eq!(result.points(Black), None);
}

#[test]
fn ladder_timeout_on_the_sixth_move_after_five_full_moves_voids_game() {
    // Five moves each have been played; the game has not gone beyond five moves.
    let mut game = new_game(Ruleset::Ladder, TimeControl::fischer(MINUTE, 0));
    let at = play(&mut game, &QUIET_LINE[..10], 0, SECOND);
    game.tick(at + 2 * MINUTE).unwrap();
    assert_eq!(finished(&game).0, GameResult::Void);
}

#[test]
fn ladder_timeout_after_more_than_5_moves_loses() {
    let mut game = new_game(Ruleset::Ladder, TimeControl::fischer(MINUTE, 0));
    let at = play(&mut game, &QUIET_LINE[..12], 0, SECOND);
    game.tick(at + 2 * MINUTE).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

#[test]
fn ladder_per_move_timer_running_out_loses() {
    // Match mode: 10 minutes for the game, 30 s per move.
    let mut game = new_game(
        Ruleset::Ladder,
        TimeControl::match_mode(10 * MINUTE, 30 * SECOND),
    );
    let at = play(&mut game, &QUIET_LINE[..13], 0, SECOND);
    assert_eq!(game.tick(at + 29 * SECOND).unwrap(), 0);
    game.tick(at + 31 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::TimeForfeit)
    );
    assert!(game.clock().side(Black).remaining_ms > 9 * MINUTE);
}

#[test]
fn ladder_ten_consecutive_checks_draw() {
    let mut game = new_game_fen(
        Ruleset::Ladder,
        TimeControl::fast(20 * MINUTE, MINUTE, 0),
        QUEEN_CHECKS_FEN,
    );
    let at = play(&mut game, &TEN_CHECKS[..18], 0, SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(game.checks_received(Black), 9);
    mv(&mut game, TEN_CHECKS[18], at + SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::PerpetualChecks)
    );
}

#[test]
fn ladder_thirty_checks_received_draw() {
    let mut game = new_game_fen(
        Ruleset::Ladder,
        TimeControl::fast(60 * MINUTE, MINUTE, 0),
        QUEEN_CHECKS_FEN,
    );
    let at = play(&mut game, &THIRTY_CHECKS[..64], 0, SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(game.checks_received(Black), 29);
    mv(&mut game, THIRTY_CHECKS[64], at + SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::PerpetualChecks)
    );
}

#[test]
fn fide_has_no_check_counting_draw() {
    let mut game = new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(60 * MINUTE, 0),
        QUEEN_CHECKS_FEN,
    );
    play(&mut game, &THIRTY_CHECKS, 0, SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(game.checks_received(Black), 30);
}

#[test]
fn ladder_thirty_moves_without_pawn_move_or_capture_draw() {
    let mut game = new_game_fen(
        Ruleset::Ladder,
        TimeControl::fast(20 * MINUTE, MINUTE, 0),
        "8/8/8/4k3/8/8/8/R3K3 w - - 58 60",
    );
    mv(&mut game, "Ra2", SECOND);
    assert_eq!(game.finish(), None);
    mv(&mut game, "Kd5", 2 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::NoProgress));
}

#[test]
fn ladder_threefold_repetition_draws_without_a_claim() {
    let mut game = ladder();
    let line: Vec<&str> = KNIGHT_SHUFFLE.iter().copied().cycle().take(8).collect();
    let at = play(&mut game, &line[..7], 0, SECOND);
    assert_eq!(game.finish(), None);
    mv(&mut game, line[7], at + SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::ThreefoldRepetition)
    );
}

#[test]
fn ladder_draw_offer_only_after_15_moves() {
    let mut game = ladder();
    play(&mut game, &QUIET_LINE[..28], 0, SECOND);
    let why = is_not_allowed(game.act(White, Action::OfferDraw, 29 * SECOND));
    assert!(why.contains("15"), "{why}");
    play(&mut game, &QUIET_LINE[28..30], 29 * SECOND, SECOND);
    act(&mut game, White, Action::OfferDraw, 32 * SECOND);
    act(&mut game, Black, Action::AcceptDraw, 33 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn ladder_draw_offer_only_on_ones_own_turn() {
    let mut game = ladder();
    play(&mut game, &QUIET_LINE[..30], 0, SECOND);
    // White to move: Black may not offer.
    let why = is_not_allowed(game.act(Black, Action::OfferDraw, 31 * SECOND));
    assert!(why.contains("own turn"), "{why}");
    mv(&mut game, QUIET_LINE[30], 32 * SECOND);
    act(&mut game, Black, Action::OfferDraw, 33 * SECOND);
    assert_eq!(game.draw_offer(), Some(Black));
}

#[test]
fn ladder_at_most_three_draw_offers_per_player() {
    let mut game = ladder();
    let mut at = play(&mut game, &QUIET_LINE[..30], 0, SECOND);
    for _ in 0..3 {
        at += SECOND;
        act(&mut game, White, Action::OfferDraw, at);
        act(&mut game, Black, Action::DeclineDraw, at);
    }
    assert_eq!(game.offers_made(White), 3);
    let why = is_not_allowed(game.act(White, Action::OfferDraw, at + SECOND));
    assert!(why.contains('3'), "{why}");
    // Black still has its own three.
    mv(&mut game, QUIET_LINE[30], at + 2 * SECOND);
    act(&mut game, Black, Action::OfferDraw, at + 3 * SECOND);
}

#[test]
fn ladder_third_foul_loses() {
    let mut game = ladder();
    for n in 1..=2 {
        let result = try_mv(&mut game, "Ke2", n * SECOND);
        assert!(matches!(result, Err(ActionError::IllegalMove(_))));
        assert_eq!(game.finish(), None);
    }
    // Fouls cost no time.
    assert!(adjustments(&game).is_empty());
    let _ = try_mv(&mut game, "Ke2", 3 * SECOND);
    assert_eq!(game.illegal_moves(White), 3);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::IllegalMoves)
    );
}

#[test]
fn ladder_wrong_claim_is_refused_without_penalty() {
    let mut game = ladder();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let before = game.events().len();
    is_not_allowed(game.act(
        White,
        claim(ClaimKind::ThreefoldRepetition, None),
        3 * SECOND,
    ));
    assert_eq!(game.events().len(), before);
}

#[test]
fn ladder_abort_before_two_half_moves() {
    let mut game = ladder();
    mv(&mut game, "e4", SECOND);
    act(&mut game, Black, Action::Abort, 2 * SECOND);
    assert_eq!(finished(&game), (GameResult::Void, Termination::Aborted));
    let mut game = ladder();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    is_not_allowed(game.act(White, Action::Abort, 3 * SECOND));
}

#[test]
fn ladder_departed_opponent_claim_after_60_seconds() {
    let mut game = ladder();
    play(&mut game, &["e4", "e5", "Nf3"], 0, SECOND);
    is_not_allowed(game.act(
        White,
        Action::ClaimVictory {
            opponent_gone_ms: 59 * SECOND,
        },
        MINUTE,
    ));
    act(
        &mut game,
        White,
        Action::ClaimVictory {
            opponent_gone_ms: MINUTE,
        },
        MINUTE,
    );
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::Abandoned)
    );
}

// ---- online play ----

#[test]
fn online_abort_only_before_both_first_moves() {
    let mut game = online();
    act(&mut game, Black, Action::Abort, SECOND);
    assert_eq!(finished(&game), (GameResult::Void, Termination::Aborted));

    let mut game = online();
    mv(&mut game, "e4", SECOND);
    act(&mut game, White, Action::Abort, 2 * SECOND);
    assert_eq!(finished(&game), (GameResult::Void, Termination::Aborted));

    let mut game = online();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let why = is_not_allowed(game.act(Black, Action::Abort, 3 * SECOND));
    assert!(why.contains('2'), "{why}");
    assert_eq!(game.finish(), None);
}

#[test]
fn online_illegal_move_rejected_without_penalty() {
    let mut game = online();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let before = game.events().len();
    for n in 0..5 {
        let result = try_mv(&mut game, "Ke3", 3 * SECOND + n);
        assert!(
            matches!(result, Err(ActionError::IllegalMove(_))),
            "{result:?}"
        );
    }
    assert_eq!(game.events().len(), before);
    assert_eq!(game.illegal_moves(White), 0);
    assert_eq!(game.finish(), None);
    assert_eq!(game.clock().remaining(Black, 4 * SECOND), 5 * MINUTE);
    mv(&mut game, "Ke2", 4 * SECOND);
}

#[test]
fn online_wrong_claim_is_refused_without_penalty() {
    let mut game = online();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let before = game.events().len();
    is_not_allowed(game.act(White, claim(ClaimKind::FiftyMoves, Some("Nf3")), 3 * SECOND));
    assert_eq!(game.events().len(), before);
    assert_eq!(game.sans().len(), 2);
}

#[test]
fn online_resignation_loses_even_against_no_mating_material() {
    let mut game = new_game_fen(
        Ruleset::Online,
        TimeControl::fischer(5 * MINUTE, 0),
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    );
    act(&mut game, White, Action::Resign, SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::Resignation)
    );
}

#[test]
fn online_repeated_offer_waits_ten_moves_after_a_decline() {
    let mut game = online();
    let at = play(&mut game, &QUIET_LINE[..2], 0, SECOND);
    act(&mut game, White, Action::OfferDraw, at);
    act(&mut game, Black, Action::DeclineDraw, at);
    let at = play(&mut game, &QUIET_LINE[2..20], at, SECOND);
    // Nine moves each since the decline.
    is_not_allowed(game.act(White, Action::OfferDraw, at));
    let at = play(&mut game, &QUIET_LINE[20..22], at, SECOND);
    act(&mut game, White, Action::OfferDraw, at);
    assert_eq!(game.draw_offer(), Some(White));
}

#[test]
fn online_the_decliner_may_offer_at_once() {
    let mut game = online();
    let at = play(&mut game, &QUIET_LINE[..2], 0, SECOND);
    act(&mut game, White, Action::OfferDraw, at);
    act(&mut game, Black, Action::DeclineDraw, at);
    act(&mut game, Black, Action::OfferDraw, at + SECOND);
    act(&mut game, White, Action::AcceptDraw, at + 2 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn online_departed_opponent_claims() {
    let mut game = online();
    play(&mut game, &["e4", "e5", "Nf3"], 0, SECOND);
    // Only against the player to move.
    is_not_allowed(game.act(
        Black,
        Action::ClaimVictory {
            opponent_gone_ms: MINUTE,
        },
        MINUTE,
    ));
    is_not_allowed(game.act(
        White,
        Action::ClaimVictory {
            opponent_gone_ms: 29 * SECOND,
        },
        MINUTE,
    ));
    act(
        &mut game,
        White,
        Action::CallDraw {
            opponent_gone_ms: 30 * SECOND,
        },
        MINUTE,
    );
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Abandoned));
}

#[test]
fn online_claim_victory_without_mating_material_is_a_draw() {
    let mut game = new_game_fen(
        Ruleset::Online,
        TimeControl::fischer(5 * MINUTE, 0),
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
    );
    act(
        &mut game,
        White,
        Action::ClaimVictory {
            opponent_gone_ms: MINUTE,
        },
        // Within the first-move time: later the game is aborted instead.
        20 * SECOND,
    );
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::Abandoned)
    );
    let mut game = new_game_fen(
        Ruleset::Online,
        TimeControl::fischer(5 * MINUTE, 0),
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    );
    act(
        &mut game,
        Black,
        Action::ClaimVictory {
            opponent_gone_ms: MINUTE,
        },
        // Within the first-move time: later the game is aborted instead.
        20 * SECOND,
    );
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Abandoned));
}

#[test]
fn online_flag_fall_ends_the_game_at_once() {
    let mut game = new_game(Ruleset::Online, TimeControl::fischer(MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, SECOND);
    game.tick(2 * SECOND + MINUTE + 1).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

#[test]
fn online_has_no_adjournment_guidelines_iii_or_default_time() {
    let mut game = new_game(Ruleset::Online, TimeControl::fischer(5 * MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, SECOND);
    is_not_allowed(game.act(White, Action::Seal { text: "Nf3".into() }, 3 * SECOND));
    is_not_allowed(game.act(White, Action::RequestIncrement, 4 * MINUTE));
    is_not_allowed(game.arbiter(ArbiterAction::Forfeit { color: White }, 5 * SECOND));
    assert_eq!(game.finish(), None);
}

// ---- the seed's edition of the Laws ----

#[test]
fn art_8_1_seed_edition_third_illegal_move_loses() {
    let mut game = seed();
    let _ = try_mv(&mut game, "Ke2", SECOND);
    let _ = try_mv(&mut game, "Ke2", 2 * SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(
        adjustments(&game),
        vec![(Black, 2 * MINUTE as i64), (Black, 2 * MINUTE as i64)]
    );
    let _ = try_mv(&mut game, "Ke2", 3 * SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::IllegalMoves)
    );
}

#[test]
fn art_10_13_wrong_claim_adds_five_minutes_in_seed_edition() {
    let mut game = new_game_fen(
        Ruleset::FideSeedEdition,
        TimeControl::fischer(60 * MINUTE, 0),
        "8/8/8/4k3/8/8/8/R3K3 w - - 99 60",
    );
    act(
        &mut game,
        White,
        claim(ClaimKind::FiftyMoves, None),
        10 * SECOND,
    );
    assert_eq!(game.finish(), None);
    assert_eq!(
        game.clock().remaining(White, 10 * SECOND),
        55 * MINUTE - 10 * SECOND
    );
    assert_eq!(game.clock().remaining(Black, 10 * SECOND), 60 * MINUTE);
    assert_eq!(adjustments(&game), vec![(White, -(5 * MINUTE as i64))]);
}

#[test]
fn art_10_13_seed_wrong_claim_that_uses_up_the_claimants_time_loses() {
    // White has 4 minutes left and claims wrongly, writing the move Ra2: the five
    // minutes added to White's time used exceed what White had, so White's time is
    // over, and Black (king and pawn, not a lone king) wins on time.
    let mut game = new_game_fen(
        Ruleset::FideSeedEdition,
        TimeControl::fischer(4 * MINUTE, 0),
        "8/7p/8/4k3/8/8/8/R3K3 w - - 98 60",
    );
    let _ = game.act(
        White,
        claim(ClaimKind::FiftyMoves, Some("Ra2")),
        10 * SECOND,
    );
    game.tick(10 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

#[test]
fn art_10_5_seed_flag_against_lone_king_is_draw() {
    let mut game = new_game_fen(
        Ruleset::FideSeedEdition,
        TimeControl::fischer(MINUTE, 0),
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    );
    game.tick(61 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::TimeoutDraw)
    );
}

#[test]
fn art_10_5_seed_flag_draw_only_against_a_lone_king() {
    // King and bishop cannot mate, but in the seed's edition only a lone king
    // saves the flagged player.
    let mut game = new_game_fen(
        Ruleset::FideSeedEdition,
        TimeControl::fischer(MINUTE, 0),
        "4k3/8/8/8/8/8/2b5/3QK3 w - - 0 1",
    );
    game.tick(61 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

#[test]
fn art_10_15_seed_default_time_is_one_hour() {
    let mut game = seed();
    let why = is_not_allowed(game.arbiter(ArbiterAction::Forfeit { color: White }, 59 * MINUTE));
    assert!(why.contains("3600"), "{why}");
    arbiter(
        &mut game,
        ArbiterAction::Forfeit { color: White },
        60 * MINUTE,
    );
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::NoShow)
    );
}

#[test]
fn art_10_15_seed_default_time_counts_from_the_start_without_a_clock() {
    let mut game = caissa_arbiter::Game::new(
        setup(Ruleset::FideSeedEdition, TimeControl::unlimited()),
        1_000,
    )
    .unwrap();
    arbiter(
        &mut game,
        ArbiterAction::Warn {
            color: Black,
            reason: "noise".into(),
        },
        30 * MINUTE,
    );
    arbiter(
        &mut game,
        ArbiterAction::Forfeit { color: White },
        60 * MINUTE + 1_000,
    );
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::NoShow)
    );
}

#[test]
fn seed_edition_has_no_automatic_fivefold_repetition() {
    let mut game = seed();
    let line: Vec<&str> = KNIGHT_SHUFFLE.iter().copied().cycle().take(20).collect();
    let at = play(&mut game, &line, 0, SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(game.line().repetitions(), 6);
    act(
        &mut game,
        White,
        claim(ClaimKind::ThreefoldRepetition, None),
        at + SECOND,
    );
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::ThreefoldRepetition)
    );
}

#[test]
fn seed_edition_has_no_automatic_seventy_five_move_rule() {
    let mut game = new_game_fen(
        Ruleset::FideSeedEdition,
        TimeControl::fischer(60 * MINUTE, 0),
        "7k/8/6K1/8/8/8/8/R7 w - - 149 100",
    );
    mv(&mut game, "Rb1", SECOND);
    assert_eq!(game.finish(), None);
    act(
        &mut game,
        Black,
        claim(ClaimKind::FiftyMoves, None),
        2 * SECOND,
    );
    assert_eq!(finished(&game), (GameResult::Draw, Termination::FiftyMoves));
}

#[test]
fn seed_edition_resignation_always_loses() {
    let mut game = new_game_fen(
        Ruleset::FideSeedEdition,
        TimeControl::fischer(60 * MINUTE, 0),
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    );
    act(&mut game, White, Action::Resign, SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::Resignation)
    );
}

#[test]
fn seed_edition_agreement_at_any_time() {
    let mut game = seed();
    act(&mut game, White, Action::OfferDraw, SECOND);
    act(&mut game, Black, Action::AcceptDraw, 2 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn art_13_seed_edition_adjourns_with_a_sealed_move() {
    let mut game = seed();
    play(&mut game, &["e4", "e5"], 0, MINUTE);
    act(
        &mut game,
        White,
        Action::Seal { text: "Nf3".into() },
        3 * MINUTE,
    );
    assert!(matches!(
        game.events().last().unwrap().kind,
        EventKind::Adjourned { .. }
    ));
    arbiter(&mut game, ArbiterAction::ResumeAdjourned, DAY);
    assert_eq!(game.sans().last().unwrap(), "Nf3");
    assert_replays(&game);
}

#[test]
fn rapid_and_blitz_flags_are_claimed_standard_flags_are_not() {
    for (ruleset, claimed) in [
        (Ruleset::FideStandard, false),
        (Ruleset::FideRapid, true),
        (Ruleset::FideBlitz, true),
        (Ruleset::FideSeedEdition, false),
        (Ruleset::Ladder, false),
    ] {
        let mut game = new_game(ruleset, TimeControl::fischer(MINUTE, 0));
        let at = play(&mut game, &QUIET_LINE[..12], 0, SECOND);
        game.tick(at + 2 * MINUTE).unwrap();
        assert_eq!(game.finish().is_none(), claimed, "{ruleset}");
    }
}
