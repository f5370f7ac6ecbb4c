//! The master–worker scheme (paper 001 §14.3, Fig. 14.4): PE 0 is a dedicated master that
//! holds all m jobs of the bag; an idle worker sends a request, the master answers with a
//! bundle of jobs, and once all jobs are out it answers with a rejection, after which the
//! worker asks no more. Bundle sizes (`Config::bundle`):
//!
//! - fixed b jobs;
//! - b = √(α·m/t̂) (α the message startup cost, t̂ the largest job, both in work units): the
//!   size that balances the master's α·m/b sending time against the last bundle's b·t̂;
//! - adaptive: jobs worth W/(P·C) + W_min estimated units, W the estimated work not yet
//!   handed out, so bundles shrink as the computation proceeds (with no estimates, every job
//!   counts 1 and this is guided self-scheduling).
//!
//! **Large tasks first** (`DealOrder::LargestFirst`): "if at least an estimate of the task
//! sizes is available, it is a good idea to deal out large tasks first". The master then cuts
//! the whole bag before it deals and hands the jobs out in non-increasing estimated size
//! (ties in bag order): with one job per bundle and exact estimates the workers run Graham's
//! LPT list schedule, within 4/3 − 1/(3p) of the optimal makespan for p workers.
//!
//! **Hierarchical** (`Balancer::HierarchicalMasterWorker`): "an overall master deals out task
//! bundles to submasters, which deal out smaller bundles". The PEs form groups of g
//! consecutive PEs (the fan-out; ⌈√P⌉ by default); the first PE of every group but PE 0's is
//! a submaster, which asks PE 0 for a bundle sized for its whole group (the bundle rule's
//! size times its number of workers), keeps it as its pool and deals it on to its workers
//! in the rule's bundles (the adaptive rule over the pool's W and the group's g PEs), asking
//! PE 0 again once the pool is empty. PE 0 serves its own group's workers directly. A
//! submaster hands on whole jobs of one of PE 0's bundles at a time, each bundle a piece for
//! termination detection that it finishes once it has handed on all of its jobs. A group of
//! the submaster alone has none: that PE is a worker of PE 0.
//!
//! Masters and submasters work no jobs themselves unless P = 1. The master's sending time
//! grows with m/b and with the number of PEs it serves, which the simulator shows as the
//! scheme's bottleneck; the hierarchy divides those PEs among the submasters.

use super::cutter::Cutter;
use super::{delegate_to_core, Core};
use crate::config::{Balancer, BundleRule, Config, DealOrder};
use crate::piece::{Fresh, Piece};
use crate::protocol::{Message, PeId, Protocol, Step};
use crate::task::Incumbent;
use std::collections::VecDeque;

/// A job to deal: the piece, its generation and its estimated size (1 without estimates).
type Dealt = (Piece, u32, u64);

/// The PEs' groups: g consecutive PEs each, the first of every group but PE 0's its
/// submaster (flat master–worker: one group of all P PEs, served by PE 0).
#[derive(Debug, Clone, Copy)]
struct Groups {
    /// PEs per group, g.
    size: usize,
    /// P.
    pes: usize,
}

impl Groups {
    /// The groups of `fanout` PEs (0: ⌈√P⌉, at least 2) among `pes`.
    fn new(pes: usize, fanout: u64) -> Self {
        let size = match usize::try_from(fanout) {
            Ok(0) => (1..).find(|g| g * g >= pes).unwrap_or(pes).max(2),
            Ok(g) => g.max(2),
            Err(_) => pes,
        };
        Groups { size, pes }
    }

    /// True if PE `i` is a submaster: the first PE of a group other than PE 0's, with at
    /// least one worker.
    fn is_submaster(&self, i: PeId) -> bool {
        i != 0 && i.is_multiple_of(self.size) && i + 1 < self.pes
    }

    /// The PE that serves worker `i`: its group's submaster, or PE 0.
    fn server(&self, i: PeId) -> PeId {
        let first = i - i % self.size;
        if self.is_submaster(first) {
            first
        } else {
            0
        }
    }

