//! The search: iterative deepening over a principal-variation search with aspiration
//! windows, a transposition table, null-move pruning, ProbCut (a capture whose
//! shallow search beats beta by 150 cp cuts the node), late move reductions, check
//! extensions, reverse futility / futility / late-move pruning near the leaves, SEE
//! pruning of captures and quiet moves that lose material, and a quiescence search
//! over captures that skips those losing material by SEE.
//!
//! Move ordering: the transposition-table move, then winning and equal captures (most
//! valuable victim, least valuable attacker, then their capture history) and queen
//! promotions, two killer moves per ply, quiet moves by their history and the
//! continuation histories of the two moves before (`history.rs`), losing captures
//! last.
//!
//! Draws: a position repeated within the search path (twofold) or seen twice in the
//! game before the root (threefold), the fifty-move rule, and bare minor pieces.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caissa_rules::{Position, Role};

use crate::eval::{PARAM_COUNT, S};
use crate::nnue::{AccumulatorStack, Network};
use crate::see::{captured_value, is_capture, VALUES};
use crate::time::{budget, soft_stop_share, BASE_SOFT_SHARE, MAX_STABLE_ITERATIONS};
use crate::tt::TranspositionTable;
use crate::{Info, Limits, Line, Score, SearchResult};

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INF: i32 = 32001;
/// Score of giving mate now; mate in `p` plies scores `MATE - p`.
pub const MATE: i32 = 32000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Most search threads (`Threads`).
pub const MAX_THREADS: usize = 64;

mod history;
mod node;
mod searcher;
mod smp;

use history::Histories;
use searcher::{RootMove, Searcher};

/// A search engine: the transposition table and the move-ordering history, kept
/// between the searches of one game.
pub struct Engine {
    tt: TranspositionTable,
    history: Histories,
    hash_mb: usize,
    /// Number of principal variations to report (`MultiPV`), at least 1.
    pub multipv: usize,
    /// Milliseconds kept in reserve on every move (`Move Overhead`).
    pub move_overhead_ms: u64,
    params: &'static [S; PARAM_COUNT],
    /// The neural evaluation, when in use (else the hand-made one).
    net: Option<Arc<Network>>,
    accumulators: Option<AccumulatorStack>,
    /// Search threads (`Threads`): this one and `threads - 1` helpers.
    threads: usize,
    /// False while a playing level searches: the levels' strengths were measured
    /// with the hand-made evaluation.
    pub(crate) use_net: bool,
    /// Whether the table's stored evaluations and scores came from the net.
    table_from_net: bool,
    helpers: Vec<smp::Helper>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(16)
    }
}

