//! Perfect matchings started from the last one.
//!
//! A Dutch pairing asks a few hundred matchings of one field, each after the
//! weights at one player changed. Starting each from scratch costs a whole
//! search; starting from the last optimum costs the pairs the change undid. The
//! blossoms are kept too: only those holding a changed vertex are dissolved, their
//! duals folded into their vertices' (which keeps every edge inside them as tight
//! as it was), so the pairs inside the others stay settled.

use super::{signed_less, Blossoms, Edges, Weight, NONE};

/// The blossoms and duals of the last matching.
#[derive(Clone, Debug)]
struct Kept<W> {
    dual: Vec<W>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    endpoints: Vec<Vec<usize>>,
    unused: Vec<usize>,
}

/// A matching and its duals kept from one solve to the next, so that after a few
/// weights change only the pairs they touch are searched again.
#[derive(Clone, Debug)]
pub struct Warm<W> {
    /// The partner of each vertex.
    pub mate: Vec<Option<usize>>,
    /// The vertices whose edges changed since, a vertex of each changed edge at
    /// least: only their edges can have become short of their duals, and only
    /// their blossoms are dissolved. `None`: any may have.
    pub changed: Option<Vec<usize>>,
    kept: Option<Kept<W>>,
}

impl<W> Default for Warm<W> {
    fn default() -> Self {
        Warm {
            mate: Vec::new(),
            changed: None,
            kept: None,
        }
    }
}

/// A maximum-weight perfect matching of the graph, started from `warm` and left
/// in it for the next call. Returns `false` if the graph has no perfect matching;
/// `warm` is then reset to a cold start.
///
/// Vertices the graph fixes stay with their partners.
pub fn perfect_matching<W: Weight, G: Edges<W>>(graph: &G, warm: &mut Warm<W>) -> bool {
    let vertices = graph.vertices();
    let mut state = Blossoms::new(graph);
    state.perfect = true;
    match warm.kept.take() {
        Some(kept) if kept.in_blossom.len() == vertices && warm.mate.len() == vertices => {
            state.resume(kept, &warm.mate, warm.changed.as_deref());
        }
        _ => state.cold_duals(),
    }
    for v in 0..vertices {
        if let Some(p) = graph.fixed(v) {
            state.mate[v] = p;
        }
    }
    // Pair what tight edges can pair at once: the search then only has to place
    // the rest (a matching of tight edges satisfies every invariant it keeps).
    for v in 0..vertices {
        if state.mate[v] != NONE {
            continue;
        }
        let tight = graph
            .neighbours(v)
            .find(|e| state.mate[e.to] == NONE && state.slack(e.p / 2).is_zero())
            .map(|e| e.p);
        if let Some(p) = tight {
            state.mate[v] = p;
            state.mate[graph.end(p)] = p ^ 1;
        }
    }
    state.solve();
    if state.mate.contains(&NONE) {
        *warm = Warm::default();
        return false;
    }
    warm.mate = state.mate.iter().map(|&p| Some(graph.end(p))).collect();
    warm.kept = Some(Kept {
        dual: state.dual,
        in_blossom: state.in_blossom,
        parent: state.parent,
        children: state.children,
        base: state.base,
        endpoints: state.endpoints,
        unused: state.unused,
    });
    true
}

impl<W: Weight, G: Edges<W>> Blossoms<'_, W, G> {
    /// Duals for a first search: every vertex as low as its edges let it be, so
    /// that each has a tight edge and many pairs are tight at once.
    fn cold_duals(&mut self) {
        let graph = self.graph;
        // Each vertex's heaviest edge: feasible, and every vertex has a tight edge.
        for v in 0..self.n {
            self.dual[v] = graph
                .neighbours(v)
                .map(|e| e.twice.halved())
                .max()
                .unwrap_or_else(W::zero);
        }
        // Then each, in turn, as low as its edges let it be: every vertex gets a
        // tight edge to one already lowered.
        for v in 0..self.n {
            let mut need: Option<W> = None;
            for e in graph.neighbours(v) {
                let short = e.twice.minus(&self.dual[e.to]);
                if need.is_none_or(|n| signed_less(&n, &short)) {
                    need = Some(short);
                }
            }
            if let Some(need) = need {
                self.dual[v] = need;
            }
        }
    }

    /// Takes up the last matching: dissolves the blossoms of the changed
    /// vertices, raises their duals until no edge is short, and undoes the pairs
    /// between blossoms that are no longer tight.
    fn resume(&mut self, kept: Kept<W>, mates: &[Option<usize>], changed: Option<&[usize]>) {
        let graph = self.graph;
        self.dual = kept.dual;
        self.in_blossom = kept.in_blossom;
        self.parent = kept.parent;
        self.children = kept.children;
        self.base = kept.base;
        self.endpoints = kept.endpoints;
        self.unused = kept.unused;
        let all: Vec<usize>;
        let changed = match changed {
            Some(changed) => changed,
            None => {
                all = (0..self.n).collect();
                &all
            }
        };
        if graph.stable_numbering() {
            for &v in changed {
                while self.in_blossom[v] != v {
                    self.dissolve(self.in_blossom[v]);
                }
            }
        } else {
            // The blossoms name their edges by number, which a new graph may not keep.
            for v in 0..self.n {
                while self.in_blossom[v] != v {
                    self.dissolve(self.in_blossom[v]);
                }
            }
        }
        // Feasibility: raise a vertex's dual until none of its edges is short.
        // Duals are read as signed here: in a perfect matching they may be negative.
        for &v in changed {
            let mut need = self.dual[v];
            for e in graph.neighbours(v) {
                let short = e.twice.minus(&self.dual[e.to]);
                if signed_less(&need, &short) {
                    need = short;
                }
            }
            self.dual[v] = need;
        }
        // Keep the pairs that are still edges, and still tight between blossoms.
        for v in 0..self.n {
            let Some(u) = mates[v] else {
                continue;
            };
            if u <= v || u >= self.n || mates[u] != Some(v) {
                continue;
            }
            let Some(p) = graph.endpoint_to(v, u) else {
                continue;
            };
            if self.in_blossom[v] == self.in_blossom[u] || self.slack(p / 2).is_zero() {
                self.mate[v] = p;
                self.mate[u] = p ^ 1;
            }
        }
    }

    /// Undoes the top-level blossom `b`, its dual going to each of its vertices:
    /// an edge inside it keeps its slack, and its sub-blossoms become top-level.
    fn dissolve(&mut self, b: usize) {
        let z = self.dual[b];
        for leaf in self.leaves_of(b) {
            self.dual[leaf] = self.dual[leaf].plus(&z);
        }
        for child in std::mem::take(&mut self.children[b]) {
            self.parent[child] = NONE;
            for leaf in self.leaves_of(child) {
                self.in_blossom[leaf] = child;
            }
        }
        self.endpoints[b].clear();
        self.base[b] = NONE;
        self.dual[b] = W::zero();
        self.unused.push(b);
    }
}
