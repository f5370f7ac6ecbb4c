//! Run configuration: how many PEs, which balancer, Δt and the seed. Plain data, shared by
//! every machine, validated once here.

use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The load-balancing algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Balancer {
    /// Asynchronous random polling (randomized work stealing), paper 000 Fig. 1.
    RandomPolling,
    /// Polling of random neighbours in `Config::neighbourhood` (paper 002 §1.1): a baseline.
    NeighbourPolling,
    /// Polling of the PE named by a global counter at PE 0 (paper 000 §1.3): a baseline.
    GlobalRoundRobin,
    /// The synchronous random shift of paper 001 §14.5.2: in rounds of length Δ, idle PE i asks
    /// PE (i + k) mod P, with one random k per round shared by all PEs.
    RandomShift,
    /// Hypercube poll-and-shuffle (paper 002 §3, §5): phases of length Δ; after phase i idle
    /// PEs ask their partner along hypercube dimension i; after ⌈log₂ P⌉ phases (or, with
    /// `adaptive`, when PE 0 estimates at least γ·P idle PEs) all pieces are permuted.
    PollAndShuffle,
    /// Randomized static load balancing (paper 004 Fig. 1): the root split into 2^h jobs, PE i
    /// derives its share through a pseudorandom permutation; no communication but the root's
    /// broadcast and the final reduction.
    RandomStatic,
    /// Static block assignment of m = q·P jobs: PE i takes jobs iq..(i+1)q (paper 001 Fig. 14.5).
    Block,
    /// Static round-robin assignment: job j to PE j mod P.
    RoundRobin,
    /// Static random placement: job j to a pseudorandom PE (paper 003's single and multiple
    /// assignment, q jobs per PE on average).
    #[serde(rename = "random")]
    RandomAssignment,
    /// Master–worker (paper 001 §14.3): PE 0 deals out bundles of jobs to idle workers.
    MasterWorker,
    /// Prefix-sum assignment of jobs with estimated sizes (paper 001 §14.2).
    PrefixSum,
}

impl Balancer {
    /// Every balancer, by its CLI name.
    pub const ALL: &'static [Balancer] = &[
        Balancer::RandomPolling,
        Balancer::NeighbourPolling,
        Balancer::GlobalRoundRobin,
        Balancer::RandomShift,
        Balancer::PollAndShuffle,
        Balancer::RandomStatic,
        Balancer::Block,
        Balancer::RoundRobin,
        Balancer::RandomAssignment,
        Balancer::MasterWorker,
        Balancer::PrefixSum,
    ];

    /// The balancers that work on a bag of independent jobs cut from the root (`task::bag`).
    pub const STATIC: &'static [Balancer] = &[
        Balancer::RandomStatic,
        Balancer::Block,
        Balancer::RoundRobin,
        Balancer::RandomAssignment,
        Balancer::MasterWorker,
        Balancer::PrefixSum,
    ];

    /// True for the balancers of [`Balancer::STATIC`].
    pub fn is_static(self) -> bool {
        Balancer::STATIC.contains(&self)
    }

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Balancer::RandomPolling => "random-polling",
            Balancer::NeighbourPolling => "neighbour-polling",
            Balancer::GlobalRoundRobin => "global-round-robin",
            Balancer::RandomShift => "random-shift",
            Balancer::PollAndShuffle => "poll-and-shuffle",
            Balancer::RandomStatic => "random-static",
            Balancer::Block => "block",
            Balancer::RoundRobin => "round-robin",
            Balancer::RandomAssignment => "random",
            Balancer::MasterWorker => "master-worker",
            Balancer::PrefixSum => "prefix-sum",
        }
    }
}

impl fmt::Display for Balancer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Balancer {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Balancer::ALL
            .iter()
            .copied()
            .find(|b| b.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Balancer::ALL.iter().map(|b| b.name()).collect();
                format!("unknown balancer '{s}' (known: {})", names.join(", "))
            })
    }
}

