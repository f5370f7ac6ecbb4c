//! Prefix-sum assignment of jobs with estimated sizes (paper 001 §14.2), the "gold standard"
//! when sizes are known.
//!
//! After the root's broadcast, PE i cuts the consecutive jobs ⌊i·m/P⌋..⌊(i+1)·m/P⌋ from its
//! copy and sums their estimated sizes t_j (`Task::estimate`; 1 each when the task gives
//! none) into s_i. A parallel prefix sum over one value per PE then gives every PE its offset
//! S_i = Σ_{k<i} s_k and the total T: an up-sweep and a down-sweep over the binomial tree of
//! PEs (PE i's subtree is the contiguous range i..i+lowbit(i), so sums arrive in PE order).
//! With s = ⌈T/P⌉, job j covers the unit intervals T_j..T_j+t_j and PE k is responsible for
//! k·s..(k+1)·s:
//!
//! - **splittable**: job j is cut (`Task::split_at`) at the multiples of s it spans and each
//!   part goes to the PE responsible for it; a job that cannot be cut there goes whole to the
//!   PE where it starts;
//! - **atomic** (the 2-approximation of §14.2): job j goes whole to PE ⌊T_j/s⌋.
//!
//! The jobs (and cut parts) a PE places on another PE travel in one `Bundle` message per
//! destination, as §14.2 suggests ("consecutive tasks are moved to consecutive PEs"): walking
//! its jobs in order, a PE's destinations ⌊T_j/s⌋ never decrease, so each PE sends at most
//! one bundle to each PE its interval S_i..S_i+s_i overlaps — about s_i/s + 2 bundles, P·3 in
//! all when the blocks are even — instead of one message per job. How good the result is
//! depends on how good the estimates are; the report's per-PE work shows it.

use super::cutter::Cutter;
use super::{delegate_to_core, unexpected, Core};
use crate::config::{Balancer, Config};
use crate::piece::{Fresh, Piece};
use crate::protocol::{tree, Message, PeId, Protocol, Step};
use serde::{Deserialize, Serialize};

/// Messages of the prefix sum.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum ScanSignal {
    /// A subtree's summed estimates, to the parent.
    Up {
        /// The sum.
        sum: u64,
    },
    /// The exclusive prefix (sum of the estimates of all PEs before the receiver's subtree) and
    /// the total, from the parent.
    Down {
        /// The prefix.
        offset: u64,
        /// T, the sum over all PEs.
        total: u64,
    },
}

/// A PE of prefix-sum assignment.
pub(crate) struct PrefixSum {
    core: Core,
    splittable: bool,
    /// This PE's jobs with their estimated sizes, until they are assigned.
    local: Vec<(Piece, u32, u64)>,
    /// Σ of the local estimates (None until the root arrived).
    local_sum: Option<u64>,
    children: Vec<PeId>,
    /// Subtree sums received from the children (by position in `children`).
    child_sums: Vec<Option<u64>>,
    sent_up: bool,
}

