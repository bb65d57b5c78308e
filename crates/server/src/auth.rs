//! Credentials: passwords (argon2id), API tokens (random, stored as SHA-256) and
//! their scopes, named as on lichess; and which scope each route needs.

use argon2::password_hash::{PasswordHasher, SaltString};
use argon2::{Argon2, PasswordHash, PasswordVerifier};
use axum::http::Method;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::http::error::ApiError;

/// Hashes a password with argon2id and a random salt (PHC string).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("hashing a password: {e}")))
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

/// The stored form of a token (or a session's secret).
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Random bytes as hex.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buf);
    hex::encode(buf)
}

/// What a token may be used for, as lichess names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Playing: seeks, the games' streams and actions, a player's game socket;
    /// a board client may also challenge and accept, as lichess lets it.
    BoardPlay,
    /// Playing as a bot account through the Bot API (`/api/bot/`), and the
    /// event stream and challenges it needs.
    BotPlay,
    /// Reading challenges.
    ChallengeRead,
    /// Making and answering challenges.
    ChallengeWrite,
    /// One of lichess's other scopes (`email:read`, `preference:read` ...): a
    /// token may carry it, as a client asks for it, and nothing here needs it.
    Other(&'static str),
}

/// Every scope Caissa checks (what a new token gets unless told otherwise).
pub const SCOPES: [Scope; 4] = [
    Scope::BoardPlay,
    Scope::BotPlay,
    Scope::ChallengeRead,
    Scope::ChallengeWrite,
];

/// lichess's other scopes, known by name so a token may carry them.
const OTHER_SCOPES: [&str; 21] = [
    "preference:read",
    "preference:write",
    "email:read",
    "engine:read",
    "engine:write",
    "challenge:bulk",
    "study:read",
    "study:write",
    "tournament:write",
    "racer:write",
    "puzzle:read",
    "puzzle:write",
    "team:read",
    "team:write",
    "team:lead",
    "follow:read",
    "follow:write",
    "msg:write",
    "web:login",
    "web:mod",
    "explorer:read",
];

impl Scope {
    /// The scope's name: `board:play`, `bot:play`, `challenge:read` ...
    pub fn name(self) -> &'static str {
        match self {
            Scope::BoardPlay => "board:play",
            Scope::BotPlay => "bot:play",
            Scope::ChallengeRead => "challenge:read",
            Scope::ChallengeWrite => "challenge:write",
            Scope::Other(name) => name,
        }
    }

    /// The scope with this name.
    pub fn named(name: &str) -> Option<Scope> {
        SCOPES.into_iter().find(|s| s.name() == name).or_else(|| {
            OTHER_SCOPES
                .into_iter()
                .find(|n| *n == name)
                .map(Scope::Other)
        })
    }
}

/// A token's scopes from their written form (separated by spaces or commas), or
/// which one is unknown.
pub fn parse_scopes(text: &str) -> Result<Vec<Scope>, UnknownScope> {
    let mut scopes = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let known = Scope::named(word).ok_or_else(|| UnknownScope(word.to_string()))?;
        if !scopes.contains(&known) {
            scopes.push(known);
        }
    }
    Ok(scopes)
}

