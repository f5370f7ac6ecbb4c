//! Run configuration: how many PEs, which balancer with which options, Δt, the seed and the
//! termination protocol. Plain data, shared by every machine, validated once here; a
//! [`ConfigError`] says what is wrong in the library's terms (the CLI maps it to its flags).
//!
//! ```
//! use treesplit::config::{StaticPermutation, TerminationKind};
//! use treesplit::{Balancer, BalancerKind, Config, Jobs, PollingOptions};
//!
//! let polling = Config::new(8).balancer(Balancer::RandomShift {
//!     polling: PollingOptions { trim: Some(2), fast_init: true, permuted_init: None },
//!     round: 100,
//! });
//! assert!(polling.validate().is_ok());
//! let bag = Config::new(8)
//!     .balancer(Balancer::RandomStatic { jobs: Jobs::Depth(12), permutation: StaticPermutation::Gf2 })
//!     .termination(TerminationKind::ResponseTree);
//! assert_eq!(bag.jobs(), Some(4096));
//! // Defaults: the number of jobs comes from the task's size estimates at run time.
//! let defaults = Config::new(8).balancer(BalancerKind::MasterWorker);
//! assert!(defaults.validate().is_ok());
//! assert_eq!(defaults.jobs(), None);
//! ```

/// The builders of what every run takes, whatever it schedules: Δt, the seed, the trace, the
/// run limits and the interrupt flag. [`Config`] and [`DagConfig`] hold these under the same
/// names, and each writes its builders with this one definition.
macro_rules! run_builders {
    () => {
        /// Builder: Δt, the work units between two polls of a busy PE's message queue.
        pub fn delta_t(mut self, delta_t: u64) -> Self {
            self.delta_t = delta_t;
            self
        }

        /// Builder: the seed.
        pub fn seed(mut self, seed: u64) -> Self {
            self.seed = seed;
            self
        }

        /// Builder: record every PE's timeline (state changes and messages) in a ring of at
        /// most `capacity` events per PE, which holds only what was recorded
        /// ([`crate::timeline::DEFAULT_TRACE_CAPACITY`] is a good default); the report then
        /// holds it in `Report::trace`.
        pub fn trace(mut self, capacity: usize) -> Self {
            self.trace = Some(capacity);
            self
        }

        /// Builder: stop after `units` work units in all (0 is rejected by `validate`).
        pub fn max_units(mut self, units: u64) -> Self {
            self.max_units = Some(units);
            self
        }

        /// Builder: stop after `limit` of wall-clock time (zero is rejected by `validate`).
        pub fn time_limit(mut self, limit: std::time::Duration) -> Self {
            self.time_limit = Some(limit);
            self
        }

        /// Builder: stop the run once `flag` is set (a signal handler or another thread sets
        /// it; see [`Config::interrupt`]).
        pub fn interrupt(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Self {
            self.interrupt = $crate::config::Interrupt(Some(flag));
            self
        }
    };
}

mod balancer;
mod dag;
mod error;
mod options;

pub use crate::names::{BadValue, UnknownName};
pub use balancer::{Balancer, BalancerKind, DagScheduler, TerminationKind, DEFAULT_ROUND};
pub use dag::DagConfig;
pub use error::ConfigError;
pub use options::{
    Adaptive, BalancerOption, BalancerOptions, BundleRule, DealOrder, Embedding, Jobs,
    PermutationKind, PermutedInit, PhaseSync, PollingOptions, StaticPermutation,
};

use serde::{Deserialize, Serialize};

/// True for 0 (serde leaves an option at its default of 0 out of serialized configs).
pub(crate) fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// Configuration of a parallel run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Number of processing elements P (≥ 1).
    pub pes: usize,
    /// The load balancer and its options.
    pub balancer: Balancer,
    /// Work units between two polls of a busy PE's message queue (Δt, ≥ 1).
    pub delta_t: u64,
    /// Seed of all randomness in the run.
    pub seed: u64,
    /// The termination detection protocol.
    pub termination: TerminationKind,
    /// Record every PE's timeline in a ring of this many events per PE (None: off, the
    /// default); see [`crate::timeline`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<usize>,
    /// Stop the run after this many work units in all (`None`: no limit). A run that reaches
    /// it ends as [`crate::Ended::Stopped`] with [`crate::Limit::Units`] and the partial report
    /// (and, with [`Config::keep_remaining`], the unfinished work); it may overshoot by up
    /// to P·Δt units (each PE finishes its slice; MPI: each rank stops at its ⌈N/P⌉ share).
    #[serde(default)]
    pub max_units: Option<u64>,
    /// Stop the run after this much wall-clock time, on every machine, the simulator included
    /// (`None`: no limit); ends like `max_units`.
    #[serde(default)]
    pub time_limit: Option<std::time::Duration>,
    /// Check the task's contract while running (`crate::check`): the budget, progress, and
    /// that splits conserve `Task::estimate`. Debug builds always check the budget.
    #[serde(default)]
    pub check: bool,
    /// A run stopped by a limit or an interrupt keeps its unfinished work instead of dropping
    /// it: `Partial::remaining` then holds every piece, so that the run can be resumed
    /// (`crate::checkpoint`). Off by default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_remaining: bool,
    /// Stop the run, as at a limit (`Limit::Interrupted`), once this flag is set: a signal
    /// handler or another thread sets it. Checked after every work slice.
    #[serde(skip)]
    pub interrupt: Interrupt,
    /// Branch-and-bound: the incumbent every PE starts from (a resumed search keeps the bound
    /// it had found), as the incumbent keeps it (`Goal::key` of a minimising task's value).
    /// `None`: no value yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incumbent: Option<i64>,
}

