//! The three DAG schedulers of paper 001 §14.6 as one per-PE state machine, [`DagPe`]:
//!
//! - **master–worker**: the master (PE 0) holds the predecessor counts of all tasks and a
//!   queue of ready tasks; it hands one ready task at a time to an idle worker
//!   (`DagTasks`), and a worker reports each finished task to it (`DagDone`), which is also
//!   its request for the next. With P > 1 the master runs no tasks itself (so the schedule
//!   has p − 1 workers); with P = 1 it runs them all.
//! - **random static**: task v belongs to PE σ(v) mod P, σ the seeded Feistel permutation of
//!   0..n (`assignment/permutation.rs`), computed by every PE alone. Each PE runs its ready
//!   tasks in the order they became ready; a finished task is reported (`DagDone`) to the
//!   owners of its successors, which count down their predecessors.
//! - **work stealing**: ownership and completions as random static, but an idle PE asks a
//!   random other PE (`Request`); a PE with ready tasks waiting hands the newest one over
//!   (`DagTasks`), else rejects.
//!
//! **Start.** Every PE holds the DAG from the run's entry point (`super::DagRun`). PE 0 holds
//! the root (a `DagTask`) and broadcasts it down the binary tree of PEs (`Root`, as fast
//! initialization does); a PE starts when the root reaches it. A message that arrives before
//! a PE's copy of the root waits until it does.
//!
//! **Time.** The driver tells the PE the time (`Clock::EveryTurn`: `handle_timeout(now)`) at
//! every turn and before every slice. A task starts with the slice that begins it and
//! busy-works its cost (units of virtual time in the simulator; `DagTask::unit_ns` ns of
//! spinning per unit on real machines). When a
//! slice finishes a task, its completion is held back until the next clock reading — the
//! slice's end, also in the simulator, which charges a slice only after it — so no successor
//! can learn of it early; then the finish time is recorded and the completion sent. Each PE
//! records (task, PE, start, finish) in its output; the result reduction gathers them at PE 0,
//! where `dag::schedule::analyse` checks the schedule.
//!
//! **Termination**: four-counter (the response tree is refused for DAGs): every `Root`,
//! `DagTasks` and `DagDone` is a counted piece, and a PE is idle when it runs nothing, holds no
//! ready task (the master: none queued) and has no message waiting for the root. As every
//! task of an acyclic graph becomes ready once its predecessors have run, quiescence means
//! every task has run.
//!
//! **Stop** (a run limit or the interrupt flag, `DagConfig`): the driver stops the PE after
//! its slice (`Protocol::stop`, flooded over the tree of PEs). A task the slice finished still
//! completes at the next clock reading, so the schedule loses none; the task running is
//! abandoned (not recorded), ready tasks are dropped, none starts after, and completions that
//! arrive later are only counted for termination.

use super::assignment::permutation::Permutation;
use super::pe::PeCore;
use super::polling::victim::pe_rng;
use super::{Clock, Message, PeId, Protocol, Step};
use crate::config::{Config, DagScheduler, StaticPermutation};
use crate::dag::{Dag, Placement, Schedule, TaskId};
use crate::piece::{Fresh, Piece};
use crate::task::Incumbent;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;
use std::sync::Arc;

/// The master of master–worker.
const MASTER: PeId = 0;

/// The task a PE is running.
#[derive(Debug, Clone, Copy)]
struct Running {
    task: TaskId,
    /// Its start (None until the slice that begins it).
    start: Option<u64>,
    /// Units of cost left.
    left: u64,
}

