//! A validated position: placement, side to move, castling rights, en passant,
//! clocks, and the cached check and pin information the move generator needs.

use crate::attacks;
use crate::zobrist;
use crate::{Bitboard, Board, CastlingMode, CastlingSide, Color, Move, Piece, Role, Square};

/// Everything a FEN describes, not yet checked for legality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// Rooks that keep a castling right, both colours.
    pub castling_rights: Bitboard,
    /// The square a pawn skipped with a double step on the last move, if any.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move (Laws 9.3).
    pub halfmoves: u32,
    /// Move number, starting at 1 and incremented after Black's move.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling_rights: Bitboard::CORNERS,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

/// Why a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king, or more than one.
    KingCount {
        /// The side with the wrong number of kings.
        color: Color,
        /// How many it has.
        count: u32,
    },
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// A side has more than 16 pieces or more than 8 pawns.
    TooManyPieces(Color),
    /// The side that is not to move is in check.
    OppositeCheck,
    /// The side to move is attacked by more than two pieces.
    TooManyCheckers(u32),
    /// A castling right without the king and the rook on their original squares.
    BadCastlingRights(Square),
    /// Chess960 castling rights no starting position could leave: both sides
    /// keep rights, but their kings (or the rooks of one wing) stand on different
    /// files, while every Chess960 start mirrors White's back rank for Black.
    UnmirroredCastling {
        /// The king or the rook.
        role: Role,
        /// Where White's stands.
        white: Square,
        /// Where Black's stands.
        black: Square,
    },
    /// An en-passant square no double step could have left.
    BadEnPassant(Square),
    /// The half-move clock or the move number cannot be right.
    BadClocks(&'static str),
}

