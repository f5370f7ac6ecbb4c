//! The statistics paper 002's verdicts are read through: a bootstrap over seeds of the
//! log-log slope of a per-seed quantity against P (a growth claim is judged by the interval,
//! never by one fitted slope against another), and the upper confidence bound on a tail
//! rate from the runs that exceeded a bound (a "with high probability" claim needs it below
//! the probability it states, or is judged in expectation only).

use super::super::loglog_slope;
use crate::scatter::adversary::wilson;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Bootstrap resamples behind every interval (fixed before the runs).
pub(super) const RESAMPLES: usize = 2000;

/// Per-seed values of one system at each P: (P, values over the seeds).
pub(super) type BySeed = Vec<(usize, Vec<f64>)>;

/// The log-log slope over P of the mean over seeds.
pub(super) fn mean_slope(xs: &BySeed) -> f64 {
    stat_slope(xs, |v| v.iter().sum::<f64>() / v.len().max(1) as f64)
}

/// The log-log slope over P of `stat` of the seeds at each P (the mean, an upper quantile).
pub(super) fn stat_slope(xs: &BySeed, stat: impl Fn(&[f64]) -> f64) -> f64 {
    loglog_slope(
        &xs.iter()
            .map(|(p, v)| (*p as f64, stat(v)))
            .collect::<Vec<_>>(),
    )
}

/// The 80 % quantile of the seeds at one P: the upper quantile a "with high probability"
/// growth is judged on where the seeds cannot resolve the n^−β tail itself.
pub(super) fn q80(v: &[f64]) -> f64 {
    super::super::quantile(v, 0.8)
}

/// One bootstrap resample: the seeds at each P drawn with replacement.
fn resample(xs: &BySeed, rng: &mut Xoshiro256PlusPlus) -> BySeed {
    xs.iter()
        .map(|(p, v)| {
            (
                *p,
                (0..v.len())
                    .map(|_| v[rng.random_range(0..v.len())])
                    .collect(),
            )
        })
        .collect()
}

/// A 95 % interval: (point estimate, 2.5 % quantile, 97.5 % quantile).
pub(super) type Interval = (f64, f64, f64);

fn percentile_interval(point: f64, mut draws: Vec<f64>) -> Interval {
    draws.sort_by(f64::total_cmp);
    let at = |q: f64| draws[((q * draws.len() as f64) as usize).min(draws.len() - 1)];
    (point, at(0.025), at(0.975))
}

/// The 95 % percentile-bootstrap interval of the slope of the mean of `xs` (seeds resampled
/// at every P independently; the resampling seed is fixed, so the interval is reproducible).
pub(super) fn slope_ci(xs: &BySeed, seed: u64) -> Interval {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let draws = (0..RESAMPLES)
        .map(|_| mean_slope(&resample(xs, &mut rng)))
        .collect();
    percentile_interval(mean_slope(xs), draws)
}

/// The 95 % percentile-bootstrap interval of slope(a) − slope(b), the two systems' seeds
/// resampled independently.
pub(super) fn slope_diff_ci(a: &BySeed, b: &BySeed, seed: u64) -> Interval {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let draws = (0..RESAMPLES)
        .map(|_| mean_slope(&resample(a, &mut rng)) - mean_slope(&resample(b, &mut rng)))
        .collect();
    percentile_interval(mean_slope(a) - mean_slope(b), draws)
}

/// The 95 % percentile-bootstrap interval of mean(a) − mean(b), the two samples resampled
/// independently.
pub(super) fn mean_diff_ci(a: &[f64], b: &[f64], seed: u64) -> Interval {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let draw = |v: &[f64], rng: &mut Xoshiro256PlusPlus| -> f64 {
        (0..v.len())
            .map(|_| v[rng.random_range(0..v.len())])
            .sum::<f64>()
            / v.len().max(1) as f64
    };
    let draws = (0..RESAMPLES)
        .map(|_| draw(a, &mut rng) - draw(b, &mut rng))
        .collect();
    percentile_interval(mean(a) - mean(b), draws)
}

