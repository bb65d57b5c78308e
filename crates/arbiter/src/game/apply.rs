//! Applying one event: the only place where a game's state changes, whether the
//! event was just made by an action or read back from the store.

use super::{lag_quota_gain, Game, LAG_QUOTA_MAX_GAINS};
use crate::event::{Event, EventKind};

impl Game {
    /// Applies one event to the state: the only place where the state changes.
    pub(super) fn apply(&mut self, event: &Event) -> Result<(), String> {
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
}
