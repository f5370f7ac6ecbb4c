//! The boundary between the applications and the command line. Each application implements
//! [`App`] (its subcommand from its own clap `Args`) and [`Parse`] (how those arguments
//! become its own instance type); the registry lists them and turns each
//! instance into the registry's enum of instances, which nothing here names. What an instance
//! cannot do (no single timeline, no checkpoints, no rayon peer, …) is a fact of the
//! application, stated as [`Refusal`]s in the command line's words by its
//! [`Instance`](crate::instance::Instance), so that the command line turns them into errors
//! without naming any application. Applications that run as a sequence of computations (IDA*,
//! level-synchronous BFS) run their own loop on a [`Host`] machine, reporting through a
//! [`Session`].

use clap::{ArgMatches, Command};
use treesplit::{ConfigError, Machine, RunError};

/// One application as the command line sees it.
pub trait App: Sync {
    /// Its subcommand's name (`treesplit run NAME`).
    fn name(&self) -> &'static str;

    /// Its subcommand: the name, the help and the arguments of its own clap `Args`.
    fn command(&self) -> Command;

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

    /// Whether these arguments read the instance from standard input (`-` as a path).
    fn reads_stdin(&self, _args: &ArgMatches) -> bool {
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

    /// The instance the arguments name, checked. `given` says whether the user gave the
    /// argument with this clap id anywhere on the command line (defaults do not count).
    fn parse(
        &self,
        args: &ArgMatches,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<Self::Instance, String>;
}

/// The arguments of one application's subcommand, typed: `Args` of the application parsed
/// from its matches (a clap error here is a bug in the application's command, reported as bad
/// input).
pub fn typed<A: clap::FromArgMatches>(args: &ArgMatches) -> Result<A, String> {
    A::from_arg_matches(args).map_err(|e| e.to_string())
}

/// The same `Command` with `A`'s arguments and help.
pub fn command<A: clap::Args>(name: &'static str) -> Command {
    A::augment_args(Command::new(name))
}

/// Flags (clap id, as typed) an application refuses in some use, and why; the command line
/// reports the first one given as `FLAG WHY`.
#[derive(Debug, Clone, Copy)]
pub struct Refusal {
    /// The flags, as (clap id, flag).
    pub flags: &'static [(&'static str, &'static str)],
    /// Why, after the flag's name.
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

/// The run limits and the contract check, as refused flags.
pub const LIMIT_FLAGS: &[(&str, &str)] = &[
    ("max_units", "--max-units"),
    ("time_limit", "--time-limit"),
    ("check", "--check"),
];

/// How an application's own loop failed, in the command line's exit-code classes.
#[derive(Debug)]
pub enum Failed {
    /// Bad input (exit code 2).
    Input(String),
    /// A failed run (exit code 1).
    Run(String),
    /// A wrong answer (exit code 3).
    Wrong(String),
    /// A run's error from the library, classified by the command line like any other run's.
    Lib(RunError),
    /// A run limit or an interrupt stopped a computation of the loop (a failed run, exit 1).
    Stopped {
        /// What stopped it.
        limit: treesplit::Limit,
        /// The work units done until the stop.
        work_units: u64,
        /// The stopped computation's T_par.
        t_par: f64,
    },
}

impl Failed {
    /// The report of a computation that ran to its end; one that a limit or an interrupt
    /// stopped is [`Failed::Stopped`] with what it did.
    pub fn unless_stopped<T, O, R: AsRef<treesplit::Report<O>>>(
        ended: treesplit::Ended<T, R>,
    ) -> Result<R, Failed> {
        match ended {
            treesplit::Ended::Finished(r) => Ok(r),
            treesplit::Ended::Stopped(s) => {
                let r = s.report.as_ref();
                Err(Failed::Stopped {
                    limit: s.limit,
                    work_units: r.totals.work_units,
                    t_par: r.t_par,
                })
            }
        }
    }
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
    fn print_json(&self, doc: &dyn erased_serde::Serialize) -> Result<(), Failed>;
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
) -> Result<treesplit::Config, Failed> {
    let resolved = treesplit::task::bag::resolve_depth(config, root)
        .map_err(|e| Failed::Input(session.config_error(&e)))?;
    if let Some(note) = &resolved.note {
        session.note(&note.to_string());
    }
    Ok(resolved.config)
}
