//! The Laws of Chess (2023) as the game applies them under the FIDE rulesets: how a
//! game ends (5, 6.9, 9.6), draw offers and claims (9.1–9.5), illegal moves (7.5),
//! the default time (6.7), the arbiter (12), adjournment (Guidelines I) and games
//! without increment (Guidelines III).

use caissa_arbiter::{
    Action, ActionError, ArbiterAction, ClaimKind, EventKind, GameResult, Ruleset, Status,
    Termination, TimeControl,
};
use caissa_rules::Color::{Black, White};

use crate::support::*;

fn standard() -> caissa_arbiter::Game {
    new_game(
        Ruleset::FideStandard,
        TimeControl::fischer(90 * MINUTE, 30 * SECOND),
    )
}

fn standard_fen(fen: &str) -> caissa_arbiter::Game {
    new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(90 * MINUTE, 30 * SECOND),
        fen,
    )
}

fn claim(kind: ClaimKind, with_move: Option<&str>) -> Action {
    Action::ClaimDraw {
        claim: kind,
        with_move: with_move.map(str::to_string),
    }
}

/// White king and queen against a lone king.
const QUEEN_VS_KING: &str = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
/// White king and pawn against a lone king.
const PAWN_VS_KING: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
/// K+R v K with 99 half-moves since the last capture or pawn move, White to move.
const FIFTY_MINUS_ONE: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 99 60";
/// Mate in one (Ra8#) on the 150th half-move without capture or pawn move.
const SEVENTY_FIVE_MINUS_ONE: &str = "7k/8/6K1/8/8/8/8/R7 w - - 149 100";

// ---- Article 5: the completion of the game ----

#[test]
fn art_5_1_1_checkmate_ends_the_game() {
    let mut game = standard();
    play(&mut game, &["f3", "e5", "g4", "Qh4#"], 0, SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::Checkmate)
    );
    assert_eq!(game.status(), Status::Ended);
    assert_eq!(game.clock().running(), None);
    assert_eq!(
        try_mv(&mut game, "Kf2", 5 * SECOND),
        Err(ActionError::GameOver)
    );
}

#[test]
fn art_5_1_2_resignation_gives_the_opponent_the_game() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(&mut game, Black, Action::Resign, 3 * SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::Resignation)
    );
}

#[test]
fn art_5_1_2_resignation_is_a_draw_when_the_opponent_cannot_mate() {
    let mut game = standard_fen(QUEEN_VS_KING);
    act(&mut game, White, Action::Resign, SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::Resignation)
    );
    let mut game = standard_fen(QUEEN_VS_KING);
    act(&mut game, Black, Action::Resign, SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::Resignation)
    );
}

#[test]
fn art_5_2_1_stalemate_is_a_draw() {
    let mut game = standard_fen("7k/4Q3/6K1/8/8/8/8/8 w - - 0 1");
    mv(&mut game, "Qf7", SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Stalemate));
}

#[test]
fn art_5_2_2_dead_position_is_a_draw() {
    let mut game = standard_fen("k7/8/8/8/8/8/1n6/K1B5 w - - 0 1");
    mv(&mut game, "Bxb2", SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::DeadPosition)
    );
}

#[test]
fn art_5_2_3_agreement_only_after_both_players_have_moved() {
    let mut game = standard();
    let why = is_not_allowed(game.act(White, Action::OfferDraw, SECOND));
    assert!(why.contains("5.2.3"), "{why}");
    mv(&mut game, "e4", 2 * SECOND);
    is_not_allowed(game.act(White, Action::OfferDraw, 3 * SECOND));
    is_not_allowed(game.act(Black, Action::OfferDraw, 3 * SECOND));
    mv(&mut game, "e5", 4 * SECOND);
    act(&mut game, White, Action::OfferDraw, 5 * SECOND);
    act(&mut game, Black, Action::AcceptDraw, 6 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn art_10_1_points_are_one_half_and_zero() {
    use caissa_rules::Color;
    let points = |r: GameResult| (r.points(Color::White), r.points(Color::Black));
    assert_eq!(points(GameResult::WhiteWins), (Some(1.0), Some(0.0)));
    assert_eq!(points(GameResult::BlackWins), (Some(0.0), Some(1.0)));
    assert_eq!(points(GameResult::Draw), (Some(0.5), Some(0.5)));
    assert_eq!(points(GameResult::Void), (None, None));
    assert_eq!(GameResult::win_for(Color::Black), GameResult::BlackWins);
    assert_eq!(GameResult::WhiteWins.pgn(), "1-0");
    assert_eq!(GameResult::BlackWins.pgn(), "0-1");
    assert_eq!(GameResult::Draw.pgn(), "1/2-1/2");
    assert_eq!(GameResult::Void.pgn(), "*");
}

// ---- Article 6.9: flag fall ----

#[test]
fn art_6_9_flag_fall_loses() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    mv(&mut game, "e4", 10 * SECOND);
    game.tick(71 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::TimeForfeit)
    );
}

#[test]
fn art_6_9_flag_against_lone_king_opponent_is_draw() {
    let mut game = new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(MINUTE, 0),
        PAWN_VS_KING,
    );
    game.tick(61 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::TimeoutDraw)
    );
}

#[test]
fn art_6_9_flag_against_king_and_bishop_is_draw() {
    // White (king and queen) loses on time; Black's king and bishop cannot mate.
    let mut game = new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(MINUTE, 0),
        "4k3/8/8/8/8/8/2b5/3QK3 w - - 0 1",
    );
    game.tick(61 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::TimeoutDraw)
    );
}

#[test]
fn art_6_9_flag_loses_when_a_mate_is_possible_by_any_series_of_moves() {
    // King and bishop against king and pawn: the pawn can block its own king, so the
    // bishop can mate; Black's flag loses.
    let mut game = new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(MINUTE, 0),
        "4k3/4p3/8/8/8/8/8/2B1K3 b - - 0 1",
    );
    game.tick(61 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::TimeForfeit)
    );
}

