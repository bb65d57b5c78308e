//! HTTP handlers: the lichess Board API subset, accounts, challenges, export.

use caissa_store::{GameFilter, User};
use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use caissa_arbiter::{Action, GameSetup, Ruleset, TimeControl};
use caissa_rules::Color;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio_stream::wrappers::UnboundedReceiverStream;

use crate::auth::Authed;
use crate::error::ApiError;
use crate::live::{now_ms, Player, View};
use crate::{lichess, new_id, AppState, Challenge, LiveOrStored};

/// The whole API.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/api/account", get(account))
        .route("/api/account/playing", get(crate::lookups::playing))
        .route("/api/challenge", get(crate::lookups::challenges))
        .route("/api/users/status", get(crate::lookups::users_status))
        .route(
            "/api/user/{username}/current-game",
            get(crate::lookups::current_game),
        )
        .route("/api/games/export/_ids", post(crate::lookups::export_ids))
        .route("/api/tv/channels", get(crate::lookups::tv_channels))
        .route("/api/register", post(crate::accounts::register))
        .route("/api/login", post(crate::accounts::login))
        .route("/api/guest", post(crate::accounts::guest))
        .route("/api/logout", post(crate::accounts::logout))
        .route("/api/user/{username}", get(crate::ratings::profile))
        .route(
            "/api/user/{username}/rating-history",
            get(crate::ratings::history),
        )
        .route(
            "/api/token",
            post(crate::tokens::create)
                .get(crate::tokens::list)
                .delete(crate::tokens::revoke_this),
        )
        .route("/api/token/test", post(crate::tokens::test))
        .route("/api/token/{id}", delete(crate::tokens::revoke_one))
        .route("/api/stream/event", get(event_stream))
        .route("/api/board/seek", post(seek))
        .route("/api/pools", get(pools))
        .route("/api/challenge/open", post(open_challenge))
        .route("/api/challenge/{username}", post(create_challenge))
        .route("/api/challenge/{id}/show", get(show_challenge))
        .route("/challenge/{id}", get(page))
        .route("/api/challenge/{id}/accept", post(accept_challenge))
        .route("/api/challenge/{id}/decline", post(decline_challenge))
        .route("/api/challenge/{id}/cancel", post(cancel_challenge))
        .route("/api/board/game/stream/{id}", get(game_stream))
        .route("/api/stream/game/{id}", get(watch_game))
        // GET upgrades over HTTP/1.1, CONNECT over HTTP/2 (RFC 8441).
        .route(
            "/api/socket/game/{id}",
            get(game_socket).connect(game_socket),
        )
        .route("/api/games/live", get(live_games))
        .route("/api/tv", get(tv))
        .route("/api/challenge/ai", post(challenge_computer))
        .route("/api/board/game/{id}/move/{mv}", post(make_move))
        .route("/api/board/game/{id}/resign", post(resign))
        .route("/api/board/game/{id}/abort", post(abort))
        .route("/api/board/game/{id}/draw/{accept}", post(draw))
        .route("/api/board/game/{id}/claim-victory", post(claim_victory))
        .route("/api/board/game/{id}/claim-draw", post(claim_draw))
        .route(
            "/api/board/game/{id}/chat",
            get(crate::chat::get).post(crate::chat::post),
        )
        .route(
            "/api/board/game/{id}/takeback/{accept}",
            post(crate::rematch::takeback),
        )
        .route(
            "/api/board/game/{id}/rematch/{accept}",
            post(crate::rematch::rematch),
        )
        .route("/api/lobby/seeks", get(crate::lobby::seeks))
        .route("/api/cloud-eval", get(crate::analysis::cloud_eval))
        .route("/api/lobby/seeks/{id}/accept", post(crate::lobby::accept))
        .route("/game/export/{id}", get(export))
        .route("/api/games/user/{username}", get(user_games))
        .route("/metrics", get(metrics))
        .route("/api/openapi.json", get(openapi))
        .route("/static/{*path}", get(static_file))
        .route("/", get(page))
        .route("/game/{id}", get(page))
        .route("/game/{id}/{color}", get(page))
        .route("/@/{username}", get(page))
        .route("/tv", get(page))
        .route("/watch", get(page))
        .route("/analysis", get(page))
        .route("/login", get(page))
        .route("/register", get(page))
        .route("/settings", get(page))
        .fallback(crate::edges::not_found)
        .method_not_allowed_fallback(crate::edges::method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(64 * 1024))
        .layer(axum::middleware::from_fn(crate::edges::json_errors))
        .with_state(state)
}

fn ok() -> Json<Value> {
    Json(json!({ "ok": true }))
}

fn ndjson(rx: mpsc::UnboundedReceiver<String>) -> Response {
    let stream = UnboundedReceiverStream::new(rx).map(Ok::<_, Infallible>);
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response()
}

/// `GET /api/account`; for a browser session also its CSRF token, so a reloaded page
/// can act again (other sites cannot read this answer).
async fn account(
    State(state): State<AppState>,
    Authed(user): Authed,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let mut account = json!({
        "id": user.name.to_lowercase(),
        "username": user.name,
        "createdAt": user.created_at,
        "perfs": crate::ratings::perfs_of(&state, user.id).await?,
        "title": null,
    });
    if headers.get(header::AUTHORIZATION).is_none() {
        if let Some(session) = crate::auth::cookie(&headers, crate::auth::SESSION_COOKIE) {
            if let Some((_, csrf)) = state
                .store
                .session(&crate::auth::token_hash(session))
                .await?
            {
                account["csrf"] = json!(csrf);
            }
        }
    }
    Ok(Json(account))
}

/// Reads a form or JSON body into flat string fields.
pub(crate) fn fields(
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<HashMap<String, String>, ApiError> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if body.is_empty() {
        return Ok(HashMap::new());
    }
    if is_json {
        let value: HashMap<String, Value> = serde_json::from_slice(body)
            .map_err(|e| ApiError::BadRequest(format!("invalid JSON body: {e}")))?;
        Ok(value
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| {
                let text = v.as_str().map(str::to_string);
                (k, text.unwrap_or_else(|| v.to_string()))
            })
            .collect())
    } else {
        let text = std::str::from_utf8(body)
            .map_err(|_| ApiError::BadRequest("the body is not UTF-8".into()))?;
        Ok(text
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(k), decode(v))
            })
            .collect())
    }
}

