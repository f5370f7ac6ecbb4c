//! The simulated machine around the PEs' protocols: each PE's state as the engine sees it
//! ([`SimPe`]), the [`World`] of queue, network and measurements, and the [`Link`] through
//! which the driver of one PE sends, receives and spends virtual time (the driver's
//! transport: sending costs T_send and the message arrives after the network's latency,
//! handling one costs T_recv, a split T_split, a slice of u units u time units times the PE's
//! slowness).

use super::events::{Event, EventQueue, Inbox};
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
/// redoing a task is dear: UTS); a slice end with no message sets it from 0 to 1 again.
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
    /// Run-ahead: slices the driver did ahead of their time (`ahead`, below; 0: none), each
    /// taking `slice_time`, the first beginning at `chain_start` (see `Engine::resume`).
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

/// Branch-and-bound: the global improvements a PE has learned of (a prefix of
/// `World::improvements`), and the sum and count of the delays with which it learned them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Learning {
    pub(super) learned: usize,
    pub(super) latency: (u64, u64),
}

/// One PE: the engine's side of it and its driver, side by side in memory and aligned to a
/// cache line, so that an event reads a few neighbouring lines of PE state.
#[repr(C, align(64))]
pub(super) struct Slot {
    pub(super) sim: SimPe,
    pub(super) driver: PeDriver,
}

/// Everything of the simulated machine but the PEs.
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
    /// Values that raised the best known anywhere, with the time they were found.
    pub(super) improvements: Vec<(i64, u64)>,
    /// What each PE learned of them (empty until the first improvement: most runs have
    /// none, and it would be 24 bytes per PE).
    pub(super) learning: Vec<Learning>,
    /// The number of PEs.
    pub(super) pes: usize,
    pub(super) work_in_flight: u64,
    pub(super) last_work_end: u64,
    pub(super) events: u64,
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
    /// Where the heap ended when last advised to use huge pages (see `huge_pages`).
    pub(super) heap_advised: usize,
    /// The proof probe (`SimConfig::proof`).
    pub(super) proof: Option<Box<super::proof::Probe>>,
}

impl World<'_> {
    /// What PE `pe` learned of the improvements (all PEs' records made on the first call).
    pub(super) fn learning(&mut self, pe: PeId) -> &mut Learning {
        if self.learning.is_empty() {
            self.learning = vec![Learning::default(); self.pes];
        }
        &mut self.learning[pe]
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

    fn pe(&mut self) -> &mut SimPe {
        self.pe
    }

    /// The PE learned the incumbent `value` now: account for the delay of every global
    /// improvement it thereby learned of.
    fn learned(&mut self, value: i64) {
        let now = self.now;
        let w = &mut *self.world;
        w.learning(self.i); // the records exist from here on
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
        let at = w.network.arrival(self.now, self.i, to, bytes, &mut w.rng);
        // Run-ahead relies on it (see `Engine::arrive`): a message never arrives at the time
        // it is sent (`SimConfig` rejects zero latencies), so it cannot reach a PE whose
        // slice end at that very time has already been handled.
        debug_assert!(at > self.now, "a message arrived when it was sent");
        if let Some(probe) = &mut w.proof {
            probe.sent(self.i, to, &envelope, self.now, at);
        }
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
        if let Some(probe) = &mut self.world.proof {
            let c = &handled.costs;
            probe.handled(self.i, c.splits, c.ended, self.now);
        }
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
                w.learning(self.i).learned = w.improvements.len();
            }
        }
        // Splits done in a work slice (static balancers cutting their jobs from the root)
        // cost T_split each, like splits on request; work on copies of pieces while cutting
        // (credited to another PE) costs its units.
        self.spend(
            slice.costs.splits * self.world.config.t_split + slice.costs.cut_work,
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
