//! An application instance as plain data (what the command line names): used to build the
//! task, to describe it, to check its result against the published answer, and to write the
//! command line that reproduces a run. [`AppSpec::visit`] is the one place that turns an
//! instance into its concrete task type.

pub use crate::bfs::{BfsSpec, GraphSource};
use crate::golomb::{is_golomb, Golomb};
use crate::integrate::{Integrate, IntegrateParams};
use crate::knapsack::{Instance, Knapsack};
use crate::mandelbrot::{MandelParams, Mandelbrot};
use crate::puzzle15::{Puzzle15, Tiles};
use crate::synthetic::{SplitRule, Synthetic, SyntheticParams};
use crate::uts::{Uts, UtsParams};
use crate::NQueens;
use serde::Serialize;

pub use crate::objective::Objective;
use std::fmt::{Debug, Display};
use std::path::PathBuf;
use std::sync::Arc;
use treesplit::Task;

/// Solutions of N-Queens for n = 1..=20 (OEIS A000170).
pub const NQUEENS_SOLUTIONS: [u64; 20] = [
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
];

/// A published answer and whether a result reproduced it.
#[derive(Debug, Clone, Serialize)]
pub struct Published {
    /// Where the answer comes from.
    pub source: String,
    /// The answer.
    pub value: String,
    /// The result equals it.
    pub matches: bool,
}

impl Published {
    /// The line comparing a result with the published value.
    pub fn line(&self) -> String {
        let mark = if self.matches {
            "matches"
        } else {
            "DOES NOT MATCH"
        };
        format!("published ({}): {} — {mark}", self.source, self.value)
    }

    /// The wrong answer, when the result does not match.
    pub fn mismatch(&self) -> Option<String> {
        (!self.matches).then(|| {
            format!(
                "the result does not match the published {} ({})",
                self.value, self.source
            )
        })
    }
}

/// Something done with an application's task, whatever its type (see [`AppSpec::visit`]).
pub trait AppVisitor {
    /// What the visit returns.
    type Out;
    /// Work with the task built by `make_root`; `published` checks a result against the
    /// published answer, where there is one.
    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        published: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug + Objective;
}

/// Optimal Golomb ruler lengths for n = 2..=16 marks (OEIS A003022).
pub const GOLOMB_LENGTHS: [u32; 15] = [1, 3, 6, 11, 17, 25, 34, 44, 55, 72, 85, 106, 127, 151, 177];

/// A knapsack instance read from a file (compared by path).
#[derive(Debug, Clone)]
pub struct KnapsackFile {
    /// The file.
    pub path: PathBuf,
    /// Its contents.
    pub instance: Arc<Instance>,
    /// The published optimum, from `index.tsv` beside the file, where listed.
    pub optimum: Option<u64>,
}

impl PartialEq for KnapsackFile {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}

impl KnapsackFile {
    /// Read `path` (`-`: standard input, without a published optimum) and look its published
    /// optimum up in `index.tsv` in the same folder, if there is one; a malformed `index.tsv`
    /// is an error, not silently no optimum.
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        if path == std::path::Path::new("-") {
            let text = std::io::read_to_string(std::io::stdin())
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            return Ok(KnapsackFile {
                path: path.to_path_buf(),
                instance: shared(Instance::parse(&text, "<stdin>")?),
                optimum: None,
            });
        }
        let instance = Instance::read(path)?;
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let index = path.with_file_name("index.tsv");
        let optimum = match std::fs::read_to_string(&index) {
            Ok(text) => index_optimum(&text, &index.display().to_string(), name, &instance)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("cannot read {}: {e}", index.display())),
        };
        let instance = shared(instance);
        Ok(KnapsackFile {
            path: path.to_path_buf(),
            instance,
            optimum,
        })
    }
}

/// `instance` held in this process's table of shared instances, so that pieces naming it by
/// digest can arrive here (every process that reads the file holds it while the file's
/// [`KnapsackFile`] lives).
fn shared(instance: Instance) -> Arc<Instance> {
    Arc::clone(treesplit::task::shared::Shared::from_arc(Arc::new(instance)).arc())
}

/// The optimum `index.tsv` (its text, named `file` in errors) lists for instance `name`:
/// every line but `#` comments and blank ones is `name n capacity optimum …`, tab-separated;
/// the entry of `name` must agree with the instance's n and capacity.
pub fn index_optimum(
    text: &str,
    file: &str,
    name: &str,
    instance: &Instance,
) -> Result<Option<u64>, String> {
    let mut found = None;
    for (k, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let at = |m: String| format!("{file}:{}: {m}", k + 1);
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        let num = |i: usize, what: &str| -> Result<u64, String> {
            f.get(i)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| at(format!("expected name, n, capacity and optimum separated by tabs; the {what} is missing or not a whole number")))
        };
        let (n, capacity, optimum) = (num(1, "n")?, num(2, "capacity")?, num(3, "optimum")?);
        if f[0] == name {
            if n != instance.len() as u64 || capacity != instance.capacity {
                return Err(at(format!(
                    "{name} is listed with n = {n}, capacity {capacity}, but the file has n = {}, capacity {}",
                    instance.len(),
                    instance.capacity
                )));
            }
            found = Some(optimum);
        }
    }
    Ok(found)
}

