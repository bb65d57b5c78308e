//! Swiss and round-robin tournaments over the API, in lichess's Swiss shapes
//! (`/api/swiss/...`, `/swiss/{id}.trf`); a round robin is the same resource with
//! `system=roundRobin` or `doubleRoundRobin`. Beyond lichess: the ruleset, any
//! clock the challenge fields take, entry conditions by account age, arbiters,
//! tiebreaks, half-point byes and the standings with their tiebreaks.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_arbiter::Ruleset;
use caissa_tournament::tiebreak::Tiebreak;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::tournament::{Conditions, Record, Spec, Status, System};
use crate::http::error::ApiError;
use crate::http::fields::Fields;
use crate::http::limits::{Kind, RateLimits};
use crate::live::view::now_ms;
use crate::routes::docs::{ok, ErrorBody, OkBody};
use crate::routes::games::{accepts, site_of};
use crate::routes::session::Authed;
use crate::routes::streams::ndjson;
use crate::routes::terms::{self, named_ruleset, DelayType};
use crate::routes::tournament_json::{featured_json, standings_json, tournament_json};
use crate::services::accounts::{is_guest, Accounts};
use crate::services::exports::Exports;
use crate::services::games::Games;
use crate::services::tournaments::{hash_entry_password, Tournaments};
use crate::state::AppState;

/// The fields of a new tournament.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct TournamentForm {
    /// Its name (2 to 80 characters; default: the clock and "Swiss").
    pub name: Option<String>,
    /// Initial time, s.
    #[serde(rename = "clock.limit")]
    pub clock_limit: Option<u64>,
    /// Increment, s.
    #[serde(rename = "clock.increment")]
    pub clock_increment: Option<u64>,
    /// Instead of the two above: the PGN `TimeControl` syntax, periods included.
    #[serde(rename = "timeControl")]
    pub time_control: Option<String>,
    /// The seed's per-move limit, s.
    #[serde(rename = "clock.perMove")]
    pub clock_per_move: Option<u64>,
    /// A delay per move, s.
    #[serde(rename = "clock.delay")]
    pub clock_delay: Option<u64>,
    /// `simple` (default) or `bronstein`.
    #[serde(rename = "clock.delayType")]
    pub clock_delay_type: Option<DelayType>,
    /// `swiss` (default), `roundRobin` or `doubleRoundRobin`.
    #[schema(value_type = Option<String>)]
    pub system: Option<System>,
    /// Rounds of a Swiss, 1 to 100 (a round robin's come from its players).
    #[serde(rename = "nbRounds")]
    pub nb_rounds: Option<u32>,
    /// When round 1 starts, ms since the epoch (default: in 5 minutes).
    #[serde(rename = "startsAt")]
    pub starts_at: Option<u64>,
    /// Seconds between one round's end and the next round's start, 0 to 604800
    /// (default 10).
    #[serde(rename = "roundInterval")]
    pub round_interval: Option<u64>,
    /// Whether the games are rated (default true).
    pub rated: Option<bool>,
    /// The rules of every game (default `online`).
    #[schema(value_type = Option<String>)]
    #[serde(default, deserialize_with = "named_ruleset")]
    pub ruleset: Option<Ruleset>,
    /// Only `standard`.
    pub variant: Option<String>,
    /// Shown on the tournament's page.
    pub description: Option<String>,
    /// Players must give it to join.
    pub password: Option<String>,
    /// Lowest rating at the tournament's speed.
    #[serde(rename = "conditions.minRating.rating")]
    pub min_rating: Option<u32>,
    /// Highest rating at the tournament's speed.
    #[serde(rename = "conditions.maxRating.rating")]
    pub max_rating: Option<u32>,
    /// Fewest rated games at the tournament's speed.
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
    /// Arbiters, by name, separated by commas: the arbiter's seat over every game.
    pub arbiters: Option<String>,
    /// Tiebreaks, FIDE codes separated by commas (`BH-C1,BH,SB`; default by system).
    pub tiebreaks: Option<String>,
}

/// A clock as players name it: minutes and increment ("5+3") for one period of
/// whole minutes and seconds, else the PGN syntax.
pub(crate) fn clock_name(time_control: &caissa_arbiter::TimeControl) -> String {
    match time_control.periods.as_slice() {
        [p] if p.moves.is_none()
            && p.base_ms % 60_000 == 0
            && p.increment_ms % 1000 == 0
            && p.delay == Default::default() =>
        {
            format!("{}+{}", p.base_ms / 60_000, p.increment_ms / 1000)
        }
        _ => time_control.to_string(),
    }
}

