//! Single games between scripted in-process players: the rules endings, adjudication,
//! clocks, and the losses a player causes itself.

use std::collections::VecDeque;
use std::time::Duration;

use caissa_arena::engine::{EngineError, Player, Score, ThinkRequest, Thought};
use caissa_arena::game::{play_game, EndKind, GameRecord, GameSettings};
use caissa_arena::pgn::{to_pgn, PgnHeader};
use caissa_arena::{AdjudicationConfig, TimeControl};
use caissa_pgn::{Reader, Replayer, TreeBuilder};
use caissa_rules::{Color, Position};

/// One scripted answer.
enum Step {
    Move(&'static str, Option<Score>, Duration),
    Fail(EngineError),
}

fn mv(m: &'static str) -> Step {
    Step::Move(m, None, Duration::from_millis(10))
}

fn scored(m: &'static str, cp: i32) -> Step {
    Step::Move(m, Some(Score::Cp(cp)), Duration::from_millis(10))
}

/// Plays its script; records the clocks it was shown.
struct Scripted {
    name: &'static str,
    script: VecDeque<Step>,
    seen_clocks: Vec<([Duration; 2], Duration)>,
    results: Vec<String>,
}

impl Scripted {
    fn new(name: &'static str, script: Vec<Step>) -> Scripted {
        Scripted {
            name,
            script: script.into(),
            seen_clocks: Vec::new(),
            results: Vec::new(),
        }
    }
}

impl Player for Scripted {
    fn name(&self) -> &str {
        self.name
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(())
    }

    fn think(&mut self, request: &ThinkRequest<'_>) -> Result<Thought, EngineError> {
        self.seen_clocks.push((request.clocks, request.deadline));
        match self.script.pop_front() {
            Some(Step::Move(m, score, elapsed)) => Ok(Thought {
                best: m.to_string(),
                score,
                depth: Some(1),
                elapsed,
            }),
            Some(Step::Fail(e)) => Err(e),
            None => panic!(
                "{} ran out of moves at {}",
                self.name,
                request.position.fen()
            ),
        }
    }

    fn game_over(&mut self, result: &str, _reason: &str) {
        self.results.push(result.to_string());
    }
}

fn settings(adjudication: AdjudicationConfig) -> GameSettings {
    GameSettings {
        time_control: "10+0.1".parse().unwrap(),
        margin: Duration::from_millis(100),
        adjudication,
    }
}

/// Splits alternate moves between White's and Black's scripts.
fn split(steps: Vec<Step>, white_first: bool) -> (Vec<Step>, Vec<Step>) {
    let (mut w, mut b) = (Vec::new(), Vec::new());
    for (i, s) in steps.into_iter().enumerate() {
        if (i % 2 == 0) == white_first {
            w.push(s);
        } else {
            b.push(s);
        }
    }
    (w, b)
}

fn play(fen: &str, steps: Vec<Step>, adjudication: AdjudicationConfig) -> GameRecord {
    let start = Position::from_fen(fen).unwrap();
    let (w, b) = split(steps, start.turn() == Color::White);
    let mut white = Scripted::new("White engine", w);
    let mut black = Scripted::new("Black engine", b);
    let record = play_game(&mut white, &mut black, &start, &settings(adjudication));
    assert_eq!(white.results, vec![record.result().to_string()]);
    assert_eq!(black.results, vec![record.result().to_string()]);
    check_pgn(&record);
    record
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The game's PGN reads back, replays legally to the same result, and keeps its tags.
fn check_pgn(record: &GameRecord) {
    let header = PgnHeader {
        event: "Test".into(),
        site: "here".into(),
        date: "2024.01.02".into(),
        round: "7".into(),
        time_control: "10+0.1".into(),
        opening: Some("Some opening".into()),
    };
    let text = to_pgn(record, &header).unwrap();
    let replayed = Reader::from_bytes(text.as_bytes())
        .read_game(&mut Replayer::new())
        .unwrap()
        .unwrap();
    assert!(replayed.error.is_none(), "{text}\n{:?}", replayed.error);
    assert_eq!(replayed.plies as usize, record.moves.len());
    assert_eq!(replayed.result, record.result());
    let tree = Reader::from_bytes(text.as_bytes())
        .read_game(&mut TreeBuilder::new())
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(tree.tag("Termination"), Some(record.end.pgn_termination()));
    assert_eq!(tree.tag("Round"), Some("7"));
    assert_eq!(tree.tag("TimeControl"), Some("10+0.1"));
    assert_eq!(
        tree.tag("PlyCount"),
        Some(record.moves.len().to_string().as_str())
    );
    if record.start_fen == START {
        assert_eq!(tree.tag("FEN"), None);
    } else {
        assert_eq!(tree.tag("FEN"), Some(record.start_fen.as_str()));
        assert_eq!(tree.tag("SetUp"), Some("1"));
    }
    let last_comments = match tree.mainline.moves.last() {
        Some(node) => node.comments.clone(),
        None => tree.mainline.comments.clone(),
    };
    let words = |c: &str| c.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        last_comments.iter().any(|c| words(c) == record.reason),
        "{last_comments:?} lacks {:?}",
        record.reason
    );
}

#[test]
fn checkmate_ends_the_game() {
    let r = play(
        START,
        vec![mv("f2f3"), mv("e7e5"), mv("g2g4"), mv("d8h4")],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("0-1", EndKind::Checkmate));
    assert_eq!(r.reason, "Black mates");
    assert_eq!(r.moves.len(), 4);
}

#[test]
fn stalemate_is_a_draw() {
    let r = play(
        "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1",
        vec![mv("c1c7")],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("1/2-1/2", EndKind::Stalemate));
}

#[test]
fn insufficient_material_is_a_draw() {
    let r = play(
        "k7/8/8/8/8/8/1r6/KN6 w - - 0 1",
        vec![mv("a1b2")],
        AdjudicationConfig::default(),
    );
    assert_eq!(
        (r.result(), r.end),
        ("1/2-1/2", EndKind::InsufficientMaterial)
    );
}

#[test]
fn threefold_repetition_is_a_draw() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let steps = shuffle
        .iter()
        .chain(shuffle.iter())
        .map(|m| mv(m))
        .collect();
    let r = play(START, steps, AdjudicationConfig::default());
    assert_eq!(
        (r.result(), r.end),
        ("1/2-1/2", EndKind::ThreefoldRepetition)
    );
    assert_eq!(r.moves.len(), 8);
}