#[test]
fn a_5_3_rapid_flag_must_be_claimed() {
    let mut game = new_game(Ruleset::FideRapid, TimeControl::fischer(5 * MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let why = is_not_allowed(game.act(Black, Action::ClaimFlag, 3 * SECOND));
    assert!(why.contains("flag"), "{why}");
    // White's time is up at 5 min 2 s, but nobody claims: play goes on.
    assert_eq!(game.tick(10 * MINUTE).unwrap(), 0);
    assert_eq!(game.finish(), None);
    act(&mut game, Black, Action::ClaimFlag, 10 * MINUTE);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

#[test]
fn a_5_3_rapid_flag_claim_is_a_draw_when_the_claimant_cannot_mate() {
    let mut game = new_game_fen(
        Ruleset::FideRapid,
        TimeControl::fischer(MINUTE, 0),
        PAWN_VS_KING,
    );
    act(&mut game, Black, Action::ClaimFlag, 2 * MINUTE);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::TimeoutDraw)
    );
}

#[test]
fn a_5_3_flag_can_still_be_claimed_after_the_flagged_player_moved() {
    let mut game = new_game(Ruleset::FideRapid, TimeControl::fischer(MINUTE, 0));
    // White moves after the flag fell; Black notices on its own turn.
    mv(&mut game, "e4", 70 * SECOND);
    assert_eq!(game.finish(), None);
    act(&mut game, Black, Action::ClaimFlag, 75 * SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

#[test]
fn a_5_3_both_flags_down_the_first_to_fall_loses() {
    // White's flag falls at 60 s and White moves on at 61 s without a claim;
    // Black's flag falls at 121 s. The server knows the order: White loses.
    let mut game = new_game(Ruleset::FideRapid, TimeControl::fischer(MINUTE, 0));
    mv(&mut game, "e4", 61 * SECOND);
    assert_eq!(game.finish(), None);
    // The server's timer wakes for Black's flag.
    assert!(game
        .next_deadline(61 * SECOND)
        .is_some_and(|at| (121 * SECOND..=122 * SECOND).contains(&at)));
    assert_eq!(game.tick(120 * SECOND).unwrap(), 0);
    game.tick(122 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

#[test]
fn b_3_blitz_both_flags_down_the_first_to_fall_loses_in_any_period() {
    // Two moves in a minute, then a minute: White misses the first control,
    // Black's flag falls later in the same period. Guidelines III do not apply
    // in blitz, and nobody has to guess the order.
    let mut game = new_game(Ruleset::FideBlitz, TimeControl::parse("2/60:60").unwrap());
    mv(&mut game, "e4", 61 * SECOND);
    game.tick(200 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}

#[test]
fn art_6_9_both_flags_down_the_first_to_fall_draws_against_a_lone_king() {
    // White (a pawn) fell first, but Black has only its king: drawn (6.9).
    let mut game = new_game_fen(
        Ruleset::FideRapid,
        TimeControl::fischer(MINUTE, 0),
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    );
    mv(&mut game, "e3", 61 * SECOND);
    game.tick(122 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::TimeoutDraw)
    );
}

// ---- Article 9.6: automatic draws ----

#[test]
fn art_9_6_1_fivefold_repetition_ends_the_game() {
    let mut game = standard();
    let line: Vec<&str> = KNIGHT_SHUFFLE.iter().copied().cycle().take(16).collect();
    let at = play(&mut game, &line[..15], 0, SECOND);
    assert_eq!(game.finish(), None);
    mv(&mut game, line[15], at + SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::FivefoldRepetition)
    );
}

#[test]
fn art_9_6_2_seventy_five_moves_end_the_game() {
    let mut game = standard_fen(SEVENTY_FIVE_MINUS_ONE);
    mv(&mut game, "Rb1", SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::SeventyFiveMoves)
    );
}

#[test]
fn art_9_6_2_mate_on_the_seventy_fifth_move_stands() {
    let mut game = standard_fen(SEVENTY_FIVE_MINUS_ONE);
    mv(&mut game, "Ra8#", SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::Checkmate)
    );
}

#[test]
fn art_9_6_fivefold_takes_precedence_over_a_fallen_flag() {
    let mut game = new_game(Ruleset::FideRapid, TimeControl::fischer(MINUTE, 0));
    let line: Vec<&str> = KNIGHT_SHUFFLE.iter().copied().cycle().take(16).collect();
    let at = play(&mut game, &line[..15], 0, SECOND);
    // Black's flag falls before the fifth occurrence is completed by Black's move.
    mv(&mut game, line[15], at + 2 * MINUTE);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::FivefoldRepetition)
    );
    assert_eq!(
        game.act(White, Action::ClaimFlag, at + 2 * MINUTE),
        Err(ActionError::GameOver)
    );
}

#[test]
fn art_9_6_seventy_five_moves_take_precedence_over_a_fallen_flag() {
    let mut game = new_game_fen(
        Ruleset::FideRapid,
        TimeControl::fischer(MINUTE, 0),
        SEVENTY_FIVE_MINUS_ONE,
    );
    mv(&mut game, "Rb1", 2 * MINUTE);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::SeventyFiveMoves)
    );
}

// ---- Article 9.1: draw offers ----

#[test]
fn art_9_1_2_1_a_move_declines_the_offer() {
    let mut game = standard();
    play(&mut game, &["e4", "e5", "Nf3"], 0, SECOND);
    act(&mut game, White, Action::OfferDraw, 4 * SECOND);
    assert_eq!(game.draw_offer(), Some(White));
    let before = game.events().len();
    mv(&mut game, "Nc6", 5 * SECOND);
    assert_eq!(
        new_kinds(&game, before)[0],
        EventKind::DrawDeclined { by: Black }
    );
    assert_eq!(game.draw_offer(), None);
    is_not_allowed(game.act(Black, Action::AcceptDraw, 6 * SECOND));
}

