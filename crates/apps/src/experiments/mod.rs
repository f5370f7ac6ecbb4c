//! Measurement sweeps behind the figures in BENCHMARKS.md and the reproduction report: each
//! returns rows of measurements, so a report or a test can rerun them without the command
//! line.

pub mod networks;
pub mod poll_shuffle;
