//! `GET /api/cloud-eval`: the engine's evaluation of a position, in the shape of
//! lichess's cloud evaluation; `GET /api/openings`: the names of openings by
//! position, for boards that name what they show.

use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_openings::Openings;
use caissa_rules::Position;
use serde::Deserialize;
use serde_json::Value;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::Params;
use crate::routes::docs::ErrorBody;
use crate::routes::site::takes_gzip;
use crate::routes::streams::ndjson;
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
    let (pos, multipv) = query.read()?;
    let answer = analysis.evaluate(pos, multipv).await?;
    Ok(Json((*answer).clone()))
}

impl EvalQuery {
    /// The position and the number of lines asked for, or what is wrong.
    fn read(self) -> Result<(Position, usize), ApiError> {
        let fen = self
            .fen
            .ok_or_else(|| ApiError::BadRequest("fen is required".into()))?;
        let pos = Position::from_fen(fen.trim())
            .map_err(|e| ApiError::BadRequest(format!("fen: {e}")))?;
        let multipv = match self.multi_pv {
            None => 1,
            Some(n) if (1..=5).contains(&n) => n as usize,
            Some(n) => return Err(ApiError::BadRequest(format!("multiPv: {n} must be 1 to 5"))),
        };
        Ok((pos, multipv))
    }
}

/// The engine's evaluation as it deepens (a Caissa addition): NDJSON, a line
/// in `/api/cloud-eval`'s shape at every completed depth, for a few seconds;
/// closing the request stops the search. What the analysis board shows while
/// a player looks at a position.
#[utoipa::path(get, path = "/api/analysis/stream", tag = "analysis", security(()),
    params(EvalQuery),
    responses(
        (status = 200, description = "NDJSON: `{fen, knodes, depth, pvs: [{moves, cp | mate}]}` per depth", content_type = "application/x-ndjson"),
        (status = 400, description = "No or a bad FEN, or multiPv out of range", body = ErrorBody),
        (status = 429, description = "The engine is busy", body = ErrorBody)))]
async fn deepening(
    State(analysis): State<Arc<Analysis>>,
    Params(query): Params<EvalQuery>,
) -> Result<Response, ApiError> {
    let (pos, multipv) = query.read()?;
    let deepening = analysis.deepen(pos, multipv).await?;
    let lines = futures_util::stream::unfold(deepening, |mut d| async move {
        let answer = d.answers.recv().await?;
        Some((Bytes::from(format!("{answer}\n")), d))
    });
    Ok(ndjson(lines))
}

/// Every named opening by the position it names: `{positions: {KEY: [eco,
/// name]}}`, the key being the first four fields of the position's FEN
/// (placement, side to move, castling, a capturable en-passant square). A
/// board names a line by the last of its positions found here. From the
/// public-domain data set lichess maintains (CC0); the same for every caller,
/// so it may be cached for a day.
#[utoipa::path(get, path = "/api/openings", tag = "analysis", security(()),
    responses((status = 200, description = "The openings by position", body = Object)))]
async fn openings(headers: HeaderMap) -> Response {
    // The same for every caller: written and gzipped once.
    static TABLE: OnceLock<(String, Option<Vec<u8>>)> = OnceLock::new();
    let (json, zipped) = TABLE.get_or_init(|| {
        let positions: serde_json::Map<String, Value> = Openings::bundled()
            .iter()
            .map(|(key, o)| (key.to_string(), serde_json::json!([o.eco, o.name])))
            .collect();
        let json = serde_json::json!({ "positions": positions }).to_string();
        let zipped = crate::assets::gzip(json.as_bytes());
        (json, zipped)
    });
    let cache = (header::CACHE_CONTROL, "public, max-age=86400");
    let kind = (header::CONTENT_TYPE, "application/json");
    match zipped {
        Some(zipped) if takes_gzip(&headers) => (
            [
                cache,
                kind,
                (header::CONTENT_ENCODING, "gzip"),
                (header::VARY, "Accept-Encoding"),
            ],
            zipped.clone(),
        )
            .into_response(),
        _ => ([cache, kind], json.clone()).into_response(),
    }
}

/// The analysis routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(cloud_eval))
        .routes(routes!(deepening))
        .routes(routes!(openings))
}