#[test]
fn art_9_1_2_1_the_offerers_own_move_keeps_the_offer_open() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    // Offered before moving (valid, though not the recommended moment).
    act(&mut game, White, Action::OfferDraw, 3 * SECOND);
    mv(&mut game, "Nf3", 4 * SECOND);
    assert_eq!(game.draw_offer(), Some(White));
    act(&mut game, Black, Action::AcceptDraw, 5 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn art_9_1_2_1_offer_declined_explicitly() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(&mut game, White, Action::OfferDraw, 3 * SECOND);
    is_not_allowed(game.act(White, Action::DeclineDraw, 4 * SECOND));
    is_not_allowed(game.act(White, Action::AcceptDraw, 4 * SECOND));
    act(&mut game, Black, Action::DeclineDraw, 4 * SECOND);
    assert_eq!(game.draw_offer(), None);
    assert_eq!(
        game.events().last().unwrap().kind,
        EventKind::DrawDeclined { by: Black }
    );
    assert_eq!(game.finish(), None);
    // Under the Laws a new offer is allowed (11.5 only punishes annoying ones).
    act(&mut game, White, Action::OfferDraw, 5 * SECOND);
    assert_eq!(game.offers_made(White), 2);
}

#[test]
fn art_9_1_2_1_an_open_offer_cannot_be_made_again_or_accepted_by_its_maker() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(&mut game, White, Action::OfferDraw, 3 * SECOND);
    let why = is_not_allowed(game.act(White, Action::OfferDraw, 4 * SECOND));
    assert!(why.contains("open"), "{why}");
    is_not_allowed(game.act(White, Action::AcceptDraw, 4 * SECOND));
    assert_eq!(game.offers_made(White), 1);
}

#[test]
fn art_9_1_offers_crossing_are_an_agreement() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(&mut game, White, Action::OfferDraw, 3 * SECOND);
    act(&mut game, Black, Action::OfferDraw, 4 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

fn move_offering_draw(text: &str) -> Action {
    Action::Move {
        text: text.into(),
        lag_ms: 0,
        offering_draw: true,
    }
}

#[test]
fn art_9_1_2_2_a_draw_offered_with_the_move_is_open_after_it() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(&mut game, White, move_offering_draw("Nf3"), 3 * SECOND);
    assert_eq!(game.plies(), 3);
    assert_eq!(game.draw_offer(), Some(White));
    act(&mut game, Black, Action::AcceptDraw, 4 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn art_9_1_offering_with_a_move_while_the_opponent_offers_agrees_before_the_move() {
    let mut game = standard();
    play(&mut game, &["e4", "e5", "Nf3"], 0, SECOND);
    act(&mut game, White, Action::OfferDraw, 4 * SECOND);
    act(&mut game, Black, move_offering_draw("Nc6"), 5 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
    // Agreed in the position it was offered in: the move was not played.
    assert_eq!(game.plies(), 3);
}

#[test]
fn art_5_2_3_an_offer_the_rules_refuse_leaves_the_move_standing() {
    let mut game = standard();
    // No agreement before both players have moved: the offer is not made...
    act(&mut game, White, move_offering_draw("e4"), SECOND);
    // ...and the move stands.
    assert_eq!(game.plies(), 1);
    assert_eq!(game.draw_offer(), None);
    assert_eq!(game.finish(), None);
}

#[test]
fn art_9_1_accepting_without_an_offer_is_refused() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let why = is_not_allowed(game.act(Black, Action::AcceptDraw, 3 * SECOND));
    assert!(why.contains("no draw offer"), "{why}");
    is_not_allowed(game.act(Black, Action::DeclineDraw, 3 * SECOND));
}

// ---- Articles 9.2–9.5: claims ----

#[test]
fn art_9_2_1_threefold_claim_with_the_intended_move() {
    let mut game = standard();
    play(&mut game, &KNIGHT_SHUFFLE, 0, SECOND);
    play(&mut game, &KNIGHT_SHUFFLE[..3], 4 * SECOND, SECOND);
    // Black writes Ng8, which brings the starting position for the third time.
    act(
        &mut game,
        Black,
        claim(ClaimKind::ThreefoldRepetition, Some("Ng8")),
        8 * SECOND,
    );
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::ThreefoldRepetition)
    );
    assert_eq!(game.sans().len(), 8);
    assert_eq!(game.sans().last().unwrap(), "Ng8");
    assert!(adjustments(&game).is_empty());
}

#[test]
fn art_9_2_2_threefold_claim_when_the_position_has_just_appeared() {
    let mut game = standard();
    play(&mut game, &KNIGHT_SHUFFLE, 0, SECOND);
    play(&mut game, &KNIGHT_SHUFFLE, 4 * SECOND, SECOND);
    assert_eq!(game.finish(), None);
    act(
        &mut game,
        White,
        claim(ClaimKind::ThreefoldRepetition, None),
        9 * SECOND,
    );
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::ThreefoldRepetition)
    );
    assert_eq!(game.sans().len(), 8);
}

#[test]
fn art_9_2_only_the_player_having_the_move_may_claim() {
    let mut game = standard();
    play(&mut game, &KNIGHT_SHUFFLE, 0, SECOND);
    play(&mut game, &KNIGHT_SHUFFLE, 4 * SECOND, SECOND);
    let before = game.events().len();
    let why = is_not_allowed(game.act(
        Black,
        claim(ClaimKind::ThreefoldRepetition, None),
        9 * SECOND,
    ));
    assert!(why.contains("having the move"), "{why}");
    assert_eq!(game.events().len(), before, "no penalty, no event");
}

