//! Pseudorandom permutations of the m = 2^h jobs of randomized static load balancing, which
//! every PE computes alone, without communication (paper 004 §4, paper 001 §14.4.1):
//!
//! - **LCG**: the full-period sequence x_{k+1} = a·x_k + c mod 2^h (Hull–Dobell: a ≡ 1 mod 4,
//!   c odd), π(j) = x_j. One evaluation is an integer power of the affine map; consecutive
//!   ones are one multiply-add each.
//! - **GF(2^h)**: the powers g, g², …, g^{m−1} of a generator g = x^l of the multiplicative
//!   group of GF(2^h) (p a primitive polynomial of degree h, found here by testing that x has
//!   order 2^h − 1; l coprime to 2^h − 1), with the zero polynomial inserted at a random place.
//! - **Feistel**: four rounds π_k(j_a, j_b) = (j_b, (j_a + f_k(j_b)) mod √m) on the halves of j
//!   (odd h: on h+1 bits, walking the cycle until the value falls below m).
//!
//! All three are bijections of 0..m for every h (tests check h ≤ 24); the seed picks the
//! member of each family.

use crate::config::StaticPermutation;
use crate::protocol::hash::{gcd, splitmix64 as mix};

/// A pseudorandom permutation of 0..2^h.
#[derive(Debug, Clone)]
pub(crate) struct Permutation {
    h: u32,
    mask: u64,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    Lcg { a: u64, c: u64, x0: u64 },
    Gf2 { poly: u64, g: u64, zero_at: u64 },
    Feistel { half: u32, keys: [u64; 4] },
}

impl Permutation {
    /// The member of family `kind` chosen by `seed`, on 0..2^h (h ≤ 40).
    /// `StaticPermutation::Random` is random placement, not a permutation: it has no member.
    pub(crate) fn new(kind: StaticPermutation, h: u32, seed: u64) -> Option<Self> {
        assert!(
            h <= 40,
            "permutations of more than 2^40 jobs are not supported"
        );
        let m = 1u64 << h;
        let mask = m - 1;
        let kind = match kind {
            StaticPermutation::Lcg => Kind::Lcg {
                a: (mix(seed ^ 1) << 2 | 1) & mask.max(1),
                c: (mix(seed ^ 2) | 1) & mask,
                x0: mix(seed ^ 3) & mask,
            },
            StaticPermutation::Gf2 => {
                let poly = primitive_polynomial(h);
                let order = mask; // 2^h − 1 nonzero elements
                let mut l = mix(seed ^ 4) % order.max(1) + 1;
                while gcd(l, order.max(1)) != 1 {
                    l += 1;
                }
                let x = if h == 1 { 1 } else { 2 };
                Kind::Gf2 {
                    poly,
                    g: gf_pow(x, l, poly, h),
                    zero_at: mix(seed ^ 5) % m,
                }
            }
            StaticPermutation::Feistel => Kind::Feistel {
                half: h.div_ceil(2),
                keys: [1, 2, 3, 4].map(|k| mix(seed ^ (k << 32))),
            },
            StaticPermutation::Random => return None,
        };
        Some(Permutation { h, mask, kind })
    }

    /// The number of elements, 2^h.
    #[cfg(test)]
    pub(crate) fn size(&self) -> u64 {
        self.mask + 1
    }

    /// π(j) for j < 2^h.
    pub(crate) fn apply(&self, j: u64) -> u64 {
        debug_assert!(j <= self.mask);
        match self.kind {
            Kind::Lcg { a, c, x0 } => {
                let (pa, pc) = affine_power(a, c, j);
                pa.wrapping_mul(x0).wrapping_add(pc) & self.mask
            }
            Kind::Gf2 { poly, g, zero_at } => match j.cmp(&zero_at) {
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Less => gf_pow(g, j + 1, poly, self.h),
                std::cmp::Ordering::Greater => gf_pow(g, j, poly, self.h),
            },
            Kind::Feistel { half, keys } => {
                let mut x = j;
                loop {
                    x = feistel(x, half, &keys);
                    if x <= self.mask {
                        return x;
                    }
                }
            }
        }
    }

    /// The permutation of 0..m (m ≤ 2^h) that walks π's cycles until it falls below m
    /// ("cycle walking"): σ(j) for j < m.
    pub(crate) fn apply_below(&self, j: u64, m: u64) -> u64 {
        debug_assert!(j < m && m <= self.mask + 1);
        let mut x = self.apply(j);
        while x >= m {
            x = self.apply(x);
        }
        x
    }

