//! Draw offers and claims: Articles 9.1–9.5 and their penalties.

use super::*;

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
