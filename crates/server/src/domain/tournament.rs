//! A tournament as the server runs it: what the organiser asked for, who entered,
//! and every round's pairing and results, kept as one record that is stored whole
//! after each change. The pairing rules are the tournament crate's; this module
//! turns the record into that crate's model (starting ranks, one entry per round)
//! and applies what the crate decides. Nothing here does I/O.

use caissa_arbiter::{Ruleset, TimeControl};
use caissa_rating::elo;
use caissa_tournament::standings::{self, RatingChange, Standing};
use caissa_tournament::tiebreak::Tiebreak;
use caissa_tournament::{
    dutch, round_robin, Bye, Colour, Entry, GameResult, Pairing, PairingError, Player, PlayerId,
    Tournament,
};
use serde::{Deserialize, Serialize};

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum System {
    /// The FIDE (Dutch) Swiss system.
    Swiss,
    /// Everyone meets everyone once, by the Berger tables.
    RoundRobin,
    /// Everyone meets everyone twice, colours reversed in the second cycle.
    DoubleRoundRobin,
    /// Lichess's arena: for a fixed time, re-paired as soon as a game ends.
    Arena,
}

impl System {
    /// The name the API uses.
    pub fn name(self) -> &'static str {
        match self {
            System::Swiss => "swiss",
            System::RoundRobin => "roundRobin",
            System::DoubleRoundRobin => "doubleRoundRobin",
            System::Arena => "arena",
        }
    }

    /// Whether everyone meets everyone.
    pub fn is_round_robin(self) -> bool {
        matches!(self, System::RoundRobin | System::DoubleRoundRobin)
    }

    /// The tiebreaks used when the organiser names none (FIDE C.07's
    /// recommendations: Buchholz for Swiss, direct encounter and Sonneborn-Berger
    /// for round robins).
    pub fn default_tiebreaks(self) -> Vec<Tiebreak> {
        let codes: &[&str] = match self {
            System::Swiss => &["BH-C1", "BH", "SB", "DE"],
            // An arena ranks by score, then performance.
            System::Arena => &[],
            _ => &["DE", "SB", "WIN", "KS"],
        };
        codes.iter().filter_map(|c| c.parse().ok()).collect()
    }
}

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Status {
    /// Taking entries, not started.
    Created,
    /// Rounds are being played.
    Started,
    /// Over: final standings.
    Finished,
}

impl Status {
    /// The name the API (and the store) uses.
    pub fn name(self) -> &'static str {
        match self {
            Status::Created => "created",
            Status::Started => "started",
            Status::Finished => "finished",
        }
    }
}

/// Who may enter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Conditions {
    /// Lowest rating at the tournament's speed.
    pub min_rating: Option<u32>,
    /// Highest rating at the tournament's speed.
    pub max_rating: Option<u32>,
    /// Fewest rated games played at the tournament's speed.
    pub min_rated_games: Option<u32>,
    /// Youngest account, days.
    pub min_account_age_days: Option<u32>,
    /// Only these users (ids) may enter; empty: anyone.
    #[serde(default)]
    pub invited: Vec<i64>,
    /// The SHA-256 of the entry password, if there is one.
    pub password_sha256: Option<String>,
}

/// What the organiser asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Spec {
    /// Its name.
    pub name: String,
    /// What the organiser wrote about it.
    #[serde(default)]
    pub description: String,
    /// How players are paired.
    pub system: System,
    /// Rounds of a Swiss (a round robin's come from its players).
    pub rounds: Option<u32>,
    /// Every game's clock.
    pub time_control: TimeControl,
    /// The rules every game is played under.
    pub ruleset: Ruleset,
    /// Whether its games are rated.
    pub rated: bool,
    /// When round 1 starts, ms.
    pub starts_at: u64,
    /// The wait between one round's end and the next round's start, ms.
    pub round_interval_ms: u64,
    /// Who may enter.
    #[serde(default)]
    pub conditions: Conditions,
    /// Whether bot accounts may enter.
    #[serde(default)]
    pub allow_bots: bool,
    /// Its arbiters (user ids): the arbiter's seat over every game.
    #[serde(default)]
    pub arbiters: Vec<i64>,
    /// The tiebreaks of the standings, in order.
    pub tiebreaks: Vec<Tiebreak>,
    /// An arena's length, minutes.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// Whether an arena's players may go berserk.
    #[serde(default)]
    pub berserkable: bool,
    /// Whether an arena's winning streaks double points.
    #[serde(default)]
    pub streakable: bool,
}

