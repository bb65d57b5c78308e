//! The node search: principal-variation negamax with the transposition table,
//! pruning and reductions, the quiescence search, and move ordering.

use std::sync::LazyLock;

use arrayvec::ArrayVec;
use caissa_rules::{Color, Move, Position, Role};

use super::history::{bonus, PieceTo};
use super::searcher::{Searcher, NO_EVAL};
use super::{INF, MATE, MATE_BOUND, MAX_PLY};
use crate::see::{captured_value, is_capture, see, VALUES};
use crate::tt::Bound;

/// Natural logarithms of 0..256 (0 for 0), looked up by [`lmr`] instead of
/// computed twice for every reduced move.
static LN: LazyLock<[f64; 256]> = LazyLock::new(|| std::array::from_fn(|i| (i.max(1) as f64).ln()));

/// Late-move reduction in plies for `depth` and move number `n`.
#[inline]
pub(super) fn lmr(depth: i32, n: usize) -> i32 {
    let d = LN[depth.clamp(1, 255) as usize];
    let m = LN[n.clamp(1, 255)];
    (0.75 + d * m / 2.25) as i32
}

/// A node's moves with their ordering keys and SEE values. Not initialised
/// ahead: zeroing 256 entries at every node cost more than generating them.
type ScoredMoves = ArrayVec<(Move, i32, i32), 256>;

/// Selection sort, one step: brings the best-ordered of `scored[i..]` (move,
/// ordering key, SEE value) to `i` and returns its move and SEE value. Most nodes
/// cut after a few moves, so sorting them all would be wasted.
fn pick_next(scored: &mut [(Move, i32, i32)], i: usize) -> (Move, i32) {
    let mut best = i;
    let mut best_key = scored[i].1;
    // Selects without branches: which entry wins is unpredictable.
    for (j, &(_, key, _)) in scored.iter().enumerate().skip(i + 1) {
        let better = key > best_key;
        best = if better { j } else { best };
        best_key = if better { key } else { best_key };
    }
    scored.swap(i, best);
    (scored[i].0, scored[i].2)
}

