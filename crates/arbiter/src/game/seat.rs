//! The arbiter's seat (Laws 12): an arbiter's action is recorded with the arbiter's
//! name and reason as an [`EventKind::Arbitrated`] event, followed by the events it
//! caused, so players, spectators and the exported PGN all see who did what and why.

use caissa_rules::Color;

use super::{not_allowed, ActionError, ArbiterAction, Game};
use crate::event::EventKind;
use crate::outcome::{GameResult, Termination};

/// An arbiter's action as the game's log records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArbiterNote {
    /// When, ms.
    pub at: u64,
    /// Half-moves played when it happened.
    pub ply: u32,
    /// The arbiter's name.
    pub arbiter: String,
    /// What was done, in words.
    pub action: String,
    /// Why.
    pub reason: String,
}

impl ArbiterNote {
    /// The note as a PGN comment or a line on screen: `Arbiter NAME: ACTION (REASON)`.
    pub fn text(&self) -> String {
        let mut text = format!("Arbiter {}: {}", self.arbiter, self.action);
        if !self.reason.is_empty() {
            text.push_str(&format!(" ({})", self.reason));
        }
        text
    }
}

fn side(color: Color) -> &'static str {
    color.fold("White", "Black")
}

fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

impl ArbiterAction {
    /// What the action does, in words, for the log.
    pub fn describe(&self) -> String {
        match self {
            ArbiterAction::Pause => "paused the clocks".into(),
            ArbiterAction::Resume => "restarted the clocks".into(),
            ArbiterAction::AdjustClock {
                color, delta_ms, ..
            } => {
                let verb = if *delta_ms >= 0 { "added" } else { "removed" };
                let to = if *delta_ms >= 0 { "to" } else { "from" };
                format!(
                    "{verb} {} {to} {}'s clock",
                    seconds(delta_ms.unsigned_abs()),
                    side(*color)
                )
            }
            ArbiterAction::SetClock { color, ms } => {
                format!("set {}'s clock to {}", side(*color), seconds(*ms))
            }
            ArbiterAction::Warn { color, .. } => format!("warned {}", side(*color)),
            ArbiterAction::DeclareResult { result } => {
                format!("declared the result {}", result.score())
            }
            ArbiterAction::Forfeit { color } => {
                format!("forfeited {} for not appearing (6.7)", side(*color))
            }
            ArbiterAction::ResumeAdjourned => "opened the sealed move and resumed play".into(),
            ArbiterAction::GrantIncrement => "granted the 5-second increment".into(),
            ArbiterAction::DecideNoProgressClaim { draw } => if *draw {
                "upheld the claim: drawn"
            } else {
                "rejected the claim: play on"
            }
            .into(),
            ArbiterAction::Adjourn => "adjourned the game: the player to move seals".into(),
            ArbiterAction::ScheduleResumption { at } => format!("set the resumption at {at} ms"),
            ArbiterAction::SetBack { plies } => {
                format!("set the position back {plies} half-moves")
            }
        }
    }
}

impl Game {
    /// `arbiter` acts on the game at `now`, saying why. The action is checked
    /// first; if it is refused, nothing is recorded. On success the log gets an
    /// [`EventKind::Arbitrated`] event, then the events of the action itself.
    pub fn arbitrate(
        &mut self,
        arbiter: &str,
        reason: &str,
        action: ArbiterAction,
        now: u64,
    ) -> Result<(), ActionError> {
        self.tick(now)?;
        let mut trial = self.clone();
        trial.arbiter(action.clone(), now)?;
        self.emit(
            now,
            EventKind::Arbitrated {
                arbiter: arbiter.to_string(),
                action: action.describe(),
                reason: reason.to_string(),
            },
        )?;
        self.arbiter(action, now)
    }

    /// Every arbiter's action so far, in order, with the half-move it came after.
    pub fn arbiter_notes(&self) -> Vec<ArbiterNote> {
        let mut ply: u32 = 0;
        let mut notes = Vec::new();
        for event in self.events() {
            match &event.kind {
                EventKind::Moved { .. } => ply += 1,
                EventKind::TakenBack { plies } => ply = ply.saturating_sub(*plies),
                EventKind::Arbitrated {
                    arbiter,
                    action,
                    reason,
                } => notes.push(ArbiterNote {
                    at: event.at,
                    ply,
                    arbiter: arbiter.clone(),
                    action: action.clone(),
                    reason: reason.clone(),
                }),
                _ => {}
            }
        }
        notes
    }

