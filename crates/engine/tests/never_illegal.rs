//! Whatever the limits, the engine's move is a legal move of the position, and a
//! position without legal moves gets no move.

use caissa_engine::{level_move, search, Engine, Limits, Rng, Score};
use caissa_rules::Position;

/// Positions reached by random play from the initial position (some end in mate
/// or stalemate), with the game so far.
fn random_games(count: usize, seed: u64) -> Vec<Vec<Position>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..count {
        let mut line = vec![Position::new()];
        let plies = rng.below(160);
        for _ in 0..plies {
            let pos = *line.last().unwrap();
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut next = pos;
            next.play_unchecked(moves[rng.below(moves.len())]);
            line.push(next);
        }
        out.push(line);
    }
    out
}

fn assert_sound(line: &[Position], result: &caissa_engine::SearchResult, what: &str) {
    let pos = line.last().unwrap();
    let moves = pos.legal_moves();
    match result.best_move {
        Some(m) => assert!(moves.contains(&m), "{what}: illegal {m:?} in {}", pos.fen()),
        None => assert!(moves.is_empty(), "{what}: no move in {}", pos.fen()),
    }
    // The principal variation is a legal line.
    let mut p = *pos;
    for &m in &result.pv {
        assert!(
            p.legal_moves().contains(&m),
            "{what}: PV {:?} illegal in {}",
            result.pv,
            pos.fen()
        );
        p.play_unchecked(m);
    }
}

#[test]
fn random_positions_at_depth_one_and_tiny_budgets() {
    let mut engine = Engine::new(1);
    for (i, line) in random_games(150, 7).iter().enumerate() {
        let budgets = [
            Limits {
                depth: Some(1),
                ..Limits::default()
            },
            Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            Limits {
                movetime: Some(0),
                ..Limits::default()
            },
            Limits {
                wtime: Some(10),
                btime: Some(10),
                ..Limits::default()
            },
            Limits {
                wtime: Some(0),
                btime: Some(0),
                winc: Some(0),
                binc: Some(0),
                ..Limits::default()
            },
        ];
        for limits in &budgets {
            let r = engine.search(line, limits, None, None, &mut |_| {});
            assert_sound(line, &r, &format!("game {i} {limits:?}"));
        }
    }
}

#[test]
fn random_positions_at_depth_four() {
    let mut engine = Engine::new(4);
    for line in random_games(60, 11) {
        let r = engine.search(
            &line,
            &Limits {
                depth: Some(4),
                ..Limits::default()
            },
            None,
            None,
            &mut |_| {},
        );
        assert_sound(&line, &r, "depth 4");
    }
}

#[test]
fn checkmated_position_has_no_move_and_scores_mate_zero() {
    let pos = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
        .unwrap();
    assert!(pos.is_checkmate());
    let r = search(
        &[pos],
        &Limits {
            depth: Some(5),
            ..Limits::default()
        },
    );
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Mate(0));
    assert_eq!(level_move(&[pos], 1, 1), None);
    assert_eq!(level_move(&[pos], 8, 1), None);
}

#[test]
fn stalemated_position_has_no_move_and_scores_zero() {
    let pos = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(pos.is_stalemate());
    let r = search(
        &[pos],
        &Limits {
            depth: Some(5),
            ..Limits::default()
        },
    );
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn a_single_legal_move_is_played() {
    // Black in check with one escape.
    let pos = Position::from_fen("7k/8/5QK1/8/8/8/8/8 b - - 0 1").unwrap();
    let only = pos.legal_moves();
    assert_eq!(only.len(), 1);
    for limits in [
        Limits {
            depth: Some(1),
            ..Limits::default()
        },
        Limits {
            wtime: Some(5),
            btime: Some(5),
            ..Limits::default()
        },
        Limits::default_with_nodes(50),
    ] {
        let r = search(&[pos], &limits);
        assert_eq!(r.best_move, Some(only[0]));
    }
    for level in 1..=8 {
        assert_eq!(level_move(&[pos], level, 3), Some(only[0]));
    }
}

trait NodesLimit {
    fn default_with_nodes(n: u64) -> Limits;
}

impl NodesLimit for Limits {
    fn default_with_nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

#[test]
fn every_level_plays_legal_moves_in_random_positions() {
    let mut engine = Engine::new(1);
    for (i, line) in random_games(40, 5).iter().enumerate() {
        let pos = line.last().unwrap();
        for level in 1..=7 {
            let m = engine.level_move(line, level, i as u64 * 31 + u64::from(level));
            match m {
                Some(m) => assert!(
                    pos.legal_moves().contains(&m),
                    "level {level}: {m:?} in {}",
                    pos.fen()
                ),
                None => assert!(pos.legal_moves().is_empty()),
            }
        }
    }
}
