//! Search skeletons: write a node type and a lazy generator of its children, pick a kind of
//! search, and get a [`Task`](crate::Task) that runs on every balancer and machine.
//!
//! # The API
//!
//! ```text
//! trait Space            the instance, shared by all PEs (sent once)
//!     type Node          a node: Clone + Debug + serde (derive them)
//!     type Children      a lazy generator's state: Clone + Send
//!     fn root(&self) -> Node
//!     fn children(&self, &Node) -> Children                         start a node's generator
//!     fn next_child(&self, &Node, &mut Children) -> Option<Node>    the next child, or None
//!     fn skip_children(&self, &Node, &mut Children, n) -> u64       (optional) skip n children
//!     const REUSE; fn next_child_reusing(.., spare: &mut Option<Node>)   (optional) reuse nodes
//!     fn estimate(&self, &Node) -> Option<u64>                      (optional) subtree size
//!     fn digest(&self) -> u64                                       (optional) instance digest
//!
//! trait Enumerate: Space  type Output: Outcome;  fn visit(&self, &Node, &mut Output)
//! trait Decide: Space     fn is_goal(&self, &Node) -> bool;  fn prune(&self, &Node) -> bool
//! trait Optimise: Space   const GOAL: Goal;  const PRUNE_LEVEL: bool;
//!                         fn objective(&self, &Node) -> Option<i64>;
//!                         fn bound(&self, &Node) -> Option<i64>
//!                         fn children_beating(&self, &Node, best) -> Children   (optional)
//!
//! Enumeration::new(space): Task<Output = S::Output>      every node visited, outputs merged
//! Decision::new(space):    Task<Output = Found<Node>>    the first goal found stops all PEs
//! Optimisation::new(space): Task<Output = Best<S>>       branch-and-bound: value + witness
//! Optimisation::<S, R>::reporting(space): Task<Output = R>   ... as the app's own R:
//! trait Solution<S>: Outcome  fn found(&S, value, Witness) -> Self
//! Witness { node, path }   a node and its path from the root (child indices)
//! node_at(space, path)     the node at a path, rebuilt by the generators
//! ```
//!
//! A search is the depth-first walk of the tree that [`Space::root`] and the generators
//! span. The user writes no `Task`: [`Enumeration`], [`Decision`] and [`Optimisation`] are
//! tasks, to be run with [`run`](crate::run) or any [`Machine`](crate::Machine), limited,
//! checkpointed and checked like any other.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use treesplit::search::{Enumerate, Enumeration, Space};
//! use treesplit::{run, Config};
//!
//! /// The bit strings of length `n` with no two adjacent ones (Fibonacci many).
//! #[derive(Serialize, Deserialize)]
//! struct NoAdjacentOnes { n: u32 }
//!
//! #[derive(Debug, Clone, Serialize, Deserialize)]
//! struct Node { len: u32, last: bool }
//!
//! impl Space for NoAdjacentOnes {
//!     type Node = Node;
//!     type Children = u8; // the next bit to try: 0, 1, or 2 = done
//!     fn root(&self) -> Node { Node { len: 0, last: false } }
//!     fn children(&self, node: &Node) -> u8 { if node.len == self.n { 2 } else { 0 } }
//!     fn next_child(&self, node: &Node, next: &mut u8) -> Option<Node> {
//!         if *next == 1 && node.last { *next = 2 }
//!         if *next == 2 { return None }
//!         *next += 1;
//!         Some(Node { len: node.len + 1, last: *next == 2 })
//!     }
//! }
//!
//! impl Enumerate for NoAdjacentOnes {
//!     type Output = u64;
//!     fn visit(&self, node: &Node, count: &mut u64) { *count += u64::from(node.len == self.n) }
//! }
//!
//! let report = run(Enumeration::new(NoAdjacentOnes { n: 20 }), &Config::new(2)).unwrap().into_report();
//! assert_eq!(report.output, 17711); // F(22)
//! ```
//!
//! # How the tasks work
//!
//! A task is a depth-first stack of *frames*: a node, whether it was visited, and its
//! children's generator with its position and the frame's *stride* (which of the children
//! are this frame's: every one, or every second, fourth, ... after a split). Working visits
//! the node on top of the stack (one work unit a node), then pulls the next child of the top
//! frame's generator, or pops the frame when it has none left. Only one child of a frame
//! exists at a time: the generators are lazy.
//!
//! `split` gives away half of the unexplored siblings nearest the root (paper 001 §14.5.4):
//! of the children left to the lowest frame whose generator has any, the piece takes the
//! next one and every other one after it, as a piece of two frames (that frame's node with
//! the generator's state and a doubled stride, and its next child); the frame keeps the
//! children in between, with its stride doubled too. When that frame is the top of the
//! stack, its next child stays and the children after it are shared out. Interleaving
//! halves the siblings without knowing how many a lazy generator has left, and gives both
//! sides children of every rank (a generator that produces the best first gives each side
//! some of the best), so repeated splits, as the static balancers make them, cut a tree into
//! pieces of comparable size where giving away all the siblings would peel one child at a
//! time. The piece's size is the path from the root (child indices, for witnesses), the
//! parent node, one child and the generator's position; the instance ([`Space`] itself) travels
//! whole with the untouched root only and by digest in every other piece, the root too once
//! it was worked or split ([`shared`](crate::task::shared)): a checkpoint names the instance
//! it was cut from, and resuming it where another instance is held fails to decode. A generator is rebuilt where a piece arrives by
//! [`Space::children`] and [`Space::skip_children`], so generators must be deterministic:
//! the same node produces the same children in the same order. A frame skips the children
//! that are not its own with [`Space::skip_children`].
//!
//! `estimate` is the sum over the frames of what is left of [`Space::estimate`]: a frame holds
//! its node's estimate less what its produced children took, and a split gives the piece half
//! of what its frame holds, so a split conserves it exactly.
//!
//! What the walk costs beyond the space's own work: a leaf is visited and its generator
//! started but never goes on the stack; a frame the walk pushed itself takes its next child
//! from the generator alone (a frame a split or a wire form made checks its position and
//! stride); an optimisation starts generators with the incumbent
//! ([`Optimise::children_beating`]), so that children that cannot beat it are never built;
//! and where a space sets [`Space::REUSE`], the nodes the walk is done with (leaves, pruned
//! nodes, popped frames', up to a stack's worth) are handed to the generators
//! ([`Space::next_child_reusing`]) instead of freed.
//!
//! The three kinds ([`Enumeration`], [`Decision`], [`Optimisation`]) differ only in what a
//! visit does: enumeration folds the node into the PE's output; decision stops the whole run
//! ([`Context::stop`](crate::Context::stop)) at the first goal; optimisation prunes a node
//! whose bound cannot beat the incumbent ([`Context::best`](crate::Context::best)) and offers
//! its objective, keeping the node as the witness when it improves the incumbent.