/// The longest round interval, s (a week).
const MAX_INTERVAL_S: u64 = 604_800;

pub(crate) fn names(list: Option<&str>) -> Vec<&str> {
    list.unwrap_or_default()
        .split([',', ' '])
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect()
}

pub(crate) async fn user_ids(
    accounts: &Accounts,
    field: &str,
    list: Option<&str>,
) -> Result<Vec<i64>, ApiError> {
    let mut ids = Vec::new();
    for name in names(list) {
        let user = accounts
            .by_name(name)
            .await?
            .ok_or_else(|| ApiError::BadRequest(format!("{field}: no user named {name:?}")))?;
        if !ids.contains(&user.id) {
            ids.push(user.id);
        }
    }
    Ok(ids)
}

/// The terms of a new tournament, each field checked.
async fn spec_of(accounts: &Accounts, f: TournamentForm) -> Result<Spec, ApiError> {
    if f.variant.as_deref().is_some_and(|v| v != "standard") {
        return Err(ApiError::BadRequest(
            "variant: tournaments are played in standard chess only".into(),
        ));
    }
    let clock_form = terms::ChallengeForm {
        clock_limit: f.clock_limit,
        clock_increment: f.clock_increment,
        time_control: f.time_control.clone(),
        ..terms::ChallengeForm::default()
    };
    if f.clock_limit.is_none() && f.time_control.is_none() {
        return Err(ApiError::BadRequest(
            "clock.limit: a tournament needs a clock (clock.limit and clock.increment, or timeControl)".into(),
        ));
    }
    let time_control = terms::challenge_clock(&clock_form)?;
    let time_control = terms::clock_extras(
        time_control,
        f.clock_per_move,
        f.clock_delay,
        f.clock_delay_type,
    )?;
    let system = f.system.unwrap_or(System::Swiss);
    if system == System::Arena {
        return Err(ApiError::BadRequest(
            "system: an arena is created with POST /api/tournament".into(),
        ));
    }
    let rounds = match (system, f.nb_rounds) {
        (System::Swiss, None) => {
            return Err(ApiError::BadRequest(
                "nbRounds: say how many rounds (1 to 100)".into(),
            ))
        }
        (System::Swiss, Some(n)) if !(1..=100).contains(&n) => {
            return Err(ApiError::BadRequest(format!(
                "nbRounds: {n} is not between 1 and 100"
            )))
        }
        (System::Swiss, Some(n)) => Some(n),
        (_, Some(_)) => {
            return Err(ApiError::BadRequest(
                "nbRounds: a round robin's rounds come from its number of players".into(),
            ))
        }
        (_, None) => None,
    };
    let interval = f.round_interval.unwrap_or(10);
    if interval > MAX_INTERVAL_S {
        return Err(ApiError::BadRequest(format!(
            "roundInterval: {interval} is not between 0 and {MAX_INTERVAL_S} seconds"
        )));
    }
    let name = match f.name.as_deref().map(str::trim) {
        Some(name) if !(2..=80).contains(&name.chars().count()) => {
            return Err(ApiError::BadRequest("name: 2 to 80 characters".into()))
        }
        Some(name) => name.to_string(),
        None => format!(
            "{} {}",
            clock_name(&time_control),
            if system.is_round_robin() {
                "Round Robin"
            } else {
                "Swiss"
            }
        ),
    };
    let tiebreaks = match f.tiebreaks.as_deref() {
        None => system.default_tiebreaks(),
        Some(text) => names(Some(text))
            .into_iter()
            .map(|code| {
                code.parse::<Tiebreak>()
                    .map_err(|e| ApiError::BadRequest(format!("tiebreaks: {e}")))
            })
            .collect::<Result<_, _>>()?,
    };
    let description = f.description.unwrap_or_default();
    if description.chars().count() > 2000 {
        return Err(ApiError::BadRequest(
            "description: at most 2000 characters".into(),
        ));
    }
    let rated = f.rated.unwrap_or(true);
    Ok(Spec {
        name,
        description,
        system,
        rounds,
        time_control,
        ruleset: f.ruleset.unwrap_or(Ruleset::Online),
        rated,
        starts_at: f.starts_at.unwrap_or_else(|| now_ms() + 300_000),
        round_interval_ms: interval * 1000,
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
        tiebreaks,
        minutes: None,
        berserkable: false,
        streakable: false,
    })
}

