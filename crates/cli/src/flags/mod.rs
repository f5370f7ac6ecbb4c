//! The flags layer: the clap definitions of every subcommand and option, and which flags the
//! user actually gave ([`Given`]). Each subcommand defines the options it takes, and only
//! those, so its `--help` lists them and clap refuses the others; whether a flag makes sense
//! for one run (its balancer, its application, the other flags) is the plan's job
//! (`crate::plan`), so this module imports none of ours.

use clap::parser::ValueSource;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::collections::BTreeSet;
use std::marker::PhantomData;
use treesplit::config::DagScheduler;
use treesplit::config::StaticPermutation;
use treesplit::BalancerKind;
use treesplit_apps::app::Use;
use treesplit_apps::params::Values;
use treesplit_apps::{registry, SplitRule};

mod app_params;
mod balancer;
pub use balancer::{BalancerChoice, BalancerOpts};

/// The ids (clap's field names, e.g. `adaptive_c`) of the arguments given on the command line,
/// at any level of subcommands; defaults do not count.
#[derive(Debug, Default, Clone)]
pub struct Given(BTreeSet<String>);

impl Given {
    /// Count the argument with this id as given (a command that implies it).
    pub fn insert(&mut self, id: &str) {
        self.0.insert(id.to_string());
    }

    /// Whether the user gave the argument with this id.
    pub fn has(&self, id: &str) -> bool {
        self.0.contains(id)
    }

    /// The same flags less `id` (a flag the caller has dealt with).
    pub fn without(&self, id: &str) -> Given {
        let mut g = self.clone();
        g.0.remove(id);
        g
    }
}

/// Parse the process's arguments: the typed command line and the flags given.
pub fn parse() -> Result<(Cli, Given), clap::Error> {
    parse_from(std::env::args_os())
}

/// Every option and positional that takes a value takes a negative number as that value, so
/// that `--pes -1` is refused by the option's own parser ("invalid value '-1'") rather than
/// read as an unknown flag `-1`.
fn negative_values(command: clap::Command) -> clap::Command {
    command
        .mut_args(|a| {
            if a.get_action().takes_values() {
                a.allow_negative_numbers(true)
            } else {
                a
            }
        })
        .mut_subcommands(negative_values)
}

/// Parse an argument vector (the program's name first) as [`parse`] does; the CLI fuzz target
/// (`fuzz/fuzz_targets/cli_args.rs`) enters here.
pub fn parse_from<I, T>(args: I) -> Result<(Cli, Given), clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = negative_values(Cli::command()).try_get_matches_from(args)?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut Cli::command()))?;
    // Each level's matches also hold the values of global arguments defined below it, which
    // that level may not be asked about: look at the arguments each level defines.
    let mut command = Cli::command();
    command.build();
    let mut given = BTreeSet::new();
    let mut level = Some((&matches, &command));
    while let Some((m, cmd)) = level {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if m.ids().any(|i| i.as_str() == id)
                && m.value_source(id) == Some(ValueSource::CommandLine)
            {
                given.insert(id.to_string());
            }
        }
        level = m
            .subcommand()
            .and_then(|(name, sub)| Some((sub, cmd.find_subcommand(name)?)));
    }
    Ok((cli, Given(given)))
}

/// The output options every subcommand takes (one struct flattened into each, so they are
/// spelled and documented the same everywhere). `--seed` and `--pes` belong to the
/// subcommands they mean something for, each with its own meaning of P.
#[derive(Debug, Args, Clone)]
pub struct Common {
    /// Print one JSON document on stdout (and nothing else there); an error is then the JSON
    /// document {"error": …, "exit_code": …}.
    #[arg(long, global = true)]
    pub json: bool,
    /// No progress indicator and no notes or warnings on stderr (errors are still printed).
    #[arg(long, global = true)]
    pub quiet: bool,
}

/// `--seed`, where a subcommand draws random numbers from one seed (`dst` has its own).
#[derive(Debug, Args, Clone, Copy)]
pub struct SeedFlag {
    /// Seed of the random choices (default: 1).
    #[arg(long, global = true)]
    pub seed: Option<u64>,
}

