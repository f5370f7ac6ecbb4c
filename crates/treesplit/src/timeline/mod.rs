//! Timelines of runs, on every machine: what each PE did when, and which messages it sent and
//! received.
//!
//! One system with two records, each kept where its facts are known:
//!
//! - **The trace** ([`Trace`], one [`PeTrace`] ring per PE, `ring.rs`): the state changes and
//!   messages that the one PE driver records on every machine when
//!   [`Config::trace`](crate::Config::trace) asks for it (off by default; the recording side
//!   is `driver/pe/timeline.rs`). Only the driver knows *why* a PE waits (a request out,
//!   nothing to do, termination detected) and which messages it sends; the ring keeps a
//!   PE's last `capacity` events and holds only what was recorded.
//! - **The activity log** ([`ActivityLog`], `activity.rs`): what each PE's time went to, as
//!   Gantt [`Segment`]s (small P) and the utilization curve (any P, constant memory). The
//!   simulator records it live as it charges each PE's virtual time, always: only the machine
//!   model knows what a slice took (slowness) and what sending, receiving and splitting
//!   cost, and the curve must cover the whole run, which a ring that drops its oldest events
//!   cannot. A real machine has no such costs of its own: its activity log is made from its
//!   trace, by the same code ([`Trace::activities`]), so Gantt charts and curves of every
//!   machine come from one log type.
//!
//! What a PE does, as the driver knows it ([`PeState`]): working (a work slice, and the
//! messages handled between slices), splitting (handling a message that made it split its
//! task for another PE), requesting (waiting with a work request out), idle (waiting without
//! one), terminating (waiting after termination was detected, while results are reduced).
//! Each state draws as one [`Activity`]; the simulator's log adds sending and receiving.
//!
//! Messages are recorded at both ends with a per-pair sequence number: the k-th message PE i
//! sends to PE j is the k-th that PE j receives from PE i on machines that keep per-pair FIFO
//! order (threads, MPI; the simulator keeps it unless random delays reorder messages). Times
//! are the machine's ticks: nanoseconds since the common start on real machines, virtual time
//! units in the simulator ([`Trace::tick_seconds`]). Recording is an append of one small
//! record at a state change or a message: a PE that works slice after slice records nothing
//! until its state changes, which keeps the cost well under 1 % (docs/benchmarks/overheads.md).

mod activity;
mod ring;

pub use activity::ActivityLog;
pub use ring::{Event, EventKind, PeTrace, DEFAULT_TRACE_CAPACITY, MAX_TRACE_CAPACITY};

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

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

/// A PE's activity over `[start, end)` in ticks.
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

    /// The most events a PE's ring keeps (0 without PEs).
    pub fn capacity(&self) -> usize {
        self.pes.iter().map(PeTrace::capacity).max().unwrap_or(0)
    }

    /// The last tick any PE finished at.
    pub fn end(&self) -> u64 {
        self.pes.iter().map(|p| p.end).max().unwrap_or(0)
    }

    /// The PEs' states as an activity log: the utilization curve (working and splitting
    /// count as busy), and the Gantt segments when `segments` is true (each PE's in time
    /// order, the PEs in order).
    pub fn activities(&self, segments: bool) -> ActivityLog {
        let pes = self
            .pes
            .iter()
            .map(|p| p.pe as usize + 1)
            .max()
            .unwrap_or(0);
        let mut log = ActivityLog::new(pes, segments);
        for p in &self.pes {
            for (state, start, end) in p.states() {
                log.record(p.pe as usize, start, end, state.activity());
            }
        }
        log
    }

    /// The states of all PEs as Gantt segments (ticks), each PE's in time order, the PEs in
    /// order.
    pub fn segments(&self) -> Vec<Segment> {
        self.activities(true).into_segments().unwrap_or_default()
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

    #[test]
    fn a_trace_draws_its_states_and_counts_its_busy_time() {
        let mut a = PeTrace::new(0, 8);
        a.enter(PeState::Working, 0);
        a.enter(PeState::Splitting, 6);
        a.enter(PeState::Requesting, 8);
        a.end = 10;
        let mut b = PeTrace::new(1, 8);
        b.enter(PeState::Idle, 0);
        b.enter(PeState::Working, 4);
        b.end = 10;
        let trace = Trace {
            tick_seconds: 1.0,
            pes: vec![a, b],
        };
        let s: Vec<(u32, u64, u64, Activity)> = trace
            .segments()
            .iter()
            .map(|s| (s.pe, s.start, s.end, s.activity))
            .collect();
        assert_eq!(
            s,
            [
                (0, 0, 6, Activity::Working),
                (0, 6, 8, Activity::Splitting),
                (0, 8, 10, Activity::Requesting),
                (1, 0, 4, Activity::Idle),
                (1, 4, 10, Activity::Working),
            ]
        );
        // Busy: 8 ticks of PE 0 and 6 of PE 1, over 2 PEs and 10 ticks.
        let curve = trace.activities(false).curve(2, trace.end());
        let busy: f64 = curve.iter().map(|&(_, f)| f).sum();
        assert_eq!(busy, 7.0, "{curve:?}");
    }
}
