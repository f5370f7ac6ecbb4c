//! Drawing DST's choices by name, so that a new balancer or network adds cases and re-rolls
//! none.
//!
//! A choice drawn by position (`ALL[r.random_range(0..ALL.len())]`) moves with the list: one
//! more balancer and nearly every seed names another case. Here a choice among names is
//! drawn by rendezvous hashing ([`draw_by_name`]): each name scores a stable hash of (key,
//! name), the best score wins, so a name added anywhere in the list changes only the draws it
//! wins (about one in n + 1) and every other key draws what it drew before. The names DST drew
//! by position before it drew by name keep their positional draw among themselves (they share
//! one bucket of the rendezvous), so every seed drawn with today's lists names the case it
//! always named.
//!
//! The golden corpus (`treesplit-testkit`'s `golden_sim`) does not draw balancers or networks
//! at all: `dst::strata` lists a few cases for every (balancer, network) pair, each drawn with
//! that balancer on that network (`dst::Case::of`, whose other choices among names are made
//! among the positional names only) from the seed its name hashes to. A new balancer or
//! network adds its strata and leaves every other case as it was.

/// A stable 64-bit hash of `name` (FNV-1a, then a SplitMix64 finish): the same on every
/// platform and in every version, unlike std's hasher, and independent of where the name
/// stands in any list.
pub fn name_hash(name: &str) -> u64 {
    let fnv = name.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    });
    mix(fnv)
}

/// SplitMix64's finisher: every input bit moves every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of the draws named `what` (`"balancer"`, `"static permutation"`, …) of the case
/// drawn from `seed`: one seed's draws of different things are independent.
pub fn key(seed: u64, what: &str) -> u64 {
    mix(seed ^ name_hash(what))
}

/// The score of `name` under `key` in a rendezvous.
fn score(key: u64, name: &str) -> u64 {
    mix(key ^ name_hash(name))
}

/// One of `all`, drawn for `key` by the names `name` gives them, so that a value added to
/// `all` (anywhere in it) changes the draw only for the keys that draw it.
///
/// The values named in `positional` (a subset of `all`'s names: those drawn by position
/// before) form one bucket of `positional.len()` slots; each other value is one slot; the
/// slot with the best score for `key` wins. When the bucket wins, the value is
/// `positional[index]`, `index` drawn by the caller over `positional.len()` as it always was
/// (so with no value outside `positional`, the draw is exactly the positional one). Every
/// value is drawn with probability 1/|all|.
pub fn draw_by_name<T: Copy>(
    key: u64,
    all: &[T],
    name: impl Fn(T) -> &'static str,
    positional: &[&str],
    index: usize,
) -> T {
    let best_slot = (0..positional.len())
        .map(|i| score(key, &format!("positional slot {i}")))
        .max();
    let best_newer = all
        .iter()
        .copied()
        .filter(|&t| !positional.contains(&name(t)))
        .map(|t| (score(key, name(t)), t))
        .max_by_key(|&(s, _)| s);
    match (best_newer, best_slot) {
        (Some((s, t)), Some(slot)) if s > slot => t,
        (Some((_, t)), None) => t,
        _ => {
            let wanted = positional[index];
            all.iter()
                .copied()
                .find(|&t| name(t) == wanted)
                .unwrap_or_else(|| panic!("the positional name {wanted} is not in the list"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const NAMES: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

    fn draw(key: u64, names: &[&'static str], positional: &[&str]) -> &'static str {
        let index = (key % positional.len().max(1) as u64) as usize;
        draw_by_name(key, names, |n| n, positional, index)
    }

    #[test]
    fn the_hash_of_a_name_is_fixed() {
        // Pinned: the golden corpus's seeds are these hashes (FNV-1a of "a" is the published
        // 0xaf63dc4c8601ec8c).
        assert_eq!(name_hash(""), mix(0xCBF2_9CE4_8422_2325));
        assert_eq!(name_hash("a"), mix(0xAF63_DC4C_8601_EC8C));
        assert_eq!(name_hash("random-polling"), 0xF535_25D6_F741_2D40);
        assert_ne!(name_hash("ring"), name_hash("mesh2d"));
    }

    #[test]
    fn with_only_positional_names_the_draw_is_the_positional_one() {
        for key in 0..1000u64 {
            let index = (key % 6) as usize;
            assert_eq!(
                draw_by_name(key, &NAMES, |n| n, &NAMES, index),
                NAMES[index]
            );
        }
    }

    /// A name added to the list, at its end or anywhere in it, changes only the draws it
    /// wins, and wins about its share.
    #[test]
    fn a_new_name_changes_only_the_draws_it_wins() {
        let positional = &NAMES[..4];
        let keys = 0..60_000u64;
        let before: Vec<_> = keys.clone().map(|k| draw(k, &NAMES, positional)).collect();
        for grown in [
            vec!["a", "b", "c", "d", "e", "f", "fake"],
            vec!["fake", "a", "b", "c", "d", "e", "f"],
            vec!["f", "e", "a", "fake", "d", "c", "b"],
        ] {
            let mut won = 0;
            for (k, &old) in keys.clone().zip(&before) {
                match draw(k, &grown, positional) {
                    "fake" => won += 1,
                    new => assert_eq!(new, old, "key {k}, {grown:?}"),
                }
            }
            let share = f64::from(won) / 60_000.0;
            assert!((share - 1.0 / 7.0).abs() < 0.01, "{share}");
        }
        // Every name gets its share, the positional ones and the others alike.
        let mut counts: HashMap<&str, u32> = HashMap::new();
        for &name in &before {
            *counts.entry(name).or_default() += 1;
        }
        for name in NAMES {
            let share = f64::from(counts[name]) / 60_000.0;
            assert!((share - 1.0 / 6.0).abs() < 0.01, "{name}: {share}");
        }
    }
}
