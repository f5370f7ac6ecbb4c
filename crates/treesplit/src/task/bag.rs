//! A bag of m independent jobs cut from any root task by recursive splitting (paper 004 §3
//! and Fig. 1): the input of the static balancers.
//!
//! Job j of m is found by splitting a copy of the root and keeping, at every level, the part
//! whose index interval holds j: the interval `lo..hi` is cut at `mid = lo + ⌈(hi−lo)/2⌉`,
//! the kept part of the split takes `lo..mid` and the split-off part `mid..hi`. For m = 2^h
//! this is the complete splitting tree of depth h, job j named by its h-bit path from the
//! root (most significant bit first), so consecutive jobs are neighbouring subtrees. When a
//! split finds the task atomic, the split-off side is empty and so are its jobs. Because
//! `split` is deterministic, every PE that derives job j from its copy of the root gets the
//! same piece, and the m jobs partition the root exactly.
//!
//! The module also holds the depth rules of paper 004: Theorem 3's sufficient depth
//! h = x(α)(log P + log log P), Theorem 4's lower bound x(α)·log P with x(α) = 1/log(1/(1−α)),
//! and a measurement of α from the task's own size estimates.

use super::Task;
use crate::config::{Config, ConfigError, Jobs, MAX_H};

/// What [`resolve_depth`] settled: the configuration to run, the α it measured (if it
/// measured one) and, when it chose the number of jobs itself, a sentence saying what it chose
/// and why (reports carry it in `Report::notes`).
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The validated configuration, its number of jobs known.
    pub config: Config,
    /// α measured from the root's size estimates.
    pub alpha: Option<f64>,
    /// What was chosen for the user, in one sentence (`None` when the user gave the number).
    pub note: Option<String>,
}

/// Jobs per PE a static balancer gets when neither the user nor the task's size estimates say
/// how many (`Jobs::FromEstimates` on a task without estimates); also the fewest per PE that
/// Theorem 3's depth is raised to (see [`resolve_depth`]).
pub const DEFAULT_JOBS_PER_PE: u64 = 16;

/// Complete `config` for `root`: a static balancer asked to derive its number of jobs
/// ([`Jobs::FromEstimates`], the default) gets
///
/// - for a task with size estimates, Theorem 3's depth h for the α measured from them, raised
///   to at least log₂ P + 4 (16 jobs per PE: Theorem 3 is asymptotic and its additive
///   O(β/ε²) term, left out of [`theorem3_h`], dominates at small P) and capped where cutting
///   the jobs would cost more than 1/16 of the estimated work (at most 2^24 jobs);
/// - for a task without estimates, [`DEFAULT_JOBS_PER_PE`] jobs per PE.
///
/// Every choice is said in [`Resolved::note`], caps and floors included. Every machine calls
/// this before a run.
pub fn resolve_depth<T: Task>(config: &Config, root: &T) -> Result<Resolved, ConfigError> {
    config.validate_task::<T>()?;
    let mut config = config.clone();
    let mut resolved = Resolved {
        config: config.clone(),
        alpha: None,
        note: None,
    };
    if config.dag.is_some() {
        // A DAG scheduler cuts no jobs: the balancer and its number of jobs are unused.
        config.validate_options()?;
        return Ok(resolved);
    }
    if config.balancer.jobs() == Some(Jobs::FromEstimates) {
        config.validate_options()?;
        let kind = config.balancer.kind();
        match measure_alpha(root, 8, 64) {
            None => {
                config.balancer = config.balancer.with_jobs(Jobs::PerPe(DEFAULT_JOBS_PER_PE));
                let m = config
                    .jobs()
                    .ok_or(ConfigError::TooManyJobs { max_h: MAX_H })?;
                resolved.note = Some(format!(
                    "{kind}: {DEFAULT_JOBS_PER_PE} jobs per PE (m = {m}), the default for a task without size estimates; give --h or --q to choose"
                ));
            }
            Some(alpha) => {
                let p = config.pes;
                let theorem = theorem3_h(alpha.max(1e-3), p);
                let floor = (p.max(1) as u64 * DEFAULT_JOBS_PER_PE)
                    .next_power_of_two()
                    .trailing_zeros();
                // Cutting m jobs costs about 2m splits: keep m under 1/16 of the estimated
                // work (and 2^24 jobs), whatever the theorem asks for.
                let work = root.estimate().unwrap_or(1).max(1);
                let cap = (work / 16).max(1).ilog2().clamp(1, DEFAULT_MAX_H);
                let h = theorem.max(floor).min(cap);
                let mut why = format!(
                    "{kind}: h = {h} (2^{h} jobs) for α = {alpha:.3} measured from the task's size estimates: Theorem 3 of paper 004 gives h = {theorem}"
                );
                if floor > theorem && h == floor {
                    why += &format!(
                        ", raised to log₂ P + 4 = {floor} ({DEFAULT_JOBS_PER_PE} jobs per PE) because the theorem is asymptotic"
                    );
                }
                if h < theorem.max(floor) {
                    why += &format!(
                        ", capped at {cap} so that cutting the jobs costs under 1/16 of the estimated {work} units{}",
                        if (1u64 << h) < p as u64 {
                            format!(" — fewer jobs than PEs: {} PEs get none", p as u64 - (1u64 << h))
                        } else {
                            String::new()
                        }
                    );
                }
                config.balancer = config.balancer.with_jobs(Jobs::Depth(h));
                resolved.alpha = Some(alpha);
                resolved.note = Some(why);
            }
        }
    }
    config.validate()?;
    resolved.config = config;
    Ok(resolved)
}

