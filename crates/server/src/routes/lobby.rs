//! The lobby over the API: seeks as lichess's Board API has them (a real-time
//! seek keeps the request open until it is paired), the quick-pairing pools,
//! the list of open seeks and taking one.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_arbiter::{Ruleset, TimeControl};
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::choice::{ColorChoice, VariantChoice};
use crate::http::error::ApiError;
use crate::http::fields::Fields;
use crate::http::limits::{Kind, RateLimits};
use crate::protocol::lichess;
use crate::routes::docs::ErrorBody;
use crate::routes::games::live_games_json;
use crate::routes::session::Authed;
use crate::routes::streams::ndjson;
use crate::routes::terms::{self, DelayType};
use crate::services::games::Games;
use crate::services::lobby::{Lobby, SeekTerms};
use crate::state::AppState;

/// How often a waiting seek's request hears it is still waiting.
const SEEK_KEEPALIVE: Duration = Duration::from_secs(3);

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

/// The fields of a seek.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SeekForm {
    /// Initial time, minutes (0 to 180).
    pub time: Option<u64>,
    /// Increment, s (0 to 180).
    pub increment: Option<u64>,
    /// Correspondence: days per move (1, 2, 3, 5, 7, 10 or 14).
    pub days: Option<u64>,
    /// Instead of `time` and `increment`: the PGN `TimeControl` tag's syntax in
    /// seconds, periods separated by `:` (`40/5400+30:1800+30`).
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
    /// The seeker's colour.
    pub color: Option<ColorChoice>,
    /// Whether the game is rated.
    pub rated: Option<bool>,
    /// The rules (default `online`).
    #[schema(value_type = Option<String>)]
    #[serde(default, deserialize_with = "terms::named_ruleset")]
    pub ruleset: Option<Ruleset>,
    /// Seeks pair standard games only.
    pub variant: Option<VariantChoice>,
    /// Opponents' ratings accepted, `1400-1800`.
    #[serde(rename = "ratingRange")]
    pub rating_range: Option<String>,
}

fn seek_clock(f: &SeekForm) -> Result<TimeControl, ApiError> {
    if let Some(text) = f.time_control.as_deref() {
        let tc = terms::time_control_alone(
            text,
            &[
                ("time", f.time.is_some()),
                ("increment", f.increment.is_some()),
                ("days", f.days.is_some()),
            ],
        )?;
        if tc.periods.is_empty() {
            return Err(ApiError::BadRequest(format!(
                "timeControl {text:?}: a seek needs a clock (or days)"
            )));
        }
        return Ok(tc);
    }
    match (f.time, f.days) {
        (Some(minutes), _) => {
            let increment = f.increment.unwrap_or(0);
            if minutes > 180 || increment > 180 || (minutes == 0 && increment == 0) {
                return Err(ApiError::BadRequest(
                    "time must be 0-180 minutes and increment 0-180 s, not both 0".into(),
                ));
            }
            Ok(terms::fischer(minutes * 60_000, increment * 1000))
        }
        (None, Some(days)) if [1, 2, 3, 5, 7, 10, 14].contains(&days) => {
            Ok(TimeControl::correspondence(days as u32))
        }
        (None, Some(days)) => Err(ApiError::BadRequest(format!(
            "days: {days} must be 1, 2, 3, 5, 7, 10 or 14"
        ))),
        (None, None) => Err(ApiError::BadRequest(
            "give time and increment, timeControl, or days".into(),
        )),
    }
}

fn rating_range(text: Option<&str>) -> Result<Option<(u32, u32)>, ApiError> {
    let Some(text) = text.filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    text.split_once('-')
        .and_then(|(low, high)| {
            Some((
                low.trim().parse::<u32>().ok()?,
                high.trim().parse::<u32>().ok()?,
            ))
        })
        .filter(|(low, high)| low <= high)
        .map(Some)
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "ratingRange: {text:?} must be two ratings like 1400-1800"
            ))
        })
}

