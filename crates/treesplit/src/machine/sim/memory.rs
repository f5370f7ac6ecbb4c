//! The simulator's memory, estimated before a run, so that a caller can refuse a run the
//! machine cannot hold, or record a shorter trace, instead of finding out by running out.
//!
//! A simulated PE holds its driver, its protocol's state, its counters, its share of the event
//! queue and its messages in flight: about [`BYTES_PER_PE`], measured (the slope of the peak
//! resident memory of `treesplit sim nqueens 10` at P = 16,384, 65,536 and 262,144 PEs: 36.7,
//! 96.5 and 362.8 MB, 1.2–1.4 KiB per PE; a synthetic run of 2^20 PEs and 10^10 units, with
//! more messages in flight, peaks at 1.56 GiB, 1.6 KiB per PE; `scripts/sim-memory-slope.sh`
//! measures the slope). A recorded trace adds one ring per PE, which grows as events are
//! recorded up to its capacity (`Config::trace` events of `size_of::<timeline::Event>()`
//! bytes each): the estimate counts every ring full, so it bounds what any run of the
//! configuration holds, although most PEs of a large run record far fewer events. The pieces
//! of work themselves are the application's and are not counted (most PEs hold one or none).
//! Deciding what to do about an estimate (the memory a machine has) is the caller's.

use crate::config::Config;
use crate::timeline::Event;

/// Memory one simulated PE takes beside its trace ring (module comment).
pub const BYTES_PER_PE: u64 = 2 * 1024;

/// Memory the simulator takes whatever its number of PEs (the program, the root, the report).
pub const BASE_BYTES: u64 = 16 << 20;

/// Bytes of one recorded trace event.
pub const TRACE_EVENT_BYTES: u64 = std::mem::size_of::<Event>() as u64;

/// What a simulation of a configuration will hold in memory, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// The number of PEs.
    pub pes: u64,
    /// The simulator and its PEs' state ([`BASE_BYTES`] + P · [`BYTES_PER_PE`]).
    pub state: u64,
    /// The PEs' trace rings (0 without a trace).
    pub trace: u64,
}

impl MemoryEstimate {
    /// All of it.
    pub fn total(&self) -> u64 {
        self.state.saturating_add(self.trace)
    }

    /// The largest trace capacity (events per PE) whose rings fit in `bytes` beside the PEs'
    /// state, with `extra` bytes more per event recorded (what the caller keeps to write the
    /// trace out); `None` when not even one event per PE does.
    pub fn trace_capacity_within(&self, bytes: u64, extra: u64) -> Option<usize> {
        let per_event = (self.pes.max(1)).saturating_mul(TRACE_EVENT_BYTES.saturating_add(extra));
        let events = bytes.checked_sub(self.state)? / per_event;
        (events > 0).then(|| usize::try_from(events).unwrap_or(usize::MAX))
    }
}

/// The memory a simulation of `config` will take (module comment).
pub fn estimate_memory(config: &Config) -> MemoryEstimate {
    let pes = config.pes as u64;
    let ring = config.trace.map_or(0, |capacity| capacity.max(1) as u64);
    MemoryEstimate {
        pes,
        state: BASE_BYTES.saturating_add(pes.saturating_mul(BYTES_PER_PE)),
        trace: pes.saturating_mul(ring).saturating_mul(TRACE_EVENT_BYTES),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_grow_with_the_pes_and_the_trace_rings() {
        let plain = estimate_memory(&Config::new(65_536));
        assert_eq!(plain.trace, 0);
        assert_eq!(plain.total(), BASE_BYTES + 65_536 * BYTES_PER_PE);
        let traced = estimate_memory(&Config::new(65_536).trace(1 << 16));
        // 2^16 events of 24 bytes on each of 2^16 PEs: 96 GiB.
        assert_eq!(TRACE_EVENT_BYTES, 24);
        assert_eq!(traced.trace, 96 << 30);
        assert_eq!(traced.state, plain.state);
        // A ring that fits in 8 GiB beside the state, and none in less than the state.
        let fits = traced.trace_capacity_within(8 << 30, 0).unwrap();
        assert!(fits > 1000 && (fits as u64) * 65_536 * 24 + traced.state <= 8 << 30);
        let written = traced.trace_capacity_within(8 << 30, 232).unwrap();
        assert_eq!(written as u64, ((8 << 30) - traced.state) / (65_536 * 256));
        assert_eq!(traced.trace_capacity_within(traced.state, 0), None);
        assert_eq!(
            estimate_memory(&Config::new(1_000_000)).total() >> 20,
            16 + 1_953
        );
    }
}
