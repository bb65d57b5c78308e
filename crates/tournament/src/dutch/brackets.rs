//! Pairing bracket by bracket, from the top score down (Art. 3 of the rules):
//! first the best possible pairing of the whole field is found, then, bracket by
//! bracket, the choices the rules leave are fixed one at a time — which
//! moved-down players are paired (C.6), with whom, which exchanges (Art. 4), and
//! each S1 player's opponent — each time keeping the rest of the field
//! completable, by asking the matching again with the choice weighted in.

// Positions in a bracket index both the bracket and its weight table.
#![allow(clippy::needless_range_loop)]

use super::players::Candidate;
use super::weights::{bye_edge, edge, ordered, Context, Layout};
use crate::matching::wide::Wide;
use crate::matching::{maximum_matching, perfect_matching, Dense, Warm};
use crate::pairing::PairingError;
use crate::points::Points;
use std::collections::HashMap;

/// A weighted complete graph over the players whose weights are changed between
/// matchings; pairs that are settled leave the search.
struct Graph<const N: usize> {
    n: usize,
    /// The vertices: the players, and when their number is odd one more, the
    /// stand-in partner of the bye.
    size: usize,
    /// Each edge's weight `w` as the matching reads it: `4w + 4`, twice an even
    /// weight (the duals stay integers), lifted by a constant so that the
    /// stand-in's edges are edges too (every perfect matching has the same
    /// number of edges, so the constant changes none of them); zero: no edge.
    twice: Vec<Wide<N>>,
    settled: Vec<Option<usize>>,
    mate: Vec<Option<usize>>,
    /// The last matching and its duals, by vertex, and which vertices' edges
    /// changed since.
    warm: Warm<Wide<N>>,
    changed: Vec<bool>,
}

impl<const N: usize> Graph<N> {
    fn new(n: usize) -> Self {
        let size = n + n % 2;
        let mut twice = vec![Wide::ZERO; size * size];
        if size > n {
            for v in 0..n {
                twice[v * size + n] = Wide::from_u64(4);
                twice[n * size + v] = Wide::from_u64(4);
            }
        }
        Graph {
            n,
            size,
            twice,
            settled: vec![None; size],
            mate: vec![None; n],
            warm: Warm::default(),
            changed: vec![false; size],
        }
    }

    fn set(&mut self, a: usize, b: usize, w: Wide<N>) {
        let twice = if w.is_zero() {
            Wide::ZERO
        } else {
            w.shl(2).add(&Wide::from_u64(4))
        };
        self.twice[a * self.size + b] = twice;
        self.twice[b * self.size + a] = twice;
        // `a` covers the edge: its dual alone is raised if the edge got short.
        self.mark_changed(a);
    }

    /// Notes that edges at `v` changed since the last matching.
    fn mark_changed(&mut self, v: usize) {
        if !self.changed[v] {
            self.changed[v] = true;
            if let Some(list) = &mut self.warm.changed {
                list.push(v);
            }
        }
    }

    /// Recomputes the heaviest matching of the players not yet settled.
    fn solve(&mut self) {
        let active: Vec<usize> = (0..self.size)
            .filter(|&v| self.settled[v].is_none())
            .collect();
        // A perfect matching (but for the bye) is searched first even before one is
        // known to exist: it starts from the previous one, which the general
        // search cannot; only when there is none is the general one asked.
        let graph = Dense {
            size: self.size,
            twice: &self.twice,
            active: &active,
            fixed: &self.settled,
        };
        let perfect = perfect_matching(&graph, &mut self.warm);
        self.changed.fill(false);
        self.warm.changed = Some(Vec::new());
        if perfect {
            for v in 0..self.n {
                self.mate[v] = self.warm.mate[v].filter(|&u| u < self.n);
            }
            return;
        }
        let open: Vec<usize> = active.into_iter().filter(|&v| v < self.n).collect();
        let mut edges = Vec::new();
        for (i, &a) in open.iter().enumerate() {
            for (j, &b) in open.iter().enumerate().skip(i + 1) {
                let twice = self.twice[a * self.size + b];
                if !twice.is_zero() {
                    edges.push((i, j, twice.sub(&Wide::from_u64(4)).half()));
                }
            }
        }
        let mates = maximum_matching(open.len(), &edges);
        for v in 0..self.n {
            self.mate[v] = self.settled[v];
        }
        for (i, m) in mates.into_iter().enumerate() {
            self.mate[open[i]] = m.map(|j| open[j]);
        }
    }

