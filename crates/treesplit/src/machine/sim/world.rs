//! The simulated machine around the PEs' protocols: each PE's state as the engine sees it
//! ([`SimPe`]), the [`World`] of queue, network and measurements, and the [`Link`] through
//! which the driver of one PE sends, receives and spends virtual time (the driver's
//! transport: sending costs T_send and the message arrives after the network's latency,
//! handling one costs T_recv, a split T_split, an increment of a global counter T_count, a
//! slice of u units u time units times the PE's slowness; the engine charges T_poll for a
//! probe that finds the queue empty, [`World::probe`]).

use super::events::{Event, EventQueue, Inbox};
use super::incumbents::Incumbents;
use super::network::Network;
use super::SimConfig;
use crate::driver::{Envelope, Flow, Handled, Incoming, PeDriver, Slice, Transport};
use crate::error::RunError;
use crate::protocol::termination::Signal;
use crate::protocol::{Costs, Message, PeId};
use crate::timeline::{Activity, ActivityLog};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The most slices a busy PE runs ahead at once (`engine.rs`): more saves events and
/// runs of the driver, fewer saves work undone when a message comes first. Each PE adapts
/// its own limit between 0 (no run-ahead) and this: it doubles after a run-ahead that no
/// message cut short and drops to the slices begun after one that a message did, so that
/// the work done ahead and undone stays about the work kept (it matters where copying and
/// redoing a task is dear: UTS); a slice end with no message sets it from 0 to 1 again. A
/// lazy run-ahead (`Task::plain_units`), which undoes nothing, always reaches this far and
/// leaves the limit as it was.
pub(super) const MAX_AHEAD: u32 = 64;

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
pub(super) struct SimPe {
    pub(super) state: State,
    /// The time of the PE's slice-end event that counts, and its generation (`gen`, below:
    /// an event of an older generation is stale, a message moved the slice end earlier).
    pub(super) due: u64,
    /// Run-ahead: slices the driver did ahead of their time (`ahead`, below; 0: none), their
    /// slice ends `slice_time` apart (a slice and an unsuccessful probe, T_poll), the first at
    /// `chain_start` (see `Engine::resume`).
    pub(super) chain_start: u64,
    pub(super) slice_time: u64,
    /// Messages received and not yet handled (a list through the event slab).
    pub(super) inbox: Inbox,
    pub(super) slowness: f64,
    pub(super) gen: u32,
    pub(super) ahead: u32,
    /// The most slices the PE runs ahead next time (adaptive, see [`MAX_AHEAD`]).
    pub(super) limit: u32,
    /// Waits begun so far (a wake-up event names the wait it ends).
    pub(super) epoch: u32,
}

impl SimPe {
    /// The PE's slice end is now due at `at`: a new generation, which makes any slice-end
    /// event already scheduled for it stale. Returns the generation to schedule.
    pub(super) fn slice_end_at(&mut self, at: u64) -> u32 {
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
            inbox: Inbox::new(),
            slowness,
            epoch: 0,
        }
    }
}

/// One PE: the engine's side of it and its driver, side by side in memory and aligned to a
/// cache line, so that an event reads a few neighbouring lines of PE state.
#[repr(C, align(64))]
pub(super) struct Slot {
    pub(super) sim: SimPe,
    pub(super) driver: PeDriver,
}

/// The PEs an engine runs: all of them, or one partition's (`partition.rs`), and where its
/// messages to the other partitions wait for the end of the window.
pub(super) struct Span {
    /// The first PE of the partition and the PE after its last.
    pub(super) first: PeId,
    pub(super) end: PeId,
    /// The PEs per partition (the last may have fewer).
    pub(super) chunk: usize,
    /// The end of the window being run: a message to another partition arrives at it or
    /// later (the window lasts at most T_send plus the network's smallest latency).
    pub(super) horizon: u64,
    /// Messages to the other partitions, by partition: (arrival time, event).
    pub(super) outbox: Vec<Vec<(u64, Event)>>,
}

impl Span {
    /// One engine running all `pes` PEs.
    pub(super) fn whole(pes: usize) -> Self {
        Span {
            first: 0,
            end: pes,
            chunk: pes.max(1),
            horizon: u64::MAX,
            outbox: Vec::new(),
        }
    }

    pub(super) fn holds(&self, pe: PeId) -> bool {
        (self.first..self.end).contains(&pe)
    }

    /// One engine runs all PEs.
    pub(super) fn is_whole(&self) -> bool {
        self.outbox.is_empty()
    }
}

