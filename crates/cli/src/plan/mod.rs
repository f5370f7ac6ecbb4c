//! The plan layer: from the parsed flags to a checked, typed description of what to run —
//! the application, the machine, the balancer configuration and the output options. Every
//! check of the input happens here (bad values and flags that do not apply, see [`rules`]),
//! so the commands below only run plans, and read no flags.
//!
//! Planning ([`plan_in`]) reads no environment and prints nothing: the process's facts come
//! in as an [`Env`] and its notes go out through it ([`plan`] does both at the edge). It does
//! read what an instance is made of (the application's files, a checkpoint to resume),
//! checks that output paths can be written and that an instance's data fits in the memory
//! available ([`memory`], before the data is built), so that bad input fails before any run.

mod balance;
pub mod dag;
pub mod env;
pub(crate) mod input_digest;
pub mod memory;
mod pe_list;
mod resume;
pub mod rules;
pub mod scatter;
pub mod sim_memory;
#[cfg(test)]
mod tests;
pub(crate) mod timeline;

use crate::flags::{
    AppArgs, BalancerName, BenchArgs, Cli, Command, Common, CompareArgs, DepthArgs, DstArgs, Given,
    MachineArg, RunArgs, SimArgs,
};
use crate::output::{self, paths, Failure, Notes};
pub use balance::Balance;
use balance::{balance, sim_machine};
pub use env::Env;
use std::path::PathBuf;
pub use timeline::Timeline;
use treesplit::config::DEFAULT_ROUND;
use treesplit::machine::sim::{self, Topology};
use treesplit::{BalancerKind, SimConfig};
use treesplit_apps::app::{RunOption, Use};
use treesplit_apps::registry;
pub use treesplit_apps::spec::{AppVisitor, Published};
/// An application instance, checked (the applications' own type: the plan asks it what it
/// refuses and adapts it to the machine, and never names an application).
pub use treesplit_apps::AppSpec as App;
use treesplit_lab::experiments::depth::Depth;

/// What a subcommand prints: `--json` and `--quiet`.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub json: bool,
    pub quiet: bool,
}

impl Output {
    fn from(o: &Common) -> Self {
        Output {
            json: o.json,
            quiet: o.quiet,
        }
    }

    /// Notes on stderr, silenced by `--quiet`.
    pub fn notes(&self) -> Notes {
        Notes { quiet: self.quiet }
    }

    /// Whether progress indicators are drawn (never under `--quiet` or `--json`; the
    /// indicator itself also checks that stderr is a terminal).
    pub fn progress(&self) -> bool {
        !self.quiet && !self.json
    }
}

/// More threads than the thread machine runs is bad input; threads far beyond the cores
/// time-share them: one warning line (a note, so `--quiet` silences it) that timings are
/// oversubscribed, pointing to the simulator.
fn check_threads(threads: usize, notes: Notes, env: &Env) -> Result<(), Failure> {
    check_thread_count(threads)?;
    let cores = env.cores;
    if threads > 4 * cores && !notes.quiet {
        env.note(format!(
            "warning: {threads} threads on {}: timings are oversubscribed (the threads time-share the cores); `treesplit sim` models machines of this size",
            treesplit::words::count(cores, "core", "cores")
        ));
    }
    Ok(())
}

/// More threads than the thread machine runs (`MAX_THREADS`) is bad input, said in its own
/// terms (not the simulator's larger limit); checked before anything whose work grows with P.
pub(crate) fn check_thread_count(threads: usize) -> Result<(), Failure> {
    let max = treesplit::machine::threads::MAX_THREADS;
    if threads > max {
        return Err(Failure::input(output::config_error(
            &treesplit::ConfigError::TooManyThreads { pes: threads, max },
        )));
    }
    Ok(())
}

/// P against the largest machine the library builds (`treesplit::config::MAX_PES`, the
/// simulator's scale, and MPI's): checked before anything whose work grows with P (the
/// simulated network's embedding, an instance's buckets per PE, the PEs' state), so that an
/// absurd `--pes` is refused at once.
pub(crate) fn check_pes(pes: usize) -> Result<(), Failure> {
    let max = treesplit::config::MAX_PES;
    if pes == 0 {
        return Err(Failure::input(output::config_error(
            &treesplit::ConfigError::NoPes,
        )));
    }
    if pes > max {
        return Err(Failure::input(output::config_error(
            &treesplit::ConfigError::TooManyPes { pes, max },
        )));
    }
    Ok(())
}

