//! The simulator's time queue: a calendar of one FIFO bucket per time unit over the next
//! [`WINDOW`] units, and a binary heap for the events beyond.
//!
//! Events must come out in (time, order of scheduling) order: that tie-break is part of the
//! simulator's semantics (a message and a slice end at the same time). A binary heap over
//! (time, sequence number) keys gave it at O(log n) cache-missing steps per event, a third
//! of the run at P = 1024. Here nearly every event (slice ends, messages: Δt and T_rout are
//! small) lands within the window, where pushing appends an 8-byte key to its time's bucket
//! and popping reads the next one (keys are 8 bytes): FIFO within a bucket *is* scheduling order. An event
//! scheduled beyond the window waits in the heap, keyed (time, sequence number), and moves
//! into its bucket as soon as the window reaches its time, before anything else can be put
//! there directly, so it keeps its place in the order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Time units covered by the calendar (a power of two).
const WINDOW: usize = 1024;
const MASK: u64 = WINDOW as u64 - 1;
const WORDS: usize = WINDOW / 64;

/// The keys scheduled for one time, in scheduling order; `head` of them already taken.
#[derive(Default)]
struct Bucket {
    keys: Vec<u64>,
    head: usize,
}

/// A queue of `u64` keys by (time, scheduling order).
pub(super) struct TimeQueue {
    /// The calendar holds times `base .. base + WINDOW`; `base` is the time last popped.
    base: u64,
    buckets: Box<[Bucket]>,
    /// One bit per non-empty bucket.
    occupied: [u64; WORDS],
    /// Keys in the calendar.
    in_calendar: usize,
    /// Keys scheduled beyond the window: (time, sequence number, key).
    later: BinaryHeap<Reverse<(u64, u64, u64)>>,
    seq: u64,
    /// Buffers of emptied buckets, for the next bucket to fill: only the buckets in use hold
    /// memory (a bucket may have held one key per PE; kept by all 1024 buckets, that would
    /// be gigabytes at 2^20 PEs).
    spare: Vec<Vec<u64>>,
}

impl TimeQueue {
    pub(super) fn new() -> Self {
        TimeQueue {
            base: 0,
            buckets: (0..WINDOW).map(|_| Bucket::default()).collect(),
            occupied: [0; WORDS],
            in_calendar: 0,
            later: BinaryHeap::new(),
            seq: 0,
            spare: Vec::new(),
        }
    }

    /// Schedule `key` at `time` (never before the last time popped).
    #[inline]
    pub(super) fn push(&mut self, time: u64, key: u64) {
        debug_assert!(time >= self.base, "an event scheduled in the past");
        if time - self.base < WINDOW as u64 {
            self.put(time, key);
        } else {
            self.seq += 1;
            self.later.push(Reverse((time, self.seq, key)));
        }
    }

    #[inline]
    fn put(&mut self, time: u64, key: u64) {
        let i = (time & MASK) as usize;
        let keys = &mut self.buckets[i].keys;
        if keys.capacity() == 0 {
            if let Some(spare) = self.spare.pop() {
                *keys = spare;
            }
        }
        keys.push(key);
        self.occupied[i / 64] |= 1 << (i % 64);
        self.in_calendar += 1;
    }

    /// The earliest key and its time (ties: the one scheduled first).
    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u64, u64)> {
        loop {
            if self.in_calendar > 0 {
                let i = (self.base & MASK) as usize;
                let bucket = &mut self.buckets[i];
                if bucket.head < bucket.keys.len() {
                    let key = bucket.keys[bucket.head];
                    bucket.head += 1;
                    if bucket.head == bucket.keys.len() {
                        let mut keys = std::mem::take(&mut bucket.keys);
                        bucket.head = 0;
                        keys.clear();
                        self.spare.push(keys);
                        self.occupied[i / 64] &= !(1 << (i % 64));
                    }
                    self.in_calendar -= 1;
                    return Some((self.base, key));
                }
                let step = self.next_occupied(i);
                self.advance(self.base + step);
            } else {
                let Reverse((time, _, _)) = *self.later.peek()?;
                self.advance(time);
            }
        }
    }

    /// The key `ahead` places after the next one, if it is due at the current time (for
    /// prefetching the state of the PEs about to run).
    #[inline]
    pub(super) fn upcoming(&self, ahead: usize) -> Option<u64> {
        let bucket = &self.buckets[(self.base & MASK) as usize];
        bucket.keys.get(bucket.head + ahead).copied()
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
        unreachable!("the calendar holds a key")
    }

    /// Move the calendar's start to `time` (every bucket before it is empty) and take in the
    /// events from beyond the window that now fall within it, in their order.
    fn advance(&mut self, time: u64) {
        self.base = time;
        while let Some(&Reverse((t, _, key))) = self.later.peek() {
            // A difference, not `time + WINDOW`: near u64::MAX that sum saturates and an
            // event at the end of time would never come in (the run looped forever).
            if t.saturating_sub(time) >= WINDOW as u64 {
                break;
            }
            self.later.pop();
            self.put(t, key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The calendar gives the order of a heap over (time, sequence number).
    #[test]
    fn same_order_as_a_heap_of_time_and_sequence() {
        let mut r = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        for spread in [1u64, 10, 900, 5_000, 1 << 40] {
            let mut q = TimeQueue::new();
            let mut heap = BinaryHeap::new();
            let (mut now, mut seq, mut key) = (0u64, 0u64, 0u64);
            for _ in 0..20_000 {
                for _ in 0..r.random_range(0..3) {
                    let t = now + r.random_range(0..=spread);
                    key += 1;
                    seq += 1;
                    q.push(t, key);
                    heap.push(Reverse((t, seq, key)));
                }
                let want = heap.pop().map(|Reverse((t, _, k))| (t, k));
                assert_eq!(q.pop(), want, "spread {spread}");
                if let Some((t, _)) = want {
                    now = t;
                }
            }
            // Events at the very end of time come out too.
            q.push(u64::MAX, 7);
            heap.push(Reverse((u64::MAX, u64::MAX, 7)));
            while let Some(Reverse((t, _, k))) = heap.pop() {
                assert_eq!(q.pop(), Some((t, k)));
            }
            assert_eq!(q.pop(), None);
        }
    }
}
