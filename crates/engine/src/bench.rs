//! `bench`: the engine's signature. A fixed set of positions, each searched to a
//! fixed depth from a fresh engine (one thread, a fixed hash), gives a node count
//! that changes exactly when the search or the evaluation does, and a speed.
//! Commits that change either carry the count (`Bench: N`), as Stockfish's do.

use std::sync::Arc;
use std::time::{Duration, Instant};

use caissa_rules::Position;

use crate::nnue::Network;
use crate::{Engine, Limits, SearchResult};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 13;
/// Hash size in megabytes.
pub const HASH_MB: usize = 16;

/// The positions: fifteen openings of the shipped balanced suite, seventeen
/// middlegames and endings of the shipped puzzle set, eight textbook endings.
pub const POSITIONS: [&str; 40] = [
    "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 5",
    "r1bqk2r/pppp1ppp/2n2n2/1B2p3/1b2P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 5",
    "rnbqk1nr/ppp2ppp/3p4/2b1p3/4PP2/5N2/PPPP2PP/RNBQKB1R w KQkq - 0 4",
    "r1bqkb1r/pp1ppppp/2n2n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 0 5",
    "r1bqk1nr/pp1pppbp/2n3p1/1Bp5/4P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 0 5",
    "r1bqkbnr/pppn1ppp/4p3/8/3PN3/8/PPP2PPP/R1BQKBNR w KQkq - 0 5",
    "rn1qkbnr/pp2pppp/2p5/3p4/4P3/2N2b1P/PPPP1PP1/R1BQKB1R w KQkq - 0 5",
    "rnbqkb1r/ppp2ppp/4pn2/8/2pP4/4PN2/PP3PPP/RNBQKB1R w KQkq - 0 5",
    "rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/2N1P3/PP3PPP/R1BQKBNR w KQ - 0 5",
    "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 0 5",
    "r1bqkb1r/pp2pppp/2n2n2/2pp4/3P1B2/2P1P3/PP3PPP/RN1QKBNR w KQkq - 0 5",
    "r1bqk1nr/pp1pppbp/2n3p1/2p5/2P5/2N3P1/PP1PPPBP/R1BQK1NR w KQkq - 0 5",
    "rnbq1rk1/ppppppbp/5np1/8/8/5NP1/PPPPPPBP/RNBQ1RK1 w - - 0 5",
    "rnbqkbnr/pp2pppp/3p4/2p5/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
    "1k6/3B1R2/1P1p1p1p/3p1P2/3b2r1/r7/8/5K2 w - - 3 57",
    "rnbq1k2/p1bpr2p/2p2ppB/8/2QPB3/P4N2/1P3PPP/R3R1K1 b - - 2 18",
    "r5k1/1pp2pp1/p1p4p/8/6nP/3P2q1/PPP3Q1/4R1K1 b - - 0 31",
    "3r3k/p4ppp/8/q1pr3Q/2R5/2R5/P4PPP/6K1 w - - 0 34",
    "3nQ1kr/1N4p1/3Bnp1p/7B/p3P3/P6P/1PP3P1/R5KR b - - 4 40",
    "1kB2r2/2p1r3/p2b1p1p/3Q2p1/1B4P1/P3p2P/2PNNPR1/R4K2 b - - 0 29",
    "r3k1r1/pp1b1p1p/2pb4/3p4/P6p/RP2qP2/2P1B1P1/1N1Q1K1R w q - 4 26",
    "r1rq2k1/R6p/1p1P1pp1/5p2/1PBQ1P2/R7/5P1P/6K1 b - - 0 37",
    "1q3k2/1p3ppp/1Np5/p7/1P1B2n1/P1K5/5Pb1/1R2R3 b - - 2 36",
    "2r4k/pp5p/8/1qpp1P2/N2p1P1Q/P6P/1PP2P2/R4K2 w - - 1 29",
    "4R3/2p2pkp/3b4/3N4/rp1P1P2/7P/3B1K2/2R5 b - - 4 41",
    "r3k1r1/1p2bp2/7p/P3P3/1p2P2p/5P2/P3q1P1/2R3K1 w q - 0 37",
    "1r2kb1r/p1p2ppp/2p1p3/8/4B1n1/6N1/PPPPNPqP/R1B1K2R b k - 1 13",
    "5r2/6k1/5p2/p3Q1Pp/q1Pp4/P2B3P/1P1R1P2/2K5 w - - 0 39",
    "r2qkb1r/2pnpppp/p1np4/6N1/Np2P1b1/3PBP2/PPP3PP/R2QKB1R w KQkq - 1 9",
    "1r1qr1k1/pp3p2/P1np4/2p1p1p1/4B3/1PNP3b/2P1PP2/R1Q1K1R1 b Q - 0 23",
    "3r2kr/pbnp2p1/1p2p2p/2p1P3/3q1pPQ/P1NP3P/1PPKBP2/5RR1 b - - 5 25",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/5pk1/6p1/7p/P6P/6P1/r4PK1/1R6 w - - 0 40",
    "8/3k4/2p1p3/1pPpPp2/1P1P1P2/3K4/3B4/6n1 w - - 0 40",
    "8/6k1/6p1/3Q3p/7P/6P1/5PK1/1q6 w - - 0 45",
    "8/p7/8/1P4k1/8/8/6p1/K7 w - - 0 1",
    "3r4/8/8/5k2/8/8/4RP2/4K3 w - - 0 1",
    "8/8/1p3k2/1P1p4/3P1K2/8/8/8 w - - 0 50",
];

/// The outcome of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time of the searches.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let us = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / us
    }

    /// The last line of a bench: `NODES nodes NPS nps`.
    pub fn summary(&self) -> String {
        format!("{} nodes {} nps", self.nodes, self.nps())
    }
}

/// Searches every position of [`POSITIONS`] to `depth` with a fresh engine
/// (`new_game` before each) evaluating with `net` (`None`: the hand-made
/// evaluation). `on_position` hears each position's index, FEN and result as it
/// finishes.
pub fn run(
    depth: u32,
    net: Option<Arc<Network>>,
    on_position: &mut dyn FnMut(usize, &str, &SearchResult),
) -> BenchResult {
    let mut engine = Engine::new(HASH_MB);
    engine.set_network(net);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        engine.new_game();
        let start = Instant::now();
        let result = engine.search(&[pos], &limits, None, None, &mut |_| {});
        elapsed += start.elapsed();
        nodes += result.nodes;
        on_position(i, fen, &result);
    }
    BenchResult { nodes, elapsed }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_legal_and_has_moves() {
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(pos.has_legal_moves(), "{fen}");
        }
    }
}