/// Fault injection (`TREESPLIT_FAULT`, see `commands::fault`) is for `treesplit run` only.
fn reject_fault(what: &str, env: &Env) -> Result<(), Failure> {
    match &env.fault {
        Some(v) => Err(Failure::input(format!(
            "TREESPLIT_FAULT={v} is set, but fault injection applies only to `treesplit run` (threads, MPI, --sequential), not to {what}; unset it"
        ))),
        None => Ok(()),
    }
}

/// One subcommand, checked.
pub enum Plan {
    Run(RunPlan),
    Bench(BenchPlan),
    Compare(ComparePlan),
    Dst(DstPlan),
    Depth(DepthPlan),
    Trees(Output),
    Scatter(scatter::ScatterPlan),
    /// `run|sim dag`.
    Dag(dag::DagPlan),
    Reproduce(ReproducePlan),
}

/// `reproduce`: which experiments, how big, where the report goes.
pub struct ReproducePlan {
    pub quick: bool,
    pub only: Vec<String>,
    pub dir: PathBuf,
    pub out: Output,
}

/// Where a single application runs.
// One per run, never in a collection: the simulator's variant may be the larger.
#[allow(clippy::large_enum_variant)]
pub enum MachinePlan {
    /// The sequential baseline, no runtime (`run --sequential`).
    Sequential,
    /// Threads in this process; `baseline`: time the sequential baseline first.
    Threads { pes: usize, baseline: bool },
    /// MPI ranks (P is the number of ranks; `pes` must match it when given).
    Mpi { pes: Option<usize> },
    /// The simulator, with its adversaries and an optional picture.
    Sim {
        pes: usize,
        sim: SimConfig,
        empty_splits: f64,
        /// The memory available to the simulation and the limit that sets it (`None`: no
        /// figure), which its trace rings are fitted to before the run
        /// (`plan::sim_memory`).
        memory: Option<memory::Available>,
    },
}

/// `run` or `sim`: one application on one machine.
pub struct RunPlan {
    pub app: App,
    pub machine: MachinePlan,
    pub balance: Balance,
    pub out: Output,
    pub timeline: Timeline,
    /// `--checkpoint` / `resume`: where the computation's checkpoint goes, and where it
    /// resumes from.
    pub checkpoint: Option<CheckpointPlan>,
}

/// A checkpointed run (`run --checkpoint FILE [--checkpoint-every D]`, `resume FILE`).
#[derive(Debug, Clone)]
pub struct CheckpointPlan {
    /// Where the snapshot is written.
    pub path: PathBuf,
    /// How often (None: only when the run stops).
    pub every: Option<std::time::Duration>,
    /// `resume`: the checkpoint the run starts from.
    pub resume: Option<PathBuf>,
}

/// `bench`: the sequential code, treesplit, rayon and chili at 1 and P threads.
pub struct BenchPlan {
    pub app: App,
    pub pes: usize,
    pub repeat: usize,
    pub seed: u64,
    pub delta_t: u64,
    pub rayon_depth: Option<u32>,
    pub out: Output,
}

/// `compare`: every chosen balancer in the simulator.
pub struct ComparePlan {
    pub app: App,
    pub balance: Balance,
    pub pes: usize,
    pub sim: SimConfig,
    pub empty_splits: f64,
    pub balancers: Vec<BalancerKind>,
    pub svg: Option<PathBuf>,
    pub out: Output,
}

/// `dst`: random simulated cases.
pub struct DstPlan {
    pub cases: u64,
    pub seed: u64,
    pub max_pes: usize,
    pub out: Output,
}

/// `depth`: random-static's smallest h per P.
pub struct DepthPlan {
    pub pes: Vec<usize>,
    /// The measurement: the tree, ε, the permutation, the largest h and the seed.
    pub depth: Depth,
    pub out: Output,
}

/// The plan of a parsed command line in this process's environment; the notes planning has to
/// say go to stderr.
pub fn plan(cli: Cli, given: &Given) -> Result<Plan, Failure> {
    let env = Env::read()?;
    let plan = plan_in(cli, given, &env);
    for note in env.notes.take() {
        eprintln!("{note}");
    }
    plan
}

