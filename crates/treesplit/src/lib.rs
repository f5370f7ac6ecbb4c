//! # treesplit
//!
//! Tree-shaped computations (backtracking, branch-and-bound, tree search, bags of jobs) on
//! many processing elements (PEs) with provably good load balance, after P. Sanders'
//! papers on random polling and tree splitting.
//!
//! The crate has one folder per layer:
//! - [`search`]: search skeletons: a node type and a lazy generator of its children become
//!   an enumeration, a decision or a branch-and-bound task.
//! - [`task`]: the task model beneath them, the lower level a user may implement directly
//!   (`work`, `split`, `is_empty`, an outcome that merges).
//! - `piece` (internal): the task and its outcome with their types erased. Only the
//!   machines' entry points know the task type; the protocols, the driver and the machines
//!   below them are compiled once for all task types.
//! - `protocol` (internal): load balancers and termination detection as per-PE state
//!   machines that do no I/O.
//! - `driver` (internal): the one loop that runs a PE's state machine on every machine:
//!   step → flush → act, rounds, incumbents, timing, statistics, the lost-work check.
//! - [`machine`]: the transports the driver runs on: threads (the default), the simulator
//!   of the papers' machine model in virtual time, and MPI (feature `mpi`); [`Machine`] is
//!   their common interface, and one run wrapper serves all three.
//! - [`config`]: what to run with: P, the balancer with its own options, Δt, the seed
//!   ([`DagConfig`] for task DAGs, [`dag`]).
//! - A run that does not fail has [`Ended`]: it finished, or a [`Limit`] stopped it and it
//!   hands back its report and its remaining pieces ([`Stopped`]); [`RunError`] is a
//!   failure. [`stats`] holds the report, [`checkpoint`] resumes a stopped computation,
//!   [`check`] checks a task's contract.
//! - [`timeline`]: what every PE did when: the trace of states and messages that the driver
//!   records on every machine when `Config::trace` asks for it, and the activity log that
//!   Gantt charts and the utilization curve are drawn from.
//! - [`words`]: counts in messages ("1 vertex", "PEs 0 and 1"), for this crate and the
//!   command line.
//!
//! ```
//! use treesplit::{run, Config, Context, Task};
//! use serde::{Deserialize, Serialize};
//!
//! /// Sum of i*i over a range, split at the middle (paper 001 §14.5.1).
//! #[derive(Clone, Serialize, Deserialize)]
//! struct Squares { lo: u64, hi: u64 }
//!
//! impl Task for Squares {
//!     type Output = u64;
//!     fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
//!         let end = self.hi.min(self.lo.saturating_add(budget));
//!         *ctx.output() += (self.lo..end).map(|i| i * i).sum::<u64>();
//!         let done = end - self.lo;
//!         self.lo = end;
//!         done
//!     }
//!     fn split(&mut self) -> Option<Self> {
//!         if self.hi - self.lo < 2 { return None; }
//!         let mid = self.lo + (self.hi - self.lo) / 2;
//!         let upper = Squares { lo: mid, hi: self.hi };
//!         self.hi = mid;
//!         Some(upper)
//!     }
//!     fn is_empty(&self) -> bool { self.lo >= self.hi }
//! }
//!
//! let report = run(Squares { lo: 0, hi: 100_000 }, &Config::new(4)).unwrap().into_report();
//! assert_eq!(report.output, (0..100_000u64).map(|i| i * i).sum::<u64>());
//! assert_eq!(report.totals.work_units, 100_000);
//! ```

#![deny(missing_docs)]
#![warn(unreachable_pub)]

mod balancers;
pub mod check;
pub mod checkpoint;
pub mod config;
pub mod dag;
mod driver;
mod ended;
mod error;
pub mod machine;
mod names;
mod piece;
mod protocol;
pub mod search;
mod sequential;
mod small_queue;
pub mod stats;
pub mod task;
pub mod timeline;
mod topology;
pub mod words;

pub use config::{
    Balancer, BalancerKind, Config, ConfigError, DagConfig, DagScheduler, Jobs, PollingOptions,
};
pub use ended::{Ended, Limit, Stopped};
pub use error::RunError;
pub use machine::{simulate, Machine, SimConfig, SimReport, Simulator, Threads};
pub use sequential::{run_sequential, run_sequential_until, SequentialReport};
pub use stats::Report;
pub use task::range::{IndexJob, IndexRange};
pub use task::{Context, Outcome, Task};

/// The README's library example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExample;

/// Run `root` in parallel on the thread machine (one OS thread per PE).
/// The run finished, or a limit or an interrupt stopped it ([`Ended`]).
pub fn run<T: Task>(root: T, config: &Config) -> Result<Ended<T>, RunError> {
    Threads::new().run(root, config)
}
