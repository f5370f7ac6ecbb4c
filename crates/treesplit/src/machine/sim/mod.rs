//! The simulator: the machine model of paper 000 §1.1 in deterministic virtual time.
//!
//! P PEs, each with one FIFO message queue, run the *same* protocol state machines through
//! the *same* PE driver as the thread machine. Tasks run for real (the answer is real) but
//! time is virtual: one work unit takes one time unit (times a PE's slowness factor), a split
//! costs T_split, a message takes the network's latency (T_rout on a crossbar, hops·T_hop on a
//! topology, plus an optional random delay), the sender pays T_send and the receiver T_recv
//! per message. A busy PE polls its queue after every slice of Δt units; an idle PE handles a
//! message when it arrives.
//!
//! Run limits: `Config::max_units` counts the units of all PEs in virtual-time order, so a
//! limited run stays deterministic (same seed, same stop, same partial report);
//! `Config::time_limit` is wall-clock time, as on the other machines (it bounds how long
//! the simulation itself runs, not virtual time, and is not reproducible).
//!
//! This file holds the machine's parameters ([`SimConfig`]), [`simulate`] and its report
//! (with Theorem 1 of paper 000 beside the measurement); `engine.rs` is the event loop,
//! `queue.rs` its event queue (a calendar of one bucket per time unit, a heap beyond it:
//! events leave in (time, PE, kind, sender) order), `network.rs` the latencies,
//! `timeline.rs` what is recorded over time, `adversary.rs` the adversarial splitter.
//!
//! Every poll of a busy PE's queue is a point where a message may have arrived, so every work
//! slice ends at a slice end of its own; the reports are identical whatever the engine's
//! speed, and `crates/apps/tests/golden_sim.rs` holds them to it. What makes slices cheap is
//! *run-ahead* (`engine.rs`): after a slice that did its whole budget at no cost, the driver
//! does up to 64 more such slices at once on the real task, keeping a snapshot (task and
//! result accumulator; `Task: Clone`), and stops before the first that is not plain (the end
//! of the piece, an incumbent found, a stop). The slice ends in between are not events: the
//! order of events at one time depends on the events alone (PE, kind, sender), not on when
//! they were scheduled, so leaving them out changes nothing else. The PE gets one slice-end
//! event at the end of the last slice run ahead; a message that reaches it meanwhile moves
//! that event to the first slice end at or after the message's arrival, where the driver
//! keeps the slices begun by then (returns to the snapshot and redoes them) and runs the PE
//! from there, exactly as if every slice end had been an event. The event count reported
//! counts the slice ends left out, so it is the count of an engine without run-ahead. The
//! rest of the speed comes from cheap events (the calendar queue, slice ends that live in the
//! queue alone, message sizes counted without serializing) and from prefetching the state of
//! the PEs whose events come next.

pub mod adversary;
mod engine;
pub mod network;
mod queue;
pub mod timeline;

pub use network::{Delay, MessageLength, Network, Routing, Topology};
pub use timeline::{Activity, Segment};

use crate::config::{Balancer, Config, ConfigError};
use crate::driver::{BoundExchange, MachineTime, PeDriver};
use crate::error::{catch_quietly, panic_error, Partial, RunError};
use crate::stats::Report;
use crate::task::Task;
use engine::{Engine, EventQueue, Learning, SimPe, Slot, State, World};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Instant;
use timeline::{Timeline, Utilization};

/// Huge pages (2 MiB) for the PEs' state. With many PEs each event reads the state of a PE
/// far from the last one's, and with 4 KiB pages most of those reads also missed the TLB
/// (at 65,536 PEs, huge pages for the whole heap made a run 15 % faster). Where Linux's
/// transparent huge pages are in `madvise` mode (the usual default) only memory that asks
/// gets them: the array of PE slots asks before it is filled; the heap memory the PEs'
/// protocol states took while they were built is collapsed into huge pages afterwards
/// (`MADV_COLLAPSE`, Linux 6.1), and so is what the heap grows by during the run (their
/// queues and statistics), every 2^20 events. Only on the main thread, whose allocations the
/// program break measures (glibc gives other threads heaps of their own). Hints only: where
/// the kernel says no, nothing changes.
pub(super) mod huge_pages {
    const PAGE: usize = 4096;
    /// Below this, not worth a system call.
    const LEAST: usize = 8 << 20;

