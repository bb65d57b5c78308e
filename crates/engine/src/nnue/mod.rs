//! The neural evaluation (NNUE): `768 → H` per perspective, a squared clipped ReLU,
//! then one output from one of a few output layers chosen by the number of pieces
//! on the board (a bucket: an ending is weighed differently from a middlegame at
//! the cost of a few weights, no slower to evaluate).
//!
//! * Inputs: one per (colour relative to the perspective, role, square), the
//!   square flipped for Black's perspective, so one set of weights serves both.
//! * The accumulators (the hidden layer before its activation) are kept per
//!   colour and updated from the difference between a position's board and its
//!   parent's, which covers every kind of move, Chess960 castling included,
//!   without decoding it.
//! * Integer arithmetic throughout (weights quantised by [`QA`] and [`QB`]), so
//!   every kernel gives the same result and `bench` counts the same nodes on every
//!   machine.
//!
//! The network is trained by the `caissa-train` crate on the engine's own games;
//! [`Network::embedded`] is the one built into the binary.

mod file;
mod kernels;

use std::sync::{Arc, OnceLock};

use caissa_rules::{Board, Color, Piece, Position, Role, Square};

pub use file::NetError;

/// Inputs per perspective.
pub const INPUTS: usize = 768;
/// Largest hidden layer a net file may have.
pub const MAX_HIDDEN: usize = 512;
/// Quantisation of the first layer: an activation of 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// Most output buckets a net file may have (one per number of pieces at most).
pub const MAX_BUCKETS: usize = 32;

/// The output bucket of a board with `pieces` men on it (kings included) for a
/// net of `buckets` buckets: the men from 2 to 32 shared out evenly.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let per = 32usize.div_ceil(buckets);
    (pieces.saturating_sub(2) as usize / per).min(buckets - 1)
}

/// The input index of `piece` on `sq` seen from `perspective`.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = usize::from(piece.color != perspective);
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    theirs * 384 + piece.role.index() * 64 + sq
}

/// A quantised network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// Output buckets (1 for a net without).
    buckets: usize,
    /// First layer, one row of `hidden` per input (`INPUTS × hidden`).
    ft_weights: Vec<i16>,
    /// First layer biases.
    ft_bias: Vec<i16>,
    /// Output weights per bucket: the side to move's `hidden`, then the other
    /// side's (`buckets × 2 × hidden`).
    out_weights: Vec<i16>,
    /// Output bias per bucket, scaled by `QA · QB`.
    out_bias: Vec<i32>,
}

static EMBEDDED: OnceLock<Option<Arc<Network>>> = OnceLock::new();

