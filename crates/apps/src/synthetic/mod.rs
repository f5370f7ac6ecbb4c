//! A synthetic tree-shaped computation with known total work: α-splitting (paper 004 §3).
//!
//! A piece is a range of unit indices `lo..hi`. Working does one unit per index (a few
//! rounds of a 64-bit mixer, folded into a checksum, so that the answer is checkable);
//! splitting cuts the range into parts of sizes f·s and (1−f)·s with f ∈ [α, 1−α] and
//! hands the f part to the requester. With the adversarial rule f = α always (the small
//! part goes to the requester); with the random rule f is drawn from [α, 1−α] by a hash
//! of the range, so a run is reproducible whichever PE splits. Pieces of at most
//! `atomic` units do not split. The total work is exactly the number of units.

use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::{Context, Outcome, Task};

/// How split ratios are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum SplitRule {
    /// Split fraction uniform in [α, 1−α].
    Random,
    /// Always α: the requester gets the small part.
    Adversarial,
}

/// The parameters of a synthetic tree.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SyntheticParams {
    /// Total work units (T_seq in units).
    pub work: u64,
    /// The splitting quality α ∈ (0, 1/2].
    pub alpha: f64,
    /// Pieces of at most this many units are atomic (T_atomic in units).
    pub atomic: u64,
    /// How split ratios are chosen.
    pub rule: SplitRule,
    /// Mixer rounds per unit: how much CPU a unit costs (≥ 1).
    pub spin: u32,
    /// Seed of the split ratios and the unit values.
    pub seed: u64,
}

impl SyntheticParams {
    /// Check the parameters; the error says what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if self.work == 0 {
            return Err("synthetic --work must be at least 1".into());
        }
        if !(self.alpha > 0.0 && self.alpha <= 0.5) {
            return Err(format!(
                "synthetic --alpha must be in (0, 0.5], got {}",
                self.alpha
            ));
        }
        if self.atomic == 0 {
            return Err("synthetic --atomic must be at least 1".into());
        }
        if self.spin == 0 {
            return Err("synthetic --spin must be at least 1".into());
        }
        Ok(())
    }
}

/// The result: units done and the checksum of their values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyntheticSum {
    /// Units worked.
    pub units: u64,
    /// Wrapping sum of the unit values.
    pub checksum: u64,
}

/// Not a search: results must be equal.
impl crate::objective::Objective for SyntheticSum {
    fn objective(&self) -> Option<u64> {
        None
    }
}

impl Outcome for SyntheticSum {
    fn merge(&mut self, other: Self) {
        self.units += other.units;
        self.checksum = self.checksum.wrapping_add(other.checksum);
    }
}

impl fmt::Display for SyntheticSum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} units, checksum {:016x}", self.units, self.checksum)
    }
}

/// A piece of the synthetic computation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Synthetic {
    params: SyntheticParams,
    lo: u64,
    hi: u64,
}

/// The splitmix64 finalizer.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The sum of the values of units `lo..end` (wrapping): the work of a slice, and of the
/// peers that `bench` runs (the same loop, so that they are compared on the same code).
pub(crate) fn sum_of_units(lo: u64, end: u64, seed: u64, spin: u32) -> u64 {
    if spin == 1 {
        // The default, with the mixer's loop unrolled away (a unit is then a handful of
        // instructions, and the simulator's run-ahead does millions of them).
        mixed_sum(lo, end, seed)
    } else {
        (lo..end).fold(0u64, |sum, i| sum.wrapping_add(unit_value(i, seed, spin)))
    }
}

/// The sum of one round of the mixer over units `lo..end`: the default unit's work.
fn mixed_sum(lo: u64, end: u64, seed: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { mixed_sum_avx2(lo, end, seed) };
    }
    mixed_sum_plain(lo, end, seed)
}

#[inline(always)]
fn mixed_sum_plain(lo: u64, end: u64, seed: u64) -> u64 {
    (lo..end).fold(0u64, |sum, i| sum.wrapping_add(mix(i ^ seed)))
}

/// The same sum in AVX2's four 64-bit lanes, where the processor has them: the portable
/// build has only SSE2's two, and the mixer's loop took twice the time (0.79 ns a unit
/// against 1.77 in slices of 64 units, here). Wrapping addition is associative, so the sum
/// is the same.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mixed_sum_avx2(lo: u64, end: u64, seed: u64) -> u64 {
    mixed_sum_plain(lo, end, seed)
}

/// The value of unit `i`: `spin` rounds of the mixer.
pub fn unit_value(i: u64, seed: u64, spin: u32) -> u64 {
    let mut x = i ^ seed;
    for _ in 0..spin {
        x = mix(x);
    }
    x
}

impl Synthetic {
    /// The whole computation.
    pub fn new(params: SyntheticParams) -> Result<Self, String> {
        params.validate()?;
        Ok(Synthetic {
            params,
            lo: 0,
            hi: params.work,
        })
    }

    /// The split fraction f for the current range.
    fn fraction(&self) -> f64 {
        let a = self.params.alpha;
        match self.params.rule {
            SplitRule::Adversarial => a,
            SplitRule::Random => {
                let h = mix(mix(self.lo ^ self.params.seed.rotate_left(17)) ^ self.hi);
                let u = (h >> 11) as f64 / (1u64 << 53) as f64;
                a + (1.0 - 2.0 * a) * u
            }
        }
    }
}

impl Task for Synthetic {
    type Output = SyntheticSum;
    /// Its state after n units, bytes included, does not depend on where slices ended,
    /// and its counts add exactly.
    const WORK_COMPOSES: bool = true;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, SyntheticSum>) -> u64 {
        let end = self.hi.min(self.lo.saturating_add(budget));
        let sum = sum_of_units(self.lo, end, self.params.seed, self.params.spin);
        let units = end - self.lo;
        self.lo = end;
        ctx.output().merge(SyntheticSum {
            units,
            checksum: sum,
        });
        units
    }

    fn split(&mut self) -> Option<Self> {
        let size = self.hi - self.lo;
        if size <= self.params.atomic || size < 2 {
            return None;
        }
        let give = ((size as f64 * self.fraction()).round() as u64).clamp(1, size - 1);
        let piece = Synthetic {
            params: self.params,
            lo: self.hi - give,
            hi: self.hi,
        };
        self.hi -= give;
        Some(piece)
    }

    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }

    /// Every unit but the last: a slice only ends the range at its last unit, and the
    /// range never prunes or stops.
    fn plain_units(&self) -> u64 {
        (self.hi - self.lo).saturating_sub(1)
    }

    /// Exact: one unit per index.
    fn estimate(&self) -> Option<u64> {
        Some(self.hi - self.lo)
    }

    fn split_at(&mut self, units: u64) -> Option<Self> {
        let cut = self.lo.checked_add(units.max(1)).filter(|&c| c < self.hi)?;
        let rest = Synthetic {
            params: self.params,
            lo: cut,
            hi: self.hi,
        };
        self.hi = cut;
        Some(rest)
    }
}

pub mod app;
pub use app::published_synthetic;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The sum the processor's widest lanes give is the unit-by-unit sum, for slices
        /// shorter than a lane group, ragged ones and long ones.
        #[test]
        fn the_mixed_sum_is_the_sum_of_the_units(lo in any::<u64>(), len in 0u64..300, seed in any::<u64>()) {
            let end = lo.saturating_add(len);
            let by_unit = (lo..end).fold(0u64, |s, i| s.wrapping_add(unit_value(i, seed, 1)));
            prop_assert_eq!(mixed_sum(lo, end, seed), by_unit);
        }
    }
}
