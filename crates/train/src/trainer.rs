//! Fits a [`FloatNet`] to self-play records on the CPU.
//!
//! * Target: `λ · result + (1 − λ) · σ(score / 400)`, both from the side to move's
//!   point of view; loss `(σ(output) − target)²`, averaged over a batch.
//! * AdamW (β₁ 0.9, β₂ 0.999, decoupled weight decay), the learning rate falling
//!   along a cosine from its start to `lr_end`; weights clipped to
//!   ±[`WEIGHT_CLIP`] after each step.
//! * Each batch is split between threads, each with its own gradient buffers,
//!   summed in a fixed order: a run is reproducible for a seed and thread count.
//! * Every 20th block of 4096 records is kept aside to measure the loss on
//!   positions the net was not fitted to (blocks, not single positions, because
//!   neighbouring records come from the same game).

use std::time::Instant;

use caissa_engine::Rng;

use crate::model::{screlu, sigmoid, Features, FloatNet, WEIGHT_CLIP};
use crate::record::Record;

/// How training runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Hidden layer size.
    pub hidden: usize,
    /// Output buckets (by the number of men on the board).
    pub buckets: usize,
    /// Passes over the training records.
    pub epochs: usize,
    /// Records per optimiser step.
    pub batch_size: usize,
    /// Starting learning rate.
    pub lr: f32,
    /// Final learning rate.
    pub lr_end: f32,
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Seed of the starting weights and of the shuffles.
    pub seed: u64,
    /// Weights to start from instead of random ones (fine-tuning a net on new
    /// data); its hidden size and buckets override `hidden` and `buckets`.
    pub init: Option<FloatNet>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hidden: 256,
            buckets: 8,
            epochs: 20,
            batch_size: 2048,
            lr: 1e-3,
            lr_end: 1e-3 * 0.3f32.powi(5),
            lambda: 0.5,
            weight_decay: 0.01,
            threads: 1,
            seed: 1,
            init: None,
        }
    }
}

/// What one epoch did.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean loss on the records kept aside (`NaN` when there are none).
    pub validation_loss: f64,
    /// Learning rate at the epoch's end.
    pub lr: f32,
    /// Records per second.
    pub positions_per_second: f64,
}

/// Records split into those fitted and those kept aside.
pub struct Dataset {
    /// Fitted.
    pub train: Vec<Record>,
    /// Kept aside.
    pub validation: Vec<Record>,
}

const BLOCK: usize = 4096;
const VALIDATION_EVERY: usize = 20;

impl Dataset {
    /// Splits `records` (in the order they were written); with `mirror`, each
    /// training record is also used reflected left to right (twice the
    /// positions for the same games).
    pub fn split(records: Vec<Record>, mirror: bool) -> Dataset {
        let mut train = Vec::with_capacity(records.len());
        let mut validation = Vec::new();
        for (i, r) in records.into_iter().enumerate() {
            if (i / BLOCK) % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
                validation.push(r);
            } else {
                train.push(r);
            }
        }
        if mirror {
            let reflected: Vec<Record> = train.iter().map(Record::mirrored).collect();
            train.extend(reflected);
        }
        Dataset { train, validation }
    }
}

/// The target of a record: the blend of its result and its score, for the side to
/// move.
pub fn target(record: &Record, lambda: f32) -> f32 {
    let white = record.turn == caissa_rules::Color::White;
    let score = if white {
        f32::from(record.white_cp)
    } else {
        -f32::from(record.white_cp)
    };
    let result = if white {
        record.outcome.white_score()
    } else {
        1.0 - record.outcome.white_score()
    };
    lambda * result + (1.0 - lambda) * sigmoid(score / caissa_engine::nnue::SCALE as f32)
}

/// Loss of the net on one record.
pub fn loss(net: &FloatNet, record: &Record, lambda: f32) -> f32 {
    let p = sigmoid(net.forward(&Features::of(record)));
    let d = p - target(record, lambda);
    d * d
}

/// Mean loss over records.
pub fn mean_loss(net: &FloatNet, records: &[Record], lambda: f32) -> f64 {
    if records.is_empty() {
        return f64::NAN;
    }
    records
        .iter()
        .map(|r| f64::from(loss(net, r, lambda)))
        .sum::<f64>()
        / records.len() as f64
}

