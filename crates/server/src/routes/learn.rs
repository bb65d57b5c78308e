//! "Learn chess" over HTTP (Caissa additions): the lessons, judging a
//! learner's moves or quiz choice, and a signed-in learner's stars.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::Fields;
use crate::routes::docs::ErrorBody;
use crate::routes::session::{Authed, MaybeAuthed};
use crate::services::learning::{Answer, Learning};
use crate::state::AppState;

/// The lessons, in English, Simplified and Traditional Chinese: `{lessons:
/// [{id, category, title, intro, exercises: [{fen?, goal, instruction, prompt?,
/// hint?, max_moves, stars?}]}]}`. A quiz's answer is not given away.
#[utoipa::path(get, path = "/api/learn", tag = "learn", security(()),
    responses((status = 200, description = "The lessons", body = Object)))]
async fn lessons(State(learning): State<Arc<Learning>>) -> Json<Value> {
    let lessons: Vec<Value> = learning
        .lessons()
        .all()
        .iter()
        .map(|lesson| {
            let mut shown = serde_json::to_value(lesson).unwrap_or(Value::Null);
            if let Some(exercises) = shown["exercises"].as_array_mut() {
                for (exercise, shown) in lesson.exercises.iter().zip(exercises) {
                    shown["instruction"] =
                        serde_json::to_value(exercise.instruction()).unwrap_or(Value::Null);
                    if let Some(goal) = shown["goal"].as_object_mut() {
                        goal.remove("answer");
                        goal.remove("rule");
                    }
                }
            }
            shown
        })
        .collect();
    Json(json!({ "lessons": lessons }))
}

/// A learner's answer: the moves played from the exercise's position (UCI or
/// SAN, separated by spaces, as lichess writes a game's moves), or a quiz's
/// choice.
#[derive(Deserialize, ToSchema)]
pub struct LearnerAnswer {
    /// Moves from the start of the exercise, separated by spaces.
    pub moves: Option<String>,
    /// The index of a quiz's choice, from 0.
    pub choice: Option<usize>,
}

/// Judges a learner's moves (or quiz choice) by the rules: `{state: illegal |
/// wrong | going | solved, ...}` with `index` and `reason` (illegal), `index`
/// and `why` (wrong), `fen`, `movesUsed`, `movesLeft`, `toGo` (going),
/// `movesUsed` and `stars` (solved); `fen` is the board to show next and
/// `recorded` whether a signed-in learner's stars were kept. In a mate against
/// the computer, `reply` is the computer's answer (UCI), already played: send
/// it back among the moves next time.
#[utoipa::path(post, path = "/api/learn/{lesson}/{exercise}", tag = "learn", security(()),
    params(("lesson" = String, Path, description = "The lesson's id"), ("exercise" = usize, Path, description = "The exercise, from 0")),
    request_body(content((LearnerAnswer = "application/x-www-form-urlencoded"), (LearnerAnswer = "application/json"))),
    responses(
        (status = 200, description = "The answer judged", body = Object),
        (status = 400, description = "Neither moves nor a choice, or too many moves", body = ErrorBody),
        (status = 404, description = "No such lesson or exercise", body = ErrorBody)))]
async fn check(
    State(learning): State<Arc<Learning>>,
    MaybeAuthed(learner): MaybeAuthed,
    Path((lesson, exercise)): Path<(String, usize)>,
    Fields(body): Fields<LearnerAnswer>,
) -> Result<Json<Value>, ApiError> {
    let answer = match (body.moves, body.choice) {
        (Some(moves), None) => {
            Answer::Moves(moves.split_whitespace().map(str::to_string).collect())
        }
        (None, Some(choice)) => Answer::Choice(choice),
        _ => {
            return Err(ApiError::BadRequest(
                "give either moves (separated by spaces) or choice (a number)".into(),
            ))
        }
    };
    let judged = learning
        .check(learner.as_ref(), &lesson, exercise, answer)
        .await?;
    let mut shown = serde_json::to_value(&judged.progress).unwrap_or(Value::Null);
    if let Some(fen) = judged.fen {
        shown["fen"] = json!(fen);
    }
    shown["recorded"] = json!(judged.recorded);
    if let Some(reply) = judged.reply {
        shown["reply"] = json!(reply);
    }
    Ok(Json(shown))
}

/// The signed-in learner's stars: `{lessons: {LESSON: {EXERCISE: stars}}}`.
#[utoipa::path(get, path = "/api/learn/progress", tag = "learn",
    responses(
        (status = 200, description = "Stars per lesson and exercise", body = Object),
        (status = 401, description = "Not signed in", body = ErrorBody)))]
async fn progress(
    State(learning): State<Arc<Learning>>,
    Authed(learner): Authed,
) -> Result<Json<Value>, ApiError> {
    let mut lessons = Map::new();
    for (lesson, exercise, stars) in learning.progress(&learner).await? {
        let entry = lessons
            .entry(lesson)
            .or_insert_with(|| Value::Object(Map::new()));
        entry[exercise.to_string()] = json!(stars);
    }
    Ok(Json(json!({ "lessons": lessons })))
}

/// The learning routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(lessons))
        .routes(routes!(progress))
        .routes(routes!(check))
}
