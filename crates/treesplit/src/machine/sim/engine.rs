//! The simulator's engine: a discrete-event loop in virtual time that runs every PE through
//! the one PE driver ([`crate::driver::drive`]) and plays the network.
//!
//! The driver's transport is the PE's link to the simulated world (`world.rs`): a work slice
//! suspends the PE until the slice ends; an idle PE suspends until a message arrives or,
//! under a synchronous balancer, its next round starts (a wake-up event). Branch-and-bound
//! incumbents are flooded over the tree of PEs and piggybacked on every message.
//!
//! Events are ordered by (time, PE, kind, sender) (`events.rs`): at one time the PEs' events come in the order
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

use super::events::{Due, Event, SLICE_END};
use super::world::{Link, Slot, State, MAX_AHEAD};
use crate::config::ConfigError;
use crate::driver::{self, Envelope};
use crate::error::{catch_quietly, panic_error, RunError};
use crate::protocol::pe::{Reach, RunAhead};
use crate::protocol::{Message, PeId, Step};
use crate::timeline::Activity;

/// Virtual time never reaches this (2^63): a run whose times would is stopped with an error
/// rather than letting them wrap around.
const TIME_LIMIT: u64 = 1 << 63;

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

/// The simulated machine, or one partition of it (`partition.rs`): its PEs (PE
/// `world.span.first` first) and the world around them.
pub(super) struct Engine<'p, 'c> {
    pub(super) pes: &'p mut [Slot],
    pub(super) world: super::world::World<'c>,
    /// The PE being run (named if it panics).
    pub(super) current: PeId,
}

