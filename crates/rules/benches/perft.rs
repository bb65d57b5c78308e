//! Perft side by side: caissa-rules against shakmaty and cozy-chess, in one process,
//! single thread, no hash tables, on the six standard perft positions.
//!
//! Two styles:
//! - `bulk`: the last ply is counted without playing its moves;
//! - `full`: every move is played, the last ply included.
//!
//! Before any timing, the node counts of the three libraries are compared, and the run
//! stops with the FEN and depth on the first disagreement.
//!
//! ```text
//! cargo bench -p caissa-rules --bench perft              # everything, a few minutes
//! cargo bench -p caissa-rules --bench perft -- kiwipete  # criterion's usual filter
//! ```
//!
//! Criterion prints one group per position and style (`bulk/kiwipete/d4`, ...) with
//! throughput in elements = nodes. At the end of a benchmarking run (not under
//! `cargo test --benches`) a compact markdown table follows on stdout: M nodes/s per
//! library and the ratios caissa/shakmaty and caissa/best peer, per position and
//! style, then overall rows (total nodes / total time). Each figure in that table is
//! the median of criterion's samples (warm-up included) of the time per iteration.
//! Set `CAISSA_PERFT_NO_TABLE=1` to leave the table out.
//!
//! Sampling is flat, 10 samples in 2 s per library after 0.5 s of warm-up: for the
//! longer groups criterion warns that it cannot complete 10 samples in 2 s and takes
//! one iteration per sample, which is intended (the whole run stays near 2.5 min).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{Bencher, Criterion, SamplingMode, Throughput};

/// A test position and the depths to run it at, chosen so that one iteration takes
/// roughly 50–300 ms on a laptop-class core.
struct Case {
    name: &'static str,
    fen: &'static str,
    bulk_depth: u32,
    full_depth: u32,
}

const CASES: [Case; 6] = [
    Case {
        name: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        bulk_depth: 6,
        full_depth: 5,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        // Depth 5 (194 M nodes) takes 0.5-2 s an iteration; depth 4 is 4 M nodes.
        bulk_depth: 4,
        full_depth: 4,
    },
    Case {
        name: "pos3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        bulk_depth: 6,
        full_depth: 6,
    },
    Case {
        name: "pos4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        bulk_depth: 5,
        full_depth: 5,
    },
    Case {
        name: "pos5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        bulk_depth: 5,
        full_depth: 4,
    },
    Case {
        name: "pos6",
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        bulk_depth: 5,
        full_depth: 4,
    },
];

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Style {
    Bulk,
    Full,
}

impl Style {
    fn name(self) -> &'static str {
        match self {
            Style::Bulk => "bulk",
            Style::Full => "full",
        }
    }
}

const LIBS: [&str; 3] = ["caissa", "shakmaty", "cozy-chess"];

// ---------------------------------------------------------------------------------
// The peers' perft, written against each library's public API.

/// shakmaty, bulk: the last ply is the length of the legal move list.
fn shakmaty_bulk(pos: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position as _;
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += shakmaty_bulk(&child, depth - 1);
    }
    nodes
}

/// shakmaty, full: every move is played, the last ply included (each leaf is passed
/// through `black_box`, as caissa's `perft_full` does, so that it is really made).
fn shakmaty_full(pos: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position as _;
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for &m in &pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        if depth == 1 {
            black_box(&child);
            nodes += 1;
        } else {
            nodes += shakmaty_full(&child, depth - 1);
        }
    }
    nodes
}

/// Moves in one cozy-chess piece-moves set: one per destination square, four for a
/// pawn reaching the first or eighth rank (one per promotion role).
fn cozy_set_len(set: &cozy_chess::PieceMoves) -> u64 {
    let destinations = u64::from(set.to.len());
    if set.piece != cozy_chess::Piece::Pawn {
        return destinations;
    }
    let back_ranks = cozy_chess::Rank::First.bitboard() | cozy_chess::Rank::Eighth.bitboard();
    destinations + 3 * u64::from((set.to & back_ranks).len())
}

