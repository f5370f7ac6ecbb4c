//! Whom an idle PE asks for work: the victim rules.
//!
//! The asynchronous rules ask as soon as a PE is idle (from `step`):
//!
//! - **random** (random polling, paper 000): a uniformly random other PE; with a locality of
//!   B PEs (local polling, paper 004 §5.1), a uniformly random other PE of its block: the
//!   PEs whose hypercube labels on the network (`embedding::PhasePlan`, the network's own
//!   embedding: Morton order on meshes and the mesh of trees, leaf order on fat trees, PE
//!   numbers elsewhere) share the quotient label / B — a submesh, a subtree, a subcube.
//!   Useful after a permuted initialization, which leaves every block its share of the load;
//! - **neighbour** (neighbour polling, paper 002 §1.1, the bad baseline): a random neighbour
//!   in a ring, mesh or hypercube (`Config::neighbourhood`), which lets busy clusters shield
//!   large subproblems;
//! - **global round robin** (paper 000 §1.3): the value of a global counter kept by PE 0,
//!   read and incremented with a message round trip to PE 0 (`Counter` → `Victim`), so PE 0
//!   becomes a hot spot as P grows.
//!
//! The synchronous rules ask only when a round starts (`Polling::start_round`): random shift
//! ([`super::random_shift`]) and poll-and-shuffle ([`super::poll_and_shuffle`]).
//!
//! Random choices come from a xoshiro256++ generator per PE, seeded from the run's seed and
//! the PE number: a run is reproducible given the same message interleaving.

use super::embedding::{self, Embedding};
use super::Polling;
use crate::config::{Balancer, Config};
use crate::protocol::{hash, Message, PeId};
use crate::topology::Topology;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Whom an idle PE asks for work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum VictimRule {
    /// A uniformly random other PE.
    Random,
    /// A random one of these PEs.
    Neighbour(Vec<PeId>),
    /// Ask PE 0 for the next value of the global counter (kept here on PE 0).
    GlobalRoundRobin {
        /// PE 0: the global counter.
        counter: u64,
    },
    /// At the start of each round of this length, ask PE (i + k_round) mod P.
    RandomShift {
        /// The round length Δ.
        round: u64,
    },
    /// Hypercube poll-and-shuffle, in phases of this length.
    PollAndShuffle {
        /// The phase length Δ.
        round: u64,
    },
}

impl VictimRule {
    /// The rule of PE `me` for the configured polling balancer, on `network` (the machine's
    /// topology where it has one).
    pub(crate) fn new(me: PeId, config: &Config, network: Option<Topology>) -> Self {
        let p = config.pes;
        match config.balancer {
            Balancer::RandomPolling { locality, .. } if locality > 1 && (locality as usize) < p => {
                VictimRule::Neighbour(block_of(me, p, locality as usize, network))
            }
            Balancer::RandomPolling { .. } => VictimRule::Random,
            Balancer::NeighbourPolling { neighbourhood, .. } => {
                let mut n = neighbourhood.neighbours(me, p);
                if n.is_empty() && p > 1 {
                    n = crate::topology::Topology::Ring.neighbours(me, p);
                }
                VictimRule::Neighbour(n)
            }
            Balancer::GlobalRoundRobin { .. } => VictimRule::GlobalRoundRobin { counter: 0 },
            Balancer::RandomShift { round, .. } => VictimRule::RandomShift { round },
            Balancer::PollAndShuffle { round, .. } => VictimRule::PollAndShuffle { round },
            other => panic!("{other} is not a polling balancer"),
        }
    }

    /// The round length of the synchronous rules.
    pub(crate) fn round_length(&self) -> Option<u64> {
        match *self {
            VictimRule::RandomShift { round } | VictimRule::PollAndShuffle { round } => Some(round),
            _ => None,
        }
    }
}

