//! Mating material: whether a side can still checkmate at all.
//!
//! The Laws call a position *dead* when neither side can checkmate by any series of
//! legal moves (5.2.2), and a flag fall is only a loss when the opponent could still
//! mate (6.9). These queries recognise the material configurations where mate is
//! impossible, with the same verdicts as python-chess and lichess:
//!
//! * a lone king never mates;
//! * a king and a single knight mate only with help from an opponent's piece that can
//!   block a flight square without being able to take the knight — a pawn, knight,
//!   bishop or rook, not a queen;
//! * kings and bishops alone (no pawns or knights anywhere) cannot mate when every
//!   bishop on the board stands on squares of one colour.

use crate::{Bitboard, Color, Position, Role};

impl Position {
    /// Whether `color` has too little material to ever checkmate (it may still be
    /// checkmated itself). Used for flag falls: a side that cannot mate does not win
    /// on time (Laws 6.9).
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let board = self.board();
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        let majors_or_pawns =
            board.by_role(Role::Pawn) | board.by_role(Role::Rook) | board.by_role(Role::Queen);
        if (ours & majors_or_pawns).is_nonempty() {
            return false;
        }
        if (ours & board.by_role(Role::Knight)).is_nonempty() {
            return ours.count() <= 2
                && (theirs & !board.by_role(Role::King) & !board.by_role(Role::Queen)).is_empty();
        }
        if (ours & board.by_role(Role::Bishop)).is_nonempty() {
            let bishops = board.by_role(Role::Bishop);
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour
                && (board.by_role(Role::Pawn) | board.by_role(Role::Knight)).is_empty();
        }
        true
    }

    /// Neither side has the material to checkmate: the dead positions that material
    /// alone proves (the rest take [`Position::is_dead_position`]'s search).
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }
}
