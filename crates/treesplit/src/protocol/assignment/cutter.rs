//! The bag of m independent jobs the static balancers share out, cut from the root by
//! recursive splitting (paper 004 §3 and Fig. 1).
//!
//! Job j of m is found by splitting a copy of the root and keeping, at every level, the part
//! whose index interval holds j: the interval `lo..hi` is cut at `mid = lo + ⌈(hi−lo)/2⌉`,
//! the kept part of the split takes `lo..mid` and the split-off part `mid..hi`. For m = 2^h
//! this is the complete splitting tree of depth h, job j named by its h-bit path from the
//! root (most significant bit first), so consecutive jobs are neighbouring subtrees. Because
//! `split` is deterministic, every PE that derives job j from its copy of the root gets the
//! same piece, and the m jobs partition the root exactly. How many jobs a bag has is the
//! configuration's (`task::bag::resolve_depth` derives it from the root where asked to).
//!
//! **Pieces that split only after some work.** Many tasks cannot split before they have
//! worked a little (UTS: a piece of one node splits only once the node is expanded). Paper
//! 004 §4 generates the pieces by splitting *and* working: a [`Cutter`] with a [`Probe`]
//! works a piece that will not split as little as needed until it does (one unit at a time,
//! at most [`Probe::budget`] units), on a copy, with an incumbent of its own that starts
//! empty, so that every PE's copy of the root is worked the same way whatever it learned
//! meanwhile. The worked copy then takes the piece's place and is split. Every PE that walks
//! through that node does the same work on its copy; the work is *credited* (its units and
//! its output kept) by exactly one walk: the one that wants the leftmost job `lo` of the
//! node's interval (each job is wanted by exactly one walk of one PE, and a walk that wants
//! job `lo` passes through every node whose interval starts at `lo`). The other walks
//! discard their copy's output; their work is overhead, not work units ([`Cut::overhead`]).
//! A piece that empties, asks for an early stop or runs out of the budget before it splits
//! (or whose split hands over an empty part) is atomic: the work on the copy is undone and the piece becomes job `lo` as it was (its jobs `lo+1..hi` stay
//! empty), just as a piece that cannot split at all.

use crate::piece::{Bench, Fresh, Piece, Yield};
use crate::task::SharedIncumbent;

/// Job `j` of `m` cut from `root`, with the number of splits on its path (its generation),
/// or `None` when the job is empty: the definition the [`Cutter`] follows (without a probe).
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

/// How a [`Cutter`] works a piece that will not split: at most `budget` units, with
/// accumulators made by `fresh`, as PE `pe`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Probe {
    /// The most units worked on one piece before it counts as atomic.
    pub budget: u64,
    /// Makes the accumulators of the run's outcome type.
    pub fresh: Fresh,
    /// The PE walking (what `Context::pe` says while working).
    pub pe: usize,
}

impl Probe {
    /// The most units a probe works on one piece: one slice (Δt), and at most this many.
    pub(crate) const MAX_BUDGET: u64 = 4096;

    /// A probe of at most one slice of `delta_t` units (and [`Probe::MAX_BUDGET`]).
    pub(crate) fn new(delta_t: u64, fresh: Fresh, pe: usize) -> Probe {
        Probe {
            budget: delta_t.clamp(1, Self::MAX_BUDGET),
            fresh,
            pe,
        }
    }
}

