//! Set-ups no playout reaches: Shredder- and X-FEN castling, and random legal
//! positions with odd checks, pins and castling rights, compared move by move.

use super::*;

#[test]
fn shredder_and_x_fen_castling_read_like_shakmaty() {
    // The same Chess960 positions written with rook files and with K/Q letters.
    for (shredder, xfen) in [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        ),
        (
            "2r1kr2/8/8/8/8/8/8/2R1KR2 w FCfc - 0 1",
            "2r1kr2/8/8/8/8/8/8/2R1KR2 w KQkq - 0 1",
        ),
        (
            "r1k3rr/8/8/8/8/8/8/R1K3RR w GAga - 0 1",
            "r1k3rr/8/8/8/8/8/8/R1K3RR w GQgq - 0 1",
        ),
    ] {
        let a = Pair::from_fen(shredder);
        let b = Pair::from_fen(xfen);
        assert_eq!(a.caissa, b.caissa, "{shredder} and {xfen}");
        assert_eq!(a.caissa.fen(), a.shakmaty_fen(), "{shredder}");
        assert_eq!(b.caissa.fen(), b.shakmaty_fen(), "{xfen}");
        let theirs: BTreeSet<String> = a.shakmaty_moves().into_keys().collect();
        assert_eq!(a.caissa_uci(), theirs, "{shredder}");
    }
}

