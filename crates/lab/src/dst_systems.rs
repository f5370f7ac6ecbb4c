//! Deterministic simulation testing beyond single tree searches: the chapter's examples
//! (hash table, Mandelbrot, adaptive integration), level-synchronous BFS, task DAGs under
//! the three DAG schedulers, the search skeletons' three kinds ([`crate::dst_search`]), and
//! checkpoint/resume (a run stopped at a work limit, its
//! snapshot written to bytes and read back, resumed on another P, balancer and network).
//!
//! Each case borrows the random machine of a tree case ([`Case::random`]: P, Δt, network,
//! delays, slow PEs and links, T_split, T_send/T_recv) and adds its own draws from a separate
//! stream, so a tree case's draws stay what they were. [`SystemCase::check`] compares with
//! an independent sequential computation: equal output and equal work units (tree runs and
//! resumes), equal distances to a queue BFS (BFS), and for DAGs every task once, none before
//! its predecessors, all of the DAG's work, and Theorem 14.3 with the communication term.
//! `treesplit dst` runs one of these for every seed ≡ 4 (mod 5); `treesplit dst --seed S
//! --cases 1` replays seed S.

use crate::dst::Case;
use crate::dst_search::Search;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use treesplit::checkpoint::Snapshot;
use treesplit::dag::{evaluate, Dag, DagTask};
use treesplit::machine::simulate_dag;
use treesplit::task::pieces::Pieces;
use treesplit::{
    run_sequential, simulate, Config, DagConfig, DagScheduler, Ended, Outcome, SimConfig, Task,
};
use treesplit_apps::bfs::{level_bfs, sequential_bfs, Graph, LevelPiece};
use treesplit_apps::hashtable::HashtableSpec;
use treesplit_apps::integrate::{Integrand, IntegrateParams};
use treesplit_apps::mandelbrot::{MandelParams, MandelSpec};
use treesplit_apps::AppSpec;

/// True for the seeds whose DST case is a [`SystemCase`] rather than a tree [`Case`].
pub fn is_system_seed(seed: u64) -> bool {
    seed % 5 == 4
}

/// What a system case runs.
#[derive(Debug, Clone)]
pub enum System {
    /// A tree case of one of the chapter's examples (its `app` replaced).
    Example(Case),
    /// BFS from `source` on an R-MAT graph, each level one simulated run.
    Bfs {
        /// The simulated machine and balancer.
        case: Case,
        /// R-MAT scale, edge factor and seed.
        rmat: (u32, u64, u64),
        /// The source vertex.
        source: u32,
    },
    /// A task DAG under a DAG scheduler.
    Dag {
        /// The simulated machine (its balancer is replaced by the scheduler).
        case: Case,
        /// The DAG and where it came from.
        dag: Arc<Dag>,
        /// `--random N --seed S` or `--multiply K`.
        source: String,
        /// The scheduler.
        scheduler: DagScheduler,
    },
    /// A skeleton search on a tree case's machine.
    Search {
        /// The simulated machine and balancer.
        case: Case,
        /// The search.
        search: Search,
    },
    /// A tree case stopped after `stops[0]` units, resumed on `resume` (stopped again after
    /// `stops[1]` units when given), then finished on `resume`'s machine.
    Resume {
        /// The first run.
        first: Case,
        /// The run(s) after the first stop: another P, balancer and network.
        resume: Box<Case>,
        /// Unit limits of the first and (optionally) the second run.
        stops: (u64, Option<u64>),
    },
}

/// One drawn system case.
#[derive(Debug, Clone)]
pub struct SystemCase {
    /// The seed it was drawn from.
    pub seed: u64,
    /// What it runs.
    pub system: System,
}

/// Keys of BFS levels registered by DST runs (distinct from the CLI's, which start at 0).
static BFS_KEYS: AtomicU64 = AtomicU64::new(0xD57 << 48);

