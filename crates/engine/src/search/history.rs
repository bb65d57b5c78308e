//! What the search learns about moves as it goes, for ordering and reductions:
//! which quiet moves cut (by side, origin and destination), which quiet moves cut
//! after a given move one or two plies before (continuation history: a reply is
//! good or bad largely because of what the opponent just did), and which captures
//! cut (by piece, destination and the captured piece). All use the same "gravity"
//! update, which keeps each score within ±[`HISTORY_MAX`] and lets new evidence
//! outweigh old.

use caissa_rules::{Move, Position, Role};

/// Bound of every history score.
pub(super) const HISTORY_MAX: i32 = 16384;

/// The moving piece (0–11, white pawn to black king) and the destination of a move
/// on the search path, which keys the continuation histories of the moves after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PieceTo {
    piece: u8,
    to: u8,
}

impl PieceTo {
    /// `m` played in `pos` (before it is played).
    #[inline]
    pub(super) fn of(pos: &Position, m: Move) -> PieceTo {
        let role = pos.board().role_at(m.from()).map_or(0, Role::index);
        PieceTo {
            piece: (pos.turn().index() * 6 + role) as u8,
            to: m.to().index() as u8,
        }
    }
}

type Butterfly = [[[i32; 64]; 64]; 2];
/// Scores of (piece, to) given the (piece, to) of an earlier move.
type Continuation = [[[[i32; 64]; 12]; 64]; 12];
/// Scores of captures by (piece, to, captured role).
type Captures = [[[i32; 6]; 64]; 12];

/// One thread's move statistics, kept between the searches of a game.
pub(super) struct Histories {
    quiet: Box<Butterfly>,
    continuation: Box<Continuation>,
    captures: Box<Captures>,
}

impl Default for Histories {
    fn default() -> Histories {
        Histories {
            quiet: boxed([[0; 64]; 64]),
            continuation: boxed([[[0; 64]; 12]; 64]),
            captures: boxed([[0; 6]; 64]),
        }
    }
}

/// `N` copies of `row` on the heap (the continuation table, 2.4 MB, is too large
/// for a thread's stack).
fn boxed<T: Clone, const N: usize>(row: T) -> Box<[T; N]> {
    match vec![row; N].into_boxed_slice().try_into() {
        Ok(table) => table,
        Err(_) => unreachable!("a vector of N rows has N rows"),
    }
}

/// Moves `h` toward `bonus`'s sign by `bonus`, less the more it already agrees.
#[inline]
fn gravity(h: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// The bonus for a move that cut at `depth` (the tried moves get its negation).
#[inline]
pub(super) fn bonus(depth: i32) -> i32 {
    (depth * depth * 12 + 40 * depth).min(2400)
}

impl Histories {
    /// Forgets everything (a new game).
    pub(super) fn clear(&mut self) {
        *self = Histories::default();
    }

    /// Halves every score: a new search trusts the last one's less.
    pub(super) fn age(&mut self) {
        let halve = |h: &mut i32| *h /= 2;
        self.quiet.iter_mut().flatten().flatten().for_each(halve);
        self.continuation
            .iter_mut()
            .flatten()
            .flatten()
            .flatten()
            .for_each(halve);
        self.captures.iter_mut().flatten().flatten().for_each(halve);
    }

    /// The score of quiet move `m` (to be played as `moved`) after the moves
    /// `before` (one and two plies earlier, where there were such moves).
    #[inline]
    pub(super) fn quiet_score(
        &self,
        side: usize,
        m: Move,
        moved: PieceTo,
        before: [Option<PieceTo>; 2],
    ) -> i32 {
        let mut score = self.quiet[side][m.from().index()][m.to().index()];
        for prev in before.into_iter().flatten() {
            score += self.continuation[prev.piece as usize][prev.to as usize][moved.piece as usize]
                [moved.to as usize];
        }
        score
    }

    /// Rewards quiet move `m`, which cut, and penalises the quiet moves tried
    /// before it.
    pub(super) fn update_quiet(
        &mut self,
        side: usize,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        before: [Option<PieceTo>; 2],
        depth: i32,
    ) {
        let b = bonus(depth);
        self.add_quiet(side, best, before, b);
        for &t in tried {
            self.add_quiet(side, t, before, -b);
        }
    }

    fn add_quiet(
        &mut self,
        side: usize,
        (m, moved): (Move, PieceTo),
        before: [Option<PieceTo>; 2],
        b: i32,
    ) {
        gravity(&mut self.quiet[side][m.from().index()][m.to().index()], b);
        for prev in before.into_iter().flatten() {
            gravity(
                &mut self.continuation[prev.piece as usize][prev.to as usize][moved.piece as usize]
                    [moved.to as usize],
                b,
            );
        }
    }

    /// The score of a capture of `victim` by the move `moved`.
    #[inline]
    pub(super) fn capture_score(&self, moved: PieceTo, victim: Role) -> i32 {
        self.captures[moved.piece as usize][moved.to as usize][victim.index()]
    }

    /// Adds `b` to the score of a capture of `victim` by the move `moved`.
    pub(super) fn add_capture(&mut self, moved: PieceTo, victim: Role, b: i32) {
        gravity(
            &mut self.captures[moved.piece as usize][moved.to as usize][victim.index()],
            b,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, uci: &str) -> (Move, PieceTo) {
        let m = pos.parse_uci(uci).expect("a legal move");
        (m, PieceTo::of(pos, m))
    }

    #[test]
    fn history_scores_stay_within_their_bound_however_often_a_move_cuts() {
        let pos = Position::new();
        let mut h = Histories::default();
        let best = mv(&pos, "g1f3");
        let tried = [mv(&pos, "a2a3")];
        for _ in 0..10_000 {
            h.update_quiet(0, best, &tried, [None, None], 40);
        }
        assert!(h.quiet_score(0, best.0, best.1, [None, None]) <= HISTORY_MAX);
        assert!(h.quiet_score(0, tried[0].0, tried[0].1, [None, None]) >= -HISTORY_MAX);
        assert!(h.quiet_score(0, best.0, best.1, [None, None]) > HISTORY_MAX / 2);
    }

    #[test]
    fn a_reply_that_cut_after_a_move_is_preferred_after_that_move_only() {
        let mut pos = Position::new();
        let (e4, e4_key) = mv(&pos, "e2e4");
        let (_, d4_key) = mv(&Position::new(), "d2d4");
        pos.play_unchecked(e4);
        let reply = mv(&pos, "c7c5");
        let mut h = Histories::default();
        h.update_quiet(1, reply, &[], [Some(e4_key), None], 8);
        let after_e4 = h.quiet_score(1, reply.0, reply.1, [Some(e4_key), None]);
        let after_d4 = h.quiet_score(1, reply.0, reply.1, [Some(d4_key), None]);
        assert!(after_e4 > after_d4, "{after_e4} vs {after_d4}");
    }
}
