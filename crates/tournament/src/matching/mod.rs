//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with
//! dual variables, O(n³)).
//!
//! Swiss pairing is a matching problem: players are vertices, allowed games are
//! edges, and every pairing criterion becomes a band of bits in the edge weight,
//! higher criteria in higher bits, so that the heaviest matching is the best
//! pairing. Weights are integers; with integer weights every dual variable stays an
//! integer when the weights are even, which `maximum_matching` arranges by doubling.

pub mod wide;

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
    let mut state = Blossoms::new(vertices, edges);
    let max_weight = edges.iter().map(|e| e.2).max().unwrap_or_else(W::zero);
    for d in &mut state.dual[..vertices] {
        *d = max_weight;
    }
    state.solve();
    state
        .mate
        .iter()
        .map(|&p| (p != NONE).then(|| state.endpoint[p]))
        .collect()
}

/// A matching and vertex duals kept from one solve to the next, so that after a
/// few weights change only the pairs they touch are searched again.
#[derive(Clone, Debug)]
pub struct Warm<W> {
    /// The partner of each vertex.
    pub mate: Vec<Option<usize>>,
    /// Each vertex's dual variable, blossom duals folded in.
    pub dual: Vec<W>,
}

/// A maximum-weight perfect matching of the graph, started from `warm` (whose
/// `mate` and `dual` may be stale: infeasible duals are raised and pairs that are
/// no longer tight are undone) and left in it for the next call. Returns `false`
/// if the graph has no perfect matching; `warm` is then reset to a cold start.
pub fn perfect_matching<W: Weight>(
    vertices: usize,
    edges: &[(usize, usize, W)],
    warm: &mut Warm<W>,
) -> bool {
    let mut state = Blossoms::new(vertices, edges);
    state.perfect = true;
    if warm.dual.len() == vertices {
        state.dual[..vertices].copy_from_slice(&warm.dual);
        // Feasibility: raise a vertex's dual until none of its edges is short.
        // Duals are read as signed here: in a perfect matching they may be negative.
        for v in 0..vertices {
            let mut need = state.dual[v];
            for e in &state.neighbours[v] {
                let short = e.twice.minus(&state.dual[e.to as usize]);
                if signed_less(&need, &short) {
                    need = short;
                }
            }
            state.dual[v] = need;
        }
        // Keep the pairs that are still edges and still tight.
        for v in 0..vertices {
            let Some(u) = warm.mate.get(v).copied().flatten() else {
                continue;
            };
            if u <= v || u >= vertices || warm.mate[u] != Some(v) {
                continue;
            }
            let tight = state.neighbours[v]
                .iter()
                .find(|e| e.to as usize == u && state.slack(e.p as usize / 2) == W::zero())
                .map(|e| e.p as usize);
            if let Some(p) = tight {
                state.mate[v] = p;
                state.mate[u] = p ^ 1;
            }
        }
    } else {
        // Each vertex's heaviest edge: feasible, and every vertex has a tight edge.
        for v in 0..vertices {
            let heaviest = state.neighbours[v]
                .iter()
                .map(|e| e.twice.halved())
                .max()
                .unwrap_or_else(W::zero);
            state.dual[v] = heaviest;
        }
        // Then each, in turn, as low as its edges let it be: every vertex gets a
        // tight edge to one already lowered, and far more pairs are tight at once.
        for v in 0..vertices {
            let mut need: Option<W> = None;
            for e in &state.neighbours[v] {
                let short = e.twice.minus(&state.dual[e.to as usize]);
                if need.is_none_or(|n| signed_less(&n, &short)) {
                    need = Some(short);
                }
            }
            if let Some(need) = need {
                state.dual[v] = need;
            }
        }
    }
    // Pair what tight edges can pair at once: the search then only has to place
    // the rest (a matching of tight edges satisfies every invariant it keeps).
    for v in 0..vertices {
        if state.mate[v] != NONE {
            continue;
        }
        let tight = state.neighbours[v]
            .iter()
            .find(|e| {
                state.mate[e.to as usize] == NONE && state.slack(e.p as usize / 2) == W::zero()
            })
            .map(|e| e.p as usize);
        if let Some(p) = tight {
            state.mate[v] = p;
            state.mate[state.endpoint[p]] = p ^ 1;
        }
    }
    state.solve();
    let perfect = state.mate.iter().all(|&p| p != NONE);
    if !perfect {
        warm.mate.clear();
        warm.dual.clear();
        return false;
    }
    warm.mate = state
        .mate
        .iter()
        .map(|&p| Some(state.endpoint[p]))
        .collect();
    warm.dual = (0..vertices)
        .map(|v| {
            let mut dual = state.dual[v];
            let mut b = state.parent[v];
            while b != NONE {
                dual = dual.plus(&state.dual[b]);
                b = state.parent[b];
            }
            dual
        })
        .collect();
    true
}

/// One edge as seen from one of its ends.
#[derive(Clone, Copy, Debug)]
struct Near<W> {
    /// The endpoint at the other end (`p / 2` is the edge).
    p: u32,
    /// The vertex there.
    to: u32,
    /// Twice the edge's weight.
    twice: W,
}