/// The work a [`Cutter`] did on pieces to make them split, since last taken.
#[derive(Debug, Default)]
pub(crate) struct Cut {
    /// Units of the work this walk is credited with (work units of the run).
    pub units: u64,
    /// The output of that work (`None`: none credited).
    pub output: Option<Yield>,
    /// Units worked on nodes another walk is credited with (this PE's copy; overhead).
    pub overhead: u64,
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
    /// True if job `j` is wanted.
    fn contains(&self, j: u64) -> bool {
        self.meets(j, j + 1)
    }

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

/// Which nodes' work a walk is credited with, by the leftmost job of their interval.
type Credit = Box<dyn Fn(u64) -> bool + Send>;

/// The wanted jobs (of a bag of `m`) in increasing order, cut by a depth-first walk over the
/// splitting tree that skips subtrees holding no wanted job and subtrees that are empty
/// (atomic tasks): for a range about ⌈log₂ m⌉ + 2·|range| splits in all instead of
/// ⌈log₂ m⌉ per job. Yields the same pieces as cutting each job alone. With a [`Probe`]
/// (module comment) it works pieces that split only after some work; [`Cutter::take_cut`]
/// says what that work was.
pub(crate) struct Cutter {
    /// (task, its interval lo..hi, its generation, whether a probe found it atomic), the
    /// next one on top.
    stack: Vec<(Piece, u64, u64, u32, bool)>,
    wanted: Wanted,
    /// The nodes this walk is credited with (None: those whose job `lo` it wants).
    credit: Option<Credit>,
    probe: Option<Probe>,
    cut: Cut,
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
            stack: vec![(root.clone(), 0, m, 0, false)],
            wanted,
            credit: None,
            probe: None,
            cut: Cut::default(),
            splits: 0,
        }
    }

    /// Work pieces that will not split with `probe` (module comment).
    pub(crate) fn probing(mut self, probe: Option<Probe>) -> Self {
        self.probe = probe;
        self
    }

    /// Be credited with the work on the nodes whose leftmost job `credit` says (instead of
    /// those whose leftmost job this walk wants): a walk over the whole bag that keeps only
    /// some jobs.
    pub(crate) fn crediting(mut self, credit: impl Fn(u64) -> bool + Send + 'static) -> Self {
        self.credit = Some(Box::new(credit));
        self
    }

    /// The work done on pieces to make them split since the last call.
    pub(crate) fn take_cut(&mut self) -> Cut {
        std::mem::take(&mut self.cut)
    }

    /// Work `task` (which will not split) on a copy until the copy splits: the worked copy
    /// and the part split off, or `None` if it empties, asks for a stop or runs out of the
    /// probe's budget first (atomic), or splits off an empty part. The work is credited or
    /// counted as overhead.
    fn work_until_split(&mut self, task: &Piece, lo: u64) -> Option<(Piece, Piece)> {
        let probe = self.probe?;
        let mut copy = task.clone();
        let mut output = probe.fresh.make();
        let incumbent = SharedIncumbent::new();
        let mut units = 0;
        let other = loop {
            if units >= probe.budget {
                return None;
            }
            let mut bench = Bench {
                output: &mut output,
                incumbent: &incumbent,
                pe: probe.pe,
            };
            let worked = copy.work(1, &mut bench);
            units += worked.units;
            if worked.stop || worked.empty || worked.units == 0 {
                return None;
            }
            // A split that hands over nothing (an adversary's) is no reason to have worked.
            match copy.split() {
                Some(other) if other.is_empty() => return None,
                Some(other) => break other,
                None => {}
            }
        };
        let credited = match &self.credit {
            Some(credit) => credit(lo),
            None => self.wanted.contains(lo),
        };
        if credited {
            self.cut.units += units;
            match &mut self.cut.output {
                Some(kept) => kept.merge(output),
                None => self.cut.output = Some(output),
            }
        } else {
            self.cut.overhead += units;
        }
        Some((copy, other))
    }
}

impl Iterator for Cutter {
    /// (j, job j, its generation); empty jobs are skipped.
    type Item = (u64, Piece, u32);

