//! The progress indicator on stderr (used by the thread machine of `commands`): work units
//! done and the rate, shown for runs that last more than a second, only when stderr is a
//! terminal and --quiet is not given.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

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
        let bar = slot.get_or_insert_with(|| {
            let bar = ProgressBar::new_spinner();
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