/// The plan of a parsed command line in `env` (reads no environment, prints nothing).
pub fn plan_in(cli: Cli, given: &Given, env: &Env) -> Result<Plan, Failure> {
    match cli.command {
        Command::Run(r) if dag::is_dag(&r.app) => dag::run_plan(r, given, env).map(Plan::Dag),
        Command::Sim(s) if dag::is_dag(&s.app) => dag::sim_plan(s, given, env).map(Plan::Dag),
        Command::Run(r) => run_plan(r, given, env).map(Plan::Run),
        Command::Resume(r) => resume::plan(r, given, env).map(Plan::Run),
        Command::Sim(s) => {
            reject_fault("`treesplit sim` (the simulator)", env)?;
            sim_plan(s, given, env).map(Plan::Run)
        }
        Command::Bench(b) => {
            reject_fault("`treesplit bench`", env)?;
            bench_plan(b, given, env).map(Plan::Bench)
        }
        Command::Compare(c) => {
            reject_fault("`treesplit compare`", env)?;
            compare_plan(c, given, env).map(Plan::Compare)
        }
        Command::Dst(d) => {
            reject_fault("`treesplit dst`", env)?;
            dst_plan(d)
        }
        Command::Depth(d) => {
            reject_fault("`treesplit depth`", env)?;
            depth_plan(d).map(Plan::Depth)
        }
        Command::Scatter(s) => {
            reject_fault("`treesplit scatter`", env)?;
            scatter::plan(s, given).map(Plan::Scatter)
        }
        Command::Reproduce(r) => {
            reject_fault("`treesplit reproduce`", env)?;
            let ids = treesplit_lab::reproduce::ids();
            if let Some(bad) = r.only.iter().find(|id| !ids.contains(&id.as_str())) {
                return Err(Failure::input(format!(
                    "--only: unknown experiment id '{bad}'; the ids are: {}",
                    ids.join(", ")
                )));
            }
            Ok(Plan::Reproduce(ReproducePlan {
                quick: r.quick,
                only: r.only,
                dir: r.out,
                out: Output::from(&r.common),
            }))
        }
        Command::Trees(t) => {
            reject_fault("`treesplit trees`", env)?;
            Ok(Plan::Trees(Output::from(&t.common)))
        }
    }
}

/// An instance that takes `--q` as its own parameter whatever the balancer: the balancer
/// rules do not judge it there.
fn table_flags(app: &App, given: &Given) -> Given {
    if app.takes(RunOption::JobsPerPe) {
        given.without(rules::option_flag(RunOption::JobsPerPe).0)
    } else {
        given.clone()
    }
}

/// The registry's application the arguments name.
fn registered(args: &AppArgs) -> Result<&'static registry::Entry, Failure> {
    registry::find(&args.name)
        .ok_or_else(|| Failure::input(format!("unknown application '{}'", args.name)))
}

fn application(args: &AppArgs, given: &Given) -> Result<App, Failure> {
    registered(args)?
        .parse(&args.values, &|option| {
            given.has(rules::option_flag(option).0)
        })
        .map_err(Failure::from)
}

/// The flags `app` refuses when `used` so, as bad input.
fn refusals(app: &App, used: Use, given: &Given) -> Result<(), Failure> {
    for r in app.refusals(used) {
        rules::reject(given, &rules::option_flags(r.options), r.why)?;
    }
    match app.refuses(used) {
        Some(why) => Err(Failure::input(why)),
        None => Ok(()),
    }
}