/// How the end of the computation is detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TerminationKind {
    /// Four-counter waves over the binary tree of PEs (paper 000 §2).
    FourCounter,
    /// Responses along the tree of pieces (paper 001 §14.5.3).
    ResponseTree,
}

impl TerminationKind {
    /// Both, by CLI name.
    pub const ALL: &'static [TerminationKind] =
        &[TerminationKind::FourCounter, TerminationKind::ResponseTree];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            TerminationKind::FourCounter => "four-counter",
            TerminationKind::ResponseTree => "response-tree",
        }
    }
}

impl fmt::Display for TerminationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TerminationKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        TerminationKind::ALL
            .iter()
            .copied()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                format!("unknown termination protocol '{s}' (known: four-counter, response-tree)")
            })
    }
}

/// How poll-and-shuffle permutes the subproblems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PermutationKind {
    /// Random destinations, local shuffle, prefix sum, final placement (paper 002 §3.2).
    Messages,
    /// A pseudorandom bijection of the PEs every PE computes itself (no extra messages).
    Pseudorandom,
}

impl FromStr for PermutationKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "messages" => Ok(PermutationKind::Messages),
            "pseudorandom" => Ok(PermutationKind::Pseudorandom),
            _ => Err(format!(
                "unknown permutation '{s}' (known: messages, pseudorandom)"
            )),
        }
    }
}

impl fmt::Display for PermutationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PermutationKind::Messages => "messages",
            PermutationKind::Pseudorandom => "pseudorandom",
        })
    }
}

/// The permutation family of randomized static load balancing (paper 004 §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StaticPermutation {
    /// A full-period linear congruential sequence mod 2^h.
    Lcg,
    /// Powers of a generator of GF(2^h), zero inserted at a random place.
    Gf2,
    /// A four-round Feistel network (paper 001 §14.4.1).
    Feistel,
    /// No permutation: every job goes to an independent pseudorandom PE (random placement).
    Random,
}

impl StaticPermutation {
    /// All, by CLI name.
    pub const ALL: &'static [StaticPermutation] = &[
        StaticPermutation::Lcg,
        StaticPermutation::Gf2,
        StaticPermutation::Feistel,
        StaticPermutation::Random,
    ];
    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            StaticPermutation::Lcg => "lcg",
            StaticPermutation::Gf2 => "gf2",
            StaticPermutation::Feistel => "feistel",
            StaticPermutation::Random => "random",
        }
    }
}

impl fmt::Display for StaticPermutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for StaticPermutation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        StaticPermutation::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown permutation '{s}' (known: lcg, gf2, feistel, random)"))
    }
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

impl FromStr for BundleRule {
    type Err = String;
    /// `fixed:B`, `sqrt:ALPHA:TMAX` or `adaptive:C:WMIN`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!("bad bundle rule '{s}' (expected fixed:B, sqrt:STARTUP:MAX_JOB or adaptive:C:W_MIN)")
        };
        let parts: Vec<&str> = s.split(':').collect();
        let num = |i: usize| -> Result<f64, String> {
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

/// Configuration of a parallel run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Number of processing elements P (≥ 1).
    pub pes: usize,
    /// The load balancer.
    pub balancer: Balancer,
    /// Work units between two polls of a busy PE's message queue (Δt, ≥ 1).
    pub delta_t: u64,
    /// Seed of all randomness in the run.
    pub seed: u64,
    /// Whose neighbours neighbour polling asks (ring, mesh, hypercube, …).
    pub neighbourhood: Topology,
    /// The termination detection protocol.
    pub termination: TerminationKind,
    /// Trimming of request queues (paper 000 §4): a busy PE serves at most this many
    /// requests between two work slices and rejects the rest (None: serve all).
    pub trim: Option<u32>,
    /// Round length Δ of synchronous balancers (random shift): virtual time units in the
    /// simulator, microseconds on threads and MPI.
    pub round: u64,
    /// Poll-and-shuffle: trigger permutations adaptively (paper 002 §5) instead of after every
    /// cycle of ⌈log₂ P⌉ phases.
    pub adaptive: bool,
    /// Poll-and-shuffle: how subproblems are permuted.
    pub permutation: PermutationKind,
    /// Adaptive poll-and-shuffle: an idle PE notifies PE 0 with probability c/P.
    pub adaptive_c: f64,
    /// Adaptive poll-and-shuffle: permute when at least γ·P PEs are estimated idle.
    pub adaptive_gamma: f64,
    /// Fast initialization (exercise 14.7 of paper 001): broadcast the root and split it
    /// locally ⌊log₂ P⌋ times, so that up to P PEs start busy. Needs a deterministic `split`.
    pub fast_init: bool,
    /// Static balancers: split the root into 2^h jobs (`task::bag`).
    pub h: Option<u32>,
    /// Static balancers: q jobs per PE (m = q·P; random-static rounds m up to a power of two).
    pub jobs_per_pe: Option<u64>,
    /// Random-static: the permutation family.
    pub static_permutation: StaticPermutation,
    /// Master–worker: the bundle rule.
    pub bundle: BundleRule,
    /// Prefix-sum: cut jobs between PEs (true) or keep them whole (false, the atomic
    /// 2-approximation).
    pub splittable: bool,
}

