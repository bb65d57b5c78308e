//! Several nodes on one database: leases, the ownership of games, and
//! notifications between nodes. On SQLite there is one node, which owns every
//! game; on PostgreSQL each node holds a lease, renewed while it lives, and a
//! game belongs to one lease at a time.

use crate::model::StoredGame;
use crate::StoreError;

/// A node's lease: its place in the cluster for as long as it renews it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// Unique to each start of each node: games name their owner by it, and a
    /// node that lost its lease never writes under it again.
    pub generation: i64,
    /// Where other nodes reach this one.
    pub address: String,
}

/// Who owns a game now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    /// The owner's lease generation.
    pub generation: i64,
    /// Where it is reached.
    pub address: String,
    /// Whether its lease is still running.
    pub alive: bool,
}

/// A game taken over: from a node that is gone (or, at the start of a single
/// node, from its own last run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakenOver {
    /// The game with all its events.
    pub game: StoredGame,
    /// When its last owner was last known to run, ms: its clocks stopped then.
    pub last_seen: Option<i64>,
}

/// What a listener hears.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// A message another node (or this one) published.
    Message(String),
    /// The connection was lost and made again: messages may have been missed
    /// meanwhile, so whoever follows something should look at it again.
    Gap,
}

/// Hears what nodes publish (PostgreSQL's `LISTEN`).
pub struct Listener {
    pub(crate) inner: sqlx::postgres::PgListener,
}

impl Listener {
    /// The next message, or a gap.
    pub async fn next(&mut self) -> Result<Heard, StoreError> {
        Ok(match self.inner.try_recv().await? {
            Some(notification) => Heard::Message(notification.payload().to_string()),
            None => Heard::Gap,
        })
    }
}

/// The channel nodes publish on.
pub(crate) const CHANNEL: &str = "caissa";
