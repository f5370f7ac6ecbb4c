//! One PE's recorded events ([`PeTrace`]): the state changes and messages the driver records
//! (`driver/pe/timeline.rs`), in a ring of a fixed capacity.
//!
//! The ring starts empty and grows as events are recorded (doubling, never beyond its
//! capacity), so its memory follows what the PE records: a PE that records 40 events holds
//! about 40, whatever the capacity. Once full it overwrites its oldest event and counts it in
//! [`PeTrace::dropped`], so a long run keeps its last `capacity` events and at most
//! `capacity` × 24 bytes per PE (the bound the simulator's memory estimate counts).

use super::{MessageKind, PeState};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Events kept per PE by default (at most 1.5 MiB per PE, held only as far as recorded).
pub const DEFAULT_TRACE_CAPACITY: usize = 1 << 16;

/// The largest capacity accepted (per PE: 2^24 events, 384 MiB).
pub const MAX_TRACE_CAPACITY: usize = 1 << 24;

/// The events a ring makes room for when it first grows.
const FIRST_ROOM: usize = 16;

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

/// One PE's recorded events: a ring buffer of fixed capacity that grows up to it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PeTrace {
    /// The PE.
    pub pe: u32,
    /// The ring (grown as events come, up to `capacity`).
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
    /// An empty trace of PE `pe` holding at most `capacity` (≥ 1) events. Nothing is
    /// allocated until the first event.
    pub fn new(pe: u32, capacity: usize) -> Self {
        PeTrace {
            pe,
            capacity: capacity.max(1),
            ..PeTrace::default()
        }
    }

    fn push(&mut self, event: Event) {
        let len = self.events.len();
        if len < self.capacity {
            if len == self.events.capacity() {
                self.grow();
            }
            self.events.push(event);
        } else {
            self.events[self.head] = event;
            self.head = (self.head + 1) % self.capacity;
            self.dropped += 1;
        }
    }

    /// Make room for more events: twice as many, never beyond the capacity.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let len = self.events.len();
        let room = len.max(FIRST_ROOM).min(self.capacity - len);
        self.events.reserve_exact(room);
    }

    /// The most events the ring keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
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
    fn the_ring_holds_what_was_recorded_up_to_its_capacity() {
        let mut t = PeTrace::new(0, 1000);
        assert_eq!(t.events.capacity(), 0, "nothing before the first event");
        for i in 0..40 {
            t.send(1, MessageKind::Request, i);
        }
        assert!(
            (40..=64).contains(&t.events.capacity()),
            "{}",
            t.events.capacity()
        );
        for i in 40..5000 {
            t.receive(1, MessageKind::Reject, i);
        }
        assert_eq!(t.events.capacity(), 1000, "never beyond the capacity");
        assert_eq!((t.len(), t.dropped), (1000, 4000));
        let at: Vec<u64> = t.events().map(|e| e.at).collect();
        assert_eq!(at, (4000..5000).collect::<Vec<u64>>());
    }
}