/// Gradients of the summed loss over some records.
#[derive(Clone)]
pub struct Gradients {
    w0: Vec<f32>,
    b0: Vec<f32>,
    w1: Vec<f32>,
    b1: Vec<f32>,
    loss: f64,
}

impl Gradients {
    fn new(hidden: usize, buckets: usize) -> Gradients {
        Gradients {
            w0: vec![0.0; caissa_engine::nnue::INPUTS * hidden],
            b0: vec![0.0; hidden],
            w1: vec![0.0; buckets * 2 * hidden],
            b1: vec![0.0; buckets],
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.w0.fill(0.0);
        self.b0.fill(0.0);
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.loss = 0.0;
    }

    fn add(&mut self, other: &Gradients) {
        for (a, b) in self.w0.iter_mut().zip(&other.w0) {
            *a += b;
        }
        for (a, b) in self.b0.iter_mut().zip(&other.b0) {
            *a += b;
        }
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        self.loss += other.loss;
    }

    /// The gradient of the summed loss with respect to every parameter, in the
    /// order w0, b0, w1, b1 (tests compare it with finite differences).
    pub fn flat(&self) -> Vec<f32> {
        let mut v = self.w0.clone();
        v.extend_from_slice(&self.b0);
        v.extend_from_slice(&self.w1);
        v.extend_from_slice(&self.b1);
        v
    }
}

/// Adds the gradients of `records`' losses to `grads`.
#[inline(always)]
fn backprop_body(net: &FloatNet, records: &[Record], lambda: f32, grads: &mut Gradients) {
    let h = net.hidden;
    let mut ours = vec![0.0f32; h];
    let mut theirs = vec![0.0f32; h];
    let mut d_ours = vec![0.0f32; h];
    let mut d_theirs = vec![0.0f32; h];
    for record in records {
        let features = Features::of(record);
        net.accumulate(&features.ours, &mut ours);
        net.accumulate(&features.theirs, &mut theirs);
        let bucket = net.bucket(features.men);
        let y = net.output(&ours, &theirs, bucket);
        let p = sigmoid(y);
        let t = target(record, lambda);
        grads.loss += f64::from((p - t) * (p - t));
        let g = 2.0 * (p - t) * p * (1.0 - p);
        grads.b1[bucket] += g;
        let layer = bucket * 2 * h..(bucket + 1) * 2 * h;
        let (w1_ours, w1_theirs) = net.w1[layer.clone()].split_at(h);
        let (g1_ours, g1_theirs) = grads.w1[layer].split_at_mut(h);
        for i in 0..h {
            g1_ours[i] += g * screlu(ours[i]);
            g1_theirs[i] += g * screlu(theirs[i]);
            let a = ours[i];
            d_ours[i] = if a > 0.0 && a < 1.0 {
                g * w1_ours[i] * 2.0 * a
            } else {
                0.0
            };
            let a = theirs[i];
            d_theirs[i] = if a > 0.0 && a < 1.0 {
                g * w1_theirs[i] * 2.0 * a
            } else {
                0.0
            };
        }
        for i in 0..h {
            grads.b0[i] += d_ours[i] + d_theirs[i];
        }
        for &f in &features.ours {
            let row = &mut grads.w0[usize::from(f) * h..(usize::from(f) + 1) * h];
            for (r, d) in row.iter_mut().zip(&d_ours) {
                *r += d;
            }
        }
        for &f in &features.theirs {
            let row = &mut grads.w0[usize::from(f) * h..(usize::from(f) + 1) * h];
            for (r, d) in row.iter_mut().zip(&d_theirs) {
                *r += d;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn backprop(net: &FloatNet, records: &[Record], lambda: f32, grads: &mut Gradients) {
    #[target_feature(enable = "avx2,fma")]
    fn wide(net: &FloatNet, records: &[Record], lambda: f32, grads: &mut Gradients) {
        backprop_body(net, records, lambda, grads)
    }
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA (checked just above); `wide` is the
        // portable body compiled with them enabled.
        unsafe { wide(net, records, lambda, grads) }
    } else {
        backprop_body(net, records, lambda, grads)
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn backprop(net: &FloatNet, records: &[Record], lambda: f32, grads: &mut Gradients) {
    backprop_body(net, records, lambda, grads)
}

/// The gradients of the summed loss of `records` (one thread).
pub fn gradients(net: &FloatNet, records: &[Record], lambda: f32) -> Gradients {
    let mut g = Gradients::new(net.hidden, net.buckets);
    backprop(net, records, lambda, &mut g);
    g
}

/// AdamW's running moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    fn new(params: usize) -> Adam {
        Adam {
            m: vec![0.0; params],
            v: vec![0.0; params],
            step: 0,
        }
    }

    /// One step over every parameter with the mean gradient `grads / n`.
    fn step(&mut self, net: &mut FloatNet, grads: &Gradients, n: usize, lr: f32, decay: f32) {
        self.step += 1;
        let c1 = 1.0 - BETA1.powi(self.step);
        let c2 = 1.0 - BETA2.powi(self.step);
        let scale = 1.0 / n.max(1) as f32;
        let mut offset = 0;
        let mut update = |params: &mut [f32], g: &[f32]| {
            let m = &mut self.m[offset..offset + params.len()];
            let v = &mut self.v[offset..offset + params.len()];
            for i in 0..params.len() {
                let gi = g[i] * scale;
                m[i] = BETA1 * m[i] + (1.0 - BETA1) * gi;
                v[i] = BETA2 * v[i] + (1.0 - BETA2) * gi * gi;
                let step = (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
                params[i] -= lr * (step + decay * params[i]);
                params[i] = params[i].clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
            offset += params.len();
        };
        update(&mut net.w0, &grads.w0);
        update(&mut net.b0, &grads.b0);
        update(&mut net.w1, &grads.w1);
        update(&mut net.b1, &grads.b1);
    }
}

/// Trains a net on `data`, from random weights or from `options.init`. `on_epoch` hears each epoch's report with the
/// net as it is then.
pub fn train(
    data: &Dataset,
    options: &Options,
    on_epoch: &mut dyn FnMut(&EpochReport, &FloatNet),
) -> FloatNet {
    let mut rng = Rng::new(options.seed);
    let mut net = match &options.init {
        Some(init) => init.clone(),
        None => FloatNet::random(options.hidden, options.buckets, &mut rng),
    };
    let params = net.w0.len() + net.b0.len() + net.w1.len() + net.b1.len();
    let mut adam = Adam::new(params);
    let threads = options.threads.max(1);
    let mut grads: Vec<Gradients> = (0..threads)
        .map(|_| Gradients::new(net.hidden, net.buckets))
        .collect();
    let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
    let mut batch: Vec<Record> = Vec::with_capacity(options.batch_size);
    let batches_per_epoch = data.train.len().div_ceil(options.batch_size.max(1));
    let total_steps = (batches_per_epoch * options.epochs).max(1);
    let mut step = 0usize;
    let mut lr = options.lr;
    for epoch in 1..=options.epochs {
        let start = Instant::now();
        // Fisher–Yates.
        for i in (1..order.len()).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
        let mut epoch_loss = 0.0;
        for chunk in order.chunks(options.batch_size.max(1)) {
            batch.clear();
            batch.extend(chunk.iter().map(|&i| data.train[i as usize]));
            let part = batch.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (g, records) in grads.iter_mut().zip(batch.chunks(part.max(1))) {
                    let net = &net;
                    scope.spawn(move || {
                        g.clear();
                        backprop(net, records, options.lambda, g);
                    });
                }
            });
            let used = batch.len().div_ceil(part.max(1));
            let (first, rest) = grads.split_at_mut(1);
            for g in &rest[..used.saturating_sub(1)] {
                first[0].add(g);
            }
            epoch_loss += first[0].loss;
            let progress = step as f32 / total_steps as f32;
            let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
            lr = options.lr_end + (options.lr - options.lr_end) * cosine;
            adam.step(&mut net, &first[0], batch.len(), lr, options.weight_decay);
            step += 1;
        }
        let elapsed = start.elapsed().as_secs_f64().max(1e-9);
        let report = EpochReport {
            epoch,
            train_loss: epoch_loss / data.train.len().max(1) as f64,
            validation_loss: mean_loss(&net, &data.validation, options.lambda),
            lr,
            positions_per_second: data.train.len() as f64 / elapsed,
        };
        on_epoch(&report, &net);
    }
    net
}