impl core::fmt::Display for PositionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PositionError::KingCount { color, count } => {
                write!(f, "{color} has {count} kings, must have exactly one", color = color.name())
            }
            PositionError::PawnOnBackRank(sq) => {
                write!(f, "pawn on {sq}: pawns cannot stand on the first or eighth rank")
            }
            PositionError::TooManyPieces(c) => {
                write!(f, "{} has more than 16 pieces or more than 8 pawns", c.name())
            }
            PositionError::OppositeCheck => {
                f.write_str("the side not to move is in check")
            }
            PositionError::TooManyCheckers(n) => {
                write!(f, "the king is attacked by {n} pieces; at most two can give check")
            }
            PositionError::BadCastlingRights(sq) => write!(
                f,
                "castling right with the rook on {sq}, but the king and rook are not on their original squares"
            ),
            PositionError::UnmirroredCastling { role, white, black } => write!(
                f,
                "castling rights no Chess960 start could leave: the white {role} on {white} and the black {role} on {black} both keep rights, but every start has them on the same file",
                role = role.name()
            ),
            PositionError::BadEnPassant(sq) => write!(
                f,
                "en-passant square {sq} is impossible: no pawn can just have double-stepped over it"
            ),
            PositionError::BadClocks(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for PositionError {}

/// A legal chess position.
///
/// Build one with [`Position::new`] (the initial position), [`Position::from_setup`]
/// or by parsing a FEN ([`crate::fen`]). Moves are played with [`Position::play`]
/// (checked) or [`Position::play_unchecked`] (for moves from the generator).
#[derive(Copy, Clone, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: Bitboard,
    /// Only set when an en-passant capture is actually legal.
    pub(crate) ep_square: Option<Square>,
    /// The square the last move's double step skipped next to an enemy pawn, kept
    /// even when capturing en passant would expose the king: only to say so when
    /// asked why the capture is illegal. Not part of the position's identity (Laws
    /// 9.2.3 go by `ep_square`).
    pub(crate) double_step: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
    pub(crate) mode: CastlingMode,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl PartialEq for Position {
    /// Positions are equal when they have the same placement, side to move, castling
    /// rights, legal en-passant square and clocks.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl Eq for Position {}

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

impl core::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?} is not a legal move", self.0)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// The initial position of standard chess.
    pub fn new() -> Position {
        Position::from_setup(Setup::default(), CastlingMode::Standard)
            .expect("the initial position is legal")
    }

    /// Validates a setup, naming the first defect found.
    ///
    /// In [`CastlingMode::Standard`] castling rights need the king on e1/e8 and the rook
    /// in the corner; in Chess960 the king anywhere on its back rank between... any
    /// rook on the same rank. An en-passant square that is possible but allows no legal
    /// capture is accepted and dropped, as it does not change the position (Laws 9.2.3).
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let board = setup.board;
        for color in Color::ALL {
            let kings = (board.by_role(Role::King) & board.by_color(color)).count();
            if kings != 1 {
                return Err(PositionError::KingCount {
                    color,
                    count: kings,
                });
            }
            let ours = board.by_color(color);
            if ours.count() > 16 || (ours & board.by_role(Role::Pawn)).count() > 8 {
                return Err(PositionError::TooManyPieces(color));
            }
        }
        if let Some(sq) = (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        if setup.fullmoves == 0 {
            return Err(PositionError::BadClocks(
                "the move number must be at least 1",
            ));
        }
        for rook in setup.castling_rights {
            if !castling_right_possible(&board, rook, mode) {
                return Err(PositionError::BadCastlingRights(rook));
            }
        }
        // At most one castling right per side and colour.
        for color in Color::ALL {
            let rights = setup.castling_rights & Bitboard::backrank(color);
            let king = board.king_of(color).expect("one king each");
            let kingside = rights.filter_count(|r| r.file() > king.file());
            if kingside > 1 || rights.count() - kingside > 1 {
                let sq = rights.first().expect("non-empty");
                return Err(PositionError::BadCastlingRights(sq));
            }
        }
        if mode == CastlingMode::Chess960 {
            mirrored_castling(&board, setup.castling_rights)?;
        }
        let turn = setup.turn;
        if let Some(ep) = setup.ep_square {
            if !en_passant_possible(&board, turn, ep) {
                return Err(PositionError::BadEnPassant(ep));
            }
        }
        let mut pos = Position {
            board,
            turn,
            castling: setup.castling_rights,
            ep_square: None,
            double_step: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            hash: 0,
            mode,
        };
        let their_king = board.king_of(!turn).expect("one king each");
        if board.is_attacked(their_king, turn, board.occupied()) {
            return Err(PositionError::OppositeCheck);
        }
        let checkers = pos.checkers().count();
        if checkers > 2 {
            return Err(PositionError::TooManyCheckers(checkers));
        }
        pos.ep_square = setup.ep_square;
        pos.drop_ep_square_unless_capturable();
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The unvalidated description of this position (what a FEN holds).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rights: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// Piece placement.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Rooks that keep a castling right (both colours).
    #[inline(always)]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The rook of `color` that may still castle on `side`, if the right remains.
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let king = self.king(color);
        (self.castling & Bitboard::backrank(color))
            .into_iter()
            .find(|&rook| CastlingSide::of(king, rook) == side)
    }

    /// The en-passant target square, only when an en-passant capture is legal now.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (1 for the first move).
    #[inline(always)]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Standard or Chess960.
    #[inline(always)]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The same position with castling written for another mode (the pieces, rights
    /// and moves are unchanged; only UCI notation and FEN castling letters differ).
    /// Fails when switching to standard chess with non-standard castling rights.
    pub fn with_castling_mode(&self, mode: CastlingMode) -> Result<Position, PositionError> {
        let mut pos = *self;
        if let Some(rook) = self
            .castling
            .into_iter()
            .find(|&rook| !castling_right_possible(&self.board, rook, mode))
        {
            return Err(PositionError::BadCastlingRights(rook));
        }
        pos.mode = mode;
        Ok(pos)
    }

    /// Zobrist key: equal keys for positions that repetition treats as the same.
    #[inline(always)]
    pub fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        // A validated position has exactly one king each.
        (self.board.by_role(Role::King) & self.board.by_color(color))
            .first()
            .unwrap_or(Square::A1)
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        let us = self.turn;
        self.board
            .attackers_to(self.king(us), !us, self.board.occupied())
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers().is_nonempty()
    }

    /// Pieces of the side to move pinned against their own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.checkers_and_pinned().1
    }

    /// Whether the same pieces, side to move, castling rights and en-passant
    /// possibility hold in both positions (repetition identity, Laws 9.2.3).
    pub fn is_same_position(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = zobrist::turn(self.turn);
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                for sq in self.board.by_piece(piece) {
                    h ^= zobrist::piece(piece, sq);
                }
            }
        }
        for rook in self.castling {
            h ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep_square {
            h ^= zobrist::en_passant(ep.file().index());
        }
        h
    }

    /// Pieces giving check, and pieces of the side to move pinned to their king.
    ///
    /// Computed on demand rather than kept up to date by every move: leaf positions
    /// (perft, search) are often created and never asked.
    #[inline(always)]
    pub(crate) fn checkers_and_pinned(&self) -> (Bitboard, Bitboard) {
        let us = self.turn;
        let them = !us;
        let board = &self.board;
        let king = self.king(us);
        let theirs = board.by_color(them);
        let occupied = board.occupied();
        let mut checkers = theirs
            & ((attacks::knight_attacks(king) & board.by_role(Role::Knight))
                | (attacks::pawn_attacks(us, king) & board.by_role(Role::Pawn)));
        let snipers = theirs
            & ((attacks::rook_rays(king) & board.straight_sliders())
                | (attacks::bishop_rays(king) & board.diagonal_sliders()));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers |= Bitboard::from_square(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers & board.by_color(us);
            }
        }
        (checkers, pinned)
    }

    /// Keeps the en-passant square only if some en-passant capture is legal.
    fn drop_ep_square_unless_capturable(&mut self) {
        if let Some(ep) = self.ep_square {
            let capturers = attacks::pawn_attacks(!self.turn, ep)
                & self.board.by_piece(Piece {
                    color: self.turn,
                    role: Role::Pawn,
                });
            if !capturers
                .into_iter()
                .any(|from| self.is_legal_en_passant(from, ep))
            {
                self.ep_square = None;
            }
        }
    }

    /// Whether the pawn on `from` may capture en passant onto `ep` without leaving
    /// its king attacked (this covers the capture that opens a rank, Laws 3.9).
    pub(crate) fn is_legal_en_passant(&self, from: Square, ep: Square) -> bool {
        let captured = Square::from_coords(ep.file(), from.rank());
        self.leaves_king_safe(from, ep, captured)
    }

    /// Whether moving our piece from `from` to `to`, removing whatever stands on
    /// `captured` (usually `to`), leaves our king unattacked. Correct for every
    /// move except castling, whatever the checks and pins.
    #[inline]
    pub(crate) fn leaves_king_safe(&self, from: Square, to: Square, captured: Square) -> bool {
        let us = self.turn;
        let king = self.king(us);
        let removed = Bitboard::from_square(captured);
        let occupied = (self.board.occupied() & !Bitboard::from_square(from) & !removed)
            | Bitboard::from_square(to);
        if from == king {
            return (self.board.attackers_to(to, !us, occupied) & !removed).is_empty();
        }
        // Another piece moves: a knight or pawn check must be captured, and every
        // slider on a line to the king must stay blocked. No magic lookups needed.
        let board = &self.board;
        let theirs = board.by_color(!us) & !removed;
        if (theirs
            & ((attacks::knight_attacks(king) & board.by_role(Role::Knight))
                | (attacks::pawn_attacks(us, king) & board.by_role(Role::Pawn))))
        .is_nonempty()
        {
            return false;
        }
        let snipers = theirs
            & ((attacks::rook_rays(king) & board.straight_sliders())
                | (attacks::bishop_rays(king) & board.diagonal_sliders()));
        snipers
            .into_iter()
            .all(|sniper| (attacks::between(king, sniper) & occupied).is_nonempty())
    }

    /// Plays a move if it is legal here.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove(m))
        }
    }

    /// Plays a move that must be legal (for example one from [`Position::legal_moves`]).
    /// An illegal move leaves the position in an unspecified but memory-safe state.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let mut hash = self.hash ^ zobrist::turn(Color::White) ^ zobrist::turn(Color::Black);
        if let Some(ep) = self.ep_square.take() {
            hash ^= zobrist::en_passant(ep.file().index());
        }
        self.double_step = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        let role = self.board.role_at(from).unwrap_or(Role::Pawn);
        let mover = Piece { color: us, role };
        let old_castling = self.castling;

        if m.is_castle() {
            let side = CastlingSide::of(from, to);
            let rook = Piece {
                color: us,
                role: Role::Rook,
            };
            let king_to = side.king_to(us);
            let rook_to = side.rook_to(us);
            self.board.remove(from, mover);
            self.board.remove(to, rook);
            self.board.put(king_to, mover);
            self.board.put(rook_to, rook);
            hash ^= zobrist::piece(mover, from)
                ^ zobrist::piece(mover, king_to)
                ^ zobrist::piece(rook, to)
                ^ zobrist::piece(rook, rook_to);
            self.castling &= !Bitboard::backrank(us);
        } else {
            if m.is_en_passant() {
                let captured_sq = Square::from_coords(to.file(), from.rank());
                let pawn = Piece {
                    color: them,
                    role: Role::Pawn,
                };
                self.board.remove(captured_sq, pawn);
                hash ^= zobrist::piece(pawn, captured_sq);
            } else if let Some(captured) = self.board.role_at(to) {
                let victim = Piece {
                    color: them,
                    role: captured,
                };
                self.board.remove(to, victim);
                hash ^= zobrist::piece(victim, to);
                self.halfmoves = 0;
            }
            self.board.remove(from, mover);
            hash ^= zobrist::piece(mover, from);
            let placed = match m.promotion_role() {
                Some(role) => Piece { color: us, role },
                None => mover,
            };
            self.board.put(to, placed);
            hash ^= zobrist::piece(placed, to);
            if role == Role::Pawn {
                self.halfmoves = 0;
                if from.index().abs_diff(to.index()) == 16 {
                    let skipped = Square::new_unchecked(((from.index() + to.index()) / 2) as u32);
                    let their_pawns = self.board.by_piece(Piece {
                        color: them,
                        role: Role::Pawn,
                    });
                    if (attacks::pawn_attacks(us, skipped) & their_pawns).is_nonempty() {
                        self.ep_square = Some(skipped);
                        self.double_step = Some(skipped);
                    }
                }
            } else if role == Role::King {
                self.castling &= !Bitboard::backrank(us);
            }
            self.castling &= !(Bitboard::from_square(from) | Bitboard::from_square(to));
        }
        if self.castling != old_castling {
            for rook in self.castling ^ old_castling {
                hash ^= zobrist::castling(rook);
            }
        }
        self.turn = them;
        if self.ep_square.is_some() {
            self.drop_ep_square_unless_capturable();
            if let Some(ep) = self.ep_square {
                hash ^= zobrist::en_passant(ep.file().index());
            }
        }
        self.hash = hash;
    }

    /// Passes the turn without moving (for null-move search; not a legal chess move).
    /// Returns `None` when the side to move is in check.
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut pos = *self;
        pos.hash ^= zobrist::turn(Color::White) ^ zobrist::turn(Color::Black);
        if let Some(ep) = pos.ep_square.take() {
            pos.hash ^= zobrist::en_passant(ep.file().index());
        }
        pos.double_step = None;
        pos.turn = !pos.turn;
        pos.halfmoves = pos.halfmoves.saturating_add(1);
        Some(pos)
    }
}

