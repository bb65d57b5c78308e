//! Acting: what the passage of time does (`tick`: a flag falls, an adjourned game
//! resumes) and what a player does (`act`), each checked against the Laws and the
//! ruleset and turned into events.

use caissa_rules::san::{San, SanError};
use caissa_rules::uci::{UciError, UciMove};
use caissa_rules::{Color, Move, Termination as RulesTermination};

use super::{not_allowed, Action, ActionError, Game};
use crate::clock::ClockError;
use crate::envelope::Envelope;
use crate::event::{ClaimKind, Event, EventKind};
use crate::outcome::{Finish, GameResult, Termination};
use crate::ruleset::{FlagDraw, IllegalMoves, WrongClaim};

impl Game {
    pub(super) fn last_event_at(&self) -> u64 {
        self.events.last().map_or(0, |e| e.at)
    }

    pub(super) fn emit(&mut self, at: u64, kind: EventKind) -> Result<(), ActionError> {
        let event = Event { at, kind };
        self.apply(&event).map_err(ActionError::NotAllowed)?;
        self.events.push(event);
        Ok(())
    }

    pub(super) fn end(
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

    pub(super) fn require_playing(&self) -> Result<(), ActionError> {
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
    pub(super) fn read_move(&self, text: &str) -> Result<Move, ActionError> {
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

    pub(super) fn play(
        &mut self,
        by: Color,
        m: Move,
        lag_ms: u64,
        now: u64,
    ) -> Result<(), ActionError> {
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
}
