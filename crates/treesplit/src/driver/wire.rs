//! A rank's statistics as they travel to rank 0 at the end of an MPI run ([`WireStats`]).

use super::PeEnd;
use crate::ended::Limit;
use crate::error::RunError;
use crate::protocol::PeCounters;
use crate::stats::{Log2Histogram, PeStats, PhaseStats, PollCosts, SplitSizes};
use crate::timeline::PeTrace;
use serde::{Deserialize, Serialize};

/// A rank's statistics as they travel to rank 0 under MPI (postcard cannot encode the
/// flattened `PeStats` that JSON reports use).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireStats {
    counters: PeCounters,
    busy: f64,
    idle: f64,
    bytes_sent: u64,
    request_rtt: Option<f64>,
    improvements: u64,
    request_latency: Log2Histogram,
    split_sizes: SplitSizes,
    trace: Option<PeTrace>,
    incumbent: Option<i64>,
    phases: Option<PhaseStats>,
    bound_latency: Option<f64>,
    /// The run limit the rank found reached, if any.
    limit: Option<Limit>,
    /// The work a stop left unfinished on the rank (`Config::keep_remaining`): its pieces,
    /// postcard-encoded (empty: none).
    remaining: Vec<u8>,
}

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl WireStats {
    /// What a rank other than 0 sends of its `end` (it has no result to send).
    pub(crate) fn from_end(end: PeEnd) -> Result<Self, postcard::Error> {
        let mut wire = WireStats::from_stats(end.stats);
        wire.limit = end.limit;
        if !end.remaining.is_empty() {
            wire.remaining = postcard::to_allocvec(&end.remaining)?;
        }
        Ok(wire)
    }

    /// A PE's record as it travels (rank 0's report to the other ranks).
    pub(crate) fn from_stats(s: PeStats) -> Self {
        WireStats {
            limit: None,
            remaining: Vec::new(),
            counters: s.counters,
            busy: s.busy,
            idle: s.idle,
            bytes_sent: s.bytes_sent,
            request_rtt: s.request_rtt,
            improvements: s.improvements,
            request_latency: s.request_latency,
            split_sizes: s.split_sizes,
            trace: s.trace,
            incumbent: s.incumbent,
            phases: s.phases,
            bound_latency: s.bound_latency,
        }
    }

    /// The end of PE `pe` that sent these statistics (its pieces decode with the run's
    /// decoders, which the MPI machine installs).
    pub(crate) fn into_end(mut self, pe: usize) -> Result<PeEnd, RunError> {
        let remaining = if self.remaining.is_empty() {
            Vec::new()
        } else {
            postcard::from_bytes(&std::mem::take(&mut self.remaining))
                .map_err(|e| RunError::Internal(format!("rank {pe}'s unfinished work: {e}")))?
        };
        Ok(PeEnd {
            limit: self.limit,
            stats: self.into_stats(pe),
            output: None,
            remaining,
        })
    }

    /// The record of PE `pe`.
    pub(crate) fn into_stats(self, pe: usize) -> PeStats {
        PeStats {
            pe,
            counters: self.counters,
            busy: self.busy,
            idle: self.idle,
            bytes_sent: self.bytes_sent,
            request_rtt: self.request_rtt,
            improvements: self.improvements,
            bound_latency: self.bound_latency,
            request_latency: self.request_latency,
            split_sizes: self.split_sizes,
            trace: self.trace,
            incumbent: self.incumbent,
            phases: self.phases,
            // The simulator's T_poll and T_count (it sets them; a real probe or counter costs
            // what it costs, inside `busy`).
            polling: PollCosts::default(),
        }
    }
}
