//! Fuzz-style tests of the three parsers (FEN, SAN, UCI) with proptest, so that they run
//! on stable Rust with every `cargo test`.
//!
//! Inputs are arbitrary strings, strings built from each notation's alphabet, and
//! mutations of valid inputs. The parsers must never panic: every input gives `Ok` or
//! an `Err` whose message is not empty. What they accept must be consistent: a FEN that
//! parses writes a FEN that parses to the same position, every move that SAN or UCI
//! text names is legal and written back the same way, and the positions a FEN can
//! describe (random placements, clocks at their limits) play their legal moves without
//! a panic.

use caissa_rules::san::San;
use caissa_rules::uci::UciMove;
use caissa_rules::{fen, CastlingMode, CastlingSide, Game, Position, Role};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0xF022_CA15),
        ..ProptestConfig::with_cases(cases)
    }
}

/// Valid FENs to mutate, and positions to read moves in.
const SEED_FENS: &[&str] = &[
    fen::STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2r1kr2/8/8/8/8/8/8/2R1KR2 w FCfc - 0 1",
    "r1k3rr/8/8/8/8/8/8/R1K3RR w GQgq - 0 1",
    "8/8/8/8/8/8/8/K6k b - - 99 200",
    "4k3/8/8/8/8/8/8/4K3 w - -",
];

/// Checks everything a parsed position promises, and plays each legal move once.
fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    let written = pos.fen();
    let again = Position::from_fen(&written);
    prop_assert!(
        again.is_ok(),
        "written FEN {} does not parse: {:?}",
        written,
        again
    );
    let again = again.unwrap();
    prop_assert_eq!(&again.fen(), &written, "FEN changed on re-reading");
    prop_assert_eq!(again, *pos, "position changed on re-reading {}", written);
    prop_assert_eq!(
        again.zobrist_hash(),
        pos.zobrist_hash(),
        "hash of {}",
        written
    );

    let moves = pos.legal_moves();
    prop_assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{}", written);
    let _ = Game::new(*pos).outcome();
    let _ = pos.is_dead_position();
    for &m in &moves {
        let san = pos.san(m);
        prop_assert_eq!(pos.parse_san(&san), Ok(m), "SAN {} in {}", san, written);
        let uci = pos.to_uci(m);
        prop_assert_eq!(pos.parse_uci(&uci), Ok(m), "UCI {} in {}", uci, written);
        let mut after = *pos;
        after.play_unchecked(m);
        let text = after.fen();
        let reread = Position::from_fen(&text);
        prop_assert!(
            reread.is_ok(),
            "after {} in {}, the FEN {} does not parse: {:?}",
            uci,
            written,
            text,
            reread
        );
        prop_assert_eq!(
            reread.unwrap().zobrist_hash(),
            after.zobrist_hash(),
            "hash after {} in {}",
            uci,
            written
        );
    }
    Ok(())
}

/// Runs every FEN entry point on `text`.
fn check_fen_text(text: &str) -> Result<(), TestCaseError> {
    let parsed = fen::parse(text);
    prop_assert_eq!(
        &Position::from_fen(text),
        &parsed,
        "from_fen and parse differ"
    );
    if let Err(e) = fen::parse_setup(text) {
        prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text);
    }
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        if let Err(e) = fen::parse_with_mode(text, mode) {
            prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text);
        }
    }
    match parsed {
        Err(e) => prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text),
        Ok(pos) => check_position(&pos)?,
    }
    Ok(())
}

/// The characters FENs are made of, and a few that they are not.
const FEN_ALPHABET: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', '1', '2', '3', '4', '5', '6', '7',
    '8', '/', ' ', '-', 'w', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'A', 'C', 'D', 'E', 'F', 'G', 'H',
    '0', '9', '+', 'x', 'é', '\t',
];

