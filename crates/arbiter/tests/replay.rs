//! A game is its event log: replaying the events rebuilds it exactly, the log
//! survives JSON, and logs that do not fit the game are refused with the index of
//! the offending event.

use caissa_arbiter::{
    Action, ActionError, ArbiterAction, ClaimKind, Event, EventKind, Game, GameResult, GameSetup,
    Ruleset, Termination, TimeControl,
};
use caissa_rules::Color::{Black, White};

use crate::support::*;

/// A standard game without increment that goes through most kinds of event.
fn eventful_game() -> Game {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(5 * MINUTE, 0));
    let _ = try_mv(&mut game, "Ke2", SECOND);
    play(&mut game, &["e4", "e5", "Nf3"], SECOND, SECOND);
    act(&mut game, White, Action::OfferDraw, 5 * SECOND);
    mv(&mut game, "Nc6", 6 * SECOND);
    act(
        &mut game,
        White,
        Action::ClaimDraw {
            claim: ClaimKind::FiftyMoves,
            with_move: Some("Bb5".into()),
        },
        7 * SECOND,
    );
    act(&mut game, Black, Action::DeclineDraw, 8 * SECOND);
    arbiter(&mut game, ArbiterAction::Pause, 9 * SECOND);
    arbiter(
        &mut game,
        ArbiterAction::Warn {
            color: White,
            reason: "talking".into(),
        },
        10 * SECOND,
    );
    arbiter(
        &mut game,
        ArbiterAction::AdjustClock {
            color: Black,
            delta_ms: -(30 * SECOND as i64),
            reason: "phone rang".into(),
        },
        11 * SECOND,
    );
    arbiter(&mut game, ArbiterAction::Resume, 40 * SECOND);
    arbiter(
        &mut game,
        ArbiterAction::SetClock {
            color: Black,
            ms: 100 * SECOND,
        },
        45 * SECOND,
    );
    mv(&mut game, "a6", 50 * SECOND);
    // White now thinks long enough to be under two minutes.
    act(&mut game, White, Action::RequestIncrement, 250 * SECOND);
    act(&mut game, Black, Action::DeclineDraw, 251 * SECOND);
    arbiter(&mut game, ArbiterAction::GrantIncrement, 252 * SECOND);
    mv(&mut game, "Ba4", 260 * SECOND);
    act(
        &mut game,
        Black,
        Action::Seal { text: "Nf6".into() },
        270 * SECOND,
    );
    arbiter(&mut game, ArbiterAction::ResumeAdjourned, DAY);
    mv(&mut game, "O-O", DAY + 5 * SECOND);
    act(&mut game, Black, Action::Resign, DAY + 9 * SECOND);
    game
}

#[test]
fn replay_rebuilds_a_game_with_every_kind_of_event() {
    let game = eventful_game();
    let kinds = kinds(game.events());
    let has = |pred: fn(&EventKind) -> bool| kinds.iter().any(pred);
    assert!(has(|k| matches!(k, EventKind::ClockStarted { .. })));
    assert!(has(|k| matches!(k, EventKind::IllegalMove { .. })));
    assert!(has(|k| matches!(k, EventKind::DrawOffered { .. })));
    assert!(has(|k| matches!(k, EventKind::DrawDeclined { .. })));
    assert!(has(|k| matches!(k, EventKind::ClaimRejected { .. })));
    assert!(has(|k| matches!(k, EventKind::ClockAdjusted { .. })));
    assert!(has(|k| matches!(k, EventKind::ClockSet { .. })));
    assert!(has(|k| matches!(k, EventKind::Paused)));
    assert!(has(|k| matches!(k, EventKind::Resumed)));
    assert!(has(|k| matches!(k, EventKind::Warned { .. })));
    assert!(has(|k| matches!(k, EventKind::IncrementRequested { .. })));
    assert!(has(|k| matches!(k, EventKind::IncrementAdded { .. })));
    assert!(has(|k| matches!(k, EventKind::Adjourned { .. })));
    assert!(has(|k| matches!(k, EventKind::ResumedFromAdjournment)));
    assert!(has(|k| matches!(k, EventKind::Ended { .. })));
    assert_eq!(
        finished(&game),
        (GameResult::WhiteWins, Termination::Resignation)
    );
    assert_replays(&game);
}