impl SystemCase {
    /// The case drawn from `seed`, with P ≤ `max_pes`.
    pub fn random(seed: u64, max_pes: usize) -> SystemCase {
        let base = Case::random(seed, max_pes);
        // One case in six is a skeleton search, drawn from a stream of its own so that the
        // other seeds keep naming the cases they named before.
        let mut q = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5EA2_C45E_D57C_45E5);
        if q.random_range(0..6) == 0 {
            let system = System::Search {
                search: Search::random(&mut q),
                case: base,
            };
            return SystemCase { seed, system };
        }
        let mut r = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x0515_7E45_D57C_45E5);
        let system = match r.random_range(0..8) {
            0..=1 => {
                let app = match r.random_range(0..3) {
                    0 => AppSpec::Hashtable(HashtableSpec::generated(
                        r.random_range(1..=4000),
                        base.config.seed,
                        r.random_range(1..=16),
                        base.config.pes as u64,
                    )),
                    1 => AppSpec::Mandelbrot(MandelSpec {
                        params: MandelParams {
                            n: r.random_range(1..=40),
                            z0_re: -2.0 + f64::from(r.random_range(0..8u32)) / 8.0,
                            z0_im: -1.5 + f64::from(r.random_range(0..8u32)) / 8.0,
                            a0: f64::from(r.random_range(1..=24u32)) / 8.0,
                            max_iter: r.random_range(1..=300),
                        },
                        png: None,
                    }),
                    _ => AppSpec::Integrate(IntegrateParams {
                        f: [Integrand::Pi, Integrand::Osc, Integrand::Sing][r.random_range(0..3)],
                        tol: 10f64.powi(-r.random_range(3..=8)),
                        pieces: r.random_range(1..=16),
                    }),
                };
                // The hash table's pieces carry its whole key table (they are not compact
                // pieces), so with message-length charging a broadcast of the root takes
                // far longer than the termination-delay bound's few dozen bytes per message.
                let mut sim = base.sim.clone();
                if matches!(app, AppSpec::Hashtable(_)) {
                    sim.length = None;
                }
                System::Example(Case {
                    app,
                    empty_splits: 0.0,
                    sim,
                    ..base
                })
            }
            2 => System::Bfs {
                rmat: (
                    r.random_range(2..=9),
                    r.random_range(1..=8),
                    r.random_range(0..1000),
                ),
                source: r.random_range(0..4),
                case: Case {
                    empty_splits: 0.0,
                    ..base
                },
            },
            3..=4 => {
                let (dag, source) = if r.random_bool(0.25) {
                    let k = r.random_range(0..=3);
                    (treesplit_apps::dag::multiply(k), format!("--multiply {k}"))
                } else {
                    let (n, s) = (r.random_range(1..=300), r.random_range(0..1000));
                    (
                        treesplit_apps::dag::random_layered(n, s),
                        format!("--random {n} --instance-seed {s}"),
                    )
                };
                let scheduler = DagScheduler::ALL[r.random_range(0..DagScheduler::ALL.len())];
                System::Dag {
                    case: base,
                    dag: Arc::new(dag.expect("drawn within the generators' limits")),
                    source,
                    scheduler,
                }
            }
            _ => {
                let first = Case {
                    empty_splits: 0.0,
                    ..base
                };
                let mut resume = Case::random(seed ^ 0x4E5_u64.rotate_left(40), max_pes);
                resume.app = first.app.clone();
                resume.empty_splits = 0.0;
                let units = sequential_units(&first.app);
                let frac = |r: &mut Xoshiro256PlusPlus| units * r.random_range(1..=9) / 10;
                let stops = (
                    frac(&mut r),
                    r.random_bool(0.5).then(|| frac(&mut r).max(1)),
                );
                System::Resume {
                    first,
                    resume: Box::new(resume),
                    stops,
                }
            }
        };
        SystemCase { seed, system }
    }

    /// What the case is, and how to replay it.
    pub fn describe(&self) -> String {
        let replay = format!("treesplit dst --seed {} --cases 1", self.seed);
        match &self.system {
            System::Example(c) => c.command_line(),
            System::Bfs {
                case, rmat, source, ..
            } => format!(
                "BFS from {source} on R-MAT({}, {}, seed {}) under `{}` (replay: {replay})",
                rmat.0,
                rmat.1,
                rmat.2,
                case.command_line()
            ),
            System::Dag {
                case,
                source,
                scheduler,
                ..
            } => format!(
                "DAG {source} under {scheduler} on P = {} ({}, T_rout {}; replay: {replay})",
                case.config.pes, case.sim.topology, case.sim.t_rout
            ),
            System::Search { case, search } => format!(
                "the {} skeleton search {search:?} on the machine of `{}` (replay: {replay})",
                search.kind(),
                case.command_line()
            ),
            System::Resume {
                first,
                resume,
                stops,
            } => format!(
                "stop `{}` after {} units, resume on `{}` (stopping again after {:?} units) (replay: {replay})",
                first.command_line(),
                stops.0,
                resume.command_line(),
                stops.1
            ),
        }
    }

    /// The kind of case: `example`, `bfs`, `dag` or `resume`.
    pub fn kind(&self) -> &'static str {
        match self.system {
            System::Example(_) => "example",
            System::Search { .. } => "search",
            System::Bfs { .. } => "bfs",
            System::Dag { .. } => "dag",
            System::Resume { .. } => "resume",
        }
    }

    /// Run the case and check it; the error says what failed. Returns, for resume cases,
    /// the pieces the first stop carried over in the snapshot (0 when the first run ended
    /// before its limit), else 0.
    pub fn check(&self) -> Result<usize, String> {
        match &self.system {
            System::Example(c) => c.check().map(|_| 0),
            System::Bfs { case, rmat, source } => check_bfs(case, *rmat, *source).map(|_| 0),
            System::Search { case, search } => search.check(case).map(|_| 0),
            System::Dag {
                case,
                dag,
                scheduler,
                ..
            } => check_dag(case, dag, *scheduler).map(|_| 0),
            System::Resume {
                first,
                resume,
                stops,
            } => {
                struct V<'a>(&'a Case, &'a Case, (u64, Option<u64>));
                impl treesplit_apps::spec::AppVisitor for V<'_> {
                    type Out = Result<usize, String>;
                    fn visit<T>(
                        self,
                        make_root: impl Fn() -> T,
                        _: impl Fn(&T::Output) -> Option<treesplit_apps::spec::Published>,
                    ) -> Self::Out
                    where
                        T: Task,
                        T::Output: std::fmt::Display
                            + PartialEq
                            + std::fmt::Debug
                            + treesplit_apps::spec::Objective,
                    {
                        check_resume(make_root, self.0, self.1, self.2)
                    }
                }
                first.app.visit(V(first, resume, *stops))
            }
        }
    }
}