    fn next(&mut self) -> Option<Self::Item> {
        while let Some((mut task, lo, hi, generation, atomic)) = self.stack.pop() {
            if task.is_empty() || !self.wanted.meets(lo, hi) {
                continue;
            }
            if hi - lo == 1 {
                return Some((lo, task, generation));
            }
            let mid = lo + (hi - lo).div_ceil(2);
            let mut found_atomic = atomic;
            let split = match task.split() {
                Some(other) => Some(other),
                None if atomic => None,
                None => {
                    let worked = self.work_until_split(&task, lo);
                    found_atomic = worked.is_none();
                    worked.map(|(worked, other)| {
                        task = worked;
                        other
                    })
                }
            };
            match split {
                Some(other) => {
                    self.splits += 1;
                    self.stack.push((other, mid, hi, generation + 1, false));
                    self.stack
                        .push((task, lo, mid, generation + 1, found_atomic));
                }
                // The split-off side is empty: so are its jobs.
                None => self.stack.push((task, lo, mid, generation, found_atomic)),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::range::IndexRange;
    use crate::task::testing::{sum, tree, Sum};
    use crate::task::SharedIncumbent;

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

    fn probe() -> Option<Probe> {
        Some(Probe::new(64, Fresh::of::<u64>(), 0))
    }

    /// Work `piece` to its end; its units and output.
    fn finish(mut piece: Piece) -> (u64, u64) {
        let (incumbent, mut output) = (SharedIncumbent::new(), Yield::new(0u64));
        let mut units = 0;
        while !piece.is_empty() {
            let mut bench = Bench {
                output: &mut output,
                incumbent: &incumbent,
                pe: 0,
            };
            units += piece.work(1 << 20, &mut bench).units;
        }
        (units, output.into_typed())
    }

    /// A tree that splits only after its root is expanded: without a probe the whole tree is
    /// one job; with one, every job of the bag is non-empty and the walks of all "PEs"
    /// together are credited with each unit of the cutting work exactly once, the jobs and the
    /// credited work adding up to the tree.
    #[test]
    fn probes_work_pieces_until_they_split_and_credit_it_once() {
        let depth = 12;
        let nodes = (1u64 << (depth + 1)) - 1;
        let root = Piece::new(tree(depth));
        assert_eq!(Cutter::new(&root, 16, 0..16).count(), 1);
        for (m, p) in [(16u64, 4u64), (64, 3), (7, 7), (32, 1)] {
            let (mut units, mut output, mut overhead, mut jobs) = (0, 0, 0, 0);
            for pe in 0..p {
                let share = (m * pe / p)..(m * (pe + 1) / p);
                let mut cutter = Cutter::new(&root, m, share).probing(probe());
                for (_, job, _) in cutter.by_ref() {
                    jobs += 1;
                    let (u, o) = finish(job);
                    units += u;
                    output += o;
                }
                let cut = cutter.take_cut();
                units += cut.units;
                output += cut.output.map_or(0, Yield::into_typed::<u64>);
                overhead += cut.overhead;
            }
            assert_eq!(jobs, m, "m={m}: every job non-empty");
            assert_eq!((units, output), (nodes, nodes), "m={m} p={p}");
            assert!(
                p == 1 || overhead > 0,
                "m={m} p={p}: no PE repeated the root's work"
            );
        }
    }

    /// A walk over the whole bag credited with some jobs' nodes only (a sparse share), and
    /// round-robin walks, conserve the work as the range walks do.
    #[test]
    fn crediting_by_owner_conserves_the_work() {
        let root = Piece::new(tree(10));
        let nodes = (1u64 << 11) - 1;
        let m = 64;
        let (mut units, mut output) = (0, 0);
        for pe in 0..3u64 {
            let owns = move |j: u64| j % 3 == pe;
            let mut whole = Cutter::new(&root, m, 0..m).probing(probe()).crediting(owns);
            let mine: Vec<_> = whole.by_ref().filter(|(j, _, _)| owns(*j)).collect();
            let cut = whole.take_cut();
            let mut stride = Cutter::wanted(
                &root,
                m,
                Wanted::Stride {
                    first: pe,
                    stride: 3,
                },
            )
            .probing(probe());
            let theirs: Vec<_> = stride.by_ref().collect();
            let by_stride = stride.take_cut();
            assert_eq!((cut.units, mine.len()), (by_stride.units, theirs.len()));
            units += cut.units;
            output += cut.output.map_or(0, Yield::into_typed::<u64>);
            for (_, job, _) in mine {
                let (u, o) = finish(job);
                units += u;
                output += o;
            }
        }
        assert_eq!((units, output), (nodes, nodes));
    }

    /// Pieces that cannot split at all (single indices) are left unworked, as without a probe.
    #[test]
    fn atomic_pieces_are_left_as_they_were() {
        let root = range(5);
        let plain: Vec<_> = Cutter::new(&root, 64, 0..64)
            .map(|(j, t, g)| (j, bounds(&t), g))
            .collect();
        let mut probing = Cutter::new(&root, 64, 0..64).probing(probe());
        let probed: Vec<_> = probing
            .by_ref()
            .map(|(j, t, g)| (j, bounds(&t), g))
            .collect();
        assert_eq!(plain, probed);
        let cut = probing.take_cut();
        assert_eq!((cut.units, cut.overhead), (0, 0));
        assert!(cut.output.is_none());
    }
}