    /// The number of workers submaster `s` serves.
    fn workers(&self, s: PeId) -> u64 {
        ((s + self.size).min(self.pes) - s - 1) as u64
    }

    /// The PEs of submaster `s`'s group, itself included.
    fn members(&self, s: PeId) -> u64 {
        self.workers(s) + 1
    }
}

enum Role {
    Master {
        /// Cuts the jobs in bag order as they are handed out (None: all cut).
        cutter: Option<Cutter>,
        /// Large tasks first: the whole bag, cut and sorted, the next job in front.
        sorted: VecDeque<Dealt>,
        /// The estimated work not yet handed out (W): the root's estimate minus the jobs'
        /// (job counts when the task gives no estimates).
        remaining: u64,
    },
    Submaster {
        /// The jobs of PE 0's bundles not handed on yet, each with its bundle's record.
        pool: VecDeque<(Dealt, u64)>,
        /// The estimated work in the pool (its W).
        remaining: u64,
        /// Workers whose requests wait for the pool to refill.
        waiting: VecDeque<PeId>,
        /// A request is on its way to PE 0.
        awaiting: bool,
        /// PE 0 said all jobs are out.
        exhausted: bool,
    },
    Worker {
        /// The PE that serves this worker.
        server: PeId,
        /// A request is on its way to the server.
        awaiting: bool,
        /// The server said all jobs are out.
        exhausted: bool,
    },
}

/// A PE of master–worker, flat or hierarchical.
pub(crate) struct MasterWorker {
    core: Core,
    role: Role,
    rule: BundleRule,
    groups: Groups,
}