/// A flag that stops a run when set ([`Config::interrupt`]); unset by default. Two
/// configurations compare equal whatever their flags.
#[derive(Debug, Clone, Default)]
pub struct Interrupt(pub Option<std::sync::Arc<std::sync::atomic::AtomicBool>>);

impl Interrupt {
    /// True once the flag is set.
    pub fn is_set(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }
}

impl PartialEq for Interrupt {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Interrupt {}

/// The default Δt in work units: long enough that polling costs well under 1 % of the work
/// of the cheapest application here (N-Queens, a few ns per unit), short enough that a
/// request is answered within tens of microseconds.
pub const DEFAULT_DELTA_T: u64 = 4096;

/// The deepest static splitting accepted: 2^30 jobs.
pub const MAX_H: u32 = 30;

/// The largest P accepted (the simulator's scale; thread runs are limited by the OS).
pub const MAX_PES: usize = 1 << 22;

impl Config {
    /// Random polling on `pes` PEs with the default Δt, seed 1 and four-counter termination.
    pub fn new(pes: usize) -> Self {
        Config {
            pes,
            balancer: Balancer::default(),
            delta_t: DEFAULT_DELTA_T,
            seed: 1,
            termination: TerminationKind::FourCounter,
            trace: None,
            max_units: None,
            time_limit: None,
            check: false,
            keep_remaining: false,
            interrupt: Interrupt::default(),
            incumbent: None,
        }
    }

    /// What is left of the run limits for a further run of the same computation (an epoch
    /// of a checkpointed run, an iteration of IDA*) after `units` work units and since
    /// `started`: at least one unit and one millisecond, as a run under any limit does at
    /// least one slice.
    pub fn limits_left(mut self, units: u64, started: std::time::Instant) -> Self {
        self.max_units = self.max_units.map(|max| max.saturating_sub(units).max(1));
        self.time_limit = self.time_limit.map(|t| {
            t.saturating_sub(started.elapsed())
                .max(std::time::Duration::from_millis(1))
        });
        self
    }

    run_builders!();

    /// Builder: check the task's contract while running (see `crate::check`).
    pub fn check(mut self, check: bool) -> Self {
        self.check = check;
        self
    }

    /// Builder: keep the unfinished work of a run stopped by a limit or an interrupt (see
    /// [`Config::keep_remaining`]).
    pub fn keep_remaining(mut self, keep: bool) -> Self {
        self.keep_remaining = keep;
        self
    }

    /// Builder: the incumbent every PE starts from (see [`Config::incumbent`]).
    pub fn incumbent(mut self, value: i64) -> Self {
        self.incumbent = Some(value);
        self
    }

    /// Builder: the balancer (a [`BalancerKind`] gives it with its default options).
    pub fn balancer(mut self, balancer: impl Into<Balancer>) -> Self {
        self.balancer = balancer.into();
        self
    }

    /// Builder: the termination protocol.
    pub fn termination(mut self, kind: TerminationKind) -> Self {
        self.termination = kind;
        self
    }

