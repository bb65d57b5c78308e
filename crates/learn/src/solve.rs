//! A solver for the exercises: breadth-first over the learner's legal moves.
//!
//! It proves that an exercise can be solved within its `max_moves` (and finds the
//! fewest moves, for the star thresholds), and that it is a real exercise: some
//! legal move does not solve it. It uses the checker's own stepping, so it proves
//! what the checker will accept.

use std::collections::{HashSet, VecDeque};

use crate::check::{Run, Step};
use crate::lesson::Exercise;
use crate::lesson::Goal;

/// Positions the solver looks at before giving up on one exercise.
pub const SOLVER_BUDGET: usize = 200_000;

/// The shortest solution of a board exercise, in UCI, or `None` if none exists
/// within its `max_moves` (or the position cannot be read, or it is a quiz, or
/// a mate against the computer, which a search over the learner's moves alone
/// cannot prove: the lessons' tests play those against the engine).
pub fn solve(exercise: &Exercise) -> Option<Vec<String>> {
    if exercise.goal == Goal::Checkmate {
        return None;
    }
    let start = Run::start(exercise)?;
    let mut queue = VecDeque::from([(start, Vec::new())]);
    let mut seen = HashSet::new();
    while let Some((run, path)) = queue.pop_front() {
        if seen.len() > SOLVER_BUDGET {
            return None;
        }
        for m in run.pos.legal_moves().iter().copied() {
            let mut next = run.clone();
            let uci = run.pos.to_uci(m);
            match next.step(m) {
                Step::Solved => {
                    let mut moves = path;
                    moves.push(uci);
                    return Some(moves);
                }
                Step::Wrong(_) => {}
                Step::Going => {
                    if seen.insert((next.pos.zobrist_hash(), next.reached.0)) {
                        let mut moves = path.clone();
                        moves.push(uci);
                        queue.push_back((next, moves));
                    }
                }
            }
        }
    }
    None
}

/// A legal first move (UCI) that does not solve the exercise at once: refused as
/// wrong, or only a step on the way. `None` if every legal move solves it.
pub fn unsolving_move(exercise: &Exercise) -> Option<String> {
    let start = Run::start(exercise)?;
    start.pos.legal_moves().iter().copied().find_map(|m| {
        let mut next = start.clone();
        (next.step(m) != Step::Solved).then(|| start.pos.to_uci(m))
    })
}
