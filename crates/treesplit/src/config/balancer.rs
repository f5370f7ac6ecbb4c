//! The balancers and the options each one takes. A [`Balancer`] value carries exactly the
//! options of its algorithm, so a combination that makes no sense (a bundle rule for random
//! polling, a round length for block assignment) cannot be written.

use super::BalancerOptions;
use crate::names::named;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

named! {
    /// The load-balancing algorithms, by name (a [`Balancer`] without its options).
    pub enum BalancerKind("balancer") {
        /// Asynchronous random polling (randomized work stealing), paper 000 Fig. 1.
        RandomPolling = "random-polling",
        /// Polling of random neighbours (paper 002 §1.1): a baseline.
        NeighbourPolling = "neighbour-polling",
        /// Polling of the PE named by a global counter at PE 0 (paper 000 §1.3): a baseline.
        GlobalRoundRobin = "global-round-robin",
        /// The synchronous random shift of paper 001 §14.5.2.
        RandomShift = "random-shift",
        /// Hypercube poll-and-shuffle (paper 002 §3, §5).
        PollAndShuffle = "poll-and-shuffle",
        /// Randomized static load balancing with pseudorandom permutations (paper 004 Fig. 1).
        RandomStatic = "random-static",
        /// Static block assignment (paper 001 Fig. 14.5).
        Block = "block",
        /// Static round-robin assignment: job j to PE j mod P.
        RoundRobin = "round-robin",
        /// Static random placement: job j to a pseudorandom PE.
        RandomAssignment = "random",
        /// Master–worker (paper 001 §14.3).
        MasterWorker = "master-worker",
        /// Prefix-sum assignment of jobs with estimated sizes (paper 001 §14.2).
        PrefixSum = "prefix-sum",
    }
}

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

/// A load-balancing algorithm with its options.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
pub enum Balancer {
    /// Asynchronous random polling (randomized work stealing), paper 000 Fig. 1: an idle PE
    /// asks a uniformly random other PE.
    RandomPolling {
        /// Trimming and fast initialization.
        polling: PollingOptions,
    },
    /// Polling of random neighbours in a topology (paper 002 §1.1): a baseline.
    NeighbourPolling {
        /// Trimming and fast initialization.
        polling: PollingOptions,
        /// Whose neighbours are asked (ring, mesh, hypercube, …).
        neighbourhood: Topology,
    },
    /// Polling of the PE named by a global counter at PE 0 (paper 000 §1.3): a baseline.
    GlobalRoundRobin {
        /// Trimming and fast initialization.
        polling: PollingOptions,
    },
    /// The synchronous random shift of paper 001 §14.5.2: in rounds of length Δ, idle PE i
    /// asks PE (i + k) mod P, with one random k per round shared by all PEs.
    RandomShift {
        /// Trimming and fast initialization.
        polling: PollingOptions,
        /// The round length Δ: virtual time units in the simulator, µs on threads and MPI.
        round: u64,
    },
    /// Hypercube poll-and-shuffle (paper 002 §3, §5): phases of length Δ; after phase i idle
    /// PEs ask their partner along hypercube dimension i; after a cycle of ⌈log₂ P⌉ phases
    /// (or, adaptively, when PE 0 estimates at least γ·P idle PEs) all pieces are permuted.
    PollAndShuffle {
        /// Trimming and fast initialization.
        polling: PollingOptions,
        /// The phase length Δ: virtual time units in the simulator, µs on threads and MPI.
        round: u64,
        /// How the pieces are permuted.
        permutation: PermutationKind,
        /// Adaptive triggering (None: a permutation after every cycle).
        adaptive: Option<Adaptive>,
        /// Global phases (rounds of Δ) or local synchronization (§6.3, needs the
        /// pseudorandom permutation; Δ is then work units per phase).
        #[serde(default, skip_serializing_if = "PhaseSync::is_global")]
        sync: PhaseSync,
        /// How the hypercube is laid onto the network (paper 002 §4; the network the machine runs on).
        #[serde(default, skip_serializing_if = "Embedding::is_network")]
        embedding: Embedding,
    },
    /// Randomized static load balancing (paper 004 Fig. 1): the root split into 2^h jobs, PE
    /// i derives its share through a pseudorandom permutation.
    RandomStatic {
        /// The number of jobs.
        jobs: Jobs,
        /// The permutation family.
        permutation: StaticPermutation,
    },
    /// Static block assignment of m jobs: PE i takes jobs ⌊im/P⌋..⌊(i+1)m/P⌋.
    Block {
        /// The number of jobs.
        jobs: Jobs,
    },
    /// Static round-robin assignment: job j to PE j mod P.
    RoundRobin {
        /// The number of jobs.
        jobs: Jobs,
    },
    /// Static random placement: job j to a pseudorandom PE (q jobs per PE on average).
    #[serde(rename = "random")]
    RandomAssignment {
        /// The number of jobs.
        jobs: Jobs,
    },
    /// Master–worker (paper 001 §14.3): PE 0 deals out bundles of jobs to idle workers.
    MasterWorker {
        /// The number of jobs.
        jobs: Jobs,
        /// The bundle rule.
        bundle: BundleRule,
    },
    /// Prefix-sum assignment of jobs with estimated sizes (paper 001 §14.2).
    PrefixSum {
        /// The number of jobs.
        jobs: Jobs,
        /// Cut jobs between PEs (true) or keep them whole (false, the atomic
        /// 2-approximation).
        splittable: bool,
    },
}

