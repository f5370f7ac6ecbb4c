//! One simulated run on paper 002's machine (§2.1: a message costs its hops, splitting costs
//! a constant), for any tree and any balancer, reduced to the figures the claims in
//! [`super::transfers`], [`super::polling_nets`] and [`super::efficiency`] read: T_par, the
//! splits that moved a piece, the messages, the largest generation, the phases of PE 0.
//! The claims of `mod.rs` keep their own runner (its sweep cache is keyed by its own
//! setting); these need other trees, networks and hop costs.

use rayon::prelude::*;
use treesplit::machine::sim::{MessageModel, Topology};
use treesplit::{simulate, Balancer, Config, PollingOptions, SimConfig, Task};
use treesplit_apps::synthetic::{SplitRule, SyntheticParams};

/// The claims' tree: exact halves (split ratio 1/2, h = ⌈log₂ work⌉, every leaf at
/// generation h), atomic pieces of one unit, drawn from `seed`.
pub(super) fn halves(work: u64, seed: u64) -> SyntheticParams {
    SyntheticParams {
        work,
        alpha: 0.5,
        atomic: 1,
        rule: SplitRule::Random,
        spin: 1,
        seed,
    }
}

/// Random polling at the library's defaults, the claims' reference balancer.
pub(super) fn random_polling() -> Balancer {
    Balancer::RandomPolling {
        polling: PollingOptions::default(),
        locality: 0,
    }
}

/// What one run measured.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fig {
    pub p: usize,
    pub t_par: f64,
    /// T_seq in units (the tree's total work).
    pub t_seq: f64,
    /// Splits that gave a piece to another PE: the load transfers.
    pub transfers: u64,
    /// All messages but those of termination detection and the result's reduction.
    pub messages: u64,
    pub max_gen: u32,
    /// Phases PE 0 went through and permutations it took part in (poll-and-shuffle).
    pub phases: u64,
    pub permutations: u64,
    /// PE 0's estimates of the idle fraction (adaptive poll-and-shuffle).
    pub estimates: usize,
}

impl Fig {
    /// L = T_par − T_seq/P.
    pub fn lower_order(&self) -> f64 {
        self.t_par - self.t_seq / self.p as f64
    }

    /// T_seq/(P·T_par).
    pub fn efficiency(&self) -> f64 {
        self.t_seq / (self.p as f64 * self.t_par)
    }
}

/// The machine: `network`, a hop costs `t_hop` (T_rout = T_hop), T_split 5, messages cost
/// the PEs no time of their own (paper 002 §2.1's packet model).
pub(super) fn machine(network: Topology, t_hop: u64) -> SimConfig {
    SimConfig {
        topology: network,
        model: MessageModel::LatencyOnly,
        t_rout: t_hop,
        t_hop: Some(t_hop),
        t_split: 5,
        timeline_limit: 0,
        ..SimConfig::default()
    }
}

/// Simulate `task` (`work` units in all; `units` reads the units done from the output) under
/// `balancer` on `p` PEs of `sim`, Δt 8; an error if a unit was lost or done twice.
pub(super) fn run<T: Task>(
    task: T,
    work: u64,
    units: impl Fn(&T::Output) -> u64,
    balancer: Balancer,
    p: usize,
    sim: &SimConfig,
    seed: u64,
) -> Result<Fig, String> {
    let config = Config::new(p).balancer(balancer).delta_t(8).seed(seed);
    let r = simulate(task, &config, sim)
        .map_err(|e| e.to_string())?
        .into_report();
    if units(&r.report.output) != work {
        return Err(format!(
            "{}: {} units done of {work}",
            balancer.kind(),
            units(&r.report.output)
        ));
    }
    let t = &r.report.totals;
    let ph = r.report.per_pe[0].phases.as_ref();
    Ok(Fig {
        p,
        t_par: r.report.t_par,
        t_seq: work as f64,
        transfers: t.splits,
        messages: t.messages - t.termination_messages,
        max_gen: t.max_generation,
        phases: ph.map_or(0, |ph| ph.phases),
        permutations: ph.map_or(0, |ph| ph.permutations),
        estimates: ph.map_or(0, |ph| ph.estimates.len()),
    })
}

/// Per P: the judged value per seed and the runs behind them.
pub(super) type PerP = Vec<(usize, Vec<f64>, Vec<Fig>)>;

/// One run per (P, seed), P by P and seed by seed, run in parallel; the results keep that
/// order.
pub(super) fn grid<R: Send>(
    ps: &[usize],
    seeds: &[u64],
    one: impl Fn(usize, u64) -> Result<R, String> + Sync,
) -> Result<Vec<R>, String> {
    let jobs: Vec<(usize, u64)> = ps
        .iter()
        .flat_map(|&p| seeds.iter().map(move |&s| (p, s)))
        .collect();
    jobs.par_iter().map(|&(p, s)| one(p, s)).collect()
}

/// The runs of [`grid`] grouped by P, each judged by `value` (given P and the run).
pub(super) fn per_p(ps: &[usize], figs: &[Fig], value: impl Fn(usize, &Fig) -> f64) -> PerP {
    ps.iter()
        .map(|&p| {
            let at: Vec<Fig> = figs.iter().filter(|f| f.p == p).copied().collect();
            (p, at.iter().map(|f| value(p, f)).collect(), at)
        })
        .collect()
}

/// c = 1.5 × the largest value at the two smallest P; the runs at the larger P above c, as
/// "P = …: x", and the number of judged runs.
pub(super) fn exceed(m: &PerP) -> (f64, Vec<String>, usize) {
    let c = 1.5
        * m[..2]
            .iter()
            .flat_map(|x| x.1.iter().copied())
            .fold(0.0, f64::max);
    let mut over = Vec::new();
    let mut n = 0;
    for (p, v, _) in &m[2..] {
        for &x in v {
            n += 1;
            if x > c {
                over.push(format!("P = {p}: {x:.2}"));
            }
        }
    }
    (c, over, n)
}

pub(super) fn words(over: &[String]) -> String {
    match over.len() {
        0 => "none".into(),
        m => format!("{m} runs, among them {}", over[..m.min(4)].join(", ")),
    }
}

/// ⌈log₂ x⌉ for x ≥ 1.
pub(super) fn log2_ceil(x: u64) -> u32 {
    u64::BITS - x.max(1).saturating_sub(1).leading_zeros()
}
