//! One training position in 32 bytes: where the pieces stand, whose turn it is,
//! the search's score and the game's result.
//!
//! Layout (little-endian): occupancy `u64`; one nibble per occupied square in
//! square order (`colour << 3 | role`, 16 bytes); the score in centipawns from
//! White's side `i16`; the result `u8` (0 Black won, 1 draw, 2 White won); the
//! side to move `u8` (0 White, 1 Black); the full-move number `u16`; the
//! half-move clock `u8`; one spare byte. Castling rights and the en-passant
//! square are not kept: the network does not see them.

use caissa_rules::{Bitboard, Board, Color, Piece, Position, Role, Setup};

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// A game's result from White's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black won.
    BlackWins = 0,
    /// Drawn.
    Draw = 1,
    /// White won.
    WhiteWins = 2,
}

impl Outcome {
    /// The result as White's score: 0, ½ or 1.
    pub fn white_score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}

/// A labelled position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Where the pieces stand.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The search's score in centipawns, from White's side.
    pub white_cp: i16,
    /// How the game ended.
    pub outcome: Outcome,
    /// The full-move number.
    pub fullmoves: u16,
    /// The half-move clock.
    pub halfmoves: u8,
}

/// Why bytes are not a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 pieces, a nibble naming no piece, a bad result or side byte.
    Corrupt(&'static str),
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::Corrupt(why) => write!(f, "corrupt record: {why}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The record of `pos` with White's score and the game's outcome.
    pub fn new(pos: &Position, white_cp: i16, outcome: Outcome) -> Record {
        Record {
            board: *pos.board(),
            turn: pos.turn(),
            white_cp,
            outcome,
            fullmoves: pos.fullmoves().min(u32::from(u16::MAX)) as u16,
            halfmoves: pos.halfmoves().min(255) as u8,
        }
    }

    /// The 32 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        let occ = self.board.occupied();
        out[..8].copy_from_slice(&occ.0.to_le_bytes());
        for (i, sq) in occ.take(32).enumerate() {
            let nibble = self
                .board
                .piece_at(sq)
                .map_or(0, |p| (p.color.index() as u8) << 3 | p.role.index() as u8);
            out[8 + i / 2] |= nibble << (4 * (i % 2));
        }
        out[24..26].copy_from_slice(&self.white_cp.to_le_bytes());
        out[26] = self.outcome as u8;
        out[27] = self.turn.index() as u8;
        out[28..30].copy_from_slice(&self.fullmoves.to_le_bytes());
        out[30] = self.halfmoves;
        out
    }

    /// Reads 32 bytes back.
    pub fn from_bytes(bytes: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
        let occ = Bitboard(u64::from_le_bytes(
            bytes[..8].try_into().unwrap_or_default(),
        ));
        if occ.count() > 32 {
            return Err(RecordError::Corrupt("more than 32 pieces"));
        }
        let mut board = Board::empty();
        for (i, sq) in occ.enumerate() {
            let nibble = (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xf;
            let role = Role::from_index(usize::from(nibble & 7))
                .ok_or(RecordError::Corrupt("a nibble names no piece"))?;
            let color = if nibble & 8 == 0 {
                Color::White
            } else {
                Color::Black
            };
            board.put(sq, Piece { color, role });
        }
        let outcome = match bytes[26] {
            0 => Outcome::BlackWins,
            1 => Outcome::Draw,
            2 => Outcome::WhiteWins,
            _ => return Err(RecordError::Corrupt("the result byte is not 0, 1 or 2")),
        };
        let turn = match bytes[27] {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(RecordError::Corrupt("the side-to-move byte is not 0 or 1")),
        };
        Ok(Record {
            board,
            turn,
            white_cp: i16::from_le_bytes([bytes[24], bytes[25]]),
            outcome,
            fullmoves: u16::from_le_bytes([bytes[28], bytes[29]]),
            halfmoves: bytes[30],
        })
    }

    /// The same position reflected left to right (files a and h exchanged). Without
    /// castling rights, which records do not keep, chess is the same game on it.
    pub fn mirrored(&self) -> Record {
        let mut board = Board::empty();
        for sq in self.board.occupied() {
            if let Some(piece) = self.board.piece_at(sq) {
                if let Some(to) = caissa_rules::Square::new(sq.index() as u32 ^ 7) {
                    board.put(to, piece);
                }
            }
        }
        Record { board, ..*self }
    }

    /// The position (no castling rights, no en-passant square), if legal.
    pub fn position(&self) -> Option<Position> {
        let setup = Setup {
            board: self.board,
            turn: self.turn,
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: u32::from(self.halfmoves),
            fullmoves: u32::from(self.fullmoves.max(1)),
        };
        Position::from_setup(setup, caissa_rules::CastlingMode::Standard).ok()
    }

    /// The text form `FEN | score | result` (score from White's side, result 1.0,
    /// 0.5 or 0.0), as other trainers read it.
    pub fn to_text(&self) -> String {
        let fen = self
            .position()
            .map_or_else(|| "(illegal position)".to_string(), |p| p.fen());
        let result = match self.outcome {
            Outcome::WhiteWins => "1.0",
            Outcome::Draw => "0.5",
            Outcome::BlackWins => "0.0",
        };
        format!("{fen} | {} | {result}", self.white_cp)
    }
}
