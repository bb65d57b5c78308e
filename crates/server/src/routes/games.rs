//! Games to read: one game's export (PGN or JSON), a user's games (streamed, with
//! lichess's filters), games by id, a user's current game, the games being
//! played, TV, the games a user is playing, and the games among a set of
//! users as they start and end.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_arbiter::Speed;
use caissa_store::{GameFilter, Outcome};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::Params;
use crate::live::view::View;
use crate::protocol::lichess;
use crate::routes::docs::ErrorBody;
use crate::routes::session::Authed;
use crate::services::accounts::Accounts;
use crate::services::exports::Exports;
use crate::services::game_news::GameNews;
use crate::services::games::{Found, Games};
use crate::state::AppState;

/// Most games `/api/games/export/_ids` takes at once (lichess's).
const MAX_IDS: usize = 300;

/// This server as the client sees it, `http://host` (or `https` behind a proxy
/// that says so), for the PGN `Site` tag.
pub fn site_of(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    let scheme = match headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
    {
        Some("https") => "https",
        _ => "http",
    };
    format!("{scheme}://{host}")
}

/// Whether the request's `Accept` header names `kind`.
pub fn accepts(headers: &HeaderMap, kind: &str) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains(kind))
}

/// The export's format.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FormatQuery {
    /// `json` for JSON instead of PGN (as `Accept: application/json`).
    pub format: Option<String>,
}

fn pgn_or_json(view: View, json: bool) -> Response {
    if json {
        return Json(lichess::game_json(&view)).into_response();
    }
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/x-chess-pgn")],
        view.pgn.unwrap_or_default(),
    )
        .into_response()
}

/// One game, live or finished: PGN, or JSON when asked.
#[utoipa::path(get, path = "/game/export/{id}", tag = "games", security(()),
    params(("id" = String, Path, description = "The game"), FormatQuery),
    responses(
        (status = 200, description = "The PGN (`application/x-chess-pgn`), or the game in JSON", body = String),
        (status = 404, description = "No such game", body = ErrorBody)))]
async fn export(
    State(exports): State<Arc<Exports>>,
    Path(id): Path<String>,
    Params(query): Params<FormatQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let view = exports.game(&id, &site_of(&headers)).await?;
    let json = query.format.as_deref() == Some("json") || accepts(&headers, "application/json");
    Ok(pgn_or_json(view, json))
}

/// The filters of a user's games, as lichess names them.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UserGamesQuery {
    /// At most this many games (1 to 10000, default 100).
    pub max: Option<i64>,
    /// Finished games (default true).
    pub finished: Option<bool>,
    /// Games being played (default false).
    pub ongoing: Option<bool>,
    /// Only games against this user.
    pub vs: Option<String>,
    /// Only rated (true) or casual (false) games.
    pub rated: Option<bool>,
    /// Only games the user played with this colour.
    pub color: Option<String>,
    /// Games from this moment, ms since 1970.
    pub since: Option<i64>,
    /// Games until this moment, ms since 1970.
    pub until: Option<i64>,
    /// `dateDesc` (default) or `dateAsc`.
    pub sort: Option<String>,
    /// Only the games the user `win`s, `loss`es or `draw`s (a Caissa addition).
    pub result: Option<String>,
    /// Speeds, comma-separated: bullet, blitz, rapid, classical, correspondence,
    /// unlimited.
    #[serde(rename = "perfType")]
    pub perf_type: Option<String>,
}

/// A user's games, streamed one at a time as PGN, or NDJSON with
/// `Accept: application/x-ndjson`.
#[utoipa::path(get, path = "/api/games/user/{username}", tag = "games", security(()),
    params(("username" = String, Path, description = "The user"), UserGamesQuery),
    responses(
        (status = 200, description = "PGN games, or NDJSON", content_type = "application/x-chess-pgn"),
        (status = 400, description = "A wrong filter, named", body = ErrorBody),
        (status = 404, description = "No such user", body = ErrorBody)))]
