//! Illegal moves (7.5), the default time (6.7), the arbiter (12) and the game's
//! states.

use super::*;

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
