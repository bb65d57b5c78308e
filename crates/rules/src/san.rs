//! Standard Algebraic Notation (Laws appendix C).
//!
//! **Writing** produces strict SAN: piece letter, the least disambiguation that makes
//! the move unique (file, else rank, else both), `x` for captures, `=Q` for
//! promotions, `O-O`/`O-O-O`, and `+` or `#`.
//!
//! **Reading** accepts strict SAN and the forms people type:
//! * castling with zeros or lower-case letters: `0-0`, `0-0-0`, `o-o`;
//! * promotions as `e8=Q`, `e8Q`, `e8q`, `e8(Q)`, `e8/Q`;
//! * an explicit pawn letter (`Pe4`), long algebraic (`e2-e4`, `e2e4`, `Ng1-f3`,
//!   `Bf1xb5`), `:` for captures;
//! * en passant marked `e.p.` or `ep` (`exd6 e.p.`);
//! * figurine pieces (`♘f3`, `♞f6`), and trailing `+`, `#`, `!`, `?`, `!!`, `?!`, ...;
//! * `--` for a null move (PGN); it is never legal in a position.
//!
//! A capture marker on a non-capture is tolerated. Ambiguous, illegal and malformed
//! input is an error that says why.

use core::fmt;

use crate::attacks;
use crate::explain;
use crate::movegen::PushMove;
use crate::{Bitboard, CastlingSide, File, Move, Position, Rank, Role, Square};

/// A move in SAN, parsed but not yet matched against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The moving piece.
        role: Role,
        /// Origin file given for disambiguation.
        file: Option<File>,
        /// Origin rank given for disambiguation.
        rank: Option<Rank>,
        /// Whether written as a capture.
        capture: bool,
        /// Destination.
        to: Square,
        /// Promotion role.
        promotion: Option<Role>,
    },
    /// Castling.
    Castle(CastlingSide),
    /// `--`, a null move.
    Null,
}

/// Why SAN could not be read or matched to a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not a move in any accepted form.
    Syntax {
        /// The text as given.
        san: String,
        /// What is wrong.
        why: String,
    },
    /// Well-formed, but no legal move matches.
    Illegal {
        /// The text as given.
        san: String,
        /// Why no move matches.
        why: String,
    },
    /// More than one legal move matches.
    Ambiguous {
        /// The text as given.
        san: String,
        /// The matching moves' origins, described ("knights on b1 and f3").
        why: String,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax { san, why } => write!(f, "{san:?} is not a move: {why}"),
            SanError::Illegal { san, why } => write!(f, "{san} is illegal: {why}"),
            SanError::Ambiguous { san, why } => write!(f, "{san} is ambiguous: {why}"),
        }
    }
}

impl std::error::Error for SanError {}

fn figurine(c: char) -> Option<Role> {
    match c {
        '♔' | '♚' => Some(Role::King),
        '♕' | '♛' => Some(Role::Queen),
        '♖' | '♜' => Some(Role::Rook),
        '♗' | '♝' => Some(Role::Bishop),
        '♘' | '♞' => Some(Role::Knight),
        '♙' | '♟' => Some(Role::Pawn),
        _ => None,
    }
}

fn plural(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawns",
        Role::Knight => "knights",
        Role::Bishop => "bishops",
        Role::Rook => "rooks",
        Role::Queen => "queens",
        Role::King => "kings",
    }
}

