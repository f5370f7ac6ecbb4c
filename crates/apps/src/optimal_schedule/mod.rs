//! Optimal schedules of small task DAGs by branch-and-bound, run on treesplit itself
//! (chapter 14 §14.6: minimizing the makespan is NP-hard, so greedy schedulers are judged
//! against the optimum on DAGs of up to a few dozen tasks, e.g. Fig. 14.7).
//!
//! **Search space.** Every feasible schedule can be shifted left until each task starts at
//! max(finish of its predecessors, finish of the task before it on its PE) without raising
//! the makespan (a *semi-active* schedule). Listing such a schedule's tasks by start time
//! and placing each, in that order, on its PE at that earliest time rebuilds it. So the
//! search places one task at a time — any task whose predecessors are placed, on any PE —
//! and only keeps sequences whose (start, topological rank) increase: each semi-active
//! schedule is then built by exactly one sequence per PE labelling. PEs are identical, so of
//! several PEs free at the same time only the lowest-numbered one is tried.
//!
//! **Bounds.** A partial schedule is pruned when it cannot beat the incumbent (offered as
//! −makespan; treesplit maximises):
//! - every unplaced task starts no earlier than the last start and its predecessors'
//!   earliest finishes, and is followed by its bottom level (the longest path from it to an
//!   exit): max over tasks of earliest start + bottom level;
//! - the PEs' remaining capacity: Σ_PE max(free at, last start) plus the unplaced work,
//!   divided by p and rounded up.
//!
//! The incumbent starts at the makespan of the critical-path list schedule (highest bottom
//! level first) plus one, so the search itself always returns an optimal schedule.
//!
//! **Pieces.** A piece is a depth-first stack of levels, each holding the partial schedule it
//! extends and its candidate placements, best first; a split hands over the upper half of
//! the shallowest level with two or more candidates left (paper 001 §14.5.4). A work unit
//! is one placement tried.
//!
//! **On the wire** (paper 002 §6.1, [`treesplit::task::shared`]) a piece other than the root carries
//! no instance and no partial schedule: the instance's digest, the placements (task, PE)
//! that lead from the empty schedule to its first level, and for each level the range of
//! that level's sorted candidates it holds. Semi-active schedules are built in increasing
//! (start, rank) order, so a partial schedule's placements sorted that way are its path,
//! and each deeper level extends the one above by the candidate that one tried last. The
//! receiver replays the path (checking every step), so a piece costs O(h) bytes, not the
//! O(n + p) words of a partial schedule plus the instance.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;
use treesplit::task::shared::{Content, Sent, Shared};
use treesplit::{Context, Outcome, Task};

/// The most tasks an instance may have (placed sets are 64-bit masks).
pub const MAX_TASKS: usize = 64;
/// The most PEs an instance may have.
pub const MAX_PES: usize = 64;

/// A DAG to schedule on `pes` identical PEs: task costs and predecessor lists.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Instance {
    costs: Vec<u64>,
    /// Predecessors of each task as a bit mask.
    preds: Vec<u64>,
    /// Longest path from each task to an exit, the task's own cost included.
    bottom: Vec<u64>,
    /// Rank of each task in a fixed topological order.
    rank: Vec<u32>,
    pes: usize,
}

/// Pieces name the instance by [`Instance::id`].
impl Content for Instance {
    fn digest(&self) -> u64 {
        self.id()
    }
}

impl Instance {
    /// The digest pieces name the instance by (costs, predecessors, PEs).
    pub fn id(&self) -> u64 {
        treesplit::task::shared::digest(
            self.costs
                .iter()
                .chain(&self.preds)
                .copied()
                .chain([self.pes as u64]),
        )
    }

