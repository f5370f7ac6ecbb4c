//! The command line's face of N-Queens: its subcommand's arguments, how they become an
//! instance, and what the instance tells the commands (its task, the published counts, its
//! peers: the plain recursion, rayon, chili).

use super::NQueens;
use crate::params::{Param, Type};
use crate::peers::{chili, Peers, EVERY_NODE};
use crate::spec::Published;
use rayon::prelude::*;

crate::number::number_app! {
    /// `treesplit run nqueens N`.
    app "nqueens";
    about "N-Queens: count all solutions on an n×n board (1 ≤ n ≤ 20)";
    param Param::positional("n", Type::U32, "Board size").required();
    number u32;
    words "nqueens {}";
    /// An N-Queens instance: the board size n, checked.
    instance NQueensSpec;
    task NQueens::new;
    published published_nqueens;
    // ~6 ns per node.
    delta_t 4096;
    example ["8"];
    rayon_depth RAYON_DEPTH;
    peers NQueensPeers;
}

/// The rayon peer runs the first three rows in parallel by default.
const RAYON_DEPTH: u32 = 3;

/// Solutions of N-Queens for n = 1..=20 (OEIS A000170).
pub const NQUEENS_SOLUTIONS: [u64; 20] = [
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
];

/// The published N-Queens count for n, against `solutions`.
pub fn published_nqueens(n: u32, solutions: &u64) -> Option<Published> {
    let expected = *NQUEENS_SOLUTIONS.get(n.checked_sub(1)? as usize)?;
    Some(Published::equal("OEIS A000170", expected, solutions))
}

/// N-Queens' peers: forks over the candidate positions of the rows above a depth cut-off
/// (rayon: parallel iteration; chili: a `join` per position), the plain recursion below.
struct NQueensPeers(u32);

impl Peers for NQueensPeers {
    type Output = u64;

    fn sequential(&self) -> u64 {
        let full = (1u32 << self.0) - 1;
        seq(full, 0, 0, 0)
    }

    fn rayon(&self, cut: u32) -> u64 {
        rayon_peer(self.0, cut)
    }

    fn chili(&self, scope: &mut chili::Scope<'_>, cut: u32) -> Option<u64> {
        let full = (1u32 << self.0) - 1;
        if cut == 0 {
            return Some(seq(full, 0, 0, 0));
        }
        Some(chili_row(scope, full, 0, 0, 0, full, 0, cut))
    }

    fn cuts(&self) -> Vec<u32> {
        vec![2, 3, 4, 5, 6, EVERY_NODE]
    }
}

/// The plain recursion over the rows below one with these attacked columns and diagonals.
fn seq(full: u32, cols: u32, left: u32, right: u32) -> u64 {
    if cols == full {
        return 1;
    }
    let mut untried = full & !(cols | left | right);
    let mut count = 0;
    while untried != 0 {
        let bit = untried & untried.wrapping_neg();
        untried ^= bit;
        count += seq(full, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    count
}

/// N-Queens with chili: the first of the `untried` positions of a row at `depth` in one
/// branch of a `join`, the others in the second, above depth `cut`.
#[allow(clippy::too_many_arguments)]
fn chili_row(
    s: &mut chili::Scope<'_>,
    full: u32,
    cols: u32,
    left: u32,
    right: u32,
    untried: u32,
    depth: u32,
    cut: u32,
) -> u64 {
    if untried == 0 {
        return 0;
    }
    let bit = untried & untried.wrapping_neg();
    let place = |s: &mut chili::Scope<'_>| {
        let (cols, left, right) = (cols | bit, (left | bit) << 1, (right | bit) >> 1);
        if cols == full {
            1
        } else if depth + 1 >= cut {
            seq(full, cols, left, right)
        } else {
            let below = full & !(cols | left | right);
            chili_row(s, full, cols, left, right, below, depth + 1, cut)
        }
    };
    if untried == bit {
        return place(s);
    }
    let (a, b) = s.join(place, |s| {
        chili_row(s, full, cols, left, right, untried ^ bit, depth, cut)
    });
    a + b
}

/// N-Queens with rayon: parallel iteration over the candidate positions of the first
/// `par_depth` rows, sequential recursion below. Returns the number of solutions.
pub fn rayon_peer(n: u32, par_depth: u32) -> u64 {
    let full = (1u32 << n) - 1;
    fn par(full: u32, cols: u32, left: u32, right: u32, depth: u32) -> u64 {
        if depth == 0 || cols == full {
            return seq(full, cols, left, right);
        }
        let untried = full & !(cols | left | right);
        let bits: Vec<u32> = (0..32)
            .map(|i| 1u32 << i)
            .filter(|b| untried & b != 0)
            .collect();
        bits.into_par_iter()
            .map(|bit| {
                par(
                    full,
                    cols | bit,
                    (left | bit) << 1,
                    (right | bit) >> 1,
                    depth - 1,
                )
            })
            .sum()
    }
    par(full, 0, 0, 0, par_depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peers_count_the_published_solutions_at_every_cut() {
        let peers = NQueensPeers(9);
        let pool = crate::peers::chili_pool(2);
        assert_eq!(peers.sequential(), 352);
        for cut in peers.cuts().into_iter().chain([0, 1]) {
            assert_eq!(peers.rayon(cut), 352, "rayon at {cut}");
            assert_eq!(
                peers.chili(&mut pool.scope(), cut),
                Some(352),
                "chili at {cut}"
            );
        }
    }
}