/// The sequential work units of a tree application.
fn sequential_units(app: &AppSpec) -> u64 {
    struct Units;
    impl treesplit_apps::spec::AppVisitor for Units {
        type Out = u64;
        fn visit<T>(
            self,
            make_root: impl Fn() -> T,
            _: impl Fn(&T::Output) -> Option<treesplit_apps::spec::Published>,
        ) -> u64
        where
            T: Task,
            T::Output:
                std::fmt::Display + PartialEq + std::fmt::Debug + treesplit_apps::spec::Objective,
        {
            run_sequential(make_root()).work_units
        }
    }
    app.visit(Units)
}

/// Run `pieces` on `config`/`sim`, stopping after `limit` units when given, and fold the run
/// into `snapshot`.
fn run_into<T: Task>(
    snapshot: &mut Snapshot<T>,
    config: &Config,
    sim: &SimConfig,
    limit: Option<u64>,
) -> Result<(), String> {
    let pieces = std::mem::take(&mut snapshot.pieces);
    let mut config = config.clone().keep_remaining(true);
    if let Some(units) = limit {
        config = config.max_units(units.max(1));
    }
    let ended = simulate(Pieces::new(pieces), &config, sim).map_err(|e| e.to_string())?;
    let (report, remaining) = match ended {
        Ended::Finished(r) => (r.report, Vec::new()),
        Ended::Stopped(s) => (s.report.report, s.remaining),
    };
    let pieces = remaining.into_iter().flat_map(Pieces::into_inner).collect();
    let out = report.output.clone();
    absorb(snapshot, out, report.totals.work_units, pieces);
    Ok(())
}

fn absorb<T: Task>(snapshot: &mut Snapshot<T>, output: T::Output, units: u64, pieces: Vec<T>) {
    snapshot.output.merge(output);
    snapshot.work_units += units;
    snapshot.pieces = pieces;
    snapshot.runs += 1;
}