impl Balancer {
    /// The balancer of `kind` with its default options (static balancers derive the number
    /// of jobs from the task's estimates).
    pub fn new(kind: BalancerKind) -> Self {
        let polling = PollingOptions::default();
        let jobs = Jobs::FromEstimates;
        match kind {
            BalancerKind::RandomPolling => Balancer::RandomPolling { polling },
            BalancerKind::NeighbourPolling => Balancer::NeighbourPolling {
                polling,
                neighbourhood: Topology::Ring,
            },
            BalancerKind::GlobalRoundRobin => Balancer::GlobalRoundRobin { polling },
            BalancerKind::RandomShift => Balancer::RandomShift {
                polling,
                round: DEFAULT_ROUND,
            },
            BalancerKind::PollAndShuffle => Balancer::PollAndShuffle {
                polling,
                round: DEFAULT_ROUND,
                permutation: PermutationKind::Pseudorandom,
                adaptive: None,
                sync: PhaseSync::Global,
                embedding: Embedding::Network,
            },
            BalancerKind::RandomStatic => Balancer::RandomStatic {
                jobs,
                permutation: StaticPermutation::Feistel,
            },
            BalancerKind::Block => Balancer::Block { jobs },
            BalancerKind::RoundRobin => Balancer::RoundRobin { jobs },
            BalancerKind::RandomAssignment => Balancer::RandomAssignment { jobs },
            BalancerKind::MasterWorker => Balancer::MasterWorker {
                jobs,
                bundle: BundleRule::Fixed(1),
            },
            BalancerKind::PrefixSum => Balancer::PrefixSum {
                jobs,
                splittable: true,
            },
        }
    }

    /// Which algorithm this is.
    pub fn kind(&self) -> BalancerKind {
        match self {
            Balancer::RandomPolling { .. } => BalancerKind::RandomPolling,
            Balancer::NeighbourPolling { .. } => BalancerKind::NeighbourPolling,
            Balancer::GlobalRoundRobin { .. } => BalancerKind::GlobalRoundRobin,
            Balancer::RandomShift { .. } => BalancerKind::RandomShift,
            Balancer::PollAndShuffle { .. } => BalancerKind::PollAndShuffle,
            Balancer::RandomStatic { .. } => BalancerKind::RandomStatic,
            Balancer::Block { .. } => BalancerKind::Block,
            Balancer::RoundRobin { .. } => BalancerKind::RoundRobin,
            Balancer::RandomAssignment { .. } => BalancerKind::RandomAssignment,
            Balancer::MasterWorker { .. } => BalancerKind::MasterWorker,
            Balancer::PrefixSum { .. } => BalancerKind::PrefixSum,
        }
    }