    /// A checked instance: at most [`MAX_TASKS`] tasks, 1..=[`MAX_PES`] PEs, predecessors in
    /// range, no cycle, and costs whose sum fits in 62 bits.
    pub fn new(costs: Vec<u64>, preds: &[Vec<usize>], pes: usize) -> Result<Self, String> {
        let n = costs.len();
        if n == 0 || n > MAX_TASKS {
            return Err(format!(
                "optimal schedules are searched for DAGs of 1 to {MAX_TASKS} tasks, got {n}"
            ));
        }
        if pes == 0 || pes > MAX_PES {
            return Err(format!(
                "optimal schedules are searched for 1 to {MAX_PES} PEs, got {pes}"
            ));
        }
        if preds.len() != n {
            return Err(format!("{} predecessor lists for {n} tasks", preds.len()));
        }
        let total = costs
            .iter()
            .try_fold(0u64, |s, &c| s.checked_add(c))
            .filter(|&s| s < 1 << 62)
            .ok_or("the task costs add up to more than 2^62")?;
        let _ = total;
        let mut mask = vec![0u64; n];
        for (v, list) in preds.iter().enumerate() {
            for &u in list {
                if u >= n {
                    return Err(format!(
                        "task {v} has predecessor {u}, but there are {n} tasks"
                    ));
                }
                if u == v {
                    return Err(format!("task {v} is its own predecessor"));
                }
                mask[v] |= 1 << u;
            }
        }
        // Kahn's algorithm gives the topological ranks and finds cycles.
        let mut rank = vec![u32::MAX; n];
        let mut placed = 0u64;
        for r in 0..n {
            let v = (0..n)
                .find(|&v| placed >> v & 1 == 0 && mask[v] & !placed == 0)
                .ok_or_else(|| {
                    let v = (0..n).find(|&v| placed >> v & 1 == 0).unwrap_or(0);
                    format!("the DAG has a cycle (task {v} never becomes ready)")
                })?;
            rank[v] = r as u32;
            placed |= 1 << v;
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&v| std::cmp::Reverse(rank[v]));
        let mut bottom = costs.clone();
        for &v in &order {
            let below = (0..n)
                .filter(|&w| mask[w] >> v & 1 == 1)
                .map(|w| bottom[w])
                .max()
                .unwrap_or(0);
            bottom[v] = costs[v] + below;
        }
        Ok(Instance {
            costs,
            preds: mask,
            bottom,
            rank,
            pes,
        })
    }

    /// Number of tasks.
    pub fn tasks(&self) -> usize {
        self.costs.len()
    }

    /// The critical path length (the longest path's cost).
    pub fn critical_path(&self) -> u64 {
        self.bottom.iter().copied().max().unwrap_or(0)
    }

    /// The work W, the sum of the costs.
    pub fn work(&self) -> u64 {
        self.costs.iter().sum()
    }

    /// The trivial lower bound max(⌈W/p⌉, critical path).
    pub fn lower_bound(&self) -> u64 {
        self.work()
            .div_ceil(self.pes as u64)
            .max(self.critical_path())
    }

    /// The critical-path list schedule: whenever a PE is free, it starts the ready task with
    /// the highest bottom level (ties: lowest number). A greedy schedule, so Theorem 14.3
    /// bounds it.
    pub fn list_schedule(&self) -> Schedule {
        let mut state = State::start(self);
        while state.placed.count_ones() as usize != self.tasks() {
            let (v, pe, start) = state
                .candidates(self)
                .into_iter()
                .min_by_key(|&(v, pe, start)| {
                    (start, std::cmp::Reverse(self.bottom[v as usize]), v, pe)
                })
                .expect("a ready task");
            state.place(self, v as usize, pe as usize, start);
        }
        state.schedule()
    }

    /// Check a schedule: every task placed once, PEs in range, no overlap on a PE and no task
    /// before its predecessors finish. Returns the makespan.
    pub fn check(&self, schedule: &Schedule) -> Result<u64, String> {
        let n = self.tasks();
        if schedule.placements.len() != n {
            return Err(format!(
                "{} placements for {n} tasks",
                schedule.placements.len()
            ));
        }
        let finish = |v: usize| schedule.placements[v].1 + self.costs[v];
        for (v, &(pe, start)) in schedule.placements.iter().enumerate() {
            if pe as usize >= self.pes {
                return Err(format!("task {v} on PE {pe} of {}", self.pes));
            }
            for u in 0..n {
                if self.preds[v] >> u & 1 == 1 && finish(u) > start {
                    return Err(format!(
                        "task {v} starts at {start} before its predecessor {u} finishes at {}",
                        finish(u)
                    ));
                }
                let (qe, s) = schedule.placements[u];
                if u != v && qe == pe && s < finish(v) && start < finish(u) {
                    let busy = self.costs[u] > 0 && self.costs[v] > 0;
                    if busy {
                        return Err(format!("tasks {u} and {v} overlap on PE {pe}"));
                    }
                }
            }
        }
        Ok((0..n).map(finish).max().unwrap_or(0))
    }
}

