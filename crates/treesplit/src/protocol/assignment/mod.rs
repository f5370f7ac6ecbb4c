//! The static and semi-static balancers of paper 001 ch. 14 and papers 003–004, which share
//! out a *bag of independent jobs* cut from the root (`task::bag`) instead of splitting on
//! demand:
//!
//! - [`share`]: every PE derives its own jobs without communication — block, round-robin,
//!   random placement, and randomized static with pseudorandom permutations ([`permutation`]);
//! - [`master_worker`]: PE 0 deals out bundles to idle workers;
//! - [`prefix_sum`]: a parallel prefix sum over estimated job sizes decides the assignment.
//!
//! All of them start the same way: PE 0 broadcasts the root down the binary tree of PEs
//! (paper 004 Fig. 1, "Broadcast R to each PE"), and they end with the same termination
//! detection and result reduction as the dynamic balancers. [`Core`] is that shared part: the
//! broadcast, the queue of jobs a PE works through in slices of Δt, and the bookkeeping that
//! tells termination detection when a received piece (the root copy, a bundle, a shipped
//! job) is done.

pub mod master_worker;
pub mod permutation;
pub mod prefix_sum;
pub mod share;

use super::termination::{Local, Termination};
use super::{Costs, Message, PeCounters, PeId};
use crate::config::Config;
use crate::task::{Context, Incumbent, Task};
use std::collections::{HashMap, VecDeque};

/// A job to work on, with its generation and the record of the piece it belongs to.
#[derive(Debug)]
pub struct Job<T> {
    /// The job.
    pub task: T,
    /// Splits between the root and the job.
    pub generation: u32,
    /// The termination record it belongs to.
    pub record: u64,
}

/// What every static balancer's PE has: the root copy, its queue of jobs, the result
/// accumulator, termination detection and the counters.
pub struct Core<T: Task> {
    /// This PE.
    pub me: PeId,
    /// The number of PEs.
    pub p: usize,
    /// The number of jobs m of the bag.
    pub m: u64,
    delta_t: u64,
    /// The copy of the root, once it arrived (PE 0: from the start).
    pub root: Option<T>,
    /// The record the root copy is kept under.
    pub root_record: u64,
    /// Jobs waiting to be worked on; the front one is worked on.
    pub jobs: VecDeque<Job<T>>,
    /// Jobs held per record; a record is finished when its count drops to zero and it is
    /// not `producing`.
    held: HashMap<u64, u64>,
    /// The root record may still produce jobs (the balancer has not placed all of its share).
    pub producing: bool,
    /// The balancer's set-up (cutting jobs from the root copy) is due in the next work slice:
    /// done there rather than on the root's arrival, so that the copies for the children
    /// leave first and the splits are charged as work time.
    pub setup_due: bool,
    /// The PE's result accumulator.
    pub output: T::Output,
    out: VecDeque<(PeId, Message<T>)>,
    /// Termination detection.
    pub termination: Termination<T::Output>,
    /// The counters.
    pub counters: PeCounters,
    /// Early stop: jobs are dropped and no more are taken.
    pub stopped: bool,
    costs: Costs,
}

impl<T: Task> Core<T> {
    /// PE `me`'s core; PE 0 passes the root and, with `broadcast`, sends copies down the tree.
    pub fn new(me: PeId, config: &Config, root: Option<T>, broadcast: bool) -> Self {
        let root = root.filter(|r| !r.is_empty());
        let holds_root = root.is_some();
        let mut core = Core {
            me,
            p: config.pes,
            m: config.jobs().expect("a validated static configuration"),
            delta_t: config.delta_t.max(1),
            root: None,
            root_record: Termination::<T::Output>::ROOT_RECORD,
            jobs: VecDeque::new(),
            held: HashMap::new(),
            producing: false,
            setup_due: false,
            output: T::Output::default(),
            out: VecDeque::new(),
            termination: Termination::new(config.termination, me, config.pes, holds_root),
            counters: PeCounters::default(),
            stopped: false,
            costs: Costs::default(),
        };
        if let Some(root) = root {
            if broadcast {
                core.take_root(root, Termination::<T::Output>::ROOT_RECORD);
            } else {
                // The balancer keeps the root and cuts jobs from it as it goes (master–worker).
                core.root = Some(root);
                core.producing = true;
            }
        }
        core
    }

