//! Arena tournaments over the API, in lichess's shapes (`/api/tournament/...`):
//! create, join, withdraw (which pauses: a player may come back until the end),
//! the tournament with its standing and games being played, results, games and
//! the list. The record and the director are the Swiss's (`services::tournaments`);
//! berserk is a game action (`POST /api/board/game/{id}/berserk`).

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_arbiter::{Ruleset, TimeControl};
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::tournament::{Conditions, Record, Spec, Status, System};
use crate::http::error::ApiError;
use crate::http::fields::Fields;
use crate::http::limits::RateLimits;
use crate::live::view::now_ms;
use crate::routes::docs::{ok, ErrorBody, OkBody};
use crate::routes::session::Authed;
use crate::routes::terms::named_ruleset;
use crate::routes::tournament_json::{arena_json, sheet_scores};
use crate::routes::tournaments::{
    clock_name, conditions, enter, featured, found, games_of, organise, organiser, user_ids,
    JoinForm,
};
use crate::services::accounts::Accounts;
use crate::services::exports::Exports;
use crate::services::games::Games;
use crate::services::tournaments::Tournaments;
use crate::state::AppState;

/// The fields of a new arena, as lichess's `POST /api/tournament` takes them.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ArenaForm {
    /// Its name (2 to 80 characters; default: the clock and "Arena").
    pub name: Option<String>,
    /// Initial time, minutes (0 to 60; fractions such as 0.5 allowed).
    #[serde(rename = "clockTime")]
    pub clock_time: Option<f64>,
    /// Increment, seconds (0 to 60).
    #[serde(rename = "clockIncrement")]
    pub clock_increment: Option<u64>,
    /// How long it lasts, minutes (1 to 720).
    pub minutes: Option<u32>,
    /// Minutes until it starts (default 5), when `startDate` is not given.
    #[serde(rename = "waitMinutes")]
    pub wait_minutes: Option<u64>,
    /// When it starts, ms since the epoch.
    #[serde(rename = "startDate")]
    pub start_date: Option<u64>,
    /// Only `standard`.
    pub variant: Option<String>,
    /// Only the initial position.
    pub position: Option<String>,
    /// Whether the games are rated (default true).
    pub rated: Option<bool>,
    /// Whether players may go berserk (default true).
    pub berserkable: Option<bool>,
    /// Whether winning streaks double points (default true).
    pub streakable: Option<bool>,
    /// Shown on its page.
    pub description: Option<String>,
    /// Players must give it to join.
    pub password: Option<String>,
    /// The rules of every game (default `online`).
    #[schema(value_type = Option<String>)]
    #[serde(default, deserialize_with = "named_ruleset")]
    pub ruleset: Option<Ruleset>,
    /// Lowest rating at the arena's speed.
    #[serde(rename = "conditions.minRating.rating")]
    pub min_rating: Option<u32>,
    /// Highest rating at the arena's speed.
    #[serde(rename = "conditions.maxRating.rating")]
    pub max_rating: Option<u32>,
    /// Fewest rated games at the arena's speed.
    #[serde(rename = "conditions.nbRatedGame.nb")]
    pub min_rated_games: Option<u32>,
    /// Youngest account, days.
    #[serde(rename = "conditions.accountAge")]
    pub account_age: Option<u32>,
    /// Only these users (names, separated by commas) may join.
    #[serde(rename = "conditions.allowList")]
    pub allow_list: Option<String>,
    /// Whether bot accounts may join.
    #[serde(rename = "conditions.bots")]
    pub bots: Option<bool>,
    /// Arbiters, by name, separated by commas.
    pub arbiters: Option<String>,
}

