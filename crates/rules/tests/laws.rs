//! The FIDE Laws of Chess (2023 edition), one test per rule, named after the article
//! it checks (`art_3_7_3_2_...` is Article 3.7.3.2); Chess960 castling follows
//! Guidelines II of the Laws. Then the notations the rules core reads and writes: FEN
//! validation, SAN (Appendix C, with the usual PGN conventions) and UCI.
//!
//! The expected values come from the Laws, not from the implementation.

use caissa_rules::fen::{self, FenError};
use caissa_rules::san::{San, SanError};
use caissa_rules::uci::UciError;
use caissa_rules::{
    Bitboard, Board, CastlingMode, ClaimableDraw, Color, Game, Move, Outcome, Piece, Position,
    PositionError, Role, Setup, Square, Termination,
};

// ---------------------------------------------------------------------------------
// Helpers

fn pos(fen_text: &str) -> Position {
    fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

fn pos960(fen_text: &str) -> Position {
    fen::parse_with_mode(fen_text, CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

/// The legal move written `text` in UCI; panics if it is not legal.
fn uci(p: &Position, text: &str) -> Move {
    p.parse_uci(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.fen()))
}

/// Plays UCI moves on a copy of `p`.
fn after(p: &Position, moves: &[&str]) -> Position {
    let mut p = *p;
    for text in moves {
        let m = uci(&p, text);
        p.play_unchecked(m);
    }
    p
}

/// The legal moves in UCI notation.
fn legal_uci(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.to_uci(m)).collect()
}

fn is_legal_uci(p: &Position, text: &str) -> bool {
    legal_uci(p).iter().any(|m| m == text)
}

/// A game from `fen_text` with UCI moves played.
fn game(fen_text: &str, moves: &[&str]) -> Game {
    let mut g = Game::new(pos(fen_text));
    for text in moves {
        let m = uci(g.position(), text);
        g.play(m).expect("legal");
    }
    g
}

fn castles(p: &Position) -> Vec<Move> {
    p.legal_moves()
        .iter()
        .copied()
        .filter(|m| m.is_castle())
        .collect()
}

const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

fn fen_err(fen_text: &str) -> FenError {
    match fen::parse(fen_text) {
        Ok(p) => panic!("{fen_text} was accepted as {}", p.fen()),
        Err(e) => e,
    }
}

/// Knight shuffles that bring the initial position back every four plies.
const KNIGHT_CYCLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

fn knight_cycles(n: usize) -> Vec<&'static str> {
    KNIGHT_CYCLE.iter().copied().cycle().take(4 * n).collect()
}

// ---------------------------------------------------------------------------------
// Article 3: the moves of the pieces

#[test]
fn art_3_1_no_move_to_a_square_occupied_by_a_piece_of_the_same_colour() {
    for fen_text in [
        fen::STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ] {
        let p = pos(fen_text);
        for &m in &p.legal_moves() {
            if !m.is_castle() {
                assert_ne!(p.board().color_at(m.to()), Some(p.turn()), "{m:?}");
            }
        }
    }
}

#[test]
fn art_3_1_1_a_capture_removes_the_captured_piece() {
    let p = after(&Position::new(), &["e2e4", "d7d5", "e4d5"]);
    assert_eq!(p.board().piece_at(Square::D5), Some(white(Role::Pawn)));
    assert_eq!(p.board().by_color(Color::Black).count(), 15);
    assert_eq!(p.board().piece_at(Square::E4), None);
}

#[test]
fn art_3_5_bishop_rook_and_queen_cannot_move_over_pieces() {
    let p = Position::new();
    for &m in &p.legal_moves() {
        let role = p.board().role_at(m.from());
        assert!(
            matches!(role, Some(Role::Pawn | Role::Knight)),
            "{m:?} moves a {role:?} in the initial position"
        );
    }
    assert_eq!(p.legal_moves().len(), 20);
}

#[test]
fn art_3_6_the_knight_jumps_over_pieces() {
    let p = Position::new();
    for m in ["b1a3", "b1c3", "g1f3", "g1h3"] {
        assert!(is_legal_uci(&p, m), "{m}");
    }
}

#[test]
fn art_3_7_1_a_pawn_cannot_advance_onto_an_occupied_square() {
    // White pawn e3 faces a black pawn on e4; nothing to capture.
    let p = pos("4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1");
    assert!(legal_uci(&p).iter().all(|m| !m.starts_with("e3")));
}

#[test]
fn art_3_7_2_double_step_only_from_the_starting_square_over_empty_squares() {
    let start = Position::new();
    assert!(is_legal_uci(&start, "e2e4"));
    // After e3 the pawn has left its original square.
    let p = after(&start, &["e2e3", "a7a6"]);
    assert!(!is_legal_uci(&p, "e3e5"));
    assert!(is_legal_uci(&p, "e3e4"));
    // A piece on e3 blocks both steps; a piece on e4 blocks the double step only.
    let blocked = pos("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    assert!(!is_legal_uci(&blocked, "e2e3") && !is_legal_uci(&blocked, "e2e4"));
    let half = pos("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1");
    assert!(is_legal_uci(&half, "e2e3") && !is_legal_uci(&half, "e2e4"));
}

#[test]
fn art_3_7_3_a_pawn_captures_diagonally_forward_only() {
    let p = pos("4k3/8/8/3n1n2/4P3/3r1r2/8/4K3 w - - 0 1");
    let mut pawn_moves: Vec<String> = legal_uci(&p)
        .into_iter()
        .filter(|m| m.starts_with("e4"))
        .collect();
    pawn_moves.sort();
    assert_eq!(pawn_moves, ["e4d5", "e4e5", "e4f5"]);
}

#[test]
fn art_3_7_3_1_en_passant_capture() {
    // Black's d-pawn double-steps past the white pawn on e5.
    let p = after(&pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), &["d7d5"]);
    assert_eq!(p.ep_square(), Some(Square::D6));
    let m = p
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.is_en_passant())
        .expect("exd6 e.p. is legal");
    assert_eq!((m.from(), m.to()), (Square::E5, Square::D6));
    let mut q = p;
    q.play(m).expect("legal");
    assert_eq!(q.board().piece_at(Square::D6), Some(white(Role::Pawn)));
    assert_eq!(
        q.board().piece_at(Square::D5),
        None,
        "captured pawn removed"
    );
    assert_eq!(q.board().piece_at(Square::E5), None);
    assert_eq!(q.halfmoves(), 0);
}

#[test]
fn art_3_7_3_1_en_passant_may_capture_the_pawn_that_gives_check() {
    // d2-d4 has just checked the king on c5; exd3 e.p. removes the checking pawn.
    let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(p.is_check());
    assert!(p.is_legal(Move::en_passant(Square::E4, Square::D3)));
    let mut q = p;
    q.play(Move::en_passant(Square::E4, Square::D3))
        .expect("legal");
    assert!(!q.board().occupied().contains(Square::D4));
}

#[test]
fn art_3_7_3_1_only_a_double_step_allows_en_passant() {
    // The black pawn reaches d5 in two single steps: no en passant.
    let p = after(
        &pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"),
        &["d7d6", "e1e2", "d6d5"],
    );
    assert_eq!(p.ep_square(), None);
    assert!(p.legal_moves().iter().all(|m| !m.is_en_passant()));
    assert!(!is_legal_uci(&p, "e5d6"));
}