    /// π⁻¹(x) for x < 2^h where it is cheap: the Feistel network runs its rounds backwards;
    /// `None` for the LCG and GF(2^h) families, whose inverses are discrete logarithms.
    pub(crate) fn invert(&self, x: u64) -> Option<u64> {
        debug_assert!(x <= self.mask);
        let Kind::Feistel { half, keys } = self.kind else {
            return None;
        };
        let mut y = x;
        loop {
            y = feistel_inverse(y, half, &keys);
            if y <= self.mask {
                return Some(y);
            }
        }
    }

    /// σ⁻¹(x) for the cycle-walking permutation σ of 0..m of [`Self::apply_below`] (Feistel
    /// only, as [`Self::invert`]).
    pub(crate) fn invert_below(&self, x: u64, m: u64) -> Option<u64> {
        let mut y = self.invert(x)?;
        while y >= m {
            y = self.invert(y)?;
        }
        Some(y)
    }

    #[cfg(test)]
    /// π(j) for j in `range`, in order: the LCG and GF(2^h) pay one power for the first and
    /// one multiplication per further element (paper 004 §4).
    pub(crate) fn apply_range(&self, range: std::ops::Range<u64>) -> impl Iterator<Item = u64> {
        self.clone().into_range(range)
    }

    /// [`Self::apply_range`], owning the permutation (the iterator outlives the caller).
    pub(crate) fn into_range(self, range: std::ops::Range<u64>) -> impl Iterator<Item = u64> {
        let mut state: Option<u64> = None;
        range.map(move |j| match self.kind {
            Kind::Lcg { a, c, .. } => {
                let x = match state {
                    Some(prev) => a.wrapping_mul(prev).wrapping_add(c) & self.mask,
                    None => self.apply(j),
                };
                state = Some(x);
                x
            }
            Kind::Gf2 { poly, g, zero_at } => {
                if j == zero_at {
                    return 0;
                }
                let k = if j < zero_at { j + 1 } else { j };
                let x = match state {
                    Some(prev) => gf_mul(prev, g, poly, self.h),
                    None => gf_pow(g, k, poly, self.h),
                };
                state = Some(x);
                x
            }
            Kind::Feistel { .. } => self.apply(j),
        })
    }
}

/// The j-th power of the affine map x ↦ a·x + c (mod 2^64; callers mask): (a^j, c·(a^j−1)/(a−1)).
fn affine_power(a: u64, c: u64, mut j: u64) -> (u64, u64) {
    let (mut ra, mut rc) = (1u64, 0u64);
    let (mut ba, mut bc) = (a, c);
    while j > 0 {
        if j & 1 == 1 {
            // r ← b ∘ r
            rc = ba.wrapping_mul(rc).wrapping_add(bc);
            ra = ba.wrapping_mul(ra);
        }
        // b ← b ∘ b
        bc = ba.wrapping_mul(bc).wrapping_add(bc);
        ba = ba.wrapping_mul(ba);
        j >>= 1;
    }
    (ra, rc)
}

/// Four Feistel rounds on 2·`half` bits.
fn feistel(x: u64, half: u32, keys: &[u64; 4]) -> u64 {
    let hmask = (1u64 << half) - 1;
    let (mut lo, mut hi) = (x & hmask, x >> half);
    for &key in keys {
        let new_hi = (lo + (mix(key ^ hi) & hmask)) & hmask;
        lo = hi;
        hi = new_hi;
    }
    lo | hi << half
}

/// The inverse of [`feistel`]: each round (lo, hi) → (hi, lo + f(hi)) undone, last first.
fn feistel_inverse(x: u64, half: u32, keys: &[u64; 4]) -> u64 {
    let hmask = (1u64 << half) - 1;
    let (mut lo, mut hi) = (x & hmask, x >> half);
    for &key in keys.iter().rev() {
        let old_lo = hi.wrapping_sub(mix(key ^ lo) & hmask) & hmask;
        hi = lo;
        lo = old_lo;
    }
    lo | hi << half
}

/// a·b in GF(2)[x] modulo `poly` of degree h.
fn gf_mul(mut a: u64, mut b: u64, poly: u64, h: u32) -> u64 {
    let top = 1u64 << h;
    let mut r = 0;
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        b >>= 1;
        a <<= 1;
        if a & top != 0 {
            a ^= poly;
        }
    }
    r
}

