//! The command line's face of the tree sum: its subcommand's arguments, how they become an
//! instance, and what the instance tells the commands (its task, the answer by a direct loop,
//! its peers: the plain recursion, rayon's `join` and chili's `join`).

use super::{check_depth, sum_chili, sum_direct, sum_rayon, sum_recursive, TreeSum};
use crate::instance::{Instance, PeerVisitor};
use crate::peers::{chili, Peers, EVERY_NODE};
use crate::spec::{AppVisitor, Published};

/// `treesplit run tree-sum [--depth D]`.
pub struct App;

/// Tree sum: the sum over a perfect binary tree of 2^D − 1 nodes of a few nanoseconds each.
#[derive(Debug, clap::Args)]
struct Args {
    /// Depth D of the tree: 2^D − 1 nodes (27 in chili's and Spice's benchmark).
    #[arg(long, default_value_t = 27)]
    depth: u32,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "tree-sum"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    /// Every node forks, as in chili's and Spice's benchmark.
    fn rayon_depth(&self) -> Option<u32> {
        Some(EVERY_NODE)
    }

    fn example(&self) -> &'static [&'static str] {
        &["--depth", "12"]
    }
}

impl crate::app::Parse for App {
    type Instance = TreeSumSpec;

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<Self::Instance, String> {
        let Args { depth } = crate::app::typed(args)?;
        check_depth(depth)?;
        Ok(TreeSumSpec(depth))
    }
}

/// A tree-sum instance: the depth D, checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeSumSpec(pub u32);

impl Instance for TreeSumSpec {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let depth = self.0;
        visitor.visit(
            move || TreeSum::new(depth).expect("a validated tree-sum instance"),
            move |s| {
                let expected = sum_direct(depth);
                Some(Published {
                    source: "a direct loop over the node numbers".into(),
                    value: expected.to_string(),
                    matches: expected == *s,
                })
            },
        )
    }

    fn cli_args(&self) -> String {
        format!("tree-sum --depth {}", self.0)
    }

    /// About 1 ns per node: 16384 nodes are 10–25 µs.
    fn default_delta_t(&self) -> u64 {
        16384
    }

    fn visit_peer<V: PeerVisitor>(&self, visitor: V) -> Option<V::Out> {
        let depth = self.0;
        Some(visitor.visit(
            move || TreeSum::new(depth).expect("a validated tree-sum instance"),
            TreeSumPeers(depth),
        ))
    }
}

/// The tree sum's peers: forks above a depth cut-off, the plain recursion below.
struct TreeSumPeers(u32);

impl TreeSumPeers {
    fn leaves(&self) -> u64 {
        1 << (self.0 - 1)
    }
}

impl Peers for TreeSumPeers {
    type Output = u64;

    fn sequential(&self) -> u64 {
        sum_recursive(1, self.leaves())
    }

    fn rayon(&self, cut: u32) -> u64 {
        sum_rayon(1, self.leaves(), 0, cut)
    }

    fn chili(&self, scope: &mut chili::Scope<'_>, cut: u32) -> Option<u64> {
        Some(sum_chili(scope, 1, self.leaves(), 0, cut))
    }

    fn cuts(&self) -> Vec<u32> {
        vec![4, 8, 12, 16, EVERY_NODE]
    }
}
