//! Users as others see them: a profile with ratings and ladder level, the rating
//! history, and whether users are online and playing.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use caissa_rating::ladder::Level;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::civil_date;
use crate::http::error::ApiError;
use crate::http::fields::Params;
use crate::routes::docs::ErrorBody;
use crate::routes::games::site_of;
use crate::routes::session::MaybeAuthed;
use crate::services::accounts::Accounts;
use crate::services::events::UserEvents;
use crate::services::games::Games;
use crate::services::ratings::Ratings;
use crate::services::safety::Safety;
use crate::state::AppState;

/// Most users `/api/users/status` takes at once (lichess's).
const MAX_USERS: usize = 100;

/// The best players at a speed (lichess's leaderboard): `{users: [{id,
/// username, title?, perfs: {SPEED: {rating, progress}}}]}`, established
/// ratings only (deviation at most 110), best first.
#[utoipa::path(get, path = "/api/player/top/{nb}/{perfType}", tag = "users", security(()),
    params(
        ("nb" = i64, Path, description = "How many players, 1 to 200"),
        ("perfType" = String, Path, description = "bullet, blitz, rapid, classical or correspondence")),
    responses(
        (status = 200, description = "The leaderboard", body = Object),
        (status = 400, description = "nb or perfType out of range, named", body = ErrorBody)))]
async fn leaderboard(
    State(ratings): State<Arc<Ratings>>,
    Path((nb, perf_type)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let nb: i64 = nb
        .parse()
        .ok()
        .filter(|n| (1..=200).contains(n))
        .ok_or_else(|| {
            ApiError::BadRequest(format!("nb: {nb:?} must be a number from 1 to 200"))
        })?;
    let speeds = ["bullet", "blitz", "rapid", "classical", "correspondence"];
    if !speeds.contains(&perf_type.as_str()) {
        return Err(ApiError::BadRequest(format!(
            "perfType: {perf_type:?} is not one of {}",
            speeds.join(", ")
        )));
    }
    Ok(Json(
        json!({ "users": ratings.leaderboard(&perf_type, nb).await? }),
    ))
}

/// A user's ratings per speed and ladder level.
#[utoipa::path(get, path = "/api/user/{username}", tag = "users", security(()),
    params(("username" = String, Path, description = "The user's name, any case")),
    responses(
        (status = 200, description = "`{id, username, url, title?, createdAt, perfs, playTime: {total, tv}, ladder: {points, games, level}, disabled?, blocking?}` (`title`: `BOT` for a bot; `disabled`: a closed account, as lichess; `blocking`: whether the signed-in viewer blocks this user)", body = Object),
        (status = 404, description = "No such user", body = ErrorBody)))]
async fn profile(
    State(accounts): State<Arc<Accounts>>,
    State(ratings): State<Arc<Ratings>>,
    State(safety): State<Arc<Safety>>,
    MaybeAuthed(viewer): MaybeAuthed,
    Path(username): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let user = accounts.named(&username).await?;
    let perfs = ratings.perfs(user.id).await?;
    let (points, games) = ratings.ladder(user.id).await?;
    let level = match Level::of(points, games as u32) {
        Level::Unrated => json!("unrated"),
        Level::Level(n) => json!(n),
    };
    let mut profile = json!({
        "id": user.name.to_lowercase(),
        "username": user.name,
        "url": format!("{}/@/{}", site_of(&headers), user.name),
        "createdAt": user.created_at,
        "perfs": perfs,
        "playTime": ratings.play_time(user.id).await?,
        "ladder": { "points": points, "games": games, "level": level },
    });
    if let Some(title) = &user.title {
        profile["title"] = json!(title);
    }
    if user.closed_at.is_some() {
        profile["disabled"] = json!(true);
    }
    if let Some(viewer) = viewer.filter(|v| v.id != user.id) {
        profile["blocking"] = json!(safety.blocks(viewer.id, user.id).await?);
    }
    Ok(Json(profile))
}

/// Most users `POST /api/users` takes at once (lichess's).
const MAX_BY_ID: usize = 300;

/// Users by their ids (names, any case, separated by commas), as lichess's
/// users: `[{id, username, title?, url, createdAt, perfs, playTime}]`; names nobody has
/// are left out.
#[utoipa::path(post, path = "/api/users", tag = "users", security(()),
    request_body(content = String, content_type = "text/plain", description = "Names separated by commas"),
    responses(
        (status = 200, description = "`[{id, username, title?, url, createdAt, perfs}]`", body = Object),
        (status = 400, description = "Not UTF-8, or more than 300 names", body = ErrorBody)))]
