//! Monte Carlo measurement of η = E\[total\] / (P·E\[max\]) for paper 003's model: each trial
//! draws the m = P·q Poisson(α) sizes (rand_distr's `Poisson`), assigns them (exactly q per PE,
//! or to independent random PEs) and records the total and the maximum load. η is estimated
//! by the ratio of the sample means, with a 95 % confidence interval from the delta method.
//! Trials run in parallel (rayon), trial t seeded by a hash of (seed, t), so results do not
//! depend on the number of threads.

use super::model::{Assignment, Cost, Point};
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Poisson};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;

/// One trial: the sum of all loads and the largest.
#[derive(Debug, Clone, Copy)]
pub struct Trial {
    /// Σᵢ Lᵢ.
    pub total: f64,
    /// maxᵢ Lᵢ.
    pub max: f64,
}

/// The estimate of η over many trials.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Estimate {
    /// Σ totals / (P·Σ maxima).
    pub eta: f64,
    /// Half-width of the 95 % confidence interval.
    pub ci: f64,
    /// Trials.
    pub trials: u64,
}

/// The splitmix64 finalizer (seeds of independent streams).
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// One trial of `pt` from `seed`.
pub fn trial(pt: &Point, seed: u64) -> Trial {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let poisson = Poisson::new(pt.alpha).expect("alpha > 0 and finite");
    let cost = pt.cost;
    let draw = |rng: &mut Xoshiro256PlusPlus| {
        let x: f64 = poisson.sample(rng);
        cost.eval(x as u64) as f64
    };
    let p = pt.pes as usize;
    let (mut total, mut max) = (0.0f64, 0.0f64);
    match pt.assignment {
        Assignment::Multiple => {
            let linear = matches!(cost, Cost::Power(1) | Cost::Falling(1));
            let summed = Poisson::new(pt.alpha * pt.q as f64).expect("finite");
            for _ in 0..p {
                // Σ of q Poisson(α) is Poisson(qα): one draw when c is linear.
                let l = if linear {
                    let x: f64 = summed.sample(&mut rng);
                    x
                } else {
                    (0..pt.q).map(|_| draw(&mut rng)).sum()
                };
                total += l;
                max = max.max(l);
            }
        }
        Assignment::RandomPlacement => {
            let mut loads = vec![0f64; p];
            for _ in 0..pt.q * pt.pes {
                let c = draw(&mut rng);
                loads[rng.random_range(0..p)] += c;
            }
            for l in loads {
                total += l;
                max = max.max(l);
            }
        }
    }
    Trial { total, max }
}

/// `trials` trials of `pt` from `seed`, in parallel.
pub fn trials(pt: &Point, trials: u64, seed: u64) -> Vec<Trial> {
    (0..trials)
        .into_par_iter()
        .map(|t| trial(pt, mix(seed ^ mix(t))))
        .collect()
}

/// η from trials: the ratio of means, CI by the delta method:
/// Var(R) ≈ (Var(a) − 2R·Cov(a, m) + R²·Var(m)) / (n·m̄²), a = total/P, m = max.
pub fn estimate(pes: u64, trials: &[Trial]) -> Estimate {
    let n = trials.len() as f64;
    let a: Vec<f64> = trials.iter().map(|t| t.total / pes as f64).collect();
    let m: Vec<f64> = trials.iter().map(|t| t.max).collect();
    let (ma, mm) = (a.iter().sum::<f64>() / n, m.iter().sum::<f64>() / n);
    let r = if mm > 0.0 { ma / mm } else { 1.0 };
    if trials.len() < 2 || mm == 0.0 {
        return Estimate {
            eta: r,
            ci: f64::INFINITY,
            trials: trials.len() as u64,
        };
    }
    let (mut va, mut vm, mut cov) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(&m) {
        va += (x - ma).powi(2);
        vm += (y - mm).powi(2);
        cov += (x - ma) * (y - mm);
    }
    let k = n - 1.0;
    let (va, vm, cov) = (va / k, vm / k, cov / k);
    let var = ((va - 2.0 * r * cov + r * r * vm) / (n * mm * mm)).max(0.0);
    Estimate {
        eta: r,
        ci: 1.96 * var.sqrt(),
        trials: trials.len() as u64,
    }
}
