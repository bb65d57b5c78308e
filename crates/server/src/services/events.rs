//! Each user's event streams (`/api/stream/event`): challenges, games starting
//! and ending, as NDJSON lines. A user may keep a bounded number of streams open
//! (429 beyond it); each has a bounded queue, and a reader that does not read
//! until its queue is full is dropped, so no client can make the server hold
//! more than a few lines for it, nor slow anyone else down.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use serde_json::Value;
use tokio::sync::mpsc;

use crate::cluster::{Cluster, Hears, Message};
use crate::http::error::ApiError;
use crate::live::news::{Effect, Subscriber};
use crate::live::view::View;
use crate::protocol::lichess;

/// Lines one stream may have waiting before its reader is dropped.
const QUEUE: usize = 64;

/// The internal route where a node says whose event streams it has open.
pub const LISTENING_PATH: &str = "/internal/listening";

/// The event streams of all users.
pub struct UserEvents {
    listeners: Mutex<HashMap<i64, Vec<mpsc::Sender<Arc<str>>>>>,
    max_per_user: usize,
    /// Other nodes, where the user may have streams open too.
    cluster: Arc<Cluster>,
}

impl UserEvents {
    /// Streams of at most `max_per_user` at once per user (on this node); what
    /// is sent to a user here goes to their streams on other nodes too.
    pub fn new(max_per_user: usize, cluster: Arc<Cluster>) -> Arc<UserEvents> {
        let events = Arc::new(UserEvents {
            listeners: Mutex::default(),
            max_per_user,
            cluster: cluster.clone(),
        });
        let hears: Weak<dyn Hears> = Arc::downgrade(&events) as Weak<UserEvents>;
        cluster.subscribe(hears);
        events
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Vec<mpsc::Sender<Arc<str>>>>> {
        self.listeners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a stream for `user`, starting with `first` (what is pending now);
    /// refused when the user has as many open as allowed.
    pub fn open(&self, user: i64, first: Vec<Value>) -> Result<mpsc::Receiver<Arc<str>>, ApiError> {
        let (tx, rx) = mpsc::channel(QUEUE.max(first.len() + 1));
        for value in first {
            let _ = tx.try_send(line(&value));
        }
        let mut listeners = self.lock();
        let streams = listeners.entry(user).or_default();
        streams.retain(|s| !s.is_closed());
        if streams.len() >= self.max_per_user {
            return Err(ApiError::TooManyRequests {
                message: format!(
                    "too many event streams open for this account (at most {}); close one first",
                    self.max_per_user
                ),
                retry_after_ms: 10_000,
            });
        }
        streams.push(tx);
        Ok(rx)
    }

    /// Sends one line to every event stream of `user`, on every node; a stream
    /// whose queue is full is dropped (its reader is not reading).
    pub fn notify(&self, user: i64, value: &Value) {
        if self.cluster.is_multi() {
            self.cluster.tell(Message::User {
                from: self.cluster.generation(),
                user,
                line: value.to_string(),
            });
        }
        self.deliver(user, line(value));
    }

    /// Sends a line to `user`'s streams on this node.
    fn deliver(&self, user: i64, line: Arc<str>) {
        let mut listeners = self.lock();
        if let Some(streams) = listeners.get_mut(&user) {
            streams.retain(|tx| tx.try_send(line.clone()).is_ok());
            if streams.is_empty() {
                listeners.remove(&user);
            }
        }
    }

    /// Whether `user` has an event stream open.
    pub fn is_listening(&self, user: i64) -> bool {
        self.lock()
            .get(&user)
            .is_some_and(|streams| streams.iter().any(|tx| !tx.is_closed()))
    }

    /// The users with an event stream open on this node.
    pub fn listening(&self) -> Vec<i64> {
        self.lock()
            .iter()
            .filter(|(_, streams)| streams.iter().any(|tx| !tx.is_closed()))
            .map(|(user, _)| *user)
            .collect()
    }

    /// The users with an event stream open on any node, each once.
    pub async fn listening_everywhere(&self) -> Vec<i64> {
        let mut users = self.listening();
        if self.cluster.is_multi() {
            users.extend(self.cluster.ask_nodes::<i64>(LISTENING_PATH).await);
            users.sort_unstable();
            users.dedup();
        }
        users
    }

    /// Streams open now, all users together.
    pub fn open_streams(&self) -> usize {
        self.lock()
            .values()
            .map(|s| s.iter().filter(|tx| !tx.is_closed()).count())
            .sum()
    }
}

fn line(value: &Value) -> Arc<str> {
    Arc::from(format!("{value}\n"))
}

/// Lines for a user from other nodes.
impl Hears for UserEvents {
    fn heard(&self, message: &Message) {
        if let Message::User { user, line, .. } = message {
            self.deliver(*user, Arc::from(format!("{line}\n")));
        }
    }
}

/// Both players hear that their game started and, once its ratings are recorded,
/// that it ended.
impl Subscriber for UserEvents {
    fn started(&self, view: &Arc<View>) {
        for user in [view.info.white.id, view.info.black.id] {
            self.notify(user, &lichess::game_event("gameStart", view, user));
        }
    }

    fn finished(&self, view: Arc<View>) -> Effect {
        for user in [view.info.white.id, view.info.black.id] {
            self.notify(user, &lichess::game_event("gameFinish", &view, user));
        }
        Box::pin(async {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    async fn scratch_store() -> caissa_store::Store {
        caissa_store::Store::open("sqlite::memory:").await.unwrap()
    }

    #[tokio::test]
    async fn a_user_cannot_open_more_streams_than_allowed() {
        let events = UserEvents::new(2, Cluster::single(scratch_store().await));
        let a = events.open(1, vec![]).unwrap();
        let _b = events.open(1, vec![]).unwrap();
        let refused = events.open(1, vec![]).unwrap_err();
        assert_eq!(refused.status().as_u16(), 429);
        // Another user has their own allowance; a closed stream frees its place.
        events.open(2, vec![]).unwrap();
        drop(a);
        events.open(1, vec![]).unwrap();
    }

    #[tokio::test]
    async fn a_reader_who_does_not_read_is_dropped_and_the_others_still_hear() {
        let events = UserEvents::new(4, Cluster::single(scratch_store().await));
        let mut reading = events.open(1, vec![json!({"type": "hello"})]).unwrap();
        let mut stuck = events.open(1, vec![]).unwrap();
        assert_eq!(&*reading.recv().await.unwrap(), "{\"type\":\"hello\"}\n");
        for i in 0..QUEUE + 5 {
            events.notify(1, &json!({ "n": i }));
            assert!(reading.recv().await.is_some());
        }
        // The stuck stream got a full queue, then was let go.
        let mut got = 0;
        while stuck.recv().await.is_some() {
            got += 1;
        }
        assert_eq!(got, QUEUE);
        events.notify(1, &json!({ "n": "after" }));
        assert!(reading.recv().await.is_some());
    }
}
