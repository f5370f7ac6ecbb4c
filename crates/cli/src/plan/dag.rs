//! Part of the plan layer: `run|sim dag` — a task DAG (an STG file, `--multiply K` or
//! `--random N`), its DAG scheduler from `--balancer`, the machine, the run limits, and the
//! flags that apply (the tree balancers' options, `--check`, `--sequential`, `--baseline` and
//! `--trace` do not: each is an error naming the flag).

use super::{check_threads, rules, sim_machine, Env, MachinePlan, Output};
use crate::flags::{AppArgs, BalancerName, Given, MachineArg, RunArgs, SimArgs};
use crate::output::{self, Failure};
use std::path::PathBuf;
use std::sync::Arc;
use treesplit::dag::Dag;
use treesplit::{BalancerKind, DagConfig, DagScheduler};
use treesplit_apps::app::Computation;
use treesplit_apps::dag::app::DagArgs;
use treesplit_apps::dag::{multiply, parse_stg, random_layered, MAX_MULTIPLY_K, MAX_RANDOM_TASKS};

/// The default unit of cost on real machines: 10 µs of busy work.
pub const DEFAULT_UNIT_NS: u64 = 10_000;

/// `run|sim dag`: one DAG, one scheduler, one machine.
pub struct DagPlan {
    pub dag: Arc<Dag>,
    /// Where the DAG came from (the file, or the generator and its parameters).
    pub source: String,
    pub scheduler: DagScheduler,
    /// Threads, MPI or the simulator (never the sequential baseline).
    pub machine: MachinePlan,
    pub delta_t: u64,
    pub seed: u64,
    /// Nanoseconds of busy work per unit of cost on real machines (0 in the simulator).
    pub unit_ns: u64,
    pub out: Output,
    pub gantt: Option<PathBuf>,
    /// `--optimal`: also find an optimal schedule (branch-and-bound) and compare.
    pub optimal: bool,
    /// `--max-units`, `--time-limit`: the run stops there with the schedule so far.
    pub max_units: Option<u64>,
    pub time_limit: Option<std::time::Duration>,
}

impl DagPlan {
    /// The run configuration for `pes` PEs.
    pub fn config(&self, pes: usize) -> Result<DagConfig, Failure> {
        let mut config = DagConfig::new(pes, self.scheduler)
            .delta_t(self.delta_t)
            .seed(self.seed);
        config.max_units = self.max_units;
        config.time_limit = self.time_limit;
        config
            .validate()
            .map_err(|e| Failure::input(output::config_error(&e)))?;
        Ok(config)
    }
}

/// The largest DAG `--optimal` takes: the search is exponential in the number of tasks (20
/// random tasks take up to about 0.4 s on one core, 30 can take hours).
pub const MAX_OPTIMAL_TASKS: usize = 32;

/// The `dag` application's arguments.
fn dag_args(app: &AppArgs) -> Result<DagArgs, Failure> {
    DagArgs::read(&app.values).map_err(Failure::from)
}

/// `--optimal`, checked against the DAG's size.
fn optimal(app: &AppArgs, dag: &Dag) -> Result<bool, Failure> {
    let optimal = dag_args(app)?.optimal;
    if optimal && dag.len() > MAX_OPTIMAL_TASKS {
        return Err(Failure::input(format!(
            "--optimal: the DAG has {} tasks; an optimal schedule is searched for DAGs of at most {MAX_OPTIMAL_TASKS} tasks (the search is exponential)",
            dag.len()
        )));
    }
    Ok(optimal)
}

/// Flags that mean nothing for a DAG run: every tree balancer option (a DAG scheduler takes
/// none), the contract check (every run checks its schedule), and the tree runs' machine and
/// output options.
fn not_for_dags() -> Vec<(&'static str, &'static str)> {
    let mut flags: Vec<_> = rules::all_balancer_flags()
        .iter()
        .copied()
        .filter(|(id, _)| *id != "delta_t")
        .collect();
    flags.extend(["embedding", "phase_c"].map(|id| (id, rules::flag(id))));
    flags.extend([
        ("check", "--check"),
        ("sequential", "--sequential"),
        ("baseline", "--baseline"),
        ("trace", "--trace"),
        ("empty_splits", "--empty-splits"),
        ("checkpoint", "--checkpoint"),
        ("checkpoint_every", "--checkpoint-every"),
    ]);
    flags
}

