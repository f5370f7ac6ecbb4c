//! `treesplit run maxclique (FILE | --random N,P)`: the application's command-line face, and
//! what its instance tells the commands (its task, the check that the witness is a clique of
//! the reported size, that it is a search, the words that recreate it). `bench maxclique`
//! also takes a folder of graphs ([`super::bench`]); the other commands refuse one.

use super::Graph;
use crate::app::{AppError, RunOption};
use crate::params::{Param, Type, Values};
use crate::spec::{AppVisitor, Published};
use std::path::{Path, PathBuf};
use treesplit::task::shared::Shared;

/// `treesplit run maxclique`.
pub struct App;

/// The graph (a file or G(n, p)) and how ω is checked.
const PARAMS: &[Param] = &[
    Param::positional("file", Type::Path, "The DIMACS `.clq` file or edge list (`-`: standard input); for `bench`, also a folder, whose `.clq` files are timed one by one")
        .required_unless(&["random"])
        .conflicts(&["random"]),
    Param::long("random", Type::Text, "A random graph G(n, p) instead of a file: N vertices, each pair an edge with probability P (e.g. `--random 150,0.75`); drawn from --instance-seed, else --seed (default 1)").value_name("N,P"),
    Param::long("omega", Type::U32, "The known clique number: check ω against W instead of the one index.tsv beside the file publishes").value_name("W").conflicts(&["no-published"]),
    Param::switch("no-published", "Check ω against no published value: ignore index.tsv beside the file (the witness is still checked to be a clique of the graph)").conflicts(&["random"]),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "maxclique"
    }

    fn about(&self) -> &'static str {
        "Maximum clique by branch-and-bound (greedy-colouring bound) of a DIMACS graph (`p edge n m`, `e u v`, 1-based, `c` comments, an optional `END` line), of an edge list without a header (`u v` lines, 1-based; `c`, `#`, `%` comments) or of G(n, p); reports ω and a clique, checked against the graph (and ω against index.tsv beside the file or --omega)"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn reads_stdin(&self, values: &Values) -> bool {
        values.path("file").as_deref() == Some(Path::new("-"))
    }

    fn example(&self) -> &'static [&'static str] {
        &["--random", "40,0.5"]
    }
}

impl crate::app::Parse for App {
    type Instance = MaxCliqueSpec;

    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let check = CliqueCheck {
            omega: values.get("omega")?,
            no_published: values.switch("no-published"),
        };
        let random: Option<String> = values.get("random")?;
        match (values.path("file"), random) {
            (Some(path), None) => MaxCliqueSpec::open(&path, &check),
            (None, Some(np)) => parse_random(&np)
                .and_then(|(n, p)| MaxCliqueSpec::random(n, p, 1))
                .map(|s| s.with_check(&check)),
            _ => Err("maxclique needs a DIMACS FILE or --random N,P".into()),
        }
        .map_err(AppError::BadInput)
    }
}

/// `N,P` of `--random`: 1 ≤ N ≤ the supported vertices, 0 ≤ P ≤ 1.
fn parse_random(np: &str) -> Result<(usize, f64), String> {
    let bad =
        || format!("--random takes N,P (vertices, edge probability), e.g. 150,0.75; got '{np}'");
    let (n, p) = np.split_once(',').ok_or_else(bad)?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    let p: f64 = p.trim().parse().map_err(|_| bad())?;
    if n == 0 || n > super::graph::MAX_VERTICES {
        return Err(format!(
            "--random: N must be in 1..={}, got {n} ({})",
            super::graph::MAX_VERTICES,
            super::graph::WHY_MAX_VERTICES
        ));
    }
    if !(0.0..=1.0).contains(&p) {
        return Err(format!("--random: P must be in [0, 1], got {p}"));
    }
    Ok((n, p))
}

/// Where a maximum-clique instance's graph comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum CliqueSource {
    /// A DIMACS file (`-`: standard input).
    File(PathBuf),
    /// A folder's `.clq` files, in name order (`bench` only).
    Folder {
        /// The folder.
        dir: PathBuf,
        /// Its `.clq` files.
        files: Vec<PathBuf>,
    },
    /// G(n, p) drawn from a seed.
    Random {
        /// Vertices.
        n: usize,
        /// Edge probability.
        p: f64,
        /// The seed (`--seed`).
        seed: u64,
    },
}

/// How the command line asks ω to be checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CliqueCheck {
    /// `--omega W`: the known clique number, instead of a published one.
    pub omega: Option<u32>,
    /// `--no-published`: no ω from `index.tsv`.
    pub no_published: bool,
}

/// A maximum-clique instance: its source and its graph (compared by source).
#[derive(Debug, Clone)]
pub struct MaxCliqueSpec {
    /// Where the graph comes from.
    pub source: CliqueSource,
    /// The graph, held in this process's table of shared instances.
    pub graph: Shared<Graph>,
    /// ω as `--omega` gives it or a table beside the file publishes it, and where
    /// ([`published_omega`]).
    pub omega: Option<(u32, String)>,
    /// The command line's check options.
    pub check: CliqueCheck,
}

