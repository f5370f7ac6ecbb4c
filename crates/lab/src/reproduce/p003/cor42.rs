//! Paper 003, Corollary 4.2 (the comparison Lemma 5.3 repeats): X_1Y_1 + … + X_rY_r + Z ≺
//! X_1(Y_1 + … + Y_r) + Z for X_1 … X_r i.i.d. and independent of Y_1 … Y_r, Z. Both laws
//! computed exactly for Poisson X, Y, Z and compared in the convex order at every threshold.

use super::super::{Control, Ctx, Finding, Premise, Table, Verdict};
use crate::scatter::convex::compare;
use crate::scatter::model::{Cost, Dist};

/// The law of Poisson(λ) (λ = 0: the point mass at 0).
fn poisson(lambda: f64) -> Dist {
    if lambda == 0.0 {
        return point(0);
    }
    Dist::cost_of_poisson(lambda, Cost::Power(1))
}

/// The point mass at v.
fn point(v: u64) -> Dist {
    Dist {
        values: vec![v],
        probs: vec![1.0],
    }
}

/// A dense law on 0..g.len() as a [`Dist`] (zero entries dropped).
fn from_dense(g: &[f64]) -> Dist {
    let (mut values, mut probs) = (Vec::new(), Vec::new());
    for (v, &p) in g.iter().enumerate() {
        if p > 0.0 {
            values.push(v as u64);
            probs.push(p);
        }
    }
    Dist { values, probs }
}

/// The law of X + Y for independent X ~ `a`, Y ~ `b`.
fn sum(a: &Dist, b: &Dist) -> Dist {
    let top = (a.values.last().expect("a value") + b.values.last().expect("a value")) as usize;
    let mut g = vec![0f64; top + 1];
    for (&u, &p) in a.values.iter().zip(&a.probs) {
        for (&v, &q) in b.values.iter().zip(&b.probs) {
            g[(u + v) as usize] += p * q;
        }
    }
    from_dense(&g)
}

/// The law of X·Y for independent X ~ `a`, Y ~ `b`.
fn product(a: &Dist, b: &Dist) -> Dist {
    let top = (a.values.last().expect("a value") * b.values.last().expect("a value")) as usize;
    let mut g = vec![0f64; top + 1];
    for (&u, &p) in a.values.iter().zip(&a.probs) {
        for (&v, &q) in b.values.iter().zip(&b.probs) {
            g[(u * v) as usize] += p * q;
        }
    }
    from_dense(&g)
}

/// The two sides for the laws `xs` of X_1 … X_r (i.i.d. in the claim), Y_i ~ Poisson(`ys[i]`)
/// independent, Z ~ Poisson(`z`): (law of Σ X_iY_i + Z, law of X_1·ΣY_i + Z).
fn sides(xs: &[Dist], ys: &[f64], z: f64) -> (Dist, Dist) {
    let mut left = poisson(z);
    for (x, &y) in xs.iter().zip(ys) {
        left = sum(&left, &product(x, &poisson(y)));
    }
    let right = sum(&poisson(z), &product(&xs[0], &poisson(ys.iter().sum())));
    (left, right)
}

/// The criterion, fixed before the run: the largest E(LHS ∨ c) − E(RHS ∨ c) over all c ≥ 0 at
/// most 1e−9 of the mean.
fn ordered(left: &Dist, right: &Dist) -> (bool, f64, f64) {
    let c = compare(left, right);
    let rel = c.worst / c.means.1.max(1e-300);
    (rel <= 1e-9, rel, (c.means.0 - c.means.1).abs() / c.means.1)
}

