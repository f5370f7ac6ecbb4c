//! Machines: the outer loops that drive the protocol state machines and move their messages.
//!
//! A machine owns the I/O (channels, sockets, virtual time); the protocols in
//! [`crate::protocol`] own the decisions. The same protocol code runs on every machine.

#[cfg(feature = "mpi")]
pub mod mpi;
pub mod sim;
pub mod threads;

pub use sim::{simulate, SimConfig, SimReport};
pub use threads::Threads;
