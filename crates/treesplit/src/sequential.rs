//! The sequential baseline: one task worked to the end with no runtime around it.
//!
//! Every parallel answer is checked against this, and T_seq for efficiency comes from it.

use crate::task::{Context, SharedIncumbent, Task};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The result of a sequential run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SequentialReport<O> {
    /// The result.
    pub output: O,
    /// Work units done (the reference for conservation checks).
    pub work_units: u64,
    /// Wall-clock seconds (T_seq).
    pub t_seq: f64,
}

/// Work `root` to the end on the calling thread.
pub fn run_sequential<T: Task>(mut root: T) -> SequentialReport<T::Output> {
    let incumbent = SharedIncumbent::new();
    let mut output = T::Output::default();
    let start = Instant::now();
    let mut work_units = 0;
    let mut ctx = Context::new(&mut output, &incumbent, 0).with_goal(T::GOAL);
    while !root.is_empty() && !ctx.stop_requested() {
        work_units += root.work(u64::MAX, &mut ctx);
    }
    let t_seq = start.elapsed().as_secs_f64();
    SequentialReport {
        output,
        work_units,
        t_seq,
    }
}
