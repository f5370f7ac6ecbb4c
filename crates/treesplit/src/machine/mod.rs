//! Machines: the transports the one PE driver runs on, and the [`Machine`] trait over them.
//!
//! A machine owns the I/O (channels, MPI, virtual time); the protocols own the decisions and
//! the driver (`crate::driver`) runs them, the same code on every machine. [`Machine`] lets
//! code that runs several computations in a row (IDA*'s iterations) be written once for all
//! of them. What a run does around the machine's own work (resolving the jobs, contract
//! checks, erasing the task's type and restoring it, panics, gathering the PEs' ends, the
//! report, run limits) is written once, in `run.rs`, for all three.

/// The [`Machine`] impl of one of this crate's machines: its name, its report type, and how
/// it runs a root (`|machine, root, config| …`), then any other methods.
macro_rules! machine {
    ($machine:ty, $name:literal, $report:ident, |$m:ident, $root:ident, $config:ident| $run:expr
     $(, $item:item)*) => {
        impl $crate::machine::Machine for $machine {
            type Report<O> = $report<O>;

            fn name(&self) -> &'static str {
                $name
            }

            fn run<T: $crate::task::Task>(
                &self,
                root: T,
                config: &$crate::config::Config,
            ) -> Result<$crate::ended::Ended<T, $report<T::Output>>, $crate::error::RunError> {
                let ($m, $root, $config) = (self, root, config);
                $run
            }

            $($item)*
        }
    };
}

#[cfg(feature = "mpi")]
pub mod mpi;
mod run;
pub mod sim;
pub mod threads;

pub use sim::{simulate, simulate_dag, SimConfig, SimReport, Simulator};
pub use threads::Threads;

use crate::config::Config;
use crate::ended::Ended;
use crate::error::RunError;
use crate::stats::Report;
use crate::task::Task;

/// A machine that runs a task on `config.pes` PEs: [`Threads`], the [`Simulator`], or MPI.
pub trait Machine {
    /// What a run reports on this machine (the simulator adds its virtual-time figures).
    type Report<O>: AsRef<Report<O>> + AsMut<Report<O>>;

    /// The machine's name in reports ("threads", "sim", "mpi").
    fn name(&self) -> &'static str;

    /// Run `root` with `config`: the run finished, or a limit or an interrupt stopped it. Every
    /// process gets the report (MPI: rank 0 broadcasts it); the remaining pieces of a stopped
    /// run are rank 0's alone.
    fn run<T: Task>(
        &self,
        root: T,
        config: &Config,
    ) -> Result<Ended<T, Self::Report<T::Output>>, RunError>;

    /// Make rank 0's `values` known to every process (MPI: a broadcast; nothing to do on
    /// machines that run in one process). Multi-run drivers share what rank 0 learned from a
    /// report this way, so all ranks take the same decision about the next run.
    fn share_from_0(&self, _values: &mut [u64]) {}
}

impl<O> AsRef<Report<O>> for Report<O> {
    fn as_ref(&self) -> &Report<O> {
        self
    }
}

impl<O> AsMut<Report<O>> for Report<O> {
    fn as_mut(&mut self) -> &mut Report<O> {
        self
    }
}

machine!(Threads<'_>, "threads", Report, |m, root, config| {
    Threads::run(m, root, config)
});
