//! `treesplit run` and `treesplit sim`: one application on the machine its plan names —
//! threads (default), MPI ranks (`--machine mpi`), the simulator (`sim`; its report on stdout
//! is reproducible byte for byte from the seed, its speed goes to stderr) — or the sequential
//! baseline. An application that runs as a sequence of computations (`runs_itself`) runs its
//! own loop on the same machine.

use super::fault::{self, Faulty};
use super::finish::{check_result, limit_reached};
use super::{with_machine, CliMachine, CliSession, UseMachine};
use crate::output::{self, print_published, verdict, Failure, Notes};
use crate::plan::{AppVisitor, MachinePlan, Published, RunPlan};
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::{run_sequential, Config, Ended, Report, Task};
use treesplit_apps::app::Use;
use treesplit_apps::spec::Objective;

pub fn run(plan: &RunPlan) -> Result<(), Failure> {
    let fault = fault::from_env().map_err(Failure::input)?;
    if let Some(f) = fault {
        let pes = match plan.machine {
            MachinePlan::Sequential => 1,
            MachinePlan::Threads { pes, .. } => pes,
            MachinePlan::Mpi { pes } => pes.unwrap_or_else(output::launcher_size),
            MachinePlan::Sim { .. } => {
                return Err(Failure::input(
                    "TREESPLIT_FAULT applies only to real runs, not to the simulator",
                ))
            }
        };
        if f.pe() >= pes {
            return Err(Failure::input(format!(
                "TREESPLIT_FAULT names PE {}, but the run has only {}",
                f.pe(),
                treesplit::words::first(pes as u64, "PE", "PEs")
            )));
        }
        if let Some(why) = plan.app.refuses(Use::Fault) {
            return Err(Failure::input(why));
        }
    }
    if plan.app.runs_itself() {
        return run_sequence(plan);
    }
    plan.app.visit(RunApp { plan, fault })?;
    if output::launcher_rank() == 0 {
        if let Some(picture) = plan.app.picture() {
            let path = picture.path.display();
            output::picture::draw(&picture)
                .map_err(|e| Failure::run(format!("cannot draw {path}: {e}")))?;
            plan.out.notes().note(format_args!("wrote {path}"));
        }
    }
    Ok(())
}

/// An application's own loop of computations, on the plan's machine or sequentially.
fn run_sequence(plan: &RunPlan) -> Result<(), Failure> {
    if let MachinePlan::Sequential = plan.machine {
        let session = CliSession {
            json: plan.out.json,
            notes: plan.out.notes(),
        };
        return Ok(plan.app.run_sequence_sequential(&session)?);
    }
    with_machine(plan, Sequence { plan })
}

/// An application's own loop on one machine.
struct Sequence<'a> {
    plan: &'a RunPlan,
}

impl UseMachine for Sequence<'_> {
    type Out = ();

    fn with<M: CliMachine>(self, machine: &M, config: Config) -> Result<(), Failure> {
        let session = CliSession {
            json: self.plan.out.json,
            notes: if machine.prints() {
                self.plan.out.notes()
            } else {
                Notes { quiet: true }
            },
        };
        // SIGTERM, SIGINT and SIGUSR1 stop a real run's current computation cleanly, and the
        // application reports how far its sequence came.
        let config = match self.plan.machine {
            MachinePlan::Sim { .. } => config,
            _ => config.interrupt(super::checkpoint::interrupt_flag()?),
        };
        Ok(self.plan.app.run_sequence(machine, &config, &session)?)
    }
}

