//! Independent jobs as a tree-shaped computation: a range of indices `a..b` (paper 001
//! §14.5.1). Working takes indices from the front; splitting cuts the range at the middle
//! and hands over the upper half, so repeated splits give pieces of equal index counts and
//! the splitting depth is ⌈log₂(b − a)⌉.
//!
//! The user supplies an [`IndexJob`]: a function of the index (plain data, so that it can
//! travel between PEs) and, optionally, an estimate of each job's size. With estimates the
//! range knows its remaining work ([`Task::estimate`]) and can be cut after a given amount
//! of it ([`Task::split_at`]), which splittable prefix-sum assignment needs.
//!
//! A job is indivisible, so the last job of a slice may end beyond the budget; the range then
//! reports the budget and owes the rest, reported by the next slices (the range is not empty
//! while it owes units). `Task::work` thus never reports more than its budget, as the
//! contract asks, and the units in all are exactly the jobs' units.

use super::{Context, Outcome, Task};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// One independent job per index.
pub trait IndexJob: Clone + Send + Serialize + DeserializeOwned + 'static {
    /// What the jobs produce; merged across PEs.
    type Output: Outcome;
    /// Do job `i`; return the work units it took (at least 1).
    fn run(&self, i: u64, ctx: &mut Context<'_, Self::Output>) -> u64;
    /// The estimated work units of job `i`, where known.
    fn estimate(&self, i: u64) -> Option<u64> {
        let _ = i;
        None
    }
}

/// The jobs `lo..hi` of `job`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct IndexRange<J: IndexJob> {
    /// The job function.
    pub job: J,
    /// First index not yet done.
    pub lo: u64,
    /// One past the last index.
    pub hi: u64,
    /// Units done beyond a slice's budget, not reported yet (stays with the kept part).
    #[serde(default)]
    owed: u64,
}

impl<J: IndexJob> IndexRange<J> {
    /// The jobs `lo..hi`.
    pub fn new(job: J, lo: u64, hi: u64) -> Self {
        IndexRange {
            job,
            lo,
            hi,
            owed: 0,
        }
    }
}

impl<J: IndexJob> Task for IndexRange<J> {
    type Output = J::Output;

    /// Runs whole jobs from the front until `budget` units are done; a job is indivisible, so
    /// the last one may end beyond the budget: the units beyond it are reported by the next
    /// slices (module comment).
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, J::Output>) -> u64 {
        let mut done = self.owed;
        while self.lo < self.hi && done < budget {
            done += self.job.run(self.lo, ctx).max(1);
            self.lo += 1;
        }
        let reported = done.min(budget);
        self.owed = done - reported;
        reported
    }

    fn split(&mut self) -> Option<Self> {
        if self.hi.saturating_sub(self.lo) < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let upper = IndexRange::new(self.job.clone(), mid, self.hi);
        self.hi = mid;
        Some(upper)
    }

    fn is_empty(&self) -> bool {
        self.lo >= self.hi && self.owed == 0
    }

    fn estimate(&self) -> Option<u64> {
        (self.lo..self.hi).try_fold(self.owed, |sum, i| Some(sum + self.job.estimate(i)?))
    }

    /// Keeps the jobs whose estimates sum to at most `units` (at least one job), returns the
    /// rest.
    fn split_at(&mut self, units: u64) -> Option<Self> {
        let mut sum = 0u64;
        let mut cut = self.lo;
        while cut < self.hi {
            let next = sum + self.job.estimate(cut)?;
            if next > units && cut > self.lo {
                break;
            }
            sum = next;
            cut += 1;
        }
        if cut >= self.hi {
            return None;
        }
        let rest = IndexRange::new(self.job.clone(), cut, self.hi);
        self.hi = cut;
        Some(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::SharedIncumbent;

    #[derive(Clone, Serialize, Deserialize)]
    struct Cube;
    impl IndexJob for Cube {
        type Output = u64;
        fn run(&self, i: u64, ctx: &mut Context<'_, u64>) -> u64 {
            *ctx.output() += i * i * i;
            1 + i % 3
        }
        fn estimate(&self, i: u64) -> Option<u64> {
            Some(1 + i % 3)
        }
    }

    #[test]
    fn split_and_cut_keep_every_index_once() {
        let mut a = IndexRange::new(Cube, 0, 1000);
        let mut b = a.split().unwrap();
        let c = b.split_at(300).unwrap();
        assert_eq!((a.lo, a.hi, b.lo, c.hi), (0, 500, 500, 1000));
        assert_eq!(b.hi, c.lo);
        assert!(b.estimate().unwrap() <= 300 && b.estimate().unwrap() > 297);
        let inc = SharedIncumbent::new();
        let mut out = 0u64;
        let mut units = 0;
        for mut t in [a, b, c] {
            while !t.is_empty() {
                let done = t.work(7, &mut Context::new(&mut out, &inc, 0));
                assert!((1..=7).contains(&done), "within the budget: {done}");
                units += done;
            }
        }
        assert_eq!(out, (0..1000u64).map(|i| i * i * i).sum::<u64>());
        assert_eq!(units, (0..1000u64).map(|i| 1 + i % 3).sum::<u64>());
    }
}
