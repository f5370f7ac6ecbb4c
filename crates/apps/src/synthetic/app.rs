//! The command line's face of synthetic α-splitting trees: its subcommand's arguments and how they
//! become an instance.

use super::{SplitRule, SyntheticParams};

/// `treesplit run synthetic [--work W] [--alpha A] …`.
pub struct App;

/// A synthetic α-splitting tree with known total work (paper 004 §3).
#[derive(Debug, clap::Args)]
struct Args {
    /// Total work units.
    #[arg(long, default_value_t = 10_000_000)]
    work: u64,
    /// Splitting quality α ∈ (0, 0.5].
    #[arg(long, default_value_t = 0.3)]
    alpha: f64,
    /// Pieces of at most this many units are atomic.
    #[arg(long, default_value_t = 1)]
    atomic: u64,
    /// How split fractions are chosen.
    #[arg(long, value_enum, default_value_t = SplitRule::Random)]
    split: SplitRule,
    /// Mixer rounds per unit (CPU cost of a unit). Default 16; 1 in the simulator
    /// (`treesplit sim`), where time is virtual and spinning only costs real time.
    #[arg(long, default_value_t = 16)]
    spin: u32,
    /// Seed of the tree (split fractions, unit values); independent of --seed.
    #[arg(long = "tree-seed", default_value_t = 0)]
    tree_seed: u64,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "synthetic"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<crate::AppSpec, String> {
        let a: Args = crate::app::typed(args)?;
        let params = SyntheticParams {
            work: a.work,
            alpha: a.alpha,
            atomic: a.atomic,
            rule: a.split,
            spin: a.spin,
            seed: a.tree_seed,
        };
        params.validate()?;
        Ok(crate::AppSpec::Synthetic(params))
    }
}