struct RunApp<'a> {
    plan: &'a RunPlan,
    fault: Option<fault::Fault>,
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
        T::Output: Display + PartialEq + Debug + Objective,
    {
        match self.fault {
            Some(f) => execute(self.plan, || Faulty::new(make_root(), f), published),
            None => execute(self.plan, make_root, published),
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

fn execute<T: Task>(
    plan: &RunPlan,
    make_root: impl Fn() -> T,
    published: impl Fn(&T::Output) -> Option<Published>,
) -> Result<(), Failure>
where
    T::Output: Display + PartialEq + Debug + Objective,
{
    if let MachinePlan::Sequential = plan.machine {
        // A panicking task is a failed run (exit code 1, one clear message, no raw panic
        // text), as on the parallel machines.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_sequential(make_root())));
        std::panic::set_hook(hook);
        let r = r.map_err(|payload| {
            Failure::run(format!(
                "the task panicked in the sequential run: {}",
                fault::panic_message(payload.as_ref())
            ))
        })?;
        let check = published(&r.output);
        if plan.out.json {
            output::print_json(&SequentialJson {
                app: plan.app.describe(),
                result: &r.output,
                work_units: r.work_units,
                t_seq: r.t_seq,
                published: check.clone(),
            })?;
        } else {
            println!("{}: {}", plan.app.describe(), r.output);
            print_published(&check);
            println!(
                "sequential baseline: {} work units in {:.4} s",
                r.work_units, r.t_seq
            );
        }
        return verdict(&check);
    }
    with_machine(
        plan,
        Execute {
            plan,
            make_root,
            published,
        },
    )
}

/// One run on the plan's machine, then its report.
struct Execute<'a, F, P> {
    plan: &'a RunPlan,
    make_root: F,
    published: P,
}

impl<T, F, P> UseMachine for Execute<'_, F, P>
where
    T: Task,
    T::Output: Display + PartialEq + Debug + Objective,
    F: Fn() -> T,
    P: Fn(&T::Output) -> Option<Published>,
{
    type Out = ();

    fn with<M: CliMachine>(self, machine: &M, config: Config) -> Result<(), Failure> {
        let plan = self.plan;
        let notes = if machine.prints() {
            plan.out.notes()
        } else {
            Notes { quiet: true }
        };
        // The machine completes a static balancer's number of jobs itself and says what it
        // chose in the report's notes (so that the JSON report carries them too).
        let mut config = config;
        let (sim, memory) = match &plan.machine {
            MachinePlan::Sim { memory, .. } => (true, memory.as_ref()),
            _ => (false, None),
        };
        // Real machines record the trace for --gantt too; the simulator draws its own.
        if plan.timeline.trace.is_some() || (plan.timeline.gantt.is_some() && !sim) {
            let events = crate::plan::timeline::trace_capacity(config.pes, &notes);
            config = config.trace(events);
        }
        if let (true, Some(available)) = (sim, memory) {
            // Refuse a simulation the machine cannot hold, or shorten its trace rings.
            let instance = plan.app.footprint().map_or(0, |f| f.bytes);
            config = crate::plan::sim_memory::fit_within(
                config,
                available.bytes.saturating_sub(instance),
                &available.source,
                &notes,
            )?;
        }
        if !sim {
            // SIGTERM, SIGINT and SIGUSR1 stop a real run cleanly (a checkpoint, if asked for).
            config = config.interrupt(super::checkpoint::interrupt_flag()?);
        }
        if let Some(cp) = &plan.checkpoint {
            return super::checkpoint::run(
                plan,
                cp,
                machine,
                config,
                self.make_root,
                self.published,
                notes,
            );
        }
        let ended = machine.run((self.make_root)(), &config);
        if !machine.prints() {
            return Ok(()); // ranks other than 0 print nothing
        }
        let mut r = match ended.map_err(Failure::from)? {
            Ended::Finished(r) => r,
            Ended::Stopped(stopped) => {
                return Err(limit_reached(plan, stopped.limit, stopped.report.as_ref()))
            }
        };
        if sim && plan.app.is_optimization() {
            sequential_reference(r.as_mut(), &self.make_root, &notes);
        }
        let report: &Report<T::Output> = r.as_ref();
        for note in &report.notes {
            notes.note(format_args!("{}", output::library_note(note)));
        }
        let check = (self.published)(&report.output);
        let table = plan.app.scattered().map(|data| {
            let eta = super::scatter::scattered_eta(
                &data,
                plan.balance.balancer(),
                &report.totals,
                report.pes(),
            );
            format!("{}: {eta}", plan.app.name())
        });
        if plan.out.json {
            machine.print_json(plan.app.describe(), check.clone(), &r)?;
            if let Some(line) = &table {
                notes.note(line);
            }
        } else {
            println!("{}: {}", plan.app.describe(), report.output);
            print_published(&check);
            print!("{}", report.summary());
            print!("{}", machine.extra_summary(&r));
            if let Some(line) = &table {
                println!("{line}");
            }
            if report.machine == "mpi" {
                print!("{}", mpi_summary(report));
            }
        }
        let gantt = plan.timeline.gantt.as_deref();
        machine.after_run(&r, notes, gantt.filter(|_| sim))?;
        write_timeline(plan, report, notes, sim)?;
        verdict(&check)?;
        check_result(plan, report, self.make_root, notes)
    }
}

/// A simulated search with an objective: T_seq (and so speedup and efficiency) becomes the
/// sequential search's work, one virtual time unit per work unit as the simulator charges
/// it. The simulator's own T_seq is the run's work, and a parallel branch-and-bound does
/// more work than the sequential search (or less), so speedup against it would count the
/// wasted search as useful. Theorem 1's figures keep the run's own work: they bound the
/// tree this run searched.
fn sequential_reference<T: Task>(
    report: &mut Report<T::Output>,
    make_root: impl Fn() -> T,
    notes: &Notes,
) {
    let seq = run_sequential(make_root());
    let run = report.totals.work_units;
    report.t_seq = Some(seq.work_units as f64);
    notes.note(format_args!(
        "sim: T_seq is the sequential search's {} work units; this parallel search did {run} ({:.3}× as many), which Theorem 1's figures count",
        seq.work_units,
        run as f64 / seq.work_units.max(1) as f64
    ));
}

/// `--trace` and, on real machines, `--gantt`: the recorded trace to the files the plan names.
fn write_timeline<O>(
    plan: &RunPlan,
    report: &Report<O>,
    notes: Notes,
    sim: bool,
) -> Result<(), Failure> {
    let Some(trace) = &report.trace else {
        return Ok(());
    };
    if trace.dropped() > 0 {
        notes.note(format_args!(
            "the trace kept the last {} events per PE: {} older events were dropped",
            trace.capacity(),
            trace.dropped()
        ));
    }
    if let Some(path) = &plan.timeline.trace {
        output::trace::write(path, trace, &report.machine)
            .map_err(|e| Failure::run(format!("cannot write {}: {e}", path.display())))?;
        notes.note(format_args!("wrote {}", path.display()));
    }
    if let Some(path) = plan.timeline.gantt.as_deref().filter(|_| !sim) {
        output::plot::draw_trace(path, report, trace)
            .map_err(|e| Failure::run(format!("cannot draw {}: {e}", path.display())))?;
        notes.note(format_args!("wrote {}", path.display()));
    }
    Ok(())
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
