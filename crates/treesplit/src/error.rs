//! Errors a run can end with, and how a panic caught on a PE becomes one.
//!
//! Panics the library catches and reports itself print nothing on their own: inside
//! `catch_quietly` the panic hook stays silent (the message travels in the error), so a
//! user sees one `error: …` line instead of a raw `thread 'pe-3' panicked at file:line`.
//! A panic whose location lies in this crate's own source is a broken invariant of the
//! library ([`RunError::Internal`]); one elsewhere is the user's code ([`RunError::PePanicked`]);
//! the contract checks raise [`RunError::ContractViolated`] (see `crate::check`). When
//! `RUST_BACKTRACE` (or `RUST_LIB_BACKTRACE`) asks for one, the silent hook captures the
//! panic's backtrace too, and the error carries it.

use crate::config::ConfigError;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

/// Why a run failed. (A run that a limit or an interrupt stopped did not fail: it ends in
/// [`crate::Ended::Stopped`].)
#[derive(Debug, Clone)]
pub enum RunError {
    /// The configuration is unusable.
    InvalidConfig(ConfigError),
    /// User code panicked on a PE; the run was aborted.
    PePanicked {
        /// The PE that panicked.
        pe: usize,
        /// The panic message.
        message: String,
        /// Where in the source it panicked (`file:line:column`), when known.
        location: Option<String>,
        /// The stack at the panic, when `RUST_BACKTRACE` asked for one (not compared by `==`).
        backtrace: Option<String>,
    },
    /// The machine could not run (e.g. a thread could not be spawned).
    Machine(String),
    /// An internal invariant failed: work was lost or duplicated, or the library's own code
    /// panicked. Always a bug of treesplit.
    Internal(String),
    /// A user's task broke the [`crate::Task`] contract (found by `Config::check`, or the
    /// cheap checks every debug build makes). A failed run, not a wrong answer: the answer
    /// was never produced.
    ContractViolated {
        /// The PE that found it.
        pe: usize,
        /// What was broken, and by which piece.
        what: String,
    },
    /// A checked run's result or work units differ from the sequential run's
    /// (`crate::check::against_sequential`): a wrong answer.
    WrongAnswer(String),
}

impl PartialEq for RunError {
    fn eq(&self, other: &Self) -> bool {
        use RunError::*;
        match (self, other) {
            (InvalidConfig(a), InvalidConfig(b)) => a == b,
            (
                PePanicked {
                    pe: a,
                    message: m,
                    location: l,
                    ..
                },
                PePanicked {
                    pe: b,
                    message: n,
                    location: k,
                    ..
                },
            ) => a == b && m == n && l == k,
            (Machine(a), Machine(b)) | (Internal(a), Internal(b)) => a == b,
            (WrongAnswer(a), WrongAnswer(b)) => a == b,
            (ContractViolated { pe: a, what: w }, ContractViolated { pe: b, what: v }) => {
                a == b && w == v
            }
            _ => false,
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::InvalidConfig(m) => write!(f, "invalid configuration: {m}"),
            RunError::PePanicked {
                pe,
                message,
                location,
                backtrace,
            } => {
                write!(f, "PE {pe} panicked: {message}")?;
                if let Some(at) = location {
                    write!(f, " ({at})")?;
                }
                match backtrace {
                    Some(trace) => write!(f, "\nstack backtrace of PE {pe}:\n{trace}"),
                    None => Ok(()),
                }
            }
            RunError::Machine(m) => write!(f, "machine error: {m}"),
            RunError::Internal(m) => write!(f, "internal error (a treesplit bug): {m}"),
            RunError::ContractViolated { pe, what } => {
                write!(f, "the task broke its contract on PE {pe}: {what}")
            }
            RunError::WrongAnswer(m) => write!(f, "wrong answer: {m}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<ConfigError> for RunError {
    fn from(e: ConfigError) -> Self {
        RunError::InvalidConfig(e)
    }
}

/// The text of a panic payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(v) = payload.downcast_ref::<Violation>() {
        v.0.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

/// The payload of a contract violation: raised with `resume_unwind` (no hook, no location)
/// and turned into [`RunError::ContractViolated`] where the PE's panic is caught.
#[derive(Debug)]
pub(crate) struct Violation(pub String);

/// Raise a contract violation on this PE.
pub(crate) fn violation(what: String) -> ! {
    std::panic::resume_unwind(Box::new(Violation(what)))
}

thread_local! {
    /// Depth of `catch_quietly` regions on this thread.
    static QUIET: Cell<u32> = const { Cell::new(0) };
    /// Where the last quiet panic happened (file, line, column), to tell the library's from
    /// the user's and to say where.
    static LOCATION: RefCell<Option<(String, u32, u32)>> = const { RefCell::new(None) };
    /// The last quiet panic's backtrace, when `RUST_BACKTRACE` asked for one.
    static BACKTRACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The current stack, when the environment asks for backtraces (`Backtrace::capture` reads
/// `RUST_LIB_BACKTRACE` and `RUST_BACKTRACE`), else `None`; short as std's own hook prints
/// it unless `RUST_BACKTRACE=full`.
fn capture_backtrace() -> Option<String> {
    let trace = std::backtrace::Backtrace::capture();
    if trace.status() != std::backtrace::BacktraceStatus::Captured {
        return None;
    }
    let full = std::env::var("RUST_BACKTRACE").is_ok_and(|v| v == "full");
    Some(if full {
        trace.to_string().trim_end().to_string()
    } else {
        short_backtrace(&trace.to_string())
    })
}

/// A backtrace's frames between the panic machinery and the thread's start, as std's short
/// backtraces: from the frame after `__rust_end_short_backtrace` (this hook and std's panic
/// handling) to the one before `__rust_begin_short_backtrace`, renumbered from 0.
fn short_backtrace(full: &str) -> String {
    // Each frame: a line `N: name`, then its `at file:line` lines.
    let mut frames: Vec<Vec<&str>> = Vec::new();
    for line in full.lines() {
        let numbered = line
            .trim_start()
            .split_once(": ")
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        match frames.last_mut() {
            Some(frame) if !numbered => frame.push(line),
            _ => frames.push(vec![line]),
        }
    }
    let name = |f: &Vec<&str>, what: &str| f.first().is_some_and(|l| l.contains(what));
    let start = frames
        .iter()
        .rposition(|f| name(f, "__rust_end_short_backtrace"))
        .map_or(0, |i| i + 1);
    let end = frames
        .iter()
        .position(|f| name(f, "__rust_begin_short_backtrace"))
        .filter(|&e| e > start)
        .unwrap_or(frames.len());
    let mut out = String::new();
    for (i, frame) in frames[start..end].iter().enumerate() {
        let (_, name) = frame[0]
            .trim_start()
            .split_once(": ")
            .unwrap_or(("", frame[0]));
        out += &format!("{i:>4}: {name}\n");
        for line in &frame[1..] {
            out += line;
            out.push('\n');
        }
    }
    out + "note: some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace."
}

/// This crate's source directory as the compiler names it (`…/treesplit/src/`).
fn own_source_dir() -> &'static str {
    let me = file!();
    me.strip_suffix("error.rs").unwrap_or(me)
}

/// Install (once) a panic hook that stays silent inside [`catch_quietly`] and records the
/// panic's location there; elsewhere it hands over to the hook that was installed before.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) > 0 {
                let at = info
                    .location()
                    .map(|l| (l.file().to_string(), l.line(), l.column()));
                LOCATION.with(|l| *l.borrow_mut() = at);
                BACKTRACE.with(|b| *b.borrow_mut() = capture_backtrace());
                return;
            }
            previous(info)
        }));
    });
}

