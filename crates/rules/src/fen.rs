//! Forsyth–Edwards Notation.
//!
//! Reading accepts the six standard fields, or the first four (the clocks then default
//! to `0 1`). The castling field may be standard (`KQkq`), X-FEN (`K`/`Q` for the
//! outermost rook on that side) or Shredder-FEN (rook files, `HAha`). With
//! [`parse`] the castling mode is detected: any right whose king or rook is not
//! on its standard square makes the position Chess960.
//!
//! Writing emits all six fields; castling as `KQkq` in standard chess and X-FEN in
//! Chess960 (a file letter only where `K`/`Q` would be ambiguous); the en-passant square
//! only when an en-passant capture is legal (as python-chess and lichess do).

use core::fmt;

use crate::{
    Bitboard, Board, CastlingMode, CastlingSide, Color, Piece, Position, PositionError, Role,
    Setup, Square,
};

/// The FEN of the initial position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 or 6 space-separated fields.
    FieldCount(usize),
    /// The piece placement field is malformed.
    Placement(String),
    /// The side-to-move field is not `w` or `b`.
    Turn(String),
    /// The castling field is malformed or names a right no rook can have.
    Castling(String),
    /// The en-passant field is not `-` or a square.
    EnPassant(String),
    /// The half-move clock or move number is not a valid number.
    Clocks(String),
    /// The fields parse but describe an illegal position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(
                f,
                "invalid FEN: expected 6 fields (or 4 without clocks), found {n}"
            ),
            FenError::Placement(why) => write!(f, "invalid FEN piece placement: {why}"),
            FenError::Turn(s) => write!(f, "invalid FEN side to move {s:?}: expected w or b"),
            FenError::Castling(why) => write!(f, "invalid FEN castling field: {why}"),
            FenError::EnPassant(s) => {
                write!(
                    f,
                    "invalid FEN en-passant field {s:?}: expected - or a square"
                )
            }
            FenError::Clocks(why) => write!(f, "invalid FEN clocks: {why}"),
            FenError::Position(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Parses a FEN into a legal position, detecting Chess960 from the castling rights.
pub fn parse(fen: &str) -> Result<Position, FenError> {
    let setup = parse_setup(fen)?;
    let mode = detect_mode(&setup);
    Ok(Position::from_setup(setup, mode)?)
}

/// Parses a FEN into a legal position in the given castling mode.
pub fn parse_with_mode(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
    Ok(Position::from_setup(parse_setup(fen)?, mode)?)
}

/// Chess960 if any castling right is not the standard king-and-corner-rook one.
pub fn detect_mode(setup: &Setup) -> CastlingMode {
    let standard = setup.castling_rights.into_iter().all(|rook| {
        let Some(color) = setup.board.color_at(rook) else {
            return true;
        };
        setup.board.king_of(color) == Some(Square::E1.flip_if(color))
            && (rook == Square::A1.flip_if(color) || rook == Square::H1.flip_if(color))
    });
    if standard {
        CastlingMode::Standard
    } else {
        CastlingMode::Chess960
    }
}

/// Parses the fields of a FEN without checking that the position is legal
/// (castling letters are resolved to rook squares, which needs the placement).
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.len() != 6 && fields.len() != 4 {
        return Err(FenError::FieldCount(fields.len()));
    }
    let board = parse_placement(fields[0])?;
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::Turn(other.to_string())),
    };
    let castling_rights = parse_castling(fields[2], &board)?;
    let ep_square = match fields[3] {
        "-" => None,
        s => Some(Square::parse(s).ok_or_else(|| FenError::EnPassant(s.to_string()))?),
    };
    let (halfmoves, fullmoves) = if fields.len() == 6 {
        let half = fields[4].parse::<u32>().map_err(|_| {
            FenError::Clocks(format!(
                "half-move clock {:?} is not a non-negative integer",
                fields[4]
            ))
        })?;
        let full = fields[5]
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| {
                FenError::Clocks(format!(
                    "move number {:?} is not a positive integer",
                    fields[5]
                ))
            })?;
        (half, full)
    } else {
        (0, 1)
    };
    Ok(Setup {
        board,
        turn,
        castling_rights,
        ep_square,
        halfmoves,
        fullmoves,
    })
}

