//! One game under a ruleset, as a state machine driven by actions and kept as an
//! event log. `act` validates an action against the rules and the ruleset, turns it
//! into events and applies them; `from_events` applies a stored log again. The
//! only way state changes is [`Game::apply`], so both paths agree exactly.

use caissa_rules::san::{San, SanError};
use caissa_rules::uci::{UciError, UciMove};
use caissa_rules::{fen, CastlingMode, Color, Move, Position, Termination as RulesTermination};
use serde::{Deserialize, Serialize};

use crate::clock::{Clock, ClockError};
use crate::envelope::Envelope;
use crate::event::{ClaimKind, Event, EventKind};
use crate::outcome::{Finish, GameResult, Termination};
use crate::ruleset::{FlagDraw, IllegalMoves, Params, Ruleset, WrongClaim};
use crate::time_control::TimeControl;

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

    // ---- acting ----

    fn last_event_at(&self) -> u64 {
        self.events.last().map_or(0, |e| e.at)
    }

    fn emit(&mut self, at: u64, kind: EventKind) -> Result<(), ActionError> {
        let event = Event { at, kind };
        self.apply(&event).map_err(ActionError::NotAllowed)?;
        self.events.push(event);
        Ok(())
    }

    fn end(
        &mut self,
        at: u64,
        result: GameResult,
        termination: Termination,
    ) -> Result<(), ActionError> {
        self.emit(
            at,
            EventKind::Ended {
                finish: Finish {
                    result,
                    termination,
                },
            },
        )
    }

    /// Applies whatever happened by the passage of time up to `now` (a flag fall
    /// where the ruleset does not wait for a claim; both flags down). Returns the
    /// number of events added. Call it from a timer; every action calls it first.
    pub fn tick(&mut self, now: u64) -> Result<usize, ActionError> {
        let before = self.events.len();
        if now < self.last_event_at() {
            return Err(ClockError::TimeWentBack {
                now,
                last: self.last_event_at(),
            }
            .into());
        }
        if self.finish.is_none() && self.envelope.is_some() {
            if let Some(at) = self.resume_at.filter(|&at| at <= now) {
                self.open_envelope(at.max(self.last_event_at()))?;
            }
        }
        if self.finish.is_some() || self.envelope.is_some() || self.clock.is_paused() {
            return Ok(self.events.len() - before);
        }
        if self.first_move_deadline().is_some_and(|at| now >= at) {
            self.end(now, GameResult::Void, Termination::Aborted)?;
            return Ok(self.events.len() - before);
        }
        if let Some(flagged) = self.clock.flag(now) {
            let other = !flagged;
            if !self.params.flag_must_be_claimed {
                let (result, termination) = self.flag_finish(flagged);
                self.end(now, result, termination)?;
            } else if self.flag_down[other.index()] {
                // Both flags down: the server knows which fell first, so the
                // draw of Guidelines III.3.1 (for when nobody can tell) never
                // applies; the first to fall loses, subject to 6.9 (6.8, A.5.3).
                let (result, termination) = self.flag_finish(other);
                self.end(now, result, termination)?;
            }
        }
        Ok(self.events.len() - before)
    }

    /// The result when `flagged`'s time has run out (6.9 and the ruleset).
    fn flag_finish(&self, flagged: Color) -> (GameResult, Termination) {
        let winner = !flagged;
        if let Some(n) = self.params.void_timeout_within_moves {
            if self.plies() / 2 <= n {
                return (GameResult::Void, Termination::TimeForfeit);
            }
        }
        let pos = self.position();
        let cannot_win = match self.params.flag_draw {
            FlagDraw::CannotMate => !pos.can_checkmate(winner),
            FlagDraw::LoneKing => pos.board().by_color(winner).count() == 1,
        };
        if cannot_win {
            (GameResult::Draw, Termination::TimeoutDraw)
        } else {
            (GameResult::win_for(winner), Termination::TimeForfeit)
        }
    }

    /// A player acts at `now`. Events that happen by time first (a flag fall) are
    /// applied even when the action is then refused, so read [`Game::events`] after
    /// every call, whatever it returns.
    pub fn act(&mut self, by: Color, action: Action, now: u64) -> Result<(), ActionError> {
        self.tick(now)?;
        if self.finish.is_some() {
            return Err(ActionError::GameOver);
        }
        let adjourned = self.envelope.is_some();
        let turn = self.position().turn();
        match action {
            Action::Move {
                text,
                lag_ms,
                offering_draw,
            } => {
                self.require_playing()?;
                if by != turn {
                    return Err(ActionError::NotYourTurn(by.name()));
                }
                if self.adjournment_called {
                    return Err(not_allowed(
                        "the arbiter has adjourned the game: seal your move instead",
                    ));
                }
                if offering_draw && self.draw_offer == Some(!by) {
                    // "Offer or agree": the draw is agreed in the position the
                    // opponent offered it in.
                    return self.end(now, GameResult::Draw, Termination::Agreement);
                }
                let m = match self.read_move(&text) {
                    Ok(m) => m,
                    Err(e @ (ActionError::Malformed(_) | ActionError::NotAllowed(_))) => {
                        return Err(e)
                    }
                    Err(ActionError::IllegalMove(why)) => {
                        return self.illegal_move(by, text, why, now)
                    }
                    Err(e) => return Err(e),
                };
                self.play(by, m, lag_ms, now)?;
                if offering_draw && self.finish.is_none() && self.check_offer(by, true).is_ok() {
                    self.emit(now, EventKind::DrawOffered { by })?;
                }
                Ok(())
            }
            Action::ProposeTakeback => {
                if self.takeback == Some(!by) {
                    return self.take_back(!by, now);
                }
                self.check_takeback(by)?;
                self.emit(now, EventKind::TakebackProposed { by })
            }
            Action::AcceptTakeback => {
                if self.takeback != Some(!by) {
                    return Err(not_allowed("there is no takeback proposal to accept"));
                }
                self.take_back(!by, now)
            }
            Action::DeclineTakeback => {
                if self.takeback.is_none() {
                    return Err(not_allowed("there is no takeback proposal"));
                }
                self.emit(now, EventKind::TakebackDeclined { by })
            }
            Action::OfferDraw => {
                if adjourned && turn == by {
                    return Err(not_allowed(
                        "the sealer cannot offer a draw before the game resumes",
                    ));
                }
                if self.draw_offer == Some(!by) {
                    return self.end(now, GameResult::Draw, Termination::Agreement);
                }
                self.check_offer(by, false)?;
                self.emit(now, EventKind::DrawOffered { by })
            }
            Action::AcceptDraw => {
                if self.draw_offer != Some(!by) {
                    return Err(not_allowed("there is no draw offer to accept"));
                }
                self.end(now, GameResult::Draw, Termination::Agreement)
            }
            Action::DeclineDraw => {
                if self.draw_offer != Some(!by) {
                    return Err(not_allowed("there is no draw offer to decline"));
                }
                self.emit(now, EventKind::DrawDeclined { by })
            }
            Action::ClaimDraw { claim, with_move } => self.claim_draw(by, claim, with_move, now),
            Action::Resign => {
                let needed = self.params.resign_after_moves;
                if self.moves_made(by) < needed {
                    return Err(not_allowed(format!(
                        "resignation is allowed only after {needed} moves"
                    )));
                }
                let opponent_can_win = self.position().can_checkmate(!by);
                if self.params.resign_draw_if_opponent_cannot_mate && !opponent_can_win {
                    self.end(now, GameResult::Draw, Termination::Resignation)
                } else {
                    self.end(now, GameResult::win_for(!by), Termination::Resignation)
                }
            }
            Action::Abort => {
                if adjourned {
                    return Err(not_allowed("an adjourned game cannot be aborted"));
                }
                if self.plies() >= self.params.abort_before_plies {
                    return Err(not_allowed(match self.params.abort_before_plies {
                        0 => "this ruleset does not allow aborting".to_string(),
                        n => format!("a game can be aborted only before {n} half-moves are played"),
                    }));
                }
                self.end(now, GameResult::Void, Termination::Aborted)
            }
            Action::ClaimFlag => {
                let fallen =
                    |c: Color| self.clock.flag(now) == Some(c) || self.flag_down[c.index()];
                if !fallen(!by) {
                    return Err(not_allowed("the opponent's flag has not fallen"));
                }
                // A claim needs time on the claimant's own clock (A.5.3); both
                // flags down is settled by `tick` before any action.
                if fallen(by) {
                    return Err(not_allowed("your own flag has fallen too"));
                }
                let (result, termination) = self.flag_finish(!by);
                self.end(now, result, termination)
            }
            Action::ClaimVictory { opponent_gone_ms } | Action::CallDraw { opponent_gone_ms } => {
                if adjourned {
                    return Err(not_allowed(
                        "the game is adjourned: nobody has to be at the board",
                    ));
                }
                let Some(limit) = self.params.gone_claim_after_ms else {
                    return Err(not_allowed(
                        "this ruleset has no claim for a departed opponent",
                    ));
                };
                if turn == by {
                    return Err(not_allowed(
                        "the opponent can only be claimed gone on their turn",
                    ));
                }
                if opponent_gone_ms < limit {
                    return Err(not_allowed(format!(
                        "the opponent has been gone {} s; the claim needs {} s",
                        opponent_gone_ms / 1000,
                        limit / 1000
                    )));
                }
                let win = matches!(action, Action::ClaimVictory { .. })
                    && self.position().can_checkmate(by);
                let result = if win {
                    GameResult::win_for(by)
                } else {
                    GameResult::Draw
                };
                self.end(now, result, Termination::Abandoned)
            }
            Action::Seal { text } => {
                self.require_playing()?;
                if !self.params.adjournment && !self.adjournment_called {
                    return Err(not_allowed("this ruleset has no adjournment"));
                }
                if by != turn {
                    return Err(ActionError::NotYourTurn(by.name()));
                }
                let now_left = [
                    self.clock.remaining(Color::White, now),
                    self.clock.remaining(Color::Black, now),
                ];
                let used = [
                    self.clock.used(Color::White, now),
                    self.clock.used(Color::Black, now),
                ];
                let envelope = Envelope {
                    white: self.setup.white.clone(),
                    black: self.setup.black.clone(),
                    fen: self.position().fen(),
                    time_used_ms: used,
                    time_left_ms: now_left,
                    sealer: by,
                    move_number: self.position().fullmoves(),
                    sealed_move: text,
                    open_draw_offer: self.draw_offer,
                };
                self.emit(now, EventKind::Adjourned { envelope })
            }
            Action::RequestIncrement => {
                self.check_guidelines_iii(by, turn, now)?;
                self.emit(now, EventKind::IncrementRequested { by })?;
                if self.draw_offer.is_none() {
                    // The request counts as a draw offer (III.4).
                    self.emit(now, EventKind::DrawOffered { by })?;
                }
                Ok(())
            }
            Action::Berserk => {
                if !self.setup.berserkable {
                    return Err(not_allowed(
                        "this game is not one where players may go berserk",
                    ));
                }
                if self.clock.side(by).berserk {
                    return Err(not_allowed("you have already gone berserk"));
                }
                if self.moves_made(by) > 0 {
                    return Err(not_allowed("berserk is only before your first move"));
                }
                if self.clock.berserk_cut().is_none() {
                    return Err(not_allowed("a clock with no base time cannot go berserk"));
                }
                self.emit(now, EventKind::Berserked { color: by })
            }
            Action::ProposeResumption { at } => {
                if !adjourned {
                    return Err(not_allowed("the game is not adjourned"));
                }
                if at < now {
                    return Err(not_allowed("the time to resume has passed"));
                }
                if self.resume_at.is_some() {
                    return Err(not_allowed("the time to resume is already set"));
                }
                if self.resumption_proposed == Some((!by, at)) {
                    self.emit(now, EventKind::ResumptionScheduled { at })
                } else {
                    self.emit(now, EventKind::ResumptionProposed { by, at })
                }
            }
            Action::ClaimNoProgress => {
                self.check_guidelines_iii(by, turn, now)?;
                self.emit(now, EventKind::NoProgressClaimed { by })
            }
        }
    }

    fn require_playing(&self) -> Result<(), ActionError> {
        if self.envelope.is_some() {
            return Err(not_allowed("the game is adjourned"));
        }
        if self.clock.is_paused() {
            return Err(not_allowed("the clocks are paused by the arbiter"));
        }
        Ok(())
    }

    /// Reads a move in UCI or SAN: malformed text, an ambiguous move (no penalty:
    /// the intention is unclear) and an illegal one are told apart.
    fn read_move(&self, text: &str) -> Result<Move, ActionError> {
        let pos = self.position();
        if let Ok(uci) = UciMove::parse(text) {
            match uci.to_move(pos) {
                Ok(m) => return Ok(m),
                Err(UciError::Illegal(_)) if San::parse(text).is_err() => {
                    return Err(ActionError::IllegalMove(format!(
                        "{text} is not a legal move"
                    )));
                }
                Err(_) => {}
            }
        }
        match pos.parse_san(text) {
            Ok(m) => Ok(m),
            Err(e @ SanError::Syntax { .. }) => Err(ActionError::Malformed(e.to_string())),
            Err(e @ SanError::Ambiguous { .. }) => Err(ActionError::NotAllowed(e.to_string())),
            Err(e @ SanError::Illegal { .. }) => Err(ActionError::IllegalMove(e.to_string())),
        }
    }

    /// A completed illegal move (7.5): the position stays; the ruleset's penalty.
    fn illegal_move(
        &mut self,
        by: Color,
        attempt: String,
        why: String,
        now: u64,
    ) -> Result<(), ActionError> {
        let IllegalMoves::Penalize {
            opponent_bonus_ms,
            lose_at,
        } = self.params.illegal_moves
        else {
            return Err(ActionError::IllegalMove(why));
        };
        self.emit(now, EventKind::IllegalMove { color: by, attempt })?;
        if self.illegal_moves[by.index()] >= lose_at {
            let result = if self.position().can_checkmate(!by) {
                GameResult::win_for(!by)
            } else {
                GameResult::Draw
            };
            self.end(now, result, Termination::IllegalMoves)?;
            return Err(ActionError::IllegalMove(format!(
                "{why}; illegal move number {lose_at} loses the game"
            )));
        }
        if opponent_bonus_ms > 0 {
            self.emit(
                now,
                EventKind::ClockAdjusted {
                    color: !by,
                    delta_ms: opponent_bonus_ms as i64,
                    reason: format!("illegal move by {}", self.setup.name(by)),
                },
            )?;
        }
        Err(ActionError::IllegalMove(format!(
            "{why} (illegal move {} of {lose_at} allowed before the game is lost)",
            self.illegal_moves[by.index()]
        )))
    }

    /// Plays a legal move: a pending offer from the opponent is declined by it,
    /// the clock starts once enough moves are made, and automatic endings follow.
    /// Whether `by` may propose a takeback now.
    fn check_takeback(&self, by: Color) -> Result<(), ActionError> {
        self.require_playing()?;
        if !self.params.takebacks {
            return Err(not_allowed(format!(
                "the {} rules do not allow taking moves back",
                self.setup.ruleset.name()
            )));
        }
        if self.takeback == Some(by) {
            return Err(not_allowed("your takeback proposal is already pending"));
        }
        if self.moves_made(by) == 0 {
            return Err(not_allowed("you have no move to take back"));
        }
        Ok(())
    }

    /// Takes back moves so that `proposer` is to move again.
    fn take_back(&mut self, proposer: Color, now: u64) -> Result<(), ActionError> {
        self.check_takeback(proposer).or_else(|e| match e {
            // The proposer's own proposal is what is being accepted.
            ActionError::NotAllowed(_) if self.takeback == Some(proposer) => Ok(()),
            other => Err(other),
        })?;
        let plies = if self.position().turn() == proposer {
            2
        } else {
            1
        };
        self.emit(now, EventKind::TakenBack { plies })
    }

    fn play(&mut self, by: Color, m: Move, lag_ms: u64, now: u64) -> Result<(), ActionError> {
        if self.draw_offer == Some(!by) {
            self.emit(now, EventKind::DrawDeclined { by })?;
        }
        let pos = *self.position();
        let uci = pos.to_uci(m);
        let san = pos.san(m);
        let lag_ms = if self.clock.running() == Some(by) {
            lag_ms
                .min(self.lag_quota[by.index()])
                .min(self.clock.elapsed(now))
        } else {
            0
        };
        self.emit(
            now,
            EventKind::Moved {
                color: by,
                uci,
                san,
                lag_ms,
            },
        )?;
        if self.clock.running().is_none()
            && !self.setup.time_control.is_unlimited()
            && self.plies() >= self.params.clock_starts_after_plies
        {
            let color = self.position().turn();
            self.emit(now, EventKind::ClockStarted { color })?;
        }
        if let Some((result, termination)) = self.automatic_ending(by) {
            self.end(now, result, termination)?;
        }
        Ok(())
    }

    /// Endings that need no claim, after `mover` moved.
    fn automatic_ending(&self, mover: Color) -> Option<(GameResult, Termination)> {
        if let Some(outcome) = self.line.outcome() {
            let termination = match outcome.termination {
                RulesTermination::Checkmate => Termination::Checkmate,
                RulesTermination::Stalemate => Termination::Stalemate,
                RulesTermination::DeadPosition => Termination::DeadPosition,
                RulesTermination::FivefoldRepetition => Termination::FivefoldRepetition,
                RulesTermination::SeventyFiveMoves => Termination::SeventyFiveMoves,
            };
            let automatic_9_6 = matches!(
                termination,
                Termination::FivefoldRepetition | Termination::SeventyFiveMoves
            );
            if !automatic_9_6 || self.params.automatic_fivefold_and_75 {
                let result = outcome.winner.map_or(GameResult::Draw, GameResult::win_for);
                return Some((result, termination));
            }
        }
        let p = &self.params;
        if p.no_progress_draw_moves
            .is_some_and(|n| self.position().halfmoves() >= 2 * n)
        {
            return Some((GameResult::Draw, Termination::NoProgress));
        }
        if p.consecutive_checks_draw
            .is_some_and(|n| self.checks_in_row[mover.index()] >= n)
            || p.total_checks_draw
                .is_some_and(|n| self.checks_received[(!mover).index()] >= n)
        {
            return Some((GameResult::Draw, Termination::PerpetualChecks));
        }
        if p.automatic_claimable_draws {
            let claims = self.line.claimable();
            if claims.contains(&caissa_rules::ClaimableDraw::ThreefoldRepetition) {
                return Some((GameResult::Draw, Termination::ThreefoldRepetition));
            }
            if claims.contains(&caissa_rules::ClaimableDraw::FiftyMoves) {
                return Some((GameResult::Draw, Termination::FiftyMoves));
            }
        }
        None
    }

    /// Whether `by` may offer a draw now; `with_move`: the offer comes with the
    /// move just made (before the clock is pressed, so still on `by`'s turn).
    fn check_offer(&self, by: Color, with_move: bool) -> Result<(), ActionError> {
        let p = &self.params;
        if self.draw_offer == Some(by) {
            return Err(not_allowed("your draw offer is still open"));
        }
        if p.agreement_after_both_moved
            && (self.moves_made(Color::White) == 0 || self.moves_made(Color::Black) == 0)
        {
            return Err(not_allowed(
                "a draw can be agreed only after both players have moved (5.2.3)",
            ));
        }
        if p.offer_on_own_turn_only && self.position().turn() != by && !with_move {
            return Err(not_allowed("a draw can be offered only on your own turn"));
        }
        if self.moves_made(by) < p.offer_after_moves {
            return Err(not_allowed(format!(
                "a draw can be offered only after {} moves",
                p.offer_after_moves
            )));
        }
        if let Some(max) = p.max_offers {
            if self.offers[by.index()] >= max {
                return Err(not_allowed(format!("at most {max} draw offers per game")));
            }
        }
        if self.plies() < self.offer_blocked_until[by.index()] {
            return Err(not_allowed(
                "your last offer was declined; wait a few moves or for the opponent to offer",
            ));
        }
        Ok(())
    }

    fn check_guidelines_iii(&self, by: Color, turn: Color, now: u64) -> Result<(), ActionError> {
        if !self.params.guidelines_iii {
            return Err(not_allowed(
                "Guidelines III do not apply under this ruleset",
            ));
        }
        if self.clock.control().has_increment() || self.clock.control().has_delay() {
            return Err(not_allowed(
                "Guidelines III apply only to games without increment",
            ));
        }
        if by != turn {
            return Err(not_allowed("only the player to move may ask"));
        }
        if self.clock.remaining(by, now) >= 120_000 {
            return Err(not_allowed(
                "only a player with less than two minutes left may ask",
            ));
        }
        Ok(())
    }

    fn claim_draw(
        &mut self,
        by: Color,
        claim: ClaimKind,
        with_move: Option<String>,
        now: u64,
    ) -> Result<(), ActionError> {
        if self.adjournment_called && with_move.is_some() {
            return Err(not_allowed(
                "the arbiter has adjourned the game: seal your move instead",
            ));
        }
        self.require_playing()?;
        if self.position().turn() != by {
            return Err(not_allowed(
                "only the player having the move may claim (9.2, 9.3)",
            ));
        }
        let wanted = match claim {
            ClaimKind::ThreefoldRepetition => caissa_rules::ClaimableDraw::ThreefoldRepetition,
            ClaimKind::FiftyMoves => caissa_rules::ClaimableDraw::FiftyMoves,
        };
        let intended = match &with_move {
            Some(text) => Some(self.read_move(text)?),
            None => None,
        };
        let valid = match intended {
            Some(m) => self
                .line
                .claimable_with(m)
                .map_err(|e| ActionError::IllegalMove(e.to_string()))?
                .contains(&wanted),
            None => self.line.claimable().contains(&wanted),
        };
        let termination = match claim {
            ClaimKind::ThreefoldRepetition => Termination::ThreefoldRepetition,
            ClaimKind::FiftyMoves => Termination::FiftyMoves,
        };
        if valid {
            if let Some(m) = intended {
                self.play(by, m, 0, now)?;
                if self.finish.is_some() {
                    return Ok(());
                }
            }
            return self.end(now, GameResult::Draw, termination);
        }
        let penalty = match self.params.wrong_claim {
            WrongClaim::Refuse => return Err(not_allowed("the claim is not valid")),
            WrongClaim::OpponentBonus(ms) => (!by, ms as i64),
            WrongClaim::ClaimantPenalty(ms) => (by, -(ms as i64)),
        };
        self.emit(now, EventKind::ClaimRejected { by, claim })?;
        self.emit(
            now,
            EventKind::ClockAdjusted {
                color: penalty.0,
                delta_ms: penalty.1,
                reason: format!("incorrect draw claim by {}", self.setup.name(by)),
            },
        )?;
        // The penalty may have used up the claimant's time: the flag has fallen.
        if penalty.0 == by && self.clock.remaining(by, now) == 0 {
            let (result, termination) = self.flag_finish(by);
            return self.end(now, result, termination);
        }
        // The claim stands as a draw offer (9.1.2.3) and the written move is played (9.5.3).
        if self.draw_offer.is_none() {
            self.emit(now, EventKind::DrawOffered { by })?;
        }
        if let Some(m) = intended {
            self.play(by, m, 0, now)?;
        }
        Ok(())
    }

    // ---- applying events ----

    /// Applies one event to the state: the only place where the state changes.
    fn apply(&mut self, event: &Event) -> Result<(), String> {
        let at = event.at;
        if at < self.last_event_at() {
            return Err(format!("time {at} ms is before the previous event"));
        }
        // After the end only an arbiter's correction of the result is recorded.
        let correction = matches!(
            event.kind,
            EventKind::Arbitrated { .. } | EventKind::Ended { .. }
        );
        if self.finish.is_some() && !correction {
            return Err("the game is over".into());
        }
        match &event.kind {
            EventKind::ClockStarted { color } => {
                self.clock.start(*color, at).map_err(|e| e.to_string())?
            }
            EventKind::Moved {
                color, uci, lag_ms, ..
            } => {
                let pos = *self.position();
                if pos.turn() != *color {
                    return Err(format!("{uci}: it is not {}'s turn", color.name()));
                }
                let m = pos.parse_uci(uci).map_err(|e| e.to_string())?;
                let san = pos.san(m);
                self.line.play(m).map_err(|e| e.to_string())?;
                if self.clock.running() == Some(*color) {
                    if self.clock.flag(at) == Some(*color) {
                        self.flag_down[color.index()] = true;
                    }
                    self.clock
                        .press_compensated(*color, at, *lag_ms)
                        .map_err(|e| e.to_string())?;
                    let gain = lag_quota_gain(&self.setup.time_control);
                    let quota = &mut self.lag_quota[color.index()];
                    *quota = (*quota + gain)
                        .saturating_sub(*lag_ms)
                        .min(LAG_QUOTA_MAX_GAINS * gain);
                }
                self.takeback = None;
                // The game clock after the move, for the record (none without one).
                let has_game_clock = !self.setup.time_control.periods.is_empty();
                self.move_clocks
                    .push(has_game_clock.then(|| self.clock.side(*color).remaining_ms));
                self.sans.push(san);
                let i = color.index();
                if self.position().is_check() {
                    self.checks_in_row[i] += 1;
                    self.checks_received[1 - i] += 1;
                } else {
                    self.checks_in_row[i] = 0;
                }
            }
            EventKind::IllegalMove { color, .. } => self.illegal_moves[color.index()] += 1,
            EventKind::DrawOffered { by } => {
                self.draw_offer = Some(*by);
                self.offers[by.index()] += 1;
            }
            EventKind::DrawDeclined { by } => {
                self.draw_offer = None;
                if let Some(n) = self.params.offer_cooldown_moves {
                    self.offer_blocked_until[(!*by).index()] = self.plies() + 2 * n;
                }
                self.offer_blocked_until[by.index()] = 0;
            }
            EventKind::TakebackProposed { by } => self.takeback = Some(*by),
            EventKind::TakebackDeclined { .. } => self.takeback = None,
            EventKind::TakenBack { plies } => {
                for _ in 0..*plies {
                    self.line.undo().ok_or("no move to take back")?;
                    let mover = self.position().turn();
                    self.sans.pop();
                    self.move_clocks.pop();
                    self.clock.retract_move(mover);
                }
                let to_move = self.position().turn();
                self.clock.hand_over(to_move, at);
                self.takeback = None;
                self.draw_offer = None;
                self.checks_in_row = [0; 2];
                self.adjournment_called = false;
            }
            EventKind::ClaimRejected { .. } => {}
            EventKind::ClockAdjusted {
                color, delta_ms, ..
            } => self.clock.adjust(*color, *delta_ms, at),
            EventKind::ClockSet { color, ms } => self.clock.set_remaining(*color, *ms, at),
            EventKind::Paused => self.clock.pause(at).map_err(|e| e.to_string())?,
            EventKind::Resumed => self.clock.resume(at).map_err(|e| e.to_string())?,
            EventKind::Warned { color, .. } => self.warnings[color.index()] += 1,
            EventKind::IncrementRequested { by } => self.increment_request = Some(*by),
            EventKind::IncrementAdded { ms } => {
                self.clock.add_increment(*ms);
                self.increment_request = None;
            }
            EventKind::Berserked { color } => self.clock.berserk(*color, at),
            EventKind::NoProgressClaimed { by } => self.no_progress_claim = Some(*by),
            EventKind::NoProgressClaimRejected { .. } => self.no_progress_claim = None,
            EventKind::Started => {}
            EventKind::Adjourned { envelope } => {
                self.clock.stop(at);
                self.envelope = Some(envelope.clone());
                self.adjournment_called = false;
            }
            EventKind::AdjournmentCalled => self.adjournment_called = true,
            EventKind::ResumptionProposed { by, at } => {
                self.resumption_proposed = Some((*by, *at));
            }
            EventKind::ResumptionScheduled { at } => {
                self.resume_at = Some(*at);
                self.resumption_proposed = None;
            }
            EventKind::Arbitrated { .. } => self.arbitrated += 1,
            EventKind::ResumedFromAdjournment => {
                let envelope = self.envelope.take().ok_or("the game is not adjourned")?;
                self.resume_at = None;
                self.resumption_proposed = None;
                if self.setup.time_control.is_unlimited() {
                    return Ok(());
                }
                self.clock
                    .start(envelope.sealer, at)
                    .map_err(|e| e.to_string())?;
            }
            EventKind::Ended { finish } => {
                self.clock.stop(at);
                self.finish = Some(*finish);
                self.draw_offer = None;
            }
        }
        Ok(())
    }

    /// The game in PGN with `[%clk]` after each move and `TimeControl`,
    /// `Termination` and `Ruleset` tags.
    pub fn pgn(&self) -> String {
        self.pgn_with(&[])
    }

    /// The game in PGN, with `tags` (what the game does not know: `Site`, `Date`,
    /// ratings ...) set after its own, replacing any of the same name.
    pub fn pgn_with(&self, tags: &[(&str, String)]) -> String {
        let mut tree = caissa_pgn::GameTree::default();
        let result = self.finish.map_or("*", |f| f.result.pgn());
        for (name, value) in [
            ("Event", "Caissa game".to_string()),
            ("White", self.setup.white.clone()),
            ("Black", self.setup.black.clone()),
            ("Result", result.to_string()),
            ("TimeControl", self.setup.time_control.to_string()),
            ("Ruleset", self.setup.ruleset.name().to_string()),
        ] {
            tree.set_tag(name, &value);
        }
        if let Some(finish) = self.finish {
            tree.set_tag("Termination", finish.termination.pgn_tag());
        }
        if self.setup.fen.is_some() || self.setup.chess960 {
            tree.set_tag("SetUp", "1");
            tree.set_tag("FEN", &self.line.start().fen());
        }
        if self.setup.chess960 {
            tree.set_tag("Variant", "Chess960");
        }
        for (name, value) in tags {
            tree.set_tag(name, value);
        }
        let mut pos = *self.line.start();
        for (i, &m) in self.line.moves().iter().enumerate() {
            let mut node = caissa_pgn::Node::new(San::from_move(&pos, m));
            if let Some(Some(ms)) = self.move_clocks.get(i) {
                node.comments.push(caissa_pgn::clock::clk_command(
                    std::time::Duration::from_millis(*ms),
                ));
            }
            tree.mainline.moves.push(node);
            pos.play_unchecked(m);
        }
        for note in self.arbiter_notes() {
            // Braces would end the comment early.
            let text = note.text().replace('{', "(").replace('}', ")");
            let at = (note.ply as usize).min(tree.mainline.moves.len());
            match at.checked_sub(1) {
                Some(i) => tree.mainline.moves[i].comments.push(text),
                None => tree.mainline.comments.push(text),
            }
        }
        tree.result = result.to_string();
        caissa_pgn::write_game(&tree).unwrap_or_default()
    }
}
