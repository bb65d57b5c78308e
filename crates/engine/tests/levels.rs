//! Playing levels: weak levels err like people, strong ones do not, and every level
//! is reproducible from its seed.

use std::collections::HashSet;

use caissa_engine::levels::{level_for_elo, level_for_skill, LEVELS};
use caissa_engine::{level_move, Engine};
use caissa_rules::Position;

/// White can take an undefended queen with a pawn.
const FREE_QUEEN: &str = "rnb1kbnr/pppp1ppp/8/4q3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn the_table_rises_in_strength() {
    for w in LEVELS.windows(2) {
        assert!(w[1].level == w[0].level + 1);
        assert!(w[1].depth >= w[0].depth);
        assert!(w[1].temperature <= w[0].temperature);
        assert!(w[1].random_move <= w[0].random_move);
        assert!(w[1].elo > w[0].elo);
    }
    assert_eq!(LEVELS[7].temperature, 0.0);
    assert_eq!(LEVELS[7].multipv, 1);
}

#[test]
fn uci_strength_options_map_onto_levels() {
    assert_eq!(level_for_skill(0), 1);
    assert_eq!(level_for_skill(10), 5);
    assert_eq!(level_for_skill(20), 8);
    // UCI_Elo picks the strongest level measured at or below it.
    for l in &LEVELS {
        assert_eq!(level_for_elo(l.elo), l.level);
        assert_eq!(level_for_elo(l.elo - 1), (l.level - 1).max(1));
    }
    assert_eq!(level_for_elo(0), 1);
    assert_eq!(level_for_elo(4000), 8);
}

#[test]
fn the_same_seed_gives_the_same_move() {
    let pos = Position::new();
    for level in 1..=4 {
        for seed in 0..5 {
            let a = level_move(&[pos], level, seed);
            let b = level_move(&[pos], level, seed);
            assert_eq!(a, b, "level {level} seed {seed}");
        }
    }
}

#[test]
fn a_beginner_varies_its_moves() {
    let pos = Position::new();
    let mut engine = Engine::new(1);
    let moves: HashSet<_> = (0..30)
        .filter_map(|seed| engine.level_move(&[pos], 1, seed))
        .collect();
    assert!(moves.len() >= 4, "level 1 played only {moves:?}");
}

#[test]
fn a_beginner_sometimes_misses_a_free_queen_and_a_strong_level_never_does() {
    let pos = Position::from_fen(FREE_QUEEN).unwrap();
    let take = pos.parse_uci("d4e5").unwrap();
    let mut engine = Engine::new(1);
    let missed = (0..60)
        .filter(|&seed| engine.level_move(&[pos], 1, seed) != Some(take))
        .count();
    assert!(missed > 0, "level 1 never missed the queen in 60 games");
    for level in [6, 7] {
        for seed in 0..5 {
            assert_eq!(
                engine.level_move(&[pos], level, seed),
                Some(take),
                "level {level} seed {seed}"
            );
        }
    }
}

#[test]
fn level_eight_mates_in_one() {
    let pos = Position::from_fen("6rk/6pp/8/6N1/8/8/8/6RK w - - 0 1").unwrap();
    let m = level_move(&[pos], 8, 0).unwrap();
    assert_eq!(pos.to_uci(m), "g5f7");
}

#[test]
fn levels_search_as_measured_whatever_the_network_and_threads() {
    use caissa_engine::nnue::{Network, INPUTS};
    use caissa_engine::{Limits, Rng};
    use std::sync::Arc;
    let mut rng = Rng::new(5);
    let mut draw = |lo: i32, hi: i32| (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
    let hidden = 32;
    let net = Network::new(
        hidden,
        (0..INPUTS * hidden).map(|_| draw(-90, 90)).collect(),
        (0..hidden).map(|_| draw(0, 150)).collect(),
        (0..2 * hidden).map(|_| draw(-127, 127)).collect(),
        vec![0],
    )
    .unwrap();
    let pos =
        Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
            .unwrap();
    let level = caissa_engine::levels::level(6);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mut plain = Engine::new(8);
    plain.set_network(None);
    let mut other = Engine::new(8);
    other.set_network(Some(Arc::new(net)));
    other.set_threads(4);
    for seed in 0..3 {
        plain.new_game();
        other.new_game();
        let a = plain.search_at_level(
            &[pos],
            level,
            &limits,
            &mut Rng::new(seed),
            None,
            None,
            &mut |_| {},
        );
        let b = other.search_at_level(
            &[pos],
            level,
            &limits,
            &mut Rng::new(seed),
            None,
            None,
            &mut |_| {},
        );
        assert_eq!(
            (a.best_move, a.nodes, a.score),
            (b.best_move, b.nodes, b.score)
        );
    }
    assert_eq!(other.threads(), 4);
}
