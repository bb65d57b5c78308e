//! Passwords (argon2id), API tokens (random, stored as SHA-256, scoped as on
//! lichess) and the extractor of the user a request acts for.

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

/// Makes a token for a user with these scopes (as [`parse_scopes`] gives them)
/// and stores its hash; the token is returned once and never kept.
pub async fn issue_token(
    store: &caissa_store::Store,
    user_id: i64,
    scopes: &[&str],
    description: &str,
) -> Result<String, caissa_store::StoreError> {
    let (token, hash) = new_token();
    store
        .create_token(&caissa_store::StoredToken {
            hash,
            user_id,
            scopes: scopes.join(" "),
            description: description.to_string(),
            created_at: crate::live::now_ms() as i64,
        })
        .await?;
    Ok(token)
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// What a token may be used for, as lichess names it: playing (`board:play`: seeks,
/// the games' streams and actions, a player's game socket), reading challenges
/// (`challenge:read`) and making or answering them (`challenge:write`, or
/// `board:play`: a board client challenges and accepts as lichess lets it).
/// Reading what is public, and one's own account, needs none.
pub const SCOPES: [&str; 3] = ["board:play", "challenge:read", "challenge:write"];

/// A token's scopes from their written form (separated by spaces or commas), or
/// which one is unknown.
pub fn parse_scopes(text: &str) -> Result<Vec<&'static str>, String> {
    let mut scopes = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let known = SCOPES.iter().find(|s| **s == word).ok_or_else(|| {
            format!(
                "unknown scope {word:?}; the scopes are {}",
                SCOPES.join(", ")
            )
        })?;
        if !scopes.contains(known) {
            scopes.push(*known);
        }
    }
    Ok(scopes)
}

/// The scopes a request needs from a token, any one of them sufficing; none for
/// what any signed-in user may do.
pub fn needed_scopes(method: &axum::http::Method, path: &str) -> &'static [&'static str] {
    const PLAY: &[&str] = &["board:play"];
    if path.starts_with("/api/board/")
        || path.starts_with("/api/socket/")
        || (path.starts_with("/api/lobby/seeks/") && path.ends_with("/accept"))
    {
        PLAY
    } else if path == "/api/stream/event" {
        &["board:play", "challenge:read"]
    } else if path == "/api/challenge" || path.starts_with("/api/challenge/") {
        if method == axum::http::Method::GET {
            &["challenge:read"]
        } else {
            &["challenge:write", "board:play"]
        }
    } else {
        &[]
    }
}

