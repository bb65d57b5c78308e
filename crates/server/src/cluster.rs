//! The nodes serving one installation. On SQLite there is one node and this
//! service does nothing. On PostgreSQL each node holds a lease (renewed every
//! third of its time to live, taken again under a new generation if it ever
//! ran out), tells the others what changed through the database's
//! `LISTEN/NOTIFY` — a game's log grew, a line for a user's event stream, a
//! chat line, a revoked token, rate-limit tokens taken — and forwards a player's action to the node
//! that owns the game, over HTTP, with the installation's shared secret.
//!
//! One running node, the oldest (lowest generation), is the hub: it keeps
//! what there is one of in the installation — the lobby's seeks and pools,
//! the tournaments and their directors, TV — and the other nodes relay those
//! requests to it (`routes::hub`). When the hub is lost, the next oldest node
//! takes its place and loads the tournaments.
//!
//! Messages are published by one task, in the order they were given, so a
//! node hears another's messages in the order they happened there.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, RwLock, Weak};
use std::time::{Duration, Instant};

use caissa_arbiter::{Action, ArbiterAction};
use caissa_store::{Heard, Lease, Store};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::http::error::{ApiError, WireError};
use crate::http::limits::{RateLimits, Spent};

/// The header a node shows another when it forwards a request.
pub const SECRET_HEADER: &str = "x-caissa-cluster";
/// Games whose owner a node remembers at most (then it starts again).
const OWNERS_KEPT: usize = 100_000;
/// The most bytes in one notification (PostgreSQL takes fewer than 8,000).
const MAX_MESSAGE: usize = 7_000;

/// What nodes tell each other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Message {
    /// These games' logs grew (durably).
    Grew {
        /// The sender's generation.
        from: i64,
        /// What each game's log gained.
        games: Vec<Growth>,
    },
    /// A line for a user's event streams.
    User {
        /// The sender's generation.
        from: i64,
        /// The user.
        user: i64,
        /// The NDJSON line, without its newline.
        line: String,
    },
    /// A line said in a game's chat (already stored).
    Chat {
        /// The sender's generation.
        from: i64,
        /// The game.
        game: String,
        /// Its room: `player` or `spectator`.
        room: String,
        /// Who said it.
        username: String,
        /// What was said.
        text: String,
    },
    /// A game started or ended (for the streams following its players).
    GameTold {
        /// The sender's generation.
        from: i64,
        /// White's name, lower-cased.
        white: String,
        /// Black's name, lower-cased.
        black: String,
        /// The game's NDJSON line, without its newline.
        line: String,
    },
    /// A challenge was answered (or withdrawn): let it go.
    ChallengeGone {
        /// The sender's generation.
        from: i64,
        /// The challenge.
        id: String,
    },
    /// Whether a player is connected to a game on the sender.
    Presence {
        /// The sender's generation.
        from: i64,
        /// The game.
        game: String,
        /// White's seat (else Black's).
        white: bool,
        /// Connected there now (else no more).
        connected: bool,
    },
    /// Who is connected to this game on your node?
    PresenceAsked {
        /// The sender's generation.
        from: i64,
        /// The game.
        game: String,
    },
    /// A token was revoked: forget it.
    Token {
        /// The sender's generation.
        from: i64,
        /// The token's hash.
        hash: String,
    },
    /// Rate-limit tokens taken on the sender: take them here too.
    Spent {
        /// The sender's generation.
        from: i64,
        /// The buckets and how much of each.
        spent: Vec<Spent>,
    },
}

impl Message {
    fn from(&self) -> i64 {
        match self {
            Message::Grew { from, .. }
            | Message::User { from, .. }
            | Message::Chat { from, .. }
            | Message::ChallengeGone { from, .. }
            | Message::GameTold { from, .. }
            | Message::Presence { from, .. }
            | Message::PresenceAsked { from, .. }
            | Message::Token { from, .. }
            | Message::Spent { from, .. } => *from,
        }
    }
}

/// What one game's log gained: its events from `first_seq` on, when they fit
/// in the message (a follower that has all before them needs no read), or
/// only how long the log is now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Growth {
    /// The game.
    pub game: String,
    /// The number of the first new event.
    pub first_seq: u64,
    /// The events in the log now.
    pub len: u64,
    /// The new events as stored, if they fit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
}

