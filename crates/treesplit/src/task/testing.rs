//! The tasks the library's unit tests run: the sum of the indices of a range, one work unit
//! per index; and a complete binary tree walked depth first, which (like UTS) cannot split
//! before it has expanded a node.

use super::range::{IndexJob, IndexRange};
use super::{Context, Task};
use serde::{Deserialize, Serialize};

/// Job `i` adds `i` to the output in one work unit (estimated so: 1 unit).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Sum;

impl IndexJob for Sum {
    type Output = u64;
    fn run(&self, i: u64, ctx: &mut Context<'_, u64>) -> u64 {
        *ctx.output() += i;
        1
    }
    fn estimate(&self, _: u64) -> Option<u64> {
        Some(1)
    }
}

/// The sum over `lo..hi`.
pub(crate) fn sum(lo: u64, hi: u64) -> IndexRange<Sum> {
    IndexRange::new(Sum, lo, hi)
}

/// The complete binary tree of depth `depth` below the nodes of `stack` (their depths), one
/// unit per node visited, the output counting them. A piece splits only when its stack holds
/// two nodes or more (it gives the bottom half away): the root must be expanded first.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Tree {
    pub depth: u32,
    pub stack: Vec<u32>,
}

/// The whole tree of depth `depth` (2^(depth+1) − 1 nodes).
pub(crate) fn tree(depth: u32) -> Tree {
    Tree {
        depth,
        stack: vec![0],
    }
}

impl Task for Tree {
    type Output = u64;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let mut done = 0;
        while done < budget {
            let Some(d) = self.stack.pop() else { break };
            if d < self.depth {
                self.stack.extend([d + 1, d + 1]);
            }
            *ctx.output() += 1;
            done += 1;
        }
        done
    }
    fn split(&mut self) -> Option<Self> {
        if self.stack.len() < 2 {
            return None;
        }
        let half = self.stack.len() / 2;
        Some(Tree {
            depth: self.depth,
            stack: self.stack.drain(..half).collect(),
        })
    }
    fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}
