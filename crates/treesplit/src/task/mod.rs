//! The task model: *tree-shaped computations* (paper 000 §1.2, paper 001 §14.5.1).
//!
//! All work starts as one root task. A task can be worked on sequentially for a budget of
//! *work units* ([`Task::work`]), split into two tasks that together hold what was left
//! ([`Task::split`]), and is done when it is empty ([`Task::is_empty`]). Results found while
//! working go into the PE's [`Outcome`] accumulator, and PEs merge their accumulators at the
//! end, so the result type must merge associatively and commutatively.
//!
//! Work is counted in units (node expansions, loop iterations) so that every run can be
//! checked for conservation: the units done by all PEs sum to exactly the sequential total.
//!
//! Tasks cross PE boundaries, and on distributed machines process boundaries, so tasks and
//! outcomes are plain serde data.
//!
//! Beside the trait: [`range`], the ready-made task over an index range for bags of
//! independent jobs, [`pieces`], several pieces of one computation as one task (resuming a
//! checkpoint), [`bag`], which chooses how many jobs the static balancers cut a root into, and
//! [`shared`], a large instance sent once while pieces travel as paths naming it by digest.

use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;
use std::sync::atomic::{AtomicI64, Ordering};

/// The result a PE accumulates while working; merged across PEs at the end of a run.
///
/// `merge` must be associative and commutative: PEs merge in whatever order the reduction
/// tree delivers.
pub trait Outcome: Default + Clone + Debug + Send + Serialize + DeserializeOwned + 'static {
    /// Fold `other` into `self`.
    fn merge(&mut self, other: Self);
}

/// Counting outcome (solutions, nodes).
impl Outcome for u64 {
    fn merge(&mut self, other: Self) {
        *self += other;
    }
}

/// Whether a branch-and-bound search looks for the largest objective value (the default) or
/// the smallest: [`Context::best`] and [`Context::offer`] compare by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Goal {
    /// Larger is better.
    #[default]
    Maximise,
    /// Smaller is better.
    Minimise,
}

impl Goal {
    /// The incumbent's own key of `value`: the incumbent keeps the largest key (a minimising
    /// search's value v is kept as `!v`, which reverses the order without overflow).
    pub fn key(self, value: i64) -> i64 {
        match self {
            Goal::Maximise => value,
            Goal::Minimise => !value,
        }
    }

    /// The value of the incumbent's key (`key`'s inverse).
    pub fn value(self, key: i64) -> i64 {
        self.key(key)
    }
}

/// For tasks whose only effect is the work they do.
impl Outcome for () {
    fn merge(&mut self, _other: Self) {}
}

/// A tree-shaped computation, or a piece of one.
///
/// Contract, checked by the runtime where it can be:
/// - `work(budget)` does at most `budget` units and returns how many it did. It may return
///   fewer while work remains (at the end of a job, say): the PE counts the units, handles
///   its messages and calls `work` again, so nothing is lost; a short slice only makes the
///   PE look at its messages sooner than every Δt units. A non-empty task must make progress:
///   for any budget ≥ 1 it returns at least 1, unless it called [`Context::stop`]. A call
///   that does nothing fails a checked run ([`crate::Config::check`]) at once, and a run on
///   any machine at the 1000th such call in a row ([`crate::RunError::ContractViolated`];
///   [`crate::run_sequential`] does not look). More than `budget` is caught only in debug
///   builds and checked runs.
/// - `split()` moves part of the remaining work into a new task and returns it, or returns
///   `None` when the task is atomic (too small to split) or empty. The two tasks together
///   hold exactly the work that was left: nothing lost, nothing done twice. Backtracking
///   tasks should give away the *highest* unexplored alternatives of their depth-first
///   stack (paper 001 §14.5.4), which keeps the splitting depth `h` small.
/// - `is_empty()` is true when no work is left.
/// - `split()` is deterministic: the same task state always splits the same way (fast
///   initialization relies on every PE splitting its copy of the root identically), and
///   `clone()` copies the remaining work (used only to broadcast the root).
pub trait Task: Sized + Clone + Send + Serialize + DeserializeOwned + 'static {
    /// What working on the task produces; merged across PEs.
    type Output: Outcome;

    /// Whether the search's objective (the incumbent, [`Context::best`]) is maximised (the
    /// default) or minimised.
    const GOAL: Goal = Goal::Maximise;

    /// Whether work slices compose: `work(a)` followed by `work(b)` leaves the task (to its
    /// serialized bytes) and its output exactly as one `work(a + b)` would, whenever neither
    /// improves the incumbent nor asks to stop. It holds for a search whose state after n
    /// units does not depend on where the slices ended and whose output merges exactly; it
    /// does not for an output that sums floating-point numbers slice by slice (the order of
    /// the additions changes the last bits), nor for a fixed stack whose stale frames above
    /// the top differ with the slicing.
    ///
    /// When true, the simulator runs a busy PE's slices ahead of their time (the slice ends
    /// that would find no message) in one call of their whole budget instead of one call per
    /// slice Δt. A task that claims it wrongly gets different simulated results, never
    /// different real ones: threads and MPI run slice by slice either way.
    /// [`crate::check::work_composes`] checks the claim on a task.
    const WORK_COMPOSES: bool = false;

    /// Work units the task will surely do *plainly* from its present state: a count n such
    /// that any slices of `work` adding up to at most n units each do their whole budget,
    /// leave the task non-empty, neither improve the incumbent nor ask to stop, and do not
    /// panic, whatever the incumbent's value. 0 (the default) promises nothing. A range of
    /// known jobs that never prune can promise all its units but the last. It is asked at
    /// every run-ahead, so it should be cheap.
    ///
    /// The simulator reads it only for a task whose slices compose
    /// ([`Task::WORK_COMPOSES`]). There it runs a busy PE ahead *lazily* within the promise:
    /// it counts the slices within it, does the ones kept once, in one call, when a message
    /// or the end of the count comes, and never does those a message cuts off; otherwise it
    /// does them ahead of their time and, when a message cuts them short, redoes the ones kept
    /// from a copy. A broken promise the simulator runs into stops the run with
    /// [`crate::RunError::ContractViolated`]; [`crate::check::work_composes`] checks the
    /// promise along a walk of the task.
    fn plain_units(&self) -> u64 {
        0
    }

    /// Do sequential work for at most `budget` units; return the units done (fewer is
    /// allowed while work remains, none is not: the contract above).
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Self::Output>) -> u64;

    /// Hand part of what is left to a new task (`None`: atomic or empty).
    fn split(&mut self) -> Option<Self>;

    /// True when no work is left.
    fn is_empty(&self) -> bool;

    /// An estimate of the work units left, where the task can give one (`None`: unknown).
    /// The static balancers use it: prefix-sum assignment needs job sizes, adaptive
    /// master–worker bundles the remaining work W, and random-static measures the splitting
    /// quality α from it (paper 004 §3).
    fn estimate(&self) -> Option<u64> {
        None
    }

    /// Cut the task after about `units` estimated work units: keep the first part, return
    /// the rest (`None`: the task cannot be cut there, or the rest is empty). Splittable
    /// prefix-sum assignment (paper 001 §14.2) cuts jobs between PEs with it.
    fn split_at(&mut self, units: u64) -> Option<Self> {
        let _ = units;
        None
    }
}