async fn user_games(
    State(accounts): State<Arc<Accounts>>,
    State(exports): State<Arc<Exports>>,
    Path(username): Path<String>,
    Params(q): Params<UserGamesQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = accounts.named(&username).await?;
    let max = match q.max {
        None => 100,
        Some(m) if (1..=10_000).contains(&m) => m,
        Some(m) => {
            return Err(ApiError::BadRequest(format!(
                "max: {m} must be a number from 1 to 10000"
            )))
        }
    };
    let vs = match &q.vs {
        Some(name) => Some(
            accounts
                .by_name(name)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("user {name:?} (vs)")))?
                .id,
        ),
        None => None,
    };
    let color_white = match q.color.as_deref() {
        None => None,
        Some("white") => Some(true),
        Some("black") => Some(false),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "color: {other:?} must be white or black"
            )))
        }
    };
    let outcome = match q.result.as_deref() {
        None => None,
        Some("win") => Some(Outcome::Win),
        Some("loss") => Some(Outcome::Loss),
        Some("draw") => Some(Outcome::Draw),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "result: {other:?} must be win, loss or draw"
            )))
        }
    };
    let oldest_first = match q.sort.as_deref() {
        None | Some("dateDesc") => false,
        Some("dateAsc") => true,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "sort: {other:?} must be dateDesc or dateAsc"
            )))
        }
    };
    // Speeds are not stored apart: filtered here, up to `max` games that pass.
    let speeds: Option<Vec<Speed>> = match &q.perf_type {
        None => None,
        Some(list) => Some(
            list.split(',')
                .map(|s| s.trim().to_lowercase())
                .map(|s| {
                    Speed::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| {
                        ApiError::BadRequest(format!(
                            "perfType: {s:?} is not one of bullet, blitz, rapid, classical, correspondence, unlimited"
                        ))
                    })
                })
                .collect::<Result<_, _>>()?,
        ),
    };
    let filter = GameFilter {
        finished: q.finished.unwrap_or(true),
        ongoing: q.ongoing.unwrap_or(false),
        vs,
        rated: q.rated,
        color_white,
        outcome,
        since: q.since,
        until: q.until,
        oldest_first,
        limit: if speeds.is_some() { i64::MAX } else { max },
    };
    let ids = exports.ids_of_user(user.id, &filter).await?;
    let ndjson = accepts(&headers, "application/x-ndjson");
    let site = site_of(&headers);
    let max = max as usize;
    // One game at a time, each read when the client is ready for it.
    let lines =
        futures_util::stream::unfold((ids.into_iter(), 0usize), move |(mut ids, mut sent)| {
            let exports = exports.clone();
            let site = site.clone();
            let speeds = speeds.clone();
            async move {
                loop {
                    if sent == max {
                        return None;
                    }
                    let id = ids.next()?;
                    let view = match exports.game(&id, &site).await {
                        Ok(view) => view,
                        Err(e) => {
                            tracing::warn!("exporting game {id}: {e}");
                            continue;
                        }
                    };
                    let speed = view.info.setup.time_control.speed();
                    if speeds.as_ref().is_some_and(|s| !s.contains(&speed)) {
                        continue;
                    }
                    sent += 1;
                    let chunk = if ndjson {
                        format!("{}\n", lichess::game_json(&view))
                    } else {
                        format!("{}\n", view.pgn.as_deref().unwrap_or_default())
                    };
                    return Some((Bytes::from(chunk), (ids, sent)));
                }
            }
        });
    let content_type = if ndjson {
        "application/x-ndjson"
    } else {
        "application/x-chess-pgn"
    };
    use futures_util::StreamExt;
    Ok((
        [(header::CONTENT_TYPE, content_type)],
        Body::from_stream(lines.map(Ok::<_, std::convert::Infallible>)),
    )
        .into_response())
}

/// Games by id (separated by commas in the body; unknown ones left out),
/// streamed as PGN, or NDJSON when asked.
#[utoipa::path(post, path = "/api/games/export/_ids", tag = "games", security(()),
    request_body(content = String, content_type = "text/plain", description = "Up to 300 game ids, separated by commas"),
    responses(
        (status = 200, description = "PGN games, or NDJSON", content_type = "application/x-chess-pgn"),
        (status = 400, description = "More than 300 ids, or not UTF-8", body = ErrorBody)))]
