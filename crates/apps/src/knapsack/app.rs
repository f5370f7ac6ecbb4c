//! `treesplit run knapsack FILE`: the application's command-line face, and what its instance
//! tells the commands (its task, the published optimum, that it is a search, the absolute
//! path its checkpoints name).

use super::KnapsackFile;
use crate::spec::{AppVisitor, Published};

/// `treesplit run knapsack FILE`.
pub struct App;

/// 0/1 knapsack by branch-and-bound from an instance file (`n capacity`, then `profit
/// weight` per line, `#` comments), checked against `index.tsv` beside it.
#[derive(Debug, clap::Args)]
struct Args {
    /// The instance file (`-`: standard input, with no published optimum).
    file: std::path::PathBuf,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "knapsack"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    fn reads_stdin(&self, args: &clap::ArgMatches) -> bool {
        crate::app::typed::<Args>(args).is_ok_and(|a| a.file == std::path::Path::new("-"))
    }

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<crate::AppSpec, String> {
        let Args { file } = crate::app::typed(args)?;
        Ok(KnapsackFile::read(&file)?.into())
    }

    fn example(&self) -> &'static [&'static str] {
        &["{data}/knapsack/f1_l-d_kp_10_269.txt"]
    }
}

impl crate::instance::Instance for KnapsackFile {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let (instance, optimum, name) = (
            self.instance.clone(),
            self.optimum,
            self.path.display().to_string(),
        );
        visitor.visit(
            move || super::skeleton::search(instance.arc().clone()),
            move |best| {
                optimum.map(|o| Published {
                    source: format!("published optimum of {name} (index.tsv)"),
                    value: o.to_string(),
                    matches: best.profit == o,
                })
            },
        )
    }

    fn cli_args(&self) -> String {
        format!("knapsack {}", self.path.display())
    }

    /// ~20 ns per node (a bound by binary search).
    fn default_delta_t(&self) -> u64 {
        1024
    }

    /// Branch-and-bound.
    fn is_optimization(&self) -> bool {
        true
    }

    /// The file by its absolute path.
    fn checkpoint_words(&self) -> Vec<String> {
        vec![
            "knapsack".into(),
            std::fs::canonicalize(&self.path)
                .unwrap_or_else(|_| self.path.clone())
                .display()
                .to_string(),
        ]
    }
}
