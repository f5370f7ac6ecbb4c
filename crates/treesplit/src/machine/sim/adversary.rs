//! Adversaries for testing the protocols in the simulator: tasks whose splits sometimes
//! return an empty piece, slow PEs and PEs with slow outgoing links (the latter two are
//! parsed here and applied by the simulator and the network).

use crate::protocol::hash::splitmix64 as mix;
use crate::task::{Context, Task};
use serde::{Deserialize, Serialize};

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

/// Parse `PE:VALUE,PE:VALUE,…` (e.g. slow PEs `3:4.0,5:2` or slow links `1:1000`).
pub fn parse_pe_list<V: std::str::FromStr>(s: &str, what: &str) -> Result<Vec<(usize, V)>, String> {
    if s.trim().is_empty() {
        return Ok(vec![]);
    }
    s.split(',')
        .map(|item| {
            let (pe, v) = item
                .split_once(':')
                .ok_or_else(|| format!("bad {what} '{item}': expected PE:VALUE"))?;
            let pe = pe
                .trim()
                .parse()
                .map_err(|_| format!("bad {what} '{item}': '{pe}' is not a PE number"))?;
            let v = v
                .trim()
                .parse()
                .map_err(|_| format!("bad {what} '{item}': '{v}' is not a valid value"))?;
            Ok((pe, v))
        })
        .collect::<Result<Vec<(usize, V)>, String>>()
        .and_then(|list| {
            match list
                .iter()
                .enumerate()
                .find(|(i, (pe, _))| list[..*i].iter().any(|(q, _)| q == pe))
            {
                Some((_, (pe, _))) => Err(format!("{what} {pe} is given twice")),
                None => Ok(list),
            }
        })
}
