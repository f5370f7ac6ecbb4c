//! UTS, the Unbalanced Tree Search benchmark: count the nodes of an implicitly defined
//! random tree whose shape is fixed by a seed (binomial, geometric and hybrid trees).
//!
//! One work unit is one node visited (one SHA-1 per child created). The task is an explicit
//! depth-first stack of unvisited nodes (binomial trees are thousands of levels deep); a
//! split hands over the bottom half of the stack, the nodes nearest the root.

pub mod params;
pub mod rng;

pub use app::published_uts;
pub use params::{named, NamedTree, Shape, TreeType, UtsParams, NAMED_TREES};

use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::{Context, Outcome, Task};

/// The most children a node can have, except a binomial root (UTS `MAXNUMCHILDREN`).
const MAX_CHILDREN: u32 = 100;

/// An unvisited node: its generator state and its height (root 0).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Node {
    state: rng::State,
    height: u32,
}

impl Node {
    /// The root of the tree with seed `seed`.
    pub fn root(seed: u32) -> Node {
        Node {
            state: rng::root_state(seed),
            height: 0,
        }
    }
    /// Child `i` of this node.
    pub fn child(&self, i: u32) -> Node {
        Node {
            state: rng::child_state(&self.state, i),
            height: self.height + 1,
        }
    }
    /// The node's height (root 0).
    pub fn height(&self) -> u32 {
        self.height
    }
}

/// What a UTS search counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UtsCount {
    /// Nodes in the tree.
    pub nodes: u64,
    /// Nodes without children.
    pub leaves: u64,
    /// The largest height of a node (the root has height 0).
    pub max_height: u32,
}

/// Not a search: results must be equal.
impl crate::objective::Objective for UtsCount {
    fn objective(&self) -> Option<u64> {
        None
    }
}

impl Outcome for UtsCount {
    fn merge(&mut self, other: Self) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.max_height = self.max_height.max(other.max_height);
    }
}

impl fmt::Display for UtsCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {}, depth {}",
            treesplit::words::count(self.nodes, "node", "nodes"),
            treesplit::words::count(self.leaves, "leaf", "leaves"),
            self.max_height
        )
    }
}

/// A piece of a UTS search.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Uts {
    params: UtsParams,
    stack: Vec<Node>,
}

impl Uts {
    /// The whole tree.
    pub fn new(params: UtsParams) -> Self {
        Uts {
            params,
            stack: vec![Node::root(params.seed)],
        }
    }
}

/// The geometric number of children (UTS `uts_numChildren_geo`).
fn geometric_children(p: &UtsParams, node: &Node) -> u32 {
    let b0 = p.b0;
    let depth = node.height as f64;
    let d = p.depth as f64;
    let bi = if node.height == 0 {
        b0
    } else {
        match p.shape {
            Shape::ExpDec => b0 * depth.powf(-b0.ln() / d.ln()),
            Shape::Cyclic => {
                if depth > 5.0 * d {
                    0.0
                } else {
                    b0.powf((2.0 * std::f64::consts::PI * depth / d).sin())
                }
            }
            Shape::Fixed => {
                if depth < d {
                    b0
                } else {
                    0.0
                }
            }
            Shape::Linear => b0 * (1.0 - depth / d),
        }
    };
    if bi <= 0.0 {
        return 0;
    }
    let prob = 1.0 / (1.0 + bi);
    let u = rng::to_prob(rng::rand(&node.state));
    let n = ((1.0 - u).ln() / (1.0 - prob).ln()).floor();
    if n.is_finite() && n > 0.0 {
        n.min(u32::MAX as f64) as u32
    } else {
        0
    }
}

/// The binomial number of children of a non-root node (UTS `uts_numChildren_bin`).
fn binomial_children(p: &UtsParams, node: &Node) -> u32 {
    if rng::to_prob(rng::rand(&node.state)) < p.q {
        p.m
    } else {
        0
    }
}

/// The number of children of `node` (UTS `uts_numChildren`, with its limits).
pub fn num_children(p: &UtsParams, node: &Node) -> u32 {
    match p.tree {
        TreeType::Binomial if node.height == 0 => p.b0.floor() as u32,
        TreeType::Binomial => binomial_children(p, node).min(MAX_CHILDREN),
        TreeType::Geometric => geometric_children(p, node).min(MAX_CHILDREN),
        TreeType::Hybrid => {
            if (node.height as f64) < p.shift * p.depth as f64 {
                geometric_children(p, node).min(MAX_CHILDREN)
            } else {
                binomial_children(p, node).min(MAX_CHILDREN)
            }
        }
    }
}

impl Task for Uts {
    type Output = UtsCount;
    /// Its state after n units, bytes included, does not depend on where slices ended,
    /// and its counts add exactly.
    const WORK_COMPOSES: bool = true;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, UtsCount>) -> u64 {
        let mut count = UtsCount::default();
        while count.nodes < budget {
            let Some(node) = self.stack.pop() else { break };
            count.nodes += 1;
            count.max_height = count.max_height.max(node.height);
            let n = num_children(&self.params, &node);
            if n == 0 {
                count.leaves += 1;
            }
            for i in 0..n {
                self.stack.push(node.child(i));
            }
        }
        let units = count.nodes;
        ctx.output().merge(count);
        units
    }

    fn split(&mut self) -> Option<Self> {
        if self.stack.len() < 2 {
            return None;
        }
        let half = self.stack.len() / 2;
        let given: Vec<Node> = self.stack.drain(..half).collect();
        Some(Uts {
            params: self.params,
            stack: given,
        })
    }

    fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}

pub mod app;
