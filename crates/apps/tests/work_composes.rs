//! The applications that claim `Task::WORK_COMPOSES` (the simulator then runs a busy PE's
//! slices ahead in one call) hold to it: from every state along a walk to the end, two
//! slices leave the task, its output and its units exactly as one slice of their sum does.
//! And the check can fail: a task whose output sums floating-point numbers per slice does not
//! compose, and is caught; so is N-Queens, which does not claim it (its fixed stack keeps stale
//! frames above the top, which differ with the slicing and show in its bytes).

use serde::{Deserialize, Serialize};
use treesplit::check::work_composes;
use treesplit::{Context, Outcome, RunError, Task};
use treesplit_apps::nqueens::NQueens;
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};
use treesplit_apps::uts::{Uts, UtsParams};

/// Slice pairs of many shapes: one unit, a slice and a remainder, long and short runs.
const SLICES: &[(u64, u64)] = &[
    (1, 1),
    (10, 10),
    (3, 17),
    (64, 1),
    (1, 250),
    (7, 7),
    (1_000, 333),
    (2, 5),
    (30, 300),
    (5, 1_000),
];

fn composes<T: Task>(name: &str, root: T)
where
    T::Output: PartialEq,
{
    assert!(T::WORK_COMPOSES, "{name} does not claim it");
    match work_composes(root, SLICES, 20_000) {
        Ok(compared) => assert!(compared >= 100, "{name}: only {compared} steps compared"),
        Err(e) => panic!("{name}: {e}"),
    }
}

#[test]
fn synthetic_slices_compose() {
    for (rule, spin) in [(SplitRule::Random, 1), (SplitRule::Adversarial, 3)] {
        let params = SyntheticParams {
            work: 200_000,
            alpha: 0.3,
            atomic: 1,
            rule,
            spin,
            seed: 5,
        };
        composes("synthetic", Synthetic::new(params).unwrap());
    }
}

#[test]
fn uts_slices_compose() {
    composes(
        "uts T1-mini",
        Uts::new(UtsParams::parse(&["T1-mini".to_string()]).unwrap()),
    );
}

/// Σ 1/(i+1) over a range, the sum of each slice rounded on its own: slices of other
/// lengths round differently.
#[derive(Clone, Serialize, Deserialize)]
struct Harmonic {
    lo: u64,
    hi: u64,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
struct Sum(f64);

impl Outcome for Sum {
    fn merge(&mut self, other: Self) {
        self.0 += other.0;
    }
}

impl Task for Harmonic {
    type Output = Sum;
    const WORK_COMPOSES: bool = true; // wrongly

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Sum>) -> u64 {
        let end = self.hi.min(self.lo + budget);
        let slice: f64 = (self.lo..end).map(|i| 1.0 / (i + 1) as f64).sum();
        ctx.output().merge(Sum(slice));
        let units = end - self.lo;
        self.lo = end;
        units
    }
    fn split(&mut self) -> Option<Self> {
        None
    }
    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }
}

#[test]
fn a_floating_point_sum_per_slice_does_not_compose_and_is_caught() {
    let err = work_composes(Harmonic { lo: 0, hi: 100_000 }, SLICES, 1_000).unwrap_err();
    assert!(
        matches!(&err, RunError::ContractViolated { what, .. } if what.contains("WORK_COMPOSES")),
        "{err}"
    );
}

#[test]
fn a_stack_with_stale_frames_does_not_compose_and_is_caught() {
    const { assert!(!<NQueens as Task>::WORK_COMPOSES) };
    let err = work_composes(NQueens::new(9).unwrap(), SLICES, 20_000).unwrap_err();
    assert!(
        matches!(&err, RunError::ContractViolated { what, .. } if what.contains("another state")),
        "{err}"
    );
}