#[test]
fn art_3_7_3_2_en_passant_only_on_the_immediately_following_move() {
    let start = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    let now = after(&start, &["d7d5"]);
    assert!(is_legal_uci(&now, "e5d6"));
    // White waits one move: the right is gone for good.
    let later = after(&start, &["d7d5", "e1e2", "e8e7", "e2e1", "e7e8"]);
    assert_eq!(later.ep_square(), None);
    assert!(later.legal_moves().iter().all(|m| !m.is_en_passant()));
    assert!(!is_legal_uci(&later, "e5d6"));
}

#[test]
fn art_3_7_3_3_promotion_to_queen_rook_bishop_or_knight_only() {
    let p = pos("8/4P3/8/8/k7/8/8/4K3 w - - 0 1");
    let mut promotions: Vec<Role> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Square::E7)
        .map(|m| m.promotion_role().expect("every move to e8 promotes"))
        .collect();
    promotions.sort_by_key(|r| r.index());
    assert_eq!(
        promotions,
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
    );
    // Staying a pawn on the last rank is not a move.
    assert!(!p.is_legal(Move::normal(Square::E7, Square::E8)));
    assert!(p.parse_san("e8").is_err());
    assert!(p.parse_uci("e7e8").is_err());
    // Nor is promoting to a king or a pawn.
    assert!(matches!(p.parse_san("e8=K"), Err(SanError::Syntax { .. })));
    assert!(matches!(p.parse_san("e8=P"), Err(SanError::Syntax { .. })));
    assert!(matches!(p.parse_uci("e7e8k"), Err(UciError::Syntax(_))));
    // The new piece stands on the square of promotion.
    let mut q = p;
    q.play(Move::promotion(Square::E7, Square::E8, Role::Knight))
        .expect("legal");
    assert_eq!(q.board().piece_at(Square::E8), Some(white(Role::Knight)));
    assert_eq!(q.board().by_role(Role::Pawn), Bitboard::EMPTY);
}

#[test]
fn art_3_7_3_4_promotion_not_restricted_to_captured_pieces() {
    // White still has its queen and both rooks, bishops and knights.
    let p = pos("8/4P3/6k1/8/8/8/8/RNBQKBNR w - - 0 1");
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        let before = p.board().by_piece(white(role)).count();
        let mut q = p;
        q.play(Move::promotion(Square::E7, Square::E8, role))
            .unwrap_or_else(|_| panic!("promotion to another {role:?}"));
        assert_eq!(q.board().by_piece(white(role)).count(), before + 1);
    }
}

#[test]
fn art_3_7_3_5_the_promoted_piece_acts_at_once() {
    let p = pos("8/4P3/8/8/k7/8/8/4K3 w - - 0 1");
    for (role, check) in [
        (Role::Queen, true),
        (Role::Bishop, true),
        (Role::Rook, false),
        (Role::Knight, false),
    ] {
        let mut q = p;
        q.play(Move::promotion(Square::E7, Square::E8, role))
            .expect("legal");
        assert_eq!(q.is_check(), check, "{role:?} on e8 and the king on a4");
    }
}

#[test]
fn art_3_8_1_king_cannot_move_to_an_attacked_square() {
    // The rook on a2 covers the whole second rank.
    let p = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1");
    let mut moves = legal_uci(&p);
    moves.sort();
    assert_eq!(moves, ["e1d1", "e1f1"]);
}

#[test]
fn art_3_8_1_king_cannot_retreat_along_the_line_of_a_checking_rook() {
    // Stepping from e4 to f4 stays on the rook's rank: f4 is attacked through e4.
    let p = pos("7k/8/8/8/r3K3/8/8/8 w - - 0 1");
    assert!(p.is_check());
    assert!(!is_legal_uci(&p, "e4f4"));
    assert!(is_legal_uci(&p, "e4e5"));
}

#[test]
fn art_3_8_1_kings_never_stand_side_by_side() {
    let p = pos("8/8/8/4k3/8/4K3/8/8 w - - 0 1");
    // e5 covers d4, e4 and f4.
    let mut moves = legal_uci(&p);
    moves.sort();
    assert_eq!(moves, ["e3d2", "e3d3", "e3e2", "e3f2", "e3f3"]);
}

