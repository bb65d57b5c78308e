//! Static evaluation: a tapered (middlegame/endgame) sum of linear terms.
//!
//! Every term is a feature count times a pair of weights [`S`] (middlegame,
//! endgame). The two sums are blended by the game phase (24 with all minor and
//! major pieces on the board, 0 with only kings and pawns). Because the whole
//! evaluation is linear in its weights, the same code can either *score* a position
//! with the weights in [`crate::params::PARAMS`] or *trace* it (record how often each
//! weight was used), which is what the Texel tuner in [`crate::tune`] needs.
//!
//! Terms (all from each side's point of view, White minus Black):
//! material; piece-square tables; mobility (squares attacked that hold no own piece
//! and are not attacked by an enemy pawn); pawn structure (doubled, isolated,
//! supported/phalanx, passed pawns by relative rank); king safety (pawn shield on the
//! two ranks in front of the king, an own-pawn-free king file, enemy pieces attacking
//! the squares around the king and how many pieces take part); bishop pair; rooks on
//! open and half-open files; a small bonus for the side to move.

use caissa_rules::attacks;
use caissa_rules::{Bitboard, Color, Position, Role, Square};

use crate::params::PARAMS;

/// A weight pair: middlegame and endgame value in centipawns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct S(pub i32, pub i32);

/// Index of the first material weight (pawn, knight, bishop, rook, queen).
pub const MATERIAL: usize = 0;
/// Piece-square tables: 6 roles x 64 squares, from White's side (a1 = 0).
pub const PST: usize = MATERIAL + 5;
/// Mobility per reachable square: knight, bishop, rook, queen.
pub const MOBILITY: usize = PST + 6 * 64;
/// Passed pawn by relative rank (0..8; only 1..=6 occur).
pub const PASSED: usize = MOBILITY + 4;
/// A pawn with another own pawn in front of it on the same file.
pub const DOUBLED: usize = PASSED + 8;
/// A pawn with no own pawn on the adjacent files.
pub const ISOLATED: usize = DOUBLED + 1;
/// A pawn defended by a pawn or with a pawn beside it.
pub const SUPPORTED: usize = ISOLATED + 1;
/// Own pawns one and two ranks in front of the king (king file and its neighbours).
pub const SHIELD: usize = SUPPORTED + 1;
/// Squares next to the enemy king attacked, per attacking knight, bishop, rook, queen.
pub const KING_ZONE_ATTACK: usize = SHIELD + 2;
/// How many pieces attack the enemy king's surroundings (0..=7, one-hot).
pub const KING_ATTACKERS: usize = KING_ZONE_ATTACK + 4;
/// No own pawn on the king's file.
pub const KING_OPEN_FILE: usize = KING_ATTACKERS + 8;
/// Two or more bishops.
pub const BISHOP_PAIR: usize = KING_OPEN_FILE + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file with only enemy pawns.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// The side to move.
pub const TEMPO: usize = ROOK_SEMI_OPEN + 1;
/// Number of weights.
pub const PARAM_COUNT: usize = TEMPO + 1;

/// Full phase: two knights, two bishops, two rooks and a queen per side.
pub const MAX_PHASE: i32 = 24;

/// Where the evaluation sends its terms.
pub(crate) trait Sink {
    /// Feature `index` occurs `count` times (positive for White, negative for Black).
    fn add(&mut self, index: usize, count: i32);
}

struct Scorer<'a> {
    params: &'a [S; PARAM_COUNT],
    mg: i32,
    eg: i32,
}

impl Sink for Scorer<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        let s = self.params[index];
        self.mg += s.0 * count;
        self.eg += s.1 * count;
    }
}

/// Feature counts of one position, for tuning.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Dense counts, White minus Black, per weight index.
    pub counts: Vec<i32>,
    /// Game phase, 0 (endgame) to [`MAX_PHASE`].
    pub phase: i32,
}

