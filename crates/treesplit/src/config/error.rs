//! What can be wrong with a configuration, in the library's terms. The CLI names its own
//! flags when it reports these; other front ends can do the same.

use std::fmt;

/// Why a [`super::Config`] (or a simulated machine) cannot run.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigError {
    /// P = 0.
    NoPes,
    /// More PEs than supported.
    TooManyPes {
        /// PEs asked for.
        pes: usize,
        /// The largest P supported.
        max: usize,
    },
    /// Δt = 0.
    ZeroDeltaT,
    /// A trace ring of 0 events, or more than supported.
    TraceCapacity {
        /// Events per PE asked for.
        capacity: usize,
        /// The largest capacity supported.
        max: usize,
    },
    /// A round (phase) length of 0.
    ZeroRound,
    /// A trimming limit of 0.
    ZeroTrim,
    /// Adaptive poll-and-shuffle: c is not a positive number.
    AdaptiveC(f64),
    /// Adaptive poll-and-shuffle: γ is not in (0, 1].
    AdaptiveGamma(f64),
    /// Poll-and-shuffle with local synchronization and the permutation by messages (a
    /// collective timed by rounds): local synchronization needs the pseudorandom permutation.
    LocalSyncPermutation,
    /// Master–worker: a fixed bundle of 0 jobs.
    BundleSize,
    /// Master–worker: the adaptive bundle constant C is not positive.
    BundleConstant(f64),
    /// Master–worker: the √ rule's parameters are not positive.
    BundleSqrt {
        /// α.
        startup: f64,
        /// t̂.
        max_job: f64,
    },
    /// Hierarchical master–worker: a fan-out of 1 (a submaster with no workers).
    Fanout,
    /// Local polling in blocks of 1 PE (nobody to ask).
    PollWithin,
    /// Fast initialization and permutation-based initialization together.
    TwoInits,
    /// Permutation-based initialization deeper than the static decomposition supports.
    InitDepth {
        /// h asked for.
        h: u32,
        /// The largest h supported.
        max: u32,
    },
    /// A static balancer asked for more than 2^max splitting depth.
    DepthTooLarge {
        /// h asked for.
        h: u32,
        /// The largest h supported.
        max: u32,
    },
    /// A static balancer asked for 0 jobs per PE.
    NoJobsPerPe,
    /// A static balancer's bag would hold more than 2^max_h jobs.
    TooManyJobs {
        /// log₂ of the largest bag supported.
        max_h: u32,
    },
    /// More PEs than the thread machine runs (one OS thread each).
    TooManyThreads {
        /// PEs asked for.
        pes: usize,
        /// The most the thread machine runs.
        max: usize,
    },
    /// The machine has a different number of PEs than the configuration (MPI ranks).
    PesMismatch {
        /// P in the configuration.
        pes: usize,
        /// PEs of the machine.
        machine: usize,
    },
    /// A simulator parameter names a PE that does not exist.
    NoSuchPe {
        /// What names it ("slow PE", "slow link").
        what: &'static str,
        /// The PE named.
        pe: usize,
        /// P.
        pes: usize,
    },
    /// A slowness factor is not a finite number ≥ 1.
    Slowness {
        /// The PE.
        pe: usize,
        /// The factor.
        factor: f64,
    },
    /// A simulated latency of 0 (messages cannot be instantaneous).
    ZeroLatency,
    /// The polling interval's α (paper 000 §2) outside (0, 1].
    PollAlpha(f64),
    /// The simulator's engine cannot run on that many threads.
    EngineThreads {
        /// The threads asked for.
        threads: usize,
        /// Why not.
        why: String,
    },
    /// A hop latency on the crossbar other than T_rout (a message there takes T_rout).
    HopOnCrossbar {
        /// T_hop given.
        t_hop: u64,
        /// T_rout.
        t_rout: u64,
    },
    /// Under the blocking model, T_send + T_recv below T_rout (paper 000 §1.1 charges the PEs
    /// T_rout per message).
    BlockingOverheads {
        /// T_send.
        t_send: u64,
        /// T_recv.
        t_recv: u64,
        /// T_rout.
        t_rout: u64,
    },
    /// A simulator time parameter above the supported maximum.
    SimTimeTooLarge {
        /// Which parameter.
        what: &'static str,
        /// Its value.
        value: f64,
        /// The largest value accepted.
        max: u64,
    },
    /// The simulation's virtual time would pass 2^63 (parameters too large for the run).
    VirtualTimeOverflow,
    /// A limit of 0 work units.
    ZeroMaxUnits,
    /// A time limit of zero.
    ZeroTimeLimit,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::NoPes => write!(f, "the number of PEs must be at least 1"),
            ConfigError::TooManyPes { pes, max } => {
                write!(f, "{pes} PEs is more than the supported {max}")
            }
            ConfigError::ZeroDeltaT => write!(f, "Δt must be at least 1 work unit"),
            ConfigError::TraceCapacity { capacity, max } => write!(
                f,
                "a trace keeps 1 to {max} events per PE, not {capacity}"
            ),
            ConfigError::ZeroRound => write!(f, "the round length must be at least 1"),
            ConfigError::ZeroTrim => write!(
                f,
                "the trimming limit must be at least 1 (leave it out to serve every request)"
            ),
            ConfigError::AdaptiveC(c) => {
                write!(f, "the adaptive constant c must be a positive number, got {c}")
            }
            ConfigError::AdaptiveGamma(g) => {
                write!(f, "the adaptive threshold γ must be in (0, 1], got {g}")
            }
            ConfigError::LocalSyncPermutation => write!(
                f,
                "local synchronization has no rounds to time the permutation by messages; use the pseudorandom permutation"
            ),
            ConfigError::BundleSize => write!(f, "a bundle must hold at least 1 job"),
            ConfigError::Fanout => write!(
                f,
                "the fan-out of hierarchical master–worker must be at least 2 PEs per group (or 0: ⌈√P⌉)"
            ),
            ConfigError::PollWithin => write!(
                f,
                "local polling needs blocks of at least 2 PEs (or 0: every PE)"
            ),
            ConfigError::TwoInits => write!(
                f,
                "fast initialization and permutation-based initialization are two ways to start; choose one"
            ),
            ConfigError::InitDepth { h, max } => write!(
                f,
                "a permuted initialization of depth {h} is more than the supported {max}"
            ),
            ConfigError::BundleConstant(c) => {
                write!(f, "the bundle constant C must be positive, got {c}")
            }
            ConfigError::BundleSqrt { startup, max_job } => write!(
                f,
                "the √ bundle rule needs a positive startup cost and largest job, got {startup} and {max_job}"
            ),
            ConfigError::DepthTooLarge { h, max } => {
                write!(f, "a splitting depth of {h} is more than the supported {max}")
            }
            ConfigError::NoJobsPerPe => write!(f, "the jobs per PE must be at least 1"),
            ConfigError::TooManyJobs { max_h } => {
                write!(f, "more than 2^{max_h} jobs are not supported")
            }
            ConfigError::TooManyThreads { pes, max } => write!(
                f,
                "{pes} PEs is more than the thread machine runs ({max}, one OS thread each); simulate larger machines"
            ),
            ConfigError::PesMismatch { pes, machine } => write!(
                f,
                "the configuration asks for {} but the machine has {machine}",
                crate::words::count(pes, "PE", "PEs")
            ),
            ConfigError::NoSuchPe { what, pe, pes } => {
                write!(f, "{what} {pe} does not exist (P = {pes})")
            }
            ConfigError::Slowness { pe, factor } => write!(
                f,
                "slowness factor of PE {pe} must be a number in [1, 10^6], got {factor}"
            ),
            ConfigError::SimTimeTooLarge { what, value, max } => write!(
                f,
                "{what} of {value} is more than the simulator supports ({max} time units)"
            ),
            ConfigError::VirtualTimeOverflow => write!(
                f,
                "the simulation's virtual time passed 2^63 units: its times or Δt are too large"
            ),
            ConfigError::ZeroMaxUnits => write!(f, "the limit of work units must be at least 1"),
            ConfigError::ZeroTimeLimit => write!(f, "the time limit must be more than zero"),
            ConfigError::EngineThreads { threads, why } => write!(
                f,
                "the simulator's engine cannot run on {threads} threads: {why}"
            ),
            ConfigError::PollAlpha(alpha) => write!(
                f,
                "α of the polling interval (a busy PE polls at least every Δt and at most every αΔt) must be in (0, 1], got {alpha}"
            ),
            ConfigError::ZeroLatency => write!(
                f,
                "the message latency must be at least 1 (messages cannot be instantaneous)"
            ),
            ConfigError::HopOnCrossbar { t_hop, t_rout } => write!(
                f,
                "a hop latency of {t_hop} on the crossbar, where a message takes T_rout = {t_rout}: T_hop is the latency per hop of the other networks"
            ),
            ConfigError::BlockingOverheads {
                t_send,
                t_recv,
                t_rout,
            } => write!(
                f,
                "the blocking message model charges sending and receiving at least T_rout = {t_rout}, but T_send + T_recv = {t_send} + {t_recv}; use the latency-only model for smaller overheads"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}
