//! The simulator's time queue: a calendar of one bucket per time unit over the next
//! [`WINDOW`] units, and a binary heap for the events beyond.
//!
//! Events come out in (time, order) order, where the *order* is a number the engine derives
//! from the event itself (its PE, its kind, its sender), not from when it was scheduled: the
//! tie-break between a message and a slice end at the same time is part of the simulator's
//! semantics, and a tie-break that does not depend on the order of scheduling lets the engine
//! leave out events that change nothing (a busy PE's slice ends with no message in between,
//! see `engine.rs`) without changing the order of the others. Only events with the same time
//! and order (two messages from one PE to another arriving at once) keep their scheduling
//! order.
//!
//! A binary heap over (time, order) keys gave that at O(log n) cache-missing steps per event,
//! a third of the run at P = 1024. Here nearly every event (slice ends, messages: Δt and T_rout
//! are small) lands within the window, where pushing appends a 16-byte entry to its time's
//! bucket; when the calendar reaches a bucket it is sorted once (which also visits the PEs in
//! the order of their numbers, kind to the memory). An event scheduled for the time being
//! served (a wake-up whose deadline has passed, a slice end moved to the current time, a slice
//! that took no time) goes into a small side heap merged with the sorted bucket. An event
//! scheduled beyond the window waits in the far heap, keyed (time, order, sequence number),
//! and moves into its bucket as soon as the window reaches its time, before anything else can
//! be put there directly, so it keeps its place among equals.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Time units covered by the calendar (a power of two).
const WINDOW: usize = 1024;
const MASK: u64 = WINDOW as u64 - 1;
const WORDS: usize = WINDOW / 64;
/// The most entries a spare bucket buffer keeps room for.
const SPARE_ROOM: usize = 256;

/// An entry: the order in the high 64 bits, a sequence number within the bucket (equal
/// orders keep their scheduling order) in the next 32, the caller's payload in the low 32.
type Entry = u128;

#[inline]
fn entry(order: u64, seq: u32, payload: u32) -> Entry {
    (order as u128) << 64 | (seq as u128) << 32 | payload as u128
}

/// The entries scheduled for one time; `head` of them already taken once `sorted`.
#[derive(Default)]
struct Bucket {
    entries: Vec<Entry>,
    head: usize,
    sorted: bool,
    /// Sequence numbers given so far in this bucket.
    seq: u32,
}

/// A queue of (order, payload) pairs by (time, order, scheduling order).
pub(super) struct TimeQueue {
    /// The calendar holds times `base .. base + WINDOW`; `base` is the time last popped.
    base: u64,
    buckets: Box<[Bucket]>,
    /// One bit per non-empty bucket.
    occupied: [u64; WORDS],
    /// Entries in the calendar (side heap included).
    in_calendar: usize,
    /// Entries scheduled for the time being served after its bucket was sorted.
    now: BinaryHeap<Reverse<Entry>>,
    /// Entries scheduled beyond the window: (time, order, sequence number, payload).
    later: BinaryHeap<Reverse<(u64, u64, u64, u32)>>,
    seq: u64,
    /// Buffers of emptied buckets, for the next bucket to fill: only the buckets in use hold
    /// memory (a bucket may have held one entry per PE; kept by all 1024 buckets, that would
    /// be gigabytes at 2^20 PEs), and a spare one only a little ([`TimeQueue::retire`]).
    spare: Vec<Vec<Entry>>,
}

impl TimeQueue {
    pub(super) fn new() -> Self {
        TimeQueue {
            base: 0,
            buckets: (0..WINDOW).map(|_| Bucket::default()).collect(),
            occupied: [0; WORDS],
            in_calendar: 0,
            now: BinaryHeap::new(),
            later: BinaryHeap::new(),
            seq: 0,
            spare: Vec::new(),
        }
    }