/// Run `f`, catching a panic without printing it (turn the payload into the PE's error with
/// [`panic_error`]).
pub(crate) fn catch_quietly<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    install_hook();
    QUIET.with(|q| q.set(q.get() + 1));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get() - 1));
    outcome
}

/// The error of a panic caught on PE `pe`: a contract violation, a library bug (the panic
/// happened in this crate's source) or a panic of user code.
pub(crate) fn panic_error(pe: usize, payload: Box<dyn Any + Send>) -> RunError {
    let payload = match payload.downcast::<Violation>() {
        Ok(v) => return RunError::ContractViolated { pe, what: v.0 },
        Err(p) => p,
    };
    let message = panic_message(&*payload);
    let backtrace = BACKTRACE.with(|b| b.borrow_mut().take());
    match LOCATION.with(|l| l.borrow_mut().take()) {
        Some((file, ..)) if file.starts_with(own_source_dir()) => {
            let trace = backtrace
                .map(|t| format!("\nstack backtrace of PE {pe}:\n{t}"))
                .unwrap_or_default();
            RunError::Internal(format!("PE {pe}: {message}{trace}"))
        }
        at => RunError::PePanicked {
            pe,
            message,
            location: at.map(|(file, line, column)| format!("{file}:{line}:{column}")),
            backtrace,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caught_panics_are_classified_by_where_they_happened() {
        // This file is the library's own source: a panic here is a broken invariant.
        let payload = catch_quietly(|| panic!("a broken invariant")).unwrap_err();
        // (With RUST_BACKTRACE set, the stack follows the message.)
        match panic_error(3, payload) {
            RunError::Internal(m) => assert!(m.starts_with("PE 3: a broken invariant"), "{m}"),
            other => panic!("{other:?}"),
        }
        let payload = catch_quietly(|| violation("work overran".into())).unwrap_err();
        assert_eq!(
            panic_error(1, payload),
            RunError::ContractViolated {
                pe: 1,
                what: "work overran".into()
            }
        );
        // Outside a quiet region the previous hook is in charge again.
        assert_eq!(QUIET.with(Cell::get), 0);
    }

    #[test]
    fn short_backtraces_keep_the_frames_between_the_panic_and_the_threads_start() {
        let full = "   0: treesplit::error::capture_backtrace
             at ./src/error.rs:1:1
   1: std::sys::backtrace::__rust_end_short_backtrace
   2: core::panicking::panic_fmt
             at core/src/panicking.rs:80:14
   3: user::task::work
             at ./src/task.rs:9:5
   4: std::sys::backtrace::__rust_begin_short_backtrace
   5: start_thread";
        let short = short_backtrace(full);
        assert!(
            short.starts_with(
                "   0: core::panicking::panic_fmt
             at core/src/panicking.rs:80:14
   1: user::task::work
             at ./src/task.rs:9:5
note: some details are omitted"
            ),
            "{short}"
        );
        // Without the markers, every frame stays.
        assert!(short_backtrace("   0: a\n   1: b").starts_with("   0: a\n   1: b\nnote"));
    }
}
