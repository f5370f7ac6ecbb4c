//! The simulator's event queue: events ordered by (time, PE, kind, sender), whatever the
//! order they were scheduled in (`engine.rs` relies on it to leave out slice ends), and the
//! PEs' inboxes, kept in the same slab as the events: a message that arrives stays in the
//! slot it travelled in, linked into its PE's inbox ([`Inbox`]), so a PE holds no buffer of
//! its own and a message is moved only into the slab when sent and out when received.

use super::queue::TimeQueue;
use crate::driver::Envelope;
use crate::protocol::PeId;

/// An event of the simulation.
pub(super) enum Event {
    /// A PE's work slice ends; stale unless the PE's slice-end generation is still `gen`.
    SliceEnd { pe: PeId, gen: u32 },
    /// A waiting PE's deadline (its next round); stale unless the PE still waits in `epoch`.
    Wake { pe: PeId, epoch: u32 },
    /// An envelope reaches PE `to`, with the sender's incumbent piggybacked.
    Arrive {
        from: PeId,
        to: PeId,
        envelope: Envelope,
        bound: i64,
    },
}

/// An event as it comes due ([`EventQueue::pop`]): a message is named by its slot, where it
/// stays until it is delivered and received (no copy of it on the way).
pub(super) enum Due {
    SliceEnd { pe: PeId, gen: u32 },
    Wake { pe: PeId, epoch: u32 },
    Arrive { from: PeId, to: PeId, slot: u32 },
}

/// An event's payload in the time queue: the slab slot of the event, or, with this bit set,
/// a slice end and its generation (31 bits, wrapping).
pub(super) const SLICE_END: u32 = 1 << 31;

/// No slot: the end of an inbox's list.
const NIL: u32 = u32::MAX;

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

/// A slot of the slab: an event waiting in the time queue, or a message waiting in an inbox
/// (`next`: the inbox's following message), or nothing (on the free list).
struct Slot {
    event: Option<Event>,
    next: u32,
}

/// A PE's queue of messages received and not yet handled, in arrival order: a list through
/// the event slab (8 bytes in the PE's record).
#[derive(Debug, Clone, Copy)]
pub(super) struct Inbox {
    head: u32,
    tail: u32,
}

impl Inbox {
    pub(super) const fn new() -> Self {
        Inbox {
            head: NIL,
            tail: NIL,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.head == NIL
    }
}

/// The event queue: the time queue orders (order, payload) pairs by time and order; the
/// events that carry messages and tasks wait in a slab and never move. The most common event,
/// the end of a work slice, carries nothing but its PE and generation and lives in the time
/// queue alone.
pub(super) struct EventQueue {
    times: TimeQueue,
    slab: Vec<Slot>,
    free: Vec<u32>,
}

impl EventQueue {
    pub(super) fn new() -> Self {
        EventQueue {
            times: TimeQueue::new(),
            slab: Vec::new(),
            free: Vec::new(),
        }
    }

