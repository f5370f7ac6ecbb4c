//! The UTS splittable random number generator: one SHA-1 per node.
//!
//! A node's state is a 20-byte SHA-1 digest. The root's state is SHA-1(16 zero bytes ‖ seed
//! as 4 big-endian bytes); child i's state is SHA-1(parent state ‖ i as 4 big-endian bytes).
//! Both messages fit one 64-byte block, so each is one call of the `sha1` crate's
//! compression function on a block padded here by the SHA-1 rules.

use sha1::block_api::compress;

/// A node's 20-byte generator state.
pub type State = [u8; 20];

const H0: [u32; 5] = [
    0x6745_2301,
    0xEFCD_AB89,
    0x98BA_DCFE,
    0x1032_5476,
    0xC3D2_E1F0,
];

/// A 64-byte block on a cache line of its own: the compression function's loads of an
/// unaligned stack block straddle two lines or not depending on the depth of the caller's
/// stack, which cost UTS 3.5 % of its time on the threads machine when they did
/// (docs/benchmarks/threads.md, "the SHA-1 block's alignment").
#[repr(C, align(64))]
struct Block([u8; 64]);

/// SHA-1 of a message of at most 55 bytes: one padded block.
fn sha1_short(message: &[u8]) -> State {
    debug_assert!(message.len() <= 55);
    let mut block = Block([0u8; 64]);
    let bytes = &mut block.0;
    bytes[..message.len()].copy_from_slice(message);
    bytes[message.len()] = 0x80;
    bytes[56..].copy_from_slice(&((message.len() as u64) * 8).to_be_bytes());
    let mut h = H0;
    compress(&mut h, std::slice::from_ref(&block.0));
    let mut out = [0u8; 20];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// The state of the root for `seed` (UTS `rng_init`).
pub fn root_state(seed: u32) -> State {
    let mut m = [0u8; 20];
    m[16..].copy_from_slice(&seed.to_be_bytes());
    sha1_short(&m)
}

/// The state of child `i` (UTS `rng_spawn`).
pub fn child_state(parent: &State, i: u32) -> State {
    let mut m = [0u8; 24];
    m[..20].copy_from_slice(parent);
    m[20..].copy_from_slice(&i.to_be_bytes());
    sha1_short(&m)
}

/// The node's random number in 0..2^31 (UTS `rng_rand`).
pub fn rand(state: &State) -> u32 {
    u32::from_be_bytes([state[16], state[17], state[18], state[19]]) & 0x7fff_ffff
}

/// The node's uniform number in [0, 1) (UTS `rng_toProb`).
pub fn to_prob(r: u32) -> f64 {
    r as f64 / 2_147_483_648.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &State) -> String {
        s.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn published_test_vectors() {
        let r19 = root_state(19);
        assert_eq!(hex(&r19), "c6988ab70cc9559ae4d6cba254e29a845a85f86b");
        assert_eq!(rand(&r19), 1_518_729_323);
        assert_eq!(
            hex(&root_state(0)),
            "6768033e216468247bd031a0a2d9876d79818f8f"
        );
    }

    #[test]
    fn one_block_hash_equals_the_streaming_hash() {
        use sha1::{Digest, Sha1};
        let parent = root_state(7);
        for i in [0u32, 1, 99, 0xdead_beef] {
            let mut h = Sha1::new();
            h.update(parent);
            h.update(i.to_be_bytes());
            let expected: [u8; 20] = h.finalize().into();
            assert_eq!(child_state(&parent, i), expected);
        }
    }
}
