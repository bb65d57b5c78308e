//! Zobrist keys, generated at compile time from a fixed seed.
//!
//! A position's key folds in the pieces, the side to move, the castling rights and
//! the en-passant file *only when an en-passant capture is legal*, so equal keys mean
//! equal positions in the sense of the Laws' repetition rule (9.2.3).

use crate::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const KEY_COUNT: usize = 12 * 64 + 64 + 8 + 1;

const fn keys() -> [u64; KEY_COUNT] {
    let mut out = [0; KEY_COUNT];
    let mut state = 0x6361_6973_7361_2121; // "caissa!!"
    let mut i = 0;
    while i < KEY_COUNT {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

static KEYS: [u64; KEY_COUNT] = keys();

/// Key for `piece` standing on `sq`.
#[inline(always)]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[(piece.color.index() * 6 + piece.role.index()) * 64 + (sq.index() & 63)]
}

/// Key for a castling right with its rook on `rook` (one key per square, so
/// Chess960 rights hash as well as standard ones).
#[inline(always)]
pub(crate) fn castling(rook: Square) -> u64 {
    KEYS[12 * 64 + (rook.index() & 63)]
}

/// Key for a legal en-passant capture on the given file.
#[inline(always)]
pub(crate) fn en_passant(file: usize) -> u64 {
    KEYS[12 * 64 + 64 + (file & 7)]
}

/// Key added when Black is to move.
#[inline(always)]
pub(crate) fn turn(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS[KEY_COUNT - 1],
    }
}
