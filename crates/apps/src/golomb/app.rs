//! The command line's face of Golomb rulers: its subcommand's arguments, how they become an
//! instance, and what the instance tells the commands (its task, the published optimal
//! lengths, that it is a search).

use super::{is_golomb, Golomb, Ruler};
use crate::params::{Param, Type};
use crate::spec::Published;

crate::number::number_app! {
    /// `treesplit run golomb N`.
    app "golomb";
    about "An optimal (shortest) Golomb ruler with n marks, 2 ≤ n ≤ 16";
    param Param::positional("n", Type::Usize, "Number of marks").required();
    number usize;
    words "golomb {}";
    /// A Golomb ruler instance: the number of marks n, checked.
    instance GolombSpec;
    task Golomb::new;
    published published_golomb;
    // ~10 ns per candidate.
    delta_t 2048;
    example ["6"];
    // Branch-and-bound.
    optimization true;
}

/// Optimal Golomb ruler lengths for n = 2..=16 marks (OEIS A003022).
pub const GOLOMB_LENGTHS: [u32; 15] = [1, 3, 6, 11, 17, 25, 34, 44, 55, 72, 85, 106, 127, 151, 177];

/// The published optimal length for n marks, against a ruler (checked to be a Golomb ruler).
pub fn published_golomb(n: usize, ruler: &Ruler) -> Option<Published> {
    let marks = &ruler.marks;
    let expected = *GOLOMB_LENGTHS.get(n.checked_sub(2)?)?;
    Some(Published {
        source: "OEIS A003022".into(),
        value: format!("length {expected}"),
        matches: marks.len() == n && marks.last() == Some(&expected) && is_golomb(marks),
    })
}