pub mod bag;
mod outcome;
pub mod pieces;
pub mod range;
pub mod shared;

pub use outcome::{Max, Min};
#[cfg(test)]
pub(crate) mod testing;

/// The global incumbent of a branch-and-bound search: the best objective value known anywhere.
///
/// The incumbent keeps the largest key; a task's [`Goal`] maps its values to keys (the
/// [`Context`] does, so a task sees its own values). Each machine supplies its own
/// implementation (an atomic on threads; messages on distributed machines).
pub trait Incumbent: Sync {
    /// The best value known to this PE (`i64::MIN` when none).
    fn best(&self) -> i64;
    /// Offer a value; returns true when it improved the incumbent.
    fn offer(&self, value: i64) -> bool;
}

/// An incumbent shared by all PEs of one address space (a lock-free atomic maximum).
#[derive(Debug)]
pub struct SharedIncumbent(AtomicI64);

impl SharedIncumbent {
    /// A fresh incumbent with no value (`i64::MIN`).
    pub fn new() -> Self {
        SharedIncumbent(AtomicI64::new(i64::MIN))
    }
}

impl Default for SharedIncumbent {
    fn default() -> Self {
        Self::new()
    }
}

impl Incumbent for SharedIncumbent {
    fn best(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }
    fn offer(&self, value: i64) -> bool {
        self.0.fetch_max(value, Ordering::Relaxed) < value
    }
}

/// An incumbent seen through one PE: counts the offers of this PE that improved it.
pub struct CountingIncumbent<'a> {
    inner: &'a dyn Incumbent,
    improvements: std::sync::atomic::AtomicU64,
}

impl<'a> CountingIncumbent<'a> {
    /// Count the improvements made through this view of `inner`.
    pub fn new(inner: &'a dyn Incumbent) -> Self {
        CountingIncumbent {
            inner,
            improvements: Default::default(),
        }
    }
    /// Offers that improved the incumbent.
    pub fn improvements(&self) -> u64 {
        self.improvements.load(Ordering::Relaxed)
    }
}

impl Incumbent for CountingIncumbent<'_> {
    fn best(&self) -> i64 {
        self.inner.best()
    }
    fn offer(&self, value: i64) -> bool {
        let improved = self.inner.offer(value);
        if improved {
            self.improvements.fetch_add(1, Ordering::Relaxed);
        }
        improved
    }
}

/// What a task sees of the runtime while it works: its PE's result accumulator, the global
/// incumbent and which PE it runs on.
pub struct Context<'a, O> {
    output: &'a mut O,
    incumbent: &'a dyn Incumbent,
    pe: usize,
    stop: bool,
    goal: Goal,
}

impl<'a, O> Context<'a, O> {
    /// A context over an accumulator and an incumbent (machines and baselines build these).
    pub fn new(output: &'a mut O, incumbent: &'a dyn Incumbent, pe: usize) -> Self {
        Context {
            output,
            incumbent,
            pe,
            stop: false,
            goal: Goal::Maximise,
        }
    }
    /// The same context comparing objective values by `goal` (the machines pass the task's
    /// [`Task::GOAL`]).
    pub fn with_goal(mut self, goal: Goal) -> Self {
        self.goal = goal;
        self
    }
    /// End the whole search as soon as possible (a decision search found what it looked for):
    /// every PE drops its remaining work, and the run terminates with the results gathered
    /// so far. The task should also stop working and make itself empty.
    pub fn stop(&mut self) {
        self.stop = true;
    }
    /// True once [`Context::stop`] was called in this slice.
    pub fn stop_requested(&self) -> bool {
        self.stop
    }
    /// The PE's result accumulator.
    pub fn output(&mut self) -> &mut O {
        self.output
    }
    /// The best objective value known to this PE (none yet: `i64::MIN` when maximising,
    /// `i64::MAX` when minimising).
    pub fn best(&self) -> i64 {
        self.goal.value(self.incumbent.best())
    }
    /// Offer an objective value; true when it improved the incumbent.
    pub fn offer(&self, value: i64) -> bool {
        self.incumbent.offer(self.goal.key(value))
    }
    /// The index of the PE doing the work.
    pub fn pe(&self) -> usize {
        self.pe
    }
}
