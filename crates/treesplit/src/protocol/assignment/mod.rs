//! The static and semi-static balancers of paper 001 ch. 14 and papers 003–004, which share
//! out a *bag of independent jobs* cut from the root ([`cutter`]) instead of splitting on
//! demand:
//!
//! - [`share`]: every PE derives its own jobs without communication — block, round-robin,
//!   random placement, and randomized static with pseudorandom permutations ([`permutation`]);
//! - [`master_worker`]: PE 0 deals out bundles to idle workers (in bag order or large tasks
//!   first), directly or through submasters (hierarchical);
//! - [`shared_counter`]: shared-memory master–worker, no master PE: a shared counter names
//!   the next job;
//! - [`prefix_sum`]: a parallel prefix sum over estimated job sizes decides the assignment.
//!
//! All of them start the same way: PE 0 broadcasts the root down the binary tree of PEs
//! (paper 004 Fig. 1, "Broadcast R to each PE"), and they end with the same termination
//! detection and result reduction as the dynamic balancers. [`Core`] is that shared part: the
//! root copy, the queue of jobs a PE works through in slices of Δt, and per received piece
//! (the root copy, a bundle of jobs) the count of jobs still held, which tells
//! termination detection when the piece is done. What every PE does regardless of its
//! balancer (messages, counters, the broadcast, termination plumbing, early stop, the progress
//! rule) is [`PeCore`](super::pe::PeCore), which `Core` holds as `pe`.

pub(crate) mod cutter;
pub(crate) mod master_worker;
pub(crate) mod permutation;
pub(crate) mod prefix_sum;
pub(crate) mod share;
pub(crate) mod shared_counter;

use super::pe::{PeCore, SliceEnd};
use super::{Message, PeId, Step};
use crate::config::Config;
use crate::piece::{Fresh, Piece};
use crate::task::Incumbent;
use cutter::{Cut, Probe};
use std::collections::{HashMap, VecDeque};

/// A job to work on, with the record of the piece it belongs to (its generation is counted
/// when it is queued).
#[derive(Debug)]
pub(crate) struct Job {
    /// The job.
    pub task: Piece,
    /// The termination record it belongs to.
    pub record: u64,
}

/// What every static balancer's PE has beyond [`PeCore`]: the root copy, its queue of jobs
/// and the count of jobs held per record.
pub(crate) struct Core {
    /// The shared PE housekeeping (messages, counters, termination, early stop).
    pub pe: PeCore,
    /// The number of jobs m of the bag.
    pub m: u64,
    /// The copy of the root, once it arrived (PE 0: from the start).
    pub root: Option<Piece>,
    /// The record the root copy is kept under.
    pub root_record: u64,
    /// Jobs waiting to be worked on; the front one is worked on.
    pub jobs: VecDeque<Job>,
    /// Jobs held per record; a record is finished when its count drops to zero and it is
    /// not `producing`.
    held: HashMap<u64, u64>,
    /// The root record may still produce jobs (the balancer has not placed all of its share).
    pub producing: bool,
    /// The balancer has more jobs to cut (lazily, as the queue drains): it needs work slices
    /// even with an empty queue.
    pub pending: bool,
    /// The balancer's set-up (cutting jobs from the root copy) is due in the next work slice:
    /// done there rather than on the root's arrival, so that the copies for the children
    /// leave first and the splits are charged as work time.
    setup_due: bool,
    /// How cutters work pieces that split only after some work.
    pub probe: Probe,
    /// Units of cutting work credited since the last slice reported them.
    credited: u64,
}

