//! Why a move named in SAN or long algebraic (as UCI text reads) is not legal.
//!
//! The reason is the rule of Article 3 the move breaks, looked for in the order a
//! player checks a move: the piece on the origin, the way it moves (3.2 to 3.8), the
//! squares in its way, and only then the king's safety (3.9). Each reason names the
//! squares and pieces concerned, so that it is true of the position it is given for.

use crate::attacks;
use crate::{Bitboard, CastlingMode, CastlingSide, File, Piece, Position, Rank, Role, Square};

/// How far a move got before breaking a rule; the furthest explains best when the
/// text leaves several pieces it could mean.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// The piece never moves that way, whatever the position.
    Movement,
    /// The piece moves that way, but not from here or not now: a square in its way
    /// or its destination is occupied, a pawn is off its original square for a
    /// double step, or has nothing to capture.
    Board,
    /// The move follows the piece's rules but leaves the king in check.
    KingSafety,
}

/// Why no legal move of a `role` (from the given file and rank, if any) goes to `to`.
pub(crate) fn no_move(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
) -> String {
    let us = pos.turn();
    let board = pos.board();
    let origin = file.zip(rank).map(|(f, r)| Square::from_coords(f, r));
    if let Some(from) = origin {
        match board.piece_at(from) {
            None => return format!("there is no piece on {from}"),
            Some(piece) if piece.color != us => {
                return format!(
                    "the {} on {from} is {}'s, and it is {}'s move",
                    piece.role.name(),
                    piece.color.name(),
                    us.name()
                )
            }
            Some(piece) if piece.role != role => {
                return format!(
                    "the piece on {from} is a {}, not a {}",
                    piece.role.name(),
                    role.name()
                )
            }
            Some(_) => {}
        }
    }
    // A pawn move written without its file (`c6`) is a push along the destination's
    // file, unless there is something to capture there.
    let capture = board.color_at(to) == Some(!us) || pos.double_step == Some(to);
    let file = match file {
        None if role == Role::Pawn && !capture => Some(to.file()),
        file => file,
    };
    let mut origins = board.by_piece(Piece { color: us, role });
    if let Some(f) = file {
        origins &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        origins &= Bitboard::from_rank(r);
    }
    if origins.is_empty() {
        let place = match (file, rank) {
            (Some(f), None) => format!(" on the {}-file", f.char()),
            (None, Some(r)) => format!(" on rank {}", r.char()),
            _ => String::new(),
        };
        return format!("{} has no {}{place}", us.name(), role.name());
    }
    if role == Role::King {
        if let Some(side) = castling_meant(pos, to) {
            return no_castling(pos, side);
        }
    }
    if let Some(own) = board.piece_at(to).filter(|p| p.color == us) {
        return format!(
            "{to} is occupied by {}'s own {}",
            us.name(),
            own.role.name()
        );
    }
    let reasons: Vec<(Stage, String)> = origins
        .into_iter()
        .map(|from| why_not(pos, role, from, to))
        .collect();
    let furthest = reasons.iter().map(|(stage, _)| *stage).max();
    if furthest == Some(Stage::Movement) && origin.is_none() {
        return format!("no {} {} can move to {to}", us.name(), role.name());
    }
    let mut why: Vec<&str> = Vec::new();
    for (stage, reason) in &reasons {
        if Some(*stage) == furthest && !why.contains(&reason.as_str()) {
            why.push(reason);
        }
    }
    why.join("; ")
}

