//! How a branch-and-bound incumbent travels on each machine: one rule per machine, one place.
//!
//! User code reads and improves the incumbent through `Context::best` / `Context::offer`; the
//! driver gives it the incumbent this PE knows and, when a slice improved it, sends the new
//! value as an [`super::Envelope::Bound`] to the PEs this rule names.

use crate::protocol::{tree_neighbours, PeId};

/// The rule by which incumbent improvements reach the other PEs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BoundExchange {
    /// All PEs share one incumbent in memory (threads): nothing travels.
    Shared,
    /// The improving PE sends the value to every other PE (MPI: one message each, at the end
    /// of the slice that found it).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    ToAll,
    /// The value is flooded over the binary tree of PEs, each PE passing it on to its other
    /// tree neighbours when it improves what it knew (the simulator: 2·log₂ P hops at most, a
    /// message per tree edge).
    TreeFlood,
}

impl BoundExchange {
    /// Where PE `me` (of `p`) sends an improvement, learned from `from` or found here.
    pub(crate) fn targets(self, me: PeId, p: usize, from: Option<PeId>) -> Vec<PeId> {
        match self {
            BoundExchange::Shared => Vec::new(),
            BoundExchange::ToAll if from.is_some() => Vec::new(),
            BoundExchange::ToAll => (0..p).filter(|&q| q != me).collect(),
            BoundExchange::TreeFlood => tree_neighbours(me, p)
                .filter(|&q| Some(q) != from)
                .collect(),
        }
    }
}
