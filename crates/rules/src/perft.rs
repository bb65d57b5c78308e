//! Perft: counting the leaf nodes of the legal move tree, the standard test of a
//! move generator. The last ply is counted in bulk, without playing its moves.

use crate::{Move, Position};

/// Leaf nodes `depth` plies below `pos` (1 at depth 0).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut total = 0;
            for &m in &pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// Leaf nodes `depth` plies below `pos`, playing every move including the last ply
/// (slower; measures make-move speed as well as generation).
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut total = 0;
            for &m in &pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(m);
                // Keep the played leaf observable so the move is really made.
                core::hint::black_box(&child);
                total += 1;
            }
            total
        }
        _ => {
            let mut total = 0;
            for &m in &pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(m);
                total += perft_full(&child, depth - 1);
            }
            total
        }
    }
}

/// Perft per root move ("divide"), in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
