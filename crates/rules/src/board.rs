//! Piece placement: which piece stands on which square.

use crate::attacks;
use crate::{Bitboard, Color, Piece, Role, Square};

/// Where the pieces stand, as one bitboard per role and one per colour.
///
/// A `Board` knows nothing about whose turn it is or about castling; see
/// [`Position`](crate::Position) for that.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Default for Board {
    fn default() -> Board {
        Board::standard()
    }
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// The initial placement of the pieces (Laws 2.3).
    pub const fn standard() -> Board {
        Board {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares holding pieces of `color`.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding pieces of `role`, of either colour.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares holding `piece`.
    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Bishops and queens (pieces that move diagonally).
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// Rooks and queens (pieces that move along ranks and files).
    #[inline(always)]
    pub fn straight_sliders(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// The square of `color`'s king, if there is exactly one.
    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).single_square()
    }

    /// The colour of the piece on `sq`, if any.
    #[inline(always)]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        let bb = Bitboard::from_square(sq);
        if (self.occupied() & bb).is_empty() {
            None
        } else if (self.by_role[0] & bb).is_nonempty() {
            Some(Role::Pawn)
        } else if (self.by_role[1] & bb).is_nonempty() {
            Some(Role::Knight)
        } else if (self.by_role[2] & bb).is_nonempty() {
            Some(Role::Bishop)
        } else if (self.by_role[3] & bb).is_nonempty() {
            Some(Role::Rook)
        } else if (self.by_role[4] & bb).is_nonempty() {
            Some(Role::Queen)
        } else {
            Some(Role::King)
        }
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
    }

    /// Removes `piece` from `sq`, where it must stand.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
    }

    /// Removes whatever stands on `sq`, returning it.
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.remove(sq, piece);
        Some(piece)
    }

    /// Pieces of `attacker` that attack `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color(attacker)
            & ((attacks::knight_attacks(sq) & self.by_role(Role::Knight))
                | (attacks::king_attacks(sq) & self.by_role(Role::King))
                | (attacks::pawn_attacks(!attacker, sq) & self.by_role(Role::Pawn))
                | (attacks::rook_attacks(sq, occupied) & self.straight_sliders())
                | (attacks::bishop_attacks(sq, occupied) & self.diagonal_sliders()))
    }

    /// Whether any piece of `attacker` attacks `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        let them = self.by_color(attacker);
        (attacks::knight_attacks(sq) & self.by_role(Role::Knight) & them).is_nonempty()
            || (attacks::pawn_attacks(!attacker, sq) & self.by_role(Role::Pawn) & them)
                .is_nonempty()
            || (attacks::king_attacks(sq) & self.by_role(Role::King) & them).is_nonempty()
            || (attacks::rook_attacks(sq, occupied) & self.straight_sliders() & them).is_nonempty()
            || (attacks::bishop_attacks(sq, occupied) & self.diagonal_sliders() & them)
                .is_nonempty()
    }
}
