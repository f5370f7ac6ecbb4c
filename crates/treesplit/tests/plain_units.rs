//! A task's promise of plain units (`Task::plain_units`) and the simulator's lazy run-ahead
//! it allows: a run whose task promises is the same run, report for report (timeline, events
//! and every figure), as one whose task does not, under every balancer (those that never run
//! ahead, poll-and-shuffle and the static ones, compare trivially) and on several networks,
//! with probes that cost T_poll or not, on one engine thread or several, while working fewer units; a broken promise stops the
//! run with `RunError::ContractViolated` and is caught by `check::work_composes`.

use serde::{Deserialize, Serialize};
use std::cell::Cell;
use treesplit::machine::sim::{Delay, Topology};
use treesplit::{
    check, run_sequential, simulate, BalancerKind, Config, Context, RunError, SimConfig, Task,
};

/// What a [`Range`] promises.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
enum Promise {
    /// Nothing (the default): the simulator runs it ahead by doing the slices.
    Nothing,
    /// Every unit but the last: true.
    AllButLast,
    /// Every unit, the last included: broken by the slice that empties the range.
    All,
}

/// The units `lo..hi`, each adding a mix of its index to the output; a split hands over a
/// fraction of what is left chosen by a hash of the range (between 1/5 and 4/5).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Range {
    lo: u64,
    hi: u64,
    promise: Promise,
}

fn mix(i: u64) -> u64 {
    let x = (i ^ (i >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ (x >> 29)
}

thread_local! {
    /// Units worked on this thread, run ahead and redone ones included.
    static WORKED: Cell<u64> = const { Cell::new(0) };
}

impl Task for Range {
    type Output = u64;
    const WORK_COMPOSES: bool = true;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let end = self.hi.min(self.lo.saturating_add(budget));
        WORKED.with(|w| w.set(w.get() + (end - self.lo)));
        // 32 bits a unit: the sums of all PEs, merged with `+`, stay far from overflowing.
        *ctx.output() += (self.lo..end).map(|i| mix(i) >> 32).sum::<u64>();
        let units = end - self.lo;
        self.lo = end;
        units
    }

    fn split(&mut self) -> Option<Self> {
        let size = self.hi - self.lo;
        if size < 2 {
            return None;
        }
        let fifths = 1 + mix(self.lo ^ self.hi.rotate_left(21)) % 4;
        let give = (size * fifths / 5).clamp(1, size - 1);
        let given = Range {
            lo: self.hi - give,
            ..self.clone()
        };
        self.hi -= give;
        Some(given)
    }

    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }

    fn estimate(&self) -> Option<u64> {
        Some(self.hi - self.lo)
    }

    fn plain_units(&self) -> u64 {
        let left = self.hi - self.lo;
        match self.promise {
            Promise::Nothing => 0,
            Promise::AllButLast => left.saturating_sub(1),
            Promise::All => left,
        }
    }
}

fn range(n: u64, promise: Promise) -> Range {
    Range {
        lo: 0,
        hi: n,
        promise,
    }
}

/// A simulated run: its result and work units, the whole report but the real time it took
/// and the engine threads asked for, as text, and the units the task worked on this thread
/// (with one engine thread, the simulation runs on the caller's).
struct Run {
    output: u64,
    work_units: u64,
    text: String,
    worked: u64,
}

fn report(root: Range, cfg: &Config, sim: &SimConfig) -> Run {
    WORKED.with(|w| w.set(0));
    let mut r = simulate(root, cfg, sim).unwrap().into_report();
    r.wall_seconds = 0.0;
    r.sim.threads = None; // the threads asked for; the figures are the same on any number
    Run {
        output: r.report.output,
        work_units: r.report.totals.work_units,
        text: format!("{r:?}"),
        worked: WORKED.with(Cell::get),
    }
}

#[test]
fn a_promising_task_is_simulated_exactly_as_one_that_promises_nothing() {
    const N: u64 = 300_000;
    let want = run_sequential(range(N, Promise::Nothing)).output;
    let machines = [
        SimConfig::default(),
        SimConfig {
            topology: Topology::Mesh2d,
            delay: Delay::Exponential(7.5),
            ..SimConfig::default()
        },
        // Probes that cost T_poll (no run-ahead where Gantt segments are kept, as here; the
        // test on several engine threads below runs ahead with them).
        SimConfig {
            t_poll: 3,
            poll_alpha: 0.5,
            t_count: 4,
            ..SimConfig::default()
        },
    ];
    for sim in &machines {
        for &balancer in BalancerKind::ALL {
            for (p, delta_t) in [(1, 64), (5, 16), (64, 8)] {
                let cfg = Config::new(p)
                    .balancer(balancer)
                    .delta_t(delta_t)
                    .seed(p as u64 + 3);
                let what = format!("{balancer} P={p} on {}", sim.topology);
                let lazy = report(range(N, Promise::AllButLast), &cfg, sim);
                let eager = report(range(N, Promise::Nothing), &cfg, sim);
                assert_eq!(lazy.text, eager.text, "{what}");
                assert!(lazy.worked >= N && lazy.worked <= eager.worked, "{what}");
                if balancer == BalancerKind::RandomPolling && p == 64 && sim.t_poll == 0 {
                    // Messages cut run-aheads short: the eager one redid units, the lazy
                    // one did not.
                    assert!(
                        lazy.worked < eager.worked,
                        "{what}: the lazy run-ahead never ran"
                    );
                }
                assert_eq!(lazy.output, want, "{what}");
                assert_eq!(lazy.work_units, N, "{what}");
            }
        }
    }
}

#[test]
fn a_promising_task_is_simulated_alike_on_several_engine_threads() {
    const N: u64 = 2_000_000;
    let cfg = Config::new(1024).delta_t(8).seed(11); // above the timeline limit (512)
    let one = SimConfig {
        threads: Some(1),
        ..SimConfig::default()
    };
    for t_poll in [0, 5] {
        let one = SimConfig {
            t_poll,
            ..one.clone()
        };
        let want = report(range(N, Promise::Nothing), &cfg, &one).text;
        for threads in [1, 2, 3] {
            let sim = SimConfig {
                threads: Some(threads),
                ..one.clone()
            };
            let lazy = report(range(N, Promise::AllButLast), &cfg, &sim).text;
            assert_eq!(lazy, want, "{threads} engine threads, T_poll {t_poll}");
        }
    }
}

#[test]
fn a_broken_promise_stops_the_simulated_run() {
    let cfg = Config::new(1).delta_t(8).seed(1); // the last run-ahead ends the range
    match simulate(range(100_000, Promise::All), &cfg, &SimConfig::default()) {
        Err(RunError::ContractViolated { what, .. }) => {
            assert!(what.contains("Task::plain_units"), "{what}");
            assert!(what.contains("emptied the task"), "{what}");
        }
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("the broken promise went unnoticed"),
    }
}

#[test]
fn the_check_of_composing_slices_holds_a_task_to_its_promise() {
    let slices = [(3, 4), (1, 1), (50, 7)];
    let kept = check::work_composes(range(2_000, Promise::AllButLast), &slices, 10_000);
    assert!(
        kept.as_ref().is_ok_and(|&compared| compared > 50),
        "{kept:?}"
    );
    // Steps of 4 units meet the end of 2,000 exactly: the last one empties the range.
    let err = check::work_composes(range(2_000, Promise::All), &[(3, 1)], 10_000).unwrap_err();
    assert!(
        matches!(&err, RunError::ContractViolated { what, .. } if what.contains("Task::plain_units")),
        "{err}"
    );
}
