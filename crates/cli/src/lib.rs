//! The `treesplit` command line as a library: a thin layer over the `treesplit` library, the
//! applications in `treesplit-apps` and the papers' lab in `treesplit-lab`. The binary
//! (`src/main.rs`) only parses and dispatches; the tests and the fuzzer use these modules
//! directly. The layers, each importing only those below it:
//!
//! - [`flags`]: the clap definitions and which flags were given;
//! - [`plan`]: flags → a checked, typed plan (application, machine, balancer configuration,
//!   output options; the rules of which flags apply);
//! - [`commands`]: run a plan (run/sim, bench, compare, dst, depth, trees, scatter, dag,
//!   reproduce) on a machine;
//! - [`output`]: exit codes, `error: …` printing, JSON, pictures;
//! - [`duration`]: durations as the flags take them (used by `flags`).

pub mod commands;
pub mod duration;
pub mod flags;
pub mod output;
pub mod plan;