impl Sink for Trace {
    fn add(&mut self, index: usize, count: i32) {
        self.counts[index] += count;
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

const fn file_mask(f: usize) -> u64 {
    FILE_A << f
}

const fn adjacent_files(f: usize) -> u64 {
    let mut m = 0;
    if f > 0 {
        m |= file_mask(f - 1);
    }
    if f < 7 {
        m |= file_mask(f + 1);
    }
    m
}

/// Squares strictly in front of `sq` for `color` (index 0 white, 1 black) on the
/// same file (`span_files` = false) or on the same and adjacent files.
const fn front_masks(adjacent: bool) -> [[u64; 64]; 2] {
    let mut out = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = sq % 8;
        let r = sq / 8;
        let files = if adjacent {
            file_mask(f) | adjacent_files(f)
        } else {
            file_mask(f)
        };
        let mut white = 0u64;
        let mut rr = r + 1;
        while rr < 8 {
            white |= 0xffu64 << (rr * 8);
            rr += 1;
        }
        let mut black = 0u64;
        let mut rr = 0;
        while rr < r {
            black |= 0xffu64 << (rr * 8);
            rr += 1;
        }
        out[0][sq] = white & files;
        out[1][sq] = black & files;
        sq += 1;
    }
    out
}

static FRONT_SPAN: [[u64; 64]; 2] = front_masks(false);
static PASSED_SPAN: [[u64; 64]; 2] = front_masks(true);

#[inline(always)]
fn pawn_attacks_set(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

#[inline(always)]
fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank().index(),
        Color::Black => 7 - sq.rank().index(),
    }
}

/// The phase of a position: 0 (bare kings and pawns) to [`MAX_PHASE`].
pub fn phase(pos: &Position) -> i32 {
    let b = pos.board();
    let p = b.by_role(Role::Knight).count()
        + b.by_role(Role::Bishop).count()
        + 2 * b.by_role(Role::Rook).count()
        + 4 * b.by_role(Role::Queen).count();
    (p as i32).min(MAX_PHASE)
}

/// Sends every term of `pos` to `sink`, White's terms positive.
pub(crate) fn terms<K: Sink>(pos: &Position, sink: &mut K) {
    let board = pos.board();
    let occupied = board.occupied().0;
    let pawns_of = |c: Color| (board.by_role(Role::Pawn) & board.by_color(c)).0;
    let pawn_attacks = [
        pawn_attacks_set(Color::White, pawns_of(Color::White)),
        pawn_attacks_set(Color::Black, pawns_of(Color::Black)),
    ];
    let king_sq = [pos.king(Color::White), pos.king(Color::Black)];
    let king_zone = [
        attacks::king_attacks(king_sq[0]).0 | (1u64 << king_sq[0].index()),
        attacks::king_attacks(king_sq[1]).0 | (1u64 << king_sq[1].index()),
    ];

    for color in Color::ALL {
        let sign = color.fold(1, -1);
        let us = color.index();
        let them = (!color).index();
        let own = board.by_color(color).0;
        let own_pawns = pawns_of(color);
        let their_pawns = pawns_of(!color);
        let area = !own & !pawn_attacks[them];
        let mut attackers = 0;

        for role in Role::ALL {
            let pieces = board.by_role(role) & board.by_color(color);
            let count = pieces.count() as i32;
            if count == 0 {
                continue;
            }
            if role != Role::King {
                sink.add(MATERIAL + role.index(), sign * count);
            }
            for sq in pieces {
                let rel = sq.flip_if(color).index();
                sink.add(PST + role.index() * 64 + rel, sign);
                let att = match role {
                    Role::Knight => attacks::knight_attacks(sq).0,
                    Role::Bishop => attacks::bishop_attacks(sq, Bitboard(occupied)).0,
                    Role::Rook => attacks::rook_attacks(sq, Bitboard(occupied)).0,
                    Role::Queen => attacks::queen_attacks(sq, Bitboard(occupied)).0,
                    _ => continue,
                };
                let slot = role.index() - 1;
                sink.add(MOBILITY + slot, sign * (att & area).count_ones() as i32);
                let hits = (att & king_zone[them]).count_ones() as i32;
                if hits > 0 {
                    attackers += 1;
                    sink.add(KING_ZONE_ATTACK + slot, sign * hits);
                }
                if role == Role::Rook {
                    let file = file_mask(sq.file().index());
                    if file & own_pawns == 0 {
                        if file & their_pawns == 0 {
                            sink.add(ROOK_OPEN, sign);
                        } else {
                            sink.add(ROOK_SEMI_OPEN, sign);
                        }
                    }
                }
            }
            if role == Role::Bishop && count >= 2 {
                sink.add(BISHOP_PAIR, sign);
            }
        }
        sink.add(KING_ATTACKERS + attackers.min(7), sign);

        // Pawn structure.
        for sq in Bitboard(own_pawns) {
            let s = sq.index();
            let f = sq.file().index();
            let front = FRONT_SPAN[us][s];
            if front & own_pawns != 0 {
                sink.add(DOUBLED, sign);
            } else if PASSED_SPAN[us][s] & their_pawns == 0 {
                sink.add(PASSED + relative_rank(color, sq), sign);
            }
            if adjacent_files(f) & own_pawns == 0 {
                sink.add(ISOLATED, sign);
            }
            let defenders = attacks::pawn_attacks(!color, sq).0 & own_pawns;
            let beside = adjacent_files(f) & (0xffu64 << (sq.rank().index() * 8)) & own_pawns;
            if defenders | beside != 0 {
                sink.add(SUPPORTED, sign);
            }
        }

        // King shelter.
        let ksq = king_sq[us];
        let kf = ksq.file().index();
        let files = file_mask(kf) | adjacent_files(kf);
        let kr = ksq.rank().index() as i32;
        let dir = color.fold(1, -1);
        for (i, step) in [1, 2].into_iter().enumerate() {
            let r = kr + dir * step;
            if (0..8).contains(&r) {
                let rank = 0xffu64 << (r * 8);
                let n = (rank & files & own_pawns).count_ones() as i32;
                if n > 0 {
                    sink.add(SHIELD + i, sign * n);
                }
            }
        }
        if file_mask(kf) & own_pawns == 0 {
            sink.add(KING_OPEN_FILE, sign);
        }
    }
    sink.add(TEMPO, pos.turn().fold(1, -1));
}