/// A player who entered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entrant {
    /// The account.
    pub user_id: i64,
    /// Its name.
    pub name: String,
    /// The rating at the tournament's speed when entering (or at the start).
    pub rating: u32,
    /// When they entered, ms.
    pub joined_at: u64,
    /// The starting rank (pairing number), given at the start; late entries get
    /// the next numbers.
    pub rank: Option<PlayerId>,
    /// Withdrawn: paired no more.
    #[serde(default)]
    pub withdrawn: bool,
    /// Rounds for which a half-point bye was asked.
    #[serde(default)]
    pub half_byes: Vec<u32>,
}

/// One board of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    /// White's starting rank.
    pub white: PlayerId,
    /// Black's starting rank.
    pub black: PlayerId,
    /// The game (its id is fixed when the round is paired).
    pub game_id: String,
    /// The results for White and Black, once known.
    pub result: Option<(GameResult, GameResult)>,
}

/// One round: its pairing, as computed once and stored, and its results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Round {
    /// Its boards, in board order.
    pub boards: Vec<Board>,
    /// The player given the pairing-allocated bye.
    pub bye: Option<PlayerId>,
    /// When it started, ms.
    pub started_at: u64,
}

impl Round {
    /// Whether every board has its result.
    pub fn is_complete(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }
}

/// A tournament: what it is, who plays, what happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// Its id.
    pub id: String,
    /// The organiser (user id and name).
    pub created_by: (i64, String),
    /// When it was created, ms.
    pub created_at: u64,
    /// What the organiser asked for.
    pub spec: Spec,
    /// Where it is.
    pub status: Status,
    /// Everyone who entered, in order of entry.
    pub entrants: Vec<Entrant>,
    /// The rounds paired so far.
    pub rounds: Vec<Round>,
    /// When the next round starts, ms, once the previous one is over.
    pub next_round_at: Option<u64>,
    /// When it ended, ms.
    pub finished_at: Option<u64>,
    /// An arena's scoring, once started.
    #[serde(default)]
    pub arena: Option<super::arena::ArenaPlay>,
}

/// Why a tournament cannot do what was asked.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TournamentError {
    /// Not allowed in its state, with why.
    #[error("{0}")]
    State(String),
    /// The pairing rules found no pairing.
    #[error("pairing round {round}: {reason}")]
    Pairing {
        /// The round.
        round: u32,
        /// Why.
        reason: String,
    },
}

fn refuse<T>(why: impl Into<String>) -> Result<T, TournamentError> {
    Err(TournamentError::State(why.into()))
}

impl Record {
    /// A new tournament, taking entries.
    pub fn new(id: String, created_by: (i64, String), spec: Spec, now: u64) -> Record {
        Record {
            id,
            created_by,
            created_at: now,
            spec,
            status: Status::Created,
            entrants: Vec::new(),
            rounds: Vec::new(),
            next_round_at: None,
            finished_at: None,
            arena: None,
        }
    }

    /// The total number of rounds: a Swiss's as asked, a round robin's from its
    /// players (once they are known).
    pub fn total_rounds(&self) -> u32 {
        match self.spec.system {
            System::Swiss => self.spec.rounds.unwrap_or(0),
            System::Arena => 0,
            system => {
                let players = self.players().count() as u32;
                if players < 2 {
                    0
                } else {
                    round_robin::rounds(players, system == System::DoubleRoundRobin)
                }
            }
        }
    }

