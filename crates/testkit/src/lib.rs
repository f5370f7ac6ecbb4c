//! treesplit's test kit, a dev-dependency of the other crates and never a dependency:
//!
//! - [`data`]: the fixtures in `crates/testkit/data/` (published knapsack instances with
//!   their optima, N-Queens totals, task graphs in the Standard Task Graph format, the
//!   golden corpus's digests), found by path from any crate's tests;
//! - [`support`]: task types with answers known without the library, and small helpers
//!   (a time bound for runs that might hang, balancer options set in place).
//!
//! Its own test, `tests/golden_sim.rs`, holds the simulator to a golden corpus of outputs.

pub mod data;
pub mod support;
