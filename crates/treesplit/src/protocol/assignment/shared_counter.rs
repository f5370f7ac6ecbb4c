//! Shared-memory master–worker (paper 001 §14.3): "a simple version of the master–worker
//! scheme can be implemented without an explicit PE for the master. We simply use a shared
//! counter to indicate the next task to be delegated." Every PE works. After the root's
//! broadcast down the binary tree of PEs (as every static balancer starts), an idle PE takes
//! the counter's value j and increments it, cuts job j of the bag from its copy of the root
//! (about ⌈log₂ m⌉ splits; by the cutter's credit rule, the one PE that takes job j is the one
//! credited with any work that cutting needed) and works it; an empty job is skipped. Once
//! the counter has passed m the PE has placed its share. Every job is taken by exactly one
//! PE: the one whose increment returned its number.
//!
//! Where the counter lives ([`JobCounter`]) is the machine's:
//!
//! - threads: one `AtomicU64` of the run in the PEs' shared memory (`Env::counter`), taken
//!   with `fetch_add`;
//! - the simulator and MPI, which have no shared memory: a counter kept by PE 0, read and
//!   incremented with a message round trip (`Counter` → `NextJob`) as global round robin's
//!   counter is, PE 0 counting each increment (the simulator charges it T_count). The `mpi`
//!   crate offers no one-sided fetch-and-op (no RMA windows), so MPI emulates the shared
//!   counter by PE 0.
//!
//! Early stop: PEs take no more jobs. Under `keep_remaining` the jobs nobody took are kept:
//! with the atomic counter by the PE whose `fetch_add(m)` returns a value below m, with PE
//! 0's counter by PE 0; a job whose number was on its way when the stop came is kept by the
//! PE it went to.

use super::cutter::Cutter;
use super::Core;
use crate::piece::{Fresh, Piece};
use crate::protocol::{Message, PeId, Protocol, Step};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The counter that names the next job.
enum JobCounter {
    /// In the machine's shared memory.
    Shared(Arc<AtomicU64>),
    /// Kept by PE 0 (the value only there), read over messages.
    AtPe0(u64),
}

/// A PE of shared-memory master–worker.
pub(crate) struct SharedCounter {
    core: Core,
    counter: JobCounter,
    /// A `Counter` request is on its way to PE 0.
    awaiting: bool,
}

impl SharedCounter {
    /// PE `me` of the configured run; PE 0 passes the root.
    pub(crate) fn new(
        me: PeId,
        config: &crate::config::Config,
        env: &crate::protocol::Env,
        fresh: Fresh,
        root: Option<Piece>,
    ) -> Self {
        SharedCounter {
            core: Core::new(me, config, env, fresh, root, true),
            counter: match &env.counter {
                Some(counter) => JobCounter::Shared(counter.clone()),
                None => JobCounter::AtPe0(0),
            },
            awaiting: false,
        }
    }

    /// The set-up once the root copy is here: start taking jobs.
    fn start(&mut self) {
        self.core.pending = true;
        self.take_next();
    }

    /// Increment the counter for `n` jobs where that needs no message: the old value.
    fn increment(&mut self, n: u64) -> Option<u64> {
        let m = self.core.m;
        let me = self.core.me();
        let value = match &mut self.counter {
            JobCounter::Shared(counter) => counter.fetch_add(n, Ordering::AcqRel),
            JobCounter::AtPe0(next) if me == 0 => {
                let value = *next;
                *next = next.saturating_add(n).min(m);
                value
            }
            JobCounter::AtPe0(_) => return None,
        };
        self.core.pe.count_increment();
        Some(value)
    }

    /// Take jobs from the counter until one is not empty, the counter is past m, or (PE 0's
    /// counter) a request to PE 0 is on its way.
    fn take_next(&mut self) {
        while self.core.pending && self.core.jobs.is_empty() {
            if self.core.pe.is_stopped() {
                return self.after_stop();
            }
            match self.increment(1) {
                Some(j) => self.take(j),
                None => {
                    self.core.pending = false;
                    self.awaiting = true;
                    self.core.pe.send(0, Message::Counter);
                    return;
                }
            }
        }
    }

