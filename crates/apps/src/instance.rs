//! What an application instance ([`AppSpec`]) tells the command line about itself beyond its
//! task: the flags it refuses in each use and why, what it adapts to the machine (the hash
//! table's m = P·q, the synthetic tree's spin in the simulator), the memory it takes, the
//! words that recreate it in a checkpoint, its rayon peer for `bench`, its picture and its
//! scattered data. The command line asks these questions of every instance alike and names
//! none.

use crate::app::{Failed, Host, Refusal, Session, Use, LIMIT_FLAGS};
use crate::spec::PuzzleSpec;
use crate::{rayon_peers, AppSpec, NQueens, Synthetic, Uts};
use treesplit::{Config, Task};

const TIMELINE: &[(&str, &str)] = &[("trace", "--trace"), ("gantt", "--gantt")];
const CHECKPOINT: &[(&str, &str)] = &[
    ("checkpoint", "--checkpoint"),
    ("checkpoint_every", "--checkpoint-every"),
];
const BFS_LIMITS: &str = "does not apply to bfs: its levels run one after another, each a computation of its own, and every run is checked against a sequential BFS";

const BFS_RUN: &[Refusal] = &[
    Refusal {
        flags: &[("baseline", "--baseline"), ("trace", "--trace"), ("gantt", "--gantt")],
        why: "does not apply to bfs: its levels are one computation each, so there is no single timeline or baseline (time `run bfs --sequential` or use `bench bfs`)",
    },
    Refusal {
        flags: LIMIT_FLAGS,
        why: BFS_LIMITS,
    },
    Refusal {
        flags: CHECKPOINT,
        why: "does not apply to bfs: its levels are one computation each (checkpoint an application with one tree search)",
    },
];

const BFS_SIM: &[Refusal] = &[
    Refusal {
        flags: TIMELINE,
        why: "does not apply to bfs: its levels are simulated one after another, so there is no single timeline",
    },
    Refusal {
        flags: LIMIT_FLAGS,
        why: BFS_LIMITS,
    },
];

const IDA_RUN: &[Refusal] = &[
    Refusal {
        flags: &[("baseline", "--baseline")],
        why: "does not apply to puzzle15 (IDA* runs one computation per threshold; time `run puzzle15 --sequential` separately)",
    },
    Refusal {
        flags: TIMELINE,
        why: "does not apply to puzzle15: IDA* runs one computation per threshold, so there is no single timeline",
    },
    Refusal {
        flags: CHECKPOINT,
        why: "does not apply to puzzle15: IDA* runs one computation per threshold (checkpoint an application with one tree search)",
    },
];

const IDA_SIM: &[Refusal] = &[
    Refusal {
        flags: &[("gantt", "--gantt")],
        why: "does not apply to puzzle15: IDA* simulates one computation per threshold, so there is no single timeline to draw",
    },
    Refusal {
        flags: &[("trace", "--trace")],
        why: "does not apply to puzzle15: IDA* simulates one computation per threshold, so there is no single timeline",
    },
];

/// Why `--rayon-depth` is refused for applications whose rayon peer has no depth cut-off.
pub const RAYON_DEPTH_WHY: &str =
    "applies only to nqueens and uts (the rayon peers with a depth cut-off)";

/// An application's picture of its result (`mandelbrot --png`): RGB pixels, row-major from
/// the top left.
pub struct Picture {
    /// Where it goes.
    pub path: std::path::PathBuf,
    /// Pixels per side (the picture is square).
    pub side: u32,
    /// The pixels, `side × side`.
    pub pixels: Vec<[u8; 3]>,
}

/// Randomly scattered data the instance holds (the hash table's keys in P·q buckets), for
/// paper 003's predictions beside the measured efficiency.
pub struct Scattered {
    /// The items (keys).
    pub items: usize,
    /// Subproblems (buckets) per PE.
    pub q: u64,
    /// The load factor α = items / (P·q).
    pub alpha: f64,
}

/// The memory an instance takes at its peak in one process, estimated from its parameters
/// before its data is built ([`AppSpec::footprint`]), so that the command line can refuse an
/// instance the machine cannot hold instead of running out of memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Footprint {
    /// Bytes.
    pub bytes: u64,
    /// What takes them, in words ("generating and searching 1024 vertices and 16384 edges").
    pub what: String,
    /// What to change for a smaller instance, in the command line's words.
    pub smaller: &'static str,
}