/// Something that acts on what other nodes say.
pub trait Hears: Send + Sync {
    /// Another node said `message`.
    fn heard(&self, message: &Message);
    /// Messages may have been missed (the connection to the database was lost
    /// and made again): look again at what is followed.
    fn gap(&self) {}
}

/// An action forwarded to the node owning a game.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Forwarded {
    /// A player acts.
    Act {
        /// The player.
        user: i64,
        /// What they do.
        action: Action,
        /// The plies they saw played.
        ply: Option<u32>,
    },
    /// An arbiter acts.
    Arbitrate {
        /// The arbiter's name.
        arbiter: String,
        /// Why.
        reason: String,
        /// What they do.
        action: ArbiterAction,
    },
}

/// How often a node tells the others the rate-limit tokens it took.
const SPENT_EVERY: Duration = Duration::from_millis(100);
/// Buckets in one `Spent` message (about 60 bytes each).
const SPENT_PER_MESSAGE: usize = 100;

/// Takes what other nodes took out of the rate limits.
struct SharedLimits(Arc<RateLimits>);

impl Hears for SharedLimits {
    fn heard(&self, message: &Message) {
        if let Message::Spent { spent, .. } = message {
            self.0.charge(spent);
        }
    }
}

/// This node's place among several.
struct Node {
    generation: AtomicI64,
    /// When the lease was last known to run until, ms since `started` (this
    /// process's monotonic clock, with a margin): past it, the node checks
    /// that it still owns a game before it acts on it.
    valid_until_ms: AtomicU64,
    started: Instant,
    address: String,
    secret: String,
    ttl: Duration,
    outbox: mpsc::UnboundedSender<Message>,
    /// The hub, as last seen.
    hub: RwLock<Option<Lease>>,
    /// Whether this node is the hub.
    hub_here: tokio::sync::watch::Sender<bool>,
    /// Relays requests to the hub (no time limit: streams last).
    relay: reqwest::Client,
    /// Games' owners as last found (forgotten when one does not answer).
    owners: std::sync::Mutex<std::collections::HashMap<String, caissa_store::Owner>>,
}

