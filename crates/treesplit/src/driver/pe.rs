//! [`PeDriver`]: one PE's protocol state machine with everything every machine needs around
//! it (the incumbent it knows and how improvements travel, its timer, run limits, its timing),
//! and [`drive`], the loop that runs it. Its timeline is recorded in `timeline.rs`, its end
//! of a run taken in `end.rs`.

mod end;
mod timeline;

pub(crate) use end::PeEnd;
use timeline::flush_splitting;

use super::tally::{Log2Tally, SplitTally};
use super::{message_kind, BoundExchange, Envelope, Flow, Handled, Incoming, Slice, Transport};
use crate::config::Config;
use crate::ended::Limit;
use crate::error::RunError;
use crate::piece::{Fresh, Piece};
use crate::protocol::any::AnyProtocol;
use crate::protocol::pe::{Reach, RunAhead};
use crate::protocol::termination::Signal;
use crate::protocol::{self, Clock, Message, PeId, Protocol, Step};
use crate::task::{CountingIncumbent, Incumbent, SharedIncumbent};
use crate::timeline::{MessageKind, PeState, PeTrace};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// "No tick": a PE not waiting, or no request in flight.
pub(super) const NONE: u64 = u64::MAX;

/// A PE's state machine with everything the machines need around it. The fields a work
/// slice or a wake-up touches fill the first 64 bytes, those of sending and answering the
/// next 64 (`repr(C)` keeps them there): the simulator runs millions of events over up to a
/// million PEs, and every cache line an event touches counts.
#[repr(C)]
pub(crate) struct PeDriver {
    // First 64 bytes: a work slice and a wake-up.
    /// The incumbent this PE knows.
    incumbent: Known,
    /// The best value this PE has announced or learned (only better ones are sent).
    announced: i64,
    /// The tick the PE has waited since (`NONE`: it is not waiting), and idle ticks in all.
    waiting_since: u64,
    idle: u64,
    /// The protocol's next deadline in ticks (`Protocol::poll_timeout`; `NONE`: none).
    deadline: u64,
    /// The best value this PE has sent or passed on.
    flooded: i64,
    /// The protocol wants the clock at every turn and slice (`Clock::EveryTurn`).
    clocked: bool,
    // Next 64 bytes: sending and answering.
    /// The request in flight since this tick (`NONE`: none), and the answered requests'
    /// round trips (sum, count).
    request_out: u64,
    rtt: (u64, u64),
    bytes: u64,
    /// The timeline, when the configuration asks for one (checked at every slice and
    /// message, so it lives here; None costs one comparison).
    trace: Option<Box<PeTrace>>,
    me: u32,
    /// How improvements travel.
    bounds: BoundExchange,
    /// `bounds_out` holds values to send (checked at every flush).
    bounds_pending: bool,
    /// The PE has seen termination detected (timeline: it waits as "terminating").
    terminating: bool,
    /// The balancer's state machine, inline (after the driver's own hot fields).
    proto: AnyProtocol,
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
    latency: Log2Tally<12>,
    split_sizes: SplitTally,
    /// Run limits and the interrupt flag, when the run has any (None: it has none).
    watch: Option<Box<Watch>>,
}

/// A PE's run limits (`Config::max_units`, `Config::time_limit`) and interrupt flag
/// (`Config::interrupt`), which it checks after each slice. Boxed, and only on a PE whose run
/// has any: most runs have none, and a simulated PE's state is smaller without them.
struct Watch {
    max_units: Option<u64>,
    time_limit: Option<Duration>,
    /// Stops the run like a limit once set.
    interrupt: crate::config::Interrupt,
    /// The limit this PE found reached.
    limit_hit: Option<Limit>,
    /// Real machines check them within a long slice too, every `sub_slice` units (adapted to
    /// the measured rate). The simulator does so only under a (wall-clock) time limit, which
    /// makes its run depend on the host's speed anyway; otherwise it keeps its slices whole
    /// (its virtual time, its counts and a units limit's stop must not depend on the host).
    sub_slicing: bool,
    sub_slice: u64,
}

/// How long a PE of a real machine under a run limit or an interrupt flag works at most
/// between two looks at them.
const SUB_SLICE: Duration = Duration::from_millis(10);
/// The first sub-slice's length in units, before the rate is known.
const FIRST_SUB_SLICE: u64 = 64;

