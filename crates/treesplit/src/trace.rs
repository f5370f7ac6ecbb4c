//! Timelines of runs on every machine: what each PE did when, and which messages it sent and
//! received, recorded by the one PE driver when [`Config::trace`](crate::Config::trace) asks
//! for it (off by default).
//!
//! Each PE records into its own **preallocated ring buffer** of a fixed capacity (events per
//! PE, [`DEFAULT_TRACE_CAPACITY`] unless the configuration names another). The buffer never
//! grows: when it is full the oldest event is overwritten and counted in
//! [`PeTrace::dropped`], so a long run keeps its last `capacity` events and a bounded amount
//! of memory (24 bytes per event). Recording is an append of one small record at a state
//! change or a message: a PE that works slice after slice records nothing until its state
//! changes, which keeps the cost well under 1 % (BENCHMARKS.md).
//!
//! What a PE does, as the driver knows it ([`PeState`]): working (a work slice, and the
//! messages handled between slices), splitting (handling a message that made it split its
//! task for another PE), requesting (waiting with a work request out), idle (waiting without
//! one), terminating (waiting after termination was detected, while results are reduced).
//!
//! Messages are recorded at both ends with a per-pair sequence number: the k-th message PE i
//! sends to PE j is the k-th that PE j receives from PE i on machines that keep per-pair FIFO
//! order (threads, MPI; the simulator keeps it unless random delays reorder messages). Times
//! are the machine's ticks: nanoseconds since the common start on real machines, virtual time
//! units in the simulator ([`Trace::tick_seconds`]).
//!
//! Gantt charts draw a timeline as [`Segment`]s of one [`Activity`] each; the simulator's own
//! timeline (`machine::sim::timeline`) records the same segments.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Events kept per PE by default (1.5 MiB per PE).
pub const DEFAULT_TRACE_CAPACITY: usize = 1 << 16;

/// The largest capacity accepted (per PE: 2^24 events, 384 MiB).
pub const MAX_TRACE_CAPACITY: usize = 1 << 24;

/// What a PE is doing during a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Activity {
    /// Working on its task.
    Working,
    /// Splitting its task for a requester (T_split).
    Splitting,
    /// Sending messages (the sender's overhead, T_send).
    Sending,
    /// Handling received messages (the receiver's overhead, T_recv).
    Receiving,
    /// Idle, waiting for a message.
    Idle,
    /// Real runs: waiting for the answer to a work request.
    Requesting,
    /// Real runs: waiting after termination was detected (result reduction).
    Terminating,
}

/// A PE's activity over `[start, end)` in virtual time.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Segment {
    /// The PE.
    pub pe: u32,
    /// Start time.
    pub start: u64,
    /// End time.
    pub end: u64,
    /// What it did.
    pub activity: Activity,
}

/// What a PE is doing, from one state change to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PeState {
    /// Working on its task (and handling the messages that arrive between slices).
    Working,
    /// Splitting its task for another PE (handling a request that made it split).
    Splitting,
    /// Waiting for the answer to a work request.
    Requesting,
    /// Waiting for a message, with no request out.
    Idle,
    /// Waiting after termination was detected (the final result reduction).
    Terminating,
}

impl PeState {
    /// The state's name in traces ("working", …).
    pub fn name(self) -> &'static str {
        match self {
            PeState::Working => "working",
            PeState::Splitting => "splitting",
            PeState::Requesting => "requesting",
            PeState::Idle => "idle",
            PeState::Terminating => "terminating",
        }
    }

    /// The activity of the Gantt charts that draws this state.
    pub fn activity(self) -> Activity {
        match self {
            PeState::Working => Activity::Working,
            PeState::Splitting => Activity::Splitting,
            PeState::Requesting => Activity::Requesting,
            PeState::Idle => Activity::Idle,
            PeState::Terminating => Activity::Terminating,
        }
    }

    /// True for the states in which the PE does useful work (working, splitting).
    pub fn is_busy(self) -> bool {
        matches!(self, PeState::Working | PeState::Splitting)
    }
}

