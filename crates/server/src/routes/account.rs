//! Accounts as browsers use them: register, log in, play as a guest, log out,
//! and the account of whoever asks. A session is an HttpOnly cookie
//! (SameSite=Lax) plus a CSRF token the page echoes in a header; starting one is
//! refused to other sites' pages.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_store::User;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::Fields;
use crate::http::peer::Source;
use crate::http::security::require_same_site;
use crate::live::view::now_ms;
use crate::routes::docs::ErrorBody;
use crate::routes::games::site_of;
use crate::routes::session::{cookie, Authed, MaybeAuthed, CSRF_HEADER, SESSION_COOKIE};
use crate::services::accounts::Accounts;
use crate::services::ratings::Ratings;
use crate::state::AppState;

/// A name and password.
#[derive(Deserialize, ToSchema)]
pub struct Credentials {
    /// The account's name (any case when logging in).
    pub username: String,
    /// The password (at least 8 characters to register).
    pub password: String,
}

/// Whether the request reached us over HTTPS (through a proxy that says so): its
/// cookies are then marked `Secure`, never sent over plain HTTP.
fn over_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// Starts a session: the cookie in the response, the CSRF token in the body.
async fn session_response(
    accounts: &Accounts,
    headers: &HeaderMap,
    user: User,
) -> Result<Response, ApiError> {
    let session = accounts.start_session(&user).await?;
    let secure = if over_https(headers) { "; Secure" } else { "" };
    let max_age = accounts.session_ttl().as_secs();
    let cookie = format!(
        "{SESSION_COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}",
        session.secret
    );
    let mut response = Json(json!({ "username": user.name, "csrf": session.csrf })).into_response();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    Ok(response)
}

fn credentials(c: &Credentials) -> Result<(&str, &str), ApiError> {
    let name = c.username.trim();
    if name.is_empty() || c.password.is_empty() {
        return Err(ApiError::BadRequest(
            "username and password are required".into(),
        ));
    }
    Ok((name, &c.password))
}

/// Makes an account and signs it in.
#[utoipa::path(post, path = "/api/register", tag = "account", security(()),
    request_body(content((Credentials = "application/json"), (Credentials = "application/x-www-form-urlencoded"))),
    responses(
        (status = 200, description = "Signed in: `{username, csrf}` and the session cookie", body = Object),
        (status = 400, description = "An invalid name or a short password", body = ErrorBody),
        (status = 403, description = "Sent from another site's page", body = ErrorBody),
        (status = 409, description = "The name is taken", body = ErrorBody),
        (status = 429, description = "Too many new accounts from this address", body = ErrorBody)))]
async fn register(
    State(accounts): State<Arc<Accounts>>,
    Source(source): Source,
    uri: Uri,
    headers: HeaderMap,
    Fields(body): Fields<Credentials>,
) -> Result<Response, ApiError> {
    require_same_site(&headers, &uri)?;
    let (name, password) = credentials(&body)?;
    let user = accounts.register(name, password, source).await?;
    session_response(&accounts, &headers, user).await
}

/// Signs in with a name and password.
#[utoipa::path(post, path = "/api/login", tag = "account", security(()),
    request_body(content((Credentials = "application/json"), (Credentials = "application/x-www-form-urlencoded"))),
    responses(
        (status = 200, description = "Signed in: `{username, csrf}` and the session cookie", body = Object),
        (status = 401, description = "Wrong name or password", body = ErrorBody),
        (status = 403, description = "Sent from another site's page", body = ErrorBody),
        (status = 429, description = "Too many failed attempts for this name from this address, or too many attempts from it", body = ErrorBody)))]
async fn login(
    State(accounts): State<Arc<Accounts>>,
    Source(source): Source,
    uri: Uri,
    headers: HeaderMap,
    Fields(body): Fields<Credentials>,
) -> Result<Response, ApiError> {
    require_same_site(&headers, &uri)?;
    let (name, password) = credentials(&body)?;
    let user = accounts.login(name, password, source).await?;
    session_response(&accounts, &headers, user).await
}

/// A new guest account with a generated name, signed in. Guests play casual
/// games only.
#[utoipa::path(post, path = "/api/guest", tag = "account", security(()),
    responses(
        (status = 200, description = "Signed in as the guest: `{username, csrf}` and the session cookie", body = Object),
        (status = 403, description = "Sent from another site's page", body = ErrorBody),
        (status = 429, description = "Too many new guests from this address", body = ErrorBody)))]
async fn guest(
    State(accounts): State<Arc<Accounts>>,
    Source(source): Source,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    require_same_site(&headers, &uri)?;
    let user = accounts.guest(source).await?;
    session_response(&accounts, &headers, user).await
}

/// Ends the browser session (with its CSRF token, like every other change, so
/// that another site cannot log a user out).
#[utoipa::path(post, path = "/api/logout", tag = "account", security(()),
    responses(
        (status = 200, description = "Signed out", body = crate::routes::docs::OkBody),
        (status = 403, description = "Missing or wrong CSRF token", body = ErrorBody)))]
async fn logout(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(secret) = cookie(&headers, SESSION_COOKIE) {
        if let Some((_, csrf)) = accounts.session(secret).await? {
            let sent = headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
            if sent != Some(csrf.as_str()) {
                return Err(ApiError::Forbidden("missing or wrong CSRF token".into()));
            }
        }
        accounts.end_session(secret).await?;
    }
    let mut response = Json(json!({ "ok": true })).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("caissa_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"),
    );
    Ok(response)
}

