//! The command line's face of Golomb rulers: its subcommand's arguments and how they
//! become an instance.

use super::Golomb;

/// `treesplit run golomb N`.
pub struct App;

/// An optimal (shortest) Golomb ruler with n marks, 2 ≤ n ≤ 16.
#[derive(Debug, clap::Args)]
struct Args {
    /// Number of marks.
    n: usize,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "golomb"
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
        Golomb::new(n)?;
        Ok(crate::AppSpec::Golomb(n))
    }
}
