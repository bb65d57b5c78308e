//! The sealed-move envelope of an adjourned game (Guidelines I.2; seed L13–L14).

use caissa_rules::Color;
use serde::{Deserialize, Serialize};

/// What the envelope holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The position immediately before the sealed move (FEN).
    pub fen: String,
    /// Time used by each player, ms (White first).
    pub time_used_ms: [u64; 2],
    /// Time left on each clock, ms (White first).
    pub time_left_ms: [u64; 2],
    /// Who sealed.
    pub sealer: Color,
    /// The number of the sealed move.
    pub move_number: u32,
    /// The sealed move as written (kept secret until the game resumes).
    pub sealed_move: String,
    /// A draw offer still open, and by whom.
    pub open_draw_offer: Option<Color>,
}
