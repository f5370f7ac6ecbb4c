//! The command line's face of N-Queens: its subcommand's arguments, how they become an
//! instance, and what the instance tells the commands (its task, the published counts, its
//! rayon peer).

use super::NQueens;
use crate::instance::{Instance, PeerVisitor};
use crate::spec::{AppVisitor, Published};
use rayon::prelude::*;

/// `treesplit run nqueens N`.
pub struct App;

/// N-Queens: count all solutions on an n×n board (1 ≤ n ≤ 20).
#[derive(Debug, clap::Args)]
struct Args {
    /// Board size.
    n: u32,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "nqueens"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<crate::AppSpec, String> {
        let Args { n } = crate::app::typed(args)?;
        NQueens::new(n)?;
        Ok(NQueensSpec(n).into())
    }

    fn rayon_depth(&self) -> Option<u32> {
        Some(RAYON_DEPTH)
    }

    fn example(&self) -> &'static [&'static str] {
        &["8"]
    }
}

/// The rayon peer runs the first three rows in parallel by default.
const RAYON_DEPTH: u32 = 3;

/// An N-Queens instance: the board size n, checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NQueensSpec(pub u32);

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
pub fn published_nqueens(n: u32, solutions: u64) -> Option<Published> {
    let expected = *NQUEENS_SOLUTIONS.get(n.checked_sub(1)? as usize)?;
    Some(Published {
        source: "OEIS A000170".into(),
        value: expected.to_string(),
        matches: expected == solutions,
    })
}

impl Instance for NQueensSpec {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let n = self.0;
        visitor.visit(
            move || NQueens::new(n).expect("a validated N-Queens instance"),
            move |s| published_nqueens(n, *s),
        )
    }

    fn cli_args(&self) -> String {
        format!("nqueens {}", self.0)
    }

    /// ~6 ns per node.
    fn default_delta_t(&self) -> u64 {
        4096
    }

    fn visit_peer<V: PeerVisitor>(&self, visitor: V, rayon_depth: Option<u32>) -> Option<V::Out> {
        let (n, depth) = (self.0, rayon_depth.unwrap_or(RAYON_DEPTH));
        Some(visitor.visit(
            move || NQueens::new(n).expect("a validated N-Queens instance"),
            move || rayon_peer(n, depth),
        ))
    }
}

/// N-Queens with rayon: parallel iteration over the candidate positions of the first
/// `par_depth` rows, sequential recursion below. Returns the number of solutions.
pub fn rayon_peer(n: u32, par_depth: u32) -> u64 {
    let full = (1u32 << n) - 1;
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
