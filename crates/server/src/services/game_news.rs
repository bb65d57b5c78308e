//! Games starting and ending between any two players, for the streams that
//! follow a set of users (lichess's `/api/stream/games-by-users`). The node
//! that plays a game tells its own followers and, through the cluster, the
//! other nodes'.

use std::sync::{Arc, Weak};

use tokio::sync::broadcast;

use crate::cluster::{Cluster, Hears, Message};
use crate::live::news::{Effect, Subscriber};
use crate::live::view::View;
use crate::protocol::lichess;

/// News a slow follower may fall behind before it misses some.
const BACKLOG: usize = 1024;

/// A game that started or ended.
#[derive(Clone, Debug)]
pub struct GameTold {
    /// White's name, lower-cased (lichess's user id).
    pub white: String,
    /// Black's name, lower-cased.
    pub black: String,
    /// The game as the stream sends it, without its newline.
    pub line: Arc<str>,
}

/// The news of games, on this node and from the others.
pub struct GameNews {
    told: broadcast::Sender<Arc<GameTold>>,
    cluster: Arc<Cluster>,
}

impl GameNews {
    /// News told here and heard from the other nodes of `cluster`.
    pub fn new(cluster: Arc<Cluster>) -> Arc<GameNews> {
        let news = Arc::new(GameNews {
            told: broadcast::channel(BACKLOG).0,
            cluster: cluster.clone(),
        });
        let hears: Weak<dyn Hears> = Arc::downgrade(&news) as Weak<GameNews>;
        cluster.subscribe(hears);
        news
    }

    /// Follows the games that start and end from now on.
    pub fn follow(&self) -> broadcast::Receiver<Arc<GameTold>> {
        self.told.subscribe()
    }

    fn tell(&self, view: &View) {
        let told = GameTold {
            white: view.info.white.name.to_lowercase(),
            black: view.info.black.name.to_lowercase(),
            line: Arc::from(lichess::stream_game_json(view).to_string()),
        };
        if self.cluster.is_multi() {
            self.cluster.tell(Message::GameTold {
                from: self.cluster.generation(),
                white: told.white.clone(),
                black: told.black.clone(),
                line: told.line.to_string(),
            });
        }
        // Nobody following is no error.
        let _ = self.told.send(Arc::new(told));
    }
}

impl Subscriber for GameNews {
    fn started(&self, view: &Arc<View>) {
        self.tell(view);
    }

    fn finished(&self, view: Arc<View>) -> Effect {
        self.tell(&view);
        Box::pin(async {})
    }
}

/// Games told by other nodes.
impl Hears for GameNews {
    fn heard(&self, message: &Message) {
        if let Message::GameTold {
            white, black, line, ..
        } = message
        {
            let _ = self.told.send(Arc::new(GameTold {
                white: white.clone(),
                black: black.clone(),
                line: Arc::from(line.as_str()),
            }));
        }
    }
}