#[test]
fn fifty_move_rule_is_a_draw() {
    let r = play(
        "k7/8/8/8/8/8/8/K6R w - - 98 60",
        vec![mv("h1h2"), mv("a8b7")],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("1/2-1/2", EndKind::FiftyMoves));
    assert_eq!(r.moves.len(), 2);
}

#[test]
fn resign_adjudication_after_four_moves_each() {
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "d2d3", "d7d6",
    ];
    // White says +12, Black says -12 (from its own side): both agree White wins.
    let steps = moves
        .iter()
        .enumerate()
        .map(|(i, m)| scored(m, if i % 2 == 0 { 1200 } else { -1200 }))
        .collect();
    let r = play(START, steps, AdjudicationConfig::default());
    assert_eq!((r.result(), r.end), ("1-0", EndKind::AdjudicatedWin));
    assert_eq!(r.moves.len(), 8);
    assert!(
        r.reason.starts_with("White wins by adjudication"),
        "{}",
        r.reason
    );
}

#[test]
fn draw_adjudication_after_move_forty() {
    let moves = [
        "a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6", "e2e3", "e7e6", "f2f3",
        "f7f6", "g2g3", "g7g6", "h2h3", "h7h6",
    ];
    let steps = moves.iter().map(|m| scored(m, 5)).collect();
    let r = play(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 40",
        steps,
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("1/2-1/2", EndKind::AdjudicatedDraw));
    assert_eq!(r.moves.len(), 16);
}

#[test]
fn no_draw_adjudication_before_move_forty() {
    // The same level scores at move 10: the game goes on until the script's mate.
    let moves = [
        "a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6", "e2e3", "e7e6", "f2f3",
        "f7f6", "g2g3", "g7g6", "h2h3", "h7h6",
    ];
    let mut steps: Vec<Step> = moves.iter().map(|m| scored(m, 0)).collect();
    steps.push(mv("b1d2"));
    steps.push(mv("h8h7"));
    steps.push(mv("d2b1"));
    steps.push(mv("h7h8"));
    // The start position's counters say move 10: 10 + 8 < 40.
    let r = play(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10",
        steps,
        AdjudicationConfig {
            max_moves: Some(19),
            ..AdjudicationConfig::default()
        },
    );
    assert_eq!(r.end, EndKind::MoveLimit);
    assert_eq!(r.moves.len(), 20);
}

