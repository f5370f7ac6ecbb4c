//! Adversaries for testing the protocols in the simulator: the empty-splits task, whose
//! splits sometimes return an empty piece (`Simulator::empty_splits`), and [`Adversary`], the
//! protocol variants that break one assumption of paper 000 each, for the negative controls of
//! `treesplit reproduce` (`SimConfig::adversary`; off by default, so that every other run is
//! unchanged). Slow PEs and slow links are the simulator's own parameters
//! (`SimConfig::slow`, `SimConfig::slow_links`).

use crate::protocol::hash::splitmix64 as mix;
use crate::task::{Context, Task};
use serde::{Deserialize, Serialize};

pub use crate::protocol::adversary::Adversary;

/// Wraps a task so that a fraction of its splits hand over an *empty* piece (the protocol
/// must treat it as a rejection and lose no work). Deterministic: the choice is a hash of
/// the seed and a per-piece split counter.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct EmptySplits<T: Task> {
    inner: Option<T>,
    per_million: u32,
    seed: u64,
    splits: u64,
}

impl<T: Task> EmptySplits<T> {
    /// `inner` whose splits come back empty with probability `probability`.
    pub fn new(inner: T, probability: f64, seed: u64) -> Self {
        let per_million = (probability.clamp(0.0, 1.0) * 1e6).round() as u32;
        EmptySplits {
            inner: Some(inner),
            per_million,
            seed,
            splits: 0,
        }
    }

    /// The wrapped task (`None` for an empty piece the adversary made).
    pub fn into_inner(self) -> Option<T> {
        self.inner
    }

    fn child(&self, inner: Option<T>) -> Self {
        EmptySplits {
            inner,
            per_million: self.per_million,
            seed: mix(self.seed ^ self.splits),
            splits: 0,
        }
    }
}

impl<T: Task> Task for EmptySplits<T> {
    type Output = T::Output;
    const GOAL: crate::task::Goal = T::GOAL;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, T::Output>) -> u64 {
        self.inner.as_mut().map_or(0, |t| t.work(budget, ctx))
    }

    fn split(&mut self) -> Option<Self> {
        self.inner.as_ref()?;
        self.splits += 1;
        if (mix(self.seed ^ self.splits.wrapping_mul(0xA24B_AED4_963E_E407)) % 1_000_000)
            < u64::from(self.per_million)
        {
            return Some(self.child(None));
        }
        let part = self.inner.as_mut()?.split()?;
        Some(self.child(Some(part)))
    }

    fn is_empty(&self) -> bool {
        self.inner.as_ref().is_none_or(|t| t.is_empty())
    }
}
