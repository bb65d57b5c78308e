//! Texel-style tuning of the evaluation weights on the engine's own games.
//!
//! 1. [`selfplay`]: the engine plays itself at a small node budget from short random
//!    openings (moves that lose no material by static exchange). Each game is
//!    adjudicated (mate, stalemate, repetition, fifty moves, dead position, or a
//!    score beyond ±1000 cp for eight plies in a row).
//! 2. Every quiet position of a game (not in check, best move neither a capture nor
//!    a promotion, score within ±1500 cp) is labelled with the game's result from
//!    White's side (1, ½, 0).
//! 3. [`Tuner`]: because the evaluation is linear in its weights
//!    ([`crate::eval::trace`]), each position becomes a sparse feature vector. The
//!    tuner first fits the sigmoid scale K on the starting weights, then minimises
//!    the mean squared error between `sigmoid(K · eval / 400)` and the labels with
//!    full-batch Adam, plus a small L2 pull towards the starting weights so rarely
//!    seen weights (piece-square entries) stay sensible.
//!
//! `cargo run --release -p caissa-engine --example tune` drives it and writes
//! `src/params.rs`.

use caissa_rules::{Color, Position};

use crate::eval::{trace, MAX_PHASE, PARAM_COUNT, S};
use crate::see::is_capture;
use crate::{random_opening, Engine, Limits, Rng, Score};

/// A labelled position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position, as FEN.
    pub fen: String,
    /// The game's result from White's side: 1, 0.5 or 0.
    pub result: f64,
}

/// Plays one self-play game; returns its quiet positions labelled with the result.
pub fn selfplay(engine: &mut Engine, nodes: u64, rng: &mut Rng) -> Vec<Sample> {
    engine.new_game();
    let plies = 6 + rng.below(5);
    let Some(mut positions) = random_opening(rng, plies) else {
        return Vec::new();
    };
    let mut quiet: Vec<Position> = Vec::new();
    let mut streak: (i32, Option<Color>) = (0, None);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let result: f64 = loop {
        let pos = *positions.last().unwrap_or(&Position::new());
        if !pos.has_legal_moves() {
            break if pos.is_check() {
                if pos.turn() == Color::White {
                    0.0
                } else {
                    1.0
                }
            } else {
                0.5
            };
        }
        if pos.halfmoves() >= 100 || pos.is_dead_position() || positions.len() > 400 {
            break 0.5;
        }
        let reps = positions
            .iter()
            .filter(|p| p.is_same_position(&pos))
            .count();
        if reps >= 3 {
            break 0.5;
        }
        let r = engine.search(&positions, &limits, None, None, &mut |_| {});
        let Some(best) = r.best_move else { break 0.5 };
        let white_cp = |s: Score| {
            let v = match s {
                Score::Cp(v) => v,
                Score::Mate(n) if n > 0 => 30000,
                Score::Mate(_) => -30000,
            };
            if pos.turn() == Color::White {
                v
            } else {
                -v
            }
        };
        let cp = white_cp(r.score);
        if cp.abs() >= 1000 {
            let side = if cp > 0 { Color::White } else { Color::Black };
            streak = if streak.1 == Some(side) {
                (streak.0 + 1, Some(side))
            } else {
                (1, Some(side))
            };
            if streak.0 >= 8 {
                break if side == Color::White { 1.0 } else { 0.0 };
            }
        } else {
            streak = (0, None);
        }
        if !pos.is_check() && !is_capture(&pos, best) && !best.is_promotion() && cp.abs() <= 1500 {
            quiet.push(pos);
        }
        let mut next = pos;
        next.play_unchecked(best);
        positions.push(next);
    };
    quiet
        .into_iter()
        .map(|p| Sample {
            fen: p.fen(),
            result,
        })
        .collect()
}

/// One position as the tuner sees it.
struct Entry {
    features: Vec<(u16, i16)>,
    phase: f64,
    result: f64,
}

/// Fits the weights to labelled positions.
pub struct Tuner {
    train: Vec<Entry>,
    test: Vec<Entry>,
    start: Vec<[f64; 2]>,
    /// Current weights (middlegame, endgame).
    pub weights: Vec<[f64; 2]>,
    /// Sigmoid scale.
    pub k: f64,
    /// Strength of the pull towards the starting weights.
    pub l2: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Tuner {
    /// A tuner over `samples` (every tenth kept aside to measure), starting at `start`.
    /// Only quiet positions are kept: those whose static evaluation (with `start`)
    /// equals their quiescence-search value, so no capture is pending.
    pub fn new(samples: &[Sample], start: &[S; PARAM_COUNT]) -> Tuner {
        let mut train = Vec::new();
        let mut test = Vec::new();
        let mut engine = Engine::new(1);
        let leaked: &'static [S; PARAM_COUNT] = Box::leak(Box::new(*start));
        engine.set_params(leaked);
        for (i, s) in samples.iter().enumerate() {
            let Ok(pos) = Position::from_fen(&s.fen) else {
                continue;
            };
            if engine.quiescence(&pos) != crate::eval::evaluate_with(&pos, start) {
                continue;
            }
            let t = trace(&pos);
            let features = t
                .counts
                .iter()
                .enumerate()
                .filter(|(_, &c)| c != 0)
                .map(|(i, &c)| (i as u16, c as i16))
                .collect();
            let e = Entry {
                features,
                phase: f64::from(t.phase) / f64::from(MAX_PHASE),
                result: s.result,
            };
            if i % 10 == 9 {
                test.push(e);
            } else {
                train.push(e);
            }
        }
        let w: Vec<[f64; 2]> = start
            .iter()
            .map(|s| [f64::from(s.0), f64::from(s.1)])
            .collect();
        Tuner {
            train,
            test,
            start: w.clone(),
            weights: w,
            k: 1.0,
            l2: 2e-9,
        }
    }

    /// Number of (training, held-out) positions.
    pub fn sizes(&self) -> (usize, usize) {
        (self.train.len(), self.test.len())
    }

    fn eval(&self, e: &Entry) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in &e.features {
            let w = self.weights[i as usize];
            mg += w[0] * f64::from(c);
            eg += w[1] * f64::from(c);
        }
        mg * e.phase + eg * (1.0 - e.phase)
    }