/// Refuses a token whose `scopes` (as stored) lack what the request needs.
pub fn check_scopes(scopes: &str, method: &axum::http::Method, path: &str) -> Result<(), ApiError> {
    let needed = needed_scopes(method, path);
    if needed.is_empty() || scopes.split([' ', ',']).any(|s| needed.contains(&s)) {
        return Ok(());
    }
    Err(ApiError::Forbidden(format!(
        "missing scope: this needs {}; the token has {}",
        needed.join(" or "),
        if scopes.trim().is_empty() {
            "none"
        } else {
            scopes.trim()
        }
    )))
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

/// The user a request acts for: by a bearer token (API clients) with the scopes
/// the request needs, or by a session cookie (browsers, which may do anything
/// their user may), which for anything but reading must carry the CSRF header.
pub struct Authed(pub User);

impl FromRequestParts<AppState> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Authed, ApiError> {
        if let Some((user, scopes)) = bearer_user(&parts.headers, state).await? {
            check_scopes(&scopes, &parts.method, parts.uri.path())?;
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

/// The user and scopes of the request's `Authorization: Bearer` token: `None`
/// without that header, `Unauthorized` if the header is malformed or the token
/// unknown.
pub async fn bearer_user(
    headers: &axum::http::HeaderMap,
    state: &AppState,
) -> Result<Option<(User, String)>, ApiError> {
    let Some(token) = bearer_token(headers)? else {
        return Ok(None);
    };
    token_user(token, state).await.map(Some)
}

/// The token of an `Authorization: Bearer` header, if there is one.
pub fn bearer_token(headers: &axum::http::HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(header) = headers.get(axum::http::header::AUTHORIZATION) else {
        return Ok(None);
    };
    header
        .to_str()
        .ok()
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(|t| Some(t.trim()))
        .ok_or(ApiError::Unauthorized)
}

/// The user and scopes of a token; `Unauthorized` if it is unknown (or revoked).
pub async fn token_user(token: &str, state: &AppState) -> Result<(User, String), ApiError> {
    hash_user(&token_hash(token), state).await
}

/// The user and scopes of a token by its hash; `Unauthorized` if it is unknown
/// (or revoked).
pub async fn hash_user(hash: &str, state: &AppState) -> Result<(User, String), ApiError> {
    let epoch = match state.inner.tokens.get(hash) {
        Ok(known) => return Ok(known),
        Err(epoch) => epoch,
    };
    match state.store.user_by_token(hash).await? {
        Some(known) => {
            state
                .inner
                .tokens
                .put(hash.to_string(), known.clone(), epoch);
            Ok(known)
        }
        None => Err(ApiError::Unauthorized),
    }
}

/// Revokes one of `user_id`'s tokens, by hash: it is deleted, and forgotten here
/// before the answer, so no request after it is served with it. Whether the
/// user had it.
pub async fn revoke(user_id: i64, hash: &str, state: &AppState) -> Result<bool, ApiError> {
    let revoked = state.store.delete_token(user_id, hash).await?;
    state.inner.tokens.forget(hash);
    Ok(revoked)
}

/// How long a bearer token's user is remembered.
const TOKEN_TTL: Duration = Duration::from_secs(60);
/// Most tokens remembered at once.
const TOKEN_CACHE_MAX: usize = 100_000;

/// Bearer tokens seen lately (by hash) with their users and scopes, so that each
/// move of a game played over the API does not cost a database lookup.
///
/// A lookup that read the store before a revocation must not put the revoked
/// token back: every revocation starts a new epoch, and a lookup's answer is
/// kept only if no revocation came since it began.
#[derive(Default)]
pub(crate) struct TokenCache(Mutex<Seen>);

#[derive(Default)]
struct Seen {
    tokens: HashMap<String, (Known, Instant)>,
    epoch: u64,
}

/// A token's user and scopes, as stored.
type Known = (User, String);

impl TokenCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The token if seen lately, else the epoch to give [`TokenCache::put`].
    fn get(&self, hash: &str) -> Result<Known, u64> {
        let seen = self.lock();
        seen.tokens
            .get(hash)
            .filter(|(_, at)| at.elapsed() < TOKEN_TTL)
            .map(|(known, _)| known.clone())
            .ok_or(seen.epoch)
    }

    fn put(&self, hash: String, known: Known, epoch: u64) {
        let mut seen = self.lock();
        if seen.epoch != epoch {
            return;
        }
        if seen.tokens.len() >= TOKEN_CACHE_MAX {
            seen.tokens.retain(|_, (_, at)| at.elapsed() < TOKEN_TTL);
            if seen.tokens.len() >= TOKEN_CACHE_MAX {
                seen.tokens.clear();
            }
        }
        seen.tokens.insert(hash, (known, Instant::now()));
    }

    fn forget(&self, hash: &str) {
        let mut seen = self.lock();
        seen.epoch += 1;
        seen.tokens.remove(hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anna() -> Known {
        let user = User {
            id: 1,
            name: "Anna".into(),
            password_hash: None,
            created_at: 0,
        };
        (user, "board:play".into())
    }

    #[test]
    fn a_lookup_that_began_before_a_revocation_does_not_bring_the_token_back() {
        let cache = TokenCache::default();
        // A request misses the cache and goes to the store...
        let epoch = cache.get("h").unwrap_err();
        // ...the token is revoked meanwhile...
        cache.forget("h");
        // ...and what the store had said is not kept.
        cache.put("h".into(), anna(), epoch);
        let epoch = cache.get("h").unwrap_err();
        // A lookup after the revocation is kept as usual.
        cache.put("h".into(), anna(), epoch);
        assert_eq!(cache.get("h").unwrap().0.name, "Anna");
    }

    #[test]
    fn scopes_are_read_in_either_separator_and_an_unknown_one_is_named() {
        assert_eq!(
            parse_scopes("board:play, challenge:read board:play").unwrap(),
            ["board:play", "challenge:read"]
        );
        assert!(parse_scopes("").unwrap().is_empty());
        let error = parse_scopes("board:play,email:read").unwrap_err();
        assert!(error.contains("email:read"), "{error}");
    }

    #[test]
    fn each_route_needs_the_scope_lichess_gives_it() {
        use axum::http::Method;
        let ok =
            |scopes: &str, method: &Method, path: &str| check_scopes(scopes, method, path).is_ok();
        assert!(ok(
            "board:play",
            &Method::POST,
            "/api/board/game/x/move/e2e4"
        ));
        assert!(!ok("challenge:write", &Method::POST, "/api/board/seek"));
        assert!(ok("challenge:read", &Method::GET, "/api/stream/event"));
        assert!(ok("board:play", &Method::GET, "/api/stream/event"));
        assert!(!ok("", &Method::GET, "/api/stream/event"));
        assert!(!ok("challenge:read", &Method::POST, "/api/challenge/anna"));
        assert!(ok(
            "challenge:write",
            &Method::POST,
            "/api/challenge/x/accept"
        ));
        assert!(!ok("board:play", &Method::GET, "/api/challenge"));
        assert!(ok("", &Method::GET, "/api/account"));
        assert!(ok("", &Method::GET, "/api/games/user/anna"));
    }
}