    /// The arbiter acts at `now`.
    pub fn arbiter(&mut self, action: ArbiterAction, now: u64) -> Result<(), ActionError> {
        self.tick(now)?;
        let correcting = matches!(action, ArbiterAction::DeclareResult { .. });
        if self.finish.is_some() && !correcting {
            return Err(ActionError::GameOver);
        }
        match action {
            ArbiterAction::Pause => {
                if self.clock.is_paused() || self.envelope.is_some() {
                    return Err(not_allowed("the clocks are not running"));
                }
                self.emit(now, EventKind::Paused)
            }
            ArbiterAction::Resume => {
                if !self.clock.is_paused() {
                    return Err(not_allowed("the clocks are not paused"));
                }
                self.emit(now, EventKind::Resumed)
            }
            ArbiterAction::AdjustClock {
                color,
                delta_ms,
                reason,
            } => self.emit(
                now,
                EventKind::ClockAdjusted {
                    color,
                    delta_ms,
                    reason,
                },
            ),
            ArbiterAction::SetClock { color, ms } => {
                self.emit(now, EventKind::ClockSet { color, ms })
            }
            ArbiterAction::Warn { color, reason } => {
                self.emit(now, EventKind::Warned { color, reason })
            }
            ArbiterAction::DeclareResult { result } => {
                self.end(now, result, Termination::ArbiterDecision)
            }
            ArbiterAction::Forfeit { color } => {
                let Some(default_ms) = self.params.default_time_ms else {
                    return Err(not_allowed("this ruleset has no default time"));
                };
                if self.moves_made(color) > 0 {
                    return Err(not_allowed(format!(
                        "{} has already moved",
                        self.setup.name(color)
                    )));
                }
                let started = self.events.first().map_or(now, |e| e.at);
                if now.saturating_sub(started) < default_ms {
                    return Err(not_allowed(format!(
                        "the default time of {} s has not passed",
                        default_ms / 1000
                    )));
                }
                self.end(now, GameResult::win_for(!color), Termination::NoShow)
            }
            ArbiterAction::ResumeAdjourned => {
                if self.envelope.is_none() {
                    return Err(not_allowed("the game is not adjourned"));
                }
                self.open_envelope(now)
            }
            ArbiterAction::Adjourn => {
                self.require_playing()?;
                if self.adjournment_called {
                    return Err(not_allowed("the game is already being adjourned"));
                }
                self.emit(now, EventKind::AdjournmentCalled)
            }
            ArbiterAction::ScheduleResumption { at } => {
                if self.envelope.is_none() {
                    return Err(not_allowed("the game is not adjourned"));
                }
                if at < now {
                    return Err(not_allowed("the time to resume has passed"));
                }
                self.emit(now, EventKind::ResumptionScheduled { at })
            }
            ArbiterAction::SetBack { plies } => {
                if self.envelope.is_some() {
                    return Err(not_allowed("the game is adjourned"));
                }
                if plies == 0 || plies > self.plies() {
                    return Err(not_allowed(format!(
                        "cannot set back {plies} half-moves: {} were played",
                        self.plies()
                    )));
                }
                self.emit(now, EventKind::TakenBack { plies })
            }
            ArbiterAction::GrantIncrement => {
                let Some(by) = self.increment_request else {
                    return Err(not_allowed("no increment was requested"));
                };
                if self.draw_offer == Some(by) {
                    return Err(not_allowed(
                        "the opponent has not refused the request yet (its draw offer is open)",
                    ));
                }
                self.emit(now, EventKind::IncrementAdded { ms: 5_000 })?;
                let bonus = self.params.guidelines_iii_bonus_ms as i64;
                self.emit(
                    now,
                    EventKind::ClockAdjusted {
                        color: !by,
                        delta_ms: bonus,
                        reason:
                            "increment granted after the request was refused (Guidelines III.4)"
                                .into(),
                    },
                )
            }
            ArbiterAction::DecideNoProgressClaim { draw } => {
                let Some(by) = self.no_progress_claim else {
                    return Err(not_allowed("no such claim is pending"));
                };
                if draw {
                    self.end(now, GameResult::Draw, Termination::ArbiterDecision)
                } else {
                    self.emit(now, EventKind::NoProgressClaimRejected { by })?;
                    let bonus = self.params.guidelines_iii_bonus_ms as i64;
                    self.emit(
                        now,
                        EventKind::ClockAdjusted {
                            color: !by,
                            delta_ms: bonus,
                            reason: "claim rejected (Guidelines III.5.3)".into(),
                        },
                    )
                }
            }
        }
    }

    /// Resumes at `now` an adjourned game whose set time passed unseen (a server
    /// that was down then): the envelope is opened now, not back then, so no
    /// clock ran meanwhile.
    pub fn resume_overdue(&mut self, now: u64) -> Result<(), ActionError> {
        let due = self.resume_at.is_some_and(|at| at <= now);
        if self.finish.is_some() || self.envelope.is_none() || !due {
            return Err(not_allowed("no resumption is due"));
        }
        self.open_envelope(now.max(self.last_event_at()))
    }

    /// Opens the envelope of an adjourned game at `now` and plays the sealed move
    /// (Guidelines I.9).
    pub(super) fn open_envelope(&mut self, now: u64) -> Result<(), ActionError> {
        let Some(envelope) = self.envelope.clone() else {
            return Err(not_allowed("the game is not adjourned"));
        };
        self.emit(now, EventKind::ResumedFromAdjournment)?;
        let sealer = envelope.sealer;
        match self.read_move(&envelope.sealed_move) {
            Ok(m) => self.play(sealer, m, 0, now),
            Err(_) => {
                // Guidelines I.8: an ambiguous, meaningless or illegal sealed move
                // loses, unless the opponent could not win anyway (6.9).
                let result = if self.position().can_checkmate(!sealer) {
                    GameResult::win_for(!sealer)
                } else {
                    GameResult::Draw
                };
                self.end(now, result, Termination::InvalidSealedMove)
            }
        }
    }
}
