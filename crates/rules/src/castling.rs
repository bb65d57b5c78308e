//! Castling sides and the two castling modes (standard and Chess960).

use crate::{Color, Square};

/// Which way a king castles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`).
    KingSide,
    /// Towards the a-file (`O-O-O`).
    QueenSide,
}

impl CastlingSide {
    /// The side of a rook on `rook` relative to a king on `king` (same rank).
    pub fn of(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }

    /// Where the king ends up (g- or c-file on its back rank; Laws 3.8.2, Guidelines II).
    pub fn king_to(self, color: Color) -> Square {
        Square::new_unchecked(color.fold(0, 56) + self.fold(6, 2))
    }

    /// Where the rook ends up (f- or d-file on its back rank).
    pub fn rook_to(self, color: Color) -> Square {
        Square::new_unchecked(color.fold(0, 56) + self.fold(5, 3))
    }

    fn fold<T>(self, king_side: T, queen_side: T) -> T {
        match self {
            CastlingSide::KingSide => king_side,
            CastlingSide::QueenSide => queen_side,
        }
    }

    /// `O-O` or `O-O-O`.
    pub fn san(self) -> &'static str {
        self.fold("O-O", "O-O-O")
    }
}

/// How castling is written and which starting squares are allowed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: king on e1/e8, rooks on the corners; UCI castling is `e1g1`.
    #[default]
    Standard,
    /// Chess960 (Fischer random): king between the rooks anywhere on the back rank;
    /// UCI castling is king-takes-rook (`e1h1`).
    Chess960,
}

impl CastlingMode {
    /// Whether this is Chess960.
    pub fn is_chess960(self) -> bool {
        self == CastlingMode::Chess960
    }
}
