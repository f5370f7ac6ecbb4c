//! The balancers and the options each one takes. A [`Balancer`] value carries exactly the
//! options of its algorithm, so a combination that makes no sense (a bundle rule for random
//! polling, a round length for block assignment) cannot be written. [`BalancerKind`] and
//! [`Balancer`] are written from the balancer table (`crate::balancers`, one row per
//! balancer) by `balancer_config!` below; what is said here of every balancer (its flags, its
//! round, its jobs) reads the balancer's options ([`Balancer::options`]) and names no
//! variant. The options' own types (bundle rules, permutations, …) are defined here too.

use super::options::{given, put, record, BalancerOption, BalancerOptions};
use crate::names::named;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

named! {
    /// The schedulers of task DAGs (paper 001 §14.6), given in `DagConfig`.
    pub enum DagScheduler("DAG scheduler") {
        /// The master (PE 0) is told of finished tasks and hands ready ones to idle workers.
        MasterWorker = "master-worker",
        /// The owner of a task is a pseudorandom permutation of its id; each PE runs its
        /// ready tasks, completions go to the owners of the successors.
        RandomStatic = "random-static",
        /// Each PE keeps its ready tasks; idle PEs steal by random polling; a completion
        /// makes successors ready at their owners.
        WorkStealing = "work-stealing",
    }
}

impl DagScheduler {
    /// The PEs that run tasks on `p` PEs: master–worker's master runs none when p > 1.
    pub fn workers(self, p: usize) -> usize {
        match self {
            DagScheduler::MasterWorker if p > 1 => p - 1,
            _ => p,
        }
    }
}

named! {
    /// How the end of the computation is detected.
    pub enum TerminationKind("termination protocol") {
        /// Four-counter waves over the binomial tree of PEs (paper 000 §2).
        FourCounter = "four-counter",
        /// Responses along the tree of pieces (paper 001 §14.5.3).
        ResponseTree = "response-tree",
    }
}

named! {
    /// How poll-and-shuffle permutes the subproblems at the end of a cycle.
    pub enum PermutationKind("permutation") {
        /// Random destinations, local shuffle, prefix sum over the network's hypercube, final
        /// placement (paper 002 §3.2).
        Messages = "messages",
        /// A composition of precomputed random generators of S_P that every PE computes
        /// itself (no extra messages; paper 002 §3.2). The default.
        Pseudorandom = "pseudorandom",
    }
}

named! {
    /// How poll-and-shuffle's PEs agree on phases (paper 002 §6.3).
    #[derive(Default)]
    pub enum PhaseSync("synchronization") {
        /// A global clock: phase r starts at r·Δ on every PE (the machine's rounds).
        #[default]
        Global = "global",
        /// Local synchronization (Fig. 4): no clock; hypercube partners exchange a phase
        /// marker and pair up only when both have finished the same phase; a busy PE's phase
        /// is Δ work units, and it keeps working while it waits for its partner.
        Local = "local",
    }
}

impl PhaseSync {
    /// True for the default, [`PhaseSync::Global`] (reports leave it out).
    pub fn is_global(&self) -> bool {
        *self == PhaseSync::Global
    }
}

named! {
    /// The permutation family of randomized static load balancing (paper 004 §4).
    pub enum StaticPermutation("permutation") {
        /// A full-period linear congruential sequence mod 2^h.
        Lcg = "lcg",
        /// Powers of a generator of GF(2^h), zero inserted at a random place.
        Gf2 = "gf2",
        /// A four-round Feistel network (paper 001 §14.4.1).
        Feistel = "feistel",
        /// No permutation: every job goes to an independent pseudorandom PE.
        Random = "random",
    }
}

/// Options of every polling balancer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PollingOptions {
    /// Trimming of request queues (paper 000 §4): a busy PE serves at most this many requests
    /// between two work slices and rejects the rest (None: serve all).
    pub trim: Option<u32>,
    /// Fast initialization (exercise 14.7 of paper 001): broadcast the root and split it
    /// locally ⌊log₂ P⌋ times, so that up to P PEs start busy. Needs a deterministic `split`.
    pub fast_init: bool,
}

