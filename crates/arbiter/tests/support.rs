//! Helpers shared by the test modules: building games, playing lines of moves at
//! given times, and checking that a game's event log rebuilds it.

use caissa_arbiter::{
    Action, ActionError, ArbiterAction, Event, EventKind, Finish, Game, GameResult, GameSetup,
    Ruleset, Termination, TimeControl,
};
use caissa_rules::Color;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

pub const MINUTE: u64 = 60_000;
pub const SECOND: u64 = 1_000;
pub const DAY: u64 = 86_400_000;

/// Sixteen moves each without a capture, a check or a repeated position: every
/// pawn one step, then knights, bishops, queens and rooks out.
pub const QUIET_LINE: [&str; 32] = [
    "a3", "a6", "b3", "b6", "c3", "c6", "d3", "d6", "e3", "e6", "f3", "f6", "g3", "g6", "h3", "h6",
    "Nd2", "Nd7", "Ne2", "Ne7", "Bb2", "Bb7", "Bg2", "Bg7", "Qc2", "Qc7", "Rc1", "Rc8", "Rh2",
    "Rh7", "Nf4", "Nf5",
];

/// Knights out and back: after each four half-moves the starting position recurs.
pub const KNIGHT_SHUFFLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

/// White king and queen with three pawns against a lone king, White to move.
pub const QUEEN_CHECKS_FEN: &str = "8/8/8/3k4/8/8/PPP5/1K2Q3 w - - 0 1";

/// From [`QUEEN_CHECKS_FEN`]: ten checks in a row by White, no position twice.
pub const TEN_CHECKS: [&str; 19] = [
    "Qd2+", "Kc4", "Qc3+", "Kb5", "Qb4+", "Ka6", "Qa3+", "Kb5", "Qc5+", "Ka4", "Qd4+", "Ka5",
    "Qc3+", "Ka4", "Qb3+", "Ka5", "Qa4+", "Kb6", "Qb3+",
];

/// From [`QUEEN_CHECKS_FEN`]: thirty checks by White, never more than nine in a
/// row (a pawn move after each nine), no position twice.
pub const THIRTY_CHECKS: [&str; 65] = [
    "Qd2+", "Kc4", "Qc3+", "Kb5", "Qb4+", "Ka6", "Qa3+", "Kb5", "Qc5+", "Ka4", "Qd4+", "Ka5",
    "Qc3+", "Ka4", "Qb3+", "Ka5", "Qa4+", "Kb6", "a3", "Kc5", "Qb5+", "Kd4", "Qd3+", "Kc5", "Qc4+",
    "Kb6", "Qb3+", "Ka5", "Qa4+", "Kb6", "Qb5+", "Ka7", "Qa4+", "Kb7", "Qb3+", "Ka6", "Qc4+",
    "Ka5", "b3", "Kb6", "Qb5+", "Ka7", "Qa4+", "Kb6", "Qc6+", "Ka5", "Qd5+", "Ka6", "Qc4+", "Ka5",
    "Qc3+", "Kb5", "Qb4+", "Ka6", "Qa5+", "Kb7", "Qb4+", "Kc6", "c3", "Kd5", "Qa5+", "Ke4", "Qb4+",
    "Kd3", "Qd6+",
];

/// Property-test settings: a fixed number of cases from a fixed seed, so every run
/// checks the same cases; no regression files are written.
pub fn proptest_config(cases: u32, seed: u64) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

pub fn setup(ruleset: Ruleset, control: TimeControl) -> GameSetup {
    GameSetup::new("Anna", "Boris", ruleset, control)
}

pub fn setup_fen(ruleset: Ruleset, control: TimeControl, fen: &str) -> GameSetup {
    GameSetup {
        fen: Some(fen.to_string()),
        ..setup(ruleset, control)
    }
}

/// A game started at time 0.
pub fn new_game(ruleset: Ruleset, control: TimeControl) -> Game {
    Game::new(setup(ruleset, control), 0).expect("a valid setup")
}