    /// The entrant of a user.
    pub fn entrant(&self, user: i64) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.user_id == user)
    }

    /// The entrant with a starting rank.
    pub fn by_rank(&self, rank: PlayerId) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.rank == Some(rank))
    }

    /// The entrants who take part: with a rank once started, not withdrawn before.
    fn players(&self) -> impl Iterator<Item = &Entrant> {
        self.entrants
            .iter()
            .filter(move |e| self.status == Status::Created || e.rank.is_some())
    }

    /// Enters a player. Before the start anyone may; a Swiss takes late entries
    /// until its last round is paired (they score nothing for the rounds missed); a
    /// round robin takes none once started.
    pub fn join(&mut self, entrant: Entrant) -> Result<(), TournamentError> {
        if let Some(index) = self
            .entrants
            .iter()
            .position(|e| e.user_id == entrant.user_id)
        {
            let e = &self.entrants[index];
            if !e.withdrawn {
                return refuse(format!("{} has already joined", e.name));
            }
            if self.status != Status::Created && self.spec.system.is_round_robin() {
                return refuse("a round robin cannot be rejoined once it has started");
            }
            self.check_open()?;
            self.entrants[index].withdrawn = false;
            return Ok(());
        }
        self.check_open()?;
        let mut entrant = entrant;
        if self.status == Status::Started {
            if self.spec.system.is_round_robin() {
                return refuse("a round robin takes no entries once it has started");
            }
            let rank = self.entrants.len() as PlayerId + 1;
            entrant.rank = Some(rank);
            if let Some(arena) = &mut self.arena {
                arena.add_player(rank, self.spec.streakable);
            }
        }
        self.entrants.push(entrant);
        Ok(())
    }

    fn check_open(&self) -> Result<(), TournamentError> {
        match self.status {
            Status::Finished => refuse("the tournament is over"),
            Status::Started if self.spec.system == System::Arena => Ok(()),
            Status::Started if self.rounds.len() as u32 >= self.total_rounds() => {
                refuse("the last round has been paired")
            }
            _ => Ok(()),
        }
    }

    /// Withdraws a player: before the start they leave the list; after it they
    /// are paired no more (a game being played goes on).
    pub fn withdraw(&mut self, user: i64) -> Result<(), TournamentError> {
        let Some(index) = self.entrants.iter().position(|e| e.user_id == user) else {
            return refuse("you have not joined this tournament");
        };
        if self.status == Status::Finished {
            return refuse("the tournament is over");
        }
        if self.status == Status::Created {
            self.entrants.remove(index);
        } else if self.entrants[index].withdrawn {
            return refuse("you have already withdrawn");
        } else {
            // Byes asked for rounds not yet paired go with the player.
            let paired = self.rounds.len() as u32;
            let entrant = &mut self.entrants[index];
            entrant.withdrawn = true;
            entrant.half_byes.retain(|&round| round <= paired);
        }
        Ok(())
    }

    /// A half-point bye asked for a coming round of a Swiss (not one already paired).
    pub fn ask_bye(&mut self, user: i64, round: u32) -> Result<(), TournamentError> {
        match self.spec.system {
            System::RoundRobin | System::DoubleRoundRobin => {
                return refuse("a round robin has no byes to ask for")
            }
            System::Arena => return refuse("an arena has no byes: withdraw to pause"),
            System::Swiss => {}
        }
        if self.status == Status::Finished {
            return refuse("the tournament is over");
        }
        let paired = self.rounds.len() as u32;
        let total = self.total_rounds();
        if round <= paired || round > total {
            return refuse(format!(
                "round {round} cannot be asked for: rounds {} to {total} are still to be paired",
                paired + 1
            ));
        }
        let Some(entrant) = self.entrants.iter_mut().find(|e| e.user_id == user) else {
            return refuse("you have not joined this tournament");
        };
        if entrant.withdrawn {
            return refuse("you have withdrawn");
        }
        if !entrant.half_byes.contains(&round) {
            entrant.half_byes.push(round);
        }
        Ok(())
    }

    /// Gives the starting ranks: by rating, highest first, then by name.
    pub fn assign_ranks(&mut self) {
        let mut order: Vec<usize> = (0..self.entrants.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&self.entrants[a], &self.entrants[b]);
            b.rating
                .cmp(&a.rating)
                .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        });
        for (rank, index) in order.into_iter().enumerate() {
            self.entrants[index].rank = Some(rank as PlayerId + 1);
        }
    }

    /// The tournament crate's model of the rounds paired so far, with, when
    /// `announce` is set, what is known of the next round before its pairing
    /// (half-point byes asked for, players withdrawn or absent).
    pub fn model(&self, announce: bool) -> Tournament {
        let mut ranked: Vec<&Entrant> = self.entrants.iter().filter(|e| e.rank.is_some()).collect();
        ranked.sort_by_key(|e| e.rank);
        let next = self.rounds.len() as u32 + 1;
        let players = ranked
            .iter()
            .map(|e| {
                let rank = e.rank.unwrap_or_default();
                let mut rounds: Vec<Option<Entry>> = (1..next)
                    .map(|round| Some(self.entry_of(round, e)))
                    .collect();
                if announce && self.spec.system == System::Swiss {
                    if e.withdrawn {
                        rounds.push(Some(Entry::Bye { bye: Bye::Absent }));
                    } else if e.half_byes.contains(&next) {
                        rounds.push(Some(Entry::Bye { bye: Bye::Half }));
                    }
                }
                let mut player = Player {
                    id: rank,
                    sex: String::new(),
                    title: String::new(),
                    name: e.name.clone(),
                    rating: e.rating.min(u16::MAX as u32) as u16,
                    federation: String::new(),
                    fide_id: None,
                    birth: String::new(),
                    points: Default::default(),
                    rank: None,
                    rounds,
                };
                player.points = player
                    .rounds
                    .iter()
                    .flatten()
                    .map(|entry| entry.points(&Default::default()))
                    .sum();
                player
            })
            .collect();
        Tournament {
            name: self.spec.name.clone(),
            total_rounds: Some(self.total_rounds()),
            initial_colour: Some(Colour::White),
            players,
            ..Tournament::default()
        }
    }

    /// Pairs the next round by the tournament's system.
    pub fn pair_next(&self) -> Result<Pairing, TournamentError> {
        let round = self.rounds.len() as u32 + 1;
        let failed = |e: PairingError| TournamentError::Pairing {
            round,
            reason: e.to_string(),
        };
        match self.spec.system {
            System::Swiss => dutch::pair(&self.model(true)).map_err(failed),
            System::Arena => Err(TournamentError::State(
                "an arena pairs players as they come, not by rounds".into(),
            )),
            system => round_robin::pair(&self.model(false), system == System::DoubleRoundRobin)
                .map_err(failed),
        }
    }

    /// Records a new round's pairing, each board with its game's id; a withdrawn
    /// player's board in a round robin is decided at once (a forfeit).
    pub fn add_round(&mut self, pairing: &Pairing, mut game_id: impl FnMut() -> String, now: u64) {
        let withdrawn = |rank| self.by_rank(rank).is_some_and(|e| e.withdrawn);
        let boards = pairing
            .boards
            .iter()
            .map(|b| {
                let result = match (withdrawn(b.white), withdrawn(b.black)) {
                    (false, false) => None,
                    (true, false) => Some((GameResult::ForfeitLoss, GameResult::ForfeitWin)),
                    (false, true) => Some((GameResult::ForfeitWin, GameResult::ForfeitLoss)),
                    (true, true) => Some((GameResult::ForfeitLoss, GameResult::ForfeitLoss)),
                };
                Board {
                    white: b.white,
                    black: b.black,
                    game_id: game_id(),
                    result,
                }
            })
            .collect();
        self.rounds.push(Round {
            boards,
            bye: pairing.bye,
            started_at: now,
        });
        self.next_round_at = None;
    }

    /// The board of a game, by round (1-based) and index.
    pub fn board_of(&self, game_id: &str) -> Option<(usize, usize)> {
        self.rounds.iter().enumerate().find_map(|(r, round)| {
            round
                .boards
                .iter()
                .position(|b| b.game_id == game_id)
                .map(|i| (r + 1, i))
        })
    }

    /// Records a game's result (once: a later one is ignored). When it completes
    /// the round, the next one is due after the interval, or the tournament ends
    /// with its last round. Returns whether anything changed.
    pub fn record(&mut self, game_id: &str, result: (GameResult, GameResult), now: u64) -> bool {
        let Some((round, index)) = self.board_of(game_id) else {
            return false;
        };
        let board = &mut self.rounds[round - 1].boards[index];
        if board.result.is_some() {
            return false;
        }
        board.result = Some(result);
        self.after_results(now);
        true
    }

    /// What follows when the current round is complete.
    pub fn after_results(&mut self, now: u64) {
        let Some(last) = self.rounds.last() else {
            return;
        };
        if self.status != Status::Started
            || self.spec.system == System::Arena
            || !last.is_complete()
            || self.next_round_at.is_some()
        {
            return;
        }
        let active = self
            .entrants
            .iter()
            .filter(|e| e.rank.is_some() && !e.withdrawn)
            .count();
        if self.rounds.len() as u32 >= self.total_rounds() || active < 2 {
            self.finish(now);
        } else {
            self.next_round_at = Some(now + self.spec.round_interval_ms);
        }
    }

    /// Ends the tournament.
    pub fn finish(&mut self, now: u64) {
        self.status = Status::Finished;
        self.finished_at = Some(now);
        self.next_round_at = None;
    }

    /// The games still being played (a Swiss's or round robin's: of the current
    /// round; an arena's: of any wave of pairings).
    pub fn pending_boards(&self) -> impl Iterator<Item = &Board> {
        self.pending_with_start().map(|(board, _)| board)
    }

    /// The games still being played, each with when its round started, ms.
    pub fn pending_with_start(&self) -> impl Iterator<Item = (&Board, u64)> {
        self.rounds.iter().flat_map(|r| {
            r.boards
                .iter()
                .filter(|b| b.result.is_none())
                .map(move |b| (b, r.started_at))
        })
    }

    /// The top board being played, the one TV shows: a Swiss's or round robin's
    /// first board still playing in the latest round; an arena's game whose
    /// better player stands highest now.
    pub fn top_board(&self) -> Option<&Board> {
        if self.is_arena() {
            let place: std::collections::HashMap<PlayerId, usize> = self
                .arena_standings()
                .iter()
                .filter_map(|s| Some((s.entrant.rank?, s.rank)))
                .collect();
            let best = |b: &&Board| {
                let of = |p| place.get(&p).copied().unwrap_or(usize::MAX);
                of(b.white).min(of(b.black))
            };
            return self.pending_boards().min_by_key(best);
        }
        let round = self.rounds.last()?;
        round.boards.iter().find(|b| b.result.is_none())
    }

    /// FIDE Elo changes (Rating Regulations 8.3), for a rated event played
    /// under an over-the-board ruleset (not an arena, not the online rules);
    /// `None` for others. The server does not know a player's FIDE history, so
    /// each counts as established and adult: K 20, or 10 from 2400.
    pub fn elo_changes(&self) -> Option<Vec<RatingChange>> {
        if !self.spec.rated || self.is_arena() || !self.spec.ruleset.is_over_the_board() {
            return None;
        }
        let k = |p: &Player| {
            let rating = f64::from(p.rating);
            elo::k_factor(&elo::Player {
                rating,
                games: 30,
                age: u32::MAX,
                reached_2400: rating >= 2400.0,
            })
        };
        Some(standings::rating_changes(&self.model(false), k))
    }

    /// The standings after the rounds played, with the tournament's tiebreaks.
    pub fn standings(&self) -> Vec<Standing> {
        standings::standings(&self.model(false), &self.spec.tiebreaks)
    }

    /// What an entrant did in `round` (1-based, paired): a board, the
    /// pairing-allocated bye, the half-point bye they asked for, or absent.
    fn entry_of(&self, round: u32, entrant: &Entrant) -> Entry {
        let rank = entrant.rank.unwrap_or_default();
        match entry(&self.rounds[round as usize - 1], rank) {
            Entry::Bye { bye: Bye::Absent } if entrant.half_byes.contains(&round) => {
                Entry::Bye { bye: Bye::Half }
            }
            other => other,
        }
    }

    /// The tournament as a TRF16 file (FIDE's Tournament Report File), for a
    /// rating report and for any pairing program to check.
    pub fn trf(&self) -> String {
        let mut model = self.model(false);
        let header = |code: &str, value: String| caissa_tournament::model::Header {
            code: code.to_string(),
            value,
        };
        let date = |ms: u64| {
            let days = (ms / 86_400_000) as i64;
            let (y, m, d) = super::civil_date(days);
            format!("{y:04}/{m:02}/{d:02}")
        };
        let system = match self.spec.system {
            System::Swiss => "Individual: Swiss-System (FIDE Dutch)",
            System::Arena => "Individual: Arena",
            _ => "Individual: Round-Robin",
        };
        model.headers = vec![
            header("042", date(self.spec.starts_at)),
            header("052", date(self.finished_at.unwrap_or(self.spec.starts_at))),
            header("062", self.entrants.len().to_string()),
            header("092", system.to_string()),
            header("122", self.spec.time_control.to_string()),
        ];
        caissa_tournament::trf::write(&model)
    }
}

