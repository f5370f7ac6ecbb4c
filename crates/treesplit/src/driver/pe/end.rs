//! What a PE ends a run with ([`PeEnd`]): its record for the report, the merged result on
//! PE 0, the run limit it found reached, and the work a stop left unfinished there.

use super::PeDriver;
use crate::ended::Limit;
use crate::piece::{Piece, Yield};
use crate::protocol::{PeId, Protocol};
use crate::stats::{PeStats, PollCosts};

/// What one PE ends a run with.
pub(crate) struct PeEnd {
    /// Its record.
    pub stats: PeStats,
    /// The merged result of the whole run (PE 0).
    pub output: Option<Yield>,
    /// The run limit this PE found reached, if any.
    pub limit: Option<Limit>,
    /// The work a stop left unfinished here (`Config::keep_remaining`).
    pub remaining: Vec<Piece>,
}

impl PeDriver {
    /// The PE's end at tick `now`.
    pub(crate) fn end(&mut self, now: u64) -> PeEnd {
        self.wake(now);
        let s = self.tick_seconds;
        let life = now.saturating_sub(self.born);
        let counted = self.proto.stats();
        let stats = PeStats {
            pe: self.me as PeId,
            counters: counted.counters,
            busy: life.saturating_sub(self.idle) as f64 * s,
            idle: self.idle as f64 * s,
            bytes_sent: self.bytes,
            request_rtt: (self.rtt.1 > 0).then(|| self.rtt.0 as f64 * s / self.rtt.1 as f64),
            improvements: self.improvements,
            bound_latency: None,
            request_latency: self.latency.histogram(),
            split_sizes: self.split_sizes.sizes(),
            trace: self.trace.take().map(|mut t| {
                t.end = now;
                *t
            }),
            incumbent: Some(self.best()).filter(|&b| b != i64::MIN),
            phases: counted.phases,
            // The simulator's T_poll and T_count (it sets them; a real probe or counter costs
            // what it costs, inside `busy`).
            polling: PollCosts::default(),
        };
        PeEnd {
            stats,
            output: self.proto.take_output(),
            limit: self.limit_hit(),
            remaining: self.proto.take_remaining(),
        }
    }
}