/// A FEN with one of its fields or characters replaced, inserted or removed.
fn mutated_fen() -> impl Strategy<Value = String> {
    let edit = (
        any::<prop::sample::Index>(),
        0..4u8,
        prop::sample::select(FEN_ALPHABET),
    );
    (
        prop::sample::select(SEED_FENS),
        prop::collection::vec(edit, 1..6),
    )
        .prop_map(|(seed, edits)| {
            let mut chars: Vec<char> = seed.chars().collect();
            for (index, op, c) in edits {
                let at = index.index(chars.len() + 1);
                match op {
                    0 if at < chars.len() => chars[at] = c,
                    1 => chars.insert(at, c),
                    2 if at < chars.len() => {
                        chars.remove(at);
                    }
                    // Swap two neighbours: reorders a rank or a field.
                    _ if at + 1 < chars.len() => chars.swap(at, at + 1),
                    _ => chars.push(c),
                }
            }
            chars.into_iter().collect()
        })
}

/// One square's content in a random placement: mostly empty.
fn square_content() -> impl Strategy<Value = Option<char>> {
    prop_oneof![
        10 => Just(None),
        1 => prop::sample::select(&['p', 'n', 'b', 'r', 'q', 'P', 'N', 'B', 'R', 'Q'][..]).prop_map(Some),
    ]
}

/// The placement field of a random board: random pieces, and the kings either
/// anywhere (sometimes a missing or extra king), or on their standard squares with the
/// rooks in the corners, or Chess960-like on the back rank between two rooks, so that
/// castling rights can hold.
fn placement() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(square_content(), 64),
        0..3u8,
        (0..64usize, 0..64usize),
        (1..7usize, 0..8usize, 0..8usize),
        prop_oneof![8 => Just(None), 1 => (0..64usize).prop_map(Some)],
    )
        .prop_map(
            |(mut squares, layout, (wk, bk), (king, left, right), extra_king)| {
                match layout {
                    0 => {
                        squares[wk] = Some('K');
                        squares[bk] = Some('k');
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
                            squares[sq] = Some(c);
                        }
                    }
                    _ => {
                        let left = left % king;
                        let right = king + 1 + right % (7 - king);
                        for (file, c) in [(left, 'R'), (king, 'K'), (right, 'R')] {
                            squares[file] = Some(c);
                            squares[56 + file] = Some(c.to_ascii_lowercase());
                        }
                    }
                }
                if let Some(sq) = extra_king {
                    squares[sq] = Some(if sq % 2 == 0 { 'K' } else { 'k' });
                }
                let mut out = String::new();
                for rank in (0..8).rev() {
                    let mut empty = 0;
                    for file in 0..8 {
                        match squares[rank * 8 + file] {
                            None => empty += 1,
                            Some(c) => {
                                if empty > 0 {
                                    out.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                out.push(c);
                            }
                        }
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    if rank > 0 {
                        out.push('/');
                    }
                }
                out
            },
        )
}

/// Clock fields, some malformed or out of range. (The largest values that parse are
/// tested on their own by `clocks_at_their_largest_value_survive_every_move`.)
fn clock() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0..200u32).prop_map(|n| n.to_string()),
        1 => prop::sample::select(&["0", "1", "149", "150", "99999", "4294967296", "-1", "+3", "01", "1.5", ""][..])
            .prop_map(str::to_string),
    ]
}

/// A FEN with a random placement and random but plausible other fields.
fn fen_shaped() -> impl Strategy<Value = String> {
    (
        placement(),
        prop_oneof![
            9 => prop::sample::select(&["w", "b"][..]),
            1 => prop::sample::select(&["W", "-", "x", "white"][..]),
        ],
        prop_oneof![
            4 => Just("-".to_string()),
            3 => "[KQkq]{1,4}",
            1 => "[A-Ha-h]{1,4}",
            1 => "[KQkqA-Ha-h-]{0,5}",
        ],
        prop_oneof![
            6 => Just("-".to_string()),
            3 => "[a-h][36]",
            1 => "[a-i][0-9]{1,2}",
        ],
        clock(),
        clock(),
        0..8u8,
    )
        .prop_map(
            |(placement, turn, castling, ep, half, full, shape)| match shape {
                0 => format!("{placement} {turn} {castling} {ep}"),
                1 => format!("{placement} {turn} {castling} {ep} {half} {full} extra"),
                2 => format!(" {placement}\t{turn}  {castling} {ep} {half} {full}\n"),
                _ => format!("{placement} {turn} {castling} {ep} {half} {full}"),
            },
        )
}