fn run_plan(r: RunArgs, given: &Given, env: &Env) -> Result<RunPlan, Failure> {
    // P first: the instance adapts to it, and the balancer's configuration is made for it.
    match (r.opts.pes, r.sequential, r.opts.machine) {
        (Some(pes), false, MachineArg::Threads) => check_thread_count(pes)?,
        (Some(pes), false, MachineArg::Mpi) => check_pes(pes)?,
        _ => {}
    }
    if r.opts.machine == MachineArg::Mpi && registered(&r.app)?.reads_stdin(&r.app.values) {
        return Err(Failure::input(
            "`-` (standard input) is not available with --machine mpi: mpirun gives standard input to rank 0 only; give a file",
        ));
    }
    let mut app = application(&r.app, given)?;
    let o = &r.opts;
    let balance = balance(
        &o.balance,
        o.choice.balancer,
        o.seed.seed,
        app.default_delta_t(),
        DEFAULT_ROUND,
        Topology::Ring,
    )?;
    let out = Output::from(&o.common);
    if r.sequential {
        // An instance's own --q (the hash table's subtable size, one PE: m = q) and --seed
        // (the data it draws) apply here too.
        let flags = rules::sequential_flags(|option| app.takes(option));
        let seed = rules::instance_seed(&app, given, o.instance, o.seed)?;
        app.adapt(o.balance.jobs_per_pe, 1, seed)
            .map_err(Failure::input)?;
        memory::fit(&app, 1, env)?;
        rules::reject(
            given,
            &flags,
            "does not apply with --sequential (the sequential baseline runs on one core, without a machine or balancer)",
        )?;
        if let Some(why) = app.refuses(Use::Run) {
            return Err(Failure::input(why));
        }
        return Ok(RunPlan {
            app,
            machine: MachinePlan::Sequential,
            balance,
            out,
            timeline: Timeline::default(),
            checkpoint: None,
        });
    }
    rules::check_balancer_options(&table_flags(&app, given), &[balance.balancer()])?;
    let balance = balance.with_limits(o.limits)?;
    refusals(&app, Use::Run, given)?;
    if given.has("checkpoint_every") && !given.has("checkpoint") {
        return Err(Failure::input(
            "--checkpoint-every needs --checkpoint FILE (where to write the checkpoint)",
        ));
    }
    if o.checkpoint.is_some() && given.has("baseline") {
        return Err(Failure::input(
            "--baseline does not apply with --checkpoint: a checkpointed computation runs in several runs (time `run --sequential` separately)",
        ));
    }
    let machine = match o.machine {
        MachineArg::Threads => {
            let ranks = env.launcher_size;
            if ranks > 1 {
                return Err(Failure::input(format!(
                    "this process is one of {ranks} started by an MPI launcher, but --machine threads (the default) would run {ranks} independent computations: add --machine mpi (a build with --features mpi)"
                )));
            }
            let pes = o.pes.unwrap_or(env.cores);
            check_threads(pes, out.notes(), env)?;
            balance.config(pes)?;
            MachinePlan::Threads {
                pes,
                baseline: r.baseline,
            }
        }
        MachineArg::Mpi => {
            if r.baseline {
                return Err(Failure::input(
                    "--baseline is not available with --machine mpi (run --sequential separately)",
                ));
            }
            if let Some(pes) = o.pes {
                check_pes(pes)?;
            }
            MachinePlan::Mpi { pes: o.pes }
        }
    };
    let (pes, copies) = match machine {
        MachinePlan::Threads { pes, .. } => (pes, 1),
        MachinePlan::Mpi { pes: Some(pes) } => (pes, env.ranks_here),
        _ => (env.launcher_size, env.ranks_here),
    };
    let seed = rules::instance_seed(&app, given, o.instance, o.seed)?;
    app.adapt(o.balance.jobs_per_pe, pes, seed)
        .map_err(Failure::input)?;
    memory::fit(&app, copies, env)?;
    if let MachinePlan::Threads { pes, .. } = machine {
        memory::fit_threads(Some(&app), &[(pes, memory::THREAD_STACK)], "--pes", env)?;
    }
    let inputs = paths::words_as_paths(&app.checkpoint_words());
    // The checkpoint, and an application's own picture (`mandelbrot --png`), are outputs too.
    let checkpoint = o.checkpoint.as_deref();
    let other: Vec<paths::Output> = checkpoint
        .map(|p| paths::Output::new("--checkpoint", p, paths::Kind::Checkpoint))
        .into_iter()
        .chain(
            app.picture()
                .map(|p| paths::Output::new("--png", &p.path, paths::Kind::Picture)),
        )
        .collect();
    let timeline = Timeline::checked(o.trace.clone(), o.gantt.clone(), &other, &inputs)?;
    Ok(RunPlan {
        app,
        machine,
        balance,
        out,
        timeline,
        checkpoint: o.checkpoint.clone().map(|path| CheckpointPlan {
            path,
            every: o.checkpoint_every,
            resume: None,
        }),
    })
}

