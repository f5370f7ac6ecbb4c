//! Measurement sweeps that reports and BENCHMARKS.md call: each returns rows, so a report
//! can print or check them without re-running the command line.

pub mod poll_shuffle;
