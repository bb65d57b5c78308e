//! Per-user rate limits on actions (token buckets): enough for any human and any
//! honest bot, not for a flood. Login failures are limited separately (`accounts`).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::error::ApiError;
use crate::live::now_ms;

/// What is being limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Moves and other game actions.
    GameAction,
    /// Seeks and challenges.
    Seek,
    /// Chat lines.
    Chat,
}

impl Kind {
    /// (burst, ms per token refilled).
    fn budget(self) -> (f64, f64) {
        match self {
            // 30 at once, 10 a second after that.
            Kind::GameAction => (30.0, 100.0),
            // 10 at once, then one every 6 s (10 a minute).
            Kind::Seek => (10.0, 6_000.0),
            // 5 at once, then one every 2 s.
            Kind::Chat => (5.0, 2_000.0),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Kind::GameAction => "game actions",
            Kind::Seek => "seeks and challenges",
            Kind::Chat => "chat lines",
        }
    }
}

/// Token buckets per user and kind.
#[derive(Default)]
pub struct RateLimits(Mutex<HashMap<(i64, Kind), (f64, u64)>>);

impl RateLimits {
    /// Takes a token for `user`, or says how long to wait.
    pub fn take(&self, user: i64, kind: Kind) -> Result<(), ApiError> {
        self.take_at(user, kind, now_ms())
    }

    fn take_at(&self, user: i64, kind: Kind, now: u64) -> Result<(), ApiError> {
        let (burst, refill_ms) = kind.budget();
        let mut buckets = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // Forget full buckets rather than grow without bound.
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.saturating_sub(*at) as f64 / refill_ms < burst
            });
        }
        let (tokens, at) = buckets.entry((user, kind)).or_insert((burst, now));
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
            limits.take_at(1, Kind::Seek, 0).unwrap();
        }
        let refused = limits.take_at(1, Kind::Seek, 0).unwrap_err().to_string();
        assert!(refused.contains("seeks"), "{refused}");
        // Another user and another kind have their own buckets.
        limits.take_at(2, Kind::Seek, 0).unwrap();
        limits.take_at(1, Kind::GameAction, 0).unwrap();
        // One token back after 6 s.
        limits.take_at(1, Kind::Seek, 6_000).unwrap();
        assert!(limits.take_at(1, Kind::Seek, 6_000).is_err());
    }
}
