//! `run|sim dag`: run a task DAG with a DAG scheduler on threads, MPI or the simulator, then
//! check the gathered schedule — every task ran exactly once, none before all its
//! predecessors had finished (else exit 3) — and Theorem 14.3 with the communication term
//! (`treesplit::dag::schedule`; a violation is a bug: exit 3), and report the makespan against
//! the lower bound, the theorem's bound and 2 − 1/p. `--gantt` draws the schedule, one line
//! per PE as in Fig. 14.7. A run that `--max-units`, `--time-limit` or a signal (SIGTERM,
//! SIGINT, SIGUSR1 on threads and MPI) stopped prints its partial report — the tasks that
//! finished — and exits 1, as `run` of a tree does.

use crate::output::{self, plot, Failure};
use crate::plan::dag::DagPlan;
use crate::plan::MachinePlan;
use serde::Serialize;
use treesplit::dag::{evaluate, DagTask, Evaluation};
use treesplit::stats::Totals;
use treesplit::words::count;
use treesplit::Ended;

/// `run|sim dag --json`.
#[derive(Serialize)]
struct DagJson<'a> {
    app: &'static str,
    source: &'a str,
    machine: &'a str,
    scheduler: &'a str,
    #[serde(flatten)]
    evaluation: &'a Evaluation,
    /// Checked: every task ran once, none before its predecessors finished.
    dependencies_respected: bool,
    /// Threads and MPI: nanoseconds per unit of cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    unit_ns: Option<u64>,
    totals: &'a Totals,
    /// `--optimal`: the optimal makespan on the workers (units of cost) and T / optimum.
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal_makespan: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ratio_to_optimum: Option<f64>,
}

/// How far a stopped run got: the tasks that finished.
#[derive(Serialize)]
struct Progress {
    finished: usize,
    tasks: usize,
}

impl std::fmt::Display for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tasks = treesplit::words::count(self.tasks, "task", "tasks");
        write!(f, "{} of {tasks} finished", self.finished)
    }
}

/// Run the plan and report.
pub fn dag(plan: &DagPlan) -> Result<(), Failure> {
    let root = DagTask::shared(plan.dag.clone(), plan.unit_ns);
    let (ended, machine, tick_seconds, unit_ticks): (Option<Ended<DagTask>>, &str, f64, u64) =
        match &plan.machine {
            MachinePlan::Sim { pes, sim, .. } => {
                let config = plan.config(*pes)?;
                let ended = treesplit::machine::simulate_dag(root, &config, sim)?;
                output::Notes {
                    quiet: plan.out.quiet,
                }
                .note(ended.report().speed());
                (Some(ended.map_report(|r| r.report)), "sim", 1.0, 1)
            }
            MachinePlan::Threads { pes, .. } => {
                // SIGTERM, SIGINT and SIGUSR1 stop a real run cleanly, with its partial report.
                let config = plan
                    .config(*pes)?
                    .interrupt(super::checkpoint::interrupt_flag()?);
                let ended = treesplit::Threads::new().run_dag(root, &config)?;
                (Some(ended), "threads", 1e-9, plan.unit_ns)
            }
            MachinePlan::Mpi { pes } => (mpi_run(plan, root, *pes)?, "mpi", 1e-9, plan.unit_ns),
            MachinePlan::Sequential => unreachable!("dag plans name a machine"),
        };
    let Some(ended) = ended else {
        return Ok(()); // an MPI rank other than 0
    };
    let report = match ended {
        Ended::Finished(report) => report,
        Ended::Stopped(stopped) => {
            let report = stopped.report;
            let done = Progress {
                finished: report.output.0.len(),
                tasks: plan.dag.len(),
            };
            let app = format!("dag {}", plan.source);
            let when = if machine == "sim" {
                format!("at virtual time {}", report.t_par)
            } else {
                format!("after {:.6} s", report.t_par)
            };
            let summary = format!(
                "{} on {machine}, P = {}: stopped {when}, {} of cost done, {}\n",
                plan.scheduler,
                report.pes(),
                count(report.totals.work_units, "unit", "units"),
                count(report.totals.messages, "message", "messages")
            );
            return Err(super::finish::partial(
                app,
                plan.out.json,
                stopped.limit,
                &report,
                &done,
                &summary,
            ));
        }
    };
    let p = report.pes();
    let workers = plan.scheduler.workers(p);
    let (e, _) = evaluate(
        &plan.dag,
        &report.output,
        p,
        workers,
        unit_ticks,
        tick_seconds,
    )
    .map_err(|err| Failure::wrong(format!("infeasible schedule: {err}")))?;
    if report.totals.work_units != plan.dag.work() {
        return Err(Failure::wrong(format!(
            "the PEs did {} units of work, the DAG holds {}",
            report.totals.work_units,
            plan.dag.work()
        )));
    }
    let optimum = if plan.optimal {
        Some(optimal_makespan(&plan.dag, workers)?)
    } else {
        None
    };
    let ratio_to_optimum = optimum.map(|o| e.makespan / (o as f64 * e.unit).max(f64::MIN_POSITIVE));
    let time = |x: f64| {
        if machine == "sim" {
            format!("{}", (x * 1000.0).round() / 1000.0)
        } else {
            format!("{x:.6} s")
        }
    };
    if plan.out.json {
        output::print_json(&DagJson {
            app: "dag",
            source: &plan.source,
            machine,
            scheduler: plan.scheduler.name(),
            evaluation: &e,
            dependencies_respected: true,
            unit_ns: (machine != "sim").then_some(plan.unit_ns),
            totals: &report.totals,
            optimal_makespan: optimum,
            ratio_to_optimum,
        })?;
    } else {
        println!(
            "dag {}: {}, {}, work W = {}, critical path = {}",
            plan.source,
            count(e.tasks, "task", "tasks"),
            count(e.edges, "edge", "edges"),
            e.work,
            e.critical_path
        );
        println!(
            "{} on {machine}, P = {p}: makespan {} (lower bound max(W/p, critical path) = {}, ratio {:.3}; 2 − 1/p = {:.3})",
            plan.scheduler,
            time(e.makespan),
            time(e.lower_bound),
            e.ratio_to_lower_bound,
            e.two_minus_one_over_p
        );
        println!(
            "Theorem 14.3: W/p + critical path = {} ({}); with the communication term C = {}: {} (holds)",
            time(e.theorem_14_3_bound),
            if e.theorem_14_3_holds { "holds" } else { "exceeded" },
            time(e.communication_term),
            time(e.bound_with_communication)
        );
        if let (Some(o), Some(r)) = (optimum, ratio_to_optimum) {
            println!(
                "optimal schedule on {} (branch-and-bound): makespan {} (ratio {r:.3})",
                count(workers, "PE", "PEs"),
                time(o as f64 * e.unit)
            );
        }
        println!(
            "dependencies: {} ran once, none before its predecessors finished; {}",
            if e.tasks == 1 {
                "the one task".to_string()
            } else {
                format!("all {} tasks", e.tasks)
            },
            count(report.totals.messages, "message", "messages")
        );
    }
    if !e.holds_with_communication {
        return Err(Failure::wrong(format!(
            "makespan {} exceeds W'/w + L' + C = {}: the schedule's accounting is wrong",
            e.makespan, e.bound_with_communication
        )));
    }
    if let Some(path) = &plan.gantt {
        let title = format!(
            "{} on {machine}, P = {p}: {}, makespan {}",
            plan.scheduler,
            plan.source,
            time(e.makespan)
        );
        plot::draw_dag(
            path,
            &title,
            p,
            &report.output.0,
            tick_seconds,
            machine == "sim",
        )
        .map_err(|err| Failure::run(format!("cannot draw {}: {err}", path.display())))?;
        output::Notes {
            quiet: plan.out.quiet,
        }
        .note(format_args!("wrote {}", path.display()));
    }
    Ok(())
}