/// The state of the primal-dual blossom algorithm. Vertices are `0..n`, blossoms
/// `n..2n`; an "endpoint" `p` is one end of edge `p / 2`, `endpoint[p]` its vertex.
struct Blossoms<'a, W: Weight> {
    n: usize,
    edges: &'a [(usize, usize, W)],
    endpoint: Vec<usize>,
    /// Each vertex's edges, with what the search reads of them, side by side: the
    /// scan of a vertex reads memory in order instead of jumping about `edges`.
    neighbours: Vec<Vec<Near<W>>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    label_end: Vec<usize>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    endpoints: Vec<Vec<usize>>,
    best_edge: Vec<usize>,
    best_edges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<W>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
    /// Look for a perfect matching (vertex duals unbounded below, wrapping to
    /// two's complement) instead of stopping when a vertex dual reaches zero.
    perfect: bool,
}

impl<'a, W: Weight> Blossoms<'a, W> {
    fn new(n: usize, edges: &'a [(usize, usize, W)]) -> Self {
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut degree = vec![0usize; n];
        for &(i, j, _) in edges {
            degree[i] += 1;
            degree[j] += 1;
        }
        let mut neighbours: Vec<Vec<Near<W>>> =
            degree.iter().map(|&d| Vec::with_capacity(d)).collect();
        for (k, &(i, j, w)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            let twice = w.plus(&w);
            neighbours[i].push(Near {
                p: 2 * k as u32 + 1,
                to: j as u32,
                twice,
            });
            neighbours[j].push(Near {
                p: 2 * k as u32,
                to: i as u32,
                twice,
            });
        }
        // Vertex duals are set by the caller.
        let dual = vec![W::zero(); 2 * n];
        Blossoms {
            n,
            edges,
            endpoint,
            neighbours,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            endpoints: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            best_edges: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            dual,
            allowed: vec![false; edges.len()],
            queue: Vec::new(),
            perfect: false,
        }
    }

    /// `dual[i] + dual[j] - 2 w` for edge `k`.
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dual[i].plus(&self.dual[j]).minus(&w.plus(&w))
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
            self.assign_label(self.endpoint[mate], 1, mate ^ 1);
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
                v = self.endpoint[self.label_end[b]];
                b = self.in_blossom[v];
                v = self.endpoint[self.label_end[b]];
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
        let (mut v, mut w, _) = self.edges[k];
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
            v = self.endpoint[self.label_end[bv]];
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
            w = self.endpoint[self.label_end[bw]];
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
                    .map(|leaf| {
                        self.neighbours[leaf]
                            .iter()
                            .map(|e| e.p as usize / 2)
                            .collect()
                    })
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
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
            if self.best_edge[b] == NONE || self.slack(k) < self.slack(self.best_edge[b]) {
                self.best_edge[b] = k;
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
            let entry = self.in_blossom[self.endpoint[self.label_end[b] ^ 1]];
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
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(j - trick as isize)] ^ trick ^ 1;
                self.label[self.endpoint[q]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowed[endps[at(j - trick as isize)] / 2] = true;
                j += step;
                p = endps[at(j - trick as isize)] ^ trick;
                self.allowed[p / 2] = true;
                j += step;
            }
            let bv = children[at(j)];
            let v = self.endpoint[p ^ 1];
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
                    self.label[self.endpoint[mate]] = 0;
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
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += step;
            let t = self.children[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.children[b].rotate_left(i as usize);
        self.endpoints[b].rotate_left(i as usize);
        self.base[b] = self.base[self.children[b][0]];
        debug_assert_eq!(self.base[b], v);
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
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
                let t = self.endpoint[self.label_end[bs]];
                let bt = self.in_blossom[t];
                s = self.endpoint[self.label_end[bt]];
                let j = self.endpoint[self.label_end[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
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
                    for index in 0..self.neighbours[v].len() {
                        let Near { p, to, twice } = self.neighbours[v][index];
                        let (p, w) = (p as usize, to as usize);
                        let k = p / 2;
                        if self.in_blossom[v] == self.in_blossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowed[k] {
                            kslack = self.dual[v].plus(&self.dual[w]).minus(&twice);
                            if kslack == W::zero() {
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
                            if self.best_edge[b] == NONE || kslack < self.slack(self.best_edge[b]) {
                                self.best_edge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.best_edge[w] == NONE || kslack < self.slack(self.best_edge[w]))
                        {
                            self.best_edge[w] = k;
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
                        let d = self.slack(self.best_edge[v]);
                        if delta_type == 0 || d < delta {
                            delta = d;
                            delta_type = 2;
                            delta_edge = self.best_edge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE && self.label[b] == 1 && self.best_edge[b] != NONE {
                        let d = self.slack(self.best_edge[b]).halved();
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
                match delta_type {
                    1 => break,
                    2 => {
                        self.allowed[delta_edge] = true;
                        let (mut i, j, _) = self.edges[delta_edge];
                        if self.label[self.in_blossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowed[delta_edge] = true;
                        self.queue.push(self.edges[delta_edge].0);
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