/// `--instance-seed`: a random instance's own seed, apart from the balancer's.
#[derive(Debug, Args, Clone, Copy)]
pub struct InstanceSeed {
    /// Seed of a random instance (maxclique --random, hashtable --keys N, dag --random N),
    /// apart from the balancer's, so that --seed can vary the balancer alone (default: --seed).
    #[arg(long = "instance-seed", global = true, value_name = "S")]
    pub instance_seed: Option<u64>,
}

impl InstanceSeed {
    /// The instance's seed: its own, else `--seed`'s.
    pub fn or(self, seed: SeedFlag) -> Option<u64> {
        self.instance_seed.or(seed.seed)
    }
}

/// Run limits and contract checks: `--max-units`, `--time-limit`, `--check`.
#[derive(Debug, Args, Clone, Copy)]
pub struct LimitFlags {
    /// Stop the run after N work units in all (it may overshoot by up to P·Δt units); the
    /// run then exits 1 with its partial report. Deterministic in the simulator.
    #[arg(long = "max-units", global = true, value_name = "N")]
    pub max_units: Option<u64>,
    /// Stop the run after this much wall-clock time: 30s, 5m, 1h30m, 1.5h, 250ms or plain seconds
    /// (real time in the simulator too, so not reproducible there: prefer --max-units); the
    /// run then exits 1 with its partial report.
    #[arg(long = "time-limit", global = true, value_name = "D", value_parser = parse_duration, allow_hyphen_values = true)]
    pub time_limit: Option<std::time::Duration>,
    /// Check the task's contract while running (work within its budget and making progress,
    /// splits that conserve size estimates; a violation exits 1 naming the PE and piece),
    /// then the result and work units against a sequential run (a mismatch exits 3). Not
    /// for task DAGs, whose every run checks its schedule.
    #[arg(long, global = true)]
    pub check: bool,
}

/// A duration (`crate::duration`): `1h30m`, `1.5h`, `250ms`, `100us` or plain seconds.
fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    crate::duration::parse(text)
}

/// treesplit: tree-shaped computations on many PEs with provably good load balance.
#[derive(Debug, Parser)]
#[command(name = "treesplit", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run an application on P PEs (threads), or sequentially with --sequential.
    Run(RunArgs),
    /// Simulate a run on the papers' machine model in virtual time (deterministic).
    Sim(SimArgs),
    /// Continue a computation from its checkpoint (`run --checkpoint FILE`) on any number of
    /// PEs, machine (threads, mpi) or balancer.
    Resume(ResumeArgs),
    /// Measure in one run: the sequential code, treesplit, rayon and chili at 1 and P threads.
    Bench(BenchArgs),
    /// Run every balancer on the same instance in the simulator and compare them.
    Compare(CompareArgs),
    /// Deterministic simulation testing: random runs in the simulator, each checked.
    Dst(DstArgs),
    /// List the named UTS trees and their published node counts.
    Trees(TreesArgs),
    /// Random-static in the simulator: the smallest splitting depth h that balances a synthetic
    /// α-splitting tree, beside paper 004's Theorems 3 and 4.
    Depth(DepthArgs),
    /// Randomly scattered data (paper 003): η of P·q Poisson(α) subproblems of cost degree d,
    /// by Monte Carlo beside the paper's predictions; `scatter tail`: adversarial job sizes.
    Scatter(ScatterArgs),
    /// Measure the papers' claims, each against its prediction with a criterion fixed in
    /// code, and write a report: DIR/index.md, DIR/results.json and SVG plots.
    Reproduce(ReproduceArgs),
}

/// `treesplit reproduce`.
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    #[command(flatten)]
    pub common: Common,
    /// The quick catalogue: small sizes and few seeds (about a minute; what CI runs).
    #[arg(long)]
    pub quick: bool,
    /// Only these experiments (comma-separated ids; an unknown id lists them all). An earlier
    /// report of the same kind in --out is updated: these claims replace theirs, the rest stay.
    #[arg(long, value_delimiter = ',', value_name = "ID,...")]
    pub only: Vec<String>,
    /// The report's folder (created if missing).
    #[arg(long, value_name = "DIR", default_value = "reproduction")]
    pub out: std::path::PathBuf,
}

