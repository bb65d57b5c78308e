//! The network in floating point, as the trainer fits it: `768 → H` per
//! perspective (shared weights), a squared clipped ReLU, and one output from the
//! output layer of the board's bucket (see [`nnue::output_bucket`]), whose value
//! times [`SCALE`] is the evaluation in centipawns for the side to move.
//! [`FloatNet::quantise`] turns it into the engine's integer [`Network`].

use caissa_engine::nnue::{self, Network, INPUTS, QA, QB, SCALE};
use caissa_engine::Rng;

use crate::record::Record;

/// Weights are kept within ±this after every step, so the quantised first layer
/// fits 16-bit accumulators and the output weights stay within ±127.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The network's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden size H.
    pub hidden: usize,
    /// Output buckets B.
    pub buckets: usize,
    /// First layer: `INPUTS` rows of H.
    pub w0: Vec<f32>,
    /// First layer biases (H).
    pub b0: Vec<f32>,
    /// Output weights per bucket: the side to move's H, then the other side's H
    /// (`B × 2H`).
    pub w1: Vec<f32>,
    /// Output bias per bucket.
    pub b1: Vec<f32>,
}

/// A position's active inputs from both perspectives, and the number of men on
/// its board (which picks the output bucket).
#[derive(Clone, Debug)]
pub struct Features {
    /// Inputs seen from the side to move.
    pub ours: Vec<u16>,
    /// Inputs seen from the other side.
    pub theirs: Vec<u16>,
    /// Men on the board, kings included.
    pub men: u32,
}

impl Features {
    /// The inputs of a record's board.
    pub fn of(record: &Record) -> Features {
        let mut ours = Vec::with_capacity(32);
        let mut theirs = Vec::with_capacity(32);
        let them = !record.turn;
        for sq in record.board.occupied() {
            if let Some(piece) = record.board.piece_at(sq) {
                ours.push(nnue::feature(record.turn, piece, sq) as u16);
                theirs.push(nnue::feature(them, piece, sq) as u16);
            }
        }
        Features {
            ours,
            theirs,
            men: record.board.occupied().count(),
        }
    }
}

/// The squared clipped ReLU.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl FloatNet {
    /// Random starting weights: the first layer from N(0, 1/√32)-like draws, the
    /// output layers uniform within ±1/√(2H), biases zero.
    pub fn random(hidden: usize, buckets: usize, rng: &mut Rng) -> FloatNet {
        let mut normal = || {
            // Sum of four uniforms: close enough to a normal for a start.
            let s: f64 = (0..4).map(|_| rng.next_f64() - 0.5).sum();
            (s * (3.0f64).sqrt()) as f32
        };
        let w0 = (0..INPUTS * hidden)
            .map(|_| normal() / 32f32.sqrt())
            .collect();
        let bound = 1.0 / ((2 * hidden) as f32).sqrt();
        let w1 = (0..buckets * 2 * hidden)
            .map(|_| (rng.next_f64() as f32 * 2.0 - 1.0) * bound)
            .collect();
        FloatNet {
            hidden,
            buckets,
            w0,
            b0: vec![0.0; hidden],
            w1,
            b1: vec![0.0; buckets],
        }
    }

    /// The output bucket of a position with `men` on the board.
    pub fn bucket(&self, men: u32) -> usize {
        nnue::output_bucket(men, self.buckets)
    }

    /// The accumulator (hidden layer before activation) for some inputs.
    pub fn accumulate(&self, inputs: &[u16], out: &mut [f32]) {
        let h = self.hidden;
        out.copy_from_slice(&self.b0);
        for &f in inputs {
            let row = &self.w0[usize::from(f) * h..(usize::from(f) + 1) * h];
            for (o, w) in out.iter_mut().zip(row) {
                *o += w;
            }
        }
    }

    /// The output (centipawns / [`SCALE`]) for the side to move.
    pub fn forward(&self, features: &Features) -> f32 {
        let h = self.hidden;
        let mut ours = vec![0.0; h];
        let mut theirs = vec![0.0; h];
        self.accumulate(&features.ours, &mut ours);
        self.accumulate(&features.theirs, &mut theirs);
        self.output(&ours, &theirs, self.bucket(features.men))
    }

    /// The output of `bucket`'s layer from both accumulators.
    pub fn output(&self, ours: &[f32], theirs: &[f32], bucket: usize) -> f32 {
        let h = self.hidden;
        let w1 = &self.w1[bucket * 2 * h..(bucket + 1) * 2 * h];
        let a: f32 = ours.iter().zip(&w1[..h]).map(|(&x, w)| screlu(x) * w).sum();
        let b: f32 = theirs
            .iter()
            .zip(&w1[h..])
            .map(|(&x, w)| screlu(x) * w)
            .sum();
        a + b + self.b1[bucket]
    }

    /// The evaluation in centipawns for the side to move.
    pub fn centipawns(&self, features: &Features) -> f32 {
        self.forward(features) * SCALE as f32
    }

    /// The float net a quantised one stands for: each weight divided by its scale.
    /// Training can go on from it (`caissa engine train --init`); quantising it
    /// again gives back the same network.
    pub fn dequantise(net: &Network) -> FloatNet {
        let qa = QA as f32;
        let qb = QB as f32;
        FloatNet {
            hidden: net.hidden(),
            buckets: net.buckets(),
            w0: net
                .ft_weights()
                .iter()
                .map(|&w| f32::from(w) / qa)
                .collect(),
            b0: net.ft_bias().iter().map(|&b| f32::from(b) / qa).collect(),
            w1: net
                .out_weights()
                .iter()
                .map(|&w| f32::from(w) / qb)
                .collect(),
            b1: net
                .out_bias()
                .iter()
                .map(|&b| b as f32 / (qa * qb))
                .collect(),
        }
    }

    /// The engine's integer network (`None` if the hidden size is one the engine
    /// cannot load: see [`Network::new`]).
    pub fn quantise(&self) -> Option<Network> {
        let q = |x: f32, scale: i32, lo: i32, hi: i32| {
            ((x * scale as f32).round() as i32).clamp(lo, hi) as i16
        };
        let ft_weights = self.w0.iter().map(|&w| q(w, QA, -32767, 32767)).collect();
        let ft_bias = self.b0.iter().map(|&b| q(b, QA, -32767, 32767)).collect();
        let out_weights = self.w1.iter().map(|&w| q(w, QB, -127, 127)).collect();
        let out_bias = self
            .b1
            .iter()
            .map(|b| (b * (QA * QB) as f32).round() as i32)
            .collect();
        Network::new(self.hidden, ft_weights, ft_bias, out_weights, out_bias)
    }
}