/// The other PEs of PE `me`'s block of `block` PEs consecutive in the hypercube labels of
/// `network`'s embedding (module comment); the last block may be smaller, and one of a
/// single PE is joined to the block before it.
pub(crate) fn block_of(me: PeId, p: usize, block: usize, network: Option<Topology>) -> Vec<PeId> {
    let plan = embedding::plan(network, p, Embedding::Network);
    let mut first = plan.label(me) / block * block;
    if first + 1 >= p && first >= block {
        first -= block; // a last block of one PE
    }
    let mut end = (first + block).min(p);
    if end + 1 == p {
        end = p; // the PE left over joins this block
    }
    let mut members: Vec<PeId> = (first..end)
        .map(|label| plan.pe(label))
        .filter(|&q| q != me)
        .collect();
    members.sort_unstable();
    members
}

/// The generator of PE `me` for run seed `seed`: independent streams per PE, reproducible.
pub(crate) fn pe_rng(seed: u64, me: PeId) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(hash::stream_seed(seed, me as u64))
}

impl Polling {
    /// An idle PE starts asking for work according to an asynchronous victim rule.
    pub(super) fn ask(&mut self) {
        let me = self.pe.me();
        let victim = match &self.rule {
            VictimRule::Random => {
                let k = self.rng.random_range(0..self.pe.p() - 1);
                if k >= me {
                    k + 1
                } else {
                    k
                }
            }
            VictimRule::Neighbour(n) => n[self.rng.random_range(0..n.len())],
            VictimRule::GlobalRoundRobin { .. } if me == 0 => self.next_victim(0),
            VictimRule::GlobalRoundRobin { .. } => {
                self.awaiting_reply = true;
                self.pe.send(0, Message::Counter);
                return;
            }
            // Round-based rules ask only when a round starts (`Polling::start_round`).
            VictimRule::RandomShift { .. } | VictimRule::PollAndShuffle { .. } => return,
        };
        self.ask_pe(victim);
    }

    /// PE 0: the next value of the global counter for `requester` (never itself).
    fn next_victim(&mut self, requester: PeId) -> PeId {
        let p = self.pe.p() as u64;
        let VictimRule::GlobalRoundRobin { counter } = &mut self.rule else {
            panic!("PE 0 got a Counter message outside global round robin");
        };
        let mut v = (*counter % p) as PeId;
        *counter += 1;
        if v == requester {
            v = (*counter % p) as PeId;
            *counter += 1;
        }
        // One increment of the global counter (a skip of the requester is part of it).
        self.pe.count_increment();
        v
    }

    /// Global round robin: PE 0 answers `Counter` with `Victim(v)`; the requester then asks v.
    pub(super) fn receive_victim(&mut self, from: PeId, message: Message) {
        if self.pe.is_finishing() {
            return;
        }
        match message {
            Message::Counter => {
                let victim = self.next_victim(from);
                self.pe.send(from, Message::Victim(victim));
            }
            Message::Victim(victim) => self.request(victim),
            _ => unreachable!("only Counter and Victim are routed here"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of the 8×8 mesh's Morton labels are 2×2 submeshes (B = 4) and 4×4 ones
    /// (B = 16); on a hypercube, blocks of PE numbers; a lone last PE joins the block before.
    #[test]
    fn blocks_are_subnetworks() {
        let mesh = Some(Topology::Mesh2d);
        assert_eq!(block_of(0, 64, 4, mesh), vec![1, 8, 9]);
        assert_eq!(block_of(18, 64, 4, mesh), vec![19, 26, 27]);
        let b = block_of(63, 64, 16, mesh);
        assert_eq!(b.len(), 15);
        assert!(b.iter().all(|&q| q % 8 >= 4 && q / 8 >= 4), "{b:?}");
        assert_eq!(
            block_of(5, 64, 4, Some(Topology::MeshOfTrees)),
            block_of(5, 64, 4, mesh)
        );
        assert_eq!(block_of(5, 16, 4, None), vec![4, 6, 7]);
        // 9 PEs in blocks of 4: 0..4, 4..9 (PE 8 alone would have nobody to ask).
        assert_eq!(block_of(8, 9, 4, None), vec![4, 5, 6, 7]);
        assert_eq!(block_of(4, 9, 4, None), vec![5, 6, 7, 8]);
        // Every member of a block sees the same block.
        for me in 0..30 {
            for &q in &block_of(me, 30, 4, Some(Topology::FatTree)) {
                assert!(block_of(q, 30, 4, Some(Topology::FatTree)).contains(&me));
            }
        }
    }
}