async fn export_ids(
    State(exports): State<Arc<Exports>>,
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
    let ndjson = accepts(&headers, "application/x-ndjson");
    let site = site_of(&headers);
    let lines = futures_util::stream::unfold(ids.into_iter(), move |mut ids| {
        let exports = exports.clone();
        let site = site.clone();
        async move {
            loop {
                let id = ids.next()?;
                let Ok(view) = exports.game(&id, &site).await else {
                    continue;
                };
                let chunk = if ndjson {
                    format!("{}\n", lichess::game_json(&view))
                } else {
                    format!("{}\n", view.pgn.unwrap_or_default())
                };
                return Some((Bytes::from(chunk), ids));
            }
        }
    });
    let kind = if ndjson {
        "application/x-ndjson"
    } else {
        "application/x-chess-pgn"
    };
    use futures_util::StreamExt;
    Ok((
        [(header::CONTENT_TYPE, kind)],
        Body::from_stream(lines.map(Ok::<_, std::convert::Infallible>)),
    )
        .into_response())
}

/// The game a user is playing, else their last one, as `/game/export/{id}`
/// gives it.
#[utoipa::path(get, path = "/api/user/{username}/current-game", tag = "games", security(()),
    params(("username" = String, Path, description = "The user"), FormatQuery),
    responses(
        (status = 200, description = "The PGN, or the game in JSON", body = String),
        (status = 404, description = "No such user, or no game", body = ErrorBody)))]
async fn current_game(
    State(accounts): State<Arc<Accounts>>,
    State(games): State<Arc<Games>>,
    State(exports): State<Arc<Exports>>,
    Path(username): Path<String>,
    Params(query): Params<FormatQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = accounts.named(&username).await?;
    let live = games
        .of_user(user.id)
        .into_iter()
        .max_by_key(|g| g.info().created_at)
        .map(|g| g.id().to_string());
    let id = match live {
        Some(id) => id,
        None => {
            let last = GameFilter {
                ongoing: true,
                limit: 1,
                ..GameFilter::default()
            };
            exports
                .ids_of_user(user.id, &last)
                .await?
                .pop()
                .ok_or_else(|| ApiError::NotFound(format!("a game of {}", user.name)))?
        }
    };
    let view = exports.game(&id, &site_of(&headers)).await?;
    let json = query.format.as_deref() == Some("json") || accepts(&headers, "application/json");
    Ok(pgn_or_json(view, json))
}

/// The games being played now, newest first.
#[utoipa::path(get, path = "/api/games/live", tag = "games", security(()),
    responses((status = 200, description = "`{games: [{id, white, black, speed, plies, fen}]}`", body = Object)))]
async fn live_games(State(games): State<Arc<Games>>) -> Json<Value> {
    Json(json!({ "games": live_games_json(&games) }))
}

/// The games being played, as the watch list shows them.
pub fn live_games_json(games: &Games) -> Vec<Value> {
    games
        .live_views()
        .iter()
        .map(|v| {
            json!({
                "id": v.info.id,
                "white": v.info.white.name,
                "black": v.info.black.name,
                "speed": lichess::speed(&v.info.setup.time_control),
                "plies": v.moves.len(),
                "fen": v.fen,
            })
        })
        .collect()
}

/// How many games to list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlayingQuery {
    /// At most this many (1 to 50, default 9).
    pub nb: Option<u64>,
}

/// The games the user is playing, as lichess's `nowPlaying` (the `gameStart`
/// event's game, with `secondsLeft`).
#[utoipa::path(get, path = "/api/account/playing", tag = "games",
    params(PlayingQuery),
    responses(
        (status = 200, description = "`{nowPlaying: [game]}`", body = Object),
        (status = 400, description = "nb out of range", body = ErrorBody)))]
async fn playing(
    State(games): State<Arc<Games>>,
    Authed(user): Authed,
    Params(query): Params<PlayingQuery>,
) -> Result<Json<Value>, ApiError> {
    let nb = match query.nb {
        None => 9,
        Some(n) if (1..=50).contains(&n) => n as usize,
        Some(n) => {
            return Err(ApiError::BadRequest(format!(
                "nb: {n} must be from 1 to 50"
            )))
        }
    };
    let mut listed = Vec::new();
    for handle in games.playing(user.id).await?.into_iter().take(nb) {
        let view = handle.view_now().await;
        let mut game = lichess::game_event("gameStart", &view, user.id)["game"].take();
        let mine = view
            .info
            .color_of(user.id)
            .unwrap_or(caissa_rules::Color::White);
        game["secondsLeft"] = json!(view.clocks.map(|c| c[mine.index()] / 1000));
        // Here lichess gives the status by name alone.
        game["status"] = game["status"]["name"].take();
        listed.push(game);
    }
    let my_turn = listed.iter().filter(|g| g["isMyTurn"] == true).count();
    Ok(Json(json!({ "nowPlaying": listed, "nbMyTurn": my_turn })))
}

