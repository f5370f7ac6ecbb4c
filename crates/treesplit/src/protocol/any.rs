//! [`AnyProtocol`]: the state machine of any balancer, held inline.
//!
//! A PE's driver holds its protocol by value in this enum rather than behind a
//! `Box<dyn Protocol>`: the simulator keeps a million PEs side by side, and a boxed protocol
//! was one more heap block per PE and one more pointer to chase (a cache miss) per event. The
//! enum only forwards each [`Protocol`] method to the balancer's own implementation; the
//! logic stays where it is, once.

use super::assignment::{master_worker::MasterWorker, prefix_sum::PrefixSum, share::Share};
use super::dag::DagPe;
use super::pe::PeCore;
use super::polling::Polling;
use super::{Clock, Costs, Message, PeId, Protocol, ProtocolStats, Step};
use crate::piece::{Piece, Yield};
use crate::task::Incumbent;

/// One PE's protocol state, whichever balancer runs (see the module comment). The dynamic
/// balancers' state is inline; the static balancers' and the DAG scheduler's, larger (up to
/// 900 bytes) and touched by few events, stay boxed, so that they do not make every PE of a
/// dynamic balancer's run as large.
// Inline on purpose: the large variant is the point (module comment).
#[allow(clippy::large_enum_variant)]
pub(crate) enum AnyProtocol {
    Polling(Polling),
    Share(Box<Share>),
    MasterWorker(Box<MasterWorker>),
    PrefixSum(Box<PrefixSum>),
    Dag(Box<DagPe>),
}

/// `$call` on the balancer's state, whichever it is.
macro_rules! forward {
    ($self:expr, $p:ident => $call:expr) => {
        match $self {
            AnyProtocol::Polling($p) => $call,
            AnyProtocol::Share($p) => $call,
            AnyProtocol::MasterWorker($p) => $call,
            AnyProtocol::PrefixSum($p) => $call,
            AnyProtocol::Dag($p) => $call,
        }
    };
}

impl Protocol for AnyProtocol {
    #[inline]
    fn step(&mut self) -> Step {
        forward!(self, p => p.step())
    }
    #[inline]
    fn work(&mut self, budget: u64, incumbent: &dyn Incumbent) -> u64 {
        forward!(self, p => p.work(budget, incumbent))
    }
    #[inline]
    fn handle(&mut self, from: PeId, message: Message) {
        forward!(self, p => p.handle(from, message))
    }
    #[inline]
    fn receive(&mut self, from: PeId, message: Message) {
        forward!(self, p => p.receive(from, message))
    }
    #[inline]
    fn is_idle(&self) -> bool {
        forward!(self, p => p.is_idle())
    }
    #[inline]
    fn core(&self) -> &PeCore {
        forward!(self, p => p.core())
    }
    #[inline]
    fn core_mut(&mut self) -> &mut PeCore {
        forward!(self, p => p.core_mut())
    }
    #[inline]
    fn poll_transmit(&mut self) -> Option<(PeId, Message)> {
        forward!(self, p => p.poll_transmit())
    }
    #[inline]
    fn take_costs(&mut self) -> Costs {
        forward!(self, p => p.take_costs())
    }
    #[inline]
    fn take_output(&mut self) -> Option<Yield> {
        forward!(self, p => p.take_output())
    }
    #[inline]
    fn is_busy(&self) -> bool {
        forward!(self, p => p.is_busy())
    }
    #[inline]
    fn stop(&mut self, from: Option<PeId>) {
        forward!(self, p => p.stop(from))
    }
    #[inline]
    fn take_remaining(&mut self) -> Vec<Piece> {
        forward!(self, p => p.take_remaining())
    }
    #[inline]
    fn clock(&self) -> Clock {
        forward!(self, p => p.clock())
    }
    #[inline]
    fn poll_timeout(&self) -> Option<u64> {
        forward!(self, p => p.poll_timeout())
    }
    #[inline]
    fn handle_timeout(&mut self, now: u64) {
        forward!(self, p => p.handle_timeout(now))
    }
    #[inline]
    fn stats(&self) -> ProtocolStats {
        forward!(self, p => p.stats())
    }
    #[inline]
    fn plain_task(&mut self) -> Option<(&mut PeCore, &mut Piece)> {
        forward!(self, p => p.plain_task())
    }
}