    /// Schedule `payload` at `time` with tie-break `order` (never before the last time
    /// popped).
    #[inline]
    pub(super) fn push(&mut self, time: u64, order: u64, payload: u32) {
        // In the past, it would wrap into the far heap and come out in the wrong bucket.
        assert!(time >= self.base, "an event scheduled in the past");
        if time - self.base < WINDOW as u64 {
            self.put(time, order, payload);
        } else {
            self.seq += 1;
            self.later.push(Reverse((time, order, self.seq, payload)));
        }
    }

    #[inline]
    fn put(&mut self, time: u64, order: u64, payload: u32) {
        let i = (time & MASK) as usize;
        let bucket = &mut self.buckets[i];
        let e = entry(order, bucket.seq, payload);
        bucket.seq += 1;
        self.in_calendar += 1;
        if bucket.sorted {
            // The bucket being served: merge with it through the side heap.
            self.now.push(Reverse(e));
            return;
        }
        if bucket.entries.capacity() == 0 {
            if let Some(spare) = self.spare.pop() {
                bucket.entries = spare;
            }
        }
        bucket.entries.push(e);
        self.occupied[i / 64] |= 1 << (i % 64);
    }

    /// The earliest entry and its time: (time, order, payload).
    #[cfg(test)]
    fn pop(&mut self) -> Option<(u64, u64, u32)> {
        self.pop_before(u64::MAX)
    }

    /// The earliest entry and its time, if it comes before `limit` (`u64::MAX`: no limit).
    /// The calendar is never moved past `limit`, so entries at `limit` or later may still be
    /// pushed after a `None`.
    #[inline]
    pub(super) fn pop_before(&mut self, limit: u64) -> Option<(u64, u64, u32)> {
        let before = |time: u64| time < limit || limit == u64::MAX;
        loop {
            if self.in_calendar > 0 {
                let i = (self.base & MASK) as usize;
                let bucket = &mut self.buckets[i];
                if !bucket.sorted && !bucket.entries.is_empty() {
                    bucket.entries.sort_unstable();
                    bucket.sorted = true;
                }
                let next = bucket.entries.get(bucket.head).copied();
                let side = self.now.peek().map(|r| r.0);
                let e = match (next, side) {
                    (Some(b), Some(s)) if s < b => self.now.pop().map(|r| r.0),
                    (Some(b), _) => {
                        bucket.head += 1;
                        Some(b)
                    }
                    (None, Some(_)) => self.now.pop().map(|r| r.0),
                    (None, None) => None,
                };
                if let Some(e) = e {
                    self.in_calendar -= 1;
                    if bucket.head == bucket.entries.len() && self.now.is_empty() {
                        self.retire(i);
                    }
                    return Some((self.base, (e >> 64) as u64, e as u32));
                }
                // This time is over: the bucket is empty (and was retired).
                let next = self.base + self.next_occupied(i);
                if !before(next) {
                    return None;
                }
                self.advance(next);
            } else {
                let Reverse((time, ..)) = *self.later.peek()?;
                if !before(time) {
                    return None;
                }
                self.advance(time);
            }
        }
    }

    /// The time of the earliest entry, without taking it (the engine running in windows
    /// stops before the first event of the next window).
    #[inline]
    pub(super) fn next_time(&self) -> Option<u64> {
        if self.in_calendar == 0 {
            return self.later.peek().map(|Reverse((time, ..))| *time);
        }
        let i = (self.base & MASK) as usize;
        let bucket = &self.buckets[i];
        if bucket.head < bucket.entries.len() || !self.now.is_empty() {
            return Some(self.base);
        }
        Some(self.base + self.next_occupied(i))
    }

    /// The bucket `i`, served to its end, gives its buffer back, with room for at most
    /// [`SPARE_ROOM`] entries: a crowded time's buffer passed on as it was would make every
    /// bucket in use as large as the most crowded (with run-ahead, hundreds of sparse times
    /// ahead each held room for a whole time's slice ends). A crowded bucket grows its
    /// buffer again by doubling.
    #[inline]
    fn retire(&mut self, i: usize) {
        let bucket = &mut self.buckets[i];
        let mut entries = std::mem::take(&mut bucket.entries);
        *bucket = Bucket::default();
        if entries.capacity() > 0 {
            entries.clear();
            entries.shrink_to(SPARE_ROOM);
            self.spare.push(entries);
        }
        self.occupied[i / 64] &= !(1 << (i % 64));
    }