/// A schedule: for each task, its PE and start time.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// The makespan (`None`: no schedule found).
    pub makespan: Option<u64>,
    /// (PE, start) of each task, by task number.
    pub placements: Vec<(u32, u64)>,
}

impl Outcome for Schedule {
    /// Keep the shorter schedule (ties: the smaller placement list, so any merge order
    /// gives the same result).
    fn merge(&mut self, other: Self) {
        let key = |s: &Schedule| (s.makespan.unwrap_or(u64::MAX), s.placements.clone());
        if other.makespan.is_some() && (self.makespan.is_none() || key(&other) < key(self)) {
            *self = other;
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.makespan {
            Some(m) => write!(f, "makespan {m}"),
            None => f.write_str("no schedule"),
        }
    }
}

/// A partial schedule.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct State {
    placed: u64,
    /// (PE, start) of the placed tasks.
    placements: Vec<(u32, u64)>,
    /// When each PE is free.
    free: Vec<u64>,
    /// Start and rank of the last placement: later placements must come after it.
    last: (u64, u32),
}

impl State {
    fn start(inst: &Instance) -> State {
        State {
            placed: 0,
            placements: vec![(0, 0); inst.tasks()],
            free: vec![0; inst.pes],
            last: (0, 0),
        }
    }

    fn finish(&self, inst: &Instance, v: usize) -> u64 {
        self.placements[v].1 + inst.costs[v]
    }

    fn makespan(&self, inst: &Instance) -> u64 {
        (0..inst.tasks())
            .filter(|&v| self.placed >> v & 1 == 1)
            .map(|v| self.finish(inst, v))
            .max()
            .unwrap_or(0)
    }

    /// Placements (task, PE, start) that extend this schedule in (start, rank) order.
    fn candidates(&self, inst: &Instance) -> Vec<(u32, u32, u64)> {
        let mut out = Vec::new();
        for v in 0..inst.tasks() {
            if self.placed >> v & 1 == 1 || inst.preds[v] & !self.placed != 0 {
                continue;
            }
            let ready = (0..inst.tasks())
                .filter(|&u| inst.preds[v] >> u & 1 == 1)
                .map(|u| self.finish(inst, u))
                .max()
                .unwrap_or(0);
            if inst.costs[v] == 0 {
                // A task of cost 0 occupies no PE: it runs when it is ready.
                if (ready, inst.rank[v]) > self.last || self.placed == 0 {
                    out.push((v as u32, 0, ready));
                }
                continue;
            }
            for pe in 0..inst.pes {
                if self.free[..pe].contains(&self.free[pe]) {
                    continue; // an identical PE free at the same time was tried
                }
                let start = ready.max(self.free[pe]);
                if (start, inst.rank[v]) > self.last || self.placed == 0 {
                    out.push((v as u32, pe as u32, start));
                }
            }
        }
        out
    }

    fn place(&mut self, inst: &Instance, v: usize, pe: usize, start: u64) {
        self.placed |= 1 << v;
        self.placements[v] = (pe as u32, start);
        if inst.costs[v] > 0 {
            self.free[pe] = start + inst.costs[v];
        }
        self.last = (start, inst.rank[v]);
    }

    /// A lower bound on the makespan of every completion of this partial schedule.
    fn lower_bound(&self, inst: &Instance) -> u64 {
        let n = inst.tasks();
        let floor = self.last.0;
        let mut bound = self.makespan(inst);
        // Earliest starts of the unplaced tasks, in topological order.
        let mut order: Vec<usize> = (0..n).filter(|&v| self.placed >> v & 1 == 0).collect();
        order.sort_by_key(|&v| inst.rank[v]);
        let mut earliest_finish: Vec<u64> = (0..n)
            .map(|v| {
                if self.placed >> v & 1 == 1 {
                    self.finish(inst, v)
                } else {
                    0
                }
            })
            .collect();
        let mut unplaced_work = 0;
        for &v in &order {
            let start = (0..n)
                .filter(|&u| inst.preds[v] >> u & 1 == 1)
                .map(|u| earliest_finish[u])
                .max()
                .unwrap_or(0)
                .max(floor);
            earliest_finish[v] = start + inst.costs[v];
            bound = bound.max(start + inst.bottom[v]);
            unplaced_work += inst.costs[v];
        }
        let capacity: u64 = self.free.iter().map(|&f| f.max(floor)).sum();
        bound.max((capacity + unplaced_work).div_ceil(inst.pes as u64))
    }