mod kinds;
mod walk;

pub use kinds::{Best, Decision, Enumeration, Found, Optimisation, Solution, Witness};

use crate::task::{Goal, Outcome};
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;

/// A search space: the instance all PEs share, its root node and a lazy generator of each
/// node's children. The instance is serde data (derive it): it travels whole once, with the
/// root piece, and every other piece names it by [`Space::digest`].
pub trait Space: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// A node of the tree. Pieces carry nodes, so keep them small (derive `Clone`, `Debug`,
    /// `Serialize`, `Deserialize`).
    type Node: Clone + Debug + Send + Serialize + DeserializeOwned + 'static;

    /// The state of a generator of one node's children (an index, a bit mask of the
    /// candidates left, ...). It does not travel: a piece rebuilds it from the node.
    type Children: Clone + Send + 'static;

    /// The root of the tree.
    fn root(&self) -> Self::Node;

    /// Start generating the children of `node`.
    fn children(&self, node: &Self::Node) -> Self::Children;

    /// The next child of `parent` (`None`: it has no more). The same node must produce the
    /// same children in the same order everywhere.
    fn next_child(&self, parent: &Self::Node, children: &mut Self::Children) -> Option<Self::Node>;

    /// Whether the walk hands the nodes it is done with to [`Space::next_child_reusing`].
    /// Set it where a node owns heap memory (a `Vec`) that a child could reuse.
    const REUSE: bool = false;

    /// [`Space::next_child`], building the child where it can in `spare`: a node the walk is
    /// done with (a leaf, or one pruned), handed over where [`Space::REUSE`] is set, whose
    /// heap memory the child reuses instead of allocating (take it with `spare.take()`). The
    /// default calls [`Space::next_child`].
    #[inline]
    fn next_child_reusing(
        &self,
        parent: &Self::Node,
        children: &mut Self::Children,
        spare: &mut Option<Self::Node>,
    ) -> Option<Self::Node> {
        let _ = spare;
        self.next_child(parent, children)
    }

    /// Skip the next `n` children of `parent`; return how many there were to skip (at most
    /// `n`). Override where a generator can jump ahead faster than producing them.
    fn skip_children(&self, parent: &Self::Node, children: &mut Self::Children, n: u64) -> u64 {
        for done in 0..n {
            if self.next_child(parent, children).is_none() {
                return done;
            }
        }
        n
    }

    /// An estimate of the nodes in the subtree of `node`, itself included, where the space
    /// can give one (`None`: unknown). The static balancers use it (see [`Task::estimate`]).
    ///
    /// [`Task::estimate`]: crate::Task::estimate
    fn estimate(&self, node: &Self::Node) -> Option<u64> {
        let _ = node;
        None
    }

    /// A digest of the instance's contents, naming it in pieces. The default hashes its
    /// serde form (so a space whose serde form is not deterministic, e.g. a `HashMap`,
    /// must override it).
    fn digest(&self) -> u64 {
        let bytes = postcard::to_allocvec(self).unwrap_or_default();
        crate::task::shared::digest(bytes.chunks(8).map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        }))
    }
}

