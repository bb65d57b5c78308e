//! Tournaments being run: each unfinished one has a director, a task that starts
//! it at its time, pairs every round once the previous one is over (the pairing
//! stored before any of its games starts), starts the round's games and forfeits
//! a player who does not appear within the ruleset's default time (6.7). Results
//! come from the games' news. The record is stored whole after every change, so a
//! server killed at any point resumes with every pairing and result it had.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use caissa_arbiter::{ArbiterAction, GameSetup};
use caissa_rules::Color;
use caissa_store::{Store, StoredTournament, User};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use tokio::sync::{watch, Notify};

use crate::domain::new_id;
use crate::domain::tournament::{scored, Entrant, Record, Spec, Status, TournamentError};
use crate::http::error::ApiError;
use crate::live::news::{Effect, Subscriber};
use crate::live::view::{now_ms, GameSource, View};
use crate::services::arbiters::Arbiters;
use crate::services::games::Games;
use crate::services::ratings::Ratings;

/// The least wait before a player who has not moved loses by default, online,
/// where appearing is making the first move (a ruleset's default time of 0
/// would otherwise forfeit White at the first tick).
const NO_SHOW_GRACE_MS: u64 = 30_000;
/// The name the director acts under in a game's log.
const DIRECTOR: &str = "Tournament director";
/// Results are stored at most this often, ms: each is stored whole, and a big
/// arena's results come by the dozen every second. A result not stored yet is
/// not lost: after a restart it is read again from its game.
const RESULTS_STORED_EVERY_MS: u64 = 1_000;
/// Games of a round (or an arena's wave) started at once.
const GAMES_STARTED_AT_ONCE: usize = 64;

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> ApiError {
        match e {
            TournamentError::State(why) => ApiError::BadRequest(why),
            e @ TournamentError::Pairing { .. } => ApiError::Internal(e.to_string()),
        }
    }
}

/// One tournament's record and its director's wake-up call.
struct Director {
    record: tokio::sync::Mutex<Record>,
    wake: Notify,
    /// Bumped after every change, for live pages.
    version: watch::Sender<u64>,
    /// Results recorded in memory and not stored yet.
    dirty: AtomicBool,
    /// When the record was last stored, ms.
    saved_at: AtomicU64,
}

/// The tournaments of a server.
pub struct Tournaments {
    store: Store,
    games: Arc<Games>,
    ratings: Arc<Ratings>,
    arbiters: Arc<Arbiters>,
    directors: Mutex<HashMap<String, Arc<Director>>>,
    /// The tournament of each game of a current round.
    by_game: Mutex<HashMap<String, String>>,
    me: Weak<Tournaments>,
}

fn password_hash(password: &str) -> String {
    hex::encode(Sha256::digest(password.as_bytes()))
}

/// The hash kept for an entry password.
pub fn hash_entry_password(password: &str) -> String {
    password_hash(password)
}

impl Tournaments {
    /// The tournaments kept in `store`, their games started through `games`.
    pub fn new(
        store: Store,
        games: Arc<Games>,
        ratings: Arc<Ratings>,
        arbiters: Arc<Arbiters>,
    ) -> Arc<Tournaments> {
        Arc::new_cyclic(|me| Tournaments {
            store,
            games,
            ratings,
            arbiters,
            directors: Mutex::default(),
            by_game: Mutex::default(),
            me: me.clone(),
        })
    }