    fn schedule(&self) -> Schedule {
        Schedule {
            makespan: None,
            placements: self.placements.clone(),
        }
    }
}

/// One level of the depth-first search: a partial schedule and its candidate placements.
#[derive(Debug, Clone, Serialize)]
struct Level {
    state: State,
    candidates: Vec<(u32, u32, u64)>,
    next: usize,
    /// Where `candidates[0]` stands in the state's whole sorted candidate list (a level
    /// holds a contiguous range of it: splits hand over upper parts).
    #[serde(skip)]
    offset: usize,
}

/// A piece of the search for an optimal schedule.
#[derive(Debug, Clone)]
pub struct OptimalSchedule {
    inst: Shared<Instance>,
    levels: Vec<Level>,
    /// The list schedule's makespan plus one: no schedule worse than the list schedule.
    cap: u64,
}

/// A piece on the wire: the instance (whole for the root, else its digest), the path of
/// placements (task, PE) to the first level's partial schedule, and per level the range
/// (offset, length, next) of its sorted candidates.
#[derive(Serialize, Deserialize)]
struct Wire {
    instance: Sent<Instance>,
    cap: u64,
    path: Vec<(u8, u8)>,
    levels: Vec<(u32, u32, u32)>,
}

impl Serialize for OptimalSchedule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let root = self.levels.len() == 1
            && self.levels[0].state.placed == 0
            && self.levels[0].offset == 0;
        let first = self.levels.first().map(|l| &l.state);
        let mut path: Vec<(u8, u8)> = Vec::new();
        if let Some(state) = first {
            let mut placed: Vec<usize> = (0..self.inst.tasks())
                .filter(|&v| state.placed >> v & 1 == 1)
                .collect();
            placed.sort_by_key(|&v| (state.placements[v].1, self.inst.rank[v]));
            path = placed
                .into_iter()
                .map(|v| (v as u8, state.placements[v].0 as u8))
                .collect();
        }
        Wire {
            instance: if root {
                self.inst.whole()
            } else {
                self.inst.by_digest()
            },
            cap: self.cap,
            path,
            levels: self
                .levels
                .iter()
                .map(|l| (l.offset as u32, l.candidates.len() as u32, l.next as u32))
                .collect(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for OptimalSchedule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = Wire::deserialize(d)?;
        OptimalSchedule::from_wire(w).map_err(serde::de::Error::custom)
    }
}

impl OptimalSchedule {
    /// Rebuild a piece from its path, checking every step.
    fn from_wire(w: Wire) -> Result<Self, String> {
        let inst = w
            .instance
            .receive()
            .map_err(|e| format!("DAG schedule {e}"))?;
        let bad = |what: &str| format!("a malformed schedule piece: {what}");
        let mut state = State::start(&inst);
        for &(v, pe) in &w.path {
            let &(_, _, start) = state
                .candidates(&inst)
                .iter()
                .find(|&&(cv, cpe, _)| (cv, cpe) == (u32::from(v), u32::from(pe)))
                .ok_or_else(|| bad("a placement on its path is not a candidate"))?;
            state.place(&inst, v.into(), pe.into(), start);
        }
        let mut levels: Vec<Level> = Vec::with_capacity(w.levels.len());
        for &(offset, len, next) in &w.levels {
            if let Some(above) = levels.last() {
                let &(v, pe, start) = above
                    .next
                    .checked_sub(1)
                    .and_then(|i| above.candidates.get(i))
                    .ok_or_else(|| bad("a level below one that tried nothing"))?;
                state = above.state.clone();
                state.place(&inst, v as usize, pe as usize, start);
            }
            let (offset, len, next) = (offset as usize, len as usize, next as usize);
            let all = sorted(&inst, state.candidates(&inst));
            let candidates = all
                .get(offset..offset.saturating_add(len))
                .ok_or_else(|| bad("a candidate range out of bounds"))?
                .to_vec();
            if next > len {
                return Err(bad("a level past its end"));
            }
            levels.push(Level {
                state: state.clone(),
                candidates,
                next,
                offset,
            });
        }
        Ok(OptimalSchedule {
            inst,
            levels,
            cap: w.cap,
        })
    }