/// What `rank` did in a round.
fn entry(round: &Round, rank: PlayerId) -> Entry {
    for board in &round.boards {
        let result = |side: usize| {
            board
                .result
                .map_or(GameResult::Pending, |r| if side == 0 { r.0 } else { r.1 })
        };
        if board.white == rank {
            return Entry::Game {
                opponent: board.black,
                colour: Colour::White,
                result: result(0),
            };
        }
        if board.black == rank {
            return Entry::Game {
                opponent: board.white,
                colour: Colour::Black,
                result: result(1),
            };
        }
    }
    if round.bye == Some(rank) {
        return Entry::Bye {
            bye: Bye::PairingAllocated,
        };
    }
    Entry::Bye { bye: Bye::Absent }
}

/// A game's end as the tournament scores it: the results for White and Black.
/// A game not begun (aborted before each side moved, or forfeited for not
/// appearing, 6.7) is a forfeit of the side that did not move; a void game is
/// lost by both; the arbiter's unequal scores are kept.
pub fn scored(
    result: caissa_arbiter::GameResult,
    termination: caissa_arbiter::Termination,
    plies: usize,
) -> (GameResult, GameResult) {
    use caissa_arbiter::{GameResult as R, Termination as T};
    let forfeit_by_white = (GameResult::ForfeitLoss, GameResult::ForfeitWin);
    let forfeit_by_black = (GameResult::ForfeitWin, GameResult::ForfeitLoss);
    match (termination, result) {
        (T::Aborted, _) if plies == 0 => forfeit_by_white,
        (T::Aborted, _) => forfeit_by_black,
        (T::NoShow, R::WhiteWins) => forfeit_by_black,
        (T::NoShow, _) => forfeit_by_white,
        (_, R::WhiteWins) => (GameResult::Win, GameResult::Loss),
        (_, R::BlackWins) => (GameResult::Loss, GameResult::Win),
        (_, R::Draw) => (GameResult::Draw, GameResult::Draw),
        (_, R::Void) => (GameResult::ForfeitLoss, GameResult::ForfeitLoss),
        (_, R::BothLose) => (GameResult::Loss, GameResult::Loss),
        (_, R::WhiteHalf) => (GameResult::Draw, GameResult::Loss),
        (_, R::BlackHalf) => (GameResult::Loss, GameResult::Draw),
    }
}

#[cfg(test)]
#[path = "tournament_tests.rs"]
mod tests;
