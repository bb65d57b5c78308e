//! How a game ends by itself or by a flag: Articles 5, 6.9 and 9.6, and A.5.3.

use super::*;

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
