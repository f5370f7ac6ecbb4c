//! Applications for treesplit, each a [`treesplit::Task`] with a sequential baseline: N-Queens,
//! UTS (Unbalanced Tree Search), synthetic α-splitting trees, knapsack, Golomb rulers,
//! maximum clique and the travelling salesman (branch-and-bound), numerical semigroups by
//! genus, the 15-puzzle (IDA*), Mandelbrot, adaptive integration, BFS, the distributed hash
//! table and task DAGs, plus idiomatic rayon versions of some for benchmarks. Each application lives in its module: its
//! task, its [`App`] and [`app::Parse`] (the boundary to the command line: its parameters as
//! plain data, [`params::Param`], and how their values become its own instance type; the
//! crate knows no command-line library) and its instance type, which answers what the
//! commands ask of it ([`instance::Instance`]). [`registry`] lists the applications, one line
//! each, and makes from them [`AppSpec`], any application's instance as the command line and
//! the lab name it; [`app`], [`params`], [`spec`], [`instance`] and [`number`] (the shape of
//! the single-number applications, written once) are the generic machinery and name no
//! application.

pub mod app;
pub mod bfs;
pub mod dag;
pub mod error;
pub mod fib;
pub mod golomb;
pub mod hashtable;
pub mod input;
pub mod instance;
pub mod integrate;
pub mod knapsack;
pub mod mandelbrot;
pub mod maxclique;
pub mod nqueens;
pub mod number;
pub mod objective;
pub mod optimal_schedule;
pub mod params;
pub mod peers;
pub mod puzzle15;
pub mod registry;
pub mod semigroups;
pub mod space_peers;
pub mod spec;
pub mod synthetic;
pub mod treesum;
pub mod tsp;
pub mod uts;

pub use app::App;
pub use nqueens::NQueens;
pub use registry::AppSpec;
pub use synthetic::{SplitRule, Synthetic, SyntheticParams, SyntheticSum};
pub use uts::NAMED_TREES;
pub use uts::{Uts, UtsCount, UtsParams};