/// SAN-like text: piece letters (also figurines), disambiguation, captures, squares,
/// promotions, castling, annotations, en-passant marks.
fn san_shaped() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[KQRBNPkqrbnp♔♕♖♗♘♙♚♛♜♝♞♟]?[a-i]?[0-9]?[x:×-]?[a-i][0-9](=?[QRBNKPqrbnkp♕♘(/)])?[+#!?‼]{0,2}( ?e\\.?p\\.?)?",
        1 => "[O0o]-[O0o](-[O0o])?(-[O0o])?[+#]?",
        1 => "[a-h][1-8]-?[a-h][1-8](=?[QRBN])?",
        1 => prop::sample::select(&["--", "Z0", "", " ", "e.p.", "ep", "x", "=Q", "(Q)", "e8(Q", "e8Q)", "O-O-O-O"][..]).prop_map(str::to_string),
    ]
}

/// A position and SAN text made from one of its legal moves, then edited: the origin
/// hint dropped (often ambiguous), or characters replaced, inserted or removed.
fn position_and_edited_san() -> impl Strategy<Value = (Position, String)> {
    const SAN_ALPHABET: &[char] = &[
        'K', 'Q', 'R', 'B', 'N', 'P', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '1', '2', '3', '4',
        '5', '6', '7', '8', 'x', '-', '=', '+', '#', 'O', '0', ' ', '♘', '!',
    ];
    let edit = (
        any::<prop::sample::Index>(),
        0..4u8,
        prop::sample::select(SAN_ALPHABET),
    );
    (
        position(),
        any::<prop::sample::Index>(),
        prop::collection::vec(edit, 0..3),
    )
        .prop_map(|(pos, pick, edits)| {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return (pos, "--".to_string());
            }
            let san = pos.san(moves[pick.index(moves.len())]);
            let mut chars: Vec<char> = san.chars().collect();
            for (index, op, c) in edits {
                let at = index.index(chars.len() + 1);
                match op {
                    0 if at < chars.len() => chars[at] = c,
                    1 => chars.insert(at, c),
                    2 if at < chars.len() => {
                        chars.remove(at);
                    }
                    // Drop an origin hint after a piece letter: Nbd2 -> Nd2.
                    _ if chars.len() > 3 && chars[0].is_ascii_uppercase() => {
                        chars.remove(1);
                    }
                    _ => {}
                }
            }
            (pos, chars.into_iter().collect())
        })
}

/// A position to read moves in: one of the seeds, after some legal moves.
fn position() -> impl Strategy<Value = Position> {
    (
        prop::sample::select(&SEED_FENS[..8]),
        prop::collection::vec(any::<u16>(), 0..40),
    )
        .prop_map(|(seed, choices)| {
            let mut pos = Position::from_fen(seed).expect("seed FENs are valid");
            for choice in choices {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[choice as usize % moves.len()]);
            }
            pos
        })
}

