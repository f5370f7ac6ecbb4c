//! N-Queens on the search skeletons ([`treesplit::search`]): the bitmask search of the
//! hand-written task as a node (a row's attacked columns and diagonals) and a generator (the
//! free columns not yet tried, a bit each). It counts as an enumeration and finds one
//! placement as a decision. Kept beside the hand-written task to measure what the skeleton's
//! generality costs (docs/benchmarks/skeletons.md).

use serde::{Deserialize, Serialize};
use treesplit::search::{Decide, Enumerate, Space};

/// The n×n board (1 ≤ n ≤ 20, as [`super::NQueens::new`] checks).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Queens {
    full: u32,
}

/// A node: the columns and the two diagonals the queens placed so far attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rows {
    /// Columns taken (one bit per queen placed).
    pub cols: u32,
    left: u32,
    right: u32,
}

impl Queens {
    /// The search for an n×n board.
    pub fn new(n: u32) -> Result<Self, String> {
        super::NQueens::new(n)?;
        Ok(Queens {
            full: (1u32 << n) - 1,
        })
    }

    /// True when every row holds a queen.
    pub fn is_full(&self, node: &Rows) -> bool {
        node.cols == self.full
    }
}

impl Space for Queens {
    type Node = Rows;
    type Children = u32;

    fn root(&self) -> Rows {
        Rows {
            cols: 0,
            left: 0,
            right: 0,
        }
    }

    #[inline]
    fn children(&self, node: &Rows) -> u32 {
        if node.cols == self.full {
            0
        } else {
            self.full & !(node.cols | node.left | node.right)
        }
    }

    #[inline]
    fn next_child(&self, node: &Rows, untried: &mut u32) -> Option<Rows> {
        if *untried == 0 {
            return None;
        }
        let bit = *untried & untried.wrapping_neg();
        *untried ^= bit;
        Some(Rows {
            cols: node.cols | bit,
            left: (node.left | bit) << 1,
            right: (node.right | bit) >> 1,
        })
    }

    fn skip_children(&self, _: &Rows, untried: &mut u32, n: u64) -> u64 {
        let mut skipped = 0;
        while skipped < n && *untried != 0 {
            *untried &= *untried - 1;
            skipped += 1;
        }
        skipped
    }
}

/// Counts the solutions: the nodes with a queen on every row.
impl Enumerate for Queens {
    type Output = u64;
    #[inline]
    fn visit(&self, node: &Rows, solutions: &mut u64) {
        *solutions += u64::from(node.cols == self.full);
    }
}

/// Looks for one solution.
impl Decide for Queens {
    fn is_goal(&self, node: &Rows) -> bool {
        self.is_full(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nqueens::NQUEENS_SOLUTIONS;
    use treesplit::search::{node_at, Decision, Enumeration};
    use treesplit::{run, run_sequential, Config};

    #[test]
    fn the_skeleton_counts_the_published_solutions() {
        for n in 1..=10u32 {
            let seq = run_sequential(Enumeration::new(Queens::new(n).unwrap()));
            assert_eq!(seq.output, NQUEENS_SOLUTIONS[n as usize - 1], "n = {n}");
            // One unit a node: the hand-written task's queens placed, and the root.
            let hand = run_sequential(crate::nqueens::NQueens::new(n).unwrap());
            assert_eq!(seq.work_units, hand.work_units + 1, "n = {n}");
        }
        let r = run(Enumeration::new(Queens::new(11).unwrap()), &Config::new(2))
            .unwrap()
            .into_report();
        assert_eq!(r.output, NQUEENS_SOLUTIONS[10]);
    }

    #[test]
    fn the_decision_finds_a_placement_where_there_is_one() {
        for n in 1..=12u32 {
            let space = Queens::new(n).unwrap();
            let r = run(Decision::new(space), &Config::new(2))
                .unwrap()
                .into_report();
            let found = r.output.0.as_ref();
            assert_eq!(
                found.is_some(),
                NQUEENS_SOLUTIONS[n as usize - 1] > 0,
                "n = {n}"
            );
            if let Some(w) = found {
                assert!(space.is_full(&w.node), "n = {n}");
                assert_eq!(node_at(&space, &w.path), Some(w.node), "n = {n}");
            }
        }
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert!(Queens::new(0).is_err());
        assert!(Queens::new(21).is_err());
    }
}