/// Percent-decoding of a form field (`+` is a space).
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'+', _) => out.push(b' '),
            (b'%', Some(b)) => {
                out.push(b);
                i += 2;
            }
            (b, _) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn number(fields: &HashMap<String, String>, name: &str) -> Result<Option<u64>, ApiError> {
    match fields.get(name) {
        None => Ok(None),
        Some(v) => v
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0 && *n <= 1e7)
            .map(|n| Some(n as u64))
            .ok_or_else(|| ApiError::BadRequest(format!("{name}: {v:?} is not a valid number"))),
    }
}

/// The optional extras of a game's terms: the seed's per-move limit
/// (`clock.perMove`, seconds: its "fast" and "match" modes), a delay
/// (`clock.delay` seconds, `clock.delayType` simple or bronstein) and the ruleset
/// (`ruleset`, default `online`).
fn game_terms(
    f: &HashMap<String, String>,
    mut tc: TimeControl,
) -> Result<(TimeControl, Ruleset), ApiError> {
    if let Some(per_move) = number(f, "clock.perMove")? {
        if per_move == 0 || per_move > MAX_LIMIT_S || tc.periods.is_empty() {
            return Err(ApiError::BadRequest(format!(
                "clock.perMove needs a clock and 1-{MAX_LIMIT_S} s, not {per_move}"
            )));
        }
        tc.per_move_ms = Some(per_move * 1000);
    }
    if let Some(delay) = number(f, "clock.delay")? {
        if delay > MAX_INCREMENT_S {
            return Err(ApiError::BadRequest(format!(
                "clock.delay must be 0-{MAX_INCREMENT_S} s, not {delay}"
            )));
        }
        let ms = delay * 1000;
        let kind = match f.get("clock.delayType").map(String::as_str) {
            None | Some("simple") => caissa_arbiter::Delay::Simple(ms),
            Some("bronstein") => caissa_arbiter::Delay::Bronstein(ms),
            Some(other) => {
                return Err(ApiError::BadRequest(format!(
                    "clock.delayType: {other:?} must be simple or bronstein"
                )))
            }
        };
        match tc.periods.first_mut() {
            Some(period) => period.delay = kind,
            None => return Err(ApiError::BadRequest("clock.delay needs a clock".into())),
        }
    }
    let ruleset = match f.get("ruleset") {
        None => Ruleset::Online,
        Some(name) => name
            .parse::<Ruleset>()
            .map_err(|e| ApiError::BadRequest(e.to_string()))?,
    };
    Ok((tc, ruleset))
}

fn flag(fields: &HashMap<String, String>, name: &str) -> Result<bool, ApiError> {
    match fields.get(name).map(|v| v.to_ascii_lowercase()).as_deref() {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(ApiError::BadRequest(format!(
            "{name}: {other:?} must be true or false"
        ))),
    }
}

pub(crate) fn challenge_json(c: &Challenge, direction: &str) -> Value {
    let tc = &c.time_control;
    let time_control = match tc.periods.first() {
        Some(p) => {
            let (limit, increment) = (p.base_ms / 1000, p.increment_ms / 1000);
            json!({ "type": "clock", "limit": limit, "increment": increment, "show": clock_show(limit, increment) })
        }
        None => json!({ "type": "unlimited" }),
    };
    json!({
        "id": c.id,
        "url": format!("/{}", c.id),
        "status": "created",
        "challenger": { "id": c.challenger.name.to_lowercase(), "name": c.challenger.name },
        "destUser": c.dest.as_ref().map(|d| json!({ "id": d.name.to_lowercase(), "name": d.name })),
        "variant": lichess::variant(c.fen.is_some(), c.chess960),
        "initialFen": c.fen.as_deref().unwrap_or("startpos"),
        "rated": c.rated,
        "speed": lichess::speed(tc),
        "timeControl": time_control,
        "color": c.color,
        "finalColor": c.final_color.name(),
        "perf": { "name": lichess::speed(tc) },
        "direction": direction,
        "ruleset": c.ruleset.name(),
        "rematchOf": c.rematch_of,
    })
}

/// A clock as lichess shows it: minutes and increment, `3+2`, `½+0`, `1.5+0`.
fn clock_show(limit_s: u64, increment_s: u64) -> String {
    let minutes = match limit_s {
        15 => "¼".to_string(),
        30 => "½".to_string(),
        45 => "¾".to_string(),
        s if s % 60 == 0 => (s / 60).to_string(),
        s => format!("{}", s as f64 / 60.0),
    };
    format!("{minutes}+{increment_s}")
}

/// A challenge that was answered, as its event says it: `declined` or `canceled`.
pub(crate) fn answered_json(c: &Challenge, direction: &str, status: &str) -> Value {
    let mut challenge = challenge_json(c, direction);
    challenge["status"] = json!(status);
    challenge
}

/// Why a challenge was declined, for each of lichess's reason keys.
fn decline_reason(key: &str) -> &'static str {
    match key {
        "later" => "Not now; please ask again later.",
        "tooFast" => "This clock is too fast for me; please offer a slower one.",
        "tooSlow" => "This clock is too slow for me; please offer a faster one.",
        "timeControl" => "I am not taking challenges with this clock.",
        "rated" => "Please send a rated challenge instead.",
        "casual" => "Please send a casual challenge instead.",
        "standard" => "I am not taking variant challenges now.",
        "variant" => "I do not want to play this variant now.",
        "noBot" => "I am not taking challenges from bots.",
        "onlyBot" => "I am only taking challenges from bots.",
        _ => "I am not taking challenges now.",
    }
}