/// Everything of the simulated machine but the PEs (of one partition, when the engine runs
/// in partitions).
pub(super) struct World<'c> {
    pub(super) config: &'c SimConfig,
    /// The model's T_send and T_recv (`SimConfig::overheads`).
    pub(super) t_send: u64,
    pub(super) t_recv: u64,
    /// When PE 0 detected termination (sent its first `Finish`); `None` while it has not,
    /// and on one PE, where nothing is announced.
    pub(super) detected: Option<u64>,
    pub(super) queue: EventQueue,
    pub(super) network: Network,
    pub(super) rng: Xoshiro256PlusPlus,
    /// Branch-and-bound: values found and learned, for the delays of learning them.
    pub(super) incumbents: Incumbents,
    /// The PEs this engine runs.
    pub(super) span: Span,
    /// The time of the event being handled.
    pub(super) event_time: u64,
    /// Pieces of work sent and not yet received (in partitions: sent from this partition
    /// less received in it, so the sum over the partitions counts).
    pub(super) work_in_flight: i64,
    pub(super) last_work_end: u64,
    pub(super) events: u64,
    /// In partitions: the other partitions' events up to the end of the last window.
    pub(super) events_elsewhere: u64,
    /// What each PE's virtual time went to: the utilization curve, and Gantt segments when
    /// P is small (`SimConfig::timeline_limit`).
    pub(super) activities: ActivityLog,
    pub(super) violation: Option<String>,
    /// PE 0 has just declared termination (checked once its step is over).
    pub(super) finish_sent: bool,
    /// Run limits: work units of all PEs so far (kept only under `Config::max_units`), and
    /// the real time the simulation started (time limits are wall-clock time).
    pub(super) total_units: u64,
    pub(super) started: std::time::Instant,
    /// Paper 000 Lemma 1(3): the requests already queued where each request arrives.
    pub(super) request_queue: super::RequestQueue,
    /// The bytes of the largest termination message sent (responses carry results, so their
    /// length depends on the task's outcome).
    pub(super) largest_termination_message: u64,
    /// The heap this engine allocates from, advised to use huge pages as it grows.
    pub(super) heap: super::huge_pages::HeapFollower,
    /// The proof probe (`SimConfig::proof`).
    pub(super) proof: Option<Box<super::proof::Probe>>,
    /// Per PE of the span: the unsuccessful probes charged T_poll (empty while T_poll = 0),
    /// and the increments of a global counter charged T_count (empty while T_count = 0).
    pub(super) probes: Vec<u64>,
    pub(super) increments: Vec<u64>,
}

impl<'c> World<'c> {
    /// The worlds of the partitions, in the order of their PEs, as one (its queue empty),
    /// and their records of incumbents.
    pub(super) fn merge(worlds: Vec<World<'c>>) -> (World<'c>, Vec<Incumbents>) {
        let mut incumbents = Vec::with_capacity(worlds.len());
        let mut worlds = worlds.into_iter();
        let mut whole = worlds.next().expect("one partition at least");
        whole.queue = EventQueue::new();
        incumbents.push(std::mem::take(&mut whole.incumbents));
        for mut w in worlds {
            whole.detected = match (whole.detected, w.detected) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            whole.work_in_flight += w.work_in_flight;
            whole.last_work_end = whole.last_work_end.max(w.last_work_end);
            whole.events += w.events;
            whole.activities.merge(w.activities);
            whole.request_queue.merge(&w.request_queue);
            whole.largest_termination_message = whole
                .largest_termination_message
                .max(w.largest_termination_message);
            whole.probes.append(&mut w.probes);
            whole.increments.append(&mut w.increments);
            incumbents.push(std::mem::take(&mut w.incumbents));
        }
        (whole, incumbents)
    }

    /// T_poll: busy PE `pe` finds its queue empty at the slice end `at` and pays for the
    /// probe; returns when it goes on. A probe is part of receiving (the Gantt chart shows it
    /// so). Free, and not counted, while T_poll = 0.
    pub(super) fn probe(&mut self, pe: PeId, at: u64) -> u64 {
        let t_poll = self.config.t_poll;
        if t_poll == 0 {
            return at;
        }
        let end = at.saturating_add(t_poll);
        self.record(pe, at, end, Activity::Receiving);
        self.probes[pe - self.span.first] += 1;
        end
    }

    /// PE `pe` did `begun` slices run ahead (`engine.rs`) from the slice end `start` to
    /// `end`, slice ends `period` apart: each slice after an unsuccessful probe (T_poll).
    pub(super) fn worked_ahead(&mut self, pe: PeId, start: u64, end: u64, period: u64, begun: u32) {
        if self.config.t_poll == 0 {
            self.record(pe, start, end, Activity::Working);
            return;
        }
        for j in 0..u64::from(begun) {
            let at = start + j * period;
            let resumed = self.probe(pe, at);
            self.record(pe, resumed, at + period, Activity::Working);
        }
    }

    /// PE `pe` spent `[start, end)` on `activity`.
    pub(super) fn record(&mut self, pe: PeId, start: u64, end: u64, activity: Activity) {
        self.activities.record(pe, start, end, activity);
        if let Some(probe) = &mut self.proof {
            if activity != Activity::Working {
                probe.not_working(start, end);
            }
        }
    }
}

/// PE `i`'s link to the simulated machine while the driver runs it, at its local time `now`.
pub(super) struct Link<'a, 'c> {
    pub(super) world: &'a mut World<'c>,
    pub(super) pe: &'a mut SimPe,
    pub(super) i: PeId,
    pub(super) now: u64,
    /// The end of the slice the PE is suspended in, if it is.
    pub(super) slice_end: Option<u64>,
    /// The last slice did its whole budget at no cost and improved nothing, taking this
    /// much virtual time: the PE may run ahead.
    pub(super) plain: Option<u64>,
}

