//! Optimal Golomb rulers on the search skeletons ([`treesplit::search`]): the hand-written
//! task's branch-and-bound as a node (the marks placed and the differences they use) and a
//! generator (the next mark's positions, left to right, that keep the differences distinct),
//! minimising the length. A child's bound is its mark plus the sum of the smallest
//! differences its parent leaves unused for the marks still to place: it grows with the
//! position, so a generator started with the incumbent stops at the largest useful position
//! (`children_beating`), as the hand-written task stops a level, and a child pruned later
//! (the incumbent improved meanwhile) prunes its later siblings too (`PRUNE_LEVEL`). Kept beside the
//! hand-written task to measure what the skeleton's generality costs
//! (docs/benchmarks/skeletons.md).

use super::{greedy_ruler, has, set, smallest_unused, Bits, MAX_N};
use serde::{Deserialize, Serialize};
use treesplit::search::{Optimise, Space};
use treesplit::task::Goal;

/// The search for a shortest ruler with `n` marks, none beyond the greedy ruler's length.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Rulers {
    n: u8,
    cap: u32,
}

/// A node: marks `0..k` placed (mark 0 at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    marks: [u8; MAX_N],
    k: u8,
    used: Bits,
    /// The smallest length the marks still to place can add (the parent's bound).
    floor: u32,
}

impl Marks {
    /// The marks placed.
    pub fn marks(&self) -> Vec<u32> {
        self.marks[..usize::from(self.k)]
            .iter()
            .map(|&m| u32::from(m))
            .collect()
    }

    fn last(&self) -> u32 {
        u32::from(self.marks[usize::from(self.k) - 1])
    }
}

impl Rulers {
    /// The search for `n` marks (2 ≤ n ≤ 16).
    pub fn new(n: usize) -> Result<Self, String> {
        super::Golomb::new(n)?;
        let cap = *greedy_ruler(n).last().expect("a greedy ruler");
        Ok(Rulers { n: n as u8, cap })
    }
}

impl Space for Rulers {
    type Node = Marks;
    /// The next position to try, the floor of the children and the last position to try.
    type Children = (u32, u32, u32);

    fn root(&self) -> Marks {
        Marks {
            marks: [0; MAX_N],
            k: 1,
            used: [0; 4],
            floor: 0,
        }
    }

    #[inline]
    fn children(&self, node: &Marks) -> (u32, u32, u32) {
        if node.k == self.n {
            return (self.cap + 1, 0, self.cap);
        }
        // Marks still to place after the child's.
        let r = usize::from(self.n - node.k - 1);
        (node.last() + 1, smallest_unused(&node.used, r), self.cap)
    }

    #[inline]
    fn next_child(&self, node: &Marks, (next, floor, last): &mut (u32, u32, u32)) -> Option<Marks> {
        let placed = &node.marks[..usize::from(node.k)];
        while *next <= *last {
            let c = *next;
            *next += 1;
            if placed.iter().any(|&m| has(&node.used, c - u32::from(m))) {
                continue;
            }
            let mut child = *node;
            for &m in placed {
                set(&mut child.used, c - u32::from(m));
            }
            child.marks[usize::from(node.k)] = c as u8;
            child.k += 1;
            child.floor = *floor;
            return Some(child);
        }
        None
    }
}

impl Optimise for Rulers {
    const GOAL: Goal = Goal::Minimise;
    const PRUNE_LEVEL: bool = true;

    #[inline]
    fn objective(&self, node: &Marks) -> Option<i64> {
        (node.k == self.n).then(|| i64::from(node.last()))
    }

    #[inline]
    fn bound(&self, node: &Marks) -> Option<i64> {
        Some(i64::from(node.last() + node.floor))
    }

    /// Positions stop where a child's bound (its mark plus the floor) reaches the incumbent,
    /// as the hand-written task stops a level.
    #[inline]
    fn children_beating(&self, node: &Marks, best: Option<i64>) -> (u32, u32, u32) {
        let (next, floor, cap) = self.children(node);
        let last = best.map_or(i64::from(cap), |b| {
            (b - 1 - i64::from(floor)).min(i64::from(cap))
        });
        (next, floor, u32::try_from(last).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golomb::{app::GOLOMB_LENGTHS, is_golomb};
    use treesplit::search::Optimisation;
    use treesplit::{run, run_sequential, Config};

    #[test]
    fn the_skeleton_finds_the_published_optimal_rulers() {
        for n in 2..=9usize {
            let seq = run_sequential(Optimisation::new(Rulers::new(n).unwrap()));
            let want = i64::from(GOLOMB_LENGTHS[n - 2]);
            assert_eq!(seq.output.value(), Some(want), "n = {n}");
            let r = run(Optimisation::new(Rulers::new(n).unwrap()), &Config::new(2))
                .unwrap()
                .into_report();
            assert_eq!(r.output.value(), Some(want), "n = {n}");
            let marks = r.output.witness().unwrap().node.marks();
            assert_eq!(marks.len(), n);
            assert!(is_golomb(&marks), "n = {n}: {marks:?}");
            assert_eq!(i64::from(*marks.last().unwrap()), want);
        }
        assert!(Rulers::new(1).is_err() && Rulers::new(17).is_err());
    }
}
