//! The PE driver: the one loop that runs a PE's protocol state machine on every machine.
//!
//! A protocol ([`crate::protocol`]) decides; a machine ([`crate::machine`]) moves bytes and
//! keeps time. Between them sits this driver, written once: it asks the protocol what to do
//! next (step), sends what the decision produced (flush), then acts (work a slice, wait for a
//! message, or finish). It also owns what every machine needs around that loop:
//!
//! - **rounds** of synchronous balancers, quinn-style: [`PeDriver::poll_timeout`] says when
//!   the next round starts, [`PeDriver::handle_timeout`] starts every round that is due, in
//!   order;
//! - **incumbents** of branch-and-bound: one mechanism, [`BoundExchange`], says how an
//!   improvement travels on this machine;
//! - **PE timing and statistics**: idle time, busy time, request round trips and their
//!   latency histogram, the sizes of pieces given away, bytes, and the per-PE record
//!   ([`PeStats`]) the report is built from;
//! - **the timeline** ([`crate::trace`], when configured): state changes (working,
//!   splitting, requesting, idle, terminating) and messages, in a preallocated ring per PE;
//! - **the lost-work check**: [`Envelope::carries_work`] is the one test for work that must
//!   never be dropped;
//! - **run limits** (`Config::max_units`, `Config::time_limit`, and the interrupt flag
//!   `Config::interrupt`): checked after every work
//!   slice; a PE that finds a limit reached stops the run through the protocol's early stop
//!   ([`Protocol::stop`], flooded over the tree of PEs), so every machine ends such a run
//!   cleanly, with no work lost, and reports [`PeDriver::limit_hit`]. Each PE finishes the
//!   slice it is in, so a run overshoots `max_units` by at most P·Δt units.
//!
//! Machines become transports ([`Transport`]): send an envelope, take one that arrived, wait
//! for one until a deadline, and account for a slice of work. Real machines (threads, MPI)
//! block in `recv_until` and run [`drive`] once to the end; the simulator suspends there
//! and at every slice, and calls [`drive`] again when the PE's next event comes. Time is in
//! *ticks*: nanoseconds since the common start on real machines, virtual time units in the
//! simulator.

mod bounds;

pub(crate) use bounds::BoundExchange;

use crate::config::Config;
use crate::error::{Limit, RunError};
use crate::protocol::termination::Signal;
use crate::protocol::{self, Costs, Message, PeCounters, PeId, Protocol, Step};
use crate::stats::{Log2Histogram, PeStats, PhaseStats, SplitSizes};
use crate::task::{CountingIncumbent, Incumbent, SharedIncumbent, Task};
use crate::trace::{MessageKind, PeState, PeTrace};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// What travels between PEs: a protocol message, or a message of the machine layer beside it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub(crate) enum Envelope<T: Task> {
    /// A message of the balancer's protocol.
    Protocol(Message<T>),
    /// Branch-and-bound: a new incumbent value.
    Bound(i64),
    /// Threads: another PE failed; stop now.
    Abort,
    /// MPI: a rank's statistics for rank 0 at the end of the run.
    Stats(Box<WireStats>),
}

impl<T: Task> Envelope<T> {
    /// True for envelopes that carry work, which must never be lost.
    pub(crate) fn carries_work(&self) -> bool {
        matches!(self, Envelope::Protocol(m) if m.carries_work())
    }
}

/// An envelope taken from a PE's queue.
pub(crate) struct Incoming<T: Task> {
    /// The sending PE.
    pub from: PeId,
    /// What it sent.
    pub envelope: Envelope<T>,
    /// The sender's incumbent, piggybacked on the message (simulator), if any.
    pub bound: Option<i64>,
}

/// One slice of work, as the transport accounts for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slice {
    /// Work units done.
    pub units: u64,
    /// The units the slice could do.
    pub budget: u64,
    /// Costs incurred in the slice (splits of static balancers cutting their jobs).
    pub costs: Costs,
    /// The PE's incumbent improved to this value in the slice.
    pub improved: Option<i64>,
}

/// One handled envelope, as the transport accounts for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Handled {
    /// Costs of handling it (splits made to answer a request).
    pub costs: Costs,
    /// The PE learned a better incumbent (from a bound message or a piggybacked one).
    pub learned: Option<i64>,
}