const WHY: &str = "does not apply to task DAGs (`dag` takes --balancer master-worker|random-static|work-stealing, --delta-t, --seed, --instance-seed (with --random), --pes, --max-units, --time-limit, --unit on real machines, --gantt and the simulator's machine options; termination is four-counter; every run checks its schedule)";

/// True for an application that is a task DAG rather than a tree-shaped task.
pub fn is_dag(app: &AppArgs) -> bool {
    treesplit_apps::registry::find(&app.name).is_some_and(|a| a.computation() == Computation::Dag)
}

/// The scheduler `--balancer` names (the default, random polling, is not one).
fn scheduler(name: BalancerName, given: &Given) -> Result<DagScheduler, Failure> {
    match name {
        BalancerName::Dag(s) => Ok(s),
        BalancerName::Tree(BalancerKind::MasterWorker) => Ok(DagScheduler::MasterWorker),
        BalancerName::Tree(BalancerKind::RandomStatic) => Ok(DagScheduler::RandomStatic),
        BalancerName::Tree(kind) if given.has("balancer") => Err(Failure::input(format!(
            "--balancer {kind} balances tree-shaped computations; a task DAG needs master-worker, random-static or work-stealing"
        ))),
        BalancerName::Tree(_) => Err(Failure::input(
            "a task DAG needs a DAG scheduler: give --balancer master-worker, random-static or work-stealing",
        )),
    }
}

/// The DAG the application arguments name, and where it came from (`--random N` drawn
/// from `seed`, the instance's seed).
fn read_dag(app: &AppArgs, seed: u64, given: &Given) -> Result<(Dag, String), Failure> {
    let DagArgs {
        file,
        multiply: k,
        random,
        ..
    } = dag_args(app)?;
    if random.is_none() && given.has("instance_seed") {
        return Err(Failure::input(
            "--instance-seed seeds a random DAG (`dag --random N`); a DAG read from a file or made by --multiply draws nothing",
        ));
    }
    match (file, k, random) {
        (Some(path), None, None) => {
            let (text, name) = treesplit_apps::input::read_text(&path).map_err(Failure::input)?;
            let dag = parse_stg(&text, &name).map_err(Failure::input)?;
            Ok((dag, name))
        }
        (None, Some(k), None) => multiply(k)
            .map(|d| (d, format!("multiply {k} (2^{k} digits)")))
            .ok_or_else(|| {
                Failure::input(format!(
                    "--multiply {k}: K must be at most {MAX_MULTIPLY_K} (2^{MAX_MULTIPLY_K} digits)"
                ))
            }),
        (None, None, Some(n)) => random_layered(n, seed)
            .map(|d| (d, format!("random {n} (seed {seed})")))
            .ok_or_else(|| {
                Failure::input(format!(
                    "--random {n}: the number of tasks must be in 1..={MAX_RANDOM_TASKS}"
                ))
            }),
        _ => Err(Failure::input(
            "dag needs exactly one of FILE, --multiply K and --random N",
        )),
    }
}