/// Why castling on `side` is not legal now (Laws 3.8.2).
pub(crate) fn no_castling(pos: &Position, side: CastlingSide) -> String {
    let us = pos.turn();
    let Some(rook) = pos.castling_rook(us, side) else {
        return format!("{} has no right to castle {}", us.name(), side_name(side));
    };
    if pos.is_check() {
        return "castling is not allowed while the king is in check".to_string();
    }
    let board = pos.board();
    let king = pos.king(us);
    let king_to = side.king_to(us);
    let rook_to = side.rook_to(us);
    let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
    let path = attacks::between(king, king_to)
        | Bitboard::from_square(king_to)
        | attacks::between(rook, rook_to)
        | Bitboard::from_square(rook_to);
    let in_the_way = path & board.occupied() & !movers;
    if let Some(sq) = nearest(in_the_way, king) {
        return format!("{} is in the way of castling", describe_at(pos, sq));
    }
    // The rook is lifted first: it may be what shields the king's destination.
    let without = board.occupied() ^ movers;
    let mut king_path: Vec<Square> = (attacks::between(king, king_to)
        | Bitboard::from_square(king_to))
    .into_iter()
    .collect();
    king_path.sort_by_key(|sq| sq.index().abs_diff(king.index()));
    for sq in king_path {
        if let Some(attacker) = board.attackers_to(sq, !us, without).first() {
            let verb = if sq == king_to { "land on" } else { "cross" };
            return format!(
                "the king would {verb} {sq}, which {} attacks",
                describe_at(pos, attacker)
            );
        }
    }
    "castling is not legal here".to_string()
}

/// The castling side a king move to `to` stands for: two or more squares along the
/// back rank to where castling puts the king, or king takes rook (onto a rook with
/// a castling right, or in standard chess from e1 to a corner).
fn castling_meant(pos: &Position, to: Square) -> Option<CastlingSide> {
    let us = pos.turn();
    let king = pos.king(us);
    let back = Bitboard::backrank(us);
    if !back.contains(king) || !back.contains(to) {
        return None;
    }
    let side = CastlingSide::of(king, to);
    let far = king.file().index().abs_diff(to.file().index()) > 1;
    let takes_rook = pos.castling_rights().contains(to)
        || (pos.castling_mode() == CastlingMode::Standard
            && king == Square::E1.flip_if(us)
            && (to == Square::A1.flip_if(us) || to == Square::H1.flip_if(us)));
    (takes_rook || (far && side.king_to(us) == to)).then_some(side)
}

/// How far the move of the piece on `from` to `to` gets, and the rule it breaks.
/// `to` is not occupied by the side to move.
fn why_not(pos: &Position, role: Role, from: Square, to: Square) -> (Stage, String) {
    let reach = match role {
        Role::Pawn => return why_not_pawn(pos, from, to),
        Role::Knight => attacks::knight_attacks(from),
        Role::Bishop => attacks::bishop_rays(from),
        Role::Rook => attacks::rook_rays(from),
        Role::Queen => attacks::bishop_rays(from) | attacks::rook_rays(from),
        Role::King => attacks::king_attacks(from),
    };
    if !reach.contains(to) {
        return (
            Stage::Movement,
            format!("a {} does not move from {from} to {to}", role.name()),
        );
    }
    let blockers = attacks::between(from, to) & pos.board().occupied();
    if let Some(reason) = blocked(pos, from, to, blockers) {
        return (Stage::Board, reason);
    }
    (Stage::KingSafety, king_safety(pos, from, to, to))
}