impl Node {
    fn owners(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, caissa_store::Owner>> {
        self.owners.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The nodes serving this installation, as this node sees them.
pub struct Cluster {
    store: Store,
    node: Option<Node>,
    client: reqwest::Client,
    hearers: RwLock<Vec<Weak<dyn Hears>>>,
}

impl Cluster {
    /// One node alone (SQLite): nothing to tell, nobody to forward to.
    pub fn single(store: Store) -> Arc<Cluster> {
        Arc::new(Cluster {
            store,
            node: None,
            client: reqwest::Client::new(),
            hearers: RwLock::default(),
        })
    }

    /// Joins the nodes of `store`'s installation (on PostgreSQL; on SQLite,
    /// one node alone), reachable by the others at `address` (`host:port`),
    /// with a lease of `ttl`; starts renewing it, publishing and listening.
    pub async fn join(
        store: Store,
        address: &str,
        ttl: Duration,
    ) -> Result<Arc<Cluster>, ApiError> {
        let started = Instant::now();
        let Some(lease) = store.join(address, ttl).await? else {
            return Ok(Cluster::single(store));
        };
        let candidate = {
            use rand::RngCore;
            let mut bytes = [0u8; 32];
            rand::rngs::OsRng.fill_bytes(&mut bytes);
            hex::encode(bytes)
        };
        let secret = store.cluster_secret(&candidate).await?;
        let (outbox, queued) = mpsc::unbounded_channel();
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(2))
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| ApiError::Internal(format!("node-to-node client: {e}")))?;
        let cluster = Arc::new(Cluster {
            store: store.clone(),
            node: Some(Node {
                generation: AtomicI64::new(lease.generation),
                valid_until_ms: AtomicU64::new(safe_until(Duration::ZERO, ttl)),
                started,
                address: address.to_string(),
                secret,
                ttl,
                outbox,
                hub: RwLock::new(None),
                owners: std::sync::Mutex::default(),
                hub_here: tokio::sync::watch::channel(false).0,
                relay: reqwest::Client::builder()
                    .connect_timeout(Duration::from_secs(2))
                    .build()
                    .map_err(|e| ApiError::Internal(format!("node-to-node client: {e}")))?,
            }),
            client,
            hearers: RwLock::default(),
        });
        tracing::info!(
            "joined the nodes of this installation as generation {} at {address} (lease {} ms)",
            lease.generation,
            ttl.as_millis()
        );
        cluster.running(&store.running_nodes().await?);
        tokio::spawn(publish_in_order(store.clone(), queued));
        tokio::spawn(keep_lease(Arc::downgrade(&cluster)));
        tokio::spawn(listen(store, Arc::downgrade(&cluster)));
        Ok(cluster)
    }

    /// Whether other nodes may serve this installation too.
    pub fn is_multi(&self) -> bool {
        self.node.is_some()
    }

    /// This node's lease generation (0 for one node alone).
    pub fn generation(&self) -> i64 {
        self.node
            .as_ref()
            .map_or(0, |n| n.generation.load(Ordering::SeqCst))
    }

    /// Whether this node's lease surely still runs (always, for one node
    /// alone). When it may not, a game's task asks [`Cluster::owns`] before
    /// it acts: a node paused past its lease must not answer from a game
    /// another node has moved on.
    pub fn holds_lease(&self) -> bool {
        self.node.as_ref().is_none_or(|n| {
            (n.started.elapsed().as_millis() as u64) < n.valid_until_ms.load(Ordering::SeqCst)
        })
    }

    /// Whether this node owns game `id` now, by the database.
    pub async fn owns(&self, id: &str) -> Result<bool, ApiError> {
        if self.node.is_none() {
            return Ok(true);
        }
        let owner = self.store.owner_of(id).await?;
        Ok(owner.is_some_and(|o| o.alive && o.generation == self.generation()))
    }

    /// The nodes running now, oldest first: the oldest is the hub.
    pub fn running(&self, nodes: &[Lease]) {
        let Some(node) = &self.node else {
            return;
        };
        let hub = nodes.first().cloned();
        let here = hub
            .as_ref()
            .is_some_and(|h| h.generation == node.generation.load(Ordering::SeqCst));
        *node.hub.write().unwrap_or_else(|e| e.into_inner()) = hub;
        node.hub_here.send_if_modified(|was| {
            let changed = *was != here;
            *was = here;
            changed
        });
    }

    /// Whether this node is the hub (one node alone always is).
    pub fn is_hub(&self) -> bool {
        self.node.as_ref().is_none_or(|n| *n.hub_here.borrow())
    }

    /// Turns true whenever this node becomes the hub.
    pub fn follow_hub(&self) -> Option<tokio::sync::watch::Receiver<bool>> {
        self.node.as_ref().map(|n| n.hub_here.subscribe())
    }

    /// Where the hub is, when it is another node; with the client and secret
    /// to relay a request there.
    pub fn hub_elsewhere(&self) -> Option<(String, &reqwest::Client, &str)> {
        let node = self.node.as_ref()?;
        if *node.hub_here.borrow() {
            return None;
        }
        let hub = node.hub.read().unwrap_or_else(|e| e.into_inner()).clone()?;
        Some((hub.address, &node.relay, &node.secret))
    }

    /// Asks every other running node `GET path` (an `/internal/` route that
    /// answers a JSON list) and gathers their lists; a node that does not
    /// answer within 2 s is left out (and logged). Nothing on one node alone.
    pub async fn ask_nodes<T: serde::de::DeserializeOwned>(&self, path: &str) -> Vec<T> {
        let Some(node) = &self.node else {
            return Vec::new();
        };
        let nodes = match self.store.running_nodes().await {
            Ok(nodes) => nodes,
            Err(e) => {
                tracing::warn!("asking the other nodes {path}: {e}");
                return Vec::new();
            }
        };
        let me = self.generation();
        let asked = nodes
            .iter()
            .filter(|n| n.generation != me)
            .map(|n| async move {
                let answer = self
                    .client
                    .get(format!("http://{}{path}", n.address))
                    .header(SECRET_HEADER, &node.secret)
                    .timeout(Duration::from_secs(2))
                    .send()
                    .await
                    .and_then(|r| r.error_for_status());
                match answer {
                    Ok(response) => response.json::<Vec<T>>().await.map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                }
                .unwrap_or_else(|e| {
                    tracing::warn!("node {} ({}) on {path}: {e}", n.generation, n.address);
                    Vec::new()
                })
            });
        futures_util::future::join_all(asked)
            .await
            .into_iter()
            .flatten()
            .collect()
    }

    /// The lease's time to live (how long a lost node's games wait).
    pub fn ttl(&self) -> Option<Duration> {
        self.node.as_ref().map(|n| n.ttl)
    }

    /// Adds someone to tell what other nodes say, for as long as it lives.
    pub fn subscribe(&self, hearer: Weak<dyn Hears>) {
        self.hearers
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(hearer);
    }

    fn hearers(&self) -> Vec<Arc<dyn Hears>> {
        let mut hearers = self.hearers.write().unwrap_or_else(|e| e.into_inner());
        hearers.retain(|h| h.strong_count() > 0);
        hearers.iter().filter_map(Weak::upgrade).collect()
    }

    /// Tells the other nodes `message` (after what was told before); nothing
    /// on one node alone.
    pub fn tell(&self, message: Message) {
        if let Some(node) = &self.node {
            let _ = node.outbox.send(message);
        }
    }

    /// Shares `limits`' budgets with the other nodes: what is taken here is
    /// told to them every [`SPENT_EVERY`], and what they take is taken here.
    /// Nothing on one node alone.
    pub fn share_limits(self: &Arc<Self>, limits: Arc<RateLimits>) {
        if self.node.is_none() {
            return;
        }
        limits.share();
        let hearer = Arc::new(SharedLimits(limits));
        let weak: Weak<dyn Hears> = Arc::downgrade(&hearer) as Weak<SharedLimits>;
        self.subscribe(weak);
        let cluster = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(SPENT_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(cluster) = cluster.upgrade() else {
                    return;
                };
                let spent = hearer.0.take_spent();
                for part in spent.chunks(SPENT_PER_MESSAGE) {
                    cluster.tell(Message::Spent {
                        from: cluster.generation(),
                        spent: part.to_vec(),
                    });
                }
            }
        });
    }

    /// Tells the other nodes what these games' logs gained.
    pub fn grew(&self, games: Vec<Growth>) {
        if self.node.is_none() || games.is_empty() {
            return;
        }
        // A notification holds at most MAX_MESSAGE bytes: split the list, and
        // leave out events that would not fit (followers read them).
        let mut part = Vec::new();
        let mut bytes = 0;
        for mut growth in games {
            let events: usize = growth.events.iter().map(|e| e.len() + 8).sum();
            if events > MAX_MESSAGE / 4 {
                growth.events.clear();
            }
            bytes +=
                growth.game.len() + 48 + growth.events.iter().map(|e| e.len() + 8).sum::<usize>();
            part.push(growth);
            if bytes > MAX_MESSAGE - 2_000 {
                self.tell(Message::Grew {
                    from: self.generation(),
                    games: std::mem::take(&mut part),
                });
                bytes = 0;
            }
        }
        if !part.is_empty() {
            self.tell(Message::Grew {
                from: self.generation(),
                games: part,
            });
        }
    }

    /// Whether `secret` is the one nodes show each other.
    pub fn is_node(&self, secret: &str) -> bool {
        self.node.as_ref().is_some_and(|n| {
            let (a, b) = (n.secret.as_bytes(), secret.as_bytes());
            a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
        })
    }

    /// Sends `forwarded` for game `id` to the node that owns it, and answers as
    /// it answered.
    pub async fn forward(&self, id: &str, forwarded: &Forwarded) -> Result<(), ApiError> {
        let Some(node) = &self.node else {
            return Err(ApiError::Internal(format!(
                "game {id} has no owner to forward to"
            )));
        };
        let known = node.owners().get(id).cloned();
        let owner = match known {
            Some(owner) => Some(owner),
            None => self.store.owner_of(id).await?,
        };
        let Some(owner) = owner.filter(|o| o.alive) else {
            return Err(taking_over(id));
        };
        {
            let mut owners = node.owners();
            if owners.len() >= OWNERS_KEPT {
                owners.clear();
            }
            owners.insert(id.to_string(), owner.clone());
        }
        if owner.generation == self.generation() {
            // Ours, though this copy follows: it is being adopted here.
            return Err(taking_over(id));
        }
        let url = format!("http://{}/internal/games/{id}", owner.address);
        let sent = self
            .client
            .post(url)
            .header(SECRET_HEADER, &node.secret)
            .json(forwarded)
            .send()
            .await;
        let response = match sent {
            Ok(response) => response,
            Err(e) => {
                tracing::warn!("forwarding to {}: {e}", owner.address);
                node.owners().remove(id);
                return Err(taking_over(id));
            }
        };
        if response.status().is_success() {
            return Ok(());
        }
        if response.status() == reqwest::StatusCode::SERVICE_UNAVAILABLE {
            node.owners().remove(id);
        }
        match response.json::<WireError>().await {
            Ok(wire) => Err(ApiError::from_wire(wire)),
            Err(e) => Err(ApiError::Internal(format!(
                "node {} answered game {id} in no known shape: {e}",
                owner.address
            ))),
        }
    }
}