impl Engine<'_, '_> {
    /// Run PE `i` from its local time `now` until it suspends or finishes.
    ///
    /// Run-ahead: when the PE suspends in a slice that did its whole budget at no cost, the
    /// driver does up to the PE's limit (at most [`MAX_AHEAD`]) more such slices at once
    /// (`PeDriver::run_ahead`; or counts up to [`MAX_AHEAD`] within the task's promise of
    /// plain units, and does them when the run-ahead ends), and
    /// the slice-end event is scheduled at the end of the last of them. The slice ends in
    /// between are left out: each would only have found an empty inbox and begun the next
    /// slice. A message that arrives meanwhile moves the event to the first slice end at or
    /// after its arrival (`Engine::arrive`), where the driver keeps the slices begun by then
    /// and undoes the others (`Engine::handle`).
    fn resume(&mut self, i: PeId, mut now: u64) -> Result<(), RunError> {
        let slot = &mut self.pes[i - self.world.span.first];
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
                    // Probes that cost (T_poll) cut a run of slices into segments of their
                    // own; where Gantt segments are kept, they are recorded in the order
                    // begun, which a run-ahead (recording its slices at once, when it ends)
                    // would change: no run-ahead there.
                    let split_segments =
                        self.world.config.t_poll > 0 && self.world.activities.keeps_segments();
                    let (ahead, d) = match plain {
                        Some(d) if !split_segments => {
                            let reach = Reach {
                                done: sim.limit,
                                counted: MAX_AHEAD,
                            };
                            (slot.driver.run_ahead(budget, reach), d)
                        }
                        _ => (0, 0),
                    };
                    // Slice ends are a slice and an unsuccessful probe (T_poll) apart.
                    let period = d.saturating_add(self.world.config.t_poll);
                    (sim.ahead, sim.chain_start, sim.slice_time) = (ahead, end, period);
                    let due = end.saturating_add(u64::from(ahead).saturating_mul(period));
                    let gen = sim.slice_end_at(due);
                    self.world.queue.push(due, Event::SliceEnd { pe: i, gen });
                }
            }
            Step::Wait => {}
        }
        if self.world.span.is_whole() && std::mem::take(&mut self.world.finish_sent) {
            // One engine checks at once; partitions at the end of the window.
            if let Some(v) = declared_too_early(self.world.work_in_flight, self.busy()) {
                self.world.violation.get_or_insert(v);
            }
        }
        Ok(())
    }

    /// The first of the engine's PEs that holds work.
    pub(super) fn busy(&self) -> Option<PeId> {
        let first = self.world.span.first;
        self.pes
            .iter()
            .position(|s| s.driver.is_busy())
            .map(|k| first + k)
    }

    fn handle(&mut self, time: u64, event: Due) -> Result<(), RunError> {
        match event {
            Due::SliceEnd { pe: i, .. } => {
                let slot = &mut self.pes[i - self.world.span.first];
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
                            .worked_ahead(i, sim.chain_start, time, sim.slice_time, begun);
                        self.world.last_work_end = self.world.last_work_end.max(time);
                    }
                    let (ahead, limit) = (sim.ahead, sim.limit);
                    sim.ahead = 0;
                    // Settling runs the task's code (a lazy run-ahead's slices, a redo): a
                    // panic or a broken promise there is this PE's.
                    self.current = i;
                    // The limit adapts to what slices done ahead cost; counted ones cost nothing.
                    if slot.driver.settle_ahead(begun) == RunAhead::Done {
                        if begun < ahead {
                            sim.limit = begun;
                        } else if ahead == limit {
                            sim.limit = (2 * limit).min(MAX_AHEAD);
                        }
                    }
                }
                // The poll at the slice end: a probe that finds the queue empty costs T_poll.
                let now = if self.pes[i - self.world.span.first].sim.inbox.is_empty() {
                    self.world.probe(i, time)
                } else {
                    time
                };
                self.resume(i, now)
            }
            Due::Wake { pe, epoch } => match self.pes[pe - self.world.span.first].sim.state {
                State::Waiting { epoch: e, .. } if e == epoch => self.resume(pe, time),
                _ => Ok(()),
            },
            Due::Arrive { from, to, slot } => {
                if matches!(
                    self.world.queue.envelope(slot),
                    Envelope::Protocol(Message::Request)
                ) && !matches!(
                    self.pes[to - self.world.span.first].sim.state,
                    State::Done { .. }
                ) {
                    let queued = self
                        .world
                        .queue
                        .queued(&self.pes[to - self.world.span.first].sim.inbox);
                    let requests = queued
                        .filter(|e| matches!(e, Envelope::Protocol(Message::Request)))
                        .count();
                    self.world.request_queue.add(requests as u64);
                    if let Some(probe) = &mut self.world.proof {
                        probe.request_arrived(to, time);
                    }
                }
                self.arrive(time, from, to, slot)
            }
        }
    }

    /// The message in `slot` (of the event queue) reaches PE `to`.
    fn arrive(&mut self, time: u64, from: PeId, to: PeId, slot: u32) -> Result<(), RunError> {
        let k = to - self.world.span.first;
        match self.pes[k].sim.state {
            State::Done { .. } => {
                let (_, envelope, _) = self.world.queue.take_message(slot);
                if let Err(e) = driver::check_leftover(from, to, &envelope) {
                    if self.world.violation.is_none() {
                        self.world.violation =
                            Some(format!("{e} (it reached PE {to} after it had finished)"));
                    }
                }
                Ok(())
            }
            State::Working => {
                let sim = &mut self.pes[k].sim;
                self.world.queue.deliver(&mut sim.inbox, slot);
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
                let sim = &mut self.pes[k].sim;
                self.world.queue.deliver(&mut sim.inbox, slot);
                self.resume(to, time)
            }
        }
    }

    /// Run the whole simulation on this engine to its end (or the first error).
    pub(super) fn run(&mut self) -> Result<(), RunError> {
        self.guarded(|e| {
            e.start()?;
            e.run_events()?;
            e.check_event_limit()?;
            check_end(e.pes, e.world.work_in_flight)
        })
    }

    /// Run `f` on the engine; a panic inside user code or a protocol invariant becomes an
    /// error naming the PE that was running.
    pub(super) fn guarded(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<(), RunError>,
    ) -> Result<(), RunError> {
        match catch_quietly(|| f(self)) {
            Ok(result) => result,
            Err(payload) => Err(panic_error(self.current, payload)),
        }
    }

    /// Ask the memory for the state of the PEs of the next events, a few events ahead:
    /// with many PEs, most of an event's time was spent waiting for the PE's state to come
    /// from memory. First the PE's slot and a message's slab entry, then (once the slot has
    /// arrived) the heap blocks of the task it points to (`PeDriver::work_blocks`).
    #[inline]
    fn prefetch(&mut self) {
        const SLOT_AHEAD: usize = 8;
        const BLOCKS_AHEAD: usize = 4;
        let queue = &self.world.queue;
        if let Some((pe, entry)) = queue.upcoming(SLOT_AHEAD) {
            let slot = &self.pes[pe - self.world.span.first] as *const Slot as *const u8;
            for line in (0..std::mem::size_of::<Slot>()).step_by(64) {
                prefetch(slot.wrapping_add(line));
            }
            if let Some(entry) = entry {
                prefetch(entry);
                prefetch(entry.wrapping_add(64));
            }
        }
        if let Some((pe, _)) = queue.upcoming(BLOCKS_AHEAD) {
            for block in self.pes[pe - self.world.span.first].driver.work_blocks() {
                if !block.is_null() {
                    prefetch(block);
                }
            }
        }
    }

    /// `SimConfig::max_events`: give up once the run has taken more events (in partitions:
    /// this one's, and the others' up to the end of the last window).
    pub(super) fn check_event_limit(&self) -> Result<(), RunError> {
        if self.world.events + self.world.events_elsewhere > self.world.config.max_events {
            return Err(RunError::Internal(format!(
                "the simulation did not end within {} events",
                self.world.config.max_events
            )));
        }
        Ok(())
    }

    /// Start every PE of the engine at time 0.
    pub(super) fn start(&mut self) -> Result<(), RunError> {
        let first = self.world.span.first;
        for i in first..first + self.pes.len() {
            self.resume(i, 0)?;
        }
        Ok(())
    }

    /// Handle the events before the end of the window (`world.span.horizon`; one engine
    /// running all PEs has no end: it handles them all).
    pub(super) fn run_events(&mut self) -> Result<(), RunError> {
        let horizon = self.world.span.horizon;
        while let Some((time, event)) = self.world.queue.pop(horizon) {
            if let Due::SliceEnd { pe, gen } = event {
                let sim = &self.pes[pe - self.world.span.first].sim;
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
                self.world.heap.follow();
            }
            self.check_event_limit()?;
            self.world.event_time = time;
            self.handle(time, event)?;
            if let Some(v) = self.world.violation.take() {
                return Err(RunError::Internal(v));
            }
        }
        Ok(())
    }
}

/// Termination declared while `in_flight` pieces of work travelled, or while PE `busy`
/// held work: the violation, if either.
pub(super) fn declared_too_early(in_flight: i64, busy: Option<PeId>) -> Option<String> {
    if in_flight > 0 {
        Some(format!(
            "termination declared while {in_flight} piece(s) of work were in flight"
        ))
    } else {
        busy.map(|b| format!("termination declared while PE {b} still held work"))
    }
}

/// The checks at the end of a run over all PEs `pes`: every PE finished, and no piece of
/// work was sent and never received (`in_flight`).
pub(super) fn check_end(pes: &[Slot], in_flight: i64) -> Result<(), RunError> {
    let unfinished = |s: &&Slot| !matches!(s.sim.state, State::Done { .. });
    if let Some(first) = pes.iter().position(|s| unfinished(&s)) {
        let stuck = pes.iter().filter(unfinished).count();
        return Err(RunError::Internal(format!(
            "the simulation deadlocked: {stuck} PE(s) never finished (first: PE {first})"
        )));
    }
    if in_flight != 0 {
        return Err(RunError::Internal(format!(
            "{in_flight} piece(s) of work were never received"
        )));
    }
    Ok(())
}
