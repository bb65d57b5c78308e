//! The chess clock (Laws 6): two displays, one running; time is always a parameter.
//!
//! A move is complete for the clock when it is pressed (6.2.1). Pressing charges the
//! time since the clock started (less any delay), then adds the increment and, when
//! the period's moves are done, the next period's time to what is left (6.3.2).

use caissa_rules::Color;
use serde::{Deserialize, Serialize};

use crate::time_control::{Delay, Period, TimeControl};

/// One player's side of the clock, as of the start of the current turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Side {
    /// Time left when this side's clock last stopped (or at the start).
    pub remaining_ms: u64,
    /// Moves completed (clock presses).
    pub moves: u32,
    /// Index of the current period.
    pub period: usize,
    /// Initial time, increments, later periods' time and time added by the arbiter.
    pub credited_ms: u64,
    /// Time removed by the arbiter or as a penalty.
    pub debited_ms: u64,
    /// Time spent on completed turns.
    pub used_ms: u64,
    /// Gone berserk (arena): half the base time given up, no increment.
    #[serde(default)]
    pub berserk: bool,
}

/// Why the clock refused an operation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// Only the player whose clock runs can press it.
    #[error("{0}'s clock is not running")]
    NotRunning(&'static str),
    /// The clock is paused by the arbiter.
    #[error("the clock is paused")]
    Paused,
    /// Time went backwards.
    #[error("time {now} ms is before the last clock event at {last} ms")]
    TimeWentBack {
        /// The time given.
        now: u64,
        /// The last time the clock saw.
        last: u64,
    },
}

/// A two-sided clock for one time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    control: TimeControl,
    sides: [Side; 2],
    running: Option<Color>,
    /// When the running side's turn began (shifted forward by pauses).
    turn_started_at: u64,
    paused_at: Option<u64>,
    last_event: u64,
}

