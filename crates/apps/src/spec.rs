//! An application instance as plain data (what the command line names): used to build the
//! task, to describe it, to check its result against the published answer, and to write the
//! command line that reproduces a run. [`AppSpec::visit`] is the one place that turns an
//! instance into its concrete task type.

use crate::synthetic::{SplitRule, Synthetic, SyntheticParams};
use crate::uts::{Uts, UtsParams};
use crate::NQueens;
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::Task;

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

/// A published answer and whether a result reproduced it.
#[derive(Debug, Clone, Serialize)]
pub struct Published {
    /// Where the answer comes from.
    pub source: String,
    /// The answer.
    pub value: String,
    /// The result equals it.
    pub matches: bool,
}

/// Something done with an application's task, whatever its type (see [`AppSpec::visit`]).
pub trait AppVisitor {
    /// What the visit returns.
    type Out;
    /// Work with the task built by `make_root`; `published` checks a result against the
    /// published answer, where there is one.
    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        published: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug;
}

/// One application instance.
#[derive(Debug, Clone, PartialEq)]
pub enum AppSpec {
    /// N-Queens on an n×n board.
    NQueens(u32),
    /// A UTS tree.
    Uts(UtsParams),
    /// A synthetic α-splitting tree.
    Synthetic(SyntheticParams),
}

impl AppSpec {
    /// Hand the instance's task constructor and published-answer check to `visitor`. The
    /// instance must be valid (as `from_args` and `dst::Case::random` make them).
    pub fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        match *self {
            AppSpec::NQueens(n) => visitor.visit(
                move || NQueens::new(n).expect("a validated N-Queens instance"),
                move |s| published_nqueens(n, *s),
            ),
            AppSpec::Uts(p) => {
                visitor.visit(move || Uts::new(p), move |c| published_uts(&p, c.nodes))
            }
            AppSpec::Synthetic(p) => visitor.visit(
                move || Synthetic::new(p).expect("validated synthetic parameters"),
                move |s| published_synthetic(&p, s.units),
            ),
        }
    }

    /// The application's arguments on the `treesplit` command line.
    pub fn cli_args(&self) -> String {
        match self {
            AppSpec::NQueens(n) => format!("nqueens {n}"),
            AppSpec::Uts(p) => format!("uts {p}"),
            AppSpec::Synthetic(p) => format!(
                "synthetic --work {} --alpha {} --atomic {} --split {} --spin {} --tree-seed {}",
                p.work,
                p.alpha,
                p.atomic,
                match p.rule {
                    SplitRule::Random => "random",
                    SplitRule::Adversarial => "adversarial",
                },
                p.spin,
                p.seed
            ),
        }
    }

    /// A short description, naming UTS trees that have a name.
    pub fn describe(&self) -> String {
        match self {
            AppSpec::Uts(p) => match p.published_nodes() {
                Some((name, _)) => format!("uts {name} ({p})"),
                None => format!("uts {p}"),
            },
            other => other.cli_args(),
        }
    }

    /// Δt in work units for about 10–25 µs of real work per slice on a current core: short
    /// enough that requests are answered quickly, long enough that polling costs about 1 %.
    pub fn default_delta_t(&self) -> u64 {
        match self {
            AppSpec::NQueens(_) => 4096, // ~6 ns per node
            AppSpec::Uts(_) => 256,      // ~55 ns per node (one SHA-1)
            AppSpec::Synthetic(p) => (8192 / u64::from(p.spin.max(1))).max(16), // ~1.5 ns per mixer round
        }
    }
}

/// The published N-Queens count for n, against `solutions`.
pub fn published_nqueens(n: u32, solutions: u64) -> Option<Published> {
    let expected = *NQUEENS_SOLUTIONS.get(n.checked_sub(1)? as usize)?;
    Some(Published {
        source: "OEIS A000170".into(),
        value: expected.to_string(),
        matches: expected == solutions,
    })
}

/// The published node count of a named UTS tree, against `nodes`.
pub fn published_uts(p: &UtsParams, nodes: u64) -> Option<Published> {
    let (name, expected) = p.published_nodes()?;
    Some(Published {
        source: format!("UTS published node count of {name}"),
        value: format!("{expected} nodes"),
        matches: expected == nodes,
    })
}

/// The known total work of a synthetic tree, against the units done.
pub fn published_synthetic(p: &SyntheticParams, units: u64) -> Option<Published> {
    Some(Published {
        source: "known total work".into(),
        value: format!("{} units", p.work),
        matches: units == p.work,
    })
}
