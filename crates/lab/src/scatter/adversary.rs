//! Job sizes chosen by an adversary against randomized static placement (paper 004 §2,
//! Lemma 1 and Theorem 2; chapter 14, Theorem 14.1 and §14.4).
//!
//! m jobs with sizes t₁..t_m go to P PEs by one of three placements: independent random PEs
//! (random mapping), blocks of a random permutation (PE i takes the jobs π(j) for j in its
//! block of ⌈m/P⌉: at most ⌈m/P⌉ jobs each, §14.4.1), or round-robin (job j to PE j mod P, a
//! fixed mapping). The sizes are Lemma 1's optimal adversary (k = T/t̂ jobs of size t̂ = 1, the
//! rest 0, ordered so that round-robin puts the heavy jobs on PE 0 first: the sequence a fixed
//! mapping loses to), i.i.d. uniform on (0, 1], or heavy-tailed (Pareto with shape 1.5).
//!
//! Measured: P[L_max > (1+ε)·T/P] over many placements (a Wilson 95 % interval) and
//! E\[L_max\]/(T/P), beside Theorem 2's bound as the paper's proof states it,
//! P·exp(−ε²·μ/2) with μ = T/(P·t̂), the Chernoff bound P·exp(−μ((1+ε)ln(1+ε) − ε)) (the
//! paper's exp(−ε²μ/2) is not a valid upper-tail bound: (1+ε)ln(1+ε) − ε < ε²/2), and the
//! exact binomial union bound P·P[Bin(k, 1/P) > (1+ε)k/P] for the adversary's k heavy jobs.
//! Theorem 14.1's condition T/t̂ ≥ (c/ε²)·P·log P is reported as the c the instance gives.

use super::montecarlo::mix;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Pareto};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;

/// The job-size generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sizes {
    /// Lemma 1: k jobs of size 1, the rest 0 (strided against round-robin).
    Adversarial,
    /// I.i.d. uniform on (0, 1].
    Uniform,
    /// I.i.d. Pareto(scale 1, shape 1.5): infinite variance.
    Heavy,
}

impl Sizes {
    /// The name as `--sizes` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Sizes::Adversarial => "adversarial",
            Sizes::Uniform => "uniform",
            Sizes::Heavy => "heavy",
        }
    }
}

/// How jobs go to PEs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// Each job to an independent uniformly random PE.
    Random,
    /// Blocks of a uniformly random permutation.
    Permutation,
    /// Job j to PE j mod P.
    RoundRobin,
}

impl Placement {
    /// All three, in report order.
    pub const ALL: [Placement; 3] = [
        Placement::Random,
        Placement::Permutation,
        Placement::RoundRobin,
    ];
    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Placement::Random => "random",
            Placement::Permutation => "permutation",
            Placement::RoundRobin => "round-robin",
        }
    }
}

/// An instance: m job sizes (zero-size jobs of the adversary are kept implicit).
#[derive(Debug, Clone)]
pub struct Instance {
    /// Number of jobs m.
    pub jobs: u64,
    /// (job index, size) of every job with a nonzero size.
    pub sized: Vec<(u64, f64)>,
    /// T = Σ tⱼ.
    pub total: f64,
    /// t̂ = max tⱼ.
    pub t_max: f64,
}

impl Instance {
    /// Lemma 1's adversary: k jobs of size 1 among m ≥ k, at the positions round-robin maps
    /// to PE 0 first (0, P, 2P, …), then PE 1 (1, P+1, …), and so on.
    pub fn adversarial(k: u64, jobs: u64, pes: u64) -> Self {
        let per_pe = jobs.div_ceil(pes);
        let mut sized = Vec::with_capacity(k as usize);
        'outer: for pe in 0..pes {
            for slot in 0..per_pe {
                if sized.len() as u64 == k {
                    break 'outer;
                }
                let j = slot * pes + pe;
                if j < jobs {
                    sized.push((j, 1.0));
                }
            }
        }
        Instance {
            jobs,
            total: sized.len() as f64,
            sized,
            t_max: 1.0,
        }
    }

    /// m i.i.d. sizes from `sizes` (uniform or heavy) drawn from `seed`.
    pub fn random(sizes: Sizes, jobs: u64, seed: u64) -> Self {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let pareto = Pareto::new(1.0, 1.5).expect("valid Pareto");
        let sized: Vec<(u64, f64)> = (0..jobs)
            .map(|j| {
                let t = match sizes {
                    Sizes::Heavy => pareto.sample(&mut rng),
                    _ => 1.0 - rng.random::<f64>(),
                };
                (j, t)
            })
            .collect();
        let total = sized.iter().map(|s| s.1).sum();
        let t_max = sized.iter().map(|s| s.1).fold(0.0, f64::max);
        Instance {
            jobs,
            sized,
            total,
            t_max,
        }
    }

    /// L_max of one placement drawn from `seed`.
    pub fn max_load(&self, pes: u64, placement: Placement, seed: u64) -> f64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let p = pes as usize;
        let mut loads = vec![0f64; p];
        match placement {
            Placement::Random => {
                for &(_, t) in &self.sized {
                    loads[rng.random_range(0..p)] += t;
                }
            }
            Placement::RoundRobin => {
                for &(j, t) in &self.sized {
                    loads[(j % pes) as usize] += t;
                }
            }
            Placement::Permutation => {
                // The sized jobs land on distinct uniformly random positions of the
                // permutation; PE i holds positions i·⌈m/P⌉..(i+1)·⌈m/P⌉.
                let block = self.jobs.div_ceil(pes);
                let positions =
                    rand::seq::index::sample(&mut rng, self.jobs as usize, self.sized.len());
                for (pos, &(_, t)) in positions.iter().zip(&self.sized) {
                    loads[(pos as u64 / block) as usize] += t;
                }
            }
        }
        loads.into_iter().fold(0.0, f64::max)
    }
}