/// Corollary 4.2 on Poisson laws; control: X_1 ≡ a (a point mass) beside X_2 … X_r ~ Poisson(a),
/// same means but not identically distributed.
pub(super) fn cor42(ctx: &Ctx) -> Result<Finding, String> {
    let cases: Vec<(f64, Vec<f64>, f64)> = ctx.pick(
        vec![(1.0, vec![1.0, 2.0], 1.0), (2.0, vec![0.5, 1.0, 3.0], 0.0)],
        vec![
            (0.5, vec![1.0, 2.0], 0.0),
            (1.0, vec![1.0, 2.0], 1.0),
            (2.0, vec![1.0, 2.0], 0.0),
            (1.0, vec![1.0, 1.0, 1.0], 2.0),
            (1.0, vec![0.5, 1.0, 3.0], 1.0),
            (2.0, vec![0.5, 1.0, 3.0], 0.0),
            (3.0, vec![2.0, 2.0, 2.0, 2.0], 1.0),
        ],
    );
    let mut table = Table::new(&[
        "X_i ~ Poisson(a)",
        "Y_i ~ Poisson(·)",
        "Z ~ Poisson(·)",
        "E(LHS), E(RHS)",
        "max_c E(LHS ∨ c) − E(RHS ∨ c), relative",
        "control: X_1 ≡ a",
        "control: max_c, relative",
    ]);
    let (mut ok, mut worst, mut mean_gap, mut lost) = (true, f64::NEG_INFINITY, 0f64, 0f64);
    let (mut c_ok, mut c_worst, mut c_cases) = (true, f64::NEG_INFINITY, 0usize);
    for (a, ys, z) in &cases {
        let xs: Vec<Dist> = ys.iter().map(|_| poisson(*a)).collect();
        let (left, right) = sides(&xs, ys, *z);
        let (o, rel, gap) = ordered(&left, &right);
        ok &= o;
        worst = worst.max(rel);
        mean_gap = mean_gap.max(gap);
        lost = lost
            .max((1.0 - left.probs.iter().sum::<f64>()).abs())
            .max((1.0 - right.probs.iter().sum::<f64>()).abs());
        let control = if a.fract() == 0.0 {
            let mut cx = xs.clone();
            cx[0] = point(*a as u64);
            let (cl, cr) = sides(&cx, ys, *z);
            let (co, crel, _) = ordered(&cl, &cr);
            c_ok &= co;
            c_worst = c_worst.max(crel);
            c_cases += 1;
            Some(crel)
        } else {
            None
        };
        table.row(vec![
            (*a).into(),
            format!("{ys:?}").into(),
            (*z).into(),
            format!("{:.6}, {:.6}", left.mean(), right.mean()).into(),
            rel.into(),
            (if control.is_some() {
                "yes"
            } else {
                "— (a not an integer)"
            })
            .into(),
            control.unwrap_or(f64::NAN).into(),
        ]);
    }
    Ok(Finding {
        prediction: "X_1Y_1 + … + X_rY_r + Z ≺ X_1(Y_1 + … + Y_r) + Z: E(LHS ∨ c) ≤ E(RHS ∨ c) for every c ≥ 0, with equal means (E X_1 · Σ E Y_i + E Z on both sides)".into(),
        measured: format!(
            "{} cases: the largest E(LHS ∨ c) − E(RHS ∨ c) over all c, relative to the mean, is {worst:.2e}",
            cases.len()
        ),
        table,
        plot: None,
        verdict: Verdict::of(ok),
        remark: "Exact: the laws of the products X_iY_i and X_1·ΣY_i by direct sums over the Poisson tables (tails below 1e−40 of the largest probability left out), sums by convolution; ΣY_i of independent Poisson is Poisson(Σ λ_i). The Y_i need not be identically distributed (the corollary asks only that they be independent of the X_i); they are taken with different parameters.".into(),
        premises_measured: vec![
            Premise::new(
                "X_1 … X_r i.i.d., independent of Y_1 … Y_r and Z (by construction of the laws); both sides have the same mean",
                format!("largest relative gap between the two means: {mean_gap:.1e}"),
                mean_gap <= 1e-9,
            ),
            Premise::new(
                "the computed laws are laws (the Poisson tables' left-out tails lose at most 1e−12 of the mass)",
                format!("largest mass lost: {lost:.1e}"),
                lost <= 1e-12,
            ),
        ],
        control: Some(Control {
            system: format!("X_1 ≡ a (a point mass at the same mean) beside X_2 … X_r ~ Poisson(a): independent but not identically distributed, so the corollary's premise fails; same Y, Z, laws and test, in the {c_cases} cases with an integer a"),
            measured: format!("largest E(LHS ∨ c) − E(RHS ∨ c) over all c, relative to the mean: {c_worst:.2e}"),
            verdict: Verdict::of(c_ok),
        }),
        seeds: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The product and sum laws of independent variables: means multiply and add, and a
    /// point mass shifts or scales the other law.
    #[test]
    fn products_and_sums_of_independent_laws() {
        let (x, y) = (poisson(2.0), poisson(3.0));
        let xy = product(&x, &y);
        assert!((xy.mean() - 6.0).abs() < 1e-9, "{}", xy.mean());
        assert!((sum(&x, &y).mean() - 5.0).abs() < 1e-9);
        let scaled = product(&point(2), &y);
        assert!(scaled.values.iter().all(|v| v % 2 == 0));
        let shifted = sum(&point(3), &x);
        assert_eq!(shifted.values[0], 3);
        assert!((shifted.probs[0] - (-2.0f64).exp()).abs() < 1e-12);
    }

    /// With r = 1 both sides are the same law: the order holds with equality.
    #[test]
    fn one_term_is_no_comparison() {
        let (left, right) = sides(&[poisson(1.5)], &[2.0], 1.0);
        let (ok, rel, _) = ordered(&left, &right);
        assert!(ok && rel.abs() < 1e-12, "{rel}");
    }
}
