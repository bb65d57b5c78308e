//! Challenges waiting for an answer: offered (stored first, so that they outlive a
//! restart, and told to the challenged player), accepted (the game starts under
//! the challenge's id), declined or withdrawn. A challenge being accepted stays
//! visible until its game is there, so a cancel racing the accept waits for the
//! game and aborts it instead of answering "not found". A user can have only so
//! many challenges waiting, in and out.
//!
//! With several nodes, a challenge waits in the memory of the node it was made
//! on and in the store: another node asked to answer it reads it from the
//! store, and a node that answers one tells the others to let it go.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use caissa_arbiter::GameSetup;
use caissa_rules::Color;
use caissa_store::{Store, StoredChallenge, User};
use serde_json::{json, Value};
use tokio::sync::watch;

use crate::cluster::{Cluster, Hears, Message};
use crate::domain::challenge::{self, Challenge, ShownRating};
use crate::http::error::ApiError;
use crate::live::handle::GameHandle;
use crate::live::view::GameSource;
use crate::live::view::Player;
use crate::protocol::lichess;
use crate::services::accounts::{is_bot, is_guest};
use crate::services::events::UserEvents;
use crate::services::games::Games;
use crate::services::ratings::Ratings;

enum Entry {
    /// Waiting for an answer.
    Waiting(Box<Challenge>),
    /// Accepted, its game being started; the receiver turns `Some(true)` once the
    /// game is there, `Some(false)` if it could not start.
    Accepting(watch::Receiver<Option<bool>>),
}

/// What cancelling a challenge came to.
pub enum Cancelled {
    /// It was waiting, and is withdrawn.
    Withdrawn,
    /// It was accepted already: its game, which the canceller may abort.
    Accepted(GameHandle),
}

/// The challenges of a server.
pub struct Challenges {
    store: Store,
    games: Arc<Games>,
    ratings: Arc<Ratings>,
    events: Arc<UserEvents>,
    entries: Mutex<HashMap<String, Entry>>,
    max_pending: usize,
    cluster: Arc<Cluster>,
}