/// `10us`, `500ns`, `1ms`, `0.5s`: nanoseconds, at least 1 ns and at most 1 s.
fn parse_unit(text: &str) -> Result<u64, Failure> {
    let bad = || {
        Failure::input(format!(
            "--unit {text}: expected a time from 1ns to 1s with its unit (ns, us, ms or s), e.g. 10us"
        ))
    };
    let t = text.trim();
    let i = t
        .find(|c: char| c.is_alphabetic() || c == 'µ')
        .ok_or_else(bad)?;
    let (number, unit) = t.split_at(i);
    let scale = match unit {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return Err(bad()),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let ns = value * scale;
    if !(ns.is_finite() && (1.0..=1e9).contains(&ns)) {
        return Err(bad());
    }
    Ok(ns.round() as u64)
}

/// `run dag …`.
pub fn run_plan(r: RunArgs, given: &Given, env: &Env) -> Result<DagPlan, Failure> {
    super::reject_fault("a task DAG", env)?;
    rules::reject(given, &not_for_dags(), WHY)?;
    let o = &r.opts;
    // P before the DAG is read or generated.
    match (o.pes, o.machine) {
        (Some(pes), MachineArg::Threads) => super::check_thread_count(pes)?,
        (Some(pes), MachineArg::Mpi) => super::check_pes(pes)?,
        _ => {}
    }
    let scheduler = scheduler(o.choice.balancer, given)?;
    let seed = o.seed.seed.unwrap_or(1);
    let (dag, source) = read_dag(&r.app, o.instance.or(o.seed).unwrap_or(1), given)?;
    let unit = match &dag_args(&r.app)?.unit {
        Some(u) => parse_unit(u)?,
        _ => DEFAULT_UNIT_NS,
    };
    let out = Output::from(&o.common);
    let machine = match o.machine {
        MachineArg::Threads => {
            let pes = o.pes.unwrap_or(env.cores);
            check_threads(pes, out.notes(), env)?;
            super::memory::fit_threads(None, &[(pes, super::memory::THREAD_STACK)], "--pes", env)?;
            MachinePlan::Threads {
                pes,
                baseline: false,
            }
        }
        MachineArg::Mpi => {
            if dag_args(&r.app)?.file.as_deref() == Some(std::path::Path::new("-")) {
                return Err(Failure::input(
                    "`-` (standard input) is not available with --machine mpi: mpirun gives standard input to rank 0 only; give a file",
                ));
            }
            MachinePlan::Mpi { pes: o.pes }
        }
    };
    if let Some(path) = &o.gantt {
        let inputs: Vec<_> = dag_args(&r.app)?.file.into_iter().collect();
        output::paths::check_picture("--gantt", path, &inputs)?;
    }
    let optimal = optimal(&r.app, &dag)?;
    let plan = DagPlan {
        dag: Arc::new(dag),
        source,
        scheduler,
        machine,
        // A busy PE reads its messages every 10 units of cost (100 µs at the default unit).
        delta_t: o.balance.delta_t.unwrap_or(10),
        seed,
        unit_ns: unit,
        out,
        gantt: o.gantt.clone(),
        optimal,
        max_units: o.limits.max_units,
        time_limit: o.limits.time_limit,
    };
    plan.config(1)?;
    Ok(plan)
}

/// `sim dag …`.
pub fn sim_plan(s: SimArgs, given: &Given, env: &Env) -> Result<DagPlan, Failure> {
    super::reject_fault("`treesplit sim` (the simulator)", env)?;
    rules::reject(given, &not_for_dags(), WHY)?;
    rules::reject(
        given,
        &[("unit", "--unit")],
        "does not apply to the simulator: a unit of cost is a unit of virtual time there",
    )?;
    let o = &s.opts;
    let scheduler = scheduler(o.choice.balancer, given)?;
    // The simulated machine's checks take a tree balancer's options; the DAG scheduler
    // replaces it in the configuration.
    let (pes, sim, balance) = sim_machine(
        &o.machine,
        &o.balance,
        BalancerName::Tree(BalancerKind::RandomPolling),
        o.pes,
        o.seed.seed,
    )?;
    let config = balance.config(pes)?;
    // The DAG simulator holds its PEs in the tree simulator's slots: the same estimate of
    // their state against the memory available (the DAG itself is not counted).
    if let Some(available) = super::sim_memory(None, o.machine.sim_threads, env)? {
        super::sim_memory::fit_within(
            config.clone(),
            available.bytes,
            &available.source,
            &output::Notes { quiet: true },
        )?;
    }
    if let Some(path) = &s.opts.gantt {
        let inputs: Vec<_> = dag_args(&s.app)?.file.into_iter().collect();
        output::paths::check_picture("--gantt", path, &inputs)?;
    }
    let seed = config.seed;
    let instance_seed = o.instance.instance_seed.unwrap_or(seed);
    let (dag, source) = read_dag(&s.app, instance_seed, given)?;
    let optimal = optimal(&s.app, &dag)?;
    let plan = DagPlan {
        dag: Arc::new(dag),
        source,
        scheduler,
        machine: MachinePlan::Sim {
            pes,
            sim,
            empty_splits: 0.0,
            memory: None,
        },
        delta_t: config.delta_t,
        seed,
        unit_ns: 0,
        out: Output::from(&s.opts.common),
        gantt: s.opts.gantt.clone(),
        optimal,
        max_units: s.opts.limits.max_units,
        time_limit: s.opts.limits.time_limit,
    };
    plan.config(pes)?;
    Ok(plan)
}
