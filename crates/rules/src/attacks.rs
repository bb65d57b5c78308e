//! Attack tables: leapers by lookup, sliders by magic bitboards.
//!
//! Every table is built by `const` evaluation into a `static`, so there is no
//! run-time initialisation and nothing to race on. The magic multipliers were
//! found by a random sparse search for this project (fixed shift of
//! `64 - mask bits`, one shared table with per-square offsets).

use crate::{Bitboard, Color, Piece, Role, Square};

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

/// Relevant occupancy: the rays without their last square.
const fn relevance_mask(sq: i32, dirs: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < 4 {
        let (df, dr) = dirs[i];
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1 << (r * 8 + f);
            f += df;
            r += dr;
        }
        i += 1;
    }
    mask
}

#[derive(Copy, Clone)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

const fn magics(dirs: &[(i32, i32); 4], factors: &[u64; 64], start: usize) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        factor: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevance_mask(sq as i32, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            factor: factors[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const ROOK_TABLE_LEN: usize = 102_400;
const BISHOP_TABLE_LEN: usize = 5_248;

static ROOK_MAGICS: [Magic; 64] = magics(&ROOK_DIRS, &ROOK_FACTORS, 0);
static BISHOP_MAGICS: [Magic; 64] = magics(&BISHOP_DIRS, &BISHOP_FACTORS, ROOK_TABLE_LEN);

const fn fill_slider_table(
    mut table: [u64; ROOK_TABLE_LEN + BISHOP_TABLE_LEN],
    magics: &[Magic; 64],
    dirs: &[(i32, i32); 4],
) -> [u64; ROOK_TABLE_LEN + BISHOP_TABLE_LEN] {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Carry-Rippler enumeration of every subset of the mask.
        let mut subset: u64 = 0;
        loop {
            let index = m.offset + (subset.wrapping_mul(m.factor) >> m.shift) as usize;
            table[index] = sliding(sq as i32, subset, dirs);
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

static SLIDER_ATTACKS: [u64; ROOK_TABLE_LEN + BISHOP_TABLE_LEN] = fill_slider_table(
    fill_slider_table(
        [0; ROOK_TABLE_LEN + BISHOP_TABLE_LEN],
        &ROOK_MAGICS,
        &ROOK_DIRS,
    ),
    &BISHOP_MAGICS,
    &BISHOP_DIRS,
);

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

/// `BETWEEN[a][b]`: squares strictly between two aligned squares; `LINE[a][b]`: the whole
/// line through them (both empty when not aligned).
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = KING_DELTAS[d];
            // Walk from a in direction d; each square b reached is aligned with a.
            let (mut f, mut r) = (a % 8 + df, a / 8 + dr);
            let mut passed = 0u64;
            let full = full_line(a, df, dr);
            while on_board(f, r) {
                let b = (r * 8 + f) as usize;
                between[a as usize][b] = passed;
                line[a as usize][b] = full;
                passed |= 1 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const fn full_line(sq: i32, df: i32, dr: i32) -> u64 {
    let mut bits = 1 << sq;
    let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
    while on_board(f, r) {
        bits |= 1 << (r * 8 + f);
        f += df;
        r += dr;
    }
    let (mut f, mut r) = (sq % 8 - df, sq / 8 - dr);
    while on_board(f, r) {
        bits |= 1 << (r * 8 + f);
        f -= df;
        r -= dr;
    }
    bits
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

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

#[inline(always)]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let index = m.offset + ((occupied.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize;
    Bitboard(SLIDER_ATTACKS[index])
}

/// Squares a rook on `sq` attacks given the `occupied` squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index() & 63], occupied)
}

/// Squares a bishop on `sq` attacks given the `occupied` squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index() & 63], occupied)
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
    Bitboard(LINES.0[a.index() & 63][b.index() & 63])
}

/// The whole rank, file or diagonal through `a` and `b`, or empty if none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index() & 63][b.index() & 63])
}

/// Whether `a`, `b` and `c` lie on one rank, file or diagonal.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

const ROOK_FACTORS: [u64; 64] = [
    0x2080002080400010,
    0x00c0002001401000,
    0x2100110008402002,
    0x0880080081041000,
    0x0200020020041008,
    0x2300040008010012,
    0x0c00283004008201,
    0x0180010000407a80,
    0x0168800080400020,
    0x0010400040201000,
    0x1001002001001048,
    0x1001002408100100,
    0x0801000408010012,
    0x4001000209000400,
    0x08a20004c8020001,
    0x2002801145002280,
    0x0080860021004200,
    0x001000c009402002,
    0x00b0002004002800,
    0x100a808010020800,
    0x8101010008000410,
    0x0244008002000480,
    0x0000040010810208,
    0x2000020000448534,
    0x4104400480008033,
    0x0000810100204000,
    0x0440430900200010,
    0x4600240900100100,
    0x0060080080040080,
    0x0001000300080400,
    0x0004084400011002,
    0x0023040200008041,
    0x0580050043002080,
    0x0400804002802008,
    0x0001002001004010,
    0x1000200901001000,
    0x4410800801800c00,
    0xa012003806001004,
    0x0020100104008802,
    0x0004808402000041,
    0x0010400170898000,
    0x0080500020004004,
    0x1040408012020020,
    0x8010040008004040,
    0x2001080100110004,
    0x0000020004008080,
    0x0021010810040002,
    0x0800008c43020024,
    0x0000800021005100,
    0x0070201040008080,
    0x0000d04282006a00,
    0x0010014400080240,
    0x0001080110050100,
    0x0012000810240600,
    0x0402000801040200,
    0x028100108a004100,
    0x0050800300102045,
    0x8208210040120882,
    0x8010600101183441,
    0x020b000910006045,
    0x0241001002480005,
    0x0081000400880241,
    0x0000009008024124,
    0x0048122980410402,
];
const BISHOP_FACTORS: [u64; 64] = [
    0x0848020822040013,
    0x8010a40085821200,
    0x0008008430840822,
    0x0808048108040000,
    0x1304042100008104,
    0x5001012010204023,
    0x81048801b8200420,
    0x200a008084012000,
    0x0040102001042084,
    0x840a505042428020,
    0x0000700102202920,
    0x44101c0c10800002,
    0x0040040422000000,
    0x0180020802090202,
    0x4020020811041202,
    0x000104308c042000,
    0x4140661002424400,
    0x0028012008010460,
    0x0188062102002a00,
    0x0014004840102008,
    0x0105000290400002,
    0x8001022200410400,
    0x104a041918013446,
    0x008a000082008238,
    0x04a0060008100430,
    0x0008220008820801,
    0x2508041208005010,
    0x4008080200202020,
    0x2441001013004000,
    0x0030008060407000,
    0x4008108000420800,
    0x0012021050290100,
    0x0210080482200500,
    0xcc01112048100480,
    0x0020402806500440,
    0x00048e0080580080,
    0x0040102020020080,
    0x0028010440080807,
    0x4601041108008800,
    0x8040810e04104200,
    0x901210110400088a,
    0xa003080212081050,
    0x00c1004048401004,
    0x900000a014400800,
    0x0008021040405401,
    0x4020008206002090,
    0x0004190424030100,
    0x0424008a02026250,
    0x8004088250900040,
    0x1c00430088a04200,
    0x0001020094040001,
    0x8040210020880061,
    0x2010040450442032,
    0x0800840850044001,
    0x0004040802140004,
    0x0004080a04222020,
    0x8088802110022000,
    0x1081a10416114400,
    0x0205010a24060820,
    0x0000000720411080,
    0x1008000208430400,
    0x580c026028810840,
    0x802020441020a110,
    0x12c0022401020018,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walks_on_sample_occupancies() {
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
    fn between_and_line_follow_ranks_files_and_diagonals() {
        assert_eq!(between(Square::A1, Square::A4).count(), 2);
        assert_eq!(between(Square::A1, Square::H8).count(), 6);
        assert!(between(Square::A1, Square::B3).is_empty());
        assert_eq!(line(Square::C3, Square::E5).count(), 8);
        assert!(aligned(Square::E1, Square::E4, Square::E8));
        assert!(!aligned(Square::E1, Square::F3, Square::G5));
    }
}
