//! The arbiter's seat (Laws 12, Guidelines I): every action recorded with the
//! arbiter's name and reason, in the log and in the PGN; setting the position back
//! (7.1–7.4); adjourning at the arbiter's call and resuming at a set time; scores
//! only an arbiter can give (0–0, ½–0); correcting a result.

use caissa_arbiter::{
    Action, ArbiterAction, EventKind, Game, GameResult, Ruleset, Status, Termination, TimeControl,
};
use caissa_rules::Color::{Black, White};

use crate::support::*;

/// The PGN with its line breaks as spaces.
fn one_line(pgn: &str) -> String {
    pgn.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn standard_game() -> Game {
    new_game(
        Ruleset::FideStandard,
        TimeControl::fischer(90 * MINUTE, 30 * SECOND),
    )
}

#[test]
fn art_12_every_arbiter_action_is_logged_with_name_and_reason() {
    let mut game = standard_game();
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    game.arbitrate(
        "Ruth",
        "mobile phone rang",
        ArbiterAction::AdjustClock {
            color: White,
            delta_ms: 2 * MINUTE as i64,
            reason: "phone".into(),
        },
        10 * SECOND,
    )
    .unwrap();
    let notes = game.arbiter_notes();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].arbiter, "Ruth");
    assert_eq!(notes[0].reason, "mobile phone rang");
    assert_eq!(notes[0].ply, 2);
    assert_eq!(notes[0].action, "added 120 s to White's clock");
    let pgn = one_line(&game.pgn());
    assert!(
        pgn.contains("1... e5 {[%clk 1:30:29]} {Arbiter Ruth: added 120 s to White's clock (mobile phone rang)}"),
        "{pgn}"
    );
    assert_replays(&game);
}

#[test]
fn art_12_a_refused_arbiter_action_leaves_no_trace() {
    let mut game = standard_game();
    let before = game.events().len();
    let refused = game.arbitrate("Ruth", "why not", ArbiterAction::Resume, SECOND);
    assert!(refused.is_err());
    assert_eq!(game.events().len(), before);
    assert!(game.arbiter_notes().is_empty());
}

#[test]
fn art_7_1_the_arbiter_sets_the_position_back_with_the_clocks() {
    let mut game = standard_game();
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    let white_before = game.clock().side(White).remaining_ms;
    play(&mut game, &["Nf3", "Nc6"], 3 * SECOND, SECOND);
    game.arbitrate(
        "Ruth",
        "pieces displaced",
        ArbiterAction::SetBack { plies: 2 },
        10 * SECOND,
    )
    .unwrap();
    assert_eq!(game.sans(), ["e4", "e5"]);
    assert_eq!(game.position().turn(), White);
    // The clock times are then set as the arbiter judges best (7.1).
    game.arbitrate(
        "Ruth",
        "time as before the irregularity",
        ArbiterAction::SetClock {
            color: White,
            ms: white_before,
        },
        10 * SECOND,
    )
    .unwrap();
    assert_eq!(game.clock().remaining(White, 10 * SECOND), white_before);
    let too_far = game.arbitrate("Ruth", "", ArbiterAction::SetBack { plies: 3 }, 11 * SECOND);
    assert!(too_far.is_err());
    assert_replays(&game);
}

#[test]
fn guidelines_i_1_the_arbiter_adjourns_and_the_player_to_move_must_seal() {
    let mut game = standard_game();
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    game.arbitrate(
        "Ruth",
        "end of session",
        ArbiterAction::Adjourn,
        10 * SECOND,
    )
    .unwrap();
    // The clock still runs and a move on the board is refused.
    assert!(game.act(White, Action::play("Nf3"), 11 * SECOND).is_err());
    game.act(White, Action::Seal { text: "Nf3".into() }, 12 * SECOND)
        .unwrap();
    assert_eq!(game.status(), Status::Adjourned);
    assert!(!game.adjournment_called());
    // The sealed move stays out of the record until the envelope is opened.
    assert!(!game.pgn().contains("Nf3"));
}

#[test]
fn guidelines_i_9_an_adjourned_game_resumes_by_itself_at_the_time_set() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(90 * MINUTE, 0));
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    game.act(White, Action::Seal { text: "Nf3".into() }, 10 * SECOND)
        .unwrap();
    let white_left = game.clock().side(White).remaining_ms;
    let resume = DAY;
    game.arbitrate(
        "Ruth",
        "next round day",
        ArbiterAction::ScheduleResumption { at: resume },
        20 * SECOND,
    )
    .unwrap();
    assert_eq!(game.next_deadline(20 * SECOND), Some(resume));
    assert_eq!(game.tick(resume - 1).unwrap(), 0);
    game.tick(resume + 5 * SECOND).unwrap();
    assert_eq!(game.status(), Status::Running);
    assert_eq!(game.sans(), ["e4", "e5", "Nf3"]);
    // White's clock as it was at sealing: the sealed move costs nothing more.
    assert_eq!(game.clock().side(White).remaining_ms, white_left);
    assert_replays(&game);
}

#[test]
fn guidelines_i_9_both_players_agree_on_when_to_resume() {
    let mut game = standard_game();
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    game.act(White, Action::Seal { text: "Nf3".into() }, 10 * SECOND)
        .unwrap();
    let at = 2 * DAY;
    game.act(White, Action::ProposeResumption { at }, 20 * SECOND)
        .unwrap();
    assert_eq!(game.resume_at(), None);
    assert_eq!(game.resumption_proposed(), Some((White, at)));
    game.act(Black, Action::ProposeResumption { at }, 30 * SECOND)
        .unwrap();
    assert_eq!(game.resume_at(), Some(at));
    game.tick(at).unwrap();
    assert_eq!(game.sans(), ["e4", "e5", "Nf3"]);
}