impl San {
    /// Parses SAN in any of the accepted forms (see the module docs).
    pub fn parse(text: &str) -> Result<San, SanError> {
        if text.is_ascii() {
            return San::parse_ascii_or_why(text.as_bytes()).map_err(|why| SanError::Syntax {
                san: text.to_string(),
                why,
            });
        }
        // Figurines and typographic marks: rewrite to ASCII first (rare, so allocating).
        let ascii: String = text
            .chars()
            .filter_map(|c| match c {
                '×' => Some('x'),
                '‼' | '⁇' | '⁉' | '⁈' | '†' | '‡' => None,
                c => Some(figurine(c).map_or(c, Role::upper_char)),
            })
            .collect();
        let syntax = |why: String| SanError::Syntax {
            san: text.to_string(),
            why,
        };
        if !ascii.is_ascii() {
            let c = ascii.chars().find(|c| !c.is_ascii()).unwrap_or('?');
            return Err(syntax(format!("unexpected {c:?}")));
        }
        San::parse_ascii_or_why(ascii.as_bytes()).map_err(syntax)
    }

    /// Parses ASCII SAN without allocating (except for the error).
    pub fn parse_ascii(text: &[u8]) -> Result<San, SanError> {
        San::parse_ascii_or_why(text).map_err(|why| SanError::Syntax {
            san: String::from_utf8_lossy(text).into_owned(),
            why,
        })
    }

    /// Parses ASCII SAN, or says what is wrong with it.
    fn parse_ascii_or_why(text: &[u8]) -> Result<San, String> {
        if let Some(san) = San::parse_common(text) {
            return Ok(san);
        }
        let mut s = text.trim_ascii();
        // Annotations, check and mate marks.
        while let [rest @ .., b'+' | b'#' | b'!' | b'?'] = s {
            s = rest;
        }
        // En-passant marks.
        for mark in [&b"e.p."[..], b"ep"] {
            if let Some(rest) = s.strip_suffix(mark) {
                if rest
                    .last()
                    .is_some_and(|c| c.is_ascii_digit() || *c == b' ')
                {
                    s = rest.trim_ascii_end();
                    break;
                }
            }
        }
        match s {
            b"" => return Err("empty move".into()),
            b"--" | b"Z0" => return Ok(San::Null),
            b"O-O" | b"0-0" | b"o-o" => return Ok(San::Castle(CastlingSide::KingSide)),
            b"O-O-O" | b"0-0-0" | b"o-o-o" => return Ok(San::Castle(CastlingSide::QueenSide)),
            _ => {}
        }
        let (role, mut i) = match s[0] {
            b'K' => (Role::King, 1),
            b'Q' => (Role::Queen, 1),
            b'R' => (Role::Rook, 1),
            b'B' => (Role::Bishop, 1),
            b'N' => (Role::Knight, 1),
            b'P' => (Role::Pawn, 1),
            _ => (Role::Pawn, 0),
        };
        let mut end = s.len();
        // Promotion: "=Q", "(Q)", "/Q" or a bare letter after the destination rank.
        let mut promotion = None;
        if s[end - 1] == b')' {
            if end < 3 || s[end - 3] != b'(' {
                return Err("unbalanced parenthesis".into());
            }
            promotion = Some(s[end - 2]);
            end -= 3;
        } else if !s[end - 1].is_ascii_digit() {
            promotion = Some(s[end - 1]);
            end -= 1;
            if end >= 1 && matches!(s[end - 1], b'=' | b'/') {
                end -= 1;
            }
        }
        let promotion = match promotion {
            None => None,
            Some(c) => match c.to_ascii_uppercase() {
                b'Q' => Some(Role::Queen),
                b'R' => Some(Role::Rook),
                b'B' => Some(Role::Bishop),
                b'N' => Some(Role::Knight),
                b'K' | b'P' => {
                    return Err("a pawn promotes only to a queen, rook, bishop or knight".into())
                }
                _ => {
                    return Err(format!(
                        "unexpected {:?} after the destination square",
                        c as char
                    ))
                }
            },
        };
        if promotion.is_some() && role != Role::Pawn {
            return Err("only a pawn can promote".into());
        }
        if end < i + 2 {
            return Err("no destination square".into());
        }
        let to = match (
            File::from_char(s[end - 2] as char),
            Rank::from_char(s[end - 1] as char),
        ) {
            (Some(f), Some(r)) => Square::from_coords(f, r),
            _ => return Err("no destination square".into()),
        };
        end -= 2;
        let mut capture = false;
        if end > i && matches!(s[end - 1], b'x' | b':' | b'-') {
            capture = s[end - 1] != b'-';
            end -= 1;
        }
        let (mut file, mut rank) = (None, None);
        while i < end {
            let c = s[i] as char;
            if let (Some(f), None, None) = (File::from_char(c), file, rank) {
                file = Some(f);
            } else if let (Some(r), None) = (Rank::from_char(c), rank) {
                rank = Some(r);
            } else {
                return Err(format!("unexpected {c:?}"));
            }
            i += 1;
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }

    /// The shapes most moves in real files have (`e4`, `Nf3`, `exd5`, `Nxe5`, `Rad1`,
    /// with `+` or `#`), read directly; anything else goes the general way.
    #[inline]
    fn parse_common(text: &[u8]) -> Option<San> {
        let body = match text {
            [rest @ .., b'+' | b'#'] => rest,
            _ => text,
        };
        let square = |f: u8, r: u8| {
            Some(Square::from_coords(
                File::from_char(f as char)?,
                Rank::from_char(r as char)?,
            ))
        };
        let piece = |c: u8| match c {
            b'N' => Some(Role::Knight),
            b'B' => Some(Role::Bishop),
            b'R' => Some(Role::Rook),
            b'Q' => Some(Role::Queen),
            b'K' => Some(Role::King),
            _ => None,
        };
        let normal = |role, file, rank, capture, to| San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: None,
        };
        match *body {
            [f, r] => Some(normal(Role::Pawn, None, None, false, square(f, r)?)),
            [p, f, r] => Some(normal(piece(p)?, None, None, false, square(f, r)?)),
            [p, b'x', f, r] if p.is_ascii_uppercase() => {
                Some(normal(piece(p)?, None, None, true, square(f, r)?))
            }
            [from, b'x', f, r] => Some(normal(
                Role::Pawn,
                Some(File::from_char(from as char)?),
                None,
                true,
                square(f, r)?,
            )),
            [p, d, f, r] if d.is_ascii_lowercase() => Some(normal(
                piece(p)?,
                Some(File::from_char(d as char)?),
                None,
                false,
                square(f, r)?,
            )),
            [p, d, f, r] => Some(normal(
                piece(p)?,
                None,
                Some(Rank::from_char(d as char)?),
                false,
                square(f, r)?,
            )),
            _ => None,
        }
    }

