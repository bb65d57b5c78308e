//! An account's safety, from the owner's side: change the password, close the
//! account, block and unblock users (lichess's `/api/rel/block/{username}`),
//! and report a user or a chat line to the operators.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_arbiter::Action;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::Fields;
use crate::http::peer::Source;
use crate::routes::docs::{ErrorBody, OkBody};
use crate::routes::session::{cookie, Authed, SESSION_COOKIE};
use crate::services::accounts::Accounts;
use crate::services::challenges::Challenges;
use crate::services::games::Games;
use crate::services::lobby::Lobby;
use crate::services::safety::{NewReport, Safety};
use crate::services::tokens::Tokens;
use crate::state::AppState;

/// A password and an account's own proof of it are changed from a signed-in
/// browser: a token given to an app must not take the account over.
fn browser_only(headers: &HeaderMap) -> Result<(), ApiError> {
    if headers.contains_key(header::AUTHORIZATION) {
        return Err(ApiError::Forbidden(
            "the password and closing the account are managed from a signed-in browser".into(),
        ));
    }
    Ok(())
}

/// A new password.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewPassword {
    /// The password now.
    pub current_password: String,
    /// The new one, at least 8 characters.
    pub new_password: String,
}

/// Changes the signed-in user's password; every other session of theirs ends
/// (this one goes on).
#[utoipa::path(post, path = "/api/account/password", tag = "account",
    request_body(content((NewPassword = "application/x-www-form-urlencoded"), (NewPassword = "application/json"))),
    responses(
        (status = 200, description = "`{ok: true, sessionsEnded}`", body = Object),
        (status = 400, description = "A new password that is too short, or the same", body = ErrorBody),
        (status = 403, description = "A wrong current password, or asked with a token", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords", body = ErrorBody)))]
async fn change_password(
    State(accounts): State<Arc<Accounts>>,
    Authed(user): Authed,
    Source(source): Source,
    headers: HeaderMap,
    Fields(body): Fields<NewPassword>,
) -> Result<Json<Value>, ApiError> {
    browser_only(&headers)?;
    let keep = cookie(&headers, SESSION_COOKIE);
    let ended = accounts
        .change_password(
            &user,
            &body.current_password,
            &body.new_password,
            source,
            keep,
        )
        .await?;
    Ok(Json(json!({ "ok": true, "sessionsEnded": ended })))
}

/// The password that confirms closing an account.
#[derive(Deserialize, ToSchema)]
pub struct Confirmation {
    /// The account's password.
    pub password: String,
}

/// Closes the signed-in user's account for good: its games being played are
/// resigned (aborted if they had not started), its seeks and challenges
/// withdrawn, its sessions and tokens ended; its name stays taken and its
/// games stay on record.
#[utoipa::path(post, path = "/api/account/close", tag = "account",
    request_body(content((Confirmation = "application/x-www-form-urlencoded"), (Confirmation = "application/json"))),
    responses(
        (status = 200, description = "Closed; the session cookie is cleared", body = OkBody),
        (status = 403, description = "A wrong password, or asked with a token", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords", body = ErrorBody)))]
#[allow(clippy::too_many_arguments)]
async fn close_account(
    State(accounts): State<Arc<Accounts>>,
    State(tokens): State<Arc<Tokens>>,
    State(games): State<Arc<Games>>,
    State(challenges): State<Arc<Challenges>>,
    State(lobby): State<Arc<Lobby>>,
    Authed(user): Authed,
    Source(source): Source,
    headers: HeaderMap,
    Fields(body): Fields<Confirmation>,
) -> Result<Response, ApiError> {
    browser_only(&headers)?;
    let held = tokens.of_user(user.id).await?;
    accounts.close_own(&user, &body.password, source).await?;
    for token in held {
        tokens.forget(&token.hash);
    }
    lobby.withdraw_all_of(user.id);
    for c in challenges.waiting(|c| c.concerns(user.id)) {
        // Declined by the one challenged, withdrawn by the challenger.
        let _ = challenges.decline(&c.id, user.id, "generic").await;
    }
    for game in games.playing(user.id).await? {
        if game.act(user.id, Action::Resign, None).await.is_err() {
            let _ = game.act(user.id, Action::Abort, None).await;
        }
    }
    let mut response = Json(json!({ "ok": true })).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("caissa_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"),
    );
    Ok(response)
}

/// Blocks a user: they can no longer challenge you, are not paired with you
/// from the lobby, and their chat lines are not shown to you.
#[utoipa::path(post, path = "/api/rel/block/{username}", tag = "users",
    params(("username" = String, Path, description = "Who to block")),
    responses(
        (status = 200, description = "Blocked (or already)", body = OkBody),
        (status = 400, description = "Yourself", body = ErrorBody),
        (status = 404, description = "No such user", body = ErrorBody)))]
async fn block(
    State(accounts): State<Arc<Accounts>>,
    State(safety): State<Arc<Safety>>,
    Authed(user): Authed,
    Path(username): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let other = accounts.named(&username).await?;
    safety.block(&user, &other).await?;
    Ok(Json(json!({ "ok": true })))
}

/// Unblocks a user.
#[utoipa::path(post, path = "/api/rel/unblock/{username}", tag = "users",
    params(("username" = String, Path, description = "Who to unblock")),
    responses(
        (status = 200, description = "Unblocked (or was not blocked)", body = OkBody),
        (status = 404, description = "No such user", body = ErrorBody)))]
