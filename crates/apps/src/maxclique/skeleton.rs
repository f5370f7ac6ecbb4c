//! Maximum clique as a skeleton search ([`treesplit::search`]): the graph is the space, a node
//! is a clique with its candidates and the colour bound its parent gave it, and a node's
//! children come lazily from its greedy colouring, highest colour first.
//!
//! A generator started with the incumbent ω̂ (`children_beating`) lists only the colours k
//! with |C| + k > ω̂, as BBMC does: the others come last and would be pruned. Colours popped
//! from the end never increase, so a child pruned later (ω̂ improved meanwhile) prunes its later
//! siblings too (`PRUNE_LEVEL`), as the hand-written task ends a frame. Nodes and generators
//! reuse the vectors of finished ones (`REUSE`, and a per-thread pool of generators' vectors
//! with the colouring's scratch), as the hand-written task reuses its closed frames. The task
//! is the library's [`Optimisation`] over [`CliqueSpace`], reporting its best node as the
//! application's [`Clique`] (ω and the vertices in DIMACS numbers, a [`Solution`]), so that
//! the command line prints and checks the clique itself. The application runs the hand-written
//! task ([`super::MaxClique`]); this version has the same order, colouring and bound as that
//! task without Re-NUMBER (Re-NUMBER reorders the children by the incumbent, where a generator
//! may only end early), and measures what the skeleton's generality costs (`bench maxclique`,
//! `skeleton_cost`, BENCHMARKS.md).

use super::graph::{insert, remove, Bits, Graph};
use super::{Clique, Colouring};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
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
        self.branches(node, 1)
    }

    fn next_child(&self, node: &CliqueNode, b: &mut Branches) -> Option<CliqueNode> {
        self.next_child_reusing(node, b, &mut None)
    }

    /// The walk hands over the nodes it is done with: a child's clique and candidates are
    /// written into their vectors, as the hand-written task reuses its closed frames.
    const REUSE: bool = true;

    fn next_child_reusing(
        &self,
        node: &CliqueNode,
        b: &mut Branches,
        spare: &mut Option<CliqueNode>,
    ) -> Option<CliqueNode> {
        let v = b.order.pop()?;
        let k = b.colour.pop().expect("a colour per candidate");
        remove(&mut b.left, v);
        let row = self.graph.row(v);
        let mut child = spare.take().unwrap_or_else(|| CliqueNode {
            clique: Vec::with_capacity(node.clique.len() + 1),
            candidates: Vec::with_capacity(b.left.len()),
            bound: 0,
        });
        child.clique.clear();
        child.clique.extend_from_slice(&node.clique);
        child.clique.push(self.graph.dimacs(v));
        child.candidates.clear();
        child
            .candidates
            .extend(b.left.iter().zip(row).map(|(a, r)| a & r));
        child.bound = node.clique.len() as u32 + k;
        Some(child)
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

impl CliqueSpace {
    /// The branches of `node` whose colour is at least `kmin`, highest colour first (a tail of
    /// the colour order left out: those with lower colours), with the colouring's scratch
    /// kept per thread; a node without candidates has none and costs no colouring.
    fn branches(&self, node: &CliqueNode, kmin: u32) -> Branches {
        if node.candidates.iter().all(|&w| w == 0) {
            return Branches {
                order: Vec::new(),
                colour: Vec::new(),
                left: Vec::new(),
            };
        }
        SCRATCH.with(|scratch| {
            let (colouring, spare) = &mut *scratch.borrow_mut();
            let (mut order, mut colour, mut left) = spare.pop().unwrap_or_default();
            colouring.sort(&self.graph, &node.candidates, kmin, &mut order, &mut colour);
            left.clear();
            left.extend_from_slice(&node.candidates);
            Branches {
                order,
                colour,
                left,
            }
        })
    }
}

/// A generator's three vectors, kept for the next one.
type Parts = (Vec<u32>, Vec<u32>, Bits);

thread_local! {
    /// The greedy colouring's scratch bitsets (BBMC's, without Re-NUMBER: a generator's
    /// children must not depend on the incumbent beyond a tail) and the vectors of finished
    /// generators, kept between nodes as the hand-written task keeps its closed frames.
    static SCRATCH: RefCell<(Colouring, Vec<Parts>)> =
        RefCell::new((Colouring::new(false), Vec::new()));
}

/// The most finished generators' vectors kept per thread (a stack of open nodes is at most
/// ω deep, and each holds one generator).
const SPARE_GENERATORS: usize = 256;

impl Drop for Branches {
    fn drop(&mut self) {
        if self.left.capacity() == 0 {
            return;
        }
        let parts = (
            std::mem::take(&mut self.order),
            std::mem::take(&mut self.colour),
            std::mem::take(&mut self.left),
        );
        // Never during the thread's teardown, nor while the scratch is borrowed.
        let _ = SCRATCH.try_with(|scratch| {
            if let Ok(mut scratch) = scratch.try_borrow_mut() {
                if scratch.1.len() < SPARE_GENERATORS {
                    scratch.1.push(parts);
                }
            }
        });
    }
}

impl Optimise for CliqueSpace {
    const PRUNE_LEVEL: bool = true;

    /// Only the branches whose colour can beat the incumbent ω̂ (|C| + k > ω̂), as BBMC lists
    /// them: the others would be pruned by their bound, and they come last.
    fn children_beating(&self, node: &CliqueNode, best: Option<i64>) -> Branches {
        let size = node.clique.len() as i64;
        let kmin = best.map_or(1, |b| (b - size + 1).max(1));
        self.branches(node, u32::try_from(kmin).unwrap_or(u32::MAX))
    }

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