impl PartialEq for MaxCliqueSpec {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl MaxCliqueSpec {
    /// The graph of a DIMACS file or edge list (`-`: standard input), ω as index.tsv beside
    /// it publishes it.
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        Self::open(path, &CliqueCheck::default())
    }

    /// The graph of a DIMACS file or edge list (`-`: standard input), ω as `check` asks.
    pub fn open(path: &std::path::Path, check: &CliqueCheck) -> Result<Self, String> {
        if path.is_dir() {
            return Self::folder(path, check);
        }
        let graph = Graph::read(path)?;
        let omega = if check.omega.is_some() || check.no_published {
            None
        } else {
            published_omega(path, &graph).map_err(|e| {
                format!("{e} (--no-published runs without index.tsv; --omega W gives ω)")
            })?
        };
        Ok(MaxCliqueSpec {
            omega,
            source: CliqueSource::File(path.to_path_buf()),
            graph: Shared::new(graph),
            check: CliqueCheck::default(),
        }
        .with_check(check))
    }

    /// The `.clq` files of the folder `dir`, for `bench`; the instance's graph is the first.
    fn folder(dir: &Path, check: &CliqueCheck) -> Result<Self, String> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: cannot list the folder: {e}", dir.display()))?;
        let mut files = Vec::new();
        for entry in entries {
            let entry =
                entry.map_err(|e| format!("{}: cannot list the folder: {e}", dir.display()))?;
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "clq") && path.is_file() {
                files.push(path);
            }
        }
        files.sort();
        let Some(first) = files.first() else {
            return Err(format!(
                "{}: a folder without .clq files (bench maxclique DIR times the DIMACS .clq files of a folder)",
                dir.display()
            ));
        };
        let mut spec = Self::open(first, check)?;
        spec.source = CliqueSource::Folder {
            dir: dir.to_path_buf(),
            files,
        };
        Ok(spec)
    }

    /// The graphs `bench` times: the instance's, or each of its folder's.
    fn bench_graphs(&self) -> Result<Vec<super::bench::Bench>, String> {
        let one = |spec: &MaxCliqueSpec, file: Option<&Path>| super::bench::Bench {
            name: file.map_or_else(
                || crate::instance::Instance::cli_args(self),
                |f| {
                    f.file_name()
                        .map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into())
                },
            ),
            file: file.filter(|f| *f != Path::new("-")).map(Path::to_path_buf),
            graph: spec.graph.clone(),
            omega: spec.omega.as_ref().map(|(w, _)| *w),
        };
        match &self.source {
            CliqueSource::File(path) => Ok(vec![one(self, Some(path))]),
            CliqueSource::Random { .. } => Ok(vec![one(self, None)]),
            CliqueSource::Folder { files, .. } => files
                .iter()
                .map(|f| Ok(one(&MaxCliqueSpec::open(f, &self.check)?, Some(f))))
                .collect(),
        }
    }

    /// G(n, p) from `seed`.
    pub fn random(n: usize, p: f64, seed: u64) -> Result<Self, String> {
        Ok(MaxCliqueSpec {
            omega: None,
            source: CliqueSource::Random { n, p, seed },
            graph: Shared::new(Graph::random(n, p, seed)?),
            check: CliqueCheck::default(),
        })
    }

    /// The same instance checked as `check` asks (`--omega` replaces a published ω).
    pub fn with_check(mut self, check: &CliqueCheck) -> Self {
        if let Some(w) = check.omega {
            self.omega = Some((w, "--omega gives ω".into()));
        }
        self.check = check.clone();
        self
    }

    /// The check options as command-line words (each after a space; empty by default).
    fn check_words(&self) -> String {
        match (self.check.omega, self.check.no_published) {
            (Some(w), _) => format!(" --omega {w}"),
            (None, true) => " --no-published".into(),
            (None, false) => String::new(),
        }
    }
}

/// The witness against the graph (a clique of the reported size) and, where `omega` is
/// published, ω against it; without a published ω the line says that maximality is not
/// checked.
pub fn witness_check(
    graph: &Graph,
    omega: Option<&(u32, String)>,
    found: &super::Clique,
) -> Published {
    let clique = found.clique.len() == found.omega as usize && graph.is_clique(&found.clique);
    match omega {
        Some((omega, source)) => Published {
            source: format!("{source}; the witness checked against the graph"),
            value: format!("ω = {omega}"),
            matches: clique && found.omega == *omega,
        },
        None => Published {
            source: "no published ω for this graph: only the witness is checked, that it is a clique of the graph, not that it is maximum".into(),
            value: format!(
                "a clique of {}",
                treesplit::words::count(found.omega, "vertex", "vertices")
            ),
            matches: clique,
        },
    }
}

