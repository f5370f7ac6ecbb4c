//! Contract checks (`Config::check`): tasks that break the `Task` contract, a split that
//! duplicates work, one that loses work, `work` that overruns its budget, are caught on the
//! thread machine and in the simulator with `RunError::ContractViolated` naming the PE and
//! the piece; a task without estimates that duplicates work is caught by
//! `check::against_sequential`; correct tasks pass every check; and a panic of the library's
//! own code would be `RunError::Internal`.

use serde::{Deserialize, Serialize};
use treesplit::{check, run_sequential, simulate, Config, Context, RunError, SimConfig, Task};

/// How a [`Faulty`] range breaks the contract.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
enum Fault {
    None,
    /// Both halves keep the middle 10 units.
    Duplicate,
    /// The given half loses its first unit.
    Lose,
    /// `work` reports twice its budget when the budget is used up.
    Overrun,
}

/// The range lo..hi, one unit and one output count per index; `estimates`: say its size.
#[derive(Clone, Serialize, Deserialize)]
struct Faulty {
    lo: u64,
    hi: u64,
    fault: Fault,
    estimates: bool,
}

impl Task for Faulty {
    type Output = u64;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let end = self.hi.min(self.lo.saturating_add(budget));
        let done = end - self.lo;
        // Some real work per unit, so that idle PEs ask for work before it is all done.
        let mut x = 0u64;
        for i in 0..done * 64 {
            x = std::hint::black_box(x.wrapping_add(i));
        }
        std::hint::black_box(x);
        *ctx.output() += done;
        self.lo = end;
        if self.fault == Fault::Overrun && done == budget && budget > 1 {
            return done * 2;
        }
        done
    }
    fn split(&mut self) -> Option<Self> {
        if self.hi - self.lo < 40 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let (given_lo, kept_hi) = match self.fault {
            Fault::Duplicate => (mid - 10, mid + 10),
            Fault::Lose => (mid + 1, mid),
            _ => (mid, mid),
        };
        let given = Faulty {
            lo: given_lo,
            hi: self.hi,
            ..*self
        };
        self.hi = kept_hi;
        Some(given)
    }
    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }
    fn estimate(&self) -> Option<u64> {
        self.estimates.then(|| self.hi - self.lo)
    }
}

const N: u64 = 1_000_000;

fn root(fault: Fault, estimates: bool) -> Faulty {
    Faulty {
        lo: 0,
        hi: N,
        fault,
        estimates,
    }
}

fn config(p: usize) -> Config {
    Config::new(p).delta_t(500).check(true)
}

/// The violation a faulty run ended with: on a PE of the run, naming the piece.
fn violation(result: Result<u64, RunError>, p: usize) -> String {
    match result {
        Err(RunError::ContractViolated { pe, what }) => {
            assert!(pe < p, "PE {pe} of {p}");
            what
        }
        other => panic!("expected a contract violation, got {other:?}"),
    }
}

#[test]
fn unchecked_faulty_splits_give_wrong_answers() {
    // Why the checks exist: the runs "succeed" with wrong results.
    let dup = treesplit::run(root(Fault::Duplicate, true), &Config::new(4).delta_t(500))
        .map(treesplit::Ended::into_report);
    let lost = treesplit::run(root(Fault::Lose, true), &Config::new(4).delta_t(500))
        .map(treesplit::Ended::into_report);
    assert!(dup.unwrap().output > N);
    assert!(lost.unwrap().output < N);
}

#[test]
fn threads_catch_each_fault_naming_the_pe_and_piece() {
    for p in [2, 4] {
        let dup = violation(
            treesplit::run(root(Fault::Duplicate, true), &config(p))
                .map(treesplit::Ended::into_report)
                .map(|r| r.output),
            p,
        );
        assert!(
            dup.contains("duplicates work") && dup.contains("piece"),
            "{dup}"
        );
        let lost = violation(
            treesplit::run(root(Fault::Lose, true), &config(p))
                .map(treesplit::Ended::into_report)
                .map(|r| r.output),
            p,
        );
        assert!(
            lost.contains("loses work") && lost.contains("generation"),
            "{lost}"
        );
        let over = violation(
            treesplit::run(root(Fault::Overrun, false), &config(p))
                .map(treesplit::Ended::into_report)
                .map(|r| r.output),
            p,
        );
        assert!(over.contains("budget of 500"), "{over}");
    }
}

#[test]
fn the_simulator_catches_each_fault_naming_the_pe_and_piece() {
    let sim = SimConfig::default();
    for (fault, estimates, text) in [
        (Fault::Duplicate, true, "duplicates work"),
        (Fault::Lose, true, "loses work"),
        (Fault::Overrun, false, "budget of 500"),
    ] {
        let r = simulate(root(fault, estimates), &config(16), &sim)
            .map(treesplit::Ended::into_report)
            .map(|r| r.report.output);
        let what = violation(r, 16);
        assert!(what.contains(text), "{fault:?}: {what}");
    }
}

#[test]
fn without_estimates_the_sequential_comparison_catches_duplicated_work() {
    let r = treesplit::run(root(Fault::Duplicate, false), &config(4))
        .unwrap()
        .into_report();
    let err = check::against_sequential(root(Fault::Duplicate, false), &r).unwrap_err();
    assert!(
        matches!(&err, RunError::WrongAnswer(m) if m.contains("differs")),
        "{err}"
    );
}

#[test]
fn a_correct_task_passes_every_check() {
    let r = treesplit::run(root(Fault::None, true), &config(4))
        .unwrap()
        .into_report();
    assert_eq!(r.output, N);
    check::against_sequential(root(Fault::None, true), &r).unwrap();
    assert_eq!(
        run_sequential(root(Fault::None, true)).work_units,
        r.totals.work_units
    );
    let s = simulate(root(Fault::None, true), &config(16), &SimConfig::default())
        .unwrap()
        .into_report();
    assert_eq!(s.report.output, N);
}
