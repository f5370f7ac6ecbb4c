//! The bound a DST case's termination delay is checked against: how long detection may
//! take after the last work unit, from the run's own latencies and the balancer's and the
//! termination protocol's message chains. Kept apart from the cases it checks
//! ([`crate::dst`]) because it is a model of the protocols, not a draw.

use crate::dst::Case;
use treesplit::config::TerminationKind;
use treesplit::{Balancer, BalancerKind};

impl Case {
    /// Detection after the last unit: at most three reduction waves plus the final broadcast
    /// and reduction, each 2·depth messages of the slowest latency (four-counter), or the
    /// chain of responses of the last piece, at most h + 1 messages, plus the broadcast
    /// (response tree; under poll-and-shuffle each permutation a piece went through adds a
    /// hop); under global round robin plus PE 0's time to answer the other PEs' counter
    /// requests; with fast initialization plus the root's broadcast, whose copies may still
    /// travel (and be split) after the last unit; under a static balancer with response-tree
    /// termination plus the responses a PE that placed jobs everywhere receives one after
    /// another. Every message is charged the run's own
    /// `diameter_latency` (the simulator's report: the largest latency between two PEs, the
    /// same figure its messages take), the model's overheads at both ends and, where message
    /// length is charged, the length of the largest termination message the run sent
    /// (`termination_bytes`: responses carry results). Under the shared-memory master–worker
    /// plus the run's `cuts_and_counts` (its splits and counter increments): its PEs take
    /// and cut their jobs as they go, so the bag's last jobs (empty ones where the bag is cut
    /// deeper than the tree) are taken and cut after the last unit.
    pub fn delay_bound(
        &self,
        h: u32,
        t_par: f64,
        diameter_latency: u64,
        termination_bytes: u64,
        cuts_and_counts: (u64, u64),
    ) -> u64 {
        let p = self.config.pes;
        let depth = u64::from(usize::BITS - p.leading_zeros()) + 1;
        let t_hop = self.sim.hop_latency();
        let hops = diameter_latency;
        let (t_send, t_recv) = self.sim.overheads();
        let slow_link = self
            .sim
            .slow_links
            .iter()
            .map(|&(_, d)| d)
            .max()
            .unwrap_or(0);
        // Termination messages are a few dozen bytes, but a response carries the results of
        // its record: charge the largest one the run sent.
        let length = self.sim.length.map_or(0, |l| {
            l.charge(hops / t_hop.max(1), termination_bytes.max(64))
        });
        // A busy PE may first finish a probe of its queue (T_poll) before it sees a message.
        let latency = hops
            + length
            + slow_link
            + self.sim.delay.typical_max()
            + 4 * (t_send + t_recv)
            + self.sim.t_poll;
        let mut bound = 10 * depth * latency.max(1);
        let polling = self.config.balancer.polling().copied().unwrap_or_default();
        if polling.fast_init {
            // The root's copies go down the binary tree of PEs (depth levels); each PE passes
            // them on after its own ⌊log₂ P⌋ splits at most.
            let levels = u64::from(usize::BITS - 1 - p.leading_zeros());
            bound += depth * (latency.max(1) + levels * self.sim.t_split);
        }
        if let Some(init) = polling.permuted_init {
            // The root's copies go down the binary tree of PEs; each PE cuts its share of the
            // 2^h jobs (at most h splits for each of its jobs) before it works.
            let h = u64::from(init.depth_for(p));
            let share = (1u64 << h).div_ceil(p as u64);
            bound += depth * latency.max(1) + (share + 1) * h * self.sim.t_split;
        }
        if self.config.termination == TerminationKind::ResponseTree {
            // The last piece's responses climb its chain of ancestors (≤ h hops) to PE 0.
            bound += 2 * (u64::from(h) + 1) * latency.max(1);
            if polling.fast_init || polling.permuted_init.is_some() {
                // Fast (or permuted) initialization's pieces answer up the broadcast tree:
                // log P more hops.
                bound += 2 * depth * latency.max(1);
            }
            if let Balancer::PollAndShuffle {
                round, embedding, ..
            } = self.config.balancer
            {
                // Every permutation moves pieces whole: one more hop on their response chains.
                let dims =
                    treesplit::machine::sim::embedding::plan(Some(self.sim.topology), p, embedding)
                        .phases();
                let permutations = (t_par / (round * dims).max(1) as f64).ceil() as u64 + 1;
                bound += 2 * permutations * latency.max(1);
            }
        }
        if self.config.balancer.is_static() {
            // Pieces answer up the root's broadcast tree: log P more hops (response tree).
            bound += 2 * depth * latency.max(1);
            if self.config.termination == TerminationKind::ResponseTree {
                // A PE that placed jobs on every other PE gets one response per piece back:
                // up to P − 1 of them, received one after another (T_recv each, plus the
                // T_send of whatever it sends in between).
                bound += p as u64 * (t_send + t_recv);
            }
        }
        if matches!(
            self.config.balancer.kind(),
            BalancerKind::GlobalRoundRobin
                | BalancerKind::MasterWorker
                | BalancerKind::HierarchicalMasterWorker
                | BalancerKind::SharedMemoryMasterWorker
        ) {
            // PE 0 is the counter's (or the master's) hot spot: before each termination
            // message it passes on, it may first have to answer a counter request of every
            // other PE, T_send each, and increment the counter, T_count each (a submaster
            // answers fewer).
            bound += 4 * p as u64 * (t_send + t_recv + self.sim.t_count);
        }
        if self.config.balancer.kind() == BalancerKind::SharedMemoryMasterWorker {
            // Every job taken after the last unit costs an increment (T_count) and, for a PE
            // other than PE 0, a round trip to PE 0's counter; every cut T_split.
            let (cuts, counts) = cuts_and_counts;
            bound += cuts * self.sim.t_split + counts * (self.sim.t_count + 2 * latency.max(1));
        }
        bound
    }
}