    /// Where the heap ends now (the program break; 0 where there is none to ask, or where
    /// the caller is not the main thread and allocates elsewhere).
    pub(super) fn heap_end() -> usize {
        if std::thread::current().name() != Some("main") {
            return 0;
        }
        #[cfg(target_os = "linux")]
        // SAFETY: sbrk(0) only reads the current break.
        return unsafe { libc::sbrk(0) } as usize;
        #[cfg(not(target_os = "linux"))]
        0
    }

    /// Ask for huge pages for the heap from `start` to its end (the break `end`), also for
    /// what it holds already.
    pub(super) fn advise(start: usize, end: usize) {
        advise_range(start, end.next_multiple_of(PAGE), true);
    }

    fn advise_range(start: usize, end: usize, collapse: bool) {
        let (start, end) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
        if end < start + LEAST {
            return;
        }
        #[cfg(target_os = "linux")]
        // SAFETY: the range is whole pages of this process's own memory; MADV_HUGEPAGE and
        // MADV_COLLAPSE (25, Linux 6.1) change no contents, and their failures (a page the
        // allocator has meanwhile given back: ENOMEM) are harmless and ignored.
        unsafe {
            let p = start as *mut libc::c_void;
            libc::madvise(p, end - start, libc::MADV_HUGEPAGE);
            if collapse {
                const MADV_COLLAPSE: libc::c_int = 25;
                libc::madvise(p, end - start, MADV_COLLAPSE);
            }
        }
        let _ = collapse;
    }

    /// The heap has grown past `advised` by enough: advise the new part (see [`advise`]).
    pub(super) fn follow_heap(advised: &mut usize) {
        let end = heap_end();
        if *advised > 0 && end >= *advised + LEAST {
            advise(*advised, end);
            *advised = end;
        }
    }

    /// An empty vector with room for `n` items, its memory advised before anything touches it.
    pub(super) fn vec<X>(n: usize) -> Vec<X> {
        let v = Vec::with_capacity(n);
        let start = v.as_ptr() as usize;
        advise_range(
            start,
            start + n.saturating_mul(std::mem::size_of::<X>()),
            false,
        );
        v
    }
}

/// The simulated machine's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimConfig {
    /// The interconnect.
    pub topology: Topology,
    /// Message latency on a crossbar (T_rout).
    pub t_rout: u64,
    /// Latency per hop on other topologies (default: T_rout).
    pub t_hop: Option<u64>,
    /// Cost of one split on the splitting PE (T_split).
    pub t_split: u64,
    /// The sender's cost per message (LogP overhead o).
    pub t_send: u64,
    /// The receiver's cost per message handled (LogP overhead o on the receiving side).
    #[serde(default)]
    pub t_recv: u64,
    /// Random extra delay per message.
    pub delay: Delay,
    /// Slow PEs: (PE, factor); a unit of work takes `factor` time units there.
    pub slow: Vec<(usize, f64)>,
    /// Slow links: (PE, extra latency of every message that PE sends).
    pub slow_links: Vec<(usize, u64)>,
    /// Record per-PE segments for a Gantt chart when P is at most this.
    pub timeline_limit: usize,
    /// Give up (with an error) after this many events.
    pub max_events: u64,
    /// Charge message lengths (paper 002 §6.1): a time per byte on top of the latency, by
    /// packet or cut-through routing. None (the default): sizes cost nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<MessageLength>,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            topology: Topology::Crossbar,
            t_rout: 10,
            t_hop: None,
            t_split: 5,
            t_send: 0,
            t_recv: 0,
            delay: Delay::None,
            slow: vec![],
            slow_links: vec![],
            timeline_limit: 512,
            max_events: 20_000_000_000,
            length: None,
        }
    }
}