#[test]
fn art_9_3_1_fifty_move_claim_with_the_intended_move() {
    let mut game = standard_fen(FIFTY_MINUS_ONE);
    act(
        &mut game,
        White,
        claim(ClaimKind::FiftyMoves, Some("Ra2")),
        SECOND,
    );
    assert_eq!(finished(&game), (GameResult::Draw, Termination::FiftyMoves));
    assert_eq!(game.sans(), &["Ra2".to_string()]);
}

#[test]
fn art_9_3_2_fifty_move_claim_after_fifty_moves() {
    let mut game = standard_fen("8/8/8/4k3/8/8/8/R3K3 w - - 100 60");
    act(&mut game, White, claim(ClaimKind::FiftyMoves, None), SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::FiftyMoves));
}

#[test]
fn art_9_3_fifty_moves_are_not_drawn_without_a_claim() {
    let mut game = standard_fen(FIFTY_MINUS_ONE);
    play(&mut game, &["Ra2", "Ke4"], 0, SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(game.position().halfmoves(), 101);
}

#[test]
fn art_9_5_3_wrong_claim_gives_opponent_two_minutes() {
    let mut game = standard_fen(FIFTY_MINUS_ONE);
    let black_before = game.clock().remaining(Black, SECOND);
    act(&mut game, White, claim(ClaimKind::FiftyMoves, None), SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(
        game.clock().remaining(Black, SECOND),
        black_before + 2 * MINUTE
    );
    assert_eq!(adjustments(&game), vec![(Black, 2 * MINUTE as i64)]);
    assert!(game.events().iter().any(|e| e.kind
        == EventKind::ClaimRejected {
            by: White,
            claim: ClaimKind::FiftyMoves
        }));
    // The claimant still has the move.
    assert_eq!(to_move(&game), White);
}

#[test]
fn art_9_5_3_after_a_wrong_claim_the_written_move_is_played() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(
        &mut game,
        White,
        claim(ClaimKind::ThreefoldRepetition, Some("Nf3")),
        3 * SECOND,
    );
    assert_eq!(game.finish(), None);
    assert_eq!(game.sans().last().unwrap(), "Nf3");
    assert_eq!(to_move(&game), Black);
    assert_eq!(adjustments(&game), vec![(Black, 2 * MINUTE as i64)]);
}

#[test]
fn art_9_1_2_3_a_claim_counts_as_a_draw_offer() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(
        &mut game,
        White,
        claim(ClaimKind::ThreefoldRepetition, Some("Nf3")),
        3 * SECOND,
    );
    assert_eq!(game.draw_offer(), Some(White));
    act(&mut game, Black, Action::AcceptDraw, 4 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn a_3_rapid_wrong_claim_gives_opponent_one_minute() {
    let mut game = new_game_fen(
        Ruleset::FideRapid,
        TimeControl::fischer(15 * MINUTE, 0),
        FIFTY_MINUS_ONE,
    );
    act(&mut game, White, claim(ClaimKind::FiftyMoves, None), SECOND);
    assert_eq!(adjustments(&game), vec![(Black, MINUTE as i64)]);
}

#[test]
fn b_3_blitz_wrong_claim_gives_opponent_one_minute() {
    let mut game = new_game_fen(
        Ruleset::FideBlitz,
        TimeControl::fischer(5 * MINUTE, 0),
        FIFTY_MINUS_ONE,
    );
    act(&mut game, White, claim(ClaimKind::FiftyMoves, None), SECOND);
    assert_eq!(adjustments(&game), vec![(Black, MINUTE as i64)]);
}

// ---- Article 7.5: illegal moves ----

#[test]
fn art_7_5_5_first_illegal_move_gives_opponent_two_minutes() {
    let mut game = standard();
    let result = try_mv(&mut game, "Ke2", 5 * SECOND);
    assert!(
        matches!(result, Err(ActionError::IllegalMove(_))),
        "{result:?}"
    );
    assert_eq!(game.illegal_moves(White), 1);
    assert_eq!(game.finish(), None);
    // The position is restored and White is still to move, clock running.
    assert!(game.line().moves().is_empty());
    assert_eq!(to_move(&game), White);
    assert_eq!(game.clock().running(), Some(White));
    assert_eq!(game.clock().remaining(Black, 5 * SECOND), 92 * MINUTE);
    assert_eq!(
        kinds(&game.events()[2..])[0],
        EventKind::IllegalMove {
            color: White,
            attempt: "Ke2".into()
        }
    );
    mv(&mut game, "e4", 6 * SECOND);
}

#[test]
fn art_7_5_5_second_illegal_move_loses() {
    let mut game = standard();
    let _ = try_mv(&mut game, "Ke2", SECOND);
    mv(&mut game, "e4", 2 * SECOND);
    mv(&mut game, "e5", 3 * SECOND);
    let result = try_mv(&mut game, "Qh6", 4 * SECOND);
    assert!(matches!(result, Err(ActionError::IllegalMove(_))));
    assert_eq!(game.illegal_moves(White), 2);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::IllegalMoves)
    );
    // Only the first illegal move gave time.
    assert_eq!(adjustments(&game), vec![(Black, 2 * MINUTE as i64)]);
}

#[test]
fn art_7_5_5_illegal_moves_are_counted_per_player() {
    let mut game = standard();
    let _ = try_mv(&mut game, "Ke2", SECOND);
    mv(&mut game, "e4", 2 * SECOND);
    let _ = try_mv(&mut game, "Ke7", 3 * SECOND);
    assert_eq!(game.finish(), None);
    assert_eq!(
        (game.illegal_moves(White), game.illegal_moves(Black)),
        (1, 1)
    );
    assert_eq!(
        adjustments(&game),
        vec![(Black, 2 * MINUTE as i64), (White, 2 * MINUTE as i64)]
    );
}

