//! What a task DAG is scheduled with ([`DagConfig`]): the machines' `run_dag` entry points
//! take it instead of a [`Config`], so that options a DAG run does not support (checkpoints,
//! contract checks, the response tree, a tree balancer) cannot be written. The run limits
//! and the interrupt flag are the same as a tree run's ([`Config::max_units`],
//! [`Config::time_limit`], [`Config::interrupt`]): the PEs check them after every work slice
//! and stop the run, which ends as `Ended::Stopped` with the schedule of the tasks finished
//! until then.

use super::DEFAULT_DELTA_T;
use super::{balancer::DagScheduler, Config, ConfigError, Interrupt, TerminationKind};
use std::time::Duration;

/// Configuration of a DAG run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DagConfig {
    /// Number of processing elements P (≥ 1).
    pub pes: usize,
    /// The DAG scheduler.
    pub scheduler: DagScheduler,
    /// Work units between two polls of a busy PE's message queue (Δt, ≥ 1).
    pub delta_t: u64,
    /// Seed of all randomness in the run.
    pub seed: u64,
    /// Record every PE's timeline in a ring of this many events per PE (None: off).
    pub trace: Option<usize>,
    /// Stop the run after this many units of cost in all (`None`: no limit); as
    /// [`Config::max_units`].
    pub max_units: Option<u64>,
    /// Stop the run after this much wall-clock time (`None`: no limit); as
    /// [`Config::time_limit`].
    pub time_limit: Option<Duration>,
    /// Stop the run once this flag is set; as [`Config::interrupt`].
    pub interrupt: Interrupt,
}

impl DagConfig {
    /// `scheduler` on `pes` PEs with the default Δt and seed 1.
    pub fn new(pes: usize, scheduler: DagScheduler) -> Self {
        DagConfig {
            pes,
            scheduler,
            delta_t: DEFAULT_DELTA_T,
            seed: 1,
            trace: None,
            max_units: None,
            time_limit: None,
            interrupt: Interrupt::default(),
        }
    }

    run_builders!();

    /// The run's configuration as its report shows it (four-counter termination; the
    /// balancer is unused).
    pub fn config(&self) -> Config {
        let mut config = Config::new(self.pes)
            .delta_t(self.delta_t)
            .seed(self.seed)
            .termination(TerminationKind::FourCounter);
        config.trace = self.trace;
        config.max_units = self.max_units;
        config.time_limit = self.time_limit;
        config.interrupt = self.interrupt.clone();
        config
    }

    /// Check the options.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.config().validate_options()
    }
}
