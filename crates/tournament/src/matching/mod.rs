//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with
//! dual variables, O(n³)).
//!
//! Swiss pairing is a matching problem: players are vertices, allowed games are
//! edges, and every pairing criterion becomes a band of bits in the edge weight,
//! higher criteria in higher bits, so that the heaviest matching is the best
//! pairing. Weights are integers; with integer weights every dual variable stays an
//! integer when the weights are even, which `maximum_matching` arranges by doubling.

mod graph;
mod warm;
pub mod wide;

pub use graph::{Dense, EdgeList, Edges, Near};
pub use warm::{perfect_matching, Warm};

/// The arithmetic the algorithm needs from a weight type.
pub trait Weight: Copy + Ord + std::fmt::Debug {
    /// Zero.
    fn zero() -> Self;
    /// `self + rhs`.
    fn plus(&self, rhs: &Self) -> Self;
    /// `self - rhs`, wrapping (two's complement).
    fn minus(&self, rhs: &Self) -> Self;
    /// `self / 2`, exact where the algorithm uses it.
    fn halved(&self) -> Self;
    /// Whether the value, read as two's complement, is negative (a vertex dual of
    /// a perfect matching may fall below zero).
    fn negative(&self) -> bool;
    /// Whether the value is zero.
    fn is_zero(&self) -> bool;
}

/// `a < b` with both read as two's complement.
fn signed_less<W: Weight>(a: &W, b: &W) -> bool {
    match (a.negative(), b.negative()) {
        (true, false) => true,
        (false, true) => false,
        _ => a < b,
    }
}

impl Weight for u64 {
    fn zero() -> Self {
        0
    }
    fn plus(&self, rhs: &Self) -> Self {
        self.wrapping_add(*rhs)
    }
    fn minus(&self, rhs: &Self) -> Self {
        self.wrapping_sub(*rhs)
    }
    fn halved(&self) -> Self {
        self / 2
    }
    fn negative(&self) -> bool {
        self >> 63 == 1
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
}

impl<const N: usize> Weight for wide::Wide<N> {
    fn zero() -> Self {
        wide::Wide::ZERO
    }
    fn plus(&self, rhs: &Self) -> Self {
        self.add(rhs)
    }
    fn minus(&self, rhs: &Self) -> Self {
        self.sub(rhs)
    }
    fn halved(&self) -> Self {
        self.half()
    }
    fn negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }
    fn is_zero(&self) -> bool {
        wide::Wide::is_zero(self)
    }
}

const NONE: usize = usize::MAX;

/// Computes a maximum-weight matching of the graph on `vertices` vertices whose
/// edges are `(u, v, weight)` with positive weights (zero-weight edges may be left
/// out). Returns `mate[v]`, the vertex matched to `v`, or `None`.
///
/// Every weight must be even (callers shift their weights left by one bit), so
/// that all dual variables stay integers.
pub fn maximum_matching<W: Weight>(
    vertices: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    if edges.is_empty() {
        return vec![None; vertices];
    }
    let graph = EdgeList::new(vertices, edges);
    let mut state = Blossoms::new(&graph);
    let max_weight = edges.iter().map(|e| e.2).max().unwrap_or_else(W::zero);
    for d in &mut state.dual[..vertices] {
        *d = max_weight;
    }
    state.solve();
    state
        .mate
        .iter()
        .map(|&p| (p != NONE).then(|| graph.end(p)))
        .collect()
}

/// The state of the primal-dual blossom algorithm. Vertices are `0..n`, blossoms
/// `n..2n`; an "endpoint" `p` is one end of edge `p / 2`, `graph.end(p)` its vertex.
struct Blossoms<'a, W: Weight, G> {
    n: usize,
    graph: &'a G,
    mate: Vec<usize>,
    label: Vec<u8>,
    label_end: Vec<usize>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    endpoints: Vec<Vec<usize>>,
    best_edge: Vec<usize>,
    /// The slack of `best_edge`, kept as the duals move instead of recomputed at
    /// every comparison.
    best_slack: Vec<W>,
    best_edges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<W>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
    /// Look for a perfect matching (vertex duals unbounded below, wrapping to
    /// two's complement) instead of stopping when a vertex dual reaches zero.
    perfect: bool,
}

impl<'a, W: Weight, G: Edges<W>> Blossoms<'a, W, G> {
    fn new(graph: &'a G) -> Self {
        let n = graph.vertices();
        // Vertex duals are set by the caller.
        let dual = vec![W::zero(); 2 * n];
        Blossoms {
            n,
            graph,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            endpoints: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            best_slack: vec![W::zero(); 2 * n],
            best_edges: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            dual,
            allowed: vec![false; graph.slots()],
            queue: Vec::new(),
            perfect: false,
        }
    }

