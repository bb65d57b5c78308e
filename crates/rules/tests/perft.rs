//! Perft: leaf-node counts of the legal move tree against known counts.
//!
//! The suites live in `tests/data/perft.epd` (standard chess) and
//! `tests/data/perft960.epd` (Chess960); their headers say where the positions and the
//! counts come from. The normal tests skip every depth whose count is above
//! [`NODE_LIMIT`], so they run in a few seconds; the `#[ignore]`d tests run every depth
//! in the files and the published deep counts of the six standard positions
//! (`cargo test --release -p caissa-rules --test tests -- --ignored perft`).

use caissa_rules::{fen, perft, CastlingMode, Position};

/// Depths with more leaf nodes than this are skipped by the normal (not ignored) tests.
const NODE_LIMIT: u64 = 2_000_000;

const STANDARD_SUITE: &str = include_str!("data/perft.epd");
const CHESS960_SUITE: &str = include_str!("data/perft960.epd");

/// One EPD line: the FEN and its `(depth, count)` pairs.
struct Entry {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn parse_suite(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().expect("a FEN").trim().to_string();
        let counts = fields
            .map(|field| {
                let field = field.trim();
                let (tag, count) = field
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("line {}: bad field {field:?}", i + 1));
                let depth = tag
                    .strip_prefix('D')
                    .and_then(|d| d.parse::<u32>().ok())
                    .unwrap_or_else(|| panic!("line {}: bad depth tag {tag:?}", i + 1));
                let count = count
                    .trim()
                    .parse::<u64>()
                    .unwrap_or_else(|_| panic!("line {}: bad count {count:?}", i + 1));
                (depth, count)
            })
            .collect::<Vec<_>>();
        assert!(!counts.is_empty(), "line {}: no counts", i + 1);
        entries.push(Entry {
            line: i + 1,
            fen,
            counts,
        });
    }
    entries
}

fn position(entry: &Entry, mode: Option<CastlingMode>) -> Position {
    let parsed = match mode {
        None => fen::parse(&entry.fen),
        Some(mode) => fen::parse_with_mode(&entry.fen, mode),
    };
    parsed.unwrap_or_else(|e| panic!("line {}: {:?} does not parse: {e}", entry.line, entry.fen))
}

/// Runs every depth up to `limit` nodes; returns the mismatches (all of them, so one
/// run shows every failing position) and how many depths were checked.
fn run_suite(
    text: &str,
    mode: Option<CastlingMode>,
    limit: u64,
    count: fn(&Position, u32) -> u64,
) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in parse_suite(text) {
        let pos = position(&entry, mode);
        for &(depth, expected) in &entry.counts {
            if expected > limit {
                continue;
            }
            checked += 1;
            let got = count(&pos, depth);
            if got != expected {
                failures.push(format!(
                    "line {}: {} depth {depth}: expected {expected}, got {got}",
                    entry.line, entry.fen
                ));
            }
        }
    }
    (failures, checked)
}

#[test]
fn perft_suite_has_at_least_a_hundred_positions() {
    let entries = parse_suite(STANDARD_SUITE);
    assert!(
        entries.len() >= 100,
        "only {} positions in perft.epd",
        entries.len()
    );
    // Every position must be exercised by the fast test at least at depth 1.
    for entry in &entries {
        assert_eq!(entry.counts[0].0, 1, "line {}: D1 missing", entry.line);
    }
}