#[test]
fn art_3_8_2_castling_moves_king_two_squares_and_rook_over_it() {
    let p = pos(CASTLING);
    let mut short = p;
    short
        .play(Move::castle(Square::E1, Square::H1))
        .expect("O-O");
    assert_eq!(short.board().piece_at(Square::G1), Some(white(Role::King)));
    assert_eq!(short.board().piece_at(Square::F1), Some(white(Role::Rook)));
    assert_eq!(short.board().piece_at(Square::E1), None);
    assert_eq!(short.board().piece_at(Square::H1), None);
    let mut long = p;
    long.play(Move::castle(Square::E1, Square::A1))
        .expect("O-O-O");
    assert_eq!(long.board().piece_at(Square::C1), Some(white(Role::King)));
    assert_eq!(long.board().piece_at(Square::D1), Some(white(Role::Rook)));
    assert_eq!(long.board().piece_at(Square::A1), None);
    assert_eq!(long.fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
}

#[test]
fn art_3_8_2_1_castling_right_lost_when_king_moves() {
    let p = after(&pos(CASTLING), &["e1f1", "e8f8", "f1e1", "f8e8"]);
    assert_eq!(p.castling_rights(), Bitboard::EMPTY);
    assert!(castles(&p).is_empty());
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3");
}

#[test]
fn art_3_8_2_1_castling_right_lost_when_rook_moves() {
    let p = after(&pos(CASTLING), &["h1g1", "a8b8", "g1h1", "b8a8"]);
    assert!(!is_legal_uci(&p, "e1g1"), "the h1 rook has moved");
    assert!(is_legal_uci(&p, "e1c1"), "the a1 rook has not");
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 4 3");
    let black = after(&p, &["e1d1"]);
    assert!(is_legal_uci(&black, "e8g8"));
    assert!(!is_legal_uci(&black, "e8c8"));
}

#[test]
fn art_3_8_2_1_castling_right_lost_when_rook_is_captured() {
    let p = after(&pos(CASTLING), &["a1a8"]);
    assert!(p.is_check());
    assert_eq!(p.fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
}

#[test]
fn art_3_8_2_2_no_castling_through_an_attacked_square() {
    // f1 attacked: no O-O; d1 attacked: no O-O-O.
    let f1 = pos("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!is_legal_uci(&f1, "e1g1"));
    assert!(is_legal_uci(&f1, "e1c1"));
    let d1 = pos("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(is_legal_uci(&d1, "e1g1"));
    assert!(!is_legal_uci(&d1, "e1c1"));
}

#[test]
fn art_3_8_2_2_no_castling_onto_an_attacked_square() {
    let g1 = pos("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!is_legal_uci(&g1, "e1g1"));
    assert!(is_legal_uci(&g1, "e1c1"));
    let c1 = pos("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(is_legal_uci(&c1, "e1g1"));
    assert!(!is_legal_uci(&c1, "e1c1"));
}

#[test]
fn art_3_8_2_2_no_castling_out_of_check() {
    let p = pos("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.is_check());
    assert!(castles(&p).is_empty());
}

#[test]
fn art_3_8_2_2_castling_allowed_when_only_the_rook_or_its_path_is_attacked() {
    // The h1 rook is attacked, and b1 (which only the rook crosses) is attacked.
    let p = pos("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert!(is_legal_uci(&p, "e1g1"));
    assert!(is_legal_uci(&p, "e1c1"));
}

#[test]
fn art_3_8_2_2_no_castling_with_a_piece_between_king_and_rook() {
    let p = pos("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1");
    assert!(castles(&p).is_empty());
    // An enemy piece on b1 blocks O-O-O too, though the king never crosses b1.
    let q = pos("4k3/8/8/8/8/8/8/Rn2K2R w KQ - 0 1");
    assert!(!is_legal_uci(&q, "e1c1"));
    assert!(is_legal_uci(&q, "e1g1"));
}

#[test]
fn art_3_9_1_pinned_piece_still_gives_check() {
    // The knight on d4 is pinned to its king by the bishop on g7, yet it checks c6.
    let p = pos("8/6b1/2k5/8/3N4/8/8/K7 b - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers(), Bitboard::from_square(Square::D4));
    // The king may not step onto squares the pinned knight attacks.
    for m in ["c6b5", "c6e6"] {
        assert!(!is_legal_uci(&p, m), "{m}");
    }
    assert!(is_legal_uci(&p, "g7d4"));
    // With White to move the same placement is illegal: Black would be in check.
    assert_eq!(
        fen::parse("8/6b1/2k5/8/3N4/8/8/K7 w - - 0 1").unwrap_err(),
        FenError::Position(PositionError::OppositeCheck)
    );
}

#[test]
fn art_3_9_1_king_cannot_capture_a_piece_guarded_by_a_pinned_piece() {
    // The black rook on c2 is guarded by the knight on b4, which the white rook on b1
    // pins against the black king on b8. The knight still attacks c2: Kxc2 is illegal.
    let p = pos("1k6/8/8/8/1n6/8/2r5/1R1K4 w - - 0 1");
    assert!(!is_legal_uci(&p, "d1c2"));
    assert!(is_legal_uci(&p, "d1e1"));
}

#[test]
fn art_3_9_2_pinned_piece_moves_only_along_the_pin() {
    // The rook on e4 is pinned by the rook on e8; it may slide along the e-file.
    let p = pos("4r1k1/8/8/8/4R3/8/8/4K3 w - - 0 1");
    let rook_moves: Vec<String> = legal_uci(&p)
        .into_iter()
        .filter(|m| m.starts_with("e4"))
        .collect();
    assert!(!rook_moves.is_empty());
    assert!(
        rook_moves.iter().all(|m| m.as_bytes()[2] == b'e'),
        "{rook_moves:?}"
    );
    assert!(is_legal_uci(&p, "e4e8"));
}

#[test]
fn art_3_9_2_only_king_moves_answer_a_double_check() {
    // Rook e8 and knight d3 both check; Rxd3 would leave the rook's check.
    let p = pos("4r2k/8/8/8/8/3n4/8/3RK3 w - - 0 1");
    assert_eq!(p.checkers().count(), 2);
    assert!(!is_legal_uci(&p, "d1d3"));
    assert!(!p.legal_moves().is_empty());
    for &m in &p.legal_moves() {
        assert_eq!(m.from(), Square::E1, "{m:?} is not a king move");
    }
}

#[test]
fn art_3_9_2_no_move_leaves_or_places_own_king_in_check() {
    // After every legal move, the side that moved is not in check: the position is a
    // valid FEN with the other side to move (it would fail with OppositeCheck).
    for fen_text in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    ] {
        let p = pos(fen_text);
        for &m in &p.legal_moves() {
            let mut q = p;
            q.play_unchecked(m);
            assert!(
                fen::parse(&q.fen()).is_ok(),
                "{fen_text}: {m:?} leaves the king in check"
            );
        }
    }
}

#[test]
fn art_3_9_2_en_passant_that_exposes_the_king_along_the_rank_is_illegal() {
    // c7-c5 puts the pawns side by side between the white king on a5 and the rook on
    // h5: bxc6 e.p. would remove both from the fifth rank.
    let p = after(&pos("2k5/2p5/8/KP5r/8/8/8/8 b - - 0 1"), &["c7c5"]);
    assert!(!p.is_legal(Move::en_passant(Square::B5, Square::C6)));
    assert!(p.legal_moves().iter().all(|m| !m.is_en_passant()));
    assert!(p.parse_uci("b5c6").is_err());
    assert!(p.parse_san("bxc6").is_err());
    // The en-passant square is then not part of the position (Laws 9.2.3).
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.fen(), "2k5/8/8/KPp4r/8/8/8/8 w - - 0 2");
}

#[test]
fn art_3_9_2_en_passant_that_exposes_the_king_along_a_diagonal_is_illegal() {
    // Removing the d4 pawn opens the diagonal f2-b6.
    let p = pos("8/8/1k6/8/3Pp3/8/5B2/4K3 b - d3 0 1");
    assert!(!p.is_legal(Move::en_passant(Square::E4, Square::D3)));
    // The capturing pawn pinned on its file may not capture either.
    let q = pos("4k3/8/8/8/3Pp3/8/8/4RK2 b - d3 0 1");
    assert!(!q.is_legal(Move::en_passant(Square::E4, Square::D3)));
    // Along the pin line it may: the bishop on b1 pins e4 on the diagonal b1-h7.
    let r = pos("8/7k/8/8/3Pp3/8/8/1B2K3 b - d3 0 1");
    assert!(r.is_legal(Move::en_passant(Square::E4, Square::D3)));
}

#[test]
fn art_3_9_2_en_passant_must_also_answer_a_discovered_check() {
    // d2-d4 uncovered the bishop on c1: cxd3 e.p. removes the pawn but leaves the check.
    let p = pos("8/8/7k/8/2pP4/8/8/2B1K3 b - d3 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers(), Bitboard::from_square(Square::C1));
    assert!(!p.is_legal(Move::en_passant(Square::C4, Square::D3)));
    assert!(p.legal_moves().iter().all(|m| m.from() == Square::H6));
}

#[test]
fn art_3_9_en_passant_can_give_discovered_check() {
    let p = pos("4k3/8/8/4Pp2/8/8/8/K3R3 w - f6 0 1");
    let mut q = p;
    q.play(Move::en_passant(Square::E5, Square::F6))
        .expect("legal");
    assert!(q.is_check());
    assert_eq!(p.san(Move::en_passant(Square::E5, Square::F6)), "exf6+");
}

// ---------------------------------------------------------------------------------
// Chess960 castling (Guidelines II of the Laws)

#[test]
fn chess960_castling_puts_king_and_rook_on_the_standard_final_squares() {
    // King b1 and rook a1 castle queen-side: the king moves right, to c1.
    let p = pos("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    assert_eq!(p.castling_mode(), CastlingMode::Chess960);
    let m = Move::castle(Square::B1, Square::A1);
    assert!(p.is_legal(m));
    assert_eq!(p.to_uci(m), "b1a1");
    assert_eq!(p.san(m), "O-O-O");
    let mut q = p;
    q.play(m).expect("legal");
    assert_eq!(q.board().piece_at(Square::C1), Some(white(Role::King)));
    assert_eq!(q.board().piece_at(Square::D1), Some(white(Role::Rook)));
    assert_eq!(q.board().occupied().count(), 3);
}

#[test]
fn chess960_castling_when_the_king_is_already_on_its_destination() {
    let p = pos("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    let m = Move::castle(Square::G1, Square::H1);
    assert!(p.is_legal(m));
    assert_eq!(p.to_uci(m), "g1h1");
    assert_eq!(p.parse_uci("g1h1"), Ok(m));
    assert_eq!(p.parse_san("O-O"), Ok(m));
    let mut q = p;
    q.play(m).expect("legal");
    assert_eq!(q.board().piece_at(Square::G1), Some(white(Role::King)));
    assert_eq!(q.board().piece_at(Square::F1), Some(white(Role::Rook)));
    assert_eq!(q.board().piece_at(Square::H1), None);
}

#[test]
fn chess960_castling_when_king_and_rook_swap_squares() {
    let p = pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    let m = Move::castle(Square::F1, Square::G1);
    assert!(p.is_legal(m));
    let mut q = p;
    q.play(m).expect("legal");
    assert_eq!(q.board().piece_at(Square::G1), Some(white(Role::King)));
    assert_eq!(q.board().piece_at(Square::F1), Some(white(Role::Rook)));
}

#[test]
fn chess960_king_step_and_castling_to_the_same_square_are_different_moves() {
    // King f1, rook h1: Kg1 moves the king only; O-O also brings the rook to f1.
    let p = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    let step = Move::normal(Square::F1, Square::G1);
    let castle = Move::castle(Square::F1, Square::H1);
    assert!(p.is_legal(step) && p.is_legal(castle));
    assert_eq!(
        (p.to_uci(step), p.to_uci(castle)),
        ("f1g1".into(), "f1h1".into())
    );
    assert_eq!((p.san(step), p.san(castle)), ("Kg1".into(), "O-O".into()));
    assert_eq!(p.parse_uci("f1g1"), Ok(step));
    assert_eq!(p.parse_san("O-O"), Ok(castle));
    let mut q = p;
    q.play(castle).expect("legal");
    assert_eq!(q.board().piece_at(Square::F1), Some(white(Role::Rook)));
    let mut r = p;
    r.play(step).expect("legal");
    assert_eq!(r.board().piece_at(Square::H1), Some(white(Role::Rook)));
    assert_eq!(r.castling_rights(), Bitboard::EMPTY);
}

#[test]
fn chess960_no_castling_when_the_rook_shields_the_kings_destination() {
    // The white rook on b1 hides c1 from the black rook on a1; once it moves to d1 the
    // king on c1 would be in check.
    let p = pos("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1");
    assert!(!p.is_check());
    assert!(castles(&p).is_empty());
    assert!(!p.is_legal(Move::castle(Square::D1, Square::B1)));
    // Without the black rook the same castling is legal.
    let free = pos("4k3/8/8/8/8/8/8/1R1K4 w B - 0 1");
    assert!(free.is_legal(Move::castle(Square::D1, Square::B1)));
}

#[test]
fn chess960_no_castling_through_an_attacked_square() {
    // King b1 castling with the h1 rook crosses e1, which the rook on e8 attacks.
    let p = pos("4r1k1/8/8/8/8/8/8/1K5R w H - 0 1");
    assert!(castles(&p).is_empty());
    let free = pos("6k1/8/8/8/8/8/8/1K5R w H - 0 1");
    assert_eq!(castles(&free), [Move::castle(Square::B1, Square::H1)]);
}

#[test]
fn chess960_no_castling_when_the_rooks_destination_is_occupied() {
    // King b1, rook a1: the rook must go to d1, where a knight stands.
    let p = pos("4k3/8/8/8/8/8/8/RK1N4 w A - 0 1");
    assert!(castles(&p).is_empty());
}

// ---------------------------------------------------------------------------------
// Article 5: the completion of the game

#[test]
fn art_5_1_1_checkmate_ends_the_game() {
    let mut g = Game::default();
    for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
        let m = g.position().parse_san(san).expect(san);
        g.play(m).expect("legal");
    }
    assert!(g.position().is_checkmate());
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            termination: Termination::Checkmate
        })
    );
    assert_eq!(g.outcome().map(|o| o.result()), Some("1-0"));
    assert!(g.position().legal_moves().is_empty());
}

#[test]
fn art_5_1_1_black_wins_by_checkmate() {
    let g = game(fen::STARTING_FEN, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            termination: Termination::Checkmate
        })
    );
    assert_eq!(g.outcome().map(|o| o.result()), Some("0-1"));
}

#[test]
fn art_5_1_1_checkmate_on_the_fiftieth_move_leaves_no_draw_to_claim() {
    // Ra8# is the 100th half-move without a capture or pawn move. Checkmate ends the
    // game at once, so the mated player has no fifty-move draw to claim (Laws 9.3).
    let g = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", &["a1a8"]);
    assert_eq!(g.position().halfmoves(), 100);
    assert_eq!(
        g.outcome().map(|o| o.termination),
        Some(Termination::Checkmate)
    );
    assert_eq!(g.claimable(), Vec::<ClaimableDraw>::new());
}

#[test]
fn art_5_2_1_stalemate() {
    let g = game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", &["f1f7"]);
    let p = g.position();
    assert!(p.is_stalemate());
    assert!(!p.is_check());
    assert!(!p.is_checkmate());
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            termination: Termination::Stalemate
        })
    );
    assert_eq!(g.outcome().map(|o| o.result()), Some("1/2-1/2"));
}

#[test]
fn art_5_2_1_stalemate_with_a_blocked_pawn_left() {
    // Black's pawn on a7 is blocked and the king on a8 has no safe square.
    let p = pos("k7/p7/P7/8/8/8/8/1R4K1 b - - 0 1");
    assert!(p.is_stalemate());
    assert_eq!(
        Game::new(p).outcome().map(|o| o.termination),
        Some(Termination::Stalemate)
    );
}

fn dead(fen_text: &str) -> bool {
    let p = pos(fen_text);
    let by_outcome = Game::new(p).outcome()
        == Some(Outcome {
            winner: None,
            termination: Termination::DeadPosition,
        });
    assert_eq!(p.is_dead_position(), by_outcome, "{fen_text}");
    by_outcome
}

#[test]
fn art_5_2_2_dead_position_k_v_k() {
    assert!(dead("8/8/8/4k3/8/8/8/4K3 w - - 0 1"));
}

#[test]
fn art_5_2_2_dead_position_k_v_kb() {
    assert!(dead("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1"));
    assert!(dead("8/8/8/4k3/8/8/8/2b1K3 b - - 0 1"));
}

#[test]
fn art_5_2_2_dead_position_k_v_kn() {
    assert!(dead("8/8/8/4k3/8/8/8/1N2K3 w - - 0 1"));
    assert!(dead("8/8/8/4k3/8/8/8/1n2K3 b - - 0 1"));
}

#[test]
fn art_5_2_2_dead_position_kb_v_kb_same_colour() {
    // c1 and f8 are both dark squares.
    assert!(dead("5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1"));
    // Any number of bishops, all on dark squares.
    assert!(dead("5b2/8/8/4k3/8/4B3/8/2B1K3 w - - 0 1"));
}

#[test]
fn art_5_2_2_not_dead_kb_v_kb_opposite_colours() {
    // c1 is dark, c8 light: a mate exists, for instance this one.
    assert!(!dead("2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1"));
    let mate = pos("kb6/8/1K6/3B4/8/8/8/8 b - - 0 1");
    assert!(mate.is_checkmate());
    assert_eq!(
        Game::new(mate).outcome().map(|o| o.termination),
        Some(Termination::Checkmate)
    );
}

#[test]
fn art_5_2_2_not_dead_kn_v_kr() {
    assert!(!dead("7r/8/8/4k3/8/2N5/8/4K3 w - - 0 1"));
    // The knight can even mate, the rook blocking its own king.
    assert!(pos("6rk/5N2/7K/8/8/8/8/8 b - - 0 1").is_checkmate());
}

#[test]
fn art_5_2_2_not_dead_with_a_pawn_on_the_board() {
    assert!(!dead("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"));
    assert!(!dead("8/8/8/4k3/8/8/p7/4K3 w - - 0 1"));
}

#[test]
fn art_5_2_2_a_capture_into_a_dead_position_ends_the_game() {
    let g = game("8/8/8/8/8/8/1r6/K6k w - - 0 1", &["a1b2"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            termination: Termination::DeadPosition
        })
    );
}

