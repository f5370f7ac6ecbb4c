//! The task the library's unit tests run: the sum of the indices of a range, one work unit
//! per index.

use super::range::{IndexJob, IndexRange};
use super::Context;
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