/// Something done with an application that has an idiomatic rayon peer (see
/// [`AppSpec::visit_peer`]).
pub trait PeerVisitor {
    /// What the visit returns.
    type Out;
    /// Work with the task built by `make_root` and its rayon peer `rayon_run`, whose result is
    /// the task's output.
    fn visit<T: Task>(
        self,
        make_root: impl Fn() -> T,
        rayon_run: impl Fn() -> T::Output + Sync,
    ) -> Self::Out
    where
        T::Output: PartialEq + std::fmt::Debug + Send;
}

impl AppSpec {
    /// The application's name on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            AppSpec::NQueens(_) => "nqueens",
            AppSpec::Uts(_) => "uts",
            AppSpec::Synthetic(_) => "synthetic",
            AppSpec::Knapsack(_) => "knapsack",
            AppSpec::Golomb(_) => "golomb",
            AppSpec::Puzzle15(_) => "puzzle15",
            AppSpec::Hashtable(_) => "hashtable",
            AppSpec::Mandelbrot(_) => "mandelbrot",
            AppSpec::Integrate(_) => "integrate",
            AppSpec::Bfs(_) => "bfs",
        }
    }

    /// The flags the instance refuses in `used`, and why.
    pub fn refusals(&self, used: Use) -> &'static [Refusal] {
        match (self, used) {
            (AppSpec::Bfs(_), Use::Run) => BFS_RUN,
            (AppSpec::Bfs(_), Use::Sim) => BFS_SIM,
            (AppSpec::Puzzle15(_), Use::Run) => IDA_RUN,
            (AppSpec::Puzzle15(_), Use::Sim) => IDA_SIM,
            _ => &[],
        }
    }

    /// Why the instance cannot be used so at all, if it cannot.
    pub fn refuses(&self, used: Use) -> Option<&'static str> {
        match (self, used) {
            (AppSpec::Puzzle15(_), Use::Fault) => Some("TREESPLIT_FAULT does not apply to puzzle15 (IDA* runs no injected faults); use another application"),
            (AppSpec::Bfs(_), Use::Fault) => Some("TREESPLIT_FAULT does not apply to bfs (its levels run no injected faults); use another application"),
            _ => None,
        }
    }

    /// Whether `--q` (and, with `--sequential`, `--seed`) is the instance's own parameter
    /// (the hash table's subtable size and its keys' seed) rather than a balancer option.
    pub fn takes_q(&self) -> bool {
        matches!(self, AppSpec::Hashtable(_))
    }

    /// Adapt the instance to the machine: `q` (`--q`), P and the seed (`--seed`).
    pub fn adapt(&mut self, q: Option<u64>, pes: usize, seed: Option<u64>) -> Result<(), String> {
        match self {
            AppSpec::Hashtable(h) => h.adapt(q, pes, seed),
            _ => Ok(()),
        }
    }

    /// The memory the instance takes (data, the copies its run makes on this process's PEs,
    /// the sequential check of its answer), for the instances whose data can be large: the
    /// hash table's keys and BFS's graph. Its data is built on first use, after this.
    pub fn footprint(&self) -> Option<Footprint> {
        match self {
            AppSpec::Hashtable(h) => Some(h.footprint()),
            AppSpec::Bfs(b) => Some(b.footprint()),
            _ => None,
        }
    }

    /// Adapt the instance to the simulator, where time is virtual: a synthetic tree spins
    /// once per unit unless `spin_given`.
    pub fn for_simulator(&mut self, spin_given: bool) {
        if let AppSpec::Synthetic(p) = self {
            if !spin_given {
                p.spin = 1;
            }
        }
    }

    /// Whether the instance runs as a sequence of computations by its own loop
    /// ([`AppSpec::run_sequence`]) rather than as one task.
    pub fn runs_itself(&self) -> bool {
        matches!(self, AppSpec::Puzzle15(_) | AppSpec::Bfs(_))
    }

    /// The words that recreate the instance as the arguments of `treesplit run` (a
    /// checkpoint's): files are named by their absolute paths.
    pub fn checkpoint_words(&self) -> Vec<String> {
        match self {
            AppSpec::Knapsack(k) => vec![
                "knapsack".into(),
                std::fs::canonicalize(&k.path)
                    .unwrap_or_else(|_| k.path.clone())
                    .display()
                    .to_string(),
            ],
            other => other
                .cli_args()
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        }
    }

    /// The rayon peer's default depth cut-off (`--rayon-depth`), where it has one.
    pub fn rayon_depth(&self) -> Option<u32> {
        match self {
            AppSpec::NQueens(_) => Some(3),
            AppSpec::Uts(_) => Some(u32::MAX),
            _ => None,
        }
    }

    /// Hand the task and its idiomatic rayon peer (with `rayon_depth` or its default cut-off)
    /// to `visitor`; `None` when the application has no rayon peer.
    pub fn visit_peer<V: PeerVisitor>(
        &self,
        visitor: V,
        rayon_depth: Option<u32>,
    ) -> Option<V::Out> {
        Some(match self {
            AppSpec::NQueens(n) => {
                let (n, depth) = (*n, rayon_depth.unwrap_or(3));
                visitor.visit(
                    move || NQueens::new(n).expect("a validated N-Queens instance"),
                    move || rayon_peers::nqueens(n, depth),
                )
            }
            AppSpec::Uts(p) => {
                let depth = rayon_depth.unwrap_or(u32::MAX);
                visitor.visit(move || Uts::new(*p), move || rayon_peers::uts(p, depth))
            }
            AppSpec::Synthetic(p) => visitor.visit(
                move || Synthetic::new(*p).expect("validated synthetic parameters"),
                move || rayon_peers::synthetic(p),
            ),
            _ => return None,
        })
    }

    /// What `bench` times of the instance's search.
    pub fn bench_measured(&self) -> String {
        match self {
            AppSpec::Puzzle15(PuzzleSpec { optimal: Some(o), .. }) => format!("the last IDA* iteration only (threshold {o}, the optimal length), not the iterations before it; `treesplit run puzzle15` times them all"),
            AppSpec::Puzzle15(spec) => format!("one IDA* iteration only, at threshold {} (the Manhattan distance; the optimal length of a --tiles board is not known in advance); `treesplit run puzzle15` times all iterations", crate::puzzle15::manhattan(&spec.tiles)),
            _ => "the whole search".into(),
        }
    }

    /// The picture the user asked for (`mandelbrot --png`), computed again.
    pub fn picture(&self) -> Option<Picture> {
        let AppSpec::Mandelbrot(m) = self else {
            return None;
        };
        let path = m.png.clone()?;
        Some(Picture {
            path,
            side: m.params.n as u32,
            pixels: crate::mandelbrot::picture(&m.params),
        })
    }

    /// The instance's randomly scattered data, where it has some.
    pub fn scattered(&self) -> Option<Scattered> {
        let AppSpec::Hashtable(h) = self else {
            return None;
        };
        Some(Scattered {
            items: h.len() as usize,
            q: h.q,
            alpha: h.alpha(),
        })
    }
}