// ---------------------------------------------------------------------------------
// Article 6.9: flag fall, only a loss if the opponent could still mate

#[test]
fn art_6_9_lone_king_cannot_checkmate() {
    let p = pos("8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
    assert!(!p.can_checkmate(Color::Black));
    assert!(p.has_insufficient_material(Color::Black));
    assert!(p.can_checkmate(Color::White));
}

#[test]
fn art_6_9_king_and_knight_can_mate_a_king_and_pawn() {
    // So a player with K+P whose flag falls loses against K+N: a mate exists.
    let p = pos("8/8/8/8/8/1N6/p7/k1K5 b - - 0 1");
    assert!(p.is_checkmate());
    assert!(p.can_checkmate(Color::White));
    let q = pos("8/8/8/4k3/8/8/p7/1N2K3 w - - 0 1");
    assert!(q.can_checkmate(Color::White));
    assert!(q.can_checkmate(Color::Black));
}

#[test]
fn art_6_9_king_and_minor_piece_cannot_mate_a_lone_king() {
    for fen_text in [
        "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
    ] {
        let p = pos(fen_text);
        assert!(!p.can_checkmate(Color::White), "{fen_text}");
        assert!(!p.can_checkmate(Color::Black), "{fen_text}");
    }
}

#[test]
fn art_6_9_king_and_knight_can_mate_a_king_and_knight() {
    // The black knight on h7 blocks its own king's flight square.
    let mate = pos("7k/5K1n/6N1/8/8/8/8/8 b - - 0 1");
    assert!(mate.is_checkmate());
    let p = pos("8/8/8/4k3/8/2n5/8/1N2K3 w - - 0 1");
    assert!(p.can_checkmate(Color::White));
    assert!(p.can_checkmate(Color::Black));
}

// ---------------------------------------------------------------------------------
// Article 9: the drawn game

#[test]
fn art_9_2_threefold_claimable_on_third_occurrence() {
    // The initial position occurs for the second time after 4 plies and the third
    // after 8.
    let g = game(fen::STARTING_FEN, &knight_cycles(1));
    assert_eq!(g.repetitions(), 2);
    assert!(g.claimable().is_empty());
    let g = game(fen::STARTING_FEN, &knight_cycles(2));
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable(), [ClaimableDraw::ThreefoldRepetition]);
    // A claim, not an automatic draw.
    assert_eq!(g.outcome(), None);
}

