//! The command line's face of Golomb rulers: its subcommand's arguments, how they become an
//! instance, and what the instance tells the commands (its task, the published optimal
//! lengths, that it is a search).

use super::{is_golomb, Golomb};
use crate::instance::Instance;
use crate::spec::{AppVisitor, Published};

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

    fn example(&self) -> &'static [&'static str] {
        &["6"]
    }
}

impl crate::app::Parse for App {
    type Instance = GolombSpec;

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<Self::Instance, String> {
        let Args { n } = crate::app::typed(args)?;
        Golomb::new(n)?;
        Ok(GolombSpec(n))
    }
}

/// A Golomb ruler instance: the number of marks n, checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GolombSpec(pub usize);

/// Optimal Golomb ruler lengths for n = 2..=16 marks (OEIS A003022).
pub const GOLOMB_LENGTHS: [u32; 15] = [1, 3, 6, 11, 17, 25, 34, 44, 55, 72, 85, 106, 127, 151, 177];

/// The published optimal length for n marks, against a ruler (checked to be a Golomb ruler).
pub fn published_golomb(n: usize, marks: &[u32]) -> Option<Published> {
    let expected = *GOLOMB_LENGTHS.get(n.checked_sub(2)?)?;
    Some(Published {
        source: "OEIS A003022".into(),
        value: format!("length {expected}"),
        matches: marks.len() == n && marks.last() == Some(&expected) && is_golomb(marks),
    })
}

impl Instance for GolombSpec {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let n = self.0;
        visitor.visit(
            move || Golomb::new(n).expect("a validated number of marks"),
            move |r| published_golomb(n, &r.marks),
        )
    }

    fn cli_args(&self) -> String {
        format!("golomb {}", self.0)
    }

    /// ~10 ns per candidate.
    fn default_delta_t(&self) -> u64 {
        2048
    }

    /// Branch-and-bound.
    fn is_optimization(&self) -> bool {
        true
    }
}
