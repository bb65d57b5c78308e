//! Rate limits (token buckets): per user for what a signed-in user does (moves,
//! seeks, chat), per source address for what anyone can do before signing in
//! (register, log in, play as a guest). Enough for any human and any honest bot
//! behind one address, not for a flood. Buckets that are full again are pruned.
//!
//! With several nodes, each keeps its own buckets and tells the others what
//! it took (a batch every tenth of a second, through the cluster), and each
//! takes what the others took out of its own buckets: a user spreading
//! requests over nodes has one budget, give or take a tenth of a second.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::http::error::ApiError;
use crate::live::view::now_ms;

/// What is being limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Moves and other game actions, per user.
    GameAction,
    /// Seeks and challenges, per user.
    Seek,
    /// Chat lines, per user.
    Chat,
    /// New accounts, per source.
    Register,
    /// Login attempts, per source.
    Login,
    /// Login attempts for one name from one source, given back when one
    /// succeeds: the lockout after failed logins.
    NamedLogin,
    /// New guests, per source.
    Guest,
    /// Reports to the operators, per user.
    Report,
}

/// A bucket's size and refill rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Tokens at once.
    pub burst: f64,
    /// Milliseconds to refill one token.
    pub refill_ms: f64,
}

impl Kind {
    /// The default budget.
    pub fn budget(self) -> Budget {
        let (burst, refill_ms) = match self {
            // 30 at once, 10 a second after that.
            Kind::GameAction => (30.0, 100.0),
            // 10 at once, then one every 6 s (10 a minute).
            Kind::Seek => (10.0, 6_000.0),
            // 5 at once, then one every 2 s.
            Kind::Chat => (5.0, 2_000.0),
            // 30 at once (a club registering at one desk), then one a minute.
            Kind::Register => (30.0, 60_000.0),
            // 30 at once, then one every 2 s.
            Kind::Login => (30.0, 2_000.0),
            // 5 at once, then one every 12 s (5 a minute).
            Kind::NamedLogin => (5.0, 12_000.0),
            // 30 at once, then one every 10 s.
            Kind::Guest => (30.0, 10_000.0),
            // 5 at once, then one every 5 minutes.
            Kind::Report => (5.0, 300_000.0),
        };
        Budget { burst, refill_ms }
    }

    fn describe(self) -> &'static str {
        match self {
            Kind::GameAction => "game actions",
            Kind::Seek => "seeks and challenges",
            Kind::Chat => "chat lines",
            Kind::Register => "new accounts from this address",
            Kind::Login => "login attempts from this address",
            Kind::NamedLogin => "failed logins for this name from this address",
            Kind::Guest => "new guests from this address",
            Kind::Report => "reports",
        }
    }
}

/// Who a bucket belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Key {
    /// A signed-in user.
    User(i64),
    /// A source address.
    Source(IpAddr),
    /// A name (lower-cased, hashed: see [`Key::name_from`]) tried from a
    /// source address.
    NameFrom(u64, IpAddr),
}

impl Key {
    /// The key of `name` tried from `source`. The hash (64-bit FNV-1a of the
    /// lower-cased name) is the same on every node, so nodes share the bucket.
    pub fn name_from(name: &str, source: IpAddr) -> Key {
        let hash = name
            .to_lowercase()
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            });
        Key::NameFrom(hash, source)
    }
}

/// Tokens taken from one bucket on one node, for the others to take too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spent {
    /// Whose bucket.
    pub key: Key,
    /// Which of their buckets.
    pub kind: Kind,
    /// How many tokens, after the refill if there was one.
    pub tokens: u32,
    /// Whether the bucket was filled up again first (a login succeeded).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refilled: bool,
}

/// What was done to a bucket here since the other nodes were last told: the
/// tokens taken, and whether it was filled up before them.
#[derive(Clone, Copy, Default)]
struct Taken {
    tokens: u32,
    refilled: bool,
}

/// Token buckets per key and kind.
#[derive(Default)]
pub struct RateLimits {
    buckets: Mutex<HashMap<(Key, Kind), (f64, u64)>>,
    overrides: HashMap<Kind, Budget>,
    /// Whether loopback sources are limited like any other.
    limit_loopback: bool,
    /// What was taken here since the other nodes were last told; `None` when
    /// there are no other nodes.
    spent: Mutex<Option<HashMap<(Key, Kind), Taken>>>,
}

/// Buckets kept before full ones are pruned.
const PRUNE_AT: usize = 100_000;

impl RateLimits {
    /// Limits with some budgets other than the defaults (tests, busy sites),
    /// and whether loopback sources are limited too.
    pub fn with_budgets(overrides: HashMap<Kind, Budget>, limit_loopback: bool) -> RateLimits {
        RateLimits {
            buckets: Mutex::default(),
            overrides,
            limit_loopback,
            spent: Mutex::default(),
        }
    }

