//! One thread's search state and its root: the aspiration windows of an iteration,
//! the root move loop, repetition detection, the stop conditions and the principal
//! variation. The node search itself is in `node.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use caissa_rules::{Color, Move, Position};

use super::history::PieceTo;
use super::node::lmr;
use super::{to_score, Histories, INF, MATE, MATE_BOUND, MAX_PLY};
use crate::eval::{evaluate_with, PARAM_COUNT, S};
use crate::nnue::{AccumulatorStack, Network};
use crate::see::is_capture;
use crate::tt::TranspositionTable;
use crate::Line;

#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    pub(super) prev_score: i32,
    pub(super) pv: Vec<Move>,
    pub(super) seldepth: usize,
    /// Nodes this thread has spent below the move, over all iterations.
    pub(super) nodes: u64,
}

pub(super) struct Searcher<'a> {
    pub(super) tt: &'a TranspositionTable,
    /// The neural evaluation and the path's accumulators (`None`: hand-made).
    pub(super) nnue: Option<(&'a Network, &'a mut AccumulatorStack)>,
    pub(super) history: &'a mut Histories,
    /// The move played at each ply of the path (`None`: a null move).
    pub(super) played: [Option<PieceTo>; MAX_PLY + 2],
    pub(super) killers: [[Move; 2]; MAX_PLY + 2],
    /// Zobrist keys of the game before the root and of the current search path.
    pub(super) hashes: Vec<u64>,
    pub(super) root_index: usize,
    /// Lowest index of `hashes` a repetition may match (raised after a null move).
    pub(super) floor: [usize; MAX_PLY + 2],
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) eval_stack: [i32; MAX_PLY + 2],
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    pub(super) can_abort: bool,
    pub(super) start: Instant,
    pub(super) hard: Option<Duration>,
    pub(super) node_limit: Option<u64>,
    pub(super) stop: Option<&'a AtomicBool>,
    pub(super) ponder: Option<&'a AtomicBool>,
    pub(super) pondering: bool,
    pub(super) root_moves: Vec<RootMove>,
    pub(super) pv_idx: usize,
    pub(super) params: &'static [S; PARAM_COUNT],
    /// The nodes of every thread of this search, each adding its own every 1,024
    /// and after each iteration, so that reports and `go nodes` count them all.
    pub(super) shared_nodes: Option<&'a AtomicU64>,
    /// How many of this thread's nodes `shared_nodes` has been given.
    published: u64,
}

/// The static evaluation of a position in check (there is none).
pub(super) const NO_EVAL: i32 = -INF - 1;

impl<'a> Searcher<'a> {
    /// A searcher over the game whose positions hash to `hashes` (the root last),
    /// with no root moves, limits or stop signal yet.
    pub(super) fn new(
        tt: &'a TranspositionTable,
        nnue: Option<(&'a Network, &'a mut AccumulatorStack)>,
        history: &'a mut Histories,
        hashes: Vec<u64>,
        params: &'static [S; PARAM_COUNT],
    ) -> Searcher<'a> {
        Searcher {
            tt,
            nnue,
            history,
            played: [None; MAX_PLY + 2],
            killers: [[Move::default(); 2]; MAX_PLY + 2],
            root_index: hashes.len().saturating_sub(1),
            hashes,
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
            params,
            shared_nodes: None,
            published: 0,
        }
    }

    /// One iteration for the `pv_idx`th variation: an aspiration window around the
    /// last iteration's score, widened until the score falls inside it.
    pub(super) fn search_depth(&mut self, root: &Position, depth: i32, pv_idx: usize) {
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

    /// Nodes of every thread so far (those of the others up to their last 1,024).
    pub(super) fn total_nodes(&self) -> u64 {
        self.shared_nodes.map_or(0, |n| n.load(Ordering::Relaxed)) + self.nodes - self.published
    }

    /// Adds the nodes searched since the last call to `shared_nodes`.
    pub(super) fn publish_nodes(&mut self) {
        if let Some(shared) = self.shared_nodes {
            shared.fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// Notes the position at `ply` (for the accumulators).
    #[inline]
    pub(super) fn enter(&mut self, pos: &Position, ply: usize) {
        if let Some((_, accs)) = &mut self.nnue {
            accs.set(ply, pos.board());
        }
    }

    /// The static evaluation of `pos`, at `ply` of the search path.
    #[inline]
    pub(super) fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match &mut self.nnue {
            // No damping by the fifty-move counter: positions equal but for it share
            // a hash entry, and damped scores made the tree half again as large.
            Some((net, accs)) if !has_lone_king(pos) => accs
                .evaluate(net, ply, pos.turn())
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
            _ => evaluate_with(pos, self.params),
        }
    }

    pub(super) fn line(&self, k: usize) -> Line {
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
    pub(super) fn check_pondering(&mut self) -> bool {
        if self.pondering && !self.ponder.is_some_and(|p| p.load(Ordering::Relaxed)) {
            self.pondering = false;
            self.start = Instant::now();
        }
        self.pondering
    }

    #[inline]
    pub(super) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if !self.can_abort {
            return false;
        }
        // Every thread stops itself at `go nodes`, counting all threads' nodes: a
        // helper waiting for the main thread's word could run on while the main
        // thread is not scheduled.
        if self.node_limit.is_some_and(|n| self.total_nodes() >= n) {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            self.publish_nodes();
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

    pub(super) fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
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

    /// The moves one and two plies before `ply`, where there were such moves.
    #[inline]
    pub(super) fn moves_before(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.played[p]),
            ply.checked_sub(2).and_then(|p| self.played[p]),
        ]
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    pub(super) fn root_search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        // Scores of earlier iterations must not compete with this one's: a move the
        // search does not reach before a stop keeps no score.
        for rm in &mut self.root_moves[self.pv_idx..] {
            rm.score = -INF;
        }
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
            self.played[0] = Some(PieceTo::of(pos, m));
            let quiet = !is_capture(pos, m) && !m.is_promotion();
            self.hashes.truncate(self.root_index + 1);
            self.hashes.push(child.zobrist_hash());
            self.floor[1] = 0;
            self.seldepth = 0;
            let searched = i - self.pv_idx;
            let nodes_before = self.nodes;
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
            self.root_moves[i].nodes += self.nodes - nodes_before;
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
}

/// Whether a side has nothing but its king. Self-play adjudicates such games
/// long before, so the net has hardly seen them and cannot find the way to mate
/// (K+R against K ran out of moves in the lessons' test); the hand-made
/// evaluation can.
#[inline]
fn has_lone_king(pos: &Position) -> bool {
    let b = pos.board();
    b.by_color(Color::White).count() == 1 || b.by_color(Color::Black).count() == 1
}