#[test]
fn guidelines_i_8_an_illegal_sealed_move_loses_when_the_envelope_opens() {
    let mut game = standard_game();
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    game.act(White, Action::Seal { text: "Ke3".into() }, 10 * SECOND)
        .unwrap();
    game.arbitrate("Ruth", "", ArbiterAction::ResumeAdjourned, DAY)
        .unwrap();
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::InvalidSealedMove)
    );
}

#[test]
fn art_12_9_scores_only_an_arbiter_gives() {
    for (result, score, white, black) in [
        (GameResult::BothLose, "0-0", 0.0, 0.0),
        (GameResult::WhiteHalf, "1/2-0", 0.5, 0.0),
        (GameResult::BlackHalf, "0-1/2", 0.0, 0.5),
    ] {
        let mut game = standard_game();
        play(&mut game, &["e4", "e5"], SECOND, SECOND);
        game.arbitrate(
            "Ruth",
            "both players broke 11.3",
            ArbiterAction::DeclareResult { result },
            10 * SECOND,
        )
        .unwrap();
        let finish = game.finish().unwrap();
        assert_eq!(finish.result.score(), score);
        assert_eq!(finish.result.points(White), Some(white));
        assert_eq!(finish.result.points(Black), Some(black));
        assert_eq!(finish.termination, Termination::ArbiterDecision);
        assert_eq!(GameResult::parse_score(score), Some(result));
        // PGN's Result cannot say it; the arbiter's note does.
        let pgn = one_line(&game.pgn());
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        assert!(
            pgn.contains(&format!("declared the result {score}")),
            "{pgn}"
        );
    }
}

#[test]
fn art_12_9_the_arbiter_corrects_a_result_after_the_game() {
    let mut game = standard_game();
    play(&mut game, &["f3", "e5", "g4", "Qh4#"], SECOND, SECOND);
    assert_eq!(game.finish().unwrap().result, GameResult::BlackWins);
    game.arbitrate(
        "Ruth",
        "scoresheets show a draw was agreed first",
        ArbiterAction::DeclareResult {
            result: GameResult::Draw,
        },
        MINUTE,
    )
    .unwrap();
    assert_eq!(game.finish().unwrap().result, GameResult::Draw);
    // Only a result can be changed once the game is over.
    assert!(game
        .arbitrate("Ruth", "", ArbiterAction::Pause, MINUTE + 1)
        .is_err());
    assert_replays(&game);
    assert!(game
        .events()
        .iter()
        .any(|e| matches!(e.kind, EventKind::Arbitrated { .. })));
}

#[test]
fn guidelines_i_1_a_called_adjournment_cannot_be_dodged_by_a_claim_with_a_move() {
    let mut game = standard_game();
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    game.arbitrate("Ruth", "", ArbiterAction::Adjourn, 10 * SECOND)
        .unwrap();
    let claim = Action::ClaimDraw {
        claim: caissa_arbiter::ClaimKind::ThreefoldRepetition,
        with_move: Some("Nf3".into()),
    };
    assert!(game.act(White, claim, 11 * SECOND).is_err());
    assert_eq!(game.sans(), ["e4", "e5"]);
}

#[test]
fn guidelines_i_an_adjourned_game_has_nobody_to_abort_or_claim_against() {
    let mut game = new_game(Ruleset::Online, TimeControl::fischer(10 * MINUTE, 0));
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    game.arbitrate("Ruth", "", ArbiterAction::Adjourn, 10 * SECOND)
        .unwrap();
    game.act(White, Action::Seal { text: "Nf3".into() }, 11 * SECOND)
        .unwrap();
    let gone = Action::ClaimVictory {
        opponent_gone_ms: 10 * MINUTE,
    };
    assert!(game.act(Black, gone, 20 * SECOND).is_err());
    assert!(game.act(Black, Action::Abort, 21 * SECOND).is_err());
    assert_eq!(game.status(), Status::Adjourned);
}

#[test]
fn guidelines_i_9_the_arbiters_time_stands_and_an_overdue_resumption_starts_now() {
    let mut game = standard_game();
    play(&mut game, &["e4", "e5"], SECOND, SECOND);
    game.act(White, Action::Seal { text: "Nf3".into() }, 10 * SECOND)
        .unwrap();
    game.arbitrate(
        "Ruth",
        "",
        ArbiterAction::ScheduleResumption { at: DAY },
        20 * SECOND,
    )
    .unwrap();
    // The players cannot move the arbiter's time.
    let moved = Action::ProposeResumption { at: 2 * DAY };
    assert!(game.act(White, moved, 30 * SECOND).is_err());
    // Nothing is due before the time; after it, the envelope opens when asked
    // (a server back from an outage), with Black's clock starting then.
    assert!(game.resume_overdue(DAY - 1).is_err());
    let black_left = game.clock().side(Black).remaining_ms;
    game.resume_overdue(3 * DAY).unwrap();
    assert_eq!(game.sans(), ["e4", "e5", "Nf3"]);
    assert_eq!(game.clock().remaining(Black, 3 * DAY), black_left);
    assert_replays(&game);
}