/// A 15-puzzle instance for IDA*.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleSpec {
    /// The start board (blank-first goal).
    pub tiles: Tiles,
    /// Korf's instance number, when it is one.
    pub korf: Option<usize>,
    /// Published optimal length and node count (Korf's convention), when known.
    pub optimal: Option<u32>,
    /// Nodes generated as recomputed in the data file (stop at the first solution).
    pub nodes: Option<u64>,
    /// Explore the last iteration completely (deterministic node count) instead of stopping
    /// at the first solution.
    pub complete_last_iteration: bool,
    /// Randomized move order with this seed (paper 002 §6.2; None: Korf's order).
    pub random_order: Option<u64>,
}

/// Korf's 100 instances with their optimal lengths and node counts (R. E. Korf, 1985; the
/// file's header names its sources).
const KORF100: &str = include_str!("../data/korf100.tsv");

impl PuzzleSpec {
    /// Korf's instance `k` (1..=100) from the data file `path` (`-`: standard input).
    pub fn korf(path: &std::path::Path, k: usize) -> Result<Self, String> {
        if path == std::path::Path::new("-") {
            let text = std::io::read_to_string(std::io::stdin())
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            return Self::korf_in("<stdin>", &text, k);
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Self::korf_in(&path.display().to_string(), &text, k)
    }

    /// Korf's instance `k` from the copy of `korf100.tsv` built into the program (the file
    /// `crates/apps/data/korf100.tsv`), so that no default path points outside
    /// the repository or depends on the working directory.
    pub fn korf_built_in(k: usize) -> Result<Self, String> {
        Self::korf_in("korf100.tsv (built in)", KORF100, k)
    }

    /// Korf's instance `k` from the text of a `korf100.tsv` named `name` in errors.
    pub fn korf_in(name: &str, text: &str, k: usize) -> Result<Self, String> {
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let at = |m: &str| format!("{name}:{}: {m}", i + 1);
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 6 {
                return Err(at(
                    "expected id, h0, optimal length, two node counts and 16 tiles",
                ));
            }
            let id: usize = f[0].trim().parse().map_err(|_| at("bad instance id"))?;
            if id != k {
                continue;
            }
            let tiles: Vec<u8> = f[5]
                .split_whitespace()
                .map(|t| t.parse().map_err(|_| at(&format!("bad tile '{t}'"))))
                .collect::<Result<_, _>>()?;
            let tiles = crate::puzzle15::check_tiles(&tiles).map_err(|e| at(&e))?;
            return Ok(PuzzleSpec {
                tiles,
                korf: Some(k),
                optimal: Some(f[2].trim().parse().map_err(|_| at("bad optimal length"))?),
                nodes: Some(f[4].trim().parse().map_err(|_| at("bad node count"))?),
                complete_last_iteration: false,
                random_order: None,
            });
        }
        Err(format!(
            "{name}: no instance {k} (Korf's instances are 1..=100)"
        ))
    }
}

/// A Mandelbrot run and where to draw it.
#[derive(Debug, Clone, PartialEq)]
pub struct MandelSpec {
    /// The grid and t̂.
    pub params: MandelParams,
    /// Draw the set to this PNG file after the run.
    pub png: Option<PathBuf>,
}

/// One application instance.
#[derive(Debug, Clone, PartialEq)]
pub enum AppSpec {
    /// N-Queens on an n×n board.
    NQueens(u32),
    /// A UTS tree.
    Uts(UtsParams),
    /// A synthetic α-splitting tree.
    Synthetic(SyntheticParams),
    /// 0/1 knapsack by branch-and-bound.
    Knapsack(KnapsackFile),
    /// An optimal Golomb ruler with n marks.
    Golomb(usize),
    /// The 15-puzzle by IDA* (visited as its last iteration; `run` and `sim` run them all).
    Puzzle15(PuzzleSpec),
    /// The distributed hash table of paper 003, Example 2.1.
    Hashtable(crate::hashtable::HashtableSpec),
    /// The Mandelbrot set on an n×n grid (paper 001 §14.1.2).
    Mandelbrot(MandelSpec),
    /// Adaptive Simpson integration of a built-in integrand.
    Integrate(IntegrateParams),
    /// Level-synchronous BFS: a sequence of computations, one per level, which the commands
    /// run themselves (it has no single task to visit).
    Bfs(BfsSpec),
}

