//! Article 3, the moves of the pieces, and Chess960 castling (Guidelines II).

use super::*;

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