async fn users_by_id(
    State(accounts): State<Arc<Accounts>>,
    State(ratings): State<Arc<Ratings>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the body is not UTF-8".into()))?;
    let names: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.len() > MAX_BY_ID {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_BY_ID} users at once, not {}",
            names.len()
        )));
    }
    let site = site_of(&headers);
    let mut users = Vec::new();
    for name in names {
        let Some(user) = accounts.by_name(name).await? else {
            continue;
        };
        let mut shown = json!({
            "id": user.name.to_lowercase(),
            "username": user.name,
            "url": format!("{site}/@/{}", user.name),
            "createdAt": user.created_at,
            "perfs": ratings.perfs(user.id).await?,
            "playTime": ratings.play_time(user.id).await?,
        });
        if let Some(title) = &user.title {
            shown["title"] = json!(title);
        }
        if user.closed_at.is_some() {
            shown["disabled"] = json!(true);
        }
        users.push(shown);
    }
    Ok(Json(Value::Array(users)))
}

/// The score of two users against each other over their finished games (the
/// last 1,000), as lichess's crosstable: `{users: {id1: score, id2: score},
/// nbGames}`.
#[utoipa::path(get, path = "/api/crosstable/{user1}/{user2}", tag = "users", security(()),
    params(("user1" = String, Path, description = "A user"), ("user2" = String, Path, description = "Another user")),
    responses(
        (status = 200, description = "`{users: {id1: score, id2: score}, nbGames}`", body = Object),
        (status = 404, description = "No such user", body = ErrorBody)))]
async fn crosstable(
    State(accounts): State<Arc<Accounts>>,
    State(games): State<Arc<Games>>,
    Path((first, second)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let a = accounts.named(&first).await?;
    let b = accounts.named(&second).await?;
    let (a_score, b_score, played) = games.score_between(a.id, b.id).await?;
    let mut users = serde_json::Map::new();
    users.insert(a.name.to_lowercase(), json!(a_score));
    users.insert(b.name.to_lowercase(), json!(b_score));
    Ok(Json(json!({ "users": users, "nbGames": played })))
}

/// Per speed, `[year, month (0-based), day, rating]` points, as lichess returns
/// them.
#[utoipa::path(get, path = "/api/user/{username}/rating-history", tag = "users", security(()),
    params(("username" = String, Path, description = "The user's name")),
    responses(
        (status = 200, description = "`[{name, points: [[y, m, d, rating]]}]`", body = Object),
        (status = 404, description = "No such user", body = ErrorBody)))]
async fn history(
    State(accounts): State<Arc<Accounts>>,
    State(ratings): State<Arc<Ratings>>,
    Path(username): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = accounts.named(&username).await?;
    let out: Vec<Value> = ratings
        .history(user.id)
        .await?
        .into_iter()
        .map(|(perf, points)| {
            let points: Vec<Value> = points
                .into_iter()
                .map(|(at, rating)| {
                    let (y, m, d) = civil_date(at / 86_400_000);
                    json!([y, m - 1, d, rating.round()])
                })
                .collect();
            json!({ "name": perf, "points": points })
        })
        .collect();
    Ok(Json(Value::Array(out)))
}

/// The users asked about.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatusQuery {
    /// User names, separated by commas (at most 100).
    pub ids: Option<String>,
}

/// For each known user, whether they are online (an open event stream or game
/// connection) and playing.
#[utoipa::path(get, path = "/api/users/status", tag = "users", security(()),
    params(StatusQuery),
    responses(
        (status = 200, description = "`[{id, name, online, playing}]`", body = Object),
        (status = 400, description = "No ids, or more than 100", body = ErrorBody)))]
async fn users_status(
    State(accounts): State<Arc<Accounts>>,
    State(games): State<Arc<Games>>,
    State(events): State<Arc<UserEvents>>,
    Params(query): Params<StatusQuery>,
) -> Result<Json<Value>, ApiError> {
    let ids = query
        .ids
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
        let Some(user) = accounts.by_name(name).await? else {
            continue;
        };
        let playing = games.of_user(user.id);
        let connected = playing.iter().any(|g| {
            g.color_of(user.id)
                .is_some_and(|c| g.presence().borrow()[c.index()].connections > 0)
        });
        out.push(json!({
            "id": user.name.to_lowercase(),
            "name": user.name,
            "online": events.is_listening(user.id) || connected,
            "playing": !playing.is_empty(),
        }));
    }
    Ok(Json(Value::Array(out)))
}

/// The user routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(profile))
        .routes(routes!(leaderboard))
        .routes(routes!(users_by_id))
        .routes(routes!(crosstable))
        .routes(routes!(history))
        .routes(routes!(users_status))
}