/// A transport's answer to [`Transport::recv_until`] and [`Transport::worked`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on with the loop.
    Continue,
    /// Hand control back to the machine (the simulator resumes the PE at its next event).
    Suspend,
}

/// What a machine provides to [`drive`]: the PE's link to the others and its clock.
pub(crate) trait Transport<T: Task> {
    /// The PE's current time in ticks.
    fn now(&mut self) -> u64;
    /// Send `envelope` to PE `to`; `bound` is the sender's incumbent (the simulator
    /// piggybacks it). Returns the bytes put on the wire (0 when nothing is serialized).
    fn send(&mut self, to: PeId, envelope: Envelope<T>, bound: i64) -> Result<u64, RunError>;
    /// An envelope that has arrived, without waiting.
    fn try_recv(&mut self) -> Result<Option<Incoming<T>>, RunError>;
    /// The PE is idle: wait until an envelope arrives (the next `try_recv` returns it) or the
    /// tick `deadline` passes. `Suspend` hands control back to the machine.
    fn recv_until(&mut self, deadline: Option<u64>) -> Result<Flow, RunError>;
    /// An envelope was handled (the simulator charges its time).
    fn handled(&mut self, handled: &Handled);
    /// A work slice was done (real machines have spent its time already; the simulator
    /// charges it and suspends until it ends).
    fn worked(&mut self, slice: &Slice) -> Result<Flow, RunError>;
    /// Run limits: the work units done by all PEs so far as this PE can know them, after it
    /// did `units` more (threads, simulator: the exact total; MPI: this rank's own units
    /// times P, so each rank stops at its share). Only called when `max_units` is set.
    fn total_units(&mut self, units: u64) -> u64;
    /// Run limits: wall-clock time since the run started (the simulator's too: time limits
    /// are real time on every machine). Only called when `time_limit` is set.
    fn wall_clock(&mut self) -> Duration;
}

/// "No tick": a PE not waiting, or no request in flight.
const NONE: u64 = u64::MAX;

/// A PE's state machine with everything the machines need around it. The fields a work
/// slice or a wake-up touches fill the first 64 bytes, those of sending and answering the
/// next 64 (`repr(C)` keeps them there): the simulator runs millions of events over up to a
/// million PEs, and every cache line an event touches counts.
#[repr(C)]
pub(crate) struct PeDriver<T: Task> {
    // First 64 bytes: a work slice and a wake-up.
    proto: Box<dyn Protocol<T>>,
    /// The incumbent this PE knows.
    incumbent: Known,
    /// The best value this PE has announced or learned (only better ones are sent).
    announced: i64,
    /// The tick the PE has waited since (`NONE`: it is not waiting), and idle ticks in all.
    waiting_since: u64,
    idle: u64,
    /// Synchronous balancers: the round length in ticks (0: no rounds).
    round_ticks: u64,
    // Next 64 bytes: sending and answering.
    /// The request in flight since this tick (`NONE`: none), and the answered requests'
    /// round trips (sum, count).
    request_out: u64,
    rtt: (u64, u64),
    bytes: u64,
    /// The timeline, when the configuration asks for one (checked at every slice and
    /// message, so it lives here; None costs one comparison).
    trace: Option<Box<PeTrace>>,
    /// The next round to start.
    next_round: u64,
    me: u32,
    /// How improvements travel.
    bounds: BoundExchange,
    /// `bounds_out` holds values to send (checked at every flush).
    bounds_pending: bool,
    /// The PE has seen termination detected (timeline: it waits as "terminating").
    terminating: bool,
    /// The protocol wants the clock (`Protocol::on_clock`): the DAG schedulers.
    clocked: bool,
    /// The best value this PE has sent or passed on.
    flooded: i64,
    // Touched rarely.
    /// Incumbent values to send, with their destinations.
    bounds_out: Vec<(u32, i64)>,
    /// The tick the PE started.
    born: u64,
    p: u32,
    /// Seconds per tick, for the report (1 in the simulator: virtual units stay units).
    tick_seconds: f64,
    /// This PE's offers that improved its incumbent.
    improvements: u64,
    /// Request latencies in ticks, and the pieces this PE gave away.
    latency: Log2Histogram,
    split_sizes: SplitSizes,
    /// Run limits (`Config::max_units`, `Config::time_limit`), and the one this PE found
    /// reached.
    max_units: Option<u64>,
    time_limit: Option<Duration>,
    /// Stops the run like a limit once set (`Config::interrupt`).
    interrupt: crate::config::Interrupt,
    limit_hit: Option<Limit>,
}

