//! PGN export: the seven-tag roster with `TimeControl`, `Termination` and `Ruleset`,
//! `[%clk]` after each move, and a record other readers replay to the same position.

use std::time::Duration;

use caissa_arbiter::{Action, Game, Ruleset, TimeControl};
use caissa_pgn::{GameTree, Reader, Replayer, TreeBuilder};
use caissa_rules::Color::{Black, White};

use crate::support::*;

fn read_tree(pgn: &str) -> GameTree {
    Reader::from_bytes(pgn.as_bytes())
        .read_game(&mut TreeBuilder::new())
        .expect("no I/O error")
        .expect("one game")
        .unwrap_or_else(|e| panic!("{e:?} in\n{pgn}"))
}

fn clocks(tree: &GameTree) -> Vec<Option<Duration>> {
    tree.mainline.moves.iter().map(|n| n.clock()).collect()
}

/// The PGN replays (with another reader) to the game's position.
fn assert_pgn_replays(game: &Game) {
    let pgn = game.pgn();
    let replayed = Reader::from_bytes(pgn.as_bytes())
        .read_game(&mut Replayer::new())
        .expect("no I/O error")
        .expect("one game");
    assert_eq!(replayed.error, None, "{pgn}");
    assert_eq!(replayed.plies as usize, game.line().moves().len(), "{pgn}");
    assert_eq!(replayed.position.fen(), game.position().fen(), "{pgn}");
}

#[test]
fn pgn_has_the_result_time_control_termination_and_ruleset_tags() {
    let mut game = new_game(
        Ruleset::FideBlitz,
        TimeControl::fischer(3 * MINUTE, 2 * SECOND),
    );
    play(&mut game, &["f3", "e5", "g4", "Qh4#"], 0, SECOND);
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("White"), Some("Anna"));
    assert_eq!(tree.tag("Black"), Some("Boris"));
    assert_eq!(tree.tag("Result"), Some("0-1"));
    assert_eq!(tree.tag("TimeControl"), Some("180+2"));
    assert_eq!(tree.tag("Termination"), Some("normal"));
    assert_eq!(tree.tag("Ruleset"), Some("fide-blitz"));
    assert_eq!(tree.result, "0-1");
    let sans: Vec<String> = tree
        .mainline
        .moves
        .iter()
        .map(|n| n.san.to_string())
        .collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4"]);
    assert_pgn_replays(&game);
}

#[test]
fn pgn_clk_is_the_movers_time_after_each_move() {
    let mut game = new_game(
        Ruleset::FideBlitz,
        TimeControl::fischer(3 * MINUTE, 2 * SECOND),
    );
    play(&mut game, &["f3", "e5", "g4", "Qh4#"], 0, SECOND);
    let secs = |s| Some(Duration::from_secs(s));
    assert_eq!(
        clocks(&read_tree(&game.pgn())),
        vec![secs(181), secs(181), secs(182), secs(182)]
    );
}

#[test]
fn pgn_time_forfeit_termination() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    mv(&mut game, "e4", 10 * SECOND);
    game.tick(2 * MINUTE).unwrap();
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("Result"), Some("1-0"));
    assert_eq!(tree.tag("Termination"), Some("time forfeit"));
    assert_eq!(tree.tag("TimeControl"), Some("60"));
    assert_eq!(clocks(&tree), vec![Some(Duration::from_secs(50))]);
}

#[test]
fn pgn_illegal_moves_termination_is_rules_infraction() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    let _ = try_mv(&mut game, "Ke2", SECOND);
    let _ = try_mv(&mut game, "Ke2", 2 * SECOND);
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("Termination"), Some("rules infraction"));
    assert_eq!(tree.tag("Result"), Some("0-1"));
}

#[test]
fn pgn_aborted_game_is_unterminated_without_result() {
    let mut game = new_game(Ruleset::Online, TimeControl::fischer(MINUTE, 0));
    mv(&mut game, "e4", SECOND);
    act(&mut game, Black, Action::Abort, 2 * SECOND);
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("Result"), Some("*"));
    assert_eq!(tree.tag("Termination"), Some("unterminated"));
}

#[test]
fn pgn_of_a_game_in_progress_has_no_termination() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0));
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("Result"), Some("*"));
    assert_eq!(tree.tag("Termination"), None);
    act(&mut game, White, Action::Resign, 3 * SECOND);
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("Result"), Some("0-1"));
    assert_eq!(tree.tag("Termination"), Some("normal"));
}

#[test]
fn pgn_of_a_game_from_a_position_has_setup_and_fen() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
    let mut game = new_game_fen(Ruleset::FideStandard, TimeControl::fischer(MINUTE, 0), fen);
    play(&mut game, &["Kd7", "e4"], 0, SECOND);
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("SetUp"), Some("1"));
    assert_eq!(tree.tag("FEN"), Some(fen));
    assert_pgn_replays(&game);
}

#[test]
fn pgn_without_a_clock_has_no_clk_and_a_dash_time_control() {
    let mut game = new_game(Ruleset::FideStandard, TimeControl::unlimited());
    play(&mut game, &["e4", "e5"], 0, SECOND);
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("TimeControl"), Some("-"));
    assert_eq!(clocks(&tree), vec![None, None]);
}

#[test]
fn pgn_of_multi_period_and_delay_controls() {
    let game = new_game(
        Ruleset::FideStandard,
        TimeControl::parse("40/5400+30:1800+30").unwrap(),
    );
    assert_eq!(
        read_tree(&game.pgn()).tag("TimeControl"),
        Some("40/5400+30:1800+30")
    );
    let game = new_game(Ruleset::FideStandard, TimeControl::parse("300d5").unwrap());
    assert_eq!(read_tree(&game.pgn()).tag("TimeControl"), Some("300d5"));
}

#[test]
fn pgn_of_an_online_game_shows_the_untouched_clock_for_the_first_moves() {
    let mut game = new_game(Ruleset::Online, TimeControl::fischer(MINUTE, SECOND));
    play(&mut game, &["e4", "e5", "Nf3"], 0, 10 * SECOND);
    let secs = |s| Some(Duration::from_secs(s));
    assert_eq!(
        clocks(&read_tree(&game.pgn())),
        vec![secs(60), secs(60), secs(51)]
    );
}

#[test]
fn pgn_of_a_correspondence_game_does_not_show_an_empty_clock() {
    // There is no game clock, only days per move: a move made with days to spare
    // must not be recorded as made with 0:00:00 left.
    let mut game = new_game(Ruleset::FideStandard, TimeControl::correspondence(3));
    play(&mut game, &["e4", "e5"], 0, DAY);
    let tree = read_tree(&game.pgn());
    assert_eq!(tree.tag("TimeControl"), Some("3d"));
    for (i, clock) in clocks(&tree).into_iter().enumerate() {
        assert_ne!(
            clock,
            Some(Duration::ZERO),
            "move {} was made with two days left:\n{}",
            i + 1,
            game.pgn()
        );
    }
}
