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
//! The master works no jobs itself unless it is the only PE. Its sending time grows with m/b
//! and with P, which the simulator shows as the scheme's bottleneck.

use super::cutter::Cutter;
use super::{delegate_to_core, Core};
use crate::config::{Balancer, BundleRule, Config};
use crate::piece::{Fresh, Piece};
use crate::protocol::{Message, PeId, Protocol, Step};
use crate::task::Incumbent;

enum Role {
    Master {
        /// Cuts the jobs in order as they are handed out (None: all out).
        cutter: Option<Cutter>,
        /// The estimated work not yet handed out (W): the root's estimate minus the jobs'
        /// (job counts when the task gives no estimates).
        remaining: u64,
    },
    Worker {
        /// A request is on its way to the master.
        awaiting: bool,
        /// The master said all jobs are out.
        exhausted: bool,
    },
}

/// A PE of master–worker.
pub(crate) struct MasterWorker {
    core: Core,
    role: Role,
    rule: BundleRule,
}

impl MasterWorker {
    /// PE `me` of the configured run; PE 0 (the master) passes the root. The master cuts the
    /// jobs from the root as it hands them out (T_split each, charged to the master).
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &crate::protocol::Env,
        fresh: Fresh,
        root: Option<Piece>,
    ) -> Self {
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
                remaining,
            }
        } else {
            Role::Worker {
                awaiting: false,
                exhausted: false,
            }
        };
        let mut pe = MasterWorker {
            core,
            role,
            rule: match config.balancer {
                Balancer::MasterWorker { bundle, .. } => bundle,
                other => panic!("{other} is not master–worker"),
            },
        };
        if pe.core.p() == 1 {
            // The only PE works every job itself.
            while let Some((task, generation, _)) = pe.cut_next() {
                let record = pe.core.root_record;
                pe.core.push_job(task, generation, record);
            }
        }
        pe.done_if_all_out();
        pe
    }

    /// The master: cut the next non-empty job from the root, with its estimated size.
    fn cut_next(&mut self) -> Option<(Piece, u32, u64)> {
        let Role::Master { cutter, remaining } = &mut self.role else {
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
        *remaining = remaining.saturating_sub(size);
        Some((task, generation, size))
    }

    /// The master at a stop: the jobs not handed out yet are dropped, or under
    /// `keep_remaining` cut and kept.
    fn drop_jobs(&mut self) {
        if self.core.pe.keeps_work() {
            while let Some((task, _, _)) = self.cut_next() {
                self.core.pe.keep(task);
            }
        }
        if let Role::Master { cutter, .. } = &mut self.role {
            *cutter = None;
        }
    }

    /// The master has handed out everything: its root record can finish.
    fn done_if_all_out(&mut self) {
        if let Role::Master { cutter: None, .. } = self.role {
            if self.core.producing {
                self.core.done_producing();
            }
        }
    }

    /// The master answers a request from `from` with a bundle, or a rejection when all
    /// jobs are out.
    fn serve(&mut self, from: PeId) {
        self.core.pe.counters_mut().requests_received += 1;
        if self.core.pe.is_finishing() {
            return;
        }
        if self.core.pe.is_stopped() {
            self.drop_jobs();
        }
        // Chapter 14.3: W/(P·C) + W_min, with P all PEs (the master included).
        let pes = self.core.p() as f64;
        let m = self.core.m as f64;
        let Role::Master { remaining, .. } = self.role else {
            unreachable!("only the master serves")
        };
        let (count, target) = match self.rule {
            BundleRule::Fixed(b) => (b, u64::MAX),
            BundleRule::Sqrt { startup, max_job } => (
                ((startup * m / max_job).sqrt().round() as u64).max(1),
                u64::MAX,
            ),
            BundleRule::Adaptive { c, w_min } => {
                (u64::MAX, (remaining as f64 / (pes * c)) as u64 + w_min)
            }
        };
        let mut tasks = Vec::new();
        let mut size = 0;
        while tasks.is_empty() || ((tasks.len() as u64) < count && size < target) {
            match self.cut_next() {
                Some((task, generation, estimate)) => {
                    tasks.push((task, generation));
                    size += estimate;
                }
                None => break,
            }
        }
        if tasks.is_empty() {
            self.core.pe.counters_mut().rejections_sent += 1;
            self.core.pe.send(from, Message::Reject);
        } else {
            self.core.ship_bundle(from, tasks);
        }
        self.done_if_all_out();
    }
}

impl crate::protocol::NewPe for MasterWorker {
    fn new_pe(s: crate::protocol::PeStart<'_>) -> Self {
        MasterWorker::new(s.me, s.config, s.env, s.fresh, s.root)
    }
}

impl Protocol for MasterWorker {
    fn step(&mut self) -> Step {
        if let Role::Worker {
            awaiting,
            exhausted,
        } = &mut self.role
        {
            if self.core.jobs.is_empty()
                && !*awaiting
                && !*exhausted
                && !self.core.pe.is_stopped()
                && !self.core.pe.is_finishing()
            {
                *awaiting = true;
                self.core.pe.counters_mut().requests_sent += 1;
                self.core.pe.send(0, Message::Request);
            }
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
            (Message::Bundle { tasks, token }, Role::Worker { awaiting, .. }) => {
                *awaiting = false;
                self.core.receive_jobs(from, token, tasks);
            }
            (
                Message::Reject,
                Role::Worker {
                    awaiting,
                    exhausted,
                },
            ) => {
                *awaiting = false;
                *exhausted = true;
                self.core.pe.counters_mut().rejections_received += 1;
            }
            (other, _) => self.core.receive(from, other),
        }
    }

    delegate_to_core!();
}