impl Engine {
    /// An engine with a transposition table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Engine {
        let net = Network::shared_embedded();
        Engine {
            tt: TranspositionTable::new(hash_mb),
            history: Histories::default(),
            hash_mb: hash_mb.max(1),
            multipv: 1,
            move_overhead_ms: 30,
            params: crate::eval::default_params(),
            table_from_net: net.is_some(),
            net,
            accumulators: None,
            threads: 1,
            use_net: true,
            helpers: Vec::new(),
        }
    }

    /// Searches with `n` threads (1 to [`MAX_THREADS`]) sharing the transposition
    /// table (Lazy SMP).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Evaluates with `net`, or with the hand-made evaluation when `None`.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.accumulators = None;
        self.helpers.clear();
        self.net = net;
        // Stored static evaluations came from the other evaluation.
        self.tt.clear();
        self.table_from_net = self.net.is_some();
    }

    /// The neural network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Evaluates with other weights (for the tuner's comparisons).
    pub fn set_params(&mut self, params: &'static [S; PARAM_COUNT]) {
        self.params = params;
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, mb: usize) {
        if mb.max(1) != self.hash_mb {
            self.hash_mb = mb.max(1);
            self.tt = TranspositionTable::new(self.hash_mb);
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.helpers.clear();
    }

    /// Searches the last position of `positions` (the game so far, oldest first; it
    /// may be just the position itself). Never panics; `best_move` is `None` only
    /// when there is no legal move. `stop` aborts the search from another thread;
    /// `ponder` (while true) suspends the clock; `on_info` hears each completed
    /// iteration (one call per principal variation).
    pub fn search(
        &mut self,
        positions: &[Position],
        limits: &Limits,
        stop: Option<&AtomicBool>,
        ponder: Option<&AtomicBool>,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let Some(root) = positions.last().copied() else {
            return SearchResult::default();
        };
        let from_net = self.use_net && self.net.is_some();
        if from_net != self.table_from_net {
            // Stored evaluations and scores came from the other evaluation.
            self.tt.clear();
            self.table_from_net = from_net;
        }
        self.tt.new_search();
        self.history.age();
        let legal = root.legal_moves();
        // A `searchmoves` list naming no legal move is ignored rather than leaving
        // the engine without a move.
        let restrict = legal.iter().any(|m| limits.searchmoves.contains(m));
        let mut root_moves: Vec<RootMove> = legal
            .iter()
            .filter(|m| !restrict || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                seldepth: 0,
                nodes: 0,
            })
            .collect();
        if root_moves.is_empty() {
            let score = if root.is_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            return SearchResult {
                score,
                ..SearchResult::default()
            };
        }
        // Order the root moves once by the move-ordering heuristics.
        let tt_move = self.tt.probe(root.zobrist_hash()).map(|e| e.mv);
        root_moves.sort_by_key(|rm| {
            let m = rm.mv;
            if Some(m) == tt_move {
                i32::MIN
            } else if is_capture(&root, m) {
                -(1 << 20) - captured_value(&root, m) * 16
                    + VALUES[root.board().role_at(m.from()).map_or(0, Role::index)] / 16
            } else if m.promotion_role() == Some(Role::Queen) {
                -(1 << 19)
            } else {
                0
            }
        });

        let budget = budget(limits, root.turn(), self.move_overhead_ms);
        let hashes: Vec<u64> = positions.iter().map(|p| p.zobrist_hash()).collect();
        let max_depth = match (limits.depth, limits.mate) {
            (Some(d), _) => d.clamp(1, MAX_PLY as u32 - 1) as i32,
            (None, Some(m))
                if limits.movetime.is_none()
                    && limits.wtime.is_none()
                    && limits.btime.is_none()
                    && limits.nodes.is_none()
                    && !limits.infinite =>
            {
                (4 * m as i32 + 10).min(MAX_PLY as i32 - 1)
            }
            _ => MAX_PLY as i32 - 1,
        };
        let multipv = self.multipv.clamp(1, root_moves.len());
        let threads = self.threads;
        while self.helpers.len() + 1 < threads {
            self.helpers.push(smp::Helper::default());
        }
        let done = AtomicBool::new(false);
        let shared_nodes = AtomicU64::new(0);
        let Engine {
            tt,
            history,
            helpers,
            net,
            accumulators,
            params,
            use_net,
            ..
        } = self;
        let net = net.as_deref().filter(|_| *use_net);
        let (tt, params) = (&*tt, *params);
        std::thread::scope(|scope| {
            let handles: Vec<_> = helpers[..threads - 1]
                .iter_mut()
                .enumerate()
                .map(|(k, helper)| {
                    let job = smp::Job {
                        tt,
                        net,
                        params,
                        root,
                        root_moves: root_moves.clone(),
                        hashes: hashes.clone(),
                        max_depth,
                        first_depth: 1 + (k as i32 % 2),
                        done: &done,
                        nodes: &shared_nodes,
                        node_limit: limits.nodes,
                    };
                    scope.spawn(move || helper.search(job))
                })
                .collect();
            let mut s = Searcher::new(tt, nnue(net, accumulators), history, hashes, params);
            s.start = start;
            s.hard = budget.hard;
            s.node_limit = limits.nodes;
            s.stop = stop;
            s.ponder = ponder;
            s.pondering = ponder.is_some_and(|p| p.load(Ordering::Relaxed));
            s.root_moves = root_moves;
            s.shared_nodes = Some(&shared_nodes);

            let mut result = iterate(&mut s, &root, limits, &budget, multipv, max_depth, on_info);
            done.store(true, Ordering::Relaxed);
            let found: Vec<smp::Found> = handles
                .into_iter()
                .filter_map(|h| h.join().ok().flatten())
                .collect();
            if multipv == 1 {
                smp::prefer_deeper(&mut result, &found);
            }
            s.publish_nodes();
            result.nodes = shared_nodes.load(Ordering::Relaxed);
            result.nps = nps(result.nodes, start.elapsed());
            result
        })
    }
}