/// What one placement did over the trials.
#[derive(Debug, Clone, Serialize)]
pub struct PlacementTail {
    /// The placement.
    pub placement: Placement,
    /// Placements drawn (1 for round-robin, which is fixed).
    pub trials: u64,
    /// Fraction with L_max > (1+ε)·T/P.
    pub tail: f64,
    /// Wilson 95 % interval of that probability.
    pub tail_ci: (f64, f64),
    /// Mean of L_max / (T/P).
    pub mean_max_over_avg: f64,
}

/// Wilson's 95 % interval for `hits` of `n`.
pub fn wilson(hits: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n, ph) = (1.96f64, n as f64, hits as f64 / n as f64);
    let denom = 1.0 + z * z / n;
    let centre = (ph + z * z / (2.0 * n)) / denom;
    let half = z * ((ph * (1.0 - ph) + z * z / (4.0 * n)) / n).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Measure one placement of `inst` over `trials` placements.
pub fn measure(
    inst: &Instance,
    pes: u64,
    epsilon: f64,
    placement: Placement,
    trials: u64,
    seed: u64,
) -> PlacementTail {
    let trials = if placement == Placement::RoundRobin {
        1
    } else {
        trials
    };
    let avg = inst.total / pes as f64;
    let threshold = (1.0 + epsilon) * avg;
    let maxima: Vec<f64> = (0..trials)
        .into_par_iter()
        .map(|t| {
            inst.max_load(
                pes,
                placement,
                mix(seed ^ mix(t ^ (placement as u64) << 48)),
            )
        })
        .collect();
    let hits = maxima
        .iter()
        .filter(|&&m| m > threshold * (1.0 + 1e-12))
        .count() as u64;
    PlacementTail {
        placement,
        trials,
        tail: hits as f64 / trials as f64,
        tail_ci: wilson(hits, trials),
        mean_max_over_avg: maxima.iter().sum::<f64>() / trials as f64 / avg,
    }
}

/// The bounds for k = T/t̂ jobs of size t̂ on P PEs with imbalance ε.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Bounds {
    /// μ = T/(P·t̂): heavy jobs per PE on average.
    pub mu: f64,
    /// c with T/t̂ = c·P·ln P (paper 004's s_max = 1/(c·P·ln P)).
    pub c: f64,
    /// Theorem 14.1's constant: ε²·T/(t̂·P·ln P), its condition reading T/t̂ ≥ (c/ε²)·P·log P.
    pub c_14_1: f64,
    /// Theorem 2's bound as its proof states it: P·exp(−ε²μ/2) = P^{1−ε²c/2} (capped at 1).
    pub theorem2: f64,
    /// The Chernoff bound P·exp(−μ((1+ε)ln(1+ε) − ε)) (capped at 1).
    pub chernoff: f64,
    /// P·P[Bin(k, 1/P) > (1+ε)·k/P] (capped at 1).
    pub binomial_union: f64,
}

/// P[Bin(n, q) > t].
pub fn binomial_tail(n: u64, q: f64, t: f64) -> f64 {
    let start = (t.floor() as i64 + 1).max(0) as u64;
    if start > n {
        return 0.0;
    }
    let ln = |k: u64| {
        super::model::ln_factorial(n)
            - super::model::ln_factorial(k)
            - super::model::ln_factorial(n - k)
            + k as f64 * q.ln()
            + (n - k) as f64 * (-q).ln_1p()
    };
    let mut s = 0.0;
    for k in start..=n {
        let term = ln(k).exp();
        s += term;
        if k as f64 > n as f64 * q && term < s * 1e-17 {
            break;
        }
    }
    s.min(1.0)
}

/// The bounds for an instance with T/t̂ = `ratio` on `pes` PEs.
pub fn bounds(ratio: f64, pes: u64, epsilon: f64) -> Bounds {
    let p = pes as f64;
    let mu = ratio / p;
    let k = ratio.ceil() as u64;
    Bounds {
        mu,
        c: ratio / (p * p.ln()),
        c_14_1: epsilon * epsilon * ratio / (p * p.ln()),
        theorem2: (p * (-epsilon * epsilon * mu / 2.0).exp()).min(1.0),
        chernoff: (p * (-mu * ((1.0 + epsilon) * epsilon.ln_1p() - epsilon)).exp()).min(1.0),
        binomial_union: (p * binomial_tail(k, 1.0 / p, (1.0 + epsilon) * k as f64 / p)).min(1.0),
    }
}