impl Challenges {
    /// Challenges kept in `store`, at most `max_pending` waiting for or from one user.
    pub fn new(
        store: Store,
        games: Arc<Games>,
        ratings: Arc<Ratings>,
        events: Arc<UserEvents>,
        max_pending: usize,
        cluster: Arc<Cluster>,
    ) -> Arc<Challenges> {
        let challenges = Arc::new(Challenges {
            store,
            games,
            ratings,
            events,
            entries: Mutex::default(),
            max_pending,
            cluster: cluster.clone(),
        });
        let hears: Weak<dyn Hears> = Arc::downgrade(&challenges) as Weak<Challenges>;
        cluster.subscribe(hears);
        challenges
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The challenges still waiting for an answer when the server stopped.
    pub async fn load(&self) -> Result<usize, ApiError> {
        let mut loaded = 0;
        for stored in self.store.challenges().await? {
            if let Some(challenge) = self.waiting_from(&stored).await? {
                self.lock()
                    .insert(stored.id, Entry::Waiting(Box::new(challenge)));
                loaded += 1;
            }
        }
        Ok(loaded)
    }

    /// A stored challenge if it still waits (one accepted just before a stop
    /// has its game there, and is forgotten now).
    async fn waiting_from(&self, stored: &StoredChallenge) -> Result<Option<Challenge>, ApiError> {
        if self.store.game(&stored.id).await?.is_some() {
            self.forget(&stored.id).await;
            return Ok(None);
        }
        let terms = match challenge::terms_of(stored) {
            Ok(terms) => terms,
            Err(e) => {
                tracing::error!("{e}");
                return Ok(None);
            }
        };
        let challenger = self.store.user_by_id(stored.challenger_id).await?;
        // `None`: the challenged player no longer exists.
        let dest = match stored.dest_id {
            Some(id) => self.store.user_by_id(id).await?.map(Some),
            None => Some(None),
        };
        let (Some(challenger), Some(dest)) = (challenger, dest) else {
            tracing::error!("challenge {}: a player no longer exists", stored.id);
            return Ok(None);
        };
        let mut challenge = Challenge {
            id: stored.id.clone(),
            challenger,
            dest,
            terms,
            created_at: stored.created_at as u64,
            ratings: Default::default(),
        };
        challenge.ratings = self.ratings_of(&challenge).await;
        Ok(Some(challenge))
    }

    /// The players' ratings at the challenge's speed.
    async fn ratings_of(&self, c: &Challenge) -> challenge::Ratings {
        let speed = c.terms.time_control.speed();
        let shown = |player: Player| ShownRating {
            rating: player.rating,
            provisional: player.provisional,
        };
        let challenger = self
            .ratings
            .player(c.challenger.id, c.challenger.name.clone(), speed)
            .await;
        let dest = match &c.dest {
            Some(d) => Some(shown(
                self.ratings.player(d.id, d.name.clone(), speed).await,
            )),
            None => None,
        };
        challenge::Ratings {
            challenger: Some(shown(challenger)),
            dest,
        }
    }

    /// With several nodes: a challenge made on another node, read from the
    /// store into this one's memory before it is answered here.
    async fn fetch(&self, id: &str) -> Result<(), ApiError> {
        if !self.cluster.is_multi() || self.lock().contains_key(id) {
            return Ok(());
        }
        let Some(stored) = self.store.challenge(id).await? else {
            return Ok(());
        };
        if let Some(challenge) = self.waiting_from(&stored).await? {
            self.lock()
                .entry(stored.id)
                .or_insert_with(|| Entry::Waiting(Box::new(challenge)));
        }
        Ok(())
    }

    /// With several nodes, answers a challenge for good: of the nodes answering
    /// it at once (or a cancel racing an accept), the one that takes it out of
    /// the store answers it. Always true on one node, where memory decides.
    async fn claim(&self, id: &str) -> Result<bool, ApiError> {
        if !self.cluster.is_multi() {
            return Ok(true);
        }
        Ok(self.store.delete_challenge(id).await?)
    }

    /// Forgets an answered challenge in the store. A failure leaves it there, to
    /// be dropped when it is next loaded (its game exists, or it is answered again).
    async fn forget(&self, id: &str) {
        if let Err(e) = self.store.delete_challenge(id).await {
            tracing::warn!("challenge {id} answered but not forgotten: {e}");
        }
        self.cluster.tell(Message::ChallengeGone {
            from: self.cluster.generation(),
            id: id.to_string(),
        });
    }

    /// Keeps a challenge open (stored first) and tells both players, as
    /// lichess does: the challenge as kept, with the players' ratings.
    pub async fn offer(&self, mut c: Challenge) -> Result<Challenge, ApiError> {
        if let Some(dest) = &c.dest {
            if dest.closed_at.is_some() {
                return Err(ApiError::BadRequest(format!(
                    "the account of {} is closed",
                    dest.name
                )));
            }
            if self.store.blocks(dest.id, c.challenger.id).await? {
                return Err(ApiError::BadRequest(format!(
                    "{} does not accept challenges from you",
                    dest.name
                )));
            }
        }
        c.ratings = self.ratings_of(&c).await;
        {
            let entries = self.lock();
            let waiting = || {
                entries.values().filter_map(|e| match e {
                    Entry::Waiting(c) => Some(c),
                    Entry::Accepting(_) => None,
                })
            };
            if let Some(dest) = &c.dest {
                let incoming = waiting().filter(|w| w.is_for(dest.id)).count();
                if incoming >= self.max_pending {
                    return Err(ApiError::TooManyRequests {
                        message: format!(
                            "{} has {incoming} challenges waiting for an answer; try again later",
                            dest.name
                        ),
                        retry_after_ms: 60_000,
                    });
                }
            }
            let outgoing = waiting()
                .filter(|w| w.challenger.id == c.challenger.id)
                .count();
            if outgoing >= self.max_pending {
                return Err(ApiError::TooManyRequests {
                    message: format!(
                        "you have {outgoing} challenges waiting for an answer; cancel some first"
                    ),
                    retry_after_ms: 60_000,
                });
            }
        }
        self.store
            .save_challenge(&challenge::to_stored(&c)?)
            .await?;
        self.tell_both(&c, "challenge", |c, direction| {
            lichess::challenge_json(c, direction)
        });
        self.lock()
            .insert(c.id.clone(), Entry::Waiting(Box::new(c.clone())));
        Ok(c)
    }

    /// A waiting challenge.
    pub fn get(&self, id: &str) -> Option<Challenge> {
        match self.lock().get(id) {
            Some(Entry::Waiting(c)) => Some((**c).clone()),
            _ => None,
        }
    }

    /// The waiting challenges that `keep` picks, oldest first.
    pub fn waiting(&self, keep: impl Fn(&Challenge) -> bool) -> Vec<Challenge> {
        let mut listed: Vec<Challenge> = self
            .lock()
            .values()
            .filter_map(|e| match e {
                Entry::Waiting(c) if keep(c) => Some((**c).clone()),
                _ => None,
            })
            .collect();
        listed.sort_by_key(|c| c.created_at);
        listed
    }

    /// The open rematch offer for a finished game: (challenge id, who offered).
    pub fn rematch_offer(&self, game: &str) -> Option<(String, i64)> {
        self.waiting(|c| c.terms.rematch_of.as_deref() == Some(game))
            .first()
            .map(|c| (c.id.clone(), c.challenger.id))
    }

    /// `user` accepts a challenge: one addressed to them, or an open one that
    /// they did not make (which becomes theirs). The game starts at once.
    pub async fn accept(&self, id: &str, user: &User) -> Result<GameHandle, ApiError> {
        self.fetch(id).await?;
        let (mut challenge, started) = {
            let mut entries = self.lock();
            let c = match entries.get(id) {
                None => return Err(ApiError::NotFound(format!("challenge {id}"))),
                Some(Entry::Accepting(_)) => {
                    return Err(ApiError::Conflict(format!(
                        "challenge {id} has already been accepted"
                    )))
                }
                Some(Entry::Waiting(c)) => c,
            };
            if c.dest.as_ref().is_some_and(|d| d.id != user.id) {
                return Err(ApiError::Forbidden("this challenge is not for you".into()));
            }
            if c.challenger.id == user.id {
                return Err(ApiError::BadRequest(
                    "you cannot accept your own challenge".into(),
                ));
            }
            if c.terms.rated && is_guest(user) {
                return Err(ApiError::Forbidden(
                    "guests cannot play rated games; register to play this one".into(),
                ));
            }
            let (tx, rx) = watch::channel(None);
            let Some(Entry::Waiting(c)) = entries.insert(id.to_string(), Entry::Accepting(rx))
            else {
                unreachable!("the entry was waiting a moment ago, under the same lock")
            };
            (*c, tx)
        };
        match self.claim(id).await {
            Ok(true) => {}
            // Withdrawn, declined or accepted meanwhile (on another node).
            claimed => {
                self.lock().remove(id);
                let _ = started.send(Some(false));
                claimed?;
                return Err(ApiError::NotFound(format!("challenge {id}")));
            }
        }
        let was_open = challenge.dest.is_none();
        challenge.dest.get_or_insert_with(|| user.clone());
        match self.start(&challenge).await {
            Ok(handle) => {
                self.lock().remove(id);
                let _ = started.send(Some(true));
                self.forget(id).await;
                Ok(handle)
            }
            Err(e) => {
                // Not started: the challenge waits again, as it was.
                if was_open {
                    challenge.dest = None;
                }
                self.lock()
                    .insert(id.to_string(), Entry::Waiting(Box::new(challenge)));
                let _ = started.send(Some(false));
                Err(e)
            }
        }
    }

    /// Starts the game of an accepted challenge (the game has the challenge's id).
    async fn start(&self, c: &Challenge) -> Result<GameHandle, ApiError> {
        // Accepted meanwhile on another node.
        if self.cluster.is_multi() && self.store.game(&c.id).await?.is_some() {
            return Err(ApiError::Conflict(format!(
                "challenge {} has already been accepted",
                c.id
            )));
        }
        let dest = c
            .dest
            .as_ref()
            .ok_or_else(|| ApiError::BadRequest("nobody has accepted this challenge".into()))?;
        let (white, black) = if c.terms.challenger_color() == Color::White {
            (&c.challenger, dest)
        } else {
            (dest, &c.challenger)
        };
        let mut setup = GameSetup::new(
            &white.name,
            &black.name,
            c.terms.ruleset,
            c.terms.time_control.clone(),
        );
        setup.fen = c.terms.fen.clone();
        setup.chess960 = c.terms.chess960;
        let arbiters: Vec<i64> = c
            .terms
            .arbiters
            .iter()
            .copied()
            .filter(|&a| a != white.id && a != black.id)
            .collect();
        // Named before the game starts: nobody can act on it before its arbiters can.
        self.store.add_game_arbiters(&c.id, &arbiters).await?;
        self.games
            .start(
                c.id.clone(),
                (white.id, white.name.clone()),
                (black.id, black.name.clone()),
                setup,
                c.terms.rated,
                GameSource::Friend,
            )
            .await
    }

    /// The challenged player declines a challenge (lichess's `reason` key); the
    /// challenger declining their own withdraws it.
    pub async fn decline(&self, id: &str, user: i64, reason: &str) -> Result<(), ApiError> {
        self.fetch(id).await?;
        let c = self.take_waiting(id, user)?;
        if !self.claim(id).await? {
            return Err(ApiError::Conflict(format!(
                "challenge {id} has already been answered"
            )));
        }
        self.forget(&c.id).await;
        if c.challenger.id == user {
            self.tell_cancelled(&c);
        } else {
            self.tell_declined(&c, reason);
        }
        Ok(())
    }

    /// The challenger withdraws a challenge; once it is accepted (or while it is
    /// being accepted) its game is answered instead, for the canceller to abort.
    pub async fn cancel(&self, id: &str, user: i64) -> Result<Cancelled, ApiError> {
        enum Found {
            Withdrawn(Box<Challenge>),
            Accepting(watch::Receiver<Option<bool>>),
            Absent,
        }
        self.fetch(id).await?;
        // Lost the claim to an accept: its game is coming.
        let mut accepted_elsewhere = 0;
        loop {
            let found = {
                let mut entries = self.lock();
                match entries.get(id) {
                    Some(Entry::Waiting(c)) if c.challenger.id != user => {
                        return Err(ApiError::Forbidden(
                            "only the challenger can cancel a challenge (the challenged player declines it)"
                                .into(),
                        ))
                    }
                    Some(Entry::Waiting(_)) => match entries.remove(id) {
                        Some(Entry::Waiting(c)) => Found::Withdrawn(c),
                        _ => Found::Absent,
                    },
                    Some(Entry::Accepting(rx)) => Found::Accepting(rx.clone()),
                    None => Found::Absent,
                }
            };
            match found {
                Found::Withdrawn(c) => {
                    if !self.claim(id).await? {
                        // Being accepted (here or on another node): look again.
                        accepted_elsewhere = 100;
                        continue;
                    }
                    self.forget(&c.id).await;
                    self.tell_cancelled(&c);
                    return Ok(Cancelled::Withdrawn);
                }
                // Wait for the accept to finish, then look again.
                Found::Accepting(mut rx) => {
                    let _ = rx.wait_for(Option::is_some).await;
                }
                Found::Absent => {
                    return match self.games.find(id).await {
                        Ok(crate::services::games::Found::Live(game))
                            if game.color_of(user).is_some() =>
                        {
                            Ok(Cancelled::Accepted(game))
                        }
                        Err(ApiError::NotFound(_)) if accepted_elsewhere > 0 => {
                            // The other node is starting the game: wait for it
                            // (at most 2 s).
                            accepted_elsewhere -= 1;
                            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                            continue;
                        }
                        _ => Err(ApiError::NotFound(format!("challenge {id}"))),
                    };
                }
            }
        }
    }

    /// Removes a waiting challenge that `user` (its challenger or the challenged
    /// player) answers.
    fn take_waiting(&self, id: &str, user: i64) -> Result<Challenge, ApiError> {
        let mut entries = self.lock();
        match entries.get(id) {
            None => Err(ApiError::NotFound(format!("challenge {id}"))),
            Some(Entry::Accepting(_)) => Err(ApiError::Conflict(format!(
                "challenge {id} has already been accepted"
            ))),
            Some(Entry::Waiting(c)) if !c.concerns(user) => {
                Err(ApiError::Forbidden("this challenge is not for you".into()))
            }
            Some(Entry::Waiting(_)) => match entries.remove(id) {
                Some(Entry::Waiting(c)) => Ok(*c),
                _ => Err(ApiError::NotFound(format!("challenge {id}"))),
            },
        }
    }

    /// Withdraws or declines a rematch offer: `user` withdraws their own offer,
    /// or declines the opponent's.
    pub async fn answer_rematch(&self, id: &str, user: i64) -> Result<(), ApiError> {
        self.fetch(id).await?;
        let c = self.take_waiting(id, user)?;
        if !self.claim(id).await? {
            return Err(ApiError::Conflict(format!(
                "challenge {id} has already been answered"
            )));
        }
        self.forget(&c.id).await;
        if c.challenger.id == user {
            self.tell_cancelled(&c);
        } else {
            self.tell_declined(&c, "generic");
        }
        Ok(())
    }

    /// Tells both players that a challenge was declined, and why.
    fn tell_declined(&self, c: &Challenge, reason: &str) {
        self.tell_both(c, "challengeDeclined", |c, direction| {
            let mut challenge = lichess::answered_json(c, direction, "declined");
            let (key, text) = lichess::decline_reason(reason);
            challenge["declineReasonKey"] = json!(key);
            challenge["declineReason"] = json!(text);
            challenge
        });
    }

    /// Tells both players that a challenge was withdrawn.
    fn tell_cancelled(&self, c: &Challenge) {
        self.tell_both(c, "challengeCanceled", |c, direction| {
            lichess::answered_json(c, direction, "canceled")
        });
    }

    /// Sends an event about `c` to the challenger (`out`) and the challenged
    /// player (`in`), as lila's event stream does, each with lichess's
    /// `compat` (whether the Bot and Board APIs can play it).
    fn tell_both(&self, c: &Challenge, kind: &str, json_of: impl Fn(&Challenge, &str) -> Value) {
        let sides = [(Some(&c.challenger), "out"), (c.dest.as_ref(), "in")];
        for (user, direction) in sides {
            let Some(user) = user else {
                continue;
            };
            let mut event = json!({ "type": kind, "challenge": json_of(c, direction) });
            event["compat"] = lichess::compat(is_bot(user));
            self.events.notify(user.id, &event);
        }
    }
}

/// Challenges answered on other nodes are let go here.
impl Hears for Challenges {
    fn heard(&self, message: &Message) {
        if let Message::ChallengeGone { id, .. } = message {
            let mut entries = self.lock();
            if matches!(entries.get(id), Some(Entry::Waiting(_))) {
                entries.remove(id);
            }
        }
    }
}