/// The memory a simulation of `app` (if an application) has (`None`: no figure): the figure of `env`, or less
/// under an address-space limit, where a partitioned run's engine threads (as many as
/// `--sim-threads`, else up to the cores) reserve their deep stacks; engine threads that do
/// not fit beside the instance are bad input.
fn sim_memory(
    app: Option<&App>,
    sim_threads: Option<usize>,
    env: &Env,
) -> Result<Option<memory::Available>, Failure> {
    let engines = sim_threads.unwrap_or(env.cores.min(sim::DEFAULT_ENGINE_THREADS));
    let mut available = env.memory.clone();
    if engines > 1 {
        let engine_stacks = [(engines, sim::ENGINE_STACK as u64)];
        let fewer = match sim_threads {
            Some(_) => "--sim-threads".to_string(),
            None => format!(
                "--sim-threads (without it the simulator runs {engines} engine threads, one per core up to {})",
                sim::DEFAULT_ENGINE_THREADS
            ),
        };
        memory::fit_threads(app, &engine_stacks, &fewer, env)?;
        let reserved = memory::threads_address_space(&engine_stacks, env.cores);
        let left = env.address_space.map(|room| room.saturating_sub(reserved));
        if let (Some(left), Some(a)) = (left, &mut available) {
            if left < a.bytes {
                *a = memory::Available {
                    bytes: left,
                    source: format!(
                        "the address-space limit (ulimit -v), less the stacks of {engines} engine threads"
                    ),
                };
            }
        }
    }
    Ok(available)
}

fn sim_plan(s: SimArgs, given: &Given, env: &Env) -> Result<RunPlan, Failure> {
    let mut app = application(&s.app, given)?;
    // Time is virtual in the simulator: spinning per unit would only cost real time.
    app.for_simulator(given.has("spin"));
    let o = &s.opts;
    let (pes, sim, balance) = sim_machine(
        &o.machine,
        &o.balance,
        o.choice.balancer,
        o.pes,
        o.seed.seed,
    )?;
    rules::check_balancer_options(&table_flags(&app, given), &[balance.balancer()])?;
    let seed = rules::instance_seed(&app, given, o.instance, o.seed)?;
    app.adapt(o.balance.jobs_per_pe, pes, seed)
        .map_err(Failure::input)?;
    let balance = balance.with_limits(o.limits)?;
    refusals(&app, Use::Sim, given)?;
    memory::fit(&app, 1, env)?;
    let available = sim_memory(Some(&app), o.machine.sim_threads, env)?;
    let inputs = paths::words_as_paths(&app.checkpoint_words());
    Ok(RunPlan {
        app,
        machine: MachinePlan::Sim {
            pes,
            sim,
            empty_splits: o.machine.empty_splits,
            memory: available,
        },
        balance,
        out: Output::from(&o.common),
        timeline: Timeline::checked(o.trace.clone(), o.gantt.clone(), &[], &inputs)?,
        checkpoint: None,
    })
}

fn bench_plan(b: BenchArgs, given: &Given, env: &Env) -> Result<BenchPlan, Failure> {
    if let Some(pes) = b.pes {
        check_thread_count(pes)?;
    }
    let mut app = application(&b.app, given)?;
    refusals(&app, Use::Bench, given)?;
    let pes = b.pes.unwrap_or(2);
    if pes == 0 || b.repeat == 0 {
        return Err(Failure::input("bench needs --pes ≥ 1 and --repeat ≥ 1"));
    }
    let seed = rules::instance_seed(&app, given, b.instance, b.seed)?;
    if app.draws_instance() {
        app.adapt(None, pes, seed).map_err(Failure::input)?;
    }
    memory::fit(&app, 1, env)?;
    // Checked before any thread starts (the rayon pool of P threads is built first).
    let out = Output::from(&b.common);
    check_threads(pes, out.notes(), env)?;
    // Both rayon pools (1 and P threads, deep stacks) live beside the thread machine's P.
    let pools = if pes == 1 { 1 } else { 1 + pes };
    memory::fit_threads(
        Some(&app),
        &[(pools, memory::RAYON_STACK), (pes, memory::THREAD_STACK)],
        "--pes",
        env,
    )?;
    if app.rayon_depth().is_none() {
        rules::reject(
            given,
            &[("rayon_depth", "--rayon-depth")],
            &treesplit_apps::registry::rayon_depth_why(),
        )?;
    }
    if b.delta_t == Some(0) {
        return Err(Failure::input(output::config_error(
            &treesplit::ConfigError::ZeroDeltaT,
        )));
    }
    Ok(BenchPlan {
        delta_t: b.delta_t.unwrap_or_else(|| app.default_delta_t()),
        app,
        pes,
        repeat: b.repeat,
        seed: b.seed.seed.unwrap_or(1),
        rayon_depth: b.rayon_depth,
        out,
    })
}

