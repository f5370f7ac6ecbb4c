//! An application instance as plain data (what the command line names): used to build the
//! task, to describe it, and to write the command line that reproduces a run.

use crate::synthetic::{SplitRule, SyntheticParams};
use crate::uts::UtsParams;

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
