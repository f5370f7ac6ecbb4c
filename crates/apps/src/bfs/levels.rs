//! Level-synchronous BFS as a sequence of tree-shaped computations, one per level
//! ([`level_bfs`]), each run by the configured balancer on the command line's machine
//! ([`Host`]), like the IDA* iterations. After each level rank 0's next frontier is shared
//! with every rank (`share_from_0`). Every run's distances are checked against a plain
//! sequential queue BFS (a wrong answer when they differ). Reports `reached`,
//! `distance_sum`, `depth`, and TEPS on real machines (Graph500's definition: undirected
//! edges of the reached component per second of the whole level loop), the efficiency
//! Σ units / (P · Σ T_par) in the simulator.

use super::BfsSpec;
use super::{level_bfs, sequential_bfs, summarize, BfsSummary, LevelPiece};
use crate::app::{resolve_jobs, AppError, Host, Session};
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use treesplit::words::count;
use treesplit::{Config, RunError, Threads};

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

/// The sequential queue BFS (`run bfs --sequential`); `name` describes the instance.
pub fn run_sequential_bfs(
    spec: &BfsSpec,
    name: &str,
    session: &dyn Session,
) -> Result<(), AppError> {
    let graph = spec.graph();
    let start = Instant::now();
    let dist = sequential_bfs(graph, spec.source);
    let seconds = start.elapsed().as_secs_f64();
    let s = summarize(graph, &dist);
    let totals = Totals {
        work_units: s.scanned,
        ..Totals::default()
    };
    let ran = Ran {
        machine: "sequential",
        seconds: Some(seconds),
        efficiency: None,
        totals: &totals,
        matches: true,
    };
    report(session, spec, name, &s, &ran)
}

/// The level BFS on `machine` with `config`, checked against a sequential BFS.
pub fn run<H: Host>(
    spec: &BfsSpec,
    name: &str,
    machine: &H,
    config: &Config,
    session: &dyn Session,
) -> Result<(), AppError> {
    let (dist, totals, seconds) = run_levels(machine, config, spec, session)?;
    if !machine.prints() {
        return Ok(());
    }
    let sim = machine.simulated();
    let s = summarize(spec.graph(), &dist);
    let want = sequential_bfs(spec.graph(), spec.source);
    let label = format!(
        "{}, P = {}, {}",
        machine.name(),
        config.pes,
        config.balancer
    );
    let efficiency =
        sim.then(|| totals.work_units as f64 / (config.pes as f64 * totals.t_par.max(1.0)));
    let ran = Ran {
        machine: &label,
        seconds: (!sim).then_some(seconds),
        efficiency,
        totals: &totals,
        matches: dist == want,
    };
    report(session, spec, name, &s, &ran)
}

