//! The matching against brute force, cold and warm-started.
use super::*;

/// The best matching weight by trying everything (small graphs only).
fn brute_force(n: usize, weights: &[Vec<u64>], used: &mut Vec<bool>, from: usize) -> u64 {
    let Some(v) = (from..n).find(|&v| !used[v]) else {
        return 0;
    };
    used[v] = true;
    let mut best = brute_force(n, weights, used, v + 1);
    for u in v + 1..n {
        if !used[u] && weights[v][u] > 0 {
            used[u] = true;
            best = best.max(weights[v][u] + brute_force(n, weights, used, v + 1));
            used[u] = false;
        }
    }
    used[v] = false;
    best
}

#[test]
#[allow(clippy::needless_range_loop)]
fn matches_brute_force_on_random_graphs() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for case in 0..3000 {
        let n = 2 + (next() % 9) as usize;
        let density = 1 + next() % 4;
        let mut weights = vec![vec![0u64; n]; n];
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if next() % 4 < density {
                    let w = 2 * (1 + next() % if case % 2 == 0 { 5 } else { 1000 });
                    weights[i][j] = w;
                    weights[j][i] = w;
                    edges.push((i, j, w));
                }
            }
        }
        let mate = maximum_matching(n, &edges);
        let mut total = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mate[u], Some(v), "case {case}: not symmetric");
                assert!(weights[v][u] > 0, "case {case}: not an edge");
                if v < u {
                    total += weights[v][u];
                }
            }
        }
        let best = brute_force(n, &weights, &mut vec![false; n], 0);
        assert_eq!(total, best, "case {case}: {edges:?}");
    }
}

/// The best perfect matching weight by trying everything, if one exists.
fn brute_force_perfect(n: usize, weights: &[Vec<u64>], used: &mut Vec<bool>) -> Option<u64> {
    let Some(v) = (0..n).find(|&v| !used[v]) else {
        return Some(0);
    };
    used[v] = true;
    let mut best = None;
    for u in v + 1..n {
        if !used[u] && weights[v][u] > 0 {
            used[u] = true;
            if let Some(rest) = brute_force_perfect(n, weights, used) {
                best = best.max(Some(weights[v][u] + rest));
            }
            used[u] = false;
        }
    }
    used[v] = false;
    best
}

#[test]
#[allow(clippy::needless_range_loop)]
fn warm_started_perfect_matchings_stay_optimal_as_weights_change() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for case in 0..600 {
        let n = 2 * (1 + (next() % 5) as usize);
        let mut weights = vec![vec![0u64; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                // Pairs (2k, 2k+1) always exist, so a perfect matching does.
                if j == i + 1 && i % 2 == 0 || next() % 3 > 0 {
                    let w = 2 * (1 + next() % 50);
                    weights[i][j] = w;
                    weights[j][i] = w;
                }
            }
        }
        let mut warm = Warm::default();
        for step in 0..6 {
            if step > 0 {
                // Change the weights of the edges at one or two vertices, and say
                // which (every other case leaves the matching to find them).
                let mut changed = Vec::new();
                for _ in 0..1 + next() % 2 {
                    let v = (next() % n as u64) as usize;
                    changed.push(v);
                    for u in 0..n {
                        if u != v && weights[v][u] > 0 {
                            let w = 2 * (1 + next() % 50);
                            weights[v][u] = w;
                            weights[u][v] = w;
                        }
                    }
                }
                warm.changed = (case % 2 == 0).then_some(changed);
            }
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if weights[i][j] > 0 {
                        edges.push((i, j, weights[i][j]));
                    }
                }
            }
            assert!(
                perfect_matching(&EdgeList::new(n, &edges), &mut warm),
                "case {case} step {step}"
            );
            let mut total = 0;
            for v in 0..n {
                let u = warm.mate[v].unwrap();
                assert_eq!(warm.mate[u], Some(v));
                if v < u {
                    total += weights[v][u];
                }
            }
            let best = brute_force_perfect(n, &weights, &mut vec![false; n]).unwrap();
            assert_eq!(total, best, "case {case} step {step}");
        }
    }
}

