//! Part of the plan layer: where a run's timeline goes (`--trace`, `--gantt`), checked with
//! the command's other outputs under the output rule (`output::paths`) before the run, and
//! how many events each PE keeps for it.

use crate::output::{paths, plot, Failure, Notes};
use std::path::PathBuf;
use treesplit::timeline::DEFAULT_TRACE_CAPACITY;

/// Events a trace keeps in all PEs together, at most: 2^24 events are a Chrome trace of about
/// 1.5 GB, already more than Perfetto's web page opens, and rings of 384 MiB. Beyond
/// `TRACE_EVENTS / DEFAULT_TRACE_CAPACITY` (256) PEs each PE keeps its last `TRACE_EVENTS / P`
/// events instead of `DEFAULT_TRACE_CAPACITY`, which the run says.
pub const TRACE_EVENTS: usize = 1 << 24;

/// The events each of `pes` PEs keeps for a trace (a power of two, at least 1), and a note
/// when that is fewer than `DEFAULT_TRACE_CAPACITY`.
pub fn trace_capacity(pes: usize, notes: &Notes) -> usize {
    let each = (TRACE_EVENTS / pes.max(1)).max(1);
    let each = (1usize << each.ilog2()).min(DEFAULT_TRACE_CAPACITY);
    if each < DEFAULT_TRACE_CAPACITY {
        notes.note(format_args!(
            "the timeline: {pes} PEs keep their last {each} events each ({} events in all at most)",
            TRACE_EVENTS
        ));
    }
    each
}

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
