//! Accounts and browser sessions: registering, logging in (failures limited per
//! name and source, counted before the password is checked, so that sending
//! many at once gains nothing; one address cannot lock an owner out from
//! another), guests, and sessions that expire. Password hashing (argon2, 19 MiB
//! and tens of milliseconds each) runs at most one per core at a time.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use caissa_store::{Store, User};
use tokio::sync::Semaphore;

use crate::auth;
use crate::http::error::ApiError;
use crate::http::limits::{Kind, RateLimits};
use crate::live::view::now_ms;

/// How long a request waits for a free hasher before it is told to come back.
const HASH_WAIT: Duration = Duration::from_secs(10);

/// The name the computer plays under.
pub use crate::live::view::COMPUTER_NAME;

/// Whether an account is a guest's (a generated name, no password).
pub fn is_guest(user: &User) -> bool {
    user.password_hash.is_none() && user.name.to_ascii_lowercase().starts_with("guest-")
}

/// The title of a bot account, as lichess writes it.
pub const BOT: &str = "BOT";

/// Whether an account is a bot's (upgraded for the Bot API, titled `BOT`).
pub fn is_bot(user: &User) -> bool {
    user.title.as_deref() == Some(BOT)
}

/// A browser session: the cookie's secret (kept by the browser only) and its
/// CSRF token.
pub struct NewSession {
    /// The cookie's value.
    pub secret: String,
    /// The token the page echoes in a header on every change.
    pub csrf: String,
}

/// The accounts of a server.
pub struct Accounts {
    store: Store,
    limits: Arc<RateLimits>,
    hashers: Semaphore,
    session_ttl: Duration,
}

impl Accounts {
    /// Accounts in `store`, sessions lasting `session_ttl`.
    pub fn new(store: Store, limits: Arc<RateLimits>, session_ttl: Duration) -> Accounts {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Accounts {
            store,
            limits,
            hashers: Semaphore::new(cores),
            session_ttl,
        }
    }

