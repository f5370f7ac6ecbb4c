//! The simulator's engine: a discrete-event loop in virtual time that runs every PE through
//! the one PE driver ([`crate::driver::drive`]) and plays the network.
//!
//! The engine is the driver's transport: sending costs the sender T_send and the message
//! arrives after the network's latency; handling a message costs the receiver T_recv; a
//! split costs T_split; a work slice of u units takes u time units (times the PE's slowness)
//! and suspends the PE until the slice ends. An idle PE suspends until a message arrives or,
//! under a synchronous balancer, its next round starts (a wake-up event). Branch-and-bound
//! incumbents are flooded over the tree of PEs and piggybacked on every message.
//!
//! Events are ordered by (time, PE, kind, sender): at one time the PEs' events come in the order
//! of their numbers, and a PE's messages come before its slice end (a message that arrives
//! when a slice ends is seen by that slice's poll) and its wake-up. Every random choice comes
//! from seeded generators, so a run is reproducible bit for bit from its seed.
//!
//! Because that order does not depend on when an event was scheduled, the engine may leave
//! out the slice ends that would change nothing (*run-ahead*, see [`Engine::resume`]): a busy
//! PE whose driver did n more slices ahead gets one slice-end event, at the end of the n-th,
//! and a message that reaches it meanwhile moves that event to the first slice end at or
//! after the message's arrival, exactly where the left-out events would have noticed it. Besides the protocol's
//! own checks, the engine watches the whole machine: it reports an error if termination is
//! declared while any PE holds work or any work message is in flight, if work reaches a
//! finished PE, or if the run deadlocks.

use super::network::Network;
use super::queue::TimeQueue;
use super::timeline::{Activity, Timeline, Utilization};
use super::SimConfig;
use crate::config::ConfigError;
use crate::driver::{self, Envelope, Flow, Handled, Incoming, PeDriver, Slice, Transport};
use crate::error::{catch_quietly, panic_error, RunError};
use crate::protocol::termination::Signal;
use crate::protocol::{Message, PeId, Step};
use crate::task::Task;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

pub(super) enum Event<T: Task> {
    /// A PE's work slice ends; stale unless the PE's slice-end generation is still `gen`.
    SliceEnd { pe: PeId, gen: u32 },
    /// A waiting PE's deadline (its next round); stale unless the PE still waits in `epoch`.
    Wake { pe: PeId, epoch: u32 },
    /// An envelope reaches PE `to`, with the sender's incumbent piggybacked.
    Arrive {
        from: PeId,
        to: PeId,
        envelope: Envelope<T>,
        bound: i64,
    },
}

/// The most slices a busy PE runs ahead at once (`Engine::resume`): more saves events and
/// runs of the driver, fewer saves work undone when a message comes first. Each PE adapts
/// its own limit between 0 (no run-ahead) and this: it doubles after a run-ahead that no
/// message cut short and drops to the slices begun after one that a message did, so that
/// the work done ahead and undone stays about the work kept (it matters where copying and
/// redoing a task is dear: UTS); a slice end with no message sets it from 0 to 1 again.
const MAX_AHEAD: u32 = 64;

/// Virtual time never reaches this (2^63): a run whose times would is stopped with an error
/// rather than letting them wrap around.
const TIME_LIMIT: u64 = 1 << 63;

/// An event's payload in the time queue: the slab slot of the event, or, with this bit set,
/// a slice end and its generation (31 bits, wrapping).
const SLICE_END: u32 = 1 << 31;

/// An event's kinds in the order they take at one time and PE (bits 24.. of the order).
const ARRIVE: u64 = 0;
const SLICE: u64 = 1;
const WAKE: u64 = 2;

/// An event's order among the events of its time: its PE (high 32 bits), its kind, and for
/// a message its sender.
#[inline]
fn order(pe: PeId, kind: u64, from: PeId) -> u64 {
    (pe as u64) << 32 | kind << 24 | from as u64
}

/// The event queue: the time queue orders (order, payload) pairs by time and order; the
/// events that carry messages and tasks wait in a slab and never move. The most common event,
/// the end of a work slice, carries nothing but its PE and generation and lives in the time
/// queue alone.
pub(super) struct EventQueue<T: Task> {
    times: TimeQueue,
    slab: Vec<Option<Event<T>>>,
    free: Vec<u32>,
}

impl<T: Task> EventQueue<T> {
    pub(super) fn new() -> Self {
        EventQueue {
            times: TimeQueue::new(),
            slab: Vec::new(),
            free: Vec::new(),
        }
    }