    fn error_of(&self, set: &[Entry], k: f64) -> f64 {
        let sum: f64 = set
            .iter()
            .map(|e| {
                let d = sigmoid(k * self.eval(e) / 400.0) - e.result;
                d * d
            })
            .sum();
        sum / set.len().max(1) as f64
    }

    /// Mean squared error on the (training, held-out) positions.
    pub fn errors(&self) -> (f64, f64) {
        (
            self.error_of(&self.train, self.k),
            self.error_of(&self.test, self.k),
        )
    }

    /// Chooses K minimising the training error of the current weights.
    pub fn fit_k(&mut self) -> f64 {
        let mut best = (f64::MAX, 1.0);
        let mut k = 0.2;
        while k <= 3.0 {
            let e = self.error_of(&self.train, k);
            if e < best.0 {
                best = (e, k);
            }
            k += 0.05;
        }
        self.k = best.1;
        self.k
    }

    /// Runs `epochs` steps of Adam with learning rate `lr` (centipawns per step).
    /// Material weights, pawns on the first and last rank and king material stay.
    pub fn run(&mut self, epochs: usize, lr: f64, mut progress: impl FnMut(usize, f64, f64)) {
        let n = self.weights.len();
        let frozen = |i: usize| {
            let pst_pawn = crate::eval::PST..crate::eval::PST + 64;
            pst_pawn.contains(&i) && !(8..56).contains(&(i - crate::eval::PST))
        };
        let mut m = vec![[0.0f64; 2]; n];
        let mut v = vec![[0.0f64; 2]; n];
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        for epoch in 1..=epochs {
            let mut grad = vec![[0.0f64; 2]; n];
            let scale = self.k / 400.0;
            for e in &self.train {
                let s = sigmoid(scale * self.eval(e));
                let g = 2.0 * (s - e.result) * s * (1.0 - s) * scale;
                for &(i, c) in &e.features {
                    let c = f64::from(c) * g;
                    grad[i as usize][0] += c * e.phase;
                    grad[i as usize][1] += c * (1.0 - e.phase);
                }
            }
            let count = self.train.len().max(1) as f64;
            for i in 0..n {
                if frozen(i) {
                    continue;
                }
                for j in 0..2 {
                    let g = grad[i][j] / count
                        + 2.0 * self.l2 * (self.weights[i][j] - self.start[i][j]);
                    m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                    v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                    let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                    let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                    self.weights[i][j] -= lr * mh / (vh.sqrt() + eps);
                }
            }
            if epoch % 50 == 0 || epoch == epochs {
                let (tr, te) = self.errors();
                progress(epoch, tr, te);
            }
        }
    }

    /// The weights rounded to integers.
    pub fn rounded(&self) -> [S; PARAM_COUNT] {
        let mut out = [S::default(); PARAM_COUNT];
        for (o, w) in out.iter_mut().zip(&self.weights) {
            *o = S(w[0].round() as i32, w[1].round() as i32);
        }
        out
    }
}

/// Rust source for `params.rs` holding `weights`, with `doc` as its module comment.
pub fn params_source(weights: &[S; PARAM_COUNT], doc: &str) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for line in doc.lines() {
        if line.is_empty() {
            s.push_str("//!\n");
        } else {
            let _ = writeln!(s, "//! {line}");
        }
    }
    s.push_str("\nuse crate::eval::{PARAM_COUNT, S};\n\n");
    s.push_str("/// The weights the engine plays with (see the module documentation).\n");
    s.push_str("#[rustfmt::skip]\npub static PARAMS: [S; PARAM_COUNT] = [\n");
    for &(first, len, name) in crate::eval::GROUPS {
        let _ = writeln!(s, "    // {name}");
        for row in weights[first..first + len].chunks(8) {
            s.push_str("   ");
            for w in row {
                let _ = write!(s, " S({}, {}),", w.0, w.1);
            }
            s.push('\n');
        }
    }
    s.push_str("];\n");
    s
}
