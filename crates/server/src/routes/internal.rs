//! Between nodes: a node forwards a player's or an arbiter's action on a game
//! to the node that owns it, and nodes ask the others what they are playing
//! (for TV) and who listens to their events (bots online), showing the installation's shared secret. Anyone else is
//! refused (403).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::cluster::{Cluster, Forwarded, SECRET_HEADER};
use crate::http::error::ApiError;
use crate::routes::docs::ErrorBody;
use crate::services::events::UserEvents;
use crate::services::games::{Games, OnBoard};
use crate::state::AppState;

/// The routes nodes call on each other.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(forwarded))
        .routes(routes!(on_board))
        .routes(routes!(listening))
}

/// Refuses anyone but another node of this installation.
fn only_nodes(cluster: &Cluster, headers: &HeaderMap) -> Result<(), ApiError> {
    let secret = headers
        .get(SECRET_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if cluster.is_node(secret) {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "only the other nodes of this installation call /internal/".into(),
        ))
    }
}

/// Between the nodes of one installation, not for clients: the games this
/// node owns and are being played, in brief (the hub chooses TV's games from
/// every node's), with the secret the nodes share in `X-Caissa-Cluster`.
#[utoipa::path(get, path = "/internal/on-board", tag = "nodes", security(()),
    responses(
        (status = 200, description = "`[{id, speed, white: {name, rating}, black, plies, created_at}]`", body = Object),
        (status = 403, description = "Not another node of this installation", body = ErrorBody)))]
async fn on_board(
    State(cluster): State<Arc<Cluster>>,
    State(games): State<Arc<Games>>,
    headers: HeaderMap,
) -> Result<Json<Vec<OnBoard>>, ApiError> {
    only_nodes(&cluster, &headers)?;
    Ok(Json(games.on_board_here()))
}

/// Between the nodes of one installation, not for clients: the ids of the
/// users with an event stream open on this node (the bots online are those
/// of every node), with the secret the nodes share in `X-Caissa-Cluster`.
#[utoipa::path(get, path = "/internal/listening", tag = "nodes", security(()),
    responses(
        (status = 200, description = "`[user id]`", body = Vec<i64>),
        (status = 403, description = "Not another node of this installation", body = ErrorBody)))]
async fn listening(
    State(cluster): State<Arc<Cluster>>,
    State(events): State<Arc<UserEvents>>,
    headers: HeaderMap,
) -> Result<Json<Vec<i64>>, ApiError> {
    only_nodes(&cluster, &headers)?;
    Ok(Json(events.listening()))
}

/// Between the nodes of one installation (several `caissa serve` on one
/// PostgreSQL database), not for clients: an action on a game this node owns,
/// forwarded by the node a player or arbiter sent it to, with the secret the
/// nodes share in `X-Caissa-Cluster`. Answered 204 once the action is stored,
/// or with the owner's error as `{status, message, retry_after_ms}`.
#[utoipa::path(post, path = "/internal/games/{id}", tag = "nodes", security(()),
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 204, description = "Played and stored"),
        (status = 403, description = "Not another node of this installation", body = ErrorBody),
        (status = 503, description = "This node does not own the game (any more)", body = ErrorBody)))]
async fn forwarded(
    State(cluster): State<Arc<Cluster>>,
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Err(e) = only_nodes(&cluster, &headers) {
        return e.into_response();
    }
    let answered = match serde_json::from_slice::<Forwarded>(&body) {
        Ok(forwarded) => act(&games, &id, forwarded).await,
        Err(e) => Err(ApiError::BadRequest(format!("forwarded action: {e}"))),
    };
    match answered {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => {
            e.log();
            (e.status(), Json(e.to_wire())).into_response()
        }
    }
}

async fn act(games: &Games, id: &str, forwarded: Forwarded) -> Result<(), ApiError> {
    // Only the owner's own task acts: a copy here would forward it again.
    let handle = games
        .live(id)
        .filter(|h| h.is_owned_here())
        .ok_or_else(|| ApiError::Unavailable {
            message: format!("game {id} is moving to another node; try again in a moment"),
            retry_after_ms: 1_000,
        })?;
    match forwarded {
        Forwarded::Act { user, action, ply } => handle.act(user, action, ply).await,
        Forwarded::Arbitrate {
            arbiter,
            reason,
            action,
        } => handle.arbitrate(arbiter, reason, action).await,
    }
}