/// Whether the setup could have a castling right with a rook on `rook`.
fn castling_right_possible(board: &Board, rook: Square, mode: CastlingMode) -> bool {
    let Some(color) = board.color_at(rook) else {
        return false;
    };
    if board.role_at(rook) != Some(Role::Rook) || !Bitboard::backrank(color).contains(rook) {
        return false;
    }
    let Some(king) = board.king_of(color) else {
        return false;
    };
    match mode {
        CastlingMode::Standard => {
            king == Square::E1.flip_if(color)
                && (rook == Square::A1.flip_if(color) || rook == Square::H1.flip_if(color))
        }
        CastlingMode::Chess960 => {
            Bitboard::backrank(color).contains(king)
                && king.file().index() > 0
                && king.file().index() < 7
        }
    }
}

/// Checks that Chess960 rights fit one start: every start has Black's back rank
/// mirror White's, so when both sides keep rights their kings share a file, and
/// when both keep a wing's right its rooks share a file too.
fn mirrored_castling(board: &Board, rights: Bitboard) -> Result<(), PositionError> {
    let white_rights = rights & Bitboard::backrank(Color::White);
    let black_rights = rights & Bitboard::backrank(Color::Black);
    if white_rights.is_empty() || black_rights.is_empty() {
        return Ok(());
    }
    let (Some(white_king), Some(black_king)) =
        (board.king_of(Color::White), board.king_of(Color::Black))
    else {
        return Ok(());
    };
    if white_king.file() != black_king.file() {
        return Err(PositionError::UnmirroredCastling {
            role: Role::King,
            white: white_king,
            black: black_king,
        });
    }
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        let white_rook = white_rights
            .into_iter()
            .find(|&r| CastlingSide::of(white_king, r) == side);
        let black_rook = black_rights
            .into_iter()
            .find(|&r| CastlingSide::of(black_king, r) == side);
        if let (Some(white), Some(black)) = (white_rook, black_rook) {
            if white.file() != black.file() {
                return Err(PositionError::UnmirroredCastling {
                    role: Role::Rook,
                    white,
                    black,
                });
            }
        }
    }
    Ok(())
}

/// Whether a pawn of the side not to move could just have double-stepped over `ep`.
fn en_passant_possible(board: &Board, turn: Color, ep: Square) -> bool {
    let them = !turn;
    if !Bitboard::relative_rank(turn, 5).contains(ep) {
        return false;
    }
    let (Some(pawn_sq), Some(origin)) = (ep.offset(turn.fold(-8, 8)), ep.offset(turn.fold(8, -8)))
    else {
        return false;
    };
    board.piece_at(pawn_sq)
        == Some(Piece {
            color: them,
            role: Role::Pawn,
        })
        && board.piece_at(ep).is_none()
        && board.piece_at(origin).is_none()
}

impl Square {
    /// The square itself for White, mirrored to the other side of the board for Black.
    #[inline(always)]
    pub const fn flip_if(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }
}

impl Bitboard {
    fn filter_count(self, f: impl Fn(Square) -> bool) -> u32 {
        self.filter(|&sq| f(sq)).count() as u32
    }
}