    fn push(&mut self, time: u64, event: Event<T>) {
        // P ≤ 2^20 (config::MAX_PES): a PE fits in 24 bits.
        let order = match event {
            Event::SliceEnd { pe, gen } => {
                self.times
                    .push(time, order(pe, SLICE, 0), SLICE_END | gen & !SLICE_END);
                return;
            }
            Event::Wake { pe, .. } => order(pe, WAKE, 0),
            Event::Arrive { from, to, .. } => order(to, ARRIVE, from),
        };
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = Some(event);
                slot
            }
            None => {
                self.slab.push(Some(event));
                assert!(self.slab.len() < SLICE_END as usize, "event slab overflow");
                (self.slab.len() - 1) as u32
            }
        };
        self.times.push(time, order, slot);
    }

    /// The earliest event (ties: by PE, kind and sender, then the one scheduled first).
    pub(super) fn pop(&mut self) -> Option<(u64, Event<T>)> {
        let (time, order, slot) = self.times.pop()?;
        if slot & SLICE_END != 0 {
            let (pe, gen) = ((order >> 32) as PeId, slot & !SLICE_END);
            return Some((time, Event::SliceEnd { pe, gen }));
        }
        let event = self.slab[slot as usize]
            .take()
            .expect("a scheduled slot holds its event");
        self.free.push(slot);
        Some((time, event))
    }

    /// The PE of the event `ahead` events after the next one, if that event is due now, and
    /// where its slab entry lies, if it has one (to prefetch them).
    #[inline]
    fn upcoming(&self, ahead: usize) -> Option<(PeId, Option<*const u8>)> {
        let (order, slot) = self.times.upcoming(ahead)?;
        let entry = (slot & SLICE_END == 0)
            .then(|| self.slab.as_ptr().wrapping_add(slot as usize) as *const u8);
        Some(((order >> 32) as PeId, entry))
    }
}

/// What a PE is doing, as the engine sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
pub(super) enum State {
    Working,
    Waiting { since: u64, epoch: u32 },
    Done { at: u64 },
}

/// The engine's side of one PE (the driver holds the protocol's side): what every event
/// reads first, in one cache line.
#[repr(C)]
pub(super) struct SimPe<T: Task> {
    pub(super) state: State,
    /// The time of the PE's slice-end event that counts, and its generation (an event of an
    /// older generation is stale: a message moved the slice end earlier).
    due: u64,
    gen: u32,
    /// Run-ahead: slices the driver did ahead of their time (0: none), each taking
    /// `slice_time`, the first beginning at `chain_start` (see `Engine::resume`).
    ahead: u32,
    /// The most slices the PE runs ahead next time (adaptive, see [`MAX_AHEAD`]).
    limit: u32,
    chain_start: u64,
    slice_time: u64,
    inbox: VecDeque<(PeId, Envelope<T>, i64)>,
    slowness: f64,
    /// Waits begun so far (a wake-up event names the wait it ends).
    epoch: u32,
}

impl<T: Task> SimPe<T> {
    /// The PE's slice end is now due at `at`: a new generation, which makes any slice-end
    /// event already scheduled for it stale. Returns the generation to schedule.
    fn slice_end_at(&mut self, at: u64) -> u32 {
        self.due = at;
        self.gen = self.gen.wrapping_add(1);
        self.gen
    }

    pub(super) fn new(slowness: f64) -> Self {
        SimPe {
            state: State::Waiting { since: 0, epoch: 0 },
            due: 0,
            gen: 0,
            ahead: 0,
            limit: MAX_AHEAD.min(4),
            chain_start: 0,
            slice_time: 0,
            inbox: VecDeque::new(),
            slowness,
            epoch: 0,
        }
    }
}

/// Branch-and-bound: the global improvements a PE has learned of (a prefix of
/// `World::improvements`), and the sum and count of the delays with which it learned them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Learning {
    learned: usize,
    pub(super) latency: (u64, u64),
}

/// One PE: the engine's side of it and its driver, side by side in memory and aligned to a
/// cache line, so that an event reads a few neighbouring lines of PE state.
#[repr(C, align(64))]
pub(super) struct Slot<T: Task> {
    pub(super) sim: SimPe<T>,
    pub(super) driver: PeDriver<T>,
}