    /// `dual[i] + dual[j] - 2 w` for edge `k`.
    fn slack(&self, k: usize) -> W {
        let (i, j) = self.ends(k);
        self.dual[i].plus(&self.dual[j]).minus(&self.graph.twice(k))
    }

    /// The two vertices of edge `k`.
    fn ends(&self, k: usize) -> (usize, usize) {
        (self.graph.end(2 * k), self.graph.end(2 * k + 1))
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &child in &self.children[b] {
                self.leaves(child, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.in_blossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.label_end[w] = p;
        self.label_end[b] = p;
        self.best_edge[w] = NONE;
        self.best_edge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b];
            let mate = self.mate[base];
            self.assign_label(self.graph.end(mate), 1, mate ^ 1);
        }
    }

    /// Traces back from `v` and `w` to find a new blossom's base, or `NONE` if
    /// the two paths reach different roots (an augmenting path).
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let mut b = self.in_blossom[v];
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.label_end[b] == NONE {
                v = NONE;
            } else {
                v = self.graph.end(self.label_end[b]);
                b = self.in_blossom[v];
                v = self.graph.end(self.label_end[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.ends(k);
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let b = self.unused.pop().expect("blossom ids are enough");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.label_end[bv]);
            v = self.graph.end(self.label_end[bv]);
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            endps.push(self.label_end[bw] ^ 1);
            w = self.graph.end(self.label_end[bw]);
            bw = self.in_blossom[w];
        }
        self.children[b] = path;
        self.endpoints[b] = endps;
        self.label[b] = 1;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = W::zero();
        for leaf in self.leaves_of(b) {
            if self.label[self.in_blossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        // The least-slack edges from the new blossom to other S-blossoms.
        let mut best_to = vec![NONE; 2 * self.n];
        let children = self.children[b].clone();
        for bv in children {
            let lists: Vec<Vec<usize>> = match self.best_edges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|leaf| self.graph.neighbours(leaf).map(|e| e.p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j) = self.ends(k);
                    if self.in_blossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let bj = self.in_blossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (best_to[bj] == NONE || self.slack(k) < self.slack(best_to[bj]))
                    {
                        best_to[bj] = k;
                    }
                }
            }
            self.best_edge[bv] = NONE;
        }
        let list: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        self.best_edge[b] = NONE;
        for &k in &list {
            let slack = self.slack(k);
            if self.best_edge[b] == NONE || slack < self.best_slack[b] {
                self.best_edge[b] = k;
                self.best_slack[b] = slack;
            }
        }
        self.best_edges[b] = Some(list);
    }

    fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        let children = self.children[b].clone();
        for &s in &children {
            self.parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_stage && self.dual[s] == W::zero() {
                self.expand_blossom(s, end_stage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.in_blossom[leaf] = s;
                }
            }
        }
        if !end_stage && self.label[b] == 2 {
            // Relabel the children on the path from the entry child to the base.
            let entry = self.in_blossom[self.graph.end(self.label_end[b] ^ 1)];
            let len = children.len() as isize;
            let at = |i: isize| i.rem_euclid(len) as usize;
            let endps = self.endpoints[b].clone();
            let mut j = children
                .iter()
                .position(|&c| c == entry)
                .expect("entry child") as isize;
            let (step, trick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.label_end[b];
            while j != 0 {
                self.label[self.graph.end(p ^ 1)] = 0;
                let q = endps[at(j - trick as isize)] ^ trick ^ 1;
                self.label[self.graph.end(q)] = 0;
                self.assign_label(self.graph.end(p ^ 1), 2, p);
                self.allowed[endps[at(j - trick as isize)] / 2] = true;
                j += step;
                p = endps[at(j - trick as isize)] ^ trick;
                self.allowed[p / 2] = true;
                j += step;
            }
            let bv = children[at(j)];
            let v = self.graph.end(p ^ 1);
            self.label[v] = 2;
            self.label[bv] = 2;
            self.label_end[v] = p;
            self.label_end[bv] = p;
            self.best_edge[bv] = NONE;
            j += step;
            while children[at(j)] != entry {
                let bv = children[at(j)];
                if self.label[bv] == 1 {
                    j += step;
                    continue;
                }
                let reached = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = reached {
                    self.label[v] = 0;
                    let mate = self.mate[self.base[bv]];
                    self.label[self.graph.end(mate)] = 0;
                    self.assign_label(v, 2, self.label_end[v]);
                }
                j += step;
            }
        }
        self.label[b] = 0;
        self.label_end[b] = NONE;
        self.children[b].clear();
        self.endpoints[b].clear();
        self.base[b] = NONE;
        self.best_edges[b] = None;
        self.best_edge[b] = NONE;
        self.unused.push(b);
    }

