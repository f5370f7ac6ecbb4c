//! [`AnyProtocol`]: the state machine of any balancer, held inline.
//!
//! A PE's driver holds its protocol by value in this enum rather than behind a
//! `Box<dyn Protocol>`: the simulator keeps a million PEs side by side, and a boxed protocol
//! was one more heap block per PE and one more pointer to chase (a cache miss) per event. The
//! enum only forwards each [`Protocol`] method to the balancer's own implementation; the
//! logic stays where it is, once.
//!
//! The enum, its forwarding and the choice of state machine for each balancer
//! ([`AnyProtocol::new_balancer`]) are written from the balancer table (`crate::balancers`):
//! one variant per state machine the table lists, plus the DAG schedulers', which no balancer
//! runs. The dispatch stays a `match`, static, as written by hand before.

use super::dag::DagPe;
use super::pe::PeCore;
use super::{assignment, polling};
use super::{Clock, Costs, Message, NewPe, PeId, PeStart, Protocol, ProtocolStats, Step};
use crate::config::Balancer;
use crate::piece::{Piece, Yield};
use crate::task::Incumbent;

/// `$call` on the state of whichever state machine `$self` holds; `[$($machine),*]`: the
/// state machines of the balancer table.
macro_rules! forward {
    ([$($machine:ident),*], $self:expr, $p:ident => $call:expr) => {
        match $self {
            $( AnyProtocol::$machine($p) => $call, )*
            AnyProtocol::Dag($p) => $call,
        }
    };
}

/// Writes [`AnyProtocol`], its [`Protocol`] impl and [`AnyProtocol::new_balancer`] from the
/// balancer table (`crate::balancers`).
macro_rules! any_protocol {
    (
        state_machines { $( $(#[$sm_doc:meta])* $machine:ident($state:ty), )* }
        dynamic { $($dynamic:tt)* }
        static { $($bag:tt)* }
    ) => {
        any_protocol! { @enum [$($machine($state)),*] $($dynamic)* $($bag)* }
    };
    (@enum [$($machine:ident($state:ty)),*] $(
        $(#[$doc:meta])*
        $variant:ident { name: $name:literal, kind: $kind:literal, runs: $runs:ident, $($options:tt)* }
    )*) => {
        /// One PE's protocol state, whichever balancer runs (see the module comment). The
        /// dynamic balancers' state is inline; the static balancers' and the DAG scheduler's,
        /// larger (up to 900 bytes) and touched by few events, stay boxed, so that they do not
        /// make every PE of a dynamic balancer's run as large.
        // Inline on purpose: the large variant is the point (module comment).
        #[allow(clippy::large_enum_variant)]
        pub(crate) enum AnyProtocol {
            $( $machine($state), )*
            Dag(Box<DagPe>),
        }

        impl AnyProtocol {
            /// The state machine of the balancer `start.config` names, for PE `start.me`.
            pub(crate) fn new_balancer(start: PeStart<'_>) -> Self {
                match start.config.balancer {
                    $( Balancer::$variant { .. } => AnyProtocol::$runs(NewPe::new_pe(start)), )*
                }
            }
        }

        impl Protocol for AnyProtocol {
            #[inline]
            fn step(&mut self) -> Step {
                forward!([$($machine),*], self, p => p.step())
            }
            #[inline]
            fn work(&mut self, budget: u64, incumbent: &dyn Incumbent) -> u64 {
                forward!([$($machine),*], self, p => p.work(budget, incumbent))
            }
            #[inline]
            fn handle(&mut self, from: PeId, message: Message) {
                forward!([$($machine),*], self, p => p.handle(from, message))
            }
            #[inline]
            fn receive(&mut self, from: PeId, message: Message) {
                forward!([$($machine),*], self, p => p.receive(from, message))
            }
            #[inline]
            fn is_idle(&self) -> bool {
                forward!([$($machine),*], self, p => p.is_idle())
            }
            #[inline]
            fn core(&self) -> &PeCore {
                forward!([$($machine),*], self, p => p.core())
            }
            #[inline]
            fn core_mut(&mut self) -> &mut PeCore {
                forward!([$($machine),*], self, p => p.core_mut())
            }
            #[inline]
            fn poll_transmit(&mut self) -> Option<(PeId, Message)> {
                forward!([$($machine),*], self, p => p.poll_transmit())
            }
            #[inline]
            fn take_costs(&mut self) -> Costs {
                forward!([$($machine),*], self, p => p.take_costs())
            }
            #[inline]
            fn take_output(&mut self) -> Option<Yield> {
                forward!([$($machine),*], self, p => p.take_output())
            }
            #[inline]
            fn is_busy(&self) -> bool {
                forward!([$($machine),*], self, p => p.is_busy())
            }
            #[inline]
            fn stop(&mut self, from: Option<PeId>) {
                forward!([$($machine),*], self, p => p.stop(from))
            }
            #[inline]
            fn take_remaining(&mut self) -> Vec<Piece> {
                forward!([$($machine),*], self, p => p.take_remaining())
            }
            #[inline]
            fn clock(&self) -> Clock {
                forward!([$($machine),*], self, p => p.clock())
            }
            #[inline]
            fn poll_timeout(&self) -> Option<u64> {
                forward!([$($machine),*], self, p => p.poll_timeout())
            }
            #[inline]
            fn handle_timeout(&mut self, now: u64) {
                forward!([$($machine),*], self, p => p.handle_timeout(now))
            }
            #[inline]
            fn stats(&self) -> ProtocolStats {
                forward!([$($machine),*], self, p => p.stats())
            }
            #[inline]
            fn plain_task(&mut self) -> Option<(&mut PeCore, &mut Piece)> {
                forward!([$($machine),*], self, p => p.plain_task())
            }
        }
    };
}

crate::balancers::balancer_table!(any_protocol);