impl MasterWorker {
    /// PE `me` of the configured run; PE 0 (the master) passes the root. The master cuts the
    /// jobs from the root as it hands them out (T_split each, charged to the master), or,
    /// dealing large tasks first, all of them before it deals.
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &crate::protocol::Env,
        fresh: Fresh,
        root: Option<Piece>,
    ) -> Self {
        let (rule, order, groups) = match config.balancer {
            Balancer::MasterWorker { bundle, order, .. } => {
                (bundle, order, Groups::new(config.pes, config.pes as u64))
            }
            Balancer::HierarchicalMasterWorker {
                bundle,
                order,
                fanout,
                ..
            } => (bundle, order, Groups::new(config.pes, fanout)),
            other => panic!("{other} is not master–worker"),
        };
        let mut core = Core::new(me, config, env, fresh, root, false);
        let role = if me == 0 {
            let remaining = match &core.root {
                Some(root) => root.estimate().unwrap_or(core.m),
                None => 0,
            };
            Role::Master {
                cutter: core
                    .root
                    .take()
                    .map(|root| Cutter::new(&root, core.m, 0..core.m).probing(Some(core.probe))),
                sorted: VecDeque::new(),
                remaining,
            }
        } else if groups.is_submaster(me) {
            Role::Submaster {
                pool: VecDeque::new(),
                remaining: 0,
                waiting: VecDeque::new(),
                awaiting: false,
                exhausted: false,
            }
        } else {
            Role::Worker {
                server: groups.server(me),
                awaiting: false,
                exhausted: false,
            }
        };
        let mut pe = MasterWorker {
            core,
            role,
            rule,
            groups,
        };
        if pe.core.p() == 1 {
            // The only PE works every job itself.
            while let Some((task, generation, _)) = pe.next_job() {
                let record = pe.core.root_record;
                pe.core.push_job(task, generation, record);
            }
        } else if order == DealOrder::LargestFirst {
            pe.sort_bag();
        }
        pe.done_if_all_out();
        pe
    }

    /// The master, dealing large tasks first: cut the whole bag and sort it by non-increasing
    /// estimated size, ties in bag order.
    fn sort_bag(&mut self) {
        let mut bag = Vec::new();
        while let Some(job) = self.cut_next() {
            bag.push(job);
        }
        bag.sort_by_key(|&(_, _, size)| std::cmp::Reverse(size));
        if let Role::Master { sorted, .. } = &mut self.role {
            *sorted = bag.into();
        }
    }

    /// The master: cut the next non-empty job from the root in bag order, with its
    /// estimated size.
    fn cut_next(&mut self) -> Option<Dealt> {
        let Role::Master { cutter, .. } = &mut self.role else {
            return None;
        };
        let c = cutter.as_mut()?;
        let before = c.splits;
        let next = c.next();
        self.core.pe.count_splits(c.splits - before);
        // The master cuts outside work slices: the work it is credited with costs time as
        // the splits do.
        self.core.credit(c.take_cut());
        let credited = self.core.take_credited();
        self.core.pe.charge_work(credited);
        let Some((_, task, generation)) = next else {
            *cutter = None;
            return None;
        };
        let size = task.estimate().unwrap_or(1).max(1);
        Some((task, generation, size))
    }

    /// The master: the next job to hand out (the sorted bag's front, or the next cut).
    fn next_job(&mut self) -> Option<Dealt> {
        let job = match &mut self.role {
            Role::Master { sorted, .. } if !sorted.is_empty() => sorted.pop_front(),
            Role::Master { .. } => self.cut_next(),
            _ => None,
        };
        if let (Some((_, _, size)), Role::Master { remaining, .. }) = (&job, &mut self.role) {
            *remaining = remaining.saturating_sub(*size);
        }
        job
    }

    /// The master or a submaster at a stop: the jobs not handed out yet are dropped, or
    /// under `keep_remaining` kept; waiting workers are told that all jobs are out.
    fn drop_jobs(&mut self) {
        if let Role::Submaster {
            pool,
            remaining,
            waiting,
            ..
        } = &mut self.role
        {
            let pool = std::mem::take(pool);
            let waiting = std::mem::take(waiting);
            *remaining = 0;
            self.core.producing = false;
            // A bundle's jobs lie together in the pool: finish each bundle's piece once.
            let mut records = Vec::new();
            for ((task, _, _), record) in pool {
                self.core.pe.keep(task);
                if records.last() != Some(&record) {
                    records.push(record);
                }
            }
            for record in records {
                self.core.finish_if_complete(record);
            }
            for worker in waiting {
                self.reject(worker);
            }
            return;
        }
        if self.core.pe.keeps_work() {
            while let Some((task, _, _)) = self.next_job() {
                self.core.pe.keep(task);
            }
        }
        if let Role::Master { cutter, sorted, .. } = &mut self.role {
            *cutter = None;
            sorted.clear();
        }
    }

    /// The master has handed out everything: its root record can finish.
    fn done_if_all_out(&mut self) {
        if let Role::Master {
            cutter: None,
            sorted,
            ..
        } = &self.role
        {
            if sorted.is_empty() && self.core.producing {
                self.core.done_producing();
            }
        }
    }

    /// Tell `to` that all jobs are out.
    fn reject(&mut self, to: PeId) {
        self.core.pe.counters_mut().rejections_sent += 1;
        self.core.pe.send(to, Message::Reject);
    }

    /// How much one bundle for `share` workers holds under the bundle rule, for a server of
    /// `pes` PEs with `remaining` estimated work left: (at most this many jobs, at least
    /// this much estimated work) — whichever limit comes first ends the bundle.
    fn bundle_size(&self, pes: u64, remaining: u64, share: u64) -> (u64, u64) {
        let m = self.core.m as f64;
        match self.rule {
            BundleRule::Fixed(b) => (b.saturating_mul(share), u64::MAX),
            BundleRule::Sqrt { startup, max_job } => (
                (((startup * m / max_job).sqrt().round() as u64).max(1)).saturating_mul(share),
                u64::MAX,
            ),
            // Chapter 14.3: W/(P·C) + W_min, with P all PEs served (the server included).
            BundleRule::Adaptive { c, w_min } => (
                u64::MAX,
                ((remaining as f64 / (pes as f64 * c)) as u64)
                    .saturating_add(w_min)
                    .saturating_mul(share),
            ),
        }
    }

    /// The master answers a request from `from` with a bundle (for a submaster: sized for
    /// its group), or a rejection when all jobs are out.
    fn serve(&mut self, from: PeId) {
        self.core.pe.counters_mut().requests_received += 1;
        if self.core.pe.is_finishing() {
            return;
        }
        if self.core.pe.is_stopped() {
            self.drop_jobs();
        }
        let Role::Master { remaining, .. } = self.role else {
            unreachable!("only the master serves")
        };
        let share = if self.groups.is_submaster(from) {
            self.groups.workers(from)
        } else {
            1
        };
        let (count, target) = self.bundle_size(self.core.p() as u64, remaining, share);
        let mut tasks = Vec::new();
        let mut size = 0u64;
        while tasks.is_empty() || ((tasks.len() as u64) < count && size < target) {
            match self.next_job() {
                Some((task, generation, estimate)) => {
                    tasks.push((task, generation));
                    size = size.saturating_add(estimate);
                }
                None => break,
            }
        }
        if tasks.is_empty() {
            self.reject(from);
        } else {
            self.core.ship_bundle(from, tasks);
        }
        self.done_if_all_out();
    }

    /// A submaster answers worker `from`: a bundle from its pool, a rejection when all jobs
    /// are out, or, while the pool refills, nothing yet.
    fn serve_worker(&mut self, from: PeId) {
        self.core.pe.counters_mut().requests_received += 1;
        if self.core.pe.is_finishing() {
            return;
        }
        if self.core.pe.is_stopped() {
            self.drop_jobs();
        }
        let Role::Submaster {
            pool,
            exhausted,
            waiting,
            ..
        } = &mut self.role
        else {
            unreachable!("only a submaster serves its workers")
        };
        if pool.is_empty() {
            if *exhausted || self.core.pe.is_stopped() {
                self.reject(from);
            } else {
                waiting.push_back(from);
            }
            return;
        }
        self.hand_on(from);
    }

    /// A submaster hands worker `to` a bundle of its pool's front jobs, all of one of PE 0's
    /// bundles, and finishes that bundle's piece once none of its jobs is left.
    fn hand_on(&mut self, to: PeId) {
        let members = self.groups.members(self.core.me());
        let Role::Submaster { remaining, .. } = self.role else {
            unreachable!("only a submaster hands on jobs")
        };
        let (count, target) = self.bundle_size(members, remaining, 1);
        let Role::Submaster {
            pool, remaining, ..
        } = &mut self.role
        else {
            unreachable!()
        };
        let Some(&(_, record)) = pool.front() else {
            return;
        };
        let mut tasks = Vec::new();
        let mut size = 0u64;
        while tasks.is_empty() || ((tasks.len() as u64) < count && size < target) {
            match pool.front() {
                Some(&(_, r)) if r == record => {
                    let ((task, generation, estimate), _) = pool.pop_front().expect("a front");
                    tasks.push((task, generation));
                    size = size.saturating_add(estimate);
                    *remaining = remaining.saturating_sub(estimate);
                }
                _ => break,
            }
        }
        let bundle_done = pool.front().is_none_or(|&(_, r)| r != record);
        self.core.producing = !pool.is_empty();
        self.core
            .pe
            .send_piece(to, record, |token| Message::Bundle { tasks, token });
        if bundle_done {
            self.core.finish_if_complete(record);
        }
    }

    /// A submaster received one of PE 0's bundles: pool its jobs and serve the waiting
    /// workers.
    fn pool_bundle(&mut self, from: PeId, token: u64, tasks: Vec<(Piece, u32)>) {
        let record = self.core.pe.receive_piece(from, token);
        let stopped = self.core.pe.is_stopped();
        let Role::Submaster {
            pool,
            remaining,
            awaiting,
            ..
        } = &mut self.role
        else {
            unreachable!("only a submaster pools bundles")
        };
        *awaiting = false;
        for (task, generation) in tasks {
            self.core.pe.note_generation(generation);
            if stopped || task.is_empty() {
                self.core.pe.keep(task);
                continue;
            }
            let size = task.estimate().unwrap_or(1).max(1);
            *remaining = remaining.saturating_add(size);
            pool.push_back(((task, generation, size), record));
        }
        self.core.producing = !pool.is_empty();
        if !self.core.producing {
            self.core.finish_if_complete(record);
        }
        while let Role::Submaster { pool, waiting, .. } = &mut self.role {
            if pool.is_empty() {
                break;
            }
            let Some(worker) = waiting.pop_front() else {
                break;
            };
            self.hand_on(worker);
        }
        self.core.advance_termination();
    }

    /// A submaster heard from PE 0 that all jobs are out: so are its waiting workers'.
    fn pool_exhausted(&mut self) {
        self.core.pe.counters_mut().rejections_received += 1;
        let Role::Submaster {
            awaiting,
            exhausted,
            waiting,
            ..
        } = &mut self.role
        else {
            unreachable!("only a submaster asks PE 0 for its pool")
        };
        *awaiting = false;
        *exhausted = true;
        for worker in std::mem::take(waiting) {
            self.reject(worker);
        }
    }
}