    /// A free slot holding `event`.
    fn store(&mut self, event: Event) -> u32 {
        match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = Slot {
                    event: Some(event),
                    next: NIL,
                };
                slot
            }
            None => {
                self.slab.push(Slot {
                    event: Some(event),
                    next: NIL,
                });
                assert!(self.slab.len() < SLICE_END as usize, "event slab overflow");
                (self.slab.len() - 1) as u32
            }
        }
    }

    /// Take the event out of `slot` and free it.
    fn take(&mut self, slot: u32) -> Event {
        let event = self.slab[slot as usize]
            .event
            .take()
            .expect("a scheduled slot holds its event");
        self.free.push(slot);
        event
    }

    pub(super) fn push(&mut self, time: u64, event: Event) {
        // P ≤ 2^22 (config::MAX_PES): a PE fits in 24 bits.
        let order = match event {
            Event::SliceEnd { pe, gen } => {
                self.times
                    .push(time, order(pe, SLICE, 0), SLICE_END | gen & !SLICE_END);
                return;
            }
            Event::Wake { pe, .. } => order(pe, WAKE, 0),
            Event::Arrive { from, to, .. } => order(to, ARRIVE, from),
        };
        let slot = self.store(event);
        self.times.push(time, order, slot);
    }

    /// The earliest event before `limit` (`u64::MAX`: no limit; ties: by PE, kind and
    /// sender, then the one scheduled first). A
    /// message stays in its slot ([`Due::Arrive`]): it is delivered from there
    /// ([`EventQueue::deliver`]) or taken out ([`EventQueue::take_message`]).
    pub(super) fn pop(&mut self, limit: u64) -> Option<(u64, Due)> {
        let (time, order, slot) = self.times.pop_before(limit)?;
        if slot & SLICE_END != 0 {
            let (pe, gen) = ((order >> 32) as PeId, slot & !SLICE_END);
            return Some((time, Due::SliceEnd { pe, gen }));
        }
        let due = match &self.slab[slot as usize].event {
            Some(Event::Arrive { from, to, .. }) => Due::Arrive {
                from: *from,
                to: *to,
                slot,
            },
            Some(Event::Wake { .. }) => match self.take(slot) {
                Event::Wake { pe, epoch } => Due::Wake { pe, epoch },
                _ => unreachable!("a wake-up was taken"),
            },
            _ => unreachable!("a scheduled slot holds a message or a wake-up"),
        };
        Some((time, due))
    }

    /// The time of the earliest event (a stale slice end included), without taking it.
    pub(super) fn next_time(&self) -> Option<u64> {
        self.times.next_time()
    }

    /// The envelope of the message in `slot` (popped, not yet delivered or taken).
    pub(super) fn envelope(&self, slot: u32) -> &Envelope {
        match &self.slab[slot as usize].event {
            Some(Event::Arrive { envelope, .. }) => envelope,
            _ => unreachable!("the slot holds a message"),
        }
    }

    /// Take the message out of `slot` and free it: (sender, envelope, piggybacked bound).
    pub(super) fn take_message(&mut self, slot: u32) -> (PeId, Envelope, i64) {
        match self.take(slot) {
            Event::Arrive {
                from,
                envelope,
                bound,
                ..
            } => (from, envelope, bound),
            _ => unreachable!("the slot holds a message"),
        }
    }

    /// Append the message in `slot` (popped) to `inbox`, where it stays in its slot.
    pub(super) fn deliver(&mut self, inbox: &mut Inbox, slot: u32) {
        self.slab[slot as usize].next = NIL;
        match inbox.tail {
            NIL => inbox.head = slot,
            tail => self.slab[tail as usize].next = slot,
        }
        inbox.tail = slot;
    }

    /// The first message of `inbox`, taken out of it: (sender, envelope, piggybacked bound).
    pub(super) fn receive(&mut self, inbox: &mut Inbox) -> Option<(PeId, Envelope, i64)> {
        let slot = inbox.head;
        if slot == NIL {
            return None;
        }
        inbox.head = self.slab[slot as usize].next;
        if inbox.head == NIL {
            inbox.tail = NIL;
        }
        Some(self.take_message(slot))
    }

    /// The envelopes waiting in `inbox`, first to last.
    pub(super) fn queued<'a>(&'a self, inbox: &Inbox) -> impl Iterator<Item = &'a Envelope> + 'a {
        let mut slot = inbox.head;
        std::iter::from_fn(move || {
            if slot == NIL {
                return None;
            }
            let entry = &self.slab[slot as usize];
            slot = entry.next;
            match &entry.event {
                Some(Event::Arrive { envelope, .. }) => Some(envelope),
                _ => unreachable!("an inbox holds messages"),
            }
        })
    }

    /// The PE of the event `ahead` events after the next one, if that event is due now, and
    /// where its slab entry lies, if it has one (to prefetch them).
    #[inline]
    pub(super) fn upcoming(&self, ahead: usize) -> Option<(PeId, Option<*const u8>)> {
        let (order, slot) = self.times.upcoming(ahead)?;
        let entry = (slot & SLICE_END == 0)
            .then(|| self.slab.as_ptr().wrapping_add(slot as usize) as *const u8);
        Some(((order >> 32) as PeId, entry))
    }
}
