//! Task DAGs (paper 001 §14.6, "Handling Dependencies"): tasks with execution times t_v and
//! dependency edges (u, v) — v may start only after u has finished.
//!
//! [`Dag`] is the checked model: every predecessor exists, no task is its own predecessor, no
//! edge is given twice, the graph is acyclic (a cycle is an error naming a task on it), and
//! the work W = Σ t_v and every path length fit in a `u64`. It answers what the chapter
//! reasons with: the work W, the critical path length (the longest path, summing t_v), the
//! lower bound max(W/p, critical path) of every schedule, and the bound W/p + critical path
//! of Theorem 14.3 for schedules that never leave a PE idle while a task is ready.
//!
//! Beside the model: [`schedule`] (a schedule as (task, PE, start, finish) records, its
//! feasibility check and its measures) and [`task`] (the [`DagTask`] that carries a DAG
//! into a run as its root, for the DAG schedulers of `protocol/dag`).
//!
//! ```
//! use treesplit::dag::Dag;
//! // a → {b, c} → d, with t = 2, 3, 1, 2.
//! let dag = Dag::new(vec![2, 3, 1, 2], vec![vec![], vec![0], vec![0], vec![1, 2]]).unwrap();
//! assert_eq!(dag.work(), 8);
//! assert_eq!(dag.critical_path(), 7);
//! assert_eq!(dag.lower_bound(2), 7.0);
//! assert_eq!(dag.theorem_14_3_bound(2), 11.0);
//! ```

pub mod schedule;
pub mod task;

pub use schedule::{analyse, evaluate, Analysis, Evaluation, Placement, Schedule, ScheduleError};
pub use task::DagTask;

use serde::{Deserialize, Serialize};
use std::fmt;

/// A task's index, `0..n`.
pub type TaskId = u32;

/// The largest number of tasks accepted (ids are `u32`).
pub const MAX_TASKS: usize = u32::MAX as usize;

/// Why a list of costs and predecessors is not a DAG.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DagError {
    /// `costs` and `preds` have different lengths.
    Lengths {
        /// Number of costs.
        costs: usize,
        /// Number of predecessor lists.
        preds: usize,
    },
    /// More than [`MAX_TASKS`] tasks.
    TooManyTasks(usize),
    /// Task `task` names predecessor `pred`, which does not exist.
    UnknownPredecessor {
        /// The task.
        task: TaskId,
        /// The predecessor named (as given).
        pred: u64,
    },
    /// Task `task` names itself as a predecessor.
    SelfPredecessor(TaskId),
    /// Task `task` names predecessor `pred` twice.
    DuplicatePredecessor {
        /// The task.
        task: TaskId,
        /// The predecessor named twice.
        pred: TaskId,
    },
    /// The edges form a cycle through `task` (`cycle`: the tasks on it, in order).
    Cycle {
        /// A task on the cycle.
        task: TaskId,
        /// The cycle, starting at `task`.
        cycle: Vec<TaskId>,
    },
    /// The work or a path length does not fit in a `u64`.
    Overflow,
}

impl fmt::Display for DagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DagError::Lengths { costs, preds } => {
                write!(f, "{costs} costs but {preds} predecessor lists")
            }
            DagError::TooManyTasks(n) => write!(f, "{n} tasks (at most {MAX_TASKS})"),
            DagError::UnknownPredecessor { task, pred } => {
                write!(
                    f,
                    "task {task} names predecessor {pred}, which does not exist"
                )
            }
            DagError::SelfPredecessor(t) => write!(f, "task {t} names itself as a predecessor"),
            DagError::DuplicatePredecessor { task, pred } => {
                write!(f, "task {task} names predecessor {pred} twice")
            }
            DagError::Cycle { task, cycle } => {
                let shown: Vec<String> = cycle.iter().take(12).map(|t| t.to_string()).collect();
                let more = if cycle.len() > 12 { " → …" } else { "" };
                write!(
                    f,
                    "the dependencies form a cycle through task {task}: {} → {task}{more}",
                    shown.join(" → ")
                )
            }
            DagError::Overflow => write!(f, "the total work does not fit in 64 bits"),
        }
    }
}

impl std::error::Error for DagError {}

/// A checked task DAG: costs t_v, predecessors and successors, a topological order, and the
/// measures of §14.6. Immutable once built. Serialized as its costs and predecessor lists
/// (and checked again when read back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawDag", into = "RawDag")]
pub struct Dag {
    costs: Vec<u64>,
    preds: Vec<Vec<TaskId>>,
    succs: Vec<Vec<TaskId>>,
    /// Tasks in a topological order (every predecessor before its successors).
    order: Vec<TaskId>,
    /// Longest path from a task to an exit, the task's own cost included ("bottom level").
    bottom: Vec<u64>,
    work: u64,
    critical_path: u64,
}

