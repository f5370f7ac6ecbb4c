//! Tree sum: the sum of the values of a perfect binary tree's nodes, the fine-grained
//! fork-join benchmark of chili and Spice (a node costs a few nanoseconds, less than a fork).
//!
//! The tree is implicit, so that 2^27 nodes take no memory: its nodes are numbered as in a
//! binary heap (the root 1, the children of i are 2i and 2i + 1), a tree of depth D has the
//! nodes 1 … 2^D − 1, and node i holds a value mixed from i that no compiler sums in closed
//! form. One work unit is one node. The task walks the tree depth first with an explicit
//! stack of the subtrees still to visit (at most D + 1 of them, in a stack of 64 slots
//! allocated once, indexed masked and never grown); a split
//! hands over the shallowest of them, the largest subtree left.

use serde::{Deserialize, Serialize};
use treesplit::{Context, Task};

pub mod app;
pub use app::TreeSumSpec;

/// The deepest tree supported: 2^40 nodes take hours, and the sum stays below 2^64.
pub const MAX_DEPTH: u32 = 40;

/// The value of node `i`: 24 bits of a multiplicative hash of its number.
#[inline(always)]
pub fn value(i: u64) -> u64 {
    i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40
}

/// Slots of a stack: a power of two above [`MAX_DEPTH`] + 1, so that the walk indexes it
/// masked, with no bounds checks.
const SLOTS: usize = 64;

/// A piece of a tree sum: the subtrees still to visit, rooted at the node numbers
/// `stack[..top]` (the next one on top). The stack has its full size, [`SLOTS`], from the
/// start: the walk indexes it and never grows it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TreeSum {
    /// The first leaf, 2^(D−1): nodes below it have children.
    leaves: u64,
    top: usize,
    stack: Vec<u64>,
}

impl TreeSum {
    /// The whole tree of depth `depth` (2^depth − 1 nodes).
    pub fn new(depth: u32) -> Result<Self, String> {
        check_depth(depth)?;
        let mut stack = vec![0; SLOTS];
        stack[0] = 1;
        Ok(TreeSum {
            leaves: 1 << (depth - 1),
            top: 1,
            stack,
        })
    }

    /// The pending subtrees' roots, the next one last.
    fn pending(&self) -> &[u64] {
        &self.stack[..self.top]
    }
}

/// 1 ≤ depth ≤ [`MAX_DEPTH`].
pub fn check_depth(depth: u32) -> Result<(), String> {
    if depth == 0 || depth > MAX_DEPTH {
        return Err(format!(
            "tree-sum needs 1 ≤ --depth ≤ {MAX_DEPTH}, got {depth}"
        ));
    }
    Ok(())
}

impl Task for TreeSum {
    type Output = u64;

    #[inline]
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let leaves = self.leaves;
        let Ok(stack) = <&mut [u64; SLOTS]>::try_from(&mut self.stack[..]) else {
            unreachable!("a tree-sum stack has {SLOTS} slots");
        };
        // The most nodes one descent visits: from the root to a leaf, D of them.
        let spine = u64::from(leaves.trailing_zeros()) + 1;
        let (mut top, first) = (self.top, self.top as u64);
        let mut sum = 0u64;
        // A descent pops a subtree, pushes a right child at each inner node and ends on a
        // leaf, so the nodes visited so far are 2·pops + (top − first): no count per node.
        // Before a pop that count is at most 2·pops + SLOTS − first (the stack never holds
        // more), and the descent adds at most D: the first `allowed` pops and their descents
        // fit in the budget. The budget is looked at once per pop, by counting the pops
        // down, and a descent keeps nothing but the sum and the stack in registers.
        let allowed = budget
            .saturating_add(first)
            .saturating_sub(spine + SLOTS as u64)
            / 2;
        let mut pops_left = allowed;
        while top > 0 && pops_left > 0 {
            pops_left -= 1;
            top -= 1;
            let mut node = stack[top % SLOTS];
            while node < leaves {
                sum += value(node);
                stack[top % SLOTS] = 2 * node + 1;
                top += 1;
                node *= 2;
            }
            sum += value(node);
        }
        let pops = allowed - pops_left;
        let mut left = budget - (2 * pops + top as u64 - first);
        // The last units of the budget, node by node: a node's children go on the stack.
        while top > 0 && left > 0 {
            top -= 1;
            let node = stack[top % SLOTS];
            left -= 1;
            sum += value(node);
            if node < leaves {
                stack[top % SLOTS] = 2 * node + 1;
                stack[(top + 1) % SLOTS] = 2 * node;
                top += 2;
            }
        }
        self.top = top;
        *ctx.output() += sum;
        budget - left
    }

    fn split(&mut self) -> Option<Self> {
        // The bottom of the stack is the shallowest subtree; the top is the one in progress.
        if self.top < 2 {
            return None;
        }
        let mut stack = vec![0; self.stack.len()];
        stack[0] = self.stack[0];
        self.stack.copy_within(1..self.top, 0);
        self.top -= 1;
        Some(TreeSum {
            leaves: self.leaves,
            top: 1,
            stack,
        })
    }

    fn is_empty(&self) -> bool {
        self.top == 0
    }

    fn estimate(&self) -> Option<u64> {
        // A subtree rooted at depth d of a tree of depth D has 2^(D−d) − 1 nodes.
        let top = 64 - self.leaves.leading_zeros();
        Some(
            self.pending()
                .iter()
                .map(|&i| (1u64 << (top - (63 - i.leading_zeros()))) - 1)
                .sum(),
        )
    }
}

