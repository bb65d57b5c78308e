//! Legal move generation.
//!
//! Moves are generated legal from the start, using the checkers and pins cached on
//! the position: no make/unmake test. The generator reports *sets* of moves to a
//! [`MoveSink`]: one destination bitboard per piece, and whole pawn ranks shifted at
//! once. Counting a position's moves (bulk perft, mobility) is then a handful of
//! popcounts, while [`Position::legal_moves`] unpacks the same sets into a list.

use crate::attacks;
use crate::{Bitboard, CastlingSide, Move, MoveList, Piece, Position, Role, Square};

/// Receives the legal moves of a position, grouped as the generator finds them.
pub(crate) trait MoveSink {
    /// Moves of the piece on `from` to each square of `targets` (not promotions).
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each square of `targets`, each from `to - delta` (no promotions).
    fn pawns(&mut self, targets: Bitboard, delta: i32);
    /// Pawn promotions to each square of `targets` from `to - delta`, four roles each.
    fn promotions(&mut self, targets: Bitboard, delta: i32);
    /// One castling or en-passant move.
    fn special(&mut self, m: Move);
}

/// Somewhere to put moves: the full [`MoveList`] or a small buffer.
pub(crate) trait PushMove {
    fn push_move(&mut self, m: Move);
}

impl PushMove for MoveList {
    #[inline(always)]
    fn push_move(&mut self, m: Move) {
        self.push(m);
    }
}

struct ListSink<'a, B>(&'a mut B);

impl<B: PushMove> MoveSink for ListSink<'_, B> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.0.push_move(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::new_unchecked((to.index() as i32 - delta) as u32);
            self.0.push_move(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::new_unchecked((to.index() as i32 - delta) as u32);
            for role in Role::PROMOTIONS {
                self.0.push_move(Move::promotion(from, to, role));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.0.push_move(m);
    }
}

struct CountSink(u64);

impl MoveSink for CountSink {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += u64::from(targets.count());
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += 4 * u64::from(targets.count());
    }
    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Looks for one move among those generated (legality of a single move
/// without listing the others).
struct FindSink {
    wanted: Move,
    found: bool,
}

impl MoveSink for FindSink {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        self.found |= self.wanted == Move::normal(from, self.wanted.to())
            && targets.contains(self.wanted.to());
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        let to = self.wanted.to();
        self.found |= self.wanted == Move::normal(self.wanted.from(), to)
            && targets.contains(to)
            && to.index() as i32 - delta == self.wanted.from().index() as i32;
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        let to = self.wanted.to();
        self.found |= self.wanted.is_promotion()
            && targets.contains(to)
            && to.index() as i32 - delta == self.wanted.from().index() as i32;
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.found |= m == self.wanted;
    }
}

/// Keeps the captures and promotions of the moves given (the generator is
/// asked only for moves to enemy men, the last rank and the en-passant square,
/// so a piece's move to an empty square on the last rank is all there is to drop).
struct NoisySink<'a> {
    list: ListSink<'a, MoveList>,
    theirs: Bitboard,
}

impl MoveSink for NoisySink<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        self.list.piece(from, targets & self.theirs);
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        self.list.pawns(targets & self.theirs, delta);
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        self.list.promotions(targets, delta);
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.list.special(m);
    }
}

/// Check and pin information, computed once per generation, and which moves are wanted.
struct Pins {
    checkers: Bitboard,
    pinned: Bitboard,
    /// Bit `r` set: generate moves of role `r`.
    roles: u8,
    /// Only moves to these squares.
    only_to: Bitboard,
}

const ALL_ROLES: u8 = 0x3f;

impl Pins {
    #[inline(always)]
    fn wants(&self, role: Role) -> bool {
        self.roles & (1 << role as u8) != 0
    }
}

const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