/// The applications that run as a sequence of computations by their own loop.
impl AppSpec {
    /// Run the instance's own loop on `machine` with `config` (see
    /// [`AppSpec::runs_itself`]).
    pub fn run_sequence<H: Host>(
        &self,
        machine: &H,
        config: &Config,
        session: &dyn Session,
    ) -> Result<(), Failed> {
        match self {
            AppSpec::Puzzle15(spec) => crate::puzzle15::search::run(spec, machine, config, session),
            AppSpec::Bfs(spec) => {
                crate::bfs::levels::run(spec, &self.describe(), machine, config, session)
            }
            _ => Err(Failed::Run(format!("{} runs as one task", self.name()))),
        }
    }

    /// Run the instance's own loop sequentially (`run --sequential`).
    pub fn run_sequence_sequential(&self, session: &dyn Session) -> Result<(), Failed> {
        match self {
            AppSpec::Puzzle15(spec) => crate::puzzle15::search::run_sequential_ida(spec, session),
            AppSpec::Bfs(spec) => {
                crate::bfs::levels::run_sequential_bfs(spec, &self.describe(), session)
            }
            _ => Err(Failed::Run(format!("{} runs as one task", self.name()))),
        }
    }

    /// `bench` of an application with its own benchmark loop (its sequential peer against
    /// its loop on `config`'s P threads), `repeat` times; `None` for the others.
    pub fn bench_itself(
        &self,
        config: &Config,
        repeat: usize,
        session: &dyn Session,
    ) -> Option<Result<(), Failed>> {
        match self {
            AppSpec::Bfs(spec) => Some(crate::bfs::levels::bench(
                spec,
                &self.describe(),
                config,
                repeat,
                session,
            )),
            _ => None,
        }
    }
}