#[test]
fn art_9_2_same_position_by_a_different_sequence_of_moves_counts() {
    let g = game(
        fen::STARTING_FEN,
        &[
            "g1f3", "g8f6", "f3g1", "f6g8", // second occurrence
            "b1c3", "b8c6", "c3b1", "c6b8", // third, with other pieces moving
        ],
    );
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable(), [ClaimableDraw::ThreefoldRepetition]);
}

#[test]
fn art_9_2_1_claim_with_intended_move() {
    // Seven plies in; Black's intended Ng8 would make the initial position appear for
    // the third time.
    let mut moves = knight_cycles(2);
    moves.pop();
    let g = game(fen::STARTING_FEN, &moves);
    assert!(g.claimable().is_empty());
    let ng8 = uci(g.position(), "f6g8");
    assert_eq!(
        g.claimable_with(ng8),
        Ok(vec![ClaimableDraw::ThreefoldRepetition])
    );
    // Another move gives no claim, and writing the move does not play it.
    let ne4 = uci(g.position(), "f6e4");
    assert_eq!(g.claimable_with(ne4), Ok(vec![]));
    assert_eq!(g.moves().len(), 7);
    // An illegal intended move is refused.
    assert!(g
        .claimable_with(Move::normal(Square::E2, Square::E5))
        .is_err());
}

#[test]
fn art_9_2_3_same_position_needs_same_player_to_move() {
    // White's king triangulates a1-a2-b1 while Black's shuffles h8-g8: the placement
    // (Ka1, Kh8) recurs at plies 0 and 12 with White to move and at ply 5 with Black
    // to move. Only two occurrences count.
    let g = game(
        "7k/8/8/2p5/2P5/8/8/K7 w - - 0 1",
        &[
            "a1a2", "h8g8", "a2b1", "g8h8", "b1a1", // ply 5: Black to move
            "h8g8", "a1a2", "g8h8", "a2b1", "h8g8", "b1a1", "g8h8", // ply 12
        ],
    );
    assert_eq!(g.repetitions(), 2);
    assert!(g.claimable().is_empty());
}

#[test]
fn art_9_2_3_threefold_needs_same_castling_rights() {
    // The rooks step aside and back: the placement of the start recurs, but without
    // the queen-side castling rights, so the start does not count.
    let cycle = ["a1b1", "a8b8", "b1a1", "b8a8"];
    let two: Vec<&str> = cycle.iter().chain(&cycle).copied().collect();
    let g = game(CASTLING, &two);
    assert_eq!(g.position().board(), pos(CASTLING).board());
    assert_eq!(g.repetitions(), 2);
    assert!(g.claimable().is_empty());
    let three: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let g = game(CASTLING, &three);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable(), [ClaimableDraw::ThreefoldRepetition]);
}

#[test]
fn art_9_2_3_en_passant_right_counts_only_if_capture_legal() {
    let shuffle = ["e1d1", "e8e7", "d1e1", "e7e8"];
    let line = |first: &'static str| {
        let mut moves = vec![first];
        moves.extend(shuffle);
        moves.extend(shuffle);
        moves
    };
    // exd6 e.p. is legal after d7-d5: that position differs from its later copies.
    let legal = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &line("d7d5"));
    assert_eq!(legal.repetitions(), 2);
    assert!(legal.claimable().is_empty());
    // Here the e5 pawn is pinned by the rook on e8, so en passant is impossible and
    // the position after d7-d5 is the same as its copies: third occurrence.
    let shuffle_pinned = ["e1d1", "g8h8", "d1e1", "h8g8"];
    let mut moves = vec!["d7d5"];
    moves.extend(shuffle_pinned);
    moves.extend(shuffle_pinned);
    let pinned = game("4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &moves);
    assert_eq!(pinned.repetitions(), 3);
    assert_eq!(pinned.claimable(), [ClaimableDraw::ThreefoldRepetition]);
}

#[test]
fn art_9_3_fifty_moves_claimable() {
    let fen_text = "4k3/8/8/8/8/8/8/R3K3 w - - 98 70";
    let g = game(fen_text, &["a1a2"]);
    assert_eq!(g.position().halfmoves(), 99);
    assert!(g.claimable().is_empty());
    let g = game(fen_text, &["a1a2", "e8d7"]);
    assert_eq!(g.position().halfmoves(), 100);
    assert_eq!(g.claimable(), [ClaimableDraw::FiftyMoves]);
    assert_eq!(g.outcome(), None, "the fifty-move rule needs a claim");
}

