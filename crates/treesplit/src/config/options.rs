//! The options a balancer may take: their types (polling's, the round, the number of jobs,
//! the permutations, the bundle rule, …), their names ([`BalancerOption`]), and
//! [`BalancerOptions`], the options gathered before a balancer is chosen. A front end that
//! offers every balancer's options at once (a command line, a harness that draws random
//! configurations) gathers them here and builds the balancer it chooses from them
//! ([`BalancerOptions::balancer`], in `balancer.rs`, where which balancer takes which option is
//! read off the balancer table). `slot!` is the one list of where each option is gathered;
//! `given!` and `record!` read and write a balancer's field of an option through it (the
//! balancer table names each field's option). This file names no balancer: a new balancer
//! needs nothing here; a new kind of option adds its type, its [`BalancerOption`], its field of
//! [`BalancerOptions`] and its line in `slot!`.

use crate::names::{named, BadValue};
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

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

named! {
    /// The order in which a master deals out its jobs (paper 001 §14.3).
    #[derive(Default)]
    pub enum DealOrder("deal order") {
        /// The jobs in their order in the bag (job 0 first). The default.
        #[default]
        InOrder = "in-order",
        /// Large tasks first: the jobs in non-increasing estimated size (`Task::estimate`; ties
        /// in bag order), Graham's LPT list schedule with its 4/3 − 1/(3p) approximation ratio
        /// when the estimates are exact. The master cuts the whole bag before it deals.
        LargestFirst = "largest-first",
    }
}

impl DealOrder {
    /// True for the default, [`DealOrder::InOrder`] (reports leave it out).
    pub fn is_in_order(&self) -> bool {
        *self == DealOrder::InOrder
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
    /// Permutation-based initialization (paper 004 §5.1): broadcast the root and let every PE
    /// cut its share of the static decomposition placed through a pseudorandom permutation,
    /// so that the load is about even in every subnetwork (`protocol::polling::permuted_init`).
    /// Needs a deterministic `split`; excludes `fast_init`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permuted_init: Option<PermutedInit>,
}

/// Permutation-based initialization (paper 004 §5.1): the 2^h jobs of the static
/// decomposition (`assignment::cutter`), PE i starting with jobs π(j) for
/// j ∈ ⌊i·2^h/P⌋..⌊(i+1)·2^h/P⌋ — randomized static load balancing's placement (paper 004
/// Fig. 1) — before dynamic balancing takes over. Written `PERM` or `PERM:H`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermutedInit {
    /// The permutation family (lcg, gf2, feistel; `random`: independent random placement).
    pub permutation: StaticPermutation,
    /// h, the splitting depth (None: ⌈log₂ P⌉ + 2, about four jobs per PE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

impl PermutedInit {
    /// The splitting depth h on `p` PEs.
    pub fn depth_for(&self, p: usize) -> u32 {
        self.depth
            .unwrap_or_else(|| usize::BITS - p.max(1).saturating_sub(1).leading_zeros() + 2)
    }
}

impl FromStr for PermutedInit {
    type Err = BadValue;
    /// `PERM` or `PERM:H`.
    fn from_str(s: &str) -> Result<Self, BadValue> {
        let bad = || BadValue {
            what: "permuted initialization",
            given: s.to_string(),
            expected:
                "use PERM or PERM:H, PERM one of lcg, gf2, feistel, random and H a splitting depth",
        };
        let (name, depth) = match s.split_once(':') {
            Some((name, h)) => (name, Some(h.parse::<u32>().map_err(|_| bad())?)),
            None => (s, None),
        };
        Ok(PermutedInit {
            permutation: name.parse().map_err(|_| bad())?,
            depth,
        })
    }
}

impl fmt::Display for PermutedInit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.depth {
            Some(h) => write!(f, "{}:{h}", self.permutation),
            None => write!(f, "{}", self.permutation),
        }
    }
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

