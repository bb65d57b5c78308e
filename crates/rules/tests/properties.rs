//! Property tests: notation round trips and move-generator invariants over positions
//! reached by random sequences of legal moves, from the initial position and from every
//! Chess960 starting position.
//!
//! A case is a starting position and a list of numbers; each number picks one legal
//! move (modulo the number of legal moves), so every generated line is legal and
//! shrinking keeps it legal. Every position along the line is checked, not only the last.

use std::collections::BTreeSet;

use caissa_rules::{fen, Bitboard, CastlingMode, Move, Position, Role};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// A fixed number of cases from a fixed seed: the same lines on every run.
fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0xCA15_5A00),
        ..ProptestConfig::with_cases(256)
    }
}

/// The back rank of Chess960 starting position `n` (0..960), in the standard
/// numbering where 518 is the ordinary `RNBQKBNR`.
fn chess960_back_rank(n: u32) -> String {
    let mut rank = [None::<char>; 8];
    let mut n = n;
    // Light-squared bishop on b, d, f or h; dark-squared bishop on a, c, e or g.
    rank[(n % 4 * 2 + 1) as usize] = Some('B');
    n /= 4;
    rank[(n % 4 * 2) as usize] = Some('B');
    n /= 4;
    let place = |rank: &mut [Option<char>; 8], mut nth: u32, piece: char| {
        for slot in rank.iter_mut().filter(|s| s.is_none()) {
            if nth == 0 {
                *slot = Some(piece);
                return;
            }
            nth -= 1;
        }
    };
    place(&mut rank, n % 6, 'Q');
    n /= 6;
    // The ten ways to put two knights on the five squares left.
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ][n as usize];
    // Place the second knight first, so that the first one's index still counts
    // the same empty squares.
    place(&mut rank, knights.1, 'N');
    place(&mut rank, knights.0, 'N');
    // Rook, king, rook on the last three squares.
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, 0, piece);
    }
    rank.iter().map(|c| c.unwrap_or('?')).collect()
}

/// Positions close to castling, promotion and en passant, so that the lines also
/// reach the special moves often.
const EXTRA_STARTS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/1p4pp/8/pP1pPp2/2pP1Pp1/8/PP4PP/R3K2R b KQkq f3 0 1",
];

/// The starting position for `start`: 0..960 the Chess960 starting positions (played
/// in Chess960 mode), 960 the initial position of standard chess, and from 961 on the
/// extra starting positions.
fn starting_position(start: u32) -> Position {
    if start >= 960 {
        return match start - 960 {
            0 => Position::new(),
            i => Position::from_fen(EXTRA_STARTS[i as usize - 1]).expect("valid FEN"),
        };
    }
    let white = chess960_back_rank(start);
    let text = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
        white.to_ascii_lowercase()
    );
    fen::parse_with_mode(&text, CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("Chess960 position {start} ({text}): {e}"))
}

/// Every position of the line: the start, then one after each chosen move.
fn line(start: u32, choices: &[u16]) -> Vec<Position> {
    let mut pos = starting_position(start);
    let mut out = vec![pos];
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[choice as usize % moves.len()]);
        out.push(pos);
    }
    out
}

/// The cases start from the standard initial position, a Chess960 one or an extra one.
fn start_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => Just(960u32),
        2 => 0..960u32,
        1 => 961..961 + EXTRA_STARTS.len() as u32,
    ]
}

fn choices_strategy() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..100)
}

#[test]
fn chess960_numbering_matches_known_starting_positions() {
    // The numbering the generator relies on: 518 is the standard position, 0 and 959
    // are the first and last of the published table.
    assert_eq!(chess960_back_rank(518), "RNBQKBNR");
    assert_eq!(chess960_back_rank(0), "BBQNNRKR");
    assert_eq!(chess960_back_rank(959), "RKRNNQBB");
    let mut all: Vec<String> = (0..960).map(chess960_back_rank).collect();
    all.sort();
    all.dedup();
    assert_eq!(
        all.len(),
        960,
        "the 960 numbers give 960 different positions"
    );
}

