//! Branch-and-bound in the simulator: how long each PE took to learn of the global
//! improvements of the incumbent (the report's `bound_latency`).
//!
//! A value *improves globally* when it is better than every value found before it in the
//! simulation's order of events. A PE that learns a value from a message thereby learns of
//! every global improvement up to it, each with the delay since it was found. The engine
//! records what happens as it happens ([`Incumbents::found`], [`Incumbents::learned`]) and the
//! delays are worked out at the end ([`latencies`]): an engine that runs in partitions on
//! several threads (`partition.rs`) cannot know during a window whether a value found in it
//! improves globally, since another partition may have found a better one earlier in the same
//! window. Merged in the order of events, the records of the partitions give the delays of
//! one engine exactly: the improvements a PE learns of were all found before the value it
//! learns (values only grow along the list), and that value travelled at least one latency.

use crate::protocol::PeId;

/// A value found by a PE that was better than any found before in its partition.
#[derive(Debug, Clone, Copy)]
struct Found {
    /// The event during which it was found (the order of events: time, then PE).
    event: (u64, PeId),
    value: i64,
    /// The PE's time when it found it.
    at: u64,
}

/// What a PE did with the incumbent, in its order.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// It found the value `Incumbents::found[i]`.
    Found(usize),
    /// It learned `value` at time `at` from a message.
    Learned { value: i64, at: u64 },
}

/// One engine's (or one partition's) record of values found and learned.
#[derive(Debug, Default)]
pub(super) struct Incumbents {
    found: Vec<Found>,
    steps: Vec<(PeId, Step)>,
}

impl Incumbents {
    /// PE `pe`, running the event `event` (its time and PE), found `value` at its time `at`.
    pub(super) fn found(&mut self, event: (u64, PeId), value: i64, at: u64) {
        if self.found.last().is_none_or(|f| value > f.value) {
            self.steps.push((event.1, Step::Found(self.found.len())));
            self.found.push(Found { event, value, at });
        }
    }

    /// PE `pe` learned `value` from a message at its time `at`.
    pub(super) fn learned(&mut self, pe: PeId, value: i64, at: u64) {
        self.steps.push((pe, Step::Learned { value, at }));
    }
}

/// Per PE, the sum and count of the delays with which it learned of the global improvements,
/// from the records of all partitions (in the order of their PEs); empty when nothing was
/// found.
pub(super) fn latencies(parts: Vec<Incumbents>, pes: usize) -> Vec<(u64, u64)> {
    if parts
        .iter()
        .all(|p| p.found.is_empty() && p.steps.is_empty())
    {
        return Vec::new();
    }
    // The global improvements, in the order of events, and where each record went.
    let mut candidates: Vec<(usize, usize, Found)> = parts
        .iter()
        .enumerate()
        .flat_map(|(k, p)| p.found.iter().enumerate().map(move |(i, &f)| (k, i, f)))
        .collect();
    // Stable: two values found in one event's time by one PE keep their order.
    candidates.sort_by_key(|&(_, _, f)| f.event);
    let mut global: Vec<(i64, u64)> = Vec::new();
    let mut index: Vec<Vec<Option<usize>>> =
        parts.iter().map(|p| vec![None; p.found.len()]).collect();
    for (k, i, f) in candidates {
        if global.last().is_none_or(|&(v, _)| f.value > v) {
            index[k][i] = Some(global.len());
            global.push((f.value, f.at));
        }
    }
    let mut learned = vec![0usize; pes];
    let mut delays = vec![(0u64, 0u64); pes];
    for (k, part) in parts.iter().enumerate() {
        // A PE's steps all lie in its partition, in its order.
        for &(pe, step) in &part.steps {
            match step {
                Step::Found(i) => {
                    if let Some(g) = index[k][i] {
                        learned[pe] = g + 1;
                    }
                }
                Step::Learned { value, at } => {
                    while let Some(&(v, found)) = global.get(learned[pe]) {
                        if v > value {
                            break;
                        }
                        delays[pe].0 += at.saturating_sub(found);
                        delays[pe].1 += 1;
                        learned[pe] += 1;
                    }
                }
            }
        }
    }
    delays
}
