//! Learn chess: lessons from the board and the moves up to checkmate and the draws,
//! each a short series of exercises with instant feedback and stars.
//!
//! An exercise is a position and a goal — land on these squares, capture every
//! enemy piece, mate in one, get out of check by blocking, promote to a knight,
//! castle queen side, capture en passant, stalemate — and never an answer list:
//! the rules crate decides whether each move is legal and what it achieves, so a
//! lesson cannot teach something the Laws do not say. The lessons are JSON
//! (`data/lessons.json`, embedded), in English, Simplified and Traditional
//! Chinese, and checked when they load.
//!
//! ```
//! use caissa_learn::{Lessons, Progress};
//!
//! let lessons = Lessons::bundled();
//! let mate = lessons.get("checkmate-in-one").unwrap();
//! let back_rank = &mate.exercises[0];
//! assert!(matches!(back_rank.check(&["Ra8#"]), Progress::Solved { stars: 3, .. }));
//! assert!(matches!(back_rank.check(&["a1a7"]), Progress::Wrong { .. }));
//! assert!(matches!(back_rank.check(&["a1b2"]), Progress::Illegal { .. }));
//! ```

mod check;
mod instruction;
mod lesson;
mod quiz;
mod solve;
mod text;
mod validate;

pub use check::{parse_move, Mistake, Progress};
pub use lesson::{
    Category, Choice, Exercise, Goal, Lesson, PieceRole, PromotionRole, Quiz, QuizRule, Side,
    SquareName, Stars, Way,
};
pub use quiz::{material, piece_value};
pub use solve::{solve, unsolving_move, SOLVER_BUDGET};
pub use text::{Lang, Text};

use std::sync::OnceLock;

/// The lessons as the crate ships them.
const BUNDLED: &str = include_str!("../data/lessons.json");

/// Why lessons could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LessonsError {
    /// The text is not JSON of the lesson format.
    #[error("lessons: {0}")]
    Json(String),
    /// A lesson or one of its exercises breaks a rule of the format.
    #[error("lesson {lesson}{}: {message}", exercise.map(|i| format!(", exercise {}", i + 1)).unwrap_or_default())]
    Invalid {
        /// The lesson's id.
        lesson: String,
        /// The exercise, counted from 0, if the fault is in one.
        exercise: Option<usize>,
        /// What is wrong.
        message: String,
    },
}

/// The lessons, in the order of the map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lessons {
    lessons: Vec<Lesson>,
}

impl Lessons {
    /// The lessons embedded in the crate. They are checked by this crate's tests; were
    /// they ever invalid, this would be empty rather than panic.
    pub fn bundled() -> &'static Lessons {
        static LESSONS: OnceLock<Lessons> = OnceLock::new();
        LESSONS.get_or_init(|| Lessons::from_json(BUNDLED).unwrap_or_default())
    }

    /// Reads lessons (a JSON array of lessons) and checks each: ids kebab-case and
    /// unique, every text in every language, legal positions with the learner to move,
    /// goals that fit their positions, quiz answers that agree with the rules.
    pub fn from_json(json: &str) -> Result<Lessons, LessonsError> {
        let lessons: Vec<Lesson> =
            serde_json::from_str(json).map_err(|e| LessonsError::Json(e.to_string()))?;
        validate::all(&lessons)?;
        Ok(Lessons { lessons })
    }

    /// Every lesson, in order.
    pub fn all(&self) -> &[Lesson] {
        &self.lessons
    }

    /// The lesson with this id.
    pub fn get(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.id == id)
    }

    /// The lessons of one part of the map, in order.
    pub fn in_category(&self, category: Category) -> impl Iterator<Item = &Lesson> {
        self.lessons.iter().filter(move |l| l.category == category)
    }
}

/// The lessons as JSON, as embedded.
pub fn bundled_json() -> &'static str {
    BUNDLED
}
