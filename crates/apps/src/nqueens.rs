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

/// A piece of an N-Queens search: a depth-first stack of rows.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NQueens {
    full: u32,
    stack: Vec<Frame>,
}

impl NQueens {
    /// The whole search for an n×n board.
    pub fn new(n: u32) -> Result<Self, String> {
        if n == 0 || n > MAX_N {
            return Err(format!("N-Queens needs 1 ≤ n ≤ {MAX_N}, got {n}"));
        }
        let full = (1u32 << n) - 1;
        Ok(NQueens { full, stack: vec![Frame { cols: 0, left: 0, right: 0, untried: full }] })
    }
}

impl Task for NQueens {
    type Output = u64;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let full = self.full;
        let mut units = 0;
        let mut found = 0;
        while units < budget {
            let Some(top) = self.stack.last_mut() else { break };
            if top.untried == 0 {
                self.stack.pop();
                continue;
            }
            let bit = top.untried & top.untried.wrapping_neg();
            top.untried ^= bit;
            units += 1;
            let cols = top.cols | bit;
            if cols == full {
                found += 1;
                continue;
            }
            let left = (top.left | bit) << 1;
            let right = (top.right | bit) >> 1;
            let untried = full & !(cols | left | right);
            if untried != 0 {
                self.stack.push(Frame { cols, left, right, untried });
            }
        }
        *ctx.output() += found;
        units
    }

    fn split(&mut self) -> Option<Self> {
        let last = self.stack.len().checked_sub(1)?;
        let (i, frame) = self.stack.iter_mut().enumerate().find(|(_, f)| f.untried != 0)?;
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
        Some(NQueens { full: self.full, stack: vec![Frame { untried: given, ..*frame }] })
    }

    fn is_empty(&self) -> bool {
        self.stack.iter().all(|f| f.untried == 0)
    }
}

/// Sequential reference with no runtime: (solutions, nodes).
pub fn count_sequential(n: u32) -> Result<(u64, u64), String> {
    let r = treesplit::run_sequential(NQueens::new(n)?);
    Ok((r.output, r.work_units))
}
