//! The lobby's list of open seeks, and taking one of them.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::{json, Value};

use crate::auth::Authed;
use crate::error::ApiError;
use crate::{lichess, AppState};

/// `GET /api/lobby/seeks`: the real-time seeks waiting now, oldest first.
pub async fn seeks(State(state): State<AppState>) -> Json<Value> {
    let seeks = state.inner.seeks.lock().unwrap_or_else(|e| e.into_inner());
    let list: Vec<Value> = seeks
        .iter()
        .map(|s| {
            let tc = &s.time_control;
            let period = tc.periods.first();
            json!({
                "id": s.id,
                "username": s.user.name,
                "rating": s.rating,
                "time": period.map(|p| p.base_ms as f64 / 60_000.0),
                "increment": period.map(|p| p.increment_ms / 1000),
                "perMove": tc.per_move_ms.filter(|_| period.is_some()).map(|ms| ms / 1000),
                "days": tc.per_move_ms.filter(|_| period.is_none()).map(|ms| ms / 86_400_000),
                "timeControl": tc.to_string(),
                "speed": lichess::speed(tc),
                "rated": s.rated,
                "color": s.color,
                "ruleset": s.ruleset.name(),
                "ratingRange": s.rating_range.map(|(low, high)| format!("{low}-{high}")),
            })
        })
        .collect();
    Json(json!({ "seeks": list }))
}

/// `POST /api/lobby/seeks/{id}/accept`: play the seeker now; answers the game's id.
pub async fn accept(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let game = state.accept_seek(&id, user).await?;
    Ok(Json(json!({ "gameId": game })))
}
