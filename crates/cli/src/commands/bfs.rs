//! `treesplit run|sim|bench bfs`: level-synchronous BFS as a sequence of tree-shaped
//! computations, one per level (`treesplit_apps::bfs`), each run by the configured balancer
//! on the plan's machine, like the IDA* iterations of `ida`. After each level rank 0's next
//! frontier is shared with every rank (`share_from_0`). Every run's distances are checked
//! against a plain sequential queue BFS (exit code 3 when they differ). Reports `reached`,
//! `distance_sum`, `depth`, and TEPS on real machines (Graph500's definition: undirected
//! edges of the reached component per second of the whole level loop), the efficiency
//! Σ units / (P · Σ T_par) in the simulator.

use super::{resolve_jobs, with_machine, CliMachine, UseMachine};
use crate::output::{self, Failure, Notes};
use crate::plan::{BenchPlan, MachinePlan, RunPlan};
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use treesplit::{Config, Ended, RunError, Threads};
use treesplit_apps::bfs::{level_bfs, sequential_bfs, summarize, BfsSummary, LevelPiece};
use treesplit_apps::spec::BfsSpec;

/// Distinct level keys for each BFS of this process (every MPI rank counts alike).
static BFS_RUNS: AtomicU64 = AtomicU64::new(1);

/// What the levels add up to.
#[derive(Debug, Default, Serialize)]
struct Totals {
    /// Levels run on the machine (levels whose frontier has edges).
    levels: u64,
    /// Σ T_par over the levels (seconds; virtual time in the simulator).
    t_par: f64,
    work_units: u64,
    requests: u64,
    splits: u64,
}

#[derive(Serialize)]
struct BfsJson<'a> {
    app: String,
    result: &'a BfsSummary,
    machine: String,
    /// Wall seconds of the BFS (real machines; the simulator's Σ T_par is in `totals`).
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
    /// Undirected edges of the reached component per second (real machines).
    #[serde(skip_serializing_if = "Option::is_none")]
    teps: Option<f64>,
    /// Σ units / (P · Σ T_par) (simulator).
    #[serde(skip_serializing_if = "Option::is_none")]
    efficiency: Option<f64>,
    totals: &'a Totals,
    matches_sequential: bool,
}

pub fn run(plan: &RunPlan, spec: &BfsSpec) -> Result<(), Failure> {
    if let MachinePlan::Sequential = plan.machine {
        let start = Instant::now();
        let dist = sequential_bfs(&spec.graph, spec.source);
        let seconds = start.elapsed().as_secs_f64();
        let s = summarize(&spec.graph, &dist);
        let totals = Totals {
            work_units: s.scanned,
            ..Totals::default()
        };
        return report(
            plan,
            spec,
            &s,
            "sequential",
            Some(seconds),
            None,
            &totals,
            true,
        );
    }
    with_machine(plan, Bfs { plan, spec })
}

struct Bfs<'a> {
    plan: &'a RunPlan,
    spec: &'a BfsSpec,
}

impl UseMachine for Bfs<'_> {
    type Out = ();

    fn with<M: CliMachine>(self, machine: &M, config: Config) -> Result<(), Failure> {
        let notes = if machine.prints() {
            self.plan.out.notes()
        } else {
            Notes { quiet: true }
        };
        let (dist, totals, seconds) = run_levels(machine, &config, self.spec, notes)?;
        if !machine.prints() {
            return Ok(());
        }
        let sim = matches!(self.plan.machine, MachinePlan::Sim { .. });
        let s = summarize(&self.spec.graph, &dist);
        let want = sequential_bfs(&self.spec.graph, self.spec.source);
        let name = format!(
            "{}, P = {}, {}",
            machine.name(),
            config.pes,
            config.balancer
        );
        let efficiency =
            sim.then(|| totals.work_units as f64 / (config.pes as f64 * totals.t_par.max(1.0)));
        report(
            self.plan,
            self.spec,
            &s,
            &name,
            (!sim).then_some(seconds),
            efficiency,
            &totals,
            dist == want,
        )
    }
}

/// The BFS on `machine`: the distances (on every rank), the levels' totals (rank 0) and the
/// wall seconds of the whole level loop.
fn run_levels<M: CliMachine>(
    machine: &M,
    config: &Config,
    spec: &BfsSpec,
    notes: Notes,
) -> Result<(Vec<u32>, Totals, f64), Failure> {
    let key_base = BFS_RUNS.fetch_add(1, Ordering::Relaxed) << 32;
    let mut totals = Totals::default();
    let mut quiet_after_first = notes;
    let start = Instant::now();
    let dist = level_bfs(
        &spec.graph,
        spec.source,
        key_base,
        |key| {
            let root = LevelPiece::root(key);
            let cfg = resolve_jobs(config, &root, quiet_after_first)?;
            // The static balancers' job count is chosen per level; say so once.
            quiet_after_first = Notes { quiet: true };
            let r = match machine.run(root, &cfg).map_err(Failure::from)? {
                Ended::Finished(r) => r,
                Ended::Stopped(s) => {
                    let r = s.report.as_ref();
                    return Err(output::stopped(s.limit, r.totals.work_units, r.t_par));
                }
            };
            if !machine.prints() {
                return Ok(None);
            }
            let r = r.as_ref();
            totals.levels += 1;
            totals.t_par += r.t_par;
            totals.work_units += r.totals.work_units;
            totals.requests += r.totals.requests;
            totals.splits += r.totals.splits;
            Ok(Some(r.output.clone()))
        },
        |next| share(machine, next),
    )?;
    Ok((dist, totals, start.elapsed().as_secs_f64()))
}