/// Tells the challenger that a challenge was declined, and why.
pub(crate) fn declined(state: &AppState, c: &Challenge, reason: &str) {
    let mut challenge = answered_json(c, "out", "declined");
    challenge["declineReasonKey"] = json!(reason);
    challenge["declineReason"] = json!(decline_reason(reason));
    state.notify(
        c.challenger.id,
        &json!({ "type": "challengeDeclined", "challenge": challenge }),
    );
}

async fn create_challenge(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(username): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let f = fields(&headers, &body)?;
    let dest = state
        .store
        .user_by_name(&username)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("user {username:?}")))?;
    if dest.id == user.id {
        return Err(ApiError::BadRequest("you cannot challenge yourself".into()));
    }
    let challenge = new_challenge(&state, user, Some(dest), &f)?;
    let answer = challenge_json(&challenge, "out");
    offer_challenge(&state, challenge).await?;
    Ok(Json(answer))
}

/// `POST /api/challenge/open`: a challenge anyone with the link may accept (the
/// answer's `url` is the page that offers it).
async fn open_challenge(
    State(state): State<AppState>,
    Authed(user): Authed,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let f = fields(&headers, &body)?;
    let challenge = new_challenge(&state, user, None, &f)?;
    let mut answer = challenge_json(&challenge, "out");
    answer["url"] = json!(format!("/challenge/{}", challenge.id));
    offer_challenge(&state, challenge).await?;
    Ok(Json(answer))
}

/// `GET /api/challenge/{id}/show`: an open or direct challenge, for its page.
async fn show_challenge(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let challenges = state
        .inner
        .challenges
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let c = challenges.get(&id).ok_or_else(|| {
        ApiError::NotFound(format!("challenge {id} (accepted, declined or withdrawn)"))
    })?;
    Ok(Json(challenge_json(c, "in")))
}

/// The longest initial time and increment a challenge may ask for, s (lichess's).
const MAX_LIMIT_S: u64 = 10_800;
const MAX_INCREMENT_S: u64 = 180;

/// A Fischer clock; with no initial time, as lichess, the clock starts with the
/// increment (at least 3 s), or the first move would already lose on time.
fn fischer(limit_ms: u64, increment_ms: u64) -> TimeControl {
    let initial = if limit_ms == 0 {
        increment_ms.max(3_000)
    } else {
        limit_ms
    };
    TimeControl::fischer(initial, increment_ms)
}

/// A challenge from the request's fields (the clock, colour, rated, ruleset).
fn new_challenge(
    state: &AppState,
    user: User,
    dest: Option<User>,
    f: &HashMap<String, String>,
) -> Result<Challenge, ApiError> {
    let limit = number(f, "clock.limit")?;
    let increment = number(f, "clock.increment")?.unwrap_or(0);
    let days = number(f, "days")?;
    let time_control = match (limit, days) {
        (Some(limit), _) => {
            if limit == 0 && increment == 0 {
                return Err(ApiError::BadRequest(
                    "clock.limit and clock.increment cannot both be 0".into(),
                ));
            }
            if limit > MAX_LIMIT_S || increment > MAX_INCREMENT_S {
                return Err(ApiError::BadRequest(format!(
                    "clock.limit must be 0-{MAX_LIMIT_S} s and clock.increment 0-{MAX_INCREMENT_S} s, not {limit} and {increment}"
                )));
            }
            fischer(limit * 1000, increment * 1000)
        }
        (None, Some(d)) if (1..=14).contains(&d) => TimeControl::correspondence(d as u32),
        (None, Some(d)) => {
            return Err(ApiError::BadRequest(format!(
                "days: {d} is not between 1 and 14"
            )))
        }
        (None, None) => TimeControl::unlimited(),
    };
    let (time_control, ruleset) = game_terms(f, time_control)?;
    let color = f.get("color").cloned().unwrap_or_else(|| "random".into());
    if !matches!(color.as_str(), "white" | "black" | "random") {
        return Err(ApiError::BadRequest(format!(
            "color: {color:?} must be white, black or random"
        )));
    }
    let rated = flag(f, "rated")?;
    if rated && time_control.is_unlimited() {
        return Err(ApiError::BadRequest(
            "a game without a clock cannot be rated".into(),
        ));
    }
    let (fen, chess960) = variant_of(f)?;
    if rated && fen.is_some() {
        return Err(ApiError::BadRequest(
            "only standard games from the usual start can be rated".into(),
        ));
    }
    state
        .inner
        .limits
        .take(user.id, crate::limits::Kind::Seek)?;
    Ok(Challenge {
        id: new_id(),
        challenger: user,
        dest,
        time_control,
        final_color: crate::final_color_of(&color),
        color,
        rated,
        ruleset,
        created_at: now_ms(),
        rematch_of: None,
        fen,
        chess960,
    })
}

/// The starting position a challenge asks for (lichess's `variant` and `fen`):
/// `standard` (the usual start, or `fen`), `chess960` (a random one of the 960,
/// or `fen`), `fromPosition` (`fen`). `None` for the usual start.
fn variant_of(f: &HashMap<String, String>) -> Result<(Option<String>, bool), ApiError> {
    let variant = f.get("variant").map_or("standard", String::as_str);
    let fen = f.get("fen").map(|s| s.trim()).filter(|s| !s.is_empty());
    let (text, chess960) = match (variant, fen) {
        ("standard", None) => return Ok((None, false)),
        ("standard" | "fromPosition", Some(fen)) => (fen.to_string(), false),
        ("fromPosition", None) => {
            return Err(ApiError::BadRequest(
                "variant fromPosition needs a fen".into(),
            ))
        }
        ("chess960", Some(fen)) => (fen.to_string(), true),
        ("chess960", None) => {
            let n = rand::random::<u16>() % caissa_rules::chess960::COUNT;
            let fen = caissa_rules::chess960::start_fen(n).unwrap_or_default();
            return Ok((Some(fen), true));
        }
        (other, _) => {
            return Err(ApiError::BadRequest(format!(
                "variant {other:?} is not played here: standard, chess960 or fromPosition"
            )))
        }
    };
    let position = if chess960 {
        caissa_rules::fen::parse_with_mode(&text, caissa_rules::CastlingMode::Chess960)
    } else {
        caissa_rules::fen::parse(&text)
    }
    .map_err(|e| ApiError::BadRequest(format!("fen {text:?}: {e}")))?;
    if position.legal_moves().is_empty() {
        return Err(ApiError::BadRequest(format!(
            "fen {text:?}: the side to move has no legal move"
        )));
    }
    // Castling rights written Chess960's way make it a Chess960 game.
    let chess960 = chess960 || position.castling_mode().is_chess960();
    Ok((Some(position.fen()), chess960))
}