    /// Runs a password hash or check on a free hasher (off the async runtime).
    async fn hashing<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let busy = || ApiError::Unavailable {
            message: "the server is busy checking passwords; try again in a few seconds".into(),
            retry_after_ms: 3_000,
        };
        let _permit = tokio::time::timeout(HASH_WAIT, self.hashers.acquire())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::Internal(format!("password hashing: {e}")))
    }

    /// Registers an account with a password.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        source: IpAddr,
    ) -> Result<User, ApiError> {
        valid_name(name)?;
        valid_password(password, "password")?;
        self.limits.take_source(source, Kind::Register)?;
        if self.store.user_by_name(name).await?.is_some() {
            return Err(ApiError::Conflict(format!("the name {name:?} is taken")));
        }
        let password = password.to_string();
        let hash = self
            .hashing(move || auth::hash_password(&password))
            .await??;
        Ok(self
            .store
            .create_user(name, Some(&hash), now_ms() as i64)
            .await?)
    }

    /// The account `name` if `password` is its password. The attempt counts
    /// before the password is checked, against the source's budget and the
    /// budget of this name from this source (shared by every node); a
    /// success gives the latter back.
    pub async fn login(
        &self,
        name: &str,
        password: &str,
        source: IpAddr,
    ) -> Result<User, ApiError> {
        self.limits.take_source(source, Kind::Login)?;
        self.limits.take_name_from(name, source)?;
        let user = self.store.user_by_name(name).await?;
        let hash = user.as_ref().and_then(|u| u.password_hash.clone());
        let password = password.to_string();
        let ok = match hash {
            Some(hash) => {
                self.hashing(move || auth::verify_password(&password, &hash))
                    .await?
            }
            None => false,
        };
        match (ok, user) {
            (true, Some(user)) if user.closed_at.is_some() => Err(ApiError::Forbidden(format!(
                "the account {:?} is closed",
                user.name
            ))),
            (true, Some(user)) => {
                self.limits.refill_name_from(name, source);
                Ok(user)
            }
            _ => Err(ApiError::LoginFailed),
        }
    }

    /// Checks `user`'s password as a login does (the same lockout after
    /// failures): the proof asked before changing the password or closing
    /// the account.
    async fn confirm(&self, user: &User, password: &str, source: IpAddr) -> Result<(), ApiError> {
        let Some(hash) = user.password_hash.clone() else {
            return Err(ApiError::BadRequest(
                "this account has no password (a guest's or one made for API tokens)".into(),
            ));
        };
        self.limits.take_name_from(&user.name, source)?;
        let password = password.to_string();
        if self
            .hashing(move || auth::verify_password(&password, &hash))
            .await?
        {
            self.limits.refill_name_from(&user.name, source);
            Ok(())
        } else {
            Err(ApiError::Forbidden(
                "currentPassword: that is not the account's password".into(),
            ))
        }
    }

    /// Replaces `user`'s password after checking the current one, and ends
    /// every other session of theirs (a stolen cookie stops working); the
    /// session `keep` (the one asking) goes on.
    pub async fn change_password(
        &self,
        user: &User,
        current: &str,
        new: &str,
        source: IpAddr,
        keep: Option<&str>,
    ) -> Result<u64, ApiError> {
        self.confirm(user, current, source).await?;
        valid_password(new, "newPassword")?;
        if new == current {
            return Err(ApiError::BadRequest(
                "newPassword: the new password is the current one".into(),
            ));
        }
        let new = new.to_string();
        let hash = self.hashing(move || auth::hash_password(&new)).await??;
        self.store.set_password(user.id, &hash).await?;
        let keep = keep.map(auth::token_hash);
        Ok(self
            .store
            .delete_sessions_of(user.id, keep.as_deref())
            .await?)
    }

    /// Closes `user`'s account after checking its password (by its owner).
    pub async fn close_own(
        &self,
        user: &User,
        password: &str,
        source: IpAddr,
    ) -> Result<(), ApiError> {
        self.confirm(user, password, source).await?;
        self.close(user).await
    }

    /// Closes `user`'s account for good: it can no longer sign in; its
    /// sessions, tokens and waiting challenges are gone from the store.
    pub async fn close(&self, user: &User) -> Result<(), ApiError> {
        self.store.close_account(user.id, now_ms() as i64).await?;
        Ok(())
    }

    /// A new guest account with a generated name.
    pub async fn guest(&self, source: IpAddr) -> Result<User, ApiError> {
        self.limits.take_source(source, Kind::Guest)?;
        for _ in 0..5 {
            let name = format!("Guest-{}", &auth::random_hex(3)[..5]);
            match self.store.create_user(&name, None, now_ms() as i64).await {
                Ok(user) => return Ok(user),
                Err(caissa_store::StoreError::NameTaken(_)) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ApiError::Unavailable {
            message: "could not find a free guest name; try again".into(),
            retry_after_ms: 1_000,
        })
    }

    /// Gives `user` a title (`BOT`) for ever: false if they have one already.
    pub async fn give_title(&self, user: i64, title: &str) -> Result<bool, ApiError> {
        Ok(self.store.give_title(user, title).await?)
    }

    /// The ids of `user`'s games that `filter` takes.
    pub async fn game_ids(
        &self,
        user: i64,
        filter: &caissa_store::GameFilter,
    ) -> Result<Vec<String>, ApiError> {
        Ok(self.store.game_ids_of_user(user, filter).await?)
    }

    /// Starts a session for `user`.
    pub async fn start_session(&self, user: &User) -> Result<NewSession, ApiError> {
        let secret = auth::random_hex(24);
        let csrf = auth::random_hex(16);
        self.store
            .create_session(&auth::token_hash(&secret), user.id, &csrf, now_ms() as i64)
            .await?;
        Ok(NewSession { secret, csrf })
    }

    /// The user and CSRF token of a session cookie's secret, if it has not
    /// expired.
    pub async fn session(&self, secret: &str) -> Result<Option<(User, String)>, ApiError> {
        let oldest = now_ms().saturating_sub(self.session_ttl.as_millis() as u64) as i64;
        Ok(self
            .store
            .session(&auth::token_hash(secret), oldest)
            .await?)
    }

    /// Ends a session.
    pub async fn end_session(&self, secret: &str) -> Result<(), ApiError> {
        Ok(self.store.delete_session(&auth::token_hash(secret)).await?)
    }

    /// Forgets the sessions that have expired.
    pub async fn prune_sessions(&self) -> Result<u64, ApiError> {
        let oldest = now_ms().saturating_sub(self.session_ttl.as_millis() as u64) as i64;
        Ok(self.store.delete_sessions_before(oldest).await?)
    }

    /// The session's lifetime (the cookie's `Max-Age`).
    pub fn session_ttl(&self) -> Duration {
        self.session_ttl
    }

    /// The account with this name (any case).
    pub async fn by_name(&self, name: &str) -> Result<Option<User>, ApiError> {
        Ok(self.store.user_by_name(name).await?)
    }

    /// The account with this name, or 404 naming it.
    pub async fn named(&self, name: &str) -> Result<User, ApiError> {
        self.by_name(name)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("user {name:?}")))
    }

    /// The account with this id.
    pub async fn by_id(&self, id: i64) -> Result<Option<User>, ApiError> {
        Ok(self.store.user_by_id(id).await?)
    }

    /// The computer's account (created on first use).
    pub async fn computer(&self) -> Result<User, ApiError> {
        if let Some(user) = self.store.user_by_name(COMPUTER_NAME).await? {
            return Ok(user);
        }
        match self
            .store
            .create_user(COMPUTER_NAME, None, now_ms() as i64)
            .await
        {
            Ok(user) => Ok(user),
            Err(caissa_store::StoreError::NameTaken(_)) => self
                .store
                .user_by_name(COMPUTER_NAME)
                .await?
                .ok_or_else(|| ApiError::Internal("the computer's account vanished".into())),
            Err(e) => Err(e.into()),
        }
    }
}