impl crate::protocol::NewPe for MasterWorker {
    fn new_pe(s: crate::protocol::PeStart<'_>) -> Self {
        MasterWorker::new(s.me, s.config, s.env, s.fresh, s.root)
    }
}

impl Protocol for MasterWorker {
    fn step(&mut self) -> Step {
        let asking = !self.core.pe.is_stopped() && !self.core.pe.is_finishing();
        match &mut self.role {
            Role::Worker {
                server,
                awaiting,
                exhausted,
            } if asking && self.core.jobs.is_empty() && !*awaiting && !*exhausted => {
                *awaiting = true;
                let server = *server;
                self.core.pe.counters_mut().requests_sent += 1;
                self.core.pe.send(server, Message::Request);
            }
            // A submaster refills its pool from PE 0 as soon as it is empty.
            Role::Submaster {
                pool,
                awaiting,
                exhausted,
                ..
            } if asking && pool.is_empty() && !*awaiting && !*exhausted => {
                *awaiting = true;
                self.core.pe.counters_mut().requests_sent += 1;
                self.core.pe.send(0, Message::Request);
            }
            _ => {}
        }
        self.core.step()
    }

    fn work(&mut self, budget: u64, incumbent: &dyn Incumbent) -> u64 {
        self.core.work(budget, incumbent)
    }

    fn stop(&mut self, from: Option<PeId>) {
        self.drop_jobs();
        self.core.begin_stop(from);
        self.done_if_all_out();
    }

    fn receive(&mut self, from: PeId, message: Message) {
        match (message, &mut self.role) {
            (Message::Request, Role::Master { .. }) => self.serve(from),
            (Message::Request, Role::Submaster { .. }) => self.serve_worker(from),
            (Message::Bundle { tasks, token }, Role::Submaster { .. }) => {
                self.pool_bundle(from, token, tasks)
            }
            (Message::Reject, Role::Submaster { .. }) => self.pool_exhausted(),
            (Message::Bundle { tasks, token }, Role::Worker { awaiting, .. }) => {
                *awaiting = false;
                self.core.receive_jobs(from, token, tasks);
            }
            (
                Message::Reject,
                Role::Worker {
                    awaiting,
                    exhausted,
                    ..
                },
            ) => {
                *awaiting = false;
                *exhausted = true;
                self.core.pe.counters_mut().rejections_received += 1;
            }
            (other, _) => self.core.receive(from, other),
        }
    }

    // A submaster holding a pool counts as busy for termination detection through the
    // core's `producing`, which it keeps true while the pool is not empty.
    delegate_to_core!();
}