fn check_san_text(pos: &Position, text: &str) -> Result<(), TestCaseError> {
    match San::parse(text) {
        Err(e) => prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text),
        Ok(san) => {
            // What was read is written in a form that reads back the same.
            let written = san.to_string();
            prop_assert_eq!(
                San::parse(&written),
                Ok(san),
                "{:?} written as {:?}",
                text,
                written
            );
            if let Err(e) = san.to_move(pos) {
                prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text);
            }
        }
    }
    match pos.parse_san(text) {
        Err(e) => prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text),
        Ok(m) => {
            prop_assert!(
                pos.is_legal(m),
                "{:?} read as illegal {:?} in {}",
                text,
                m,
                pos.fen()
            );
            let san = pos.san(m);
            prop_assert_eq!(pos.parse_san(&san), Ok(m), "{:?} read as {}", text, san);
            // The move has what the text says: piece, origin hints, destination,
            // promotion, or castling side.
            let matches = match San::parse(text) {
                Ok(San::Normal {
                    role,
                    file,
                    rank,
                    to,
                    promotion,
                    ..
                }) => {
                    // Long algebraic without a piece letter (`b2c2`) names the
                    // origin square; the piece standing there is what moves.
                    let origin_given = role == Role::Pawn && file.is_some() && rank.is_some();
                    (pos.board().role_at(m.from()) == Some(role) || origin_given)
                        && !m.is_castle()
                        && m.to() == to
                        && file.is_none_or(|f| f == m.from().file())
                        && rank.is_none_or(|r| r == m.from().rank())
                        && m.promotion_role() == promotion
                }
                Ok(San::Castle(side)) => {
                    m.is_castle() && CastlingSide::of(m.from(), m.to()) == side
                }
                Ok(San::Null) | Err(_) => false,
            };
            prop_assert!(matches, "{:?} read as {} in {}", text, san, pos.fen());
        }
    }
    Ok(())
}

fn check_uci_text(pos: &Position, text: &str) -> Result<(), TestCaseError> {
    match UciMove::parse(text) {
        Err(e) => prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text),
        Ok(uci) => {
            prop_assert_eq!(uci.to_string(), text, "UCI is written as it is read");
            if let Err(e) = uci.to_move(pos) {
                prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text);
            }
        }
    }
    match pos.parse_uci(text) {
        Err(e) => prop_assert!(!e.to_string().is_empty(), "empty error for {:?}", text),
        Ok(m) => {
            prop_assert!(
                pos.is_legal(m),
                "{:?} read as illegal {:?} in {}",
                text,
                m,
                pos.fen()
            );
            let written = pos.to_uci(m);
            let king_takes_rook = format!("{}{}", m.from(), m.to());
            prop_assert!(
                written == text || (m.is_castle() && king_takes_rook == text),
                "{:?} read as {} in {}",
                text,
                written,
                pos.fen()
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn fen_parser_never_panics_on_arbitrary_strings(text in any::<String>()) {
        check_fen_text(&text)?;
    }

    #[test]
    fn fen_parser_never_panics_on_strings_of_fen_characters(
        text in prop_oneof![
            "[pnbrqkPNBRQK1-8/ wbKQkqa-h0-9-]{0,90}",
            "(([pnbrqkPNBRQK1-8]{1,8})/){7}[pnbrqkPNBRQK1-8]{1,8} [wb-] [KQkqA-Ha-h-]{1,4} [a-h1-8-]{1,2}( [0-9]{1,3} [0-9]{1,3})?",
        ],
    ) {
        check_fen_text(&text)?;
    }

    #[test]
    fn fen_parser_never_panics_on_mutated_fens(text in mutated_fen()) {
        check_fen_text(&text)?;
    }

    #[test]
    fn san_parser_never_panics_on_arbitrary_strings(pos in position(), text in any::<String>()) {
        check_san_text(&pos, &text)?;
    }

    #[test]
    fn san_parser_reads_san_shaped_text_consistently(pos in position(), text in san_shaped()) {
        check_san_text(&pos, &text)?;
    }

    #[test]
    fn san_parser_reads_edited_san_consistently((pos, text) in position_and_edited_san()) {
        check_san_text(&pos, &text)?;
    }

    #[test]
    fn uci_parser_never_panics_on_arbitrary_strings(pos in position(), text in any::<String>()) {
        check_uci_text(&pos, &text)?;
    }

    #[test]
    fn uci_parser_reads_uci_shaped_text_consistently(
        pos in position(),
        text in prop_oneof![
            4 => "[a-h][1-8][a-h][1-8][qrbnkpQRBN]?",
            1 => "[a-i0-9]{4,5}",
            1 => prop::sample::select(&["0000", "", "e2e4 ", "e1g1", "e1h1", "e8c8", "e8a8", "é2e4"][..]).prop_map(str::to_string),
        ],
    ) {
        check_uci_text(&pos, &text)?;
    }
}

proptest! {
    #![proptest_config(config(10_000))]

    #[test]
    fn fen_parser_is_consistent_on_fen_shaped_strings(text in fen_shaped()) {
        check_fen_text(&text)?;
    }
}

/// `n` values drawn from a strategy with the fixed seed.
fn sample<S: Strategy>(strategy: S, n: usize) -> Vec<S::Value> {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::new(config(1));
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).expect("a value").current())
        .collect()
}

