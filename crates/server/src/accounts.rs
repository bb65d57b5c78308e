//! Browser accounts: register, log in, play as a guest, log out. A session is an
//! HttpOnly cookie (SameSite=Lax) plus a CSRF token the page echoes in a header.
//! Failed logins are rate-limited per name.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rand::RngCore;
use serde_json::{json, Value};

use crate::auth::{self, SESSION_COOKIE};
use crate::error::ApiError;
use crate::live::now_ms;
use crate::AppState;

/// Failed logins allowed per name in a window.
const MAX_FAILURES: u32 = 5;
/// The window, ms.
const WINDOW_MS: u64 = 60_000;

/// Failed login attempts per name: (count, window start).
#[derive(Default)]
pub struct LoginLimiter(Mutex<HashMap<String, (u32, u64)>>);

impl LoginLimiter {
    fn check(&self, name: &str) -> Result<(), ApiError> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match map.get(&name.to_lowercase()) {
            Some(&(count, since)) if count >= MAX_FAILURES && now_ms() - since < WINDOW_MS => {
                let wait_ms = WINDOW_MS - (now_ms() - since);
                Err(ApiError::TooManyRequests {
                    message: format!(
                        "too many failed logins for {name}; try again in {} s",
                        wait_ms.div_ceil(1000)
                    ),
                    retry_after_ms: wait_ms,
                })
            }
            _ => Ok(()),
        }
    }

    fn failed(&self, name: &str) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let now = now_ms();
        let entry = map.entry(name.to_lowercase()).or_insert((0, now));
        if now - entry.1 >= WINDOW_MS {
            *entry = (0, now);
        }
        entry.0 += 1;
    }
}

fn credentials(body: &Value) -> Result<(String, String), ApiError> {
    let name = body["username"]
        .as_str()
        .unwrap_or_default()
        .trim()
        .to_string();
    let password = body["password"].as_str().unwrap_or_default().to_string();
    if name.is_empty() || password.is_empty() {
        return Err(ApiError::BadRequest(
            "username and password are required".into(),
        ));
    }
    Ok((name, password))
}

fn valid_name(name: &str) -> Result<(), ApiError> {
    let ok = (2..=20).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !name.eq_ignore_ascii_case(crate::COMPUTER_NAME)
        && !name.to_ascii_lowercase().starts_with("guest");
    if ok {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!(
            "invalid name {name:?}: 2 to 20 letters, digits, '_' or '-' (not starting with \"guest\")"
        )))
    }
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buf);
    hex::encode(buf)
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
    state: &AppState,
    headers: &HeaderMap,
    user: caissa_store::User,
) -> Result<Response, ApiError> {
    let secret = random_hex(24);
    let csrf = random_hex(16);
    state
        .store
        .create_session(&auth::token_hash(&secret), user.id, &csrf, now_ms() as i64)
        .await?;
    let secure = if over_https(headers) { "; Secure" } else { "" };
    let cookie = format!(
        "{SESSION_COOKIE}={secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000{secure}"
    );
    let mut response = Json(json!({ "username": user.name, "csrf": csrf })).into_response();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    Ok(response)
}

/// `POST /api/register` `{"username", "password"}`.
pub async fn register(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Result<Response, ApiError> {
    let (name, password) = credentials(&body)?;
    valid_name(&name)?;
    if password.len() < 8 {
        return Err(ApiError::BadRequest(
            "the password needs at least 8 characters".into(),
        ));
    }
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(|_| ApiError::BadRequest("could not hash the password".into()))?;
    let user = match state
        .store
        .create_user(&name, Some(&hash), now_ms() as i64)
        .await
    {
        Err(caissa_store::StoreError::NameTaken(_)) => {
            return Err(ApiError::BadRequest(format!("the name {name:?} is taken")))
        }
        other => other?,
    };
    session_response(&state, &headers, user).await
}

/// `POST /api/login` `{"username", "password"}`.
pub async fn login(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Result<Response, ApiError> {
    let (name, password) = credentials(&body)?;
    state.logins().check(&name)?;
    let user = state.store.user_by_name(&name).await?;
    let ok = match user.as_ref().and_then(|u| u.password_hash.clone()) {
        Some(hash) => tokio::task::spawn_blocking(move || auth::verify_password(&password, &hash))
            .await
            .unwrap_or(false),
        None => false,
    };
    match (ok, user) {
        (true, Some(user)) => session_response(&state, &headers, user).await,
        _ => {
            state.logins().failed(&name);
            Err(ApiError::LoginFailed)
        }
    }
}

/// `POST /api/guest`: a new guest account with a generated name, and its session.
pub async fn guest(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    for _ in 0..5 {
        let name = format!("Guest-{}", &random_hex(3)[..5]);
        match state.store.create_user(&name, None, now_ms() as i64).await {
            Ok(user) => return session_response(&state, &headers, user).await,
            Err(caissa_store::StoreError::NameTaken(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::BadRequest(
        "could not find a free guest name".into(),
    ))
}

/// `POST /api/logout`: ends the browser session (with its CSRF token, like every
/// other change, so that another site cannot log a user out).
pub async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(secret) = auth::cookie(&headers, SESSION_COOKIE) {
        let hash = auth::token_hash(secret);
        if let Some((_, csrf)) = state.store.session(&hash).await? {
            let sent = headers.get(auth::CSRF_HEADER).and_then(|v| v.to_str().ok());
            if sent != Some(csrf.as_str()) {
                return Err(ApiError::Forbidden("missing or wrong CSRF token".into()));
            }
        }
        state.store.delete_session(&hash).await?;
    }
    let mut response = Json(json!({ "ok": true })).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("caissa_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"),
    );
    Ok(response)
}