/// Everything of the simulated machine but the PEs.
pub(super) struct World<'c, T: Task> {
    pub(super) config: &'c SimConfig,
    pub(super) queue: EventQueue<T>,
    pub(super) network: Network,
    pub(super) rng: Xoshiro256PlusPlus,
    /// Values that raised the best known anywhere, with the time they were found.
    pub(super) improvements: Vec<(i64, u64)>,
    /// What each PE learned of them.
    pub(super) learning: Vec<Learning>,
    pub(super) work_in_flight: u64,
    pub(super) last_work_end: u64,
    pub(super) events: u64,
    pub(super) timeline: Option<Timeline>,
    pub(super) utilization: Utilization,
    pub(super) violation: Option<String>,
    /// PE 0 has just declared termination (checked once its step is over).
    pub(super) finish_sent: bool,
    /// Run limits: work units of all PEs so far (kept only under `Config::max_units`), and
    /// the real time the simulation started (time limits are wall-clock time).
    pub(super) total_units: u64,
    pub(super) started: std::time::Instant,
    /// Paper 000 Lemma 1(3): the requests already queued where each request arrives.
    pub(super) request_queue: super::RequestQueue,
    /// Where the heap ended when last advised to use huge pages (see `huge_pages`).
    pub(super) heap_advised: usize,
}

impl<T: Task> World<'_, T> {
    fn record(&mut self, pe: PeId, start: u64, end: u64, activity: Activity) {
        if matches!(activity, Activity::Working | Activity::Splitting) {
            self.utilization.add(start, end);
        }
        if let Some(t) = &mut self.timeline {
            t.record(pe, start, end, activity);
        }
    }
}

/// PE `i`'s link to the simulated machine while the driver runs it, at its local time `now`.
struct Link<'a, 'c, T: Task> {
    world: &'a mut World<'c, T>,
    pe: &'a mut SimPe<T>,
    i: PeId,
    now: u64,
    /// The end of the slice the PE is suspended in, if it is.
    slice_end: Option<u64>,
    /// The last slice did its whole budget at no cost and improved nothing, taking this
    /// much virtual time: the PE may run ahead.
    plain: Option<u64>,
}

impl<T: Task> Link<'_, '_, T> {
    /// The PE spends `d` time units on `activity` (sending, receiving, splitting).
    fn spend(&mut self, d: u64, activity: Activity) {
        if d > 0 {
            let end = self.now.saturating_add(d);
            self.world.record(self.i, self.now, end, activity);
            self.now = end;
        }
    }

    fn pe(&mut self) -> &mut SimPe<T> {
        self.pe
    }

    /// The PE learned the incumbent `value` now: account for the delay of every global
    /// improvement it thereby learned of.
    fn learned(&mut self, value: i64) {
        let now = self.now;
        let w = &mut *self.world;
        let pe = &mut w.learning[self.i];
        while let Some(&(v, found)) = w.improvements.get(pe.learned) {
            if v > value {
                break;
            }
            pe.latency.0 += now.saturating_sub(found);
            pe.latency.1 += 1;
            pe.learned += 1;
        }
    }
}

impl<T: Task> Transport<T> for Link<'_, '_, T> {
    fn now(&mut self) -> u64 {
        self.now
    }

    fn send(&mut self, to: PeId, envelope: Envelope<T>, bound: i64) -> Result<u64, RunError> {
        self.spend(self.world.config.t_send, Activity::Sending);
        let w = &mut *self.world;
        if envelope.carries_work() {
            w.work_in_flight += 1;
        }
        if self.i == 0
            && matches!(
                envelope,
                Envelope::Protocol(Message::Termination(Signal::Finish))
            )
        {
            w.finish_sent = true;
        }
        // The bytes the MPI machine would send, counted without writing them.
        let bytes = postcard::experimental::serialized_size(&envelope).unwrap_or(0) as u64;
        let at = w.network.arrival(self.now, self.i, to, bytes, &mut w.rng);
        // Run-ahead relies on it (see `Engine::arrive`): a message never arrives at the time
        // it is sent (`SimConfig` rejects zero latencies), so it cannot reach a PE whose
        // slice end at that very time has already been handled.
        debug_assert!(at > self.now, "a message arrived when it was sent");
        w.queue.push(
            at,
            Event::Arrive {
                from: self.i,
                to,
                envelope,
                bound,
            },
        );
        Ok(bytes)
    }

