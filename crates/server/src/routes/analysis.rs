//! `GET /api/cloud-eval`: the engine's evaluation of a position, in the shape of
//! lichess's cloud evaluation.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use caissa_rules::Position;
use serde::Deserialize;
use serde_json::Value;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::Params;
use crate::routes::docs::ErrorBody;
use crate::services::analysis::Analysis;
use crate::state::AppState;

/// The position to evaluate.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EvalQuery {
    /// The position (FEN).
    pub fen: Option<String>,
    /// Lines to give, 1 to 5 (default 1).
    #[serde(rename = "multiPv")]
    pub multi_pv: Option<u64>,
}

/// The engine's evaluation: `{fen, knodes, depth, pvs: [{moves, cp | mate}]}`,
/// scores from White's point of view, moves in UCI. One search at a time,
/// answers cached per position.
#[utoipa::path(get, path = "/api/cloud-eval", tag = "analysis", security(()),
    params(EvalQuery),
    responses(
        (status = 200, description = "The evaluation", body = Object),
        (status = 400, description = "No or a bad FEN, or multiPv out of range", body = ErrorBody),
        (status = 429, description = "The engine is busy", body = ErrorBody)))]
async fn cloud_eval(
    State(analysis): State<Arc<Analysis>>,
    Params(query): Params<EvalQuery>,
) -> Result<Json<Value>, ApiError> {
    let fen = query
        .fen
        .ok_or_else(|| ApiError::BadRequest("fen is required".into()))?;
    let pos =
        Position::from_fen(fen.trim()).map_err(|e| ApiError::BadRequest(format!("fen: {e}")))?;
    let multipv = match query.multi_pv {
        None => 1,
        Some(n) if (1..=5).contains(&n) => n as usize,
        Some(n) => return Err(ApiError::BadRequest(format!("multiPv: {n} must be 1 to 5"))),
    };
    let answer = analysis.evaluate(pos, multipv).await?;
    Ok(Json((*answer).clone()))
}

/// The analysis route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(cloud_eval))
}