/// A DAG as it travels: costs and predecessor lists.
#[derive(Serialize, Deserialize)]
struct RawDag {
    costs: Vec<u64>,
    preds: Vec<Vec<TaskId>>,
}

impl TryFrom<RawDag> for Dag {
    type Error = DagError;
    fn try_from(raw: RawDag) -> Result<Dag, DagError> {
        Dag::new(raw.costs, raw.preds)
    }
}

impl From<Dag> for RawDag {
    fn from(dag: Dag) -> RawDag {
        RawDag {
            costs: dag.costs,
            preds: dag.preds,
        }
    }
}

impl Dag {
    /// The DAG with costs `costs[v]` and predecessor lists `preds[v]`, checked (see the
    /// module comment).
    pub fn new(costs: Vec<u64>, preds: Vec<Vec<TaskId>>) -> Result<Dag, DagError> {
        let n = costs.len();
        if preds.len() != n {
            return Err(DagError::Lengths {
                costs: n,
                preds: preds.len(),
            });
        }
        if n > MAX_TASKS {
            return Err(DagError::TooManyTasks(n));
        }
        let mut succs: Vec<Vec<TaskId>> = vec![Vec::new(); n];
        let mut seen: Vec<TaskId> = vec![TaskId::MAX; n];
        for (v, ps) in preds.iter().enumerate() {
            let v = v as TaskId;
            for &u in ps {
                if u as usize >= n {
                    return Err(DagError::UnknownPredecessor {
                        task: v,
                        pred: u as u64,
                    });
                }
                if u == v {
                    return Err(DagError::SelfPredecessor(v));
                }
                if seen[u as usize] == v {
                    return Err(DagError::DuplicatePredecessor { task: v, pred: u });
                }
                seen[u as usize] = v;
                succs[u as usize].push(v);
            }
        }
        // Kahn's algorithm; tasks left over lie on or behind a cycle.
        let mut indegree: Vec<usize> = preds.iter().map(Vec::len).collect();
        let mut order: Vec<TaskId> = (0..n as TaskId)
            .filter(|&v| indegree[v as usize] == 0)
            .collect();
        let mut i = 0;
        while i < order.len() {
            let u = order[i] as usize;
            i += 1;
            for &s in &succs[u] {
                indegree[s as usize] -= 1;
                if indegree[s as usize] == 0 {
                    order.push(s);
                }
            }
        }
        if order.len() < n {
            return Err(find_cycle(&preds, &indegree));
        }
        let work = costs
            .iter()
            .try_fold(0u64, |a, &c| a.checked_add(c))
            .ok_or(DagError::Overflow)?;
        let mut bottom = vec![0u64; n];
        for &v in order.iter().rev() {
            let below = succs[v as usize]
                .iter()
                .map(|&s| bottom[s as usize])
                .max()
                .unwrap_or(0);
            bottom[v as usize] = below
                .checked_add(costs[v as usize])
                .ok_or(DagError::Overflow)?;
        }
        let critical_path = bottom.iter().copied().max().unwrap_or(0);
        Ok(Dag {
            costs,
            preds,
            succs,
            order,
            bottom,
            work,
            critical_path,
        })
    }

    /// The number of tasks n.
    pub fn len(&self) -> usize {
        self.costs.len()
    }

    /// True for the DAG without tasks.
    pub fn is_empty(&self) -> bool {
        self.costs.is_empty()
    }

    /// t_v, the execution time of task `v`.
    pub fn cost(&self, v: TaskId) -> u64 {
        self.costs[v as usize]
    }

    /// All costs, by task.
    pub fn costs(&self) -> &[u64] {
        &self.costs
    }

    /// The predecessors of `v` (tasks that must finish before `v` starts).
    pub fn preds(&self, v: TaskId) -> &[TaskId] {
        &self.preds[v as usize]
    }

    /// The successors of `v`.
    pub fn succs(&self, v: TaskId) -> &[TaskId] {
        &self.succs[v as usize]
    }

    /// The number of edges.
    pub fn edges(&self) -> usize {
        self.preds.iter().map(Vec::len).sum()
    }

    /// A topological order: every task after all its predecessors.
    pub fn topological_order(&self) -> &[TaskId] {
        &self.order
    }