/// `treesplit scatter`: lists (comma-separated) of α, q, P and d make a sweep.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ScatterArgs {
    #[command(subcommand)]
    pub mode: Option<ScatterMode>,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub seed: SeedFlag,
    /// The numbers of PEs P, comma-separated (a sweep; `scatter tail` takes one), each
    /// 2 ≤ P ≤ 2^24 (default: 1024).
    #[arg(long, global = true, value_delimiter = ',')]
    pub pes: Vec<usize>,
    /// Mean subproblem size α > 0 (Poisson parameter).
    #[arg(long, value_delimiter = ',', required = true)]
    pub alpha: Vec<f64>,
    /// Subproblems per PE (q = 1: single assignment).
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub q: Vec<u64>,
    /// Degree d of the cost polynomial c.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub degree: Vec<u32>,
    /// The cost: power (X^d), falling (X(X−1)…(X−d+1)), hashtable (X(X+1)/2, d = 2).
    #[arg(long, value_enum, default_value_t = CostArg::Power)]
    pub cost: CostArg,
    /// multiple: exactly q per PE (the paper's); random-placement: each to a random PE.
    #[arg(long, value_enum, default_value_t = AssignmentArg::Multiple)]
    pub assignment: AssignmentArg,
    /// Monte Carlo trials per point.
    #[arg(long, default_value_t = 1000)]
    pub trials: u64,
    /// Draw η against q (measured, exact and predicted) to this SVG or PNG file.
    #[arg(long)]
    pub svg: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum ScatterMode {
    /// Adversarial, uniform or heavy-tailed job sizes under random placement, random
    /// permutation and round-robin: P[L_max > (1+ε)T/P] against paper 004's Theorem 2 and
    /// the chapter's Theorem 14.1.
    Tail(TailArgs),
}