    /// The name used on the command line and in reports.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The options of the polling balancers (None for the static ones).
    pub fn polling(&self) -> Option<&PollingOptions> {
        match self {
            Balancer::RandomPolling { polling }
            | Balancer::NeighbourPolling { polling, .. }
            | Balancer::GlobalRoundRobin { polling }
            | Balancer::RandomShift { polling, .. }
            | Balancer::PollAndShuffle { polling, .. } => Some(polling),
            _ => None,
        }
    }

    /// Poll-and-shuffle under local synchronization (§6.3): phases without rounds.
    pub fn is_locally_synchronized(&self) -> bool {
        matches!(
            self,
            Balancer::PollAndShuffle {
                sync: PhaseSync::Local,
                ..
            }
        )
    }

    /// The round (phase) length Δ of the synchronous balancers.
    pub fn round(&self) -> Option<u64> {
        match self {
            Balancer::RandomShift { round, .. } | Balancer::PollAndShuffle { round, .. } => {
                Some(*round)
            }
            _ => None,
        }
    }

    /// The number of jobs of a static balancer (None for the polling ones).
    pub fn jobs(&self) -> Option<Jobs> {
        match self {
            Balancer::RandomStatic { jobs, .. }
            | Balancer::Block { jobs }
            | Balancer::RoundRobin { jobs }
            | Balancer::RandomAssignment { jobs }
            | Balancer::MasterWorker { jobs, .. }
            | Balancer::PrefixSum { jobs, .. } => Some(*jobs),
            _ => None,
        }
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
    /// prints a balancer as flags (DST's replay line) uses this one function; a new balancer
    /// adds its arm to the match below, which names every variant.
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
        add(&[&"--balancer", &self.name()]);
        if let Some(polling) = self.polling() {
            if let Some(trim) = polling.trim {
                add(&[&"--trim", &trim]);
            }
            if polling.fast_init {
                add(&[&"--fast-init"]);
            }
        }
        if let Some(round) = self.round() {
            add(&[&"--round", &round]);
        }
        match self.jobs() {
            Some(Jobs::Depth(h)) => add(&[&"--h", &h]),
            Some(Jobs::PerPe(q)) => add(&[&"--q", &q]),
            Some(Jobs::FromEstimates) | None => {}
        }
        match *self {
            Balancer::NeighbourPolling { neighbourhood, .. } => {
                add(&[&"--neighbourhood", &neighbourhood])
            }
            Balancer::PollAndShuffle {
                permutation,
                adaptive,
                sync,
                embedding,
                ..
            } => {
                add(&[&"--permutation", &permutation]);
                if !sync.is_global() {
                    add(&[&"--sync", &sync]);
                }
                if !embedding.is_network() {
                    add(&[&"--embedding", &embedding]);
                }
                if let Some(a) = adaptive {
                    add(&[
                        &"--adaptive",
                        &"--adaptive-c",
                        &a.c,
                        &"--adaptive-gamma",
                        &a.gamma,
                    ]);
                }
            }
            Balancer::RandomStatic { permutation, .. } => {
                add(&[&"--static-permutation", &permutation])
            }
            Balancer::MasterWorker { bundle, .. } => add(&[&"--bundle", &bundle]),
            Balancer::PrefixSum { splittable, .. } => {
                if !splittable {
                    add(&[&"--atomic-jobs"]);
                }
            }
            Balancer::RandomPolling { .. }
            | Balancer::GlobalRoundRobin { .. }
            | Balancer::RandomShift { .. }
            | Balancer::Block { .. }
            | Balancer::RoundRobin { .. }
            | Balancer::RandomAssignment { .. } => {}
        }
        flags
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

impl BalancerKind {
    /// The balancers that work on a bag of independent jobs cut from the root.
    pub const STATIC: &'static [BalancerKind] = &[
        BalancerKind::RandomStatic,
        BalancerKind::Block,
        BalancerKind::RoundRobin,
        BalancerKind::RandomAssignment,
        BalancerKind::MasterWorker,
        BalancerKind::PrefixSum,
    ];

    /// True for the balancers of [`BalancerKind::STATIC`].
    pub fn is_static(self) -> bool {
        BalancerKind::STATIC.contains(&self)
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
