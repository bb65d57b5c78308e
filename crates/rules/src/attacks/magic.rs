//! Slider attacks by magic bitboards: one shared table of 107,648 entries
//! (about 860 KB) indexed by `(occupancy & mask) * factor >> shift`. The magic
//! multipliers were found by a random sparse search for this project (fixed
//! shift of `64 - mask bits`, per-square offsets). The tables for `between` and
//! `line` (64 KB) live here too: the compact backend computes both instead.

use super::{on_board, sliding, BISHOP_DIRS, KING_DELTAS, ROOK_DIRS};

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

#[inline(always)]
fn magic_lookup(m: &Magic, occupied: u64) -> u64 {
    let index = m.offset + ((occupied & m.mask).wrapping_mul(m.factor) >> m.shift) as usize;
    SLIDER_ATTACKS[index]
}

#[inline(always)]
pub(super) fn rook(sq: usize, occupied: u64) -> u64 {
    magic_lookup(&ROOK_MAGICS[sq & 63], occupied)
}

#[inline(always)]
pub(super) fn bishop(sq: usize, occupied: u64) -> u64 {
    magic_lookup(&BISHOP_MAGICS[sq & 63], occupied)
}

#[inline(always)]
pub(super) fn between(a: usize, b: usize) -> u64 {
    LINES.0[a & 63][b & 63]
}

#[inline(always)]
pub(super) fn line(a: usize, b: usize) -> u64 {
    LINES.1[a & 63][b & 63]
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
