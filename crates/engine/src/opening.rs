//! Random but sound openings for self-play: each move is drawn among those that
//! lose no material by static exchange, so games start varied yet playable.

use caissa_rules::{Move, Position};

use crate::see::see;
use crate::Rng;

/// The positions of a random opening of `plies` half-moves from the initial
/// position (the initial position first); `None` when the game ended on the way.
pub fn random_opening(rng: &mut Rng, plies: usize) -> Option<Vec<Position>> {
    let mut positions = vec![Position::new()];
    for _ in 0..plies {
        let pos = *positions.last()?;
        let moves = pos.legal_moves();
        let decent: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| see(&pos, m) >= 0)
            .collect();
        let pool: &[Move] = if decent.is_empty() { &moves } else { &decent };
        if pool.is_empty() {
            return None;
        }
        let mut next = pos;
        next.play_unchecked(pool[rng.below(pool.len())]);
        positions.push(next);
    }
    positions.last()?.has_legal_moves().then_some(positions)
}
