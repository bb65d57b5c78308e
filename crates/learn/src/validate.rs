//! The checks lessons pass when they load.
//!
//! Everything that can be wrong with a lesson without playing it out is caught
//! here, with the lesson and exercise named; that each exercise can be solved is
//! the solver's business (see the tests).

use std::collections::HashSet;

use caissa_rules::{uci::UciMove, Position, Role};

use crate::check::parse_move;
use crate::lesson::{Exercise, Goal, Lesson};
use crate::quiz;
use crate::text::Text;
use crate::LessonsError;

/// Checks every lesson, and that no two share an id.
pub(crate) fn all(lessons: &[Lesson]) -> Result<(), LessonsError> {
    let mut ids = HashSet::new();
    for lesson in lessons {
        let fail = |exercise, message: String| LessonsError::Invalid {
            lesson: lesson.id.clone(),
            exercise,
            message,
        };
        if !is_kebab_case(&lesson.id) {
            return Err(fail(None, "the id is not kebab-case".into()));
        }
        if !ids.insert(lesson.id.as_str()) {
            return Err(fail(None, "another lesson has this id".into()));
        }
        text(&lesson.title, "title").map_err(|m| fail(None, m))?;
        text(&lesson.intro, "intro").map_err(|m| fail(None, m))?;
        if lesson.exercises.is_empty() {
            return Err(fail(None, "no exercises".into()));
        }
        for (i, ex) in lesson.exercises.iter().enumerate() {
            exercise(ex).map_err(|m| fail(Some(i), m))?;
        }
    }
    Ok(())
}

/// Lower-case letters and digits in words joined by single hyphens.
pub(crate) fn is_kebab_case(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|word| {
            !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

fn text(t: &Text, what: &str) -> Result<(), String> {
    match t.missing() {
        Some(lang) => Err(format!("the {what} is blank in {}", lang.tag())),
        None => Ok(()),
    }
}

fn exercise(ex: &Exercise) -> Result<(), String> {
    if let Some(p) = &ex.prompt {
        text(p, "prompt")?;
    }
    if let Some(h) = &ex.hint {
        text(h, "hint")?;
    }
    if ex.max_moves == 0 {
        return Err("max_moves is 0".into());
    }
    if let Some(s) = ex.stars {
        if s.three == 0 || s.three > s.two || s.two > ex.max_moves {
            return Err("stars need 1 <= three <= two <= max_moves".into());
        }
    }
    if let Goal::Quiz(q) = &ex.goal {
        text(&q.question, "question")?;
        if q.choices.len() < 2 || q.answer >= q.choices.len() {
            return Err("a quiz needs two choices or more and an answer among them".into());
        }
        for c in &q.choices {
            text(&c.text, "choice")?;
        }
        if let Some(rule) = q.rule {
            let by_rules = quiz::decide(rule, &q.choices)?;
            if by_rules != q.answer {
                return Err(format!(
                    "the answer is choice {}, but the rules say choice {by_rules}",
                    q.answer
                ));
            }
        }
        return Ok(());
    }
    let fen = ex.fen.as_deref().ok_or("a board exercise needs a fen")?;
    let pos = Position::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
    if ex.goal.is_immediate() && ex.max_moves != 1 {
        return Err("a goal met by one move needs max_moves 1".into());
    }
    match &ex.goal {
        Goal::EscapeCheck { .. } if !pos.is_check() => {
            return Err("escape_check, but the learner is not in check".into());
        }
        Goal::Reach { targets } => {
            let distinct: HashSet<_> = targets.iter().collect();
            if targets.is_empty() || distinct.len() != targets.len() {
                return Err("reach needs distinct targets".into());
            }
        }
        Goal::CaptureAll => {
            let board = pos.board();
            let enemies = board.by_color(!pos.turn()) & !board.by_role(Role::King);
            if enemies.is_empty() {
                return Err("capture_all, but there is nothing to capture".into());
            }
        }
        Goal::Checkmate => {
            let board = pos.board();
            if (board.by_color(!pos.turn()) & !board.by_role(Role::King)).is_nonempty() {
                return Err(
                    "checkmate against the computer: the defender must have a lone king".into(),
                );
            }
            if pos.has_insufficient_material(pos.turn()) {
                return Err(
                    "checkmate against the computer: the learner cannot mate with this".into(),
                );
            }
        }
        _ => {}
    }
    if !pos.has_legal_moves() {
        return Err("the learner has no legal move".into());
    }
    for tried in &ex.refused {
        UciMove::parse(tried).map_err(|e| e.to_string())?;
        if parse_move(&pos, tried).is_ok() {
            return Err(format!(
                "{tried} is listed as refused, but the rules allow it"
            ));
        }
    }
    Ok(())
}