/// Keeps a challenge open (stored first, so that it outlives a restart) and tells
/// the challenged player.
pub(crate) async fn offer_challenge(
    state: &AppState,
    challenge: Challenge,
) -> Result<(), ApiError> {
    state.store_challenge(&challenge).await?;
    if let Some(dest) = &challenge.dest {
        state.notify(
            dest.id,
            &json!({ "type": "challenge", "challenge": challenge_json(&challenge, "in") }),
        );
    }
    state
        .inner
        .challenges
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(challenge.id.clone(), challenge);
    Ok(())
}

/// Takes a challenge `user` may accept: one addressed to them, or an open one (which
/// becomes theirs) that they did not make.
pub(crate) fn take_challenge(
    state: &AppState,
    id: &str,
    user: &User,
) -> Result<Challenge, ApiError> {
    let mut challenges = state
        .inner
        .challenges
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    match challenges.get(id) {
        None => Err(ApiError::NotFound(format!("challenge {id}"))),
        Some(c) if c.dest.as_ref().is_some_and(|d| d.id != user.id) => {
            Err(ApiError::Forbidden("this challenge is not for you".into()))
        }
        Some(c) if c.challenger.id == user.id => Err(ApiError::BadRequest(
            "you cannot accept your own challenge".into(),
        )),
        Some(_) => {
            let mut c = challenges.remove(id).expect("present");
            c.dest.get_or_insert_with(|| user.clone());
            Ok(c)
        }
    }
}

async fn accept_challenge(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let c = take_challenge(&state, &id, &user)?;
    state.forget_challenge(&c.id).await;
    start_challenge(&state, c).await?;
    Ok(ok())
}

/// Starts the game of an accepted challenge (the game has the challenge's id).
pub(crate) async fn start_challenge(state: &AppState, c: Challenge) -> Result<(), ApiError> {
    let challenger_white = c.final_color == Color::White;
    let dest = c
        .dest
        .as_ref()
        .ok_or_else(|| ApiError::BadRequest("nobody has accepted this challenge".into()))?;
    let (white, black) = if challenger_white {
        (&c.challenger, dest)
    } else {
        (dest, &c.challenger)
    };
    let mut setup = GameSetup::new(&white.name, &black.name, c.ruleset, c.time_control.clone());
    setup.fen = c.fen.clone();
    setup.chess960 = c.chess960;
    let white = Player::new(white.id, white.name.clone());
    let black = Player::new(black.id, black.name.clone());
    state.start_game(c.id, white, black, setup, c.rated).await?;
    Ok(())
}

