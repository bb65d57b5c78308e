//! Games as exports give them: live or stored, with a complete PGN whose `Site`
//! tag says where the game is seen from; and a user's games, by the filters of
//! lichess's export.

use std::sync::Arc;

use caissa_store::{GameFilter, Store};

use crate::http::error::ApiError;
use crate::live::view::View;
use crate::protocol::lichess;
use crate::services::games::{Found, Games};

/// The exports of a server's games.
pub struct Exports {
    store: Store,
    games: Arc<Games>,
}

impl Exports {
    /// Exports of `games`, finished ones read from `store`.
    pub fn new(store: Store, games: Arc<Games>) -> Exports {
        Exports { store, games }
    }

    /// A game as exports give it, live or stored, its PGN complete with the `Site`
    /// tag (`site`: this server as the client sees it).
    pub async fn game(&self, id: &str, site: &str) -> Result<View, ApiError> {
        let (view, pgn) = match self.games.find(id).await? {
            Found::Live(handle) => {
                let pgn = handle.pgn().await;
                (handle.view(), pgn)
            }
            Found::Stored(view) => {
                let pgn = view.pgn.clone().unwrap_or_default();
                (view, pgn)
            }
        };
        let mut view = view.with_pgn(lichess::with_site(&pgn, &format!("{site}/game/{id}")));
        if view.info.rated && view.finish.is_some() {
            view.rating_diffs = self.rating_diffs(&view).await?;
        }
        Ok(view)
    }

    /// How a rated game moved its players' ratings, once recorded: the
    /// rating each was left with less the one they had (the initial rating
    /// before a first game at the speed).
    async fn rating_diffs(&self, view: &View) -> Result<Option<[i32; 2]>, ApiError> {
        let changes = self.store.game_ratings(view.id()).await?;
        let initial = caissa_rating::glicko2::Config::default().initial_rating;
        let diff = |player: &crate::live::view::Player| {
            changes
                .iter()
                .find(|c| c.user == player.id)
                .map(|c| (c.after.round() - c.before.unwrap_or(initial).round()) as i32)
        };
        Ok(match (diff(&view.info.white), diff(&view.info.black)) {
            (Some(white), Some(black)) => Some([white, black]),
            _ => None,
        })
    }

    /// The ids of a user's games that pass `filter`.
    pub async fn ids_of_user(
        &self,
        user: i64,
        filter: &GameFilter,
    ) -> Result<Vec<String>, ApiError> {
        Ok(self.store.game_ids_of_user(user, filter).await?)
    }
}