    /// The tasks without predecessors, in increasing order.
    pub fn sources(&self) -> impl Iterator<Item = TaskId> + '_ {
        (0..self.len() as TaskId).filter(|&v| self.preds[v as usize].is_empty())
    }

    /// The work W = Σ t_v.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The critical path length: the largest Σ t_v over the paths of the DAG.
    pub fn critical_path(&self) -> u64 {
        self.critical_path
    }

    /// The longest path from `v` to an exit, t_v included (the "bottom level" list
    /// schedulers prioritise by).
    pub fn bottom_level(&self, v: TaskId) -> u64 {
        self.bottom[v as usize]
    }

    /// A critical path: a path of length [`Dag::critical_path`], from a source to an exit.
    pub fn critical_path_tasks(&self) -> Vec<TaskId> {
        let mut path = Vec::new();
        let mut next = (0..self.len() as TaskId)
            .filter(|&v| self.preds[v as usize].is_empty())
            .max_by_key(|&v| (self.bottom[v as usize], std::cmp::Reverse(v)));
        while let Some(v) = next {
            path.push(v);
            next = self.succs[v as usize]
                .iter()
                .copied()
                .max_by_key(|&s| (self.bottom[s as usize], std::cmp::Reverse(s)));
        }
        path
    }

    /// The average work W/p on `p` PEs.
    pub fn average_work(&self, p: usize) -> f64 {
        self.work as f64 / p.max(1) as f64
    }

    /// The lower bound max(W/p, critical path) on the makespan of every schedule on `p` PEs.
    pub fn lower_bound(&self, p: usize) -> f64 {
        self.average_work(p).max(self.critical_path as f64)
    }

    /// Theorem 14.3: a schedule on `p` PEs that never leaves a PE idle while a task is ready
    /// has makespan at most W/p + critical path.
    pub fn theorem_14_3_bound(&self, p: usize) -> f64 {
        self.average_work(p) + self.critical_path as f64
    }
}

/// A cycle among the tasks Kahn's algorithm left (`indegree` > 0): walk predecessors that
/// are left too until a task repeats.
fn find_cycle(preds: &[Vec<TaskId>], indegree: &[usize]) -> DagError {
    let start = (0..preds.len())
        .find(|&v| indegree[v] > 0)
        .expect("a task left over");
    let mut pos = vec![usize::MAX; preds.len()];
    let mut walk: Vec<TaskId> = Vec::new();
    let mut v = start;
    loop {
        if pos[v] != usize::MAX {
            // walk[pos[v]..] is a cycle, followed backwards along predecessor edges.
            let mut cycle: Vec<TaskId> = walk[pos[v]..].to_vec();
            cycle.reverse();
            let task = cycle[0];
            return DagError::Cycle { task, cycle };
        }
        pos[v] = walk.len();
        walk.push(v as TaskId);
        v = preds[v]
            .iter()
            .map(|&u| u as usize)
            .find(|&u| indegree[u] > 0)
            .expect("a task on or behind a cycle has a predecessor left over");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_of_a_diamond() {
        let dag = Dag::new(vec![2, 3, 1, 2], vec![vec![], vec![0], vec![0], vec![1, 2]]).unwrap();
        assert_eq!(dag.work(), 8);
        assert_eq!(dag.critical_path(), 7);
        assert_eq!(dag.critical_path_tasks(), vec![0, 1, 3]);
        assert_eq!(dag.succs(0), &[1, 2]);
        assert_eq!(dag.lower_bound(1), 8.0);
        assert_eq!(dag.theorem_14_3_bound(4), 9.0);
        let back: Dag = postcard::from_bytes(&postcard::to_stdvec(&dag).unwrap()).unwrap();
        assert_eq!(back, dag);
    }

    #[test]
    fn bad_graphs_are_errors() {
        assert_eq!(
            Dag::new(vec![1, 1], vec![vec![], vec![5]]),
            Err(DagError::UnknownPredecessor { task: 1, pred: 5 })
        );
        assert_eq!(
            Dag::new(vec![1, 1], vec![vec![], vec![1]]),
            Err(DagError::SelfPredecessor(1))
        );
        assert_eq!(
            Dag::new(vec![1, 1], vec![vec![], vec![0, 0]]),
            Err(DagError::DuplicatePredecessor { task: 1, pred: 0 })
        );
        assert_eq!(
            Dag::new(vec![u64::MAX, 1], vec![vec![], vec![]]),
            Err(DagError::Overflow)
        );
        // 0 → 1 → 2 → 3 → 1: a cycle through 1, 2, 3; task 4 hangs behind it.
        let err = Dag::new(
            vec![1; 5],
            vec![vec![], vec![0, 3], vec![1], vec![2], vec![3]],
        )
        .unwrap_err();
        match &err {
            DagError::Cycle { task, cycle } => {
                assert!([1, 2, 3].contains(task));
                let mut c = cycle.clone();
                c.sort();
                assert_eq!(c, vec![1, 2, 3]);
                // consecutive tasks of the cycle are edges
                for i in 0..cycle.len() {
                    let (a, b) = (cycle[i], cycle[(i + 1) % cycle.len()]);
                    assert!([(1, 2), (2, 3), (3, 1)].contains(&(a, b)), "{a}→{b}");
                }
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("cycle through task"));
    }
}