/// A password people may choose (in the field `field`): 8 characters or
/// more, 1024 bytes at most.
fn valid_password(password: &str, field: &str) -> Result<(), ApiError> {
    if password.chars().count() < 8 {
        return Err(ApiError::BadRequest(format!(
            "{field}: the password needs at least 8 characters"
        )));
    }
    if password.len() > 1024 {
        return Err(ApiError::BadRequest(format!(
            "{field}: the password is longer than 1024 bytes"
        )));
    }
    Ok(())
}

/// A name people may register: 2 to 20 letters, digits, `_` or `-`, not the
/// computer's and not looking like a guest's.
pub fn valid_name(name: &str) -> Result<(), ApiError> {
    let ok = (2..=20).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !name.eq_ignore_ascii_case(COMPUTER_NAME)
        && !name.to_ascii_lowercase().starts_with("guest");
    if ok {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!(
            "invalid name {name:?}: 2 to 20 letters, digits, '_' or '-' (not starting with \"guest\")"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn accounts() -> Accounts {
        let dir = std::env::temp_dir().join(format!(
            "caissa-accounts-{}-{}",
            std::process::id(),
            auth::random_hex(4)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&format!("sqlite://{}", dir.join("a.db").display()))
            .await
            .unwrap();
        Accounts::new(store, Arc::default(), Duration::from_secs(3600))
    }

    #[tokio::test]
    async fn failed_logins_are_counted_before_the_check_and_per_source() {
        let accounts = accounts().await;
        let here: IpAddr = "10.1.1.1".parse().unwrap();
        let there: IpAddr = "10.2.2.2".parse().unwrap();
        accounts
            .register("anna", "correct horse", here)
            .await
            .unwrap();
        for _ in 0..failures_allowed() {
            let e = accounts.login("anna", "wrong", here).await.unwrap_err();
            assert!(matches!(e, ApiError::LoginFailed), "{e}");
        }
        // Locked from here, even with the right password...
        let e = accounts
            .login("anna", "correct horse", here)
            .await
            .unwrap_err();
        assert_eq!(e.status().as_u16(), 429);
        // ...but the owner elsewhere is not locked out.
        accounts
            .login("ANNA", "correct horse", there)
            .await
            .unwrap();
    }

    /// Failed logins a name may have from one source before it is locked.
    fn failures_allowed() -> u32 {
        Kind::NamedLogin.budget().burst as u32
    }

    #[tokio::test]
    async fn many_attempts_at_once_gain_nothing() {
        let accounts = Arc::new(accounts().await);
        let here: IpAddr = "10.1.1.1".parse().unwrap();
        accounts
            .register("boris", "correct horse", here)
            .await
            .unwrap();
        let tries: Vec<_> = (0..20)
            .map(|_| {
                let accounts = accounts.clone();
                tokio::spawn(async move { accounts.login("boris", "wrong", here).await })
            })
            .collect();
        let mut checked = 0;
        for t in tries {
            if matches!(t.await.unwrap(), Err(ApiError::LoginFailed)) {
                checked += 1;
            }
        }
        assert_eq!(checked, failures_allowed());
    }

    #[test]
    fn guests_are_told_apart_from_players_and_the_computer() {
        let user = |name: &str, password: Option<&str>| User {
            title: None,
            closed_at: None,
            id: 1,
            name: name.into(),
            password_hash: password.map(str::to_string),
            created_at: 0,
        };
        assert!(is_guest(&user("Guest-1a2b3", None)));
        assert!(!is_guest(&user(COMPUTER_NAME, None)));
        assert!(!is_guest(&user("anna", Some("hash"))));
        assert!(valid_name("Guest-me").is_err());
    }
}
