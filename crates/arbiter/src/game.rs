//! One game under a ruleset, as a state machine driven by actions and kept as an
//! event log. `act` validates an action against the rules and the ruleset, turns it
//! into events and applies them; `from_events` applies a stored log again. The
//! only way state changes is [`Game::apply`], so both paths agree exactly.

use caissa_rules::{fen, CastlingMode, Color, Position};
use serde::{Deserialize, Serialize};

use crate::clock::{Clock, ClockError};
use crate::envelope::Envelope;
use crate::event::{ClaimKind, Event, EventKind};
use crate::outcome::{Finish, GameResult};
use crate::ruleset::{Params, Ruleset};
use crate::time_control::TimeControl;

mod act;
mod apply;
mod pgn;
mod seat;
pub use seat::ArbiterNote;

/// Everything fixed before the game starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The rules.
    pub ruleset: Ruleset,
    /// The clock settings.
    pub time_control: TimeControl,
    /// A starting position other than the initial one.
    pub fen: Option<String>,
    /// Whether the game is Chess960.
    pub chess960: bool,
    /// Whether a player may go berserk before their first move (an arena's game).
    #[serde(default)]
    pub berserkable: bool,
}

impl GameSetup {
    /// A standard game between two players.
    pub fn new(white: &str, black: &str, ruleset: Ruleset, time_control: TimeControl) -> GameSetup {
        GameSetup {
            white: white.to_string(),
            black: black.to_string(),
            ruleset,
            time_control,
            fen: None,
            chess960: false,
            berserkable: false,
        }
    }

    fn name(&self, color: Color) -> &str {
        color.fold(&self.white, &self.black)
    }
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Fewer than two half-moves played.
    WaitingForFirstMoves,
    /// Being played.
    Running,
    /// Clocks paused by the arbiter.
    Paused,
    /// Adjourned with a sealed move.
    Adjourned,
    /// Finished.
    Ended,
}

/// What a player can do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Make a move, in SAN or UCI, and press the clock.
    Move {
        /// The move.
        text: String,
        /// The network lag the server measured for this move, ms; credited from the
        /// player's bounded quota (0 over the board).
        #[serde(default)]
        lag_ms: u64,
        /// Offer a draw with the move (9.1.2.2: after making it, before pressing
        /// the clock); with the opponent's offer open, this agrees to it instead,
        /// before the move. An offer the rules do not allow now is not made, and
        /// the move stands.
        #[serde(default)]
        offering_draw: bool,
    },
    /// Offer a draw (9.1).
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Claim a draw by repetition or the fifty-move rule, now or with a move (9.2, 9.3).
    ClaimDraw {
        /// Which rule.
        claim: ClaimKind,
        /// The intended move that completes the repetition or the fifty moves.
        with_move: Option<String>,
    },
    /// Resign.
    Resign,
    /// Abort the game (where the ruleset allows it, before it really starts).
    Abort,
    /// Claim that the opponent's flag has fallen.
    ClaimFlag,
    /// Claim the game because the opponent has left (online rulesets).
    ClaimVictory {
        /// How long the opponent has been gone, ms (the server knows).
        opponent_gone_ms: u64,
    },
    /// Call a draw because the opponent has left (online rulesets).
    CallDraw {
        /// How long the opponent has been gone, ms.
        opponent_gone_ms: u64,
    },
    /// Adjourn: seal the next move (Guidelines I.1).
    Seal {
        /// The sealed move as written.
        text: String,
    },
    /// Propose taking back moves, or accept the opponent's proposal (rulesets that
    /// allow it). On your turn it takes back the opponent's last move and yours.
    ProposeTakeback,
    /// Accept the opponent's takeback proposal.
    AcceptTakeback,
    /// Decline the opponent's proposal, or withdraw your own.
    DeclineTakeback,
    /// Ask for a 5-second increment for both players (Guidelines III.4).
    RequestIncrement,
    /// Claim a draw because the opponent cannot win by normal means (Guidelines III.5).
    ClaimNoProgress,
    /// Go berserk (an arena's game, before one's first move): half the base time
    /// given up, no increment, a bonus point for a win.
    Berserk,
    /// Propose (or, when the opponent proposed the same, agree to) resuming an
    /// adjourned game at `at`, ms since the Unix epoch.
    ProposeResumption {
        /// When, ms.
        at: u64,
    },
}

