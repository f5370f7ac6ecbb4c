//! Applications for treesplit, each a [`treesplit::Task`] with a sequential baseline:
//! N-Queens, UTS (Unbalanced Tree Search) and synthetic α-splitting trees, plus idiomatic
//! rayon versions of the same computations for benchmarks.

pub mod compact;
pub mod dag;
pub mod experiments;
pub mod golomb;
pub mod hashtable;
pub mod knapsack;
pub mod nqueens;
pub mod optimal_schedule;
pub mod puzzle15;
pub mod rayon_peers;
pub mod scatter;
pub mod synthetic;
pub mod uts;

pub use nqueens::NQueens;
pub use synthetic::{SplitRule, Synthetic, SyntheticParams, SyntheticSum};
pub use uts::{Uts, UtsCount, UtsParams};
pub mod dst;
pub mod dst_systems;
pub mod spec;

pub use spec::AppSpec;
pub mod bfs;
pub mod integrate;
pub mod mandelbrot;
pub mod reproduce;
