//! Part of the plan layer: where a run's timeline goes (`--trace`, `--gantt`), checked with
//! the command's other outputs under the output rule (`output::paths`) before the run.

use crate::output::{paths, plot, Failure};
use std::path::PathBuf;

/// Where a run's timeline goes: `--trace` (Chrome trace JSON) and `--gantt` (a picture; the
/// simulator draws its own segments, real machines the recorded trace). Both paths were
/// checked writable when the plan was made, so a bad path fails before the run.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    pub trace: Option<PathBuf>,
    pub gantt: Option<PathBuf>,
}

impl Timeline {
    /// Check the paths: the picture's type, and the output rule ([`paths`]) for both with the
    /// command's `other` outputs, against the files the run reads (`inputs`).
    pub(super) fn checked(
        trace: Option<PathBuf>,
        gantt: Option<PathBuf>,
        other: &[paths::Output],
        inputs: &[PathBuf],
    ) -> Result<Self, Failure> {
        if let Some(path) = &gantt {
            plot::check_path(path, "--gantt").map_err(Failure::input)?;
        }
        let timeline = Timeline { trace, gantt };
        let mut outputs = other.to_vec();
        outputs.extend(timeline.outputs());
        paths::check(&outputs, inputs)?;
        Ok(timeline)
    }

    /// The files the timeline goes to.
    pub(super) fn outputs(&self) -> Vec<paths::Output> {
        let gantt = self
            .gantt
            .as_deref()
            .map(|p| paths::Output::new("--gantt", p, paths::Kind::Picture));
        let trace = self
            .trace
            .as_deref()
            .map(|p| paths::Output::new("--trace", p, paths::Kind::Trace));
        gantt.into_iter().chain(trace).collect()
    }
}
