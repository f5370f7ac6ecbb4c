//! The command line's face of N-Queens: its subcommand's arguments and how they
//! become an instance.

use super::NQueens;

/// `treesplit run nqueens N`.
pub struct App;

/// N-Queens: count all solutions on an n×n board (1 ≤ n ≤ 20).
#[derive(Debug, clap::Args)]
struct Args {
    /// Board size.
    n: u32,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "nqueens"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<crate::AppSpec, String> {
        let Args { n } = crate::app::typed(args)?;
        NQueens::new(n)?;
        Ok(crate::AppSpec::NQueens(n))
    }
}
