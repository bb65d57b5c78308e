//! Why an illegal move is illegal: one test per rule of Article 3 a move can break,
//! each through SAN and through the long algebraic text of UCI (`e2d3`), which the
//! arbiter reads with the SAN reader. Then a sweep that checks every explanation
//! against the board.

use caissa_rules::san::SanError;
use caissa_rules::{attacks, fen, CastlingMode, Position, Role, Square};

fn pos(fen_text: &str) -> Position {
    fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

/// Why `text` is illegal in `p`, as the SAN reader explains it.
fn why(p: &Position, text: &str) -> String {
    match p.parse_san(text) {
        Err(SanError::Illegal { why, .. }) => why,
        other => panic!("{text} in {}: expected illegal, got {other:?}", p.fen()),
    }
}

/// Asserts that each text is illegal in `fen_text` for the reason given.
fn explains(fen_text: &str, texts: &[&str], reason: &str) {
    let p = pos(fen_text);
    for text in texts {
        assert_eq!(why(&p, text), reason, "{text} in {fen_text}");
        if text.len() >= 4 && text.is_ascii() && !text.contains(['-', 'x', '=']) {
            assert!(p.parse_uci(text).is_err(), "{text} is legal UCI");
        }
    }
}

#[test]
fn regression_pawn_diagonal_onto_an_empty_square_was_said_to_expose_the_king() {
    explains(
        fen::STARTING_FEN,
        &["e2d3", "exd3"],
        "a pawn moves diagonally only to capture, and d3 is empty",
    );
    explains(
        "4k3/7P/8/8/8/8/8/4K3 w - - 0 1",
        &["h7g8", "h7g8q", "hxg8=Q"],
        "a pawn moves diagonally only to capture, and g8 is empty",
    );
}

#[test]
fn art_3_2_to_3_6_a_piece_moves_only_its_own_way() {
    explains(
        fen::STARTING_FEN,
        &["g1g3"],
        "a knight does not move from g1 to g3",
    );
    explains(
        fen::STARTING_FEN,
        &["Ng3"],
        "no white knight can move to g3",
    );
    explains(
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        &["c1c3", "Bc1c3"],
        "a bishop does not move from c1 to c3",
    );
    explains(
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        &["a1b2"],
        "a rook does not move from a1 to b2",
    );
    explains(
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        &["d1e3"],
        "a queen does not move from d1 to e3",
    );
    explains(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        &["e1e3", "Ke1e3"],
        "a king does not move from e1 to e3",
    );
    explains(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        &["Ke3"],
        "no white king can move to e3",
    );
}

#[test]
fn art_3_5_a_piece_may_not_move_over_another() {
    explains(
        fen::STARTING_FEN,
        &["Bc4", "f1c4", "Bf1-c4"],
        "the way from f1 to c4 is blocked by the white pawn on e2",
    );
    explains(
        fen::STARTING_FEN,
        &["a1a3", "Ra3"],
        "the way from a1 to a3 is blocked by the white pawn on a2",
    );
    // The nearest of several pieces in the way is named.
    explains(
        "4k3/8/8/8/8/8/8/Rnn1K3 w - - 0 1",
        &["a1d1", "Rd1"],
        "the way from a1 to d1 is blocked by the black knight on b1",
    );
}

#[test]
fn art_3_1_a_piece_may_not_move_onto_its_own_side() {
    explains(
        fen::STARTING_FEN,
        &["g1e2", "Ne2"],
        "e2 is occupied by white's own pawn",
    );
    // The king onto a rook that cannot castle is no castling.
    explains(
        "4k3/8/8/8/8/8/8/4KR2 w - - 0 1",
        &["e1f1"],
        "f1 is occupied by white's own rook",
    );
}

#[test]
fn art_3_7_1_a_pawn_advances_only_onto_an_empty_square() {
    explains(
        "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1",
        &["e2e3", "e3"],
        "a pawn moves straight ahead only onto an empty square, and the black knight stands on e3",
    );
    explains(
        "4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1",
        &["e2e4", "e4"],
        "a pawn moves straight ahead only onto an empty square, and the black knight stands on e4",
    );
}

#[test]
fn art_3_7_2_a_double_step_only_from_the_original_square_and_over_an_empty_one() {
    explains(
        "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1",
        &["e3e5", "e5"],
        "a pawn advances two squares only from its original square, on the 2nd rank",
    );
    explains(
        "4k3/8/4p3/8/8/8/8/4K3 b - - 0 1",
        &["e6e4", "e4"],
        "a pawn advances two squares only from its original square, on the 7th rank",
    );
    explains(
        "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1",
        &["e2e4", "e4"],
        "the way from e2 to e4 is blocked by the black knight on e3",
    );
    explains(
        "4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1",
        &["e2e4"],
        "the way from e2 to e4 is blocked by the white knight on e3",
    );
    // Three squares is no pawn move at all.
    explains(
        fen::STARTING_FEN,
        &["e2e5"],
        "a pawn does not move from e2 to e5",
    );
    explains(fen::STARTING_FEN, &["e5"], "no white pawn can move to e5");
}

#[test]
fn art_3_7_3_1_a_pawn_moves_diagonally_only_to_capture() {
    explains(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        &["e2f3", "exf3"],
        "a pawn moves diagonally only to capture, and f3 is empty",
    );
    // A pawn beside it off the fifth rank is no en passant either: no hint.
    explains(
        "4k3/8/8/8/8/8/Pp6/4K3 w - - 0 1",
        &["a2b3"],
        "a pawn moves diagonally only to capture, and b3 is empty",
    );
}

#[test]
fn art_3_7_3_2_en_passant_only_right_after_the_double_step() {
    // The d-pawn stands beside, but no double step was just played.
    explains(
        "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1",
        &["e5d6", "exd6", "exd6 e.p."],
        "a pawn moves diagonally only to capture, and d6 is empty (en passant takes only a pawn that has just advanced two squares)",
    );
}

#[test]
fn art_3_7_5_a_pawn_reaching_the_last_rank_must_promote() {
    explains(
        "8/4P3/8/8/k7/8/8/4K3 w - - 0 1",
        &["e7e8", "e8"],
        "a pawn reaching e8 must promote (e.g. e8=Q)",
    );
}

#[test]
fn art_3_7_5_a_pawn_promotes_only_on_the_last_rank() {
    explains(
        fen::STARTING_FEN,
        &["e2e4q", "e4=Q"],
        "a pawn promotes only on reaching the 8th rank",
    );
    explains(
        "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1",
        &["e7e5q", "e5=Q"],
        "a pawn promotes only on reaching the 1st rank",
    );
    explains(fen::STARTING_FEN, &["g1f3q"], "only a pawn can promote");
}

#[test]
fn art_1_2_a_player_moves_only_their_own_pieces() {
    explains(
        fen::STARTING_FEN,
        &["e7e5"],
        "the pawn on e7 is black's, and it is white's move",
    );
}

#[test]
fn the_piece_the_move_names_must_be_there() {
    explains(fen::STARTING_FEN, &["e3e4"], "there is no piece on e3");
    explains(
        "4k3/8/8/8/8/8/8/1B2K3 w - - 0 1",
        &["Nb1c3"],
        "the piece on b1 is a bishop, not a knight",
    );
    explains(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        &["Qd4"],
        "white has no queen",
    );
    explains(
        "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1",
        &["Nbd2"],
        "white has no knight on the b-file",
    );
}

#[test]
fn art_3_8_2_1_castling_needs_the_right() {
    explains(
        "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1",
        &["O-O", "e1g1", "e1h1", "Kg1"],
        "white has no right to castle king-side",
    );
}

#[test]
fn art_3_8_2_2_no_castling_out_of_check() {
    explains(
        "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        &["O-O", "O-O-O", "e1g1", "e1c1"],
        "castling is not allowed while the king is in check",
    );
}

#[test]
fn art_3_8_2_2_no_castling_through_or_into_check() {
    explains(
        "5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        &["O-O", "e1g1"],
        "the king would cross f1, which the black rook on f8 attacks",
    );
    explains(
        "6rk/7p/8/8/8/8/8/R3K2R w KQ - 0 1",
        &["O-O", "e1g1"],
        "the king would land on g1, which the black rook on g8 attacks",
    );
}

#[test]
fn art_3_8_2_2_no_castling_with_a_piece_in_between() {
    explains(
        fen::STARTING_FEN,
        &["O-O", "e1g1", "e1h1"],
        "the white bishop on f1 is in the way of castling",
    );
    explains(
        fen::STARTING_FEN,
        &["O-O-O", "e1c1"],
        "the white queen on d1 is in the way of castling",
    );
}

#[test]
fn chess960_castling_needs_the_rooks_destination_empty_too() {
    // Guidelines II: the rook goes to d1, where the knight stands, outside the king
    // and rook's squares.
    let p = fen::parse_with_mode("1k6/8/8/8/8/8/8/RK1N4 w A - 0 1", CastlingMode::Chess960)
        .expect("legal");
    assert_eq!(
        why(&p, "O-O-O"),
        "the white knight on d1 is in the way of castling"
    );
    assert_eq!(
        why(&p, "b1a1"),
        "the white knight on d1 is in the way of castling"
    );
}

#[test]
fn art_3_9_1_a_pinned_piece_may_not_leave_the_line() {
    explains(
        "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",
        &["Nc3", "e2c3"],
        "the white knight on e2 is pinned to the king by the black rook on e8",
    );
    // A pawn pinned on a diagonal may not advance.
    explains(
        "4k3/8/8/8/b7/8/2P5/3K4 w - - 0 1",
        &["c3", "c2c4"],
        "the white pawn on c2 is pinned to the king by the black bishop on a4",
    );
}

#[test]
fn art_3_9_2_the_king_may_not_move_into_check() {
    explains(
        "4k3/8/8/1b6/8/8/8/4K3 w - - 0 1",
        &["Ke2", "e1e2"],
        "the king would be in check on e2 from the black bishop on b5",
    );
    // Nor step back along the line of the piece checking it.
    explains(
        "4r1k1/8/8/8/8/8/8/4K3 w - - 0 1",
        &["e1e2"],
        "the king would be in check on e2 from the black rook on e8",
    );
    // Nor capture a defended piece.
    explains(
        "4k3/8/8/8/8/8/3r3r/4K3 w - - 0 1",
        &["Kxd2"],
        "the king would be in check on d2 from the black rook on h2",
    );
}

#[test]
fn art_3_9_2_a_move_must_answer_a_check() {
    explains(
        "4r1k1/8/8/8/8/8/P7/4K3 w - - 0 1",
        &["a3", "a2a3"],
        "it leaves the king in check from the black rook on e8",
    );
    // A move that breaks a piece's own rule says so, check or not.
    explains(
        "4r1k1/8/8/8/8/8/P7/4K3 w - - 0 1",
        &["a2b3"],
        "a pawn moves diagonally only to capture, and b3 is empty",
    );
}

#[test]
fn art_3_9_en_passant_that_uncovers_a_check_along_the_rank() {
    // c7-c5 puts the pawns side by side between the white king on a5 and the rook on
    // h5; the en-passant square is then not part of the position, but the reason is
    // still the king.
    let mut p = pos("2k5/2p5/8/KP5r/8/8/8/8 b - - 0 1");
    p.play_unchecked(p.parse_uci("c7c5").expect("legal"));
    for text in ["bxc6", "b5c6"] {
        assert_eq!(
            why(&p, text),
            "capturing en passant would expose the king to the black rook on h5",
            "{text}"
        );
    }
    // The same position from a FEN that gives the en-passant square.
    explains(
        "2k5/8/8/KPp4r/8/8/8/8 w - c6 0 2",
        &["bxc6"],
        "capturing en passant would expose the king to the black rook on h5",
    );
}

#[test]
fn art_3_9_en_passant_that_uncovers_a_check_along_a_diagonal() {
    explains(
        "8/8/1k6/8/3Pp3/8/5B2/4K3 b - d3 0 1",
        &["exd3", "e4d3"],
        "capturing en passant would expose the king to the white bishop on f2",
    );
}

/// Every reason given for a move from one of the side to move's pieces, in the
/// suite's positions, is true of the board: the squares it names hold what it says,
/// and a move said to leave the king in check does.
#[test]
fn every_explanation_is_true_of_the_board() {
    const SUITE: &str = include_str!("data/perft.epd");
    let mut checked = 0;
    for line in SUITE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fen_text = line.split(';').next().unwrap_or_default().trim();
        let p = pos(fen_text);
        let us = p.turn();
        let board = p.board();
        for from in board.by_color(us) {
            for to in Square::all() {
                let last_rank = board.role_at(from) == Some(Role::Pawn)
                    && matches!(to.rank().char(), '1' | '8');
                let text = format!("{from}{to}{}", if last_rank { "q" } else { "" });
                if p.parse_uci(&text).is_ok() {
                    continue;
                }
                let why = why(&p, &text);
                checked += 1;
                let context = format!("{text} in {fen_text}: {why}");
                let says_check = [
                    "pinned to the king",
                    "expose the king",
                    "leaves the king in check",
                    "would be in check on",
                ]
                .iter()
                .any(|claim| why.contains(claim));
                if says_check {
                    assert!(leaves_king_attacked(&p, from, to), "{context}");
                }
                if let Some(rest) =
                    why.strip_prefix(&format!("the way from {from} to {to} is blocked by the "))
                {
                    let sq = Square::parse(&rest[rest.len() - 2..]).expect("a square");
                    assert!(attacks::between(from, to).contains(sq), "{context}");
                    assert!(board.piece_at(sq).is_some(), "{context}");
                }
                if why.starts_with("a pawn moves diagonally only to capture") {
                    assert!(board.piece_at(to).is_none(), "{context}");
                    assert_eq!(board.role_at(from), Some(Role::Pawn), "{context}");
                }
                if why.starts_with("a pawn moves straight ahead only onto an empty square") {
                    assert_eq!(board.color_at(to), Some(!us), "{context}");
                }
            }
        }
    }
    assert!(checked > 10_000, "only {checked} illegal moves explained");
}

/// Whether moving the piece on `from` to `to` (capturing en passant if a pawn moves
/// diagonally to an empty square) leaves its king attacked.
fn leaves_king_attacked(p: &Position, from: Square, to: Square) -> bool {
    let mut board = *p.board();
    let piece = board.take(from).expect("a piece to move");
    if piece.role == Role::Pawn && from.file() != to.file() && board.piece_at(to).is_none() {
        board.take(Square::from_coords(to.file(), from.rank()));
    }
    board.take(to);
    board.put(to, piece);
    let king = board.king_of(piece.color).expect("a king");
    board.is_attacked(king, !piece.color, board.occupied())
}
