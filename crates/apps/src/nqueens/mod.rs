//! N-Queens: count the ways to place n non-attacking queens on an n×n board.
//!
//! Bitmask backtracking with an explicit depth-first stack. One work unit is one queen
//! placed (one node of the search tree), the budget counted down once per queen. A split
//! hands over half of the untried positions of the *shallowest* row that has any (paper 001
//! §14.5.4), so h ≤ n·⌈log n⌉.

use serde::{Deserialize, Serialize};
use treesplit::{Context, Task};

/// The largest board supported (masks are 32 bits; counts beyond n = 20 take days).
pub const MAX_N: u32 = 20;

/// One row of the search: the attacked columns/diagonals and the positions not yet tried.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
struct Frame {
    cols: u32,
    left: u32,
    right: u32,
    untried: u32,
}

/// Rows a stack can hold: one per row of the largest board.
const DEPTH: usize = MAX_N as usize;

/// A piece of an N-Queens search: a depth-first stack of rows (a fixed array: the search
/// is at most n rows deep, and the hot loop then needs no allocation checks).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NQueens {
    full: u32,
    len: usize,
    stack: [Frame; DEPTH],
}

const EMPTY: Frame = Frame {
    cols: 0,
    left: 0,
    right: 0,
    untried: 0,
};

impl NQueens {
    fn with_frame(full: u32, frame: Frame) -> Self {
        let mut stack = [EMPTY; DEPTH];
        stack[0] = frame;
        NQueens {
            full,
            len: 1,
            stack,
        }
    }
}

impl NQueens {
    /// The whole search for an n×n board.
    pub fn new(n: u32) -> Result<Self, String> {
        if n == 0 || n > MAX_N {
            return Err(format!("N-Queens needs 1 ≤ n ≤ {MAX_N}, got {n}"));
        }
        let full = (1u32 << n) - 1;
        Ok(NQueens::with_frame(
            full,
            Frame {
                cols: 0,
                left: 0,
                right: 0,
                untried: full,
            },
        ))
    }
}

impl Task for NQueens {
    type Output = u64;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let full = self.full;
        let stack = &mut self.stack;
        let mut len = self.len;
        if len == 0 {
            return 0;
        }
        // The current row lives in registers as four words; the rows above it on the stack.
        len -= 1;
        let Frame {
            mut cols,
            left: mut ld,
            right: mut rd,
            mut untried,
        } = stack[len];
        // The budget is counted down, one decrement per queen. A solution is a queen whose
        // row leaves no position below it with every column taken, so it is counted on the
        // path of the queens with no position below (no test on the path that goes down).
        let mut left = budget;
        let mut found = 0;
        loop {
            if untried == 0 {
                if len == 0 {
                    break;
                }
                len -= 1;
                Frame {
                    cols,
                    left: ld,
                    right: rd,
                    untried,
                } = stack[len];
                continue;
            }
            let Some(rest) = left.checked_sub(1) else {
                stack[len] = Frame {
                    cols,
                    left: ld,
                    right: rd,
                    untried,
                };
                len += 1;
                break;
            };
            left = rest;
            let bit = untried & untried.wrapping_neg();
            untried ^= bit;
            let below_cols = cols | bit;
            let below_left = (ld | bit) << 1;
            let below_right = (rd | bit) >> 1;
            let below = full & !(below_cols | below_left | below_right);
            if below != 0 {
                stack[len] = Frame {
                    cols,
                    left: ld,
                    right: rd,
                    untried,
                };
                len += 1;
                (cols, ld, rd, untried) = (below_cols, below_left, below_right, below);
            } else {
                found += u64::from(below_cols == full);
            }
        }
        self.len = len;
        *ctx.output() += found;
        budget - left
    }

    fn split(&mut self) -> Option<Self> {
        let last = self.len.checked_sub(1)?;
        let (i, frame) = self.stack[..self.len]
            .iter_mut()
            .enumerate()
            .find(|(_, f)| f.untried != 0)?;
        let n = frame.untried.count_ones();
        let given = if n >= 2 {
            // The upper half of the untried positions.
            let mut keep = frame.untried;
            for _ in 0..n / 2 {
                keep &= keep - 1;
            }
            keep
        } else if i < last {
            // The last alternative of a shallow row; deeper rows keep the rest.
            frame.untried
        } else {
            return None;
        };
        frame.untried ^= given;
        Some(NQueens::with_frame(
            self.full,
            Frame {
                untried: given,
                ..*frame
            },
        ))
    }

    fn is_empty(&self) -> bool {
        self.stack[..self.len].iter().all(|f| f.untried == 0)
    }
}

