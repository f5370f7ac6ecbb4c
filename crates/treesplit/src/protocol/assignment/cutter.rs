//! The bag of m independent jobs the static balancers share out, cut from the root by
//! recursive splitting (paper 004 §3 and Fig. 1).
//!
//! Job j of m is found by splitting a copy of the root and keeping, at every level, the part
//! whose index interval holds j: the interval `lo..hi` is cut at `mid = lo + ⌈(hi−lo)/2⌉`,
//! the kept part of the split takes `lo..mid` and the split-off part `mid..hi`. For m = 2^h
//! this is the complete splitting tree of depth h, job j named by its h-bit path from the
//! root (most significant bit first), so consecutive jobs are neighbouring subtrees. When a
//! split finds the task atomic, the split-off side is empty and so are its jobs. Because
//! `split` is deterministic, every PE that derives job j from its copy of the root gets the
//! same piece, and the m jobs partition the root exactly. How many jobs a bag has is the
//! configuration's (`task::bag::resolve_depth` derives it from the root where asked to).

use crate::piece::Piece;

/// Job `j` of `m` cut from `root`, with the number of splits on its path (its generation),
/// or `None` when the job is empty: the definition the [`Cutter`] follows.
#[cfg(test)]
pub(crate) fn job(root: &Piece, m: u64, j: u64) -> Option<(Piece, u32)> {
    assert!(j < m, "job {j} of a bag of {m}");
    let mut task = root.clone();
    let (mut lo, mut hi, mut generation) = (0, m, 0);
    while hi - lo > 1 {
        let mid = lo + (hi - lo).div_ceil(2);
        match task.split() {
            Some(other) => {
                generation += 1;
                if j >= mid {
                    task = other;
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            None if j >= mid => return None,
            None => hi = mid,
        }
    }
    (!task.is_empty()).then_some((task, generation))
}

/// Which jobs of the bag a [`Cutter`] cuts.
#[derive(Debug, Clone)]
pub(crate) enum Wanted {
    /// The consecutive jobs of a range.
    Range(std::ops::Range<u64>),
    /// Every `stride`-th job from `first` on (round-robin).
    Stride {
        /// The first job.
        first: u64,
        /// The distance between jobs.
        stride: u64,
    },
    /// The jobs of a sorted list (a permutation's share, sorted a chunk at a time).
    Sorted(Vec<u64>),
}

impl Wanted {
    /// True if some wanted job lies in `lo..hi`.
    fn meets(&self, lo: u64, hi: u64) -> bool {
        match self {
            Wanted::Range(r) => lo < r.end && r.start < hi,
            Wanted::Stride { first, stride } => {
                let next = if lo <= *first {
                    *first
                } else {
                    lo + (*stride - (lo - first) % stride) % stride
                };
                next < hi
            }
            Wanted::Sorted(v) => {
                let i = v.partition_point(|&j| j < lo);
                i < v.len() && v[i] < hi
            }
        }
    }
}

/// The wanted jobs (of a bag of `m`) in increasing order, cut by a depth-first walk over the
/// splitting tree that skips subtrees holding no wanted job and subtrees that are empty
/// (atomic tasks): for a range about ⌈log₂ m⌉ + 2·|range| splits in all instead of
/// ⌈log₂ m⌉ per job. Yields the same pieces as cutting each job alone.
pub(crate) struct Cutter {
    /// (task, its interval lo..hi, its generation), the next one on top.
    stack: Vec<(Piece, u64, u64, u32)>,
    wanted: Wanted,
    /// Splits done so far.
    pub splits: u64,
}

impl Cutter {
    /// The jobs `range` of a bag of `m` cut from `root`.
    pub(crate) fn new(root: &Piece, m: u64, range: std::ops::Range<u64>) -> Self {
        Self::wanted(root, m, Wanted::Range(range))
    }

    /// The `wanted` jobs of a bag of `m` cut from `root`.
    pub(crate) fn wanted(root: &Piece, m: u64, wanted: Wanted) -> Self {
        Cutter {
            stack: vec![(root.clone(), 0, m, 0)],
            wanted,
            splits: 0,
        }
    }
}

impl Iterator for Cutter {
    /// (j, job j, its generation); empty jobs are skipped.
    type Item = (u64, Piece, u32);

    fn next(&mut self) -> Option<Self::Item> {
        while let Some((mut task, lo, hi, generation)) = self.stack.pop() {
            if task.is_empty() || !self.wanted.meets(lo, hi) {
                continue;
            }
            if hi - lo == 1 {
                return Some((lo, task, generation));
            }
            let mid = lo + (hi - lo).div_ceil(2);
            if let Some(other) = task.split() {
                self.splits += 1;
                self.stack.push((other, mid, hi, generation + 1));
                self.stack.push((task, lo, mid, generation + 1));
            } else {
                self.stack.push((task, lo, mid, generation));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::range::IndexRange;
    use crate::task::testing::{sum, Sum};

    fn range(n: u64) -> Piece {
        Piece::new(sum(0, n))
    }

    /// The indices `lo..hi` a job of a range covers.
    fn bounds(piece: &Piece) -> (u64, u64) {
        let r = piece.downcast_ref::<IndexRange<Sum>>().expect("a range");
        (r.lo, r.hi)
    }

    #[test]
    fn jobs_partition_the_root() {
        for (n, m) in [(1000, 16), (1000, 7), (5, 16), (1, 3), (1024, 1024)] {
            let root = range(n);
            let mut covered = vec![false; n as usize];
            for j in 0..m {
                if let Some((t, generation)) = job(&root, m, j) {
                    assert!(generation <= 64 - m.leading_zeros());
                    let (lo, hi) = bounds(&t);
                    for i in lo..hi {
                        assert!(!covered[i as usize], "index {i} in two jobs");
                        covered[i as usize] = true;
                    }
                }
            }
            assert!(
                covered.iter().all(|&c| c),
                "n={n} m={m}: an index in no job"
            );
        }
    }

    #[test]
    fn the_cutter_yields_the_same_jobs() {
        let root = range(1000);
        for (m, range) in [
            (16, 0..16),
            (16, 5..11),
            (7, 2..7),
            (1024, 100..900),
            (3000, 0..3000),
        ] {
            let cut: Vec<_> = Cutter::new(&root, m, range.clone())
                .map(|(j, t, g)| {
                    let (lo, hi) = bounds(&t);
                    (j, lo, hi, g)
                })
                .collect();
            let one_by_one: Vec<_> = range
                .filter_map(|j| {
                    job(&root, m, j).map(|(t, g)| {
                        let (lo, hi) = bounds(&t);
                        (j, lo, hi, g)
                    })
                })
                .collect();
            assert_eq!(cut, one_by_one, "m={m}");
        }
    }

    #[test]
    fn the_cutter_cuts_strides_and_sorted_lists_as_one_by_one() {
        let root = range(1000);
        let one_by_one = |m: u64, js: &mut dyn Iterator<Item = u64>| -> Vec<_> {
            js.filter_map(|j| {
                job(&root, m, j).map(|(t, g)| {
                    let (lo, hi) = bounds(&t);
                    (j, lo, hi, g)
                })
            })
            .collect()
        };
        for (m, first, stride) in [(16, 3, 4), (1000, 0, 7), (3000, 5, 2), (7, 6, 9)] {
            let cut: Vec<_> = Cutter::wanted(&root, m, Wanted::Stride { first, stride })
                .map(|(j, t, g)| {
                    let (lo, hi) = bounds(&t);
                    (j, lo, hi, g)
                })
                .collect();
            assert_eq!(cut, one_by_one(m, &mut (first..m).step_by(stride as usize)));
        }
        for (m, list) in [(64, vec![0, 5, 6, 63]), (3000, vec![7, 1999, 2000, 2999])] {
            let cut: Vec<_> = Cutter::wanted(&root, m, Wanted::Sorted(list.clone()))
                .map(|(j, t, g)| {
                    let (lo, hi) = bounds(&t);
                    (j, lo, hi, g)
                })
                .collect();
            assert_eq!(cut, one_by_one(m, &mut list.into_iter()));
        }
        // A bag far larger than the tree: the walk skips empty subtrees.
        let small = range(10);
        let mut cutter = Cutter::new(&small, 1 << 40, 0..1 << 40);
        assert_eq!(cutter.by_ref().count(), 10);
        assert!(cutter.splits < 100, "{} splits", cutter.splits);
    }
}