impl<T: Task> PeDriver<T> {
    /// PE `me` of the configured run (PE 0 passes the root), with the machine's clock, its
    /// rule for incumbents, and the incumbent all PEs share if they share one (else the PE
    /// keeps its own).
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        root: Option<T>,
        machine: MachineTime,
        bounds: BoundExchange,
        shared: Option<Arc<SharedIncumbent>>,
    ) -> Self {
        let incumbent = match shared {
            Some(shared) => Known::Shared(shared),
            None => Known::Own(SharedIncumbent::new()),
        };
        if let Some(value) = config.incumbent {
            // A resumed search starts from the bound it had found.
            incumbent.get().offer(value);
        }
        let proto = protocol::new_pe(me, config, root);
        let round_ticks = proto
            .round_length()
            .map_or(0, |r| r.saturating_mul(machine.ticks_per_round_unit).max(1));
        let clocked = proto.wants_clock();
        PeDriver {
            clocked,
            proto,
            announced: incumbent.get().best(),
            incumbent,
            round_ticks,
            waiting_since: NONE,
            // MAX_PES (2^20) fits.
            me: me as u32,
            bounds,
            bounds_pending: false,
            flooded: i64::MIN,
            bounds_out: Vec::new(),
            next_round: 0,
            p: config.pes as u32,
            improvements: 0,
            born: machine.now,
            idle: 0,
            request_out: NONE,
            rtt: (0, 0),
            bytes: 0,
            tick_seconds: machine.tick_seconds,
            latency: Log2Histogram::default(),
            split_sizes: SplitSizes::default(),
            trace: config.trace.map(|capacity| {
                let mut t = Box::new(PeTrace::new(me as u32, capacity));
                t.enter(PeState::Idle, machine.now);
                t
            }),
            terminating: false,
            max_units: config.max_units,
            time_limit: config.time_limit,
            interrupt: config.interrupt.clone(),
            limit_hit: None,
        }
    }

    /// Timeline: the PE enters `state` now (the clock is read only on a change). The
    /// recording code stays out of line, so that [`drive`] stays small enough to be inlined
    /// into the simulator's event loop, as it was before timelines existed.
    #[inline]
    fn trace_state(&mut self, state: PeState, net: &mut impl Transport<T>) {
        if self.trace.is_some() {
            self.trace_state_cold(state, net);
        }
    }

    #[cold]
    #[inline(never)]
    fn trace_state_cold(&mut self, state: PeState, net: &mut impl Transport<T>) {
        if let Some(t) = &mut self.trace {
            if t.state() != Some(state) {
                t.enter(state, net.now());
            }
        }
    }

    /// Timeline: the PE waits (requesting, idle or terminating).
    #[cold]
    #[inline(never)]
    fn trace_wait(&mut self, net: &mut impl Transport<T>) {
        let state = if self.terminating {
            PeState::Terminating
        } else if self.request_out != NONE {
            PeState::Requesting
        } else {
            PeState::Idle
        };
        self.trace_state_cold(state, net);
    }

    /// Timeline: a message of `kind` from `from` was delivered at `now`.
    #[cold]
    #[inline(never)]
    fn trace_receive(&mut self, from: PeId, kind: MessageKind, now: u64) {
        if let Some(t) = &mut self.trace {
            t.receive(from as u32, kind, now);
        }
    }

    /// Statistics of a message sent that is more than a request: a piece's size, the
    /// termination signal, and the timeline's record of the message.
    #[inline(never)]
    fn note_sent(&mut self, to: PeId, message: &Message<T>, now: impl FnOnce() -> u64) {
        match message {
            Message::Work {
                task, generation, ..
            } => self.split_sizes.add(task.estimate(), *generation),
            Message::Bundle { tasks, .. } => {
                for (task, generation) in tasks {
                    self.split_sizes.add(task.estimate(), *generation);
                }
            }
            Message::Termination(Signal::Finish) => self.terminating = true,
            _ => {}
        }
        if let Some(t) = &mut self.trace {
            t.send(to as u32, message_kind(message), now());
        }
    }

    /// The run limit this PE found reached and stopped the run for, if any.
    pub(crate) fn limit_hit(&self) -> Option<Limit> {
        self.limit_hit
    }

    /// After a slice of `units`: stop the run if a limit is reached (first time only).
    fn check_limits(&mut self, units: u64, net: &mut impl Transport<T>) {
        if self.limit_hit.is_some() {
            return;
        }
        let hit = match (self.max_units, self.time_limit) {
            (Some(max), _) if net.total_units(units) >= max => Some(Limit::Units(max)),
            (_, Some(limit)) if net.wall_clock() >= limit => Some(Limit::Time(limit)),
            _ if self.interrupt.is_set() => Some(Limit::Interrupted),
            _ => None,
        };
        if let Some(limit) = hit {
            self.limit_hit = Some(limit);
            self.proto.stop();
        }
    }

    /// The tick at which the next round starts (None: the protocol has no rounds; round 0
    /// starts at tick 0).
    pub(crate) fn poll_timeout(&self) -> Option<u64> {
        (self.round_ticks > 0).then(|| self.next_round.saturating_mul(self.round_ticks))
    }

    /// Start every round due by tick `now`, in order: synchronous protocols (the permutation
    /// rounds of poll-and-shuffle) must not miss one, even after a long slice.
    pub(crate) fn handle_timeout(&mut self, now: u64) {
        if self.round_ticks == 0 {
            return;
        }
        let due = now / self.round_ticks;
        while self.next_round <= due {
            self.proto.on_round(self.next_round);
            self.next_round += 1;
        }
    }

    /// The PE stops waiting at tick `now` (no-op when it was not waiting).
    pub(crate) fn wake(&mut self, now: u64) {
        if self.waiting_since != NONE {
            self.idle += now.saturating_sub(self.waiting_since);
            self.waiting_since = NONE;
        }
    }

    /// True while the PE waits.
    pub(crate) fn is_waiting(&self) -> bool {
        self.waiting_since != NONE
    }

    /// Decide what to do next; the messages the decision produced wait in the protocol's
    /// queue for the next flush.
    pub(crate) fn poll(&mut self) -> Step {
        self.proto.step()
    }

    /// Run a work slice of at most `budget` units.
    pub(crate) fn work(&mut self, budget: u64) -> Slice {
        let counted = CountingIncumbent::new(self.incumbent.get());
        let units = self.proto.work(budget, &counted);
        let improvements = counted.improvements();
        if improvements > 0 {
            self.improvements += improvements;
        }
        let best = self.incumbent.get().best();
        let improved = (best > self.announced).then(|| {
            self.announced = best;
            self.flooded = self.flooded.max(best);
            for to in self.bounds.targets(self.me as PeId, self.p as usize, None) {
                self.bounds_out.push((to as u32, best));
                self.bounds_pending = true;
            }
            best
        });
        Slice {
            units,
            budget,
            costs: self.proto.take_costs(),
            improved,
        }
    }

    /// The simulator's run-ahead, right after a slice of `budget` units that did its whole
    /// budget at no cost and improved nothing: do up to `max` more such slices now
    /// ([`crate::protocol::pe::PeCore::run_ahead`]); returns how many were done. None where the
    /// loop of [`drive`] would do more than work between two slices of a busy PE with no
    /// message: rounds, the clock, a timeline, run limits, incumbents to send.
    pub(crate) fn run_ahead(&mut self, budget: u64, max: u32) -> u32 {
        if self.round_ticks > 0
            || self.clocked
            || self.trace.is_some()
            || self.bounds_pending
            || self.max_units.is_some()
            || self.time_limit.is_some()
            || self.interrupt.0.is_some()
        {
            return 0;
        }
        self.proto.run_ahead(budget, max, self.incumbent.get())
    }

    /// End the run-ahead: the first `keep` of its slices are done, the others undone.
    pub(crate) fn settle_ahead(&mut self, keep: u32) {
        self.proto.settle_ahead(keep, self.incumbent.get());
    }

    /// Handle an envelope that arrived at tick `now`. Machine envelopes (abort, statistics)
    /// are the transport's business and never reach here.
    pub(crate) fn handle(&mut self, incoming: Incoming<T>, now: u64) -> Handled {
        let Incoming {
            from,
            envelope,
            bound,
        } = incoming;
        let mut learned = bound.and_then(|b| self.learn(b));
        match envelope {
            Envelope::Protocol(message) => {
                // The answers to a request: a rejection, a piece, or a master's bundle.
                if matches!(
                    message,
                    Message::Reject | Message::Work { .. } | Message::Bundle { .. }
                ) && self.request_out != NONE
                {
                    let latency = now.saturating_sub(self.request_out);
                    self.rtt.0 += latency;
                    self.rtt.1 += 1;
                    self.latency.add(latency);
                    self.request_out = NONE;
                }
                if self.trace.is_some() {
                    self.trace_receive(from, message_kind(&message), now);
                }
                if matches!(message, Message::Termination(Signal::Finish)) {
                    self.terminating = true;
                }
                self.proto.receive(from, message);
            }
            Envelope::Bound(value) => {
                if self.trace.is_some() {
                    self.trace_receive(from, MessageKind::Bound, now);
                }
                learned = self.learn(value).or(learned);
                // Pass on every value not passed on yet, even one already learned from a
                // piggyback: the flood must reach this PE's part of the tree.
                if value > self.flooded {
                    self.flooded = value;
                    let v = value;
                    for to in self
                        .bounds
                        .targets(self.me as PeId, self.p as usize, Some(from))
                    {
                        self.bounds_out.push((to as u32, v));
                        self.bounds_pending = true;
                    }
                }
            }
            Envelope::Abort | Envelope::Stats(_) => {
                unreachable!("machine envelopes are handled by the transport")
            }
        }
        Handled {
            costs: self.proto.take_costs(),
            learned,
        }
    }

    /// Learn of `value` from elsewhere; `Some(value)` when it improved what this PE knew.
    fn learn(&mut self, value: i64) -> Option<i64> {
        self.announced = self.announced.max(value);
        self.incumbent.get().offer(value).then_some(value)
    }

    /// The best incumbent value this PE knows.
    pub(crate) fn best(&self) -> i64 {
        self.incumbent.get().best()
    }

    /// Where the protocol's state lies in memory (the simulator prefetches it for the PEs
    /// about to run).
    #[inline]
    pub(crate) fn protocol_address(&self) -> *const u8 {
        &*self.proto as *const dyn Protocol<T> as *const u8
    }

    /// True while the PE holds work.
    pub(crate) fn is_busy(&self) -> bool {
        self.proto.is_busy()
    }

    /// True for protocols that run in rounds.
    pub(crate) fn has_rounds(&self) -> bool {
        self.round_ticks > 0
    }

    /// The work a stop left unfinished on this PE (`Config::keep_remaining`).
    pub(crate) fn take_remaining(&mut self) -> Vec<T> {
        self.proto.take_remaining()
    }

    /// The PE's record at tick `now` (its end) and, on PE 0, the merged result.
    pub(crate) fn finish(&mut self, now: u64) -> (PeStats, Option<T::Output>) {
        self.wake(now);
        let s = self.tick_seconds;
        let life = now.saturating_sub(self.born);
        let stats = PeStats {
            pe: self.me as PeId,
            counters: self.proto.counters().clone(),
            busy: life.saturating_sub(self.idle) as f64 * s,
            idle: self.idle as f64 * s,
            bytes_sent: self.bytes,
            request_rtt: (self.rtt.1 > 0).then(|| self.rtt.0 as f64 * s / self.rtt.1 as f64),
            improvements: self.improvements,
            bound_latency: None,
            request_latency: std::mem::take(&mut self.latency),
            split_sizes: std::mem::take(&mut self.split_sizes),
            trace: self.trace.take().map(|mut t| {
                t.end = now;
                *t
            }),
            incumbent: Some(self.best()).filter(|&b| b != i64::MIN),
            phases: self.proto.phase_stats(),
        };
        (stats, self.proto.take_output())
    }
}

