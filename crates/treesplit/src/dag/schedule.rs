//! A DAG schedule as it happened — (task, PE, start, finish) records gathered from every PE
//! at the end of a run — its feasibility check, and the measures Theorem 14.3 is checked
//! with.
//!
//! **Feasibility** (§14.6): every task ran exactly once, on a PE in 0..p, for at least its
//! nominal duration; the tasks of one PE do not overlap; and no task started before all its
//! predecessors had finished. [`analyse`] returns the first violation as a
//! [`ScheduleError`].
//!
//! **Theorem 14.3 with communication.** The theorem's proof splits [0, T] into *busy* time
//! (all p PEs run a task; at most W/p in all) and *idle* time, during which a greedy schedule
//! always runs a task of any path P whose tasks are not all done, so idle time ≤ |P|. A
//! distributed scheduler is greedy only up to communication: a ready task may wait while a
//! PE is idle (its completion message or its assignment is on the wire, a thief has not
//! found it yet, or — random static — its owner is busy). Take the chain that ends with the
//! last task to finish, each task preceded by its latest-finishing predecessor; [0, T] is
//! covered by its tasks running and waiting (ready, not started). Then
//!
//! ```text
//! T ≤ W'/w + L' + C
//! ```
//!
//! with w the PEs that run tasks (p; master–worker's master runs none, so w = p − 1 there, and
//! busy time is when all w run a task), W' the measured work (Σ finish − start), L' the critical path under the measured
//! durations, and C, the **communication term**, the time during which a task of the chain
//! was ready but waiting while some PE was idle. With zero latency and a greedy scheduler
//! C = 0 and W' = W·u, L' = L·u in the simulator (u = 1), which is Theorem 14.3 itself. Every
//! run computes C from the gathered records and checks the inequality; the report also says
//! whether the plain bound W/p + L held.

use super::{Dag, TaskId};
use crate::task::Outcome;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One task's execution: which PE ran it, from when to when (ticks: virtual time units in
/// the simulator, nanoseconds since the common start on real machines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// The task.
    pub task: TaskId,
    /// The PE that ran it.
    pub pe: u32,
    /// When it started.
    pub start: u64,
    /// When it finished.
    pub finish: u64,
}

/// The records of a run, gathered from every PE (the DAG schedulers' output: the merge
/// concatenates, and [`analyse`] sorts).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule(pub Vec<Placement>);

impl Outcome for Schedule {
    fn merge(&mut self, other: Self) {
        self.0.extend(other.0);
    }
}

/// A schedule that is not feasible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScheduleError {
    /// A record names a task that does not exist.
    UnknownTask(TaskId),
    /// A record names a PE outside 0..p.
    UnknownPe {
        /// The task.
        task: TaskId,
        /// The PE named.
        pe: u32,
    },
    /// A task never ran.
    Missing(TaskId),
    /// A task ran more than once.
    Twice(TaskId),
    /// A task finished before its nominal duration had passed.
    TooShort {
        /// The task.
        task: TaskId,
        /// Its measured duration (ticks).
        took: u64,
        /// Its nominal duration (ticks).
        cost: u64,
    },
    /// Two tasks overlapped on one PE.
    Overlap {
        /// The PE.
        pe: u32,
        /// The earlier task.
        first: TaskId,
        /// The task that started before `first` had finished.
        second: TaskId,
    },
    /// A task started before a predecessor had finished.
    EarlyStart {
        /// The task.
        task: TaskId,
        /// Its start.
        start: u64,
        /// The predecessor.
        pred: TaskId,
        /// The predecessor's finish.
        pred_finish: u64,
    },
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::UnknownTask(t) => write!(f, "a record names task {t}, which does not exist"),
            ScheduleError::UnknownPe { task, pe } => write!(f, "task {task} ran on PE {pe}, which does not exist"),
            ScheduleError::Missing(t) => write!(f, "task {t} never ran"),
            ScheduleError::Twice(t) => write!(f, "task {t} ran more than once"),
            ScheduleError::TooShort { task, took, cost } => {
                write!(f, "task {task} took {took} ticks, less than its cost of {cost}")
            }
            ScheduleError::Overlap { pe, first, second } => {
                write!(f, "tasks {first} and {second} overlap on PE {pe}")
            }
            ScheduleError::EarlyStart { task, start, pred, pred_finish } => write!(
                f,
                "task {task} started at {start}, before its predecessor {pred} finished at {pred_finish}"
            ),
        }
    }
}

