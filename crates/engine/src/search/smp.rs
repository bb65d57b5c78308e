//! Lazy SMP: helper threads run the same iterative deepening on the same root,
//! sharing only the transposition table, so each finds entries the others stored
//! and their searches drift apart. Half of them start one ply deeper. They stop
//! when the main thread does; a helper that completed a deeper iteration with a
//! score at least as good supplies the move.

use std::sync::atomic::{AtomicBool, AtomicU64};

use caissa_rules::{Move, Position};

use super::{nnue, to_score, Histories, RootMove, Searcher};
use crate::eval::{PARAM_COUNT, S};
use crate::nnue::{AccumulatorStack, Network};
use crate::tt::TranspositionTable;
use crate::SearchResult;

/// A helper thread's own state, kept between searches: its move-ordering history
/// and its accumulators.
#[derive(Default)]
pub(super) struct Helper {
    history: Histories,
    accumulators: Option<AccumulatorStack>,
}

/// What a helper searches.
pub(super) struct Job<'a> {
    pub tt: &'a TranspositionTable,
    pub net: Option<&'a Network>,
    pub params: &'static [S; PARAM_COUNT],
    pub root: Position,
    pub root_moves: Vec<RootMove>,
    pub hashes: Vec<u64>,
    pub max_depth: i32,
    pub first_depth: i32,
    /// Set when the main thread has finished.
    pub done: &'a AtomicBool,
    /// Where every thread adds up its nodes.
    pub nodes: &'a AtomicU64,
    /// `go nodes`: the helper stops too once all threads have searched this many.
    pub node_limit: Option<u64>,
}

/// A helper's last completed iteration.
pub(super) struct Found {
    depth: u32,
    score: i32,
    pv: Vec<Move>,
}

impl Helper {
    /// Deepens until the main thread is done; the last completed iteration.
    pub(super) fn search(&mut self, job: Job<'_>) -> Option<Found> {
        self.history.age();
        let mut s = Searcher::new(
            job.tt,
            nnue(job.net, &mut self.accumulators),
            &mut self.history,
            job.hashes,
            job.params,
        );
        s.can_abort = true;
        s.stop = Some(job.done);
        s.root_moves = job.root_moves;
        s.shared_nodes = Some(job.nodes);
        s.node_limit = job.node_limit;
        let mut found = None;
        for depth in job.first_depth..=job.max_depth {
            s.search_depth(&job.root, depth, 0);
            s.publish_nodes();
            if s.stopped {
                break;
            }
            for rm in s.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            let best = &s.root_moves[0];
            found = Some(Found {
                depth: depth as u32,
                score: best.score,
                pv: best.pv.clone(),
            });
        }
        found
    }
}

/// Takes the move of the deepest helper iteration when it is deeper than the main
/// thread's and scores at least as well.
pub(super) fn prefer_deeper(result: &mut SearchResult, found: &[Found]) {
    let Some(main_score) = result.lines.first().map(|l| l.raw_score) else {
        return;
    };
    let best = found
        .iter()
        .filter(|f| f.depth > result.depth && f.score >= main_score && !f.pv.is_empty())
        .max_by_key(|f| (f.depth, f.score));
    if let Some(f) = best {
        result.best_move = f.pv.first().copied();
        result.ponder = f.pv.get(1).copied();
        result.pv = f.pv.clone();
        result.score = to_score(f.score);
        result.depth = f.depth;
        if let Some(line) = result.lines.first_mut() {
            line.mv = f.pv[0];
            line.pv = f.pv.clone();
            line.score = result.score;
            line.raw_score = f.score;
        }
    }
}