/// The incumbent a PE knows: its own (kept inline, next to the rest of the PE's state), or
/// one that all PEs of a process share (threads).
enum Known {
    Own(SharedIncumbent),
    Shared(Arc<SharedIncumbent>),
}

impl Known {
    fn get(&self) -> &SharedIncumbent {
        match self {
            Known::Own(own) => own,
            Known::Shared(shared) => shared,
        }
    }
}

/// A machine's clock, as a new PE sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MachineTime {
    /// The tick the PE starts at.
    pub now: u64,
    /// Ticks per unit of `Config::round` (1000 on real machines: rounds are in µs).
    pub ticks_per_round_unit: u64,
    /// Seconds per tick in reports (1e-9 on real machines; 1 in the simulator).
    pub tick_seconds: f64,
}

/// Send everything the PE has queued: the driver's own envelopes (incumbents), then the
/// protocol's messages, straight from its queue.
fn flush<T: Task>(pe: &mut PeDriver<T>, net: &mut impl Transport<T>) -> Result<(), RunError> {
    if pe.bounds_pending {
        pe.bounds_pending = false;
        for (to, value) in std::mem::take(&mut pe.bounds_out) {
            if let Some(t) = &mut pe.trace {
                t.send(to, MessageKind::Bound, net.now());
            }
            let bytes = net.send(to as PeId, Envelope::Bound(value), pe.best())?;
            pe.bytes += bytes;
        }
    }
    while let Some((to, message)) = pe.proto.poll_transmit() {
        if matches!(message, Message::Request) {
            pe.request_out = net.now();
        }
        if pe.trace.is_some()
            || matches!(
                message,
                Message::Work { .. } | Message::Bundle { .. } | Message::Termination(_)
            )
        {
            pe.note_sent(to, &message, || net.now());
        }
        let bytes = net.send(to, Envelope::Protocol(message), pe.best())?;
        pe.bytes += bytes;
    }
    Ok(())
}