impl PrefixSum {
    /// PE `me` of the configured run; PE 0 passes the root.
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &crate::protocol::Env,
        fresh: Fresh,
        root: Option<Piece>,
    ) -> Self {
        let children = tree::binomial_children(me, config.pes).collect::<Vec<_>>();
        PrefixSum {
            core: Core::new(me, config, env, fresh, root, true),
            splittable: !matches!(
                config.balancer,
                Balancer::PrefixSum {
                    splittable: false,
                    ..
                }
            ),
            local: Vec::new(),
            local_sum: None,
            child_sums: vec![None; children.len()],
            children,
            sent_up: false,
        }
    }

    /// Cut this PE's consecutive jobs from the root copy and sum their estimates.
    fn cut_local_jobs(&mut self) {
        let Some(root) = self.core.root.take() else {
            return; // dropped by an early stop
        };
        let block = self.core.block(self.core.me());
        let mut cutter = Cutter::new(&root, self.core.m, block).probing(Some(self.core.probe));
        for (_, task, generation) in cutter.by_ref() {
            let size = task.estimate().unwrap_or(1).max(1);
            self.local.push((task, generation, size));
        }
        self.core.pe.count_splits(cutter.splits);
        self.core.credit(cutter.take_cut());
        self.local_sum = Some(self.local.iter().fold(0u64, |a, j| a.saturating_add(j.2)));
        if self.core.pe.is_stopped() {
            return self.after_stop();
        }
        self.try_up();
    }

    /// After a stop under `keep_remaining`: the local jobs (cut, not yet assigned) are kept,
    /// and the root record finishes; a set-up still due does this when it runs. (Without
    /// `keep_remaining` the core drops the share at once.)
    fn after_stop(&mut self) {
        if !self.core.pe.keeps_work() || self.local_sum.is_none() || !self.core.producing {
            return;
        }
        for (task, _, _) in std::mem::take(&mut self.local) {
            self.core.pe.keep(task);
        }
        self.core.done_producing();
        self.core.advance_termination();
    }

    /// Up-sweep: once the local sum and all children's sums are known, send the subtree's
    /// sum to the parent (PE 0 starts the down-sweep instead).
    fn try_up(&mut self) {
        let Some(local) = self.local_sum else { return };
        if self.sent_up || self.child_sums.iter().any(Option::is_none) {
            return;
        }
        self.sent_up = true;
        let subtree = (self.child_sums.iter().flatten()).fold(local, |a, &b| a.saturating_add(b));
        let me = self.core.me();
        if me == 0 {
            self.sweep_down(0, subtree);
        } else {
            self.core.pe.send(
                tree::binomial_parent(me),
                Message::Scan(ScanSignal::Up { sum: subtree }),
            );
        }
    }

    /// Down-sweep: pass each child its prefix, then assign the local jobs.
    fn sweep_down(&mut self, offset: u64, total: u64) {
        let local = self.local_sum.expect("the local sum before the down-sweep");
        let mut prefix = offset.saturating_add(local);
        for (k, &child) in self.children.clone().iter().enumerate() {
            self.core.pe.send(
                child,
                Message::Scan(ScanSignal::Down {
                    offset: prefix,
                    total,
                }),
            );
            prefix = prefix.saturating_add(self.child_sums[k].expect("every child's sum"));
        }
        self.assign(offset, total);
    }

    /// Place every local job, whole or cut, on the PE responsible for its unit intervals: the
    /// jobs for one destination go in one bundle (destinations never decrease along the jobs).
    fn assign(&mut self, offset: u64, total: u64) {
        if self.core.pe.is_stopped() {
            for (task, _, _) in std::mem::take(&mut self.local) {
                self.core.pe.keep(task);
            }
        }
        let p = self.core.p() as u64;
        let s = total.div_ceil(p).max(1);
        let mut at = offset; // T_j
        let mut out = Outgoing::default();
        for (mut task, generation, mut size) in std::mem::take(&mut self.local) {
            loop {
                let k = (at / s).min(p - 1);
                // Saturating: estimates may sum to near 2^64 (a practically endless task).
                let end = (k + 1).saturating_mul(s);
                if !self.splittable || k == p - 1 || at.saturating_add(size) <= end {
                    self.place(&mut out, k as PeId, task, generation);
                    at = at.saturating_add(size);
                    break;
                }
                match task.split_at(end - at) {
                    Some(rest) => {
                        let part = task.estimate().unwrap_or(end - at);
                        self.core.pe.count_splits(1);
                        self.place(&mut out, k as PeId, task, generation + 1);
                        at = at.saturating_add(part);
                        size = rest.estimate().unwrap_or(size.saturating_sub(part).max(1));
                        task = rest;
                    }
                    None => {
                        self.place(&mut out, k as PeId, task, generation);
                        at = at.saturating_add(size);
                        break;
                    }
                }
            }
        }
        self.flush(&mut out);
        self.core.done_producing();
        self.core.advance_termination();
    }

    /// Queue a job for this PE, or add it to the bundle for `to` (sending the bundle for the
    /// previous destination first).
    fn place(&mut self, out: &mut Outgoing, to: PeId, task: Piece, generation: u32) {
        if to == self.core.me() {
            let record = self.core.root_record;
            self.core.push_job(task, generation, record);
            return;
        }
        if out.to != Some(to) {
            self.flush(out);
            out.to = Some(to);
        }
        out.jobs.push((task, generation));
    }

    /// Send the bundle being gathered, if any.
    fn flush(&mut self, out: &mut Outgoing) {
        if let Some(to) = out.to.take() {
            let jobs = std::mem::take(&mut out.jobs);
            if !jobs.is_empty() {
                self.core.ship_bundle(to, jobs);
            }
        }
    }
}

/// The bundle being gathered while a PE walks its jobs: its destination and its jobs.
#[derive(Default)]
struct Outgoing {
    to: Option<PeId>,
    jobs: Vec<(Piece, u32)>,
}

impl crate::protocol::NewPe for PrefixSum {
    fn new_pe(s: crate::protocol::PeStart<'_>) -> Self {
        PrefixSum::new(s.me, s.config, s.env, s.fresh, s.root)
    }
}

impl Protocol for PrefixSum {
    delegate_to_core!(setup: cut_local_jobs);

    fn receive(&mut self, from: PeId, message: Message) {
        match message {
            Message::Scan(_) if self.core.pe.is_stopped() => {} // the assignment no longer matters
            Message::Scan(ScanSignal::Up { sum }) => {
                let k = self
                    .children
                    .iter()
                    .position(|&c| c == from)
                    .unwrap_or_else(|| {
                        unexpected(self.core.me(), from, &Message::Scan(ScanSignal::Up { sum }))
                    });
                self.child_sums[k] = Some(sum);
                self.try_up();
            }
            Message::Scan(ScanSignal::Down { offset, total }) => self.sweep_down(offset, total),
            Message::Bundle { tasks, token } => self.core.receive_jobs(from, token, tasks),
            other => self.core.receive(from, other),
        }
    }
}