#[derive(Debug, Args)]
pub struct TailArgs {
    /// Job sizes: adversarial (Lemma 1), uniform, heavy (Pareto, shape 1.5).
    #[arg(long, value_enum, default_value_t = SizesArg::Adversarial)]
    pub sizes: SizesArg,
    /// Adversarial: T/t̂ = c·P·ln P heavy jobs (a comma-separated list makes a sweep).
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub c: Vec<f64>,
    /// Number of jobs m (default: adversarial 4·T/t̂ rounded up to a multiple of P;
    /// uniform and heavy 64·P).
    #[arg(long)]
    pub jobs: Option<u64>,
    /// Imbalance ε > 0: the tail is P[L_max > (1+ε)·T/P].
    #[arg(long, default_value_t = 0.5)]
    pub epsilon: f64,
    /// Random placements drawn per placement strategy.
    #[arg(long, default_value_t = 2000)]
    pub trials: u64,
    /// Draw the tail against c (adversarial) to this SVG or PNG file.
    #[arg(long)]
    pub svg: Option<std::path::PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CostArg {
    Power,
    Falling,
    Hashtable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AssignmentArg {
    Multiple,
    RandomPlacement,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SizesArg {
    Adversarial,
    Uniform,
    Heavy,
}

#[derive(Debug, Args)]
pub struct TreesArgs {
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub struct DepthArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub seed: SeedFlag,
    /// The numbers of PEs P to find h for, comma-separated, each at least 2 (default:
    /// 64,256,1024,4096).
    #[arg(long, value_delimiter = ',')]
    pub pes: Vec<usize>,
    /// Splitting quality α ∈ (0, 0.5].
    #[arg(long, default_value_t = 0.3)]
    pub alpha: f64,
    /// How split fractions are chosen.
    #[arg(long, value_parser = app_params::choice::<SplitRule>(SplitRule::CHOICES), default_value = "random")]
    pub split: SplitRule,
    /// Total work units of the tree.
    #[arg(long, default_value_t = 1 << 30)]
    pub work: u64,
    /// Tolerated imbalance ε: the target is max load ≤ (1+ε)·T_seq/P.
    #[arg(long, default_value_t = 0.1)]
    pub epsilon: f64,
    /// The pseudorandom permutation (lcg, gf2, feistel) or random placement (as `run --static-permutation`).
    #[arg(long = "static-permutation", default_value = "feistel", value_parser = parse_name::<StaticPermutation>)]
    pub static_permutation: StaticPermutation,
    /// Give up beyond this depth.
    #[arg(long = "max-h", default_value_t = 24)]
    pub max_h: u32,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(subcommand)]
    pub app: Offered<ToRun>,
    #[command(flatten)]
    pub opts: RunOpts,
    /// Run the sequential baseline only (no runtime).
    #[arg(long, global = true)]
    pub sequential: bool,
    /// Also run the sequential baseline first, to report T_seq, speedup and efficiency.
    #[arg(long, global = true)]
    pub baseline: bool,
}

/// Options of a parallel run, shared by `run` and `resume` (they may follow the
/// application's arguments).
#[derive(Debug, Args)]
pub struct RunOpts {
    #[command(flatten)]
    pub choice: BalancerChoice,
    #[command(flatten)]
    pub balance: BalancerOpts,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub seed: SeedFlag,
    #[command(flatten)]
    pub instance: InstanceSeed,
    /// Number of PEs: threads (default: the number of cores), or with --machine mpi the
    /// number of ranks (default: the MPI job's; when given, it must match).
    #[arg(long, global = true)]
    pub pes: Option<usize>,
    #[command(flatten)]
    pub limits: LimitFlags,
    /// The machine: threads in this process, or MPI ranks (start under mpirun; needs a
    /// build with `--features mpi`).
    #[arg(long, global = true, value_enum, default_value_t = MachineArg::Threads)]
    pub machine: MachineArg,
    /// Write every PE's timeline (states and messages) to this file in the Chrome
    /// trace-event format (open it in ui.perfetto.dev or chrome://tracing).
    #[arg(long, global = true)]
    pub trace: Option<std::path::PathBuf>,
    /// Draw per-PE timelines (P ≤ 512) and the utilization curve to this SVG or PNG file.
    #[arg(long, global = true)]
    pub gantt: Option<std::path::PathBuf>,
    /// Keep a checkpoint of the computation in FILE: written when the run stops (at
    /// --time-limit or --max-units, or on SIGTERM, SIGINT, SIGUSR1 or SIGHUP) and every
    /// --checkpoint-every; continue it with `treesplit resume FILE` on any P, machine or
    /// balancer. Removed when the computation finishes. An existing FILE must be a checkpoint
    /// of the same computation: treesplit never replaces another file.
    #[arg(long, global = true, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// With --checkpoint: also write it this often (30s, 5m, 1h30m, 1.5h, 250ms or plain seconds).
    #[arg(long = "checkpoint-every", global = true, value_name = "D", value_parser = parse_duration, allow_hyphen_values = true)]
    pub checkpoint_every: Option<std::time::Duration>,
}

/// `treesplit resume`: continue a checkpointed computation.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The checkpoint file (`run --checkpoint FILE`). It is updated in place when the resumed
    /// run stops again (or give --checkpoint OTHER).
    pub file: std::path::PathBuf,
    #[command(flatten)]
    pub opts: RunOpts,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MachineArg {
    /// One OS thread per PE.
    Threads,
    /// One PE per MPI rank.
    Mpi,
}

#[derive(Debug, Args)]
pub struct SimArgs {
    #[command(subcommand)]
    pub app: Offered<ToSim>,
    #[command(flatten)]
    pub opts: SimOpts,
}

/// Options of the simulator (they may follow the application's arguments).
#[derive(Debug, Args)]
pub struct SimOpts {
    #[command(flatten)]
    pub choice: BalancerChoice,
    #[command(flatten)]
    pub balance: BalancerOpts,
    #[command(flatten)]
    pub limits: LimitFlags,
    #[command(flatten)]
    pub machine: SimFlags,
    /// Draw per-PE timelines (P ≤ 512) or the utilization curve to this SVG or PNG file.
    #[arg(long, global = true)]
    pub gantt: Option<std::path::PathBuf>,
    /// Write every PE's timeline to this file in the Chrome trace-event format (one virtual
    /// time unit as 1 µs).
    #[arg(long, global = true)]
    pub trace: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub seed: SeedFlag,
    #[command(flatten)]
    pub instance: InstanceSeed,
    /// Number of simulated PEs (default: 64).
    #[arg(long, global = true)]
    pub pes: Option<usize>,
}

/// The simulated machine: its network, its costs and its adversaries (`sim` and `compare`).
#[derive(Debug, Args)]
pub struct SimFlags {
    /// Network: crossbar, ring, mesh2d, mesh3d, hypercube, fat-tree, butterfly, ccc,
    /// shuffle-exchange, de-bruijn, mesh-of-trees.
    #[arg(long, global = true, default_value = "crossbar")]
    pub net: String,
    /// What a message costs the PEs: blocking (paper 000 §1.1: sending and receiving cost
    /// T_send + T_recv ≥ T_rout of the PEs' own time; the default) or latency-only (the PEs
    /// pay only --t-send and --t-recv, 0 unless given).
    #[arg(long, global = true, value_parser = parse_name::<treesplit::machine::sim::MessageModel>)]
    pub model: Option<treesplit::machine::sim::MessageModel>,
    /// T_rout: a message's latency on the crossbar (per hop elsewhere unless --t-hop), and
    /// what sending and receiving it cost under the blocking model.
    #[arg(long = "t-rout", global = true, default_value_t = 10)]
    pub t_rout: u64,
    /// Latency per hop on the networks other than the crossbar (default: T_rout).
    #[arg(long = "t-hop", global = true)]
    pub t_hop: Option<u64>,
    /// Cost of a split (T_split).
    #[arg(long = "t-split", global = true, default_value_t = 5)]
    pub t_split: u64,
    /// Sender's cost per message (LogP overhead; blocking: ⌈T_rout/2⌉, or T_rout − T_recv,
    /// unless given; latency-only: 0 unless given).
    #[arg(long = "t-send", global = true)]
    pub t_send: Option<u64>,
    /// Receiver's cost per message handled (blocking: ⌊T_rout/2⌋, or T_rout − T_send,
    /// unless given; latency-only: 0 unless given).
    #[arg(long = "t-recv", global = true)]
    pub t_recv: Option<u64>,
    /// T_poll (paper 000 §3): what a busy PE's probe of its message queue costs when it
    /// finds it empty (default 0: free). The simulator's: on threads and MPI a probe costs
    /// what it costs.
    #[arg(long = "t-poll", global = true, default_value_t = 0)]
    pub t_poll: u64,
    /// α (paper 000 §2: a busy PE polls at least every Δt and at most every αΔt), in (0, 1]:
    /// the simulated PE polls every ⌈αΔt⌉ work units, the most often the rule allows
    /// (default 1: every Δt).
    #[arg(long = "poll-alpha", global = true, default_value_t = 1.0)]
    pub poll_alpha: f64,
    /// T_count (paper 000 §1.3): what one increment of a global counter costs the PE that
    /// holds it (global round robin's counter at PE 0; default 0: free).
    #[arg(long = "t-count", global = true, default_value_t = 0)]
    pub t_count: u64,
    /// Random extra delay per message: none, uniform:MAX, exp:MEAN.
    #[arg(long, global = true, default_value = "none")]
    pub delay: String,
    /// Slow PEs, PE:FACTOR,… (a unit of work takes FACTOR time units there).
    #[arg(long, global = true, default_value = "")]
    pub slow: String,
    /// Slow links, PE:EXTRA,… (every message PE sends takes EXTRA longer).
    #[arg(long = "slow-links", global = true, default_value = "")]
    pub slow_links: String,
    /// Adversary: this fraction of splits hands over an empty piece.
    #[arg(long = "empty-splits", global = true, default_value_t = 0.0)]
    pub empty_splits: f64,
    /// Poll-and-shuffle: lay the hypercube onto the network (paper 002 §4): network (Morton
    /// labels and r·log log P fewer phases on meshes, √log P phases on fat trees) or
    /// row-major (PE numbers, every phase: the plain hypercube algorithm).
    #[arg(long, global = true, value_parser = parse_name::<treesplit::config::Embedding>)]
    pub embedding: Option<treesplit::config::Embedding>,
    /// Poll-and-shuffle without --round: the phase is C·(2·H·T_hop + T_split + Δt), H the
    /// largest hop distance between partners in a cycle (default 1).
    #[arg(long = "phase-c", global = true, conflicts_with = "round")]
    pub phase_c: Option<f64>,
    /// Charge message length (paper 002 §6.1): this much virtual time per byte of a message.
    #[arg(long = "byte-time", global = true)]
    pub byte_time: Option<f64>,
    /// With --byte-time: packet routing (hops × size) or cut-through (hops + size).
    #[arg(long, global = true, value_parser = parse_name::<treesplit::machine::sim::Routing>)]
    pub routing: Option<treesplit::machine::sim::Routing>,
    /// With --byte-time: links carry one message at a time (1/byte-time bytes per time unit);
    /// messages whose routes (the network's own: dimension order on meshes, e-cube on the
    /// hypercube, …) share a link wait for it. Runs the engine on one thread.
    #[arg(long, global = true)]
    pub contention: bool,
    /// Measure what the proof of paper 000's Theorem 1 rests on (request costs, dead times,
    /// generation levels, the finishing phase): the JSON report's `proof` block.
    #[arg(long, global = true)]
    pub proof: bool,
    /// The threads the simulator's engine runs on (the report is the same for any number).
    /// Default: the machine's cores (at most 8) from 16,384 PEs on, when the run allows it
    /// (no unit limit, random delay, proof probe or Gantt segments); one below.
    #[arg(long = "sim-threads", global = true)]
    pub sim_threads: Option<usize>,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    #[command(subcommand)]
    pub app: Offered<ToCompare>,
    /// The options of the balancers compared (each reads those that apply to it).
    #[command(flatten)]
    pub balance: BalancerOpts,
    /// The simulated machine.
    #[command(flatten)]
    pub machine: SimFlags,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub seed: SeedFlag,
    #[command(flatten)]
    pub instance: InstanceSeed,
    /// Number of simulated PEs every balancer runs on (default: 64).
    #[arg(long, global = true)]
    pub pes: Option<usize>,
    /// Draw the comparison (efficiency and T_par per balancer) to this SVG or PNG file.
    #[arg(long, global = true)]
    pub svg: Option<std::path::PathBuf>,
    /// Only these balancers, comma-separated (default: all).
    #[arg(long, global = true, value_delimiter = ',', value_parser = parse_name::<BalancerKind>)]
    pub balancers: Vec<BalancerKind>,
}

#[derive(Debug, Args)]
pub struct DstArgs {
    #[command(flatten)]
    pub common: Common,
    /// Seed of the first case: case k uses seed + k (default: 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Number of random cases.
    #[arg(long, default_value_t = 1000)]
    pub cases: u64,
    /// Largest P drawn.
    #[arg(long = "max-pes", default_value_t = 512)]
    pub max_pes: usize,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub app: Offered<ToBench>,
    /// Repetitions of each measurement (interleaved; the minimum and median are reported).
    #[arg(long, global = true, default_value_t = 3)]
    pub repeat: usize,
    /// Δt for the treesplit runs (default: the application's).
    #[arg(long = "delta-t", global = true)]
    pub delta_t: Option<u64>,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub seed: SeedFlag,
    #[command(flatten)]
    pub instance: InstanceSeed,
    /// Number of PEs P: treesplit, rayon and chili run on 1 and on P threads, beside the
    /// sequential code (default: 2).
    #[arg(long, global = true)]
    pub pes: Option<usize>,
    /// Rayon peers: fork above this tree depth, sequential below (default: the fastest of
    /// the application's cut-offs, found by a sweep).
    #[arg(long = "rayon-depth", global = true)]
    pub rayon_depth: Option<u32>,
}

/// A `--balancer` value: a tree balancer, or a DAG scheduler (only `run|sim dag` takes
/// those; master-worker and random-static name both, and the application decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BalancerName {
    Tree(BalancerKind),
    Dag(DagScheduler),
}

fn parse_balancer(s: &str) -> Result<BalancerName, String> {
    match s.parse::<BalancerKind>() {
        Ok(kind) => Ok(BalancerName::Tree(kind)),
        Err(tree) => s
            .parse::<DagScheduler>()
            .map(BalancerName::Dag)
            .map_err(|_| {
                format!("{tree} (task DAGs: master-worker, random-static, work-stealing)")
            }),
    }
}

/// A value parser for clap from the library's `FromStr` (names come from one table there).
fn parse_name<T: std::str::FromStr>(s: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    s.parse().map_err(|e: T::Err| e.to_string())
}

/// An application's subcommand (`run|sim|bench|compare APP …`): its name and the values of
/// its parameters as its own command parsed them. The subcommands come from the applications'
/// registry (`treesplit_apps::registry`, see [`Offered`]) and their parameters
/// ([`app_params`]), so this layer names no application.
#[derive(Debug, Clone)]
pub struct AppArgs {
    /// The application's name.
    pub name: String,
    /// Its parameters' values.
    pub values: Values,
}

impl FromArgMatches for AppArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        match matches.subcommand() {
            Some((name, sub)) => match registry::find(name) {
                Some(app) => Ok(AppArgs {
                    name: name.to_string(),
                    values: app_params::values(&**app, sub),
                }),
                None => Err(clap::Error::raw(
                    clap::error::ErrorKind::InvalidSubcommand,
                    format!("unknown application '{name}'"),
                )),
            },
            None => Err(clap::Error::raw(
                clap::error::ErrorKind::MissingSubcommand,
                "an application is required",
            )),
        }
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// How a subcommand uses the applications it offers, as a type (`run`, `sim`, `bench`,
/// `compare`): each lists, and parses, only the applications that can be used so
/// ([`treesplit_apps::App::offered`]).
pub trait Offering {
    /// The use.
    const USE: Use;
}

/// `run` (and `resume`).
#[derive(Debug, Clone)]
pub struct ToRun;
/// `sim`.
#[derive(Debug, Clone)]
pub struct ToSim;
/// `bench`.
#[derive(Debug, Clone)]
pub struct ToBench;
/// `compare`.
#[derive(Debug, Clone)]
pub struct ToCompare;

impl Offering for ToRun {
    const USE: Use = Use::Run;
}
impl Offering for ToSim {
    const USE: Use = Use::Sim;
}
impl Offering for ToBench {
    const USE: Use = Use::Bench;
}
impl Offering for ToCompare {
    const USE: Use = Use::Compare;
}

/// An application's subcommand among those that `U` offers; it reads as its [`AppArgs`].
#[derive(Debug, Clone)]
pub struct Offered<U>(pub AppArgs, PhantomData<U>);

impl<U> std::ops::Deref for Offered<U> {
    type Target = AppArgs;
    fn deref(&self) -> &AppArgs {
        &self.0
    }
}

impl<U: Offering> FromArgMatches for Offered<U> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        AppArgs::from_arg_matches(matches).map(|a| Offered(a, PhantomData))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl<U: Offering> Subcommand for Offered<U> {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        registry::APPS
            .iter()
            .filter(|app| app.offered(U::USE))
            .fold(cmd, |cmd, app| cmd.subcommand(app_params::command(&**app)))
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        registry::find(name).is_some_and(|app| app.offered(U::USE))
    }
}
