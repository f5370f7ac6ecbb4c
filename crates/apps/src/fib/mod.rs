//! Fibonacci as a tree of calls: fib(n) = fib(n − 1) + fib(n − 2), fib(0) = 0, fib(1) = 1,
//! with every call a node (2·fib(n + 1) − 1 of them), the classic fine-grained fork-join
//! benchmark: a call costs about a nanosecond, less than a fork.
//!
//! One work unit is one call. The task walks the call tree depth first with an explicit stack
//! of the calls still to make (the n − 2 of each call whose n − 1 is in progress: at most n + 1
//! of them, in a stack of 128 slots allocated once, indexed masked and never grown); a split
//! hands over the bottom one, the largest call left.

use serde::{Deserialize, Serialize};
use treesplit::{Context, Task};

pub mod app;
pub use app::FibSpec;

/// The largest n supported: fib(92) is the last that fits in 64 bits (and its calls take
/// centuries; n around 40 is a benchmark).
pub const MAX_N: u32 = 92;

/// Slots of a stack: a power of two above [`MAX_N`] + 1, so that the walk indexes it masked,
/// with no bounds checks.
const SLOTS: usize = 128;

/// A piece of a call tree: the calls still to make, `stack[..top]` (the next one on top).
/// The stack has its full size, [`SLOTS`], from the start: the walk indexes it and never
/// grows it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Fib {
    top: usize,
    stack: Vec<u8>,
}

impl Fib {
    /// The call tree of fib(n).
    pub fn new(n: u32) -> Result<Self, String> {
        check_n(n)?;
        let mut stack = vec![0; SLOTS];
        stack[0] = n as u8;
        Ok(Fib { top: 1, stack })
    }

    /// The calls still to make, the next one last.
    fn pending(&self) -> &[u8] {
        &self.stack[..self.top]
    }
}

/// 0 ≤ n ≤ [`MAX_N`].
pub fn check_n(n: u32) -> Result<(), String> {
    if n > MAX_N {
        return Err(format!("fib needs 0 ≤ N ≤ {MAX_N}, got {n}"));
    }
    Ok(())
}

impl Task for Fib {
    type Output = u64;

    #[inline]
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let Ok(stack) = <&mut [u8; SLOTS]>::try_from(&mut self.stack[..]) else {
            unreachable!("a fib stack has {SLOTS} slots");
        };
        let (mut top, first) = (self.top, self.top as u64);
        let mut sum = 0u64;
        // A descent pops a call n and makes the calls n, n − 1, …, down to a leaf (1 or 0),
        // at most MAX_N of them, pushing each inner call's n − 2: the calls made so far are
        // 2·pops + (top − first), with no count per call. Before a pop that count is at most
        // 2·pops + SLOTS − first (the stack never holds more), and the descent adds at most
        // MAX_N: the first `allowed` pops and their descents fit in the budget. The budget
        // is looked at once per pop, by counting the pops down.
        let allowed = budget
            .saturating_add(first)
            .saturating_sub(u64::from(MAX_N) + SLOTS as u64)
            / 2;
        let mut pops_left = allowed;
        while top > 0 && pops_left > 0 {
            pops_left -= 1;
            top -= 1;
            let mut n = stack[top % SLOTS];
            while n >= 2 {
                stack[top % SLOTS] = n - 2;
                top += 1;
                n -= 1;
            }
            sum += u64::from(n);
        }
        let pops = allowed - pops_left;
        let mut left = budget - (2 * pops + top as u64 - first);
        // The last units of the budget, call by call: a call's two calls go on the stack.
        while top > 0 && left > 0 {
            top -= 1;
            let n = stack[top % SLOTS];
            left -= 1;
            if n >= 2 {
                stack[top % SLOTS] = n - 2;
                stack[(top + 1) % SLOTS] = n - 1;
                top += 2;
            } else {
                sum += u64::from(n);
            }
        }
        self.top = top;
        *ctx.output() += sum;
        budget - left
    }

    fn split(&mut self) -> Option<Self> {
        // The bottom of the stack is the largest call left; the top is the one in progress.
        if self.top < 2 {
            return None;
        }
        let mut stack = vec![0; self.stack.len()];
        stack[0] = self.stack[0];
        self.stack.copy_within(1..self.top, 0);
        self.top -= 1;
        Some(Fib { top: 1, stack })
    }

    fn is_empty(&self) -> bool {
        self.top == 0
    }

    fn estimate(&self) -> Option<u64> {
        Some(self.pending().iter().map(|&n| calls(u32::from(n))).sum())
    }
}

