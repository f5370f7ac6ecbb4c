//! `treesplit run tsp FILE`: the application's command-line face, and what its instance tells
//! the commands (its task, the check of the tour against the distances and the published
//! optimum, that it is a search, the absolute path its checkpoints name).

use super::{tsplib, Matrix, Problem, Tour};
use crate::app::{AppError, RunOption};
use crate::params::{Param, Type, Values};
use crate::spec::{AppVisitor, Published};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `treesplit run tsp FILE`.
pub struct App;

/// The cities (a file or random) and how the tour is checked.
const PARAMS: &[Param] = &[
    Param::positional("file", Type::Path, "The TSPLIB `.tsp` file (`-`: standard input, with no optima.tsv)")
        .required_unless(&["random"])
        .conflicts(&["random"]),
    Param::long("random", Type::Usize, "Random cities instead of a file: N cities uniform on a 1000 × 1000 square, EUC_2D distances; drawn from --instance-seed, else --seed (default 1)").value_name("N"),
    Param::long("optimum", Type::U64, "The known optimum: check the tour's length against V instead of the one optima.tsv beside the file publishes").value_name("V").conflicts(&["no-published"]),
    Param::switch("no-published", "Check against no published optimum: ignore optima.tsv beside the file (the tour is still checked against the distances)").conflicts(&["random"]),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "tsp"
    }

    fn about(&self) -> &'static str {
        "The symmetric travelling salesman problem by branch-and-bound (the Held–Karp 1-tree bound) of a TSPLIB file (EXPLICIT weights as FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW or LOWER_DIAG_ROW; EUC_2D, CEIL_2D, ATT or GEO coordinates) or of random cities; reports the shortest tour, checked against the distances and the optimum optima.tsv beside the file or --optimum gives"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn reads_stdin(&self, values: &Values) -> bool {
        values.path("file").as_deref() == Some(Path::new("-"))
    }

    fn example(&self) -> &'static [&'static str] {
        &["{data}/tsplib/gr17.tsp"]
    }
}

impl crate::app::Parse for App {
    type Instance = TspSpec;

    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let check = Check {
            optimum: values.get("optimum")?,
            no_published: values.switch("no-published"),
        };
        match (values.path("file"), values.get("random")?) {
            (Some(path), None) => TspSpec::open(&path, &check),
            (None, Some(n)) => TspSpec::random(n, 1).map(|s| s.with_check(&check)),
            _ => Err("tsp needs a TSPLIB FILE or --random N".into()),
        }
        .map_err(AppError::BadInput)
    }
}

/// How the command line asks the optimum to be checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Check {
    /// `--optimum V`.
    pub optimum: Option<u64>,
    /// `--no-published`: no optimum from optima.tsv.
    pub no_published: bool,
}

/// Where a travelling-salesman instance comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum TspSource {
    /// A TSPLIB file (`-`: standard input).
    File(PathBuf),
    /// Random cities drawn from a seed.
    Random {
        /// Cities.
        n: usize,
        /// The seed.
        seed: u64,
    },
}

/// The most random cities: beyond, the exact search is out of reach.
pub const MAX_RANDOM: usize = 200;

/// A travelling-salesman instance: its source and its prepared problem (compared by source
/// and check).
#[derive(Debug, Clone)]
pub struct TspSpec {
    /// Where the instance comes from.
    pub source: TspSource,
    /// The instance, its first tour and root penalties.
    pub problem: Arc<Problem>,
    /// The optimum and where it comes from.
    pub optimum: Option<(u64, String)>,
    /// The command line's check options.
    pub check: Check,
}

impl PartialEq for TspSpec {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source && self.check == other.check
    }
}

impl TspSpec {
    /// The instance of a TSPLIB file (`-`: standard input), its optimum as `check` asks.
    pub fn open(path: &Path, check: &Check) -> Result<Self, String> {
        let (text, name) = crate::input::read_text(path)?;
        let matrix = tsplib::parse(&text, &name)?;
        let optimum = match (check.optimum, check.no_published) {
            (Some(v), _) => Some((v, "--optimum gives it".to_string())),
            (None, true) => None,
            (None, false) => published_optimum(path)?,
        };
        Ok(TspSpec {
            source: TspSource::File(path.to_path_buf()),
            problem: Arc::new(Problem::new(matrix)),
            optimum,
            check: check.clone(),
        })
    }

    /// `n` random cities from `seed`.
    pub fn random(n: usize, seed: u64) -> Result<Self, String> {
        if n == 0 || n > MAX_RANDOM {
            return Err(format!(
                "--random: N must be in 1..={MAX_RANDOM}, got {n} (the exact search cannot reach more)"
            ));
        }
        Ok(TspSpec {
            source: TspSource::Random { n, seed },
            problem: Arc::new(Problem::new(Matrix::random(n, seed))),
            optimum: None,
            check: Check::default(),
        })
    }