#[test]
fn fen_shaped_strings_reach_the_position_checks() {
    // The random placements must produce some legal positions (to play moves in) and
    // fail in varied ways, or the test above would only exercise the first checks.
    let mut legal = 0;
    let mut errors = std::collections::BTreeSet::new();
    for text in sample(fen_shaped(), 3000) {
        match fen::parse(&text) {
            Ok(_) => legal += 1,
            Err(e) => {
                let kind = format!("{e:?}");
                errors.insert(kind.split(['(', ' ']).next().unwrap_or("").to_string());
                if let fen::FenError::Position(p) = e {
                    let kind = format!("{p:?}");
                    errors.insert(kind.split(['(', ' ']).next().unwrap_or("").to_string());
                }
            }
        }
    }
    assert!(
        legal >= 300,
        "only {legal} of 3000 FEN-shaped strings are legal positions"
    );
    assert!(errors.len() >= 8, "too few kinds of errors: {errors:?}");
}

#[test]
fn clocks_at_their_largest_value_survive_every_move() {
    // The FEN clocks are read as u32, so these FENs are accepted; every legal move must
    // then play without a panic and give a FEN that can be read again (saturating the
    // clocks or refusing such FENs would both do).
    for text in [
        "4k3/8/8/8/8/8/8/4K2R w K - 4294967295 1",
        "4k3/8/8/8/8/8/8/4K2R b K - 0 4294967295",
        "4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295",
    ] {
        let pos = Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        for &m in &pos.legal_moves() {
            let mut after = pos;
            after.play_unchecked(m);
            let written = after.fen();
            assert!(
                Position::from_fen(&written).is_ok(),
                "after {} in {text}: {written} does not parse",
                pos.to_uci(m)
            );
        }
    }
}

#[test]
fn san_shaped_strings_reach_every_outcome() {
    // The SAN-shaped inputs must produce legal moves and each kind of error, or the
    // SAN test above would only exercise the syntax checks.
    use caissa_rules::san::SanError;
    let (mut legal, mut syntax, mut illegal, mut ambiguous) = (0, 0, 0, 0);
    let shaped = sample((position(), san_shaped()), 5000);
    for (pos, text) in shaped
        .into_iter()
        .chain(sample(position_and_edited_san(), 5000))
    {
        match pos.parse_san(&text) {
            Ok(_) => legal += 1,
            Err(SanError::Syntax { .. }) => syntax += 1,
            Err(SanError::Illegal { .. }) => illegal += 1,
            Err(SanError::Ambiguous { .. }) => ambiguous += 1,
        }
    }
    assert!(legal >= 1000, "only {legal} legal moves read");
    assert!(syntax >= 1000, "only {syntax} syntax errors");
    assert!(illegal >= 500, "only {illegal} illegal moves");
    assert!(ambiguous >= 10, "only {ambiguous} ambiguous moves");
}