async fn unblock(
    State(accounts): State<Arc<Accounts>>,
    State(safety): State<Arc<Safety>>,
    Authed(user): Authed,
    Path(username): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let other = accounts.named(&username).await?;
    safety.unblock(&user, &other).await?;
    Ok(Json(json!({ "ok": true })))
}

/// The users the signed-in user blocks (a Caissa addition): `{blocking:
/// [{id, username}]}`, by name.
#[utoipa::path(get, path = "/api/rel/blocking", tag = "users",
    responses(
        (status = 200, description = "`{blocking: [{id, username}]}`", body = Object),
        (status = 401, description = "Not signed in", body = ErrorBody)))]
async fn blocking(
    State(safety): State<Arc<Safety>>,
    Authed(user): Authed,
) -> Result<Json<Value>, ApiError> {
    let blocked: Vec<Value> = safety
        .blocked_by(user.id)
        .await?
        .into_iter()
        .map(|u| json!({ "id": u.name.to_lowercase(), "username": u.name }))
        .collect();
    Ok(Json(json!({ "blocking": blocked })))
}

/// A report to the operators.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportForm {
    /// Who is reported.
    pub username: String,
    /// `cheat`, `stall` (letting the clock run), `boost` (losing on purpose),
    /// `comm` (insults, harassment or spam in chat) or `other`.
    pub reason: String,
    /// What happened, or the chat line reported, 1 to 2,000 characters.
    pub text: String,
    /// The game it happened in, if any: the reported user played or wrote in it.
    pub game_id: Option<String>,
}

/// Reports a user, or a line they wrote in a game's chat, to the operators
/// (a Caissa addition; lichess takes reports on a web form). Operators read
/// them with `caissa reports`.
#[utoipa::path(post, path = "/api/report", tag = "users",
    request_body(content((ReportForm = "application/x-www-form-urlencoded"), (ReportForm = "application/json"))),
    responses(
        (status = 200, description = "`{ok: true, id}`: the report's number", body = Object),
        (status = 400, description = "An unknown reason, an empty or long text, yourself, or a game the user had no part in", body = ErrorBody),
        (status = 404, description = "No such user", body = ErrorBody),
        (status = 429, description = "Too many reports", body = ErrorBody)))]
async fn report(
    State(accounts): State<Arc<Accounts>>,
    State(safety): State<Arc<Safety>>,
    Authed(user): Authed,
    Fields(body): Fields<ReportForm>,
) -> Result<Json<Value>, ApiError> {
    let suspect = accounts.named(body.username.trim()).await?;
    let id = safety
        .report(
            &user,
            NewReport {
                suspect: &suspect,
                reason: body.reason.trim(),
                text: &body.text,
                game_id: body.game_id.as_deref().filter(|g| !g.is_empty()),
            },
        )
        .await?;
    Ok(Json(json!({ "ok": true, "id": id })))
}

/// The safety routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(change_password))
        .routes(routes!(close_account))
        .routes(routes!(block))
        .routes(routes!(unblock))
        .routes(routes!(blocking))
        .routes(routes!(report))
}