impl Link<'_, '_> {
    /// The PE spends `d` time units on `activity` (sending, receiving, splitting).
    fn spend(&mut self, d: u64, activity: Activity) {
        if d > 0 {
            let end = self.now.saturating_add(d);
            self.world.record(self.i, self.now, end, activity);
            self.now = end;
        }
    }

    /// T_count: the PE did `n` increments of a global counter it holds. They are part of
    /// handling the messages that asked for them (the Gantt chart shows them as receiving).
    /// Free, and not counted, while T_count = 0.
    fn count(&mut self, n: u64) {
        let t_count = self.world.config.t_count;
        if n > 0 && t_count > 0 {
            self.world.increments[self.i - self.world.span.first] += n;
            self.spend(n.saturating_mul(t_count), Activity::Receiving);
        }
    }

    fn pe(&mut self) -> &mut SimPe {
        self.pe
    }
}

impl Transport for Link<'_, '_> {
    fn now(&mut self) -> u64 {
        self.now
    }

    fn send(&mut self, to: PeId, envelope: Envelope, bound: i64) -> Result<u64, RunError> {
        if self.i == 0
            && matches!(
                envelope,
                Envelope::Protocol(Message::Termination(Signal::Finish))
            )
        {
            // PE 0 announces the end: termination is detected now (T_par ends here; what
            // follows is the collection of the result).
            self.world.finish_sent = true;
            self.world.detected.get_or_insert(self.now);
        }
        self.spend(self.world.t_send, Activity::Sending);
        let w = &mut *self.world;
        if envelope.carries_work() {
            w.work_in_flight += 1;
        }
        // The bytes the MPI machine would send, counted without writing them.
        let bytes = postcard::experimental::serialized_size(&envelope).unwrap_or(0) as u64;
        if matches!(envelope, Envelope::Protocol(Message::Termination(_))) {
            w.largest_termination_message = w.largest_termination_message.max(bytes);
        }
        w.network.advance(w.event_time);
        let at = w.network.arrival(self.now, self.i, to, bytes, &mut w.rng);
        // Run-ahead relies on it (see `Engine::arrive`): a message never arrives at the time
        // it is sent (`SimConfig` rejects zero latencies), so it cannot reach a PE whose
        // slice end at that very time has already been handled.
        debug_assert!(at > self.now, "a message arrived when it was sent");
        if let Some(probe) = &mut w.proof {
            probe.sent(self.i, to, &envelope, self.now, at);
        }
        let event = Event::Arrive {
            from: self.i,
            to,
            envelope,
            bound,
        };
        if w.span.holds(to) {
            w.queue.push(at, event);
        } else {
            // To another partition: it must arrive after the window (`partition.rs`).
            if at < w.span.horizon && w.violation.is_none() {
                w.violation = Some(format!(
                    "a message from PE {} to PE {to} arrived at {at}, within the window (ending at {}) in which it was sent",
                    self.i, w.span.horizon
                ));
            }
            w.span.outbox[to / w.span.chunk].push((at, event));
        }
        Ok(bytes)
    }

    fn try_recv(&mut self) -> Result<Option<Incoming>, RunError> {
        let Some((from, envelope, bound)) = self.world.queue.receive(&mut self.pe.inbox) else {
            return Ok(None);
        };
        if envelope.carries_work() {
            self.world.work_in_flight -= 1;
        }
        self.spend(self.world.t_recv, Activity::Receiving);
        if let Some(probe) = &mut self.world.proof {
            probe.received(self.i, from, &envelope);
        }
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
            handled.costs.splits * self.world.config.t_split + handled.costs.cut_work,
            Activity::Splitting,
        );
        self.count(handled.costs.counts);
        if let Some(probe) = &mut self.world.proof {
            let c = &handled.costs;
            probe.handled(self.i, c.splits, c.ended, self.now);
        }
        if let Some(value) = handled.learned {
            self.world.incumbents.learned(self.i, value, self.now);
        }
    }

    fn worked(&mut self, slice: &Slice) -> Result<Flow, RunError> {
        if let Some(best) = slice.improved {
            let w = &mut *self.world;
            w.incumbents.found((w.event_time, self.i), best, self.now);
        }
        // Splits done in a work slice (static balancers cutting their jobs from the root)
        // cost T_split each, like splits on request; work on copies of pieces while cutting
        // (credited to another PE) costs its units.
        self.spend(
            slice.costs.splits * self.world.config.t_split + slice.costs.cut_work,
            Activity::Splitting,
        );
        self.count(slice.costs.counts);
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
        if let Some(probe) = &mut w.proof {
            probe.worked(i, slice.units, slice.costs.ended, end);
        }
        self.pe.state = State::Working;
        // Scheduled by `Engine::resume`, once it knows how far the PE runs ahead.
        self.slice_end = Some(end);
        self.plain = (slice.units == slice.budget
            && slice.units > 0
            && slice.costs == Costs::default()
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