    /// From now on, keeps what is taken here for [`RateLimits::take_spent`]:
    /// other nodes share these budgets.
    pub fn share(&self) {
        self.spent().get_or_insert_with(HashMap::new);
    }

    fn spent(&self) -> std::sync::MutexGuard<'_, Option<HashMap<(Key, Kind), Taken>>> {
        self.spent.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What was taken here since the last call, to tell the other nodes.
    pub fn take_spent(&self) -> Vec<Spent> {
        match self.spent().as_mut() {
            Some(spent) => spent
                .drain()
                .map(|((key, kind), taken)| Spent {
                    key,
                    kind,
                    tokens: taken.tokens,
                    refilled: taken.refilled,
                })
                .collect(),
            None => Vec::new(),
        }
    }

    /// Takes what another node took out of the same buckets (never below
    /// empty: a request refused here was refused, not owed).
    pub fn charge(&self, spent: &[Spent]) {
        self.charge_at(spent, now_ms());
    }

    fn charge_at(&self, spent: &[Spent], now: u64) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        for s in spent {
            let Budget { burst, refill_ms } = self.budget(s.kind);
            let (tokens, at) = buckets.entry((s.key, s.kind)).or_insert((burst, now));
            *tokens = (*tokens + now.saturating_sub(*at) as f64 / refill_ms).min(burst);
            if s.refilled {
                *tokens = burst;
            }
            *at = now;
            *tokens = (*tokens - f64::from(s.tokens)).max(0.0);
        }
    }

    fn budget(&self, kind: Kind) -> Budget {
        self.overrides
            .get(&kind)
            .copied()
            .unwrap_or_else(|| kind.budget())
    }

    /// Takes a token for `user`, or says how long to wait.
    pub fn take(&self, user: i64, kind: Kind) -> Result<(), ApiError> {
        self.take_at(Key::User(user), kind, now_ms())
    }

    /// Takes a token for a source address, or says how long to wait. This
    /// machine's own loopback address is not limited unless configured so.
    pub fn take_source(&self, source: IpAddr, kind: Kind) -> Result<(), ApiError> {
        if source.is_loopback() && !self.limit_loopback {
            return Ok(());
        }
        self.take_at(Key::Source(source), kind, now_ms())
    }

    /// Takes a token for `name` tried from `source` (loopback included: the
    /// lockout protects an account, not the server).
    pub fn take_name_from(&self, name: &str, source: IpAddr) -> Result<(), ApiError> {
        self.take_at(Key::name_from(name, source), Kind::NamedLogin, now_ms())
    }

    /// Fills the bucket of `name` tried from `source` again: a login
    /// succeeded, so the failures before it are forgiven on every node.
    pub fn refill_name_from(&self, name: &str, source: IpAddr) {
        let key = Key::name_from(name, source);
        let kind = Kind::NamedLogin;
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        buckets.remove(&(key, kind));
        drop(buckets);
        if let Some(spent) = self.spent().as_mut() {
            spent.insert(
                (key, kind),
                Taken {
                    tokens: 0,
                    refilled: true,
                },
            );
        }
    }

    fn take_at(&self, key: Key, kind: Kind, now: u64) -> Result<(), ApiError> {
        let Budget { burst, refill_ms } = self.budget(kind);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > PRUNE_AT {
            let budgets: HashMap<Kind, Budget> =
                buckets.keys().map(|(_, k)| (*k, self.budget(*k))).collect();
            buckets.retain(|(_, k), (tokens, at)| {
                let b = budgets[k];
                *tokens + now.saturating_sub(*at) as f64 / b.refill_ms < b.burst
            });
        }
        let (tokens, at) = buckets.entry((key, kind)).or_insert((burst, now));
        *tokens = (*tokens + now.saturating_sub(*at) as f64 / refill_ms).min(burst);
        *at = now;
        if *tokens < 1.0 {
            let wait_ms = ((1.0 - *tokens) * refill_ms).ceil() as u64;
            return Err(ApiError::TooManyRequests {
                message: format!(
                    "too many {}; try again in {:.1} s",
                    kind.describe(),
                    wait_ms.max(100) as f64 / 1000.0
                ),
                retry_after_ms: wait_ms,
            });
        }
        *tokens -= 1.0;
        drop(buckets);
        if let Some(spent) = self.spent().as_mut() {
            spent.entry((key, kind)).or_default().tokens += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_the_rate_is_held() {
        let limits = RateLimits::default();
        for _ in 0..10 {
            limits.take_at(Key::User(1), Kind::Seek, 0).unwrap();
        }
        let refused = limits.take_at(Key::User(1), Kind::Seek, 0).unwrap_err();
        assert!(refused.to_string().contains("seeks"), "{refused}");
        assert!(refused.retry_after_ms().unwrap() > 0);
        // Another user and another kind have their own buckets.
        limits.take_at(Key::User(2), Kind::Seek, 0).unwrap();
        limits.take_at(Key::User(1), Kind::GameAction, 0).unwrap();
        // One token back after 6 s.
        limits.take_at(Key::User(1), Kind::Seek, 6_000).unwrap();
        assert!(limits.take_at(Key::User(1), Kind::Seek, 6_000).is_err());
    }

    #[test]
    fn tokens_taken_on_another_node_are_taken_here_too() {
        let here = RateLimits::default();
        let there = RateLimits::default();
        there.share();
        // Six seeks there, four here: the budget of ten is spent.
        for _ in 0..6 {
            there.take_at(Key::User(1), Kind::Seek, 0).unwrap();
        }
        there.take_at(Key::User(2), Kind::Chat, 0).unwrap();
        let mut spent = there.take_spent();
        spent.sort_by_key(|s| s.tokens);
        assert_eq!(
            spent,
            [
                Spent {
                    key: Key::User(2),
                    kind: Kind::Chat,
                    tokens: 1,
                    refilled: false,
                },
                Spent {
                    key: Key::User(1),
                    kind: Kind::Seek,
                    tokens: 6,
                    refilled: false,
                },
            ]
        );
        assert!(there.take_spent().is_empty(), "told once");
        here.charge_at(&spent, 0);
        for _ in 0..4 {
            here.take_at(Key::User(1), Kind::Seek, 0).unwrap();
        }
        assert!(here.take_at(Key::User(1), Kind::Seek, 0).is_err());
        // What is charged never leaves a bucket owing: one refill is one token.
        here.charge_at(
            &[Spent {
                key: Key::User(1),
                kind: Kind::Seek,
                tokens: 50,
                refilled: false,
            }],
            0,
        );
        here.take_at(Key::User(1), Kind::Seek, 6_000).unwrap();
        // A node alone keeps nothing to tell.
        assert!(here.take_spent().is_empty());
    }

    #[test]
    fn failed_logins_lock_a_name_on_every_node_until_one_succeeds() {
        let here = RateLimits::default();
        let there = RateLimits::default();
        here.share();
        there.share();
        let source: IpAddr = "127.0.0.1".parse().unwrap();
        // Three failures here, two there (names compare without case).
        for _ in 0..3 {
            here.take_name_from("Alice", source).unwrap();
        }
        for _ in 0..2 {
            there.take_name_from("alice", source).unwrap();
        }
        there.charge(&here.take_spent());
        here.charge(&there.take_spent());
        for limits in [&here, &there] {
            let refused = limits.take_name_from("ALICE", source).unwrap_err();
            assert!(refused.to_string().contains("failed logins"), "{refused}");
            // Another name, or the same name from elsewhere, is not locked.
            limits.take_name_from("bob", source).unwrap();
            limits
                .take_name_from("alice", "10.1.2.3".parse().unwrap())
                .unwrap();
        }
        // Alice logs in here (after a wait): both nodes forgive her failures.
        here.refill_name_from("alice", source);
        there.charge(&here.take_spent());
        for limits in [&here, &there] {
            for _ in 0..5 {
                limits.take_name_from("alice", source).unwrap();
            }
        }
    }

    #[test]
    fn sources_are_limited_apart_from_users() {
        let limits = RateLimits::with_budgets(
            HashMap::from([(
                Kind::Register,
                Budget {
                    burst: 2.0,
                    refill_ms: 1_000.0,
                },
            )]),
            false,
        );
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        limits.take_at(Key::Source(a), Kind::Register, 0).unwrap();
        limits.take_at(Key::Source(a), Kind::Register, 0).unwrap();
        assert!(limits.take_at(Key::Source(a), Kind::Register, 0).is_err());
        limits.take_at(Key::Source(b), Kind::Register, 0).unwrap();
    }

    #[test]
    fn the_machines_own_address_is_not_limited_unless_asked() {
        let tight = HashMap::from([(
            Kind::Register,
            Budget {
                burst: 1.0,
                refill_ms: 60_000.0,
            },
        )]);
        let local: IpAddr = "127.0.0.1".parse().unwrap();
        let open = RateLimits::with_budgets(tight.clone(), false);
        for _ in 0..5 {
            open.take_source(local, Kind::Register).unwrap();
        }
        let strict = RateLimits::with_budgets(tight, true);
        strict.take_source(local, Kind::Register).unwrap();
        assert!(strict.take_source(local, Kind::Register).is_err());
    }
}