    /// The SAN of a legal move (without check or mate marks).
    pub fn from_move(pos: &Position, m: Move) -> San {
        if m.is_castle() {
            return San::Castle(CastlingSide::of(m.from(), m.to()));
        }
        let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
        let capture = m.is_en_passant() || pos.board().color_at(m.to()).is_some();
        let (mut file, mut rank) = (None, None);
        if role == Role::Pawn {
            if capture {
                file = Some(m.from().file());
            }
        } else if role != Role::King {
            let others = candidates(pos, role, m.to()).without(m.from());
            if others.is_nonempty() {
                let same_file = others & Bitboard::from_file(m.from().file());
                let same_rank = others & Bitboard::from_rank(m.from().rank());
                if same_file.is_empty() {
                    file = Some(m.from().file());
                } else if same_rank.is_empty() {
                    rank = Some(m.from().rank());
                } else {
                    file = Some(m.from().file());
                    rank = Some(m.from().rank());
                }
            }
        }
        San::Normal {
            role,
            file,
            rank,
            capture,
            to: m.to(),
            promotion: m.promotion_role(),
        }
    }

    /// The legal move of `pos` this SAN names.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let illegal = |why: String| SanError::Illegal {
            san: self.to_string(),
            why,
        };
        match *self {
            San::Null => Err(illegal("a null move is not a legal move".into())),
            San::Castle(side) => pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.is_castle() && CastlingSide::of(m.from(), m.to()) == side)
                .ok_or_else(|| illegal(explain::no_castling(pos, side))),
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                // Long algebraic without a piece letter (`g1f3`, `b1-a3`): the piece
                // on the origin square says what moves.
                let origin = file.zip(rank).map(|(f, r)| Square::from_coords(f, r));
                let role = match (role, origin) {
                    (Role::Pawn, Some(from)) if pos.board().color_at(from) == Some(pos.turn()) => {
                        pos.board().role_at(from).unwrap_or(Role::Pawn)
                    }
                    _ => role,
                };
                let mut found = Candidates::default();
                matching_moves(pos, role, to, file, rank, &mut found);
                if found.is_empty() && role == Role::King {
                    // Castling written as the king's move (`e1g1`, `Ke1-g1`) or as
                    // king takes rook (`e1h1`).
                    if let Some(m) = pos.legal_moves().iter().copied().find(|m| {
                        m.is_castle()
                            && origin.is_none_or(|from| from == m.from())
                            && (m.to() == to
                                || CastlingSide::of(m.from(), m.to()).king_to(pos.turn()) == to)
                    }) {
                        return Ok(m);
                    }
                }
                if found.first().is_some_and(|m| m.is_promotion()) {
                    let Some(promo) = promotion else {
                        return Err(illegal(format!(
                            "a pawn reaching {to} must promote (e.g. {to}=Q)"
                        )));
                    };
                    found.retain(|m| m.promotion_role() == Some(promo));
                } else if promotion.is_some() && !found.is_empty() {
                    return Err(illegal(if role == Role::Pawn {
                        format!(
                            "a pawn promotes only on reaching the {} rank",
                            pos.turn().fold("8th", "1st")
                        )
                    } else {
                        "only a pawn can promote".to_string()
                    }));
                }
                match found.len() {
                    1 => Ok(found[0]),
                    0 => Err(illegal(explain::no_move(pos, role, file, rank, to))),
                    _ => {
                        let squares: Vec<String> =
                            found.iter().map(|m| m.from().to_string()).collect();
                        let list = match squares.len() {
                            2 => format!("{} and {}", squares[0], squares[1]),
                            _ => squares.join(", "),
                        };
                        Err(SanError::Ambiguous {
                            san: self.to_string(),
                            why: format!("{} on {list} can reach {to}", plural(role)),
                        })
                    }
                }
            }
        }
    }
}

