//! N-Queens: count the ways to place n non-attacking queens on an n×n board.
//!
//! Bitmask backtracking with an explicit depth-first stack. One work unit is one queen
//! placed (one node of the search tree). A split hands over half of the untried positions
//! of the *shallowest* row that has any (paper 001 §14.5.4), so h ≤ n·⌈log n⌉.

use serde::{Deserialize, Serialize};
use treesplit::{Context, Task};

/// The largest board supported (masks are 32 bits; counts beyond n = 20 take days).
pub const MAX_N: u32 = 20;

/// One row of the search: the attacked columns/diagonals and the positions not yet tried.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
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
        let mut units = 0;
        let mut found = 0;
        // The current row lives in registers; the rows above it on the stack.
        let stack = &mut self.stack;
        let mut len = self.len;
        if len == 0 {
            return 0;
        }
        len -= 1;
        let mut cur = stack[len];
        loop {
            if cur.untried == 0 {
                if len == 0 {
                    break;
                }
                len -= 1;
                cur = stack[len];
                continue;
            }
            if units >= budget {
                stack[len] = cur;
                len += 1;
                break;
            }
            let bit = cur.untried & cur.untried.wrapping_neg();
            cur.untried ^= bit;
            units += 1;
            let cols = cur.cols | bit;
            if cols == full {
                found += 1;
                continue;
            }
            let left = (cur.left | bit) << 1;
            let right = (cur.right | bit) >> 1;
            let untried = full & !(cols | left | right);
            if untried != 0 {
                stack[len] = cur;
                len += 1;
                cur = Frame {
                    cols,
                    left,
                    right,
                    untried,
                };
            }
        }
        self.len = len;
        *ctx.output() += found;
        units
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
