//! Static exchange evaluation: the material balance of the capture sequence on one
//! square, both sides always recapturing with their least valuable attacker and
//! free to stop when continuing would lose material.

use caissa_rules::{attacks, Move, Position, Role};

/// Rough piece values for exchanges and move ordering (pawn, knight, bishop, rook,
/// queen, king).
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// The value of what `m` captures (a pawn for en passant, nothing for castling).
#[inline]
pub fn captured_value(pos: &Position, m: Move) -> i32 {
    if m.is_en_passant() {
        VALUES[0]
    } else if m.is_castle() {
        0
    } else {
        pos.board().role_at(m.to()).map_or(0, |r| VALUES[r.index()])
    }
}

/// Whether `m` captures something.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    m.is_en_passant() || (!m.is_castle() && pos.board().occupied().contains(m.to()))
}

/// The static exchange value of `m` for the side playing it, in centipawns.
pub fn see(pos: &Position, m: Move) -> i32 {
    if m.is_castle() {
        return 0;
    }
    let board = pos.board();
    let from = m.from();
    let to = m.to();
    let mut gain = [0i32; 40];
    let mut occupied = board.occupied().without(from);
    let mut piece_value = VALUES[board.role_at(from).map_or(0, Role::index)];
    gain[0] = captured_value(pos, m);
    if let Some(role) = m.promotion_role() {
        gain[0] += VALUES[role.index()] - VALUES[0];
        piece_value = VALUES[role.index()];
    }
    if m.is_en_passant() {
        let captured = caissa_rules::Square::from_coords(to.file(), from.rank());
        occupied = occupied.without(captured);
    }
    let bishops = board.diagonal_sliders();
    let rooks = board.straight_sliders();
    let mut side = !pos.turn();
    let mut attackers = (board.attackers_to(to, side, occupied)
        | board.attackers_to(to, !side, occupied))
        & occupied;
    let mut depth = 0;
    loop {
        let ours = attackers & board.by_color(side) & occupied;
        if ours.is_empty() {
            break;
        }
        // Least valuable attacker.
        let mut chosen = None;
        for role in Role::ALL {
            let set = ours & board.by_role(role);
            if let Some(sq) = set.first() {
                chosen = Some((sq, role));
                break;
            }
        }
        let Some((sq, role)) = chosen else { break };
        depth += 1;
        if depth >= gain.len() {
            break;
        }
        gain[depth] = piece_value - gain[depth - 1];
        piece_value = VALUES[role.index()];
        if role == Role::King
            && (attackers & board.by_color(!side) & occupied.without(sq)).is_nonempty()
        {
            // The king cannot capture into a defended square.
            depth -= 1;
            break;
        }
        occupied = occupied.without(sq);
        // Reveal x-ray attackers behind the piece that just captured.
        attackers |= (attacks::bishop_attacks(to, occupied) & bishops)
            | (attacks::rook_attacks(to, occupied) & rooks);
        attackers &= occupied;
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}