/// The terms of a new arena, each field checked.
async fn arena_spec(accounts: &Accounts, f: ArenaForm) -> Result<Spec, ApiError> {
    let bad = |why: String| Err(ApiError::BadRequest(why));
    if f.variant.as_deref().is_some_and(|v| v != "standard") {
        return bad("variant: tournaments are played in standard chess only".into());
    }
    if f.position.as_deref().is_some_and(|p| !p.is_empty()) {
        return bad("position: arenas start from the initial position".into());
    }
    let Some(clock_time) = f.clock_time else {
        return bad("clockTime: give the initial time in minutes (0 to 60)".into());
    };
    if !(0.0..=60.0).contains(&clock_time) {
        return bad(format!(
            "clockTime: {clock_time} is not between 0 and 60 minutes"
        ));
    }
    let Some(increment) = f.clock_increment else {
        return bad("clockIncrement: give the increment in seconds (0 to 60)".into());
    };
    if increment > 60 {
        return bad(format!(
            "clockIncrement: {increment} is not between 0 and 60 seconds"
        ));
    }
    let base_ms = (clock_time * 60_000.0).round() as u64;
    if base_ms == 0 && increment == 0 {
        return bad("clockTime: a clock of 0+0 cannot be played".into());
    }
    let Some(minutes) = f.minutes else {
        return bad("minutes: say how long the arena lasts (1 to 720)".into());
    };
    if !(1..=720).contains(&minutes) {
        return bad(format!("minutes: {minutes} is not between 1 and 720"));
    }
    let time_control = TimeControl::fischer(base_ms, increment * 1000);
    let name = match f.name.as_deref().map(str::trim) {
        Some(name) if !(2..=80).contains(&name.chars().count()) => {
            return bad("name: 2 to 80 characters".into())
        }
        Some(name) => name.to_string(),
        None => format!("{} Arena", clock_name(&time_control)),
    };
    let description = f.description.unwrap_or_default();
    if description.chars().count() > 2000 {
        return bad("description: at most 2000 characters".into());
    }
    let starts_at = match (f.start_date, f.wait_minutes) {
        (Some(at), _) => at,
        (None, Some(wait)) if wait > 10_080 => {
            return bad(format!("waitMinutes: {wait} is more than a week"))
        }
        (None, wait) => now_ms() + wait.unwrap_or(5) * 60_000,
    };
    Ok(Spec {
        name,
        description,
        system: System::Arena,
        rounds: None,
        time_control,
        ruleset: f.ruleset.unwrap_or(Ruleset::Online),
        rated: f.rated.unwrap_or(true),
        starts_at,
        round_interval_ms: 0,
        conditions: conditions(
            accounts,
            Conditions {
                min_rating: f.min_rating,
                max_rating: f.max_rating,
                min_rated_games: f.min_rated_games,
                min_account_age_days: f.account_age,
                ..Conditions::default()
            },
            f.allow_list.as_deref(),
            f.password.as_deref(),
        )
        .await?,
        allow_bots: f.bots.unwrap_or(false),
        arbiters: user_ids(accounts, "arbiters", f.arbiters.as_deref()).await?,
        tiebreaks: Vec::new(),
        minutes: Some(minutes),
        berserkable: f.berserkable.unwrap_or(true) && base_ms > 0,
        streakable: f.streakable.unwrap_or(true),
    })
}

/// An arena, or 404 (a Swiss or round robin is at `/api/swiss/{id}`).
async fn arena(tournaments: &Tournaments, id: &str) -> Result<Record, ApiError> {
    let record = found(tournaments, id).await?;
    if !record.is_arena() {
        return Err(ApiError::NotFound(format!(
            "arena {id}: this tournament is a {}, at /api/swiss/{id}",
            record.spec.system.name()
        )));
    }
    Ok(record)
}

/// Creates an arena.
#[utoipa::path(post, path = "/api/tournament", tag = "arena",
    request_body(content((ArenaForm = "application/x-www-form-urlencoded"), (ArenaForm = "application/json"))),
    responses(
        (status = 200, description = "The arena, as `GET /api/tournament/{id}` gives it", body = Object),
        (status = 400, description = "A field missing or wrong, named", body = ErrorBody),
        (status = 403, description = "Guests cannot organise", body = ErrorBody)))]
async fn create(
    State(tournaments): State<Arc<Tournaments>>,
    State(accounts): State<Arc<Accounts>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Fields(form): Fields<ArenaForm>,
) -> Result<Json<Value>, ApiError> {
    organiser(&user)?;
    let spec = arena_spec(&accounts, form).await?;
    let record = organise(&tournaments, &limits, &user, spec).await?;
    Ok(Json(arena_json(&record, 1)))
}

