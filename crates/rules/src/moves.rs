//! Moves and fixed-capacity move lists.

use core::fmt;
use core::ops::Deref;

use crate::{Role, Square};

/// A move, packed in 16 bits: origin, destination and kind.
///
/// Castling is stored as *king takes own rook* (origin = king, destination = rook),
/// which works for Chess960 as well as for standard chess; notation converts it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const NORMAL: u16 = 0;
const EN_PASSANT: u16 = 1;
const CASTLE: u16 = 2;
const PROMOTION: u16 = 4; // 4 + (role - knight): 4 knight .. 7 queen

impl Move {
    #[inline(always)]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12)
    }

    /// An ordinary move or capture (also a pawn's double step).
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, NORMAL)
    }

    /// A pawn move to the last rank, promoting to `role` (knight to queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::pack(from, to, PROMOTION + role as u16 - Role::Knight as u16)
    }

    /// An en-passant capture by the pawn on `from` moving to `to`.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, EN_PASSANT)
    }

    /// Castling with the king on `king` and the rook on `rook`.
    #[inline(always)]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, CASTLE)
    }

    /// The move's 16-bit code, for compact tables; [`Move::from_bits`] reads it back.
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// The move with this 16-bit code, if the code names a kind of move.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Option<Move> {
        match bits >> 12 {
            0 | 1 | 2 | 4..=7 => Some(Move(bits)),
            _ => None,
        }
    }

    /// Origin square (the king's square for castling).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new_unchecked((self.0 & 63) as u32)
    }

    /// Destination square (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new_unchecked((self.0 >> 6 & 63) as u32)
    }

    /// The promoted-to role, if this is a promotion.
    #[inline(always)]
    pub const fn promotion_role(self) -> Option<Role> {
        let kind = self.0 >> 12;
        if kind >= PROMOTION {
            Role::from_index((kind - PROMOTION) as usize + Role::Knight as usize)
        } else {
            None
        }
    }

    /// Whether this is a castling move.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == CASTLE
    }

    /// Whether this is an en-passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == EN_PASSANT
    }

    /// Whether this is a promotion.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 >> 12 >= PROMOTION
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "={}", role.upper_char())?;
        }
        if self.is_castle() {
            f.write_str("(castle)")?;
        }
        if self.is_en_passant() {
            f.write_str("(ep)")?;
        }
        Ok(())
    }
}

/// Enough room for the moves of any legal position (the known maximum is 218).
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack: no heap allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. Ignored if full, which no legal position can cause.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// Removes every move for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }

    /// The moves as a mutable slice (for sorting by a search).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
