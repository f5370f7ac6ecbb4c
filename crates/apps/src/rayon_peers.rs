//! The same applications written idiomatically with rayon: the peers treesplit's benchmarks
//! measure against (not used by the runtime).

use crate::synthetic::{unit_value, SyntheticParams, SyntheticSum};
use crate::uts::{self, UtsCount, UtsParams};
use rayon::prelude::*;

/// N-Queens with rayon: parallel iteration over the candidate positions of the first
/// `par_depth` rows, sequential recursion below. Returns the number of solutions.
pub fn nqueens(n: u32, par_depth: u32) -> u64 {
    let full = (1u32 << n) - 1;
    fn seq(full: u32, cols: u32, left: u32, right: u32) -> u64 {
        if cols == full {
            return 1;
        }
        let mut untried = full & !(cols | left | right);
        let mut count = 0;
        while untried != 0 {
            let bit = untried & untried.wrapping_neg();
            untried ^= bit;
            count += seq(full, cols | bit, (left | bit) << 1, (right | bit) >> 1);
        }
        count
    }
    fn par(full: u32, cols: u32, left: u32, right: u32, depth: u32) -> u64 {
        if depth == 0 || cols == full {
            return seq(full, cols, left, right);
        }
        let untried = full & !(cols | left | right);
        let bits: Vec<u32> = (0..32)
            .map(|i| 1u32 << i)
            .filter(|b| untried & b != 0)
            .collect();
        bits.into_par_iter()
            .map(|bit| {
                par(
                    full,
                    cols | bit,
                    (left | bit) << 1,
                    (right | bit) >> 1,
                    depth - 1,
                )
            })
            .sum()
    }
    par(full, 0, 0, 0, par_depth)
}

/// UTS with rayon: the children of nodes above height `par_depth` are parallel iterators
/// (rayon's adaptive splitting decides what actually runs in parallel); subtrees below are
/// searched sequentially with an explicit stack. `par_depth = u32::MAX` makes every node
/// parallel.
pub fn uts(params: &UtsParams, par_depth: u32) -> UtsCount {
    visit(params, uts::Node::root(params.seed), par_depth)
}

fn visit(params: &UtsParams, node: uts::Node, par_depth: u32) -> UtsCount {
    if node.height() >= par_depth {
        let mut stack = vec![node];
        let mut count = UtsCount::default();
        while let Some(node) = stack.pop() {
            let n = uts::num_children(params, &node);
            count.nodes += 1;
            count.leaves += u64::from(n == 0);
            count.max_height = count.max_height.max(node.height());
            stack.extend((0..n).map(|i| node.child(i)));
        }
        return count;
    }
    let n = uts::num_children(params, &node);
    let mut own = UtsCount {
        nodes: 1,
        leaves: u64::from(n == 0),
        max_height: node.height(),
    };
    if n > 0 {
        let sub = (0..n)
            .into_par_iter()
            .map(|i| visit(params, node.child(i), par_depth))
            .reduce(UtsCount::default, |mut a, b| {
                treesplit::Outcome::merge(&mut a, b);
                a
            });
        treesplit::Outcome::merge(&mut own, sub);
    }
    own
}

/// The synthetic computation with rayon: a parallel sum over the unit indices.
pub fn synthetic(p: &SyntheticParams) -> SyntheticSum {
    let checksum = (0..p.work)
        .into_par_iter()
        .map(|i| unit_value(i, p.seed, p.spin))
        .reduce(|| 0, u64::wrapping_add);
    SyntheticSum {
        units: p.work,
        checksum,
    }
}
