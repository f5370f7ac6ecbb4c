//! The search against an independent solver (Held and Karp's dynamic programme over subsets)
//! on random instances, sequentially and on threads with every balancer, and the bounds
//! against the optimum.

use super::*;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;
use treesplit::search::{Optimise, Space};
use treesplit::{run, run_sequential, BalancerKind, Config};

/// A random symmetric instance: `n` random cities (EUC_2D) when `euclidean`, else weights
/// uniform in 1..=1000 (no triangle inequality).
pub(super) fn random(n: usize, euclidean: bool, seed: u64) -> Matrix {
    if euclidean {
        return Matrix::random(n, seed);
    }
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    Matrix::from_fn("random", n, |_, _| rng.random_range(1..=1000u32))
}

/// The optimal tour length by Held and Karp's dynamic programme: O(2ⁿ n²).
pub(super) fn held_karp(m: &Matrix) -> u64 {
    let n = m.n;
    if n == 1 {
        return 0;
    }
    let d = |i: usize, j: usize| u64::from(m.dist[i * n + j]);
    // best[S][j]: the shortest path from city 0 through the set S of cities 1..n (bit j-1
    // for city j), ending at j ∈ S.
    let full = 1usize << (n - 1);
    let mut best = vec![u64::MAX; full * n];
    for j in 1..n {
        best[(1 << (j - 1)) * n + j] = d(0, j);
    }
    for s in 1..full {
        for j in 1..n {
            let here = best[s * n + j];
            if here == u64::MAX || s & (1 << (j - 1)) == 0 {
                continue;
            }
            for k in 1..n {
                if s & (1 << (k - 1)) == 0 {
                    let t = s | (1 << (k - 1));
                    let v = here + d(j, k);
                    if v < best[t * n + k] {
                        best[t * n + k] = v;
                    }
                }
            }
        }
    }
    (1..n)
        .map(|j| best[(full - 1) * n + j] + d(j, 0))
        .min()
        .expect("a city")
}

#[test]
fn the_search_agrees_with_held_karp_on_random_instances() {
    for seed in 0..24u64 {
        let n = 1 + (seed as usize % 12);
        let m = random(n, seed % 2 == 0, seed);
        let want = held_karp(&m);
        let problem = Arc::new(Problem::new(m));
        assert!(
            problem.root_bound <= want as i64,
            "seed {seed}: the root bound"
        );
        assert!(problem.first_length >= want, "seed {seed}: the first tour");
        let found = run_sequential(search(problem.clone())).output;
        assert_eq!(found.length, want, "seed {seed}, n = {n}: {found}");
        assert!(problem.is_tour(&found), "seed {seed}: {found}");
    }
}

#[test]
fn every_balancer_on_threads_finds_the_optimum() {
    for (seed, n) in [(101u64, 12usize), (102, 11)] {
        let m = random(n, seed % 2 == 1, seed);
        let want = held_karp(&m);
        let problem = Arc::new(Problem::new(m));
        for balancer in BalancerKind::ALL {
            let config = Config::new(3).balancer(*balancer).delta_t(1);
            let found = run(search(problem.clone()), &config)
                .unwrap()
                .into_report()
                .output;
            assert_eq!(found.length, want, "{balancer:?}, seed {seed}");
            assert!(problem.is_tour(&found), "{balancer:?}: {found}");
        }
    }
}

#[test]
fn bounds_hold_below_the_root() {
    // Every child's bound is at most the best tour through its first edge (Held and Karp's
    // dynamic programme with that edge fixed).
    let m = random(10, false, 7);
    let problem = Arc::new(Problem::new(m.clone()));
    let space = TspSpace(problem.clone());
    let root = space.root();
    for child in space.children(&root) {
        let c = usize::from(child.path[1]);
        let best_through = best_with_edge(&m, 0, c);
        assert!(space.bound(&child).unwrap() <= best_through as i64);
    }
}

/// The shortest tour that uses edge (a, b), by brute force over the dynamic programme's
/// paths: Held–Karp from b back to a through the others, plus d(a, b).
fn best_with_edge(m: &Matrix, a: usize, b: usize) -> u64 {
    let n = m.n;
    let others: Vec<usize> = (0..n).filter(|&c| c != a && c != b).collect();
    let k = others.len();
    let d = |i: usize, j: usize| u64::from(m.dist[i * n + j]);
    let full = 1usize << k;
    let mut best = vec![u64::MAX; full * k];
    for (x, &c) in others.iter().enumerate() {
        best[(1 << x) * k + x] = d(b, c);
    }
    for s in 1..full {
        for x in 0..k {
            let here = best[s * k + x];
            if here == u64::MAX || s & (1 << x) == 0 {
                continue;
            }
            for y in 0..k {
                if s & (1 << y) == 0 {
                    let t = s | (1 << y);
                    let v = here + d(others[x], others[y]);
                    if v < best[t * k + y] {
                        best[t * k + y] = v;
                    }
                }
            }
        }
    }
    let close = (0..k)
        .map(|x| best[(full - 1) * k + x] + d(others[x], a))
        .min()
        .unwrap_or(d(b, a));
    close + d(a, b)
}

#[test]
fn tours_merge_to_the_shortest_and_check_against_the_distances() {
    let m = random(6, true, 3);
    let p = Problem::new(m);
    let t = p.tour(&p.first);
    assert_eq!(t.tour[0], 1);
    assert!(p.is_tour(&t));
    let mut bad = t.clone();
    bad.length += 1;
    assert!(!p.is_tour(&bad));
    let mut merged = Tour::default();
    merged.merge(bad.clone());
    merged.merge(t.clone());
    merged.merge(Tour::default());
    assert_eq!(merged, t);
    assert_eq!(Tour::default().to_string(), "no tour");
    assert!(t
        .to_string()
        .starts_with(&format!("length {}: tour 1 ", t.length)));
}
