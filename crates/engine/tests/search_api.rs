//! The library interface of the search: limits, MultiPV, searchmoves, stopping and
//! progress reports.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use caissa_engine::{search, Engine, Info, Limits, Score};
use caissa_rules::Position;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let mut engine = Engine::new(8);
    engine.multipv = 4;
    let mut infos: Vec<Info> = Vec::new();
    let r = engine.search(&[pos], &depth(6), None, None, &mut |i| {
        infos.push(i.clone())
    });
    assert_eq!(r.lines.len(), 4);
    let firsts: std::collections::HashSet<_> = r.lines.iter().map(|l| l.mv).collect();
    assert_eq!(firsts.len(), 4);
    for w in r.lines.windows(2) {
        assert!(w[0].raw_score >= w[1].raw_score, "{:?}", r.lines);
    }
    assert_eq!(r.best_move, Some(r.lines[0].mv));
    let last: Vec<_> = infos
        .iter()
        .filter(|i| i.depth == 6)
        .map(|i| i.multipv)
        .collect();
    assert_eq!(last, vec![1, 2, 3, 4]);
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = Position::new();
    let only = pos.parse_uci("a2a3").unwrap();
    let r = search(
        &[pos],
        &Limits {
            depth: Some(5),
            searchmoves: vec![only],
            ..Limits::default()
        },
    );
    assert_eq!(r.best_move, Some(only));
}

#[test]
fn searchmoves_naming_no_legal_move_is_ignored() {
    // e2e4 was legal a move ago; here it is not (the pawn has moved).
    let mut pos = Position::new();
    let stale = pos.parse_uci("e2e4").unwrap();
    pos.play_unchecked(stale);
    pos.play_unchecked(pos.parse_uci("e7e5").unwrap());
    let r = search(
        &[pos],
        &Limits {
            depth: Some(3),
            searchmoves: vec![stale],
            ..Limits::default()
        },
    );
    let best = r.best_move.expect("a move despite the stale list");
    assert!(pos.legal_moves().contains(&best));
}

#[test]
fn depth_and_node_limits_hold() {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let mut reported = Vec::new();
    let r = Engine::new(4).search(&[pos], &depth(7), None, None, &mut |i| {
        reported.push(i.depth)
    });
    assert_eq!(r.depth, 7);
    assert_eq!(reported, (1..=7).collect::<Vec<_>>());
    let r = search(
        &[pos],
        &Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
    );
    assert!(r.nodes <= 20_001, "{} nodes", r.nodes);
    assert!(r.best_move.is_some());
}

#[test]
fn a_stop_before_the_start_still_yields_a_legal_move() {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let stop = AtomicBool::new(true);
    let r = Engine::new(1).search(
        &[pos],
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        Some(&stop),
        None,
        &mut |_| {},
    );
    let m = r.best_move.unwrap();
    assert!(pos.legal_moves().contains(&m));
    assert_eq!(r.depth, 1);
}

#[test]
fn an_infinite_search_ends_when_stopped_from_another_thread() {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    let handle = std::thread::spawn(move || {
        Engine::new(4).search(
            &[pos],
            &Limits {
                infinite: true,
                ..Limits::default()
            },
            Some(&s),
            None,
            &mut |_| {},
        )
    });
    std::thread::sleep(std::time::Duration::from_millis(200));
    stop.store(true, Ordering::SeqCst);
    let r = handle.join().unwrap();
    assert!(pos.legal_moves().contains(&r.best_move.unwrap()));
    assert!(r.depth >= 1);
}

#[test]
fn a_free_queen_is_taken() {
    let pos =
        Position::from_fen("rnb1kbnr/pppp1ppp/8/4q3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    let r = search(&[pos], &depth(6));
    assert_eq!(pos.to_uci(r.best_move.unwrap()), "d4e5");
    assert!(
        matches!(r.score, Score::Cp(cp) if cp > 600),
        "{:?}",
        r.score
    );
}

#[test]
fn the_engine_keeps_what_it_learnt_between_moves() {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let mut engine = Engine::new(8);
    let first = engine.search(&[pos], &depth(8), None, None, &mut |_| {});
    let again = engine.search(&[pos], &depth(8), None, None, &mut |_| {});
    assert!(
        again.nodes < first.nodes,
        "{} then {}",
        first.nodes,
        again.nodes
    );
    engine.new_game();
    engine.set_hash(2);
    let fresh = engine.search(&[pos], &depth(8), None, None, &mut |_| {});
    assert!(fresh.best_move.is_some());
}
