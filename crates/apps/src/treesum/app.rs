//! The command line's face of the tree sum: its subcommand's arguments, how they become an
//! instance, and what the instance tells the commands (its task, the answer by a direct loop,
//! its peers: the plain recursion, rayon's `join` and chili's `join`).

use super::{sum_chili, sum_direct, sum_rayon, sum_recursive, TreeSum};
use crate::params::{Param, Type};
use crate::peers::{chili, Peers, EVERY_NODE};
use crate::spec::Published;

crate::number::number_app! {
    /// `treesplit run tree-sum [--depth D]`.
    app "tree-sum";
    about "Tree sum: the sum over a perfect binary tree of 2^D − 1 nodes of a few nanoseconds each";
    param Param::long("depth", Type::U32, "Depth D of the tree: 2^D − 1 nodes (27 in chili's and Spice's benchmark)").default("27");
    number u32;
    words "tree-sum --depth {}";
    /// A tree-sum instance: the depth D, checked.
    instance TreeSumSpec;
    task TreeSum::new;
    published published;
    // About 1 ns per node: 16384 nodes are 10–25 µs.
    delta_t 16384;
    example ["--depth", "12"];
    // Every node forks, as in chili's and Spice's benchmark.
    rayon_depth EVERY_NODE;
    peers TreeSumPeers;
}

/// The sum against a direct loop over the node numbers.
fn published(depth: u32, s: &u64) -> Option<Published> {
    let source = "a direct loop over the node numbers";
    Some(Published::equal(source, sum_direct(depth), s))
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