/// cozy-chess, bulk: the last ply is the sum of the sizes of the generated sets.
fn cozy_bulk(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => return 1,
        1 => {
            board.generate_moves(|set| {
                nodes += cozy_set_len(&set);
                false
            });
        }
        _ => {
            board.generate_moves(|set| {
                for m in set {
                    let mut child = board.clone();
                    child.play_unchecked(m);
                    nodes += cozy_bulk(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// cozy-chess, full: every move is played, the last ply included (leaves through
/// `black_box`, as above).
fn cozy_full(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|set| {
        for m in set {
            let mut child = board.clone();
            child.play_unchecked(m);
            if depth == 1 {
                black_box(&child);
                nodes += 1;
            } else {
                nodes += cozy_full(&child, depth - 1);
            }
        }
        false
    });
    nodes
}

// ---------------------------------------------------------------------------------
// One position in the three libraries' own types.

struct Positions {
    caissa: caissa_rules::Position,
    shakmaty: shakmaty::Chess,
    cozy: cozy_chess::Board,
}

impl Positions {
    fn parse(fen: &str) -> Positions {
        let caissa = caissa_rules::fen::parse(fen)
            .unwrap_or_else(|e| panic!("caissa-rules rejects {fen}: {e:?}"));
        let shakmaty = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e:?}"))
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e:?}"));
        let cozy = cozy_chess::Board::from_fen(fen, false)
            .unwrap_or_else(|e| panic!("cozy-chess rejects {fen}: {e:?}"));
        Positions {
            caissa,
            shakmaty,
            cozy,
        }
    }

    /// Perft of library `lib` (an index into [`LIBS`]) in the given style.
    fn perft(&self, lib: usize, style: Style, depth: u32) -> u64 {
        use caissa_rules::perft;
        match (lib, style) {
            (0, Style::Bulk) => perft::perft(&self.caissa, depth),
            (0, Style::Full) => perft::perft_full(&self.caissa, depth),
            (1, Style::Bulk) => shakmaty_bulk(&self.shakmaty, depth),
            (1, Style::Full) => shakmaty_full(&self.shakmaty, depth),
            (2, Style::Bulk) => cozy_bulk(&self.cozy, depth),
            (2, Style::Full) => cozy_full(&self.cozy, depth),
            _ => unreachable!("no library {lib}"),
        }
    }
}

// ---------------------------------------------------------------------------------
// Timing records for the summary table.

/// (case index, style, library index) → seconds per iteration, one per criterion call.
type Samples = BTreeMap<(usize, Style, usize), Vec<f64>>;

static SAMPLES: Mutex<Samples> = Mutex::new(BTreeMap::new());

/// Times `iters` runs of library `lib` on `pos` for criterion, and keeps the time per
/// iteration for the summary table.
fn timed(b: &mut Bencher<'_>, key: (usize, Style, usize), pos: &Positions, depth: u32) {
    let (_, style, lib) = key;
    b.iter_custom(|iters| {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(black_box(pos).perft(lib, style, black_box(depth)));
        }
        let elapsed = start.elapsed();
        if iters > 0 {
            let per_iter = elapsed.as_secs_f64() / iters as f64;
            let mut samples = SAMPLES.lock().unwrap_or_else(|e| e.into_inner());
            samples.entry(key).or_default().push(per_iter);
        }
        elapsed
    });
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

/// Million nodes per second, or `-` when there is no timing.
fn mnps(nodes: u64, secs: Option<f64>) -> String {
    match secs {
        Some(s) if s > 0.0 => format!("{:.1}", nodes as f64 / s / 1e6),
        _ => "-".to_string(),
    }
}

fn ratio(caissa: Option<f64>, peer: Option<f64>) -> String {
    match (caissa, peer) {
        // A ratio of speeds: caissa is faster when it is above 1.
        (Some(c), Some(p)) if c > 0.0 => format!("{:.2}", p / c),
        _ => "-".to_string(),
    }
}

/// One table row from the time per iteration of each library (`None` if not timed).
fn row(out: &mut String, label: &str, depth: &str, nodes: u64, secs: [Option<f64>; 3]) {
    let best_peer = match (secs[1], secs[2]) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let _ = writeln!(
        out,
        "| {label} | {depth} | {nodes} | {} | {} | {} | {} | {} |",
        mnps(nodes, secs[0]),
        mnps(nodes, secs[1]),
        mnps(nodes, secs[2]),
        ratio(secs[0], secs[1]),
        ratio(secs[0], best_peer),
    );
}

/// The markdown summary of whatever was timed (criterion filters may skip some), or
/// `None` if nothing was.
fn summary_table(nodes_of: &BTreeMap<(usize, Style), (u32, u64)>) -> Option<String> {
    let samples = SAMPLES.lock().unwrap_or_else(|e| e.into_inner());
    if samples.is_empty() {
        return None;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| position / style | depth | nodes | caissa Mn/s | shakmaty Mn/s | cozy-chess Mn/s \
         | caissa/shakmaty | caissa/best peer |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|");
    // Totals per style (index 0 bulk, 1 full, 2 both), over rows timed for all three.
    let mut totals = [(0u64, [0.0f64; 3]); 3];
    for style in [Style::Bulk, Style::Full] {
        for (i, case) in CASES.iter().enumerate() {
            let Some(&(depth, nodes)) = nodes_of.get(&(i, style)) else {
                continue;
            };
            let secs: [Option<f64>; 3] = std::array::from_fn(|lib| {
                samples
                    .get(&(i, style, lib))
                    .filter(|v| !v.is_empty())
                    .map(|v| median(v))
            });
            if secs.iter().all(Option::is_none) {
                continue;
            }
            let label = format!("{} {}", case.name, style.name());
            row(&mut out, &label, &depth.to_string(), nodes, secs);
            if secs.iter().all(Option::is_some) {
                for t in [style as usize, 2] {
                    totals[t].0 += nodes;
                    for (total, secs) in totals[t].1.iter_mut().zip(secs) {
                        *total += secs.unwrap_or(0.0);
                    }
                }
            }
        }
    }
    for (t, label) in ["**overall bulk**", "**overall full**", "**overall**"]
        .iter()
        .enumerate()
    {
        let (nodes, secs) = totals[t];
        if nodes > 0 {
            row(&mut out, label, "", nodes, secs.map(Some));
        }
    }
    Some(out)
}

// ---------------------------------------------------------------------------------

/// Checks that the three libraries agree at `depth` and returns the node count.
fn verified_nodes(case: &Case, pos: &Positions, style: Style, depth: u32) -> u64 {
    let mut counts = [0u64; 3];
    let mut times = [Duration::ZERO; 3];
    for lib in 0..3 {
        let start = Instant::now();
        counts[lib] = pos.perft(lib, style, depth);
        times[lib] = start.elapsed();
    }
    assert!(
        counts.iter().all(|&n| n == counts[0]),
        "perft {} disagreement on {} ({}) at depth {depth}: caissa {}, shakmaty {}, cozy-chess {}",
        style.name(),
        case.fen,
        case.name,
        counts[0],
        counts[1],
        counts[2],
    );
    eprintln!(
        "verified {} {} d{depth}: {} nodes (one run: caissa {:.0?}, shakmaty {:.0?}, cozy-chess {:.0?})",
        case.name,
        style.name(),
        counts[0],
        times[0],
        times[1],
        times[2],
    );
    counts[0]
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();

    let positions: Vec<Positions> = CASES
        .iter()
        .map(|case| Positions::parse(case.fen))
        .collect();

    // Agreement first, for every case and style, before anything is timed.
    let mut nodes_of = BTreeMap::new();
    for style in [Style::Bulk, Style::Full] {
        for (i, case) in CASES.iter().enumerate() {
            let depth = match style {
                Style::Bulk => case.bulk_depth,
                Style::Full => case.full_depth,
            };
            let nodes = verified_nodes(case, &positions[i], style, depth);
            nodes_of.insert((i, style), (depth, nodes));
        }
    }

    for style in [Style::Bulk, Style::Full] {
        for (i, case) in CASES.iter().enumerate() {
            let (depth, nodes) = nodes_of[&(i, style)];
            let mut group = c.benchmark_group(format!("{}/{}/d{depth}", style.name(), case.name));
            group.sampling_mode(SamplingMode::Flat);
            group.throughput(Throughput::Elements(nodes));
            for (lib, lib_name) in LIBS.iter().enumerate() {
                group.bench_function(*lib_name, |b| {
                    timed(b, (i, style, lib), &positions[i], depth);
                });
            }
            group.finish();
        }
    }

    c.final_summary();

    // Criterion's own mode is private: recognise a benchmarking run as cargo bench does.
    let args: Vec<String> = std::env::args().collect();
    let benchmarking =
        args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--test" || a == "--list");
    if !benchmarking || std::env::var_os("CAISSA_PERFT_NO_TABLE").is_some() {
        return;
    }
    if let Some(table) = summary_table(&nodes_of) {
        println!(
            "\nperft, single thread, M nodes/s (median time per iteration); \
             ratios > 1: caissa faster\n"
        );
        print!("{table}");
    }
}