/// Seeks an opponent. A real-time seek (`time`, `increment`) keeps the request
/// open, with an empty line every few seconds, until it is paired (the game
/// then starts, told on the event stream) or the request is closed (the seek is
/// withdrawn); a correspondence seek (`days`) answers its id at once.
#[utoipa::path(post, path = "/api/board/seek", tag = "lobby",
    request_body(content((SeekForm = "application/x-www-form-urlencoded"), (SeekForm = "application/json"))),
    responses(
        (status = 200, description = "NDJSON keep-alives until paired; `{id}` for correspondence", content_type = "application/x-ndjson"),
        (status = 400, description = "A wrong field, named", body = ErrorBody),
        (status = 403, description = "A guest seeking a rated game", body = ErrorBody),
        (status = 429, description = "Too many seeks", body = ErrorBody)))]
async fn seek(
    State(lobby): State<Arc<Lobby>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Fields(f): Fields<SeekForm>,
) -> Result<Response, ApiError> {
    let time_control = seek_clock(&f)?;
    let time_control = terms::clock_extras(
        time_control,
        f.clock_per_move,
        f.clock_delay,
        f.clock_delay_type,
    )?;
    // Seeks pair standard games; other variants are played by challenge.
    if let Some(variant) = f.variant.filter(|v| *v != VariantChoice::Standard) {
        return Err(ApiError::BadRequest(format!(
            "variant {variant:?}: seeks are for standard games (challenge a player for chess960 or a position)"
        )));
    }
    let correspondence = time_control.periods.is_empty();
    let seek_terms = SeekTerms {
        time_control,
        color: f.color.unwrap_or_default(),
        rated: f.rated.unwrap_or(false),
        ruleset: f.ruleset.unwrap_or(Ruleset::Online),
        rating_range: rating_range(f.rating_range.as_deref())?,
    };
    limits.take(user.id, Kind::Seek)?;
    let (id, wait) = lobby.seek(user, seek_terms).await?;
    let Some(wait) = wait.filter(|_| !correspondence) else {
        return Ok(Json(json!({ "id": id })).into_response());
    };
    // Keep-alives until the seek is taken; a closed request withdraws it.
    struct Waiting {
        wait: tokio::sync::oneshot::Receiver<()>,
        withdraw: Option<(Arc<Lobby>, String)>,
    }
    impl Drop for Waiting {
        fn drop(&mut self) {
            if let Some((lobby, id)) = self.withdraw.take() {
                lobby.cancel(&id);
            }
        }
    }
    let waiting = Waiting {
        wait,
        withdraw: Some((lobby, id)),
    };
    let lines = futures_util::stream::unfold(waiting, |mut w| async move {
        tokio::select! {
            _ = &mut w.wait => {
                // Taken: nothing to withdraw.
                w.withdraw.take();
                None
            }
            () = tokio::time::sleep(SEEK_KEEPALIVE) => Some((Bytes::from_static(b"\n"), w)),
        }
    });
    Ok(ndjson(lines))
}

/// The quick-pairing pools and how many are waiting in each.
#[utoipa::path(get, path = "/api/pools", tag = "lobby", security(()),
    responses((status = 200, description = "`{pools: [{id, time, increment, speed, waiting}]}`", body = Object)))]
async fn pools(State(lobby): State<Arc<Lobby>>) -> Json<Value> {
    Json(json!({ "pools": pools_json(&lobby) }))
}

/// The pools with how many wait in each.
fn pools_json(lobby: &Lobby) -> Vec<Value> {
    let waiting = lobby.listed();
    POOLS
        .iter()
        .map(|&(minutes, increment)| {
            let tc = TimeControl::fischer(minutes * 60_000, increment * 1000);
            let count = waiting.iter().filter(|w| w.terms.time_control == tc).count();
            json!({ "id": format!("{minutes}+{increment}"), "time": minutes, "increment": increment, "speed": lichess::speed(&tc), "waiting": count })
        })
        .collect()
}

