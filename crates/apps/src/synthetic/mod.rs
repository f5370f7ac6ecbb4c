//! A synthetic tree-shaped computation with known total work: α-splitting (paper 004 §3)
//! and the two relaxations §3 names.
//!
//! A piece is a range of unit indices `lo..hi`. Working does one unit per index (a few
//! rounds of a 64-bit mixer, folded into a checksum, so that the answer is checkable);
//! splitting cuts the range into parts of sizes f·s and (1−f)·s and hands the f part to the
//! requester. The split rule ([`SplitRule`]) chooses f:
//! - `random`: f uniform in [α, 1−α]; `adversarial`: f = α always (the small part goes to
//!   the requester) — both α-splitting;
//! - `random-factor`: the random splitting factor model of §3's reference [19]: f drawn
//!   from a density on [0, 1] symmetric around 1/2 with standard deviation σ = 1/2 − α (the
//!   translation §3 gives), here the symmetric Beta(a, a) with a = (1/(4σ²) − 1)/2; no
//!   split has a guaranteed quality;
//! - `non-reducing`: §3's "O(log n) splits which do not yield any size reduction": each
//!   split is, with probability 1/2, non-reducing (the requester gets a single unit and the
//!   giver keeps all but one), else an α-split as `random`. A path of the splitting tree then
//!   has as many non-reducing splits as reducing ones in expectation: O(log n) on a path of
//!   O(log n) reducing splits.
//!
//! Every draw is a hash of the range and the tree's seed, so a run is reproducible whichever
//! PE splits, and the rule needs no state in the piece. Pieces of at most `atomic` units do
//! not split. The total work is exactly the number of units.

use crate::params::Choice;
use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::{Context, Outcome, Task};

/// How split ratios are chosen (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SplitRule {
    /// Split fraction uniform in [α, 1−α].
    Random,
    /// Always α: the requester gets the small part.
    Adversarial,
    /// The random splitting factor model: a fraction from a density on [0, 1] symmetric
    /// around 1/2 with standard deviation σ = 1/2 − α (Beta(a, a)).
    RandomFactor,
    /// Half the splits, by a hash, hand over a single unit (no size reduction); the others
    /// split as `random`.
    NonReducing,
}

impl SplitRule {
    /// Every rule, in the order of [`SplitRule::CHOICES`].
    pub const ALL: [SplitRule; 4] = [
        SplitRule::Random,
        SplitRule::Adversarial,
        SplitRule::RandomFactor,
        SplitRule::NonReducing,
    ];

    /// The rules' names on the command line (`--split NAME`) and what each means, in the
    /// order of [`SplitRule::ALL`].
    pub const CHOICES: &'static [Choice] = &[
        Choice {
            name: "random",
            help: "Split fraction uniform in [α, 1−α]",
        },
        Choice {
            name: "adversarial",
            help: "Always α: the requester gets the small part",
        },
        Choice {
            name: "random-factor",
            help: "The random splitting factor model: a fraction from a density on [0, 1] symmetric around 1/2 with standard deviation σ = 1/2 − α (Beta(a, a))",
        },
        Choice {
            name: "non-reducing",
            help: "Half the splits, by a hash, hand over a single unit (no size reduction); the others split as `random`",
        },
    ];

    /// The rule's name on the command line (`--split NAME`).
    pub fn name(self) -> &'static str {
        let i = Self::ALL
            .iter()
            .position(|&r| r == self)
            .expect("every rule is listed");
        Self::CHOICES[i].name
    }

    /// Whether every split is an α-split (f ∈ [α, 1−α]): the premise of paper 004's
    /// Theorems 3 and 4.
    pub fn is_alpha_splitting(self) -> bool {
        matches!(self, SplitRule::Random | SplitRule::Adversarial)
    }
}

/// A rule by its name on the command line.
impl std::str::FromStr for SplitRule {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        SplitRule::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = SplitRule::CHOICES.iter().map(|c| c.name).collect();
                format!("'{s}' is no split rule ({})", names.join(", "))
            })
    }
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

    /// The hash of the current range and the tree's seed that every draw of a split uses.
    fn range_hash(&self) -> u64 {
        mix(mix(self.lo ^ self.params.seed.rotate_left(17)) ^ self.hi)
    }

    /// The units a split of `size` units hands to the requester (1 ≤ give < size).
    fn give(&self, size: u64) -> u64 {
        let a = self.params.alpha;
        let h = self.range_hash();
        let uniform = |h: u64| (h >> 11) as f64 / (1u64 << 53) as f64;
        let f = match self.params.rule {
            SplitRule::Adversarial => a,
            SplitRule::Random => a + (1.0 - 2.0 * a) * uniform(h),
            SplitRule::RandomFactor => symmetric_factor(0.5 - a, h),
            SplitRule::NonReducing if h & 1 == 1 => return 1,
            SplitRule::NonReducing => a + (1.0 - 2.0 * a) * uniform(mix(h)),
        };
        ((size as f64 * f).round() as u64).clamp(1, size - 1)
    }
}