impl FromStr for BundleRule {
    type Err = BadValue;
    /// `fixed:B`, `sqrt:ALPHA:TMAX` or `adaptive:C:WMIN`.
    fn from_str(s: &str) -> Result<Self, BadValue> {
        let bad = || {
            BadValue {
            what: "bundle rule",
            given: s.to_string(),
            expected: "expected fixed:B with B ≥ 1 jobs, sqrt:STARTUP:MAX_JOB with both > 0, or adaptive:C:W_MIN with C > 0",
        }
        };
        let parts: Vec<&str> = s.split(':').collect();
        let num = |i: usize| -> Result<f64, BadValue> {
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

/// An option that only some balancers take: a field of some [`crate::Balancer`] variants
/// ([`crate::BalancerKind::takes`] says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BalancerOption {
    /// Trimming and fast initialization ([`PollingOptions`]).
    Polling,
    /// The round (phase) length Δ.
    Round,
    /// Whose neighbours are asked.
    Neighbourhood,
    /// How poll-and-shuffle permutes the pieces ([`PermutationKind`]).
    Permutation,
    /// Adaptive triggering of permutations ([`Adaptive`]).
    Adaptive,
    /// How phases are synchronized ([`PhaseSync`]).
    Sync,
    /// How a hypercube is laid onto the network ([`Embedding`]).
    Embedding,
    /// The number of jobs cut from the root ([`Jobs`]).
    Jobs,
    /// The permutation that places jobs ([`StaticPermutation`]).
    StaticPermutation,
    /// The bundle rule ([`BundleRule`]).
    Bundle,
    /// Whether jobs may be cut between PEs.
    Splittable,
    /// The order in which a master deals out jobs ([`DealOrder`]).
    Order,
    /// How many PEs a submaster of hierarchical master–worker serves, itself included.
    Fanout,
    /// Local polling: the block of PEs random victims are drawn from (0: all).
    Locality,
}

/// Options for a balancer not chosen yet, each `None` where not given.
/// [`BalancerOptions::balancer`] builds the balancer of a kind with the options it takes and
/// its defaults ([`crate::Balancer::new`]) for the rest; [`BalancerOptions::unused`] names the
/// options given that it does not take.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BalancerOptions {
    /// [`BalancerOption::Polling`].
    pub polling: Option<PollingOptions>,
    /// [`BalancerOption::Round`].
    pub round: Option<u64>,
    /// [`BalancerOption::Neighbourhood`].
    pub neighbourhood: Option<Topology>,
    /// [`BalancerOption::Permutation`]; not given, it is the pseudorandom one under local
    /// synchronization ([`PhaseSync::Local`] needs it).
    pub permutation: Option<PermutationKind>,
    /// [`BalancerOption::Adaptive`]: adaptive triggering with these constants.
    pub adaptive: Option<Adaptive>,
    /// [`BalancerOption::Sync`].
    pub sync: Option<PhaseSync>,
    /// [`BalancerOption::Embedding`].
    pub embedding: Option<Embedding>,
    /// [`BalancerOption::Jobs`].
    pub jobs: Option<Jobs>,
    /// [`BalancerOption::StaticPermutation`].
    pub static_permutation: Option<StaticPermutation>,
    /// [`BalancerOption::Bundle`].
    pub bundle: Option<BundleRule>,
    /// [`BalancerOption::Splittable`].
    pub splittable: Option<bool>,
    /// [`BalancerOption::Order`].
    pub order: Option<DealOrder>,
    /// [`BalancerOption::Fanout`] (0: ⌈√P⌉).
    pub fanout: Option<u64>,
    /// [`BalancerOption::Locality`] (0: the whole machine).
    pub locality: Option<u64>,
}

/// Put `value`, where given, in `place`, and count `option` as taken (`Balancer::apply`,
/// written from the balancer table).
pub(super) fn put<T>(
    place: &mut T,
    value: Option<T>,
    option: BalancerOption,
    taken: &mut Vec<BalancerOption>,
) {
    taken.push(option);
    if let Some(value) = value {
        *place = value;
    }
}

/// `slot!(o.Option)`: the field of [`BalancerOptions`] `o` that holds that
/// [`BalancerOption`] — the one list of where each option is gathered (the balancer table names
/// each field's option; [`given!`] and [`record!`] read and write it here).
macro_rules! slot {
    ($o:ident.Polling) => {
        $o.polling
    };
    ($o:ident.Round) => {
        $o.round
    };
    ($o:ident.Neighbourhood) => {
        $o.neighbourhood
    };
    ($o:ident.Permutation) => {
        $o.permutation
    };
    ($o:ident.Adaptive) => {
        $o.adaptive
    };
    ($o:ident.Sync) => {
        $o.sync
    };
    ($o:ident.Embedding) => {
        $o.embedding
    };
    ($o:ident.Jobs) => {
        $o.jobs
    };
    ($o:ident.StaticPermutation) => {
        $o.static_permutation
    };
    ($o:ident.Bundle) => {
        $o.bundle
    };
    ($o:ident.Splittable) => {
        $o.splittable
    };
    ($o:ident.Order) => {
        $o.order
    };
    ($o:ident.Fanout) => {
        $o.fanout
    };
    ($o:ident.Locality) => {
        $o.locality
    };
}

/// `given!(o.Option)`: the value that [`BalancerOptions`] `o` gives for a balancer's field of
/// that [`BalancerOption`], if any, in the field's own type (`Balancer::apply`).
macro_rules! given {
    // Local synchronization needs the pseudorandom permutation: it is the default there.
    ($o:ident.Permutation) => {
        $o.permutation
            .or(($o.sync == Some($crate::config::PhaseSync::Local))
                .then_some($crate::config::PermutationKind::Pseudorandom))
    };
    // Given: adaptive triggering with these constants; not given: the balancer's default.
    ($o:ident.Adaptive) => {
        $o.adaptive.map(Some)
    };
    ($o:ident.$option:ident) => {
        $crate::config::options::slot!($o.$option)
    };
}

/// `record!(o.Option = value)`: write a balancer's field of that [`BalancerOption`] into
/// [`BalancerOptions`] `o`, the inverse of [`given!`] (`Balancer::options`).
macro_rules! record {
    ($o:ident.Adaptive = $value:expr) => {
        $o.adaptive = $value
    };
    ($o:ident.$option:ident = $value:expr) => {{
        let slot = &mut $crate::config::options::slot!($o.$option);
        *slot = Some($value);
    }};
}

pub(super) use {given, record, slot};

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