impl Core {
    /// PE `me`'s core; PE 0 passes the root and, with `broadcast`, sends copies down the tree;
    /// `fresh` makes the run's result accumulators.
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &crate::protocol::Env,
        fresh: Fresh,
        root: Option<Piece>,
        broadcast: bool,
    ) -> Self {
        let root = root.filter(|r| !r.is_empty());
        let mut core = Core {
            pe: PeCore::new(me, config, env, fresh, root.is_some()),
            m: config.jobs().expect("a validated static configuration"),
            root: None,
            root_record: PeCore::ROOT_RECORD,
            jobs: VecDeque::new(),
            held: HashMap::new(),
            producing: false,
            pending: false,
            setup_due: false,
            probe: Probe::new(config.delta_t, fresh, me),
            credited: 0,
        };
        if let Some(root) = root {
            if broadcast {
                core.take_root(root, PeCore::ROOT_RECORD);
            } else {
                // The balancer keeps the root and cuts jobs from it as it goes (master–worker).
                core.root = Some(root);
                core.producing = true;
            }
        }
        core
    }

    /// This PE.
    pub(crate) fn me(&self) -> PeId {
        self.pe.me()
    }

    /// The number of PEs.
    pub(crate) fn p(&self) -> usize {
        self.pe.p()
    }

    /// Keep the root copy (under `record`) and pass copies to the children in the binary tree
    /// of PEs; counted as work messages, so termination waits for them.
    fn take_root(&mut self, root: Piece, record: u64) {
        self.pe.broadcast_root(&root, record);
        self.root = Some(root);
        self.root_record = record;
        self.producing = true;
        self.setup_due = true;
    }

    /// Keep what a cutter did on pieces to make them split: the work this PE is credited
    /// with (reported by the slice in progress, [`Core::take_credited`]) and the overhead of
    /// working copies credited elsewhere (charged as costs).
    pub(crate) fn credit(&mut self, cut: Cut) {
        self.pe.credit_work(cut.units, cut.output);
        self.pe.charge_work(cut.overhead);
        self.credited += cut.units;
    }

    /// The units of cutting work credited since the last call (a slice reports them).
    pub(crate) fn take_credited(&mut self) -> u64 {
        std::mem::take(&mut self.credited)
    }

    /// True (once) when the balancer's set-up is due: call it from `work`.
    pub(crate) fn take_setup(&mut self) -> bool {
        std::mem::take(&mut self.setup_due)
    }

    /// The jobs of PE `i`'s consecutive block, ⌊i·m/P⌋..⌊(i+1)·m/P⌋.
    pub(crate) fn block(&self, i: PeId) -> std::ops::Range<u64> {
        let p = self.p();
        let start = |i: usize| (u128::from(self.m) * i as u128 / p as u128) as u64;
        start(i)..start(i + 1)
    }

    /// Queue job `task` under `record` (empty jobs are done at once).
    pub(crate) fn push_job(&mut self, task: Piece, generation: u32, record: u64) {
        self.pe.note_generation(generation);
        if task.is_empty() || self.pe.is_stopped() {
            self.pe.keep(task);
            return;
        }
        *self.held.entry(record).or_default() += 1;
        self.jobs.push_back(Job { task, record });
    }

    /// The balancer has placed its whole share: the root record finishes once its jobs do.
    pub(crate) fn done_producing(&mut self) {
        self.producing = false;
        self.root = None;
        self.finish_if_complete(self.root_record);
    }

    /// Finish the piece received under `record` if it holds no more jobs (and, for the root
    /// record, produces none).
    pub(crate) fn finish_if_complete(&mut self, record: u64) {
        let held = self.held.get(&record).copied().unwrap_or(0);
        if held == 0 && !(self.producing && record == self.root_record) {
            self.held.remove(&record);
            self.pe.finish_piece(record);
            // Completing a record may send a response, or (PE 0's root) the end.
            self.pe.drain_termination();
        }
    }

    /// Send jobs to PE `to` in one `Bundle` message (one piece for termination detection).
    pub(crate) fn ship_bundle(&mut self, to: PeId, tasks: Vec<(Piece, u32)>) {
        let record = self.root_record;
        self.pe
            .send_piece(to, record, |token| Message::Bundle { tasks, token });
    }

    /// A piece of jobs arrived from `from` with `token`: queue them under a new record.
    pub(crate) fn receive_jobs(
        &mut self,
        from: PeId,
        token: u64,
        jobs: impl IntoIterator<Item = (Piece, u32)>,
    ) {
        let record = self.pe.receive_piece(from, token);
        for (task, generation) in jobs {
            self.push_job(task, generation, record);
        }
        self.finish_if_complete(record);
        self.advance_termination();
    }

    /// Work on the front job for at most Δt units (the budget given).
    pub(crate) fn work(&mut self, budget: u64, incumbent: &dyn Incumbent) -> u64 {
        let Some(job) = self.jobs.front_mut() else {
            return 0;
        };
        let slice = self.pe.work_on(&mut job.task, budget, incumbent);
        match slice.end {
            SliceEnd::Stop => self.begin_stop(None),
            SliceEnd::Emptied => {
                let job = self.jobs.pop_front().expect("the job worked on");
                let held = self.held.get_mut(&job.record).expect("a held job's record");
                *held -= 1;
                self.finish_if_complete(job.record);
                self.advance_termination();
            }
            SliceEnd::More => {}
        }
        slice.units
    }

    /// Early stop (from `from`, or found here): pass it on over the tree of PEs once, drop
    /// every job and the rest of the share (each piece finished for termination detection).
    pub(crate) fn begin_stop(&mut self, from: Option<PeId>) {
        if !self.pe.begin_stop(from) {
            return;
        }
        let jobs: Vec<Job> = self.jobs.drain(..).collect();
        for job in jobs {
            self.pe.keep(job.task);
            if let Some(held) = self.held.get_mut(&job.record) {
                *held -= 1;
            }
            self.finish_if_complete(job.record);
        }
        if !self.pe.keeps_work() {
            self.setup_due = false;
            if self.producing {
                self.done_producing();
            }
        }
        // Under `keep_remaining` the balancer still places the rest of its share (its set-up
        // included), every job straight into the kept work, and then finishes producing.
        self.advance_termination();
    }

    /// True while this PE holds jobs (or has more to cut).
    pub(crate) fn is_busy(&self) -> bool {
        !self.jobs.is_empty() || self.pending
    }

    /// Idle for termination detection: no jobs and the whole share placed.
    pub(crate) fn idle(&self) -> bool {
        self.jobs.is_empty() && !self.producing
    }

    /// The step of a PE whose balancer has nothing else to do.
    pub(crate) fn step(&mut self) -> Step {
        let idle = self.idle();
        self.pe.step(
            !self.jobs.is_empty() || self.setup_due || self.pending,
            idle,
        )
    }

    /// Let termination detection progress and queue its signals.
    pub(crate) fn advance_termination(&mut self) {
        let idle = self.idle();
        self.pe.advance_termination(idle);
    }

    /// The message every static balancer handles alike, the root copy; anything else is a
    /// mixed-up configuration (panics).
    pub(crate) fn receive(&mut self, from: PeId, message: Message) {
        match message {
            Message::Root { task, token } => {
                let record = self.pe.receive_piece(from, token);
                self.take_root(task, record);
            }
            other => unexpected(self.me(), from, &other),
        }
    }
}