/// The 95 % percentile-bootstrap interval of slope(a) − slope(b) of `stat` over the seeds at
/// each P (as [`slope_diff_ci`], which is this with the mean).
pub(super) fn stat_slope_diff_ci(
    a: &BySeed,
    b: &BySeed,
    seed: u64,
    stat: impl Fn(&[f64]) -> f64 + Copy,
) -> Interval {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let draws = (0..RESAMPLES)
        .map(|_| {
            stat_slope(&resample(a, &mut rng), stat) - stat_slope(&resample(b, &mut rng), stat)
        })
        .collect();
    percentile_interval(stat_slope(a, stat) - stat_slope(b, stat), draws)
}

/// "[lo, hi]" with the point estimate.
pub(super) fn show(ci: Interval) -> String {
    format!("{:.3} (95 % CI [{:.3}, {:.3}])", ci.0, ci.1, ci.2)
}

/// The 95 % upper confidence bound (Wilson) on a rate from `hits` of `n` trials.
pub(super) fn rate_ucb(hits: u64, n: u64) -> f64 {
    wilson(hits, n).1
}

/// What `n` trials (`what`: "runs", "windows") with `hits` exceedances say about a tail the
/// claim bounds by `target`: resolved when the upper confidence bound lies below it, else
/// "in expectation only".
pub(super) fn tail_words(hits: u64, n: u64, what: &str, target: f64) -> (bool, String) {
    let ucb = rate_ucb(hits, n);
    let resolved = ucb <= target;
    (
        resolved,
        format!(
            "{hits} of {n} {what} exceeded; 95 % upper bound on the exceedance rate {ucb:.4} {} the claim's {target:.4}{}",
            if resolved { "≤" } else { ">" },
            if resolved {
                ""
            } else {
                ": the seeds cannot resolve the tail the claim states, so the verdict holds in expectation only (for the typical run), not with the stated probability"
            }
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two samples of one law give a slope difference whose interval covers 0; a real
    /// difference in growth gives one that excludes it.
    #[test]
    fn the_slope_difference_interval_tells_noise_from_growth() {
        let noisy = |k: u64, slope: f64| -> BySeed {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(k);
            [16usize, 64, 256, 1024]
                .iter()
                .map(|&p| {
                    (
                        p,
                        (0..10)
                            .map(|_| (p as f64).powf(slope) * rng.random_range(0.7..1.3))
                            .collect(),
                    )
                })
                .collect()
        };
        let null = slope_diff_ci(&noisy(1, 0.5), &noisy(2, 0.5), 3);
        assert!(null.1 < 0.0 && null.2 > 0.0, "{null:?}");
        let real = slope_diff_ci(&noisy(1, 0.8), &noisy(2, 0.5), 3);
        assert!(real.1 > 0.0, "{real:?}");
        let one = slope_ci(&noisy(4, 0.5), 5);
        assert!(one.1 < 0.5 && one.2 > 0.5, "{one:?}");
    }

    /// Two samples of one law give a mean difference whose interval covers 0; shifted
    /// samples give one that excludes it.
    #[test]
    fn the_mean_difference_interval_tells_noise_from_a_shift() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut sample = |shift: f64| -> Vec<f64> {
            (0..16)
                .map(|_| shift + rng.random_range(0.8..1.2))
                .collect()
        };
        let (a, b, c) = (sample(0.0), sample(0.0), sample(-0.3));
        let null = mean_diff_ci(&a, &b, 1);
        assert!(null.1 < 0.0 && null.2 > 0.0, "{null:?}");
        let shifted = mean_diff_ci(&c, &a, 1);
        assert!(shifted.2 < 0.0, "{shifted:?}");
    }

    /// No exceedance in 3000 runs resolves a 1/256 tail; none in 30 does not.
    #[test]
    fn a_tail_needs_enough_runs() {
        assert!(tail_words(0, 3000, "runs", 1.0 / 256.0).0);
        assert!(!tail_words(0, 30, "runs", 1.0 / 256.0).0);
    }
}