#[test]
fn perft_suite_within_node_limit() {
    let (failures, checked) = run_suite(STANDARD_SUITE, None, NODE_LIMIT, perft::perft);
    assert!(checked > 500, "only {checked} depths checked");
    assert!(
        failures.is_empty(),
        "{} perft mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
#[ignore = "slow: every depth of the suite (about 2 * 10^9 nodes)"]
fn perft_suite_full_depth() {
    let (failures, _) = run_suite(STANDARD_SUITE, None, u64::MAX, perft::perft);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perft_full_agrees_with_the_suite_at_small_depths() {
    // perft_full plays the last ply too: it must give the same counts as bulk perft.
    let (failures, checked) = run_suite(STANDARD_SUITE, None, 100_000, perft::perft_full);
    assert!(checked > 300, "only {checked} depths checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perft_and_perft_full_agree_on_every_position() {
    for entry in parse_suite(STANDARD_SUITE) {
        let pos = position(&entry, None);
        for depth in 0..=3 {
            assert_eq!(
                perft::perft(&pos, depth),
                perft::perft_full(&pos, depth),
                "line {}: {} depth {depth}",
                entry.line,
                entry.fen
            );
        }
    }
}

#[test]
fn perft_depth_zero_counts_the_position_itself() {
    for entry in parse_suite(STANDARD_SUITE) {
        let pos = position(&entry, None);
        assert_eq!(perft::perft(&pos, 0), 1, "{}", entry.fen);
        assert_eq!(perft::perft_full(&pos, 0), 1, "{}", entry.fen);
        assert!(perft::divide(&pos, 0).is_empty(), "{}", entry.fen);
    }
}

#[test]
fn perft_depth_one_is_the_number_of_legal_moves() {
    for entry in parse_suite(STANDARD_SUITE) {
        let pos = position(&entry, None);
        let moves = pos.legal_moves();
        assert_eq!(perft::perft(&pos, 1), moves.len() as u64, "{}", entry.fen);
        assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{}", entry.fen);
    }
}

#[test]
fn divide_sums_to_perft_with_one_entry_per_legal_move() {
    for entry in parse_suite(STANDARD_SUITE) {
        let pos = position(&entry, None);
        let legal = pos.legal_moves();
        for depth in 1..=3 {
            let divided = perft::divide(&pos, depth);
            assert_eq!(divided.len(), legal.len(), "{} depth {depth}", entry.fen);
            for (i, &(m, _)) in divided.iter().enumerate() {
                assert!(legal.contains(&m), "{}: {m:?} is not legal", entry.fen);
                assert!(
                    !divided[..i].iter().any(|&(other, _)| other == m),
                    "{}: {m:?} listed twice",
                    entry.fen
                );
            }
            let sum: u64 = divided.iter().map(|&(_, n)| n).sum();
            assert_eq!(
                sum,
                perft::perft(&pos, depth),
                "{} depth {depth}",
                entry.fen
            );
        }
    }
}

#[test]
fn divide_counts_are_the_perft_of_each_child() {
    let kiwipete =
        fen::parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("Kiwipete");
    let divided = perft::divide(&kiwipete, 3);
    assert_eq!(divided.len(), 48);
    for (m, n) in divided {
        let mut child = kiwipete;
        child.play(m).expect("divide lists legal moves");
        assert_eq!(n, perft::perft_full(&child, 2), "{m:?}");
    }
    assert_eq!(
        perft::divide(&kiwipete, 3)
            .iter()
            .map(|&(_, n)| n)
            .sum::<u64>(),
        97862
    );
}

#[test]
fn divide_of_the_initial_position_at_depth_three() {
    // The published divide of the initial position: 1.e4 leads to 600 leaves, 1.Nf3
    // to 440, 8902 in all.
    let pos = Position::new();
    let divided = perft::divide(&pos, 3);
    assert_eq!(divided.len(), 20);
    assert_eq!(divided.iter().map(|&(_, n)| n).sum::<u64>(), 8902);
    let e2e4 = divided
        .iter()
        .find(|&&(m, _)| pos.to_uci(m) == "e2e4")
        .expect("e2e4 is legal");
    assert_eq!(e2e4.1, 600);
    let g1f3 = divided
        .iter()
        .find(|&&(m, _)| pos.to_uci(m) == "g1f3")
        .expect("g1f3 is legal");
    assert_eq!(g1f3.1, 440);
}

#[test]
fn chess960_suite_has_at_least_eight_known_positions() {
    let entries = parse_suite(CHESS960_SUITE);
    assert!(entries.len() >= 16, "only {} positions", entries.len());
    let first = &entries[0];
    assert_eq!(
        first.fen,
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    );
    assert_eq!(
        first.counts,
        vec![(1, 21), (2, 528), (3, 12189), (4, 326672), (5, 8146062)]
    );
}

#[test]
fn chess960_perft_within_node_limit() {
    let (failures, checked) = run_suite(
        CHESS960_SUITE,
        Some(CastlingMode::Chess960),
        NODE_LIMIT,
        perft::perft,
    );
    assert!(checked > 60, "only {checked} depths checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn chess960_perft_full_agrees_at_small_depths() {
    let (failures, _) = run_suite(
        CHESS960_SUITE,
        Some(CastlingMode::Chess960),
        100_000,
        perft::perft_full,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn chess960_castling_rights_are_detected_from_shredder_fen() {
    // Positions whose king or rooks are off the standard squares must be read as
    // Chess960 by plain `fen::parse`, with the same counts.
    for entry in parse_suite(CHESS960_SUITE).iter().take(8) {
        let pos = position(entry, None);
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960, "{}", entry.fen);
        for &(depth, expected) in entry.counts.iter().filter(|&&(d, _)| d <= 3) {
            assert_eq!(perft::perft(&pos, depth), expected, "{}", entry.fen);
        }
    }
}

#[test]
fn chess960_divide_sums_to_perft() {
    for entry in parse_suite(CHESS960_SUITE) {
        let pos = position(&entry, Some(CastlingMode::Chess960));
        for depth in 1..=3 {
            let sum: u64 = perft::divide(&pos, depth).iter().map(|&(_, n)| n).sum();
            assert_eq!(
                sum,
                perft::perft(&pos, depth),
                "{} depth {depth}",
                entry.fen
            );
        }
    }
}

#[test]
#[ignore = "slow: every depth of the Chess960 suite"]
fn chess960_perft_full_depth() {
    let (failures, _) = run_suite(
        CHESS960_SUITE,
        Some(CastlingMode::Chess960),
        u64::MAX,
        perft::perft,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The six positions of the Chess Programming Wiki perft page with their published
/// counts, to the deepest depth that stays near 10^8 nodes (or the deepest known).
const DEEP: [(&str, u32, u64); 6] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        6,
        706_045_033,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
        89_941_194,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        5,
        164_075_551,
    ),
];

#[test]
#[ignore = "slow: about 1.45 * 10^9 nodes; run with --release"]
fn deep_perft_standard_positions() {
    for (fen_text, depth, expected) in DEEP {
        let pos = fen::parse(fen_text).expect("standard position");
        assert_eq!(
            perft::perft(&pos, depth),
            expected,
            "{fen_text} depth {depth}"
        );
    }
}

#[test]
fn deep_positions_agree_between_perft_and_perft_full_at_depth_three() {
    // The published counts one and two plies below the deep ones.
    let shallow: [u64; 6] = [8902, 97862, 2812, 9467, 62379, 89890];
    for ((fen_text, _, _), expected) in DEEP.iter().zip(shallow) {
        let pos = fen::parse(fen_text).expect("standard position");
        assert_eq!(perft::perft(&pos, 3), expected, "{fen_text}");
        assert_eq!(perft::perft_full(&pos, 3), expected, "{fen_text}");
    }
}