    fn try_recv(&mut self) -> Result<Option<Incoming<T>>, RunError> {
        let Some((from, envelope, bound)) = self.pe().inbox.pop_front() else {
            return Ok(None);
        };
        if envelope.carries_work() {
            self.world.work_in_flight -= 1;
        }
        self.spend(self.world.config.t_recv, Activity::Receiving);
        // A bound message's value is its own piggyback.
        let bound = (!matches!(envelope, Envelope::Bound(_))).then_some(bound);
        Ok(Some(Incoming {
            from,
            envelope,
            bound,
        }))
    }

    fn recv_until(&mut self, deadline: Option<u64>) -> Result<Flow, RunError> {
        if !self.pe().inbox.is_empty() {
            return Ok(Flow::Continue);
        }
        let now = self.now;
        let i = self.i;
        let pe = self.pe();
        pe.epoch = pe.epoch.wrapping_add(1);
        let epoch = pe.epoch;
        pe.state = State::Waiting { since: now, epoch };
        if let Some(at) = deadline {
            self.world
                .queue
                .push(at.max(now), Event::Wake { pe: i, epoch });
        }
        Ok(Flow::Suspend)
    }

    fn handled(&mut self, handled: &Handled) {
        self.spend(
            handled.costs.splits * self.world.config.t_split,
            Activity::Splitting,
        );
        if let Some(value) = handled.learned {
            self.learned(value);
        }
    }

    fn worked(&mut self, slice: &Slice) -> Result<Flow, RunError> {
        if let Some(best) = slice.improved {
            let now = self.now;
            let w = &mut *self.world;
            if w.improvements.last().is_none_or(|&(v, _)| best > v) {
                // A new global best: everyone else has yet to learn of it.
                w.improvements.push((best, now));
                w.learning[self.i].learned = w.improvements.len();
            }
        }
        // Splits done in a work slice (static balancers cutting their jobs from the root)
        // cost T_split each, like splits on request.
        self.spend(
            slice.costs.splits * self.world.config.t_split,
            Activity::Splitting,
        );
        let slowness = self.pe().slowness;
        let d = if slowness == 1.0 {
            slice.units
        } else {
            (slice.units as f64 * slowness).ceil() as u64
        };
        let (i, now) = (self.i, self.now);
        let w = &mut *self.world;
        let end = now.saturating_add(d);
        w.record(i, now, end, Activity::Working);
        if slice.units > 0 {
            w.last_work_end = w.last_work_end.max(end);
        }
        self.pe.state = State::Working;
        // Scheduled by `Engine::resume`, once it knows how far the PE runs ahead.
        self.slice_end = Some(end);
        self.plain = (slice.units == slice.budget
            && slice.units > 0
            && slice.costs.splits == 0
            && slice.improved.is_none())
        .then_some(d);
        Ok(Flow::Suspend)
    }

    fn total_units(&mut self, units: u64) -> u64 {
        self.world.total_units += units;
        self.world.total_units
    }

    fn wall_clock(&mut self) -> std::time::Duration {
        self.world.started.elapsed()
    }
}