/// The account of whoever asks, with ratings per speed; for a browser session
/// also its CSRF token, so a reloaded page can act again (other sites cannot
/// read this answer).
#[utoipa::path(get, path = "/api/account", tag = "account",
    responses(
        (status = 200, description = "`{id, username, url, createdAt, seenAt, perfs, playTime: {total, tv}, title?}` (`title`: `BOT` for a bot account; and `csrf` for a session)", body = Object),
        (status = 401, description = "No or an unknown token or session", body = ErrorBody)))]
async fn account(
    State(accounts): State<Arc<Accounts>>,
    State(ratings): State<Arc<Ratings>>,
    Authed(user): Authed,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    account_json(&accounts, &ratings, &user, &headers)
        .await
        .map(Json)
}

/// Who the web app's visitor is: `{account}`, the account as `/api/account`
/// gives it, or `null` for a visitor who is not logged in (answered 200, so
/// that an anonymous page view logs no failed request).
#[utoipa::path(get, path = "/api/session", tag = "account", security(()),
    responses((status = 200, description = "`{account: {...} | null}`", body = Object)))]
async fn session(
    State(accounts): State<Arc<Accounts>>,
    State(ratings): State<Arc<Ratings>>,
    MaybeAuthed(user): MaybeAuthed,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let account = match user {
        Some(user) => account_json(&accounts, &ratings, &user, &headers).await?,
        None => Value::Null,
    };
    Ok(Json(json!({ "account": account })))
}

/// The account of `user` as its owner sees it.
async fn account_json(
    accounts: &Accounts,
    ratings: &Ratings,
    user: &User,
    headers: &HeaderMap,
) -> Result<Value, ApiError> {
    let mut account = json!({
        "id": user.name.to_lowercase(),
        "username": user.name,
        "url": format!("{}/@/{}", site_of(headers), user.name),
        "createdAt": user.created_at,
        // Whoever asks for their account is being seen now.
        "seenAt": now_ms(),
        "perfs": ratings.perfs(user.id).await?,
        "playTime": ratings.play_time(user.id).await?,
    });
    if let Some(title) = &user.title {
        account["title"] = json!(title);
    }
    if headers.get(header::AUTHORIZATION).is_none() {
        if let Some(secret) = cookie(headers, SESSION_COOKIE) {
            if let Some((_, csrf)) = accounts.session(secret).await? {
                account["csrf"] = json!(csrf);
            }
        }
    }
    Ok(account)
}

/// The account's email address, as lichess answers it: Caissa keeps none, so
/// `{email: null}`.
#[utoipa::path(get, path = "/api/account/email", tag = "account",
    responses(
        (status = 200, description = "`{email: null}`", body = Object),
        (status = 401, description = "No or an unknown token or session", body = ErrorBody)))]
async fn email(Authed(_user): Authed) -> Json<Value> {
    Json(json!({ "email": null }))
}

/// The account's preferences, as lichess's `{prefs, language}`: the board
/// settings the web app uses, with lichess's values for what Caissa does not
/// offer to change.
#[utoipa::path(get, path = "/api/account/preferences", tag = "account",
    responses(
        (status = 200, description = "`{prefs: {dark, transp, bgImg, is3d, theme, pieceSet, soundSet, blindfold, autoQueen, autoThreefold, takeback, moretime, clockTenths, clockBar, clockSound, premove, animation, captured, follow, highlight, destination, coords, replay, challenge, message, submitMove, confirmResign, insightShare, keyboardMove, zen, moveEvent, rookCastle}, language}`", body = Object),
        (status = 401, description = "No or an unknown token or session", body = ErrorBody)))]
async fn preferences(Authed(_user): Authed, headers: HeaderMap) -> Json<Value> {
    let language = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split([',', ';']).next())
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .unwrap_or("en-GB");
    Json(json!({
        "prefs": {
            "dark": false, "transp": false, "bgImg": "", "is3d": false,
            "theme": "brown", "pieceSet": "cburnett", "soundSet": "standard",
            "blindfold": 0, "autoQueen": 2, "autoThreefold": 2, "takeback": 3,
            "moretime": 3, "clockTenths": 1, "clockBar": true, "clockSound": true,
            "premove": true, "animation": 2, "captured": true, "follow": true,
            "highlight": true, "destination": true, "coords": 1, "replay": 2,
            "challenge": 4, "message": 3, "submitMove": 0, "confirmResign": 1,
            "insightShare": 1, "keyboardMove": 0, "zen": 0, "moveEvent": 2,
            "rookCastle": 1,
        },
        "language": language,
    }))
}

/// Whether the account is in kid mode, as lichess answers it: Caissa has no
/// kid mode, so `{kid: false}`.
#[utoipa::path(get, path = "/api/account/kid", tag = "account",
    responses(
        (status = 200, description = "`{kid: false}`", body = Object),
        (status = 401, description = "No or an unknown token or session", body = ErrorBody)))]
async fn kid(Authed(_user): Authed) -> Json<Value> {
    Json(json!({ "kid": false }))
}

/// The account routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(account))
        .routes(routes!(session))
        .routes(routes!(email))
        .routes(routes!(preferences))
        .routes(routes!(kid))
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(guest))
        .routes(routes!(logout))
}
