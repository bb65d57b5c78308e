//! Passwords (argon2id), API tokens (random, stored as SHA-256) and the bearer-token
//! extractor.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHasher, SaltString};
use argon2::{Argon2, PasswordHash, PasswordVerifier};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use caissa_store::User;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::AppState;

/// Hashes a password with argon2id and a random salt (PHC string).
pub fn hash_password(password: &str) -> String {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .unwrap_or_default()
}

/// Whether `password` matches a stored PHC hash.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A new random API token (what the user keeps) and its hash (what is stored).
pub fn new_token() -> (String, String) {
    let mut bytes = [0u8; 24];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = format!("cai_{}", hex::encode(bytes));
    let hash = token_hash(&token);
    (token, hash)
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The cookie that holds a browser session.
pub const SESSION_COOKIE: &str = "caissa_session";
/// The header a browser must echo the session's CSRF token in, on every request
/// that changes something.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The value of a cookie in a request.
pub fn cookie<'a>(headers: &'a axum::http::HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The user a request acts for: by a bearer token (API clients), or by a session
/// cookie (browsers), which for anything but reading must carry the CSRF header.
pub struct Authed(pub User);

impl FromRequestParts<AppState> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Authed, ApiError> {
        if let Some(user) = bearer_user(&parts.headers, state).await? {
            return Ok(Authed(user));
        }
        let session = cookie(&parts.headers, SESSION_COOKIE).ok_or(ApiError::Unauthorized)?;
        let (user, csrf) = state
            .store
            .session(&token_hash(session))
            .await?
            .ok_or(ApiError::Unauthorized)?;
        let safe = matches!(
            parts.method,
            axum::http::Method::GET | axum::http::Method::HEAD
        );
        if !safe {
            let sent = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
            if sent != Some(csrf.as_str()) {
                return Err(ApiError::Forbidden("missing or wrong CSRF token".into()));
            }
        }
        Ok(Authed(user))
    }
}

/// The user of the request's `Authorization: Bearer` token: `None` without that
/// header, `Unauthorized` if the header is malformed or the token unknown.
pub async fn bearer_user(
    headers: &axum::http::HeaderMap,
    state: &AppState,
) -> Result<Option<User>, ApiError> {
    let Some(header) = headers.get(axum::http::header::AUTHORIZATION) else {
        return Ok(None);
    };
    let token = header
        .to_str()
        .ok()
        .and_then(|h| h.strip_prefix("Bearer "))
        .ok_or(ApiError::Unauthorized)?
        .trim();
    let hash = token_hash(token);
    if let Some(user) = state.inner.tokens.get(&hash) {
        return Ok(Some(user));
    }
    match state.store.user_by_token(&hash).await? {
        Some((user, _scopes)) => {
            state.inner.tokens.put(hash, user.clone());
            Ok(Some(user))
        }
        None => Err(ApiError::Unauthorized),
    }
}

/// How long a bearer token's user is remembered.
const TOKEN_TTL: Duration = Duration::from_secs(60);
/// Most tokens remembered at once.
const TOKEN_CACHE_MAX: usize = 100_000;

/// Bearer tokens seen lately (by hash) and their users, so that each move of a game
/// played over the API does not cost a database lookup. Tokens cannot be revoked
/// yet; when they can, revoking one must also remove it here.
#[derive(Default)]
pub(crate) struct TokenCache(Mutex<HashMap<String, (User, Instant)>>);

impl TokenCache {
    fn get(&self, hash: &str) -> Option<User> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.get(hash)
            .filter(|(_, seen)| seen.elapsed() < TOKEN_TTL)
            .map(|(user, _)| user.clone())
    }

    fn put(&self, hash: String, user: User) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= TOKEN_CACHE_MAX {
            map.retain(|_, (_, seen)| seen.elapsed() < TOKEN_TTL);
            if map.len() >= TOKEN_CACHE_MAX {
                map.clear();
            }
        }
        map.insert(hash, (user, Instant::now()));
    }
}
