//! The PE driver: the one loop that runs a PE's protocol state machine on every machine.
//!
//! A protocol ([`crate::protocol`]) decides; a machine ([`crate::machine`]) moves bytes and
//! keeps time. Between them sits this driver, written once: it asks the protocol what to do
//! next (step), sends what the decision produced (flush), then acts (work a slice, wait for a
//! message, or finish). It also owns what every machine needs around that loop:
//!
//! - **the protocol's timer**, quinn-style: the protocol's `poll_timeout` says when it next
//!   wants the clock (the next round of a synchronous balancer), and the driver calls its
//!   `handle_timeout(now)` once that time has come ([`PeDriver::handle_timeout`]) — or at
//!   every turn and before every slice for a protocol that timestamps its work
//!   (`protocol::Clock`);
//! - **incumbents** of branch-and-bound: one mechanism, [`BoundExchange`], says how an
//!   improvement travels on this machine;
//! - **PE timing and statistics**: idle time, busy time, request round trips and their
//!   latency histogram, the sizes of pieces given away, bytes, and the per-PE record
//!   (`PeStats`, in the PE's end of a run, [`PeEnd`]) the report is built from;
//! - **the timeline** ([`crate::timeline`], when configured): state changes (working,
//!   splitting, requesting, idle, terminating) and messages, in a ring per PE that grows as
//!   events are recorded, up to its capacity;
//! - **the lost-work check**: [`Envelope::carries_work`] is the one test for work that must
//!   never be dropped;
//! - **run limits** (`Config::max_units`, `Config::time_limit`, and the interrupt flag
//!   `Config::interrupt`): checked after every work
//!   slice; a PE that finds a limit reached stops the run through the protocol's early stop
//!   (`Protocol::stop`, flooded over the tree of PEs), so every machine ends such a run
//!   cleanly, with no work lost, and reports the limit in the PE's end ([`PeEnd`]). Each PE
//!   finishes the slice it is in, so a run overshoots `max_units` by at most P·Δt units.
//!
//! Machines become transports ([`Transport`]): send an envelope, take one that arrived, wait
//! for one until a deadline, and account for a slice of work. Real machines (threads, MPI)
//! block in `recv_until` and run [`drive`] once to the end; the simulator suspends there
//! and at every slice, and calls [`drive`] again when the PE's next event comes. Time is in
//! *ticks*: nanoseconds since the common start on real machines, virtual time units in the
//! simulator.

mod bounds;
mod pe;
mod tally;
mod wire;

pub(crate) use bounds::BoundExchange;
pub(crate) use pe::{drive, MachineTime, PeDriver, PeEnd};
pub(crate) use wire::WireStats;

use crate::error::RunError;
use crate::protocol::{Costs, Message, PeId};
use crate::timeline::MessageKind;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// What travels between PEs: a protocol message, or a message of the machine layer beside it.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Envelope {
    /// A message of the balancer's protocol.
    Protocol(Message),
    /// Branch-and-bound: a new incumbent value.
    Bound(i64),
    /// Threads: another PE failed; stop now.
    Abort,
    /// MPI: a rank's statistics for rank 0 at the end of the run.
    Stats(Box<WireStats>),
}

impl Envelope {
    /// True for envelopes that carry work, which must never be lost.
    pub(crate) fn carries_work(&self) -> bool {
        matches!(self, Envelope::Protocol(m) if m.carries_work())
    }
}

/// An envelope taken from a PE's queue.
pub(crate) struct Incoming {
    /// The sending PE.
    pub from: PeId,
    /// What it sent.
    pub envelope: Envelope,
    /// The sender's incumbent, piggybacked on the message (simulator), if any.
    pub bound: Option<i64>,
}

/// One slice of work, as the transport accounts for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slice {
    /// Work units done.
    pub units: u64,
    /// The units the slice could do.
    pub budget: u64,
    /// Costs incurred in the slice (splits of static balancers cutting their jobs).
    pub costs: Costs,
    /// The PE's incumbent improved to this value in the slice.
    pub improved: Option<i64>,
}

/// One handled envelope, as the transport accounts for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Handled {
    /// Costs of handling it (splits made to answer a request).
    pub costs: Costs,
    /// The PE learned a better incumbent (from a bound message or a piggybacked one).
    pub learned: Option<i64>,
}

/// A transport's answer to [`Transport::recv_until`] and [`Transport::worked`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on with the loop.
    Continue,
    /// Hand control back to the machine (the simulator resumes the PE at its next event).
    Suspend,
}

/// What a machine provides to [`drive`]: the PE's link to the others and its clock.
pub(crate) trait Transport {
    /// The PE's current time in ticks.
    fn now(&mut self) -> u64;
    /// Send `envelope` to PE `to`; `bound` is the sender's incumbent (the simulator
    /// piggybacks it). Returns the bytes put on the wire (0 when nothing is serialized).
    fn send(&mut self, to: PeId, envelope: Envelope, bound: i64) -> Result<u64, RunError>;
    /// An envelope that has arrived, without waiting.
    fn try_recv(&mut self) -> Result<Option<Incoming>, RunError>;
    /// The PE is idle: wait until an envelope arrives (the next `try_recv` returns it) or the
    /// tick `deadline` passes. `Suspend` hands control back to the machine.
    fn recv_until(&mut self, deadline: Option<u64>) -> Result<Flow, RunError>;
    /// An envelope was handled (the simulator charges its time).
    fn handled(&mut self, handled: &Handled);
    /// A work slice was done (real machines have spent its time already; the simulator
    /// charges it and suspends until it ends).
    fn worked(&mut self, slice: &Slice) -> Result<Flow, RunError>;
    /// Run limits: the work units done by all PEs so far as this PE can know them, after it
    /// did `units` more (threads, simulator: the exact total; MPI: this rank's own units
    /// times P, so each rank stops at its share). Only called when `max_units` is set.
    fn total_units(&mut self, units: u64) -> u64;
    /// Run limits: wall-clock time since the run started (the simulator's too: time limits
    /// are real time on every machine). Only called when `time_limit` is set.
    fn wall_clock(&mut self) -> Duration;
}

/// A message's kind in the timeline.
pub(super) fn message_kind(message: &Message) -> MessageKind {
    match message {
        Message::Request => MessageKind::Request,
        Message::Reject => MessageKind::Reject,
        m if m.carries_work() => MessageKind::Work,
        Message::Termination(_) => MessageKind::Termination,
        _ => MessageKind::Other,
    }
}

/// The lost-work check at the end of a run: an envelope still queued for PE `to` must not
/// carry work.
pub(crate) fn check_leftover(from: PeId, to: PeId, envelope: &Envelope) -> Result<(), RunError> {
    if envelope.carries_work() {
        return Err(RunError::Internal(format!(
            "a piece of work from PE {from} to PE {to} was never received"
        )));
    }
    Ok(())
}
