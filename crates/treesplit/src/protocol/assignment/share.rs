//! Communication-free static assignment: each PE works out alone which jobs of the bag are
//! its own, cuts them from its copy of the root and works through them; the only messages
//! are the root's broadcast and the final reduction.
//!
//! - **block** (paper 001 Fig. 14.5): PE i takes the consecutive jobs ⌊i·m/P⌋..⌊(i+1)·m/P⌋;
//!   consecutive jobs are neighbouring subtrees, so one unlucky subtree lands on one PE;
//! - **round-robin**: job j goes to PE j mod P;
//! - **random**: job j goes to PE hash(seed, j) mod P, independently (random placement;
//!   paper 003's single assignment for q = 1 and multiple assignment for q > 1);
//! - **random-static** (paper 004 Fig. 1): m = 2^h and PE i takes the jobs π(j) for
//!   j ∈ ⌊i·m/P⌋..⌊(i+1)·m/P⌋, π a pseudorandom permutation every PE computes itself
//!   (LCG, GF(2^h) powers or Feistel; `--permutation random` is random placement again).

use super::permutation::Permutation;
use super::{delegate_to_core, Core};
use crate::config::{Balancer, Config, StaticPermutation};
use crate::protocol::{hash, Message, PeId, Protocol, Step};
use crate::task::bag::Cutter;
use crate::task::Task;

/// Which jobs are whose.
enum Rule {
    Block,
    RoundRobin,
    Random { seed: u64 },
    Permuted(Permutation),
}

/// A PE of a communication-free static balancer.
pub struct Share<T: Task> {
    core: Core<T>,
    rule: Rule,
}

/// The PE that random placement gives job `j` (the same on every PE).
pub fn random_owner(seed: u64, j: u64, p: usize) -> PeId {
    let x = hash::indexed(seed, j, 0x2545_F491_4F6C_DD1D);
    ((u128::from(x) * p as u128) >> 64) as PeId
}

impl<T: Task> Share<T> {
    /// PE `me` of the configured run; PE 0 passes the root.
    pub fn new(me: PeId, config: &Config, root: Option<T>) -> Self {
        let core = Core::new(me, config, root, true);
        let rule = match config.balancer {
            Balancer::Block { .. } => Rule::Block,
            Balancer::RoundRobin { .. } => Rule::RoundRobin,
            Balancer::RandomAssignment { .. } => Rule::Random { seed: config.seed },
            Balancer::RandomStatic { permutation, .. } => match permutation {
                StaticPermutation::Random => Rule::Random { seed: config.seed },
                kind => Rule::Permuted(
                    Permutation::new(kind, core.m.trailing_zeros(), config.seed)
                        .expect("a permutation family"),
                ),
            },
            other => panic!("{other} is not a static share balancer"),
        };
        Share { core, rule }
    }

    /// Cut this PE's jobs from the root copy and queue them.
    fn place_share(&mut self) {
        let (me, p, m) = (self.core.me(), self.core.p(), self.core.m);
        let block = self.core.block(me);
        let mine: Vec<u64> = match &self.rule {
            Rule::Block => {
                // Consecutive jobs: one walk over the splitting tree cuts them all.
                let root = self.core.root.as_ref().expect("the root copy");
                let mut cutter = Cutter::new(root, m, block);
                let jobs: Vec<_> = cutter.by_ref().collect();
                self.core.pe.count_splits(cutter.splits);
                let record = self.core.root_record;
                for (_, task, generation) in jobs {
                    self.core.push_job(task, generation, record);
                }
                Vec::new()
            }
            Rule::RoundRobin => (me as u64..m).step_by(p).collect(),
            Rule::Random { seed } => (0..m)
                .filter(|&j| random_owner(*seed, j, p) == me)
                .collect(),
            Rule::Permuted(pi) => pi.apply_range(block).collect(),
        };
        for j in mine {
            self.core.generate(j);
        }
        self.core.done_producing();
    }
}

impl<T: Task> Protocol<T> for Share<T> {
    delegate_to_core!(setup: place_share);

    fn receive(&mut self, from: PeId, message: Message<T>) {
        self.core.receive(from, message);
    }
}
