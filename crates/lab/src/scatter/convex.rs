//! Paper 003's convex ordering (Definition 4.1): X ≺ Y iff E(X ∨ c) ≤ E(Y ∨ c) for every
//! c ≥ 0, computed exactly for two laws on the nonnegative integers.
//!
//! E(X ∨ c) = c + ψ_X(c) with the stop-loss transform ψ_X(c) = E[(X − c)⁺] (the paper's
//! Proposition 4.1 (ii)). ψ_X is piecewise linear with its knots at X's support, so the
//! difference E(X ∨ c) − E(Y ∨ c) is piecewise linear with its knots at the union of both
//! supports and tends to 0 as c grows: its largest value over all c ≥ 0 is its largest value
//! at c = 0 and at those knots. [`compare`] evaluates it there.

use super::model::Dist;
use serde::Serialize;

/// How two laws compare.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Comparison {
    /// max over c ≥ 0 of E(X ∨ c) − E(Y ∨ c) (≤ 0 up to rounding iff X ≺ Y).
    pub worst: f64,
    /// The c where it is reached.
    pub worst_at: u64,
    /// E(X), E(Y).
    pub means: (f64, f64),
    /// Thresholds c at which the two were compared.
    pub thresholds: usize,
    /// Whether X is stochastically smaller (P[X ≤ t] ≥ P[Y ≤ t] for all t): a stronger
    /// order than ≺; when it fails, only the convex order can compare the two.
    pub stochastic: bool,
}

/// ψ(t) = E[(X − t)⁺] and P[X ≤ t] at each of the sorted `knots`.
fn stop_loss(d: &Dist, knots: &[u64]) -> (Vec<f64>, Vec<f64>) {
    let total: f64 = d.probs.iter().sum();
    let n = knots.len();
    // P[X ≤ t] at each knot, sweeping both sorted lists upwards.
    let mut cdf = vec![0f64; n];
    let (mut k, mut below) = (0, 0.0);
    for (j, &t) in knots.iter().enumerate() {
        while k < d.values.len() && d.values[k] <= t {
            below += d.probs[k] / total;
            k += 1;
        }
        cdf[j] = below;
    }
    // ψ at the top knot directly; below it, ψ grows by (gap)·P[X > lower knot] from one knot
    // to the next (no value lies strictly between two knots: every value is a knot).
    let mut psi = vec![0f64; n];
    if n == 0 {
        return (psi, cdf);
    }
    let top = knots[n - 1];
    psi[n - 1] = d
        .values
        .iter()
        .zip(&d.probs)
        .filter(|(&v, _)| v > top)
        .map(|(&v, &p)| (v - top) as f64 * p / total)
        .sum();
    for j in (0..n - 1).rev() {
        psi[j] = psi[j + 1] + (knots[j + 1] - knots[j]) as f64 * (1.0 - cdf[j]);
    }
    (psi, cdf)
}

/// Compare X (law `x`) with Y (law `y`) in the convex order of Definition 4.1.
pub fn compare(x: &Dist, y: &Dist) -> Comparison {
    let mut knots: Vec<u64> = x.values.iter().chain(&y.values).copied().collect();
    knots.push(0);
    knots.sort_unstable();
    knots.dedup();
    let (px, fx) = stop_loss(x, &knots);
    let (py, fy) = stop_loss(y, &knots);
    let (mut worst, mut worst_at) = (f64::NEG_INFINITY, 0);
    let mut stochastic = true;
    for (j, &c) in knots.iter().enumerate() {
        // E(X ∨ c) − E(Y ∨ c) = ψ_X(c) − ψ_Y(c).
        let diff = px[j] - py[j];
        if diff > worst {
            worst = diff;
            worst_at = c;
        }
        stochastic &= fx[j] >= fy[j] - 1e-12;
    }
    Comparison {
        worst,
        worst_at,
        means: (x.mean(), y.mean()),
        thresholds: knots.len(),
        stochastic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(values: &[u64], probs: &[f64]) -> Dist {
        Dist {
            values: values.to_vec(),
            probs: probs.to_vec(),
        }
    }

    /// A point mass at the mean is below any law with that mean; the reverse fails.
    #[test]
    fn a_constant_is_below_a_spread() {
        let point = dist(&[2], &[1.0]);
        let spread = dist(&[0, 4], &[0.5, 0.5]);
        let a = compare(&point, &spread);
        assert!(a.worst <= 1e-12, "{a:?}");
        let b = compare(&spread, &point);
        assert!((b.worst - 1.0).abs() < 1e-12, "{b:?}");
        assert_eq!(b.worst_at, 2);
        // Neither is stochastically smaller.
        assert!(!a.stochastic && !b.stochastic);
    }

    /// ψ by the sweep equals ψ summed directly.
    #[test]
    fn stop_loss_is_exact() {
        let d = dist(&[0, 1, 3, 7], &[0.1, 0.2, 0.3, 0.4]);
        let knots = [0, 1, 2, 3, 5, 7, 9];
        let (psi, cdf) = stop_loss(&d, &knots);
        for (j, &t) in knots.iter().enumerate() {
            let direct: f64 = d
                .values
                .iter()
                .zip(&d.probs)
                .map(|(&v, &p)| v.saturating_sub(t) as f64 * p)
                .sum();
            assert!(
                (psi[j] - direct).abs() < 1e-12,
                "t {t}: {} vs {direct}",
                psi[j]
            );
            let f: f64 = d
                .values
                .iter()
                .zip(&d.probs)
                .filter(|(&v, _)| v <= t)
                .map(|(_, &p)| p)
                .sum();
            assert!((cdf[j] - f).abs() < 1e-12);
        }
    }
}
