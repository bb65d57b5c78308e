//! The lichess Board API's game actions: moves, resignation, abort, draw offers
//! and claims, takebacks, rematches and the game's chat. Every action is answered
//! once it is durable; what the arbiter refuses is answered with its reason.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use caissa_arbiter::Action;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::{Fields, Params};
use crate::http::limits::{Kind, RateLimits};
use crate::live::handle::{GameHandle, Room};
use crate::live::view::now_ms;
use crate::routes::docs::{ok, ErrorBody, OkBody};
use crate::routes::session::Authed;
use crate::services::accounts::Accounts;
use crate::services::challenges::Challenges;
use crate::services::chat::Chat;
use crate::services::games::Games;
use crate::state::AppState;

/// A player's action on a game, answered once it is durable.
async fn act(
    games: &Games,
    limits: &RateLimits,
    id: &str,
    user: i64,
    action: Action,
) -> Result<Json<Value>, ApiError> {
    limits.take(user, Kind::GameAction)?;
    let handle = games.playable(id).await?;
    handle.act(user, action, None).await.map(|()| ok())
}

/// A move's options.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MoveQuery {
    /// Offer (or agree to) a draw with the move.
    #[serde(rename = "offeringDraw")]
    pub offering_draw: Option<bool>,
    /// The number of half-moves played before this one, as the client saw the
    /// game: a move sent for an older position is refused (409, `stale ply`).
    pub ply: Option<u32>,
}

/// Plays a move (UCI, or SAN) and presses the clock.
#[utoipa::path(post, path = "/api/board/game/{id}/move/{move}", tag = "board",
    params(("id" = String, Path, description = "The game"), ("move" = String, Path, description = "The move in UCI (e2e4, e7e8q, e1g1) or SAN"), MoveQuery),
    responses(
        (status = 200, description = "Played (and durable)", body = OkBody),
        (status = 400, description = "Not a move, or an illegal one (with the rule it breaks)", body = ErrorBody),
        (status = 403, description = "Not a player of this game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "Not your turn, the game is over, or a stale ply", body = ErrorBody)))]
pub(crate) async fn make_move(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path((id, text)): Path<(String, String)>,
    Params(query): Params<MoveQuery>,
) -> Result<Json<Value>, ApiError> {
    limits.take(user.id, Kind::GameAction)?;
    let handle = games.playable(&id).await?;
    let action = Action::Move {
        text,
        lag_ms: 0,
        offering_draw: query.offering_draw.unwrap_or(false),
    };
    handle.act(user.id, action, query.ply).await?;
    Ok(ok())
}

/// Resigns the game.
#[utoipa::path(post, path = "/api/board/game/{id}/resign", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Resigned", body = OkBody),
        (status = 400, description = "The ruleset does not allow it yet", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody)))]
pub(crate) async fn resign(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act(&games, &limits, &id, user.id, Action::Resign).await
}

/// Goes berserk in an arena's game, before one's first move: half the base time
/// given up and no increment, for a bonus point on a win of at least 7 moves.
#[utoipa::path(post, path = "/api/board/game/{id}/berserk", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Berserk", body = OkBody),
        (status = 400, description = "Not an arena's game, already moved, or already berserk", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody)))]
async fn berserk(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act(&games, &limits, &id, user.id, Action::Berserk).await
}

/// Aborts the game (where the ruleset allows it, before it really starts).
#[utoipa::path(post, path = "/api/board/game/{id}/abort", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Aborted", body = OkBody),
        (status = 400, description = "Too late to abort", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody)))]
pub(crate) async fn abort(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act(&games, &limits, &id, user.id, Action::Abort).await
}

fn player_of(handle: &GameHandle, user: i64) -> Result<caissa_rules::Color, ApiError> {
    handle
        .color_of(user)
        .ok_or_else(|| ApiError::Forbidden("you are not playing this game".into()))
}

/// As lichess: `yes` offers a draw (which agrees to the opponent's open offer),
/// or on one's own turn claims a draw the rules allow now (9.2, 9.3); `no`
/// declines the opponent's offer, and with none there is nothing to do.
#[utoipa::path(post, path = "/api/board/game/{id}/draw/{accept}", tag = "board",
    params(("id" = String, Path, description = "The game"), ("accept" = String, Path, description = "`yes` or `no`")),
    responses(
        (status = 200, description = "Offered, agreed, claimed or declined", body = OkBody),
        (status = 400, description = "Not `yes` or `no`, or an offer the ruleset does not allow now", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody)))]