/// One PE of a DAG scheduler (module comment).
pub(crate) struct DagPe {
    core: PeCore,
    scheduler: DagScheduler,
    me: PeId,
    p: usize,
    delta_t: u64,
    seed: u64,
    /// The DAG, once the root has arrived (the run's DAG until then).
    dag: Option<Arc<Dag>>,
    run: Arc<Dag>,
    unit_ns: u64,
    /// Messages that arrived before the root.
    early: Vec<(PeId, Message)>,
    /// The last clock reading.
    clock: u64,
    running: Option<Running>,
    /// A task finished by the last slice, and its start: recorded and reported at the next
    /// clock reading.
    finished: Option<(TaskId, u64)>,
    /// Ready tasks this PE runs (or gives to thieves).
    ready: VecDeque<TaskId>,
    /// Predecessors not yet finished, for the tasks whose completions this PE counts (its
    /// own tasks; the master: all).
    waiting_for: Vec<u32>,
    /// Random static, work stealing: the permutation that gives each task its owner.
    owner: Option<Permutation>,
    /// Master–worker, at the master: ready tasks not handed out, and idle workers.
    queue: VecDeque<TaskId>,
    idle_workers: Vec<PeId>,
    /// Work stealing: a request is out; the PE's random generator.
    asking: bool,
    rng: Xoshiro256PlusPlus,
}