/// a^e modulo `poly`.
fn gf_pow(mut a: u64, mut e: u64, poly: u64, h: u32) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = gf_mul(r, a, poly, h);
        }
        a = gf_mul(a, a, poly, h);
        e >>= 1;
    }
    r
}

/// The distinct prime factors of n (trial division; n < 2^40).
fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut d = 2;
    while d * d <= n {
        if n.is_multiple_of(d) {
            out.push(d);
            while n.is_multiple_of(d) {
                n /= d;
            }
        }
        d += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

/// The smallest primitive polynomial of degree h over GF(2) (bit i = coefficient of x^i): the
/// first p with x of order exactly 2^h − 1 modulo p (which also proves p irreducible: then
/// every nonzero residue is a power of x, hence a unit, so GF(2)[x]/p is a field).
pub(crate) fn primitive_polynomial(h: u32) -> u64 {
    if h <= 1 {
        return 0b11; // x + 1 (GF(2) itself for h = 1; unused for h = 0)
    }
    let order = (1u64 << h) - 1;
    let factors = prime_factors(order);
    let x = 2;
    (1u64 << h | 1..1u64 << (h + 1))
        .step_by(2)
        .find(|&p| {
            gf_pow(x, order, p, h) == 1 && factors.iter().all(|q| gf_pow(x, order / q, p, h) != 1)
        })
        .expect("a primitive polynomial exists for every degree")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_bijection(kind: StaticPermutation, h: u32, seed: u64) {
        let p = Permutation::new(kind, h, seed).unwrap();
        let m = p.size();
        let mut seen = vec![0u64; (m as usize).div_ceil(64)];
        for x in p.apply_range(0..m) {
            assert!(x < m, "{kind:?} h={h}: {x} out of range");
            let (w, b) = ((x / 64) as usize, x % 64);
            assert!(seen[w] >> b & 1 == 0, "{kind:?} h={h}: {x} twice");
            seen[w] |= 1 << b;
        }
    }

    #[test]
    fn feistel_inverts_and_cycle_walks_below_m() {
        for (h, m) in [(1, 2), (5, 19), (8, 256), (11, 1500), (17, 100_003)] {
            let p = Permutation::new(StaticPermutation::Feistel, h, 9).unwrap();
            for x in (0..1u64 << h).step_by(7) {
                assert_eq!(p.invert(p.apply(x)), Some(x), "h={h}");
            }
            let mut seen = vec![false; m as usize];
            for j in 0..m {
                let x = p.apply_below(j, m);
                assert!(x < m && !seen[x as usize], "h={h} m={m}: σ({j}) = {x}");
                seen[x as usize] = true;
                assert_eq!(p.invert_below(x, m), Some(j));
            }
        }
        let lcg = Permutation::new(StaticPermutation::Lcg, 8, 1).unwrap();
        assert_eq!(lcg.invert(3), None);
    }

    #[test]
    fn every_permutation_is_a_bijection_up_to_h_24() {
        for h in 0..=24 {
            for kind in [
                StaticPermutation::Lcg,
                StaticPermutation::Gf2,
                StaticPermutation::Feistel,
            ] {
                assert_bijection(kind, h, 42 + u64::from(h));
            }
        }
    }

    #[test]
    fn single_evaluations_agree_with_the_sequence() {
        for kind in [
            StaticPermutation::Lcg,
            StaticPermutation::Gf2,
            StaticPermutation::Feistel,
        ] {
            let p = Permutation::new(kind, 13, 9).unwrap();
            let seq: Vec<u64> = p.apply_range(100..400).collect();
            let single: Vec<u64> = (100..400).map(|j| p.apply(j)).collect();
            assert_eq!(seq, single, "{kind:?}");
            // Different seeds give different permutations.
            let q = Permutation::new(kind, 13, 10).unwrap();
            assert!((0..8192).any(|j| p.apply(j) != q.apply(j)), "{kind:?}");
        }
    }

    #[test]
    fn known_primitive_polynomials() {
        // x^4 + x + 1, x^8 + x^4 + x^3 + x^2 + 1 (the smallest primitive ones of their degree).
        assert_eq!(primitive_polynomial(4), 0b1_0011);
        assert_eq!(primitive_polynomial(8), 0b1_0001_1101);
    }
}