fn taking_over(id: &str) -> ApiError {
    ApiError::Unavailable {
        message: format!("game {id} is moving to another node; try again in a moment"),
        retry_after_ms: 1_000,
    }
}

/// Until when a lease renewed (or taken) at `sent` surely runs, ms on the
/// node's clock: its time to live from when the request was sent, less a sixth
/// for clocks that run at slightly different rates.
fn safe_until(sent: Duration, ttl: Duration) -> u64 {
    (sent + ttl - ttl / 6).as_millis() as u64
}

/// Sends the queued messages, one after the other.
async fn publish_in_order(store: Store, mut queued: mpsc::UnboundedReceiver<Message>) {
    while let Some(message) = queued.recv().await {
        let text = match serde_json::to_string(&message) {
            Ok(text) if text.len() <= MAX_MESSAGE => text,
            Ok(text) => {
                tracing::warn!(
                    "a message of {} bytes is too long to tell other nodes",
                    text.len()
                );
                continue;
            }
            Err(e) => {
                tracing::error!("a message to other nodes could not be written: {e}");
                continue;
            }
        };
        let mut tries = 0;
        while let Err(e) = store.publish(&text).await {
            tries += 1;
            if tries == 5 {
                tracing::error!("a message to other nodes was lost: {e}");
                break;
            }
            tokio::time::sleep(Duration::from_millis(100 * tries)).await;
        }
    }
}

