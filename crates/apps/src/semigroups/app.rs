//! `treesplit run semigroups G`: the application's command-line face, and what its instance
//! tells the commands (its task and the published counts it is checked against, OEIS
//! A007323).

use crate::instance::{Instance, PeerVisitor};
use crate::spec::{AppVisitor, Published};

/// `treesplit run semigroups G`.
pub struct App;

/// Count the numerical semigroups of each genus 0..=G (the tree of Bras-Amorós and
/// Fromentin–Hivert), checked against OEIS A007323.
#[derive(Debug, clap::Args)]
struct Args {
    /// The largest genus G.
    genus: u32,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "semigroups"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    fn example(&self) -> &'static [&'static str] {
        &["12"]
    }
}

impl crate::app::Parse for App {
    type Instance = SemigroupsSpec;

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<Self::Instance, String> {
        let Args { genus } = crate::app::typed(args)?;
        super::count(genus)?;
        Ok(SemigroupsSpec(genus))
    }
}

/// A count of numerical semigroups up to a genus (at most [`super::MAX_GENUS`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SemigroupsSpec(pub u32);

/// The numbers of numerical semigroups of genus 0..=30 (OEIS A007323).
pub const A007323: [u64; 31] = [
    1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693, 2857, 4806, 8045, 13467, 22464,
    37396, 62194, 103246, 170963, 282828, 467224, 770832, 1270267, 2091030, 3437839, 5646773,
];

/// The published counts for genus 0..=G against the counts found (none beyond genus 30).
pub fn published_semigroups(genus: u32, counts: &[u64]) -> Option<Published> {
    let expected = A007323.get(..=genus as usize)?;
    Some(Published {
        source: "OEIS A007323".into(),
        value: format!(
            "{} by genus 0..={genus}",
            expected
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ),
        matches: counts == expected,
    })
}

impl Instance for SemigroupsSpec {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let genus = self.0;
        visitor.visit(
            move || super::count(genus).expect("a validated genus"),
            move |c| published_semigroups(genus, &c.counts),
        )
    }

    fn cli_args(&self) -> String {
        format!("semigroups {}", self.0)
    }

    fn visit_peer<V: PeerVisitor>(&self, visitor: V) -> Option<V::Out> {
        let genus = self.0;
        let space = super::skeleton::SemigroupSpace::new(genus).expect("a validated genus");
        Some(visitor.visit(
            move || super::count(genus).expect("a validated genus"),
            crate::space_peers::EnumerationPeers(space),
        ))
    }

    /// ~30–100 ns per semigroup (a copy of 3G + 2 decomposition numbers).
    fn default_delta_t(&self) -> u64 {
        256
    }
}