impl std::error::Error for ScheduleError {}

/// The measures of a feasible schedule (all times in ticks).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// Tasks run (= n).
    pub tasks: usize,
    /// The makespan T: the last finish (since the common start at tick 0).
    pub makespan: u64,
    /// W': the measured work Σ (finish − start).
    pub measured_work: u64,
    /// L': the critical path length under the measured durations.
    pub measured_critical_path: u64,
    /// C: time a task of the final chain was ready but waiting while some PE was idle.
    pub communication_term: u64,
    /// The number of tasks on the final chain.
    pub chain_tasks: usize,
    /// Busy time per PE (Σ durations of its tasks).
    pub busy_per_pe: Vec<u64>,
}

impl Analysis {
    /// The bound W'/w + L' + C that every feasible schedule on w workers meets (module
    /// comment).
    pub fn bound_with_communication(&self, workers: usize) -> f64 {
        self.measured_work as f64 / workers.max(1) as f64
            + self.measured_critical_path as f64
            + self.communication_term as f64
    }
}

/// Check `schedule` against `dag` on `p` PEs of which `workers` run tasks (master–worker:
/// p − 1), a unit of cost taking `unit` ticks, and measure it. Busy time is when all
/// `workers` run a task.
pub fn analyse(
    dag: &Dag,
    schedule: &Schedule,
    p: usize,
    workers: usize,
    unit: u64,
) -> Result<Analysis, ScheduleError> {
    let n = dag.len();
    let mut at: Vec<Option<Placement>> = vec![None; n];
    for r in &schedule.0 {
        let slot = at
            .get_mut(r.task as usize)
            .ok_or(ScheduleError::UnknownTask(r.task))?;
        if r.pe as usize >= p {
            return Err(ScheduleError::UnknownPe {
                task: r.task,
                pe: r.pe,
            });
        }
        if slot.is_some() {
            return Err(ScheduleError::Twice(r.task));
        }
        let cost = dag.cost(r.task).saturating_mul(unit);
        if r.finish < r.start || r.finish - r.start < cost {
            return Err(ScheduleError::TooShort {
                task: r.task,
                took: r.finish.saturating_sub(r.start),
                cost,
            });
        }
        *slot = Some(*r);
    }
    let at: Vec<Placement> = at
        .into_iter()
        .enumerate()
        .map(|(v, r)| r.ok_or(ScheduleError::Missing(v as TaskId)))
        .collect::<Result<_, _>>()?;
    // Dependencies.
    for v in 0..n as TaskId {
        for &u in dag.preds(v) {
            let (rv, ru) = (at[v as usize], at[u as usize]);
            if rv.start < ru.finish {
                return Err(ScheduleError::EarlyStart {
                    task: v,
                    start: rv.start,
                    pred: u,
                    pred_finish: ru.finish,
                });
            }
        }
    }
    // No overlap on a PE.
    let mut by_pe: Vec<Placement> = at.clone();
    by_pe.sort_by_key(|r| (r.pe, r.start, r.finish));
    let mut busy_per_pe = vec![0u64; p];
    for w in by_pe.windows(2) {
        if w[0].pe == w[1].pe && w[1].start < w[0].finish {
            return Err(ScheduleError::Overlap {
                pe: w[0].pe,
                first: w[0].task,
                second: w[1].task,
            });
        }
    }
    for r in &at {
        busy_per_pe[r.pe as usize] += r.finish - r.start;
    }
    let measured_work = busy_per_pe.iter().sum();
    let makespan = at.iter().map(|r| r.finish).max().unwrap_or(0);
    // L' under measured durations.
    let mut longest = vec![0u64; n];
    for &v in dag.topological_order() {
        let before = dag
            .preds(v)
            .iter()
            .map(|&u| longest[u as usize])
            .max()
            .unwrap_or(0);
        let r = at[v as usize];
        longest[v as usize] = before + (r.finish - r.start);
    }
    let measured_critical_path = longest.iter().copied().max().unwrap_or(0);
    // Intervals with all p PEs busy.
    let mut events: Vec<(u64, i64)> = Vec::with_capacity(2 * n);
    for r in &at {
        if r.finish > r.start {
            events.push((r.start, 1));
            events.push((r.finish, -1));
        }
    }
    events.sort();
    let mut full: Vec<(u64, u64)> = Vec::new();
    let mut running = 0i64;
    let mut since = 0u64;
    for (t, d) in events {
        let was_full = running >= workers as i64;
        running += d;
        let is_full = running >= workers as i64;
        if !was_full && is_full {
            since = t;
        } else if was_full && !is_full && t > since {
            full.push((since, t));
        }
    }
    // The final chain, backwards from the last task to finish.
    let mut chain_tasks = 0;
    let mut communication_term = 0u64;
    let mut next = at.iter().max_by_key(|r| (r.finish, r.task)).map(|r| r.task);
    while let Some(v) = next {
        chain_tasks += 1;
        let pred = dag
            .preds(v)
            .iter()
            .copied()
            .max_by_key(|&u| (at[u as usize].finish, u));
        let ready = pred.map_or(0, |u| at[u as usize].finish);
        let start = at[v as usize].start;
        if start > ready {
            communication_term += (start - ready) - overlap(&full, ready, start);
        }
        next = pred;
    }
    Ok(Analysis {
        tasks: n,
        makespan,
        measured_work,
        measured_critical_path,
        communication_term,
        chain_tasks,
        busy_per_pe,
    })
}