    /// The payload and order `ahead` places after the next entry of the bucket being served,
    /// if there is one (for prefetching the state of the PEs about to run).
    #[inline]
    pub(super) fn upcoming(&self, ahead: usize) -> Option<(u64, u32)> {
        let bucket = &self.buckets[(self.base & MASK) as usize];
        if !bucket.sorted {
            return None;
        }
        let e = *bucket.entries.get(bucket.head + ahead)?;
        Some(((e >> 64) as u64, e as u32))
    }

    /// Distance from bucket `i` (empty) to the next occupied one, circularly (one exists).
    fn next_occupied(&self, i: usize) -> u64 {
        let (word, bit) = (i / 64, i % 64);
        // The rest of i's word, then the following words, wrapping around to i's word.
        let first = self.occupied[word] & (!0u64 << bit);
        if first != 0 {
            return (first.trailing_zeros() as usize - bit) as u64;
        }
        for k in 1..=WORDS {
            let w = (word + k) % WORDS;
            let bits = self.occupied[w];
            if bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                return ((j + WINDOW - i) % WINDOW) as u64;
            }
        }
        unreachable!("the calendar holds an entry")
    }

    /// Move the calendar's start to `time` (every bucket before it is empty) and take in the
    /// events from beyond the window that now fall within it, in their order.
    fn advance(&mut self, time: u64) {
        self.base = time;
        while let Some(&Reverse((t, order, _, payload))) = self.later.peek() {
            // A difference, not `time + WINDOW`: near u64::MAX that sum saturates and an
            // event at the end of time would never come in (the run looped forever).
            if t.saturating_sub(time) >= WINDOW as u64 {
                break;
            }
            self.later.pop();
            self.put(t, order, payload);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The calendar gives the order of a heap over (time, order, sequence number), also for
    /// entries pushed at the time being served and beyond the window.
    #[test]
    fn same_order_as_a_heap_of_time_order_and_sequence() {
        let mut r = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        for spread in [0u64, 1, 10, 900, 5_000, 1 << 40] {
            let mut q = TimeQueue::new();
            let mut heap = BinaryHeap::new();
            let (mut now, mut seq, mut payload) = (0u64, 0u64, 0u32);
            for _ in 0..20_000 {
                for _ in 0..r.random_range(0..3) {
                    let t = now + r.random_range(0..=spread);
                    // Few distinct orders: many ties that must keep scheduling order.
                    let order = r.random_range(0..8u64);
                    payload += 1;
                    seq += 1;
                    q.push(t, order, payload);
                    heap.push(Reverse((t, order, seq, payload)));
                }
                let first = heap.peek().map(|Reverse((t, ..))| *t);
                assert_eq!(q.next_time(), first, "spread {spread}");
                // A window's end before the first entry: nothing, and the calendar stays
                // where entries at that end may still be pushed.
                if let Some(t) = first.filter(|&t| t > now && r.random_bool(0.2)) {
                    let limit = r.random_range(now + 1..=t);
                    assert_eq!(q.pop_before(limit), None, "spread {spread}");
                    payload += 1;
                    seq += 1;
                    q.push(limit, 0, payload);
                    heap.push(Reverse((limit, 0, seq, payload)));
                }
                let want = heap.pop().map(|Reverse((t, o, _, p))| (t, o, p));
                assert_eq!(q.pop(), want, "spread {spread}");
                if let Some((t, ..)) = want {
                    now = t;
                }
            }
            // Events at the very end of time come out too.
            q.push(u64::MAX, 3, 7);
            heap.push(Reverse((u64::MAX, 3, u64::MAX, 7)));
            while let Some(Reverse((t, o, _, p))) = heap.pop() {
                assert_eq!(q.pop(), Some((t, o, p)));
            }
            assert_eq!(q.pop(), None);
        }
    }
}
