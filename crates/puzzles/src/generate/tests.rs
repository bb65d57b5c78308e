//! The generator on known games, and the themes on lines whose tactic is
//! known.

use caissa_rules::Position;

use super::*;

/// The positions of a line played from `fen`, and its moves.
fn line(fen: &str, moves: &str) -> (Vec<Position>, Vec<Move>) {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut positions = vec![pos];
    let mut played = Vec::new();
    for text in moves.split_whitespace() {
        let mv = pos.parse_uci(text).unwrap();
        pos.play(mv).unwrap();
        positions.push(pos);
        played.push(mv);
    }
    (positions, played)
}

fn themes_of(fen: &str, moves: &str, mate: Option<usize>) -> Vec<String> {
    let (positions, played) = line(fen, moves);
    themes::themes(&positions, &played, 40, mate, 500)
}

fn has(themes: &[String], theme: &str) -> bool {
    themes.iter().any(|t| t == theme)
}

#[test]
fn a_knight_attacking_king_and_queen_then_taking_the_queen_is_a_fork() {
    let t = themes_of(
        "6k1/5ppp/q7/3N4/8/8/5PPP/6K1 b - - 0 1",
        "a6c6 d5e7 g8f8 e7c6",
        None,
    );
    assert!(has(&t, "fork"), "{t:?}");
    assert!(
        has(&t, "short") && !has(&t, "pin") && !has(&t, "skewer"),
        "{t:?}"
    );
}

#[test]
fn a_rook_mating_on_the_first_rank_behind_its_pawns_is_a_back_rank_mate() {
    let t = themes_of(
        "6k1/5ppp/8/8/8/8/r4PPP/3R2K1 b - - 0 1",
        "a2a3 d1d8",
        Some(1),
    );
    for theme in [
        "mate",
        "mateIn1",
        "backRankMate",
        "oneMove",
        "endgame",
        "rookEndgame",
    ] {
        assert!(has(&t, theme), "{theme} missing in {t:?}");
    }
}

#[test]
fn taking_a_piece_pinned_to_its_king_is_a_pin() {
    let t = themes_of("3k4/8/2n5/8/B7/8/8/2R1K3 b - - 0 1", "d8e8 c1c6", None);
    assert!(has(&t, "pin"), "{t:?}");
}

#[test]
fn checking_the_king_and_taking_the_queen_behind_it_is_a_skewer() {
    let t = themes_of(
        "4q3/8/8/4k3/8/8/8/K6R b - - 0 1",
        "e5e4 h1e1 e4d3 e1e8",
        None,
    );
    assert!(has(&t, "skewer"), "{t:?}");
    assert!(!has(&t, "fork") && !has(&t, "discoveredAttack"), "{t:?}");
}

#[test]
fn a_knight_uncovering_a_rooks_check_is_a_discovered_attack() {
    let t = themes_of("4k3/7p/8/2q5/4N3/8/8/4R2K b - - 0 1", "h7h6 e4c5", None);
    assert!(has(&t, "discoveredAttack"), "{t:?}");
    assert!(has(&t, "hangingPiece"), "the queen was not defended: {t:?}");
    let t = themes_of("4k3/7p/8/8/4N3/8/8/4R2K b - - 0 1", "h7h6 e4d6", None);
    assert!(
        has(&t, "doubleCheck") && has(&t, "discoveredAttack"),
        "{t:?}"
    );
}

#[test]
fn moves_that_are_special_by_the_rules_are_named() {
    let t = themes_of("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5 e5d6", None);
    assert!(has(&t, "enPassant") && has(&t, "pawnEndgame"), "{t:?}");
    let t = themes_of("4k3/1P6/8/8/8/K7/6p1/8 b - - 0 1", "g2g1q b7b8n", None);
    assert!(has(&t, "promotion") && has(&t, "underPromotion"), "{t:?}");
    let t = themes_of("r3k3/8/8/8/8/8/8/4K2R b K - 0 1", "a8a7 e1g1", None);
    assert!(has(&t, "castling"), "{t:?}");
}

#[test]
fn giving_material_that_is_taken_is_a_sacrifice() {
    // 2.Qxh7+?! Kxh7: the queen for a pawn, then the rook mates.
    let t = themes_of(
        "6k1/5pp1/7p/8/8/8/5PPP/3QR1K1 b - - 0 1",
        "h6h5 d1d8 g8h7 e1e8",
        None,
    );
    assert!(!has(&t, "sacrifice"), "nothing given: {t:?}");
    let t = themes_of(
        "5rk1/5ppp/8/8/8/8/5PPP/3QR1K1 b - - 0 1",
        "f8e8 d1d8 e8d8 e1e8",
        Some(2),
    );
    assert!(has(&t, "sacrifice"), "the queen given for a rook: {t:?}");
}

#[test]
fn opening_names_become_lichess_tags() {
    assert_eq!(
        opening_tags("Sicilian Defense: Najdorf Variation, English Attack"),
        ["Sicilian_Defense", "Sicilian_Defense_Najdorf_Variation"]
    );
    assert_eq!(opening_tags("Bishop's Opening"), ["Bishops_Opening"]);
}

#[test]
fn ids_are_five_letters_or_digits_and_depend_on_the_line() {
    let a = puzzle_id("fen", &["e2e4".into(), "e7e5".into()]);
    let b = puzzle_id("fen", &["e2e4".into(), "d7d5".into()]);
    assert_eq!(a.len(), 5);
    assert!(a.chars().all(|c| c.is_ascii_alphanumeric()));
    assert_ne!(a, b);
}

fn quick() -> Options {
    Options {
        scan_nodes: 2_000,
        check_nodes: 30_000,
        reply_nodes: 15_000,
        ..Options::default()
    }
}

#[test]
fn a_blunder_into_mate_in_one_becomes_a_puzzle_from_the_move_before() {
    let pgn = b"[Site \"https://example.org/g1\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
    let game = games_in_pgn(&pgn[..]).next().unwrap().unwrap();
    let puzzles = Generator::new(quick()).puzzles_in(&game);
    assert_eq!(puzzles.len(), 1, "{puzzles:?}");
    let p = &puzzles[0];
    assert_eq!(p.moves, ["g8f6", "h5f7"]);
    assert_eq!(
        p.fen,
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    );
    assert_eq!(p.game_url, "https://example.org/g1#6");
    assert_eq!(p.opening_tags, ["Bishops_Opening"]);
    for theme in ["mate", "mateIn1", "oneMove", "opening"] {
        assert!(
            p.themes.iter().any(|t| t == theme),
            "{theme}: {:?}",
            p.themes
        );
    }
}

#[test]
fn every_self_play_puzzle_replays_and_ends_with_the_solvers_move() {
    let mut engine = caissa_engine::Engine::new(8);
    let mut generator = Generator::new(quick());
    let mut found = Vec::new();
    for seed in 1..=3 {
        let game = self_play(&mut engine, seed);
        assert!(game.positions().is_some());
        found.extend(generator.puzzles_in(&game));
    }
    assert_eq!(generator.stats.games, 3);
    for p in &found {
        let positions = p.positions().unwrap();
        assert_eq!(p.moves.len() % 2, 0);
        let mates = positions.last().unwrap().is_checkmate();
        assert_eq!(mates, p.themes.iter().any(|t| t == "mate"), "{p:?}");
        if mates {
            let n = p.moves.len() / 2;
            assert!(p.themes.contains(&format!("mateIn{n}")), "{p:?}");
        }
    }
}
