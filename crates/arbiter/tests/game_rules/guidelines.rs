//! Guidelines I (adjourned games) and III (games without increment).

use super::*;

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
