//! Articles 5, 6.9 and 9: how a game ends — checkmate, stalemate, dead positions,
//! a flag fall against a side that cannot mate, repetition and the fifty- and
//! seventy-five-move rules.

use super::*;

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
