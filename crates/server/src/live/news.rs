//! News of games starting and ending, for whoever acts on them: the players'
//! event streams, ratings and the ladder, the registry of live games (and later
//! tournaments) subscribe here instead of being called from the game.
//!
//! Subscribers hear a start at once, in the order they subscribed; an end runs in
//! a task of its own per game, each subscriber in turn (so the players are told
//! a game is over after its ratings are recorded), games apart from each other.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};

use crate::live::view::View;

/// A future a subscriber returns for a game's end.
pub type Effect = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// Something that acts when games start or end.
pub trait Subscriber: Send + Sync {
    /// A game has started (and is stored).
    fn started(&self, _view: &Arc<View>) {}

    /// A game has ended (its last events are stored).
    fn finished(&self, view: Arc<View>) -> Effect;

    /// A game another node owns, followed here, has ended (the owner's news
    /// told the rest: ratings, the players).
    fn followed_to_end(&self, _view: &Arc<View>) {}
}

/// The subscribers, in order.
#[derive(Default)]
pub struct NewsBus {
    subscribers: RwLock<Vec<Arc<dyn Subscriber>>>,
}

impl NewsBus {
    /// Adds a subscriber after those there are.
    pub fn subscribe(&self, subscriber: Arc<dyn Subscriber>) {
        self.subscribers
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(subscriber);
    }

    fn all(&self) -> Vec<Arc<dyn Subscriber>> {
        self.subscribers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Tells every subscriber a game started.
    pub fn started(&self, view: &Arc<View>) {
        for s in self.all() {
            s.started(view);
        }
    }

    /// Tells every subscriber that a game followed here ended on its owner.
    pub fn followed_to_end(&self, view: Arc<View>) {
        for s in self.all() {
            s.followed_to_end(&view);
        }
    }

    /// Tells every subscriber, in turn, that a game ended.
    pub fn finished(&self, view: Arc<View>) {
        let effects: Vec<Effect> = self
            .all()
            .iter()
            .map(|s| s.finished(view.clone()))
            .collect();
        tokio::spawn(async move {
            for effect in effects {
                effect.await;
            }
        });
    }
}
