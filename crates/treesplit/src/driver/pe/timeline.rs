//! A PE's trace (`Config::trace`, [`crate::timeline`]), as the driver records it on every
//! machine: state changes and messages, kept out of line of the loop so that it stays small
//! when no timeline is recorded.

use super::{flush, PeDriver, NONE};
use crate::driver::{message_kind, Transport};
use crate::error::RunError;
use crate::protocol::termination::Signal;
use crate::protocol::{Message, PeId};
use crate::timeline::{MessageKind, PeState};

impl PeDriver {
    /// Timeline: the PE enters `state` now (the clock is read only on a change). The
    /// recording code stays out of line, so that [`super::drive`] stays small enough to be inlined
    /// into the simulator's event loop, as it was before timelines existed.
    #[inline]
    pub(in crate::driver) fn trace_state(&mut self, state: PeState, net: &mut impl Transport) {
        if self.trace.is_some() {
            self.trace_state_cold(state, net);
        }
    }

    #[cold]
    #[inline(never)]
    pub(in crate::driver) fn trace_state_cold(&mut self, state: PeState, net: &mut impl Transport) {
        if let Some(t) = &mut self.trace {
            if t.state() != Some(state) {
                t.enter(state, net.now());
            }
        }
    }

    /// Timeline: the PE waits (requesting, idle or terminating).
    #[cold]
    #[inline(never)]
    pub(in crate::driver) fn trace_wait(&mut self, net: &mut impl Transport) {
        let state = if self.terminating {
            PeState::Terminating
        } else if self.request_out != NONE {
            PeState::Requesting
        } else {
            PeState::Idle
        };
        self.trace_state_cold(state, net);
    }

    /// Timeline: a message of `kind` from `from` was delivered at `now`.
    #[cold]
    #[inline(never)]
    pub(in crate::driver) fn trace_receive(&mut self, from: PeId, kind: MessageKind, now: u64) {
        if let Some(t) = &mut self.trace {
            t.receive(from as u32, kind, now);
        }
    }

    /// Statistics of a message sent that is more than a request: a piece's size, the
    /// termination signal, and the timeline's record of the message.
    #[inline(never)]
    pub(in crate::driver) fn note_sent(
        &mut self,
        to: PeId,
        message: &Message,
        now: impl FnOnce() -> u64,
    ) {
        match message {
            Message::Work {
                task, generation, ..
            } => self.split_sizes.add(task.estimate(), *generation),
            Message::Bundle { tasks, .. } => {
                for (task, generation) in tasks {
                    self.split_sizes.add(task.estimate(), *generation);
                }
            }
            Message::Termination(Signal::Finish) => self.terminating = true,
            _ => {}
        }
        if let Some(t) = &mut self.trace {
            t.send(to as u32, message_kind(message), now());
        }
    }
}

/// Timeline: handling a delivered message split the task (at `now`): the PE is splitting
/// until the flush that sends the piece is done, then back in its state before.
#[cold]
#[inline(never)]
pub(in crate::driver) fn flush_splitting(
    pe: &mut PeDriver,
    net: &mut impl Transport,
    now: u64,
) -> Result<(), RunError> {
    let before = pe.trace.as_mut().and_then(|t| {
        let before = t.state();
        t.enter(PeState::Splitting, now);
        before
    });
    flush(pe, net)?;
    if let Some(state) = before {
        pe.trace_state_cold(state, net);
    }
    Ok(())
}
