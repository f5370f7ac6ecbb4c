//! The commands layer: each subcommand runs a checked plan (`crate::plan`) and reports through
//! `crate::output`. This module holds what the commands share: the machines a plan names, as
//! one [`CliMachine`] over the library's `Machine` trait (threads with the progress line and
//! the optional baseline, MPI ranks that abort the job on a failure, the simulator with its
//! adversaries), chosen in one place ([`with_machine`]), and the static balancers' number of
//! jobs ([`resolve_jobs`]).

pub mod bench;
pub mod checkpoint;
pub mod checkpoint_file;
pub mod compare;
pub mod dag;
pub mod depth;
pub mod dst;
pub mod fault;
pub mod finish;
pub mod progress;
pub mod reproduce;
pub mod run;
pub mod scatter;
pub mod search_bench;
pub mod trees;

use crate::output::{self, plot, Failure, Notes};
use crate::plan::{MachinePlan, Published, RunPlan};
use progress::Progress;
use serde::Serialize;
use std::path::Path;
use treesplit::{
    run_sequential_until, Config, Ended, Machine, Report, RunError, SimConfig, SimReport, Task,
};
use treesplit_apps::app::{AppError, Host, Session};

/// A machine as the commands use it: the library's [`Machine`] as the applications' own
/// loops see it ([`Host`]: whether this process prints, the simulator's termination delay)
/// plus what the command line prints about its runs.
pub trait CliMachine: Host {
    /// The JSON document of one run of `app`.
    fn print_json<O: Serialize>(
        &self,
        app: String,
        published: Option<Published>,
        report: &Self::Report<O>,
    ) -> Result<(), Failure>;
    /// What the text report adds after the common summary.
    fn extra_summary<O>(&self, _report: &Self::Report<O>) -> String {
        String::new()
    }
    /// After the report: the simulator's speed (a note) and its picture.
    fn after_run<O>(
        &self,
        _report: &Self::Report<O>,
        _notes: Notes,
        _gantt: Option<&Path>,
    ) -> Result<(), Failure> {
        Ok(())
    }
}

/// `run --json` on threads and MPI.
#[derive(Serialize)]
struct ParallelJson<'a, O> {
    app: String,
    result: &'a O,
    published: Option<Published>,
    efficiency: Option<f64>,
    report: &'a Report<O>,
}

fn print_parallel_json<O: Serialize>(
    app: String,
    published: Option<Published>,
    report: &Report<O>,
) -> Result<(), Failure> {
    output::print_json(&ParallelJson {
        app,
        result: &report.output,
        published,
        efficiency: report.efficiency(),
        report,
    })
}

/// `sim --json`.
#[derive(Serialize)]
struct SimJson<'a, O> {
    app: String,
    result: &'a O,
    published: Option<Published>,
    simulation: &'a SimReport<O>,
}

/// Threads, with the progress line on stderr and, with `--baseline`, the sequential baseline
/// timed before each run.
pub struct ThreadsMachine<'a> {
    threads: treesplit::Threads<'a>,
    progress: &'a Progress,
    baseline: bool,
}

impl Machine for ThreadsMachine<'_> {
    type Report<O> = Report<O>;

    fn name(&self) -> &'static str {
        "threads"
    }

    fn run<T: Task>(&self, root: T, config: &Config) -> Result<Ended<T>, RunError> {
        // The baseline looks at the run's interrupt flag, so that a first Ctrl-C stops it and
        // then the parallel run at once (with no baseline, as it did not finish).
        let t_seq = if self.baseline {
            run_sequential_until(root.clone(), &config.interrupt).map(|r| r.t_seq)
        } else {
            None
        };
        let result = self.threads.run(root, config);
        self.progress.finish();
        Ok(result?.map_report(|mut report| {
            report.t_seq = t_seq;
            report
        }))
    }
}

impl Host for ThreadsMachine<'_> {}

impl CliMachine for ThreadsMachine<'_> {
    fn print_json<O: Serialize>(
        &self,
        app: String,
        published: Option<Published>,
        report: &Report<O>,
    ) -> Result<(), Failure> {
        print_parallel_json(app, published, report)
    }
}

/// The simulator with the empty-splits adversary.
pub struct SimMachine {
    pub sim: SimConfig,
    pub empty_splits: f64,
}

impl Machine for SimMachine {
    type Report<O> = SimReport<O>;

    fn name(&self) -> &'static str {
        "sim"
    }

    fn run<T: Task>(
        &self,
        root: T,
        config: &Config,
    ) -> Result<Ended<T, SimReport<T::Output>>, RunError> {
        treesplit::Simulator::new(self.sim.clone())
            .empty_splits(self.empty_splits)
            .run(root, config)
    }
}

impl Host for SimMachine {
    fn termination_delay<O>(&self, report: &SimReport<O>) -> Option<u64> {
        Some(report.termination_delay)
    }

    fn simulated(&self) -> bool {
        true
    }
}

impl CliMachine for SimMachine {
    fn print_json<O: Serialize>(
        &self,
        app: String,
        published: Option<Published>,
        report: &SimReport<O>,
    ) -> Result<(), Failure> {
        output::print_json(&SimJson {
            app,
            result: &report.report.output,
            published,
            simulation: report,
        })
    }

