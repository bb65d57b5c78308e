//! The notations the rules core reads and writes: FEN validation, SAN writing and
//! reading (Appendix C) and UCI.

use super::*;

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