pub(crate) async fn draw(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path((id, accept)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let handle = games.playable(&id).await?;
    let me = player_of(&handle, user.id)?;
    let view = handle.view();
    let action = match accept.as_str() {
        // Already offered: offering again changes nothing.
        "yes" | "true" if view.draw_offer == Some(me) => return Ok(ok()),
        "yes" | "true"
            if view.draw_offer.is_none() && view.turn() == me && view.finish.is_none() =>
        {
            match view.claims.first() {
                Some(&claim) => Action::ClaimDraw {
                    claim,
                    with_move: None,
                },
                None => Action::OfferDraw,
            }
        }
        "yes" | "true" => Action::OfferDraw,
        "no" | "false" if view.draw_offer == Some(!me) => Action::DeclineDraw,
        "no" | "false" if view.finish.is_none() => return Ok(ok()),
        "no" | "false" => return Err(ApiError::game_over()),
        other => {
            return Err(ApiError::BadRequest(format!(
                "{other:?}: expected yes or no"
            )))
        }
    };
    act(&games, &limits, &id, user.id, action).await
}

/// Acts on the opponent's absence: the action is built from how long the
/// opponent has been gone, as measured here, and the game decides whether
/// that is long enough.
async fn act_on_absence(
    games: &Games,
    limits: &RateLimits,
    id: &str,
    user: i64,
    action: impl FnOnce(u64) -> Action,
) -> Result<Json<Value>, ApiError> {
    let handle = games.playable(id).await?;
    let me = player_of(&handle, user)?;
    let gone = handle.gone_ms(!me, now_ms());
    act(games, limits, id, user, action(gone)).await
}

/// Claims the game: the opponent has been gone long enough (online rulesets).
#[utoipa::path(post, path = "/api/board/game/{id}/claim-victory", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Won", body = OkBody),
        (status = 400, description = "The opponent has not been gone long enough", body = ErrorBody)))]
pub(crate) async fn claim_victory(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act_on_absence(&games, &limits, &id, user.id, |opponent_gone_ms| {
        Action::ClaimVictory { opponent_gone_ms }
    })
    .await
}

/// Calls a draw: the opponent has been gone long enough (online rulesets).
#[utoipa::path(post, path = "/api/board/game/{id}/claim-draw", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Drawn", body = OkBody),
        (status = 400, description = "The opponent has not been gone long enough", body = ErrorBody)))]
pub(crate) async fn claim_draw(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act_on_absence(&games, &limits, &id, user.id, |opponent_gone_ms| {
        Action::CallDraw { opponent_gone_ms }
    })
    .await
}

/// Claims that the opponent's flag has fallen (rulesets where a flag must be
/// claimed: `fide-rapid`, `fide-blitz`; 6.8, A.5.3, B.3). Won, or drawn when the
/// claimant cannot checkmate by any series of legal moves (6.9).
#[utoipa::path(post, path = "/api/board/game/{id}/claim-flag", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Won on time, or drawn (6.9)", body = OkBody),
        (status = 400, description = "The opponent's flag has not fallen, or your own has too", body = ErrorBody),
        (status = 403, description = "Not a player of this game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody)))]
async fn claim_flag(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act(&games, &limits, &id, user.id, Action::ClaimFlag).await
}

/// Adjourns the game by sealing the next move (Guidelines I; rulesets with
/// adjournment, such as `fide-standard`, or when the arbiter adjourned the game).
/// The move stays secret from the opponent and spectators, in streams and
/// exports, until the envelope is opened at the resumption; the clocks stop.
/// An illegal or ambiguous sealed move loses then (Guidelines I.8).
///
/// The move goes in the body (field `move`), not the address, so that it is not
/// written in request logs on its way.
#[utoipa::path(post, path = "/api/board/game/{id}/seal", tag = "board",
    params(("id" = String, Path, description = "The game")),
    request_body(content((SealForm = "application/x-www-form-urlencoded"), (SealForm = "application/json"))),
    responses(
        (status = 200, description = "Sealed: the game is adjourned", body = OkBody),
        (status = 400, description = "The ruleset has no adjournment, or it is not your move", body = ErrorBody),
        (status = 403, description = "Not a player of this game", body = ErrorBody)))]
async fn seal(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    Fields(form): Fields<SealForm>,
) -> Result<Json<Value>, ApiError> {
    let text = form.text.trim().to_string();
    if text.is_empty() || text.len() > 16 {
        return Err(ApiError::BadRequest(
            "move: write the sealed move (SAN or UCI)".into(),
        ));
    }
    act(&games, &limits, &id, user.id, Action::Seal { text }).await
}

/// The sealed move.
#[derive(Deserialize, ToSchema)]
pub struct SealForm {
    /// The move as written on the scoresheet, in SAN or UCI.
    #[serde(rename = "move", default)]
    pub text: String,
}

