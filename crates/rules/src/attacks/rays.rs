//! Slider attacks without magic tables, for builds where size matters more
//! than speed (WebAssembly in the browser): one ray per direction and square
//! (4 KB). The first blocker on a ray is its lowest set bit for the directions
//! that go up the board's numbering and its highest for the others; the ray
//! beyond the blocker is taken off.

use super::on_board;

/// Directions as (file, rank) steps: the first four raise the square index.
const DIRS: [(i32, i32); 8] = [
    (0, 1),   // north
    (1, 0),   // east
    (1, 1),   // north-east
    (-1, 1),  // north-west
    (0, -1),  // south
    (-1, 0),  // west
    (-1, -1), // south-west
    (1, -1),  // south-east
];
const NORTH: usize = 0;
const EAST: usize = 1;
const NORTH_EAST: usize = 2;
const NORTH_WEST: usize = 3;
const SOUTH: usize = 4;
const WEST: usize = 5;
const SOUTH_WEST: usize = 6;
const SOUTH_EAST: usize = 7;

const fn ray_table() -> [[u64; 64]; 8] {
    let mut table = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (df, dr) = DIRS[d];
            let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
            while on_board(f, r) {
                table[d][sq as usize] |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

static RAYS: [[u64; 64]; 8] = ray_table();

/// The squares along direction `d` from `sq` up to and including the first
/// occupied one.
#[inline(always)]
fn ray(d: usize, sq: usize, occupied: u64) -> u64 {
    let ray = RAYS[d][sq & 63];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let first = if d < 4 {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray ^ RAYS[d][first as usize]
}

#[inline(always)]
pub(super) fn rook(sq: usize, occupied: u64) -> u64 {
    ray(NORTH, sq, occupied)
        | ray(EAST, sq, occupied)
        | ray(SOUTH, sq, occupied)
        | ray(WEST, sq, occupied)
}

#[inline(always)]
pub(super) fn bishop(sq: usize, occupied: u64) -> u64 {
    ray(NORTH_EAST, sq, occupied)
        | ray(NORTH_WEST, sq, occupied)
        | ray(SOUTH_WEST, sq, occupied)
        | ray(SOUTH_EAST, sq, occupied)
}

/// The direction from `a` to `b` when they share a rank, file or diagonal.
fn direction(a: usize, b: usize) -> Option<usize> {
    let df = (b % 8) as i32 - (a % 8) as i32;
    let dr = (b / 8) as i32 - (a / 8) as i32;
    if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    let step = (df.signum(), dr.signum());
    DIRS.iter().position(|&d| d == step)
}

/// The direction opposite `d`.
const fn opposite(d: usize) -> usize {
    (d + 4) % 8
}

pub(super) fn between(a: usize, b: usize) -> u64 {
    let (a, b) = (a & 63, b & 63);
    match direction(a, b) {
        Some(d) => RAYS[d][a] & RAYS[opposite(d)][b],
        None => 0,
    }
}

pub(super) fn line(a: usize, b: usize) -> u64 {
    let a = a & 63;
    match direction(a, b & 63) {
        Some(d) => RAYS[d][a] | RAYS[opposite(d)][a] | 1 << a,
        None => 0,
    }
}
