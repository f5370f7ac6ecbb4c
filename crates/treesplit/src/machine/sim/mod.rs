//! The simulator: the machine model of paper 000 §1.1 in deterministic virtual time.
//!
//! P PEs, each with one FIFO message queue, drive the *same* protocol state machines as
//! the thread machine. Tasks run for real (the answer is real) but time is virtual: one
//! work unit takes one time unit (times a PE's slowness factor), a split costs T_split, a
//! message takes the network's latency (T_rout on a crossbar, hops·T_hop on a topology,
//! plus an optional random delay), and the sender pays T_send per message. A busy PE polls
//! its queue after every slice of Δt units; an idle PE handles a message when it arrives.
//!
//! Events are kept in a priority queue ordered by (time, sequence number), and every random
//! choice comes from seeded generators, so a run is reproducible bit for bit from its seed.
//! Besides the protocol's own checks, the simulator watches the whole machine: it reports an
//! error if termination is declared while any PE holds work or any work message is in
//! flight, if work reaches a finished PE, or if the run deadlocks.

pub mod adversary;
pub mod network;
pub mod timeline;

pub use network::{Delay, Network, Topology};
pub use timeline::{Activity, Segment};

use crate::config::Config;
use crate::error::{panic_message, RunError};
use crate::protocol::{self, termination::Signal, Message, PeId, Protocol, Step};
use crate::stats::{PeStats, Report};
use crate::task::{CountingIncumbent, Incumbent, SharedIncumbent, Task};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;
use timeline::{Timeline, Utilization};

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
        }
    }
}

impl SimConfig {
    /// Check the parameters against P.
    pub fn validate(&self, p: usize) -> Result<(), String> {
        for &(pe, f) in &self.slow {
            if pe >= p {
                return Err(format!("slow PE {pe} does not exist (P = {p})"));
            }
            if !(f.is_finite() && f >= 1.0) {
                return Err(format!(
                    "slowness factor of PE {pe} must be a finite number ≥ 1, got {f}"
                ));
            }
        }
        for &(pe, _) in &self.slow_links {
            if pe >= p {
                return Err(format!("slow link of PE {pe}: no such PE (P = {p})"));
            }
        }
        if self.t_rout == 0 && self.t_hop.is_none_or(|h| h == 0) {
            return Err("t-rout must be at least 1 (messages cannot be instantaneous)".into());
        }
        if self.t_hop == Some(0) {
            return Err("t-hop must be at least 1".into());
        }
        Ok(())
    }
}

/// The bound of Theorem 1 of paper 000 beside the measured time.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Theorem1 {
    /// T_seq / P.
    pub t_seq_over_p: f64,
    /// The measured lower-order term T_par − T_seq/P.
    pub lower_order: f64,
    /// The splitting depth h seen (largest generation).
    pub h: u32,
    /// lower_order / (h · (T_rout + T_split)): the constant hidden in the O(·).
    pub constant: f64,
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
                self.report.config.round, self.report.t_par
            ),
            None => String::new(),
        };
        let hop = self.sim.t_hop.unwrap_or(self.sim.t_rout);
        format!(
            "network {} (T_rout {}, T_hop {hop}, T_split {}, T_send {}, T_recv {}, delay {})\n\
             T_par {} (virtual)  T_seq {}  efficiency {:.4}\n\
             Theorem 1: T_seq/P = {:.1}   T_par − T_seq/P = {:.1}   h = {}   (T_par − T_seq/P)/(h·(T_rout+T_split)) = {:.3}\n\
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
            t.constant,
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

enum Event<T: Task> {
    SliceEnd(PeId),
    /// Round `r` of a synchronous balancer starts on every PE.
    Round(u64),
    /// A branch-and-bound incumbent flooded over the binary tree of PEs.
    BoundArrive {
        from: PeId,
        to: PeId,
        value: i64,
    },
    Arrive {
        from: PeId,
        to: PeId,
        message: Message<T>,
        /// The sender's incumbent when it sent (piggybacked on every message).
        bound: i64,
    },
}

/// The event queue: the heap orders small keys (time, sequence number, slot); the events
/// themselves, which carry messages and tasks, wait in a slab and never move.
struct EventQueue<T: Task> {
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
    slab: Vec<Option<Event<T>>>,
    free: Vec<u32>,
    seq: u64,
}

impl<T: Task> EventQueue<T> {
    fn new() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            slab: Vec::new(),
            free: Vec::new(),
            seq: 0,
        }
    }

    fn push(&mut self, time: u64, event: Event<T>) {
        self.seq += 1;
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = Some(event);
                slot
            }
            None => {
                self.slab.push(Some(event));
                (self.slab.len() - 1) as u32
            }
        };
        self.heap.push(Reverse((time, self.seq, slot)));
    }

    /// The earliest event (ties: the one scheduled first).
    fn pop(&mut self) -> Option<(u64, Event<T>)> {
        let Reverse((time, _, slot)) = self.heap.pop()?;
        let event = self.slab[slot as usize]
            .take()
            .expect("a scheduled slot holds its event");
        self.free.push(slot);
        Some((time, event))
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Working,
    Waiting { since: u64 },
    Done { at: u64 },
}