/// The BFS on `machine`: the distances (on every rank), the levels' totals (rank 0) and the
/// wall seconds of the whole level loop.
fn run_levels<H: Host>(
    machine: &H,
    config: &Config,
    spec: &BfsSpec,
    session: &dyn Session,
) -> Result<(Vec<u32>, Totals, f64), AppError> {
    let key_base = BFS_RUNS.fetch_add(1, Ordering::Relaxed) << 32;
    let mut totals = Totals::default();
    let mut notes = session;
    // The graph is generated (R-MAT) before the clock starts.
    let graph = spec.graph();
    let start = Instant::now();
    let dist = level_bfs(
        graph,
        spec.source,
        key_base,
        |key| {
            let root = LevelPiece::root(key);
            let cfg = resolve_jobs(config, &root, notes)?;
            // The static balancers' job count is chosen per level; say so once.
            notes = session.quiet();
            let r = AppError::unless_stopped(machine.run(root, &cfg).map_err(AppError::Library)?)?;
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
fn share<H: Host>(machine: &H, next: &mut Vec<u32>) {
    let mut len = [next.len() as u64];
    machine.share_from_0(&mut len);
    let mut wide: Vec<u64> = next.iter().map(|&v| u64::from(v)).collect();
    wide.resize(len[0] as usize, 0);
    if !wide.is_empty() {
        machine.share_from_0(&mut wide);
    }
    *next = wide.into_iter().map(|v| v as u32).collect();
}

/// How one BFS ran.
struct Ran<'a> {
    machine: &'a str,
    seconds: Option<f64>,
    efficiency: Option<f64>,
    totals: &'a Totals,
    matches: bool,
}

fn report(
    session: &dyn Session,
    spec: &BfsSpec,
    name: &str,
    s: &BfsSummary,
    ran: &Ran<'_>,
) -> Result<(), AppError> {
    let g = spec.graph();
    let (machine, seconds, efficiency, totals) =
        (ran.machine, ran.seconds, ran.efficiency, ran.totals);
    let teps = seconds.map(|t| s.scanned as f64 / 2.0 / t.max(1e-9));
    let vertices = count(g.vertices(), "vertex", "vertices");
    let edges = count(g.edges(), "edge", "edges");
    if session.json() {
        session.print_json(&BfsJson {
            app: format!("bfs ({}, {})", vertices, edges),
            result: s,
            machine: machine.to_string(),
            seconds,
            teps,
            efficiency,
            totals,
            matches_sequential: ran.matches,
        })?;
    } else {
        println!(
            "{name} ({vertices}, {edges}): reached {}, distance_sum {}, depth {}",
            s.reached, s.distance_sum, s.depth
        );
        match (seconds, teps) {
            (Some(t), Some(teps)) => println!(
                "machine {machine}: {t:.4} s, {teps:.3e} TEPS ({} scanned), {}, requests {}, splits {}",
                count(s.scanned, "edge", "edges"),
                count(totals.levels, "level", "levels"),
                totals.requests,
                totals.splits
            ),
            _ => println!(
                "machine {machine}: Σ T_par {} over {}, {} work units, efficiency {:.3}, requests {}, splits {}",
                totals.t_par,
                count(totals.levels, "level", "levels"),
                totals.work_units,
                efficiency.unwrap_or(f64::NAN),
                totals.requests,
                totals.splits
            ),
        }
        println!(
            "distances {} a sequential BFS",
            if ran.matches { "equal" } else { "DIFFER from" }
        );
    }
    if !ran.matches {
        return Err(AppError::WrongAnswer(
            "the BFS distances differ from a sequential BFS (a treesplit bug)".into(),
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

/// `bench bfs`: the sequential queue BFS against the level BFS on `config`'s P threads,
/// interleaved, `repeat` times.
pub fn bench(
    spec: &BfsSpec,
    name: &str,
    config: &Config,
    repeat: usize,
    session: &dyn Session,
) -> Result<(), AppError> {
    let graph = spec.graph();
    let want = sequential_bfs(graph, spec.source);
    let s = summarize(graph, &want);
    let (mut seq, mut par) = (vec![], vec![]);
    let threads = ThreadsOnly(Threads::new());
    for _ in 0..repeat {
        let t = Instant::now();
        let d = sequential_bfs(graph, spec.source);
        seq.push(t.elapsed().as_secs_f64());
        assert_eq!(d.len(), want.len());
        let t = Instant::now();
        let (dist, _, _) = run_levels(&threads, config, spec, session.quiet())?;
        par.push(t.elapsed().as_secs_f64());
        if dist != want {
            return Err(AppError::WrongAnswer(
                "the BFS distances differ from a sequential BFS (a treesplit bug)".into(),
            ));
        }
    }
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let j = BenchJson {
        app: name.to_string(),
        pes: config.pes,
        delta_t: config.delta_t,
        repeat,
        speedup: min(&seq) / min(&par),
        teps_parallel: s.scanned as f64 / 2.0 / min(&par),
        sequential_seconds: seq,
        parallel_seconds: par,
    };
    if session.json() {
        session.print_json(&j)?;
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

/// The library's threads, without the command line's progress line.
struct ThreadsOnly<'a>(Threads<'a>);

impl treesplit::Machine for ThreadsOnly<'_> {
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

impl Host for ThreadsOnly<'_> {}