impl SimConfig {
    /// Check the parameters against P.
    pub fn validate(&self, p: usize) -> Result<(), ConfigError> {
        let times = [
            ("T_rout", self.t_rout),
            ("T_hop", self.t_hop.unwrap_or(0)),
            ("T_split", self.t_split),
            ("T_send", self.t_send),
            ("T_recv", self.t_recv),
        ];
        let delay = match self.delay {
            Delay::None => 0.0,
            Delay::Uniform(max) => max as f64,
            Delay::Exponential(mean) => mean,
        };
        let links = self
            .slow_links
            .iter()
            .map(|&(_, d)| ("slow link", d as f64));
        for (what, value) in times
            .iter()
            .map(|&(w, t)| (w, t as f64))
            .chain([("random delay", delay)])
            .chain(links)
        {
            if !(value.is_finite() && value <= MAX_TIME_PARAMETER as f64) {
                return Err(ConfigError::SimTimeTooLarge {
                    what,
                    value,
                    max: MAX_TIME_PARAMETER,
                });
            }
        }
        for &(pe, factor) in &self.slow {
            if pe >= p {
                return Err(ConfigError::NoSuchPe {
                    what: "slow PE",
                    pe,
                    pes: p,
                });
            }
            if !(factor.is_finite() && (1.0..=MAX_SLOWNESS).contains(&factor)) {
                return Err(ConfigError::Slowness { pe, factor });
            }
        }
        for &(pe, _) in &self.slow_links {
            if pe >= p {
                return Err(ConfigError::NoSuchPe {
                    what: "the sender of slow link",
                    pe,
                    pes: p,
                });
            }
        }
        if let Some(l) = self.length {
            if !(l.byte_time.is_finite() && (0.0..=1e6).contains(&l.byte_time)) {
                return Err(ConfigError::SimTimeTooLarge {
                    what: "time per byte",
                    value: l.byte_time,
                    max: 1_000_000,
                });
            }
        }
        if self.t_rout == 0 && self.t_hop.is_none_or(|h| h == 0) || self.t_hop == Some(0) {
            return Err(ConfigError::ZeroLatency);
        }
        Ok(())
    }
}

/// The largest latency, split, send or receive time, random delay and slow-link delay the
/// simulator accepts (10^12 time units): with at most 2^20 PEs and 2·10^10 events, virtual time
/// stays far from 2^64.
pub const MAX_TIME_PARAMETER: u64 = 1_000_000_000_000;

/// The largest slowness factor accepted.
pub const MAX_SLOWNESS: f64 = 1e6;

/// The bound of Theorem 1 of paper 000 beside the measured time.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Theorem1 {
    /// T_seq / P.
    pub t_seq_over_p: f64,
    /// The measured lower-order term T_par − T_seq/P.
    pub lower_order: f64,
    /// The splitting depth h seen (largest generation).
    pub h: u32,
    /// lower_order / (h · (T_rout + T_split)): the constant hidden in the O(·); `None` when
    /// nothing was split (h = 0), where the ratio has no meaning.
    pub constant: Option<f64>,
}

/// Paper 000 Lemma 1(3): how many requests a request finds already waiting in the queue of
/// the PE it arrives at (the proof bounds the expectation by 1: at most P requests are
/// active, spread over P PEs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestQueue {
    /// Requests that arrived at a PE that had not finished.
    pub requests: u64,
    /// The sum over them of the requests they found waiting.
    pub waiting: u64,
    /// The most requests any request found waiting.
    pub max_waiting: u64,
}

impl RequestQueue {
    pub(crate) fn add(&mut self, waiting: u64) {
        self.requests += 1;
        self.waiting += waiting;
        self.max_waiting = self.max_waiting.max(waiting);
    }

    /// The mean queue length a request met (`None` without requests).
    pub fn mean(&self) -> Option<f64> {
        (self.requests > 0).then(|| self.waiting as f64 / self.requests as f64)
    }
}

/// Everything a simulation measured.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SimReport<O> {
    /// The common report (times in virtual units; `t_seq` = total work units).
    pub report: Report<O>,
    /// The simulated machine.
    pub sim: SimConfig,
    /// When the last work unit ended.
    pub last_work_end: u64,
    /// Virtual time from the last work unit to PE 0 holding the result.
    pub termination_delay: u64,
    /// The largest message latency without random delays (for reading the delay).
    pub diameter_latency: u64,
    /// Theorem 1 of paper 000 against the measurement.
    pub theorem1: Theorem1,
    /// Random shift: the bound of Theorem 14.2 of paper 001, T_seq/P + (3ch + 3)Δ with
    /// c = 2 + 4 ln 2 (probability ≥ 1 − 1/P) and the measured h, not counting t_atomic.
    pub theorem_14_2: Option<f64>,
    /// (time, fraction of PEs busy).
    pub utilization: Vec<(u64, f64)>,
    /// Events simulated.
    pub events: u64,
    /// Paper 000 Lemma 1(3): the requests a request found queued where it arrived (not
    /// serialized, so that reports stay as they were).
    #[serde(skip)]
    pub request_queue: RequestQueue,
    /// Real seconds the simulation took (not serialized: output stays reproducible).
    #[serde(skip)]
    pub wall_seconds: f64,
    /// Per-PE activity segments (only when P ≤ timeline_limit).
    #[serde(skip)]
    pub timeline: Option<Vec<Segment>>,
}

