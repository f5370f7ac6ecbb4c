//! The travelling salesman as a skeleton branch-and-bound ([`treesplit::search`]) that
//! minimises: a node is a path from city 0 with its length and its bound, and a node's
//! children are its extensions by one unvisited city, produced in order of their bounds
//! (smallest first), so that the first child pruned prunes its later siblings too
//! (`PRUNE_LEVEL`).
//!
//! A child's bound is the 1-tree bound of the rest of its tour ([`super::bound`]) from the
//! root's penalties with a few subgradient steps of its own; the generator computes its
//! children's bounds when it starts, to order them.
//!
//! Every node that is not a whole tour also stands for the heuristic tour: its objective is
//! that tour's length, and a report of it is that tour. So the first node any piece visits
//! makes the heuristic tour the incumbent if nothing better is known. Offering it at the root
//! alone is not enough: a balancer that cuts the root into pieces before working (the static
//! ones, poll-and-shuffle's pools) may leave the unvisited root waiting while the other
//! pieces search without an incumbent, and on att48 such runs did a hundred times the
//! sequential search's nodes and more. It costs one comparison a node.

use super::{bound, Problem, Tour};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use treesplit::search::{Optimisation, Optimise, Solution, Space, Witness};
use treesplit::task::Goal;

/// Subgradient steps for a child's bound, from the root's penalties.
const CHILD_ITERATIONS: usize = 10;
/// Steps without improvement before a child's step size halves.
const CHILD_PATIENCE: usize = 3;

/// The space: the prepared instance (shared by every piece, sent once).
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TspSpace(pub Arc<Problem>);

/// A node: a path from city 0 (0-based cities), its length and a bound on every tour that
/// begins with it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TourNode {
    /// The cities visited, city 0 first.
    pub path: Vec<u16>,
    /// The path's length.
    pub length: u64,
    /// A bound on every tour that begins with the path.
    pub bound: i64,
}

/// The branch-and-bound the application runs, reporting the best [`Tour`].
pub type TspSearch = Optimisation<TspSpace, Tour>;

/// The whole search of `problem`.
pub fn search(problem: Arc<Problem>) -> TspSearch {
    Optimisation::reporting(TspSpace(problem))
}

impl TspSpace {
    /// The bound of a path ending at `last` of length `length` that leaves `left` unvisited.
    fn bound_of(&self, length: u64, last: usize, left: &[usize]) -> i64 {
        let p = &self.0;
        let dist = p.distances();
        if left.is_empty() {
            return (length + u64::from(p.dist[last * p.n])) as i64;
        }
        let mut pi: Vec<f64> = left.iter().map(|&c| p.pi[c]).collect();
        let upper = p.first_length as f64;
        let (lb, _) = bound::ascent(
            &dist,
            length as f64,
            last,
            left,
            &mut pi,
            upper,
            upper,
            CHILD_ITERATIONS,
            CHILD_PATIENCE,
        );
        bound::ceil(lb)
    }
}

impl Space for TspSpace {
    type Node = TourNode;
    /// The children still to come, the next one last.
    type Children = Vec<TourNode>;

    fn root(&self) -> TourNode {
        TourNode {
            path: vec![0],
            length: 0,
            bound: self.0.root_bound,
        }
    }

    fn children(&self, node: &TourNode) -> Vec<TourNode> {
        let p = &self.0;
        if node.path.len() >= p.n {
            return Vec::new();
        }
        let mut seen = vec![false; p.n];
        for &c in &node.path {
            seen[usize::from(c)] = true;
        }
        let last = usize::from(*node.path.last().expect("a path from city 0"));
        let unvisited: Vec<usize> = (0..p.n).filter(|&c| !seen[c]).collect();
        let mut left = Vec::with_capacity(unvisited.len());
        let mut children: Vec<TourNode> = unvisited
            .iter()
            .map(|&u| {
                left.clear();
                left.extend(unvisited.iter().copied().filter(|&c| c != u));
                let length = node.length + u64::from(p.dist[last * p.n + u]);
                let mut path = Vec::with_capacity(node.path.len() + 1);
                path.extend_from_slice(&node.path);
                path.push(u as u16);
                TourNode {
                    bound: self.bound_of(length, u, &left),
                    path,
                    length,
                }
            })
            .collect();
        // Smallest bound first (taken from the end), ties by city.
        children.sort_by(|a, b| (b.bound, b.path.last()).cmp(&(a.bound, a.path.last())));
        children
    }

    fn next_child(&self, _node: &TourNode, children: &mut Vec<TourNode>) -> Option<TourNode> {
        children.pop()
    }

    fn skip_children(&self, _node: &TourNode, children: &mut Vec<TourNode>, n: u64) -> u64 {
        let skip = (n as usize).min(children.len());
        children.truncate(children.len() - skip);
        skip as u64
    }
}

impl Optimise for TspSpace {
    const GOAL: Goal = Goal::Minimise;
    const PRUNE_LEVEL: bool = true;

    /// A whole tour's length; any other node's is the heuristic tour's (see the module).
    fn objective(&self, node: &TourNode) -> Option<i64> {
        let p = &self.0;
        if node.path.len() == p.n {
            let last = usize::from(node.path[p.n - 1]);
            Some((node.length + u64::from(p.dist[last * p.n])) as i64)
        } else {
            Some(p.first_length as i64)
        }
    }

    fn bound(&self, node: &TourNode) -> Option<i64> {
        Some(node.bound)
    }
}

/// A tour that improved the incumbent (a node short of a whole tour: the heuristic tour).
impl Solution<TspSpace> for Tour {
    fn found(space: &TspSpace, _: i64, witness: Witness<TourNode>) -> Self {
        let p = &space.0;
        if witness.node.path.len() == p.n {
            p.tour(&witness.node.path)
        } else {
            p.tour(&p.first)
        }
    }
}
