//! The report's estimators: means with their intervals, quantiles, the bootstrap over seeds,
//! the exact binomial upper bound for tails, and the log-log slope of a sweep. Every verdict
//! that judges a growth or a tail goes through one of these, so that a criterion reads the
//! same statistic wherever it appears.

/// Mean and 95 % half-width (normal approximation, t ≈ 2 for few samples) of `xs`.
pub fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let m = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (m, f64::INFINITY);
    }
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    // Student's t at 97.5 % for small samples, 1.96 beyond 30.
    let t = match xs.len() {
        2 => 12.71,
        3 => 4.30,
        4 => 3.18,
        5 => 2.78,
        6..=10 => 2.45,
        11..=30 => 2.1,
        _ => 1.96,
    };
    (m, t * (var / n).sqrt())
}

/// The least-squares slope of log y against log x (the sweeps' exponent fit).
pub use crate::experiments::networks::fit_exponent as loglog_slope;

/// The q-quantile (0 ≤ q ≤ 1) of `xs` (nearest rank).
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let i = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
    v[i]
}

/// The 95 % percentile bootstrap interval of `stat` over `n` seeds: `stat` receives a
/// resample of the seed indices 0..n (drawn with replacement, `resamples` times, from a
/// fixed generator, so the interval is the same on every rerun).
pub fn bootstrap_ci(n: usize, resamples: usize, stat: impl Fn(&[usize]) -> f64) -> (f64, f64) {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(0x5eed);
    let mut v: Vec<f64> = (0..resamples)
        .map(|_| {
            let pick: Vec<usize> = (0..n).map(|_| rng.random_range(0..n)).collect();
            stat(&pick)
        })
        .filter(|x| x.is_finite())
        .collect();
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    v.sort_by(f64::total_cmp);
    (quantile(&v, 0.025), quantile(&v, 0.975))
}

/// The exact (Clopper–Pearson) one-sided upper 95 % confidence bound on a probability
/// after `hits` events in `n` trials: the u with P(Bin(n, u) ≤ hits) = 0.05.
pub fn binomial_upper(hits: u64, n: u64) -> f64 {
    if n == 0 || hits >= n {
        return 1.0;
    }
    let cdf = |u: f64| -> f64 {
        // P(Bin(n, u) ≤ hits), terms in log space.
        let (ln_u, ln_v) = (u.ln(), (1.0 - u).ln());
        let mut ln_c = 0.0f64; // ln C(n, 0)
        let mut s = 0.0;
        for k in 0..=hits {
            if k > 0 {
                ln_c += ((n - k + 1) as f64).ln() - (k as f64).ln();
            }
            s += (ln_c + k as f64 * ln_u + (n - k) as f64 * ln_v).exp();
        }
        s
    };
    let (mut lo, mut hi) = (hits as f64 / n as f64, 1.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if cdf(mid) > 0.05 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact upper bound: 0 of n gives 1 − 0.05^(1/n); more hits give a larger bound.
    #[test]
    fn the_binomial_upper_bound_is_clopper_pearson() {
        let u = binomial_upper(0, 100);
        assert!((u - (1.0 - 0.05f64.powf(0.01))).abs() < 1e-9, "{u}");
        assert!(binomial_upper(3, 100) > u);
        assert_eq!(binomial_upper(5, 5), 1.0);
    }
}
