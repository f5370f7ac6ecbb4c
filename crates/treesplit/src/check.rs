//! Contract checks for library users (`Config::check`): a task that breaks the [`Task`]
//! contract gives silently wrong answers (a split that duplicates work counts it twice, one
//! that loses work drops it), so a checked run verifies the contract as it goes and stops
//! with [`RunError::ContractViolated`] naming the PE and the piece.
//!
//! The machines run a checked task as `Checked`, a wrapper of the run's pieces that verifies on
//! every call:
//! - `work(budget)` returns at most `budget`, and at least 1 on a task that is not empty
//!   (unless the task asked for an early stop);
//! - `split()` (and `split_at`) conserve [`Task::estimate`] where the task gives one: the
//!   kept and the given part together hold exactly the estimate before, and an empty task
//!   gives nothing away.
//!
//! A piece is named by its place in the tree of splits: its generation and its path from the
//! root (`0` kept, `1` given away, first split first), e.g. `piece 3:101`.
//!
//! What the wrapper cannot see, results and work units that differ from a sequential run
//! (a task without estimates that duplicates work), [`against_sequential`] checks after the
//! run, for outputs that can be compared ([`PartialEq`]); the CLI's `--check` does both.
//! Debug builds check the budget always (the cheap part), checked or not.

use crate::error::{violation, RunError};
use crate::piece::{Bench, Decoders, Erased, Piece, Worked};
use crate::sequential::run_sequential;
use crate::stats::Report;
use crate::task::Task;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;

/// A piece under contract checks (the machines wrap the root in it when `Config::check`).
/// It serializes as the task followed by its name.
#[derive(Clone, Serialize)]
pub(crate) struct Checked {
    task: Piece,
    name: PieceName,
}

/// Where a piece comes from in the tree of splits.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct PieceName {
    /// Splits between the root and this piece.
    generation: u32,
    /// The last 64 of those splits, one bit each (1: given away), oldest first.
    path: u64,
}

impl PieceName {
    fn child(self, given: bool) -> Self {
        PieceName {
            generation: self.generation.saturating_add(1),
            path: (self.path << 1) | u64::from(given),
        }
    }
}

impl fmt::Display for PieceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.generation == 0 {
            return write!(f, "the root piece (generation 0)");
        }
        let bits = self.generation.min(64) as usize;
        let more = if self.generation > 64 { "…" } else { "" };
        write!(
            f,
            "piece {}:{more}{:0bits$b} (generation {}; path from the root, 1 = given away)",
            self.generation, self.path, self.generation
        )
    }
}

impl Checked {
    /// The root under checks.
    pub(crate) fn root(task: Piece) -> Piece {
        Piece::wrap(Box::new(Checked {
            task,
            name: PieceName::default(),
        }))
    }

    /// The decoders of a checked run of `T`: its pieces travel with their names.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub(crate) fn decoders<T: Task>() -> Decoders {
        #[derive(Deserialize)]
        #[serde(bound = "")]
        struct Wire<T: Task> {
            task: T,
            name: PieceName,
        }
        Decoders {
            piece: |d| {
                let wire: Wire<T> = erased_serde::deserialize(d)?;
                Ok(Piece::wrap(Box::new(Checked {
                    task: Piece::new(wire.task),
                    name: wire.name,
                })))
            },
            ..Decoders::of::<T>()
        }
    }

    /// The other part of a split that took `task` off this piece (`what`: the call), checked.
    fn split_off(
        &mut self,
        what: &str,
        before: Option<u64>,
        was_empty: bool,
        task: Piece,
    ) -> Piece {
        let parent = self.name;
        self.name = parent.child(false);
        let other = Checked {
            task,
            name: parent.child(true),
        };
        self.check_split(what, before, was_empty, &other);
        Piece::wrap(Box::new(other))
    }

    /// After a split of a piece whose estimate was `before`: the two parts conserve it.
    fn check_split(&self, what: &str, before: Option<u64>, was_empty: bool, other: &Self) {
        if was_empty && !other.task.is_empty() {
            violation(format!(
                "{what} of an empty task gave away work ({}): work was made up",
                self.name
            ));
        }
        if let (Some(e), Some(kept), Some(given)) =
            (before, self.task.estimate(), other.task.estimate())
        {
            let after = kept as u128 + given as u128;
            if after != u128::from(e) {
                let how = if after > u128::from(e) {
                    "duplicates work"
                } else {
                    "loses work"
                };
                violation(format!(
                    "{what} {how}: the estimate was {e} units, after it {kept} kept + {given} \
                     given = {after} ({})",
                    self.name
                ));
            }
        }
    }
}

impl Erased for Checked {
    fn work(&mut self, budget: u64, bench: &mut Bench<'_>) -> Worked {
        let worked = self.task.work(budget, bench);
        let units = worked.units;
        if units > budget {
            violation(format!(
                "Task::work did {units} units for a budget of {budget} ({})",
                self.name
            ));
        }
        if units == 0 && budget > 0 && !worked.stop && !worked.empty {
            violation(format!(
                "Task::work made no progress on a task that is not empty (budget {budget}, {})",
                self.name
            ));
        }
        worked
    }

    fn split(&mut self) -> Option<Piece> {
        let (before, was_empty) = (self.task.estimate(), self.task.is_empty());
        let task = self.task.split()?;
        Some(self.split_off("Task::split", before, was_empty, task))
    }

