//! The arbiter's seat (Laws 12): who may arbitrate a game, their actions, and the
//! games they watch over. An account arbitrates a game when an operator granted it
//! the `arbiter` right (`caissa user grant NAME arbiter`: every game) or when the
//! game's creator named it; never a game it plays. Everyone else gets 403.

use std::sync::Arc;

use caissa_arbiter::ArbiterAction;
use caissa_store::{Store, User};

use crate::http::error::ApiError;
use crate::live::view::View;
use crate::services::games::{Found, Games};

/// The right an operator grants to let an account arbitrate every game.
pub const ARBITER_RIGHT: &str = "arbiter";

/// Finished games a named arbiter still sees in the list (to correct a result).
const FINISHED_LISTED: u32 = 10;

/// The arbiters of a server's games.
pub struct Arbiters {
    store: Store,
    games: Arc<Games>,
}

impl Arbiters {
    /// The arbiters of `games`, their rights in `store`.
    pub fn new(store: Store, games: Arc<Games>) -> Arbiters {
        Arbiters { store, games }
    }

    /// Whether `user` holds the operator's arbiter right.
    pub async fn is_arbiter(&self, user: i64) -> Result<bool, ApiError> {
        Ok(self.store.has_right(user, ARBITER_RIGHT).await?)
    }

    /// Names the arbiters of a new game (its creator's choice).
    pub async fn name(&self, game_id: &str, users: &[i64]) -> Result<(), ApiError> {
        if users.is_empty() {
            return Ok(());
        }
        Ok(self.store.add_game_arbiters(game_id, users).await?)
    }

    /// The arbiters named for a game.
    pub async fn named(&self, game_id: &str) -> Result<Vec<i64>, ApiError> {
        Ok(self.store.game_arbiters(game_id).await?)
    }

    /// Ok if `user` may arbitrate game `id`: 404 for no such game, 403 for a
    /// player of it or anyone neither granted the right nor named.
    pub async fn authorize(&self, user: &User, id: &str) -> Result<Found, ApiError> {
        let found = self.games.find(id).await?;
        let info = found.view().info.clone();
        if info.color_of(user.id).is_some() {
            return Err(ApiError::Forbidden(
                "a player cannot arbitrate their own game".into(),
            ));
        }
        if self.is_arbiter(user.id).await? || self.named(id).await?.contains(&user.id) {
            return Ok(found);
        }
        Err(ApiError::Forbidden(format!(
            "you are not an arbiter of game {id}"
        )))
    }

    /// `user` acts as arbiter on game `id`, saying why; answered once durable.
    pub async fn act(
        &self,
        user: &User,
        id: &str,
        action: ArbiterAction,
        reason: &str,
    ) -> Result<(), ApiError> {
        let found = self.authorize(user, id).await?;
        match found {
            Found::Live(handle) if !handle.is_finished() => {
                handle
                    .arbitrate(user.name.clone(), reason.to_string(), action)
                    .await
            }
            _ => {
                if !matches!(action, ArbiterAction::DeclareResult { .. }) {
                    return Err(ApiError::game_over());
                }
                self.games
                    .arbitrate_stored(id, &user.name, reason, action)
                    .await
            }
        }
    }

    /// The games `user` arbitrates: for a holder of the right every game being
    /// played that they do not play, and the games they were named for (with the
    /// last finished ones); those waiting for a decision first, then the newest.
    pub async fn games_of(&self, user: &User) -> Result<Vec<Arc<View>>, ApiError> {
        let mut views: Vec<Arc<View>> = Vec::new();
        if self.is_arbiter(user.id).await? {
            views.extend(
                self.games
                    .live_views()
                    .into_iter()
                    .filter(|v| v.info.color_of(user.id).is_none()),
            );
        }
        for (id, _) in self
            .store
            .arbitrated_games(user.id, FINISHED_LISTED)
            .await?
        {
            if views.iter().any(|v| v.id() == id) {
                continue;
            }
            if let Ok(found) = self.games.find(&id).await {
                views.push(found.view());
            }
        }
        views.sort_by_key(|v| {
            (
                v.finish.is_some(),
                !v.pending.needs_arbiter(),
                std::cmp::Reverse(v.info.created_at),
            )
        });
        Ok(views)
    }
}
