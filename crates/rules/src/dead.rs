//! Dead positions by search: whether a side can checkmate by *any* series of legal
//! moves (Laws 5.2.2 and 6.9), beyond what material alone decides.
//!
//! Material settles most cases ([`Position::has_insufficient_material`]). What it
//! cannot see are positions where the pieces are enough but walls of pawns keep them
//! apart: after `4k3/8/1p1p1p1p/pPpPpPp1/P1P1P1PP/8/8/4K3 w - -` and h4-h5 every pawn is
//! blocked by a pawn, neither king can take one, and no mate can ever happen.
//!
//! Two proofs are tried, each sound on its own:
//!
//! **The wall.** When every pawn stands blocked by an enemy pawn, pawns can never move
//! again unless one captures or is captured. Each piece's reachable squares are
//! over-approximated by flooding the board with only the pawns as obstacles (a king
//! also never enters a square an enemy pawn attacks). If no piece can ever attack an
//! enemy pawn (nor a king take an enemy pawn that no pawn defends), and no piece can
//! ever stand where an enemy pawn attacks it, the pawns are frozen for ever; then a
//! side whose pieces can never attack a square of the enemy king's region can never
//! give check, let alone mate. This costs a few bitboard floods, whatever the number
//! of pieces behind the wall.
//!
//! **The search**, for what the wall cannot see, is a helpmate search by exhaustion: both sides cooperate, and every
//! position reachable from the start is visited once (positions are told apart as the
//! repetition rule does, ignoring the move counters, which no legal move depends on).
//! If none of them is a checkmate by the side in question, that side cannot mate: a
//! proof, not a guess. It is kept finite and cheap by two rules that can only make it
//! answer "undecided", never "impossible" by mistake:
//!
//! * it stops, undecided, at the first pawn move or pawn capture it could make: the
//!   pawn structure would change and the positions to visit would explode. In an
//!   ordinary position some pawn can move at once, so the search costs one move
//!   generation;
//! * it stops, undecided, after visiting `budget` positions.
//!
//! Lines that lose the mating side's last mating material are not followed, since
//! material never comes back without pawn moves. Without pawns, material decides
//! alone.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use crate::attacks;
use crate::{Bitboard, Color, Piece, Position, Role, Square};

/// How many positions a search visits before it gives up: enough for pawn walls with
/// kings and a few pieces, small enough to cost at most a few milliseconds.
pub const MATE_SEARCH_BUDGET: usize = 20_000;

/// What a search for a mating line found.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MateSearch {
    /// A checkmate by the side is reachable: it was found.
    Possible,
    /// No series of legal moves ends in a checkmate by the side: proven.
    Impossible,
    /// The search stopped before it could tell (the pawns could move, or the budget
    /// ran out). Counts as "the side can mate".
    Undecided,
}

/// A position as the repetition rule sees it, for the set of visited positions.
struct Visited(Position);

impl PartialEq for Visited {
    fn eq(&self, other: &Visited) -> bool {
        self.0.is_same_position(&other.0)
    }
}

impl Eq for Visited {}

impl Hash for Visited {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.zobrist_hash());
    }
}

impl Position {
    /// Searches for any series of legal moves that ends with `color` checkmating,
    /// visiting at most `budget` positions.
    pub fn mate_search(&self, color: Color, budget: usize) -> MateSearch {
        if self.has_insufficient_material(color) {
            return MateSearch::Impossible;
        }
        if self.board().by_role(Role::Pawn).is_empty() {
            return MateSearch::Undecided;
        }
        if frozen_wall_stops_mate(self, color) {
            return MateSearch::Impossible;
        }
        exhaust(self, color, budget)
    }

    /// Whether `color` could still checkmate by some series of legal moves (Laws
    /// 6.9): false only when material or the search proves it impossible.
    pub fn can_checkmate(&self, color: Color) -> bool {
        self.mate_search(color, MATE_SEARCH_BUDGET) != MateSearch::Impossible
    }

    /// Neither side can checkmate by any series of legal moves: a dead position,
    /// drawn at once (Laws 5.2.2). Proven by material or by the search, never guessed.
    pub fn is_dead_position(&self) -> bool {
        !self.can_checkmate(self.turn()) && !self.can_checkmate(!self.turn())
    }
}

