//! Poll-and-shuffle's pseudorandom permutation (paper 002 §3.2): "precompute a small set of
//! random permutations which have the property of generating the entire group (in this case
//! the symmetric group S_n of all permutations over PE numbers). Then, a pseudorandom
//! permutation is constructed by combining a small randomly selected sample of these
//! precomputed permutations."
//!
//! Every PE derives the same [`GENERATORS`] uniformly random permutations of 0..P from the
//! run's seed (Fisher–Yates), once per run, shared by the PEs of one process. Permutation
//! number n is the composition of [`SAMPLE`] of them, chosen with replacement by a hash of
//! the seed and n, so every PE computes where its pieces go without communication.
//!
//! Generating S_P: two uniformly random permutations generate S_P or the alternating group
//! A_P with probability 1 − 1/P − O(1/P²) (Dixon), and eight almost surely do; an all-even
//! set would generate at most A_P, so when every generator is even the first is made odd by
//! one transposition. The tests check by closure that small sets generate all of S_P.

use crate::protocol::hash::splitmix64 as mix;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// The number of precomputed permutations.
pub(crate) const GENERATORS: usize = 8;
/// How many of them one pseudorandom permutation composes.
pub(crate) const SAMPLE: usize = 6;

/// The precomputed generators of one run.
#[derive(Debug)]
pub(crate) struct Generators {
    seed: u64,
    perms: Vec<Vec<u32>>,
}

/// The parity of a permutation (true: odd), from its cycle lengths.
fn is_odd(perm: &[u32]) -> bool {
    let mut seen = vec![false; perm.len()];
    let mut transpositions = 0usize;
    for start in 0..perm.len() {
        let mut len = 0usize;
        let mut x = start;
        while !seen[x] {
            seen[x] = true;
            x = perm[x] as usize;
            len += 1;
        }
        transpositions += len.saturating_sub(1);
    }
    transpositions % 2 == 1
}

impl Generators {
    /// The generators of P PEs for `seed`.
    pub(crate) fn new(seed: u64, p: usize) -> Self {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ 0x5348_5546_464C_4531));
        let mut perms: Vec<Vec<u32>> = (0..GENERATORS)
            .map(|_| {
                let mut perm: Vec<u32> = (0..p as u32).collect();
                perm.shuffle(&mut rng);
                perm
            })
            .collect();
        if p >= 2 && !perms.iter().any(|g| is_odd(g)) {
            perms[0].swap(0, 1);
        }
        Generators { seed, perms }
    }

    /// The generators of a run, shared by its PEs (one copy per seed and P while a run
    /// holds it).
    pub(crate) fn shared(seed: u64, p: usize) -> Arc<Self> {
        type Cache = Mutex<HashMap<(u64, usize), Weak<Generators>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(g) = cache.get(&(seed, p)).and_then(Weak::upgrade) {
            return g;
        }
        cache.retain(|_, g| g.strong_count() > 0);
        let g = Arc::new(Generators::new(seed, p));
        cache.insert((seed, p), Arc::downgrade(&g));
        g
    }

    /// The indices of the generators permutation number `n` composes, first applied first.
    pub(crate) fn sample(&self, n: u64) -> [usize; SAMPLE] {
        let mut h = mix(self.seed ^ mix(n ^ 0x9E37_79B9_7F4A_7C15));
        std::array::from_fn(|_| {
            h = mix(h);
            (h % GENERATORS as u64) as usize
        })
    }

    /// Where PE `k`'s pieces go in permutation number `n`.
    pub(crate) fn target(&self, n: u64, k: usize) -> usize {
        self.sample(n)
            .iter()
            .fold(k, |x, &i| self.perms[i][x] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn targets_are_permutations() {
        for p in [1, 2, 3, 5, 8, 12, 64, 100, 1000, 4096] {
            let g = Generators::new(7, p);
            for n in 0..20 {
                let mut hit = vec![false; p];
                for k in 0..p {
                    let t = g.target(n, k);
                    assert!(t < p && !hit[t], "P={p} n={n}: not a bijection");
                    hit[t] = true;
                }
            }
        }
    }

    /// The generators of small P generate all of S_P (closure under composition), so their
    /// products can reach every permutation.
    #[test]
    fn generators_generate_the_symmetric_group() {
        for (p, factorial) in [(2usize, 2usize), (3, 6), (4, 24), (5, 120), (6, 720)] {
            for seed in 0..10 {
                let g = Generators::new(seed, p);
                let identity: Vec<u32> = (0..p as u32).collect();
                let mut group: HashSet<Vec<u32>> = HashSet::from([identity.clone()]);
                let mut frontier = vec![identity];
                while let Some(x) = frontier.pop() {
                    for gen in &g.perms {
                        let y: Vec<u32> = x.iter().map(|&i| gen[i as usize]).collect();
                        if group.insert(y.clone()) {
                            frontier.push(y);
                        }
                    }
                }
                assert_eq!(group.len(), factorial, "P={p} seed={seed}");
            }
        }
    }

    /// Different permutation numbers choose different samples, and one PE's targets over many
    /// permutations spread over all PEs.
    #[test]
    fn samples_vary_and_targets_spread() {
        let g = Generators::new(3, 64);
        let samples: HashSet<[usize; SAMPLE]> = (0..100).map(|n| g.sample(n)).collect();
        assert!(samples.len() > 90);
        let targets: HashSet<usize> = (0..2000).map(|n| g.target(n, 5)).collect();
        assert_eq!(targets.len(), 64);
    }
}
