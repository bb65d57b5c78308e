//! A user's API tokens, as lichess's personal access tokens: made from a signed-in
//! browser (the token is shown once), listed, revoked; and lichess's
//! `DELETE /api/token` (revoke the token in use) and `POST /api/token/test`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{self, SCOPES};
use crate::http::error::ApiError;
use crate::http::fields::Fields;
use crate::routes::docs::ErrorBody;
use crate::routes::session::{bearer_token, Authed};
use crate::services::tokens::Tokens;
use crate::state::AppState;

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

/// A new token's terms.
#[derive(Deserialize, ToSchema)]
pub struct NewToken {
    /// What the token is for, 1 to 100 characters.
    #[serde(default)]
    pub description: String,
    /// Scopes, comma- or space-separated: `board:play`, `challenge:read`,
    /// `challenge:write`; none given: all of them.
    pub scopes: Option<String>,
}

/// A new token for the signed-in user, shown once. Only from a browser
/// session: a token cannot make tokens.
#[utoipa::path(post, path = "/api/token", tag = "tokens",
    request_body(content((NewToken = "application/x-www-form-urlencoded"), (NewToken = "application/json"))),
    responses(
        (status = 200, description = "`{token, description, scopes}`", body = Object),
        (status = 400, description = "A missing description or an unknown scope", body = ErrorBody),
        (status = 403, description = "Asked with a token", body = ErrorBody)))]
async fn create(
    State(tokens): State<Arc<Tokens>>,
    Authed(user): Authed,
    headers: HeaderMap,
    Fields(body): Fields<NewToken>,
) -> Result<Json<Value>, ApiError> {
    browser_only(&headers)?;
    let description = body.description.trim();
    let chars = description.chars().count();
    if chars == 0 || chars > MAX_DESCRIPTION {
        return Err(ApiError::BadRequest(format!(
            "description: say what the token is for in 1 to {MAX_DESCRIPTION} characters, not {chars}"
        )));
    }
    let scopes = match &body.scopes {
        Some(text) => {
            auth::parse_scopes(text).map_err(|e| ApiError::BadRequest(format!("scopes: {e}")))?
        }
        None => SCOPES.to_vec(),
    };
    let token = tokens.issue(user.id, &scopes, description).await?;
    let names: Vec<&str> = scopes.iter().map(|s| s.name()).collect();
    Ok(Json(json!({
        "token": token,
        "description": description,
        "scopes": names.join(","),
    })))
}

/// The user's tokens, newest first (by id: the token's hash).
#[utoipa::path(get, path = "/api/token", tag = "tokens",
    responses(
        (status = 200, description = "`[{id, description, scopes, createdAt}]`", body = Object),
        (status = 403, description = "Asked with a token", body = ErrorBody)))]
async fn list(
    State(tokens): State<Arc<Tokens>>,
    Authed(user): Authed,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    browser_only(&headers)?;
    let listed = tokens.of_user(user.id).await?;
    Ok(Json(Value::Array(listed.iter().map(token_json).collect())))
}

/// Revokes one of the user's tokens, by the id the list gives.
#[utoipa::path(delete, path = "/api/token/{id}", tag = "tokens",
    params(("id" = String, Path, description = "The token's id, from the list")),
    responses(
        (status = 204, description = "Revoked: refused from the next request on"),
        (status = 404, description = "The user has no such token", body = ErrorBody)))]
async fn revoke_one(
    State(tokens): State<Arc<Tokens>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    browser_only(&headers)?;
    if !tokens.revoke(user.id, &id).await? {
        return Err(ApiError::NotFound(format!("token {id} of {}", user.name)));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Revokes the bearer token the request is made with (lichess's "log out" for
/// API clients).
#[utoipa::path(delete, path = "/api/token", tag = "tokens",
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No or an unknown token", body = ErrorBody)))]
async fn revoke_this(
    State(tokens): State<Arc<Tokens>>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let token = bearer_token(&headers)?.ok_or(ApiError::Unauthorized)?;
    let (user, _) = tokens.user_of(token).await?;
    tokens.revoke(user.id, &auth::token_hash(token)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// For each token of a comma-separated body, its user and scopes, or `null` if
/// it is unknown or revoked.
#[utoipa::path(post, path = "/api/token/test", tag = "tokens", security(()),
    request_body(content = String, content_type = "text/plain", description = "Tokens separated by commas"),
    responses(
        (status = 200, description = "`{token: {userId, scopes, expires} | null}`", body = Object),
        (status = 400, description = "Not UTF-8, or more than 1000 tokens", body = ErrorBody)))]
async fn test(State(tokens): State<Arc<Tokens>>, body: Bytes) -> Result<Json<Value>, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the body is not UTF-8 text".into()))?;
    let mut asked: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    asked.sort_unstable();
    asked.dedup();
    if asked.len() > MAX_TESTED {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_TESTED} tokens at once, not {}",
            asked.len()
        )));
    }
    let mut out = Map::new();
    for token in asked {
        let known = match tokens.user_of(token).await {
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

/// The token routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list, revoke_this))
        .routes(routes!(test))
        .routes(routes!(revoke_one))
}