#[test]
fn art_9_3_1_fifty_moves_claim_with_intended_move() {
    let g = game("4k3/8/8/8/8/8/8/R3K3 w - - 98 70", &["a1a2"]);
    let kd7 = uci(g.position(), "e8d7");
    assert_eq!(g.claimable_with(kd7), Ok(vec![ClaimableDraw::FiftyMoves]));
}

#[test]
fn art_9_3_only_pawn_moves_and_captures_reset_the_count() {
    let p = pos("r3k3/7p/8/8/8/8/1P6/R3K2R w KQq - 40 60");
    // Castling and the loss of castling rights do not reset the count.
    assert_eq!(after(&p, &["e1g1"]).halfmoves(), 41);
    assert_eq!(after(&p, &["h1h2"]).halfmoves(), 41);
    // A pawn move does, and so does a capture.
    assert_eq!(after(&p, &["b2b4"]).halfmoves(), 0);
    assert_eq!(after(&p, &["a1a8"]).halfmoves(), 0);
    assert_eq!(after(&p, &["e1f1", "h7h5"]).halfmoves(), 0);
}

#[test]
fn art_9_6_1_fivefold_ends_automatically() {
    let g = game(fen::STARTING_FEN, &knight_cycles(3));
    assert_eq!(g.repetitions(), 4);
    assert_eq!(g.outcome(), None);
    let g = game(fen::STARTING_FEN, &knight_cycles(4));
    assert_eq!(g.repetitions(), 5);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            termination: Termination::FivefoldRepetition
        })
    );
}

#[test]
fn art_9_6_2_seventy_five_moves_ends_automatically() {
    let fen_text = "4k3/8/8/8/8/8/8/R3K3 w - - 148 100";
    let g = game(fen_text, &["a1a2"]);
    assert_eq!(g.position().halfmoves(), 149);
    assert_eq!(g.outcome(), None);
    let g = game(fen_text, &["a1a2", "e8d7"]);
    assert_eq!(g.position().halfmoves(), 150);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            termination: Termination::SeventyFiveMoves
        })
    );
}

#[test]
fn art_9_6_2_checkmate_on_the_75th_move_takes_precedence() {
    let g = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100", &["a1a8"]);
    assert_eq!(g.position().halfmoves(), 150);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            termination: Termination::Checkmate
        })
    );
}

#[test]
fn art_9_6_2_a_capture_on_the_75th_move_restarts_the_count() {
    let g = game("4k3/8/8/8/8/8/r7/R3K3 w - - 149 100", &["a1a2"]);
    assert_eq!(g.position().halfmoves(), 0);
    assert_ne!(
        g.outcome().map(|o| o.termination),
        Some(Termination::SeventyFiveMoves)
    );
}

// ---------------------------------------------------------------------------------
// FEN validation: one error each

#[test]
fn fen_rejects_wrong_field_count() {
    assert_eq!(fen_err("8/8/8/8/8/8/8/8 w"), FenError::FieldCount(2));
    assert_eq!(
        fen_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"),
        FenError::FieldCount(5)
    );
    assert_eq!(fen_err(""), FenError::FieldCount(0));
}

#[test]
fn fen_accepts_four_fields_with_default_clocks() {
    let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!(p.fen(), fen::STARTING_FEN);
}

#[test]
fn fen_rejects_bad_piece_character() {
    assert!(matches!(
        fen_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
        FenError::Placement(_)
    ));
}