impl<O> SimReport<O> {
    /// A readable summary of the simulation-specific figures.
    pub fn summary(&self) -> String {
        let t = &self.theorem1;
        let shift = match self.theorem_14_2 {
            Some(b) => format!(
                "Theorem 14.2 (random shift, Δ = {}): T_par ≤ T_seq/P + (3ch+3)Δ + t_atomic = {b:.0} + t_atomic; measured {}\n",
                self.report.config.balancer.round().unwrap_or_default(),
                self.report.t_par
            ),
            None => String::new(),
        };
        let hop = self.sim.t_hop.unwrap_or(self.sim.t_rout);
        format!(
            "network {} (T_rout {}, T_hop {hop}, T_split {}, T_send {}, T_recv {}, delay {})\n\
             T_par {} (virtual)  T_seq {}  efficiency {:.4}\n\
             Theorem 1: T_seq/P = {:.1}   T_par − T_seq/P = {:.1}   h = {}   (T_par − T_seq/P)/(h·(T_rout+T_split)) = {}\n\
             termination detected {} after the last work unit ({:.2} × diameter latency {})\n\
             {}{} events\n",
            self.sim.topology,
            self.sim.t_rout,
            self.sim.t_split,
            self.sim.t_send,
            self.sim.t_recv,
            self.sim.delay,
            self.report.t_par,
            self.report.t_seq.unwrap_or(0.0),
            self.report.efficiency().unwrap_or(0.0),
            t.t_seq_over_p,
            t.lower_order,
            t.h,
            t.constant
                .map_or("— (h = 0: nothing was split)".into(), |c| format!("{c:.3}")),
            self.termination_delay,
            self.termination_delay as f64 / self.diameter_latency.max(1) as f64,
            self.diameter_latency,
            shift,
            self.events,
        )
    }

    /// How fast the simulator ran (real time; differs between runs, so kept apart).
    pub fn speed(&self) -> String {
        format!(
            "simulated {} events in {:.3} s: {:.2} M events/s",
            self.events,
            self.wall_seconds,
            self.events as f64 / self.wall_seconds.max(1e-9) / 1e6
        )
    }
}

/// Simulate a run of `root` on `config.pes` PEs of the machine `sim`.
pub fn simulate<T: Task>(
    root: T,
    config: &Config,
    sim: &SimConfig,
) -> Result<SimReport<T::Output>, RunError> {
    let resolved = crate::task::bag::resolve_depth(config, &root)?;
    let config = &resolved.config;
    sim.validate(config.pes)?;
    let start = Instant::now();
    let result = match catch_quietly(|| {
        if config.check {
            simulate_inner(crate::check::Checked::new(root), config, sim, start).map(
                |(report, limit, remaining)| {
                    let remaining = remaining
                        .into_iter()
                        .map(crate::check::Checked::into_inner)
                        .collect();
                    (report, limit, remaining)
                },
            )
        } else {
            simulate_inner(root, config, sim, start)
        }
    }) {
        Ok(r) => r,
        Err(payload) => Err(panic_error(usize::MAX, payload)),
    };
    let (mut report, limit, remaining) = result?;
    report.report.notes.extend(resolved.note);
    match limit {
        Some(limit) => Err(RunError::LimitReached {
            limit,
            partial: Partial::new(report.report).with_remaining(remaining),
        }),
        None => Ok(report),
    }
}

/// A simulated run's report, the run limit reached (if any) and the work a stop left
/// unfinished (`Config::keep_remaining`).
type SimEnd<T> = (
    SimReport<<T as Task>::Output>,
    Option<crate::error::Limit>,
    Vec<T>,
);

