//! Measurement sweeps behind the figures in BENCHMARKS.md and the reproduction report: each
//! returns rows of measurements, so a report, a test, the `figures` binary or `treesplit
//! depth` can rerun them without the command line.

pub mod depth;
pub mod networks;
pub mod poll_shuffle;