/// Scopes as stored: their names, separated by spaces.
pub fn scopes_text(scopes: &[Scope]) -> String {
    scopes
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A scope name that is not one of [`SCOPES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope {0:?}; the scopes are lichess's: board:play, bot:play, challenge:read, challenge:write, email:read, preference:read ...")]
pub struct UnknownScope(pub String);

/// Makes a token for a user with these scopes and stores its hash; the token is
/// returned once and never kept.
pub async fn issue_token(
    store: &caissa_store::Store,
    user_id: i64,
    scopes: &[Scope],
    description: &str,
) -> Result<String, caissa_store::StoreError> {
    let (token, hash) = new_token();
    store
        .create_token(&caissa_store::StoredToken {
            hash,
            user_id,
            scopes: scopes_text(scopes),
            description: description.to_string(),
            created_at: crate::live::view::now_ms() as i64,
        })
        .await?;
    Ok(token)
}

/// The scopes a request needs from a token, any one of them sufficing; none for
/// what any signed-in user may do.
pub fn needed_scopes(method: &Method, path: &str) -> &'static [Scope] {
    const PLAY: &[Scope] = &[Scope::BoardPlay];
    if path.starts_with("/api/bot/") && path != "/api/bot/online" {
        &[Scope::BotPlay]
    } else if path.starts_with("/api/board/")
        || path.starts_with("/api/socket/")
        || (path.starts_with("/api/arbiter/") && method != Method::GET)
        || (path.starts_with("/api/lobby/seeks/") && path.ends_with("/accept"))
    {
        PLAY
    } else if path.starts_with("/api/rel/") {
        if method == Method::GET {
            &[Scope::Other("follow:read")]
        } else {
            &[Scope::Other("follow:write")]
        }
    } else if let Some(rest) = path.strip_prefix("/api/puzzle/") {
        // The daily puzzle, one by id and the themes are public.
        let private = ["next", "activity"].contains(&rest)
            || rest.starts_with("batch/")
            || rest.starts_with("dashboard/");
        if !private {
            &[]
        } else if method == Method::GET {
            &[Scope::Other("puzzle:read")]
        } else {
            &[Scope::Other("puzzle:write")]
        }
    } else if path == "/api/stream/event" {
        &[Scope::BoardPlay, Scope::BotPlay, Scope::ChallengeRead]
    } else if path == "/api/challenge" || path.starts_with("/api/challenge/") {
        if method == Method::GET {
            &[Scope::ChallengeRead]
        } else {
            &[Scope::ChallengeWrite, Scope::BoardPlay, Scope::BotPlay]
        }
    } else {
        &[]
    }
}

/// Refuses a token whose `scopes` (as stored) lack what the request needs.
pub fn check_scopes(scopes: &str, method: &Method, path: &str) -> Result<(), ApiError> {
    let needed = needed_scopes(method, path);
    let has = |s: &Scope| scopes.split([' ', ',']).any(|w| w == s.name());
    if needed.is_empty() || needed.iter().any(has) {
        return Ok(());
    }
    let names: Vec<&str> = needed.iter().map(|s| s.name()).collect();
    Err(ApiError::Forbidden(format!(
        "missing scope: this needs {}; the token has {}",
        names.join(" or "),
        if scopes.trim().is_empty() {
            "none"
        } else {
            scopes.trim()
        }
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_read_in_either_separator_and_an_unknown_one_is_named() {
        assert_eq!(
            parse_scopes("board:play, challenge:read board:play").unwrap(),
            [Scope::BoardPlay, Scope::ChallengeRead]
        );
        assert!(parse_scopes("").unwrap().is_empty());
        // lichess's other scopes are known, and kept as written.
        let scopes = parse_scopes("bot:play email:read,preference:read").unwrap();
        assert_eq!(scopes_text(&scopes), "bot:play email:read preference:read");
        let error = parse_scopes("board:play,email:write").unwrap_err();
        assert!(error.to_string().contains("email:write"), "{error}");
    }

    #[test]
    fn each_route_needs_the_scope_lichess_gives_it() {
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
        // A bot's token plays through the Bot API and answers challenges.
        assert!(ok("bot:play", &Method::POST, "/api/bot/game/x/move/e2e4"));
        assert!(!ok(
            "board:play",
            &Method::POST,
            "/api/bot/game/x/move/e2e4"
        ));
        assert!(ok("bot:play", &Method::GET, "/api/stream/event"));
        assert!(ok("bot:play", &Method::POST, "/api/challenge/x/accept"));
        assert!(!ok(
            "bot:play",
            &Method::POST,
            "/api/board/game/x/move/e2e4"
        ));
        assert!(ok("", &Method::GET, "/api/bot/online"));
        assert!(ok("", &Method::GET, "/api/account"));
        assert!(ok("", &Method::GET, "/api/games/user/anna"));
    }

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let hash = hash_password("correct horse").unwrap();
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong horse", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
    }
}