    /// Fixes the pair `a`–`b`.
    fn settle(&mut self, a: usize, b: usize) {
        self.settled[a] = Some(b);
        self.settled[b] = Some(a);
        // Their blossoms are dissolved: the search never enters them again.
        self.mark_changed(a);
        self.mark_changed(b);
    }

    /// The partner of `v`, or `v` itself when unmatched.
    fn partner(&self, v: usize) -> usize {
        self.mate[v].unwrap_or(v)
    }
}

/// Pairs `sorted` (by pairing score, then rank). Returns each player's opponent
/// by position, `None` for the bye.
pub fn pair<const N: usize>(
    sorted: &[&Candidate],
    layout: &Layout,
    last_round: bool,
    topscorer_threshold: Points,
) -> Result<Vec<Option<usize>>, PairingError> {
    let n = sorted.len();
    let score = |v: usize| sorted[v].pairing_score;
    let no_ranks = HashMap::new();
    let mut ctx = Context {
        layout,
        bye_score: Points::ZERO,
        single_downfloater_is_bye: false,
        unplayed_rank: &no_ranks,
        last_round,
        topscorer_threshold,
    };
    let mut graph = Graph::<N>::new(n);
    let top = score(0);
    let odd = n % 2 == 1;
    for a in 0..n {
        for b in a + 1..n {
            let w = if odd {
                bye_edge(sorted[b], sorted[a], top, &ctx)
            } else {
                edge(sorted[a], sorted[b], false, false, &ctx)
            };
            graph.set(a, b, w);
        }
    }
    graph.solve();
    let unmatched: Vec<usize> = (0..n).filter(|&v| graph.mate[v].is_none()).collect();
    if unmatched.len() > 1 || unmatched.iter().any(|&v| !sorted[v].bye_eligible) {
        return Err(PairingError::Impossible(0));
    }
    let ranks: HashMap<u32, usize>;
    if odd {
        let bye = unmatched[0];
        ctx.bye_score = score(bye);
        ctx.single_downfloater_is_bye = ctx.bye_score >= top
            && (0..n)
                .take_while(|&v| score(v) >= top)
                .all(|v| score(graph.partner(v)) >= top);
        let mut played: Vec<u32> = (0..n)
            .filter(|&v| score(v) == ctx.bye_score)
            .map(|v| sorted[v].played_games)
            .collect();
        played.sort_unstable_by(|a, b| b.cmp(a));
        let mut map = HashMap::new();
        for (rank, games) in played.into_iter().enumerate() {
            map.insert(games, rank);
        }
        ranks = map;
        ctx.unplayed_rank = &ranks;
        for a in 0..n {
            for b in a + 1..n {
                graph.set(a, b, edge(sorted[a], sorted[b], false, false, &ctx));
            }
        }
    }

    let s = layout.size_bits;
    let mut bracket: Vec<usize> = (0..n).take_while(|&v| score(v) >= top).collect();
    let mut next_group = bracket.len();
    // Moved-down players are the first `mdps` of the bracket; the residents'
    // vertices run from `residents_from`.
    let mut mdps = 0usize;
    let mut residents_from = 0usize;
    let mut matched = vec![false; n];
    while bracket.len() > 1 || next_group < n {
        let size = bracket.len();
        let residents_end = residents_from + (size - mdps);
        let group_start = next_group;
        if next_group < n {
            let group_score = score(next_group);
            while next_group < n && score(next_group) >= group_score {
                bracket.push(next_group);
                next_group += 1;
            }
        }
        let in_bracket = |v: usize| v >= residents_from && v < residents_end;
        // Base weights, indexed by position in `bracket` (larger, smaller).
        let mut base: HashMap<(usize, usize), Wide<N>> = HashMap::new();
        for larger in mdps..bracket.len() {
            for smaller in 0..larger {
                let w = edge(
                    sorted[bracket[smaller]],
                    sorted[bracket[larger]],
                    larger < size,
                    larger >= size,
                    &ctx,
                );
                base.insert((larger, smaller), w);
                graph.set(bracket[smaller], bracket[larger], w);
            }
        }
        let base_of = |base: &HashMap<(usize, usize), Wide<N>>, a: usize, b: usize| {
            let (l, s) = if a > b { (a, b) } else { (b, a) };
            base.get(&(l, s)).copied().unwrap_or(Wide::ZERO)
        };
        graph.solve();

        // C.6: which moved-down players are paired here, score group by score group.
        let mut index = 0;
        while index < mdps {
            let group_score = score(bracket[index]);
            let group_end = (index..mdps)
                .find(|&i| score(bracket[i]) < group_score)
                .unwrap_or(mdps);
            let mut remaining = group_end - index;
            let mut remaining_matched = (index..group_end)
                .filter(|&i| in_bracket(graph.partner(bracket[i])))
                .count();
            for i in index..group_end {
                let v = bracket[i];
                if remaining_matched == 0 {
                    continue;
                }
                if remaining <= remaining_matched {
                    matched[v] = true;
                    continue;
                }
                remaining -= 1;
                if !in_bracket(graph.partner(v)) {
                    for o in mdps..size {
                        let w = base_of(&base, o, i);
                        if !w.is_zero() {
                            graph.set(v, bracket[o], w.add(&Wide::from_u64(1)));
                        }
                    }
                    graph.solve();
                }
                if in_bracket(graph.partner(v)) {
                    matched[v] = true;
                    remaining_matched -= 1;
                    for o in mdps..size {
                        let w = base_of(&base, o, i);
                        if !w.is_zero() {
                            let forced = Wide::from_u64((size - mdps) as u64);
                            graph.set(v, bracket[o], or_small(w, forced).add(&Wide::from_u64(1)));
                        }
                    }
                }
            }
            index = group_end;
        }
        // Their opponents: the highest resident possible.
        for i in 0..mdps {
            let v = bracket[i];
            if !matched[v] {
                continue;
            }
            let mut addend = bracket.len() as u64;
            let mut first_choice = None;
            for o in (mdps..size).rev() {
                let u = bracket[o];
                if matched[u] {
                    continue;
                }
                let w = base_of(&base, o, i);
                if !w.is_zero() {
                    graph.set(v, u, w.add(&Wide::from_u64(addend)));
                    addend += 1;
                    first_choice = Some(u);
                }
            }
            if graph.mate[v] != first_choice || first_choice.is_none() {
                graph.solve();
            }
            let u = graph.partner(v);
            matched[u] = true;
            graph.settle(v, u);
        }

        // The remainder: residents not paired with a moved-down player.
        let remainder: Vec<usize> = (mdps..size)
            .filter(|&p| graph.partner(bracket[p]) >= residents_from)
            .collect();
        let pairs = remainder
            .iter()
            .filter(|&&p| {
                let v = bracket[p];
                graph.partner(v) < v
            })
            .count();
        let set_ordered = |graph: &mut Graph<N>, base: &HashMap<(usize, usize), Wide<N>>| {
            for (j, &o) in remainder.iter().enumerate() {
                for (i, &p) in remainder.iter().enumerate().take(j) {
                    let w = ordered(&base_of(base, o, p), i, pairs, s);
                    graph.set(bracket[p], bracket[o], w);
                }
            }
        };
        set_ordered(&mut graph, &base);
        graph.solve();
        let s1_side = |graph: &Graph<N>, v: usize| {
            let m = graph.partner(v);
            m > v && m < residents_end
        };
        let split = remainder.get(pairs).copied().unwrap_or(usize::MAX);
        let exchanges = remainder
            .iter()
            .take_while(|&&p| p < split)
            .filter(|&&p| !s1_side(&graph, bracket[p]))
            .count();

        // Art. 4.3: the S1 players to move to S2, lowest first.
        let mut left = exchanges;
        let mut position = pairs;
        while position > 0 && left > 0 {
            position -= 1;
            let p = remainder[position];
            let v = bracket[p];
            if s1_side(&graph, v) {
                for &o in &remainder[position + 1..] {
                    let w = ordered(&base_of(&base, o, p), position, pairs, s);
                    if !w.is_zero() {
                        graph.set(v, bracket[o], w.sub(&Wide::from_u64(1)));
                    }
                }
                graph.solve();
            }
            let exchange = !s1_side(&graph, v);
            if exchange {
                left -= 1;
            }
            for &o in &remainder[position + 1..] {
                if exchange {
                    base.insert((o, p), Wide::ZERO);
                }
                let w = ordered(&base_of(&base, o, p), position, pairs, s);
                graph.set(v, bracket[o], w);
            }
        }
        // ... and the S2 players to move to S1, highest first.
        let mut left = exchanges;
        for (k, &p) in remainder.iter().enumerate().skip(pairs) {
            if left <= 1 {
                break;
            }
            let v = bracket[p];
            let already = s1_side(&graph, v);
            if !already {
                for &o in &remainder[k + 1..] {
                    let w = ordered(&base_of(&base, o, p), k, pairs, s);
                    if !w.is_zero() {
                        graph.set(v, bracket[o], w.add(&Wide::from_u64(1)));
                    }
                }
                graph.solve();
            }
            if s1_side(&graph, v) {
                left -= 1;
                for &o in &remainder[..k] {
                    base.insert((p, o), Wide::ZERO);
                    graph.set(v, bracket[o], Wide::ZERO);
                }
                for o in size..bracket.len() {
                    base.insert((o, p), Wide::ZERO);
                    graph.set(v, bracket[o], Wide::ZERO);
                }
            }
            if !already {
                for &o in &remainder[k + 1..] {
                    let w = ordered(&base_of(&base, o, p), k, pairs, s);
                    graph.set(v, bracket[o], w);
                }
            }
        }
        // Fix who is in S1, and go back to the plain weights.
        for (i, &p) in remainder.iter().enumerate() {
            let v = bracket[p];
            for &o in &remainder[i + 1..] {
                let u = bracket[o];
                if !s1_side(&graph, v) || s1_side(&graph, u) {
                    base.insert((o, p), Wide::ZERO);
                }
                graph.set(v, u, base_of(&base, o, p));
            }
        }
        // Art. 4.2: each S1 player, from the top, meets the first S2 player possible.
        // A player's preference is the rank of the opponent from the bottom; the
        // player being decided weighs it above all later players together, so a
        // matching that decides that player exactly leaves a good guess for the rest
        // (while the matching in hand already gives a player the first choice, it
        // is the answer, and no new matching is needed).
        let s1: Vec<usize> = remainder
            .iter()
            .copied()
            .filter(|&p| s1_side(&graph, bracket[p]))
            .collect();
        let prefer = |graph: &mut Graph<N>, matched: &[bool], p: usize, shift: u32| {
            let v = bracket[p];
            let mut addend = 0u64;
            let mut first_choice = None;
            for &o in remainder.iter().rev() {
                let u = bracket[o];
                if o <= p || matched[u] {
                    continue;
                }
                let w = base_of(&base, o, p);
                if !w.is_zero() {
                    graph.set(v, u, w.add(&Wide::from_u64(addend).shl(shift)));
                    first_choice = Some(u);
                }
                addend += 1;
            }
            first_choice
        };
        for &p in &s1 {
            prefer(&mut graph, &matched, p, 0);
        }
        for &p in &s1 {
            let v = bracket[p];
            let first_choice = prefer(&mut graph, &matched, p, 0);
            if first_choice.is_none() || graph.mate[v] != first_choice {
                prefer(&mut graph, &matched, p, 2 * s);
                graph.solve();
            }
            let u = graph.partner(v);
            matched[v] = true;
            matched[u] = true;
            graph.settle(v, u);
        }

        // The next bracket: this one's downfloaters and the next score group.
        let next_score = (group_start < n).then(|| score(group_start));
        ctx.single_downfloater_is_bye = odd && next_score.is_some_and(|ns| ctx.bye_score >= ns);
        let mut carried = Vec::new();
        let mut new_mdps = 0;
        for (position, &v) in bracket.iter().enumerate() {
            if position < size && matched[v] {
                continue;
            }
            carried.push(v);
            if position < size {
                new_mdps += 1;
            }
            if let Some(ns) = next_score {
                if ctx.single_downfloater_is_bye && score(graph.partner(v)) < ns {
                    ctx.single_downfloater_is_bye = false;
                }
            }
        }
        // The base weights of the next bracket are recomputed with the new flag.
        bracket = carried;
        mdps = new_mdps;
        residents_from = residents_end;
    }
    Ok((0..n).map(|v| graph.settled[v]).collect())
}

/// `w | small` for a value that fits in the low bits.
fn or_small<const N: usize>(w: Wide<N>, small: Wide<N>) -> Wide<N> {
    let mut out = w;
    out.0[0] |= small.0[0];
    out
}