    fn extra_summary<O>(&self, report: &SimReport<O>) -> String {
        report.summary()
    }

    fn after_run<O>(
        &self,
        report: &SimReport<O>,
        notes: Notes,
        gantt: Option<&Path>,
    ) -> Result<(), Failure> {
        notes.note(report.speed());
        if let Some(path) = gantt {
            plot::draw(path, report)
                .map_err(|e| Failure::run(format!("cannot draw {}: {e}", path.display())))?;
            notes.note(format_args!("wrote {}", path.display()));
        }
        Ok(())
    }
}

#[cfg(feature = "mpi")]
mod mpi {
    use super::*;
    use treesplit::machine::mpi::Mpi;

    /// MPI ranks (the library's machine: an error once the ranks communicate aborts the job).
    impl CliMachine for Mpi {
        fn print_json<O: Serialize>(
            &self,
            app: String,
            published: Option<Published>,
            report: &Report<O>,
        ) -> Result<(), Failure> {
            print_parallel_json(app, published, report)
        }
    }

    pub fn with<U: UseMachine>(
        plan: &RunPlan,
        pes: Option<usize>,
        u: U,
    ) -> Result<U::Out, Failure> {
        let mpi = Mpi::init().map_err(Failure::run)?;
        let size = mpi.size();
        let run = || {
            if let Some(p) = pes.filter(|&p| p != size) {
                return Err(Failure::input(format!(
                    "--pes {p}, but the MPI job has {} (leave out --pes under mpirun)",
                    treesplit::words::count(size, "rank", "ranks")
                )));
            }
            u.with(&mpi, plan.balance.config(size)?)
        };
        // A failure is said while every rank is still in the job (`mpi` is dropped, which
        // finalizes MPI, only after).
        run().map_err(output::say)
    }
}

#[cfg(not(feature = "mpi"))]
mod mpi {
    use super::*;

    pub fn with<U: UseMachine>(_: &RunPlan, _: Option<usize>, _: U) -> Result<U::Out, Failure> {
        Err(Failure::input(
            "this treesplit was built without MPI support; build it with `cargo build --release --features mpi`",
        ))
    }
}

/// Something done on whichever machine a plan names (a visitor, since the machine's type
/// differs).
pub trait UseMachine {
    type Out;
    /// Work on `machine` with the balancer configuration for its P.
    fn with<M: CliMachine>(self, machine: &M, config: Config) -> Result<Self::Out, Failure>;
}

/// Run `u` on the machine `plan` names (not the sequential baseline, which is no machine).
pub fn with_machine<U: UseMachine>(plan: &RunPlan, u: U) -> Result<U::Out, Failure> {
    match &plan.machine {
        MachinePlan::Sequential => Err(Failure::input("the sequential baseline is not a machine")),
        MachinePlan::Threads { pes, baseline } => {
            let config = plan.balance.config(*pes)?;
            let progress = Progress::new(!plan.out.progress());
            let update = |units: u64, elapsed: std::time::Duration| progress.update(units, elapsed);
            let machine = ThreadsMachine {
                threads: treesplit::Threads::new().on_progress(&update),
                progress: &progress,
                baseline: *baseline,
            };
            u.with(&machine, config)
        }
        MachinePlan::Mpi { pes } => mpi::with(plan, *pes, u),
        MachinePlan::Sim {
            pes,
            sim,
            empty_splits,
            ..
        } => {
            let config = plan.balance.config(*pes)?;
            let machine = SimMachine {
                sim: sim.clone(),
                empty_splits: *empty_splits,
            };
            let spinner = progress::steps(0, "simulating", plan.out.progress());
            let result = u.with(&machine, config);
            spinner.finish_and_clear();
            result
        }
    }
}

/// What the applications' own loops (`treesplit_apps::app::Session`) get from a command:
/// its output options, its notes and the command line's words for configuration errors.
pub struct CliSession {
    pub json: bool,
    pub notes: Notes,
}

impl Session for CliSession {
    fn json(&self) -> bool {
        self.json
    }

    fn note(&self, text: &str) {
        self.notes.note(output::library_note(text));
    }

    fn print_json(&self, doc: &dyn erased_serde::Serialize) -> Result<(), AppError> {
        output::print_json(&doc).map_err(|f| AppError::RunFailed(f.message))
    }

    fn config_error(&self, e: &treesplit::ConfigError) -> String {
        output::config_error(e)
    }

    fn quiet(&self) -> &dyn Session {
        &QUIET[usize::from(self.json)]
    }
}

/// Sessions without notes, by `--json`.
static QUIET: [CliSession; 2] = [
    CliSession {
        json: false,
        notes: Notes { quiet: true },
    },
    CliSession {
        json: true,
        notes: Notes { quiet: true },
    },
];

/// A static balancer's number of jobs, measured from the root where the options leave it
/// open (`task::bag::resolve_depth`); says on stderr what it chose unless `notes` are quiet.
pub fn resolve_jobs<T: Task>(config: &Config, root: &T, notes: Notes) -> Result<Config, Failure> {
    let session = CliSession { json: false, notes }; // only its notes and error words are used
    treesplit_apps::app::resolve_jobs(config, root, &session).map_err(Failure::from)
}