    /// Keep the root copy (under `record`) and pass copies to the children in the binary tree
    /// of PEs; counted as work messages, so termination waits for them.
    fn take_root(&mut self, root: T, record: u64) {
        for child in [2 * self.me + 1, 2 * self.me + 2] {
            if child < self.p {
                self.counters.pieces_sent += 1;
                let token = self.termination.on_piece_sent(record);
                self.send(
                    child,
                    Message::Root {
                        task: root.clone(),
                        token,
                    },
                );
            }
        }
        self.root = Some(root);
        self.root_record = record;
        self.producing = true;
        self.setup_due = true;
    }

    /// True (once) when the balancer's set-up is due: call it from `work`.
    pub fn take_setup(&mut self) -> bool {
        std::mem::take(&mut self.setup_due)
    }

    /// Count `n` splits (and charge them as costs).
    pub fn count_splits(&mut self, n: u64) {
        self.counters.splits += n;
        self.costs.splits += n;
    }

    /// The costs since the last call.
    pub fn take_costs(&mut self) -> Costs {
        std::mem::take(&mut self.costs)
    }

    /// The jobs of PE `i`'s consecutive block, ⌊i·m/P⌋..⌊(i+1)·m/P⌋.
    pub fn block(&self, i: PeId) -> std::ops::Range<u64> {
        let start = |i: usize| (u128::from(self.m) * i as u128 / self.p as u128) as u64;
        start(i)..start(i + 1)
    }

    /// Handle a `Root` message: keep the copy and forward it; the set-up follows in `work`.
    pub fn receive_root(&mut self, from: PeId, task: T, token: u64) {
        self.counters.pieces_received += 1;
        let record = self.termination.on_piece_received(from, token);
        self.take_root(task, record);
    }

    /// Queue job `task` under `record` (empty jobs are done at once).
    pub fn push_job(&mut self, task: T, generation: u32, record: u64) {
        self.counters.max_generation = self.counters.max_generation.max(generation);
        if task.is_empty() || self.stopped {
            return;
        }
        *self.held.entry(record).or_default() += 1;
        self.jobs.push_back(Job {
            task,
            generation,
            record,
        });
    }

    /// Job `j` of the bag, cut from the root copy, queued under the root record; counts the
    /// splits that made it.
    pub fn generate(&mut self, j: u64) {
        let root = self
            .root
            .as_ref()
            .expect("jobs are generated after the root arrived");
        if let Some((task, generation)) = crate::task::bag::job(root, self.m, j) {
            self.count_splits(u64::from(generation));
            let record = self.root_record;
            self.push_job(task, generation, record);
        }
    }

    /// The balancer has placed its whole share: the root record finishes once its jobs do.
    pub fn done_producing(&mut self) {
        self.producing = false;
        self.root = None;
        self.finish_if_complete(self.root_record);
    }

    /// A piece received under `record` holds no jobs (an empty bundle): finish it.
    pub fn finish_if_complete(&mut self, record: u64) {
        let held = self.held.get(&record).copied().unwrap_or(0);
        if held == 0 && !(self.producing && record == self.root_record) {
            self.held.remove(&record);
            self.termination.on_piece_finished(record, &mut self.output);
            // Completing a record may send a response, or (PE 0's root) the end.
            self.drain_termination();
        }
    }

    /// Send a whole job to PE `to` as a `Work` message.
    pub fn ship(&mut self, to: PeId, task: T, generation: u32) {
        let token = self.termination.on_piece_sent(self.root_record);
        self.counters.pieces_sent += 1;
        self.send(
            to,
            Message::Work {
                task,
                generation,
                token,
            },
        );
    }