/// Which page of the standing.
#[derive(Debug, Deserialize, IntoParams)]
pub struct PageQuery {
    /// The page of ten players, 1-based.
    pub page: Option<usize>,
}

/// An arena: terms, standing (a page of ten), games being played, podium.
#[utoipa::path(get, path = "/api/tournament/{id}", tag = "arena", security(()),
    params(("id" = String, Path, description = "The arena"), PageQuery),
    responses(
        (status = 200, description = "`{id, createdBy, startsAt, system, fullName, minutes, clock, rated, berserkable, nbPlayers, standing: {page, players: [{name, rank, rating, score, sheet: {scores, fire?}}]}, duels, isStarted?, isFinished?, secondsToStart?, secondsToFinish?, podium?, featured?}`; `featured`: the top board being played `{id, fen, orientation, color, lastMove, white, black, c}`", body = Object),
        (status = 404, description = "No such arena", body = ErrorBody)))]
async fn show(
    State(tournaments): State<Arc<Tournaments>>,
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
) -> Result<Json<Value>, ApiError> {
    let record = arena(&tournaments, &id).await?;
    let mut value = arena_json(&record, q.page.unwrap_or(1));
    if let Some(top) = featured(&games, &record).await {
        value["featured"] = top;
    }
    Ok(Json(value))
}

/// Joins an arena, or comes back after a pause, until its end.
#[utoipa::path(post, path = "/api/tournament/{id}/join", tag = "arena",
    params(("id" = String, Path, description = "The arena")),
    request_body(content((JoinForm = "application/x-www-form-urlencoded"), (JoinForm = "application/json"))),
    responses(
        (status = 200, description = "Joined", body = OkBody),
        (status = 400, description = "Over, or already in", body = ErrorBody),
        (status = 403, description = "A condition is not met, or the password is wrong", body = ErrorBody),
        (status = 404, description = "No such arena", body = ErrorBody)))]
async fn join(
    State(tournaments): State<Arc<Tournaments>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    Fields(form): Fields<JoinForm>,
) -> Result<Json<Value>, ApiError> {
    arena(&tournaments, &id).await?;
    enter(&tournaments, &user, &id, form.password.as_deref()).await
}

/// Leaves an arena: before the start the entry goes; after it the player is
/// paused (paired no more until they join again; the game being played goes on).
#[utoipa::path(post, path = "/api/tournament/{id}/withdraw", tag = "arena",
    params(("id" = String, Path, description = "The arena")),
    responses(
        (status = 200, description = "Withdrawn or paused", body = OkBody),
        (status = 400, description = "Not joined, or over", body = ErrorBody),
        (status = 404, description = "No such arena", body = ErrorBody)))]
async fn withdraw(
    State(tournaments): State<Arc<Tournaments>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    arena(&tournaments, &id).await?;
    tournaments.withdraw(&user, &id).await?;
    Ok(ok())
}

/// The organiser ends the arena now.
#[utoipa::path(post, path = "/api/tournament/{id}/terminate", tag = "arena",
    params(("id" = String, Path, description = "The arena")),
    responses(
        (status = 200, description = "Ended", body = OkBody),
        (status = 403, description = "Not the organiser", body = ErrorBody),
        (status = 404, description = "No such arena", body = ErrorBody)))]
async fn terminate(
    State(tournaments): State<Arc<Tournaments>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    arena(&tournaments, &id).await?;
    tournaments.terminate(&user, &id).await?;
    Ok(ok())
}

/// What results to give.
#[derive(Debug, Deserialize, IntoParams)]
pub struct ResultsQuery {
    /// At most this many players.
    pub nb: Option<usize>,
    /// With each player's sheet.
    pub sheet: Option<bool>,
}

/// The standing as NDJSON, best first: `{rank, score, rating, username,
/// performance?, sheet?: {scores, fire?}}`.
#[utoipa::path(get, path = "/api/tournament/{id}/results", tag = "arena", security(()),
    params(("id" = String, Path, description = "The arena"), ResultsQuery),
    responses(
        (status = 200, description = "NDJSON lines", content_type = "application/x-ndjson"),
        (status = 404, description = "No such arena", body = ErrorBody)))]
