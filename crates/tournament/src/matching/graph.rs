//! The two ways the blossom algorithm can read a graph: a list of edges (any
//! graph), or a weight matrix that the caller keeps and changes in place between
//! matchings, so that a pairing asking hundreds of matchings of one field never
//! copies its hundred thousand edges again.
//!
//! Edges are numbered `k` below [`Edges::slots`]; an edge's two ends are the
//! endpoints `2k` and `2k + 1`.

use super::Weight;

/// One edge as seen from one of its ends.
#[derive(Clone, Copy, Debug)]
pub struct Near<W> {
    /// The endpoint at the other end (`p / 2` is the edge).
    pub p: usize,
    /// The vertex there.
    pub to: usize,
    /// Twice the edge's weight.
    pub twice: W,
}

/// What the algorithm reads of a graph.
pub trait Edges<W: Weight> {
    /// Vertices are `0..vertices()`.
    fn vertices(&self) -> usize;
    /// Edge numbers are below this.
    fn slots(&self) -> usize;
    /// The vertex at endpoint `p`.
    fn end(&self, p: usize) -> usize;
    /// Twice the weight of edge `k`.
    fn twice(&self, k: usize) -> W;
    /// The edges at `v`.
    fn neighbours(&self, v: usize) -> impl Iterator<Item = Near<W>> + '_;
    /// The endpoint at `u` of the edge between `v` and `u`, if there is one.
    fn endpoint_to(&self, v: usize, u: usize) -> Option<usize> {
        self.neighbours(v).find(|e| e.to == u).map(|e| e.p)
    }
    /// Whether edges keep their numbers from one graph to the next one the
    /// caller builds, so that a kept blossom's edges are still its edges.
    fn stable_numbering(&self) -> bool {
        false
    }
    /// A vertex whose partner is fixed beforehand, and the endpoint at the
    /// partner: such a pair is kept as it is and never searched.
    fn fixed(&self, _v: usize) -> Option<usize> {
        None
    }
}

/// A graph given as `(u, v, weight)` triples.
pub struct EdgeList<W> {
    ends: Vec<usize>,
    twice: Vec<W>,
    /// Each vertex's edges side by side: a vertex's scan reads memory in order.
    neighbours: Vec<Vec<Near<W>>>,
}

impl<W: Weight> EdgeList<W> {
    /// The graph on `vertices` vertices with these edges.
    pub fn new(vertices: usize, edges: &[(usize, usize, W)]) -> Self {
        let mut degree = vec![0usize; vertices];
        for &(i, j, _) in edges {
            degree[i] += 1;
            degree[j] += 1;
        }
        let mut neighbours: Vec<Vec<Near<W>>> =
            degree.iter().map(|&d| Vec::with_capacity(d)).collect();
        let mut ends = Vec::with_capacity(2 * edges.len());
        let mut twice = Vec::with_capacity(edges.len());
        for (k, &(i, j, w)) in edges.iter().enumerate() {
            ends.push(i);
            ends.push(j);
            let double = w.plus(&w);
            twice.push(double);
            neighbours[i].push(Near {
                p: 2 * k + 1,
                to: j,
                twice: double,
            });
            neighbours[j].push(Near {
                p: 2 * k,
                to: i,
                twice: double,
            });
        }
        EdgeList {
            ends,
            twice,
            neighbours,
        }
    }
}

impl<W: Weight> Edges<W> for EdgeList<W> {
    fn vertices(&self) -> usize {
        self.neighbours.len()
    }
    fn slots(&self) -> usize {
        self.twice.len()
    }
    fn end(&self, p: usize) -> usize {
        self.ends[p]
    }
    fn twice(&self, k: usize) -> W {
        self.twice[k]
    }
    fn neighbours(&self, v: usize) -> impl Iterator<Item = Near<W>> + '_ {
        self.neighbours[v].iter().copied()
    }
}

/// A graph given as a symmetric `size × size` matrix of doubled weights (zero: no
/// edge), of which only the `active` vertices are searched; every other vertex
/// is either unused or paired beforehand with the partner `fixed` names.
pub struct Dense<'a, W> {
    /// The vertices: `0..size`.
    pub size: usize,
    /// Twice each edge's weight, row by row.
    pub twice: &'a [W],
    /// The vertices still to be matched.
    pub active: &'a [usize],
    /// The partners fixed beforehand.
    pub fixed: &'a [Option<usize>],
}

impl<W: Weight> Dense<'_, W> {
    /// The endpoint at `to` of the edge between `from` and `to`.
    fn endpoint(&self, from: usize, to: usize) -> usize {
        let (low, high) = if from < to { (from, to) } else { (to, from) };
        2 * (low * self.size + high) + usize::from(to == high)
    }
}

impl<W: Weight> Edges<W> for Dense<'_, W> {
    fn vertices(&self) -> usize {
        self.size
    }
    fn slots(&self) -> usize {
        self.size * self.size
    }
    fn end(&self, p: usize) -> usize {
        let k = p / 2;
        if p & 1 == 0 {
            k / self.size
        } else {
            k % self.size
        }
    }
    fn twice(&self, k: usize) -> W {
        self.twice[k]
    }
    fn neighbours(&self, v: usize) -> impl Iterator<Item = Near<W>> + '_ {
        let row = &self.twice[v * self.size..(v + 1) * self.size];
        let others = if self.fixed[v].is_some() {
            &[][..]
        } else {
            self.active
        };
        others.iter().filter_map(move |&u| {
            let twice = row[u];
            (u != v && !twice.is_zero()).then(|| Near {
                p: self.endpoint(v, u),
                to: u,
                twice,
            })
        })
    }
    fn endpoint_to(&self, v: usize, u: usize) -> Option<usize> {
        let open = self.fixed[v].is_none() && self.fixed[u].is_none();
        (open && v != u && !self.twice[v * self.size + u].is_zero()).then(|| self.endpoint(v, u))
    }
    fn stable_numbering(&self) -> bool {
        true
    }
    fn fixed(&self, v: usize) -> Option<usize> {
        self.fixed[v].map(|u| self.endpoint(v, u))
    }
}