/// The default Δt in work units: long enough that polling costs well under 1 % of the work
/// of the cheapest application here (N-Queens, a few ns per unit), short enough that a
/// request is answered within tens of microseconds.
pub const DEFAULT_DELTA_T: u64 = 4096;

/// The default round length Δ of synchronous balancers: 50 (µs on real machines; in the
/// simulator, enough for a request, a split and the answer with T_rout = 10 and T_split = 5).
pub const DEFAULT_ROUND: u64 = 50;

/// The error of a static balancer given no number of jobs.
pub fn missing_jobs(balancer: Balancer) -> String {
    format!(
        "{balancer} needs the number of jobs: give --h (2^h jobs), --q (jobs per PE) or --h-from-alpha A (h from Theorem 3 of paper 004)"
    )
}

/// The deepest static splitting accepted: 2^30 jobs.
pub const MAX_H: u32 = 30;

/// The largest P accepted (the simulator's scale; thread runs are limited by the OS).
pub const MAX_PES: usize = 1 << 20;

impl Config {
    /// Random polling on `pes` PEs with the default Δt and seed 1.
    pub fn new(pes: usize) -> Self {
        Config {
            pes,
            balancer: Balancer::RandomPolling,
            delta_t: DEFAULT_DELTA_T,
            seed: 1,
            neighbourhood: Topology::Ring,
            termination: TerminationKind::FourCounter,
            trim: None,
            round: DEFAULT_ROUND,
            adaptive: false,
            permutation: PermutationKind::Messages,
            adaptive_c: 4.0,
            adaptive_gamma: 0.25,
            fast_init: false,
            h: None,
            jobs_per_pe: None,
            static_permutation: StaticPermutation::Feistel,
            bundle: BundleRule::Fixed(1),
            splittable: true,
        }
    }

    /// Builder: static balancers split the root into 2^h jobs.
    pub fn h(mut self, h: Option<u32>) -> Self {
        self.h = h;
        self
    }

    /// Builder: static balancers use q jobs per PE.
    pub fn jobs_per_pe(mut self, q: Option<u64>) -> Self {
        self.jobs_per_pe = q;
        self
    }

    /// Builder: the permutation of random-static.
    pub fn static_permutation(mut self, kind: StaticPermutation) -> Self {
        self.static_permutation = kind;
        self
    }

    /// Builder: the bundle rule of master–worker.
    pub fn bundle(mut self, rule: BundleRule) -> Self {
        self.bundle = rule;
        self
    }

    /// Builder: splittable (true) or atomic prefix-sum assignment.
    pub fn splittable(mut self, on: bool) -> Self {
        self.splittable = on;
        self
    }