/// A splitting factor in [0, 1] from the symmetric Beta(a, a) whose standard deviation is
/// `sigma` (variance 1/(4(2a + 1)), so a = (1/(4σ²) − 1)/2), drawn with a generator seeded
/// by `hash`; σ = 0 is the exact half.
fn symmetric_factor(sigma: f64, hash: u64) -> f64 {
    use rand::SeedableRng;
    use rand_distr::Distribution;
    if sigma <= 0.0 {
        return 0.5;
    }
    let a = (1.0 / (4.0 * sigma * sigma) - 1.0) / 2.0;
    let beta = rand_distr::Beta::new(a, a).expect("a > 0 for 0 < σ < 1/2");
    beta.sample(&mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(hash))
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
        let give = self.give(size);
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

    fn tree(rule: SplitRule, alpha: f64, work: u64) -> Synthetic {
        Synthetic::new(SyntheticParams {
            work,
            alpha,
            atomic: 1,
            rule,
            spin: 1,
            seed: 11,
        })
        .unwrap()
    }

    /// The fractions the requester gets in `n` splits of pieces of 10^9 units at different
    /// places.
    fn fractions(rule: SplitRule, alpha: f64, n: u64) -> Vec<f64> {
        (0..n)
            .map(|k| {
                let mut t = tree(rule, alpha, 2_000_000_000);
                t.lo = k * 7919;
                t.hi = t.lo + 1_000_000_000;
                t.split().unwrap().estimate().unwrap() as f64 / 1e9
            })
            .collect()
    }

    /// The random splitting factor model: the fractions have mean 1/2 and standard
    /// deviation σ = 1/2 − α (20,000 draws: the sample's error is below 0.01).
    #[test]
    fn the_random_factor_has_mean_one_half_and_deviation_sigma() {
        for alpha in [0.1, 0.3, 0.45] {
            let f = fractions(SplitRule::RandomFactor, alpha, 20_000);
            let n = f.len() as f64;
            let mean = f.iter().sum::<f64>() / n;
            let sd = (f.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            assert!((mean - 0.5).abs() < 0.01, "α {alpha}: mean {mean}");
            let sigma = 0.5 - alpha;
            assert!((sd - sigma).abs() < 0.01, "α {alpha}: sd {sd}, σ {sigma}");
            // No guaranteed quality: some splits fall outside [α, 1 − α].
            assert!(f.iter().any(|&x| x < alpha || x > 1.0 - alpha), "α {alpha}");
        }
    }

    /// Non-reducing splits: about half the splits hand over a single unit, the others are
    /// α-splits; a full decomposition conserves every unit, and a path of the splitting
    /// tree has about as many non-reducing splits as reducing ones.
    #[test]
    fn non_reducing_splits_are_half_and_bounded_on_a_path() {
        let f = fractions(SplitRule::NonReducing, 0.25, 10_000);
        let single = f.iter().filter(|&&x| x == 1e-9).count() as f64 / f.len() as f64;
        assert!(
            (0.47..0.53).contains(&single),
            "single-unit splits {single}"
        );
        assert!(f
            .iter()
            .filter(|&&x| x != 1e-9)
            .all(|&x| (0.25 - 1e-6..=0.75 + 1e-6).contains(&x)));
        // Decompose 2^16 units to atomic pieces, counting each leaf's path.
        let (mut units, mut stalls, mut reducing, mut leaves) = (0u64, 0u64, 0u64, 0u64);
        let mut stack = vec![(tree(SplitRule::NonReducing, 0.25, 1 << 16), 0u64, 0u64)];
        while let Some((mut t, s, r)) = stack.pop() {
            let size = t.hi - t.lo;
            match t.split() {
                None => {
                    units += size;
                    stalls += s;
                    reducing += r;
                    leaves += 1;
                }
                Some(piece) => {
                    let stalled = piece.hi - piece.lo == 1 && size > 2;
                    let (s, r) = if stalled { (s + 1, r) } else { (s, r + 1) };
                    stack.push((t, s, r));
                    stack.push((piece, s, r));
                }
            }
        }
        assert_eq!(units, 1 << 16);
        let ratio = stalls as f64 / reducing as f64;
        assert!(
            (0.8..1.25).contains(&ratio),
            "non-reducing per reducing split on a path: {ratio} ({leaves} leaves)"
        );
    }

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