    fn split_at(&mut self, units: u64) -> Option<Piece> {
        let (before, was_empty) = (self.task.estimate(), self.task.is_empty());
        let task = self.task.split_at(units)?;
        Some(self.split_off("Task::split_at", before, was_empty, task))
    }

    fn is_empty(&self) -> bool {
        self.task.is_empty()
    }

    fn estimate(&self) -> Option<u64> {
        self.task.estimate()
    }

    fn clone_piece(&self) -> Piece {
        Piece::wrap(Box::new(self.clone()))
    }

    /// The user's task (unit tests).
    #[cfg(test)]
    fn as_any(&self) -> &dyn Any {
        self.task.as_any()
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self.task.into_any()
    }
}

/// Check a run's report against a sequential run of `root` (the same root the run started
/// from): the result and the work units must match. [`RunError::WrongAnswer`] when they do
/// not. Not for branch-and-bound searches, whose work depends on the order of the search.
pub fn against_sequential<T: Task>(root: T, report: &Report<T::Output>) -> Result<(), RunError>
where
    T::Output: PartialEq,
{
    let seq = run_sequential(root);
    if seq.output != report.output {
        return Err(RunError::WrongAnswer(format!(
            "the parallel result {:?} differs from the sequential result {:?} (work was lost or \
             done twice: check Task::split)",
            report.output, seq.output
        )));
    }
    if seq.work_units != report.totals.work_units {
        return Err(RunError::WrongAnswer(format!(
            "the parallel run did {} work units, the sequential run {} (work was lost or done \
             twice: check Task::split)",
            report.totals.work_units, seq.work_units
        )));
    }
    Ok(())
}

/// Check a task's claim that its work slices compose ([`Task::WORK_COMPOSES`]), and its
/// promise of plain units ([`Task::plain_units`]): walk `root` to its end in steps of `a + b`
/// units for each `(a, b)` of `slices` (repeated from the start when they run out), and at
/// every step compare `work(a)` then `work(b)` with one
/// `work(a + b)` from the same state: the task's bytes, the output and the units must be
/// equal. The walk goes on from the state of one route, then of the other, in turn. Both
/// routes see the best value found so far as the incumbent (a search prunes against it); a
/// step in which the task asks to stop or improves on it is not compared (the claim does not
/// cover it). Where the task promises at least `a + b` units plain ([`Task::plain_units`]),
/// the one call must also keep the promise: do them all, leave work, improve nothing and ask
/// for no stop. Returns the steps compared (at most `max_steps`), or
/// [`RunError::ContractViolated`] naming the first step that differs.
pub fn work_composes<T: Task>(
    root: T,
    slices: &[(u64, u64)],
    max_steps: usize,
) -> Result<usize, RunError>
where
    T::Output: PartialEq,
{
    use crate::task::{Context, Incumbent, SharedIncumbent};
    let broken = |step: usize, a: u64, b: u64, what: String| RunError::ContractViolated {
        pe: 0,
        what: format!(
            "Task::WORK_COMPOSES: at step {step}, work({a}) then work({b}) {what} work({})",
            a.saturating_add(b)
        ),
    };
    let bytes =
        |task: &T| postcard::to_allocvec(task).map_err(|e| RunError::Internal(e.to_string()));
    // The incumbent as both routes find it: the best key so far (`i64::MIN`: none).
    let incumbent_at = |best: i64| {
        let incumbent = SharedIncumbent::new();
        incumbent.offer(best);
        incumbent
    };
    let (mut task, mut best, mut compared) = (root, i64::MIN, 0);
    for (step, &(a, b)) in slices.iter().cycle().take(max_steps).enumerate() {
        if task.is_empty() {
            break;
        }
        let whole = a.saturating_add(b);
        let promised = task.plain_units();
        let incumbent = incumbent_at(best);
        let (mut apart, mut apart_out) = (task.clone(), T::Output::default());
        let mut ctx = Context::new(&mut apart_out, &incumbent, 0).with_goal(T::GOAL);
        let apart_units = apart.work(a, &mut ctx) + apart.work(b, &mut ctx);
        let irregular = ctx.stop_requested() || incumbent.best() != best;
        let incumbent = incumbent_at(best);
        let mut together_out = T::Output::default();
        let mut ctx = Context::new(&mut together_out, &incumbent, 0).with_goal(T::GOAL);
        let together_units = task.work(whole, &mut ctx);
        let stopped = ctx.stop_requested();
        let found = incumbent.best();
        if whole <= promised {
            let worked = Worked {
                units: together_units,
                stop: stopped,
                empty: task.is_empty(),
            };
            if let Some(what) = worked.why_not_plain(whole, found != best) {
                return Err(RunError::ContractViolated {
                    pe: 0,
                    what: format!(
                        "Task::plain_units: at step {step}, {promised} units promised plain, \
                         but work({whole}) {what}"
                    ),
                });
            }
        }
        if irregular || stopped || found != best {
            best = best.max(found);
            continue;
        }
        if apart_units != together_units {
            let what = format!("did {apart_units} units, against {together_units} for");
            return Err(broken(step, a, b, what));
        }
        if apart_out != together_out {
            let what = format!("gave {apart_out:?}, against {together_out:?} for");
            return Err(broken(step, a, b, what));
        }
        if bytes(&apart)? != bytes(&task)? {
            return Err(broken(
                step,
                a,
                b,
                "left the task in another state than".into(),
            ));
        }
        compared += 1;
        if step % 2 == 1 {
            task = apart; // go on from the state of two slices
        }
    }
    Ok(compared)
}
