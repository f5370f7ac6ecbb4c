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
}

impl Balancer {
    /// Every balancer, by its CLI name.
    pub const ALL: &'static [Balancer] = &[
        Balancer::RandomPolling,
        Balancer::NeighbourPolling,
        Balancer::GlobalRoundRobin,
        Balancer::RandomShift,
        Balancer::PollAndShuffle,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Balancer::RandomPolling => "random-polling",
            Balancer::NeighbourPolling => "neighbour-polling",
            Balancer::GlobalRoundRobin => "global-round-robin",
            Balancer::RandomShift => "random-shift",
            Balancer::PollAndShuffle => "poll-and-shuffle",
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
}

/// The default Δt in work units: long enough that polling costs well under 1 % of the work
/// of the cheapest application here (N-Queens, a few ns per unit), short enough that a
/// request is answered within tens of microseconds.
pub const DEFAULT_DELTA_T: u64 = 4096;

/// The default round length Δ of synchronous balancers: 50 (µs on real machines; in the
/// simulator, enough for a request, a split and the answer with T_rout = 10 and T_split = 5).
pub const DEFAULT_ROUND: u64 = 50;

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
        }
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
        Ok(())
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::new(1)
    }
}
