//! Applications for treesplit, each a [`treesplit::Task`] with a sequential baseline: N-Queens,
//! UTS (Unbalanced Tree Search), synthetic α-splitting trees, knapsack and Golomb rulers
//! (branch-and-bound), the 15-puzzle (IDA*), Mandelbrot, adaptive integration, BFS, the
//! distributed hash table and task DAGs, plus idiomatic rayon versions of some for
//! benchmarks. [`spec`] names each application with its parameters, as the command line and
//! the lab choose them; [`app`] is the boundary to the command line (each application's
//! arguments and what it tells the commands about itself, [`instance`]), and [`registry`]
//! lists the applications, one line each.

pub mod app;
pub mod bfs;
pub mod dag;
pub mod golomb;
pub mod hashtable;
pub mod instance;
pub mod integrate;
pub mod knapsack;
pub mod mandelbrot;
pub mod nqueens;
pub mod objective;
pub mod optimal_schedule;
pub mod puzzle15;
pub mod rayon_peers;
pub mod registry;
pub mod spec;
pub mod synthetic;
pub mod uts;

pub use app::App;
pub use nqueens::NQueens;
pub use spec::AppSpec;
pub use synthetic::{SplitRule, Synthetic, SyntheticParams, SyntheticSum};
pub use uts::NAMED_TREES;
pub use uts::{Uts, UtsCount, UtsParams};
