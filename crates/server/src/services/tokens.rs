//! API tokens: who a bearer token belongs to and what it may do, remembered for a
//! minute so that each move played over the API does not cost a database lookup;
//! made, listed and revoked by their owners. A revoked token is forgotten before
//! the revocation is answered, so no request after it is served with it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use caissa_store::{Store, StoredToken, User};

use crate::auth::{self, Scope};
use crate::cluster::{Cluster, Hears, Message};
use crate::http::error::ApiError;

/// How long a bearer token's user is remembered.
pub const TOKEN_TTL: Duration = Duration::from_secs(60);
/// Most tokens remembered at once.
const TOKEN_CACHE_MAX: usize = 100_000;

/// A token's user and scopes, as stored.
pub type Known = (User, String);

/// The tokens of a server.
pub struct Tokens {
    store: Store,
    cache: TokenCache,
    cluster: Arc<Cluster>,
}

impl Tokens {
    /// Tokens kept in `store`; a revocation is told to the other nodes, which
    /// forget the token too.
    pub fn new(store: Store, cluster: Arc<Cluster>) -> Arc<Tokens> {
        let tokens = Arc::new(Tokens {
            store,
            cache: TokenCache::default(),
            cluster: cluster.clone(),
        });
        let hears: Weak<dyn Hears> = Arc::downgrade(&tokens) as Weak<Tokens>;
        cluster.subscribe(hears);
        tokens
    }

    /// The user and scopes of a token; `Unauthorized` if it is unknown (or revoked).
    pub async fn user_of(&self, token: &str) -> Result<Known, ApiError> {
        self.user_of_hash(&auth::token_hash(token)).await
    }

    /// The user and scopes of a token by its hash; `Unauthorized` if it is unknown
    /// (or revoked).
    pub async fn user_of_hash(&self, hash: &str) -> Result<Known, ApiError> {
        let epoch = match self.cache.get(hash) {
            Ok(known) => return Ok(known),
            Err(epoch) => epoch,
        };
        match self.store.user_by_token(hash).await? {
            Some(known) => {
                self.cache.put(hash.to_string(), known.clone(), epoch);
                Ok(known)
            }
            None => Err(ApiError::Unauthorized),
        }
    }

    /// A new token for `user`, shown once.
    pub async fn issue(
        &self,
        user: i64,
        scopes: &[Scope],
        description: &str,
    ) -> Result<String, ApiError> {
        Ok(auth::issue_token(&self.store, user, scopes, description).await?)
    }

    /// `user`'s tokens, newest first.
    pub async fn of_user(&self, user: i64) -> Result<Vec<StoredToken>, ApiError> {
        Ok(self.store.tokens_of(user).await?)
    }

    /// A mark that changes whenever a token is revoked here: a caller that saw
    /// a token valid under this mark, less than [`TOKEN_TTL`] ago, may take it
    /// as still valid without asking again.
    pub fn revocations(&self) -> u64 {
        self.cache.lock().epoch
    }

    /// Revokes one of `user`'s tokens, by hash: deleted, and forgotten here before
    /// the answer. Whether the user had it.
    pub async fn revoke(&self, user: i64, hash: &str) -> Result<bool, ApiError> {
        let revoked = self.store.delete_token(user, hash).await?;
        self.forget(hash);
        Ok(revoked)
    }

    /// Forgets a token deleted from the store, here and on the other nodes.
    pub fn forget(&self, hash: &str) {
        self.cache.forget(hash);
        self.cluster.tell(Message::Token {
            from: self.cluster.generation(),
            hash: hash.to_string(),
        });
    }
}

impl Tokens {
    /// `user` changed (became a bot): their tokens are looked up again, here
    /// and on the other nodes, so no request sees them as they were.
    pub async fn user_changed(&self, user: i64) -> Result<(), ApiError> {
        for token in self.store.tokens_of(user).await? {
            self.forget(&token.hash);
        }
        Ok(())
    }
}

/// Revocations on other nodes; after a gap in what was heard, every token is
/// looked up again.
impl Hears for Tokens {
    fn heard(&self, message: &Message) {
        if let Message::Token { hash, .. } = message {
            self.cache.forget(hash);
        }
    }

    fn gap(&self) {
        let mut seen = self.cache.lock();
        seen.epoch += 1;
        seen.tokens.clear();
    }
}

/// Bearer tokens seen lately (by hash) with their users and scopes.
///
/// A lookup that read the store before a revocation must not put the revoked
/// token back: every revocation starts a new epoch, and a lookup's answer is
/// kept only if no revocation came since it began.
#[derive(Default)]
struct TokenCache(Mutex<Seen>);

#[derive(Default)]
struct Seen {
    tokens: HashMap<String, (Known, Instant)>,
    epoch: u64,
}

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
            title: None,
            closed_at: None,
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
}