/// The kind of a message in a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MessageKind {
    /// A work request.
    Request,
    /// A rejection.
    Reject,
    /// A piece of work (also a bundle of jobs, a scattered piece, a root copy).
    Work,
    /// Termination detection and result reduction.
    Termination,
    /// A branch-and-bound incumbent.
    Bound,
    /// Any other protocol message (shuffles, counters, prefix sums, stop).
    Other,
}

impl MessageKind {
    /// The kind's name in traces.
    pub fn name(self) -> &'static str {
        match self {
            MessageKind::Request => "request",
            MessageKind::Reject => "reject",
            MessageKind::Work => "work",
            MessageKind::Termination => "termination",
            MessageKind::Bound => "bound",
            MessageKind::Other => "other",
        }
    }
}

/// What happened at one tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventKind {
    /// The PE entered this state.
    State(PeState),
    /// The PE sent its `seq`-th message (from 0) to PE `to`.
    Send {
        /// The receiver.
        to: u32,
        /// The number of messages this PE sent to `to` before.
        seq: u32,
        /// What it was.
        kind: MessageKind,
    },
    /// The PE received its `seq`-th message (from 0) from PE `from`.
    Receive {
        /// The sender.
        from: u32,
        /// The number of messages this PE received from `from` before.
        seq: u32,
        /// What it was.
        kind: MessageKind,
    },
}

/// One recorded event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The tick it happened at.
    pub at: u64,
    /// What happened.
    pub kind: EventKind,
}

/// One PE's recorded events: a ring buffer of fixed capacity.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PeTrace {
    /// The PE.
    pub pe: u32,
    /// The ring (allocated once at its full capacity).
    events: Vec<Event>,
    /// Where the oldest event is once the ring is full.
    head: usize,
    capacity: usize,
    /// Events overwritten because the ring was full (the oldest ones).
    pub dropped: u64,
    /// The tick the PE finished at (the end of its last state).
    pub end: u64,
    /// The state the PE is in (not recorded again until it changes).
    #[serde(skip)]
    state: Option<PeState>,
    /// Messages sent to and received from each peer (the sequence numbers).
    #[serde(skip)]
    peers: HashMap<u32, (u32, u32)>,
}

impl PeTrace {
    /// An empty trace of PE `pe` holding at most `capacity` (≥ 1) events.
    pub fn new(pe: u32, capacity: usize) -> Self {
        let capacity = capacity.max(1);
        PeTrace {
            pe,
            events: Vec::with_capacity(capacity),
            capacity,
            ..PeTrace::default()
        }
    }

    fn push(&mut self, event: Event) {
        if self.events.len() < self.capacity {
            self.events.push(event);
        } else {
            self.events[self.head] = event;
            self.head = (self.head + 1) % self.capacity;
            self.dropped += 1;
        }
    }

    /// The state the PE is in.
    pub fn state(&self) -> Option<PeState> {
        self.state
    }

    /// The PE enters `state` at tick `at` (nothing is recorded when it is there already).
    #[inline]
    pub fn enter(&mut self, state: PeState, at: u64) {
        if self.state != Some(state) {
            self.state = Some(state);
            self.push(Event {
                at,
                kind: EventKind::State(state),
            });
        }
    }

    /// The PE sent a message of `kind` to PE `to` at tick `at`.
    pub fn send(&mut self, to: u32, kind: MessageKind, at: u64) {
        let kind = EventKind::Send {
            to,
            seq: self.next_seq(to, true),
            kind,
        };
        self.push(Event { at, kind });
    }

    /// The PE received a message of `kind` from PE `from` at tick `at`.
    pub fn receive(&mut self, from: u32, kind: MessageKind, at: u64) {
        let seq = self.next_seq(from, false);
        self.push(Event {
            at,
            kind: EventKind::Receive { from, seq, kind },
        });
    }

    /// The number of the next message sent to (`sent`) or received from PE `peer`.
    fn next_seq(&mut self, peer: u32, sent: bool) -> u32 {
        let (to, from) = self.peers.entry(peer).or_default();
        let count = if sent { to } else { from };
        let seq = *count;
        *count = seq.wrapping_add(1);
        seq
    }

