//! Communication-free static assignment: each PE works out alone which jobs of the bag are
//! its own, cuts them from its copy of the root and works through them; the only messages
//! are the root's broadcast and the final reduction.
//!
//! - **block** (paper 001 Fig. 14.5): PE i takes the consecutive jobs ⌊i·m/P⌋..⌊(i+1)·m/P⌋;
//!   consecutive jobs are neighbouring subtrees, so one unlucky subtree lands on one PE. With
//!   m = q·P jobs this is exactly q per PE: paper 003's single (q = 1) and multiple assignment;
//! - **round-robin**: job j goes to PE j mod P;
//! - **random**: every job goes to a uniformly random PE, independently (random placement: q
//!   per PE only on average, not paper 003's multiple assignment, which is `block`). Drawn so that
//!   a PE finds its own jobs in O(log P + its share) rather than by testing all m jobs (which
//!   cost O(m) per PE, O(q·P²) in all): the shares' sizes are split off down a binary tree of
//!   PEs with binomial draws (the multinomial distribution of independent placement), and the
//!   jobs are dealt in the order of a pseudorandom permutation σ of 0..m, PE i taking
//!   positions C_i..C_i + n_i. The sets have exactly the distribution of independent uniform
//!   placement;
//! - **random-static** (paper 004 Fig. 1): m = 2^h and PE i takes the jobs π(j) for
//!   j ∈ ⌊i·m/P⌋..⌊(i+1)·m/P⌋, π a pseudorandom permutation every PE computes itself
//!   (LCG, GF(2^h) powers or Feistel; `--permutation random` is random placement again).
//!
//! Scattered shares are cut a chunk at a time: up to [`CHUNK`] job numbers are sorted and cut
//! in one walk over the splitting tree that skips subtrees without a wanted job and empty
//! subtrees ([`Cutter`]), so memory stays O(CHUNK) beside the jobs themselves and a
//! bag of mostly empty jobs (a large h on a small tree) costs little.

use super::cutter::{Cutter, Wanted};
use super::permutation::Permutation;
use super::{delegate_to_core, Core};
use crate::config::{Balancer, Config, StaticPermutation};
use crate::piece::{Fresh, Piece};
use crate::protocol::{hash, Message, PeId, Protocol, Step};
use rand::SeedableRng;
use rand_distr::{Binomial, Distribution};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Which jobs are whose.
enum Rule {
    Block,
    RoundRobin,
    Random { seed: u64 },
    Permuted(Permutation),
}

/// Where a PE's jobs still to be cut come from: one walk over the splitting tree, or an
/// unordered share cut a sorted chunk at a time.
enum Source {
    Walk(Cutter),
    Chunks {
        share: Box<dyn Iterator<Item = u64> + Send>,
        walk: Option<Cutter>,
    },
}

/// The most splits a sparse walk may take before the share counts as dense (this bounds its
/// time and the jobs it holds at once).
pub(crate) const SPARSE_SPLITS: u64 = 1 << 18;

/// Jobs cut per refill of the queue: the queue holds at most this many beyond the one worked
/// on, so memory stays bounded however large the bag (2^30 jobs of a big tree included).
pub(crate) const BATCH: usize = 64;

/// A PE of a communication-free static balancer.
pub(crate) struct Share {
    core: Core,
    rule: Rule,
    /// The jobs still to cut (None: all cut).
    source: Option<Source>,
}

/// Job numbers sorted and cut per walk over the splitting tree.
pub(crate) const CHUNK: usize = 1 << 16;

/// Random placement of `m` jobs on `p` PEs: PE `me`'s share as positions `start..end` in the
/// dealing order, and the order itself (σ, a pseudorandom permutation of 0..m). The share
/// sizes are multinomial(m; 1/P, …, 1/P), drawn down a binary tree of PEs: a node with PEs
/// a..b holding n jobs gives Binomial(n, (mid−a)/(b−a)) of them to a..mid, each node's draw
/// seeded by (seed, a, b), so that every PE computes the same sizes on its path.
pub(crate) fn random_share(
    seed: u64,
    m: u64,
    p: usize,
    me: PeId,
) -> (std::ops::Range<u64>, Permutation) {
    let (mut a, mut b, mut n, mut start) = (0usize, p, m, 0u64);
    while b - a > 1 {
        let mid = a + (b - a) / 2;
        let node = hash::indexed(seed, a as u64, b as u64);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(node);
        let share = (mid - a) as f64 / (b - a) as f64;
        let left = Binomial::new(n, share)
            .expect("a probability in (0, 1)")
            .sample(&mut rng);
        if me < mid {
            b = mid;
            n = left;
        } else {
            a = mid;
            start += left;
            n -= left;
        }
    }
    let h = m.max(2).next_power_of_two().trailing_zeros();
    let sigma = Permutation::new(
        StaticPermutation::Feistel,
        h,
        hash::splitmix64(seed ^ 0x5eed),
    )
    .expect("the Feistel family");
    (start..start + n, sigma)
}

