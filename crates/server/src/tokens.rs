//! A user's API tokens, as lichess's personal access tokens: made from a signed-in
//! browser (the token is shown once), listed, revoked; and lichess's
//! `DELETE /api/token` (revoke the token in use) and `POST /api/token/test`.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Map, Value};

use crate::auth::{self, Authed};
use crate::error::ApiError;
use crate::AppState;

/// The longest description, in characters.
const MAX_DESCRIPTION: usize = 100;
/// The most tokens one `POST /api/token/test` asks about.
const MAX_TESTED: usize = 1000;

/// Tokens are managed from a signed-in browser (or by an operator with `caissa
/// token create`): a token given to an app must not make, list or revoke its
/// owner's others.
fn browser_only(headers: &HeaderMap) -> Result<(), ApiError> {
    if headers.contains_key(axum::http::header::AUTHORIZATION) {
        return Err(ApiError::Forbidden(
            "tokens are managed from a signed-in browser, or by an operator with `caissa token create`"
                .into(),
        ));
    }
    Ok(())
}

/// Stored scopes (space-separated) as lichess writes them: `board:play,challenge:read`.
fn lichess_scopes(stored: &str) -> String {
    stored.split_whitespace().collect::<Vec<_>>().join(",")
}

/// A stored token as its owner sees it: by its hash (which does not give the
/// token away), never the token itself.
fn token_json(token: &caissa_store::StoredToken) -> Value {
    json!({
        "id": token.hash,
        "description": token.description,
        "scopes": lichess_scopes(&token.scopes),
        "createdAt": token.created_at,
    })
}

/// `POST /api/token` (`description`, `scopes`: comma- or space-separated; none
/// given: every scope): a new token for the signed-in user, shown once. Only
/// from a browser session: a token cannot make tokens.
pub async fn create(
    State(state): State<AppState>,
    Authed(user): Authed,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    browser_only(&headers)?;
    let f = crate::api::fields(&headers, &body)?;
    let description = f.get("description").map(|d| d.trim()).unwrap_or_default();
    let chars = description.chars().count();
    if chars == 0 || chars > MAX_DESCRIPTION {
        return Err(ApiError::BadRequest(format!(
            "description: say what the token is for in 1 to {MAX_DESCRIPTION} characters, not {chars}"
        )));
    }
    let scopes = match f.get("scopes") {
        Some(text) => {
            auth::parse_scopes(text).map_err(|e| ApiError::BadRequest(format!("scopes: {e}")))?
        }
        None => auth::SCOPES.to_vec(),
    };
    let token = auth::issue_token(&state.store, user.id, &scopes, description).await?;
    Ok(Json(json!({
        "token": token,
        "description": description,
        "scopes": scopes.join(","),
    })))
}

/// `GET /api/token`: the user's tokens, newest first.
pub async fn list(
    State(state): State<AppState>,
    Authed(user): Authed,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    browser_only(&headers)?;
    let tokens = state.store.tokens_of(user.id).await?;
    Ok(Json(Value::Array(tokens.iter().map(token_json).collect())))
}

/// `DELETE /api/token/{id}`: revokes one of the user's tokens, by the id the list
/// gives.
pub async fn revoke_one(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<axum::http::StatusCode, ApiError> {
    browser_only(&headers)?;
    if !auth::revoke(user.id, &id, &state).await? {
        return Err(ApiError::NotFound(format!("token {id} of {}", user.name)));
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `DELETE /api/token`: revokes the bearer token the request is made with (lichess's
/// "log out" for API clients).
pub async fn revoke_this(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<axum::http::StatusCode, ApiError> {
    let token = auth::bearer_token(&headers)?.ok_or(ApiError::Unauthorized)?;
    let (user, _) = auth::token_user(token, &state).await?;
    auth::revoke(user.id, &auth::token_hash(token), &state).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `POST /api/token/test` (a body of tokens separated by commas): for each, its
/// user and scopes, or `null` if it is unknown or revoked.
pub async fn test(State(state): State<AppState>, body: Bytes) -> Result<Json<Value>, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the body is not UTF-8 text".into()))?;
    let mut tokens: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    tokens.sort_unstable();
    tokens.dedup();
    if tokens.len() > MAX_TESTED {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_TESTED} tokens at once, not {}",
            tokens.len()
        )));
    }
    let mut out = Map::new();
    for token in tokens {
        let known = match auth::token_user(token, &state).await {
            Ok((user, scopes)) => json!({
                "userId": user.name.to_lowercase(),
                "scopes": lichess_scopes(&scopes),
                "expires": null,
            }),
            Err(ApiError::Unauthorized) => Value::Null,
            Err(e) => return Err(e),
        };
        out.insert(token.to_string(), known);
    }
    Ok(Json(Value::Object(out)))
}