impl Network {
    /// A network from its quantised parts, `out_bias` holding one bias per
    /// output bucket; `None` when the sizes disagree, the hidden layer is empty,
    /// not a multiple of 16 or larger than [`MAX_HIDDEN`], the buckets are none or
    /// more than [`MAX_BUCKETS`], or an output weight is beyond ±127 (the products
    /// of the output layer must fit in 16 bits).
    pub fn new(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Option<Network> {
        let buckets = out_bias.len();
        let sizes_agree = ft_weights.len() == INPUTS * hidden
            && ft_bias.len() == hidden
            && out_weights.len() == buckets * 2 * hidden
            && out_weights.iter().all(|w| (-127..=127).contains(w));
        let shape_ok = hidden > 0
            && hidden <= MAX_HIDDEN
            && hidden.is_multiple_of(16)
            && (1..=MAX_BUCKETS).contains(&buckets);
        (shape_ok && sizes_agree).then_some(Network {
            hidden,
            buckets,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// The network built into the engine (read once, then shared).
    pub fn shared_embedded() -> Option<Arc<Network>> {
        EMBEDDED
            .get_or_init(|| Network::from_bytes(file::EMBEDDED).ok().map(Arc::new))
            .clone()
    }

    /// Size of the hidden layer.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Number of output buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// First-layer weights, one row of `hidden` per input, scaled by [`QA`].
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// First-layer biases, scaled by [`QA`].
    pub fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// Output weights per bucket (the side to move's `hidden`, then the other
    /// side's), scaled by [`QB`].
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }

    /// Output bias per bucket, scaled by `QA · QB`.
    pub fn out_bias(&self) -> &[i32] {
        &self.out_bias
    }

    fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// Fills `acc` (two halves of `hidden`: White's perspective, then Black's) from
    /// scratch.
    pub fn refresh(&self, board: &Board, acc: &mut [i16]) {
        let h = self.hidden;
        let (white, black) = acc.split_at_mut(h);
        white.copy_from_slice(&self.ft_bias);
        black.copy_from_slice(&self.ft_bias);
        for sq in board.occupied() {
            if let Some(piece) = board.piece_at(sq) {
                kernels::add(white, self.row(feature(Color::White, piece, sq)));
                kernels::add(black, self.row(feature(Color::Black, piece, sq)));
            }
        }
    }

    /// Computes `acc` for `board` from `parent_acc`, the accumulator of `parent`.
    pub fn update(&self, parent: &Board, parent_acc: &[i16], board: &Board, acc: &mut [i16]) {
        let mut added: [(Piece, Square); 4] = [(PAWN, Square::A1); 4];
        let mut removed: [(Piece, Square); 4] = [(PAWN, Square::A1); 4];
        let (mut na, mut nr) = (0, 0);
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let before = parent.by_piece(piece);
                let after = board.by_piece(piece);
                for sq in after & !before {
                    if na == added.len() {
                        return self.refresh(board, acc);
                    }
                    added[na] = (piece, sq);
                    na += 1;
                }
                for sq in before & !after {
                    if nr == removed.len() {
                        return self.refresh(board, acc);
                    }
                    removed[nr] = (piece, sq);
                    nr += 1;
                }
            }
        }
        let h = self.hidden;
        for (k, p) in Color::ALL.into_iter().enumerate() {
            let out = &mut acc[k * h..(k + 1) * h];
            let input = &parent_acc[k * h..(k + 1) * h];
            let row = |(piece, sq): (Piece, Square)| self.row(feature(p, piece, sq));
            match (na, nr) {
                // A move, a promotion: one piece off, one on.
                (1, 1) => kernels::add_sub(out, input, row(added[0]), row(removed[0])),
                // A capture (en passant included).
                (1, 2) => kernels::add_sub_sub(
                    out,
                    input,
                    row(added[0]),
                    row(removed[0]),
                    row(removed[1]),
                ),
                _ => {
                    out.copy_from_slice(input);
                    for &change in &added[..na] {
                        kernels::add(out, row(change));
                    }
                    for &change in &removed[..nr] {
                        kernels::sub(out, row(change));
                    }
                }
            }
        }
    }

    /// The evaluation in centipawns for the side to move, `turn`, from the
    /// accumulator of `board`.
    pub fn evaluate(&self, acc: &[i16], board: &Board, turn: Color) -> i32 {
        let h = self.hidden;
        let (ours, theirs) = match turn {
            Color::White => (&acc[..h], &acc[h..2 * h]),
            Color::Black => (&acc[h..2 * h], &acc[..h]),
        };
        let bucket = output_bucket(board.occupied().count(), self.buckets);
        let weights = &self.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let sum =
            kernels::screlu_dot(ours, &weights[..h]) + kernels::screlu_dot(theirs, &weights[h..]);
        let output = sum / i64::from(QA) + i64::from(self.out_bias[bucket]);
        (output * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` from scratch (tests and single calls; the search
    /// keeps accumulators instead).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = vec![0; 2 * self.hidden];
        self.refresh(pos.board(), &mut acc);
        self.evaluate(&acc, pos.board(), pos.turn())
    }
}

const PAWN: Piece = Piece {
    color: Color::White,
    role: Role::Pawn,
};

/// The accumulators of a search path: one per ply, each computed when first
/// needed from the nearest ply that has one.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    hidden: usize,
    values: Vec<i16>,
    boards: Vec<Board>,
    ready: Vec<bool>,
}

impl AccumulatorStack {
    /// A stack for `plies` plies of `net`.
    pub fn new(net: &Network, plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            hidden: net.hidden,
            values: vec![0; plies * 2 * net.hidden],
            boards: vec![Board::empty(); plies],
            ready: vec![false; plies],
        }
    }

    /// Whether this stack was made for a network of `net`'s size.
    pub fn fits(&self, net: &Network) -> bool {
        self.hidden == net.hidden
    }

    /// Records the board at `ply` (its accumulator is computed on demand).
    #[inline]
    pub fn set(&mut self, ply: usize, board: &Board) {
        self.boards[ply] = *board;
        self.ready[ply] = false;
    }

    /// The evaluation at `ply` for `turn` to move.
    pub fn evaluate(&mut self, net: &Network, ply: usize, turn: Color) -> i32 {
        let width = 2 * self.hidden;
        let mut first = ply;
        while first > 0 && !self.ready[first] {
            first -= 1;
        }
        if !self.ready[first] {
            let board = self.boards[first];
            net.refresh(&board, &mut self.values[first * width..(first + 1) * width]);
            self.ready[first] = true;
        }
        for p in first + 1..=ply {
            let (before, after) = self.values.split_at_mut(p * width);
            net.update(
                &self.boards[p - 1],
                &before[(p - 1) * width..],
                &self.boards[p],
                &mut after[..width],
            );
            self.ready[p] = true;
        }
        net.evaluate(
            &self.values[ply * width..(ply + 1) * width],
            &self.boards[ply],
            turn,
        )
    }
}