/// When to resume an adjourned game.
#[derive(Deserialize, ToSchema)]
pub struct ResumeForm {
    /// When, ms since the Unix epoch.
    pub at: u64,
}

/// Proposes a time to resume an adjourned game; when the opponent proposes the
/// same time, the game resumes then by itself (the envelope opened, the sealed
/// move played, the clocks as they were). The arbiter can set the time too.
#[utoipa::path(post, path = "/api/board/game/{id}/resume", tag = "board",
    params(("id" = String, Path, description = "The game")),
    request_body(content((ResumeForm = "application/x-www-form-urlencoded"), (ResumeForm = "application/json"))),
    responses(
        (status = 200, description = "Proposed, or agreed (both proposed this time)", body = OkBody),
        (status = 400, description = "Not adjourned, or a time in the past", body = ErrorBody)))]
async fn resume(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    Fields(form): Fields<ResumeForm>,
) -> Result<Json<Value>, ApiError> {
    let action = Action::ProposeResumption { at: form.at };
    act(&games, &limits, &id, user.id, action).await
}

/// Asks for a 5-second increment for both players, with under two minutes left
/// (Guidelines III.4, rulesets with Guidelines III); the opponent may accept or
/// refuse it as a draw offer, then the arbiter decides.
#[utoipa::path(post, path = "/api/board/game/{id}/request-increment", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Asked; the arbiter decides (`pending.incrementRequest`)", body = OkBody),
        (status = 400, description = "The ruleset has no Guidelines III, or more than two minutes left", body = ErrorBody)))]
async fn request_increment(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act(&games, &limits, &id, user.id, Action::RequestIncrement).await
}

/// Claims a draw because the opponent cannot win by normal means, with under two
/// minutes left (Guidelines III.5); the arbiter decides.
#[utoipa::path(post, path = "/api/board/game/{id}/claim-no-progress", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Claimed; the arbiter decides (`pending.noProgressClaim`)", body = OkBody),
        (status = 400, description = "The ruleset has no Guidelines III, or more than two minutes left", body = ErrorBody)))]
async fn claim_no_progress(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    act(&games, &limits, &id, user.id, Action::ClaimNoProgress).await
}

/// Proposes or accepts a takeback (`yes`), or declines or withdraws one (`no`).
#[utoipa::path(post, path = "/api/board/game/{id}/takeback/{accept}", tag = "board",
    params(("id" = String, Path, description = "The game"), ("accept" = String, Path, description = "`yes` or `no`")),
    responses(
        (status = 200, description = "Proposed, taken back or declined", body = OkBody),
        (status = 400, description = "Not `yes` or `no`, or the ruleset has no takebacks", body = ErrorBody)))]
pub(crate) async fn takeback(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let action = match answer.as_str() {
        "yes" => Action::ProposeTakeback,
        // As lichess: nothing to decline or withdraw is not an error.
        "no" if games.playable(&id).await?.view().takeback.is_none() => return Ok(ok()),
        "no" => Action::DeclineTakeback,
        other => {
            return Err(ApiError::BadRequest(format!(
                "takeback/{other}: say yes or no"
            )))
        }
    };
    act(&games, &limits, &id, user.id, action).await
}

/// Offers or accepts a rematch of a finished game (`yes`: the same terms,
/// colours swapped; offering while the opponent's offer is open accepts it), or
/// declines or withdraws the offer (`no`).
#[utoipa::path(post, path = "/api/board/game/{id}/rematch/{accept}", tag = "board",
    params(("id" = String, Path, description = "The finished game"), ("accept" = String, Path, description = "`yes` or `no`")),
    responses(
        (status = 200, description = "`{ok, challenge}` offered, or `{gameId}` accepted", body = Object),
        (status = 400, description = "The game is not over", body = ErrorBody),
        (status = 409, description = "The two are playing each other already", body = ErrorBody)))]