/// fib(n) by iteration: the answer every run is checked against.
pub fn fib_direct(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a.wrapping_add(b));
    }
    a
}

/// The calls of the tree of fib(n): 2·fib(n + 1) − 1.
pub fn calls(n: u32) -> u64 {
    2 * fib_direct(n + 1) - 1
}

/// The plain recursion (no runtime): the sequential peer.
pub fn fib_recursive(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    fib_recursive(n - 1) + fib_recursive(n - 2)
}

/// The same recursion forked with rayon's `join` above depth `cut` (the first call is at
/// depth 0).
pub fn fib_rayon(n: u32, depth: u32, cut: u32) -> u64 {
    if n < 2 || depth >= cut {
        return fib_recursive(n);
    }
    let (a, b) = rayon::join(
        || fib_rayon(n - 1, depth + 1, cut),
        || fib_rayon(n - 2, depth + 1, cut),
    );
    a + b
}

/// The same recursion forked with chili's `join` above depth `cut`.
pub fn fib_chili(s: &mut chili::Scope<'_>, n: u32, depth: u32, cut: u32) -> u64 {
    if n < 2 || depth >= cut {
        return fib_recursive(n);
    }
    let (a, b) = s.join(
        |s| fib_chili(s, n - 1, depth + 1, cut),
        |s| fib_chili(s, n - 2, depth + 1, cut),
    );
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_and_the_recursion_give_fib_in_as_many_calls() {
        for n in 0..=22 {
            let r = treesplit::run_sequential(Fib::new(n).unwrap());
            assert_eq!(r.output, fib_direct(n), "fib({n})");
            assert_eq!(r.work_units, calls(n), "calls of fib({n})");
            assert_eq!(fib_recursive(n), fib_direct(n));
        }
        // OEIS A000045.
        assert_eq!(fib_direct(30), 832_040);
        assert_eq!(fib_direct(92), 7_540_113_804_746_346_429);
    }

    #[test]
    fn parallel_runs_with_short_slices_give_fib_and_every_call_once() {
        for pes in [1, 2, 3] {
            let config = treesplit::Config::new(pes).delta_t(5).seed(9);
            let r = treesplit::Threads::new()
                .run(Fib::new(20).unwrap(), &config)
                .unwrap()
                .into_report();
            assert_eq!(r.output, 6765);
            assert_eq!(r.totals.work_units, calls(20));
        }
    }

    #[test]
    fn slices_of_every_budget_stay_within_it_and_make_every_call_once() {
        // Budgets below, at and above the longest descent and the stack's size (where pops
        // are counted down), with a split after each slice.
        let n = 16;
        for budget in (1..=40).chain(218..=226).chain([300, 1000]) {
            let (sum, units) =
                treesplit_testkit::support::work_in_slices(Fib::new(n).unwrap(), budget);
            assert_eq!(units, calls(n), "budget {budget}");
            assert_eq!(sum, fib_direct(n), "budget {budget}");
        }
    }

    #[test]
    fn a_split_gives_away_the_largest_call_and_the_estimates_add_up() {
        let mut t = Fib::new(10).unwrap();
        assert!(t.split().is_none(), "the first call alone cannot be split");
        t.stack[..3].copy_from_slice(&[8, 7, 6]);
        t.top = 3;
        let given = t.split().unwrap();
        assert_eq!(given.pending(), &[8]);
        assert_eq!(t.pending(), &[7, 6]);
        assert_eq!(given.estimate(), Some(calls(8)));
        assert_eq!(t.estimate(), Some(calls(7) + calls(6)));
    }

    #[test]
    fn rayon_and_chili_peers_give_fib() {
        let pool = crate::peers::chili_pool(2);
        for cut in [0, 3, crate::peers::EVERY_NODE] {
            assert_eq!(fib_rayon(20, 0, cut), 6765);
            assert_eq!(fib_chili(&mut pool.scope(), 20, 0, cut), 6765);
        }
    }
}
