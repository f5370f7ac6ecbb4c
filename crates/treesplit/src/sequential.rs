//! The sequential baseline: one task worked to the end with no runtime around it.
//!
//! Every parallel answer is checked against this, and T_seq for efficiency comes from it.

use crate::config::Interrupt;
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
pub fn run_sequential<T: Task>(root: T) -> SequentialReport<T::Output> {
    run_sequential_until(root, &Interrupt::default())
        .expect("an unset interrupt never stops the run")
}

/// Work units between two looks at the interrupt flag in [`run_sequential_until`]: at a few
/// ns to a few µs per unit, a look every few milliseconds at most, and no measurable cost.
const LOOK_EVERY: u64 = 1 << 12;

/// Work `root` to the end on the calling thread, or until `interrupt` is set (looked at every
/// few thousand work units): `None` when it stopped the run. With no flag in `interrupt`, the
/// task works in one call, as [`run_sequential`].
pub fn run_sequential_until<T: Task>(
    mut root: T,
    interrupt: &Interrupt,
) -> Option<SequentialReport<T::Output>> {
    let incumbent = SharedIncumbent::new();
    let mut output = T::Output::default();
    let start = Instant::now();
    let mut work_units = 0;
    let budget = if interrupt.0.is_some() {
        LOOK_EVERY
    } else {
        u64::MAX
    };
    let mut ctx = Context::new(&mut output, &incumbent, 0).with_goal(T::GOAL);
    while !root.is_empty() && !ctx.stop_requested() {
        if interrupt.is_set() {
            return None;
        }
        work_units += root.work(budget, &mut ctx);
    }
    let t_seq = start.elapsed().as_secs_f64();
    Some(SequentialReport {
        output,
        work_units,
        t_seq,
    })
}
