//! Reproducible parameter sweeps behind the figures in BENCHMARKS.md: each returns rows of
//! measurements, so that a report (or a test) can rerun them.

pub mod networks;
