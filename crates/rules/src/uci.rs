//! UCI move notation: `e2e4`, `e7e8q`, `0000` for the null move.
//!
//! Castling is written as the king's two-square step (`e1g1`) in standard chess and as
//! king-takes-rook (`e1h1`) in Chess960. Reading accepts both forms in standard chess.

use core::fmt;

use crate::{CastlingMode, CastlingSide, Move, Position, Role, Square};

/// A move in UCI notation, not yet checked against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// Origin, destination, optional promotion role.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Promotion role, if any.
        promotion: Option<Role>,
    },
    /// `0000`: passing (used by some GUIs; never legal in a game).
    Null,
}

/// Why a UCI move could not be read or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// Not of the form `e2e4`, `e7e8q` or `0000`.
    Syntax(String),
    /// Well-formed but not legal in the position.
    Illegal(String),
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Syntax(s) => {
                write!(f, "{s:?} is not a UCI move (expected e.g. e2e4 or e7e8q)")
            }
            UciError::Illegal(s) => write!(f, "{s} is not a legal move in this position"),
        }
    }
}

impl std::error::Error for UciError {}

impl UciMove {
    /// Parses `e2e4`, `e7e8q` or `0000`.
    pub fn parse(s: &str) -> Result<UciMove, UciError> {
        if s == "0000" {
            return Ok(UciMove::Null);
        }
        let err = || UciError::Syntax(s.to_string());
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(err());
        }
        let from = Square::parse(&s[0..2]).ok_or_else(err)?;
        let to = Square::parse(&s[2..4]).ok_or_else(err)?;
        let promotion = match s[4..].chars().next() {
            None => None,
            Some(c) => match Role::from_char(c) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                    if c.is_ascii_lowercase() =>
                {
                    Some(r)
                }
                _ => return Err(err()),
            },
        };
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }

    /// The notation for a move of `pos`.
    pub fn from_move(pos: &Position, m: Move) -> UciMove {
        let to = if m.is_castle() && pos.castling_mode() == CastlingMode::Standard {
            CastlingSide::of(m.from(), m.to()).king_to(pos.turn())
        } else {
            m.to()
        };
        UciMove::Normal {
            from: m.from(),
            to,
            promotion: m.promotion_role(),
        }
    }

    /// The legal move of `pos` this notation names.
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciError> {
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = *self
        else {
            return Err(UciError::Illegal(self.to_string()));
        };
        pos.legal_moves()
            .iter()
            .copied()
            .find(|&m| {
                if m.from() != from || m.promotion_role() != promotion {
                    return false;
                }
                if m.is_castle() {
                    let king_to = CastlingSide::of(m.from(), m.to()).king_to(pos.turn());
                    m.to() == to || (pos.castling_mode() == CastlingMode::Standard && king_to == to)
                } else {
                    m.to() == to
                }
            })
            .ok_or_else(|| UciError::Illegal(self.to_string()))
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(role) = promotion {
                    write!(f, "{}", role.char())?;
                }
                Ok(())
            }
        }
    }
}

impl Position {
    /// A legal move of this position written in UCI notation.
    pub fn to_uci(&self, m: Move) -> String {
        UciMove::from_move(self, m).to_string()
    }

    /// Reads a UCI move and checks that it is legal here.
    pub fn parse_uci(&self, s: &str) -> Result<Move, UciError> {
        UciMove::parse(s)?.to_move(self)
    }
}