/// Timeline: handling a delivered message split the task (at `now`): the PE is splitting
/// until the flush that sends the piece is done, then back in its state before.
#[cold]
#[inline(never)]
fn flush_splitting<T: Task>(
    pe: &mut PeDriver<T>,
    net: &mut impl Transport<T>,
    now: u64,
) -> Result<(), RunError> {
    let before = pe.trace.as_mut().and_then(|t| {
        let before = t.state();
        t.enter(PeState::Splitting, now);
        before
    });
    flush(pe, net)?;
    if let Some(state) = before {
        pe.trace_state_cold(state, net);
    }
    Ok(())
}

/// Drive PE `pe` over `net`: deliver → step → flush → act, until the PE finishes
/// (`Ok(Step::Finished)`) or the transport suspends it in a slice (`Ok(Step::Work { .. })`)
/// or while it waits (`Ok(Step::Wait)`); a suspended PE is driven again at its next event.
/// Inlined into each machine's one caller: the simulator runs it once per event, and its
/// transport's calls (`worked`, `try_recv`) are then inlined too.
#[inline(always)]
pub(crate) fn drive<T: Task>(
    pe: &mut PeDriver<T>,
    net: &mut impl Transport<T>,
) -> Result<Step, RunError> {
    loop {
        if pe.is_waiting() {
            pe.wake(net.now());
        }
        if pe.clocked {
            // The DAG schedulers: a task finished by the last slice completes now.
            pe.proto.on_clock(net.now());
            flush(pe, net)?;
        }
        // Deliver what has arrived.
        while let Some(incoming) = net.try_recv()? {
            let now = net.now();
            let handled = pe.handle(incoming, now);
            net.handled(&handled);
            if handled.costs.splits > 0 && pe.trace.is_some() {
                flush_splitting(pe, net, now)?;
            } else {
                flush(pe, net)?;
            }
        }
        if pe.has_rounds() {
            let now = net.now();
            pe.handle_timeout(now);
        }
        // Decide first, then send what the decision produced, then act on it. A busy PE's
        // decision rarely produces a message (a pending termination signal): it goes out with
        // the slice's own, right after the slice, in one flush per slice. (The simulator
        // charges the slice's time only in `worked`, so these messages leave at the slice's
        // start in virtual time, as they did before the driver existed; a known
        // simplification: an incumbent found in a slice is announced up to Δt early.)
        let action = pe.poll();
        if !matches!(action, Step::Work { .. }) {
            flush(pe, net)?;
        }
        match action {
            Step::Work { budget } => {
                pe.trace_state(PeState::Working, net);
                if pe.clocked {
                    pe.proto.on_clock(net.now());
                }
                let slice = pe.work(budget);
                if pe.max_units.is_some() || pe.time_limit.is_some() || pe.interrupt.0.is_some() {
                    pe.check_limits(slice.units, net);
                }
                flush(pe, net)?;
                if net.worked(&slice)? == Flow::Suspend {
                    return Ok(action);
                }
            }
            Step::Wait => {
                pe.waiting_since = net.now();
                if pe.trace.is_some() {
                    pe.trace_wait(net);
                }
                if net.recv_until(pe.poll_timeout())? == Flow::Suspend {
                    return Ok(action);
                }
            }
            Step::Finished => return Ok(action),
        }
    }
}