/// The optimal makespan of the DAG on `workers` PEs, in units of cost: branch-and-bound
/// over schedules (`treesplit_apps::optimal_schedule`), run on treesplit's threads.
fn optimal_makespan(dag: &treesplit::dag::Dag, workers: usize) -> Result<u64, Failure> {
    use treesplit_apps::optimal_schedule::{from_dag, OptimalSchedule};
    let inst = from_dag(dag, workers.max(1)).map_err(Failure::input)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let r = treesplit::Threads::new()
        .run(
            OptimalSchedule::new(inst.clone()),
            &treesplit::Config::new(threads),
        )?
        .into_report();
    inst.check(&r.output)
        .map_err(|err| Failure::wrong(format!("the optimal schedule found is infeasible: {err}")))
}

#[cfg(feature = "mpi")]
fn mpi_run(
    plan: &DagPlan,
    root: DagTask,
    pes: Option<usize>,
) -> Result<Option<Ended<DagTask>>, Failure> {
    let mpi = treesplit::machine::mpi::Mpi::init().map_err(Failure::run)?;
    let size = mpi.size();
    let run = || {
        if let Some(p) = pes.filter(|&p| p != size) {
            return Err(Failure::input(format!(
                "--pes {p}, but the MPI job has {} (leave out --pes under mpirun)",
                count(size, "rank", "ranks")
            )));
        }
        let config = plan
            .config(size)?
            .interrupt(super::checkpoint::interrupt_flag()?);
        let ended = mpi.run_dag(|| root, &config)?;
        Ok((mpi.rank() == 0).then_some(ended))
    };
    // A failure is said while every rank is still in the job (as `commands::mpi::with`).
    run().map_err(crate::output::say)
}

#[cfg(not(feature = "mpi"))]
fn mpi_run(_: &DagPlan, _: DagTask, _: Option<usize>) -> Result<Option<Ended<DagTask>>, Failure> {
    Err(Failure::input(
        "this treesplit was built without MPI support; build it with `cargo build --release --features mpi`",
    ))
}
