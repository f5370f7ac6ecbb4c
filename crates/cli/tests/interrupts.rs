//! The first Ctrl-C (SIGINT) stops every kind of real run at once with what it has: a run
//! timing its sequential baseline first (`--baseline`), and an application that runs as a
//! sequence of computations (puzzle15's IDA* iterations) with how far it came. Exit 1, never
//! a process killed by the signal.

mod support;

use std::process::{Command, Output, Stdio};
use std::time::Duration;
use support::{stderr, stdout, wait};

/// Start `treesplit args`, send SIGINT after `after`, and wait for its end (a run that does
/// not stop is caught by the runner's hang limit).
fn interrupt(args: &[&str], after: Duration) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    wait(child, &format!("treesplit {args:?} after SIGINT"))
}

/// N-Queens 18 takes hours sequentially: the interrupt must reach the baseline.
#[test]
fn ctrl_c_stops_the_sequential_baseline_and_the_run() {
    let o = interrupt(
        &["run", "nqueens", "18", "--pes", "2", "--baseline"],
        Duration::from_millis(1000),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("partial, stopped by an interrupt"),
        "{}",
        stdout(&o)
    );
    // The baseline did not finish, so the report has no T_seq.
    assert!(!stdout(&o).contains("T_seq"), "{}", stdout(&o));
}

/// Korf's instance 88 needs billions of nodes: an interrupt stops the iteration running and
/// says which threshold it reached.
#[test]
fn ctrl_c_stops_an_ida_star_sequence_with_how_far_it_came() {
    let o = interrupt(
        &["run", "puzzle15", "--korf", "88", "--pes", "2"],
        Duration::from_millis(1000),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("stopped by an interrupt at threshold")
            && err.contains("nodes generated in all"),
        "{err}"
    );
}