async fn decline_challenge(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    // lichess's reasons (`generic`, `later`, `tooFast`, ...); any word is passed on.
    let f = fields(&headers, &body)?;
    let reason = f.get("reason").cloned().unwrap_or_else(|| "generic".into());
    if reason.len() > 32 || !reason.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(ApiError::BadRequest(format!(
            "reason: {reason:?} must be a word such as generic, later or tooFast"
        )));
    }
    let c = withdraw_challenge(&state, &id, user.id)?;
    state.forget_challenge(&c.id).await;
    if c.challenger.id == user.id {
        // Declining one's own challenge is withdrawing it.
        cancelled(&state, &c);
    } else {
        declined(&state, &c, &reason);
    }
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel`: the challenger withdraws the challenge (or,
/// once it is accepted, aborts its game while that is allowed).
async fn cancel_challenge(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let challenger = state
        .inner
        .challenges
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)
        .map(|c| c.challenger.id);
    match challenger {
        // Accepted already: as lichess, cancelling aborts its game if that is
        // still allowed (no moves yet).
        None if state
            .game(&id)
            .is_some_and(|g| g.color_of(user.id).is_some()) =>
        {
            return act(&state, &id, user.id, Action::Abort).await;
        }
        None => return Err(ApiError::NotFound(format!("challenge {id}"))),
        Some(by) if by != user.id => {
            return Err(ApiError::Forbidden(
                "only the challenger can cancel a challenge (the challenged player declines it)"
                    .into(),
            ))
        }
        Some(_) => {}
    }
    let c = withdraw_challenge(&state, &id, user.id)?;
    state.forget_challenge(&c.id).await;
    cancelled(&state, &c);
    Ok(ok())
}

/// Removes a challenge that `user` (its challenger or the challenged player) is
/// declining or withdrawing.
fn withdraw_challenge(state: &AppState, id: &str, user: i64) -> Result<Challenge, ApiError> {
    let mut challenges = state
        .inner
        .challenges
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let allowed = challenges
        .get(id)
        .map(|c| c.challenger.id == user || c.dest.as_ref().is_some_and(|d| d.id == user));
    match allowed {
        None => Err(ApiError::NotFound(format!("challenge {id}"))),
        Some(false) => Err(ApiError::Forbidden("this challenge is not for you".into())),
        Some(true) => challenges
            .remove(id)
            .ok_or_else(|| ApiError::NotFound(format!("challenge {id}"))),
    }
}

/// Tells the challenged player that a challenge was withdrawn.
pub(crate) fn cancelled(state: &AppState, c: &Challenge) {
    if let Some(dest) = &c.dest {
        state.notify(
            dest.id,
            &json!({ "type": "challengeCanceled", "challenge": answered_json(c, "in", "canceled") }),
        );
    }
}

async fn event_stream(State(state): State<AppState>, Authed(user): Authed) -> Response {
    let rx = state.listen(user.id);
    // What is pending now: incoming challenges and games in progress.
    let pending: Vec<Value> = {
        let challenges = state
            .inner
            .challenges
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        challenges
            .values()
            .filter(|c| c.dest.as_ref().is_some_and(|d| d.id == user.id))
            .map(|c| json!({ "type": "challenge", "challenge": challenge_json(c, "in") }))
            .collect()
    };
    for value in pending {
        state.notify(user.id, &value);
    }
    for game in state.games_of(user.id) {
        state.notify(
            user.id,
            &lichess::game_event("gameStart", &game.view(), user.id),
        );
    }
    // Keep-alive: an empty line every 6 s, as lichess does.
    let keepalive = state;
    let user_id = user.id;
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(6)).await;
            let mut listeners = keepalive
                .inner
                .listeners
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let Some(senders) = listeners.get_mut(&user_id) else {
                break;
            };
            senders.retain(|tx| tx.send("\n".to_string()).is_ok());
            if senders.is_empty() {
                listeners.remove(&user_id);
                break;
            }
        }
    });
    ndjson(rx)
}

async fn game_stream(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    stream_game(&state, &id, Some(user.id)).await
}

/// Spectators: the same stream without an account; read-only by construction.
async fn watch_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    stream_game(&state, &id, None).await
}

/// The NDJSON game stream. A player's open stream counts as the player being
/// present; an empty line every few seconds finds out when it is gone.
async fn stream_game(state: &AppState, id: &str, user: Option<i64>) -> Result<Response, ApiError> {
    let (tx, rx) = mpsc::unbounded_channel();
    let handle = match state.live_or_stored(id).await? {
        LiveOrStored::Live(handle) => handle,
        // Over (and perhaps from before a restart): how it ended, and the end.
        LiveOrStored::Stored(view) => {
            let _ = tx.send(format!("{}\n", lichess::game_full(&view)));
            return Ok(ndjson(rx));
        }
    };
    let (first, mut changes) = handle.follow();
    let color = user.and_then(|u| handle.color_of(u));
    let presence = color.map(|c| handle.present(c));
    let watcher = color.is_none().then(|| handle.watch());
    let mut gone = handle.presence();
    let mut chat = handle.chat.follow();
    tokio::spawn(async move {
        // The clocks as they are now, not as at the last move.
        let full = lichess::game_full(&*handle.view_now().await);
        let _ = tx.send(format!("{full}\n"));
        let _presence = presence;
        let _watcher = watcher;
        let mut finished = first.finish.is_some();
        // A player (re)connecting hears at once that the opponent is away.
        let mut opponent_was_gone = false;
        if let Some(mine) = color {
            let p = gone.borrow_and_update()[(!mine).index()];
            if p.connections == 0 && p.gone_since.is_some() && !finished {
                opponent_was_gone = true;
                let line = lichess::opponent_gone(&handle, !mine, true);
                let _ = tx.send(format!("{line}\n"));
            }
        }
        while !finished {
            let line = tokio::select! {
                view = changes.next() => {
                    let Some(view) = view else { break };
                    finished = view.finish.is_some();
                    format!("{}\n", lichess::game_state_json(&view))
                }
                changed = gone.changed(), if color.is_some() => {
                    if changed.is_err() {
                        continue;
                    }
                    let Some(mine) = color else { continue };
                    let p = gone.borrow_and_update()[(!mine).index()];
                    let is_gone = p.connections == 0 && p.gone_since.is_some();
                    if is_gone == opponent_was_gone {
                        continue;
                    }
                    opponent_was_gone = is_gone;
                    format!("{}\n", lichess::opponent_gone(&handle, !mine, is_gone))
                }
                // The players' streams carry the chat, as on lichess.
                line = chat.recv(), if color.is_some() => match line {
                    Ok(line) => format!("{}\n", line.json()),
                    Err(_) => continue,
                },
                () = tokio::time::sleep(Duration::from_secs(3)) => "\n".to_string(),
            };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    Ok(ndjson(rx))
}

/// A player's action on a game, answered once it is durable.
pub(crate) async fn act(
    state: &AppState,
    id: &str,
    user: i64,
    action: Action,
) -> Result<Json<Value>, ApiError> {
    state
        .inner
        .limits
        .take(user, crate::limits::Kind::GameAction)?;
    state.count_action();
    let handle = state.playable(id).await?;
    handle.act(user, action).await.map(|()| ok())
}

async fn make_move(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path((id, mv)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let offering = query
        .get("offeringDraw")
        .is_some_and(|v| v.eq_ignore_ascii_case("true"));
    if offering {
        // "Offer or agree": with the opponent's offer open, the draw is agreed on
        // the position it was offered in, before the move (9.1.2.2).
        let handle = state.playable(&id).await?;
        let me = handle.color_of(user.id);
        if me.is_some() && handle.view().draw_offer == me.map(|c| !c) {
            return act(&state, &id, user.id, Action::AcceptDraw).await;
        }
    }
    let done = act(&state, &id, user.id, Action::play(mv)).await?;
    // The move stands whatever becomes of the offer: one the rules do not allow
    // now (too early, too soon after a decline) is dropped, as lichess does.
    if offering {
        if let Err(e) = act(&state, &id, user.id, Action::OfferDraw).await {
            tracing::debug!("game {id}: the draw offer with the move was not made: {e}");
        }
    }
    Ok(done)
}

async fn resign(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &id, user.id, Action::Resign).await
}

async fn abort(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &id, user.id, Action::Abort).await
}

async fn draw(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path((id, accept)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let handle = state.playable(&id).await?;
    let view = handle.view();
    let mine = if view.white.id == user.id {
        Some(Color::White)
    } else if view.black.id == user.id {
        Some(Color::Black)
    } else {
        None
    };
    let Some(me) = mine else {
        return Err(ApiError::Forbidden("you are not playing this game".into()));
    };
    // As lichess: "yes" accepts an open offer, else claims a draw the rules allow
    // now (9.2, 9.3: on one's own turn), else offers one; "no" declines an open
    // offer, and with none there is nothing to do.
    let action = match accept.as_str() {
        "yes" | "true" if view.draw_offer == Some(!me) => Action::AcceptDraw,
        // Already offered: offering again changes nothing.
        "yes" | "true" if view.draw_offer == Some(me) => return Ok(ok()),
        "yes" | "true" if view.turn == me && view.finish.is_none() => match view.claims.first() {
            Some(&claim) => Action::ClaimDraw {
                claim,
                with_move: None,
            },
            None => Action::OfferDraw,
        },
        "yes" | "true" => Action::OfferDraw,
        "no" | "false" if view.draw_offer == Some(!me) => Action::DeclineDraw,
        "no" | "false" if view.finish.is_none() => return Ok(ok()),
        "no" | "false" => return Err(ApiError::BadRequest("the game is over".into())),
        other => {
            return Err(ApiError::BadRequest(format!(
                "{other:?}: expected yes or no"
            )))
        }
    };
    act(&state, &id, user.id, action).await
}

async fn claim_victory(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let gone = state.opponent_gone_ms(&id, user.id).await?;
    act(
        &state,
        &id,
        user.id,
        Action::ClaimVictory {
            opponent_gone_ms: gone,
        },
    )
    .await
}

async fn claim_draw(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let gone = state.opponent_gone_ms(&id, user.id).await?;
    act(
        &state,
        &id,
        user.id,
        Action::CallDraw {
            opponent_gone_ms: gone,
        },
    )
    .await
}

async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let view = exported(&state, &id, &site_of(&headers)).await?;
    let wants_json = query.get("format").is_some_and(|f| f == "json")
        || headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("application/json"));
    if wants_json {
        return Ok(Json(lichess::game_json(&view)).into_response());
    }
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/x-chess-pgn")],
        view.pgn.unwrap_or_default(),
    )
        .into_response())
}

/// A game as exports give it, live or stored, its PGN complete with the `Site`
/// tag (`site`: this server as the client sees it, from [`site_of`]).
pub(crate) async fn exported(state: &AppState, id: &str, site: &str) -> Result<View, ApiError> {
    let mut view = match state.live_or_stored(id).await? {
        LiveOrStored::Live(handle) => {
            let mut view = (*handle.view()).clone();
            view.pgn = Some(handle.pgn().await);
            view
        }
        LiveOrStored::Stored(view) => (*view).clone(),
    };
    let pgn = view.pgn.as_deref().unwrap_or_default();
    view.pgn = Some(lichess::with_site(pgn, &format!("{site}/game/{id}")));
    Ok(view)
}

async fn user_games(
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
    let max = match query.get("max") {
        None => 100,
        Some(m) => m
            .parse::<i64>()
            .ok()
            .filter(|m| (1..=10_000).contains(m))
            .ok_or_else(|| {
                ApiError::BadRequest(format!("max: {m:?} must be a number from 1 to 10000"))
            })?,
    };
    let filter = games_filter(&state, &query, max).await?;
    // Speeds are not stored apart: filtered here, up to `max` games that pass.
    let speeds: Option<Vec<String>> = query
        .get("perfType")
        .map(|list| list.split(',').map(|s| s.trim().to_lowercase()).collect());
    if let Some(bad) = speeds.iter().flatten().find(|s| {
        !matches!(
            s.as_str(),
            "bullet" | "blitz" | "rapid" | "classical" | "correspondence" | "unlimited"
        )
    }) {
        return Err(ApiError::BadRequest(format!(
            "perfType: {bad:?} is not one of bullet, blitz, rapid, classical, correspondence, unlimited"
        )));
    }
    let ndjson = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson"));
    let listed = GameFilter {
        limit: if speeds.is_some() { i64::MAX } else { max },
        ..filter
    };
    let ids = state.store.game_ids_of_user(user.id, &listed).await?;
    let max = max as usize;
    let site = site_of(&headers);
    // One game at a time, each sent as soon as it is read, and no faster than the
    // client takes them.
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        let mut sent = 0;
        for id in ids {
            if sent == max {
                break;
            }
            let view = match exported(&state, &id, &site).await {
                Ok(view) => view,
                Err(e) => {
                    tracing::warn!("exporting game {id}: {e}");
                    continue;
                }
            };
            let speed = lichess::speed(&view.setup.time_control);
            if speeds
                .as_ref()
                .is_some_and(|s| !s.iter().any(|s| s == speed))
            {
                continue;
            }
            sent += 1;
            let chunk = if ndjson {
                format!("{}\n", lichess::game_json(&view))
            } else {
                format!("{}\n", view.pgn.as_deref().unwrap_or_default())
            };
            if tx.send(chunk).await.is_err() {
                break;
            }
        }
    });
    let content_type = if ndjson {
        "application/x-ndjson"
    } else {
        "application/x-chess-pgn"
    };
    let stream = tokio_stream::wrappers::ReceiverStream::new(rx).map(Ok::<_, Infallible>);
    Ok((
        [(header::CONTENT_TYPE, content_type)],
        Body::from_stream(stream),
    )
        .into_response())
}

/// A `true`/`false` query parameter (any case: Python clients send `True`),
/// `None` when absent.
fn query_bool(query: &HashMap<String, String>, name: &str) -> Result<Option<bool>, ApiError> {
    match query.get(name).map(|v| v.to_ascii_lowercase()) {
        None => Ok(None),
        Some(v) if v == "true" || v == "1" => Ok(Some(true)),
        Some(v) if v == "false" || v == "0" => Ok(Some(false)),
        Some(other) => Err(ApiError::BadRequest(format!(
            "{name}: {other:?} must be true or false"
        ))),
    }
}

/// A moment in ms since the epoch, `None` when absent.
fn query_ms(query: &HashMap<String, String>, name: &str) -> Result<Option<i64>, ApiError> {
    query
        .get(name)
        .map(|v| {
            v.parse::<i64>().map_err(|_| {
                ApiError::BadRequest(format!("{name}: {v:?} must be a time in ms since 1970"))
            })
        })
        .transpose()
}

/// The filters of `/api/games/user/{name}`, as lichess names them: `finished`
/// (default true), `ongoing` (default false), `vs`, `rated`, `color`, `since`,
/// `until` (ms) and `sort` (`dateDesc` or `dateAsc`).
async fn games_filter(
    state: &AppState,
    query: &HashMap<String, String>,
    max: i64,
) -> Result<GameFilter, ApiError> {
    let vs = match query.get("vs") {
        Some(name) => Some(
            state
                .store
                .user_by_name(name)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("user {name:?} (vs)")))?
                .id,
        ),
        None => None,
    };
    let color_white = match query.get("color").map(String::as_str) {
        None => None,
        Some("white") => Some(true),
        Some("black") => Some(false),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "color: {other:?} must be white or black"
            )))
        }
    };
    let oldest_first = match query.get("sort").map(String::as_str) {
        None | Some("dateDesc") => false,
        Some("dateAsc") => true,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "sort: {other:?} must be dateDesc or dateAsc"
            )))
        }
    };
    Ok(GameFilter {
        finished: query_bool(query, "finished")?.unwrap_or(true),
        ongoing: query_bool(query, "ongoing")?.unwrap_or(false),
        vs,
        rated: query_bool(query, "rated")?,
        color_white,
        since: query_ms(query, "since")?,
        until: query_ms(query, "until")?,
        oldest_first,
        limit: max,
    })
}

/// This server as the client sees it, `http://host` (or `https` behind a proxy
/// that says so), for the PGN `Site` tag.
pub(crate) fn site_of(headers: &HeaderMap) -> String {
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

async fn metrics(State(state): State<AppState>) -> Response {
    let (live, total) = state.game_counts();
    let mut text = format!(
        "# HELP caissa_live_games Games being played now.\n# TYPE caissa_live_games gauge\ncaissa_live_games {live}\n\
         # HELP caissa_games_loaded Games held in memory.\n# TYPE caissa_games_loaded gauge\ncaissa_games_loaded {total}\n\
         # HELP caissa_actions_total Player actions handled.\n# TYPE caissa_actions_total counter\ncaissa_actions_total {}\n",
        state.actions()
    );
    crate::metrics::render(&mut text);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("openapi.json"),
    )
        .into_response()
}