impl AppSpec {
    /// True for the searches whose parallel runs explore more or fewer nodes than a
    /// sequential one (search overhead) and may find another solution as good: the
    /// branch-and-bound searches (knapsack, Golomb) and a 15-puzzle iteration that stops at
    /// its first solution. Their answers are judged by the published optimum or the
    /// objective (a valid solution of the same value), not by equality with the sequential
    /// run.
    pub fn is_optimization(&self) -> bool {
        match self {
            AppSpec::Knapsack(_) | AppSpec::Golomb(_) => true,
            AppSpec::Puzzle15(s) => !s.complete_last_iteration,
            _ => false,
        }
    }

    /// Hand the instance's task constructor and published-answer check to `visitor`. The
    /// instance must be valid (as `from_args` and `dst::Case::random` make them).
    pub fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        match *self {
            AppSpec::NQueens(n) => visitor.visit(
                move || NQueens::new(n).expect("a validated N-Queens instance"),
                move |s| published_nqueens(n, *s),
            ),
            AppSpec::Uts(p) => {
                visitor.visit(move || Uts::new(p), move |c| published_uts(&p, c.nodes))
            }
            AppSpec::Synthetic(p) => visitor.visit(
                move || Synthetic::new(p).expect("validated synthetic parameters"),
                move |s| published_synthetic(&p, s.units),
            ),
            AppSpec::Knapsack(ref k) => {
                let (instance, optimum, name) = (
                    Arc::clone(&k.instance),
                    k.optimum,
                    k.path.display().to_string(),
                );
                visitor.visit(
                    move || Knapsack::new(Arc::clone(&instance)),
                    move |best| {
                        optimum.map(|o| Published {
                            source: format!("published optimum of {name} (index.tsv)"),
                            value: o.to_string(),
                            matches: best.profit == o,
                        })
                    },
                )
            }
            AppSpec::Golomb(n) => visitor.visit(
                move || Golomb::new(n).expect("a validated number of marks"),
                move |r| published_golomb(n, &r.marks),
            ),
            AppSpec::Puzzle15(ref s) => {
                let s = s.clone();
                let threshold = s
                    .optimal
                    .unwrap_or_else(|| crate::puzzle15::manhattan(&s.tiles));
                visitor.visit(
                    move || {
                        let root = Puzzle15::new(&s.tiles, threshold, !s.complete_last_iteration);
                        match s.random_order {
                            Some(seed) => root.randomized(seed),
                            None => root,
                        }
                    },
                    move |it| {
                        // The moves must solve the instance, in exactly the threshold's number
                        // of moves when the threshold is the published optimum.
                        let optimal = s.optimal?;
                        let value = it.solution.as_ref().map_or(0, |m| m.len());
                        Some(Published {
                            source: "Korf (1985), the moves replayed on the instance".into(),
                            value: format!("{optimal} moves"),
                            matches: it.solution.as_ref().is_some_and(|m| {
                                crate::puzzle15::solves(&s.tiles, m) && value == optimal as usize
                            }),
                        })
                    },
                )
            }
            AppSpec::Hashtable(ref h) => h.visit(visitor),
            AppSpec::Mandelbrot(ref m) => {
                let p = m.params;
                visitor.visit(
                    move || Mandelbrot::new(p).expect("validated Mandelbrot parameters"),
                    move |c| {
                        Some(Published {
                            source: "every point computed once".into(),
                            value: format!("{} points", p.points()),
                            matches: c.points == p.points(),
                        })
                    },
                )
            }
            AppSpec::Integrate(p) => visitor.visit(
                move || Integrate::new(p).expect("validated integration parameters"),
                move |r| published_integral(&p, r.value()),
            ),
            AppSpec::Bfs(_) => {
                unreachable!("bfs runs level by level: the commands route it to commands::bfs")
            }
        }
    }

    /// The application's arguments on the `treesplit` command line.
    pub fn cli_args(&self) -> String {
        match self {
            AppSpec::NQueens(n) => format!("nqueens {n}"),
            AppSpec::Uts(p) => format!("uts {p}"),
            AppSpec::Knapsack(k) => format!("knapsack {}", k.path.display()),
            AppSpec::Golomb(n) => format!("golomb {n}"),
            AppSpec::Puzzle15(s) => match s.korf {
                Some(k) => format!("puzzle15 --korf {k}"),
                None => format!(
                    "puzzle15 --tiles \"{}\"",
                    s.tiles
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            },
            AppSpec::Hashtable(h) => match &h.source {
                crate::hashtable::KeySource::Generated { n, seed } => {
                    format!("hashtable --keys {n} --q {} --seed {seed}", h.q)
                }
                crate::hashtable::KeySource::File(f) => {
                    format!("hashtable --file {} --q {}", f.display(), h.q)
                }
            },
            AppSpec::Mandelbrot(m) => {
                let p = &m.params;
                format!(
                    "mandelbrot --n {} --z0 {},{} --a0 {} --max-iter {}",
                    p.n, p.z0_re, p.z0_im, p.a0, p.max_iter
                )
            }
            AppSpec::Integrate(p) => format!(
                "integrate --f {} --tol {:e} --pieces {}",
                p.f.name(),
                p.tol,
                p.pieces
            ),
            AppSpec::Bfs(b) => match &b.input {
                GraphSource::File(path) => format!("bfs {} --source {}", path.display(), b.source),
                GraphSource::Rmat {
                    scale,
                    edge_factor,
                    seed,
                } => format!(
                    "bfs --rmat {scale} --edge-factor {edge_factor} --graph-seed {seed} --source {}",
                    b.source
                ),
            },
            AppSpec::Synthetic(p) => format!(
                "synthetic --work {} --alpha {} --atomic {} --split {} --spin {} --tree-seed {}",
                p.work,
                p.alpha,
                p.atomic,
                match p.rule {
                    SplitRule::Random => "random",
                    SplitRule::Adversarial => "adversarial",
                },
                p.spin,
                p.seed
            ),
        }
    }

    /// A short description, naming UTS trees that have a name.
    pub fn describe(&self) -> String {
        match self {
            AppSpec::Uts(p) => match p.published_nodes() {
                Some((name, _)) => format!("uts {name} ({p})"),
                None => format!("uts {p}"),
            },
            AppSpec::Hashtable(h) => format!(
                "{} ({} keys in m = P·q = {} buckets, load factor α = {:.3})",
                self.cli_args(),
                h.len(),
                h.buckets(),
                h.alpha()
            ),
            other => other.cli_args(),
        }
    }

    /// Δt in work units for about 10–25 µs of real work per slice on a current core: short
    /// enough that requests are answered quickly, long enough that polling costs about 1 %.
    pub fn default_delta_t(&self) -> u64 {
        match self {
            AppSpec::NQueens(_) => 4096, // ~6 ns per node
            AppSpec::Uts(_) => 256,      // ~55 ns per node (one SHA-1)
            AppSpec::Synthetic(p) => (8192 / u64::from(p.spin.max(1))).max(16), // ~1.5 ns per mixer round
            AppSpec::Knapsack(_) => 1024, // ~20 ns per node (a bound by binary search)
            AppSpec::Golomb(_) => 2048,   // ~10 ns per candidate
            AppSpec::Puzzle15(_) => 1024, // ~10 ns per node generated
            AppSpec::Hashtable(_) => 8192, // ~1-2 ns per key comparison
            AppSpec::Mandelbrot(_) => 2048, // ~5 ns per step
            AppSpec::Integrate(_) => 1024, // ~10-20 ns per evaluation
            AppSpec::Bfs(_) => 4096,      // ~3 ns per edge scanned
        }
    }
}