fn compare_plan(c: CompareArgs, given: &Given, env: &Env) -> Result<ComparePlan, Failure> {
    let mut app = application(&c.app, given)?;
    refusals(&app, Use::Compare, given)?;
    // Every balancer runs: the configuration is completed for each (`Balance::config_for`).
    let (pes, sim, balance) = sim_machine(
        &c.machine,
        &c.balance,
        BalancerName::Tree(BalancerKind::RandomPolling),
        c.pes,
        c.seed.seed,
    )?;
    let balancers = if c.balancers.is_empty() {
        BalancerKind::ALL.to_vec()
    } else {
        c.balancers.clone()
    };
    if let Some(b) = balancers
        .iter()
        .enumerate()
        .find_map(|(i, b)| balancers[..i].contains(b).then_some(b))
    {
        return Err(Failure::input(format!(
            "--balancers names {b} twice (each balancer runs once)"
        )));
    }
    rules::check_balancer_options(&table_flags(&app, given), &balancers)?;
    let seed = rules::instance_seed(&app, given, c.instance, c.seed)?;
    app.adapt(c.balance.jobs_per_pe, pes, seed)
        .map_err(Failure::input)?;
    memory::fit(&app, 1, env)?;
    // Each balancer's simulation holds its PEs' state beside the instance (one at a time).
    if let Some(available) = sim_memory(Some(&app), c.machine.sim_threads, env)? {
        let instance = app.footprint().map_or(0, |f| f.bytes);
        sim_memory::fit_within(
            balance.config(pes)?,
            available.bytes.saturating_sub(instance),
            &available.source,
            &Notes { quiet: true },
        )?;
    }
    if let Some(path) = &c.svg {
        paths::check_picture(
            "--svg",
            path,
            &paths::words_as_paths(&app.checkpoint_words()),
        )?;
    }
    Ok(ComparePlan {
        app,
        balance,
        pes,
        sim,
        empty_splits: c.machine.empty_splits,
        balancers,
        svg: c.svg,
        out: Output::from(&c.common),
    })
}

fn dst_plan(d: DstArgs) -> Result<Plan, Failure> {
    if d.max_pes == 0 {
        return Err(Failure::input("--max-pes must be at least 1"));
    }
    let max = treesplit::config::MAX_PES;
    if d.max_pes > max {
        return Err(Failure::input(format!(
            "--max-pes {} is more than the supported {max} (the cases run on the simulator)",
            d.max_pes
        )));
    }
    if d.cases == 0 {
        return Err(Failure::input(
            "--cases must be at least 1 (no case would check anything)",
        ));
    }
    Ok(Plan::Dst(DstPlan {
        cases: d.cases,
        seed: d.seed.unwrap_or(0),
        max_pes: d.max_pes,
        out: Output::from(&d.common),
    }))
}

fn depth_plan(d: DepthArgs) -> Result<DepthPlan, Failure> {
    let pes = match &d.pes[..] {
        [] => vec![64, 256, 1024, 4096],
        list => list.to_vec(),
    };
    let seed = d.seed.seed.unwrap_or(1);
    if pes.iter().any(|&p| p < 2) {
        return Err(Failure::input(
            "--pes needs a list of PE counts, each at least 2",
        ));
    }
    // Each P is simulated: the simulator's limit, before a --max-h that P would exceed.
    for &p in &pes {
        check_pes(p)?;
    }
    if d.epsilon.is_nan() || d.epsilon <= 0.0 {
        return Err(Failure::input("--epsilon must be positive"));
    }
    let depth = Depth::new(d.work, d.alpha, d.split, seed).map_err(Failure::input)?;
    let max = treesplit::task::bag::DEFAULT_MAX_H;
    if d.max_h > max {
        return Err(Failure::input(format!(
            "--max-h {}: at most {max} (every try simulates all 2^h jobs, and the time doubles with each h)",
            d.max_h
        )));
    }
    if let Some(&p) = pes
        .iter()
        .find(|&&p| (p.max(1) as u64).next_power_of_two().trailing_zeros() > d.max_h)
    {
        return Err(Failure::input(format!(
            "--max-h {} is below log₂ P for P = {p}: random-static needs at least P jobs",
            d.max_h
        )));
    }
    Ok(DepthPlan {
        pes,
        depth: Depth {
            epsilon: d.epsilon,
            permutation: d.static_permutation,
            max_h: d.max_h,
            ..depth
        },
        out: Output::from(&d.common),
    })
}