/// Adaptive triggering of poll-and-shuffle's permutations (paper 002 §5).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Adaptive {
    /// An idle PE notifies PE 0 with probability c/P at the end of a phase.
    pub c: f64,
    /// Permute when at least γ·P PEs are estimated idle.
    pub gamma: f64,
}

impl Default for Adaptive {
    fn default() -> Self {
        Adaptive {
            c: 4.0,
            gamma: 0.25,
        }
    }
}

/// How many jobs a static balancer cuts from the root (`task::bag`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Jobs {
    /// 2^h jobs.
    Depth(u32),
    /// q jobs per PE: m = q·P (random-static rounds m up to a power of two).
    PerPe(u64),
    /// The depth of Theorem 3 of paper 004 for the α measured from the task's size estimates
    /// (`task::bag::resolve_depth`); tasks without estimates must give the number.
    FromEstimates,
}

/// How master–worker sizes its bundles (paper 001 §14.3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BundleRule {
    /// b jobs per bundle.
    Fixed(u64),
    /// b = √(α·m / t̂): α the startup cost of a message and t̂ the largest job, both in work
    /// units, m the number of jobs.
    Sqrt {
        /// Message startup cost α (work units).
        startup: f64,
        /// Upper bound t̂ on a job's work (work units).
        max_job: f64,
    },
    /// Jobs worth W/(P·C) + W_min estimated units, W the estimated work not yet handed out
    /// (jobs count 1 each when the task gives no estimates).
    Adaptive {
        /// The tuning constant C.
        c: f64,
        /// The tuning constant W_min (estimated units).
        w_min: u64,
    },
}

/// A bundle rule that does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadBundleRule(pub String);

impl fmt::Display for BadBundleRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad bundle rule '{}' (expected fixed:B with B ≥ 1 jobs, sqrt:STARTUP:MAX_JOB with both > 0, or adaptive:C:W_MIN with C > 0)",
            self.0
        )
    }
}

impl std::error::Error for BadBundleRule {}

impl FromStr for BundleRule {
    type Err = BadBundleRule;
    /// `fixed:B`, `sqrt:ALPHA:TMAX` or `adaptive:C:WMIN`.
    fn from_str(s: &str) -> Result<Self, BadBundleRule> {
        let bad = || BadBundleRule(s.to_string());
        let parts: Vec<&str> = s.split(':').collect();
        let num = |i: usize| -> Result<f64, BadBundleRule> {
            parts
                .get(i)
                .and_then(|x| x.parse::<f64>().ok())
                .filter(|x| x.is_finite() && *x > 0.0)
                .ok_or_else(bad)
        };
        match (parts[0], parts.len()) {
            ("fixed", 2) => Ok(BundleRule::Fixed(
                parts[1].parse().ok().filter(|&b| b > 0).ok_or_else(bad)?,
            )),
            ("sqrt", 3) => Ok(BundleRule::Sqrt {
                startup: num(1)?,
                max_job: num(2)?,
            }),
            ("adaptive", 3) => Ok(BundleRule::Adaptive {
                c: num(1)?,
                w_min: parts[2].parse().map_err(|_| bad())?,
            }),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for BundleRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BundleRule::Fixed(b) => write!(f, "fixed:{b}"),
            BundleRule::Sqrt { startup, max_job } => write!(f, "sqrt:{startup}:{max_job}"),
            BundleRule::Adaptive { c, w_min } => write!(f, "adaptive:{c}:{w_min}"),
        }
    }
}

/// The default round length Δ of synchronous balancers: 50 (µs on real machines; in the
/// simulator, enough for a request, a split and the answer with T_rout = 10 and T_split = 5).
pub const DEFAULT_ROUND: u64 = 50;