/// The weights the engine plays with ([`crate::params::PARAMS`]).
pub fn default_params() -> &'static [S; PARAM_COUNT] {
    &PARAMS
}

/// The evaluation of `pos` in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &PARAMS)
}

/// [`evaluate`] with other weights (the tuner's).
pub fn evaluate_with(pos: &Position, params: &[S; PARAM_COUNT]) -> i32 {
    let mut scorer = Scorer {
        params,
        mg: 0,
        eg: 0,
    };
    terms(pos, &mut scorer);
    let phase = phase(pos);
    let mut score = (scorer.mg * phase + scorer.eg * (MAX_PHASE - phase)) / MAX_PHASE;
    score = scale_drawish(pos, score);
    match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Feature counts of `pos` (White's point of view), for the tuner.
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace {
        counts: vec![0; PARAM_COUNT],
        phase: phase(pos),
    };
    terms(pos, &mut t);
    t
}

/// Pulls the score towards zero when the side ahead has no pawns and at most a minor
/// piece more than the other side: such endings are mostly drawn.
fn scale_drawish(pos: &Position, score: i32) -> i32 {
    let b = pos.board();
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if (b.by_role(Role::Pawn) & b.by_color(strong)).is_nonempty() {
        return score;
    }
    let npm = |c: Color| {
        let bc = b.by_color(c);
        3 * (b.by_role(Role::Knight) & bc).count() as i32
            + 3 * (b.by_role(Role::Bishop) & bc).count() as i32
            + 5 * (b.by_role(Role::Rook) & bc).count() as i32
            + 9 * (b.by_role(Role::Queen) & bc).count() as i32
    };
    let lead = npm(strong) - npm(!strong);
    if lead <= 3 {
        if npm(strong) <= 3 {
            return 0;
        }
        return score / 4;
    }
    score
}

/// The hand-set starting weights the tuner began from: round material values and
/// piece-square tables drawn from simple rules (centralise knights, advance pawns,
/// keep the king in its corner until the endgame, then centralise it).
pub fn hand_values() -> [S; PARAM_COUNT] {
    let mut p = [S::default(); PARAM_COUNT];
    let material = [
        S(90, 110),
        S(320, 300),
        S(330, 310),
        S(470, 540),
        S(950, 980),
    ];
    p[MATERIAL..MATERIAL + 5].copy_from_slice(&material);
    for sq in 0..64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let center = f.min(7 - f) + r.min(7 - r); // 0..6
        let file_center = [0, 0, 5, 10, 10, 5, 0, 0][f as usize];
        // Pawn.
        let pawn_mg = if (1..7).contains(&r) {
            4 * (r - 1) + if (2..=4).contains(&r) { file_center } else { 0 }
        } else {
            0
        };
        let pawn_eg = if (1..7).contains(&r) { 8 * (r - 1) } else { 0 };
        p[PST + sq] = S(pawn_mg, pawn_eg);
        p[PST + 64 + sq] = S(8 * center - 25, 6 * center - 20);
        p[PST + 128 + sq] = S(4 * center - 10, 4 * center - 10);
        let rook_mg = if r == 6 { 15 } else { 0 } + if (3..=4).contains(&f) { 5 } else { 0 };
        p[PST + 192 + sq] = S(rook_mg, if r == 6 { 10 } else { 0 });
        p[PST + 256 + sq] = S(2 * center - 5, 4 * center - 12);
        let king_mg = match r {
            0 => [20, 30, 10, 0, 0, 10, 30, 20][f as usize],
            1 => [10, 10, -5, -10, -10, -5, 10, 10][f as usize],
            _ => -20 - 10 * r,
        };
        p[PST + 320 + sq] = S(king_mg, 10 * center - 30);
    }
    p[MOBILITY] = S(4, 4);
    p[MOBILITY + 1] = S(5, 5);
    p[MOBILITY + 2] = S(2, 4);
    p[MOBILITY + 3] = S(1, 2);
    let passed = [0, 5, 10, 20, 35, 60, 100, 0];
    for (i, v) in passed.into_iter().enumerate() {
        p[PASSED + i] = S(v / 2, v);
    }
    p[DOUBLED] = S(-10, -20);
    p[ISOLATED] = S(-10, -10);
    p[SUPPORTED] = S(5, 5);
    p[SHIELD] = S(12, 0);
    p[SHIELD + 1] = S(6, 0);
    p[KING_ZONE_ATTACK] = S(6, 0);
    p[KING_ZONE_ATTACK + 1] = S(5, 0);
    p[KING_ZONE_ATTACK + 2] = S(8, 0);
    p[KING_ZONE_ATTACK + 3] = S(10, 0);
    let attackers = [0, 0, 10, 30, 60, 90, 120, 150];
    for (i, v) in attackers.into_iter().enumerate() {
        p[KING_ATTACKERS + i] = S(v, 0);
    }
    p[KING_OPEN_FILE] = S(-20, 0);
    p[BISHOP_PAIR] = S(30, 50);
    p[ROOK_OPEN] = S(25, 10);
    p[ROOK_SEMI_OPEN] = S(12, 8);
    p[TEMPO] = S(15, 5);
    p
}

