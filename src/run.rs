//! `treesplit run`: one application on the thread machine (default), on MPI ranks
//! (`--machine mpi` under mpirun, with the `mpi` feature), or sequentially.

use crate::app::{App, AppVisitor, Published};
use crate::args::{MachineArg, RunOpts};
use crate::fault::{self, Faulty};
use crate::{print_published, progress, verdict, Failure};
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::config::DEFAULT_ROUND;
use treesplit::topology::Topology;
use treesplit::{run_sequential, Config, Report, Task, Threads};

pub fn run(app: &App, opts: &RunOpts) -> Result<(), Failure> {
    if let App::Puzzle15(spec) = app {
        return crate::ida::run(spec, opts);
    }
    app.visit(RunApp { app, opts })
}

struct RunApp<'a> {
    app: &'a App,
    opts: &'a RunOpts,
}

impl AppVisitor for RunApp<'_> {
    type Out = Result<(), Failure>;

    /// Wrap the task in the injected fault when `TREESPLIT_FAULT` asks for one.
    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        published: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug,
    {
        match fault::from_env().map_err(Failure::input)? {
            Some(f) => execute(
                || Faulty::new(make_root(), f),
                self.app,
                self.opts,
                published,
            ),
            None => execute(make_root, self.app, self.opts, published),
        }
    }
}

#[derive(Serialize)]
struct SequentialJson<'a, O> {
    app: String,
    result: &'a O,
    work_units: u64,
    t_seq: f64,
    published: Option<Published>,
}

#[derive(Serialize)]
struct ParallelJson<'a, O> {
    app: String,
    result: &'a O,
    published: Option<Published>,
    efficiency: Option<f64>,
    report: &'a Report<O>,
}

fn execute<T: Task>(
    make_root: impl Fn() -> T,
    app: &App,
    opts: &RunOpts,
    published: impl Fn(&T::Output) -> Option<Published>,
) -> Result<(), Failure>
where
    T::Output: Display,
{
    if opts.sequential {
        let r = run_sequential(make_root());
        let check = published(&r.output);
        if opts.json {
            let j = SequentialJson {
                app: app.describe(),
                result: &r.output,
                work_units: r.work_units,
                t_seq: r.t_seq,
                published: check.clone(),
            };
            println!(
                "{}",
                serde_json::to_string_pretty(&j).map_err(|e| Failure::input(e.to_string()))?
            );
        } else {
            println!("{}: {}", app.describe(), r.output);
            print_published(&check);
            println!(
                "sequential baseline: {} work units in {:.4} s",
                r.work_units, r.t_seq
            );
        }
        return verdict(&check);
    }
    let delta_t = app.default_delta_t();
    let report = match opts.machine {
        MachineArg::Threads => {
            let pes = opts
                .pes
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let config = opts
                .balance
                .config(pes, delta_t, DEFAULT_ROUND, Topology::Ring)
                .map_err(Failure::input)?;
            let config = resolve_jobs(&config, &make_root()).map_err(Failure::input)?;
            let t_seq = opts.baseline.then(|| run_sequential(make_root()).t_seq);
            let progress = progress::Progress::new(opts.quiet);
            let update = |units: u64, elapsed: std::time::Duration| progress.update(units, elapsed);
            let result = Threads::new()
                .on_progress(&update)
                .run(make_root(), &config);
            progress.finish();
            let mut report = result.map_err(|e| Failure {
                message: e.to_string(),
                code: 1,
            })?;
            report.t_seq = t_seq;
            report
        }
        MachineArg::Mpi => match crate::run::mpi::run(&make_root, opts, delta_t)? {
            Some(report) => report,
            None => return Ok(()), // ranks other than 0 print nothing
        },
    };
    let check = published(&report.output);
    if opts.json {
        let j = ParallelJson {
            app: app.describe(),
            result: &report.output,
            published: check.clone(),
            efficiency: report.efficiency(),
            report: &report,
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&j).map_err(|e| Failure::input(e.to_string()))?
        );
    } else {
        println!("{}: {}", app.describe(), report.output);
        print_published(&check);
        print!("{}", report.summary());
        if report.machine == "mpi" {
            print!("{}", mpi_summary(&report));
        }
    }
    verdict(&check)
}

/// A static balancer's number of jobs, measured from the root where the options leave it
/// open (`task::bag::resolve_depth`); says on stderr what it chose.
pub fn resolve_jobs<T: Task>(config: &Config, root: &T) -> Result<Config, String> {
    resolve_jobs_quietly(config, root, false)
}

fn resolve_jobs_quietly<T: Task>(config: &Config, root: &T, quiet: bool) -> Result<Config, String> {
    let (config, alpha) = treesplit::task::bag::resolve_depth(config, root)?;
    if let (Some(alpha), Some(h), false) = (alpha, config.h, quiet) {
        eprintln!(
            "{}: h = {h} (2^{h} jobs), Theorem 3 of paper 004 for α = {alpha:.3} measured from the task's size estimates",
            config.balancer
        );
    }
    Ok(config)
}

/// Messages, bytes and request round trips per rank.
fn mpi_summary<O>(report: &Report<O>) -> String {
    let mut s = format!(
        "{:>5} {:>10} {:>12} {:>16}\n",
        "rank", "messages", "bytes sent", "request RTT µs"
    );
    for pe in &report.per_pe {
        let rtt = pe
            .request_rtt
            .map_or("-".to_string(), |r| format!("{:.1}", r * 1e6));
        s.push_str(&format!(
            "{:>5} {:>10} {:>12} {:>16}\n",
            pe.pe, pe.counters.messages_sent, pe.bytes_sent, rtt
        ));
    }
    s
}

#[cfg(feature = "mpi")]
mod mpi {
    use super::*;
    use treesplit::machine::mpi::Mpi;

    /// Run on the MPI ranks of this job: `Some(report)` on rank 0, `None` elsewhere.
    pub fn run<T: Task>(
        make_root: &impl Fn() -> T,
        opts: &RunOpts,
        delta_t: u64,
    ) -> Result<Option<Report<T::Output>>, Failure> {
        if opts.baseline {
            return Err(Failure::input(
                "--baseline is not available with --machine mpi (run --sequential separately)",
            ));
        }
        let mpi = Mpi::init().map_err(|e| Failure {
            message: e.to_string(),
            code: 1,
        })?;
        let size = mpi.size();
        if let Some(p) = opts.pes.filter(|&p| p != size) {
            return Err(Failure::input(format!(
                "--pes {p}, but the MPI job has {size} ranks (leave out --pes under mpirun)"
            )));
        }
        let config = opts
            .balance
            .config(size, delta_t, DEFAULT_ROUND, Topology::Ring)
            .map_err(Failure::input)?;
        let quiet = mpi.rank() != 0;
        let config = resolve_jobs_quietly(&config, &make_root(), quiet).map_err(Failure::input)?;
        match mpi.run(make_root, &config) {
            Ok(report) => Ok(report),
            Err(e) => {
                eprintln!("error: MPI rank {}: {e}; aborting the MPI job", mpi.rank());
                mpi.abort(1)
            }
        }
    }
}

#[cfg(not(feature = "mpi"))]
mod mpi {
    use super::*;

    pub fn run<T: Task>(
        _: &impl Fn() -> T,
        _: &RunOpts,
        _: u64,
    ) -> Result<Option<Report<T::Output>>, Failure> {
        Err(Failure::input(
            "this treesplit was built without MPI support; build it with `cargo build --release --features mpi`",
        ))
    }
}
