//! The arbiter's seat over HTTP (Laws 12): `POST /api/arbiter/game/{id}/{action}`
//! for every action an arbiter takes, and `GET /api/arbiter/games` for the games
//! one watches over. Each action is recorded in the game's log with the arbiter's
//! name and reason, shown live in every `gameState` (`arbiter`) and exported in
//! the PGN as a comment. Only an account granted the `arbiter` right, or named
//! arbiter of the game by its creator, may act (403 otherwise, and always for the
//! game's own players).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use caissa_arbiter::{ArbiterAction, GameResult};
use caissa_rules::Color;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::{Fields, Params};
use crate::http::limits::{Kind, RateLimits};
use crate::live::view::View;
use crate::protocol::lichess;
use crate::routes::docs::{ok, ErrorBody, OkBody};
use crate::routes::session::Authed;
use crate::services::arbiters::Arbiters;
use crate::state::AppState;

/// The fields of an arbiter's action; which ones an action needs is listed with
/// the route.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArbiterForm {
    /// Why: recorded with the action, shown to players and spectators, and
    /// written in the PGN.
    #[serde(default)]
    pub reason: String,
    /// The player concerned: `white` or `black`.
    #[serde(default)]
    pub color: Option<String>,
    /// Seconds, for time added, removed or set, or given to the opponent as a
    /// penalty.
    #[serde(default)]
    pub seconds: Option<f64>,
    /// A penalty: `time` (`seconds` to the opponent) or `loss`.
    #[serde(default)]
    pub penalty: Option<String>,
    /// A result: `1-0`, `0-1`, `1/2-1/2`, `0-0` (both lose), `1/2-0`, `0-1/2`,
    /// or `void`.
    #[serde(default)]
    pub result: Option<String>,
    /// A claim's decision: `true` upholds it.
    #[serde(default)]
    pub accept: Option<bool>,
    /// Half-moves to set the position back.
    #[serde(default)]
    pub plies: Option<u32>,
    /// When an adjourned game resumes, ms since the Unix epoch (absent: now).
    #[serde(default)]
    pub at: Option<u64>,
}

fn color_of(form: &ArbiterForm) -> Result<Color, ApiError> {
    match form.color.as_deref() {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        Some(other) => Err(ApiError::BadRequest(format!(
            "color: {other:?} is not white or black"
        ))),
        None => Err(ApiError::BadRequest("color: say white or black".into())),
    }
}

fn ms_of(form: &ArbiterForm) -> Result<u64, ApiError> {
    match form.seconds {
        Some(s) if (0.0..=100.0 * 3600.0).contains(&s) => Ok((s * 1000.0) as u64),
        Some(s) => Err(ApiError::BadRequest(format!(
            "seconds: {s} is not between 0 and 360000"
        ))),
        None => Err(ApiError::BadRequest(
            "seconds: give a number of seconds".into(),
        )),
    }
}