struct SimPe<T: Task> {
    proto: Box<dyn Protocol<T>>,
    inbox: VecDeque<(PeId, Option<Message<T>>, i64)>,
    /// The incumbent this PE knows.
    best: SharedIncumbent,
    /// Its own offers that improved it.
    improvements: u64,
    /// Global improvements it has learned of (a prefix of `Sim::improvements`), and the sum
    /// and count of the delays with which it learned them.
    learned: usize,
    latency: (u64, u64),
    state: State,
    slowness: f64,
    busy: u64,
    idle: u64,
    bytes: u64,
}

struct Sim<'c, T: Task> {
    config: &'c SimConfig,
    pes: Vec<SimPe<T>>,
    queue: EventQueue<T>,
    network: Network,
    rng: Xoshiro256PlusPlus,
    /// Values that raised the best known anywhere, with the time they were found.
    improvements: Vec<(i64, u64)>,
    work_in_flight: u64,
    last_work_end: u64,
    events: u64,
    timeline: Option<Timeline>,
    utilization: Utilization,
    violation: Option<String>,
    /// Reused buffer for sizing messages (bytes as the MPI machine would send them).
    wire: Vec<u8>,
}

impl<T: Task> Sim<'_, T> {
    fn schedule(&mut self, time: u64, event: Event<T>) {
        self.queue.push(time, event);
    }

    fn record(&mut self, pe: PeId, start: u64, end: u64, activity: Activity) {
        if matches!(activity, Activity::Working | Activity::Splitting) {
            self.utilization.add(start, end);
        }
        if let Some(t) = &mut self.timeline {
            t.record(pe, start, end, activity);
        }
    }

    /// PE `i` spends `d` time units on `activity` from `now` (sending, receiving, splitting);
    /// returns the new time.
    fn spend(&mut self, i: PeId, now: u64, d: u64, activity: Activity) -> u64 {
        if d > 0 {
            self.record(i, now, now + d, activity);
            self.pes[i].busy += d;
        }
        now + d
    }

    /// Send what PE `i` has queued, starting at its local time `now`; returns the new time.
    fn flush(&mut self, i: PeId, mut now: u64) -> u64 {
        while let Some((to, message)) = self.pes[i].proto.poll_transmit() {
            now = self.spend(i, now, self.config.t_send, Activity::Sending);
            if message.carries_work() {
                self.work_in_flight += 1;
            }
            self.wire.clear();
            self.wire =
                postcard::to_extend(&message, std::mem::take(&mut self.wire)).unwrap_or_default();
            self.pes[i].bytes += self.wire.len() as u64;
            if i == 0 && matches!(message, Message::Termination(Signal::Finish)) {
                self.check_declared_termination();
            }
            let at = self.network.arrival(now, i, to, &mut self.rng);
            let bound = self.pes[i].best.best();
            self.schedule(
                at,
                Event::Arrive {
                    from: i,
                    to,
                    message,
                    bound,
                },
            );
        }
        now
    }

    /// Branch-and-bound: PE `i` knows `value` (found there, or learned from `from`) and passes
    /// it to its other neighbours in the binary tree of PEs, each a message with the network's
    /// latency and the sender's T_send.
    fn flood_bound(&mut self, i: PeId, from: Option<PeId>, value: i64, mut now: u64) -> u64 {
        let p = self.pes.len();
        for to in crate::protocol::tree_neighbours(i, p) {
            if Some(to) == from {
                continue;
            }
            now = self.spend(i, now, self.config.t_send, Activity::Sending);
            self.pes[i].bytes += 9;
            let at = self.network.arrival(now, i, to, &mut self.rng);
            self.schedule(at, Event::BoundArrive { from: i, to, value });
        }
        now
    }

    /// PE `i` learns of `value` at `now`; true when it improved what the PE knew.
    fn learn(&mut self, i: PeId, value: i64, now: u64) -> bool {
        if !self.pes[i].best.offer(value) {
            return false;
        }
        let pe = &mut self.pes[i];
        while let Some(&(v, found)) = self.improvements.get(pe.learned) {
            if v > value {
                break;
            }
            pe.latency.0 += now.saturating_sub(found);
            pe.latency.1 += 1;
            pe.learned += 1;
        }
        true
    }

    /// PE 0 has just declared termination: nothing may hold or carry work anywhere.
    fn check_declared_termination(&mut self) {
        if self.violation.is_some() {
            return;
        }
        if self.work_in_flight > 0 {
            self.violation = Some(format!(
                "termination declared while {} piece(s) of work were in flight",
                self.work_in_flight
            ));
        } else if let Some(busy) = self.pes.iter().position(|p| p.proto.is_busy()) {
            self.violation = Some(format!(
                "termination declared while PE {busy} still held work"
            ));
        }
    }

    /// Run PE `i` from its local time `now` until it works, waits or finishes.
    fn drive(&mut self, i: PeId, mut now: u64) {
        loop {
            while let Some((from, message, bound)) = self.pes[i].inbox.pop_front() {
                if message.as_ref().is_some_and(Message::carries_work) {
                    self.work_in_flight -= 1;
                }
                now = self.spend(i, now, self.config.t_recv, Activity::Receiving);
                let Some(message) = message else {
                    if self.learn(i, bound, now) {
                        now = self.flood_bound(i, Some(from), bound, now);
                    }
                    continue;
                };
                // The bound piggybacked on every message.
                self.learn(i, bound, now);
                self.pes[i].proto.receive(from, message);
                let splits = self.pes[i].proto.take_costs().splits;
                now = self.spend(i, now, splits * self.config.t_split, Activity::Splitting);
                now = self.flush(i, now);
            }
            let step = self.pes[i].proto.step();
            now = self.flush(i, now);
            match step {
                Step::Work { budget } => {
                    let best_before = self.pes[i].best.best();
                    let pe = &mut self.pes[i];
                    let counted = CountingIncumbent::new(&pe.best);
                    let units = pe.proto.work(budget, &counted);
                    pe.improvements += counted.improvements();
                    let best = pe.best.best();
                    if best > best_before {
                        if self.improvements.last().is_none_or(|&(v, _)| best > v) {
                            // A new global best: everyone else has yet to learn of it.
                            self.improvements.push((best, now));
                            self.pes[i].learned = self.improvements.len();
                        }
                        now = self.flood_bound(i, None, best, now);
                    }
                    // Splits done in a work slice (static balancers cutting their jobs from the
                    // root) cost T_split each, like splits on request.
                    let splits = self.pes[i].proto.take_costs().splits;
                    now = self.spend(i, now, splits * self.config.t_split, Activity::Splitting);
                    let slowness = self.pes[i].slowness;
                    let d = if slowness == 1.0 {
                        units
                    } else {
                        (units as f64 * slowness).ceil() as u64
                    };
                    self.record(i, now, now + d, Activity::Working);
                    self.pes[i].busy += d;
                    if units > 0 {
                        self.last_work_end = self.last_work_end.max(now + d);
                    }
                    self.pes[i].state = State::Working;
                    self.schedule(now + d, Event::SliceEnd(i));
                    return;
                }
                Step::Wait => {
                    if !self.pes[i].inbox.is_empty() {
                        continue;
                    }
                    self.pes[i].state = State::Waiting { since: now };
                    return;
                }
                Step::Finished => {
                    self.pes[i].state = State::Done { at: now };
                    return;
                }
            }
        }
    }

    /// Round `round` starts for PE `i`: tell it, and let it act if it is idle.
    fn start_round(&mut self, i: PeId, time: u64, round: u64) {
        if matches!(self.pes[i].state, State::Done { .. }) {
            return;
        }
        self.pes[i].proto.on_round(round);
        if let State::Waiting { since } = self.pes[i].state {
            let wake = time.max(since);
            self.record(i, since, wake, Activity::Idle);
            self.pes[i].idle += wake - since;
            self.drive(i, wake);
        }
    }

    fn handle(&mut self, time: u64, event: Event<T>) {
        match event {
            Event::Round(_) => unreachable!("rounds are handled PE by PE"),
            Event::SliceEnd(i) => self.drive(i, time),
            Event::BoundArrive { from, to, value } => self.arrive(time, from, to, None, value),
            Event::Arrive {
                from,
                to,
                message,
                bound,
            } => self.arrive(time, from, to, Some(message), bound),
        }
    }

    fn arrive(&mut self, time: u64, from: PeId, to: PeId, message: Option<Message<T>>, bound: i64) {
        match self.pes[to].state {
            State::Done { .. } => {
                if message.as_ref().is_some_and(Message::carries_work) && self.violation.is_none() {
                    self.violation = Some(format!(
                        "work from PE {from} reached PE {to} after it had finished"
                    ));
                }
            }
            State::Working => self.pes[to].inbox.push_back((from, message, bound)),
            State::Waiting { since } => {
                self.pes[to].inbox.push_back((from, message, bound));
                let wake = time.max(since);
                self.record(to, since, wake, Activity::Idle);
                self.pes[to].idle += wake - since;
                self.drive(to, wake);
            }
        }
    }
}