impl PeDriver {
    /// PE `me` of the configured run (PE 0 passes the root; `fresh` makes the run's result
    /// accumulators), with the machine's clock, its rule for incumbents, and the incumbent all PEs share if they share one (else the PE
    /// keeps its own).
    // Each argument is a different fact the machine knows about this PE.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &crate::protocol::Env,
        fresh: Fresh,
        root: Option<Piece>,
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
        let proto = protocol::new_pe(me, config, env, machine.ticks_per_round_unit, fresh, root);
        PeDriver {
            clocked: proto.clock() == Clock::EveryTurn,
            deadline: proto.poll_timeout().unwrap_or(NONE),
            proto,
            announced: incumbent.get().best(),
            incumbent,
            waiting_since: NONE,
            // MAX_PES (2^22) fits.
            me: me as u32,
            bounds,
            bounds_pending: false,
            flooded: i64::MIN,
            bounds_out: Vec::new(),
            p: config.pes as u32,
            improvements: 0,
            born: machine.now,
            idle: 0,
            request_out: NONE,
            rtt: (0, 0),
            bytes: 0,
            tick_seconds: machine.tick_seconds,
            latency: Log2Tally::default(),
            split_sizes: SplitTally::default(),
            trace: config.trace.map(|capacity| {
                let mut t = Box::new(PeTrace::new(me as u32, capacity));
                t.enter(PeState::Idle, machine.now);
                t
            }),
            terminating: false,
            watch: (config.max_units.is_some()
                || config.time_limit.is_some()
                || config.interrupt.0.is_some())
            .then(|| {
                Box::new(Watch {
                    max_units: config.max_units,
                    time_limit: config.time_limit,
                    interrupt: config.interrupt.clone(),
                    limit_hit: None,
                    sub_slicing: machine.tick_seconds < 1.0 || config.time_limit.is_some(),
                    sub_slice: FIRST_SUB_SLICE,
                })
            }),
        }
    }

    /// After a slice of `units`: stop the run if a limit is reached (first time only).
    pub(super) fn check_limits(&mut self, units: u64, net: &mut impl Transport) {
        let Some(watch) = &mut self.watch else {
            return;
        };
        if watch.limit_hit.is_some() {
            return;
        }
        let hit = match (watch.max_units, watch.time_limit) {
            (Some(max), _) if net.total_units(units) >= max => Some(Limit::Units(max)),
            (_, Some(limit)) if net.wall_clock() >= limit => Some(Limit::Time(limit)),
            _ if watch.interrupt.is_set() => Some(Limit::Interrupted),
            _ => None,
        };
        if let Some(limit) = hit {
            watch.limit_hit = Some(limit);
            self.proto.stop(None);
        }
    }

    /// The run limit this PE found reached, if any.
    pub(super) fn limit_hit(&self) -> Option<Limit> {
        self.watch.as_ref().and_then(|w| w.limit_hit)
    }

    /// The tick of the protocol's next deadline (None: it has none).
    pub(crate) fn poll_timeout(&self) -> Option<u64> {
        (self.deadline != NONE).then_some(self.deadline)
    }

    /// The clock reads `now`: if the protocol's deadline has come, let it handle every timer
    /// due by `now` and ask for its next deadline.
    pub(crate) fn handle_timeout(&mut self, now: u64) {
        if now >= self.deadline {
            self.proto.handle_timeout(now);
            self.deadline = self.proto.poll_timeout().unwrap_or(NONE);
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
        let units = self.work_units(budget);
        self.slice_done(units, budget)
    }

    /// Run a work slice of at most `budget` units on a real machine under a run limit or an
    /// interrupt flag: a slice longer than [`SUB_SLICE`] at the measured rate is worked in
    /// sub-slices of about that length, the limits checked between them (messages are still
    /// handled only after the whole slice, as Δt says). Checks the limits itself.
    pub(crate) fn work_watched(&mut self, budget: u64, net: &mut impl Transport) -> Slice {
        let mut done = 0;
        loop {
            // A static balancer's slice may report more than it was given: the units it
            // credits for cutting its bag (`protocol::assignment::cutter`).
            let left = budget.saturating_sub(done);
            if left == 0 {
                break;
            }
            let sub = self.watch.as_ref().map_or(FIRST_SUB_SLICE, |w| w.sub_slice);
            if left <= sub {
                let units = self.work_units(left);
                done += units;
                self.check_limits(units, net);
                break;
            }
            let started = Instant::now();
            let units = self.work_units(sub);
            let took = started.elapsed();
            done += units;
            self.check_limits(units, net);
            if units < sub || self.limit_hit().is_some() || !self.proto.is_busy() {
                break;
            }
            // Aim the next sub-slice at SUB_SLICE, growing at most 16-fold at a time.
            let rate = units as f64 / took.as_secs_f64().max(1e-9);
            let aim = (rate * SUB_SLICE.as_secs_f64()) as u64;
            if let Some(watch) = &mut self.watch {
                watch.sub_slice = aim.clamp(1, sub.saturating_mul(16));
            }
        }
        self.slice_done(done, budget)
    }

    /// Work up to `budget` units, counting the incumbent's improvements.
    fn work_units(&mut self, budget: u64) -> u64 {
        let counted = CountingIncumbent::new(self.incumbent.get());
        let units = self.proto.work(budget, &counted);
        let improvements = counted.improvements();
        if improvements > 0 {
            self.improvements += improvements;
        }
        units
    }

    /// The slice of `units` done of `budget`: announce an improved incumbent.
    fn slice_done(&mut self, units: u64, budget: u64) -> Slice {
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
    /// budget at no cost and improved nothing: do up to `reach` more such slices now
    /// ([`crate::protocol::pe::PeCore::run_ahead`]) on the protocol's plain task
    /// (`Protocol::plain_task`; a protocol without one never runs ahead); returns how many
    /// were done. None where the loop of [`drive`] would do more than work between two slices
    /// of a busy PE with no message: timers, the clock, a timeline, run limits, incumbents to
    /// send.
    pub(crate) fn run_ahead(&mut self, budget: u64, reach: Reach) -> u32 {
        if self.deadline != NONE
            || self.clocked
            || self.trace.is_some()
            || self.bounds_pending
            || self.watch.is_some()
        {
            return 0;
        }
        match self.proto.plain_task() {
            Some((core, task)) => core.run_ahead(task, budget, reach, self.incumbent.get()),
            None => 0,
        }
    }

    /// End the run-ahead: the first `keep` of its slices are done, the others undone;
    /// returns how it ran.
    pub(crate) fn settle_ahead(&mut self, keep: u32) -> RunAhead {
        let (core, task) = self
            .proto
            .plain_task()
            .expect("a PE that ran ahead still holds its plain task");
        core.settle_ahead(task, keep, self.incumbent.get())
    }

    /// Handle an envelope that arrived at tick `now`. Machine envelopes (abort, statistics)
    /// are the transport's business and never reach here.
    pub(crate) fn handle(&mut self, incoming: Incoming, now: u64) -> Handled {
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
                self.proto.handle(from, message);
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

    /// Where the heap blocks lie that a slice of this PE's plain task works on: the piece,
    /// the output, and the copies of both a run-ahead keeps (null where there is none). The
    /// simulator asks the memory for them a few events before the PE's turn.
    #[inline]
    pub(crate) fn work_blocks(&mut self) -> [*const u8; 4] {
        match self.proto.plain_task() {
            Some((core, task)) => core.work_blocks(task),
            None => [std::ptr::null(); 4],
        }
    }

    /// True while the PE holds work.
    pub(crate) fn is_busy(&self) -> bool {
        self.proto.is_busy()
    }

    /// True while the protocol has a deadline (`Protocol::poll_timeout`).
    pub(crate) fn has_deadline(&self) -> bool {
        self.deadline != NONE
    }
}

/// Send everything the PE has queued: the driver's own envelopes (incumbents), then the
/// protocol's messages, straight from its queue.
fn flush(pe: &mut PeDriver, net: &mut impl Transport) -> Result<(), RunError> {
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

/// Drive PE `pe` over `net`: deliver → step → flush → act, until the PE finishes
/// (`Ok(Step::Finished)`) or the transport suspends it in a slice (`Ok(Step::Work { .. })`)
/// or while it waits (`Ok(Step::Wait)`); a suspended PE is driven again at its next event.
/// Inlined into each machine's one caller: the simulator runs it once per event, and its
/// transport's calls (`worked`, `try_recv`) are then inlined too.
#[inline(always)]
pub(crate) fn drive(pe: &mut PeDriver, net: &mut impl Transport) -> Result<Step, RunError> {
    loop {
        if pe.is_waiting() {
            pe.wake(net.now());
        }
        if pe.clocked {
            // The DAG schedulers: a task finished by the last slice completes now.
            pe.proto.handle_timeout(net.now());
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
        // The protocol's deadlines (the rounds of synchronous balancers), after delivery.
        if pe.has_deadline() {
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
                    pe.proto.handle_timeout(net.now());
                }
                let sub_slicing = pe.watch.as_ref().map(|w| w.sub_slicing);
                let slice = if sub_slicing.is_none() {
                    pe.work(budget)
                } else if sub_slicing == Some(true) {
                    pe.work_watched(budget, net)
                } else {
                    let slice = pe.work(budget);
                    pe.check_limits(slice.units, net);
                    slice
                };
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

/// The incumbent a PE knows: its own (kept inline, next to the rest of the PE's state), or
/// one that all PEs of a process share (threads).
pub(super) enum Known {
    Own(SharedIncumbent),
    Shared(Arc<SharedIncumbent>),
}

impl Known {
    pub(super) fn get(&self) -> &SharedIncumbent {
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

#[cfg(test)]
mod layout {
    /// The fields a slice and a flush touch stay in the first 128 bytes.
    #[test]
    fn hot_fields_fill_the_first_two_cache_lines() {
        use std::mem::offset_of;
        type D = super::PeDriver;
        assert!(offset_of!(D, deadline) < 64);
        for offset in [
            offset_of!(D, trace),
            offset_of!(D, bounds_pending),
            offset_of!(D, terminating),
            offset_of!(D, request_out),
        ] {
            assert!((64..128).contains(&offset), "{offset}");
        }
    }
}