#[test]
fn replay_of_each_prefix_matches_the_game_at_that_point() {
    // Snapshots after each step, compared with the replay of the events so far.
    let mut game = new_game(Ruleset::FideRapid, TimeControl::fischer(MINUTE, SECOND));
    let mut snapshots = vec![game.clone()];
    for (i, text) in ["e4", "e5", "Nf3", "Nc6"].into_iter().enumerate() {
        mv(&mut game, text, (i as u64 + 1) * 5 * SECOND);
        snapshots.push(game.clone());
    }
    act(&mut game, White, Action::OfferDraw, 25 * SECOND);
    snapshots.push(game.clone());
    let _ = try_mv(&mut game, "Ke3", 26 * SECOND);
    snapshots.push(game.clone());
    mv(&mut game, "Bc4", 2 * MINUTE);
    snapshots.push(game.clone());
    // White's flag fell before Bc4; Black claims it (A.5.3).
    act(&mut game, Black, Action::ClaimFlag, 3 * MINUTE);
    assert_eq!(
        finished(&game),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
    snapshots.push(game.clone());
    for snapshot in &snapshots {
        let n = snapshot.events().len();
        let again = Game::from_events(game.setup().clone(), &game.events()[..n]).unwrap();
        assert_same(snapshot, &again);
    }
}

#[test]
fn events_round_trip_through_json() {
    let game = eventful_game();
    let json = serde_json::to_string(game.events()).unwrap();
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game.events());
    let again = Game::from_events(game.setup().clone(), &back).unwrap();
    assert_same(&game, &again);
}

#[test]
fn events_serialize_as_flat_tagged_objects() {
    let event = Event {
        at: 1_500,
        kind: EventKind::Moved {
            color: White,
            uci: "e2e4".into(),
            san: "e4".into(),
            lag_ms: 0,
        },
    };
    let value = serde_json::to_value(&event).unwrap();
    assert_eq!(
        value,
        serde_json::json!({"at": 1500, "type": "moved", "color": "white", "uci": "e2e4", "san": "e4"})
    );
    let paused = serde_json::to_value(Event {
        at: 7,
        kind: EventKind::Paused,
    })
    .unwrap();
    assert_eq!(paused, serde_json::json!({"at": 7, "type": "paused"}));
    let adjusted = serde_json::to_value(Event {
        at: 9,
        kind: EventKind::ClockAdjusted {
            color: Black,
            delta_ms: -60_000,
            reason: "penalty".into(),
        },
    })
    .unwrap();
    assert_eq!(adjusted["delta_ms"], serde_json::json!(-60_000));
    assert_eq!(adjusted["type"], serde_json::json!("clock_adjusted"));
}

#[test]
fn setup_round_trips_through_json() {
    let setup = GameSetup {
        fen: Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into()),
        ..setup(
            Ruleset::Ladder,
            TimeControl::fast(10 * MINUTE, 30 * SECOND, 5 * SECOND),
        )
    };
    let json = serde_json::to_string(&setup).unwrap();
    let back: GameSetup = serde_json::from_str(&json).unwrap();
    assert_eq!(back, setup);
}

fn replay_error(setup: GameSetup, events: &[Event]) -> (usize, String) {
    match Game::from_events(setup, events) {
        Err(ActionError::Replay { index, why }) => (index, why),
        Err(other) => panic!("expected a replay error, got {other}"),
        Ok(_) => panic!("the log should be refused"),
    }
}

#[test]
fn replay_refuses_an_illegal_move() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let mut events = game.events().to_vec();
    if let EventKind::Moved { uci, .. } = &mut events[2].kind {
        *uci = "e7e4".into();
    }
    let (index, _) = replay_error(game.setup().clone(), &events);
    assert_eq!(index, 2);
}

#[test]
fn replay_refuses_a_move_out_of_turn() {
    let game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    let mut events = game.events().to_vec();
    events.push(Event {
        at: SECOND,
        kind: EventKind::Moved {
            color: Black,
            uci: "e7e5".into(),
            san: "e5".into(),
            lag_ms: 0,
        },
    });
    let (index, why) = replay_error(game.setup().clone(), &events);
    assert_eq!(index, 2);
    assert!(why.contains("turn"), "{why}");
}

#[test]
fn replay_refuses_time_going_backwards() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, 10 * SECOND);
    let mut events = game.events().to_vec();
    events[3].at = 5 * SECOND;
    let (index, _) = replay_error(game.setup().clone(), &events);
    assert_eq!(index, 3);
}

#[test]
fn replay_refuses_events_after_the_end() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, SECOND);
    act(&mut game, White, Action::Resign, 3 * SECOND);
    let mut events = game.events().to_vec();
    events.push(Event {
        at: 4 * SECOND,
        kind: EventKind::Warned {
            color: White,
            reason: "late".into(),
        },
    });
    let (index, why) = replay_error(game.setup().clone(), &events);
    assert_eq!(index, events.len() - 1);
    assert!(why.contains("over"), "{why}");
}

#[test]
fn replay_refuses_resuming_a_game_that_was_not_adjourned() {
    let game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    let mut events = game.events().to_vec();
    events.push(Event {
        at: SECOND,
        kind: EventKind::ResumedFromAdjournment,
    });
    let (index, _) = replay_error(game.setup().clone(), &events);
    assert_eq!(index, 2);
}

#[test]
fn bad_setup_is_refused() {
    let bad = GameSetup {
        fen: Some("not a fen".into()),
        ..setup(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0))
    };
    assert!(matches!(
        Game::new(bad.clone(), 0),
        Err(ActionError::Setup(_))
    ));
    assert!(matches!(
        Game::from_events(bad, &[]),
        Err(ActionError::Setup(_))
    ));
}