/// A rank's statistics as they travel to rank 0 under MPI (postcard cannot encode the
/// flattened `PeStats` that JSON reports use).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireStats {
    counters: PeCounters,
    busy: f64,
    idle: f64,
    bytes_sent: u64,
    request_rtt: Option<f64>,
    improvements: u64,
    request_latency: Log2Histogram,
    split_sizes: SplitSizes,
    trace: Option<PeTrace>,
    incumbent: Option<i64>,
    phases: Option<PhaseStats>,
    /// The run limit the rank found reached, if any.
    pub(crate) limit: Option<Limit>,
    /// The work a stop left unfinished on the rank (`Config::keep_remaining`): a
    /// postcard-encoded `Vec<T>` (empty: none).
    pub(crate) remaining: Vec<u8>,
}

impl From<PeStats> for WireStats {
    fn from(s: PeStats) -> Self {
        WireStats {
            limit: None,
            remaining: Vec::new(),
            counters: s.counters,
            busy: s.busy,
            idle: s.idle,
            bytes_sent: s.bytes_sent,
            request_rtt: s.request_rtt,
            improvements: s.improvements,
            request_latency: s.request_latency,
            split_sizes: s.split_sizes,
            trace: s.trace,
            incumbent: s.incumbent,
            phases: s.phases,
        }
    }
}

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl WireStats {
    /// The statistics of PE `pe`.
    pub(crate) fn into_stats(self, pe: usize) -> PeStats {
        PeStats {
            pe,
            counters: self.counters,
            busy: self.busy,
            idle: self.idle,
            bytes_sent: self.bytes_sent,
            request_rtt: self.request_rtt,
            improvements: self.improvements,
            bound_latency: None,
            request_latency: self.request_latency,
            split_sizes: self.split_sizes,
            trace: self.trace,
            incumbent: self.incumbent,
            phases: self.phases,
        }
    }
}