/// Most users `/api/stream/games-by-users` follows (lichess's).
const MAX_FOLLOWED: usize = 300;

/// Which games a games-by-users stream starts with.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ByUsersQuery {
    /// Also the games among them being played now (default false).
    pub with_current_games: Option<bool>,
}

/// The games played between any two of the users named in the body (names,
/// any case, separated by commas; at most 300), a line when each starts and
/// when it ends, as lichess streams them: `{id, rated, variant, speed, perf,
/// createdAt, status, statusName, players: {white: {userId, rating}, black},
/// winner?, initialFen?, clock?}`. Fewer than two users: an empty stream.
#[utoipa::path(post, path = "/api/stream/games-by-users", tag = "games", security(()),
    params(ByUsersQuery),
    request_body(content = String, content_type = "text/plain", description = "Up to 300 user names, separated by commas"),
    responses(
        (status = 200, description = "NDJSON lines, and an empty one every 6 s", content_type = "application/x-ndjson"),
        (status = 400, description = "More than 300 names, not UTF-8, or an unknown parameter", body = ErrorBody)))]
async fn games_by_users(
    State(games): State<Arc<Games>>,
    State(news): State<Arc<GameNews>>,
    Params(q): Params<ByUsersQuery>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the body must be user names in UTF-8".into()))?;
    let users: std::collections::HashSet<String> = text
        .split(',')
        .map(|name| name.trim().to_lowercase())
        .filter(|name| !name.is_empty())
        .collect();
    if users.len() > MAX_FOLLOWED {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_FOLLOWED} users, not {}",
            users.len()
        )));
    }
    if users.len() < 2 {
        return Ok(crate::routes::streams::ndjson(futures_util::stream::empty()));
    }
    // Follow first, so that no game starting meanwhile is missed.
    let told = news.follow();
    let mut first = Vec::new();
    if q.with_current_games == Some(true) {
        let among = |name: &str| users.contains(&name.to_lowercase());
        for board in games.on_board_everywhere().await {
            if !(among(&board.white.name) && among(&board.black.name)) {
                continue;
            }
            if let Ok(found) = games.find(&board.id).await {
                let view = match found {
                    Found::Live(handle) => handle.view_now().await,
                    Found::Stored(view) => view,
                };
                first.push(Bytes::from(format!(
                    "{}\n",
                    lichess::stream_game_json(&view)
                )));
            }
        }
    }
    let tick = tokio::time::interval_at(tokio::time::Instant::now() + KEEPALIVE, KEEPALIVE);
    let later = futures_util::stream::unfold(
        (told, tick, users),
        |(mut told, mut tick, users)| async move {
            loop {
                let line = tokio::select! {
                    news = told.recv() => match news {
                        Ok(game) if users.contains(&game.white) && users.contains(&game.black)
                            && game.white != game.black => {
                            Bytes::from(format!("{}\n", game.line))
                        }
                        Ok(_) => continue,
                        // A reader this far behind misses the oldest, as on lichess.
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(broadcast::error::RecvError::Closed) => return None,
                    },
                    _ = tick.tick() => Bytes::from_static(b"\n"),
                };
                return Some((line, (told, tick, users)));
            }
        },
    );
    use futures_util::StreamExt;
    Ok(crate::routes::streams::ndjson(
        futures_util::stream::iter(first).chain(later),
    ))
}

/// The keep-alive of a games-by-users stream.
const KEEPALIVE: std::time::Duration = std::time::Duration::from_secs(6);

/// The routes of games to read.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(export))
        .routes(routes!(user_games))
        .routes(routes!(export_ids))
        .routes(routes!(current_game))
        .routes(routes!(live_games))
        .routes(routes!(playing))
        .routes(routes!(games_by_users))
}