/// A file of the web app.
async fn static_file(Path(path): Path<String>) -> Response {
    crate::assets::file(&path)
}

/// The web app's page shell.
async fn page() -> Response {
    crate::assets::page()
}

/// `POST /api/board/seek`: real-time seeks (`time` minutes, `increment` seconds) keep
/// the request open, sending an empty line every few seconds, until paired;
/// correspondence seeks (`days`) answer with the seek's id at once.
async fn seek(
    State(state): State<AppState>,
    Authed(user): Authed,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let f = fields(&headers, &body)?;
    let color = f.get("color").cloned().unwrap_or_else(|| "random".into());
    if !matches!(color.as_str(), "white" | "black" | "random") {
        return Err(ApiError::BadRequest(format!(
            "color: {color:?} must be white, black or random"
        )));
    }
    let time_control = match (number(&f, "time")?, number(&f, "days")?) {
        (Some(minutes), _) => {
            let increment = number(&f, "increment")?.unwrap_or(0);
            if minutes > 180 || increment > 180 || (minutes == 0 && increment == 0) {
                return Err(ApiError::BadRequest(
                    "time must be 0-180 minutes and increment 0-180 s, not both 0".into(),
                ));
            }
            fischer(minutes * 60_000, increment * 1000)
        }
        (None, Some(days)) if [1, 2, 3, 5, 7, 10, 14].contains(&days) => {
            TimeControl::correspondence(days as u32)
        }
        (None, Some(days)) => {
            return Err(ApiError::BadRequest(format!(
                "days: {days} must be 1, 2, 3, 5, 7, 10 or 14"
            )))
        }
        (None, None) => {
            return Err(ApiError::BadRequest(
                "give time and increment, or days".into(),
            ))
        }
    };
    let (time_control, ruleset) = game_terms(&f, time_control)?;
    // Seeks pair standard games; other variants are played by challenge.
    if let Some(variant) = f.get("variant").filter(|v| v.as_str() != "standard") {
        return Err(ApiError::BadRequest(format!(
            "variant {variant:?}: seeks are for standard games (challenge a player for chess960 or a position)"
        )));
    }
    let correspondence = time_control.periods.is_empty();
    let rated = flag(&f, "rated")?;
    let rating_range = match f.get("ratingRange").filter(|r| !r.is_empty()) {
        None => None,
        Some(text) => Some(
            text.split_once('-')
                .and_then(|(low, high)| {
                    Some((
                        low.trim().parse::<u32>().ok()?,
                        high.trim().parse::<u32>().ok()?,
                    ))
                })
                .filter(|(low, high)| low <= high)
                .ok_or_else(|| {
                    ApiError::BadRequest(format!(
                        "ratingRange: {text:?} must be two ratings like 1400-1800"
                    ))
                })?,
        ),
    };
    let (id, wait) = state
        .seek(user, time_control, color, rated, ruleset, rating_range)
        .await?;
    let Some(mut wait) = wait.filter(|_| !correspondence) else {
        return Ok(Json(json!({ "id": id })).into_response());
    };
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = &mut wait => break,
                () = tokio::time::sleep(Duration::from_secs(3)) => {
                    if tx.send("\n".to_string()).is_err() {
                        state.cancel_seek(&id);
                        break;
                    }
                }
            }
        }
    });
    Ok(ndjson(rx))
}

