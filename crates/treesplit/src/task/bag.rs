//! How many jobs a static balancer's bag holds (paper 004 §3 and Fig. 1): the static
//! balancers cut the root into m independent jobs by recursive splitting, the complete
//! splitting tree of depth h for m = 2^h, and this module chooses m.
//!
//! [`resolve_depth`] completes a configuration for a root: where the user left the number of
//! jobs open, it measures the splitting quality α from the task's own size estimates and
//! takes Theorem 3's sufficient depth h = x(α)(log P + log log P) of paper 004, with
//! x(α) = 1/log(1/(1−α)); Theorem 4's lower bound x(α)·log P is here too.

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
    resolve(config, &|| (measure_alpha(root, 8, 64), root.estimate()))
}

/// [`resolve_depth`] for a root that `measure` measures when asked: α from its size
/// estimates, and its estimate of the whole work (compiled once, whatever the task type).
pub(crate) fn resolve(
    config: &Config,
    measure: &dyn Fn() -> (Option<f64>, Option<u64>),
) -> Result<Resolved, ConfigError> {
    let mut config = config.clone();
    let mut resolved = Resolved {
        config: config.clone(),
        alpha: None,
        note: None,
    };
    if config.balancer.jobs() == Some(Jobs::FromEstimates) {
        config.validate_options()?;
        let kind = config.balancer.kind();
        let (alpha, estimate) = measure();
        match alpha {
            None => {
                config.balancer = config.balancer.with_jobs(Jobs::PerPe(DEFAULT_JOBS_PER_PE));
                let m = config
                    .jobs()
                    .ok_or(ConfigError::TooManyJobs { max_h: MAX_H })?;
                resolved.note = Some(format!(
                    "{kind}: {DEFAULT_JOBS_PER_PE} jobs per PE (m = {m}), the default for a task without size estimates; give Jobs::Depth or Jobs::PerPe to choose"
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
                let work = estimate.unwrap_or(1).max(1);
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
                            {
                                let idle = p as u64 - (1u64 << h);
                                format!(
                                    " — fewer jobs than PEs: {} {} none",
                                    crate::words::count(idle, "PE", "PEs"),
                                    crate::words::noun(idle, "gets", "get")
                                )
                            }
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

/// The largest depth `resolve_depth` chooses by itself (2^24 jobs).
pub const DEFAULT_MAX_H: u32 = 24;

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
    use crate::task::testing::sum;

    #[test]
    fn depth_rules_follow_the_theorems() {
        // α = 1/2: x = 1, so h = log P + log log P.
        assert_eq!(theorem3_h(0.5, 1024), 10 + 4); // ⌈10 + 3.32⌉
        assert!((theorem4_h(0.5, 1024) - 10.0).abs() < 1e-9);
        assert!(theorem3_h(0.1, 64) > theorem3_h(0.3, 64));
        let alpha = measure_alpha(&sum(0, 1 << 12), 6, 8).unwrap();
        assert!((alpha - 0.5).abs() < 1e-9);
    }
}