/// The `Protocol` methods every static balancer delegates to its `core` alike;
/// `delegate_to_core!(setup: f)` also adds `step`, `work` and `stop` for a balancer whose
/// set-up `self.f()` runs in the first work slice after the root arrived (and whose
/// `after_stop` runs after an early stop); `delegate_to_core!(setup: f, refill: g)` for one
/// that cuts its jobs lazily: `self.g()` runs in a slice that finds the queue empty while the
/// core has jobs `pending`. Such a slice reports the work the cutting was credited with
/// ([`Core::credit`]).
macro_rules! delegate_to_core {
    (setup: $setup:ident $(, refill: $refill:ident)?) => {
        fn step(&mut self) -> Step {
            self.core.step()
        }

        fn work(&mut self, budget: u64, incumbent: &dyn crate::task::Incumbent) -> u64 {
            if self.core.take_setup() {
                self.$setup();
                self.core.advance_termination();
                return self.core.take_credited();
            }
            $(
                if self.core.jobs.is_empty() && self.core.pending {
                    self.$refill();
                    self.core.advance_termination();
                    return self.core.take_credited();
                }
            )?
            self.core.work(budget, incumbent)
        }

        fn stop(&mut self, from: Option<crate::protocol::PeId>) {
            self.core.begin_stop(from);
            self.after_stop();
        }

        delegate_to_core!();
    };
    () => {
        fn core(&self) -> &crate::protocol::pe::PeCore {
            &self.core.pe
        }

        fn core_mut(&mut self) -> &mut crate::protocol::pe::PeCore {
            &mut self.core.pe
        }

        fn is_busy(&self) -> bool {
            self.core.is_busy()
        }

        fn is_idle(&self) -> bool {
            self.core.idle()
        }
    };
}
pub(crate) use delegate_to_core;

/// Panic on a message no static balancer sends (a mixed-up configuration across PEs).
pub(crate) fn unexpected(me: PeId, from: PeId, message: &Message) -> ! {
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
