//! Paper 003, Proposition 4.2 (i)–(iii) as a test of the exact laws and the convex-order
//! comparison: X ≺ Y ⇒ X ∨ Z ≺ Y ∨ Z, X + Z ≺ Y + Z, XZ ≺ YZ for an independent Z, on Theorem
//! 5.1's own pairs (X = Σ_{j≤r^d} X_j^(d), Y = X̃^(d), X̃ ~ Poisson(rα)) with Z a Poisson cost.
//! A proven proposition evaluated on computed laws measures nothing of a system, so it is a
//! unit test of `scatter::convex` and the convolutions (the report's Corollary 4.1 and 4.2
//! and Theorem 5.2 sections rely on them), not a claim of the report.

use crate::scatter::convex::compare;
use crate::scatter::model::{sum_of_copies, Cost, Dist};
use std::collections::HashMap;

/// The law of f(X, Z) for independent X, Z (values merged).
fn combine(x: &Dist, z: &Dist, f: impl Fn(u64, u64) -> u64) -> Dist {
    let mut m: HashMap<u64, f64> = HashMap::new();
    let (tx, tz): (f64, f64) = (x.probs.iter().sum(), z.probs.iter().sum());
    // A dense law holds the values no sum reaches with probability 0: skip them.
    for (&a, &pa) in x.values.iter().zip(&x.probs).filter(|(_, &p)| p > 0.0) {
        for (&b, &pb) in z.values.iter().zip(&z.probs).filter(|(_, &p)| p > 0.0) {
            *m.entry(f(a, b)).or_insert(0.0) += pa / tx * pb / tz;
        }
    }
    let mut v: Vec<(u64, f64)> = m.into_iter().collect();
    v.sort_unstable_by_key(|e| e.0);
    Dist {
        values: v.iter().map(|e| e.0).collect(),
        probs: v.iter().map(|e| e.1).collect(),
    }
}

/// An operation f(X, Z) on the values, with its name.
type Op = (&'static str, fn(u64, u64) -> u64);

/// The three operations of the proposition.
const OPS: [Op; 3] = [
    ("(i) X ∨ Z", |a, b| a.max(b)),
    ("(ii) X + Z", |a, b| a + b),
    ("(iii) X·Z", |a, b| a * b),
];

/// The largest relative excess of E(f(X,Z) ∨ c) − E(f(Y,Z) ∨ c) over c, for each operation.
fn excesses(x: &Dist, y: &Dist, z: &Dist) -> [f64; 3] {
    OPS.map(|(_, f)| {
        let cmp = compare(&combine(x, z, f), &combine(y, z, f));
        cmp.worst / cmp.means.1.max(1e-300)
    })
}

/// The tolerance (rounding of sums of ~10^4 terms).
const TOL: f64 = 1e-9;

/// Each operation keeps the order on Theorem 5.1's pairs, and does not keep the reversed
/// (false) order for d ≥ 2, so the comparison can see a violation.
#[test]
fn the_convex_order_survives_max_sum_and_product() {
    let zs: [(f64, u32); 3] = [(0.5, 1), (3.0, 1), (1.0, 2)];
    for (alpha, r, d) in [(1.0, 2u64, 2u32), (0.5, 3, 2), (1.0, 2, 3), (2.0, 2, 2)] {
        let one = Dist::cost_of_poisson(alpha, Cost::Falling(d));
        let x = sum_of_copies(&one, r.pow(d)).expect("small enough to convolve");
        let y = Dist::cost_of_poisson(r as f64 * alpha, Cost::Falling(d));
        let base = compare(&x, &y);
        assert!(base.worst / base.means.1 <= TOL, "the premise X ≺ Y");
        for &(beta, dz) in &zs {
            let z = Dist::cost_of_poisson(beta, Cost::Falling(dz));
            let kept = excesses(&x, &y, &z);
            let swapped = excesses(&y, &x, &z);
            for (i, (k, s)) in kept.iter().zip(&swapped).enumerate() {
                assert!(
                    *k <= TOL,
                    "{}: excess {k} at α = {alpha}, r = {r}, d = {d}",
                    OPS[i].0
                );
                assert!(*s > TOL, "{}: the swapped pair passes ({s})", OPS[i].0);
            }
        }
    }
}