/// What every DAG run reports (and checks): the DAG's measures, the makespan, and Theorem
/// 14.3 with and without the communication term. Times are in the machine's report unit
/// (virtual time units in the simulator, seconds on real machines); `work` and
/// `critical_path` in units of cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// n.
    pub tasks: usize,
    /// Edges.
    pub edges: usize,
    /// p.
    pub pes: usize,
    /// The PEs that run tasks (master–worker: p − 1; the others: p).
    pub workers: usize,
    /// W (units of cost).
    pub work: u64,
    /// The critical path length (units of cost).
    pub critical_path: u64,
    /// Seconds (real machines) or virtual time units (simulator) per unit of cost.
    pub unit: f64,
    /// The makespan T.
    pub makespan: f64,
    /// max(W/p, critical path), in time.
    pub lower_bound: f64,
    /// W/p + critical path, in time (Theorem 14.3).
    pub theorem_14_3_bound: f64,
    /// T ≤ W/p + critical path.
    pub theorem_14_3_holds: bool,
    /// C, the communication term (module comment), in time.
    pub communication_term: f64,
    /// W'/w + L' + C with measured durations, w the workers, in time.
    pub bound_with_communication: f64,
    /// T ≤ W'/w + L' + C: checked by every run.
    pub holds_with_communication: bool,
    /// T / lower bound.
    pub ratio_to_lower_bound: f64,
    /// 2 − 1/p, the approximation ratio of greedy schedules (§14.6).
    pub two_minus_one_over_p: f64,
    /// T / lower bound ≤ 2 − 1/p.
    pub within_two_minus_one_over_p: bool,
    /// Tasks on the chain the communication term is measured along.
    pub chain_tasks: usize,
}

/// Check and measure the schedule of a run on `p` PEs, `workers` of which run tasks: a unit of cost takes `unit_ticks`
/// ticks, and a tick is `tick_seconds` of the report's time unit.
pub fn evaluate(
    dag: &Dag,
    schedule: &Schedule,
    p: usize,
    workers: usize,
    unit_ticks: u64,
    tick_seconds: f64,
) -> Result<(Evaluation, Analysis), ScheduleError> {
    let a = analyse(dag, schedule, p, workers, unit_ticks)?;
    let unit = unit_ticks as f64 * tick_seconds;
    let t = |ticks: f64| ticks * tick_seconds;
    let makespan = t(a.makespan as f64);
    let lower_bound = dag.lower_bound(p) * unit;
    let theorem = dag.theorem_14_3_bound(p) * unit;
    let with = t(a.bound_with_communication(workers));
    let ratio = if lower_bound > 0.0 {
        makespan / lower_bound
    } else {
        1.0
    };
    let limit = 2.0 - 1.0 / p.max(1) as f64;
    // Float slack for the comparisons of sums of ticks.
    let eps = 1e-9 * makespan.max(1.0);
    Ok((
        Evaluation {
            tasks: dag.len(),
            edges: dag.edges(),
            pes: p,
            workers,
            work: dag.work(),
            critical_path: dag.critical_path(),
            unit,
            makespan,
            lower_bound,
            theorem_14_3_bound: theorem,
            theorem_14_3_holds: makespan <= theorem + eps,
            communication_term: t(a.communication_term as f64),
            bound_with_communication: with,
            holds_with_communication: makespan <= with + eps,
            ratio_to_lower_bound: ratio,
            two_minus_one_over_p: limit,
            within_two_minus_one_over_p: ratio <= limit + 1e-12,
            chain_tasks: a.chain_tasks,
        },
        a,
    ))
}