/// A hint to bring the cache line at `address` in; it never faults and changes nothing else.
#[inline(always)]
fn prefetch(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing the program sees and cannot fault,
    // whatever the address (SSE, which it needs, is part of x86-64).
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(address as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// The simulated machine: the PEs and the world around them.
pub(super) struct Engine<'c, T: Task> {
    pub(super) pes: Vec<Slot<T>>,
    pub(super) world: World<'c, T>,
    /// The PE being run (named if it panics).
    pub(super) current: PeId,
}

impl<T: Task> Engine<'_, T> {
    /// Run PE `i` from its local time `now` until it suspends or finishes.
    ///
    /// Run-ahead: when the PE suspends in a slice that did its whole budget at no cost, the
    /// driver does up to the PE's limit (at most [`MAX_AHEAD`]) more such slices at once
    /// (`PeDriver::run_ahead`), and
    /// the slice-end event is scheduled at the end of the last of them. The slice ends in
    /// between are left out: each would only have found an empty inbox and begun the next
    /// slice. A message that arrives meanwhile moves the event to the first slice end at or
    /// after its arrival (`Engine::arrive`), where the driver keeps the slices begun by then
    /// and undoes the others (`Engine::handle`).
    fn resume(&mut self, i: PeId, mut now: u64) -> Result<(), RunError> {
        let slot = &mut self.pes[i];
        if let State::Waiting { since, .. } = slot.sim.state {
            now = now.max(since);
            self.world.record(i, since, now, Activity::Idle);
        }
        slot.sim.state = State::Working;
        let mut link = Link {
            world: &mut self.world,
            pe: &mut slot.sim,
            i,
            now,
            slice_end: None,
            plain: None,
        };
        self.current = i;
        let outcome = driver::drive(&mut slot.driver, &mut link);
        let (at, slice_end, plain) = (link.now, link.slice_end, link.plain);
        match outcome? {
            Step::Finished => slot.sim.state = State::Done { at },
            Step::Work { budget } => {
                if let Some(end) = slice_end {
                    let sim = &mut slot.sim;
                    let (ahead, d) = match plain {
                        Some(d) => (slot.driver.run_ahead(budget, sim.limit), d),
                        None => (0, 0),
                    };
                    (sim.ahead, sim.chain_start, sim.slice_time) = (ahead, end, d);
                    let due = end.saturating_add(u64::from(ahead).saturating_mul(d));
                    let gen = sim.slice_end_at(due);
                    self.world.queue.push(due, Event::SliceEnd { pe: i, gen });
                }
            }
            Step::Wait => {}
        }
        if std::mem::take(&mut self.world.finish_sent) {
            self.check_declared_termination();
        }
        Ok(())
    }

    /// PE 0 has just declared termination: nothing may hold or carry work anywhere.
    fn check_declared_termination(&mut self) {
        if self.world.violation.is_some() {
            return;
        }
        if self.world.work_in_flight > 0 {
            self.world.violation = Some(format!(
                "termination declared while {} piece(s) of work were in flight",
                self.world.work_in_flight
            ));
        } else if let Some(busy) = self.pes.iter().position(|s| s.driver.is_busy()) {
            self.world.violation = Some(format!(
                "termination declared while PE {busy} still held work"
            ));
        }
    }

    fn handle(&mut self, time: u64, event: Event<T>) -> Result<(), RunError> {
        match event {
            Event::SliceEnd { pe: i, .. } => {
                let slot = &mut self.pes[i];
                let sim = &mut slot.sim;
                if sim.limit == 0 && sim.inbox.is_empty() {
                    sim.limit = 1.min(MAX_AHEAD);
                }
                if sim.ahead > 0 {
                    // The slices run ahead that have begun by now are done; the others are
                    // undone. Each begun one stands for a slice end left out, counted now
                    // (so `max_events` sees them late; whether a run exceeds it does not
                    // change, but another error may come first). Their work is recorded as
                    // one segment: the utilization bins are f64 sums of integers, the same in
                    // any order below 2^53 per bin.
                    let begun = ((time - sim.chain_start) / sim.slice_time) as u32;
                    debug_assert!(begun <= sim.ahead);
                    if begun > 0 {
                        self.world.events += u64::from(begun);
                        self.world
                            .record(i, sim.chain_start, time, Activity::Working);
                        self.world.last_work_end = self.world.last_work_end.max(time);
                    }
                    if begun < sim.ahead {
                        sim.limit = begun;
                    } else if sim.ahead == sim.limit {
                        sim.limit = (2 * sim.limit).min(MAX_AHEAD);
                    }
                    sim.ahead = 0;
                    slot.driver.settle_ahead(begun);
                }
                self.resume(i, time)
            }
            Event::Wake { pe, epoch } => match self.pes[pe].sim.state {
                State::Waiting { epoch: e, .. } if e == epoch => self.resume(pe, time),
                _ => Ok(()),
            },
            Event::Arrive {
                from,
                to,
                envelope,
                bound,
            } => {
                if matches!(envelope, Envelope::Protocol(Message::Request))
                    && !matches!(self.pes[to].sim.state, State::Done { .. })
                {
                    let queued = self.pes[to].sim.inbox.iter();
                    let requests = queued
                        .filter(|(_, e, _)| matches!(e, Envelope::Protocol(Message::Request)))
                        .count();
                    self.world.request_queue.add(requests as u64);
                }
                self.arrive(time, from, to, envelope, bound)
            }
        }
    }

    /// An envelope reaches PE `to`.
    fn arrive(
        &mut self,
        time: u64,
        from: PeId,
        to: PeId,
        envelope: Envelope<T>,
        bound: i64,
    ) -> Result<(), RunError> {
        match self.pes[to].sim.state {
            State::Done { .. } => {
                if let Err(e) = driver::check_leftover(from, to, &envelope) {
                    if self.world.violation.is_none() {
                        self.world.violation =
                            Some(format!("{e} (it reached PE {to} after it had finished)"));
                    }
                }
                Ok(())
            }
            State::Working => {
                let sim = &mut self.pes[to].sim;
                sim.inbox.push_back((from, envelope, bound));
                if sim.ahead > 0 {
                    // Seen at the first slice end at or after now, which may be one the
                    // run-ahead left out. (A slice end at this very time has not been
                    // handled yet: messages come before slice ends at one time and PE, and
                    // none arrives at the time it was sent.)
                    let (start, d) = (sim.chain_start, sim.slice_time);
                    let seen = start + time.saturating_sub(start).div_ceil(d) * d;
                    if seen < sim.due {
                        let gen = sim.slice_end_at(seen);
                        self.world.queue.push(seen, Event::SliceEnd { pe: to, gen });
                    }
                }
                Ok(())
            }
            State::Waiting { .. } => {
                self.pes[to].sim.inbox.push_back((from, envelope, bound));
                self.resume(to, time)
            }
        }
    }

    /// Run the simulation to its end (or the first error). A panic inside user code or a
    /// protocol invariant becomes an error naming the PE that was running.
    pub(super) fn run(&mut self) -> Result<(), RunError> {
        match catch_quietly(|| self.run_events()) {
            Ok(result) => result,
            Err(payload) => Err(panic_error(self.current, payload)),
        }
    }

    /// Ask the memory for the state of the PEs of the next events, a few events ahead:
    /// with many PEs, most of an event's time was spent waiting for the PE's state to come
    /// from memory. First the PE's slot, then (once that has arrived) the protocol's state
    /// it points to; and a message's slab entry.
    #[inline]
    fn prefetch(&self) {
        const SLOT_AHEAD: usize = 8;
        const PROTOCOL_AHEAD: usize = 4;
        let queue = &self.world.queue;
        if let Some((pe, entry)) = queue.upcoming(SLOT_AHEAD) {
            let slot = &self.pes[pe] as *const Slot<T> as *const u8;
            for line in (0..std::mem::size_of::<Slot<T>>()).step_by(64) {
                prefetch(slot.wrapping_add(line));
            }
            if let Some(entry) = entry {
                prefetch(entry);
                prefetch(entry.wrapping_add(64));
            }
        }
        if let Some((pe, _)) = queue.upcoming(PROTOCOL_AHEAD) {
            let state = self.pes[pe].driver.protocol_address();
            prefetch(state);
            prefetch(state.wrapping_add(64));
        }
    }

    /// `SimConfig::max_events`: give up once the run has taken more events.
    fn check_event_limit(&self) -> Result<(), RunError> {
        if self.world.events > self.world.config.max_events {
            return Err(RunError::Internal(format!(
                "the simulation did not end within {} events",
                self.world.config.max_events
            )));
        }
        Ok(())
    }

    fn run_events(&mut self) -> Result<(), RunError> {
        for i in 0..self.pes.len() {
            self.resume(i, 0)?;
        }
        while let Some((time, event)) = self.world.queue.pop() {
            if let Event::SliceEnd { pe, gen } = event {
                let sim = &self.pes[pe].sim;
                if gen != sim.gen & !SLICE_END || sim.state != State::Working {
                    // Moved earlier by a message (see `Engine::arrive`): not an event.
                    continue;
                }
            }
            if time >= TIME_LIMIT {
                // Times saturate instead of wrapping; a run that gets here has parameters
                // too large for 64-bit virtual time.
                return Err(RunError::InvalidConfig(ConfigError::VirtualTimeOverflow));
            }
            self.prefetch();
            self.world.events += 1;
            if self.world.events & 0xF_FFFF == 0 {
                super::huge_pages::follow_heap(&mut self.world.heap_advised);
            }
            self.check_event_limit()?;
            self.handle(time, event)?;
            if let Some(v) = self.world.violation.take() {
                return Err(RunError::Internal(v));
            }
        }
        // Slice ends left out by run-ahead are counted when their chain ends.
        self.check_event_limit()?;
        let stuck: Vec<usize> = (0..self.pes.len())
            .filter(|&i| !matches!(self.pes[i].sim.state, State::Done { .. }))
            .collect();
        if let Some(first) = stuck.first() {
            return Err(RunError::Internal(format!(
                "the simulation deadlocked: {} PE(s) never finished (first: PE {first})",
                stuck.len(),
            )));
        }
        if self.world.work_in_flight != 0 {
            return Err(RunError::Internal(format!(
                "{} piece(s) of work were never received",
                self.world.work_in_flight
            )));
        }
        Ok(())
    }
}