async fn live_games(State(state): State<AppState>) -> Json<Value> {
    let games: Vec<Value> = state
        .live_views()
        .iter()
        .map(|v| {
            json!({
                "id": v.id,
                "white": v.white.name,
                "black": v.black.name,
                "speed": lichess::speed(&v.setup.time_control),
                "plies": v.moves.len(),
                "fen": v.fen,
            })
        })
        .collect();
    Json(json!({ "games": games }))
}

/// The game on "TV": the live game with the most moves played.
async fn tv(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let view = state
        .live_views()
        .into_iter()
        .max_by_key(|v| v.moves.len())
        .ok_or_else(|| ApiError::NotFound("a live game".into()))?;
    let view = match state.game(&view.id) {
        Some(handle) => handle.view_now().await,
        None => view,
    };
    Ok(Json(lichess::game_full(&view)))
}

/// `POST /api/challenge/ai`: a game against the computer (`level` 1–8).
async fn challenge_computer(
    State(state): State<AppState>,
    Authed(user): Authed,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let f = fields(&headers, &body)?;
    let level = number(&f, "level")?.unwrap_or(1);
    if !(1..=8).contains(&level) {
        return Err(ApiError::BadRequest(format!(
            "level: {level} must be from 1 to 8"
        )));
    }
    let time_control = match number(&f, "clock.limit")? {
        Some(limit) => {
            let increment = number(&f, "clock.increment")?.unwrap_or(0);
            if limit > MAX_LIMIT_S || increment > MAX_INCREMENT_S || limit + increment == 0 {
                return Err(ApiError::BadRequest(format!(
                    "clock.limit must be 0-{MAX_LIMIT_S} s and clock.increment 0-{MAX_INCREMENT_S} s, not both 0"
                )));
            }
            fischer(limit * 1000, increment * 1000)
        }
        None => TimeControl::unlimited(),
    };
    let computer = state.computer_user().await?;
    let human_white = match f.get("color").map(String::as_str) {
        Some("white") => true,
        Some("black") => false,
        Some("random") | None => rand::random(),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "color: {other:?} must be white, black or random"
            )))
        }
    };
    let (white, black) = if human_white {
        (&user, &computer)
    } else {
        (&computer, &user)
    };
    let mut setup = GameSetup::new(&white.name, &black.name, Ruleset::Online, time_control);
    (setup.fen, setup.chess960) = variant_of(&f)?;
    let id = new_id();
    let handle = state
        .start_game(
            id.clone(),
            Player::new(white.id, white.name.clone()),
            Player::new(black.id, black.name.clone()),
            setup,
            false,
        )
        .await?;
    let computer_color = if human_white {
        Color::Black
    } else {
        Color::White
    };
    state.drive_computer(handle.clone(), computer.id, computer_color, level as u8);
    Ok(Json(lichess::game_json(&handle.view())))
}