#[test]
fn art_7_5_5_second_illegal_move_is_a_draw_when_the_opponent_cannot_mate() {
    let mut game = standard_fen(QUEEN_VS_KING);
    let _ = try_mv(&mut game, "Kd3", SECOND);
    let _ = try_mv(&mut game, "Qa8", 2 * SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::IllegalMoves)
    );
}

#[test]
fn a_3_rapid_illegal_move_penalty_is_one_minute() {
    let mut game = new_game(Ruleset::FideRapid, TimeControl::fischer(15 * MINUTE, 0));
    let _ = try_mv(&mut game, "Ke2", SECOND);
    assert_eq!(adjustments(&game), vec![(Black, MINUTE as i64)]);
    let _ = try_mv(&mut game, "Ke2", 2 * SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::IllegalMoves)
    );
}

#[test]
fn b_3_blitz_illegal_move_penalty_is_one_minute() {
    let mut game = new_game(Ruleset::FideBlitz, TimeControl::fischer(3 * MINUTE, 2_000));
    let _ = try_mv(&mut game, "Ke2", SECOND);
    assert_eq!(adjustments(&game), vec![(Black, MINUTE as i64)]);
    let _ = try_mv(&mut game, "Ke2", 2 * SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::IllegalMoves)
    );
}

#[test]
fn malformed_and_ambiguous_moves_and_moves_out_of_turn_are_not_penalised() {
    let mut game = standard();
    play(&mut game, &["d4", "d5", "Nf3", "Nf6"], 0, SECOND);
    assert!(matches!(
        try_mv(&mut game, "hello", 5 * SECOND),
        Err(ActionError::Malformed(_))
    ));
    // Both knights can go to d2.
    assert!(matches!(
        try_mv(&mut game, "Nd2", 5 * SECOND),
        Err(ActionError::NotAllowed(_))
    ));
    assert_eq!(
        game.act(Black, Action::play("e6"), 5 * SECOND),
        Err(ActionError::NotYourTurn("black"))
    );
    assert_eq!(game.illegal_moves(White), 0);
    assert_eq!(game.illegal_moves(Black), 0);
    assert!(adjustments(&game).is_empty());
    mv(&mut game, "Nbd2", 6 * SECOND);
}

#[test]
fn moves_in_uci_and_san_are_both_accepted() {
    let mut game = standard();
    mv(&mut game, "e2e4", SECOND);
    mv(&mut game, "e5", 2 * SECOND);
    mv(&mut game, "g1f3", 3 * SECOND);
    assert_eq!(game.sans(), &["e4", "e5", "Nf3"]);
}

// ---- Article 6.7: default time ----

#[test]
fn art_6_7_default_time_zero_absent_player_loses() {
    let mut game = standard();
    arbiter(&mut game, ArbiterAction::Forfeit { color: White }, MINUTE);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::NoShow)
    );
}

#[test]
fn art_6_7_a_player_who_has_moved_cannot_be_forfeited_as_absent() {
    let mut game = standard();
    mv(&mut game, "e4", SECOND);
    let refused = game.arbiter(ArbiterAction::Forfeit { color: White }, MINUTE);
    is_not_allowed(refused);
    arbiter(&mut game, ArbiterAction::Forfeit { color: Black }, MINUTE);
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::NoShow)
    );
}

// ---- Article 12: the arbiter ----

#[test]
fn art_12_9_arbiter_warns_a_player() {
    let mut game = standard();
    arbiter(
        &mut game,
        ArbiterAction::Warn {
            color: Black,
            reason: "talking".into(),
        },
        SECOND,
    );
    assert_eq!(game.warnings(Black), 1);
    assert_eq!(game.warnings(White), 0);
    assert_eq!(
        game.events().last().unwrap().kind,
        EventKind::Warned {
            color: Black,
            reason: "talking".into()
        }
    );
    assert_eq!(game.finish(), None);
}

#[test]
fn art_12_9_arbiter_declares_the_result() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    arbiter(
        &mut game,
        ArbiterAction::DeclareResult {
            result: GameResult::BlackWins,
        },
        3 * SECOND,
    );
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::ArbiterDecision)
    );
    assert_eq!(
        game.arbiter(ArbiterAction::Pause, 4 * SECOND),
        Err(ActionError::GameOver)
    );
}

#[test]
fn actions_after_the_end_are_refused() {
    let mut game = standard();
    act(&mut game, White, Action::Resign, SECOND);
    let before = game.events().len();
    for action in [
        Action::Resign,
        Action::OfferDraw,
        Action::ClaimFlag,
        Action::play("e4"),
    ] {
        assert_eq!(
            game.act(White, action, 2 * SECOND),
            Err(ActionError::GameOver)
        );
    }
    assert_eq!(
        game.arbiter(
            ArbiterAction::Warn {
                color: White,
                reason: "late".into()
            },
            2 * SECOND
        ),
        Err(ActionError::GameOver)
    );
    assert_eq!(game.events().len(), before);
}

#[test]
fn fide_rulesets_do_not_allow_aborting_or_claiming_a_departed_opponent() {
    for ruleset in [
        Ruleset::FideStandard,
        Ruleset::FideRapid,
        Ruleset::FideBlitz,
        Ruleset::FideSeedEdition,
    ] {
        let mut game = new_game(ruleset, TimeControl::fischer(5 * MINUTE, 0));
        is_not_allowed(game.act(White, Action::Abort, SECOND));
        is_not_allowed(game.act(
            Black,
            Action::ClaimVictory {
                opponent_gone_ms: DAY,
            },
            SECOND,
        ));
        assert_eq!(game.finish(), None, "{ruleset}");
    }
}

// ---- states ----