    fn directors(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Director>>> {
        self.directors.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn by_game(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.by_game.lock().unwrap_or_else(|e| e.into_inner())
    }

    async fn save(&self, record: &Record) -> Result<(), ApiError> {
        // An arena's record holds every sheet (megabytes by the end of a big
        // one): written out on a thread of its own, not the one serving games.
        let snapshot = record.clone();
        let data = tokio::task::spawn_blocking(move || serde_json::to_string(&snapshot))
            .await
            .map_err(|e| ApiError::Internal(format!("tournament {}: {e}", record.id)))?
            .map_err(|e| ApiError::Internal(format!("tournament {}: {e}", record.id)))?;
        self.store
            .save_tournament(&StoredTournament {
                id: record.id.clone(),
                status: record.status.name().to_string(),
                created_by: record.created_by.0,
                created_at: record.created_at as i64,
                starts_at: record.spec.starts_at as i64,
                data,
            })
            .await?;
        Ok(())
    }

    fn decode(stored: &StoredTournament) -> Result<Record, ApiError> {
        serde_json::from_str(&stored.data).map_err(|e| {
            ApiError::Internal(format!("tournament {} cannot be read: {e}", stored.id))
        })
    }

    /// Resumes every unfinished tournament (after a restart): results of games
    /// that ended while nobody was told are recorded, games of the current round
    /// that were never started are started, and each director runs again.
    pub async fn load(&self) -> Result<usize, ApiError> {
        let mut loaded = 0;
        for status in ["created", "started"] {
            for stored in self.store.tournaments(status, i64::MAX).await? {
                let record = match Self::decode(&stored) {
                    Ok(record) => record,
                    Err(e) => {
                        tracing::error!("{e}");
                        continue;
                    }
                };
                let director = self.launch(record);
                let mut record = director.record.lock().await;
                self.resume_round(&mut record, false).await?;
                director.wake.notify_one();
                loaded += 1;
            }
        }
        Ok(loaded)
    }

    /// The director of a record, running.
    fn launch(&self, record: Record) -> Arc<Director> {
        let id = record.id.clone();
        {
            let mut by_game = self.by_game();
            for board in record.pending_boards() {
                by_game.insert(board.game_id.clone(), id.clone());
            }
        }
        let director = Arc::new(Director {
            record: tokio::sync::Mutex::new(record),
            wake: Notify::new(),
            version: watch::channel(0).0,
            dirty: AtomicBool::new(false),
            saved_at: AtomicU64::new(0),
        });
        self.directors().insert(id, director.clone());
        tokio::spawn(direct(self.me.clone(), director.clone()));
        director
    }

    /// A new tournament, stored, its director waiting for the start.
    pub async fn create(&self, organiser: &User, spec: Spec) -> Result<Record, ApiError> {
        let record = Record::new(
            new_id(),
            (organiser.id, organiser.name.clone()),
            spec,
            now_ms(),
        );
        self.save(&record).await?;
        self.launch(record.clone());
        Ok(record)
    }

    /// A tournament as it is now.
    pub async fn get(&self, id: &str) -> Result<Record, ApiError> {
        let director = self.directors().get(id).cloned();
        if let Some(director) = director {
            return Ok(director.record.lock().await.clone());
        }
        let stored = self
            .store
            .tournament(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("tournament {id}")))?;
        Self::decode(&stored)
    }

    /// Tournaments with a status, at most `limit`.
    pub async fn list(&self, status: Status, limit: usize) -> Result<Vec<Record>, ApiError> {
        let stored = self.store.tournaments(status.name(), limit as i64).await?;
        let mut out = Vec::with_capacity(stored.len());
        for s in &stored {
            out.push(self.get(&s.id).await?);
        }
        Ok(out)
    }

    /// A receiver that changes whenever the tournament does.
    pub fn follow(&self, id: &str) -> Option<watch::Receiver<u64>> {
        self.directors().get(id).map(|d| d.version.subscribe())
    }

    /// Changes an unfinished tournament with `change`, then stores it and wakes
    /// its director. A finished one refuses.
    async fn change(
        &self,
        id: &str,
        change: impl FnOnce(&mut Record) -> Result<(), ApiError>,
    ) -> Result<Record, ApiError> {
        let director = self.directors().get(id).cloned();
        let Some(director) = director else {
            return match self.store.tournament(id).await? {
                Some(_) => Err(ApiError::BadRequest("the tournament is over".into())),
                None => Err(ApiError::NotFound(format!("tournament {id}"))),
            };
        };
        let mut record = director.record.lock().await;
        let mut changed = record.clone();
        change(&mut changed)?;
        self.save(&changed).await?;
        director.dirty.store(false, Ordering::Relaxed);
        director.saved_at.store(now_ms(), Ordering::Relaxed);
        *record = changed;
        director.version.send_modify(|v| *v += 1);
        director.wake.notify_one();
        Ok(record.clone())
    }

    /// `user` enters, if the conditions let them.
    pub async fn join(
        &self,
        user: &User,
        id: &str,
        password: Option<&str>,
    ) -> Result<Record, ApiError> {
        let record = self.get(id).await?;
        let speed = record.spec.time_control.speed();
        let conditions = &record.spec.conditions;
        if let Some(hash) = &conditions.password_sha256 {
            if password.map(password_hash).as_ref() != Some(hash) {
                return Err(ApiError::Forbidden(
                    "password: this tournament is private; give its password".into(),
                ));
            }
        }
        if !conditions.invited.is_empty() && !conditions.invited.contains(&user.id) {
            return Err(ApiError::Forbidden(
                "this tournament is by invitation and you are not on its list".into(),
            ));
        }
        let rating = self.ratings.rating_of(user.id, speed).await;
        let games = self
            .store
            .rating(user.id, speed.name())
            .await?
            .map_or(0, |r| r.games.max(0) as u32);
        let refuse = |why: String| Err(ApiError::Forbidden(why));
        if let Some(min) = conditions.min_rating {
            if rating < min {
                return refuse(format!(
                    "your {} rating {rating} is under {min}",
                    speed.name()
                ));
            }
        }
        if let Some(max) = conditions.max_rating {
            if rating > max {
                return refuse(format!(
                    "your {} rating {rating} is over {max}",
                    speed.name()
                ));
            }
        }
        if let Some(min) = conditions.min_rated_games {
            if games < min {
                return refuse(format!(
                    "you have played {games} rated {} games; {min} are needed",
                    speed.name()
                ));
            }
        }
        if let Some(days) = conditions.min_account_age_days {
            let age_days = now_ms().saturating_sub(user.created_at.max(0) as u64) / 86_400_000;
            if age_days < u64::from(days) {
                return refuse(format!(
                    "your account is {age_days} days old; {days} are needed"
                ));
            }
        }
        let entrant = Entrant {
            user_id: user.id,
            name: user.name.clone(),
            rating,
            joined_at: now_ms(),
            rank: None,
            withdrawn: false,
            half_byes: Vec::new(),
        };
        self.change(id, |r| Ok(r.join(entrant)?)).await
    }

    /// `user` withdraws.
    pub async fn withdraw(&self, user: &User, id: &str) -> Result<Record, ApiError> {
        self.change(id, |r| Ok(r.withdraw(user.id)?)).await
    }

    /// `user` asks for a half-point bye in `round`.
    pub async fn ask_bye(&self, user: &User, id: &str, round: u32) -> Result<Record, ApiError> {
        self.change(id, |r| Ok(r.ask_bye(user.id, round)?)).await
    }

    fn organiser_only(record: &Record, user: &User) -> Result<(), ApiError> {
        if record.created_by.0 == user.id {
            Ok(())
        } else {
            Err(ApiError::Forbidden(
                "only the tournament's organiser may do this".into(),
            ))
        }
    }

    /// The organiser sets when the tournament starts, or (started) when the next
    /// round does, `at` ms.
    pub async fn schedule(&self, user: &User, id: &str, at: u64) -> Result<Record, ApiError> {
        self.change(id, |r| {
            Self::organiser_only(r, user)?;
            match r.status {
                Status::Created => r.spec.starts_at = at,
                _ if r.next_round_at.is_some() => r.next_round_at = Some(at),
                _ => {
                    return Err(ApiError::BadRequest(
                        "the round being played must end before the next is scheduled".into(),
                    ))
                }
            }
            Ok(())
        })
        .await
    }

    /// The organiser ends the tournament now (games being played go on unscored).
    pub async fn terminate(&self, user: &User, id: &str) -> Result<Record, ApiError> {
        self.change(id, |r| {
            Self::organiser_only(r, user)?;
            r.finish(now_ms());
            Ok(())
        })
        .await
    }

    /// Does what is due: the start, the next round, forfeits for players who did
    /// not appear. Returns when to look again (`None`: the tournament is over).
    async fn step(&self, director: &Director) -> Option<u64> {
        let mut record = director.record.lock().await;
        let now = now_ms();
        let before = (record.status, record.rounds.len(), record.next_round_at);
        if record.status == Status::Created && now >= record.spec.starts_at {
            self.start(&mut record, now).await;
        }
        if record.status == Status::Started && record.next_round_at.is_some_and(|at| at <= now) {
            self.next_round(&mut record, now).await;
        }
        if record.is_arena() && record.status == Status::Started {
            self.arena_step(&mut record, now).await;
        }
        let forfeit_at = self.forfeit_no_shows(&record, now).await;
        let changed = before != (record.status, record.rounds.len(), record.next_round_at);
        let dirty = director.dirty.load(Ordering::Relaxed);
        let results_due = director.saved_at.load(Ordering::Relaxed) + RESULTS_STORED_EVERY_MS;
        // A finished record is stored before its director goes.
        let over = record.status == Status::Finished;
        if changed || (dirty && (now >= results_due || over)) {
            if let Err(e) = self.save(&record).await {
                // Kept in memory and stored again in a second; a pairing is
                // always stored before its games start (`next_round`).
                tracing::error!("tournament {}: not stored: {e}", record.id);
                director.dirty.store(true, Ordering::Relaxed);
                return Some(now + 1000);
            }
            director.dirty.store(false, Ordering::Relaxed);
            director.saved_at.store(now, Ordering::Relaxed);
            director.version.send_modify(|v| *v += 1);
        }
        let store_at = director
            .dirty
            .load(Ordering::Relaxed)
            .then_some(results_due);
        match record.status {
            Status::Created => Some(record.spec.starts_at),
            Status::Started => [
                record.next_round_at,
                forfeit_at,
                store_at,
                record.arena_ends_at(),
                record.next_arena_pairing(),
            ]
            .into_iter()
            .flatten()
            .min()
            .or(Some(now + 60_000)),
            Status::Finished => {
                let id = record.id.clone();
                {
                    // Games still being played count no more.
                    let mut by_game = self.by_game();
                    for board in record.pending_boards() {
                        by_game.remove(&board.game_id);
                    }
                }
                drop(record);
                self.directors().remove(&id);
                None
            }
        }
    }

    /// Starts the tournament: ratings as they are now, starting ranks, round 1. With
    /// fewer than two players it ends at once.
    async fn start(&self, record: &mut Record, now: u64) {
        let speed = record.spec.time_control.speed();
        for entrant in &mut record.entrants {
            entrant.rating = self.ratings.rating_of(entrant.user_id, speed).await;
        }
        if record.is_arena() {
            // An arena starts at its time whoever is there: players come and go.
            record.start_arena(now);
            self.arena_step(record, now).await;
            return;
        }
        if record.entrants.len() < 2 {
            record.finish(now);
            return;
        }
        record.assign_ranks();
        record.status = Status::Started;
        self.next_round(record, now).await;
    }

    /// Pairs the next round, stores it, then starts its games.
    async fn next_round(&self, record: &mut Record, now: u64) {
        // A Swiss round of hundreds of players takes a good part of a second to
        // pair: on a thread of its own, not the one serving games.
        let snapshot = record.clone();
        let paired = tokio::task::spawn_blocking(move || snapshot.pair_next()).await;
        let paired = match paired {
            Ok(paired) => paired,
            Err(e) => {
                tracing::error!("tournament {}: pairing failed: {e}", record.id);
                return;
            }
        };
        let pairing = match paired {
            Ok(pairing) if !pairing.boards.is_empty() => pairing,
            Ok(_) => {
                record.finish(now);
                return;
            }
            Err(e) => {
                tracing::warn!("tournament {}: {e}; it ends here", record.id);
                record.finish(now);
                return;
            }
        };
        record.add_round(&pairing, new_id, now);
        record.after_results(now);
        if let Err(e) = self.save(record).await {
            // Not stored: no game may start on a pairing a restart would not know.
            tracing::error!("tournament {}: round not stored: {e}", record.id);
            record.rounds.pop();
            record.next_round_at = Some(now + 1000);
            return;
        }
        self.resume_round(record, true).await.unwrap_or_else(|e| {
            tracing::error!("tournament {}: games not started: {e}", record.id);
        });
    }

    /// An arena's work: its end when the time is up, else a wave of pairings for
    /// the players waiting (at most one per
    /// [`crate::domain::arena::PAIRING_INTERVAL_MS`]), stored
    /// before its games start.
    async fn arena_step(&self, record: &mut Record, now: u64) {
        if record.arena_ends_at().is_some_and(|end| now >= end) {
            record.finish(now);
            return;
        }
        if record.next_arena_pairing().is_none_or(|at| at > now) {
            return;
        }
        let before = record.clone();
        if !record.pair_arena(new_id, now) {
            return;
        }
        if let Err(e) = self.save(record).await {
            tracing::error!("tournament {}: pairings not stored: {e}", record.id);
            *record = before;
            return;
        }
        self.resume_round(record, true).await.unwrap_or_else(|e| {
            tracing::error!("tournament {}: games not started: {e}", record.id);
        });
    }

    /// Records a game's end, by the tournament's system.
    fn record_result(record: &mut Record, view: &View) -> bool {
        let Some(finish) = view.finish else {
            return false;
        };
        let result = scored(finish.result, finish.termination, view.moves.len());
        if record.is_arena() {
            record.record_arena(view.id(), result, view.moves.len(), view.berserk)
        } else {
            record.record(view.id(), result, now_ms())
        }
    }

    /// Makes the current round whole: each board's game started if it was not,
    /// and the result of each that ended recorded.
    /// `fresh`: the round was just paired, so none of its games exists yet.
    async fn resume_round(&self, record: &mut Record, fresh: bool) -> Result<(), ApiError> {
        if record.status != Status::Started {
            return Ok(());
        }
        let pending: Vec<_> = record.pending_boards().cloned().collect();
        {
            let mut by_game = self.by_game();
            for board in &pending {
                by_game.insert(board.game_id.clone(), record.id.clone());
            }
        }
        // The games that exist: their results; the others are started, a few at
        // a time (each is written to the store).
        let mut to_start = Vec::new();
        for board in pending {
            if fresh && self.games.live(&board.game_id).is_none() {
                to_start.push(board);
                continue;
            }
            match self.games.find(&board.game_id).await {
                Ok(found) => {
                    Self::record_result(record, &found.view());
                }
                Err(ApiError::NotFound(_)) => to_start.push(board),
                Err(e) => return Err(e),
            }
        }
        let record = &*record;
        let source = if record.is_arena() {
            GameSource::Arena(record.id.clone())
        } else {
            GameSource::Swiss(record.id.clone())
        };
        let starts = to_start.into_iter().filter_map(|board| {
            let white = record.by_rank(board.white)?;
            let black = record.by_rank(board.black)?;
            let setup = GameSetup {
                berserkable: record.is_arena() && record.spec.berserkable,
                ..GameSetup::new(
                    &white.name,
                    &black.name,
                    record.spec.ruleset,
                    record.spec.time_control.clone(),
                )
            };
            let (white, black) = (
                (white.user_id, white.name.clone()),
                (black.user_id, black.name.clone()),
            );
            let source = source.clone();
            Some(async move {
                self.arbiters
                    .name(&board.game_id, &record.spec.arbiters)
                    .await?;
                self.games
                    .start(
                        board.game_id,
                        white,
                        black,
                        setup,
                        record.spec.rated,
                        source,
                    )
                    .await
                    .map(|_| ())
            })
        });
        let results: Vec<Result<(), ApiError>> = futures_util::stream::iter(starts)
            .buffer_unordered(GAMES_STARTED_AT_ONCE)
            .collect()
            .await;
        results.into_iter().collect()
    }

    /// Forfeits, through the arbiter's seat, each player of the current round who
    /// has not moved within the default time; returns the next such deadline.
    async fn forfeit_no_shows(&self, record: &Record, now: u64) -> Option<u64> {
        let default_ms = record.spec.ruleset.params().default_time_ms?;
        let wait = default_ms.max(NO_SHOW_GRACE_MS);
        let mut next = None::<u64>;
        for (board, started) in record.pending_with_start() {
            let Some(handle) = self.games.live(&board.game_id) else {
                continue;
            };
            let view = handle.view();
            if view.finish.is_some() {
                continue;
            }
            // Black's wait counts again from White's first move.
            let (color, due) = match view.moves.len() {
                0 => (Color::White, started + wait),
                1 => (Color::Black, started + 2 * wait),
                _ => continue,
            };
            if due > now {
                next = Some(next.map_or(due, |n| n.min(due)));
                continue;
            }
            let reason = format!(
                "{} did not move within the default time (6.7)",
                view.info.player(color).name
            );
            if let Err(e) = handle
                .arbitrate(DIRECTOR.into(), reason, ArbiterAction::Forfeit { color })
                .await
            {
                tracing::warn!("game {}: no forfeit: {e}", board.game_id);
            }
        }
        next
    }

    /// A game of a current round ended: its result is recorded.
    async fn game_over(&self, view: Arc<View>) {
        let id = self.by_game().remove(view.id());
        let Some(id) = id else {
            return;
        };
        // A finished tournament's director is gone: the result counts no more.
        let Some(director) = self.directors().get(&id).cloned() else {
            return;
        };
        let mut record = director.record.lock().await;
        if Self::record_result(&mut record, &view) {
            director.dirty.store(true, Ordering::Relaxed);
            director.version.send_modify(|v| *v += 1);
            director.wake.notify_one();
        }
    }
}

impl Subscriber for Tournaments {
    fn finished(&self, view: Arc<View>) -> Effect {
        let me = self.me.clone();
        Box::pin(async move {
            if let Some(me) = me.upgrade() {
                me.game_over(view).await;
            }
        })
    }
}

/// A tournament's director: acts when something is due or the record changes.
async fn direct(service: Weak<Tournaments>, director: Arc<Director>) {
    loop {
        let Some(tournaments) = service.upgrade() else {
            return;
        };
        let Some(at) = tournaments.step(&director).await else {
            return;
        };
        drop(tournaments);
        let wait = Duration::from_millis(at.saturating_sub(now_ms()).min(3_600_000));
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = director.wake.notified() => {}
        }
    }
}
