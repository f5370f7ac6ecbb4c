//! [`DagTask`]: a task DAG as the root of a run. The machines' `run_dag` entry points give
//! every PE the DAG and run a DAG scheduler (`protocol/dag`), which broadcasts the root from
//! PE 0 down the tree of PEs and runs its tasks; the output is the [`Schedule`] of (task, PE,
//! start, finish) records.
//!
//! **Time.** A task busy-works for its cost t_v: in the simulator a unit of cost is a unit of
//! virtual time (the machine charges the units a slice reports), on real machines it spins
//! for `unit_ns` nanoseconds per unit on the monotonic clock ([`spin`]), so that W/p and the
//! critical path compare with wall time.
//!
//! As a plain [`Task`] (the sequential baseline) it runs the tasks one after another in
//! topological order on PE 0, recording start and finish in units of cost. It never splits,
//! so a tree balancer given it runs it so, on PE 0.

use super::schedule::{Placement, Schedule};
use super::Dag;
use crate::task::{Context, Task};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A task DAG and the length of a unit of cost on real machines.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DagTask {
    /// The DAG.
    pub dag: Arc<Dag>,
    /// Nanoseconds of busy work per unit of cost on real machines (0: none, as in the
    /// simulator, where a unit is a unit of virtual time).
    pub unit_ns: u64,
    /// Sequential baseline: the position in the topological order, and units left of the
    /// task there.
    next: usize,
    left: u64,
    clock: u64,
}

impl DagTask {
    /// `dag` as the root of a run, a unit of cost taking `unit_ns` ns on real machines.
    pub fn new(dag: Dag, unit_ns: u64) -> Self {
        Self::shared(Arc::new(dag), unit_ns)
    }

    /// As [`DagTask::new`], sharing the DAG.
    pub fn shared(dag: Arc<Dag>, unit_ns: u64) -> Self {
        let left = dag.topological_order().first().map_or(0, |&v| dag.cost(v));
        DagTask {
            dag,
            unit_ns,
            next: 0,
            left,
            clock: 0,
        }
    }
}

/// Busy-work for `units` units of `unit_ns` nanoseconds each (nothing when `unit_ns` is 0).
pub fn spin(units: u64, unit_ns: u64) {
    if unit_ns == 0 || units == 0 {
        return;
    }
    let end = Instant::now() + Duration::from_nanos(units.saturating_mul(unit_ns));
    while Instant::now() < end {
        std::hint::spin_loop();
    }
}

impl Task for DagTask {
    type Output = Schedule;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Schedule>) -> u64 {
        let mut done = 0;
        let order = self.dag.topological_order();
        while done < budget && self.next < order.len() {
            let v = order[self.next];
            let cost = self.dag.cost(v);
            let step = self.left.min(budget - done);
            spin(step, self.unit_ns);
            self.left -= step;
            done += step;
            if self.left == 0 {
                let finish = self.clock + cost;
                let pe = ctx.pe() as u32;
                ctx.output().0.push(Placement {
                    task: v,
                    pe,
                    start: self.clock,
                    finish,
                });
                self.clock = finish;
                self.next += 1;
                self.left = order.get(self.next).map_or(0, |&w| self.dag.cost(w));
            }
        }
        // Zero-cost tasks are done without units, so a slice that did none emptied the task.
        done
    }

    fn split(&mut self) -> Option<Self> {
        None
    }

    fn is_empty(&self) -> bool {
        self.next >= self.dag.len()
    }

    fn estimate(&self) -> Option<u64> {
        let order = self.dag.topological_order();
        Some(
            self.left
                + order
                    .iter()
                    .skip(self.next + 1)
                    .map(|&v| self.dag.cost(v))
                    .sum::<u64>(),
        )
    }
}