/// A random setup as a FEN: kings anywhere or on castling squares (standard or
/// Chess960-like), a random number of other pieces, castling rights in Shredder-FEN for
/// rooks that could have them, and an en-passant square where a double step could
/// just have happened. Many are illegal; the legal ones have odd checks, pins and
/// castling configurations that playouts rarely reach.
fn random_setup(rng: &mut XorShift) -> String {
    let mut board = [None::<char>; 64];
    match rng.below(3) {
        0 => {
            board[rng.below(64)] = Some('K');
            board[rng.below(64)] = Some('k');
        }
        1 => {
            for (sq, c) in [
                (0, 'R'),
                (4, 'K'),
                (7, 'R'),
                (56, 'r'),
                (60, 'k'),
                (63, 'r'),
            ] {
                board[sq] = Some(c);
            }
        }
        _ => {
            let king = 1 + rng.below(6);
            for color in [0, 56] {
                let left = rng.below(king);
                let right = king + 1 + rng.below(7 - king);
                for (file, c) in [(left, 'R'), (king, 'K'), (right, 'R')] {
                    let c = if color == 0 {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    };
                    board[color + file] = Some(c);
                }
            }
        }
    }
    let pieces = 2 + rng.below(20);
    for _ in 0..pieces {
        let sq = rng.below(64);
        if board[sq].is_none() {
            let c = b"PPPPNBRQppppnbrq"[rng.below(16)] as char;
            if !c.eq_ignore_ascii_case(&'p') || (8..56).contains(&sq) {
                board[sq] = Some(c);
            }
        }
    }
    let turn = if rng.below(2) == 0 { 'w' } else { 'b' };
    // Castling rights: each rook on its king's back rank, kept with probability 1/2.
    let mut castling = String::new();
    for (king, rook, base) in [('K', 'R', 0), ('k', 'r', 56)] {
        if (0..8).any(|f| board[base + f] == Some(king)) {
            for f in 0..8 {
                if board[base + f] == Some(rook) && rng.below(2) == 0 {
                    let letter = (b'a' + f as u8) as char;
                    castling.push(if base == 0 {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    });
                }
            }
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    // En passant: a pawn of the side not to move on its fourth rank, with the two
    // squares behind it empty.
    let mut ep = "-".to_string();
    let (pawn, rank, dir): (char, usize, isize) = if turn == 'w' {
        ('p', 4, 1)
    } else {
        ('P', 3, -1)
    };
    let candidates: Vec<usize> = (0..8)
        .filter(|&f| {
            let sq = rank * 8 + f;
            board[sq] == Some(pawn)
                && board[(sq as isize + 8 * dir) as usize].is_none()
                && board[(sq as isize + 16 * dir) as usize].is_none()
        })
        .collect();
    if !candidates.is_empty() && rng.below(4) != 0 {
        let f = candidates[rng.below(candidates.len())];
        ep = format!(
            "{}{}",
            (b'a' + f as u8) as char,
            if turn == 'w' { 6 } else { 3 }
        );
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(c);
                }
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    format!(
        "{placement} {turn} {castling} {ep} {} {}",
        rng.below(100),
        1 + rng.below(100)
    )
}

/// Compares everything at one position (moves, SAN, FEN, verdicts).
fn compare_position(pair: &Pair, context: &str) {
    let ours = pair.caissa_uci();
    let theirs_by_uci = pair.shakmaty_moves();
    let theirs: BTreeSet<String> = theirs_by_uci.keys().cloned().collect();
    let text = pair.caissa.fen();
    assert_eq!(
        ours,
        theirs,
        "legal moves differ in {text} {context}\ncaissa only: {:?}\nshakmaty only: {:?}",
        ours.difference(&theirs).collect::<Vec<_>>(),
        theirs.difference(&ours).collect::<Vec<_>>()
    );
    assert_eq!(text, pair.shakmaty_fen(), "FEN {context}");
    for &m in &pair.caissa.legal_moves() {
        let uci = pair.caissa.to_uci(m);
        let expected = SanPlus::from_move(pair.shakmaty.clone(), theirs_by_uci[&uci]).to_string();
        assert_eq!(
            pair.caissa.san(m),
            expected,
            "SAN of {uci} in {text} {context}"
        );
    }
    let (c, s) = (&pair.caissa, &pair.shakmaty);
    assert_eq!(c.is_checkmate(), s.is_checkmate(), "checkmate in {text}");
    assert_eq!(c.is_stalemate(), s.is_stalemate(), "stalemate in {text}");
    for (color, their_color) in [
        (Color::White, shakmaty::Color::White),
        (Color::Black, shakmaty::Color::Black),
    ] {
        assert_eq!(
            c.has_insufficient_material(color),
            s.has_insufficient_material(their_color),
            "insufficient material of {} in {text}",
            color.name()
        );
    }
}

#[test]
fn same_moves_san_and_fen_as_shakmaty_in_random_legal_setups() {
    let mut rng = XorShift::new(0x0005_E70F);
    let mut legal = 0;
    let mut castling = 0;
    let mut en_passant = 0;
    let mut double_check = 0;
    let mut unreachable_setups = 0;
    let mut impossible_960_rights = 0;
    for _ in 0..30_000 {
        let text = random_setup(&mut rng);
        let theirs = text.parse::<Fen>();
        let caissa = match fen::parse(&text) {
            Ok(pos) => pos,
            Err(e) => {
                // What caissa rejects, shakmaty rejects too, except Chess960 castling
                // rights that shakmaty accepts but no Chess960 game has: a king on
                // the a- or h-file (the king starts between the rooks), or both
                // sides' rights on files that do not mirror each other.
                let Ok(setup) = theirs else { continue };
                let Ok(ours) = fen::parse_setup(&text) else {
                    continue;
                };
                let mode = shakmaty_mode(fen::detect_mode(&ours));
                if setup.into_position::<Chess>(mode).is_ok() {
                    let impossible = match e {
                        fen::FenError::Position(PositionError::BadCastlingRights(rook)) => ours
                            .board
                            .color_at(rook)
                            .and_then(|color| ours.board.king_of(color))
                            .is_some_and(|king| matches!(king.file().char(), 'a' | 'h')),
                        fen::FenError::Position(PositionError::UnmirroredCastling { .. }) => true,
                        _ => false,
                    };
                    assert!(
                        impossible,
                        "caissa rejects {text} ({e}), shakmaty accepts it"
                    );
                    impossible_960_rights += 1;
                }
                continue;
            }
        };
        let setup = theirs.unwrap_or_else(|e| panic!("caissa accepts {text}, shakmaty: {e}"));
        let mode = shakmaty_mode(caissa.castling_mode());
        let shakmaty = match setup.into_position::<Chess>(mode) {
            Ok(pos) => pos,
            // Shakmaty also rejects two kinds of unreachable positions that caissa
            // accepts by design: check configurations no game can reach (a pawn and a
            // knight checking together, ...) and more promoted pieces than missing
            // pawns. Both must still agree on everything else in such positions.
            Err(e)
                if (e.kinds()
                    - shakmaty::PositionErrorKinds::IMPOSSIBLE_CHECK
                    - shakmaty::PositionErrorKinds::TOO_MUCH_MATERIAL)
                    .is_empty() =>
            {
                unreachable_setups += 1;
                match e.ignore_impossible_check() {
                    Ok(pos) => pos,
                    Err(e) => e
                        .ignore_too_much_material()
                        .expect("only the ignored kinds"),
                }
            }
            Err(e) => panic!("caissa accepts {text}, shakmaty does not: {e}"),
        };
        let mut pair = Pair { caissa, shakmaty };
        legal += 1;
        castling += usize::from(pair.caissa.legal_moves().iter().any(|m| m.is_castle()));
        en_passant += usize::from(pair.caissa.ep_square().is_some());
        double_check += usize::from(pair.caissa.checkers().count() == 2);
        // The setup itself, then a few random moves from it.
        for ply in 0..6 {
            compare_position(&pair, &format!("from {text} after {ply} plies"));
            let moves = pair.caissa.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pair.play(m);
        }
    }
    seen_at_least(legal, 12_000, "legal random setups");
    seen_at_least(castling, 2000, "setups with a castling move");
    seen_at_least(en_passant, 60, "setups with an en-passant capture");
    seen_at_least(double_check, 500, "setups in double check");
    seen_at_least(unreachable_setups, 500, "setups shakmaty calls unreachable");
    seen_at_least(impossible_960_rights, 5, "Chess960 rights no start has");
}