impl Searcher<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
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
            if !pv_node && i32::from(e.depth) >= depth && e.bound.cuts(score, alpha, beta) {
                return score;
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
                && beta > -MATE_BOUND
                && eval.abs() < MATE_BOUND
                && eval - 60 * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null-move pruning.
            if null_ok
                && depth >= 3
                && eval >= beta
                && beta > -MATE_BOUND
                && has_pieces(pos, pos.turn())
            {
                if let Some(child) = pos.null_move() {
                    let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                    self.hashes.push(child.zobrist_hash());
                    self.played[ply] = None;
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
        // ProbCut: a good capture whose reduced search beats beta by a margin
        // would very likely beat it at full depth.
        if !pv_node && !in_check && depth >= 5 && beta.abs() < MATE_BOUND {
            let pc_beta = beta + 150;
            let tt_says_less = entry.is_some_and(|e| {
                i32::from(e.depth) >= depth - 3 && from_tt(i32::from(e.score), ply) < pc_beta
            });
            if !tt_says_less {
                for &m in pos.legal_captures_and_promotions().iter() {
                    if !is_capture(pos, m) || see(pos, m) < pc_beta - eval {
                        continue;
                    }
                    let mut child = *pos;
                    child.play_unchecked(m);
                    self.hashes.push(child.zobrist_hash());
                    self.floor[ply + 1] = self.floor[ply];
                    self.played[ply] = Some(PieceTo::of(pos, m));
                    let mut score = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1);
                    if score >= pc_beta && !self.stopped {
                        score = -self.negamax(
                            &child,
                            depth - 4,
                            -pc_beta,
                            -pc_beta + 1,
                            ply + 1,
                            false,
                            true,
                        );
                    }
                    self.hashes.pop();
                    if self.stopped {
                        return 0;
                    }
                    if score >= pc_beta {
                        return score;
                    }
                }
            }
        }
        // Internal iterative reduction: without a hash move this node is likely less
        // important than its depth says.
        if tt_move == Move::default() && depth >= 4 {
            depth -= 1;
        }

        let us = pos.turn().index();
        let before = self.moves_before(ply);
        // The hash move goes first and often refutes on its own: then the other
        // moves are never generated or scored.
        let mut scored = ScoredMoves::new();
        let mut generated = false;
        if tt_move != Move::default() && pos.is_legal(tt_move) {
            scored.push((tt_move, 1 << 30, 0));
        } else {
            self.score_moves(pos, tt_move, ply, before, &mut scored);
            generated = true;
            if scored.is_empty() {
                return if in_check { -MATE + ply as i32 } else { 0 };
            }
        }

        let mut best = -INF;
        let mut best_move = Move::default();
        let mut quiets = [(Move::default(), PieceTo::default()); 64];
        let mut quiet_count = 0;
        let mut captures = [(PieceTo::default(), Role::Pawn); 32];
        let mut capture_count = 0;
        let mut searched = 0usize;
        let original_alpha = alpha;
        let mut i = 0;
        loop {
            if i == scored.len() {
                if generated {
                    break;
                }
                self.score_moves(pos, tt_move, ply, before, &mut scored);
                generated = true;
                if i == scored.len() {
                    break;
                }
            }
            let (m, see_value) = pick_next(&mut scored, i);
            i += 1;
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
                // A quiet move that hangs material loses it unless the search
                // below finds something, which near the leaves it rarely does.
                if quiet && depth <= 8 && see(pos, m) < -60 * depth {
                    continue;
                }
            }
            let moved = PieceTo::of(pos, m);
            let mut child = *pos;
            child.play_unchecked(m);
            self.tt.prefetch(child.zobrist_hash());
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
            self.played[ply] = Some(moved);
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
                        r -= self.history.quiet_score(us, m, moved, before) / 8192;
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
                            self.reward_quiet(us, ply, depth, (m, moved), &quiets[..quiet_count]);
                        } else if capture {
                            self.history
                                .add_capture(moved, captured_role(pos, m), bonus(depth));
                        }
                        for &(pt, victim) in &captures[..capture_count] {
                            self.history.add_capture(pt, victim, -bonus(depth));
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets.len() {
                quiets[quiet_count] = (m, moved);
                quiet_count += 1;
            } else if capture && capture_count < captures.len() {
                captures[capture_count] = (moved, captured_role(pos, m));
                capture_count += 1;
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        let stored_eval = if in_check { 0 } else { eval };
        self.tt
            .store(key, best_move, to_tt(best, ply), stored_eval, depth, bound);
        best
    }

    /// Appends the legal moves but `skip` to `scored` with their ordering keys
    /// and SEE values.
    fn score_moves(
        &self,
        pos: &Position,
        skip: Move,
        ply: usize,
        before: [Option<PieceTo>; 2],
        scored: &mut ScoredMoves,
    ) {
        for &m in pos.legal_moves().iter() {
            if m != skip {
                let (order, see_value) = self.order_score(pos, m, skip, ply, before);
                scored.push((m, order, see_value));
            }
        }
    }

    fn reward_quiet(
        &mut self,
        us: usize,
        ply: usize,
        depth: i32,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
    ) {
        if self.killers[ply][0] != best.0 {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best.0;
        }
        let before = self.moves_before(ply);
        self.history.update_quiet(us, best, tried, before, depth);
    }

    /// Ordering key of `m` (higher first) and its SEE value for captures (0 otherwise).
    #[inline]
    fn order_score(
        &self,
        pos: &Position,
        m: Move,
        tt_move: Move,
        ply: usize,
        before: [Option<PieceTo>; 2],
    ) -> (i32, i32) {
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
            let moved = PieceTo::of(pos, m);
            let mvv_lva = victim * 16 - attacker / 16
                + self.history.capture_score(moved, captured_role(pos, m)) / 8;
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
        let score = self.history.quiet_score(us, m, PieceTo::of(pos, m), before);
        (score, 0)
    }

    pub(super) fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
            if e.bound.cuts(score, alpha, beta) {
                return score;
            }
            if !in_check {
                stand = i32::from(e.eval);
            }
        }
        // The incoming window: a stand-pat value inside it is exact.
        let original_alpha = alpha;
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
        // Out of check only captures and promotions are searched: generate just
        // those, and look for a quiet move only to tell stalemate when there are none.
        let moves = if in_check {
            pos.legal_moves()
        } else {
            pos.legal_captures_and_promotions()
        };
        if moves.is_empty() && (in_check || !pos.has_legal_moves()) {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let before = self.moves_before(ply);
        let mut scored = ScoredMoves::new();
        for &m in moves.iter() {
            let capture = is_capture(pos, m);
            if !in_check && !capture && m.promotion_role() != Some(Role::Queen) {
                continue;
            }
            let (order, see_value) = self.order_score(pos, m, tt_move, ply, before);
            scored.push((m, order, see_value));
        }
        let mut best_move = Move::default();
        for i in 0..scored.len() {
            let (m, see_value) = pick_next(&mut scored, i);
            if !in_check {
                if see_value < 0 {
                    continue;
                }
                if !m.is_promotion() && stand + captured_value(pos, m) + 200 <= alpha {
                    continue;
                }
            }
            self.played[ply] = Some(PieceTo::of(pos, m));
            let mut child = *pos;
            child.play_unchecked(m);
            self.tt.prefetch(child.zobrist_hash());
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
        let bound = Bound::of(best, original_alpha, beta);
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

/// The role `m` captures (a pawn for en passant).
#[inline]
fn captured_role(pos: &Position, m: Move) -> Role {
    pos.board().role_at(m.to()).unwrap_or(Role::Pawn)
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
