//! Permutation-based initialization (`PollingOptions::permuted_init`, paper 004 §5.1).
//!
//! Instead of one PE holding the root (or fast initialization's ⌊log₂ P⌋ local splits), dynamic
//! balancing starts from the static decomposition of randomized static load balancing: PE 0
//! broadcasts the root down the binary tree of PEs, and every PE cuts from its copy the 2^h
//! jobs (`assignment::cutter`) that the pseudorandom permutation π places on it — π(j) for
//! j ∈ ⌊i·2^h/P⌋..⌊(i+1)·2^h/P⌋, exactly random-static's share with the same permutation,
//! depth and seed (`--permutation random`: random-static's independent random placement).
//! Because the placement is (pseudo)random, every subnetwork of sufficient size starts with
//! about its share of the load, which is what lets random polling then poll locally
//! (`locality`, `victim.rs`). The jobs partition the root exactly — this needs
//! `Task::split` to be deterministic, as fast initialization does — and the splits are
//! charged as splits. A PE holds its jobs as separate pieces under the record of its root
//! copy (`Polling::shared`): it works them one after the other and hands whole ones to
//! requesters while it holds more than one.

use super::{Held, Polling};
use crate::config::{PermutedInit, StaticPermutation};
use crate::piece::Piece;
use crate::protocol::assignment::cutter::{Cutter, Wanted};
use crate::protocol::assignment::permutation::Permutation;
use crate::protocol::assignment::share::random_share;

/// The jobs (of 2^h, h = `init.depth_for(p)`) that PE `me` of `p` starts with, sorted, for
/// the run's `seed`.
pub(crate) fn initial_jobs(init: PermutedInit, me: usize, p: usize, seed: u64) -> Vec<u64> {
    let h = init.depth_for(p);
    let m = 1u64 << h;
    let mut jobs: Vec<u64> = match init.permutation {
        StaticPermutation::Random => {
            let (share, sigma) = random_share(seed, m, p, me);
            share.map(|k| sigma.apply_below(k, m)).collect()
        }
        kind => {
            let pi = Permutation::new(kind, h, seed).expect("a permutation family");
            let block = (me as u64 * m / p as u64)..((me as u64 + 1) * m / p as u64);
            pi.into_range(block).collect()
        }
    };
    jobs.sort_unstable();
    jobs
}

impl Polling {
    /// The copy of the root kept under `record` is here: pass copies to the children, then
    /// cut this PE's jobs from it.
    pub(super) fn init_permuted(&mut self, init: PermutedInit, root: Piece, record: u64) {
        self.pe.broadcast_root(&root, record);
        let (me, p) = (self.pe.me(), self.pe.p());
        let m = 1u64 << init.depth_for(p);
        let wanted = initial_jobs(init, me, p, self.seed);
        let mut cutter = Cutter::wanted(&root, m, Wanted::Sorted(wanted));
        let jobs: Vec<(u64, Piece, u32)> = cutter.by_ref().collect();
        self.pe.count_splits(cutter.splits);
        if jobs.is_empty() {
            self.pe.finish_piece(record);
            return;
        }
        if jobs.len() > 1 {
            self.shared = Some((record, jobs.len()));
        }
        // Worked from the last: the lowest job first.
        for (_, task, generation) in jobs.into_iter().rev() {
            self.pe.note_generation(generation);
            let piece = Held {
                task,
                generation,
                record,
            };
            if self.pe.is_stopped() {
                self.keep_held(piece);
            } else {
                self.pieces.push(piece);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placement is the permutation's: PE i starts with π(j) for its block of j, the
    /// shares partition 0..2^h, and the default depth is ⌈log₂ P⌉ + 2.
    #[test]
    fn the_initial_placement_is_the_permutations() {
        for kind in [
            StaticPermutation::Lcg,
            StaticPermutation::Gf2,
            StaticPermutation::Feistel,
            StaticPermutation::Random,
        ] {
            for (p, depth) in [(1, None), (7, Some(5)), (16, None), (30, Some(8))] {
                let init = PermutedInit {
                    permutation: kind,
                    depth,
                };
                let h = init.depth_for(p);
                let m = 1u64 << h;
                let mut all = Vec::new();
                for me in 0..p {
                    let jobs = initial_jobs(init, me, p, 42);
                    if let Some(pi) = Permutation::new(kind, h, 42) {
                        let lo = me as u64 * m / p as u64;
                        let hi = (me as u64 + 1) * m / p as u64;
                        let mut expected: Vec<u64> = (lo..hi).map(|j| pi.apply(j)).collect();
                        expected.sort_unstable();
                        assert_eq!(jobs, expected, "{kind} P={p} PE {me}");
                    }
                    all.extend(jobs);
                }
                all.sort_unstable();
                assert_eq!(all, (0..m).collect::<Vec<_>>(), "{kind} P={p}");
            }
        }
        let init = PermutedInit {
            permutation: StaticPermutation::Feistel,
            depth: None,
        };
        assert_eq!(init.depth_for(16), 6);
        assert_eq!(init.depth_for(17), 7);
        assert_eq!(init.depth_for(1), 2);
        // Sixteen PEs, 64 jobs: each PE four, scattered over the bag.
        let jobs = initial_jobs(init, 3, 16, 1);
        assert_eq!(jobs.len(), 4);
        assert!(jobs.last().unwrap() - jobs[0] > 3, "not a block: {jobs:?}");
    }
}
