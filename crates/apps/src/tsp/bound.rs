//! The travelling salesman's bounds and first tour: the Held–Karp 1-tree bound with Lagrangian
//! penalties found by subgradient ascent, its form for a partial tour (a path from city 0),
//! and a nearest-neighbour tour improved by 2-opt and Or-opt as the first incumbent.
//!
//! A partial tour fixes a path 0 → … → `last`; what completes it is a path from `last`
//! through the unvisited cities U back to 0. Such a completion is an edge from `last` into
//! U, a spanning path of U and an edge from U to 0, so with penalties π on U (any values) its
//! length is at least
//!
//! ```text
//!   min_u (d(last,u) + π_u) + MST_U(d(u,v) + π_u + π_v) + min_v (d(0,v) + π_v) − 2 Σ_U π
//! ```
//!
//! (the two edges into U at distinct cities when |U| ≥ 2). At the root (`last` = 0) this is
//! the classical 1-tree bound with city 0 as its special city. The root's penalties come
//! from a long subgradient ascent; a node below starts from them and takes a few steps of
//! its own, which is what makes its bound close to the 1-tree of its own subproblem.

/// Distances: `d[i * n + j]`.
pub struct Dist<'a> {
    /// Cities.
    pub n: usize,
    /// The matrix.
    pub d: &'a [u32],
}

impl Dist<'_> {
    #[inline]
    fn at(&self, i: usize, j: usize) -> f64 {
        f64::from(self.d[i * self.n + j])
    }

    /// The length of the closed tour `tour`.
    pub fn tour_length(&self, tour: &[u16]) -> u64 {
        let n = tour.len();
        (0..n)
            .map(|k| {
                u64::from(self.d[usize::from(tour[k]) * self.n + usize::from(tour[(k + 1) % n])])
            })
            .sum()
    }
}

/// One evaluation of the relaxation: its value and the degree of each city of U in it.
struct Relaxed {
    value: f64,
    /// `deg[k]`: the degree of `u[k]`.
    deg: Vec<i32>,
}

/// Prim's scratch, reused over the subgradient steps: per city of U its key, its parent in
/// the tree and whether it is in the tree.
#[derive(Default)]
struct Prim {
    key: Vec<f64>,
    parent: Vec<usize>,
    done: Vec<bool>,
}

/// The relaxation for the path ending at `last` (its length `fixed`), the unvisited cities
/// `u` and their penalties `pi` (index-aligned with `u`). `u` is not empty.
fn relax(
    dist: &Dist,
    fixed: f64,
    last: usize,
    u: &[usize],
    pi: &[f64],
    prim: &mut Prim,
) -> Relaxed {
    let Prim { key, parent, done } = prim;
    let m = u.len();
    let mut deg = vec![0i32; m];
    // Prim's MST of U under the penalised distances.
    key.clear();
    key.resize(m, f64::INFINITY);
    parent.clear();
    parent.resize(m, usize::MAX);
    done.clear();
    done.resize(m, false);
    let mut tree = 0.0;
    key[0] = 0.0;
    for _ in 0..m {
        let mut best = usize::MAX;
        let mut bk = f64::INFINITY;
        for k in 0..m {
            if !done[k] && (best == usize::MAX || key[k] < bk) {
                best = k;
                bk = key[k];
            }
        }
        done[best] = true;
        if parent[best] != usize::MAX {
            tree += bk;
            deg[best] += 1;
            deg[parent[best]] += 1;
        }
        let (ub, pb) = (u[best], pi[best]);
        for k in 0..m {
            if !done[k] {
                let c = dist.at(ub, u[k]) + pb + pi[k];
                if c < key[k] {
                    key[k] = c;
                    parent[k] = best;
                }
            }
        }
    }
    // The two connections: from `last` and from 0, at distinct cities when |U| ≥ 2.
    let best_two = |from: usize| {
        let (mut a, mut b) = ((f64::INFINITY, usize::MAX), (f64::INFINITY, usize::MAX));
        for k in 0..m {
            let c = dist.at(from, u[k]) + pi[k];
            if c < a.0 {
                b = a;
                a = (c, k);
            } else if c < b.0 {
                b = (c, k);
            }
        }
        (a, b)
    };
    let (l1, l2) = best_two(last);
    let (z1, z2) = if last == 0 { (l1, l2) } else { best_two(0) };
    let (cl, cz) = if l1.1 != z1.1 || m == 1 {
        (l1, z1)
    } else if l1.0 + z2.0 <= l2.0 + z1.0 {
        (l1, z2)
    } else {
        (l2, z1)
    };
    deg[cl.1] += 1;
    deg[cz.1] += 1;
    let penalties: f64 = pi.iter().sum();
    Relaxed {
        value: fixed + cl.0 + tree + cz.0 - 2.0 * penalties,
        deg,
    }
}

