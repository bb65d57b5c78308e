//! Who is connected to a game, on this node and on the others: a player may
//! hold a socket or stream on any node, and whether they are "gone" (for the
//! opponent's claim of victory or draw) must not depend on which node is
//! asked. Each node tells the others when a colour's connections here go from
//! none to some or back; a node that starts following or adopts a game asks
//! who is connected; the connections of a node that was lost are forgotten.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use caissa_rules::Color;
use tokio::sync::watch;

use crate::cluster::{Cluster, Message};
use crate::live::view::now_ms;

/// Whether a player is connected to a game (an open stream or socket).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    /// Open connections.
    pub connections: u32,
    /// Since when there are none, ms (`None`: connected, or never was).
    pub gone_since: Option<u64>,
}

impl Presence {
    /// Whether the player was connected and is no more.
    pub fn is_gone(&self) -> bool {
        self.connections == 0 && self.gone_since.is_some()
    }
}

/// The connections to one game's seats.
pub(crate) struct Seats {
    game: String,
    cluster: Arc<Cluster>,
    /// What readers see: connections everywhere.
    pub(crate) presence: watch::Sender<[Presence; 2]>,
    /// Connections on this node, per colour.
    here: Mutex<[u32; 2]>,
    /// (node generation, colour) connected on another node.
    elsewhere: Mutex<HashSet<(i64, usize)>>,
}

impl Seats {
    /// Nobody connected yet.
    pub(crate) fn new(game: String, cluster: Arc<Cluster>) -> Arc<Seats> {
        Arc::new(Seats {
            game,
            cluster,
            presence: watch::channel([Presence::default(); 2]).0,
            here: Mutex::new([0; 2]),
            elsewhere: Mutex::default(),
        })
    }

    /// A connection of `color` opened (`+1`) or closed (`-1`) here.
    pub(crate) fn here(&self, color: Color, change: i32) {
        let i = color.index();
        let crossed = {
            let mut here = self.here.lock().unwrap_or_else(|e| e.into_inner());
            let before = here[i];
            here[i] = before.saturating_add_signed(change);
            (before == 0) != (here[i] == 0)
        };
        if crossed {
            self.tell(color, change > 0);
        }
        self.show();
    }

    fn tell(&self, color: Color, connected: bool) {
        if self.cluster.is_multi() {
            self.cluster.tell(Message::Presence {
                from: self.cluster.generation(),
                game: self.game.clone(),
                white: color == Color::White,
                connected,
            });
        }
    }

    /// Another node says whether `color` is connected there.
    pub(crate) fn elsewhere(&self, node: i64, color: Color, connected: bool) {
        let key = (node, color.index());
        let changed = {
            let mut elsewhere = self.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
            if connected {
                elsewhere.insert(key)
            } else {
                elsewhere.remove(&key)
            }
        };
        if changed {
            self.show();
        }
    }

    /// Another node asks who is connected: the colours connected here are told.
    pub(crate) fn asked(&self) {
        let here = *self.here.lock().unwrap_or_else(|e| e.into_inner());
        for color in [Color::White, Color::Black] {
            if here[color.index()] > 0 {
                self.tell(color, true);
            }
        }
    }

    /// Forgets the connections of nodes that are no longer running.
    pub(crate) fn keep_nodes(&self, running: &[i64]) {
        let dropped = {
            let mut elsewhere = self.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
            let before = elsewhere.len();
            elsewhere.retain(|(node, _)| running.contains(node));
            elsewhere.len() != before
        };
        if dropped {
            self.show();
        }
    }

    /// Publishes the connections everywhere; a colour that has none any more
    /// is gone from now.
    fn show(&self) {
        let here = *self.here.lock().unwrap_or_else(|e| e.into_inner());
        let elsewhere: Vec<usize> = self
            .elsewhere
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|&(_, c)| c)
            .collect();
        self.presence.send_if_modified(|p| {
            let mut changed = false;
            for (i, seat) in p.iter_mut().enumerate() {
                let now = here[i] + elsewhere.iter().filter(|&&c| c == i).count() as u32;
                if now == seat.connections {
                    continue;
                }
                if now == 0 {
                    seat.gone_since = Some(now_ms());
                } else {
                    seat.gone_since = None;
                }
                seat.connections = now;
                changed = true;
            }
            changed
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn seats() -> Arc<Seats> {
        let store = caissa_store::Store::open("sqlite::memory:").await.unwrap();
        Seats::new("g".into(), Cluster::single(store))
    }

    #[tokio::test]
    async fn a_player_connected_on_another_node_is_not_gone_until_that_node_is_lost() {
        let seats = seats().await;
        let black = |s: &Seats| s.presence.borrow()[Color::Black.index()];
        // Connected here, then on node 7 too: leaving here is not leaving.
        seats.here(Color::Black, 1);
        seats.elsewhere(7, Color::Black, true);
        seats.here(Color::Black, -1);
        assert_eq!(black(&seats).connections, 1);
        assert!(!black(&seats).is_gone());
        // Node 7 is told twice (idempotent), then is lost: the player is gone.
        seats.elsewhere(7, Color::Black, true);
        seats.keep_nodes(&[3, 9]);
        assert!(black(&seats).is_gone());
        // Back on node 9.
        seats.elsewhere(9, Color::Black, true);
        assert!(!black(&seats).is_gone());
        seats.elsewhere(9, Color::Black, false);
        assert!(black(&seats).is_gone());
        // White's seat was never touched.
        assert_eq!(
            seats.presence.borrow()[Color::White.index()],
            Presence::default()
        );
    }
}