    /// Bytes of this piece as pieces travelled before they became paths (the whole instance
    /// and every level's partial schedule and candidates): for measuring what §6.1 saves.
    pub fn inline_bytes(&self) -> usize {
        postcard::experimental::serialized_size(&(&*self.inst, &self.levels, self.cap)).unwrap_or(0)
    }
}

impl OptimalSchedule {
    /// The whole search for `inst`.
    pub fn new(inst: Instance) -> Self {
        let list = inst.list_schedule();
        let cap = inst.check(&list).expect("the list schedule is feasible") + 1;
        let state = State::start(&inst);
        let candidates = sorted(&inst, state.candidates(&inst));
        let inst = Arc::new(inst);
        OptimalSchedule {
            levels: vec![Level {
                state,
                candidates,
                next: 0,
                offset: 0,
            }],
            inst: Shared::from_arc(inst),
            cap,
        }
    }
}

/// Candidates best first: earliest start, then highest bottom level.
fn sorted(inst: &Instance, mut c: Vec<(u32, u32, u64)>) -> Vec<(u32, u32, u64)> {
    c.sort_by_key(|&(v, pe, start)| (start, std::cmp::Reverse(inst.bottom[v as usize]), v, pe));
    c
}

impl Task for OptimalSchedule {
    type Output = Schedule;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Schedule>) -> u64 {
        let inst = Arc::clone(self.inst.arc());
        let mut units = 0;
        while units < budget {
            let Some(level) = self.levels.last_mut() else {
                break;
            };
            let Some(&(v, pe, start)) = level.candidates.get(level.next) else {
                self.levels.pop();
                continue;
            };
            level.next += 1;
            units += 1;
            let best = if ctx.best() == i64::MIN {
                self.cap
            } else {
                self.cap.min(ctx.best().unsigned_abs())
            };
            let mut state = level.state.clone();
            state.place(&inst, v as usize, pe as usize, start);
            if state.placed.count_ones() as usize == inst.tasks() {
                let makespan = state.makespan(&inst);
                if makespan < best && ctx.offer(-(makespan as i64)) {
                    let mut s = state.schedule();
                    s.makespan = Some(makespan);
                    ctx.output().merge(s);
                }
                continue;
            }
            if state.lower_bound(&inst) >= best {
                continue;
            }
            let candidates = sorted(&inst, state.candidates(&inst));
            self.levels.push(Level {
                state,
                candidates,
                next: 0,
                offset: 0,
            });
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        let last = self.levels.len().checked_sub(1)?;
        let (i, level) = self
            .levels
            .iter_mut()
            .enumerate()
            .find(|(_, l)| l.next < l.candidates.len())?;
        let left = level.candidates.len() - level.next;
        if left < 2 && i == last {
            return None;
        }
        let from = if left >= 2 {
            level.next + left / 2
        } else {
            level.next
        };
        let given = Level {
            state: level.state.clone(),
            candidates: level.candidates.split_off(from),
            next: 0,
            offset: level.offset + from,
        };
        Some(OptimalSchedule {
            inst: self.inst.clone(),
            levels: vec![given],
            cap: self.cap,
        })
    }

    fn is_empty(&self) -> bool {
        self.levels.iter().all(|l| l.next >= l.candidates.len())
    }
}

/// The instance of scheduling `dag` on `pes` PEs.
pub fn from_dag(dag: &treesplit::dag::Dag, pes: usize) -> Result<Instance, String> {
    let preds: Vec<Vec<usize>> = (0..dag.len())
        .map(|v| dag.preds(v as _).iter().map(|&u| u as usize).collect())
        .collect();
    Instance::new(dag.costs().to_vec(), &preds, pes)
}

#[cfg(test)]
mod tests;