impl Share {
    /// PE `me` of the configured run; PE 0 passes the root.
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &crate::protocol::Env,
        fresh: Fresh,
        root: Option<Piece>,
    ) -> Self {
        let core = Core::new(me, config, env, fresh, root, true);
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
        Share {
            core,
            rule,
            source: None,
        }
    }

    /// Set up this PE's share: a sparse share is cut at once; otherwise the jobs are cut
    /// [`BATCH`] at a time as the queue drains.
    fn place_share(&mut self) {
        let (me, p, m) = (self.core.me(), self.core.p(), self.core.m);
        let block = self.core.block(me);
        let root = self.core.root.as_ref().expect("the root copy");
        let probe = Some(self.core.probe);
        let source = match &self.rule {
            Rule::Block => Some(Source::Walk(Cutter::new(root, m, block).probing(probe))),
            Rule::RoundRobin => Some(Source::Walk(
                Cutter::wanted(
                    root,
                    m,
                    Wanted::Stride {
                        first: me as u64,
                        stride: p as u64,
                    },
                )
                .probing(probe),
            )),
            Rule::Random { seed } => {
                let (share, sigma) = random_share(*seed, m, p, me);
                let (mine, by) = (share.clone(), sigma.clone());
                let owns = move |j| by.invert_below(j, m).is_some_and(|k| mine.contains(&k));
                (!self.cut_sparse(share.end - share.start, owns)).then(|| Source::Chunks {
                    share: Box::new(share.map(move |k| sigma.apply_below(k, m))),
                    walk: None,
                })
            }
            Rule::Permuted(pi) => {
                let pi = pi.clone();
                let len = block.end - block.start;
                let invertible = pi.invert(0).is_some();
                let (mine, by) = (block.clone(), pi.clone());
                let owns = move |j| by.invert(j).is_some_and(|k| mine.contains(&k));
                (!(invertible && self.cut_sparse(len, owns))).then(|| Source::Chunks {
                    share: Box::new(pi.into_range(block)),
                    walk: None,
                })
            }
        };
        self.source = source;
        self.refill();
    }

    /// Cut up to [`BATCH`] more jobs into the queue; when the share is all cut (or the run
    /// stopped), the root record may finish.
    fn refill(&mut self) {
        let (m, record) = (self.core.m, self.core.root_record);
        let mut cut = 0;
        // After a stop under `keep_remaining`, the rest of the share is cut at once, every
        // job into the kept work (a checkpoint holds pieces, not a share of a root copy).
        let draining = self.core.pe.is_stopped() && self.core.pe.keeps_work();
        while (cut < BATCH && !self.core.pe.is_stopped()) || draining {
            let next = match &mut self.source {
                None => None,
                Some(Source::Walk(walk)) => take_one(walk, &mut self.core),
                Some(Source::Chunks { share, walk }) => loop {
                    if let Some(w) = walk {
                        if let Some(job) = take_one(w, &mut self.core) {
                            break Some(job);
                        }
                    }
                    let mut chunk: Vec<u64> = share.by_ref().take(CHUNK).collect();
                    if chunk.is_empty() {
                        break None;
                    }
                    chunk.sort_unstable();
                    let root = self
                        .core
                        .root
                        .as_ref()
                        .expect("the root copy while cutting");
                    *walk = Some(
                        Cutter::wanted(root, m, Wanted::Sorted(chunk))
                            .probing(Some(self.core.probe)),
                    );
                },
            };
            let Some((task, generation)) = next else {
                self.source = None;
                break;
            };
            self.core.push_job(task, generation, record);
            cut += 1;
        }
        if self.core.pe.is_stopped() {
            self.source = None;
        }
        self.core.pending = self.source.is_some();
        if self.source.is_none() && self.core.producing {
            self.core.done_producing();
        }
    }

    /// For a share of `len` jobs that `owns` recognizes: walk the whole splitting tree and keep
    /// the owned jobs, if the tree's nonempty part is small enough that this costs at most
    /// about 2·len splits, and at most [`SPARSE_SPLITS`] (a large bag cut from a small tree: most
    /// jobs are empty). Returns
    /// false, having queued nothing, once the walk passes that budget; the splits spent are
    /// counted either way.
    /// A task whose size estimate says it has at least m units is taken to be dense, and not
    /// tried.
    fn cut_sparse(
        &mut self,
        len: u64,
        owns: impl Fn(u64) -> bool + Clone + Send + 'static,
    ) -> bool {
        let budget = len.saturating_mul(2).saturating_add(64).min(SPARSE_SPLITS);
        let root = self.core.root.as_ref().expect("the root copy");
        if root.estimate().is_some_and(|units| units >= self.core.m) {
            return false;
        }
        let mut cutter = Cutter::new(root, self.core.m, 0..self.core.m)
            .probing(Some(self.core.probe))
            .crediting(owns.clone());
        let mut mine = Vec::new();
        while let Some((j, task, generation)) = cutter.next() {
            if owns(j) {
                mine.push((task, generation));
            }
            if cutter.splits > budget {
                break;
            }
        }
        let within = cutter.splits <= budget;
        self.core.pe.count_splits(cutter.splits);
        let cut = cutter.take_cut();
        if within {
            self.core.credit(cut);
        } else {
            // The share is cut again a chunk at a time, and credited then: all of this walk's
            // work on copies was overhead.
            self.core.pe.charge_work(cut.units + cut.overhead);
        }
        if within {
            let record = self.core.root_record;
            for (task, generation) in mine {
                self.core.push_job(task, generation, record);
            }
        }
        within
    }
}