impl DagPe {
    /// PE `me` of the DAG run `run`; PE 0 passes the root, the run's `DagTask`; `fresh`
    /// makes the run's accumulators.
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &crate::protocol::Env,
        fresh: Fresh,
        run: super::DagRun,
        root: Option<Piece>,
    ) -> Self {
        let scheduler = run.scheduler;
        let mut pe = DagPe {
            core: PeCore::new(me, config, env, fresh, root.is_some()),
            scheduler,
            me,
            p: config.pes,
            delta_t: config.delta_t.max(1),
            seed: config.seed,
            dag: None,
            run: run.dag,
            unit_ns: run.unit_ns,
            early: Vec::new(),
            clock: 0,
            running: None,
            finished: None,
            ready: VecDeque::new(),
            waiting_for: Vec::new(),
            owner: None,
            queue: VecDeque::new(),
            idle_workers: Vec::new(),
            asking: false,
            rng: pe_rng(config.seed, me),
        };
        if let Some(root) = root {
            pe.core.broadcast_root(&root, PeCore::ROOT_RECORD);
            pe.start();
        }
        pe
    }

    /// The root arrived (or this is PE 0): learn the DAG, set up the counts and the first
    /// ready tasks, then handle what arrived early.
    fn start(&mut self) {
        let dag = self.run.clone();
        let n = dag.len();
        match self.scheduler {
            DagScheduler::MasterWorker => {
                if self.me == MASTER {
                    self.waiting_for = (0..n as TaskId)
                        .map(|v| dag.preds(v).len() as u32)
                        .collect();
                    self.queue = dag.sources().collect();
                    self.idle_workers = if self.p == 1 {
                        vec![MASTER]
                    } else {
                        (1..self.p).rev().collect()
                    };
                }
            }
            DagScheduler::RandomStatic | DagScheduler::WorkStealing => {
                let h = (n.max(2) as u64).next_power_of_two().trailing_zeros();
                let perm = Permutation::new(StaticPermutation::Feistel, h, self.seed)
                    .expect("Feistel permutations exist for every h");
                self.waiting_for = vec![0; n];
                for v in 0..n as TaskId {
                    if owner_of(&perm, v, n, self.p) == self.me {
                        self.waiting_for[v as usize] = dag.preds(v).len() as u32;
                        if dag.preds(v).is_empty() {
                            self.ready.push_back(v);
                        }
                    }
                }
                self.owner = Some(perm);
            }
        }
        self.dag = Some(dag);
        self.dispatch();
        for (from, message) in std::mem::take(&mut self.early) {
            self.receive(from, message);
        }
    }

    /// The PE that owns task `v` (random static, work stealing).
    fn owner(&self, v: TaskId) -> PeId {
        let n = self.waiting_for.len();
        owner_of(
            self.owner.as_ref().expect("an owner permutation"),
            v,
            n,
            self.p,
        )
    }

    /// Master–worker, at the master: hand ready tasks to idle workers.
    fn dispatch(&mut self) {
        while !self.queue.is_empty() && !self.idle_workers.is_empty() {
            let (v, w) = (
                self.queue.pop_front().unwrap(),
                self.idle_workers.pop().unwrap(),
            );
            if w == self.me {
                self.ready.push_back(v);
            } else {
                self.send_tasks(w, vec![v]);
            }
        }
    }

    fn send_tasks(&mut self, to: PeId, tasks: Vec<TaskId>) {
        self.core
            .send_piece(to, PeCore::ROOT_RECORD, |token| Message::DagTasks {
                tasks,
                token,
            });
    }

    fn send_done(&mut self, to: PeId, tasks: Vec<TaskId>) {
        self.core
            .send_piece(to, PeCore::ROOT_RECORD, |token| Message::DagDone {
                tasks,
                token,
            });
    }

    /// Task `v` finished here at `now`: record it and tell whoever counts its successors.
    fn complete(&mut self, v: TaskId, start: u64, now: u64) {
        self.core
            .output_mut()
            .downcast_mut::<Schedule>()
            .0
            .push(Placement {
                task: v,
                pe: self.me as u32,
                start,
                finish: now,
            });
        if self.core.is_stopped() {
            // The run is stopping: the task is recorded, its successors start nowhere.
            return;
        }
        match self.scheduler {
            DagScheduler::MasterWorker => {
                if self.me == MASTER {
                    self.master_done(v, MASTER);
                } else {
                    self.send_done(MASTER, vec![v]);
                }
            }
            DagScheduler::RandomStatic | DagScheduler::WorkStealing => {
                let dag = self.dag.clone().expect("the DAG");
                let mut told: Vec<PeId> = Vec::new();
                for &s in dag.succs(v) {
                    let o = self.owner(s);
                    if o == self.me {
                        if self.count_down(s) {
                            self.ready.push_back(s);
                        }
                    } else if !told.contains(&o) {
                        told.push(o);
                        self.send_done(o, vec![v]);
                    }
                }
            }
        }
    }

    /// A predecessor of `s` (counted here) finished; `s` may become ready.
    fn count_down(&mut self, s: TaskId) -> bool {
        let c = &mut self.waiting_for[s as usize];
        debug_assert!(*c > 0, "task {s} counted down below zero");
        *c -= 1;
        *c == 0
    }

    /// Master–worker, at the master: worker `w` finished `v`.
    fn master_done(&mut self, v: TaskId, w: PeId) {
        let dag = self.dag.clone().expect("the DAG");
        for &s in dag.succs(v) {
            if self.count_down(s) {
                self.queue.push_back(s);
            }
        }
        self.idle_workers.push(w);
        self.dispatch();
    }

    /// Random static, work stealing: `v`, finished elsewhere, is a predecessor of some of
    /// this PE's tasks.
    fn remote_done(&mut self, v: TaskId) {
        let dag = self.dag.clone().expect("the DAG");
        for &s in dag.succs(v) {
            if self.owner(s) == self.me && self.count_down(s) {
                self.ready.push_back(s);
            }
        }
    }

    /// Nothing to run, nothing held, nothing waiting for the root.
    fn idle(&self) -> bool {
        self.dag.is_some()
            && self.running.is_none()
            && self.finished.is_none()
            && self.ready.is_empty()
            && self.queue.is_empty()
            && self.early.is_empty()
    }

    /// Drop all work (early stop).
    fn drop_work(&mut self) {
        self.running = None;
        self.ready.clear();
        self.queue.clear();
    }
}

/// The owner of task `v` of `n` on `p` PEs: σ(v) mod p.
fn owner_of(perm: &Permutation, v: TaskId, n: usize, p: usize) -> PeId {
    (perm.apply_below(v as u64, n as u64) % p as u64) as PeId
}