async fn rematch(
    State(arbiters): State<Arc<crate::services::arbiters::Arbiters>>,
    State(games): State<Arc<Games>>,
    State(challenges): State<Arc<Challenges>>,
    State(accounts): State<Arc<Accounts>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let view = games.find(&id).await?.view();
    let me = view
        .info
        .color_of(user.id)
        .ok_or_else(|| ApiError::Forbidden("you are not playing this game".into()))?;
    if view.finish.is_none() {
        return Err(ApiError::BadRequest(
            "a rematch can be offered once the game is over".into(),
        ));
    }
    let opponent = view.info.player(!me).clone();
    if answer == "yes" {
        // One game at a time between the two: not a second rematch beside the first.
        let playing = games
            .of_user(user.id)
            .into_iter()
            .find(|g| g.color_of(opponent.id).is_some());
        if let Some(game) = playing {
            return Err(ApiError::Conflict(format!(
                "you are already playing each other: game {}",
                game.id()
            )));
        }
    }
    match (answer.as_str(), challenges.rematch_offer(&id)) {
        ("yes", Some((challenge, by))) if by != user.id => {
            let game = challenges.accept(&challenge, &user).await?;
            Ok(Json(json!({ "gameId": game.id() })))
        }
        ("yes", Some((challenge, _))) => Ok(Json(json!({ "ok": true, "challenge": challenge }))),
        ("yes", None) => {
            limits.take(user.id, Kind::Seek)?;
            let dest = accounts
                .by_id(opponent.id)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("user {}", opponent.name)))?;
            let setup = &view.info.setup;
            let challenge = crate::domain::challenge::Challenge {
                id: crate::domain::new_id(),
                challenger: user,
                dest: Some(dest),
                terms: crate::domain::challenge::Terms {
                    time_control: setup.time_control.clone(),
                    // Colours swapped: I take the colour my opponent had.
                    color: (!me).into(),
                    challenger_color: Some(!me),
                    rated: view.info.rated,
                    ruleset: setup.ruleset,
                    rematch_of: Some(id.clone()),
                    // The same position again (a new Chess960 one would be a new game).
                    fen: setup.fen.clone(),
                    chess960: setup.chess960,
                    // The rematch is arbitrated by the same arbiters.
                    arbiters: arbiters.named(&id).await?,
                    arbiter_names: Vec::new(),
                },
                created_at: now_ms(),
                ratings: Default::default(),
            };
            let answer = json!({ "ok": true, "challenge": challenge.id });
            challenges.offer(challenge).await?;
            Ok(Json(answer))
        }
        ("no", Some((challenge, _))) => {
            challenges.answer_rematch(&challenge, user.id).await?;
            Ok(ok())
        }
        ("no", None) => Ok(ok()),
        (other, _) => Err(ApiError::BadRequest(format!(
            "rematch/{other}: say yes or no"
        ))),
    }
}

/// A line of chat.
#[derive(Deserialize, ToSchema)]
pub struct ChatForm {
    /// `player` (the players' own room) or `spectator`.
    #[schema(value_type = String)]
    pub room: Room,
    /// 1 to 140 characters (control characters are taken out).
    #[serde(default)]
    pub text: String,
}

/// Writes a line in a room of a game, during it or after.
#[utoipa::path(post, path = "/api/board/game/{id}/chat", tag = "board",
    params(("id" = String, Path, description = "The game")),
    request_body(content((ChatForm = "application/x-www-form-urlencoded"), (ChatForm = "application/json"))),
    responses(
        (status = 200, description = "Said (and stored)", body = OkBody),
        (status = 400, description = "An unknown room, or an empty or long line", body = ErrorBody),
        (status = 403, description = "Not a player, writing in the players' room", body = ErrorBody),
        (status = 429, description = "Too many lines", body = ErrorBody)))]
pub(crate) async fn chat_post(
    State(chat): State<Arc<Chat>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    Fields(form): Fields<ChatForm>,
) -> Result<Json<Value>, ApiError> {
    chat.say(&id, user, form.room, &form.text).await?;
    Ok(ok())
}

/// The last lines of a game's chat, oldest first, live or finished: the
/// players' room for its players, the spectators' room for anyone else.
#[utoipa::path(get, path = "/api/board/game/{id}/chat", tag = "board",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "`[{user, text}]`", body = Object),
        (status = 404, description = "No such game", body = ErrorBody)))]
pub(crate) async fn chat_get(
    State(chat): State<Arc<Chat>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let lines: Vec<Value> = chat
        .lines(&id, user.id)
        .await?
        .into_iter()
        .map(|l| json!({ "user": l.username, "text": l.text }))
        .collect();
    Ok(Json(Value::Array(lines)))
}

/// The Board API's action routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(make_move))
        .routes(routes!(resign))
        .routes(routes!(berserk))
        .routes(routes!(abort))
        .routes(routes!(draw))
        .routes(routes!(claim_victory))
        .routes(routes!(claim_draw))
        .routes(routes!(claim_flag))
        .routes(routes!(seal))
        .routes(routes!(resume))
        .routes(routes!(request_increment))
        .routes(routes!(claim_no_progress))
        .routes(routes!(takeback))
        .routes(routes!(rematch))
        .routes(routes!(chat_post, chat_get))
}