/// A pawn's moves (Laws 3.7): straight ahead onto an empty square, two squares from
/// its original square, diagonally to capture, and en passant.
fn why_not_pawn(pos: &Position, from: Square, to: Square) -> (Stage, String) {
    let us = pos.turn();
    let board = pos.board();
    let ahead = |sq: Square| sq.offset(us.fold(8, -8));
    let occupied_to = board.piece_at(to).map(|piece| {
        format!(
            "a pawn moves straight ahead only onto an empty square, and {} stands on {to}",
            describe_piece(piece)
        )
    });
    let one = ahead(from);
    if one == Some(to) {
        return match occupied_to {
            Some(reason) => (Stage::Board, reason),
            None => (Stage::KingSafety, king_safety(pos, from, to, to)),
        };
    }
    if let Some(one) = one.filter(|&one| ahead(one) == Some(to)) {
        if !Bitboard::relative_rank(us, 1).contains(from) {
            return (
                Stage::Board,
                format!(
                    "a pawn advances two squares only from its original square, on the {} rank",
                    us.fold("2nd", "7th")
                ),
            );
        }
        if let Some(reason) = blocked(pos, from, to, Bitboard::from_square(one) & board.occupied())
        {
            return (Stage::Board, reason);
        }
        return match occupied_to {
            Some(reason) => (Stage::Board, reason),
            None => (Stage::KingSafety, king_safety(pos, from, to, to)),
        };
    }
    if !attacks::pawn_attacks(us, from).contains(to) {
        return (
            Stage::Movement,
            format!("a pawn does not move from {from} to {to}"),
        );
    }
    if board.color_at(to) == Some(!us) {
        return (Stage::KingSafety, king_safety(pos, from, to, to));
    }
    let beside = Square::from_coords(to.file(), from.rank());
    if pos.double_step == Some(to) {
        return (Stage::KingSafety, king_safety(pos, from, to, beside));
    }
    let their_pawn = Piece {
        color: !us,
        role: Role::Pawn,
    };
    let en_passant_rank = Bitboard::relative_rank(us, 4).contains(from);
    let hint = if en_passant_rank && board.piece_at(beside) == Some(their_pawn) {
        " (en passant takes only a pawn that has just advanced two squares)"
    } else {
        ""
    };
    (
        Stage::Board,
        format!("a pawn moves diagonally only to capture, and {to} is empty{hint}"),
    )
}

/// The piece nearest `from` among `blockers`, as the reason the way is shut.
fn blocked(pos: &Position, from: Square, to: Square, blockers: Bitboard) -> Option<String> {
    let sq = nearest(blockers, from)?;
    Some(format!(
        "the way from {from} to {to} is blocked by {}",
        describe_at(pos, sq)
    ))
}

/// The square of `squares` nearest `origin` (they share a rank, file or diagonal).
fn nearest(squares: Bitboard, origin: Square) -> Option<Square> {
    squares
        .into_iter()
        .min_by_key(|sq| sq.index().abs_diff(origin.index()))
}

/// Why a move that follows the piece's rules, removing whatever stands on
/// `captured`, leaves the mover's king in check (Laws 3.9).
fn king_safety(pos: &Position, from: Square, to: Square, captured: Square) -> String {
    let us = pos.turn();
    let board = pos.board();
    let king = pos.king(us);
    let removed = Bitboard::from_square(captured);
    let occupied =
        (board.occupied() & !Bitboard::from_square(from) & !removed) | Bitboard::from_square(to);
    let target = if from == king { to } else { king };
    let attackers = board.attackers_to(target, !us, occupied) & !removed;
    let Some(attacker) = (attackers & pos.checkers()).first().or(attackers.first()) else {
        return "it would leave the king in check".to_string();
    };
    let by = describe_at(pos, attacker);
    if from == king {
        format!("the king would be in check on {to} from {by}")
    } else if pos.checkers().contains(attacker) {
        format!("it leaves the king in check from {by}")
    } else if captured != to {
        format!("capturing en passant would expose the king to {by}")
    } else {
        format!("{} is pinned to the king by {by}", describe_at(pos, from))
    }
}

/// "the black rook on e8".
fn describe(piece: Piece, sq: Square) -> String {
    format!("{} on {sq}", describe_piece(piece))
}

/// "the black rook".
fn describe_piece(piece: Piece) -> String {
    format!("the {} {}", piece.color.name(), piece.role.name())
}

/// The piece standing on `sq`, described.
fn describe_at(pos: &Position, sq: Square) -> String {
    match pos.board().piece_at(sq) {
        Some(piece) => describe(piece, sq),
        None => format!("the piece on {sq}"),
    }
}

fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "king-side",
        CastlingSide::QueenSide => "queen-side",
    }
}
