//! The search: iterative deepening over a principal-variation search with aspiration
//! windows, a transposition table, null-move pruning, late move reductions, check
//! extensions, reverse futility / futility / late-move pruning near the leaves, and a
//! quiescence search over captures that skips those losing material by SEE.
//!
//! Move ordering: the transposition-table move, then winning and equal captures (most
//! valuable victim, least valuable attacker) and queen promotions, two killer moves
//! per ply, quiet moves by the history heuristic, losing captures last.
//!
//! Draws: a position repeated within the search path (twofold) or seen twice in the
//! game before the root (threefold), the fifty-move rule, and bare minor pieces.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caissa_rules::{Color, Move, Position, Role};

use crate::eval::{evaluate_with, PARAM_COUNT, S};
use crate::nnue::{AccumulatorStack, Network};
use crate::see::{captured_value, is_capture, see, VALUES};
use crate::time::budget;
use crate::tt::{Bound, TranspositionTable};
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

mod smp;

type History = [[[i32; 64]; 64]; 2];

/// A search engine: the transposition table and the move-ordering history, kept
/// between the searches of one game.
pub struct Engine {
    tt: TranspositionTable,
    history: Box<History>,
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
        Engine {
            tt: TranspositionTable::new(hash_mb),
            history: Box::new([[[0; 64]; 64]; 2]),
            hash_mb: hash_mb.max(1),
            multipv: 1,
            move_overhead_ms: 30,
            params: crate::eval::default_params(),
            net: Network::shared_embedded(),
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
        self.history
            .iter_mut()
            .flatten()
            .for_each(|row| row.fill(0));
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
        self.tt.new_search();
        age_history(&mut self.history);
        let mut root_moves: Vec<RootMove> = root
            .legal_moves()
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                seldepth: 0,
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
        let root_index = hashes.len() - 1;
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
        let helper_nodes = AtomicU64::new(0);
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
                        nodes: &helper_nodes,
                    };
                    scope.spawn(move || helper.search(job))
                })
                .collect();
            let mut s = Searcher {
                tt,
                nnue: nnue(net, accumulators),
                history,
                killers: [[Move::default(); 2]; MAX_PLY + 2],
                hashes,
                root_index,
                floor: [0; MAX_PLY + 2],
                pv: vec![[Move::default(); MAX_PLY + 1]; MAX_PLY + 1],
                pv_len: [0; MAX_PLY + 1],
                eval_stack: [0; MAX_PLY + 2],
                nodes: 0,
                seldepth: 0,
                stopped: false,
                can_abort: false,
                start,
                hard: budget.hard,
                node_limit: limits.nodes,
                stop,
                ponder,
                pondering: ponder.is_some_and(|p| p.load(Ordering::Relaxed)),
                root_moves,
                pv_idx: 0,
                params,
                helper_nodes: Some(&helper_nodes),
            };

            let mut result = iterate(&mut s, &root, limits, &budget, multipv, max_depth, on_info);
            done.store(true, Ordering::Relaxed);
            let found: Vec<smp::Found> = handles
                .into_iter()
                .filter_map(|h| h.join().ok().flatten())
                .collect();
            if multipv == 1 {
                smp::prefer_deeper(&mut result, &found);
            }
            result.nodes += helper_nodes.load(Ordering::Relaxed);
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
        if let Some(opt) = budget.optimum {
            if s.start.elapsed() >= opt.mul_f64(0.6) {
                break;
            }
        }
        if s.root_moves.len() == 1 && budget.hard.is_some() && depth >= 4 {
            break;
        }
        if limits.nodes.is_some_and(|n| s.nodes >= n)
            || limits.soft_nodes.is_some_and(|n| s.nodes >= n)
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
        let mut s = Searcher {
            tt: &self.tt,
            nnue: None,
            history: &mut self.history,
            killers: [[Move::default(); 2]; MAX_PLY + 2],
            hashes: vec![pos.zobrist_hash()],
            root_index: 0,
            floor: [0; MAX_PLY + 2],
            pv: vec![[Move::default(); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            eval_stack: [0; MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            can_abort: false,
            start: Instant::now(),
            hard: None,
            node_limit: None,
            stop: None,
            ponder: None,
            pondering: false,
            root_moves: Vec::new(),
            pv_idx: 0,
            params: self.params,
            helper_nodes: None,
        };
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

/// Halves the history scores: a new search trusts the last one's less.
fn age_history(history: &mut History) {
    for row in history.iter_mut().flatten() {
        for h in row.iter_mut() {
            *h /= 2;
        }
    }
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

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
    seldepth: usize,
}

struct Searcher<'a> {
    tt: &'a TranspositionTable,
    /// The neural evaluation and the path's accumulators (`None`: hand-made).
    nnue: Option<(&'a Network, &'a mut AccumulatorStack)>,
    history: &'a mut History,
    killers: [[Move; 2]; MAX_PLY + 2],
    /// Zobrist keys of the game before the root and of the current search path.
    hashes: Vec<u64>,
    root_index: usize,
    /// Lowest index of `hashes` a repetition may match (raised after a null move).
    floor: [usize; MAX_PLY + 2],
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    eval_stack: [i32; MAX_PLY + 2],
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    can_abort: bool,
    start: Instant,
    hard: Option<Duration>,
    node_limit: Option<u64>,
    stop: Option<&'a AtomicBool>,
    ponder: Option<&'a AtomicBool>,
    pondering: bool,
    root_moves: Vec<RootMove>,
    pv_idx: usize,
    params: &'static [S; PARAM_COUNT],
    /// Nodes of the helper threads (the main thread's reports add them).
    helper_nodes: Option<&'a AtomicU64>,
}

/// Late-move reduction in plies for `depth` and move number `n`.
fn lmr(depth: i32, n: usize) -> i32 {
    let d = (depth.max(1) as f64).ln();
    let m = (n.max(1) as f64).ln();
    (0.75 + d * m / 2.25) as i32
}

const NO_EVAL: i32 = -INF - 1;

impl Searcher<'_> {
    /// One iteration for the `pv_idx`th variation: an aspiration window around the
    /// last iteration's score, widened until the score falls inside it.
    fn search_depth(&mut self, root: &Position, depth: i32, pv_idx: usize) {
        self.pv_idx = pv_idx;
        self.seldepth = 0;
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = 18;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(root, depth, alpha, beta);
            self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                break;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta {
                beta = (score + delta).min(INF);
            } else {
                break;
            }
            delta += delta / 2 + 5;
        }
        self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    /// Nodes of this thread and, on the main thread, of the helpers so far.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helper_nodes.map_or(0, |n| n.load(Ordering::Relaxed))
    }

    /// Notes the position at `ply` (for the accumulators).
    #[inline]
    fn enter(&mut self, pos: &Position, ply: usize) {
        if let Some((_, accs)) = &mut self.nnue {
            accs.set(ply, pos.board());
        }
    }

    /// The static evaluation of `pos`, at `ply` of the search path.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match &mut self.nnue {
            // No damping by the fifty-move counter: positions equal but for it share
            // a hash entry, and damped scores made the tree half again as large.
            Some((net, accs)) => accs
                .evaluate(net, ply, pos.turn())
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
            None => evaluate_with(pos, self.params),
        }
    }

    fn line(&self, k: usize) -> Line {
        let rm = &self.root_moves[k.min(self.root_moves.len() - 1)];
        let raw = if rm.score == -INF {
            rm.prev_score
        } else {
            rm.score
        };
        Line {
            mv: rm.mv,
            score: to_score(raw.max(-MATE)),
            raw_score: raw.max(-MATE),
            pv: rm.pv.clone(),
        }
    }

    /// Whether the clock is suspended by pondering; restarts it at a ponderhit.
    fn check_pondering(&mut self) -> bool {
        if self.pondering && !self.ponder.is_some_and(|p| p.load(Ordering::Relaxed)) {
            self.pondering = false;
            self.start = Instant::now();
        }
        self.pondering
    }

    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if !self.can_abort {
            return false;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.stopped = true;
            } else if !self.check_pondering() {
                if let Some(hard) = self.hard {
                    if self.start.elapsed() >= hard {
                        self.stopped = true;
                    }
                }
            }
        }
        self.stopped
    }

    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let n = self.root_index + ply;
        let key = self.hashes[n];
        let floor = n
            .saturating_sub(pos.halfmoves() as usize)
            .max(self.floor[ply]);
        let mut i = n;
        let mut earlier = 0;
        while i >= floor + 2 {
            i -= 2;
            if self.hashes[i] == key {
                if i >= self.root_index {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
        }
        false
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn root_search(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INF;
        self.pv_len[0] = 0;
        self.floor[0] = 0;
        self.enter(pos, 0);
        self.eval_stack[0] = if pos.is_check() {
            NO_EVAL
        } else {
            self.evaluate(pos, 0)
        };
        let in_check = pos.is_check();
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let mut child = *pos;
            child.play_unchecked(m);
            let quiet = !is_capture(pos, m) && !m.is_promotion();
            self.hashes.truncate(self.root_index + 1);
            self.hashes.push(child.zobrist_hash());
            self.floor[1] = 0;
            self.seldepth = 0;
            let searched = i - self.pv_idx;
            let score = if searched == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, true, true)
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && searched >= 3 && !child.is_check() {
                    r = (lmr(depth, searched) - 1).clamp(0, depth - 2);
                }
                let mut score =
                    -self.negamax(&child, depth - 1 - r, -alpha - 1, -alpha, 1, false, true);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, false, true);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, 1, true, true);
                }
                score
            };
            self.hashes.pop();
            if self.stopped {
                break;
            }
            let rm_seldepth = self.seldepth;
            if searched == 0 || score > alpha {
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv = pv;
                rm.seldepth = rm_seldepth;
            } else {
                self.root_moves[i].score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.should_stop() {
            return 0;
        }
        self.enter(pos, ply);
        let in_check = pos.is_check();
        if self.is_repetition(pos, ply) || insufficient_material(pos) {
            return 0;
        }
        if pos.halfmoves() >= 100 {
            return if in_check && !pos.has_legal_moves() {
                -MATE + ply as i32
            } else {
                0
            };
        }
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if in_check {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let key = pos.zobrist_hash();
        let entry = self.tt.probe(key);
        let mut tt_move = Move::default();
        let mut eval = NO_EVAL;
        if let Some(e) = entry {
            tt_move = e.mv;
            let score = from_tt(i32::from(e.score), ply);
            if !pv_node && i32::from(e.depth) >= depth {
                match e.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
            if !in_check {
                eval = i32::from(e.eval);
            }
        }
        if !in_check && eval == NO_EVAL {
            eval = self.evaluate(pos, ply);
        }
        self.eval_stack[ply] = if in_check { NO_EVAL } else { eval };
        let improving = !in_check
            && ply >= 2
            && self.eval_stack[ply - 2] != NO_EVAL
            && eval > self.eval_stack[ply - 2];

        if !pv_node && !in_check {
            // Reverse futility pruning.
            if depth <= 7
                && eval.abs() < MATE_BOUND
                && eval - 70 * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null-move pruning.
            if null_ok && depth >= 3 && eval >= beta && has_pieces(pos, pos.turn()) {
                if let Some(child) = pos.null_move() {
                    let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                    self.hashes.push(child.zobrist_hash());
                    self.floor[ply + 1] = self.root_index + ply + 1;
                    let score = -self.negamax(
                        &child,
                        depth - 1 - r,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        false,
                        false,
                    );
                    self.hashes.pop();
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }
        // Internal iterative reduction: without a hash move this node is likely less
        // important than its depth says.
        if tt_move == Move::default() && depth >= 4 {
            depth -= 1;
        }

        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let us = pos.turn().index();
        let mut scored: [(Move, i32, i32); 256] = [(Move::default(), 0, 0); 256];
        let n = moves.len();
        for (i, &m) in moves.iter().enumerate() {
            let (order, see_value) = self.order_score(pos, m, tt_move, ply);
            scored[i] = (m, order, see_value);
        }

        let mut best = -INF;
        let mut best_move = Move::default();
        let mut quiets: [Move; 64] = [Move::default(); 64];
        let mut quiet_count = 0;
        let mut searched = 0usize;
        let original_alpha = alpha;
        for i in 0..n {
            // Selection sort: bring the best-ordered remaining move forward.
            let mut bi = i;
            for j in i + 1..n {
                if scored[j].1 > scored[bi].1 {
                    bi = j;
                }
            }
            scored.swap(i, bi);
            let (m, _order, see_value) = scored[i];
            let capture = is_capture(pos, m);
            let quiet = !capture && !m.is_promotion();
            let is_killer = self.killers[ply][0] == m || self.killers[ply][1] == m;

            if !pv_node && !in_check && best > -MATE_BOUND {
                if quiet
                    && depth <= 5
                    && quiet_count as i32 >= (3 + depth * depth) / (2 - i32::from(improving))
                {
                    continue;
                }
                if capture && depth <= 4 && see_value < -100 * depth {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let gives_check = child.is_check();
            if !pv_node
                && !in_check
                && quiet
                && !gives_check
                && best > -MATE_BOUND
                && depth <= 3
                && eval + 90 * depth + 60 <= alpha
            {
                continue;
            }

            self.hashes.push(child.zobrist_hash());
            self.floor[ply + 1] = self.floor[ply];
            let new_depth = depth - 1;
            let score = if searched == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, pv_node, true)
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 && (quiet || see_value < 0) {
                    r = lmr(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if is_killer || gives_check || in_check {
                        r -= 1;
                    }
                    if quiet {
                        r -= self.history[us][m.from().index()][m.to().index()] / 6000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut score = -self.negamax(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                );
                if score > alpha && r > 0 && !self.stopped {
                    score =
                        -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if pv_node && score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true, true);
                }
                score
            };
            self.hashes.pop();
            searched += 1;
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(us, ply, depth, m, &quiets[..quiet_count]);
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets.len() {
                quiets[quiet_count] = m;
                quiet_count += 1;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { eval };
        self.tt
            .store(key, best_move, to_tt(best, ply), stored_eval, depth, bound);
        best
    }

    fn reward_quiet(&mut self, us: usize, ply: usize, depth: i32, m: Move, tried: &[Move]) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = (depth * depth * 8).min(1600);
        let update = |h: &mut i32, b: i32| {
            *h += b - *h * b.abs() / 16384;
        };
        update(
            &mut self.history[us][m.from().index()][m.to().index()],
            bonus,
        );
        for &q in tried {
            update(
                &mut self.history[us][q.from().index()][q.to().index()],
                -bonus,
            );
        }
    }

    /// Ordering key of `m` (higher first) and its SEE value for captures (0 otherwise).
    #[inline]
    fn order_score(&self, pos: &Position, m: Move, tt_move: Move, ply: usize) -> (i32, i32) {
        if m == tt_move {
            return (1 << 30, 0);
        }
        if is_capture(pos, m) {
            let victim = captured_value(pos, m);
            let attacker = VALUES[pos.board().role_at(m.from()).map_or(0, Role::index)];
            let see_value = if attacker <= victim {
                victim - attacker
            } else {
                see(pos, m)
            };
            let mvv_lva = victim * 16 - attacker / 16;
            let promo = m.promotion_role().map_or(0, |r| VALUES[r.index()]);
            return if see_value >= 0 {
                ((1 << 28) + mvv_lva + promo, see_value)
            } else {
                (-(1 << 24) + mvv_lva, see_value)
            };
        }
        if let Some(role) = m.promotion_role() {
            return if role == Role::Queen {
                ((1 << 28) + 8000, 0)
            } else {
                (-(1 << 25) + role.index() as i32, 0)
            };
        }
        if self.killers[ply][0] == m {
            return ((1 << 27) + 1, 0);
        }
        if self.killers[ply][1] == m {
            return (1 << 27, 0);
        }
        let us = pos.turn().index();
        (self.history[us][m.from().index()][m.to().index()], 0)
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.should_stop() {
            return 0;
        }
        self.enter(pos, ply);
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        if insufficient_material(pos) {
            return 0;
        }
        let key = pos.zobrist_hash();
        let mut tt_move = Move::default();
        let mut stand = NO_EVAL;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            let score = from_tt(i32::from(e.score), ply);
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
            if !in_check {
                stand = i32::from(e.eval);
            }
        }
        let mut best = -INF;
        if !in_check {
            if stand == NO_EVAL {
                stand = self.evaluate(pos, ply);
            }
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scored: [(Move, i32, i32); 256] = [(Move::default(), 0, 0); 256];
        let mut n = 0;
        for &m in moves.iter() {
            let capture = is_capture(pos, m);
            if !in_check && !capture && m.promotion_role() != Some(Role::Queen) {
                continue;
            }
            let (order, see_value) = self.order_score(pos, m, tt_move, ply);
            scored[n] = (m, order, see_value);
            n += 1;
        }
        let original_alpha = alpha;
        let mut best_move = Move::default();
        for i in 0..n {
            let mut bi = i;
            for j in i + 1..n {
                if scored[j].1 > scored[bi].1 {
                    bi = j;
                }
            }
            scored.swap(i, bi);
            let (m, _, see_value) = scored[i];
            if !in_check {
                if see_value < 0 {
                    continue;
                }
                if !m.is_promotion() && stand + captured_value(pos, m) + 200 <= alpha {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { stand };
        self.tt
            .store(key, best_move, to_tt(best, ply), stored_eval, 0, bound);
        best
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Whether `color` has a piece other than pawns and the king (null-move safety).
fn has_pieces(pos: &Position, color: Color) -> bool {
    let b = pos.board();
    (b.by_color(color) & !(b.by_role(Role::Pawn) | b.by_role(Role::King))).is_nonempty()
}

/// Bare kings, or kings and one minor piece: no mate is possible.
fn insufficient_material(pos: &Position) -> bool {
    let b = pos.board();
    if (b.by_role(Role::Pawn) | b.by_role(Role::Rook) | b.by_role(Role::Queen)).is_nonempty() {
        return false;
    }
    (b.by_role(Role::Knight) | b.by_role(Role::Bishop)).count() <= 1
}