#[test]
fn states_waiting_running_paused_adjourned_ended() {
    let mut game = standard();
    assert_eq!(game.status(), Status::WaitingForFirstMoves);
    mv(&mut game, "e4", SECOND);
    assert_eq!(game.status(), Status::WaitingForFirstMoves);
    mv(&mut game, "e5", 2 * SECOND);
    assert_eq!(game.status(), Status::Running);
    arbiter(&mut game, ArbiterAction::Pause, 3 * SECOND);
    assert_eq!(game.status(), Status::Paused);
    arbiter(&mut game, ArbiterAction::Resume, 4 * SECOND);
    assert_eq!(game.status(), Status::Running);
    act(
        &mut game,
        White,
        Action::Seal { text: "Nf3".into() },
        5 * SECOND,
    );
    assert_eq!(game.status(), Status::Adjourned);
    arbiter(&mut game, ArbiterAction::ResumeAdjourned, DAY);
    assert_eq!(game.status(), Status::Running);
    act(&mut game, White, Action::Resign, DAY + SECOND);
    assert_eq!(game.status(), Status::Ended);
    assert_replays(&game);
}

// ---- Guidelines I: adjourned games ----

fn adjourned_game() -> caissa_arbiter::Game {
    let mut game = standard();
    play(&mut game, &["e4", "e5", "Nf3"], 0, 10 * SECOND);
    act(&mut game, Black, Action::OfferDraw, 40 * SECOND);
    act(
        &mut game,
        Black,
        Action::Seal { text: "Nc6".into() },
        100 * SECOND,
    );
    game
}

#[test]
fn guidelines_i_2_the_envelope_records_the_adjourned_game() {
    let game = adjourned_game();
    let envelope = game.envelope().expect("an envelope").clone();
    assert_eq!(envelope.white, "Anna");
    assert_eq!(envelope.black, "Boris");
    assert_eq!(
        envelope.fen,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert_eq!(envelope.sealer, Black);
    assert_eq!(envelope.move_number, 2);
    assert_eq!(envelope.sealed_move, "Nc6");
    assert_eq!(envelope.open_draw_offer, Some(Black));
    // White used 10 s + 10 s; Black 10 s and 70 s before sealing.
    assert_eq!(envelope.time_used_ms, [20 * SECOND, 80 * SECOND]);
    assert_eq!(
        envelope.time_left_ms,
        [90 * MINUTE + 40 * SECOND, 90 * MINUTE - 50 * SECOND]
    );
    // The sealed move is not on the board yet, and the clocks are stopped.
    assert_eq!(game.sans().len(), 3);
    assert_eq!(game.clock().running(), None);
    assert_eq!(game.next_deadline(0), None);
}

#[test]
fn guidelines_i_9_resumption_plays_the_sealed_move_and_starts_the_replying_clock() {
    let mut game = adjourned_game();
    arbiter(&mut game, ArbiterAction::ResumeAdjourned, 3 * DAY);
    assert_eq!(game.envelope(), None);
    assert_eq!(game.sans().last().unwrap(), "Nc6");
    assert_eq!(game.clock().running(), Some(White));
    // The time between the sessions is charged to nobody; the sealed move gets its
    // increment when it is completed.
    assert_eq!(
        game.clock().remaining(White, 3 * DAY + 10 * SECOND),
        90 * MINUTE + 30 * SECOND
    );
    assert_eq!(
        game.clock().side(Black).remaining_ms,
        90 * MINUTE - 20 * SECOND
    );
    // The offer made before sealing still stands (I.2.6).
    assert_eq!(game.draw_offer(), Some(Black));
    act(&mut game, White, Action::AcceptDraw, 3 * DAY + 20 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
    assert_replays(&game);
}

#[test]
fn guidelines_i_1_the_game_cannot_go_on_while_adjourned() {
    let mut game = adjourned_game();
    is_not_allowed(try_mv(&mut game, "Nc6", 200 * SECOND));
    is_not_allowed(game.arbiter(ArbiterAction::Pause, 200 * SECOND));
    is_not_allowed(game.act(
        White,
        claim(ClaimKind::ThreefoldRepetition, None),
        200 * SECOND,
    ));
    // Time does not run out while adjourned.
    assert_eq!(game.tick(30 * DAY).unwrap(), 0);
    assert_eq!(game.finish(), None);
}

#[test]
fn guidelines_i_1_only_the_player_having_the_move_seals() {
    let mut game = standard();
    mv(&mut game, "e4", SECOND);
    assert_eq!(
        game.act(White, Action::Seal { text: "Nf3".into() }, 2 * SECOND),
        Err(ActionError::NotYourTurn("white"))
    );
    assert_eq!(game.envelope(), None);
}

#[test]
fn guidelines_i_4_the_opponent_of_the_sealer_may_offer_a_draw() {
    let mut game = standard();
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(
        &mut game,
        White,
        Action::Seal { text: "Nf3".into() },
        5 * SECOND,
    );
    is_not_allowed(game.act(White, Action::OfferDraw, 6 * SECOND));
    act(&mut game, Black, Action::OfferDraw, 6 * SECOND);
    act(&mut game, White, Action::AcceptDraw, 7 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn guidelines_i_6_resignation_before_resumption_ends_the_game() {
    let mut game = adjourned_game();
    act(&mut game, White, Action::Resign, DAY);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::Resignation)
    );
    assert_eq!(
        game.arbiter(ArbiterAction::ResumeAdjourned, 2 * DAY),
        Err(ActionError::GameOver)
    );
}

#[test]
fn guidelines_i_8_illegal_sealed_move_loses() {
    let mut game = standard();
    mv(&mut game, "e4", SECOND);
    act(
        &mut game,
        Black,
        Action::Seal { text: "Ke7".into() },
        2 * SECOND,
    );
    arbiter(&mut game, ArbiterAction::ResumeAdjourned, DAY);
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::InvalidSealedMove)
    );
    assert_eq!(game.sans().len(), 1);
}

