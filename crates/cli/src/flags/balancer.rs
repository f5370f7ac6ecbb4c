//! The balancer's flags: which balancer a run uses (`--balancer`, its help made from the
//! library's balancer table) and the options of every balancer, shared by `run`, `resume`,
//! `sim` and `compare`. Whether an option applies to the chosen balancer is the plan's
//! question (`crate::plan::rules`).

use super::{parse_balancer, parse_name, BalancerName};
use clap::Args;
use treesplit::config::DagScheduler;
use treesplit::config::{
    BundleRule, DealOrder, PermutationKind, PermutedInit, PhaseSync, StaticPermutation,
    TerminationKind,
};
use treesplit::words::list;
use treesplit::BalancerKind;

/// The balancer of one run (`run`, `resume`, `sim`; `compare` runs several).
#[derive(Debug, Args)]
pub struct BalancerChoice {
    // Load balancer: its help lists the library's balancers (`balancer_help`).
    #[arg(long, global = true, default_value = "random-polling", value_parser = parse_balancer, help = balancer_help())]
    pub balancer: BalancerName,
}

/// `--balancer`'s help: the library's balancers (its balancer table, dynamic then static) and
/// the DAG schedulers, so that a new balancer is listed without a change here.
fn balancer_help() -> String {
    let (bag, dynamic): (Vec<BalancerKind>, Vec<BalancerKind>) =
        BalancerKind::ALL.iter().partition(|k| k.is_static());
    format!(
        "Load balancer: {} (dynamic); {} (static, on a bag of jobs cut from the root). Task DAGs (`run|sim dag`): {}",
        names(&dynamic),
        names(&bag),
        list(DagScheduler::ALL, "or")
    )
}