#[test]
#[allow(clippy::needless_range_loop)]
fn cold_perfect_matchings_are_optimal_or_say_there_is_none() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut found, mut none) = (0, 0);
    for case in 0..1500 {
        let n = 2 * (1 + (next() % 6) as usize);
        let sparse = next() % 2 == 0;
        let mut weights = vec![vec![0u64; n]; n];
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if next() % if sparse { 4 } else { 8 } > 1 {
                    // Few distinct weights: ties everywhere, as in pairing bands.
                    let w = 2 * (1 + next() % if case % 2 == 0 { 3 } else { 1000 });
                    weights[i][j] = w;
                    weights[j][i] = w;
                    edges.push((i, j, w));
                }
            }
        }
        let mut warm = Warm::default();
        let best = brute_force_perfect(n, &weights, &mut vec![false; n]);
        let perfect = perfect_matching(&EdgeList::new(n, &edges), &mut warm);
        assert_eq!(perfect, best.is_some(), "case {case}");
        let Some(best) = best else {
            none += 1;
            continue;
        };
        found += 1;
        let mut total = 0;
        for v in 0..n {
            let u = warm.mate[v].unwrap();
            assert_eq!(warm.mate[u], Some(v), "case {case}");
            assert!(weights[v][u] > 0, "case {case}: {v}-{u} is no edge");
            if v < u {
                total += weights[v][u];
            }
        }
        assert_eq!(total, best, "case {case}");
    }
    // Both outcomes are exercised.
    assert!(found > 300 && none > 100, "{found} found, {none} none");
}

/// The way the Dutch pairing uses the matching: one weight matrix changed in
/// place at one vertex at a time, pairs fixed one by one, blossoms kept between
/// searches; every search must still find the heaviest perfect matching.
#[test]
#[allow(clippy::needless_range_loop)]
fn dense_warm_starts_keep_blossoms_and_fixed_pairs_and_stay_optimal() {
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for case in 0..1500 {
        let n = 2 * (1 + (next() % 6) as usize);
        // Few distinct weights make ties, and ties make blossoms.
        let spread = if case % 3 == 0 { 3 } else { 40 };
        let mut weights = vec![vec![0u64; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                if j == i + 1 && i % 2 == 0 || next() % 4 > 0 {
                    let w = 2 * (1 + next() % spread);
                    weights[i][j] = w;
                    weights[j][i] = w;
                }
            }
        }
        let mut fixed: Vec<Option<usize>> = vec![None; n];
        let mut warm = Warm::default();
        for step in 0..8 {
            let mut changed = Vec::new();
            if step > 0 {
                let v = (next() % n as u64) as usize;
                if fixed[v].is_none() && next() % 4 == 0 {
                    // Fix the pair the last matching gave `v`.
                    let u = warm.mate[v].unwrap();
                    fixed[v] = Some(u);
                    fixed[u] = Some(v);
                    changed.extend([v, u]);
                } else if fixed[v].is_none() {
                    for u in 0..n {
                        if u != v && weights[v][u] > 0 && fixed[u].is_none() {
                            let w = 2 * (1 + next() % spread);
                            weights[v][u] = w;
                            weights[u][v] = w;
                        }
                    }
                    changed.push(v);
                }
            }
            if step > 0 {
                warm.changed = Some(changed);
            }
            let twice: Vec<u64> = (0..n * n).map(|k| 2 * weights[k / n][k % n]).collect();
            let active: Vec<usize> = (0..n).filter(|&v| fixed[v].is_none()).collect();
            let graph = Dense {
                size: n,
                twice: &twice,
                active: &active,
                fixed: &fixed,
            };
            assert!(
                perfect_matching(&graph, &mut warm),
                "case {case} step {step}"
            );
            let mut total = 0;
            for v in 0..n {
                let u = warm.mate[v].unwrap();
                assert_eq!(warm.mate[u], Some(v), "case {case} step {step}");
                if let Some(partner) = fixed[v] {
                    assert_eq!(u, partner, "case {case} step {step}: a fixed pair moved");
                } else if v < u {
                    assert!(weights[v][u] > 0, "case {case} step {step}: not an edge");
                    total += weights[v][u];
                }
            }
            let mut used: Vec<bool> = fixed.iter().map(Option::is_some).collect();
            let best = brute_force_perfect(n, &weights, &mut used).unwrap();
            assert_eq!(total, best, "case {case} step {step}");
        }
    }
}
