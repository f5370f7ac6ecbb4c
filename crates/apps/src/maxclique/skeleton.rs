//! Maximum clique as a skeleton search ([`treesplit::search`]): the graph is the space, a node
//! is a clique with its candidates and the colour bound its parent gave it, and a node's
//! children come lazily from its greedy colouring, highest colour first.
//!
//! Colours popped from the end never increase, so the first child pruned by its bound prunes
//! its later siblings (`PRUNE_LEVEL`), as the hand-written task ends a frame. The task is the
//! library's [`Optimisation`] over [`CliqueSpace`], reporting its best node as the
//! application's [`Clique`] (ω and the vertices in DIMACS numbers, a [`Solution`]), so that
//! the command line prints and checks the clique itself. The application runs the hand-written
//! task ([`super::MaxClique`]); this version, with the same order, colouring and bound as that
//! task without Re-NUMBER (a generator does not see the incumbent, which Re-NUMBER needs),
//! measures what the skeleton's generality costs (`bench maxclique`, BENCHMARKS.md).

use super::graph::{insert, remove, Bits, Graph};
use super::{colour_sort, Clique};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use treesplit::search::{Optimisation, Optimise, Solution, Space, Witness};
use treesplit::task::shared::Shared;

/// The space: the graph (shared by every piece, sent once).
#[derive(Debug, Serialize, Deserialize)]
pub struct CliqueSpace {
    graph: Arc<Graph>,
}

/// A node: a clique (DIMACS numbers, in the order chosen), its candidates (search vertices
/// adjacent to all of it) and a bound on any clique below it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CliqueNode {
    clique: Vec<u32>,
    candidates: Bits,
    bound: u32,
}

/// A node's children still to come: its candidates by colour (taken from the end) and the
/// set of those not yet taken.
#[derive(Debug, Clone)]
pub struct Branches {
    order: Vec<u32>,
    colour: Vec<u32>,
    left: Bits,
}

impl Space for CliqueSpace {
    type Node = CliqueNode;
    type Children = Branches;

    fn root(&self) -> CliqueNode {
        let mut all = vec![0u64; self.graph.words()];
        for v in 0..self.graph.len() as u32 {
            insert(&mut all, v);
        }
        CliqueNode {
            clique: Vec::new(),
            candidates: all,
            bound: self.graph.len() as u32,
        }
    }

    fn children(&self, node: &CliqueNode) -> Branches {
        let (mut order, mut colour) = (Vec::new(), Vec::new());
        colour_sort(&self.graph, &node.candidates, &mut order, &mut colour);
        Branches {
            order,
            colour,
            left: node.candidates.clone(),
        }
    }

    fn next_child(&self, node: &CliqueNode, b: &mut Branches) -> Option<CliqueNode> {
        let v = b.order.pop()?;
        let k = b.colour.pop().expect("a colour per candidate");
        remove(&mut b.left, v);
        let row = self.graph.row(v);
        let mut clique = Vec::with_capacity(node.clique.len() + 1);
        clique.extend_from_slice(&node.clique);
        clique.push(self.graph.dimacs(v));
        Some(CliqueNode {
            bound: node.clique.len() as u32 + k,
            candidates: b.left.iter().zip(row).map(|(a, r)| a & r).collect(),
            clique,
        })
    }

    fn skip_children(&self, _node: &CliqueNode, b: &mut Branches, n: u64) -> u64 {
        let skip = (n as usize).min(b.order.len());
        for v in b.order.drain(b.order.len() - skip..) {
            remove(&mut b.left, v);
        }
        b.colour.truncate(b.order.len());
        skip as u64
    }

    fn digest(&self) -> u64 {
        self.graph.id()
    }
}

impl Optimise for CliqueSpace {
    const PRUNE_LEVEL: bool = true;

    fn objective(&self, node: &CliqueNode) -> Option<i64> {
        Some(node.clique.len() as i64)
    }

    fn bound(&self, node: &CliqueNode) -> Option<i64> {
        Some(i64::from(node.bound))
    }
}

/// The search for a maximum clique: the library's branch-and-bound over [`CliqueSpace`],
/// reporting its best node as a [`Clique`].
pub type CliqueSearch = Optimisation<CliqueSpace, Clique>;

/// The skeleton version of the search for a maximum clique of `graph`.
pub fn search(graph: Shared<Graph>) -> CliqueSearch {
    Optimisation::reporting(CliqueSpace {
        graph: graph.arc().clone(),
    })
}

/// A clique that improved the incumbent, as the application reports it (vertices ascending).
impl Solution<CliqueSpace> for Clique {
    fn found(_: &CliqueSpace, _: i64, witness: Witness<CliqueNode>) -> Self {
        let mut clique = witness.node.clique;
        clique.sort_unstable();
        Clique {
            omega: clique.len() as u32,
            clique,
        }
    }
}