/// The published optimal length for n marks, against a ruler (checked to be a Golomb ruler).
pub fn published_golomb(n: usize, marks: &[u32]) -> Option<Published> {
    let expected = *GOLOMB_LENGTHS.get(n.checked_sub(2)?)?;
    Some(Published {
        source: "OEIS A003022".into(),
        value: format!("length {expected}"),
        matches: marks.len() == n && marks.last() == Some(&expected) && is_golomb(marks),
    })
}

/// The closed form of an integral, against the value computed: within the tolerance.
pub fn published_integral(p: &IntegrateParams, value: f64) -> Option<Published> {
    let exact = p.f.exact();
    Some(Published {
        source: format!("closed form {}, within --tol {:e}", p.f.formula(), p.tol),
        value: format!("{exact:.17e}"),
        matches: (value - exact).abs() <= p.tol,
    })
}

/// The published N-Queens count for n, against `solutions`.
pub fn published_nqueens(n: u32, solutions: u64) -> Option<Published> {
    let expected = *NQUEENS_SOLUTIONS.get(n.checked_sub(1)? as usize)?;
    Some(Published {
        source: "OEIS A000170".into(),
        value: expected.to_string(),
        matches: expected == solutions,
    })
}

/// The published node count of a named UTS tree, against `nodes`.
pub fn published_uts(p: &UtsParams, nodes: u64) -> Option<Published> {
    let (name, expected) = p.published_nodes()?;
    Some(Published {
        source: format!("UTS published node count of {name}"),
        value: format!("{expected} nodes"),
        matches: expected == nodes,
    })
}

/// The known total work of a synthetic tree, against the units done.
pub fn published_synthetic(p: &SyntheticParams, units: u64) -> Option<Published> {
    Some(Published {
        source: "known total work".into(),
        value: format!("{} units", p.work),
        matches: units == p.work,
    })
}