fn parse_placement(field: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Placement(format!(
            "expected 8 ranks separated by '/', found {}",
            ranks.len()
        )));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d;
            } else if let Some(piece) = Piece::from_fen_char(c) {
                if file < 8 {
                    board.put(Square::new_unchecked(rank * 8 + file), piece);
                }
                file += 1;
            } else {
                return Err(FenError::Placement(format!(
                    "unexpected character {c:?} in rank {}",
                    rank + 1
                )));
            }
            if file > 8 {
                return Err(FenError::Placement(format!(
                    "rank {} ({text:?}) has more than 8 squares",
                    rank + 1
                )));
            }
        }
        if file != 8 {
            return Err(FenError::Placement(format!(
                "rank {} ({text:?}) has {file} squares instead of 8",
                rank + 1
            )));
        }
    }
    Ok(board)
}

fn parse_castling(field: &str, board: &Board) -> Result<Bitboard, FenError> {
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rights = Bitboard::EMPTY;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let backrank = Bitboard::backrank(color);
        let rooks = board.by_piece(Piece {
            color,
            role: Role::Rook,
        }) & backrank;
        let king = board
            .king_of(color)
            .filter(|&k| backrank.contains(k))
            .ok_or_else(|| {
                FenError::Castling(format!(
                    "{c:?} needs the {} king on its first rank",
                    color.name()
                ))
            })?;
        let rook = match c.to_ascii_lowercase() {
            'k' => rooks.filter(|r| r.file() > king.file()).last(),
            'q' => rooks.into_iter().find(|r| r.file() < king.file()),
            'a'..='h' => {
                let file = crate::File::from_char(c.to_ascii_lowercase()).expect("a-h");
                rooks.into_iter().find(|r| r.file() == file)
            }
            _ => {
                return Err(FenError::Castling(format!(
                    "unexpected character {c:?} in {field:?}"
                )))
            }
        };
        let rook = rook.ok_or_else(|| {
            FenError::Castling(format!(
                "{c:?}: no {} rook on its first rank where that right needs one",
                color.name()
            ))
        })?;
        if rights.contains(rook) {
            return Err(FenError::Castling(format!(
                "{c:?} repeats a right in {field:?}"
            )));
        }
        rights = rights.with(rook);
    }
    Ok(rights)
}

/// Writes the FEN of a position (all six fields).
pub fn write(pos: &Position) -> String {
    let mut out = String::with_capacity(90);
    write_placement(pos.board(), &mut out);
    out.push(' ');
    out.push(pos.turn().fen_char());
    out.push(' ');
    write_castling(pos, &mut out);
    out.push(' ');
    match pos.ep_square() {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", pos.halfmoves(), pos.fullmoves()));
    out
}

/// Writes only the piece placement field.
pub fn write_placement(board: &Board, out: &mut String) {
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board.piece_at(Square::new_unchecked(rank * 8 + file)) {
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from_digit(empty, 10).unwrap_or('?'));
                        empty = 0;
                    }
                    out.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from_digit(empty, 10).unwrap_or('?'));
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

fn write_castling(pos: &Position, out: &mut String) {
    let start = out.len();
    for color in Color::ALL {
        let king = pos.king(color);
        let rooks = pos.board().by_piece(Piece {
            color,
            role: Role::Rook,
        }) & Bitboard::backrank(color);
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let Some(rook) = pos.castling_rook(color, side) else {
                continue;
            };
            let outermost = match side {
                CastlingSide::KingSide => rooks.filter(|r| r.file() > king.file()).last(),
                CastlingSide::QueenSide => rooks.into_iter().find(|r| r.file() < king.file()),
            };
            let letter = if pos.castling_mode() == CastlingMode::Standard || outermost == Some(rook)
            {
                match side {
                    CastlingSide::KingSide => 'k',
                    CastlingSide::QueenSide => 'q',
                }
            } else {
                rook.file().char()
            };
            out.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    if out.len() == start {
        out.push('-');
    }
}

impl Position {
    /// Parses a FEN (see [`parse`]).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse(fen)
    }

    /// The position's FEN (see [`write`]).
    pub fn fen(&self) -> String {
        write(self)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self))
    }
}
