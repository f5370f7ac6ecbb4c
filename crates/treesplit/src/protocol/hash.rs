//! Hash mixing in one place: splitmix64 (Steele, Lea and Flood's generator, whose output
//! function is a strong 64-bit mixer) and the ways the balancers derive shared pseudorandom
//! values from the run's seed without communication — every PE computes the same value.
//!
//! The functions keep the exact values the copies they replace computed (the simulator's
//! replays and the permutation tests depend on them).

/// 2⁶⁴/φ, splitmix64's increment (the "golden gamma").
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function (the finalizer of MurmurHash3's variant 13).
pub(crate) fn finalize(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// One step of splitmix64 from state `x`: the output for state x + γ.
pub(crate) fn splitmix64(x: u64) -> u64 {
    finalize(x.wrapping_add(GOLDEN))
}

/// A value shared by all PEs for index `i` (a round, a job) of the run with seed `seed`;
/// `salt` separates the uses. The finalizer of seed ⊕ i·γ ⊕ salt.
pub(crate) fn indexed(seed: u64, i: u64, salt: u64) -> u64 {
    finalize(seed ^ i.wrapping_mul(GOLDEN) ^ salt)
}

/// The seed of stream `k` (a PE's generator) of the run with seed `seed`: seed ⊕ (k+1)·γ.
pub(crate) fn stream_seed(seed: u64, k: u64) -> u64 {
    seed ^ (k + 1).wrapping_mul(GOLDEN)
}

/// The greatest common divisor (the affine permutations need units mod P or mod 2^h).
pub(crate) fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // splitmix64 seeded with 0: the first outputs of the reference implementation.
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(GOLDEN), 0x6E78_9E6A_A1B9_65F4);
    }
}