/// The lenient spellings of a move's SAN that a person might type.
fn lenient_forms(pos: &Position, m: Move, san: &str) -> Vec<String> {
    let bare = san.trim_end_matches(['+', '#']);
    let mut forms = vec![
        bare.to_string(),
        format!("{san}!?"),
        format!("{san}!"),
        format!("{san}??"),
        format!("{bare}!!"),
        format!(" {san} "),
    ];
    if m.is_castle() {
        forms.push(bare.replace('O', "0"));
        forms.push(bare.replace('O', "o"));
        forms.push(format!("{}+", bare.replace('O', "0")));
        return forms;
    }
    let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
    let capture = m.is_en_passant() || pos.board().color_at(m.to()).is_some();
    let letter = if role == Role::Pawn {
        String::new()
    } else {
        role.upper_char().to_string()
    };
    let promotion = m
        .promotion_role()
        .map(|r| r.upper_char().to_string())
        .unwrap_or_default();
    let eq_promotion = if promotion.is_empty() {
        String::new()
    } else {
        format!("={promotion}")
    };
    let (from, to) = (m.from(), m.to());
    // Long algebraic: the origin square in full, with `-` or `x`.
    let sep = if capture { 'x' } else { '-' };
    forms.push(format!("{letter}{from}{sep}{to}{eq_promotion}"));
    forms.push(format!("{letter}{from}-{to}{eq_promotion}"));
    forms.push(format!("{letter}{from}{to}{promotion}"));
    if capture {
        forms.push(bare.replace('x', ":"));
    }
    if role == Role::Pawn {
        forms.push(format!("P{san}"));
        forms.push(format!("{from}{to}{}", promotion.to_ascii_lowercase()));
        forms.push(format!("P{from}{sep}{to}{eq_promotion}"));
    } else {
        // Figurines of either colour for the piece letter.
        let (white, black) = figurines(role);
        forms.push(san.replacen(role.upper_char(), &white.to_string(), 1));
        forms.push(san.replacen(role.upper_char(), &black.to_string(), 1));
    }
    if !promotion.is_empty() {
        let square = &bare[..bare.len() - 2];
        let p = &promotion;
        forms.push(format!("{square}{p}"));
        forms.push(format!("{square}{}", p.to_ascii_lowercase()));
        forms.push(format!("{square}({p})"));
        forms.push(format!("{square}/{p}"));
        let (white, _) = figurines(m.promotion_role().unwrap_or(Role::Queen));
        forms.push(format!("{square}={white}"));
    }
    if m.is_en_passant() {
        forms.push(format!("{bare} e.p."));
        forms.push(format!("{bare}ep"));
    }
    forms
}

/// Coordinate notation as people type it, without a piece letter: `g1-f3`, `g1f3`,
/// `e7-e8=Q`, `e7e8q`; castling as the king's two-square step (`e1-g1`) in standard
/// chess. (Chess960 castling has no unambiguous coordinate form and is left out.)
fn coordinate_forms(pos: &Position, m: Move) -> Vec<String> {
    if m.is_castle() && pos.castling_mode() == CastlingMode::Chess960 {
        return Vec::new();
    }
    // For castling in standard chess, UCI already writes the king's step.
    let uci = pos.to_uci(m);
    let (from, to) = (&uci[0..2], &uci[2..4]);
    let promotion = m
        .promotion_role()
        .map(|r| format!("={}", r.upper_char()))
        .unwrap_or_default();
    vec![uci.clone(), format!("{from}-{to}{promotion}")]
}