/// Names of the weight groups, for printing: (first index, length, name).
pub const GROUPS: &[(usize, usize, &str)] = &[
    (MATERIAL, 5, "MATERIAL"),
    (PST, 64, "PST_PAWN"),
    (PST + 64, 64, "PST_KNIGHT"),
    (PST + 128, 64, "PST_BISHOP"),
    (PST + 192, 64, "PST_ROOK"),
    (PST + 256, 64, "PST_QUEEN"),
    (PST + 320, 64, "PST_KING"),
    (MOBILITY, 4, "MOBILITY"),
    (PASSED, 8, "PASSED"),
    (DOUBLED, 1, "DOUBLED"),
    (ISOLATED, 1, "ISOLATED"),
    (SUPPORTED, 1, "SUPPORTED"),
    (SHIELD, 2, "SHIELD"),
    (KING_ZONE_ATTACK, 4, "KING_ZONE_ATTACK"),
    (KING_ATTACKERS, 8, "KING_ATTACKERS"),
    (KING_OPEN_FILE, 1, "KING_OPEN_FILE"),
    (BISHOP_PAIR, 1, "BISHOP_PAIR"),
    (ROOK_OPEN, 1, "ROOK_OPEN"),
    (ROOK_SEMI_OPEN, 1, "ROOK_SEMI_OPEN"),
    (TEMPO, 1, "TEMPO"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        let pos = Position::new();
        let t = trace(&pos);
        for (i, &c) in t.counts.iter().enumerate() {
            if i != TEMPO {
                assert_eq!(c, 0, "feature {i} unbalanced");
            }
        }
    }

    #[test]
    fn mirrored_positions_evaluate_the_same() {
        let a = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let b = Position::from_fen(
            "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
    }
}