/// Iterative deepening on the main thread: time management, info lines,
/// MultiPV and pondering.
fn iterate(
    s: &mut Searcher<'_>,
    root: &Position,
    limits: &Limits,
    budget: &crate::time::TimeBudget,
    multipv: usize,
    max_depth: i32,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = s.start;
    let stop = s.stop;
    let mut completed = 0;
    let mut result_lines: Vec<Line> = Vec::new();
    let mut previous_best = None;
    let mut stable = 0;
    for depth in 1..=max_depth {
        s.can_abort = depth > 1;
        if s.can_abort && stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            break;
        }
        for pv_idx in 0..multipv {
            s.search_depth(root, depth, pv_idx);
            if s.stopped {
                break;
            }
        }
        if s.stopped {
            // A move proven better than the last best within the abandoned
            // iteration has been sorted first: play it.
            if multipv == 1 {
                if let Some(first) = result_lines.first_mut() {
                    if first.mv != s.root_moves[0].mv && s.root_moves[0].score > -INF {
                        *first = s.line(0);
                        // Tell the GUI, so the last info line names the move played.
                        let elapsed = start.elapsed();
                        on_info(&Info {
                            depth: depth as u32,
                            seldepth: s.root_moves[0].seldepth as u32,
                            multipv: 1,
                            score: first.score,
                            nodes: s.total_nodes(),
                            time_ms: elapsed.as_millis() as u64,
                            nps: nps(s.total_nodes(), elapsed),
                            hashfull: s.tt.hashfull(),
                            pv: first.pv.clone(),
                        });
                    }
                }
            }
            break;
        }
        completed = depth;
        for rm in s.root_moves.iter_mut() {
            rm.prev_score = rm.score;
        }
        result_lines = (0..multipv).map(|k| s.line(k)).collect();
        let elapsed = start.elapsed();
        let hashfull = s.tt.hashfull();
        for (k, line) in result_lines.iter().enumerate() {
            on_info(&Info {
                depth: depth as u32,
                seldepth: s.root_moves[k].seldepth as u32,
                multipv: k as u32 + 1,
                score: line.score,
                nodes: s.total_nodes(),
                time_ms: elapsed.as_millis() as u64,
                nps: nps(s.total_nodes(), elapsed),
                hashfull,
                pv: line.pv.clone(),
            });
        }
        // Stop deepening?
        let best = s.root_moves[0].score;
        if let Some(m) = limits.mate {
            if best >= MATE - 2 * m as i32 {
                break;
            }
        }
        if s.check_pondering() {
            continue;
        }
        let best_move = s.root_moves[0].mv;
        stable = if previous_best == Some(best_move) {
            (stable + 1).min(MAX_STABLE_ITERATIONS)
        } else {
            0
        };
        previous_best = Some(best_move);
        if let Some(opt) = budget.optimum {
            if s.start.elapsed() >= opt.mul_f64(soft_fraction(s, depth, stable)) {
                break;
            }
        }
        if s.root_moves.len() == 1 && budget.hard.is_some() && depth >= 4 {
            break;
        }
        if limits.nodes.is_some_and(|n| s.total_nodes() >= n)
            || limits.soft_nodes.is_some_and(|n| s.total_nodes() >= n)
        {
            break;
        }
    }
    let elapsed = start.elapsed();
    let best = result_lines.first().cloned().unwrap_or_else(|| s.line(0));
    SearchResult {
        best_move: Some(best.mv),
        ponder: best.pv.get(1).copied(),
        score: best.score,
        depth: completed.max(1) as u32,
        seldepth: s.root_moves[0].seldepth as u32,
        pv: best.pv.clone(),
        nodes: s.nodes,
        time_ms: elapsed.as_millis() as u64,
        nps: nps(s.nodes, elapsed),
        lines: result_lines,
    }
}

impl Engine {
    /// The quiescence-search value of `pos` (captures and queen promotions only, or
    /// all evasions in check), from the side to move's point of view. The tuner uses
    /// it to keep only positions whose static evaluation is already quiet.
    pub fn quiescence(&mut self, pos: &Position) -> i32 {
        let mut s = Searcher::new(
            &self.tt,
            None,
            &mut self.history,
            vec![pos.zobrist_hash()],
            self.params,
        );
        s.qsearch(pos, -INF, INF, 0)
    }
}

/// The network and this engine's accumulators, made to fit it.
fn nnue<'a>(
    net: Option<&'a Network>,
    accumulators: &'a mut Option<AccumulatorStack>,
) -> Option<(&'a Network, &'a mut AccumulatorStack)> {
    let net = net?;
    if accumulators.as_ref().is_none_or(|a| !a.fits(net)) {
        *accumulators = Some(AccumulatorStack::new(net, MAX_PLY + 2));
    }
    Some((net, accumulators.as_mut()?))
}

/// The share of the optimum time after which no new iteration starts. The
/// first iterations say little about how sure the search is, so they keep
/// the base share.
fn soft_fraction(s: &Searcher<'_>, depth: i32, stable: usize) -> f64 {
    if depth < 6 {
        return BASE_SOFT_SHARE;
    }
    let total: u64 = s.root_moves.iter().map(|rm| rm.nodes).sum();
    let best_share = s.root_moves[0].nodes as f64 / total.max(1) as f64;
    soft_stop_share(stable, best_share)
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let us = elapsed.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / us
}

/// The value shown for an internal score.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v) / 2)
    } else {
        Score::Cp(v)
    }
}