/// Rank 0's `next` frontier to every rank (a no-op on one process).
fn share<M: CliMachine>(machine: &M, next: &mut Vec<u32>) {
    let mut len = [next.len() as u64];
    machine.share_from_0(&mut len);
    let mut wide: Vec<u64> = next.iter().map(|&v| u64::from(v)).collect();
    wide.resize(len[0] as usize, 0);
    if !wide.is_empty() {
        machine.share_from_0(&mut wide);
    }
    *next = wide.into_iter().map(|v| v as u32).collect();
}

#[allow(clippy::too_many_arguments)]
fn report(
    plan: &RunPlan,
    spec: &BfsSpec,
    s: &BfsSummary,
    machine: &str,
    seconds: Option<f64>,
    efficiency: Option<f64>,
    totals: &Totals,
    matches: bool,
) -> Result<(), Failure> {
    let g = &spec.graph;
    let teps = seconds.map(|t| s.scanned as f64 / 2.0 / t.max(1e-9));
    if plan.out.json {
        output::print_json(&BfsJson {
            app: format!("bfs ({} vertices, {} edges)", g.vertices(), g.edges()),
            result: s,
            machine: machine.to_string(),
            seconds,
            teps,
            efficiency,
            totals,
            matches_sequential: matches,
        })?;
    } else {
        println!(
            "{} ({} vertices, {} edges): reached {}, distance_sum {}, depth {}",
            plan.app.describe(),
            g.vertices(),
            g.edges(),
            s.reached,
            s.distance_sum,
            s.depth
        );
        match (seconds, teps) {
            (Some(t), Some(teps)) => println!(
                "machine {machine}: {t:.4} s, {teps:.3e} TEPS ({} edges scanned), {} levels, requests {}, splits {}",
                s.scanned, totals.levels, totals.requests, totals.splits
            ),
            _ => println!(
                "machine {machine}: Σ T_par {} over {} levels, {} work units, efficiency {:.3}, requests {}, splits {}",
                totals.t_par,
                totals.levels,
                totals.work_units,
                efficiency.unwrap_or(f64::NAN),
                totals.requests,
                totals.splits
            ),
        }
        println!(
            "distances {} a sequential BFS",
            if matches { "equal" } else { "DIFFER from" }
        );
    }
    if !matches {
        return Err(Failure::wrong(
            "the BFS distances differ from a sequential BFS (a treesplit bug)",
        ));
    }
    Ok(())
}

#[derive(Serialize)]
struct BenchJson {
    app: String,
    pes: usize,
    delta_t: u64,
    repeat: usize,
    sequential_seconds: Vec<f64>,
    parallel_seconds: Vec<f64>,
    /// min sequential / min parallel.
    speedup: f64,
    teps_parallel: f64,
}

/// `bench bfs`: the sequential queue BFS against the level BFS on P threads, interleaved.
pub fn bench(args: &BenchPlan, spec: &BfsSpec) -> Result<(), Failure> {
    let want = sequential_bfs(&spec.graph, spec.source);
    let s = summarize(&spec.graph, &want);
    let (mut seq, mut par) = (vec![], vec![]);
    let config = Config::new(args.pes).delta_t(args.delta_t).seed(args.seed);
    let threads = Threads::new();
    for _ in 0..args.repeat {
        let t = Instant::now();
        let d = sequential_bfs(&spec.graph, spec.source);
        seq.push(t.elapsed().as_secs_f64());
        assert_eq!(d.len(), want.len());
        let t = Instant::now();
        let (dist, _, _) =
            run_levels(&ThreadsOnly(&threads), &config, spec, Notes { quiet: true })?;
        par.push(t.elapsed().as_secs_f64());
        if dist != want {
            return Err(Failure::wrong(
                "the BFS distances differ from a sequential BFS (a treesplit bug)",
            ));
        }
    }
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let j = BenchJson {
        app: args.app.describe(),
        pes: args.pes,
        delta_t: args.delta_t,
        repeat: args.repeat,
        speedup: min(&seq) / min(&par),
        teps_parallel: s.scanned as f64 / 2.0 / min(&par),
        sequential_seconds: seq,
        parallel_seconds: par,
    };
    if args.out.json {
        output::print_json(&j)?;
    } else {
        println!(
            "{}: reached {}, distance_sum {}, depth {}",
            j.app, s.reached, s.distance_sum, s.depth
        );
        println!(
            "sequential queue BFS min {:.4} s; treesplit P = {} min {:.4} s; speedup {:.2}; {:.3e} TEPS",
            min(&j.sequential_seconds),
            j.pes,
            min(&j.parallel_seconds),
            j.speedup,
            j.teps_parallel
        );
    }
    Ok(())
}

/// The library's threads as a command-line machine without the progress line.
struct ThreadsOnly<'a, 'b>(&'a Threads<'b>);

impl treesplit::Machine for ThreadsOnly<'_, '_> {
    type Report<O> = treesplit::Report<O>;
    fn name(&self) -> &'static str {
        "threads"
    }
    fn run<T: treesplit::Task>(
        &self,
        root: T,
        config: &Config,
    ) -> Result<treesplit::Ended<T>, RunError> {
        self.0.run(root, config)
    }
}

impl CliMachine for ThreadsOnly<'_, '_> {
    fn print_json<O: Serialize>(
        &self,
        _app: String,
        _published: Option<crate::plan::Published>,
        _report: &treesplit::Report<O>,
    ) -> Result<(), Failure> {
        Ok(())
    }
}