/// ω of the graph in `path` as `index.tsv` beside it publishes it: a tab-separated table
/// whose header line names the columns `file` and `omega` (and `n`, `m` where it gives the
/// graph's size, which must agree with the file's). A file named `index.tsv` without those
/// columns is another table and is ignored, and so is an entry whose ω is not a whole number
/// (unknown or a bound); a listed graph whose size disagrees is an error.
pub fn published_omega(path: &Path, graph: &Graph) -> Result<Option<(u32, String)>, String> {
    if path == Path::new("-") {
        return Ok(None);
    }
    let index = path.with_file_name("index.tsv");
    if !index.is_file() {
        return Ok(None);
    }
    let (text, _) = crate::input::read_text(&index)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let Some(header) = lines.next() else {
        return Ok(None);
    };
    let columns: Vec<&str> = header.split('\t').map(str::trim).collect();
    let col = |c: &str| columns.iter().position(|&h| h == c);
    let (Some(file), Some(omega)) = (col("file"), col("omega")) else {
        return Ok(None);
    };
    for line in lines {
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        if f.get(file) != Some(&name) {
            continue;
        }
        let at = format!("{} (the entry of {name})", index.display());
        let number =
            |i: Option<usize>| i.and_then(|i| f.get(i)).and_then(|v| v.parse::<u64>().ok());
        // An unknown or bounded ω ("?", "≥ 21", blank) is no published ω.
        let Some(omega) = number(Some(omega)).and_then(|w| u32::try_from(w).ok()) else {
            return Ok(None);
        };
        for (what, listed, has) in [
            ("n", number(col("n")), graph.len() as u64),
            ("m", number(col("m")), graph.edges()),
        ] {
            if listed.is_some_and(|l| l != has) {
                return Err(format!(
                    "{at}: lists {what} = {}, but the graph has {what} = {has}: the table is not of this graph",
                    listed.unwrap_or(0)
                ));
            }
        }
        return Ok(Some((omega, format!("{} lists ω", index.display()))));
    }
    Ok(None)
}

impl crate::instance::Instance for MaxCliqueSpec {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let (root, check, omega) = (self.graph.clone(), self.graph.clone(), self.omega.clone());
        visitor.visit(
            move || super::MaxClique::new(root.clone()),
            move |found| Some(witness_check(&check, omega.as_ref(), found)),
        )
    }

    fn cli_args(&self) -> String {
        let source = match &self.source {
            CliqueSource::File(path) | CliqueSource::Folder { dir: path, .. } => {
                format!("maxclique {}", path.display())
            }
            CliqueSource::Random { n, p, seed } => {
                format!("maxclique --random {n},{p} --instance-seed {seed}")
            }
        };
        source + &self.check_words()
    }

    /// A node colours its candidates: ~0.2–2 µs on graphs of a few hundred vertices.
    fn default_delta_t(&self) -> u64 {
        32
    }

    /// A folder of graphs is for `bench` only.
    fn refuses(&self, used: crate::app::Use) -> Option<&'static str> {
        (matches!(self.source, CliqueSource::Folder { .. }) && used != crate::app::Use::Bench)
            .then_some("a folder of graphs is for `treesplit bench maxclique DIR` only; run, sim and compare take one graph FILE")
    }

    /// Every graph against the MCQ peer, cliquer, and treesplit at 1 and P PEs.
    fn bench_itself(
        &self,
        config: &treesplit::Config,
        repeat: usize,
        session: &dyn crate::app::Session,
    ) -> Option<Result<(), crate::app::AppError>> {
        Some(
            self.bench_graphs()
                .map_err(crate::app::AppError::BadInput)
                .and_then(|graphs| super::bench::bench(&graphs, config, repeat, session)),
        )
    }

    /// Branch-and-bound.
    fn is_optimization(&self) -> bool {
        true
    }

    /// The seed draws a random graph.
    fn takes(&self, option: crate::app::RunOption) -> bool {
        option == crate::app::RunOption::Seed && self.draws_instance()
    }

    fn draws_instance(&self) -> bool {
        matches!(self.source, CliqueSource::Random { .. })
    }

    /// A random graph is drawn from `--instance-seed`, else `--seed` (default 1).
    fn adapt(&mut self, _q: Option<u64>, _pes: usize, seed: Option<u64>) -> Result<(), String> {
        if let CliqueSource::Random { n, p, seed: s } = self.source {
            let seed = seed.unwrap_or(1);
            if seed != s {
                *self = MaxCliqueSpec::random(n, p, seed)?.with_check(&self.check);
            }
        }
        Ok(())
    }

    /// A file by its absolute path, and the check options.
    fn checkpoint_words(&self) -> Vec<String> {
        match &self.source {
            CliqueSource::File(path) | CliqueSource::Folder { dir: path, .. } => [
                "maxclique".to_string(),
                std::fs::canonicalize(path)
                    .unwrap_or_else(|_| path.clone())
                    .display()
                    .to_string(),
            ]
            .into_iter()
            .chain(self.check_words().split_whitespace().map(str::to_string))
            .collect(),
            CliqueSource::Random { .. } => self
                .cli_args()
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        }
    }
}
