//! `treesplit run knapsack FILE`: the application's command-line face.

use crate::spec::KnapsackFile;

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
        Ok(crate::AppSpec::Knapsack(KnapsackFile::read(&file)?))
    }
}
