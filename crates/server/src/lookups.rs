//! Read-only calls that lichess clients make besides the Board API: the games a
//! user is playing (`/api/account/playing`, which lichess-bot polls), the
//! challenges waiting (`/api/challenge`), whether users are online and playing
//! (`/api/users/status`), a user's current game, games by id
//! (`/api/games/export/_ids`), and the best game of each speed
//! (`/api/tv/channels`).

use std::collections::HashMap;
use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_rules::Color;
use futures_util::StreamExt;
use serde_json::{json, Value};

use crate::api::{challenge_json, exported, site_of};
use crate::auth::Authed;
use crate::error::ApiError;
use crate::lichess;
use crate::AppState;

/// Most games `/api/games/export/_ids` takes at once (lichess's).
const MAX_IDS: usize = 300;
/// Most users `/api/users/status` takes at once (lichess's).
const MAX_USERS: usize = 100;

/// `GET /api/account/playing[?nb=N]`: the games the user is playing, as lichess's
/// `nowPlaying` (the `gameStart` event's game, with `secondsLeft`).
pub async fn playing(
    State(state): State<AppState>,
    Authed(user): Authed,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let nb = match query.get("nb") {
        None => 9,
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=50).contains(n))
            .ok_or_else(|| ApiError::BadRequest(format!("nb: {n:?} must be from 1 to 50")))?,
    };
    let mut games = Vec::new();
    for handle in state.games_of(user.id).into_iter().take(nb) {
        let view = handle.view_now().await;
        let mut game = lichess::game_event("gameStart", &view, user.id)["game"].take();
        let mine = if view.white.id == user.id {
            Color::White
        } else {
            Color::Black
        };
        game["secondsLeft"] = json!(view.clocks.map(|c| c[mine.index()] / 1000));
        games.push(game);
    }
    Ok(Json(json!({ "nowPlaying": games })))
}

/// `GET /api/challenge`: the challenges waiting for the user's answer (`in`) and
/// those the user made (`out`).
pub async fn challenges(State(state): State<AppState>, Authed(user): Authed) -> Json<Value> {
    let challenges = state
        .inner
        .challenges
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let mut listed: Vec<_> = challenges.values().collect();
    listed.sort_by_key(|c| c.created_at);
    let incoming: Vec<Value> = listed
        .iter()
        .filter(|c| c.dest.as_ref().is_some_and(|d| d.id == user.id))
        .map(|c| challenge_json(c, "in"))
        .collect();
    let outgoing: Vec<Value> = listed
        .iter()
        .filter(|c| c.challenger.id == user.id)
        .map(|c| challenge_json(c, "out"))
        .collect();
    Json(json!({ "in": incoming, "out": outgoing }))
}

/// `GET /api/users/status?ids=a,b`: for each known user, whether they are online
/// (an open event stream or game connection) and playing.
pub async fn users_status(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let ids = query
        .get("ids")
        .ok_or_else(|| ApiError::BadRequest("ids: give user names, separated by commas".into()))?;
    let names: Vec<&str> = ids
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.len() > MAX_USERS {
        return Err(ApiError::BadRequest(format!(
            "ids: at most {MAX_USERS} users, not {}",
            names.len()
        )));
    }
    let mut out = Vec::new();
    for name in names {
        let Some(user) = state.store.user_by_name(name).await? else {
            continue;
        };
        let games = state.games_of(user.id);
        out.push(json!({
            "id": user.name.to_lowercase(),
            "name": user.name,
            "online": state.is_online(user.id),
            "playing": !games.is_empty(),
        }));
    }
    Ok(Json(Value::Array(out)))
}

/// `GET /api/user/{username}/current-game`: the game the user is playing, else
/// the last one, as `/game/export/{id}` gives it (PGN, or JSON when asked).
pub async fn current_game(
    State(state): State<AppState>,
    Path(username): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = state
        .store
        .user_by_name(&username)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("user {username:?}")))?;
    let live = state
        .games_of(user.id)
        .into_iter()
        .max_by_key(|g| g.view().created_at)
        .map(|g| g.view().id.clone());
    let id = match live {
        Some(id) => id,
        None => {
            let last = caissa_store::GameFilter {
                ongoing: true,
                limit: 1,
                ..caissa_store::GameFilter::default()
            };
            state
                .store
                .game_ids_of_user(user.id, &last)
                .await?
                .pop()
                .ok_or_else(|| ApiError::NotFound(format!("a game of {}", user.name)))?
        }
    };
    let view = exported(&state, &id, &site_of(&headers)).await?;
    if wants_json(&query, &headers) {
        return Ok(Json(lichess::game_json(&view)).into_response());
    }
    Ok((
        [(header::CONTENT_TYPE, "application/x-chess-pgn")],
        view.pgn.unwrap_or_default(),
    )
        .into_response())
}

/// `POST /api/games/export/_ids` with ids separated by commas in the body: those
/// games (unknown ones left out), streamed as PGN, or NDJSON when asked.
pub async fn export_ids(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the body must be game ids in UTF-8".into()))?;
    let ids: Vec<String> = text
        .split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .collect();
    if ids.len() > MAX_IDS {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_IDS} game ids, not {}",
            ids.len()
        )));
    }
    let ndjson = wants_ndjson(&headers);
    let site = site_of(&headers);
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    tokio::spawn(async move {
        for id in ids {
            let Ok(view) = exported(&state, &id, &site).await else {
                continue;
            };
            let chunk = if ndjson {
                format!("{}\n", lichess::game_json(&view))
            } else {
                format!("{}\n", view.pgn.unwrap_or_default())
            };
            if tx.send(chunk).await.is_err() {
                break;
            }
        }
    });
    let kind = if ndjson {
        "application/x-ndjson"
    } else {
        "application/x-chess-pgn"
    };
    let stream = tokio_stream::wrappers::ReceiverStream::new(rx).map(Ok::<_, Infallible>);
    Ok(([(header::CONTENT_TYPE, kind)], Body::from_stream(stream)).into_response())
}

/// `GET /api/tv/channels`: for each speed being played, its best game now (the
/// highest-rated pair, then the longest), with the better-rated player.
pub async fn tv_channels(State(state): State<AppState>) -> Json<Value> {
    let mut best: HashMap<&'static str, std::sync::Arc<crate::View>> = HashMap::new();
    for view in state.live_views() {
        let speed = lichess::speed(&view.setup.time_control);
        let strength = |v: &crate::View| (v.white.rating + v.black.rating, v.moves.len());
        if best
            .get(speed)
            .is_none_or(|b| strength(&view) > strength(b))
        {
            best.insert(speed, view);
        }
    }
    let mut channels = serde_json::Map::new();
    for (speed, view) in best {
        let (player, color) = if view.white.rating >= view.black.rating {
            (&view.white, "white")
        } else {
            (&view.black, "black")
        };
        channels.insert(
            speed.to_string(),
            json!({
                "user": { "id": player.name.to_lowercase(), "name": player.name },
                "rating": player.rating,
                "gameId": view.id,
                "color": color,
            }),
        );
    }
    Json(Value::Object(channels))
}

fn wants_json(query: &HashMap<String, String>, headers: &HeaderMap) -> bool {
    query.get("format").is_some_and(|f| f == "json")
        || headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("application/json"))
}

fn wants_ndjson(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson"))
}
