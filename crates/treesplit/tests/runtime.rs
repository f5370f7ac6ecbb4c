//! The thread machine with tasks defined here: exact answers, work conservation, panics
//! that end the run with an error, termination that waits for work in transit, and runs
//! that end within a time bound.

use serde::{Deserialize, Serialize};
use std::sync::mpsc;
use std::time::Duration;
use treesplit::{run, run_sequential, Config, Context, RunError, Task, Threads};

/// Run `f` on its own thread and fail the test if it takes longer than `limit`.
fn within<R: Send + 'static>(limit: Duration, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("did not finish within {limit:?} (hang?)"))
}

/// Independent jobs over a range (paper 001 §14.5.1): the sum of f(i) for i in lo..hi,
/// split at the middle. `panic_at` makes the unit with that index panic.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Range {
    lo: u64,
    hi: u64,
    panic_at: Option<u64>,
    spin: u32,
}

fn f(i: u64, spin: u32) -> u64 {
    let mut x = i;
    for _ in 0..spin {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
            ^ (x >> 29);
    }
    x >> 40
}

impl Task for Range {
    type Output = u64;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let end = self.hi.min(self.lo + budget);
        for i in self.lo..end {
            if Some(i) == self.panic_at {
                panic!("unit {i} is poisoned");
            }
            *ctx.output() += f(i, self.spin);
        }
        let done = end - self.lo;
        self.lo = end;
        done
    }
    fn split(&mut self) -> Option<Self> {
        if self.hi - self.lo < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let upper = Range {
            lo: mid,
            ..self.clone()
        };
        self.hi = mid;
        Some(upper)
    }
    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }
}

fn range(n: u64) -> Range {
    Range {
        lo: 0,
        hi: n,
        panic_at: None,
        spin: 128,
    }
}

#[test]
fn every_p_gives_the_sequential_answer_and_conserves_work() {
    let n = 300_000;
    let seq = run_sequential(range(n));
    assert_eq!(seq.work_units, n);
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
        let root = Range {
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