/// Job `j` of `m` cut from `root`, with the number of splits on its path (its generation),
/// or `None` when the job is empty.
pub fn job<T: Task>(root: &T, m: u64, j: u64) -> Option<(T, u32)> {
    assert!(j < m, "job {j} of a bag of {m}");
    let mut task = root.clone();
    let (mut lo, mut hi, mut generation) = (0, m, 0);
    while hi - lo > 1 {
        let mid = lo + (hi - lo).div_ceil(2);
        match task.split() {
            Some(other) => {
                generation += 1;
                if j >= mid {
                    task = other;
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            None if j >= mid => return None,
            None => hi = mid,
        }
    }
    (!task.is_empty()).then_some((task, generation))
}

/// The largest depth `resolve_depth` chooses by itself (2^24 jobs).
pub const DEFAULT_MAX_H: u32 = 24;

/// Which jobs of the bag a [`Cutter`] cuts.
#[derive(Debug, Clone)]
pub enum Wanted {
    /// The consecutive jobs of a range.
    Range(std::ops::Range<u64>),
    /// Every `stride`-th job from `first` on (round-robin).
    Stride {
        /// The first job.
        first: u64,
        /// The distance between jobs.
        stride: u64,
    },
    /// The jobs of a sorted list (a permutation's share, sorted a chunk at a time).
    Sorted(Vec<u64>),
}

impl Wanted {
    /// True if some wanted job lies in `lo..hi`.
    fn meets(&self, lo: u64, hi: u64) -> bool {
        match self {
            Wanted::Range(r) => lo < r.end && r.start < hi,
            Wanted::Stride { first, stride } => {
                let next = if lo <= *first {
                    *first
                } else {
                    lo + (*stride - (lo - first) % stride) % stride
                };
                next < hi
            }
            Wanted::Sorted(v) => {
                let i = v.partition_point(|&j| j < lo);
                i < v.len() && v[i] < hi
            }
        }
    }
}

/// The wanted jobs (of a bag of `m`) in increasing order, cut by a depth-first walk over the
/// splitting tree that skips subtrees holding no wanted job and subtrees that are empty
/// (atomic tasks): for a range about ⌈log₂ m⌉ + 2·|range| splits in all instead of
/// ⌈log₂ m⌉ per job. Yields the same pieces as [`job`].
pub struct Cutter<T> {
    /// (task, its interval lo..hi, its generation), the next one on top.
    stack: Vec<(T, u64, u64, u32)>,
    wanted: Wanted,
    /// Splits done so far.
    pub splits: u64,
}

impl<T: Task> Cutter<T> {
    /// The jobs `range` of a bag of `m` cut from `root`.
    pub fn new(root: &T, m: u64, range: std::ops::Range<u64>) -> Self {
        Self::wanted(root, m, Wanted::Range(range))
    }

    /// The `wanted` jobs of a bag of `m` cut from `root`.
    pub fn wanted(root: &T, m: u64, wanted: Wanted) -> Self {
        Cutter {
            stack: vec![(root.clone(), 0, m, 0)],
            wanted,
            splits: 0,
        }
    }
}

impl<T: Task> Iterator for Cutter<T> {
    /// (j, job j, its generation); empty jobs are skipped.
    type Item = (u64, T, u32);

    fn next(&mut self) -> Option<Self::Item> {
        while let Some((mut task, lo, hi, generation)) = self.stack.pop() {
            if task.is_empty() || !self.wanted.meets(lo, hi) {
                continue;
            }
            if hi - lo == 1 {
                return Some((lo, task, generation));
            }
            let mid = lo + (hi - lo).div_ceil(2);
            if let Some(other) = task.split() {
                self.splits += 1;
                self.stack.push((other, mid, hi, generation + 1));
                self.stack.push((task, lo, mid, generation + 1));
            } else {
                self.stack.push((task, lo, mid, generation));
            }
        }
        None
    }
}

/// x(α) = 1 / log₂(1/(1−α)) of paper 004 Theorem 3.
pub fn x_alpha(alpha: f64) -> f64 {
    1.0 / (1.0 / (1.0 - alpha)).log2()
}

/// The depth h = ⌈x(α)(log₂ P + log₂ log₂ P)⌉ that Theorem 3 of paper 004 shows sufficient for
/// good balance w.h.p. (without its additive Ω(β/ε²) term); at least ⌈log₂ P⌉.
pub fn theorem3_h(alpha: f64, pes: usize) -> u32 {
    let log_p = (pes.max(2) as f64).log2();
    (theorem3_depth(alpha, pes).ceil() as u32).max(log_p.ceil() as u32)
}

/// Theorem 3's leading term x(α)(log₂ P + log₂ log₂ P), unrounded.
pub fn theorem3_depth(alpha: f64, pes: usize) -> f64 {
    let log_p = (pes.max(2) as f64).log2();
    x_alpha(alpha) * (log_p + log_p.log2().max(0.0))
}

/// The lower bound x(α)·log₂ P of Theorem 4: no smaller depth balances α-splitting trees.
pub fn theorem4_h(alpha: f64, pes: usize) -> f64 {
    x_alpha(alpha) * (pes.max(2) as f64).log2()
}

/// The splitting quality α measured from the root's own size estimates: the smallest
/// min(s_a, s_b)/s over the splits of the complete splitting tree of depth `depth` (pieces
/// smaller than `min_size` estimated units are left out: their ratios say little about the
/// upper tree). `None` when the task gives no estimates or never splits.
pub fn measure_alpha<T: Task>(root: &T, depth: u32, min_size: u64) -> Option<f64> {
    let mut level = vec![root.clone()];
    let mut alpha: Option<f64> = None;
    for _ in 0..depth {
        let mut next = Vec::with_capacity(level.len() * 2);
        for mut task in level {
            let s = task.estimate()?;
            if let Some(other) = task.split() {
                let (a, b) = (other.estimate()?, task.estimate()?);
                if s >= min_size && a + b > 0 {
                    let ratio = a.min(b) as f64 / (a + b) as f64;
                    alpha = Some(alpha.map_or(ratio, |x: f64| x.min(ratio)));
                }
                next.push(other);
            }
            next.push(task);
        }
        level = next;
    }
    alpha
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::range::{IndexJob, IndexRange};
    use crate::task::Context;
    use serde::{Deserialize, Serialize};

    #[derive(Clone, Serialize, Deserialize)]
    struct Unit;
    impl IndexJob for Unit {
        type Output = u64;
        fn run(&self, _i: u64, _ctx: &mut Context<'_, u64>) -> u64 {
            1
        }
        fn estimate(&self, _i: u64) -> Option<u64> {
            Some(1)
        }
    }

    #[test]
    fn jobs_partition_the_root() {
        for (n, m) in [(1000, 16), (1000, 7), (5, 16), (1, 3), (1024, 1024)] {
            let root = IndexRange::new(Unit, 0, n);
            let mut covered = vec![false; n as usize];
            for j in 0..m {
                if let Some((t, generation)) = job(&root, m, j) {
                    assert!(generation <= 64 - m.leading_zeros());
                    for i in t.lo..t.hi {
                        assert!(!covered[i as usize], "index {i} in two jobs");
                        covered[i as usize] = true;
                    }
                }
            }
            assert!(
                covered.iter().all(|&c| c),
                "n={n} m={m}: an index in no job"
            );
        }
    }

    #[test]
    fn the_cutter_yields_the_same_jobs() {
        let root = IndexRange::new(Unit, 0, 1000);
        for (m, range) in [
            (16, 0..16),
            (16, 5..11),
            (7, 2..7),
            (1024, 100..900),
            (3000, 0..3000),
        ] {
            let cut: Vec<_> = Cutter::new(&root, m, range.clone())
                .map(|(j, t, g)| (j, t.lo, t.hi, g))
                .collect();
            let one_by_one: Vec<_> = range
                .filter_map(|j| job(&root, m, j).map(|(t, g)| (j, t.lo, t.hi, g)))
                .collect();
            assert_eq!(cut, one_by_one, "m={m}");
        }
    }

    #[test]
    fn the_cutter_cuts_strides_and_sorted_lists_as_one_by_one() {
        let root = IndexRange::new(Unit, 0, 1000);
        let one_by_one = |m: u64, js: &mut dyn Iterator<Item = u64>| -> Vec<_> {
            js.filter_map(|j| job(&root, m, j).map(|(t, g)| (j, t.lo, t.hi, g)))
                .collect()
        };
        for (m, first, stride) in [(16, 3, 4), (1000, 0, 7), (3000, 5, 2), (7, 6, 9)] {
            let cut: Vec<_> = Cutter::wanted(&root, m, Wanted::Stride { first, stride })
                .map(|(j, t, g)| (j, t.lo, t.hi, g))
                .collect();
            assert_eq!(cut, one_by_one(m, &mut (first..m).step_by(stride as usize)));
        }
        for (m, list) in [(64, vec![0, 5, 6, 63]), (3000, vec![7, 1999, 2000, 2999])] {
            let cut: Vec<_> = Cutter::wanted(&root, m, Wanted::Sorted(list.clone()))
                .map(|(j, t, g)| (j, t.lo, t.hi, g))
                .collect();
            assert_eq!(cut, one_by_one(m, &mut list.into_iter()));
        }
        // A bag far larger than the tree: the walk skips empty subtrees.
        let small = IndexRange::new(Unit, 0, 10);
        let mut cutter = Cutter::new(&small, 1 << 40, 0..1 << 40);
        assert_eq!(cutter.by_ref().count(), 10);
        assert!(cutter.splits < 100, "{} splits", cutter.splits);
    }

    #[test]
    fn depth_rules_follow_the_theorems() {
        // α = 1/2: x = 1, so h = log P + log log P.
        assert_eq!(theorem3_h(0.5, 1024), 10 + 4); // ⌈10 + 3.32⌉
        assert!((theorem4_h(0.5, 1024) - 10.0).abs() < 1e-9);
        assert!(theorem3_h(0.1, 64) > theorem3_h(0.3, 64));
        let alpha = measure_alpha(&IndexRange::new(Unit, 0, 1 << 12), 6, 8).unwrap();
        assert!((alpha - 0.5).abs() < 1e-9);
    }
}