fn simulate_inner<T: Task>(
    root: T,
    config: &Config,
    sim: &SimConfig,
    start: Instant,
) -> Result<SimEnd<T>, RunError> {
    let p = config.pes;
    let slowness: HashMap<usize, f64> = sim.slow.iter().copied().collect();
    let mut root = Some(root);
    // The PEs know the network they sit on (poll-and-shuffle plans its phases for it).
    let pe_config = &Config {
        network: Some(sim.topology),
        ..config.clone()
    };
    let clock = MachineTime {
        now: 0,
        ticks_per_round_unit: 1,
        tick_seconds: 1.0,
    };
    let mut pes = huge_pages::vec(p);
    let heap_before = huge_pages::heap_end();
    pes.extend((0..p).map(|i| {
        let root = if i == 0 { root.take() } else { None };
        Slot {
            sim: SimPe::new(slowness.get(&i).copied().unwrap_or(1.0)),
            driver: PeDriver::new(i, pe_config, root, clock, BoundExchange::TreeFlood, None),
        }
    }));
    let heap_after = huge_pages::heap_end();
    huge_pages::advise(heap_before, heap_after);
    let t_hop = sim.t_hop.unwrap_or(sim.t_rout);
    let network = Network::new(
        sim.topology,
        p,
        t_hop,
        sim.delay,
        sim.slow_links.iter().copied().collect(),
    )
    .with_length(sim.length);
    let diameter_latency = network.diameter_latency();
    let mut engine = Engine {
        current: 0,
        pes,
        world: World {
            config: sim,
            queue: EventQueue::new(),
            network,
            rng: Xoshiro256PlusPlus::seed_from_u64(config.seed ^ 0x5EED_0F5E_ED0F),
            improvements: Vec::new(),
            learning: vec![Learning::default(); p],
            work_in_flight: 0,
            last_work_end: 0,
            events: 0,
            timeline: (p <= sim.timeline_limit).then(|| Timeline::new(p)),
            utilization: Utilization::default(),
            violation: None,
            finish_sent: false,
            total_units: 0,
            started: start,
            request_queue: RequestQueue::default(),
            heap_advised: heap_after,
        },
    };
    engine.run()?;
    let Engine { pes, world, .. } = engine;
    let State::Done { at: t_par } = pes[0].sim.state else {
        unreachable!("every PE finished")
    };
    let mut output = None;
    let mut limit = None;
    let mut remaining = Vec::new();
    let mut per_pe = Vec::with_capacity(p);
    for (
        i,
        Slot {
            driver: mut pe,
            sim: sim_pe,
        },
    ) in pes.into_iter().enumerate()
    {
        let learning = world.learning[i];
        let State::Done { at } = sim_pe.state else {
            unreachable!("every PE finished")
        };
        limit = limit.or(pe.limit_hit());
        remaining.extend(pe.take_remaining());
        let (mut stats, out) = pe.finish(at);
        let (sum, n) = learning.latency;
        stats.bound_latency = (n > 0).then(|| sum as f64 / n as f64);
        if i == 0 {
            output = out;
        }
        per_pe.push(stats);
    }
    let output =
        output.ok_or_else(|| RunError::Internal("PE 0 finished without the result".into()))?;
    let mut report = Report::new(output, "sim", config.clone(), t_par as f64, per_pe);
    let t_seq = report.totals.work_units as f64;
    report.t_seq = Some(t_seq);
    let h = report.totals.max_generation;
    let t_seq_over_p = t_seq / p as f64;
    let lower_order = t_par as f64 - t_seq_over_p;
    let theorem1 = Theorem1 {
        t_seq_over_p,
        lower_order,
        h,
        constant: (h > 0)
            .then(|| lower_order / (f64::from(h) * (sim.t_rout + sim.t_split).max(1) as f64)),
    };
    let theorem_14_2 = match config.balancer {
        Balancer::RandomShift { round, .. } => {
            let c = 2.0 + 4.0 * std::f64::consts::LN_2;
            Some(t_seq_over_p + (3.0 * c * f64::from(h) + 3.0) * round as f64)
        }
        _ => None,
    };
    let mut timeline = world.timeline;
    let report = SimReport {
        report,
        theorem_14_2,
        sim: sim.clone(),
        last_work_end: world.last_work_end,
        termination_delay: t_par.saturating_sub(world.last_work_end),
        diameter_latency,
        theorem1,
        utilization: world.utilization.curve(p, t_par),
        events: world.events,
        request_queue: world.request_queue,
        wall_seconds: start.elapsed().as_secs_f64(),
        timeline: timeline.take().map(Timeline::into_segments),
    };
    Ok((report, limit, remaining))
}

/// The simulator as a [`Machine`](super::Machine): runs every computation on the simulated
/// machine `sim`.
#[derive(Debug, Clone, Default)]
pub struct Simulator {
    /// The simulated machine's parameters.
    pub sim: SimConfig,
}

impl<O> AsRef<Report<O>> for SimReport<O> {
    fn as_ref(&self) -> &Report<O> {
        &self.report
    }
}

impl super::Machine for Simulator {
    type Report<O> = SimReport<O>;

    fn name(&self) -> &'static str {
        "sim"
    }

    fn run<T: Task>(
        &self,
        root: T,
        config: &Config,
    ) -> Result<Option<SimReport<T::Output>>, RunError> {
        simulate(root, config, &self.sim).map(Some)
    }
}
