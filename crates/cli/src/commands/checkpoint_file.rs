//! What a checkpointed run may do to the file at its checkpoint path: continue from a
//! checkpoint of the same computation (a batch job requeued, a script run again, never
//! starting over), and remove, once the computation is complete, only a checkpoint it wrote
//! itself or resumed from. Anything else at the path (a user's file, a damaged checkpoint,
//! another computation's checkpoint) is bad input before the run starts, so that a mistyped
//! `--checkpoint` never costs data.

use crate::output::{Failure, Notes};
use crate::plan::input_digest::{app_words, check_unchanged};
use crate::plan::CheckpointPlan;
use std::path::Path;
use treesplit::checkpoint::{read_app, CheckpointError};

/// Whether a run of the computation `app` (the application's command-line words and its
/// inputs' digests, as the checkpoint stores them) that writes its checkpoint to `path`
/// continues from a checkpoint already there: `Ok(false)` when the path does not exist yet,
/// `Ok(true)` when it holds a checkpoint of the same computation on the same inputs, bad input
/// when it holds anything else or its inputs changed.
pub fn continues_existing(path: &Path, app: &[String]) -> Result<bool, Failure> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(false);
    }
    let keep = "treesplit continues only a checkpoint of the same computation: remove the file or choose another path";
    match read_app(path) {
        Ok(found) if app_words(&found) == app_words(app) => {
            check_unchanged(&found, app, path)?;
            Ok(true)
        }
        Ok(found) => Err(Failure::input(format!(
            "--checkpoint {}: the file holds the checkpoint of another computation ({}); {keep}",
            path.display(),
            app_words(&found).join(" ")
        ))),
        Err(CheckpointError::NotACheckpoint) => Err(Failure::input(format!(
            "--checkpoint {}: the file exists and is not a treesplit checkpoint; {keep}",
            path.display()
        ))),
        Err(e) => {
            let why = match e {
                CheckpointError::Io(_, why) => why,
                e => e.to_string(),
            };
            Err(Failure::input(format!(
                "--checkpoint {}: the file exists and is not a treesplit checkpoint that can be read ({why}); {keep}",
                path.display()
            )))
        }
    }
}

/// The computation is complete: remove its checkpoint if this run `wrote` it or resumed from
/// it; a checkpoint this run found and never touched stays as it was.
pub fn remove_when_complete(cp: &CheckpointPlan, wrote: bool, notes: Notes) {
    if !cp.path.exists() {
        return;
    }
    let resumed_from = cp.resume.as_deref().is_some_and(|r| same_file(r, &cp.path));
    if !(wrote || resumed_from) {
        notes.note(format_args!(
            "the computation is complete; the checkpoint {} was left as it was (this run did not write it)",
            cp.path.display()
        ));
        return;
    }
    match std::fs::remove_file(&cp.path) {
        Ok(()) => notes.note(format_args!(
            "the computation is complete: removed the checkpoint {}",
            cp.path.display()
        )),
        Err(e) => notes.note(format_args!(
            "the computation is complete, but the checkpoint {} could not be removed: {e}",
            cp.path.display()
        )),
    }
}

/// Whether two paths name the same file (compared canonically where both exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