/// The arbiter crate's action for the route's `action` and fields.
fn action_of(name: &str, form: &ArbiterForm) -> Result<ArbiterAction, ApiError> {
    let reason = || form.reason.clone();
    Ok(match name {
        "pause" => ArbiterAction::Pause,
        "resume" => ArbiterAction::Resume,
        "add-time" => ArbiterAction::AdjustClock {
            color: color_of(form)?,
            delta_ms: ms_of(form)? as i64,
            reason: reason(),
        },
        "remove-time" => ArbiterAction::AdjustClock {
            color: color_of(form)?,
            delta_ms: -(ms_of(form)? as i64),
            reason: reason(),
        },
        "set-time" => ArbiterAction::SetClock {
            color: color_of(form)?,
            ms: ms_of(form)?,
        },
        "warn" => ArbiterAction::Warn {
            color: color_of(form)?,
            reason: reason(),
        },
        "penalty" => {
            let offender = color_of(form)?;
            match form.penalty.as_deref() {
                Some("time") => ArbiterAction::AdjustClock {
                    color: !offender,
                    delta_ms: ms_of(form)? as i64,
                    reason: reason(),
                },
                Some("loss") => ArbiterAction::DeclareResult {
                    result: GameResult::win_for(!offender),
                },
                Some(other) => {
                    return Err(ApiError::BadRequest(format!(
                        "penalty: {other:?} is not time or loss"
                    )))
                }
                None => return Err(ApiError::BadRequest("penalty: say time or loss".into())),
            }
        }
        "result" => {
            let text = form
                .result
                .as_deref()
                .ok_or_else(|| ApiError::BadRequest("result: give the result".into()))?;
            let result = GameResult::parse_score(text).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "result: {text:?} is not 1-0, 0-1, 1/2-1/2, 0-0, 1/2-0, 0-1/2 or void"
                ))
            })?;
            ArbiterAction::DeclareResult { result }
        }
        "decide-claim" => ArbiterAction::DecideNoProgressClaim {
            draw: form.accept.ok_or_else(|| {
                ApiError::BadRequest("accept: say true (drawn) or false (play on)".into())
            })?,
        },
        "grant-increment" => ArbiterAction::GrantIncrement,
        "forfeit" => ArbiterAction::Forfeit {
            color: color_of(form)?,
        },
        "adjourn" => ArbiterAction::Adjourn,
        "resume-adjourned" => match form.at {
            Some(at) => ArbiterAction::ScheduleResumption { at },
            None => ArbiterAction::ResumeAdjourned,
        },
        "set-back" => ArbiterAction::SetBack {
            plies: form
                .plies
                .ok_or_else(|| ApiError::BadRequest("plies: give a number of half-moves".into()))?,
        },
        other => {
            return Err(ApiError::NotFound(format!(
                "arbiter action {other:?}: the actions are {}",
                ACTIONS.join(", ")
            )))
        }
    })
}

/// Every action of the route.
pub const ACTIONS: [&str; 16] = [
    "pause",
    "resume",
    "add-time",
    "remove-time",
    "set-time",
    "warn",
    "penalty",
    "result",
    "decide-claim",
    "grant-increment",
    "forfeit",
    "adjourn",
    "resume-adjourned",
    "set-back",
    "correct-result",
    "void",
];

/// An arbiter acts on a game, saying why.
///
/// Actions and their fields (every one takes `reason`):
/// `pause`, `resume` (the clocks); `add-time`, `remove-time`, `set-time`
/// (`color`, `seconds`); `warn` (`color`); `penalty` (`color` of the offender,
/// `penalty`: `time` with `seconds` given to the opponent, or `loss`); `result`
/// (`result`: 1-0, 0-1, 1/2-1/2, 0-0, 1/2-0, 0-1/2 or void; on a finished game
/// it corrects the result); `correct-result` (the same); `void` (no result);
/// `decide-claim` (`accept`: a "no progress" claim, Guidelines III.5);
/// `grant-increment` (Guidelines III.4); `forfeit` (`color`: did not appear
/// within the default time, 6.7); `adjourn` (the player to move must seal);
/// `resume-adjourned` (`at`: ms since the epoch, or now); `set-back` (`plies`:
/// the position before an irregularity, Art. 7).
#[utoipa::path(post, path = "/api/arbiter/game/{id}/{action}", tag = "arbiter",
    params(("id" = String, Path, description = "The game"), ("action" = String, Path, description = "What to do (see above)")),
    request_body(content((ArbiterForm = "application/x-www-form-urlencoded"), (ArbiterForm = "application/json"))),
    responses(
        (status = 200, description = "Done, recorded and shown to everyone", body = OkBody),
        (status = 400, description = "A field missing or wrong (named), or the rules refuse it now (with why)", body = ErrorBody),
        (status = 403, description = "Not an arbiter of this game, or a player of it", body = ErrorBody),
        (status = 404, description = "No such game or action", body = ErrorBody),
        (status = 409, description = "The game is over (only its result can be corrected)", body = ErrorBody)))]