/// The names of `kinds`, comma-separated.
fn names(kinds: &[BalancerKind]) -> String {
    kinds
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The balancers' options, shared by `run`, `sim` and `compare` (they may follow the
/// application's arguments).
#[derive(Debug, Args)]
pub struct BalancerOpts {
    /// Work units between two polls of a busy PE's message queue (Δt); the default suits
    /// the machine (the application's unit cost on real machines, T_rout in the simulator).
    #[arg(long = "delta-t", global = true)]
    pub delta_t: Option<u64>,
    /// Termination detection: four-counter or response-tree.
    #[arg(long, global = true, default_value = "four-counter", value_parser = parse_name::<TerminationKind>)]
    pub termination: TerminationKind,
    /// Round (phase) length Δ of random shift and poll-and-shuffle (µs on threads and MPI;
    /// virtual units in the simulator).
    #[arg(long, global = true)]
    pub round: Option<u64>,
    /// Trimming (paper 000 §4): a busy PE serves at most N requests per poll, rejects the rest.
    #[arg(long, global = true)]
    pub trim: Option<u32>,
    /// Fast initialization (exercise 14.7): broadcast the root, split it ⌊log₂ P⌋ times locally.
    #[arg(long = "fast-init", global = true)]
    pub fast_init: bool,
    /// Permutation-based initialization (paper 004 §5.1): start dynamic balancing from the
    /// static decomposition into 2^H jobs placed through a pseudorandom permutation (lcg, gf2,
    /// feistel) or at random (random), as random-static places them: PERM or PERM:H (H
    /// default ⌈log₂ P⌉ + 2).
    #[arg(long = "permuted-init", global = true, value_parser = parse_name::<PermutedInit>)]
    pub permuted_init: Option<PermutedInit>,
    /// Random polling: poll locally, a random PE of one's block of B PEs consecutive in the
    /// network's hypercube labels (a submesh on a mesh; paper 004 §5.1); 0: every PE.
    #[arg(long = "poll-within", global = true)]
    pub poll_within: Option<u64>,
    /// Neighbour polling: whose neighbours a PE asks (ring, mesh2d, mesh3d, hypercube,
    /// fat-tree, butterfly, ccc, shuffle-exchange, de-bruijn, mesh-of-trees, crossbar; default: ring, or the
    /// simulated network unless it is a crossbar).
    #[arg(long, global = true)]
    pub neighbourhood: Option<String>,
    /// Poll-and-shuffle: permute by a pseudorandom permutation composed of precomputed
    /// random generators (no extra messages; paper 002 §3.2's practical choice, the default)
    /// or by messages (random destinations, prefix sum over the network's hypercube).
    #[arg(long, global = true, value_parser = parse_name::<PermutationKind>)]
    pub permutation: Option<PermutationKind>,
    /// Poll-and-shuffle: trigger permutations adaptively (paper 002 §5).
    #[arg(long, global = true)]
    pub adaptive: bool,
    /// Poll-and-shuffle: phases by a global clock (rounds of --round) or by local
    /// synchronization of hypercube partners (paper 002 §6.3; --round is then work units per
    /// phase and the permutation is the pseudorandom one).
    #[arg(long, global = true, default_value = "global", value_parser = parse_name::<PhaseSync>)]
    pub sync: PhaseSync,
    /// Adaptive poll-and-shuffle: idle PEs notify PE 0 with probability c/P.
    #[arg(long = "adaptive-c", global = true, default_value_t = 4.0)]
    pub adaptive_c: f64,
    /// Adaptive poll-and-shuffle: permute when at least γ·P PEs are estimated idle.
    #[arg(long = "adaptive-gamma", global = true, default_value_t = 0.25)]
    pub adaptive_gamma: f64,
    // Static balancers: split the root into 2^h jobs (those of the library, `h_help`).
    #[arg(long = "h", global = true, conflicts_with_all = ["jobs_per_pe", "h_from_alpha"], help = h_help())]
    pub h: Option<u32>,
    /// Static balancers: q jobs per PE (m = q·P; with block, paper 003's multiple assignment
    /// for q > 1); hashtable: its buckets per PE, whatever the balancer.
    #[arg(long = "q", global = true, conflicts_with = "h_from_alpha")]
    pub jobs_per_pe: Option<u64>,
    /// Static balancers: choose h by Theorem 3 of paper 004 for this splitting quality α
    /// (default: α measured from the application's size estimates, where it has them).
    #[arg(long = "h-from-alpha", global = true)]
    pub h_from_alpha: Option<f64>,
    /// Random-static: the pseudorandom permutation (lcg, gf2, feistel) or random placement.
    #[arg(long = "static-permutation", global = true, default_value = "feistel", value_parser = parse_name::<StaticPermutation>)]
    pub static_permutation: StaticPermutation,
    /// Master-worker bundles: fixed:B, sqrt:STARTUP:MAX_JOB (b = √(α·m/t̂)) or
    /// adaptive:C:W_MIN (W/(P·C) + W_min estimated units).
    #[arg(long, global = true, default_value = "fixed:1", value_parser = parse_name::<BundleRule>)]
    pub bundle: BundleRule,
    /// Prefix-sum: keep jobs whole (the atomic 2-approximation) instead of cutting them.
    #[arg(long = "atomic-jobs", global = true)]
    pub atomic_jobs: bool,
    /// Master-worker: the order the master deals jobs in: in-order, or largest-first (large
    /// tasks first by the application's size estimates: Graham's LPT).
    #[arg(long = "deal-order", global = true, default_value = "in-order", value_parser = parse_name::<DealOrder>)]
    pub deal_order: DealOrder,
    /// Hierarchical master-worker: PEs per group, the submaster included (0: ⌈√P⌉).
    #[arg(long, global = true, default_value_t = 0)]
    pub fanout: u64,
}

/// `--h`'s help, naming the library's static balancers.
fn h_help() -> String {
    format!(
        "Static balancers: split the root into 2^h jobs ({})",
        names(BalancerKind::STATIC)
    )
}