#[test]
fn guidelines_i_8_ambiguous_sealed_move_loses() {
    let mut game = standard();
    play(&mut game, &["d4", "d5", "Nf3", "Nf6"], 0, SECOND);
    act(
        &mut game,
        White,
        Action::Seal { text: "Nd2".into() },
        5 * SECOND,
    );
    arbiter(&mut game, ArbiterAction::ResumeAdjourned, DAY);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::InvalidSealedMove)
    );
}

#[test]
fn guidelines_i_8_meaningless_sealed_move_loses() {
    let mut game = standard();
    act(
        &mut game,
        White,
        Action::Seal {
            text: "the best move".into(),
        },
        SECOND,
    );
    arbiter(&mut game, ArbiterAction::ResumeAdjourned, DAY);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::InvalidSealedMove)
    );
}

#[test]
fn guidelines_i_8_invalid_sealed_move_is_a_draw_when_the_opponent_cannot_mate() {
    let mut game = standard_fen(QUEEN_VS_KING);
    act(
        &mut game,
        White,
        Action::Seal { text: "Qa8".into() },
        SECOND,
    );
    arbiter(&mut game, ArbiterAction::ResumeAdjourned, DAY);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::InvalidSealedMove)
    );
}

#[test]
fn guidelines_i_resuming_a_game_that_is_not_adjourned_is_refused() {
    let mut game = standard();
    is_not_allowed(game.arbiter(ArbiterAction::ResumeAdjourned, SECOND));
}

#[test]
fn guidelines_i_2_envelope_times_agree_with_the_clock_under_a_delay() {
    // With a 5 s simple delay the first 5 s of a turn are not charged. White seals
    // after 20 s: the clock charges 15 s, and the envelope must say the same.
    let mut game = new_game(
        Ruleset::FideStandard,
        TimeControl::with_delay(90 * MINUTE, caissa_arbiter::Delay::Simple(5 * SECOND)),
    );
    act(
        &mut game,
        White,
        Action::Seal { text: "e4".into() },
        20 * SECOND,
    );
    let envelope = game.envelope().unwrap().clone();
    let side = game.clock().side(White);
    assert_eq!(side.used_ms, 15 * SECOND);
    assert_eq!(envelope.time_left_ms[0], side.remaining_ms);
    assert_eq!(
        envelope.time_used_ms[0], side.used_ms,
        "the envelope's time used must be what the clock charged"
    );
}

#[test]
fn guidelines_i_rapid_and_blitz_have_no_adjournment() {
    for ruleset in [Ruleset::FideRapid, Ruleset::FideBlitz] {
        let mut game = new_game(ruleset, TimeControl::fischer(10 * MINUTE, 0));
        is_not_allowed(game.act(White, Action::Seal { text: "e4".into() }, SECOND));
    }
}

// ---- Guidelines III: games without increment ----

/// A standard game without increment where White, to move, has 110 s left at 200 s.
fn white_short_of_time(ruleset: Ruleset) -> caissa_arbiter::Game {
    let mut game = new_game(ruleset, TimeControl::fischer(5 * MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, 10 * SECOND);
    assert_eq!(game.clock().remaining(White, 200 * SECOND), 110 * SECOND);
    game
}

#[test]
fn guidelines_iii_4_increment_request() {
    let mut game = white_short_of_time(Ruleset::FideStandard);
    act(&mut game, White, Action::RequestIncrement, 200 * SECOND);
    // The request is a draw offer.
    assert_eq!(game.draw_offer(), Some(White));
    act(&mut game, Black, Action::DeclineDraw, 201 * SECOND);
    arbiter(&mut game, ArbiterAction::GrantIncrement, 202 * SECOND);
    // Black, who refused, gets two more minutes; both get 5 s per move from now.
    assert_eq!(
        game.clock().remaining(Black, 202 * SECOND),
        7 * MINUTE - 10 * SECOND
    );
    mv(&mut game, "Nf3", 210 * SECOND);
    assert_eq!(game.clock().side(White).remaining_ms, 105 * SECOND);
    mv(&mut game, "Nc6", 215 * SECOND);
    assert_eq!(
        game.clock().side(Black).remaining_ms,
        7 * MINUTE - 10 * SECOND
    );
    // With an increment in place, Guidelines III no longer apply.
    is_not_allowed(game.act(White, Action::RequestIncrement, 216 * SECOND));
    assert_replays(&game);
}

#[test]
fn guidelines_iii_4_the_request_may_be_accepted_as_a_draw() {
    let mut game = white_short_of_time(Ruleset::FideStandard);
    act(&mut game, White, Action::RequestIncrement, 200 * SECOND);
    act(&mut game, Black, Action::AcceptDraw, 201 * SECOND);
    assert_eq!(finished(&game), (GameResult::Draw, Termination::Agreement));
}

#[test]
fn guidelines_iii_4_only_the_player_to_move_with_under_two_minutes() {
    let mut game = white_short_of_time(Ruleset::FideStandard);
    // Black is not to move (and has more than two minutes).
    is_not_allowed(game.act(Black, Action::RequestIncrement, 200 * SECOND));
    // White at 80 s still had 3 min 50 s.
    let mut early = new_game(Ruleset::FideStandard, TimeControl::fischer(5 * MINUTE, 0));
    play(&mut early, &["e4", "e5"], 0, 10 * SECOND);
    let why = is_not_allowed(early.act(White, Action::RequestIncrement, 80 * SECOND));
    assert!(why.contains("two minutes"), "{why}");
    is_not_allowed(early.act(White, Action::ClaimNoProgress, 80 * SECOND));
    is_not_allowed(game.arbiter(ArbiterAction::GrantIncrement, 200 * SECOND));
}

#[test]
fn guidelines_iii_2_never_in_blitz_nor_with_increment() {
    let mut blitz = white_short_of_time(Ruleset::FideBlitz);
    is_not_allowed(blitz.act(White, Action::RequestIncrement, 200 * SECOND));
    is_not_allowed(blitz.act(White, Action::ClaimNoProgress, 200 * SECOND));
    let mut with_increment = new_game(
        Ruleset::FideStandard,
        TimeControl::fischer(2 * MINUTE, SECOND),
    );
    is_not_allowed(with_increment.act(White, Action::RequestIncrement, 10 * SECOND));
    let mut with_delay = new_game(
        Ruleset::FideStandard,
        TimeControl::with_delay(2 * MINUTE, caissa_arbiter::Delay::Simple(5 * SECOND)),
    );
    is_not_allowed(with_delay.act(White, Action::RequestIncrement, 10 * SECOND));
}

#[test]
fn guidelines_iii_4_rapid_award_is_two_minutes() {
    // A.3 makes the penalties of Articles 7 and 9 one minute; the two minutes of
    // Guidelines III.4 are not among them.
    let mut game = white_short_of_time(Ruleset::FideRapid);
    act(&mut game, White, Action::RequestIncrement, 200 * SECOND);
    act(&mut game, Black, Action::DeclineDraw, 201 * SECOND);
    arbiter(&mut game, ArbiterAction::GrantIncrement, 202 * SECOND);
    assert_eq!(adjustments(&game), vec![(Black, 2 * MINUTE as i64)]);
}

#[test]
fn guidelines_iii_5_draw_claim_decided_by_the_arbiter() {
    let mut game = white_short_of_time(Ruleset::FideStandard);
    act(&mut game, White, Action::ClaimNoProgress, 200 * SECOND);
    assert_eq!(
        game.events().last().unwrap().kind,
        EventKind::NoProgressClaimed { by: White }
    );
    assert_eq!(game.finish(), None);
    arbiter(
        &mut game,
        ArbiterAction::DecideNoProgressClaim { draw: true },
        210 * SECOND,
    );
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::ArbiterDecision)
    );
}