#[test]
fn move_limit_is_a_draw() {
    let r = play(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 200",
        vec![mv("a2a3"), mv("a7a6")],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("1/2-1/2", EndKind::MoveLimit));
    assert_eq!(r.moves.len(), 2);
}

#[test]
fn mate_announcements() {
    // The side that sees itself mated concedes.
    let r = play(
        START,
        vec![
            mv("e2e4"),
            Step::Move("e7e5", Some(Score::Mate(-5)), Duration::from_millis(1)),
        ],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("1-0", EndKind::AdjudicatedWin));
    // Without mate adjudication the same score means nothing.
    let r = play(
        START,
        vec![
            mv("e2e4"),
            Step::Move("e7e5", Some(Score::Mate(-5)), Duration::from_millis(1)),
            mv("f1c4"),
            mv("b8c6"),
            mv("d1h5"),
            mv("g8f6"),
            mv("h5f7"),
        ],
        AdjudicationConfig::none(),
    );
    assert_eq!((r.result(), r.end), ("1-0", EndKind::Checkmate));
}

#[test]
fn flag_fall_loses_unless_the_opponent_cannot_mate() {
    let slow = |m| Step::Move(m, None, Duration::from_millis(10_101));
    let r = play(
        START,
        vec![mv("e2e4"), slow("e7e5")],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("1-0", EndKind::TimeForfeit));
    assert!(r.reason.starts_with("Black loses on time"), "{}", r.reason);
    assert_eq!(r.moves.len(), 1);

    // Within the 100 ms margin: fine.
    let in_margin = Step::Move("e7e5", None, Duration::from_millis(10_099));
    let r = play(
        START,
        vec![mv("f2f3"), in_margin, mv("g2g4"), mv("d8h4")],
        AdjudicationConfig::default(),
    );
    assert_eq!(r.end, EndKind::Checkmate);

    // White's flag falls but Black has a bare king.
    let r = play(
        "k7/8/8/8/8/8/8/KQ6 w - - 0 1",
        vec![slow("b1b2")],
        AdjudicationConfig::default(),
    );
    assert_eq!(
        (r.result(), r.end),
        ("1/2-1/2", EndKind::TimeoutVsInsufficientMaterial)
    );

    // A player that does not answer at all (the UCI client's timeout).
    let r = play(
        START,
        vec![Step::Fail(EngineError::Timeout("no bestmove".into()))],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("0-1", EndKind::TimeForfeit));
}

#[test]
fn illegal_moves_and_crashes_lose() {
    let r = play(START, vec![mv("e2e5")], AdjudicationConfig::default());
    assert_eq!((r.result(), r.end), ("0-1", EndKind::IllegalMove));
    assert_eq!(r.reason, "White makes an illegal move: e2e5");
    let r = play(
        START,
        vec![mv("e2e4"), mv("(none)")],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("1-0", EndKind::IllegalMove));
    let r = play(
        START,
        vec![
            mv("d2d4"),
            Step::Fail(EngineError::Crashed("exited with status 3".into())),
        ],
        AdjudicationConfig::default(),
    );
    assert_eq!((r.result(), r.end), ("1-0", EndKind::EngineFailure));
    assert!(r.reason.contains("exited with status 3"), "{}", r.reason);
}

#[test]
fn clocks_run_down_and_get_the_increment() {
    let start = Position::new();
    let took = |m| Step::Move(m, None, Duration::from_millis(2500));
    let mut white = Scripted::new("w", vec![took("f2f3"), took("g2g4")]);
    let mut black = Scripted::new("b", vec![took("e7e5"), took("d8h4")]);
    let s = GameSettings {
        time_control: TimeControl::new(Duration::from_secs(10), Duration::from_millis(100)),
        margin: Duration::from_millis(50),
        adjudication: AdjudicationConfig::default(),
    };
    let r = play_game(&mut white, &mut black, &start, &s);
    assert_eq!(r.end, EndKind::Checkmate);
    let ms = Duration::from_millis;
    // White's first move: full clocks, deadline = clock + margin.
    assert_eq!(white.seen_clocks[0], ([ms(10_000), ms(10_000)], ms(10_050)));
    // Black's first: White has 10 - 2.5 + 0.1.
    assert_eq!(black.seen_clocks[0], ([ms(7_600), ms(10_000)], ms(10_050)));
    assert_eq!(white.seen_clocks[1], ([ms(7_600), ms(7_600)], ms(7_650)));
    assert_eq!(black.seen_clocks[1], ([ms(5_200), ms(7_600)], ms(7_650)));
}
