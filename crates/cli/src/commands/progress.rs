//! The progress indicators on stderr, drawn only when stderr is a terminal and neither
//! `--quiet` nor `--json` is given: for thread runs, work units done and the rate (shown for
//! runs that last more than a second); for the other commands ([`steps`]) a bar over their
//! steps (compare's balancers, dst's cases) or, for one simulation, a spinner with the elapsed
//! time; and progress lines ([`line()`]) where a command shows no bar. `bench`, which may run
//! for minutes, prints a line per measurement as it goes ([`measured`]), to a terminal or not.

use crate::output::Notes;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

/// A bar over `len` steps (a spinner with the elapsed time when `len` is 0) labelled `what`;
/// hidden unless `enabled` and stderr is a terminal. Clear it with `finish_and_clear`.
pub fn steps(len: u64, what: &str, enabled: bool) -> ProgressBar {
    if !enabled || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = if len == 0 {
        (ProgressBar::new_spinner(), "{spinner} {elapsed} {msg}")
    } else {
        (
            ProgressBar::new(len),
            "{msg} [{bar:30}] {pos}/{len} {elapsed} (eta {eta})",
        )
    };
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A progress line (a command's step done, the time so far) on stderr: only when stderr is a
/// terminal and notes are on, so that a log file or a pipe gets results, not progress.
pub fn line(notes: Notes, text: impl std::fmt::Display) {
    if std::io::stderr().is_terminal() {
        notes.note(text);
    }
}

/// One measurement of `bench` done (what, and its time): a line on stderr unless `enabled` is
/// false (`--quiet`, `--json`), also when stderr is a file, so that a long benchmark's log
/// shows where it is.
pub fn measured(enabled: bool, what: impl std::fmt::Display, seconds: f64) {
    if enabled {
        eprintln!("bench: {what}: {seconds:.4} s");
    }
}

pub struct Progress {
    enabled: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Progress {
    pub fn new(quiet: bool) -> Self {
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            bar: Mutex::new(None),
        }
    }

    /// Called by the machine about ten times a second.
    pub fn update(&self, units: u64, elapsed: Duration) {
        if !self.enabled || elapsed < Duration::from_secs(1) {
            return;
        }
        let mut slot = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        // The spinner appears only once the run has lasted a second; its clock starts with
        // the run, not with the spinner.
        let bar = slot.get_or_insert_with(|| {
            let bar = ProgressBar::new_spinner().with_elapsed(elapsed);
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        let rate = units as f64 / elapsed.as_secs_f64();
        bar.set_message(format!("{units} work units, {:.2} M units/s", rate / 1e6));
        bar.tick();
    }

    pub fn finish(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spinner_clock_counts_from_the_start_of_the_run() {
        // Enabled as on a terminal (indicatif draws nothing when stderr is not one).
        let progress = Progress {
            enabled: true,
            bar: Mutex::new(None),
        };
        progress.update(10, Duration::from_millis(500));
        assert!(
            progress.bar.lock().unwrap().is_none(),
            "no spinner before a second"
        );
        progress.update(1_000, Duration::from_secs(3));
        let elapsed = progress
            .bar
            .lock()
            .unwrap()
            .as_ref()
            .map(ProgressBar::elapsed);
        let elapsed = elapsed.expect("a spinner after a second");
        assert!(elapsed >= Duration::from_secs(3), "clock shows {elapsed:?}");
        progress.finish();
    }
}