    /// The events kept, oldest first.
    pub fn events(&self) -> impl Iterator<Item = &Event> + '_ {
        let (newer, older) = self.events.split_at(self.head);
        older.iter().chain(newer)
    }

    /// The events kept.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// True when no event was kept.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The PE's states as intervals `(state, start, end)` in ticks, oldest first: each state
    /// lasts until the next state change, the last one until the PE finished.
    pub fn states(&self) -> Vec<(PeState, u64, u64)> {
        let changes: Vec<(PeState, u64)> = self
            .events()
            .filter_map(|e| match e.kind {
                EventKind::State(s) => Some((s, e.at)),
                _ => None,
            })
            .collect();
        changes
            .iter()
            .enumerate()
            .map(|(i, &(s, start))| {
                let end = changes.get(i + 1).map_or(self.end, |c| c.1).max(start);
                (s, start, end)
            })
            .collect()
    }
}

/// The recorded timeline of a run: one [`PeTrace`] per PE.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Trace {
    /// Seconds per tick (1e-9 on real machines, 1 in the simulator: virtual units).
    pub tick_seconds: f64,
    /// Every PE's events, by PE.
    pub pes: Vec<PeTrace>,
}

impl Trace {
    /// Events overwritten in all PEs' rings.
    pub fn dropped(&self) -> u64 {
        self.pes.iter().map(|p| p.dropped).sum()
    }

    /// The last tick any PE finished at.
    pub fn end(&self) -> u64 {
        self.pes.iter().map(|p| p.end).max().unwrap_or(0)
    }

    /// The states of all PEs as Gantt segments (ticks), for the simulator's charts.
    pub fn segments(&self) -> Vec<Segment> {
        self.pes
            .iter()
            .flat_map(|p| {
                p.states()
                    .into_iter()
                    .filter(|&(_, start, end)| end > start)
                    .map(|(s, start, end)| Segment {
                        pe: p.pe,
                        start,
                        end,
                        activity: s.activity(),
                    })
            })
            .collect()
    }

    /// Every message whose both ends were kept: (from, sent at, to, received at, kind),
    /// paired by per-pair sequence numbers; a pair that would arrive before it was sent (the
    /// simulator reordered it) is left out.
    pub fn messages(&self) -> Vec<(u32, u64, u32, u64, MessageKind)> {
        let mut received: HashMap<(u32, u32, u32), u64> = HashMap::new();
        for p in &self.pes {
            for e in p.events() {
                if let EventKind::Receive { from, seq, .. } = e.kind {
                    received.insert((from, p.pe, seq), e.at);
                }
            }
        }
        let mut out = Vec::new();
        for p in &self.pes {
            for e in p.events() {
                if let EventKind::Send { to, seq, kind } = e.kind {
                    if let Some(&at) = received.get(&(p.pe, to, seq)) {
                        if at >= e.at {
                            out.push((p.pe, e.at, to, at, kind));
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_keeps_the_newest_events_and_counts_the_dropped() {
        let mut t = PeTrace::new(0, 3);
        for (i, s) in [
            PeState::Idle,
            PeState::Working,
            PeState::Idle,
            PeState::Working,
        ]
        .into_iter()
        .enumerate()
        {
            t.enter(s, i as u64);
            t.enter(s, i as u64 + 100); // no change: not recorded
        }
        t.end = 10;
        assert_eq!(t.dropped, 1);
        let at: Vec<u64> = t.events().map(|e| e.at).collect();
        assert_eq!(at, vec![1, 2, 3]);
        assert_eq!(t.states().last(), Some(&(PeState::Working, 3, 10)));
    }

    #[test]
    fn messages_pair_by_sequence_number() {
        let mut a = PeTrace::new(0, 8);
        let mut b = PeTrace::new(1, 8);
        a.send(1, MessageKind::Request, 1);
        a.send(1, MessageKind::Request, 2);
        b.receive(0, MessageKind::Request, 5);
        b.receive(0, MessageKind::Request, 6);
        let trace = Trace {
            tick_seconds: 1.0,
            pes: vec![a, b],
        };
        let m = trace.messages();
        assert_eq!(m.len(), 2);
        assert!(m.contains(&(0, 2, 1, 6, MessageKind::Request)));
    }
}