/// A lower bound on every tour that starts with a path ending at `last` of length `fixed`,
/// with the cities `u` (not empty) still to visit: the relaxation's best value over
/// `iterations` subgradient steps from the penalties `pi` (aligned with `u`, updated in
/// place), stopping early once it reaches `cap` (nothing at or above `cap` is needed) or the
/// relaxation is a path (it is then the optimum of the subproblem). `upper` is a tour length
/// that scales the steps.
#[allow(clippy::too_many_arguments)]
pub fn ascent(
    dist: &Dist,
    fixed: f64,
    last: usize,
    u: &[usize],
    pi: &mut [f64],
    upper: f64,
    cap: f64,
    iterations: usize,
    patience: usize,
) -> (f64, Vec<f64>) {
    let mut prim = Prim::default();
    let mut best = f64::NEG_INFINITY;
    let mut best_pi = pi.to_vec();
    let mut lambda = 2.0;
    let mut stale = 0;
    for _ in 0..iterations.max(1) {
        let r = relax(dist, fixed, last, u, pi, &mut prim);
        if r.value > best + 1e-9 {
            best = r.value;
            best_pi.copy_from_slice(pi);
            stale = 0;
        } else {
            stale += 1;
            if stale >= patience {
                lambda /= 2.0;
                stale = 0;
            }
        }
        let norm: i64 = r.deg.iter().map(|&g| i64::from((g - 2) * (g - 2))).sum();
        if norm == 0 || best >= cap || lambda < 1e-6 {
            break;
        }
        let step = lambda * (upper - r.value).max(1.0) / norm as f64;
        for (p, g) in pi.iter_mut().zip(&r.deg) {
            *p += step * f64::from(g - 2);
        }
    }
    (best, best_pi)
}

/// The integer bound of a real lower bound `lb` on an integer length (a hair below it for
/// rounding).
pub fn ceil(lb: f64) -> i64 {
    (lb - 1e-6 * lb.abs().max(1.0)).ceil() as i64
}

/// A good first tour (city 0 first): nearest neighbour from every city (from the first 4
/// beyond 100 cities), each improved by 2-opt and Or-opt to a local optimum; the shortest.
pub fn heuristic_tour(dist: &Dist) -> Vec<u16> {
    let n = dist.n;
    let mut best: Option<(u64, Vec<u16>)> = None;
    for start in 0..if n <= 100 { n } else { 4 } {
        let mut tour = nearest_neighbour(dist, start);
        improve(dist, &mut tour);
        let len = dist.tour_length(&tour);
        if best.as_ref().is_none_or(|(b, _)| len < *b) {
            best = Some((len, tour));
        }
    }
    let mut tour = best.map(|(_, t)| t).unwrap_or_default();
    if let Some(z) = tour.iter().position(|&c| c == 0) {
        tour.rotate_left(z);
    }
    tour
}

fn nearest_neighbour(dist: &Dist, start: usize) -> Vec<u16> {
    let n = dist.n;
    let mut seen = vec![false; n];
    let mut tour = Vec::with_capacity(n);
    let mut at = start;
    seen[at] = true;
    tour.push(at as u16);
    for _ in 1..n {
        let next = (0..n)
            .filter(|&c| !seen[c])
            .min_by_key(|&c| (dist.d[at * n + c], c))
            .expect("an unvisited city");
        seen[next] = true;
        tour.push(next as u16);
        at = next;
    }
    tour
}

/// 2-opt and Or-opt (segments of 1 to 3 cities moved, either way round) until neither
/// improves the tour.
fn improve(dist: &Dist, tour: &mut Vec<u16>) {
    let n = tour.len();
    if n < 4 {
        return;
    }
    let d = |a: u16, b: u16| i64::from(dist.d[usize::from(a) * n + usize::from(b)]);
    loop {
        let mut better = false;
        // 2-opt: reverse tour[i+1..=j].
        for i in 0..n - 1 {
            for j in i + 2..n {
                let (a, b, c, e) = (tour[i], tour[i + 1], tour[j], tour[(j + 1) % n]);
                if a == e {
                    continue;
                }
                if d(a, c) + d(b, e) < d(a, b) + d(c, e) {
                    tour[i + 1..=j].reverse();
                    better = true;
                }
            }
        }
        // Or-opt: move a segment of 1..=3 cities between two others.
        for len in 1..=3usize.min(n - 2) {
            let mut i = 0;
            while i + len <= n {
                let seg: Vec<u16> = tour[i..i + len].to_vec();
                let prev = tour[(i + n - 1) % n];
                let next = tour[(i + len) % n];
                let removed = d(prev, seg[0]) + d(seg[len - 1], next) - d(prev, next);
                let rest: Vec<u16> = tour[..i].iter().chain(&tour[i + len..]).copied().collect();
                let m = rest.len();
                let mut found = None;
                for k in 0..m {
                    let (p, q) = (rest[k], rest[(k + 1) % m]);
                    let fwd = d(p, seg[0]) + d(seg[len - 1], q) - d(p, q);
                    let bwd = d(p, seg[len - 1]) + d(seg[0], q) - d(p, q);
                    if fwd < removed && found.is_none_or(|(_, g, _)| fwd < g) {
                        found = Some((k, fwd, false));
                    }
                    if bwd < removed && found.is_none_or(|(_, g, _)| bwd < g) {
                        found = Some((k, bwd, true));
                    }
                }
                if let Some((k, _, reversed)) = found {
                    let mut s = seg;
                    if reversed {
                        s.reverse();
                    }
                    let mut t = Vec::with_capacity(n);
                    t.extend_from_slice(&rest[..=k]);
                    t.extend_from_slice(&s);
                    t.extend_from_slice(&rest[k + 1..]);
                    *tour = t;
                    better = true;
                }
                i += 1;
            }
        }
        if !better {
            return;
        }
    }
}
