//! Events: every change to a game, in order. Replaying them rebuilds the game
//! exactly; the server stores them.

use caissa_rules::Color;
use serde::{Deserialize, Serialize};

use crate::envelope::Envelope;
use crate::outcome::Finish;

/// A draw claim under 9.2 or 9.3.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    /// Threefold repetition (9.2).
    ThreefoldRepetition,
    /// Fifty moves without pawn move or capture (9.3).
    FiftyMoves,
}

/// Something that happened in a game, at a time in ms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// When, in ms (the caller's clock).
    pub at: u64,
    /// What.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// The game started (the moment the default time counts from, 6.7).
    Started,
    /// A clock started running for `color` (the game start, or the first moves online).
    ClockStarted {
        /// Whose clock.
        color: Color,
    },
    /// A move was made and, if the clock runs, the clock pressed.
    Moved {
        /// Who moved.
        color: Color,
        /// The move in UCI.
        uci: String,
        /// The move in SAN, as written for the record.
        san: String,
        /// Network lag credited to the mover from their quota, ms (online play).
        #[serde(default, skip_serializing_if = "is_zero")]
        lag_ms: u64,
    },
    /// A completed illegal move was corrected (7.5): the position stays, the count grows.
    IllegalMove {
        /// Who made it.
        color: Color,
        /// What was attempted.
        attempt: String,
    },
    /// A draw offer.
    DrawOffered {
        /// The offering player.
        by: Color,
    },
    /// A pending draw offer was declined (explicitly, or by moving).
    DrawDeclined {
        /// The declining player.
        by: Color,
    },
    /// A player asks to take back moves (by agreement, where the ruleset allows it).
    TakebackProposed {
        /// The proposer.
        by: Color,
    },
    /// A takeback proposal was declined, or withdrawn by its proposer.
    TakebackDeclined {
        /// Who declined or withdrew.
        by: Color,
    },
    /// The last `plies` half-moves were taken back; the proposer is to move.
    TakenBack {
        /// How many half-moves (1 or 2).
        plies: u32,
    },
    /// An incorrect draw claim; play goes on.
    ClaimRejected {
        /// The claimant.
        by: Color,
        /// What was claimed.
        claim: ClaimKind,
    },
    /// Time added (positive) or removed (negative) on a clock.
    ClockAdjusted {
        /// Whose clock.
        color: Color,
        /// The change in ms.
        delta_ms: i64,
        /// Why, in words.
        reason: String,
    },
    /// The arbiter set a clock's display.
    ClockSet {
        /// Whose clock.
        color: Color,
        /// The new display, ms.
        ms: u64,
    },
    /// The arbiter paused the clocks.
    Paused,
    /// The arbiter resumed the clocks.
    Resumed,
    /// The arbiter warned a player.
    Warned {
        /// Who.
        color: Color,
        /// For what.
        reason: String,
    },
    /// A player under two minutes asked for a 5-second increment (Guidelines III.4).
    IncrementRequested {
        /// Who asked.
        by: Color,
    },
    /// Both players get this increment from now on (Guidelines III.4).
    IncrementAdded {
        /// The increment, ms.
        ms: u64,
    },
    /// A player under two minutes claimed the opponent cannot win by normal means
    /// (Guidelines III.5); the arbiter decides.
    NoProgressClaimed {
        /// The claimant.
        by: Color,
    },
    /// The arbiter rejected a "no progress" claim (Guidelines III.5.3).
    NoProgressClaimRejected {
        /// The claimant.
        by: Color,
    },
    /// The game was adjourned with a sealed move (Guidelines I).
    Adjourned {
        /// The envelope.
        envelope: Envelope,
    },
    /// The arbiter adjourned the game: the player to move must now seal a move
    /// (Guidelines I.1.1); the clock runs until then.
    AdjournmentCalled,
    /// A player proposes a time to resume an adjourned game (ms).
    ResumptionProposed {
        /// Who proposes.
        by: Color,
        /// When, ms.
        at: u64,
    },
    /// The adjourned game resumes at this time (ms), set by the arbiter or agreed
    /// by both players.
    ResumptionScheduled {
        /// When, ms.
        at: u64,
    },
    /// An arbiter acted on the game (Laws 12); the events it caused follow.
    Arbitrated {
        /// The arbiter's name.
        arbiter: String,
        /// What was done, in words.
        action: String,
        /// Why, as the arbiter said.
        reason: String,
    },
    /// An adjourned game resumed; the sealed move follows as a `Moved` event (or the
    /// game ends if it is invalid).
    ResumedFromAdjournment,
    /// A player went berserk (an arena's game): half the base time off their
    /// clock, no increment from now on.
    Berserked {
        /// Who.
        color: Color,
    },
    /// The game ended.
    Ended {
        /// Result and reason.
        finish: Finish,
    },
}

fn is_zero(ms: &u64) -> bool {
    *ms == 0
}
