//! `treesplit run semigroups G`: the application's command-line face, and what its instance
//! tells the commands (its task and the published counts it is checked against, OEIS
//! A007323).

use crate::params::{Param, Type};
use crate::spec::Published;

crate::number::number_app! {
    /// `treesplit run semigroups G`.
    app "semigroups";
    about "Count the numerical semigroups of each genus 0..=G (the tree of Bras-Amorós and Fromentin–Hivert), checked against OEIS A007323";
    param Param::positional("genus", Type::U32, "The largest genus G").required();
    number u32;
    words "semigroups {}";
    /// A count of numerical semigroups up to a genus (at most [`super::MAX_GENUS`]).
    instance SemigroupsSpec;
    task super::count;
    published published_semigroups;
    // ~30–100 ns per semigroup (a copy of 3G + 2 decomposition numbers).
    delta_t 256;
    example ["12"];
    peers peers;
}

/// The numbers of numerical semigroups of genus 0..=30 (OEIS A007323).
pub const A007323: [u64; 31] = [
    1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693, 2857, 4806, 8045, 13467, 22464,
    37396, 62194, 103246, 170963, 282828, 467224, 770832, 1270267, 2091030, 3437839, 5646773,
];

/// The published counts for genus 0..=G against the counts found (none beyond genus 30).
pub fn published_semigroups(genus: u32, found: &super::Counts) -> Option<Published> {
    let counts = &found.counts[..];
    let expected = A007323.get(..=genus as usize)?;
    Some(Published {
        source: "OEIS A007323".into(),
        value: format!(
            "{} by genus 0..={genus}",
            expected
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ),
        matches: counts == expected,
    })
}

/// The skeleton enumeration of the semigroups up to `genus` and its peers.
fn peers(genus: u32) -> crate::space_peers::EnumerationPeers<super::SemigroupSpace> {
    let space = super::SemigroupSpace::new(genus).expect("a validated genus");
    crate::space_peers::EnumerationPeers(space)
}