impl Protocol for DagPe {
    fn step(&mut self) -> Step {
        if self.running.is_none() && self.finished.is_none() && !self.core.is_stopped() {
            if let Some(v) = self.ready.pop_front() {
                let left = self.dag.as_ref().expect("the DAG").cost(v);
                self.running = Some(Running {
                    task: v,
                    start: None,
                    left,
                });
            }
        }
        let has_work = self.running.is_some() || self.finished.is_some();
        if !has_work
            && self.scheduler == DagScheduler::WorkStealing
            && self.p > 1
            && self.dag.is_some()
            && !self.asking
            && !self.core.is_finishing()
            && !self.core.is_stopped()
        {
            let mut victim = self.rng.random_range(0..self.p - 1);
            if victim >= self.me {
                victim += 1;
            }
            self.asking = true;
            self.core.counters_mut().requests_sent += 1;
            self.core.send(victim, Message::Request);
        }
        let idle = self.idle();
        match self.core.step(has_work, idle) {
            Step::Work { .. } => Step::Work {
                budget: self.delta_t,
            },
            other => other,
        }
    }

    fn work(&mut self, budget: u64, _incumbent: &dyn Incumbent) -> u64 {
        let Some(run) = self.running.as_mut() else {
            return 0;
        };
        let start = *run.start.get_or_insert(self.clock);
        let units = run.left.min(budget);
        crate::dag::task::spin(units, self.unit_ns);
        run.left -= units;
        let task = run.task;
        if run.left == 0 {
            self.running = None;
            self.finished = Some((task, start));
        }
        let c = self.core.counters_mut();
        c.work_units += units;
        c.slices += 1;
        units
    }

    fn receive(&mut self, from: PeId, message: Message) {
        if self.dag.is_none() && !matches!(message, Message::Root { .. }) {
            self.early.push((from, message));
            return;
        }
        match message {
            Message::Root { task, token } => {
                self.core.receive_piece(from, token);
                self.core.broadcast_root(&task, PeCore::ROOT_RECORD);
                self.start();
            }
            Message::DagTasks { tasks, token } => {
                self.core.receive_piece(from, token);
                self.asking = false;
                if self.core.is_stopped() {
                    return;
                }
                self.ready.extend(tasks);
            }
            Message::DagDone { tasks, token } => {
                self.core.receive_piece(from, token);
                if self.core.is_stopped() {
                    return;
                }
                for v in tasks {
                    match self.scheduler {
                        DagScheduler::MasterWorker => self.master_done(v, from),
                        _ => self.remote_done(v),
                    }
                }
            }
            Message::Request => {
                self.core.counters_mut().requests_received += 1;
                // Hand over the newest ready task waiting here, but only one this PE would
                // not start next anyway: while it runs a task, or when it holds two or more.
                // (An idle PE giving away its only ready task let two idle PEs bounce one
                // task between them a million times on threads.)
                let spare =
                    self.running.is_some() || self.finished.is_some() || self.ready.len() > 1;
                match self.ready.pop_back() {
                    Some(v) if spare && !self.core.is_stopped() => self.send_tasks(from, vec![v]),
                    other => {
                        if let Some(v) = other {
                            self.ready.push_back(v);
                        }
                        self.core.counters_mut().rejections_sent += 1;
                        self.core.send(from, Message::Reject);
                    }
                }
            }
            Message::Reject => {
                self.core.counters_mut().rejections_received += 1;
                self.asking = false;
            }
            other => unreachable!("a DAG scheduler got a message of another balancer: {other:?}"),
        }
    }

    fn core(&self) -> &PeCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut PeCore {
        &mut self.core
    }

    fn is_busy(&self) -> bool {
        self.running.is_some() || self.finished.is_some() || !self.ready.is_empty()
    }

    fn stop(&mut self, from: Option<PeId>) {
        if self.core.begin_stop(from) {
            self.drop_work();
        }
    }

    fn is_idle(&self) -> bool {
        self.idle()
    }

    fn clock(&self) -> Clock {
        Clock::EveryTurn
    }

    fn handle_timeout(&mut self, now: u64) {
        self.clock = now;
        if let Some((v, start)) = self.finished.take() {
            self.complete(v, start, now);
        }
    }
}