/// Sequential reference with no runtime: (solutions, nodes).
pub fn count_sequential(n: u32) -> Result<(u64, u64), String> {
    let r = treesplit::run_sequential(NQueens::new(n)?);
    Ok((r.output, r.work_units))
}

pub mod app;
pub use app::{published_nqueens, NQueensSpec, NQUEENS_SOLUTIONS};
pub mod skeleton;

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit::task::SharedIncumbent;

    /// The walk queen by queen with the budget compared at each: the definition `work` must
    /// keep (the same queens in each slice, the same stack after it).
    fn reference_work(t: &mut NQueens, budget: u64) -> (u64, u64) {
        let (mut units, mut found) = (0, 0);
        let Some(mut len) = t.len.checked_sub(1) else {
            return (0, 0);
        };
        let mut cur = t.stack[len];
        loop {
            if cur.untried == 0 {
                if len == 0 {
                    break;
                }
                len -= 1;
                cur = t.stack[len];
                continue;
            }
            if units >= budget {
                t.stack[len] = cur;
                len += 1;
                break;
            }
            let bit = cur.untried & cur.untried.wrapping_neg();
            cur.untried ^= bit;
            units += 1;
            let cols = cur.cols | bit;
            if cols == t.full {
                found += 1;
                continue;
            }
            let left = (cur.left | bit) << 1;
            let right = (cur.right | bit) >> 1;
            let untried = t.full & !(cols | left | right);
            if untried != 0 {
                t.stack[len] = cur;
                len += 1;
                cur = Frame {
                    cols,
                    left,
                    right,
                    untried,
                };
            }
        }
        t.len = len;
        (units, found)
    }

    #[test]
    fn slices_of_every_budget_match_the_walk_queen_by_queen() {
        // Each slice does the queens the reference does and leaves the same stack; a split
        // after each slice; the pieces together count the published solutions.
        let incumbent = SharedIncumbent::new();
        for n in [1, 4, 6, 8] {
            for budget in (0..=12).chain([31, 32, 33, 100, 1000]) {
                let mut pieces = vec![(NQueens::new(n).unwrap(), NQueens::new(n).unwrap())];
                let (mut units, mut found) = (0, 0);
                while let Some((mut ours, mut theirs)) = pieces.pop() {
                    let mut out = 0;
                    let mut ctx = Context::new(&mut out, &incumbent, 0);
                    let done = ours.work(budget, &mut ctx);
                    let (want, solutions) = reference_work(&mut theirs, budget);
                    assert_eq!((done, out), (want, solutions), "n {n}, budget {budget}");
                    assert_eq!(ours.len, theirs.len, "n {n}, budget {budget}");
                    assert_eq!(ours.stack[..ours.len], theirs.stack[..theirs.len]);
                    units += done;
                    found += out;
                    if budget == 0 {
                        // A slice of no budget changes nothing that matters: finish by hand.
                        let mut ctx = Context::new(&mut out, &incumbent, 0);
                        units += ours.work(u64::MAX, &mut ctx);
                        found += out;
                        assert!(ours.is_empty());
                        continue;
                    }
                    if let (Some(a), Some(b)) = (ours.split(), theirs.split()) {
                        pieces.push((a, b));
                    }
                    if !ours.is_empty() {
                        pieces.push((ours, theirs));
                    }
                }
                assert_eq!(
                    found,
                    NQUEENS_SOLUTIONS[n as usize - 1],
                    "n {n}, budget {budget}"
                );
                let (_, all) = count_sequential(n).unwrap();
                assert_eq!(units, all, "n {n}, budget {budget}");
            }
        }
    }

    #[test]
    fn slices_of_every_budget_stay_within_it_and_count_the_published_solutions() {
        let n = 8;
        let (_, all) = count_sequential(n).unwrap();
        for budget in (1..=40).chain([200, 1000]) {
            let (found, units) =
                treesplit_testkit::support::work_in_slices(NQueens::new(n).unwrap(), budget);
            assert_eq!(found, 92, "budget {budget}");
            assert_eq!(units, all, "budget {budget}");
        }
    }
}