/// The real-time seeks waiting now, oldest first.
#[utoipa::path(get, path = "/api/lobby/seeks", tag = "lobby", security(()),
    responses((status = 200, description = "`{seeks: [{id, username, rating, time, increment, perMove, days, timeControl, speed, rated, color, ruleset, ratingRange}]}`", body = Object)))]
async fn seeks(State(lobby): State<Arc<Lobby>>) -> Json<Value> {
    Json(json!({ "seeks": seeks_json(&lobby) }))
}

/// The seeks waiting now, as the seek list shows them.
fn seeks_json(lobby: &Lobby) -> Vec<Value> {
    lobby
        .listed()
        .iter()
        .map(|s| {
            let tc = &s.terms.time_control;
            let period = tc.periods.first();
            json!({
                "id": s.id,
                "username": s.username,
                "rating": s.rating,
                "time": period.map(|p| p.base_ms as f64 / 60_000.0),
                "increment": period.map(|p| p.increment_ms / 1000),
                "perMove": tc.per_move_ms.filter(|_| period.is_some()).map(|ms| ms / 1000),
                "days": tc.per_move_ms.filter(|_| period.is_none()).map(|ms| ms / 86_400_000),
                "timeControl": tc.to_string(),
                "speed": lichess::speed(tc),
                "rated": s.terms.rated,
                "color": s.terms.color.name(),
                "ruleset": s.terms.ruleset.name(),
                "ratingRange": s.terms.rating_range.map(|(low, high)| format!("{low}-{high}")),
            })
        })
        .collect()
}

/// How often the lobby socket looks for a change.
const LOBBY_LOOK: Duration = Duration::from_millis(500);

/// The lobby as it changes, over a WebSocket, so that pages need not ask
/// again and again: `{t: "lobby", pools, seeks, games}` (as `/api/pools`,
/// `/api/lobby/seeks` and `/api/games/live` give them) at once and whenever
/// any of them changes (looked at twice a second). The client sends nothing.
#[utoipa::path(get, path = "/api/socket/lobby", tag = "lobby", security(()),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, description = "Not a WebSocket request", body = ErrorBody)))]
async fn lobby_socket(
    State(lobby): State<Arc<Lobby>>,
    State(games): State<Arc<Games>>,
    ws: WebSocketUpgrade,
) -> Response {
    ws.max_message_size(1024)
        .on_upgrade(move |socket| follow_lobby(socket, lobby, games))
}

async fn follow_lobby(mut socket: WebSocket, lobby: Arc<Lobby>, games: Arc<Games>) {
    let mut look = tokio::time::interval(LOBBY_LOOK);
    look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last = String::new();
    loop {
        tokio::select! {
            _ = look.tick() => {
                let now = json!({
                    "t": "lobby",
                    "pools": pools_json(&lobby),
                    "seeks": seeks_json(&lobby),
                    "games": live_games_json(&games),
                })
                .to_string();
                if now != last {
                    if socket.send(Message::Text(now.clone().into())).await.is_err() {
                        return;
                    }
                    last = now;
                }
            }
            received = socket.recv() => match received {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            },
        }
    }
}

/// Plays the seeker now; answers the game's id.
#[utoipa::path(post, path = "/api/lobby/seeks/{id}/accept", tag = "lobby",
    params(("id" = String, Path, description = "The seek")),
    responses(
        (status = 200, description = "`{gameId}`", body = Object),
        (status = 403, description = "Outside the seeker's rating range, or a guest and a rated seek", body = ErrorBody),
        (status = 404, description = "Taken or withdrawn", body = ErrorBody)))]
async fn accept(
    State(lobby): State<Arc<Lobby>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    limits.take(user.id, Kind::Seek)?;
    let game = lobby.accept(&id, user).await?;
    Ok(Json(json!({ "gameId": game })))
}

/// The lobby's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(seek))
        .routes(routes!(pools))
        .routes(routes!(seeks))
        .routes(routes!(lobby_socket))
        .routes(routes!(accept))
}