/// The length of [a, b) covered by the sorted disjoint intervals `full`.
fn overlap(full: &[(u64, u64)], a: u64, b: u64) -> u64 {
    let first = full.partition_point(|&(_, end)| end <= a);
    full[first..]
        .iter()
        .take_while(|&&(s, _)| s < b)
        .map(|&(s, e)| e.min(b).saturating_sub(s.max(a)))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(task: TaskId, pe: u32, start: u64, finish: u64) -> Placement {
        Placement {
            task,
            pe,
            start,
            finish,
        }
    }

    fn diamond() -> Dag {
        Dag::new(vec![2, 3, 1, 2], vec![vec![], vec![0], vec![0], vec![1, 2]]).unwrap()
    }

    /// The analysis of a schedule of the diamond on 2 PEs: (task, PE, start, finish) each.
    fn diamond_analysis(records: [(TaskId, u32, u64, u64); 4]) -> Analysis {
        let s = Schedule(records.map(|(t, pe, a, b)| rec(t, pe, a, b)).to_vec());
        analyse(&diamond(), &s, 2, 2, 1).unwrap()
    }

    #[test]
    fn a_greedy_schedule_without_latency_has_no_communication_term() {
        let a = diamond_analysis([(0, 0, 0, 2), (1, 0, 2, 5), (2, 1, 2, 3), (3, 0, 5, 7)]);
        assert_eq!(a.makespan, 7);
        assert_eq!(a.measured_work, 8);
        assert_eq!(a.measured_critical_path, 7);
        assert_eq!(a.communication_term, 0);
        assert_eq!(a.chain_tasks, 3);
        assert!(a.makespan as f64 <= a.bound_with_communication(2));
    }

    #[test]
    fn waiting_while_a_pe_is_idle_is_the_communication_term() {
        // Task 1 waits 4 ticks after 0 finished, task 3 waits 1: C = 5.
        let a = diamond_analysis([(0, 0, 0, 2), (1, 1, 6, 9), (2, 0, 2, 3), (3, 0, 10, 12)]);
        assert_eq!(a.communication_term, 5);
        assert_eq!(a.makespan, 12);
        assert!(a.makespan as f64 <= a.bound_with_communication(2));
    }

    #[test]
    fn infeasible_schedules_are_named() {
        let d = diamond();
        let ok = vec![
            rec(0, 0, 0, 2),
            rec(1, 0, 2, 5),
            rec(2, 1, 2, 3),
            rec(3, 0, 5, 7),
        ];
        let with = |i: usize, r: Placement| {
            let mut v = ok.clone();
            v[i] = r;
            analyse(&d, &Schedule(v), 2, 2, 1)
        };
        assert_eq!(
            with(3, rec(3, 0, 4, 6)).unwrap_err(),
            ScheduleError::EarlyStart {
                task: 3,
                start: 4,
                pred: 1,
                pred_finish: 5
            }
        );
        assert_eq!(
            with(2, rec(2, 0, 2, 3)).unwrap_err(),
            ScheduleError::Overlap {
                pe: 0,
                first: 2,
                second: 1
            }
        );
        assert_eq!(
            with(2, rec(1, 1, 2, 5)).unwrap_err(),
            ScheduleError::Twice(1)
        );
        assert_eq!(
            with(1, rec(1, 0, 2, 4)).unwrap_err(),
            ScheduleError::TooShort {
                task: 1,
                took: 2,
                cost: 3
            }
        );
        assert_eq!(
            with(1, rec(1, 2, 2, 5)).unwrap_err(),
            ScheduleError::UnknownPe { task: 1, pe: 2 }
        );
        assert_eq!(
            analyse(&d, &Schedule(ok[..3].to_vec()), 2, 2, 1).unwrap_err(),
            ScheduleError::Missing(3)
        );
    }
}