impl Action {
    /// A move with no lag to compensate (over the board, or from a client whose lag
    /// is not measured).
    pub fn play(text: impl Into<String>) -> Action {
        Action::Move {
            text: text.into(),
            lag_ms: 0,
            offering_draw: false,
        }
    }
}

/// What the arbiter can do (Laws 12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ArbiterAction {
    /// Pause both clocks.
    Pause,
    /// Restart the clocks after a pause.
    Resume,
    /// Add or remove time (12.9: more time for the opponent, less for the offender).
    AdjustClock {
        /// Whose clock.
        color: Color,
        /// The change, ms.
        delta_ms: i64,
        /// Why, in words.
        reason: String,
    },
    /// Correct a clock's display (6.10).
    SetClock {
        /// Whose clock.
        color: Color,
        /// The display, ms.
        ms: u64,
    },
    /// Warn a player.
    Warn {
        /// Who.
        color: Color,
        /// For what.
        reason: String,
    },
    /// Declare the result (12.9, 11.7).
    DeclareResult {
        /// The result.
        result: GameResult,
    },
    /// Forfeit a player who has not appeared within the default time (6.7).
    Forfeit {
        /// The absent player.
        color: Color,
    },
    /// Resume an adjourned game: the sealed move is opened and played (Guidelines I.9).
    ResumeAdjourned,
    /// Grant a requested 5-second increment (Guidelines III.4).
    GrantIncrement,
    /// Decide a "no progress" claim (Guidelines III.5): draw, or play on.
    DecideNoProgressClaim {
        /// Whether the game is drawn.
        draw: bool,
    },
    /// Adjourn the game: the player to move must seal a move (Guidelines I.1).
    Adjourn,
    /// Resume an adjourned game at `at`, ms (Guidelines I.9).
    ScheduleResumption {
        /// When, ms.
        at: u64,
    },
    /// Set the position back `plies` half-moves, to before an irregularity (Laws
    /// 7.1, 7.2, 7.4). The move counts go back with the moves; the clock times
    /// are then set as the arbiter judges best (`SetClock`, 7.1).
    SetBack {
        /// Half-moves to take back.
        plies: u32,
    },
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// It is the opponent's turn.
    #[error("it is not {0}'s turn")]
    NotYourTurn(&'static str),
    /// The text is not a move in any notation.
    #[error("{0}")]
    Malformed(String),
    /// The move is not legal here (with any penalty already applied).
    #[error("{0}")]
    IllegalMove(String),
    /// The action is not allowed now, and why.
    #[error("{0}")]
    NotAllowed(String),
    /// The clock refused (time going backwards).
    #[error(transparent)]
    Clock(#[from] ClockError),
    /// The setup cannot start a game.
    #[error("bad setup: {0}")]
    Setup(String),
    /// A stored event does not fit the game.
    #[error("event {index}: {why}")]
    Replay {
        /// Index of the event in the log.
        index: usize,
        /// What does not fit.
        why: String,
    },
}

/// Lag compensation a player earns per move, ms: a second at most, less in the fastest
/// games where a second is a large share of the clock (after lichess's quota, from an
/// estimated game length of base + 40 × increment seconds).
fn lag_quota_gain(control: &crate::TimeControl) -> u64 {
    let Some(period) = control.periods.first() else {
        return 0;
    };
    let estimate_s = (period.base_ms + 40 * period.increment_ms) / 1000;
    (estimate_s * 2 / 5 + 15).min(100) * 10
}

/// The most lag compensation a player can bank, in gains.
const LAG_QUOTA_MAX_GAINS: u64 = 7;

fn not_allowed(why: impl Into<String>) -> ActionError {
    ActionError::NotAllowed(why.into())
}

/// One game and its whole history.
#[derive(Clone, Debug)]
pub struct Game {
    setup: GameSetup,
    params: Params,
    line: caissa_rules::Game,
    sans: Vec<String>,
    move_clocks: Vec<Option<u64>>,
    clock: Clock,
    finish: Option<Finish>,
    draw_offer: Option<Color>,
    takeback: Option<Color>,
    /// Lag compensation still available per player, ms.
    lag_quota: [u64; 2],
    offers: [u32; 2],
    /// Ply before which a player may not offer again (after a declined offer).
    offer_blocked_until: [u32; 2],
    illegal_moves: [u32; 2],
    checks_in_row: [u32; 2],
    checks_received: [u32; 2],
    flag_down: [bool; 2],
    envelope: Option<Envelope>,
    /// The arbiter adjourned the game and the player to move has not sealed yet.
    adjournment_called: bool,
    /// A proposed time to resume, by whom (ms).
    resumption_proposed: Option<(Color, u64)>,
    /// When the adjourned game resumes by itself (ms).
    resume_at: Option<u64>,
    /// Arbiter's actions recorded so far.
    arbitrated: u32,
    increment_request: Option<Color>,
    no_progress_claim: Option<Color>,
    warnings: [u32; 2],
    events: Vec<Event>,
}

impl Game {
    fn blank(setup: GameSetup) -> Result<Game, ActionError> {
        let start = match &setup.fen {
            None => Position::new(),
            Some(text) => {
                let mode = if setup.chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                let parsed = if setup.chess960 {
                    fen::parse_with_mode(text, mode)
                } else {
                    fen::parse(text)
                };
                parsed.map_err(|e| ActionError::Setup(e.to_string()))?
            }
        };
        let gain = lag_quota_gain(&setup.time_control);
        Ok(Game {
            params: setup.ruleset.params(),
            clock: Clock::new(setup.time_control.clone()),
            setup,
            line: caissa_rules::Game::new(start),
            sans: Vec::new(),
            move_clocks: Vec::new(),
            finish: None,
            draw_offer: None,
            takeback: None,
            lag_quota: [3 * gain; 2],
            offers: [0; 2],
            offer_blocked_until: [0; 2],
            illegal_moves: [0; 2],
            checks_in_row: [0; 2],
            checks_received: [0; 2],
            flag_down: [false; 2],
            envelope: None,
            adjournment_called: false,
            resumption_proposed: None,
            resume_at: None,
            arbitrated: 0,
            increment_request: None,
            no_progress_claim: None,
            warnings: [0; 2],
            events: Vec::new(),
        })
    }

    /// Starts a game at `now`; under the Laws White's clock starts at once (6.6).
    pub fn new(setup: GameSetup, now: u64) -> Result<Game, ActionError> {
        let mut game = Game::blank(setup)?;
        game.emit(now, EventKind::Started)?;
        if game.params.clock_starts_after_plies == 0 && !game.setup.time_control.is_unlimited() {
            let color = game.line.position().turn();
            game.emit(now, EventKind::ClockStarted { color })?;
        }
        Ok(game)
    }

    /// Rebuilds a game from its event log.
    pub fn from_events(setup: GameSetup, events: &[Event]) -> Result<Game, ActionError> {
        let mut game = Game::blank(setup)?;
        for (index, event) in events.iter().enumerate() {
            game.apply(event)
                .map_err(|why| ActionError::Replay { index, why })?;
            game.events.push(event.clone());
        }
        Ok(game)
    }

    /// Applies one more event of the log, as [`Game::from_events`] does for
    /// each: a copy of a game kept elsewhere follows its log this way.
    pub fn replay(&mut self, event: &Event) -> Result<(), ActionError> {
        let index = self.events.len();
        self.apply(event)
            .map_err(|why| ActionError::Replay { index, why })?;
        self.events.push(event.clone());
        Ok(())
    }

    // ---- queries ----

    /// The setup.
    pub fn setup(&self) -> &GameSetup {
        &self.setup
    }

    /// The ruleset's parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Every event so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.line.position()
    }

    /// The moves and positions so far.
    pub fn line(&self) -> &caissa_rules::Game {
        &self.line
    }

    /// The moves in SAN.
    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    /// The mover's clock after each move, when there is a clock.
    pub fn move_clocks(&self) -> &[Option<u64>] {
        &self.move_clocks
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// How the game finished, if it has.
    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    /// A pending takeback proposal, by whom.
    pub fn takeback(&self) -> Option<Color> {
        self.takeback
    }

    /// Lag compensation `color` can still be credited, ms.
    pub fn lag_quota(&self, color: Color) -> u64 {
        self.lag_quota[color.index()]
    }

    /// The player with a pending draw offer.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// Illegal moves `color` has completed.
    pub fn illegal_moves(&self, color: Color) -> u32 {
        self.illegal_moves[color.index()]
    }

    /// Warnings `color` has received.
    pub fn warnings(&self, color: Color) -> u32 {
        self.warnings[color.index()]
    }

    /// Draw offers `color` has made.
    pub fn offers_made(&self, color: Color) -> u32 {
        self.offers[color.index()]
    }

    /// Checks `color` has received in total (the online game counts them).
    pub fn checks_received(&self, color: Color) -> u32 {
        self.checks_received[color.index()]
    }

    /// How many arbiter's actions the log records (see [`Game::arbiter_notes`]).
    pub fn arbiter_note_count(&self) -> u32 {
        self.arbitrated
    }

    /// A "no progress" claim waiting for the arbiter (Guidelines III.5), by whom.
    pub fn no_progress_claim(&self) -> Option<Color> {
        self.no_progress_claim
    }

    /// A request for a 5-second increment waiting for the arbiter (III.4), by whom.
    pub fn increment_request(&self) -> Option<Color> {
        self.increment_request
    }

    /// When an adjourned game resumes by itself, if a time is set (ms).
    pub fn resume_at(&self) -> Option<u64> {
        self.resume_at
    }

    /// A time to resume proposed by one player and not yet agreed (ms).
    pub fn resumption_proposed(&self) -> Option<(Color, u64)> {
        self.resumption_proposed
    }

    /// Whether the arbiter adjourned the game and the player to move must seal.
    pub fn adjournment_called(&self) -> bool {
        self.adjournment_called
    }

    /// The envelope of an adjourned game.
    pub fn envelope(&self) -> Option<&Envelope> {
        self.envelope.as_ref()
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        if self.finish.is_some() {
            Status::Ended
        } else if self.envelope.is_some() {
            Status::Adjourned
        } else if self.clock.is_paused() {
            Status::Paused
        } else if self.line.moves().len() < 2 {
            Status::WaitingForFirstMoves
        } else {
            Status::Running
        }
    }

    /// Half-moves played.
    pub fn plies(&self) -> u32 {
        self.line.moves().len() as u32
    }

    /// Whether `color` went berserk.
    pub fn berserked(&self, color: Color) -> bool {
        self.clock.side(color).berserk
    }

    /// Moves `color` has completed.
    pub fn moves_made(&self, color: Color) -> u32 {
        let first = self.line.start().turn();
        let plies = self.plies();
        if color == first {
            plies.div_ceil(2)
        } else {
            plies / 2
        }
    }

    /// The next moment at or after `now` when something happens by itself if nobody
    /// acts: a flag falls (ending the game, or, where flags must be claimed, making
    /// the claim possible). For a server's timer.
    pub fn next_deadline(&self, now: u64) -> Option<u64> {
        if self.finish.is_some() {
            return None;
        }
        if self.envelope.is_some() {
            return self.resume_at;
        }
        let flag = self.flag_deadline(now);
        match (flag, self.first_move_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When a first move not yet made makes the game aborted (online), if it does.
    fn first_move_deadline(&self) -> Option<u64> {
        let within = self.params.first_move_ms(self.setup.time_control.speed())?;
        if self.plies() >= 2 || self.finish.is_some() || self.clock.is_paused() {
            return None;
        }
        // From the start, or from the last move (or its taking back).
        let since = self
            .events
            .iter()
            .rev()
            .find(|e| {
                matches!(
                    e.kind,
                    EventKind::Moved { .. } | EventKind::TakenBack { .. }
                )
            })
            .or(self.events.first())
            .map_or(0, |e| e.at);
        Some(since + within)
    }

    /// When the flag of the side to move falls (or, where flags are claimed and
    /// one is down, the other's).
    fn flag_deadline(&self, now: u64) -> Option<u64> {
        let flag_time = self.clock.flag_time()?;
        if self.params.flag_must_be_claimed && flag_time <= now {
            // Already down and waiting for a claim; only both flags down would end it.
            let running = self.clock.running()?;
            return self.flag_down[(!running).index()].then_some(flag_time);
        }
        Some(flag_time)
    }
}
