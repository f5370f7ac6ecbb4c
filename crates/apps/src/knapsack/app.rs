//! `treesplit run knapsack FILE`: the application's command-line face, and what its instance
//! tells the commands (its task, the optimum it is checked against, that it is a search, the absolute
//! path its checkpoints name).

use super::KnapsackFile;
use crate::app::{AppError, RunOption};
use crate::params::{Param, Type, Values};
use crate::spec::{AppVisitor, Published};

/// `treesplit run knapsack FILE`.
pub struct App;

/// The instance file and how its answer is checked.
const PARAMS: &[Param] = &[
    Param::positional("file", Type::Path, "The instance file, `FILE#K` or `FILE#NAME` for one instance of a file of several (`-`: standard input, with no index.tsv)").required(),
    Param::long("optimum", Type::U64, "The known optimum: check the answer against V instead of a published optimum (the file's own or index.tsv's)").value_name("V").conflicts(&["no-published"]),
    Param::switch("no-published", "Check the answer against no published optimum: ignore index.tsv beside the file and the optimum the file states"),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "knapsack"
    }

    fn about(&self) -> &'static str {
        "0/1 knapsack by branch-and-bound from an instance file: `n capacity` then `profit weight` lines; a capacity alone (YewPar's `.kp`: then an optional optimum line) then `profit weight` lines; or Pisinger's CSV (`FILE.csv#K` or `FILE.csv#NAME` picks one of several). The answer is checked against the optimum the file states or `index.tsv` beside it lists"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn reads_stdin(&self, values: &Values) -> bool {
        values.path("file").is_some_and(|file| {
            super::spec::split_pick(&file).is_ok_and(|(f, _)| f == std::path::Path::new("-"))
        })
    }

    fn example(&self) -> &'static [&'static str] {
        &["{data}/knapsack/f1_l-d_kp_10_269.txt"]
    }
}

impl crate::app::Parse for App {
    type Instance = KnapsackFile;

    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let check = super::spec::Check {
            optimum: values.get("optimum")?,
            no_published: values.switch("no-published"),
        };
        KnapsackFile::open(&values.need_path("file")?, &check).map_err(AppError::BadInput)
    }
}

impl crate::instance::Instance for KnapsackFile {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let (instance, optimum, source) = (
            self.instance.clone(),
            self.optimum,
            self.optimum_source.clone(),
        );
        visitor.visit(
            move || super::skeleton::search(instance.arc().clone()),
            move |best| {
                optimum.map(|o| Published {
                    source: source.clone(),
                    value: o.to_string(),
                    matches: best.profit == o,
                })
            },
        )
    }

    fn cli_args(&self) -> String {
        format!("knapsack {}{}", self.arg(), self.check_words())
    }

    /// ~20 ns per node (a bound by binary search).
    fn default_delta_t(&self) -> u64 {
        1024
    }

    /// Branch-and-bound.
    fn is_optimization(&self) -> bool {
        true
    }

    /// The file by its absolute path (with its pick), and the check options.
    fn checkpoint_words(&self) -> Vec<String> {
        let file = std::fs::canonicalize(&self.path)
            .unwrap_or_else(|_| self.path.clone())
            .display()
            .to_string();
        let file = match &self.pick {
            Some(p) => format!("{file}#{p}"),
            None => file,
        };
        ["knapsack".to_string(), file]
            .into_iter()
            .chain(self.check_words().split_whitespace().map(str::to_string))
            .collect()
    }
}

impl KnapsackFile {
    /// The check options as command-line words (each after a space; empty by default).
    fn check_words(&self) -> String {
        match (self.check.optimum, self.check.no_published) {
            (Some(v), _) => format!(" --optimum {v}"),
            (None, true) => " --no-published".into(),
            (None, false) => String::new(),
        }
    }
}