/// Enumeration: every node of the tree is visited once and folded into the PE's output; the
/// PEs' outputs merge ([`Outcome`]).
pub trait Enumerate: Space {
    /// What the enumeration accumulates (a count, a histogram, ...).
    type Output: Outcome;
    /// Fold `node` into `output`.
    fn visit(&self, node: &Self::Node, output: &mut Self::Output);
}

/// Decision: find a node that satisfies a goal; the first one found stops every PE.
pub trait Decide: Space {
    /// True when `node` is what the search looks for.
    fn is_goal(&self, node: &Self::Node) -> bool;
    /// True when no node in the subtree of `node` can be a goal: the search skips it.
    fn prune(&self, node: &Self::Node) -> bool {
        let _ = node;
        false
    }
}

/// Optimisation by branch-and-bound: the best objective over the nodes of the tree, and a
/// node that reaches it. The incumbent is shared between the PEs as for any task
/// ([`Context::best`](crate::Context::best)).
pub trait Optimise: Space {
    /// Whether larger (the default) or smaller objectives are better.
    const GOAL: Goal = Goal::Maximise;
    /// True when a generator produces children in order of their bounds, best first: a child
    /// pruned by its bound then prunes the siblings after it too (they cannot do better).
    const PRUNE_LEVEL: bool = false;
    /// The objective of `node`, when it is a solution (`None`: it is not one).
    fn objective(&self, node: &Self::Node) -> Option<i64>;
    /// A bound on the objective of every solution in the subtree of `node` (at least as
    /// good as any of them; `None`: no bound). A node whose bound cannot beat the incumbent
    /// is pruned with its subtree (and its later siblings, with [`Optimise::PRUNE_LEVEL`]).
    fn bound(&self, node: &Self::Node) -> Option<i64> {
        let _ = node;
        None
    }
    /// Start generating the children of `node` where `best` is the incumbent (`None`: no
    /// solution yet): the generator may end early, leaving out children whose bounds cannot
    /// beat `best`, so that they are never built (the search would prune them). It must
    /// produce what [`Space::children`] would, in the same order, only ending sooner: a piece
    /// rebuilt elsewhere restarts the generator with [`Space::children`]. The default is
    /// [`Space::children`].
    fn children_beating(&self, node: &Self::Node, best: Option<i64>) -> Self::Children {
        let _ = best;
        self.children(node)
    }
}

/// The node at `path` (child indices from the root, as a [`Witness`] holds them), rebuilt by
/// the generators; `None` when the path leaves the tree. Spaces with small nodes recover a
/// witness's details (the decisions along its path) with it.
pub fn node_at<S: Space>(space: &S, path: &[u32]) -> Option<S::Node> {
    let mut node = space.root();
    for &i in path {
        let mut children = space.children(&node);
        if space.skip_children(&node, &mut children, u64::from(i)) != u64::from(i) {
            return None;
        }
        node = space.next_child(&node, &mut children)?;
    }
    Some(node)
}

#[cfg(test)]
mod tests;