/// The few legal moves a SAN can match (one role to one square): at most 12
/// (three pawn moves, four promotions each), so a small stack buffer.
#[derive(Default)]
struct Candidates {
    moves: [Move; 16],
    len: usize,
}

impl PushMove for Candidates {
    #[inline(always)]
    fn push_move(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }
}

impl Candidates {
    fn retain(&mut self, keep: impl Fn(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl core::ops::Deref for Candidates {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// The legal moves (not castling) of the side to move's pieces of `role` to `to`,
/// from the given file and rank if any. Works backwards from `to`: only the pieces
/// that reach it are looked at, and each is checked by playing it out on bitboards.
fn matching_moves(
    pos: &Position,
    role: Role,
    to: Square,
    file: Option<File>,
    rank: Option<Rank>,
    found: &mut Candidates,
) {
    let us = pos.turn();
    let board = pos.board();
    if board.by_color(us).contains(to) {
        return;
    }
    let mut origins = board.by_piece(crate::Piece { color: us, role });
    if let Some(f) = file {
        origins &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        origins &= Bitboard::from_rank(r);
    }
    let occupied = board.occupied();
    let target = Bitboard::from_square(to);
    if role == Role::Pawn {
        let theirs = board.by_color(!us);
        let last_rank = Bitboard::relative_rank(us, 7).contains(to);
        let mut add = |from: Square, captured: Square, ep: bool| {
            if !pos.leaves_king_safe(from, to, captured) {
                return;
            }
            if ep {
                found.push_move(Move::en_passant(from, to));
            } else if last_rank {
                for promo in Role::PROMOTIONS {
                    found.push_move(Move::promotion(from, to, promo));
                }
            } else {
                found.push_move(Move::normal(from, to));
            }
        };
        if (theirs & target).is_nonempty() {
            for from in attacks::pawn_attacks(!us, to) & origins {
                add(from, to, false);
            }
        } else if pos.ep_square() == Some(to) {
            for from in attacks::pawn_attacks(!us, to) & origins {
                add(from, Square::from_coords(to.file(), from.rank()), true);
            }
        } else if (occupied & target).is_empty() {
            let back = |sq: Square| sq.offset(us.fold(-8, 8));
            if let Some(one) = back(to) {
                if origins.contains(one) {
                    add(one, to, false);
                } else if (occupied & Bitboard::from_square(one)).is_empty()
                    && Bitboard::relative_rank(us, 3).contains(to)
                {
                    if let Some(two) = back(one).filter(|&sq| origins.contains(sq)) {
                        add(two, to, false);
                    }
                }
            }
        }
        return;
    }
    // Sliders: look up the blocked attack set only if one of ours is on a line.
    let reach = match role {
        Role::Knight => attacks::knight_attacks(to),
        Role::King => attacks::king_attacks(to),
        Role::Bishop if (attacks::bishop_rays(to) & origins).is_empty() => return,
        Role::Rook if (attacks::rook_rays(to) & origins).is_empty() => return,
        Role::Bishop => attacks::bishop_attacks(to, occupied),
        Role::Rook => attacks::rook_attacks(to, occupied),
        _ => {
            let diagonal = if (attacks::bishop_rays(to) & origins).is_nonempty() {
                attacks::bishop_attacks(to, occupied)
            } else {
                Bitboard::EMPTY
            };
            let straight = if (attacks::rook_rays(to) & origins).is_nonempty() {
                attacks::rook_attacks(to, occupied)
            } else {
                Bitboard::EMPTY
            };
            diagonal | straight
        }
    };
    for from in reach & origins {
        if pos.leaves_king_safe(from, to, to) {
            found.push_move(Move::normal(from, to));
        }
    }
}

/// Pieces of the side to move with `role` that can legally move to `to`.
fn candidates(pos: &Position, role: Role, to: Square) -> Bitboard {
    let mut found = Candidates::default();
    matching_moves(pos, role, to, None, None, &mut found);
    found.iter().map(|m| m.from()).collect()
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Null => f.write_str("--"),
            San::Castle(side) => f.write_str(side.san()),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{}", file.char())?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", rank.char())?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(role) = promotion {
                    write!(f, "={}", role.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

/// SAN with its check (`+`) or mate (`#`) mark.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// Whether it gives check.
    pub check: bool,
    /// Whether it gives checkmate.
    pub mate: bool,
}

impl SanPlus {
    /// The SAN of a legal move with its suffix; plays it on a copy to see the check.
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        let mut after = *pos;
        after.play_unchecked(m);
        let check = after.is_check();
        SanPlus {
            san,
            check,
            mate: check && !after.has_legal_moves(),
        }
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.san)?;
        if self.mate {
            f.write_str("#")
        } else if self.check {
            f.write_str("+")
        } else {
            Ok(())
        }
    }
}

impl Position {
    /// A legal move of this position in SAN, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        SanPlus::from_move(self, m).to_string()
    }

    /// Reads SAN (strict or lenient, see [`crate::san`]) and finds the legal move.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        San::parse(text)?.to_move(self).map_err(|e| match e {
            SanError::Illegal { why, .. } => SanError::Illegal {
                san: text.trim().to_string(),
                why,
            },
            SanError::Ambiguous { why, .. } => SanError::Ambiguous {
                san: text.trim().to_string(),
                why,
            },
            other => other,
        })
    }
}