/// Whether a request's `Origin` (if any) is this server itself.
fn same_origin(headers: &HeaderMap, uri: &axum::http::Uri) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    // HTTP/1.1 names the host in a header, HTTP/2 in the request's authority.
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .or_else(|| uri.authority().map(|a| a.as_str()))
        .unwrap_or_default();
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest == host)
}

/// `GET /api/socket/game/{id}[?token=...]` (or `CONNECT` over HTTP/2): the game's
/// WebSocket (see `socket`), as a player with a bearer token or session, else as a
/// spectator.
async fn game_socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    ws: axum::extract::ws::WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let handle = match state.live_or_stored(&id).await? {
        LiveOrStored::Live(handle) => handle,
        // Over: the socket says how it ended, and closes.
        LiveOrStored::Stored(view) => {
            return Ok(ws
                .max_message_size(4096)
                .read_buffer_size(4096)
                .on_upgrade(move |socket| crate::socket::ended(socket, view)))
        }
    };
    // An API client: a bearer token (header, or `?token=` where a client cannot
    // set headers on a WebSocket).
    let token = match query.get("token") {
        Some(token) => Some(token.as_str()),
        None => crate::auth::bearer_token(&headers)?,
    };
    let bearer = match token {
        Some(token) => Some(crate::auth::token_user(token, &state).await?),
        None => None,
    };
    // A player's token is asked again before each action: one revoked while the
    // socket is open stops it acting.
    let token_hash = token.map(crate::auth::token_hash);
    let user = match bearer {
        // Playing needs board:play; watching needs no scope (nor a token).
        Some((user, scopes)) => {
            if handle.color_of(user.id).is_some() {
                crate::auth::check_scopes(&scopes, &axum::http::Method::GET, uri.path())?;
            }
            Some(user.id)
        }
        // A browser: its session cookie, if the page is our own (a cross-site page
        // cannot open a player's socket with the player's cookie).
        None => match crate::auth::cookie(&headers, crate::auth::SESSION_COOKIE) {
            Some(session) if same_origin(&headers, &uri) => state
                .store
                .session(&crate::auth::token_hash(session))
                .await?
                .map(|(user, _)| user.id),
            _ => None,
        },
    };
    // Messages are small and sockets many: read in 4 KiB chunks, not tungstenite's
    // default 128 KiB (zeroed before every read, and resident for each socket).
    Ok(ws
        .max_message_size(4096)
        .read_buffer_size(4096)
        .on_upgrade(move |socket| crate::socket::run(state, socket, handle, user, token_hash)))
}

/// The quick-pairing pools: `minutes+increment` clocks a seek can name.
const POOLS: [(u64, u64); 9] = [
    (1, 0),
    (3, 0),
    (3, 2),
    (5, 3),
    (10, 0),
    (10, 5),
    (15, 10),
    (30, 0),
    (30, 20),
];

/// `GET /api/pools`: the quick-pairing pools and how many are waiting in each.
async fn pools(State(state): State<AppState>) -> Json<Value> {
    let waiting = state.waiting_seeks();
    let pools: Vec<Value> = POOLS
        .iter()
        .map(|&(minutes, increment)| {
            let tc = TimeControl::fischer(minutes * 60_000, increment * 1000);
            let count = waiting.iter().filter(|w| **w == tc).count();
            json!({ "id": format!("{minutes}+{increment}"), "time": minutes, "increment": increment, "speed": lichess::speed(&tc), "waiting": count })
        })
        .collect();
    Json(json!({ "pools": pools }))
}