    /// Work on the front job for at most Δt units (the budget given).
    pub fn work(&mut self, budget: u64, incumbent: &dyn Incumbent) -> u64 {
        let Some(job) = self.jobs.front_mut() else {
            return 0;
        };
        let mut ctx = Context::new(&mut self.output, incumbent, self.me);
        let units = job.task.work(budget, &mut ctx);
        let stop = ctx.stop_requested();
        self.counters.work_units += units;
        self.counters.slices += 1;
        if stop {
            self.begin_stop(None);
        } else if job.task.is_empty() {
            let record = job.record;
            self.jobs.pop_front();
            let held = self.held.get_mut(&record).expect("a held job's record");
            *held -= 1;
            self.finish_if_complete(record);
            self.advance_termination();
        } else {
            assert!(
                units > 0 || budget == 0,
                "PE {}: a job made no progress but is not empty (Task::work must return at least 1)",
                self.me
            );
        }
        units
    }

    /// Early stop (from `from`, or found here): pass it on over the tree of PEs once, drop
    /// every job and the rest of the share (each piece finished for termination detection).
    pub fn begin_stop(&mut self, from: Option<PeId>) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        for to in super::tree_neighbours(self.me, self.p) {
            if Some(to) != from {
                self.send(to, Message::Stop);
            }
        }
        let records: Vec<u64> = self.jobs.drain(..).map(|j| j.record).collect();
        for record in records {
            if let Some(held) = self.held.get_mut(&record) {
                *held -= 1;
            }
            self.finish_if_complete(record);
        }
        self.setup_due = false;
        if self.producing {
            self.done_producing();
        }
        self.advance_termination();
    }

    /// The step of a PE whose balancer has nothing else to do.
    pub fn step(&mut self) -> super::Step {
        self.drain_termination();
        if self.termination.is_done() {
            return super::Step::Finished;
        }
        if !self.jobs.is_empty() || self.setup_due {
            return super::Step::Work {
                budget: self.delta_t,
            };
        }
        self.advance_termination();
        if self.termination.is_done() {
            super::Step::Finished
        } else {
            super::Step::Wait
        }
    }

    /// What termination detection sees of this PE.
    pub fn local(&self) -> Local {
        Local {
            idle: self.jobs.is_empty() && !self.producing,
            sent: self.counters.pieces_sent,
            received: self.counters.pieces_received,
        }
    }

    /// Let termination detection progress and queue its signals.
    pub fn advance_termination(&mut self) {
        if self.jobs.is_empty() {
            let local = self.local();
            self.termination.advance(local, &mut self.output);
        }
        self.drain_termination();
    }

    /// Handle a termination signal.
    pub fn receive_termination(
        &mut self,
        from: PeId,
        signal: super::termination::Signal<T::Output>,
    ) {
        let local = self.local();
        self.termination
            .receive(from, signal, local, &mut self.output);
        self.drain_termination();
    }

    fn drain_termination(&mut self) {
        while let Some((to, signal)) = self.termination.poll_transmit() {
            self.counters.termination_messages += 1;
            self.send(to, Message::Termination(signal));
        }
    }

    /// Queue a message.
    pub fn send(&mut self, to: PeId, message: Message<T>) {
        self.counters.messages_sent += 1;
        self.out.push_back((to, message));
    }

    /// The next message to send.
    pub fn poll_transmit(&mut self) -> Option<(PeId, Message<T>)> {
        self.out.pop_front()
    }
}

/// Panic on a message no static balancer sends (a mixed-up configuration across PEs).
pub fn unexpected<T: Task>(me: PeId, from: PeId, message: &Message<T>) -> ! {
    let kind = match message {
        Message::Request => "Request",
        Message::Reject => "Reject",
        Message::Work { .. } => "Work",
        Message::Bundle { .. } => "Bundle",
        Message::Scan(_) => "Scan",
        _ => "a dynamic balancer's message",
    };
    panic!("PE {me}: unexpected {kind} message from PE {from} for this static balancer")
}