/// Entry conditions: `limits` as given, the invitation list by name checked, the
/// password kept as its hash.
pub(crate) async fn conditions(
    accounts: &Accounts,
    limits: Conditions,
    allow_list: Option<&str>,
    password: Option<&str>,
) -> Result<Conditions, ApiError> {
    if let (Some(min), Some(max)) = (limits.min_rating, limits.max_rating) {
        if min > max {
            return Err(ApiError::BadRequest(format!(
                "conditions.minRating.rating: {min} is over the maximum {max}"
            )));
        }
    }
    Ok(Conditions {
        invited: user_ids(accounts, "conditions.allowList", allow_list).await?,
        password_sha256: password.filter(|p| !p.is_empty()).map(hash_entry_password),
        ..limits
    })
}

/// A tournament as the API returns it: found, or 404.
pub(crate) async fn found(tournaments: &Tournaments, id: &str) -> Result<Record, ApiError> {
    tournaments.get(id).await
}

/// Creates a tournament (lichess's `/api/swiss/new/{teamId}`; teams are not
/// needed here, and `/api/swiss/new` does the same).
#[utoipa::path(post, path = "/api/swiss/new/{team}", tag = "tournaments",
    params(("team" = String, Path, description = "Ignored (lichess's team)")),
    request_body(content((TournamentForm = "application/x-www-form-urlencoded"), (TournamentForm = "application/json"))),
    responses(
        (status = 200, description = "The tournament, as `GET /api/swiss/{id}` gives it", body = Object),
        (status = 400, description = "A field missing or wrong, named", body = ErrorBody),
        (status = 403, description = "Guests cannot organise", body = ErrorBody)))]
async fn create_in_team(
    State(tournaments): State<Arc<Tournaments>>,
    State(accounts): State<Arc<Accounts>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(_team): Path<String>,
    Fields(form): Fields<TournamentForm>,
) -> Result<Json<Value>, ApiError> {
    create_with(&tournaments, &accounts, &limits, user, form).await
}

/// Creates a tournament.
#[utoipa::path(post, path = "/api/swiss/new", tag = "tournaments",
    request_body(content((TournamentForm = "application/x-www-form-urlencoded"), (TournamentForm = "application/json"))),
    responses(
        (status = 200, description = "The tournament, as `GET /api/swiss/{id}` gives it", body = Object),
        (status = 400, description = "A field missing or wrong, named", body = ErrorBody),
        (status = 403, description = "Guests cannot organise", body = ErrorBody)))]
async fn create(
    State(tournaments): State<Arc<Tournaments>>,
    State(accounts): State<Arc<Accounts>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Fields(form): Fields<TournamentForm>,
) -> Result<Json<Value>, ApiError> {
    create_with(&tournaments, &accounts, &limits, user, form).await
}

async fn create_with(
    tournaments: &Tournaments,
    accounts: &Accounts,
    limits: &RateLimits,
    user: caissa_store::User,
    form: TournamentForm,
) -> Result<Json<Value>, ApiError> {
    organiser(&user)?;
    let spec = spec_of(accounts, form).await?;
    Ok(Json(tournament_json(
        &organise(tournaments, limits, &user, spec).await?,
    )))
}

/// Guests cannot organise.
pub(crate) fn organiser(user: &caissa_store::User) -> Result<(), ApiError> {
    if is_guest(user) {
        return Err(ApiError::Forbidden(
            "guests cannot organise tournaments; register first".into(),
        ));
    }
    Ok(())
}

/// Creates a tournament on checked terms.
pub(crate) async fn organise(
    tournaments: &Tournaments,
    limits: &RateLimits,
    user: &caissa_store::User,
    spec: Spec,
) -> Result<Record, ApiError> {
    organiser(user)?;
    if spec.rated && spec.time_control.is_unlimited() {
        return Err(ApiError::BadRequest(
            "a tournament without a clock cannot be rated".into(),
        ));
    }
    limits.take(user.id, Kind::Seek)?;
    tournaments.create(user, spec).await
}