async fn arbitrate(
    State(arbiters): State<Arc<Arbiters>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path((id, name)): Path<(String, String)>,
    Fields(form): Fields<ArbiterForm>,
) -> Result<Json<Value>, ApiError> {
    limits.take(user.id, Kind::GameAction)?;
    let action = match name.as_str() {
        "correct-result" => action_of("result", &form)?,
        "void" => ArbiterAction::DeclareResult {
            result: GameResult::Void,
        },
        other => action_of(other, &form)?,
    };
    let reason = crate::services::chat::clean(&form.reason);
    if reason.chars().count() > 400 {
        return Err(ApiError::BadRequest(
            "reason: at most 400 characters".into(),
        ));
    }
    arbiters.act(&user, &id, action, &reason).await?;
    Ok(ok())
}

/// One game in an arbiter's list.
fn listed(view: &View) -> Value {
    let info = &view.info;
    json!({
        "id": info.id,
        "white": { "name": info.white.name, "rating": info.white.rating },
        "black": { "name": info.black.name, "rating": info.black.rating },
        "ruleset": info.setup.ruleset.name(),
        "timeControl": info.setup.time_control.to_string(),
        "tournament": info.source.tournament(),
        "needsArbiter": view.pending.needs_arbiter(),
        // How old the state's clocks are, ms: the running one has run as long.
        "age": crate::live::view::now_ms().saturating_sub(view.at),
        "state": lichess::game_state(view),
    })
}

/// Which of the games an arbiter's list shows.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct GamesQuery {
    /// Only the games of this tournament (arena, Swiss or round robin).
    pub tournament: Option<String>,
}

/// The games the caller arbitrates: with the `arbiter` right every game being
/// played that they do not play, and the games they were named arbiter of
/// (with the last finished ones); those waiting for a decision first.
#[utoipa::path(get, path = "/api/arbiter/games", tag = "arbiter", params(GamesQuery),
    responses(
        (status = 200, description = "`{arbiter, games: [{id, white, black, ruleset, timeControl, tournament, needsArbiter, age, state}]}`; `arbiter`: whether the caller holds the right; `tournament`: the tournament the game belongs to, or null; `age`: how many ms ago the state's clocks were read (the running one has run as long since)", body = Object),
        (status = 400, description = "An unknown query parameter", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody)))]
async fn games(
    State(arbiters): State<Arc<Arbiters>>,
    Authed(user): Authed,
    Params(q): Params<GamesQuery>,
) -> Result<Json<Value>, ApiError> {
    let mut views = arbiters.games_of(&user).await?;
    if let Some(tournament) = &q.tournament {
        views.retain(|v| v.info.source.tournament() == Some(tournament.as_str()));
    }
    Ok(Json(json!({
        "arbiter": arbiters.is_arbiter(user.id).await?,
        "games": views.iter().map(|v| listed(v)).collect::<Vec<_>>(),
    })))
}

/// The arbiter's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(arbitrate))
        .routes(routes!(games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_action_is_read() {
        let form = ArbiterForm {
            color: Some("white".into()),
            seconds: Some(30.0),
            penalty: Some("time".into()),
            result: Some("0-0".into()),
            accept: Some(true),
            plies: Some(1),
            ..ArbiterForm::default()
        };
        for name in ACTIONS {
            if matches!(name, "correct-result" | "void") {
                continue;
            }
            assert!(action_of(name, &form).is_ok(), "{name}");
        }
        assert!(action_of("dance", &form).is_err());
    }

    #[test]
    fn a_missing_or_wrong_field_is_named() {
        let none = ArbiterForm::default();
        let err = action_of("add-time", &none).unwrap_err().to_string();
        assert!(err.contains("color"), "{err}");
        let bad = ArbiterForm {
            color: Some("white".into()),
            seconds: Some(-5.0),
            ..ArbiterForm::default()
        };
        let err = action_of("add-time", &bad).unwrap_err().to_string();
        assert!(err.contains("seconds"), "{err}");
        let err = action_of(
            "result",
            &ArbiterForm {
                result: Some("2-0".into()),
                ..ArbiterForm::default()
            },
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("2-0"), "{err}");
    }
}
