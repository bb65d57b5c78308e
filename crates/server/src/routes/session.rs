//! Who a request acts for: by a bearer token (API clients), with the scopes the
//! route needs, or by a session cookie (browsers, which may do anything their
//! user may) that for anything but reading must come with its CSRF token.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method};
use caissa_store::User;

use crate::auth;
use crate::http::error::ApiError;
use crate::services::accounts::Accounts;
use crate::services::tokens::Tokens;

/// The cookie that holds a browser session.
pub const SESSION_COOKIE: &str = "caissa_session";
/// The header a browser must echo the session's CSRF token in, on every request
/// that changes something.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The value of a cookie in a request.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The token of an `Authorization: Bearer` header, if there is one; a malformed
/// header is `Unauthorized`.
pub fn bearer_token(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(header) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    header
        .to_str()
        .ok()
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(|t| Some(t.trim()))
        .ok_or(ApiError::Unauthorized)
}

/// The user a request acts for (401 without one).
pub struct Authed(pub User);

/// The user a request acts for, if it has one (an unknown token is still 401).
pub struct MaybeAuthed(pub Option<User>);

async fn authenticate(
    parts: &Parts,
    tokens: &Tokens,
    accounts: &Accounts,
) -> Result<Option<User>, ApiError> {
    if let Some(token) = bearer_token(&parts.headers)? {
        let (user, scopes) = tokens.user_of(token).await?;
        auth::check_scopes(&scopes, &parts.method, parts.uri.path())?;
        return Ok(Some(user));
    }
    let Some(secret) = cookie(&parts.headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    let Some((user, csrf)) = accounts.session(secret).await? else {
        return Ok(None);
    };
    let safe = matches!(parts.method, Method::GET | Method::HEAD);
    if !safe {
        let sent = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
        if sent != Some(csrf.as_str()) {
            return Err(ApiError::Forbidden("missing or wrong CSRF token".into()));
        }
    }
    Ok(Some(user))
}

impl<S> FromRequestParts<S> for Authed
where
    S: Send + Sync,
    Arc<Tokens>: FromRef<S>,
    Arc<Accounts>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Authed, ApiError> {
        let tokens = Arc::<Tokens>::from_ref(state);
        let accounts = Arc::<Accounts>::from_ref(state);
        authenticate(parts, &tokens, &accounts)
            .await?
            .map(Authed)
            .ok_or(ApiError::Unauthorized)
    }
}

impl<S> FromRequestParts<S> for MaybeAuthed
where
    S: Send + Sync,
    Arc<Tokens>: FromRef<S>,
    Arc<Accounts>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<MaybeAuthed, ApiError> {
        let tokens = Arc::<Tokens>::from_ref(state);
        let accounts = Arc::<Accounts>::from_ref(state);
        authenticate(parts, &tokens, &accounts)
            .await
            .map(MaybeAuthed)
    }
}