impl Position {
    /// Every legal move.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut ListSink(&mut list));
        list
    }

    /// Appends every legal move to `list`.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.generate(&mut ListSink(list));
    }

    /// How many legal moves there are, without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut sink = CountSink(0);
        self.generate(&mut sink);
        sink.0
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Checkmate: in check with no legal move (Laws 5.1.1).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Stalemate: not in check and no legal move (Laws 5.2.1).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Every legal capture (en passant included) and promotion: the moves that
    /// change the material, which a quiescence search looks at.
    pub fn legal_captures_and_promotions(&self) -> MoveList {
        let mut list = MoveList::new();
        let theirs = self.board.by_color(!self.turn);
        let ep = self
            .ep_square
            .map_or(Bitboard::EMPTY, Bitboard::from_square);
        let only_to = theirs | Bitboard::relative_rank(self.turn, 7) | ep;
        let mut sink = NoisySink {
            list: ListSink(&mut list),
            theirs,
        };
        self.generate_scoped(&mut sink, ALL_ROLES, only_to);
        list
    }

    /// Whether `m` is a legal move here. Only the moving piece's moves to the
    /// destination are generated (all of them for castling), so a search can
    /// check a remembered move cheaply.
    pub fn is_legal(&self, m: Move) -> bool {
        let Some(piece) = self.board.piece_at(m.from()) else {
            return false;
        };
        if piece.color != self.turn {
            return false;
        }
        let mut sink = FindSink {
            wanted: m,
            found: false,
        };
        if m.is_castle() {
            self.generate(&mut sink);
        } else {
            let to = Bitboard::from_square(m.to());
            self.generate_scoped(&mut sink, 1 << piece.role as u8, to);
        }
        sink.found
    }

    /// The legal moves of pieces of `role` to squares in `to`, without castling
    /// (what SAN needs to resolve `Nf3`).
    pub fn legal_moves_to(&self, role: Role, to: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate_scoped(&mut ListSink(&mut list), 1 << role as u8, to);
        list
    }

    #[inline(always)]
    pub(crate) fn generate<S: MoveSink>(&self, sink: &mut S) {
        self.generate_scoped(sink, ALL_ROLES, Bitboard::FULL);
    }

    /// Generates the moves of the roles in the bit set `roles` to squares in `only_to`.
    /// Castling is included only when every role and square is.
    #[inline(always)]
    fn generate_scoped<S: MoveSink>(&self, sink: &mut S, roles: u8, only_to: Bitboard) {
        let (checkers, pinned) = self.checkers_and_pinned();
        let pins = Pins {
            checkers,
            pinned,
            roles,
            only_to,
        };
        if checkers.is_empty() {
            self.generate_for::<S, false>(sink, &pins);
        } else {
            self.generate_for::<S, true>(sink, &pins);
        }
    }

    #[inline(always)]
    fn generate_for<S: MoveSink, const IN_CHECK: bool>(&self, sink: &mut S, pins: &Pins) {
        let us = self.turn;
        let board = &self.board;
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let occupied = ours | theirs;
        let king = self.king(us);

        if pins.wants(Role::King) {
            self.king_moves(sink, king, ours | !pins.only_to, occupied);
        }
        let target = if IN_CHECK {
            if pins.checkers.more_than_one() {
                return;
            }
            let checker = pins.checkers.first().unwrap_or(king);
            attacks::between(king, checker) | pins.checkers
        } else {
            !ours
        } & pins.only_to;
        // A pinned piece can never resolve a check, so in check only free pieces move.
        let movable = if IN_CHECK { ours & !pins.pinned } else { ours };

        let knights = if pins.wants(Role::Knight) {
            board.by_role(Role::Knight)
        } else {
            Bitboard::EMPTY
        };
        for from in movable & knights & !pins.pinned {
            sink.piece(from, attacks::knight_attacks(from) & target);
        }
        let queens = if pins.wants(Role::Queen) {
            board.by_role(Role::Queen)
        } else {
            Bitboard::EMPTY
        };
        let bishops = if pins.wants(Role::Bishop) {
            board.by_role(Role::Bishop)
        } else {
            Bitboard::EMPTY
        };
        let rooks = if pins.wants(Role::Rook) {
            board.by_role(Role::Rook)
        } else {
            Bitboard::EMPTY
        };
        for from in movable & (bishops | queens) {
            let mut to = attacks::bishop_attacks(from, occupied) & target;
            if !IN_CHECK && pins.pinned.contains(from) {
                to &= attacks::line(king, from);
            }
            sink.piece(from, to);
        }
        for from in movable & (rooks | queens) {
            let mut to = attacks::rook_attacks(from, occupied) & target;
            if !IN_CHECK && pins.pinned.contains(from) {
                to &= attacks::line(king, from);
            }
            sink.piece(from, to);
        }
        if pins.wants(Role::Pawn) {
            self.pawn_moves::<S, IN_CHECK>(sink, pins, king, target, occupied, theirs);
        }
        if !IN_CHECK && pins.roles == ALL_ROLES && pins.only_to == Bitboard::FULL {
            self.castling_moves(sink, king, occupied);
        }
    }

    #[inline(always)]
    fn king_moves<S: MoveSink>(
        &self,
        sink: &mut S,
        king: Square,
        ours: Bitboard,
        occupied: Bitboard,
    ) {
        let without_king = occupied ^ Bitboard::from_square(king);
        let them = !self.turn;
        let mut safe = Bitboard::EMPTY;
        for to in attacks::king_attacks(king) & !ours {
            if !self.board.is_attacked(to, them, without_king) {
                safe |= Bitboard::from_square(to);
            }
        }
        sink.piece(king, safe);
    }

    #[inline(always)]
    fn pawn_moves<S: MoveSink, const IN_CHECK: bool>(
        &self,
        sink: &mut S,
        pins: &Pins,
        king: Square,
        target: Bitboard,
        occupied: Bitboard,
        theirs: Bitboard,
    ) {
        let us = self.turn;
        let pawns = self.board.by_piece(Piece {
            color: us,
            role: Role::Pawn,
        });
        let free = pawns & !pins.pinned;
        let empty = !occupied;
        let last_rank = Bitboard::relative_rank(us, 7);
        let third_rank = Bitboard::relative_rank(us, 2);
        let push = us.fold(8, -8);
        let (left, right) = us.fold((7, 9), (-9, -7));

        let single = free.forward(us) & empty;
        let double = (single & third_rank).forward(us) & empty & target;
        let single = single & target;
        let captures_left = shift(free & NOT_FILE_A, left) & theirs & target;
        let captures_right = shift(free & NOT_FILE_H, right) & theirs & target;

        sink.pawns(single & !last_rank, push);
        sink.pawns(double, 2 * push);
        sink.pawns(captures_left & !last_rank, left);
        sink.pawns(captures_right & !last_rank, right);
        if ((single | captures_left | captures_right) & last_rank).is_nonempty() {
            sink.promotions(single & last_rank, push);
            sink.promotions(captures_left & last_rank, left);
            sink.promotions(captures_right & last_rank, right);
        }

        // Pinned pawns (only out of check) move along the pin line.
        if !IN_CHECK {
            for from in pawns & pins.pinned {
                let line = attacks::line(king, from);
                let step = Bitboard::from_square(from).forward(us) & empty & line;
                let two = (step & third_rank).forward(us) & empty & target;
                let captures = attacks::pawn_attacks(us, from) & theirs & line;
                let moves = (step | captures) & target;
                for to in moves {
                    let delta = to.index() as i32 - from.index() as i32;
                    let bb = Bitboard::from_square(to);
                    if last_rank.contains(to) {
                        sink.promotions(bb, delta);
                    } else {
                        sink.pawns(bb, delta);
                    }
                }
                sink.pawns(two, 2 * push);
            }
        }

        if let Some(ep) = self.ep_square.filter(|&ep| pins.only_to.contains(ep)) {
            for from in attacks::pawn_attacks(!us, ep) & pawns {
                if self.is_legal_en_passant(from, ep) {
                    sink.special(Move::en_passant(from, ep));
                }
            }
        }
    }

    #[inline(always)]
    fn castling_moves<S: MoveSink>(&self, sink: &mut S, king: Square, occupied: Bitboard) {
        let us = self.turn;
        let rights = self.castling & Bitboard::backrank(us);
        if rights.is_empty() {
            return;
        }
        for rook in rights {
            let side = CastlingSide::of(king, rook);
            let king_to = side.king_to(us);
            let rook_to = side.rook_to(us);
            let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
            let path = attacks::between(king, king_to)
                | Bitboard::from_square(king_to)
                | attacks::between(rook, rook_to)
                | Bitboard::from_square(rook_to);
            if (path & occupied & !movers).is_nonempty() {
                continue;
            }
            // The king may not pass through or land on an attacked square; the castling
            // rook is lifted first, since it may be the piece shielding the destination.
            let without = occupied ^ movers;
            let king_path = attacks::between(king, king_to) | Bitboard::from_square(king_to);
            if king_path
                .into_iter()
                .any(|sq| self.board.is_attacked(sq, !us, without))
            {
                continue;
            }
            sink.special(Move::castle(king, rook));
        }
    }
}

#[inline(always)]
fn shift(bb: Bitboard, delta: i32) -> Bitboard {
    if delta > 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}