/// A tournament.
#[utoipa::path(get, path = "/api/swiss/{id}", tag = "tournaments", security(()),
    params(("id" = String, Path, description = "The tournament")),
    responses(
        (status = 200, description = "`{id, createdBy, startsAt, name, clock, variant, round, nbRounds, nbPlayers, nbOngoing, status, rated, nextRound?, system, timeControl, ruleset, featured?, ...}`; `featured`: the top board being played, as lichess's arena gives it", body = Object),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn show(
    State(tournaments): State<Arc<Tournaments>>,
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let record = found(&tournaments, &id).await?;
    let mut value = tournament_json(&record);
    if let Some(top) = featured(&games, &record).await {
        value["featured"] = top;
    }
    Ok(Json(value))
}

/// The top board being played (`featured`, as lichess's arena shows it), if any.
pub(crate) async fn featured(games: &Games, record: &Record) -> Option<Value> {
    let board = record.top_board()?;
    let view = games.live(&board.game_id)?.view_now().await;
    Some(featured_json(record, &view))
}

/// The fields of joining.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct JoinForm {
    /// The password of a private tournament.
    pub password: Option<String>,
}

/// Joins a tournament (before its start, or a Swiss before its last round).
#[utoipa::path(post, path = "/api/swiss/{id}/join", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament")),
    request_body(content((JoinForm = "application/x-www-form-urlencoded"), (JoinForm = "application/json"))),
    responses(
        (status = 200, description = "Joined", body = OkBody),
        (status = 400, description = "It cannot be joined now (why)", body = ErrorBody),
        (status = 403, description = "A condition is not met, or the password is wrong (which)", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn join(
    State(tournaments): State<Arc<Tournaments>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    Fields(form): Fields<JoinForm>,
) -> Result<Json<Value>, ApiError> {
    enter(&tournaments, &user, &id, form.password.as_deref()).await
}

/// `user` enters the tournament `id` (guests cannot).
pub(crate) async fn enter(
    tournaments: &Tournaments,
    user: &caissa_store::User,
    id: &str,
    password: Option<&str>,
) -> Result<Json<Value>, ApiError> {
    if is_guest(user) {
        return Err(ApiError::Forbidden(
            "guests cannot play in tournaments; register first".into(),
        ));
    }
    tournaments.join(user, id, password).await?;
    Ok(ok())
}

/// Withdraws from a tournament: before the start the entry goes; after it the
/// player is paired no more (a game being played goes on).
#[utoipa::path(post, path = "/api/swiss/{id}/withdraw", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament")),
    responses(
        (status = 200, description = "Withdrawn", body = OkBody),
        (status = 400, description = "Not joined, or over", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn withdraw(
    State(tournaments): State<Arc<Tournaments>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    tournaments.withdraw(&user, &id).await?;
    Ok(ok())
}

/// The fields of asking for a bye.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ByeForm {
    /// The round (one not paired yet).
    pub round: Option<u32>,
}

/// Asks for a half-point bye in a coming round of a Swiss.
#[utoipa::path(post, path = "/api/swiss/{id}/bye", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament")),
    request_body(content((ByeForm = "application/x-www-form-urlencoded"), (ByeForm = "application/json"))),
    responses(
        (status = 200, description = "Granted", body = OkBody),
        (status = 400, description = "Not that round (why), not joined, or a round robin", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn bye(
    State(tournaments): State<Arc<Tournaments>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    Fields(form): Fields<ByeForm>,
) -> Result<Json<Value>, ApiError> {
    let round = form
        .round
        .ok_or_else(|| ApiError::BadRequest("round: say which round".into()))?;
    tournaments.ask_bye(&user, &id, round).await?;
    Ok(ok())
}

/// The fields of scheduling.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ScheduleForm {
    /// When, ms since the epoch.
    pub date: Option<u64>,
}

/// The organiser sets when the tournament starts or, between rounds, when the
/// next round does (`date` now or in the past: at once).
#[utoipa::path(post, path = "/api/swiss/{id}/schedule-next-round", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament")),
    request_body(content((ScheduleForm = "application/x-www-form-urlencoded"), (ScheduleForm = "application/json"))),
    responses(
        (status = 200, description = "Scheduled", body = OkBody),
        (status = 400, description = "No date, a round being played, or over", body = ErrorBody),
        (status = 403, description = "Not the organiser", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn schedule(
    State(tournaments): State<Arc<Tournaments>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    Fields(form): Fields<ScheduleForm>,
) -> Result<Json<Value>, ApiError> {
    let at = form
        .date
        .ok_or_else(|| ApiError::BadRequest("date: say when, ms since the epoch".into()))?;
    tournaments.schedule(&user, &id, at).await?;
    Ok(ok())
}

/// The organiser ends the tournament now.
#[utoipa::path(post, path = "/api/swiss/{id}/terminate", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament")),
    responses(
        (status = 200, description = "Ended", body = OkBody),
        (status = 403, description = "Not the organiser", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn terminate(
    State(tournaments): State<Arc<Tournaments>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    tournaments.terminate(&user, &id).await?;
    Ok(ok())
}

/// How many lines of results to give.
#[derive(Debug, Deserialize, IntoParams)]
pub struct ResultsQuery {
    /// At most this many players.
    pub nb: Option<usize>,
}

/// The standings as lichess streams a Swiss's results: one NDJSON line per
/// player, best first: `{rank, points, tieBreak, rating, username, performance?}`.
#[utoipa::path(get, path = "/api/swiss/{id}/results", tag = "tournaments", security(()),
    params(("id" = String, Path, description = "The tournament"), ResultsQuery),
    responses(
        (status = 200, description = "NDJSON lines", content_type = "application/x-ndjson"),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn results(
    State(tournaments): State<Arc<Tournaments>>,
    Path(id): Path<String>,
    Query(q): Query<ResultsQuery>,
) -> Result<Response, ApiError> {
    let record = found(&tournaments, &id).await?;
    let mut body = String::new();
    for s in record
        .standings()
        .into_iter()
        .take(q.nb.unwrap_or(usize::MAX))
    {
        let entrant = record.by_rank(s.start_rank);
        let tie_break = s.tiebreaks.first().map_or(0.0, |(_, v)| v.as_f64());
        let mut line = json!({
            "rank": s.rank,
            "points": s.points.value(),
            "tieBreak": if tie_break.is_nan() { 0.0 } else { tie_break },
            "rating": entrant.map_or(0, |e| e.rating),
            "username": s.name,
        });
        if entrant.is_some_and(|e| e.withdrawn) {
            line["absent"] = json!(true);
        }
        body.push_str(&line.to_string());
        body.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// Standings with every tiebreak, the rounds' pairings and results, and the
/// crosstable (TRF codes per round).
#[utoipa::path(get, path = "/api/swiss/{id}/standings", tag = "tournaments", security(()),
    params(("id" = String, Path, description = "The tournament")),
    responses(
        (status = 200, description = "`{standings: [{rank, startRank, username, rating, points, withdrawn, tiebreaks: [{code, value}]}], rounds: [{round, boards: [{board, white, black, gameId, result}], bye}], crosstable}`", body = Object),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn standings(
    State(tournaments): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(standings_json(&found(&tournaments, &id).await?)))
}

/// The tournament's games, as PGN (or NDJSON with `Accept: application/x-ndjson`),
/// round by round.
#[utoipa::path(get, path = "/api/swiss/{id}/games", tag = "tournaments", security(()),
    params(("id" = String, Path, description = "The tournament")),
    responses(
        (status = 200, description = "PGN games, or NDJSON", content_type = "application/x-chess-pgn"),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn games(
    State(tournaments): State<Arc<Tournaments>>,
    State(exports): State<Arc<Exports>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    games_of(&found(&tournaments, &id).await?, &exports, &headers).await
}

/// A tournament's games, PGN or NDJSON as `headers` accept, in the order they
/// were paired.
pub(crate) async fn games_of(
    record: &Record,
    exports: &Exports,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let ndjson = accepts(headers, "application/x-ndjson");
    let site = site_of(headers);
    let mut body = String::new();
    for board in record.rounds.iter().flat_map(|r| r.boards.iter()) {
        let view = match exports.game(&board.game_id, &site).await {
            Ok(view) => view,
            // A forfeit decided without a game.
            Err(ApiError::NotFound(_)) => continue,
            Err(e) => return Err(e),
        };
        if ndjson {
            body.push_str(&crate::protocol::lichess::game_json(&view).to_string());
        } else {
            body.push_str(view.pgn.as_deref().unwrap_or_default());
        }
        body.push('\n');
    }
    let kind = if ndjson {
        "application/x-ndjson"
    } else {
        "application/x-chess-pgn"
    };
    Ok(([(header::CONTENT_TYPE, kind)], body).into_response())
}

/// The tournament as a TRF16 file, for a rating report (lichess's `/swiss/{id}.trf`).
#[utoipa::path(get, path = "/swiss/{file}", tag = "tournaments", security(()),
    params(("file" = String, Path, description = "The tournament's id and `.trf`")),
    responses(
        (status = 200, description = "TRF16", content_type = "text/plain"),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn trf_file(
    State(tournaments): State<Arc<Tournaments>>,
    Path(file): Path<String>,
) -> Result<Response, ApiError> {
    let id = file
        .strip_suffix(".trf")
        .ok_or_else(|| ApiError::NotFound(format!("/swiss/{file}: only {file}.trf is here")))?;
    let record = found(&tournaments, id).await?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        record.trf(),
    )
        .into_response())
}

/// How often a tournament's stream says it is still there.
const STREAM_KEEPALIVE: std::time::Duration = std::time::Duration::from_secs(6);

/// A tournament as it changes, for its page: a line `{tournament, standings}`
/// (as `GET /api/swiss/{id}` and `/standings` give them) now and after every
/// change (a player joining, a pairing, a result), an empty line every 6 s;
/// it ends after the line that says the tournament is finished.
#[utoipa::path(get, path = "/api/swiss/{id}/stream", tag = "tournaments", security(()),
    params(("id" = String, Path, description = "The tournament")),
    responses(
        (status = 200, description = "NDJSON lines", content_type = "application/x-ndjson"),
        (status = 404, description = "No such tournament", body = ErrorBody)))]
async fn stream(
    State(tournaments): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let follow = tournaments.follow(&id);
    let first = found(&tournaments, &id).await?;
    let line = |r: &Record| {
        Bytes::from(format!(
            "{}\n",
            json!({ "tournament": tournament_json(r), "standings": standings_json(r) })
        ))
    };
    let first_line = line(&first);
    let Some(rx) = follow.filter(|_| first.status != Status::Finished) else {
        return Ok(ndjson(futures_util::stream::iter([first_line])));
    };
    let tick = tokio::time::interval_at(
        tokio::time::Instant::now() + STREAM_KEEPALIVE,
        STREAM_KEEPALIVE,
    );
    // (receiver, keep-alive, the service, whether the last line said finished)
    let state = (rx, tick, Arc::downgrade(&tournaments), id, false);
    let rest = futures_util::stream::unfold(
        state,
        move |(mut rx, mut tick, service, id, over)| async move {
            if over {
                return None;
            }
            tokio::select! {
                changed = rx.changed() => {
                    // The director is gone (the tournament ended or the server stops):
                    // one last look.
                    let gone = changed.is_err();
                    let record = service.upgrade()?.get(&id).await.ok()?;
                    let over = gone || record.status == Status::Finished;
                    Some((line(&record), (rx, tick, service, id, over)))
                }
                _ = tick.tick() => Some((Bytes::from_static(b"\n"), (rx, tick, service, id, over))),
            }
        },
    );
    use futures_util::StreamExt;
    Ok(ndjson(futures_util::stream::iter([first_line]).chain(rest)))
}

/// Which tournaments to list.
#[derive(Debug, Deserialize, IntoParams)]
pub struct ListQuery {
    /// At most this many of each status (default 50).
    pub nb: Option<usize>,
}

/// Tournaments: upcoming (next first), being played, and the last finished.
#[utoipa::path(get, path = "/api/swiss", tag = "tournaments", security(()),
    params(ListQuery),
    responses((status = 200, description = "`{created: [...], started: [...], finished: [...]}`, each as `GET /api/swiss/{id}` (arenas too, with `system: arena`)", body = Object)))]
async fn list(
    State(tournaments): State<Arc<Tournaments>>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let nb = q.nb.unwrap_or(50).min(200);
    let mut out = serde_json::Map::new();
    for status in [Status::Created, Status::Started, Status::Finished] {
        let records = tournaments.list(status, nb).await?;
        out.insert(
            status.name().to_string(),
            Value::Array(records.iter().map(tournament_json).collect()),
        );
    }
    Ok(Json(Value::Object(out)))
}

/// The tournaments' routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(create_in_team))
        .routes(routes!(show))
        .routes(routes!(join))
        .routes(routes!(withdraw))
        .routes(routes!(bye))
        .routes(routes!(schedule))
        .routes(routes!(terminate))
        .routes(routes!(results))
        .routes(routes!(standings))
        .routes(routes!(games))
        .routes(routes!(trf_file))
        .routes(routes!(stream))
        .routes(routes!(list))
}

#[cfg(test)]
mod tests {
    use caissa_arbiter::TimeControl;

    #[test]
    fn a_default_name_gives_the_clock_in_minutes_as_players_say_it() {
        let name = |pgn: &str| super::clock_name(&TimeControl::parse(pgn).unwrap());
        assert_eq!(name("300+3"), "5+3");
        assert_eq!(name("5400+30"), "90+30");
        // Not whole minutes, or several periods: the PGN syntax says it exactly.
        assert_eq!(name("90+0"), "90");
        assert_eq!(name("40/5400+30:1800+30"), "40/5400+30:1800+30");
    }
}