impl Clock {
    /// A stopped clock set for `control`.
    pub fn new(control: TimeControl) -> Clock {
        let base = control.initial_ms();
        let side = Side {
            remaining_ms: base,
            credited_ms: base,
            ..Side::default()
        };
        Clock {
            control,
            sides: [side.clone(), side],
            running: None,
            turn_started_at: 0,
            paused_at: None,
            last_event: 0,
        }
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Whose clock runs, if any.
    pub fn running(&self) -> Option<Color> {
        self.running
    }

    /// Whether the arbiter has paused the clock.
    pub fn is_paused(&self) -> bool {
        self.paused_at.is_some()
    }

    /// One side's accounts (as of the start of the current turn).
    pub fn side(&self, color: Color) -> &Side {
        &self.sides[color.index()]
    }

    fn check_time(&mut self, now: u64) -> Result<(), ClockError> {
        if now < self.last_event {
            return Err(ClockError::TimeWentBack {
                now,
                last: self.last_event,
            });
        }
        self.last_event = now;
        Ok(())
    }

    fn period(&self, color: Color) -> Option<&Period> {
        let side = &self.sides[color.index()];
        self.control
            .periods
            .get(side.period)
            .or(self.control.periods.last())
    }

    /// Time the running side has been thinking on this turn.
    pub fn elapsed(&self, now: u64) -> u64 {
        if self.running.is_none() {
            return 0;
        }
        let end = self.paused_at.unwrap_or(now);
        end.saturating_sub(self.turn_started_at)
    }

    fn delay_of(&self, color: Color) -> Delay {
        self.period(color).map_or(Delay::None, |p| p.delay)
    }

    /// Time that would be charged to the running side if it pressed now.
    fn charge(&self, color: Color, now: u64) -> u64 {
        let elapsed = self.elapsed(now);
        elapsed.saturating_sub(self.delay_of(color).ms())
    }

    /// What `color`'s display shows at `now` (never negative).
    pub fn remaining(&self, color: Color, now: u64) -> u64 {
        let side = &self.sides[color.index()];
        if self.running != Some(color) {
            return side.remaining_ms;
        }
        let shown_used = match self.delay_of(color) {
            // Bronstein: the display runs at once; the delay comes back on the press.
            Delay::Bronstein(_) => self.elapsed(now),
            _ => self.charge(color, now),
        };
        side.remaining_ms.saturating_sub(shown_used)
    }

    /// Time left for the current move under a per-move limit, if there is one.
    pub fn move_time_left(&self, now: u64) -> Option<u64> {
        let limit = self.control.per_move_ms?;
        self.running
            .map(|_| limit.saturating_sub(self.elapsed(now)))
    }

    /// The side whose time has run out at `now`: the game clock (with a Bronstein
    /// delay the display reaching zero counts, as on a real clock) or the per-move
    /// limit. Only the running side's flag can fall.
    pub fn flag(&self, now: u64) -> Option<Color> {
        let color = self.running?;
        let side = &self.sides[color.index()];
        let elapsed = self.elapsed(now);
        let game_out = !self.control.periods.is_empty()
            && match self.delay_of(color) {
                Delay::Bronstein(_) => elapsed > side.remaining_ms,
                d => elapsed > side.remaining_ms + d.ms(),
            };
        let move_out = self
            .control
            .per_move_ms
            .is_some_and(|limit| elapsed > limit);
        (game_out || move_out).then_some(color)
    }

    /// The moment the running side's flag falls, if nothing happens before.
    pub fn flag_time(&self) -> Option<u64> {
        let color = self.running?;
        if self.paused_at.is_some() {
            return None;
        }
        let side = &self.sides[color.index()];
        let game = (!self.control.periods.is_empty()).then(|| {
            let allowance = match self.delay_of(color) {
                Delay::Bronstein(_) => side.remaining_ms,
                d => side.remaining_ms + d.ms(),
            };
            self.turn_started_at + allowance + 1
        });
        let per_move = self
            .control
            .per_move_ms
            .map(|l| self.turn_started_at + l + 1);
        match (game, per_move) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Starts `color`'s clock (the first move, or after an adjournment).
    pub fn start(&mut self, color: Color, now: u64) -> Result<(), ClockError> {
        self.check_time(now)?;
        self.running = Some(color);
        self.turn_started_at = now;
        self.paused_at = None;
        Ok(())
    }

    /// `color` completes a move and presses the clock: charge the time used, add the
    /// increment and any new period's time, and start the opponent's clock.
    pub fn press(&mut self, color: Color, now: u64) -> Result<(), ClockError> {
        self.press_compensated(color, now, 0)
    }

    /// [`Clock::press`], with `lag_ms` of the turn not charged: network lag credited
    /// by the arbiter from the player's bounded quota.
    pub fn press_compensated(
        &mut self,
        color: Color,
        now: u64,
        lag_ms: u64,
    ) -> Result<(), ClockError> {
        if self.running != Some(color) {
            return Err(ClockError::NotRunning(color.name()));
        }
        if self.paused_at.is_some() {
            return Err(ClockError::Paused);
        }
        self.check_time(now)?;
        let charged = self.charge(color, now).saturating_sub(lag_ms);
        let period = self.period(color).cloned();
        let periods = self.control.periods.clone();
        let side = &mut self.sides[color.index()];
        let charged = charged.min(side.remaining_ms);
        side.remaining_ms -= charged;
        side.used_ms += charged;
        side.moves += 1;
        if let Some(period) = period {
            if !side.berserk {
                side.remaining_ms += period.increment_ms;
                side.credited_ms += period.increment_ms;
            }
            // Moves needed to finish the current period, counted from the start.
            let needed: u32 = periods[..=side.period.min(periods.len() - 1)]
                .iter()
                .map(|p| p.moves.unwrap_or(u32::MAX))
                .fold(0u32, u32::saturating_add);
            if side.moves == needed && side.period + 1 < periods.len() {
                side.period += 1;
                let next = periods[side.period].base_ms;
                side.remaining_ms += next;
                side.credited_ms += next;
            }
        }
        self.running = Some(!color);
        self.turn_started_at = now;
        Ok(())
    }

    /// Moves taken back: `color` is to move again. The running side is charged the
    /// time it used (without increment), then `color`'s clock runs.
    pub fn hand_over(&mut self, color: Color, now: u64) {
        if let Some(running) = self.running {
            let charged = self.charge(running, now);
            let side = &mut self.sides[running.index()];
            let charged = charged.min(side.remaining_ms);
            side.remaining_ms -= charged;
            side.used_ms += charged;
            self.running = Some(color);
            self.turn_started_at = self.paused_at.unwrap_or(now);
        }
        self.last_event = self.last_event.max(now);
    }

    /// A move by `color` was taken back: it no longer counts towards a period's moves.
    pub fn retract_move(&mut self, color: Color) {
        let side = &mut self.sides[color.index()];
        side.moves = side.moves.saturating_sub(1);
    }

    /// Stops the clock for good (the game ended), charging the running side.
    pub fn stop(&mut self, now: u64) {
        if let Some(color) = self.running {
            let charged = self.charge(color, now);
            let side = &mut self.sides[color.index()];
            let charged = charged.min(side.remaining_ms);
            side.remaining_ms -= charged;
            side.used_ms += charged;
        }
        self.running = None;
        self.paused_at = None;
        self.last_event = self.last_event.max(now);
    }

    /// Pauses both clocks (Laws 6.11: only the arbiter, or a claimant calling one).
    pub fn pause(&mut self, now: u64) -> Result<(), ClockError> {
        self.check_time(now)?;
        if self.paused_at.is_none() {
            self.paused_at = Some(now);
        }
        Ok(())
    }

    /// Resumes after a pause; the paused time is not charged.
    pub fn resume(&mut self, now: u64) -> Result<(), ClockError> {
        self.check_time(now)?;
        if let Some(at) = self.paused_at.take() {
            self.turn_started_at += now - at;
        }
        Ok(())
    }

    /// Time `color` has used at `now`, counting the running turn (less its delay).
    pub fn used(&self, color: Color, now: u64) -> u64 {
        let side = &self.sides[color.index()];
        if self.running == Some(color) {
            side.used_ms + self.charge(color, now).min(side.remaining_ms)
        } else {
            side.used_ms
        }
    }

    /// What the running side's display would show if it could go below zero.
    fn signed_remaining(&self, color: Color, now: u64) -> i64 {
        let shown = self.sides[color.index()].remaining_ms as i64;
        if self.running != Some(color) {
            return shown;
        }
        let used = match self.delay_of(color) {
            Delay::Bronstein(_) => self.elapsed(now),
            _ => self.charge(color, now),
        };
        shown - used as i64
    }

    /// Adds (positive) or removes (negative) time on `color`'s clock at `now` (Laws
    /// 12.9, 7.5.5). At most what the display shows can be removed.
    pub fn adjust(&mut self, color: Color, delta_ms: i64, now: u64) {
        let shown = self.remaining(color, now);
        let side = &mut self.sides[color.index()];
        if delta_ms >= 0 {
            side.remaining_ms += delta_ms as u64;
            side.credited_ms += delta_ms as u64;
        } else {
            let take = delta_ms.unsigned_abs().min(shown);
            side.remaining_ms -= take;
            side.debited_ms += take;
        }
    }

    /// Sets what `color`'s display shows at `now` (the arbiter correcting a clock,
    /// Laws 6.10); the difference is booked as an adjustment. Time overrun on the
    /// current turn is counted, so the display then shows exactly `ms`.
    pub fn set_remaining(&mut self, color: Color, ms: u64, now: u64) {
        let actual = self.signed_remaining(color, now);
        let delta = ms as i64 - actual;
        self.adjust(color, delta, now);
    }

    /// The time a player gives up by going berserk (lichess's arena): half the
    /// base time, unless the base is less than 40 increments (then the base is
    /// kept: 1+2 becomes 1+0). `None` where berserk is not possible: no base time
    /// (0+1), or no clock.
    pub fn berserk_cut(&self) -> Option<u64> {
        let first = self.control.periods.first()?;
        if first.base_ms == 0 {
            return None;
        }
        if first.base_ms < first.increment_ms.saturating_mul(40) {
            Some(0)
        } else {
            Some(first.base_ms / 2)
        }
    }

    /// `color` goes berserk: the cut comes off the display and no increment is
    /// added from now on.
    pub fn berserk(&mut self, color: Color, now: u64) {
        let cut = self.berserk_cut().unwrap_or(0);
        let cut = i64::try_from(cut).unwrap_or(i64::MAX);
        self.adjust(color, -cut, now);
        self.sides[color.index()].berserk = true;
    }

    /// Adds an increment to every period from now on (Guidelines III.4).
    pub fn add_increment(&mut self, ms: u64) {
        for period in &mut self.control.periods {
            period.increment_ms += ms;
        }
    }
}