/// The helpmate search by exhaustion: every reachable position visited once.
fn exhaust(start: &Position, color: Color, budget: usize) -> MateSearch {
    let mut visited = HashSet::new();
    visited.insert(Visited(*start));
    let mut stack = vec![*start];
    while let Some(pos) = stack.pop() {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.is_check() && pos.turn() != color {
                return MateSearch::Possible;
            }
            continue;
        }
        let pawns = pos.board().by_role(Role::Pawn);
        for &m in moves.iter() {
            if m.is_en_passant() || pawns.contains(m.from()) || pawns.contains(m.to()) {
                return MateSearch::Undecided;
            }
        }
        for &m in moves.iter() {
            let mut next = pos;
            next.play_unchecked(m);
            if next.has_insufficient_material(color) {
                continue;
            }
            if visited.insert(Visited(next)) {
                if visited.len() > budget {
                    return MateSearch::Undecided;
                }
                stack.push(next);
            }
        }
    }
    MateSearch::Impossible
}

/// The wall proof: whether the pawns are frozen for ever and `color`'s pieces can
/// never attack a square the enemy king can reach. `false` means "not proven".
fn frozen_wall_stops_mate(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    let pawns = board.by_role(Role::Pawn);
    let white_pawns = pawns & board.by_color(Color::White);
    let black_pawns = pawns & board.by_color(Color::Black);
    // Every pawn blocked by an enemy pawn: pushes are impossible while no pawn moves.
    if white_pawns.forward(Color::White) != black_pawns {
        return false;
    }
    // Castling and en passant are moves the floods below do not model.
    if pos.castling_rights().is_nonempty() || pos.ep_square().is_some() || pos.is_check() {
        return false;
    }
    let pawn_attacks = |side: Color| -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in pawns & board.by_color(side) {
            out |= attacks::pawn_attacks(side, sq);
        }
        out
    };
    let attacked_by = [pawn_attacks(Color::White), pawn_attacks(Color::Black)];
    // A pawn that can take a pawn now unlocks the wall.
    if (attacked_by[0] & black_pawns).is_nonempty() || (attacked_by[1] & white_pawns).is_nonempty()
    {
        return false;
    }
    let mut king_region = [Bitboard::EMPTY; 2];
    let mut reach = [Bitboard::EMPTY; 2];
    for sq in board.occupied() & !pawns {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let side = piece.color;
        let enemy_pawns = pawns & board.by_color(!side);
        let region = flood(piece, sq, pawns, attacked_by[(!side).index()]);
        if piece.role == Role::King {
            // A king takes an enemy pawn only if no enemy pawn defends it.
            let undefended = enemy_pawns & !attacked_by[(!side).index()];
            if (king_reach(region) & undefended).is_nonempty() {
                return false;
            }
            king_region[side.index()] = region;
            continue;
        }
        // A piece that can stand where an enemy pawn attacks could be taken by it.
        if (region & attacked_by[(!side).index()]).is_nonempty() {
            return false;
        }
        let hits = attack_span(piece, region, pawns);
        if (hits & enemy_pawns).is_nonempty() {
            return false;
        }
        reach[side.index()] |= hits;
    }
    (reach[color.index()] & king_region[(!color).index()]).is_empty()
}

/// Every square `piece` from `start` could ever stand on, with only the pawns as
/// obstacles; a king also avoids the squares in `forbidden_for_king`.
fn flood(piece: Piece, start: Square, pawns: Bitboard, forbidden_for_king: Bitboard) -> Bitboard {
    let allowed = if piece.role == Role::King {
        !pawns & !forbidden_for_king
    } else {
        !pawns
    };
    let mut region = Bitboard::from_square(start);
    let mut frontier = region;
    while frontier.is_nonempty() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= attacks::attacks(piece, sq, pawns);
        }
        frontier = next & allowed & !region;
        region |= frontier;
    }
    region
}

/// The squares a king standing anywhere in `region` attacks.
fn king_reach(region: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in region {
        out |= attacks::king_attacks(sq);
    }
    out
}

/// The squares `piece` attacks from anywhere in `region`, with the pawns as blockers.
fn attack_span(piece: Piece, region: Bitboard, pawns: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in region {
        out |= attacks::attacks(piece, sq, pawns);
    }
    out
}
