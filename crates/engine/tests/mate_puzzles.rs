//! Mate puzzles: the engine finds the mate and reports it as `mate N`.

use caissa_engine::{search, Engine, Limits, Score};
use caissa_rules::Position;

/// (FEN, solution's first move, mate in N moves for the side to move).
const PUZZLES: &[(&str, &str, i32)] = &[
    // Mate in one.
    ("1k6/ppp5/8/8/8/8/5PPP/3RR1K1 w - - 0 1", "d1d8", 1),
    (
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
        "d8h4",
        1,
    ),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "h5f7",
        1,
    ),
    ("6rk/6pp/8/6N1/8/8/8/6RK w - - 0 1", "g5f7", 1),
    ("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", "g1g7", 1),
    // Mate in two.
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "d5f6",
        2,
    ),
    (
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        "d5d8",
        2,
    ),
    (
        "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
        "g2g1",
        2,
    ),
    (
        "r1bq2r1/b4pk1/p1pp1p2/1p2pP2/1P2P1PB/3P4/1PPQ2P1/R3K2R w - - 0 1",
        "d2h6",
        2,
    ),
    // Mate in three.
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", 3),
    (
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        "f8c5",
        3,
    ),
    (
        "3r1r1k/1p3p1p/p2p4/4n1NN/6bQ/1BPq4/P3p1PP/1R5K w - - 0 1",
        "g5f7",
        3,
    ),
];

fn solve(fen: &str, depth: u32) -> (String, Score) {
    let pos = Position::from_fen(fen).expect("puzzle FEN is valid");
    let r = search(
        &[pos],
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    );
    (pos.to_uci(r.best_move.expect("a move")), r.score)
}

fn check(n: i32) {
    for &(fen, solution, mate) in PUZZLES.iter().filter(|p| p.2 == n) {
        let (mv, score) = solve(fen, 2 * mate as u32 + 4);
        assert_eq!(
            score,
            Score::Mate(mate),
            "{fen}: expected mate {mate}, got {score:?} ({mv})"
        );
        assert_eq!(mv, solution, "{fen}");
    }
}

#[test]
fn finds_mate_in_one() {
    check(1);
}

#[test]
fn finds_mate_in_two() {
    check(2);
}

#[test]
fn finds_mate_in_three() {
    check(3);
}

#[test]
fn go_mate_stops_at_the_mate_it_was_asked_for() {
    let pos = Position::from_fen("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1").unwrap();
    let r = search(
        &[pos],
        &Limits {
            mate: Some(3),
            ..Limits::default()
        },
    );
    assert_eq!(r.score, Score::Mate(3));
    assert_eq!(pos.to_uci(r.best_move.unwrap()), "f6a6");
}

#[test]
fn the_mated_side_sees_its_fate_as_a_negative_mate() {
    // Black's only move walks into Qg7#.
    let pos = Position::from_fen("7k/8/5QK1/8/8/8/8/8 b - - 0 1").unwrap();
    let r = search(
        &[pos],
        &Limits {
            depth: Some(5),
            ..Limits::default()
        },
    );
    assert_eq!(r.score, Score::Mate(-1));
    // A back-rank threat Black can parry is not a mate.
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1").unwrap();
    let r = search(
        &[pos],
        &Limits {
            depth: Some(6),
            ..Limits::default()
        },
    );
    assert!(matches!(r.score, Score::Cp(_)), "{:?}", r.score);
}

#[test]
fn king_and_queen_mate_a_bare_king() {
    let pos = Position::from_fen("8/8/8/8/2k5/8/8/K2Q4 w - - 0 1").unwrap();
    let r = search(
        &[pos],
        &Limits {
            depth: Some(20),
            ..Limits::default()
        },
    );
    assert!(
        matches!(r.score, Score::Mate(n) if n > 0 && n <= 10),
        "{:?}",
        r.score
    );
}

#[test]
fn four_threads_find_the_same_mates() {
    let mut engine = Engine::new(16);
    engine.set_threads(4);
    for &(fen, solution, mate) in PUZZLES {
        engine.new_game();
        let pos = Position::from_fen(fen).unwrap();
        let r = engine.search(
            &[pos],
            &Limits {
                depth: Some(2 * mate as u32 + 4),
                ..Limits::default()
            },
            None,
            None,
            &mut |_| {},
        );
        assert_eq!(r.score, Score::Mate(mate), "{fen}");
        assert_eq!(pos.to_uci(r.best_move.unwrap()), solution, "{fen}");
    }
}
