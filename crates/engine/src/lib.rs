//! Caissa's chess engine, built on [`caissa_rules`].
//!
//! * [`Engine::search`] / [`search`]: iterative-deepening alpha-beta search of a
//!   position with its game history, under [`Limits`] (clock, depth, nodes, mate,
//!   infinite), returning a [`SearchResult`].
//! * [`level_move`]: a move at playing level 1 (a beginner) to 8 (full strength in
//!   about a second), for "play the computer" (see [`levels`]).
//! * [`run_uci`]: the UCI protocol over any reader and writer (`caissa uci`).
//!
//! ```
//! use caissa_engine::{search, Limits};
//! use caissa_rules::Position;
//!
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
//! let result = search(&[pos], &Limits { depth: Some(4), ..Limits::default() });
//! assert_eq!(pos.to_uci(result.best_move.unwrap()), "d1d8");
//! assert_eq!(result.score, caissa_engine::Score::Mate(1));
//! ```

pub mod bench;
pub mod eval;
pub mod levels;
pub mod nnue;
mod opening;
pub mod params;
mod rng;
pub mod search;
pub mod see;
pub mod time;
pub mod tt;
pub mod tune;
pub mod uci;

use caissa_rules::{Color, Move, Position};

pub use levels::{level_move, Level, LEVELS};
pub use opening::random_opening;
pub use rng::Rng;
pub use search::Engine;
pub use uci::run_uci;

/// The engine's name and version as `uci` reports it.
pub const NAME: &str = concat!("Caissa ", env!("CARGO_PKG_VERSION"));
/// The author line of `uci`.
pub const AUTHOR: &str = "the Caissa developers";

/// What bounds one search. All times in milliseconds; everything `None`/`false`
/// means "until stopped or the maximum depth".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining clock time.
    pub wtime: Option<u64>,
    /// Black's remaining clock time.
    pub btime: Option<u64>,
    /// White's increment per move.
    pub winc: Option<u64>,
    /// Black's increment per move.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Exactly this long (less the move overhead).
    pub movetime: Option<u64>,
    /// At most this many plies.
    pub depth: Option<u32>,
    /// At most about this many nodes.
    pub nodes: Option<u64>,
    /// No new iteration once this many nodes are searched: the score is then
    /// that of a completed iteration (self-play data generation).
    pub soft_nodes: Option<u64>,
    /// Stop when a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Ignore the clock: search until stopped.
    pub infinite: bool,
    /// Only consider these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// The remaining time and increment of `side`'s clock, where given.
    pub fn clock(&self, side: Color) -> (Option<u64>, Option<u64>) {
        match side {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        }
    }
}

/// A score as UCI shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated; `Mate(0)`: it
    /// is checkmated already).
    Mate(i32),
}

impl Default for Score {
    fn default() -> Score {
        Score::Cp(0)
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// One principal variation of a finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its first move.
    pub mv: Move,
    /// Its score.
    pub score: Score,
    /// The score on the internal scale (mates near ±32000), for comparisons.
    pub raw_score: i32,
    /// The moves of the variation.
    pub pv: Vec<Move>,
}

/// Progress report after each completed iteration, one per principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the variation.
    pub multipv: u32,
    /// Its score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// The variation.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only without legal moves.
    pub best_move: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// Score of the best move (`Mate(0)` when checkmated, `Cp(0)` when stalemated).
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached in it.
    pub seldepth: u32,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Every principal variation (MultiPV), best first.
    pub lines: Vec<Line>,
}

/// Searches the last of `positions` (the game so far, oldest first, or just
/// `&[position]`) with a fresh 16 MB engine.
pub fn search(positions: &[Position], limits: &Limits) -> SearchResult {
    Engine::new(16).search(positions, limits, None, None, &mut |_| {})
}