#[test]
fn guidelines_iii_5_3_rejected_claim_gives_the_opponent_two_minutes_once() {
    let mut game = white_short_of_time(Ruleset::FideStandard);
    is_not_allowed(game.arbiter(
        ArbiterAction::DecideNoProgressClaim { draw: false },
        200 * SECOND,
    ));
    act(&mut game, White, Action::ClaimNoProgress, 200 * SECOND);
    arbiter(
        &mut game,
        ArbiterAction::DecideNoProgressClaim { draw: false },
        205 * SECOND,
    );
    assert_eq!(game.finish(), None);
    assert_eq!(adjustments(&game), vec![(Black, 2 * MINUTE as i64)]);
    // The claim has been decided: there is nothing left to decide.
    is_not_allowed(game.arbiter(
        ArbiterAction::DecideNoProgressClaim { draw: false },
        206 * SECOND,
    ));
    assert_eq!(adjustments(&game), vec![(Black, 2 * MINUTE as i64)]);
}

#[test]
fn guidelines_iii_4_increment_is_granted_only_after_the_offer_was_refused() {
    // "If refused, and the arbiter agrees": granting the increment settles the
    // request, so the draw offer it made cannot stay open afterwards.
    let mut game = white_short_of_time(Ruleset::FideStandard);
    act(&mut game, White, Action::RequestIncrement, 200 * SECOND);
    let granted = game.arbiter(ArbiterAction::GrantIncrement, 201 * SECOND);
    assert!(
        granted.is_err() || game.draw_offer().is_none(),
        "increment granted while the request's draw offer is still open: {:?}",
        game.events().last()
    );
}

#[test]
fn a_5_3_an_unclaimed_flag_is_not_a_deadline_forever() {
    // In rapid a fallen flag waits for a claim: nothing happens by itself, so the
    // deadline a server's timer waits for must move on once it has passed.
    let mut game = new_game(Ruleset::FideRapid, TimeControl::fischer(MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let deadline = game.next_deadline(0).unwrap();
    assert_eq!(game.tick(deadline).unwrap(), 0);
    assert_eq!(game.finish(), None);
    assert_ne!(
        game.next_deadline(deadline),
        Some(deadline),
        "a timer waiting for this deadline would fire again and again"
    );
}

#[test]
fn termination_names_are_the_serialised_names() {
    use Termination::*;
    for t in [
        Checkmate,
        Resignation,
        TimeForfeit,
        TimeoutDraw,
        Stalemate,
        DeadPosition,
        Agreement,
        ThreefoldRepetition,
        FiftyMoves,
        FivefoldRepetition,
        SeventyFiveMoves,
        IllegalMoves,
        InvalidSealedMove,
        NoShow,
        Abandoned,
        Aborted,
        NoProgress,
        PerpetualChecks,
        ArbiterDecision,
    ] {
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            format!("\"{}\"", t.as_str()),
            "{t:?}"
        );
        let tag = t.pgn_tag();
        assert!(
            [
                "normal",
                "time forfeit",
                "abandoned",
                "rules infraction",
                "adjudication",
                "unterminated"
            ]
            .contains(&tag),
            "{t:?}: {tag}"
        );
    }
}

#[test]
fn art_5_2_2_a_locked_wall_reached_by_a_move_ends_the_game_at_once() {
    let mut game = new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(MINUTE, 0),
        "4k3/8/1p1p1p1p/pPpPpPp1/P1P1P1PP/8/8/4K3 w - - 0 1",
    );
    mv(&mut game, "h5", SECOND);
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::DeadPosition)
    );
}

#[test]
fn art_6_9_flag_against_a_bishop_shut_behind_a_wall_is_a_draw() {
    // Black has bishop and pawns, but the bishop can never reach White's pawns nor
    // cross the wall: no series of legal moves lets Black mate.
    let mut game = new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(MINUTE, 0),
        "4k3/2b5/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1",
    );
    game.tick(61 * SECOND).unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::Draw, Termination::TimeoutDraw)
    );
}