/// Stop, write the snapshot to bytes and read it back, resume elsewhere, finish: the output
/// and the units must be the sequential run's.
fn check_resume<T: Task>(
    make: impl Fn() -> T,
    first: &Case,
    resume: &Case,
    stops: (u64, Option<u64>),
) -> Result<usize, String>
where
    T::Output: PartialEq + std::fmt::Debug,
{
    let seq = run_sequential(make());
    let mut snap = Snapshot::start(make(), vec!["dst".into()]);
    run_into(&mut snap, &first.config, &first.sim, Some(stops.0))?;
    let carried = snap.pieces.len();
    let bytes = snap.encode().map_err(|e| e.to_string())?;
    let mut snap = Snapshot::<T>::decode(&bytes).map_err(|e| e.to_string())?;
    if let Some(units) = stops.1 {
        run_into(&mut snap, &resume.config, &resume.sim, Some(units))?;
    }
    run_into(&mut snap, &resume.config, &resume.sim, None)?;
    if snap.output != seq.output {
        return Err(format!(
            "resumed result {:?} differs from the sequential {:?}",
            snap.output, seq.output
        ));
    }
    if snap.work_units != seq.work_units || !snap.pieces.is_empty() {
        return Err(format!(
            "work not conserved across the resume: {} units in {} runs ({} pieces left), the sequential run does {}",
            snap.work_units,
            snap.runs,
            snap.pieces.len(),
            seq.work_units
        ));
    }
    Ok(carried)
}

/// BFS level by level in the simulator against a queue BFS; each level's output and units
/// against the level's sequential run.
fn check_bfs(case: &Case, rmat: (u32, u64, u64), source: u32) -> Result<(), String> {
    let graph = Arc::new(Graph::rmat(rmat.0, rmat.1, rmat.2)?);
    let source = source % graph.vertices() as u32;
    let key_base = BFS_KEYS.fetch_add(1 << 32, Ordering::Relaxed);
    let dist = level_bfs(
        &graph,
        source,
        key_base,
        |key| {
            let seq = run_sequential(LevelPiece::root(key));
            let r = simulate(LevelPiece::root(key), &case.config, &case.sim)
                .map_err(|e| e.to_string())?
                .into_report();
            let mut found = r.report.output.clone();
            let mut expected = seq.output.clone();
            // A vertex reached over two edges of a level may be found twice (on two PEs,
            // or by two pieces); the level's set is what counts.
            for v in [&mut found.vertices, &mut expected.vertices] {
                v.sort_unstable();
                v.dedup();
            }
            if found.vertices != expected.vertices {
                return Err(format!("level {key:#x}: other vertices than sequentially"));
            }
            if r.report.totals.work_units != seq.work_units {
                return Err(format!(
                    "level {key:#x}: {} units, sequentially {}",
                    r.report.totals.work_units, seq.work_units
                ));
            }
            Ok(Some(r.report.output))
        },
        |_| {},
    )?;
    let expected = sequential_bfs(&graph, source);
    if dist != expected {
        return Err("BFS distances differ from the queue BFS".into());
    }
    Ok(())
}

/// A DAG under `scheduler` on the case's simulated machine.
fn check_dag(case: &Case, dag: &Arc<Dag>, scheduler: DagScheduler) -> Result<(), String> {
    let config = DagConfig::new(case.config.pes, scheduler)
        .delta_t(case.config.delta_t)
        .seed(case.config.seed);
    let r = simulate_dag(DagTask::shared(Arc::clone(dag), 0), &config, &case.sim)
        .map_err(|e| e.to_string())?
        .into_report();
    let p = r.report.pes();
    let (e, _) = evaluate(dag, &r.report.output, p, scheduler.workers(p), 1, 1.0)
        .map_err(|e| format!("infeasible schedule: {e}"))?;
    if r.report.totals.work_units != dag.work() {
        return Err(format!(
            "{} units of work done, the DAG holds {}",
            r.report.totals.work_units,
            dag.work()
        ));
    }
    if !e.holds_with_communication {
        return Err(format!(
            "makespan {} exceeds W'/w + L' + C = {}",
            e.makespan, e.bound_with_communication
        ));
    }
    Ok(())
}