/// Writes, from the balancer table (`crate::balancers`), [`BalancerKind`], [`Balancer`] and
/// what is read off the rows: the defaults, the kind, which option each field is, and the
/// static balancers.
macro_rules! balancer_config {
    (
        state_machines { $($state_machines:tt)* }
        dynamic { $($dynamic:tt)* }
        static { $($bag:tt)* }
    ) => {
        balancer_config! { @rows $($dynamic)* $($bag)* }

        impl BalancerKind {
            /// The balancers that work on a bag of independent jobs cut from the root.
            pub const STATIC: &'static [BalancerKind] = balancer_config!(@kinds $($bag)*);
        }
    };
    (@kinds $( $(#[$doc:meta])* $variant:ident { $($row:tt)* } )*) => {
        &[$(BalancerKind::$variant),*]
    };
    (@rows $(
        $(#[$doc:meta])*
        $variant:ident {
            name: $name:literal,
            kind: $kind:literal,
            runs: $runs:ident,
            options: {
                $( $(#[$field_meta:meta])* $field:ident: $ty:ty = $default:expr => $option:ident, )*
            },
        }
    )*) => {
        named! {
            /// The load-balancing algorithms, by name (a [`Balancer`] without its options).
            pub enum BalancerKind("balancer") {
                $( #[doc = $kind] $variant = $name, )*
            }
        }

        /// A load-balancing algorithm with its options.
        #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "name")]
        pub enum Balancer {
            $(
                $(#[$doc])*
                #[serde(rename = $name)]
                $variant {
                    $( $(#[$field_meta])* $field: $ty, )*
                },
            )*
        }

        impl Balancer {
            /// The balancer of `kind` with its default options (static balancers derive the
            /// number of jobs from the task's estimates).
            pub fn new(kind: BalancerKind) -> Self {
                match kind {
                    $( BalancerKind::$variant => Balancer::$variant { $( $field: $default, )* }, )*
                }
            }

            /// Which algorithm this is.
            pub fn kind(&self) -> BalancerKind {
                match self {
                    $( Balancer::$variant { .. } => BalancerKind::$variant, )*
                }
            }

            /// Put the options given in `o` that this balancer takes into it, and every option
            /// it takes into `taken`: the one place that says which balancer takes which option.
            pub(super) fn apply(&mut self, o: &BalancerOptions, taken: &mut Vec<BalancerOption>) {
                match self {
                    $( Balancer::$variant { $($field),* } => {
                        $( put($field, given!(o.$option), BalancerOption::$option, taken); )*
                    } )*
                }
            }

            /// Every option this balancer takes, with its value, as options gathered for it:
            /// `self.options().balancer(self.kind())` is `self`.
            pub fn options(&self) -> BalancerOptions {
                let mut o = BalancerOptions::default();
                match *self {
                    $( Balancer::$variant { $($field),* } => {
                        $( record!(o.$option = $field); )*
                    } )*
                }
                o
            }

            /// The options of the polling balancers (None for the static ones).
            pub fn polling(&self) -> Option<&PollingOptions> {
                match self {
                    $( Balancer::$variant { $($field),* } => {
                        None $( .or(polling_field!($option, $field)) )*
                    } )*
                }
            }
        }
    };
}

/// `Some(field)` where a field of the table is the [`BalancerOption::Polling`] option.
macro_rules! polling_field {
    (Polling, $field:ident) => {
        Some($field)
    };
    ($option:ident, $field:ident) => {{
        let _ = $field;
        None
    }};
}

crate::balancers::balancer_table!(balancer_config);

impl Balancer {
    /// The name used on the command line and in reports.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// Poll-and-shuffle under local synchronization (§6.3): phases without rounds.
    pub fn is_locally_synchronized(&self) -> bool {
        self.options().sync == Some(PhaseSync::Local)
    }

    /// The round (phase) length Δ of the synchronous balancers.
    pub fn round(&self) -> Option<u64> {
        self.options().round
    }

    /// The number of jobs of a static balancer (None for the polling ones).
    pub fn jobs(&self) -> Option<Jobs> {
        self.options().jobs
    }

    /// Set the number of jobs of a static balancer (no effect on the polling ones).
    pub fn with_jobs(self, jobs: Jobs) -> Self {
        self.with(&BalancerOptions {
            jobs: Some(jobs),
            ..BalancerOptions::default()
        })
    }

    /// True for the balancers that work on a bag of jobs cut from the root.
    pub fn is_static(&self) -> bool {
        self.jobs().is_some()
    }

    /// The command-line flags that give this very balancer to `treesplit sim` and `run`:
    /// `--balancer NAME` and a flag for each option it takes (the CLI's `BalancerOpts`), so
    /// that the command line builds this value back (the CLI's plan tests parse them). The
    /// options whose default the machine decides (round, neighbourhood) are always written;
    /// the others where they differ from what the command line assumes. `--embedding` is the
    /// simulator's flag (`sim`, `compare`), written only for an embedding other than the
    /// network's: on threads and MPI the hypercube is the plain one. Every program that
    /// prints a balancer as flags (DST's replay line) uses this one function; it reads the
    /// balancer's options ([`Balancer::options`]), so a new balancer needs nothing here, and
    /// a new option its flag.
    ///
    /// ```
    /// use treesplit::{Balancer, Jobs};
    /// let b = Balancer::Block { jobs: Jobs::Depth(5) };
    /// assert_eq!(b.flags().join(" "), "--balancer block --h 5");
    /// ```
    pub fn flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        let mut add = |words: &[&dyn fmt::Display]| {
            flags.extend(words.iter().map(|w| w.to_string()));
        };
        let o = self.options();
        add(&[&"--balancer", &self.name()]);
        if let Some(polling) = o.polling {
            if let Some(trim) = polling.trim {
                add(&[&"--trim", &trim]);
            }
            if polling.fast_init {
                add(&[&"--fast-init"]);
            }
        }
        if let Some(round) = o.round {
            add(&[&"--round", &round]);
        }
        match o.jobs {
            Some(Jobs::Depth(h)) => add(&[&"--h", &h]),
            Some(Jobs::PerPe(q)) => add(&[&"--q", &q]),
            Some(Jobs::FromEstimates) | None => {}
        }
        if let Some(neighbourhood) = o.neighbourhood {
            add(&[&"--neighbourhood", &neighbourhood]);
        }
        if let Some(permutation) = o.permutation {
            add(&[&"--permutation", &permutation]);
        }
        if let Some(sync) = o.sync.filter(|s| !s.is_global()) {
            add(&[&"--sync", &sync]);
        }
        if let Some(embedding) = o.embedding.filter(|e| !e.is_network()) {
            add(&[&"--embedding", &embedding]);
        }
        if let Some(a) = o.adaptive {
            add(&[
                &"--adaptive",
                &"--adaptive-c",
                &a.c,
                &"--adaptive-gamma",
                &a.gamma,
            ]);
        }
        if let Some(permutation) = o.static_permutation {
            add(&[&"--static-permutation", &permutation]);
        }
        if let Some(bundle) = o.bundle {
            add(&[&"--bundle", &bundle]);
        }
        if o.splittable == Some(false) {
            add(&[&"--atomic-jobs"]);
        }
        flags
    }
}

impl BalancerKind {
    /// True for the balancers of [`BalancerKind::STATIC`].
    pub fn is_static(self) -> bool {
        BalancerKind::STATIC.contains(&self)
    }
}

impl Default for Balancer {
    fn default() -> Self {
        Balancer::new(BalancerKind::RandomPolling)
    }
}

impl From<BalancerKind> for Balancer {
    fn from(kind: BalancerKind) -> Self {
        Balancer::new(kind)
    }
}

impl fmt::Display for Balancer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

named! {
    /// How poll-and-shuffle lays its hypercube onto the network.
    pub enum Embedding("embedding") {
        /// The network's own plan (`treesplit::embedding`): Morton labels and omitted phases on
        /// meshes, sub fat trees on fat trees, the plain hypercube elsewhere.
        Network = "network",
        /// PE numbers as labels (row-major on meshes) and all ⌈log₂ P⌉ phases, on every
        /// network: the hypercube algorithm of §3 run as it is.
        RowMajor = "row-major",
    }
}

impl Embedding {
    /// True for the default, [`Embedding::Network`] (left out of serialized configs).
    pub fn is_network(&self) -> bool {
        *self == Embedding::Network
    }
}

#[allow(clippy::derivable_impls)] // the enum is written by `named!`
impl Default for Embedding {
    fn default() -> Self {
        Embedding::Network
    }
}