    /// The number of jobs m of the static balancers: q·P with `jobs_per_pe`, else 2^h;
    /// random-static always uses a power of two (2^⌈log₂ qP⌉). `None` without either.
    pub fn jobs(&self) -> Option<u64> {
        let m = match (self.jobs_per_pe, self.h) {
            (Some(q), _) => q.checked_mul(self.pes as u64)?,
            (None, Some(h)) => 1u64.checked_shl(h)?,
            (None, None) => return None,
        };
        Some(if self.balancer == Balancer::RandomStatic {
            m.next_power_of_two()
        } else {
            m
        })
    }

    /// Builder: set the balancer.
    pub fn balancer(mut self, balancer: Balancer) -> Self {
        self.balancer = balancer;
        self
    }

    /// Builder: set Δt.
    pub fn delta_t(mut self, delta_t: u64) -> Self {
        self.delta_t = delta_t;
        self
    }

    /// Builder: set the neighbourhood of neighbour polling.
    pub fn neighbourhood(mut self, topology: Topology) -> Self {
        self.neighbourhood = topology;
        self
    }

    /// Builder: serve at most `limit` requests per poll (trimming).
    pub fn trim(mut self, limit: Option<u32>) -> Self {
        self.trim = limit;
        self
    }

    /// Builder: the termination protocol.
    pub fn termination(mut self, kind: TerminationKind) -> Self {
        self.termination = kind;
        self
    }

    /// Builder: the round length Δ of synchronous balancers.
    pub fn round(mut self, round: u64) -> Self {
        self.round = round;
        self
    }

    /// Builder: adaptive permutations of poll-and-shuffle with parameters c and γ.
    pub fn adaptive(mut self, on: bool, c: f64, gamma: f64) -> Self {
        self.adaptive = on;
        self.adaptive_c = c;
        self.adaptive_gamma = gamma;
        self
    }

    /// Builder: how poll-and-shuffle permutes.
    pub fn permutation(mut self, kind: PermutationKind) -> Self {
        self.permutation = kind;
        self
    }

    /// Builder: fast initialization on or off.
    pub fn fast_init(mut self, on: bool) -> Self {
        self.fast_init = on;
        self
    }

    /// Builder: set the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Check the configuration; the error says what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_options()?;
        if self.balancer.is_static() {
            match self.jobs() {
                None => return Err(missing_jobs(self.balancer)),
                Some(m) if m > 1 << MAX_H => {
                    return Err(format!("more than 2^{MAX_H} jobs are not supported"))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// Check everything but the static balancers' number of jobs (which
    /// `task::bag::resolve_depth` may still derive from the root).
    pub fn validate_options(&self) -> Result<(), String> {
        if self.pes == 0 {
            return Err("the number of PEs must be at least 1".into());
        }
        if self.pes > MAX_PES {
            return Err(format!(
                "{} PEs is more than the supported {MAX_PES}",
                self.pes
            ));
        }
        if !(self.adaptive_c.is_finite() && self.adaptive_c > 0.0) {
            return Err(format!(
                "adaptive-c must be a positive number, got {}",
                self.adaptive_c
            ));
        }
        if !(self.adaptive_gamma > 0.0 && self.adaptive_gamma <= 1.0) {
            return Err(format!(
                "adaptive-gamma must be in (0, 1], got {}",
                self.adaptive_gamma
            ));
        }
        if self.round == 0 {
            return Err("the round length must be at least 1".into());
        }
        if self.trim == Some(0) {
            return Err("trim must be at least 1 (leave it out to serve every request)".into());
        }
        if self.delta_t == 0 {
            return Err("delta-t must be at least 1 work unit".into());
        }
        if self.balancer.is_static() {
            if self.h.is_some_and(|h| h > MAX_H) {
                return Err(format!(
                    "--h {} is more than the supported {MAX_H}",
                    self.h.unwrap_or(0)
                ));
            }
            if self.jobs_per_pe == Some(0) {
                return Err("--q (jobs per PE) must be at least 1".into());
            }
        }
        if let BundleRule::Adaptive { c, .. } = self.bundle {
            if !(c.is_finite() && c > 0.0) {
                return Err(format!("the bundle constant C must be positive, got {c}"));
            }
        }
        Ok(())
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::new(1)
    }
}