/// Simulate a run of `root` on `config.pes` PEs of the machine `sim`.
pub fn simulate<T: Task>(
    root: T,
    config: &Config,
    sim: &SimConfig,
) -> Result<SimReport<T::Output>, RunError> {
    config.validate().map_err(RunError::InvalidConfig)?;
    sim.validate(config.pes).map_err(RunError::InvalidConfig)?;
    let start = Instant::now();
    match catch_unwind(AssertUnwindSafe(|| {
        simulate_inner(root, config, sim, start)
    })) {
        Ok(r) => r,
        Err(payload) => Err(RunError::PePanicked {
            pe: usize::MAX,
            message: panic_message(&*payload),
        }),
    }
}

fn simulate_inner<T: Task>(
    root: T,
    config: &Config,
    sim: &SimConfig,
    start: Instant,
) -> Result<SimReport<T::Output>, RunError> {
    let p = config.pes;
    let slowness: HashMap<usize, f64> = sim.slow.iter().copied().collect();
    let mut root = Some(root);
    let pes = (0..p)
        .map(|i| SimPe {
            proto: protocol::new_pe(i, config, if i == 0 { root.take() } else { None }),
            inbox: VecDeque::new(),
            best: SharedIncumbent::new(),
            improvements: 0,
            learned: 0,
            latency: (0, 0),
            state: State::Waiting { since: 0 },
            slowness: slowness.get(&i).copied().unwrap_or(1.0),
            busy: 0,
            idle: 0,
            bytes: 0,
        })
        .collect();
    let t_hop = sim.t_hop.unwrap_or(sim.t_rout);
    let network = Network::new(
        sim.topology,
        p,
        t_hop,
        sim.delay,
        sim.slow_links.iter().copied().collect(),
    );
    let diameter_latency = network.diameter_latency();
    let mut s = Sim {
        config: sim,
        pes,
        queue: EventQueue::new(),
        network,
        rng: Xoshiro256PlusPlus::seed_from_u64(config.seed ^ 0x5EED_0F5E_ED0F),
        improvements: Vec::new(),
        work_in_flight: 0,
        last_work_end: 0,
        events: 0,
        timeline: (p <= sim.timeline_limit).then(|| Timeline::new(p)),
        utilization: Utilization::default(),
        violation: None,
        wire: Vec::new(),
    };
    for i in 0..p {
        // A panic inside user code or a protocol invariant names its PE.
        run_pe(&mut s, i, |s| s.drive(i, 0))?;
    }
    let round_length = s.pes.first().and_then(|pe| pe.proto.round_length());
    if round_length.is_some() {
        s.schedule(0, Event::Round(0));
    }
    while let Some((time, event)) = s.queue.pop() {
        s.events += 1;
        if s.events > sim.max_events {
            return Err(RunError::Internal(format!(
                "the simulation did not end within {} events",
                sim.max_events
            )));
        }
        if let Event::Round(r) = event {
            for i in 0..p {
                run_pe(&mut s, i, |s| s.start_round(i, time, r))?;
            }
            if s.pes
                .iter()
                .any(|pe| !matches!(pe.state, State::Done { .. }))
            {
                let length = round_length.unwrap_or(1).max(1);
                s.schedule(time + length, Event::Round(r + 1));
            }
            if let Some(v) = s.violation.take() {
                return Err(RunError::Internal(v));
            }
            continue;
        }
        let pe = match &event {
            Event::SliceEnd(i) => *i,
            Event::Arrive { to, .. } | Event::BoundArrive { to, .. } => *to,
            Event::Round(_) => 0,
        };
        run_pe(&mut s, pe, |s| s.handle(time, event))?;
        if let Some(v) = s.violation.take() {
            return Err(RunError::Internal(v));
        }
    }
    let stuck: Vec<usize> = (0..p)
        .filter(|&i| !matches!(s.pes[i].state, State::Done { .. }))
        .collect();
    if !stuck.is_empty() {
        return Err(RunError::Internal(format!(
            "the simulation deadlocked: {} PE(s) never finished (first: PE {})",
            stuck.len(),
            stuck[0]
        )));
    }
    if s.work_in_flight != 0 {
        return Err(RunError::Internal(format!(
            "{} piece(s) of work were never received",
            s.work_in_flight
        )));
    }
    let State::Done { at: t_par } = s.pes[0].state else {
        unreachable!("checked above")
    };
    let output = s.pes[0]
        .proto
        .take_output()
        .ok_or_else(|| RunError::Internal("PE 0 finished without the result".into()))?;
    let per_pe: Vec<PeStats> = s
        .pes
        .iter()
        .enumerate()
        .map(|(i, pe)| PeStats {
            pe: i,
            counters: pe.proto.counters().clone(),
            busy: pe.busy as f64,
            idle: pe.idle as f64,
            bytes_sent: pe.bytes,
            improvements: pe.improvements,
            bound_latency: (pe.latency.1 > 0).then(|| pe.latency.0 as f64 / pe.latency.1 as f64),
            ..PeStats::default()
        })
        .collect();
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
        constant: lower_order / (f64::from(h.max(1)) * (sim.t_rout + sim.t_split).max(1) as f64),
    };
    let theorem_14_2 = (config.balancer == crate::config::Balancer::RandomShift).then(|| {
        let c = 2.0 + 4.0 * std::f64::consts::LN_2;
        t_seq_over_p + (3.0 * c * f64::from(h) + 3.0) * config.round as f64
    });
    Ok(SimReport {
        report,
        theorem_14_2,
        sim: sim.clone(),
        last_work_end: s.last_work_end,
        termination_delay: t_par.saturating_sub(s.last_work_end),
        diameter_latency,
        theorem1,
        utilization: s.utilization.curve(p, t_par),
        events: s.events,
        wall_seconds: start.elapsed().as_secs_f64(),
        timeline: s.timeline.take().map(Timeline::into_segments),
    })
}

/// Run one step of PE `pe`; a panic in it becomes an error naming the PE.
fn run_pe<T: Task>(
    s: &mut Sim<'_, T>,
    pe: PeId,
    f: impl FnOnce(&mut Sim<'_, T>),
) -> Result<(), RunError> {
    catch_unwind(AssertUnwindSafe(|| f(s))).map_err(|payload| RunError::PePanicked {
        pe,
        message: panic_message(&*payload),
    })
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