#[test]
fn fen_rejects_rank_too_long() {
    assert!(matches!(
        fen_err("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::Placement(_)
    ));
    assert!(matches!(
        fen_err("rnbqkbnr/pppppppp/8/8/4P4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"),
        FenError::Placement(_)
    ));
    assert!(matches!(
        fen_err("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::Placement(_)
    ));
}

#[test]
fn fen_rejects_rank_too_short() {
    assert!(matches!(
        fen_err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::Placement(_)
    ));
    assert!(matches!(
        fen_err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::Placement(_)
    ));
}

#[test]
fn fen_rejects_missing_king() {
    assert_eq!(
        fen_err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::Position(PositionError::KingCount {
            color: Color::Black,
            count: 0
        })
    );
}

#[test]
fn fen_rejects_two_kings_of_one_colour() {
    assert_eq!(
        fen_err("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        FenError::Position(PositionError::KingCount {
            color: Color::White,
            count: 2
        })
    );
}

#[test]
fn fen_rejects_pawn_on_first_or_eighth_rank() {
    assert_eq!(
        fen_err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        FenError::Position(PositionError::PawnOnBackRank(Square::A1))
    );
    assert_eq!(
        fen_err("4k2p/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::Position(PositionError::PawnOnBackRank(Square::H8))
    );
}

#[test]
fn fen_rejects_side_not_to_move_in_check() {
    assert_eq!(
        fen_err("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
        FenError::Position(PositionError::OppositeCheck)
    );
}

#[test]
fn fen_rejects_more_than_two_checkers() {
    assert_eq!(
        fen_err("4k3/8/3N4/8/B7/8/8/4R2K b - - 0 1"),
        FenError::Position(PositionError::TooManyCheckers(3))
    );
}

#[test]
fn fen_rejects_more_than_eight_pawns() {
    assert_eq!(
        fen_err("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
        FenError::Position(PositionError::TooManyPieces(Color::White))
    );
}

#[test]
fn fen_rejects_castling_rights_without_the_rook() {
    assert!(matches!(
        fen_err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        FenError::Castling(_)
    ));
    assert!(matches!(
        fen_err("r3k3/8/8/8/8/8/8/4K3 w k - 0 1"),
        FenError::Castling(_)
    ));
}

#[test]
fn fen_rejects_castling_rights_without_the_king_on_its_first_rank() {
    assert!(matches!(
        fen_err("4k3/8/8/8/8/8/4K3/7R w K - 0 1"),
        FenError::Castling(_)
    ));
}

#[test]
fn fen_rejects_standard_castling_rights_with_king_off_its_square() {
    // In standard chess a castling right needs the king on e1 and the rook on h1.
    assert_eq!(
        fen::parse_with_mode("4k3/8/8/8/8/8/8/3K3R w K - 0 1", CastlingMode::Standard).unwrap_err(),
        FenError::Position(PositionError::BadCastlingRights(Square::H1))
    );
    let setup = Setup {
        board: board(&[
            (Square::E1, white(Role::King)),
            (Square::E8, black(Role::King)),
        ]),
        castling_rights: Bitboard::from_square(Square::H1),
        ..Setup::default()
    };
    assert_eq!(
        Position::from_setup(setup, CastlingMode::Standard).unwrap_err(),
        PositionError::BadCastlingRights(Square::H1)
    );
}

#[test]
fn fen_rejects_bad_castling_field() {
    assert!(matches!(
        fen_err("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1"),
        FenError::Castling(_)
    ));
    assert!(matches!(
        fen_err("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1"),
        FenError::Castling(_)
    ));
}

#[test]
fn fen_rejects_impossible_en_passant_square() {
    // White to move: an e3 target would mean White had just moved.
    assert_eq!(
        fen_err("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1"),
        FenError::Position(PositionError::BadEnPassant(Square::E3))
    );
    // No black pawn on e5 to have double-stepped over e6.
    assert_eq!(
        fen_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"),
        FenError::Position(PositionError::BadEnPassant(Square::E6))
    );
    // Not a square at all.
    assert!(matches!(
        fen_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1"),
        FenError::EnPassant(_)
    ));
}

#[test]
fn fen_rejects_bad_clocks() {
    for fen_text in [
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
        "4k3/8/8/8/8/8/8/4K3 w - - x 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 -3",
    ] {
        assert!(
            matches!(fen_err(fen_text), FenError::Clocks(_)),
            "{fen_text}"
        );
    }
}

#[test]
fn fen_rejects_bad_side_to_move() {
    assert_eq!(
        fen_err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        FenError::Turn("x".to_string())
    );
}

#[test]
fn fen_round_trips_and_writes_en_passant_only_when_capturable() {
    assert_eq!(Position::new().fen(), fen::STARTING_FEN);
    // After 1.e4 no black pawn can take en passant: no target square is written.
    let p = after(&Position::new(), &["e2e4"]);
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let q = after(&pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), &["d7d5"]);
    assert_eq!(q.fen(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(pos(&q.fen()), q);
}

#[test]
fn fen_writes_chess960_castling_as_x_fen() {
    // Outermost rooks are K/Q; an inner rook needs its file letter.
    let p = pos("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    assert_eq!(p.fen(), "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    let q = pos("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
    assert_eq!(q.castling_mode(), CastlingMode::Chess960);
    assert_eq!(q.fen(), "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
    assert_eq!(pos(&q.fen()), q);
}

// ---------------------------------------------------------------------------------
// SAN writing

fn san_of(fen_text: &str, uci_text: &str) -> String {
    let p = pos(fen_text);
    p.san(uci(&p, uci_text))
}

#[test]
fn san_disambiguates_by_file() {
    let fen_text = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    assert_eq!(san_of(fen_text, "b1d2"), "Nbd2");
    assert_eq!(san_of(fen_text, "f3d2"), "Nfd2");
    // Only one knight reaches a3 or h4: no disambiguation there.
    assert_eq!(san_of(fen_text, "b1a3"), "Na3");
    assert_eq!(san_of(fen_text, "f3h4"), "Nh4");
}

#[test]
fn san_disambiguates_by_rank_when_the_file_is_shared() {
    let fen_text = "4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1";
    assert_eq!(san_of(fen_text, "g1f3"), "N1f3");
    assert_eq!(san_of(fen_text, "g5f3"), "N5f3");
}

#[test]
fn san_disambiguates_by_file_and_rank_when_both_are_shared() {
    // Queens a1, a3 and c1 all reach b2.
    let fen_text = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
    assert_eq!(san_of(fen_text, "a1b2"), "Qa1b2");
    assert_eq!(san_of(fen_text, "a3b2"), "Q3b2");
    assert_eq!(san_of(fen_text, "c1b2"), "Qcb2");
}

#[test]
fn san_does_not_disambiguate_against_a_pinned_piece() {
    // The f3 knight is pinned by the bishop on d5: only the b1 knight can go to d2.
    let fen_text = "4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1";
    assert_eq!(san_of(fen_text, "b1d2"), "Nd2");
    assert_eq!(
        pos(fen_text).parse_san("Nd2"),
        Ok(uci(&pos(fen_text), "b1d2"))
    );
}

#[test]
fn san_does_not_disambiguate_against_a_blocked_piece() {
    // The king on e1 stands between the rooks: each alone reaches d1 or f1.
    let fen_text = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
    assert_eq!(san_of(fen_text, "a1d1"), "Rd1");
    assert_eq!(san_of(fen_text, "h1f1"), "Rf1");
    // Without the king in between, both rooks reach d1.
    assert_eq!(san_of("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1"), "Rad1");
}

#[test]
fn san_writes_castling() {
    assert_eq!(san_of(CASTLING, "e1g1"), "O-O");
    assert_eq!(san_of(CASTLING, "e1c1"), "O-O-O");
    // With check.
    assert_eq!(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    assert_eq!(san_of("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O+");
}

#[test]
fn san_writes_promotions() {
    let fen_text = "8/4P3/8/8/k7/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(fen_text, "e7e8q"), "e8=Q+");
    assert_eq!(san_of(fen_text, "e7e8r"), "e8=R");
    assert_eq!(san_of(fen_text, "e7e8b"), "e8=B+");
    assert_eq!(san_of(fen_text, "e7e8n"), "e8=N");
    assert_eq!(
        san_of("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"),
        "exd8=Q+"
    );
}

#[test]
fn san_writes_check_and_mate_marks() {
    let p = after(&Position::new(), &["e2e4", "d7d6"]);
    assert_eq!(p.san(uci(&p, "f1b5")), "Bb5+");
    assert_eq!(p.san(uci(&p, "g1f3")), "Nf3");
    let q = after(
        &Position::new(),
        &["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"],
    );
    assert_eq!(q.san(uci(&q, "h5f7")), "Qxf7#");
}

#[test]
fn san_writes_captures_and_en_passant() {
    let p = after(&Position::new(), &["e2e4", "d7d5"]);
    assert_eq!(p.san(uci(&p, "e4d5")), "exd5");
    let q = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(q.san(Move::en_passant(Square::E5, Square::D6)), "exd6");
}

#[test]
fn san_round_trips_every_legal_move() {
    for fen_text in [
        fen::STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    ] {
        let p = pos(fen_text);
        for &m in &p.legal_moves() {
            let text = p.san(m);
            assert_eq!(p.parse_san(&text), Ok(m), "{fen_text}: {text}");
        }
    }
}

// ---------------------------------------------------------------------------------
// SAN reading: lenient forms

fn reads(fen_text: &str, text: &str, expected_uci: &str) {
    let p = pos(fen_text);
    match p.parse_san(text) {
        Ok(m) => assert_eq!(p.to_uci(m), expected_uci, "{text:?}"),
        Err(e) => panic!("{text:?} in {fen_text}: {e}"),
    }
}

#[test]
fn san_reads_castling_with_zeros() {
    reads(CASTLING, "0-0", "e1g1");
    reads(CASTLING, "0-0-0", "e1c1");
    reads(CASTLING, "O-O", "e1g1");
    reads(CASTLING, "O-O-O", "e1c1");
}

#[test]
fn san_reads_promotion_without_equals_sign() {
    let fen_text = "8/4P3/8/8/k7/8/8/4K3 w - - 0 1";
    reads(fen_text, "e8Q", "e7e8q");
    reads(fen_text, "e8=Q", "e7e8q");
    reads(fen_text, "e8N", "e7e8n");
    reads(fen_text, "e8=Q+", "e7e8q");
}

#[test]
fn san_reads_explicit_pawn_letter() {
    reads(fen::STARTING_FEN, "Pe4", "e2e4");
}

#[test]
fn san_reads_long_algebraic() {
    reads(fen::STARTING_FEN, "e2-e4", "e2e4");
    reads(fen::STARTING_FEN, "Ng1-f3", "g1f3");
}

#[test]
fn san_reads_en_passant_mark() {
    let fen_text = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    reads(fen_text, "exd6 e.p.", "e5d6");
    reads(fen_text, "exd6e.p.", "e5d6");
    reads(fen_text, "exd6", "e5d6");
}

#[test]
fn san_reads_trailing_annotations() {
    reads(fen::STARTING_FEN, "Nf3!?", "g1f3");
    reads(fen::STARTING_FEN, "e4!", "e2e4");
    reads(fen::STARTING_FEN, "d4?!", "d2d4");
}

#[test]
fn san_reads_figurines() {
    reads(fen::STARTING_FEN, "♘f3", "g1f3");
    let p = after(&Position::new(), &["e2e4"]);
    assert_eq!(p.parse_san("♞f6"), Ok(uci(&p, "g8f6")));
}

#[test]
fn san_reads_over_disambiguated_moves() {
    reads(fen::STARTING_FEN, "Ngf3", "g1f3");
    reads(fen::STARTING_FEN, "Ng1f3", "g1f3");
}

// ---------------------------------------------------------------------------------
// SAN errors

#[test]
fn san_ambiguous_move_names_both_pieces() {
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let err = p.parse_san("Nd2").unwrap_err();
    let SanError::Ambiguous { ref why, .. } = err else {
        panic!("expected Ambiguous, got {err:?}");
    };
    assert!(why.contains("b1") && why.contains("f3"), "{why}");
    let message = err.to_string();
    assert!(message.contains("ambiguous"), "{message}");
    assert!(
        message.contains("b1") && message.contains("f3"),
        "{message}"
    );
}

#[test]
fn san_illegal_moves_are_errors() {
    let p = Position::new();
    for text in ["e5", "Nd2", "O-O", "Ke2", "Qxf7", "exd3"] {
        assert!(
            matches!(p.parse_san(text), Err(SanError::Illegal { .. })),
            "{text}: {:?}",
            p.parse_san(text)
        );
    }
}

#[test]
fn san_moving_a_pinned_piece_is_illegal() {
    let p = pos("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
    assert!(matches!(p.parse_san("Nc3"), Err(SanError::Illegal { .. })));
}

#[test]
fn san_promotion_without_a_piece_is_illegal() {
    let p = pos("8/4P3/8/8/k7/8/8/4K3 w - - 0 1");
    assert!(matches!(p.parse_san("e8"), Err(SanError::Illegal { .. })));
}

#[test]
fn san_malformed_input_is_a_syntax_error() {
    let p = Position::new();
    for text in ["", "   ", "e9", "Nz3", "hello", "Xe4", "e4=Q(", "N"] {
        assert!(
            matches!(p.parse_san(text), Err(SanError::Syntax { .. })),
            "{text:?}: {:?}",
            p.parse_san(text)
        );
    }
    assert!(San::parse("e2e4e5").is_err());
}

#[test]
fn san_null_move_is_never_legal() {
    let p = Position::new();
    assert_eq!(San::parse("--"), Ok(San::Null));
    assert!(p.parse_san("--").is_err());
}

// ---------------------------------------------------------------------------------
// UCI notation

#[test]
fn uci_writes_standard_castling_as_the_kings_two_square_step() {
    let p = pos(CASTLING);
    assert_eq!(p.to_uci(Move::castle(Square::E1, Square::H1)), "e1g1");
    assert_eq!(p.to_uci(Move::castle(Square::E1, Square::A1)), "e1c1");
    assert_eq!(
        p.parse_uci("e1g1"),
        Ok(Move::castle(Square::E1, Square::H1))
    );
    assert_eq!(
        p.parse_uci("e1c1"),
        Ok(Move::castle(Square::E1, Square::A1))
    );
}

#[test]
fn uci_writes_chess960_castling_as_king_takes_rook() {
    let p = pos960(CASTLING);
    assert_eq!(p.castling_mode(), CastlingMode::Chess960);
    assert_eq!(p.to_uci(Move::castle(Square::E1, Square::H1)), "e1h1");
    assert_eq!(p.to_uci(Move::castle(Square::E1, Square::A1)), "e1a1");
    assert_eq!(
        p.parse_uci("e1h1"),
        Ok(Move::castle(Square::E1, Square::H1))
    );
    // In Chess960 e1g1 is a king move, and not a legal one here.
    assert!(matches!(p.parse_uci("e1g1"), Err(UciError::Illegal(_))));
    // The same position as standard chess, switched to Chess960 notation.
    let q = pos(CASTLING)
        .with_castling_mode(CastlingMode::Chess960)
        .expect("standard rights are valid Chess960 rights");
    assert_eq!(q.to_uci(Move::castle(Square::E1, Square::H1)), "e1h1");
}

#[test]
fn uci_writes_promotions_in_lower_case() {
    let p = pos("8/4P3/8/8/k7/8/8/4K3 w - - 0 1");
    assert_eq!(
        p.to_uci(Move::promotion(Square::E7, Square::E8, Role::Knight)),
        "e7e8n"
    );
    assert_eq!(
        p.parse_uci("e7e8q"),
        Ok(Move::promotion(Square::E7, Square::E8, Role::Queen))
    );
}

#[test]
fn uci_errors() {
    let p = Position::new();
    assert!(matches!(p.parse_uci("e2e5"), Err(UciError::Illegal(_))));
    assert!(matches!(p.parse_uci("0000"), Err(UciError::Illegal(_))));
    for text in ["e2", "e2e9", "e2e4x", "e2e4qq", ""] {
        assert!(
            matches!(p.parse_uci(text), Err(UciError::Syntax(_))),
            "{text:?}"
        );
    }
}

// ---------------------------------------------------------------------------------
// Small constructors

fn white(role: Role) -> Piece {
    Piece {
        color: Color::White,
        role,
    }
}

fn black(role: Role) -> Piece {
    Piece {
        color: Color::Black,
        role,
    }
}

fn board(pieces: &[(Square, Piece)]) -> Board {
    let mut b = Board::empty();
    for &(sq, piece) in pieces {
        b.put(sq, piece);
    }
    b
}

#[test]
fn chess960_rights_need_both_kings_on_one_file() {
    // Every Chess960 start mirrors White's back rank for Black: kings that both
    // keep rights on different files (f1, e8) come from no start.
    assert_eq!(
        fen_err("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1"),
        FenError::Position(PositionError::UnmirroredCastling {
            role: Role::King,
            white: Square::F1,
            black: Square::E8,
        })
    );
    let message = fen_err("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1").to_string();
    assert!(
        message.contains("f1") && message.contains("e8"),
        "{message}"
    );
    // One side's rights alone say nothing about the other's king.
    assert!(fen::parse("r3k2r/8/8/8/8/8/8/R4K1R w KQ - 0 1").is_ok());
    assert!(fen::parse("r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1").is_ok());
}

#[test]
fn chess960_rights_on_one_wing_need_rooks_on_one_file() {
    // Kings on f1 and f8, but the h-side rooks on g1 and h8: no start has both.
    assert_eq!(
        fen_err("5k1r/8/8/8/8/8/8/5KR1 w Kk - 0 1"),
        FenError::Position(PositionError::UnmirroredCastling {
            role: Role::Rook,
            white: Square::G1,
            black: Square::H8,
        })
    );
    // The same wing on the same file, and different wings on any files, are fine.
    assert!(fen::parse("5kr1/8/8/8/8/8/8/5KR1 w Kk - 0 1").is_ok());
    assert!(fen::parse("r4k2/8/8/8/8/8/8/5KR1 w Kq - 0 1").is_ok());
    // A Chess960 start (BBQNNRKR, No. 0) passes.
    assert!(fen::parse("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1").is_ok());
}