    /// The number of jobs m of a static balancer: q·P for [`Jobs::PerPe`], 2^h for
    /// [`Jobs::Depth`]; random-static always uses a power of two (2^⌈log₂ qP⌉). `None` for the
    /// polling balancers, for [`Jobs::FromEstimates`] (see `task::bag::resolve_depth`) and on
    /// overflow.
    pub fn jobs(&self) -> Option<u64> {
        let m = match self.balancer.jobs()? {
            Jobs::PerPe(q) => q.checked_mul(self.pes as u64)?,
            Jobs::Depth(h) => 1u64.checked_shl(h)?,
            Jobs::FromEstimates => return None,
        };
        // A permutation of the jobs' numbers permutes 0..2^h.
        Some(if self.balancer.options().static_permutation.is_some() {
            m.checked_next_power_of_two()?
        } else {
            m
        })
    }

    /// Check the configuration: every option in range, and a static balancer's number of
    /// jobs, where given, at most 2^[`MAX_H`]. A number of jobs left to the task's estimates
    /// ([`Jobs::FromEstimates`], the default) is resolved when the run starts.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_options()?;
        if self.balancer.is_static() && self.balancer.jobs() != Some(Jobs::FromEstimates) {
            match self.jobs() {
                Some(m) if m <= 1 << MAX_H => {}
                _ => return Err(ConfigError::TooManyJobs { max_h: MAX_H }),
            }
        }
        Ok(())
    }

    /// Check everything but whether a static balancer's number of jobs is known yet.
    pub fn validate_options(&self) -> Result<(), ConfigError> {
        if self.pes == 0 {
            return Err(ConfigError::NoPes);
        }
        if self.pes > MAX_PES {
            return Err(ConfigError::TooManyPes {
                pes: self.pes,
                max: MAX_PES,
            });
        }
        if self.delta_t == 0 {
            return Err(ConfigError::ZeroDeltaT);
        }
        if let Some(capacity) = self.trace {
            if !(1..=crate::timeline::MAX_TRACE_CAPACITY).contains(&capacity) {
                return Err(ConfigError::TraceCapacity {
                    capacity,
                    max: crate::timeline::MAX_TRACE_CAPACITY,
                });
            }
        }
        if self.max_units == Some(0) {
            return Err(ConfigError::ZeroMaxUnits);
        }
        if self.time_limit.is_some_and(|t| t.is_zero()) {
            return Err(ConfigError::ZeroTimeLimit);
        }
        // The options the balancer holds, each checked whichever balancer takes it.
        let o = self.balancer.options();
        if o.round == Some(0) {
            return Err(ConfigError::ZeroRound);
        }
        if o.polling.is_some_and(|p| p.trim == Some(0)) {
            return Err(ConfigError::ZeroTrim);
        }
        if (o.permutation, o.sync) == (Some(PermutationKind::Messages), Some(PhaseSync::Local)) {
            return Err(ConfigError::LocalSyncPermutation);
        }
        if let Some(Adaptive { c, gamma }) = o.adaptive {
            if !(c.is_finite() && c > 0.0) {
                return Err(ConfigError::AdaptiveC(c));
            }
            if !(gamma > 0.0 && gamma <= 1.0) {
                return Err(ConfigError::AdaptiveGamma(gamma));
            }
        }
        match o.bundle {
            Some(BundleRule::Fixed(0)) => return Err(ConfigError::BundleSize),
            Some(BundleRule::Adaptive { c, .. }) if !(c.is_finite() && c > 0.0) => {
                return Err(ConfigError::BundleConstant(c))
            }
            Some(BundleRule::Sqrt { startup, max_job })
                if !(startup.is_finite()
                    && startup > 0.0
                    && max_job.is_finite()
                    && max_job > 0.0) =>
            {
                return Err(ConfigError::BundleSqrt { startup, max_job })
            }
            _ => {}
        }
        if o.fanout == Some(1) {
            return Err(ConfigError::Fanout);
        }
        if o.locality == Some(1) {
            return Err(ConfigError::PollWithin);
        }
        if let Some(polling) = o.polling {
            if let Some(init) = polling.permuted_init {
                if polling.fast_init {
                    return Err(ConfigError::TwoInits);
                }
                let h = init.depth_for(self.pes);
                if h > MAX_H {
                    return Err(ConfigError::InitDepth { h, max: MAX_H });
                }
            }
        }
        match o.jobs {
            Some(Jobs::Depth(h)) if h > MAX_H => Err(ConfigError::DepthTooLarge { h, max: MAX_H }),
            Some(Jobs::PerPe(0)) => Err(ConfigError::NoJobsPerPe),
            _ => Ok(()),
        }
    }
}

impl Default for Config {
    /// Random polling on every core of this machine (as rayon's default pool), seed 1.
    fn default() -> Self {
        Config::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}