    /// Job `j`, the counter's value, is this PE's: cut it and queue it (or, past m, the
    /// share is placed).
    fn take(&mut self, j: u64) {
        if j >= self.core.m {
            self.all_taken();
            return;
        }
        for (task, generation) in self.cut(j..j + 1) {
            let record = self.core.root_record;
            self.core.push_job(task, generation, record);
        }
    }

    /// The non-empty jobs `range` of the bag, cut from the root copy.
    fn cut(&mut self, range: std::ops::Range<u64>) -> Vec<(Piece, u32)> {
        let Some(root) = &self.core.root else {
            return Vec::new();
        };
        let mut cutter = Cutter::new(root, self.core.m, range).probing(Some(self.core.probe));
        let jobs = cutter.by_ref().map(|(_, task, g)| (task, g)).collect();
        self.core.pe.count_splits(cutter.splits);
        self.core.credit(cutter.take_cut());
        jobs
    }

    /// The counter has passed m: this PE's share is placed.
    fn all_taken(&mut self) {
        self.core.pending = false;
        if self.core.producing {
            self.core.done_producing();
        }
    }

    /// After an early stop: no more jobs are taken; once no request is on its way, under
    /// `keep_remaining` the jobs nobody took are kept (module comment) and the share is placed.
    fn after_stop(&mut self) {
        // No more jobs are taken: no work slice is due for them.
        self.core.pending = false;
        if self.awaiting || !self.core.producing {
            return;
        }
        if self.core.pe.keeps_work() && self.core.root.is_some() {
            let m = self.core.m;
            if let Some(first) = self.increment(m).filter(|&first| first < m) {
                for (task, _) in self.cut(first..m) {
                    self.core.pe.keep(task);
                }
            }
        }
        self.all_taken();
    }

    /// PE 0 answers a `Counter` request with the counter's value and increments it.
    fn serve(&mut self, from: PeId) {
        if self.core.pe.is_finishing() {
            return;
        }
        let value = self
            .increment(1)
            .expect("PE 0 keeps the counter that PEs ask over messages");
        self.core.pe.send(from, Message::NextJob(value));
    }

    /// The counter's value `j` from PE 0.
    fn receive_next(&mut self, j: u64) {
        self.awaiting = false;
        if self.core.pe.is_stopped() {
            if j < self.core.m && self.core.pe.keeps_work() {
                for (task, _) in self.cut(j..j + 1) {
                    self.core.pe.keep(task);
                }
            }
            self.after_stop();
        } else {
            self.core.pending = true;
            self.take(j);
            if self.core.jobs.is_empty() {
                self.take_next();
            }
        }
        self.core.advance_termination();
    }
}

impl crate::protocol::NewPe for SharedCounter {
    fn new_pe(s: crate::protocol::PeStart<'_>) -> Self {
        SharedCounter::new(s.me, s.config, s.env, s.fresh, s.root)
    }
}

impl Protocol for SharedCounter {
    fn step(&mut self) -> Step {
        // A stop found in a work slice (the core's) ends the taking of jobs too.
        if self.core.pe.is_stopped() && self.core.pending {
            self.after_stop();
            self.core.advance_termination();
        }
        self.core.step()
    }

    fn work(&mut self, budget: u64, incumbent: &dyn crate::task::Incumbent) -> u64 {
        if self.core.take_setup() {
            self.start();
        } else if self.core.jobs.is_empty() && self.core.pending {
            self.take_next();
        } else {
            return self.core.work(budget, incumbent);
        }
        self.core.advance_termination();
        self.core.take_credited()
    }

    fn stop(&mut self, from: Option<PeId>) {
        self.core.begin_stop(from);
        self.after_stop();
    }

    fn core(&self) -> &crate::protocol::pe::PeCore {
        &self.core.pe
    }

    fn core_mut(&mut self) -> &mut crate::protocol::pe::PeCore {
        &mut self.core.pe
    }

    /// Busy while it holds jobs, or may still take some (its share not placed: a stop
    /// found in a work slice places it at once, before the next step clears `pending`).
    fn is_busy(&self) -> bool {
        !self.core.jobs.is_empty() || (self.core.pending && self.core.producing)
    }

    fn is_idle(&self) -> bool {
        self.core.idle()
    }

    fn receive(&mut self, from: PeId, message: Message) {
        match message {
            Message::Counter => self.serve(from),
            Message::NextJob(j) => self.receive_next(j),
            other => self.core.receive(from, other),
        }
    }
}