/// A game from a FEN, started at time 0.
pub fn new_game_fen(ruleset: Ruleset, control: TimeControl, fen: &str) -> Game {
    Game::new(setup_fen(ruleset, control, fen), 0).expect("a valid setup")
}

pub fn to_move(game: &Game) -> Color {
    game.position().turn()
}

/// The side to move plays `text` at `at`; the move must be accepted.
pub fn mv(game: &mut Game, text: &str, at: u64) {
    let by = to_move(game);
    game.act(by, Action::play(text.to_string()), at)
        .unwrap_or_else(|e| panic!("{text} at {at} ms: {e}"));
}

/// The side to move attempts `text` at `at`, returning what the game says.
pub fn try_mv(game: &mut Game, text: &str, at: u64) -> Result<(), ActionError> {
    let by = to_move(game);
    game.act(by, Action::play(text.to_string()), at)
}

/// Plays `moves` one every `step` ms starting at `from + step`; returns the time of
/// the last move.
pub fn play(game: &mut Game, moves: &[&str], from: u64, step: u64) -> u64 {
    let mut at = from;
    for text in moves {
        at += step;
        mv(game, text, at);
    }
    at
}

pub fn act(game: &mut Game, by: Color, action: Action, at: u64) {
    game.act(by, action.clone(), at)
        .unwrap_or_else(|e| panic!("{action:?} by {by:?} at {at} ms: {e}"));
}

pub fn arbiter(game: &mut Game, action: ArbiterAction, at: u64) {
    game.arbiter(action.clone(), at)
        .unwrap_or_else(|e| panic!("arbiter {action:?} at {at} ms: {e}"));
}

pub fn finished(game: &Game) -> (GameResult, Termination) {
    let Finish {
        result,
        termination,
    } = game
        .finish()
        .unwrap_or_else(|| panic!("the game should be over; events: {:#?}", game.events()));
    (result, termination)
}

pub fn is_not_allowed(result: Result<(), ActionError>) -> String {
    match result {
        Err(ActionError::NotAllowed(why)) => why,
        other => panic!("expected NotAllowed, got {other:?}"),
    }
}

pub fn kinds(events: &[Event]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind.clone()).collect()
}

/// Events added since `before` events.
pub fn new_kinds(game: &Game, before: usize) -> Vec<EventKind> {
    kinds(&game.events()[before..])
}

pub fn adjustments(game: &Game) -> Vec<(Color, i64)> {
    game.events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ClockAdjusted {
                color, delta_ms, ..
            } => Some((*color, *delta_ms)),
            _ => None,
        })
        .collect()
}

/// Rebuilds the game from its setup and events and checks that nothing differs.
pub fn assert_replays(game: &Game) {
    let again = Game::from_events(game.setup().clone(), game.events())
        .unwrap_or_else(|e| panic!("replay failed: {e}; events: {:#?}", game.events()));
    assert_same(game, &again);
}

pub fn assert_same(game: &Game, again: &Game) {
    assert_eq!(again.events(), game.events(), "events");
    assert_eq!(again.position(), game.position(), "position");
    assert_eq!(again.line().moves(), game.line().moves(), "moves");
    assert_eq!(again.sans(), game.sans(), "SAN record");
    assert_eq!(again.clock(), game.clock(), "clock");
    assert_eq!(again.move_clocks(), game.move_clocks(), "move clocks");
    assert_eq!(again.finish(), game.finish(), "finish");
    assert_eq!(again.status(), game.status(), "status");
    assert_eq!(again.draw_offer(), game.draw_offer(), "draw offer");
    assert_eq!(again.envelope(), game.envelope(), "envelope");
    assert_eq!(again.next_deadline(0), game.next_deadline(0), "deadline");
    for color in Color::ALL {
        assert_eq!(
            again.illegal_moves(color),
            game.illegal_moves(color),
            "illegal moves"
        );
        assert_eq!(again.warnings(color), game.warnings(color), "warnings");
        assert_eq!(again.offers_made(color), game.offers_made(color), "offers");
        assert_eq!(
            again.checks_received(color),
            game.checks_received(color),
            "checks"
        );
    }
}