    /// The same instance checked as `check` asks (`--optimum` gives the optimum).
    pub fn with_check(mut self, check: &Check) -> Self {
        if let Some(v) = check.optimum {
            self.optimum = Some((v, "--optimum gives it".into()));
        }
        self.check = check.clone();
        self
    }

    /// The check options as command-line words (each after a space; empty by default).
    fn check_words(&self) -> String {
        match (self.check.optimum, self.check.no_published) {
            (Some(v), _) => format!(" --optimum {v}"),
            (None, true) => " --no-published".into(),
            (None, false) => String::new(),
        }
    }
}

/// The optimum of the instance in `path` as `optima.tsv` beside it publishes it: a
/// tab-separated table whose header names the columns `file` and `optimum` (`#` comments).
/// A file named optima.tsv without those columns is another table and is ignored; an entry
/// whose optimum is not a whole number (unknown, or a bound) is no published optimum.
pub fn published_optimum(path: &Path) -> Result<Option<(u64, String)>, String> {
    if path == Path::new("-") {
        return Ok(None);
    }
    let table = path.with_file_name("optima.tsv");
    if !table.is_file() {
        return Ok(None);
    }
    let (text, _) = crate::input::read_text(&table)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let Some(header) = lines.next() else {
        return Ok(None);
    };
    let columns: Vec<&str> = header.split('\t').map(str::trim).collect();
    let col = |c: &str| columns.iter().position(|&h| h == c);
    let (Some(file), Some(optimum)) = (col("file"), col("optimum")) else {
        return Ok(None);
    };
    for line in lines {
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        if f.get(file) == Some(&name) {
            return Ok(f
                .get(optimum)
                .and_then(|v| v.parse::<u64>().ok())
                .map(|v| (v, format!("{} lists the optimum", table.display()))));
        }
    }
    Ok(None)
}

/// The tour against the distances (every city once, the length it claims) and, where an
/// optimum is known, its length against it.
pub fn tour_check(problem: &Problem, optimum: Option<&(u64, String)>, found: &Tour) -> Published {
    let tour = problem.is_tour(found);
    match optimum {
        Some((optimum, source)) => Published {
            source: format!("{source}; the tour checked against the distances"),
            value: format!("length {optimum}"),
            matches: tour && found.length == *optimum,
        },
        None => Published {
            source: "no published optimum for this instance: only the tour is checked against the distances, not that it is shortest".into(),
            value: format!("a tour of length {}", found.length),
            matches: tour,
        },
    }
}

impl crate::instance::Instance for TspSpec {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let (root, check, optimum) = (
            self.problem.clone(),
            self.problem.clone(),
            self.optimum.clone(),
        );
        visitor.visit(
            move || super::search(root.clone()),
            move |found| Some(tour_check(&check, optimum.as_ref(), found)),
        )
    }

    fn cli_args(&self) -> String {
        let source = match &self.source {
            TspSource::File(path) => format!("tsp {}", path.display()),
            TspSource::Random { n, seed } => format!("tsp --random {n} --instance-seed {seed}"),
        };
        source + &self.check_words()
    }

    /// A node's children each take a few spanning trees of the cities left: ~10–100 µs a
    /// node on TSPLIB's instances of 14 to 52 cities.
    fn default_delta_t(&self) -> u64 {
        1
    }

    /// Branch-and-bound.
    fn is_optimization(&self) -> bool {
        true
    }

    /// The seed draws random cities.
    fn takes(&self, option: crate::app::RunOption) -> bool {
        option == crate::app::RunOption::Seed && self.draws_instance()
    }

    fn draws_instance(&self) -> bool {
        matches!(self.source, TspSource::Random { .. })
    }

    /// Random cities are drawn from `--instance-seed`, else `--seed` (default 1).
    fn adapt(&mut self, _q: Option<u64>, _pes: usize, seed: Option<u64>) -> Result<(), String> {
        if let TspSource::Random { n, seed: s } = self.source {
            let seed = seed.unwrap_or(1);
            if seed != s {
                *self = TspSpec::random(n, seed)?.with_check(&self.check);
            }
        }
        Ok(())
    }

    /// A file by its absolute path, and the check options.
    fn checkpoint_words(&self) -> Vec<String> {
        let TspSource::File(path) = &self.source else {
            return self
                .cli_args()
                .split_whitespace()
                .map(str::to_string)
                .collect();
        };
        let file = std::fs::canonicalize(path)
            .unwrap_or_else(|_| path.clone())
            .display()
            .to_string();
        ["tsp".to_string(), file]
            .into_iter()
            .chain(self.check_words().split_whitespace().map(str::to_string))
            .collect()
    }
}
