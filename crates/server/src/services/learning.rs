//! The lessons of "Learn chess" and each learner's stars: an exercise's moves
//! are judged by the lessons' own checker (the rules decide), and a signed-in
//! learner's best stars are kept per exercise (guests keep theirs in the
//! browser).

use caissa_learn::{Exercise, Lessons, Progress};
use caissa_store::{Store, User};

use crate::http::error::ApiError;
use crate::live::view::now_ms;

/// The most moves one check takes.
pub const MAX_MOVES: usize = 64;

/// What a learner answers: moves from the exercise's position, or a quiz choice.
pub enum Answer {
    /// Moves (UCI or SAN), from the start.
    Moves(Vec<String>),
    /// The index of a quiz's choice.
    Choice(usize),
}

/// An answer judged.
pub struct Judged {
    /// Where the learner stands.
    pub progress: Progress,
    /// The board to show next, if the exercise has one.
    pub fen: Option<String>,
    /// Whether the stars earned were more than before and are now kept.
    pub recorded: bool,
    /// The computer's answer (UCI) in a mate against it, already played.
    pub reply: Option<String>,
}

/// Nodes the computer spends on a lone king's defence: enough to run for the
/// centre and away from the attacker, a few milliseconds.
const DEFENCE_NODES: u64 = 20_000;

/// The engine's move for the defender in `fen`.
fn defence(fen: &str) -> Option<String> {
    let pos = caissa_rules::Position::from_fen(fen).ok()?;
    let limits = caissa_engine::Limits {
        nodes: Some(DEFENCE_NODES),
        ..caissa_engine::Limits::default()
    };
    let best = caissa_engine::search(&[pos], &limits).best_move?;
    Some(pos.to_uci(best))
}

/// The lessons and the learners' progress.
pub struct Learning {
    store: Store,
}

impl Learning {
    /// Progress kept in `store`.
    pub fn new(store: Store) -> Learning {
        Learning { store }
    }

    /// The lessons.
    pub fn lessons(&self) -> &'static Lessons {
        Lessons::bundled()
    }

    /// Exercise `n` (from 0) of lesson `id`, or 404 naming what is missing.
    pub fn exercise(&self, id: &str, n: usize) -> Result<&'static Exercise, ApiError> {
        let lesson = self
            .lessons()
            .get(id)
            .ok_or_else(|| ApiError::NotFound(format!("lesson {id:?}")))?;
        lesson.exercises.get(n).ok_or_else(|| {
            ApiError::NotFound(format!(
                "exercise {n} of lesson {id:?} (it has {}, from 0)",
                lesson.exercises.len()
            ))
        })
    }

    /// Judges `answer` to exercise `n` of lesson `id`; a signed-in learner's
    /// stars are kept when they are more than before.
    pub async fn check(
        &self,
        learner: Option<&User>,
        id: &str,
        n: usize,
        answer: Answer,
    ) -> Result<Judged, ApiError> {
        let exercise = self.exercise(id, n)?;
        let mut reply = None;
        let (progress, fen) = match &answer {
            Answer::Moves(moves) => {
                if moves.len() > MAX_MOVES {
                    return Err(ApiError::BadRequest(format!(
                        "moves: at most {MAX_MOVES}, not {}",
                        moves.len()
                    )));
                }
                let mut moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                let mut progress = exercise.check(&moves);
                // In a mate against the computer, the engine answers at once.
                if let Progress::Going {
                    fen,
                    defender_to_move: true,
                    ..
                } = &progress
                {
                    reply = defence(fen);
                    if let Some(reply) = &reply {
                        moves.push(reply);
                        progress = exercise.check(&moves);
                    }
                }
                (progress, exercise.next_fen(&moves))
            }
            Answer::Choice(choice) => (exercise.answer(*choice), None),
        };
        let mut recorded = false;
        if let (Progress::Solved { stars, .. }, Some(learner)) = (&progress, learner) {
            recorded = self
                .store
                .record_stars(learner.id, id, n as i64, i64::from(*stars), now_ms() as i64)
                .await?;
        }
        Ok(Judged {
            progress,
            fen,
            recorded,
            reply,
        })
    }

    /// The most stars `learner` earned in each exercise: (lesson, exercise, stars).
    pub async fn progress(&self, learner: &User) -> Result<Vec<(String, i64, i64)>, ApiError> {
        Ok(self.store.lesson_progress(learner.id).await?)
    }
}
