//! The boundary between the applications and the command line. Each application implements
//! [`App`] (its name, its help and its parameters as plain data, [`Param`]s) and [`Parse`]
//! (how their [`Values`] become its own instance type); the registry lists them and turns each
//! instance into the registry's enum of instances, which nothing here names. What an instance
//! cannot do (no single timeline, no checkpoints, no rayon peer, …) is a fact of the
//! application, stated as [`Refusal`]s of [`RunOption`]s by its
//! [`Instance`](crate::instance::Instance), so that the command line turns them into errors
//! without naming any application. Applications that run as a sequence of computations (IDA*,
//! level-synchronous BFS) run their own loop on a [`Host`] machine, reporting through a
//! [`Session`].

pub use crate::error::AppError;
pub use crate::params::{Param, Values};
use treesplit::{ConfigError, Machine};

/// One application as the command line sees it.
pub trait App: Sync {
    /// Its subcommand's name (`treesplit run NAME`).
    fn name(&self) -> &'static str;

    /// What the application computes, one paragraph: its subcommand's help.
    fn about(&self) -> &'static str;

    /// The longer help of its subcommand (`--help`), where it says more than [`App::about`].
    fn long_about(&self) -> Option<&'static str> {
        None
    }

    /// Its parameters, in the order the help lists them.
    fn params(&self) -> &'static [Param];

    /// Whether the command line offers the application for `used` (`run`, `sim`, `bench`,
    /// `compare`): each of those subcommands lists, and parses, only the applications it can
    /// run.
    fn offered(&self, _used: Use) -> bool {
        true
    }

    /// What kind of computation the application is: a tree-shaped task (the default), run by
    /// the tree balancers, or a task DAG, run by the DAG schedulers through the library's DAG
    /// entry points.
    fn computation(&self) -> Computation {
        Computation::Tree
    }

    /// Whether these values read the instance from standard input (`-` as a path).
    fn reads_stdin(&self, _values: &Values) -> bool {
        false
    }

    /// The default depth cut-off of the application's rayon peer (`--rayon-depth`), where its
    /// peer has one.
    fn rayon_depth(&self) -> Option<u32> {
        None
    }

    /// The arguments of a small instance after the application's name, as words; `{data}`
    /// stands for the test kit's data folder (the registry's tests parse every example).
    fn example(&self) -> &'static [&'static str];
}

/// How an application's arguments become its instance.
pub trait Parse: App {
    /// The application's instance type (the registry's line names it too).
    type Instance;

    /// The instance the values name, checked (a bad one is [`AppError::BadInput`]).
    /// `given` says whether the user gave a run option (the run's limits, …) beside it.
    fn parse(
        &self,
        values: &Values,
        given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError>;
}

/// A run option that an instance may refuse in some use, or take as its own parameter; the
/// command line names each by its flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOption {
    /// The sequential baseline timed beside a parallel run.
    Baseline,
    /// The run's trace of events.
    Trace,
    /// The run's Gantt chart.
    Gantt,
    /// A limit on the work units of a run.
    MaxUnits,
    /// A limit on the wall-clock time of a run.
    TimeLimit,
    /// The check of a task's contract during a run.
    Check,
    /// A checkpoint written at the end of a run.
    Checkpoint,
    /// A checkpoint written every so often.
    CheckpointEvery,
    /// The subproblems per PE (q).
    JobsPerPe,
    /// The seed of a run.
    Seed,
}

impl RunOption {
    /// Every run option.
    pub const ALL: &'static [RunOption] = &[
        RunOption::Baseline,
        RunOption::Trace,
        RunOption::Gantt,
        RunOption::MaxUnits,
        RunOption::TimeLimit,
        RunOption::Check,
        RunOption::Checkpoint,
        RunOption::CheckpointEvery,
        RunOption::JobsPerPe,
        RunOption::Seed,
    ];
    /// The run limits and the contract check.
    pub const LIMITS: &'static [RunOption] =
        &[RunOption::MaxUnits, RunOption::TimeLimit, RunOption::Check];
    /// The options that need a single timeline.
    pub const TIMELINE: &'static [RunOption] = &[RunOption::Trace, RunOption::Gantt];
    /// The checkpoints.
    pub const CHECKPOINTS: &'static [RunOption] =
        &[RunOption::Checkpoint, RunOption::CheckpointEvery];
}

/// Run options an instance refuses in some use, and why; the command line reports the first
/// one given by its flag, followed by `why`.
#[derive(Debug, Clone, Copy)]
pub struct Refusal {
    /// The options, in the order they are looked for.
    pub options: &'static [RunOption],
    /// Why, after the option's flag.
    pub why: &'static str,
}

/// What kind of computation an application is ([`App::computation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Computation {
    /// A tree-shaped task ([`treesplit::Task`]).
    Tree,
    /// A task DAG ([`treesplit::dag::Dag`]).
    Dag,
}

/// How an instance is used: each use has its own refusals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// `treesplit run` on a parallel machine.
    Run,
    /// `treesplit sim`.
    Sim,
    /// `treesplit bench`.
    Bench,
    /// `treesplit compare`.
    Compare,
    /// An injected fault (`TREESPLIT_FAULT`).
    Fault,
}

/// A machine an application's own loop runs its computations on (the command line's
/// threads, MPI ranks or simulator).
pub trait Host: Machine {
    /// Whether this process prints the results (false on MPI ranks other than 0).
    fn prints(&self) -> bool {
        true
    }
    /// The termination detection delay of a simulated run (virtual time units).
    fn termination_delay<O>(&self, _report: &Self::Report<O>) -> Option<u64> {
        None
    }
    /// Whether this is the simulator (virtual time).
    fn simulated(&self) -> bool {
        false
    }
}

/// MPI ranks: rank 0 prints.
#[cfg(feature = "mpi")]
impl Host for treesplit::machine::mpi::Mpi {
    fn prints(&self) -> bool {
        self.rank() == 0
    }
}

/// What the command line gives an application's own loop: its output options and its words
/// for the library's configuration errors.
pub trait Session {
    /// `--json`: one JSON document on stdout.
    fn json(&self) -> bool;
    /// A note on stderr (silent under `--quiet` and on MPI ranks other than 0).
    fn note(&self, text: &str);
    /// Print the run's JSON document.
    fn print_json(&self, doc: &dyn erased_serde::Serialize) -> Result<(), AppError>;
    /// A configuration error in the command line's words.
    fn config_error(&self, e: &ConfigError) -> String;
    /// The same session, without notes (a loop says some things once).
    fn quiet(&self) -> &dyn Session;
}

/// A static balancer's number of jobs, measured from `root` where the options leave it open;
/// the choice goes to `session`'s notes.
pub fn resolve_jobs<T: treesplit::Task>(
    config: &treesplit::Config,
    root: &T,
    session: &dyn Session,
) -> Result<treesplit::Config, AppError> {
    let resolved = treesplit::task::bag::resolve_depth(config, root)
        .map_err(|e| AppError::BadInput(session.config_error(&e)))?;
    if let Some(note) = &resolved.note {
        session.note(&note.to_string());
    }
    Ok(resolved.config)
}
