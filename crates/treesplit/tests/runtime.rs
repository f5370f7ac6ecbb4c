//! The thread machine with tasks defined here: exact answers, work conservation, panics
//! that end the run with an error, termination that waits for work in transit, and runs
//! that end within a time bound.

mod support;

use serde::{Deserialize, Serialize};
use std::time::Duration;
use support::{within, RangeSum};
use treesplit::{run, run_sequential, Config, Context, RunError, Task, Threads};

/// Σ f(i) over 0..n with a costly f (128 rounds of mixing per unit).
fn range(n: u64) -> RangeSum {
    RangeSum::spinning(n, 128)
}

#[test]
fn every_p_gives_the_sequential_answer_and_conserves_work() {
    let n = 300_000;
    let seq = run_sequential(range(n));
    assert_eq!(seq.work_units, n);
    assert_eq!(seq.output, range(n).expected());
    for p in [1, 2, 3, 4, 7, 16] {
        for seed in [1, 2, 3] {
            let cfg = Config::new(p).delta_t(64).seed(seed);
            let r = within(Duration::from_secs(60), move || {
                run(range(n), &cfg).unwrap()
            });
            assert_eq!(r.output, seq.output, "P={p} seed={seed}");
            assert_eq!(
                r.totals.work_units, n,
                "P={p} seed={seed}: work not conserved"
            );
            assert_eq!(r.per_pe.len(), p);
            if p > 1 {
                assert!(
                    r.totals.splits > 0,
                    "P={p}: no split happened, the test exercised nothing\n{}",
                    r.summary()
                );
                assert_eq!(
                    r.totals.pieces_received, r.totals.splits,
                    "every split piece is received once"
                );
            }
        }
    }
}

#[test]
fn more_pes_than_cores() {
    let cfg = Config::new(64).delta_t(32);
    let r = within(Duration::from_secs(60), move || {
        run(range(200_000), &cfg).unwrap()
    });
    assert_eq!(r.totals.work_units, 200_000);
    assert_eq!(r.output, run_sequential(range(200_000)).output);
}

#[test]
fn a_panicking_task_ends_the_run_with_an_error_naming_the_pe() {
    for p in [1, 2, 4, 9] {
        let root = RangeSum {
            panic_at: Some(150_000),
            ..range(200_000)
        };
        let cfg = Config::new(p).delta_t(64);
        let err = within(Duration::from_secs(60), move || {
            run(root, &cfg).unwrap_err()
        });
        match err {
            RunError::PePanicked { pe, message } => {
                assert!(pe < p);
                assert!(message.contains("unit 150000 is poisoned"), "{message}");
            }
            other => panic!("P={p}: expected a panic error, got {other}"),
        }
    }
}

#[test]
fn termination_waits_for_work_in_transit() {
    // Every message PE 1 sends (the pieces it splits off, its termination reports)
    // arrives 30 ms late, so for long stretches every PE looks idle while work is in flight.
    for p in [2, 3, 5] {
        let n = 50_000;
        let expected = run_sequential(range(n)).output;
        let cfg = Config::new(p).delta_t(16).seed(7);
        let r = within(Duration::from_secs(60), move || {
            Threads::new()
                .delay_messages_from(1, Duration::from_millis(30))
                .run(range(n), &cfg)
                .unwrap()
        });
        assert_eq!(r.totals.work_units, n, "P={p}");
        assert_eq!(r.output, expected, "P={p}");
    }
}

/// A task that claims work but never makes progress.
#[derive(Clone, Serialize, Deserialize)]
struct Stuck;

impl Task for Stuck {
    type Output = ();
    fn work(&mut self, _budget: u64, _ctx: &mut Context<'_, ()>) -> u64 {
        0
    }
    fn split(&mut self) -> Option<Self> {
        None
    }
    fn is_empty(&self) -> bool {
        false
    }
}

#[test]
fn a_task_that_makes_no_progress_is_an_error_not_a_hang() {
    let err = within(Duration::from_secs(30), || {
        run(Stuck, &Config::new(2)).unwrap_err()
    });
    assert!(
        matches!(&err, RunError::PePanicked { pe: 0, message } if message.contains("no progress")),
        "{err}"
    );
}

#[test]
fn bad_configurations_are_rejected() {
    assert!(matches!(
        run(range(10), &Config::new(0)),
        Err(RunError::InvalidConfig(_))
    ));
    assert!(matches!(
        run(range(10), &Config::new(2).delta_t(0)),
        Err(RunError::InvalidConfig(_))
    ));
}

#[test]
fn an_empty_root_finishes_at_once() {
    for p in [1, 4] {
        let r = within(Duration::from_secs(10), move || {
            run(range(0), &Config::new(p)).unwrap()
        });
        assert_eq!(r.totals.work_units, 0);
        assert_eq!(r.output, 0);
    }
}