/// Renews the lease every third of its time; one that ran out (the node was
/// paused, or cut off from the database) is taken again under a new generation:
/// the games of the old one are others' by now, or this node adopts them again.
async fn keep_lease(cluster: Weak<Cluster>) {
    loop {
        let Some((store, ttl, address, started)) = cluster.upgrade().and_then(|c| {
            let node = c.node.as_ref()?;
            Some((
                c.store.clone(),
                node.ttl,
                node.address.clone(),
                node.started,
            ))
        }) else {
            return;
        };
        tokio::time::sleep(ttl / 3).await;
        let sent = started.elapsed();
        let valid = |cluster: &Weak<Cluster>| {
            if let Some(node) = cluster.upgrade().as_ref().and_then(|c| c.node.as_ref()) {
                node.valid_until_ms
                    .store(safe_until(sent, ttl), Ordering::SeqCst);
            }
        };
        match store.renew(ttl).await {
            Ok(true) => valid(&cluster),
            Ok(false) => {
                tracing::warn!("this node's lease ran out: joining again under a new generation");
                match store.join(&address, ttl).await {
                    Ok(Some(lease)) => {
                        if let Some(node) = cluster.upgrade().as_ref().and_then(|c| c.node.as_ref())
                        {
                            node.generation.store(lease.generation, Ordering::SeqCst);
                        }
                    }
                    Ok(None) => return,
                    Err(e) => tracing::error!("joining again: {e}"),
                }
            }
            Err(e) => tracing::warn!("the lease could not be renewed: {e}"),
        }
    }
}

/// Hears what the nodes publish and tells the hearers; a lost connection is a
/// gap.
async fn listen(store: Store, cluster: Weak<Cluster>) {
    loop {
        let mut listener = match store.listen().await {
            Ok(Some(listener)) => listener,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!("cannot listen to other nodes: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        // Listening (again): whatever was said meanwhile is looked at again.
        if let Some(cluster) = cluster.upgrade() {
            for hearer in cluster.hearers() {
                hearer.gap();
            }
        }
        loop {
            let heard = listener.next().await;
            let Some(cluster) = cluster.upgrade() else {
                return;
            };
            match heard {
                Ok(Heard::Message(text)) => match serde_json::from_str::<Message>(&text) {
                    Ok(message) if message.from() == cluster.generation() => {}
                    Ok(message) => {
                        for hearer in cluster.hearers() {
                            hearer.heard(&message);
                        }
                    }
                    Err(e) => tracing::warn!("a message from another node in no known shape: {e}"),
                },
                Ok(Heard::Gap) => {
                    for hearer in cluster.hearers() {
                        hearer.gap();
                    }
                }
                Err(e) => {
                    tracing::warn!("lost the other nodes' messages: {e}");
                    break;
                }
            }
        }
    }
}