fn figurines(role: Role) -> (char, char) {
    match role {
        Role::King => ('♔', '♚'),
        Role::Queen => ('♕', '♛'),
        Role::Rook => ('♖', '♜'),
        Role::Bishop => ('♗', '♝'),
        Role::Knight => ('♘', '♞'),
        Role::Pawn => ('♙', '♟'),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fen_round_trips_and_writing_is_idempotent(
        start in start_strategy(),
        choices in choices_strategy(),
    ) {
        for pos in line(start, &choices) {
            let text = pos.fen();
            let parsed = Position::from_fen(&text);
            prop_assert!(parsed.is_ok(), "caissa rejects its own FEN {}: {:?}", text, parsed);
            let parsed = parsed.unwrap();
            prop_assert_eq!(parsed, pos, "parse(write(pos)) for {}", text);
            prop_assert_eq!(parsed.fen(), text.clone(), "write(parse(write(pos)))");
            let same_mode = fen::parse_with_mode(&text, pos.castling_mode());
            prop_assert!(same_mode.is_ok(), "{} in {:?}", text, pos.castling_mode());
            prop_assert_eq!(same_mode.unwrap().fen(), text, "in the position's own mode");
        }
    }

    #[test]
    fn san_round_trips_for_every_legal_move(
        start in start_strategy(),
        choices in choices_strategy(),
    ) {
        for pos in line(start, &choices) {
            for &m in &pos.legal_moves() {
                let san = pos.san(m);
                prop_assert_eq!(pos.parse_san(&san), Ok(m), "{} in {}", san, pos.fen());
            }
        }
    }

    #[test]
    fn lenient_san_forms_parse_to_the_same_move(
        start in start_strategy(),
        choices in choices_strategy(),
    ) {
        for pos in line(start, &choices) {
            for &m in &pos.legal_moves() {
                let san = pos.san(m);
                for form in lenient_forms(&pos, m, &san) {
                    prop_assert_eq!(
                        pos.parse_san(&form),
                        Ok(m),
                        "{:?} (for {}) in {}",
                        form,
                        san,
                        pos.fen()
                    );
                }
            }
        }
    }

    #[test]
    fn coordinate_notation_without_piece_letter_parses_for_every_move(
        start in start_strategy(),
        choices in choices_strategy(),
    ) {
        for pos in line(start, &choices) {
            for &m in &pos.legal_moves() {
                for form in coordinate_forms(&pos, m) {
                    prop_assert_eq!(
                        pos.parse_san(&form),
                        Ok(m),
                        "{:?} (for {}) in {}",
                        form,
                        pos.san(m),
                        pos.fen()
                    );
                }
            }
        }
    }

    #[test]
    fn uci_round_trips_for_every_legal_move(
        start in start_strategy(),
        choices in choices_strategy(),
    ) {
        for pos in line(start, &choices) {
            for &m in &pos.legal_moves() {
                let uci = pos.to_uci(m);
                prop_assert_eq!(pos.parse_uci(&uci), Ok(m), "{} in {}", uci, pos.fen());
                let parsed = caissa_rules::uci::UciMove::parse(&uci);
                prop_assert!(parsed.is_ok(), "{} does not parse", uci);
                prop_assert_eq!(parsed.unwrap().to_string(), uci.clone());
                if m.is_castle() && pos.castling_mode() == CastlingMode::Standard {
                    // Standard chess also reads king-takes-rook castling.
                    let king_takes_rook = format!("{}{}", m.from(), m.to());
                    prop_assert_eq!(pos.parse_uci(&king_takes_rook), Ok(m), "{}", king_takes_rook);
                }
            }
        }
    }

    #[test]
    fn count_legal_moves_equals_the_length_of_legal_moves(
        start in start_strategy(),
        choices in choices_strategy(),
    ) {
        for pos in line(start, &choices) {
            let moves = pos.legal_moves();
            prop_assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{}", pos.fen());
            prop_assert_eq!(pos.has_legal_moves(), !moves.is_empty(), "{}", pos.fen());
            for &m in &moves {
                prop_assert!(pos.is_legal(m), "{:?} listed but not legal in {}", m, pos.fen());
            }
        }
    }

    #[test]
    fn legal_moves_to_equals_legal_moves_of_that_role_and_destination(
        start in start_strategy(),
        choices in choices_strategy(),
        masks in prop::collection::vec(any::<u64>(), 1..4),
    ) {
        for pos in line(start, &choices) {
            let all = pos.legal_moves();
            // Every square, each destination alone, and a few random square sets.
            let mut targets = vec![Bitboard(!0)];
            targets.extend(all.iter().map(|m| Bitboard::from_square(m.to())));
            targets.extend(masks.iter().map(|&mask| Bitboard(mask)));
            targets.sort_by_key(|b| b.0);
            targets.dedup();
            for role in Role::ALL {
                for &target in &targets {
                    let expected: BTreeSet<String> = all
                        .iter()
                        .filter(|m| {
                            !m.is_castle()
                                && pos.board().role_at(m.from()) == Some(role)
                                && target.contains(m.to())
                        })
                        .map(|m| format!("{m:?}"))
                        .collect();
                    let scoped = pos.legal_moves_to(role, target);
                    let got: BTreeSet<String> = scoped.iter().map(|m| format!("{m:?}")).collect();
                    prop_assert_eq!(got.len(), scoped.len(), "a move listed twice");
                    prop_assert_eq!(
                        got,
                        expected,
                        "{:?} moves to {:#x} in {}",
                        role,
                        target.0,
                        pos.fen()
                    );
                }
            }
        }
    }

    #[test]
    fn is_legal_agrees_with_the_legal_move_list_for_any_move_code(
        start in start_strategy(),
        choices in choices_strategy(),
        codes in prop::collection::vec(any::<u16>(), 64..128),
    ) {
        for pos in line(start, &choices) {
            let all = pos.legal_moves();
            // Random codes, and each legal move's origin and destination with
            // every kind of move (a promotion that is a plain push, castling
            // that is a king step...), where a wrong answer is most likely.
            let mut candidates: Vec<Move> = codes.iter().filter_map(|&c| Move::from_bits(c)).collect();
            for m in all.iter() {
                let (from, to) = (m.from(), m.to());
                candidates.extend([
                    Move::normal(from, to),
                    Move::en_passant(from, to),
                    Move::castle(from, to),
                    Move::normal(to, from),
                ]);
                candidates.extend(Role::PROMOTIONS.map(|r| Move::promotion(from, to, r)));
            }
            for m in candidates {
                prop_assert_eq!(pos.is_legal(m), all.contains(&m), "{:?} in {}", m, pos.fen());
            }
        }
    }

    #[test]
    fn legal_captures_and_promotions_are_the_legal_moves_that_take_or_promote(
        start in start_strategy(),
        choices in choices_strategy(),
    ) {
        for pos in line(start, &choices) {
            let theirs = pos.board().by_color(!pos.turn());
            let expected: BTreeSet<String> = pos
                .legal_moves()
                .iter()
                .filter(|m| theirs.contains(m.to()) || m.is_en_passant() || m.is_promotion())
                .map(|m| format!("{m:?}"))
                .collect();
            let noisy = pos.legal_captures_and_promotions();
            let got: BTreeSet<String> = noisy.iter().map(|m| format!("{m:?}")).collect();
            prop_assert_eq!(got.len(), noisy.len(), "a move listed twice");
            prop_assert_eq!(got, expected, "{}", pos.fen());
        }
    }

    #[test]
    fn incremental_zobrist_hash_equals_hash_recomputed_from_fen(
        start in start_strategy(),
        choices in choices_strategy(),
    ) {
        for pos in line(start, &choices) {
            let recomputed = Position::from_fen(&pos.fen()).map(|p| p.zobrist_hash());
            prop_assert_eq!(recomputed, Ok(pos.zobrist_hash()), "{}", pos.fen());
        }
    }
}

#[test]
fn generated_lines_reach_castling_promotion_and_en_passant() {
    // The round-trip properties above prove little about the special moves unless the
    // generated lines reach them: draw lines the same way and count.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::new(config());
    let strategy = (start_strategy(), choices_strategy());
    let (mut castles, mut promotions, mut en_passant, mut chess960) = (0, 0, 0, 0);
    for _ in 0..256 {
        let (start, choices) = strategy.new_tree(&mut runner).expect("a value").current();
        for pos in line(start, &choices) {
            let moves = pos.legal_moves();
            castles += moves.iter().filter(|m| m.is_castle()).count();
            promotions += moves.iter().filter(|m| m.is_promotion()).count();
            en_passant += moves.iter().filter(|m| m.is_en_passant()).count();
            chess960 += usize::from(pos.castling_mode() == CastlingMode::Chess960);
        }
    }
    assert!(castles >= 600, "only {castles} castling moves");
    assert!(promotions >= 500, "only {promotions} promotions");
    assert!(en_passant >= 50, "only {en_passant} en-passant captures");
    assert!(chess960 >= 2500, "only {chess960} Chess960 positions");
}

#[test]
fn legal_moves_to_keeps_a_pinned_pawn_to_its_own_destinations() {
    // The pawn on d4 is pinned along the d-file; asking for pawn moves to c3 or c5
    // must not list its push to d5.
    let pos =
        Position::from_fen("1nk3bb/1qpr1rp1/ppB1p3/2p2p1p/2NP2P1/P6P/2P1PP2/n1RK1RB1 w - - 0 16")
            .expect("valid FEN");
    let to_c3: Vec<String> = pos
        .legal_moves_to(Role::Pawn, Bitboard::from_square(caissa_rules::Square::C3))
        .iter()
        .map(|&m| pos.to_uci(m))
        .collect();
    assert_eq!(to_c3, ["c2c3"]);
    assert!(pos
        .legal_moves_to(Role::Pawn, Bitboard::from_square(caissa_rules::Square::C5))
        .is_empty());
    assert_eq!(
        pos.parse_san("c3").map(|m| pos.to_uci(m)),
        Ok("c2c3".to_string())
    );
    assert!(
        pos.parse_san("dxc5").is_err(),
        "the pinned pawn cannot take on c5"
    );
}