impl Share {
    /// After a stop: drop the rest of the share, or under `keep_remaining` cut it all into the
    /// kept work (a set-up still due does that when it runs).
    fn after_stop(&mut self) {
        if self.core.pe.keeps_work() {
            if self.source.is_some() {
                self.refill();
            }
        } else {
            self.source = None;
            self.core.pending = false;
        }
    }
}

/// The next job of `walk`, counting the splits it took on the PE.
fn take_one(walk: &mut Cutter, core: &mut Core) -> Option<(Piece, u32)> {
    let before = walk.splits;
    let next = walk.next();
    core.pe.count_splits(walk.splits - before);
    core.credit(walk.take_cut());
    next.map(|(_, task, generation)| (task, generation))
}

impl crate::protocol::NewPe for Share {
    fn new_pe(s: crate::protocol::PeStart<'_>) -> Self {
        Share::new(s.me, s.config, s.env, s.fresh, s.root)
    }
}

impl Protocol for Share {
    delegate_to_core!(setup: place_share, refill: refill);

    fn receive(&mut self, from: PeId, message: Message) {
        self.core.receive(from, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PEs' random shares partition the jobs, and their sizes look multinomial.
    #[test]
    fn random_shares_partition_the_jobs() {
        for (m, p) in [(1, 1), (5, 3), (64, 64), (1000, 7), (100_000, 33)] {
            let mut owner = vec![usize::MAX; m as usize];
            let mut start = 0;
            for me in 0..p {
                let (share, sigma) = random_share(11, m, p, me);
                assert_eq!(share.start, start, "m={m} p={p}: shares are consecutive");
                start = share.end;
                for k in share {
                    let j = sigma.apply_below(k, m) as usize;
                    assert_eq!(owner[j], usize::MAX, "job {j} placed twice");
                    owner[j] = me;
                }
            }
            assert_eq!(start, m, "m={m} p={p}: every job placed");
            if m >= 1000 {
                // Each share is Binomial(m, 1/p): within 6 standard deviations of m/p.
                let mean = m as f64 / p as f64;
                let sd = (mean * (1.0 - 1.0 / p as f64)).sqrt();
                for me in 0..p {
                    let n = owner.iter().filter(|&&o| o == me).count() as f64;
                    assert!(
                        (n - mean).abs() < 6.0 * sd,
                        "PE {me}: {n} jobs, mean {mean}"
                    );
                }
            }
        }
    }
}
