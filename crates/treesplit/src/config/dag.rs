//! What a task DAG is scheduled with ([`DagConfig`]): the machines' `run_dag` entry points
//! take it instead of a [`Config`], so that options a DAG run does not support (run limits,
//! interrupts, checkpoints, contract checks, the response tree, a tree balancer) cannot be
//! written.

use super::{balancer::DagScheduler, Config, ConfigError, TerminationKind, DEFAULT_DELTA_T};

/// Configuration of a DAG run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
        }
    }

    /// Builder: Δt.
    pub fn delta_t(mut self, delta_t: u64) -> Self {
        self.delta_t = delta_t;
        self
    }

    /// Builder: the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Builder: record every PE's timeline in a ring of `capacity` events per PE.
    pub fn trace(mut self, capacity: usize) -> Self {
        self.trace = Some(capacity);
        self
    }

    /// The run's configuration as its report shows it (four-counter termination; the
    /// balancer is unused).
    pub fn config(&self) -> Config {
        let mut config = Config::new(self.pes)
            .delta_t(self.delta_t)
            .seed(self.seed)
            .termination(TerminationKind::FourCounter);
        config.trace = self.trace;
        config
    }

    /// Check the options.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.config().validate_options()
    }
}
