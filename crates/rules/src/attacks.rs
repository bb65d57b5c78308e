//! Attacks: leapers by lookup, sliders by one of two backends. The default one
//! (`magic.rs`) looks sliders up in magic-bitboard tables (about 925 KB); with
//! the `compact` feature (`rays.rs`, for WebAssembly) a bit scan along one ray
//! per direction finds the first blocker, from 4 KB of tables.
//!
//! Every table is built by `const` evaluation into a `static`, so there is no
//! run-time initialisation and nothing to race on.

use crate::{Bitboard, Color, Piece, Role, Square};

#[cfg(not(feature = "compact"))]
mod magic;
#[cfg(not(feature = "compact"))]
use magic as sliders;
#[cfg(feature = "compact")]
mod rays;
#[cfg(feature = "compact")]
use rays as sliders;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn on_board(f: i32, r: i32) -> bool {
    0 <= f && f < 8 && 0 <= r && r < 8
}

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < deltas.len() {
            let (f, r) = (sq % 8 + deltas[i].0, sq / 8 + deltas[i].1);
            if on_board(f, r) {
                table[sq as usize] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn pawn_table(color: Color) -> [u64; 64] {
    let dr = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    leaper_table(&[(-1, dr), (1, dr)])
}

/// Squares a slider on `sq` reaches along `dirs`, stopping at (and including) blockers.
const fn sliding(sq: i32, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0;
    let mut i = 0;
    while i < 4 {
        let (df, dr) = dirs[i];
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f, r) {
            let bit = 1 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        i += 1;
    }
    attacks
}

const fn empty_board_rays(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = sliding(sq as i32, 0, dirs);
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = empty_board_rays(&ROOK_DIRS);
static BISHOP_RAYS: [u64; 64] = empty_board_rays(&BISHOP_DIRS);

static KNIGHT_ATTACKS: [u64; 64] = leaper_table(&KNIGHT_DELTAS);
static KING_ATTACKS: [u64; 64] = leaper_table(&KING_DELTAS);
static PAWN_ATTACKS: [[u64; 64]; 2] = [pawn_table(Color::White), pawn_table(Color::Black)];

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index() & 63])
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index() & 63])
}

/// Squares a pawn of `color` on `sq` attacks (its diagonal captures).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index() & 63])
}

/// Squares a rook on `sq` attacks given the `occupied` squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(sliders::rook(sq.index(), occupied.0))
}

/// Squares a bishop on `sq` attacks given the `occupied` squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(sliders::bishop(sq.index(), occupied.0))
}

/// Squares a rook on `sq` attacks on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index() & 63])
}

/// Squares a bishop on `sq` attacks on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index() & 63])
}

/// Squares a queen on `sq` attacks given the `occupied` squares.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares `piece` on `sq` attacks given the `occupied` squares.
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(sliders::between(a.index(), b.index()))
}

/// The whole rank, file or diagonal through `a` and `b`, or empty if none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(sliders::line(a.index(), b.index()))
}

/// Whether `a`, `b` and `c` lie on one rank, file or diagonal.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_attacks_match_ray_walks_on_sample_occupancies() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = seed & seed.rotate_left(17);
            for sq in Square::all() {
                let i = sq.index() as i32;
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    sliding(i, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(sq, Bitboard(occ)).0,
                    sliding(i, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn between_and_line_match_walks_for_every_pair_of_squares() {
        for a in Square::all() {
            for b in Square::all() {
                let (ai, bi) = (a.index() as i32, b.index() as i32);
                let (df, dr) = (bi % 8 - ai % 8, bi / 8 - ai / 8);
                let aligned = (df, dr) != (0, 0) && (df == 0 || dr == 0 || df.abs() == dr.abs());
                let (mut walked_between, mut walked_line) = (0u64, 0u64);
                if aligned {
                    let step = (df.signum(), dr.signum());
                    let back = (-step.0, -step.1);
                    walked_line = sliding(ai, 0, &[step, back, step, back]) | 1 << ai;
                    let (mut f, mut r) = (ai % 8 + step.0, ai / 8 + step.1);
                    while r * 8 + f != bi {
                        walked_between |= 1 << (r * 8 + f);
                        f += step.0;
                        r += step.1;
                    }
                }
                assert_eq!(between(a, b).0, walked_between, "between {a} and {b}");
                assert_eq!(line(a, b).0, walked_line, "line through {a} and {b}");
            }
        }
    }

    #[test]
    fn between_and_line_follow_ranks_files_and_diagonals() {
        assert_eq!(between(Square::A1, Square::A4).count(), 2);
        assert_eq!(between(Square::A1, Square::H8).count(), 6);
        assert!(between(Square::A1, Square::B3).is_empty());
        assert_eq!(line(Square::C3, Square::E5).count(), 8);
        assert!(aligned(Square::E1, Square::E4, Square::E8));
        assert!(!aligned(Square::E1, Square::F3, Square::G5));
    }
}