/// A message's kind in the timeline.
fn message_kind<T: Task>(message: &Message<T>) -> MessageKind {
    match message {
        Message::Request => MessageKind::Request,
        Message::Reject => MessageKind::Reject,
        m if m.carries_work() => MessageKind::Work,
        Message::Termination(_) => MessageKind::Termination,
        _ => MessageKind::Other,
    }
}

/// The lost-work check at the end of a run: an envelope still queued for PE `to` must not
/// carry work.
pub(crate) fn check_leftover<T: Task>(
    from: PeId,
    to: PeId,
    envelope: &Envelope<T>,
) -> Result<(), RunError> {
    if envelope.carries_work() {
        return Err(RunError::Internal(format!(
            "a piece of work from PE {from} to PE {to} was never received"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod layout {
    /// The fields a slice and a flush touch stay in the first 128 bytes.
    #[test]
    fn hot_fields_fill_the_first_two_cache_lines() {
        use std::mem::offset_of;
        type D = super::PeDriver<crate::task::range::IndexRange<Job>>;
        assert!(offset_of!(D, round_ticks) < 64);
        for offset in [
            offset_of!(D, trace),
            offset_of!(D, bounds_pending),
            offset_of!(D, terminating),
            offset_of!(D, request_out),
        ] {
            assert!((64..128).contains(&offset), "{offset}");
        }
    }

    #[derive(Clone, serde::Serialize, serde::Deserialize)]
    struct Job;
    impl crate::task::range::IndexJob for Job {
        type Output = ();
        fn run(&self, _: u64, _: &mut crate::task::Context<'_, ()>) -> u64 {
            1
        }
    }
}