    /// Swaps matched and unmatched edges inside blossom `b` so that `v` becomes
    /// its base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.children[b].len() as isize;
        let at = |i: isize| i.rem_euclid(len) as usize;
        let i = self.children[b]
            .iter()
            .position(|&c| c == t)
            .expect("child") as isize;
        let mut j = i;
        let (step, trick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += step;
            let t = self.children[b][at(j)];
            let p = self.endpoints[b][at(j - trick as isize)] ^ trick;
            if t >= self.n {
                self.augment_blossom(t, self.graph.end(p));
            }
            j += step;
            let t = self.children[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.graph.end(p ^ 1));
            }
            self.mate[self.graph.end(p)] = p ^ 1;
            self.mate[self.graph.end(p ^ 1)] = p;
        }
        self.children[b].rotate_left(i as usize);
        self.endpoints[b].rotate_left(i as usize);
        self.base[b] = self.base[self.children[b][0]];
        debug_assert_eq!(self.base[b], v);
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.ends(k);
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break;
                }
                let t = self.graph.end(self.label_end[bs]);
                let bt = self.in_blossom[t];
                s = self.graph.end(self.label_end[bt]);
                let j = self.graph.end(self.label_end[bt] ^ 1);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    /// Moves the kept slacks of the best edges by a dual change of `delta`: an
    /// edge from an S-blossom to a free vertex loses `delta`, one between two
    /// S-blossoms twice that, one to a T-blossom nothing.
    fn shift_best_slacks(&mut self, delta: &W) {
        let twice = delta.plus(delta);
        for x in 0..2 * self.n {
            if self.best_edge[x] == NONE {
                continue;
            }
            let top = if x < self.n { self.in_blossom[x] } else { x };
            let shift = match self.label[top] {
                0 if x < self.n => delta,
                1 if top == x && self.parent[x] == NONE => &twice,
                _ => continue,
            };
            self.best_slack[x] = self.best_slack[x].minus(shift);
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.best_edge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.best_edges[b] = None;
            }
            self.allowed.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.in_blossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    let graph = self.graph;
                    for Near { p, to: w, twice } in graph.neighbours(v) {
                        let k = p / 2;
                        if self.in_blossom[v] == self.in_blossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowed[k] {
                            kslack = self.dual[v].plus(&self.dual[w]).minus(&twice);
                            if kslack.is_zero() {
                                self.allowed[k] = true;
                            }
                        }
                        if self.allowed[k] {
                            if self.label[self.in_blossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.in_blossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.label_end[w] = p ^ 1;
                            }
                        } else if self.label[self.in_blossom[w]] == 1 {
                            let b = self.in_blossom[v];
                            if self.best_edge[b] == NONE || kslack < self.best_slack[b] {
                                self.best_edge[b] = k;
                                self.best_slack[b] = kslack;
                            }
                        } else if self.label[w] == 0
                            && (self.best_edge[w] == NONE || kslack < self.best_slack[w])
                        {
                            self.best_edge[w] = k;
                            self.best_slack[w] = kslack;
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with tight edges: change the duals.
                let (mut delta_type, mut delta) = if self.perfect {
                    (0, W::zero())
                } else {
                    (1, *self.dual[..n].iter().min().expect("vertices"))
                };
                let mut delta_edge = NONE;
                let mut delta_blossom = NONE;
                for v in 0..n {
                    if self.label[self.in_blossom[v]] == 0 && self.best_edge[v] != NONE {
                        let d = self.best_slack[v];
                        debug_assert_eq!(d, self.slack(self.best_edge[v]));
                        if delta_type == 0 || d < delta {
                            delta = d;
                            delta_type = 2;
                            delta_edge = self.best_edge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE && self.label[b] == 1 && self.best_edge[b] != NONE {
                        debug_assert_eq!(self.best_slack[b], self.slack(self.best_edge[b]));
                        let d = self.best_slack[b].halved();
                        if delta_type == 0 || d < delta {
                            delta = d;
                            delta_type = 3;
                            delta_edge = self.best_edge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == 2
                        && (delta_type == 0 || self.dual[b] < delta)
                    {
                        delta = self.dual[b];
                        delta_type = 4;
                        delta_blossom = b;
                    }
                }
                if delta_type == 0 {
                    // No augmenting path exists at all: the matching is final.
                    break;
                }
                for v in 0..n {
                    match self.label[self.in_blossom[v]] {
                        1 => self.dual[v] = self.dual[v].minus(&delta),
                        2 => self.dual[v] = self.dual[v].plus(&delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b].plus(&delta),
                            2 => self.dual[b] = self.dual[b].minus(&delta),
                            _ => {}
                        }
                    }
                }
                self.shift_best_slacks(&delta);
                match delta_type {
                    1 => break,
                    2 => {
                        self.allowed[delta_edge] = true;
                        let (mut i, j) = self.ends(delta_edge);
                        if self.label[self.in_blossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowed[delta_edge] = true;
                        self.queue.push(self.ends(delta_edge).0);
                    }
                    _ => self.expand_blossom(delta_blossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