async fn results(
    State(tournaments): State<Arc<Tournaments>>,
    Path(id): Path<String>,
    Query(q): Query<ResultsQuery>,
) -> Result<Response, ApiError> {
    let record = arena(&tournaments, &id).await?;
    let mut body = String::new();
    for s in record
        .arena_standings()
        .into_iter()
        .take(q.nb.unwrap_or(usize::MAX))
    {
        let mut line = json!({
            "rank": s.rank,
            "score": s.sheet.score(),
            "rating": s.entrant.rating,
            "username": s.entrant.name,
        });
        if let Some(perf) = s.sheet.performance() {
            line["performance"] = json!(perf);
        }
        if q.sheet.unwrap_or(false) {
            line["sheet"] = json!({ "scores": sheet_scores(s.sheet) });
            if s.sheet.is_on_fire() {
                line["sheet"]["fire"] = json!(true);
            }
        }
        body.push_str(&line.to_string());
        body.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// The arena's games, PGN (or NDJSON with `Accept: application/x-ndjson`).
#[utoipa::path(get, path = "/api/tournament/{id}/games", tag = "arena", security(()),
    params(("id" = String, Path, description = "The arena")),
    responses(
        (status = 200, description = "PGN games, or NDJSON", content_type = "application/x-chess-pgn"),
        (status = 404, description = "No such arena", body = ErrorBody)))]
async fn games(
    State(tournaments): State<Arc<Tournaments>>,
    State(exports): State<Arc<Exports>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    games_of(&arena(&tournaments, &id).await?, &exports, &headers).await
}

/// Arenas as lichess lists them: `{created, started, finished}`, each entry with
/// `startsAt` and `finishesAt` in ms and lichess's status codes (10, 20, 30).
#[utoipa::path(get, path = "/api/tournament", tag = "arena", security(()),
    responses((status = 200, description = "`{created: [...], started: [...], finished: [...]}`", body = Object)))]
async fn list(State(tournaments): State<Arc<Tournaments>>) -> Result<Json<Value>, ApiError> {
    let mut out = serde_json::Map::new();
    for status in [Status::Created, Status::Started, Status::Finished] {
        let records = tournaments.list(status, 200).await?;
        let entries: Vec<Value> = records
            .iter()
            .filter(|r| r.is_arena())
            .take(50)
            .map(summary)
            .collect();
        out.insert(status.name().to_string(), Value::Array(entries));
    }
    Ok(Json(Value::Object(out)))
}

/// An arena in a list.
fn summary(r: &Record) -> Value {
    let period = r.spec.time_control.periods.first();
    let minutes = u64::from(r.spec.minutes.unwrap_or(0));
    let starts_at = r.spec.starts_at;
    let finishes_at = r.arena_ends_at().unwrap_or(starts_at + minutes * 60_000);
    let mut value = json!({
        "id": r.id,
        "createdBy": r.created_by.1,
        "system": "arena",
        "minutes": minutes,
        "clock": {
            "limit": period.map_or(0, |p| p.base_ms / 1000),
            "increment": period.map_or(0, |p| p.increment_ms / 1000),
        },
        "rated": r.spec.rated,
        "fullName": r.spec.name,
        "nbPlayers": r.entrants.len(),
        "variant": { "key": "standard", "short": "Std", "name": "Standard" },
        "startsAt": starts_at,
        "finishesAt": finishes_at,
        "status": match r.status { Status::Created => 10, Status::Started => 20, Status::Finished => 30 },
        "perf": { "key": r.spec.time_control.speed().name() },
    });
    if r.status == Status::Created {
        value["secondsToStart"] = json!(starts_at.saturating_sub(now_ms()) / 1000);
    }
    if r.status == Status::Finished {
        if let Some(first) = r.arena_standings().first() {
            value["winner"] =
                json!({ "name": first.entrant.name, "id": first.entrant.name.to_lowercase() });
        }
    }
    value
}

/// The arena routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(show))
        .routes(routes!(join))
        .routes(routes!(withdraw))
        .routes(routes!(terminate))
        .routes(routes!(results))
        .routes(routes!(games))
}