/// The plain recursion over the subtree of node `i` (no runtime): the sequential peer.
pub fn sum_recursive(i: u64, leaves: u64) -> u64 {
    if i >= leaves {
        return value(i);
    }
    value(i) + sum_recursive(2 * i, leaves) + sum_recursive(2 * i + 1, leaves)
}

/// The sum by a loop over the node numbers 1 … 2^depth − 1, independent of the tree's
/// shape: the answer every run is checked against.
pub fn sum_direct(depth: u32) -> u64 {
    (1..1u64 << depth).map(value).sum()
}

/// The same recursion forked with rayon's `join` above depth `cut` (the root is at depth 0).
pub fn sum_rayon(i: u64, leaves: u64, depth: u32, cut: u32) -> u64 {
    if i >= leaves || depth >= cut {
        return sum_recursive(i, leaves);
    }
    let (a, b) = rayon::join(
        || sum_rayon(2 * i, leaves, depth + 1, cut),
        || sum_rayon(2 * i + 1, leaves, depth + 1, cut),
    );
    value(i) + a + b
}

/// The same recursion forked with chili's `join` above depth `cut`.
pub fn sum_chili(s: &mut chili::Scope<'_>, i: u64, leaves: u64, depth: u32, cut: u32) -> u64 {
    if i >= leaves || depth >= cut {
        return sum_recursive(i, leaves);
    }
    let (a, b) = s.join(
        |s| sum_chili(s, 2 * i, leaves, depth + 1, cut),
        |s| sum_chili(s, 2 * i + 1, leaves, depth + 1, cut),
    );
    value(i) + a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_the_recursion_and_the_direct_sum_agree() {
        for depth in 1..=14 {
            let r = treesplit::run_sequential(TreeSum::new(depth).unwrap());
            assert_eq!(r.work_units, (1 << depth) - 1);
            assert_eq!(r.output, sum_direct(depth));
            assert_eq!(sum_recursive(1, 1 << (depth - 1)), sum_direct(depth));
        }
    }

    #[test]
    fn parallel_runs_with_short_slices_give_the_sum_and_every_node_once() {
        for pes in [1, 2, 3] {
            let config = treesplit::Config::new(pes).delta_t(7).seed(3);
            let r = treesplit::Threads::new()
                .run(TreeSum::new(13).unwrap(), &config)
                .unwrap()
                .into_report();
            assert_eq!(r.totals.work_units, (1 << 13) - 1);
            assert_eq!(r.output, sum_direct(13));
        }
    }

    #[test]
    fn slices_of_every_budget_stay_within_it_and_visit_every_node_once() {
        // Budgets below, at and above a descent's length and the stack's size (where pops
        // are counted down), with a split after each slice.
        let depth = 9;
        for budget in (1..=40).chain(70..=80).chain([200, 1000]) {
            let (sum, units) =
                treesplit_testkit::support::work_in_slices(TreeSum::new(depth).unwrap(), budget);
            assert_eq!(units, (1 << depth) - 1, "budget {budget}");
            assert_eq!(sum, sum_direct(depth), "budget {budget}");
        }
    }

    #[test]
    fn a_split_gives_away_the_shallowest_subtree_and_the_estimates_add_up() {
        let mut t = TreeSum::new(10).unwrap();
        assert!(t.split().is_none(), "the root alone cannot be split");
        t.stack[..4].copy_from_slice(&[3, 5, 9, 16]);
        t.top = 4;
        let given = t.split().unwrap();
        assert_eq!(given.pending(), &[3]);
        assert_eq!(t.pending(), &[5, 9, 16]);
        assert_eq!(given.estimate(), Some(511));
        assert_eq!(t.estimate(), Some(255 + 127 + 63));
    }

    #[test]
    fn rayon_and_chili_peers_give_the_direct_sum() {
        let pool = crate::peers::chili_pool(2);
        for cut in [0, 3, crate::peers::EVERY_NODE] {
            assert_eq!(sum_rayon(1, 1 << 11, 0, cut), sum_direct(12));
            assert_eq!(
                sum_chili(&mut pool.scope(), 1, 1 << 11, 0, cut),
                sum_direct(12)
            );
        }
    }
}
