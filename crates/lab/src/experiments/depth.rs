//! How deep must randomized static load balancing split (paper 004 §3)? For a synthetic
//! α-splitting tree and one P, the simulator runs random-static for growing h, from
//! ⌈log₂ P⌉ up, and finds the smallest h whose most loaded PE gets at most (1+ε)·T_seq/P
//! work units; beside it stand Theorem 3's sufficient depth x(α)(log P + log log P) and
//! Theorem 4's lower bound x(α)·log P. `treesplit depth` prints one row per P.

use serde::Serialize;
use treesplit::config::StaticPermutation;
use treesplit::task::bag::{theorem3_depth, theorem4_h};
use treesplit::{simulate, Balancer, Config, Jobs, SimConfig};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

/// One sweep over h: the tree, the target and the largest h tried.
#[derive(Debug, Clone, Copy)]
pub struct Depth {
    /// The synthetic tree (its `work` is T_seq).
    pub params: SyntheticParams,
    /// The target: max load ≤ (1+ε)·T_seq/P.
    pub epsilon: f64,
    /// Random-static's permutation.
    pub permutation: StaticPermutation,
    /// The largest h tried.
    pub max_h: u32,
    /// The simulator's seed.
    pub seed: u64,
}

impl Depth {
    /// The sweep over a synthetic tree of `work` units, splitting quality `alpha` and split
    /// `rule` (atomic units, one mixer round each) with the seed `seed`, checked; ε 0.1, the
    /// Feistel permutation and h up to `DEFAULT_MAX_H` until the caller says otherwise.
    pub fn new(work: u64, alpha: f64, rule: SplitRule, seed: u64) -> Result<Depth, String> {
        let params = SyntheticParams {
            work,
            alpha,
            atomic: 1,
            rule,
            spin: 1,
            seed,
        };
        params.validate()?;
        Ok(Depth {
            params,
            epsilon: 0.1,
            permutation: StaticPermutation::Feistel,
            max_h: treesplit::task::bag::DEFAULT_MAX_H,
            seed,
        })
    }

    /// Whether the tree's splits are adversarial (always α) rather than random.
    pub fn adversarial(&self) -> bool {
        self.params.rule == SplitRule::Adversarial
    }
}

/// One P's row of the table.
#[derive(Debug, Clone, Serialize)]
pub struct DepthRow {
    /// P.
    pub pes: usize,
    /// The smallest h that balances (None: none up to `max_h`).
    pub smallest_h: Option<u32>,
    /// The last h tried and its max/avg load.
    pub h_tried: u32,
    /// The most loaded PE's work over T_seq/P at `h_tried`.
    pub max_over_avg_load: f64,
    /// Theorem 3's sufficient depth.
    pub theorem3_depth: f64,
    /// Theorem 4's lower bound on h.
    pub theorem4_h: f64,
}

/// Why a row could not be measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DepthError {
    /// The tree's parameters are invalid.
    Input(String),
    /// A simulated run failed.
    Run(String),
    /// A simulated run did not do the tree's work units.
    Wrong(String),
}

impl Depth {
    /// Measure P's row; `tried(h, ratio)` hears each h as it is measured.
    pub fn row(&self, p: usize, mut tried: impl FnMut(u32, f64)) -> Result<DepthRow, DepthError> {
        let params = self.params;
        let sim = SimConfig::default();
        let first = (p as f64).log2().ceil() as u32;
        let mut found = None;
        let mut last = (0, f64::INFINITY);
        for h in first..=self.max_h {
            let config = Config::new(p)
                .balancer(Balancer::RandomStatic {
                    jobs: Jobs::Depth(h),
                    permutation: self.permutation,
                })
                .delta_t(params.work / p as u64 / 4 + 1)
                .seed(self.seed);
            let root = Synthetic::new(params).map_err(DepthError::Input)?;
            let r = simulate(root, &config, &sim)
                .map_err(|e| DepthError::Run(format!("P = {p}, h = {h}: {e}")))?
                .into_report();
            if r.report.output.units != params.work {
                return Err(DepthError::Wrong(format!(
                    "P = {p}, h = {h}: {} units done, not {}",
                    r.report.output.units, params.work
                )));
            }
            let max = r.report.max_work_units();
            let ratio = max as f64 * p as f64 / params.work as f64;
            last = (h, ratio);
            tried(h, ratio);
            if ratio <= 1.0 + self.epsilon {
                found = Some((h, ratio));
                break;
            }
        }
        Ok(DepthRow {
            pes: p,
            smallest_h: found.map(|(h, _)| h),
            h_tried: found.map_or(last.0, |(h, _)| h),
            max_over_avg_load: found.map_or(last.1, |(_, r)| r),
            theorem3_depth: theorem3_depth(params.alpha, p),
            theorem4_h: theorem4_h(params.alpha, p),
        })
    }
}
