//! What a user of the library meets first: the common outcome types as a task's output, a
//! configuration left to its defaults, a panic in the task's code, the simulator as a
//! machine, a minimising branch-and-bound search, and a stopped run's remaining pieces.

use serde::{Deserialize, Serialize};
use treesplit::machine::sim::SimConfig;
use treesplit::task::{Goal, Max, Min};
use treesplit::{
    run, run_sequential, BalancerKind, Config, Context, Ended, Machine, RunError, Simulator, Task,
};

/// The values f(i) over lo..hi, split at the middle; the output type is a parameter.
#[derive(Clone, Serialize, Deserialize)]
struct Values {
    lo: u64,
    hi: u64,
}

fn f(i: u64) -> u64 {
    (i * 7919 + 13) % 1009
}

impl Values {
    fn step(&mut self, budget: u64, mut each: impl FnMut(u64)) -> u64 {
        let end = self.hi.min(self.lo + budget);
        for i in self.lo..end {
            each(i);
        }
        let done = end - self.lo;
        self.lo = end;
        done
    }
    fn halve(&mut self) -> Option<Self> {
        if self.hi - self.lo < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let upper = Values {
            lo: mid,
            hi: self.hi,
        };
        self.hi = mid;
        Some(upper)
    }
}

/// Counts, sums, the extremes and the values below 5, all in one tuple.
#[derive(Clone, Serialize, Deserialize)]
struct Stats(Values);

type StatsOut = (u32, f64, (Min<u64>, Max<u64>), Vec<u64>);

impl Task for Stats {
    type Output = StatsOut;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, StatsOut>) -> u64 {
        self.0.step(budget, |i| {
            let out = ctx.output();
            let v = f(i);
            out.0 += 1;
            out.1 += v as f64;
            out.2 .0.offer(v);
            out.2 .1.offer(v);
            if v < 5 {
                out.3.push(i);
            }
        })
    }
    fn split(&mut self) -> Option<Self> {
        self.0.halve().map(Stats)
    }
    fn is_empty(&self) -> bool {
        self.0.lo >= self.0.hi
    }
}

#[test]
fn common_outcome_types_are_a_tasks_output() {
    let root = || Stats(Values { lo: 0, hi: 20_000 });
    let seq = run_sequential(root()).output;
    let par = run(root(), &Config::new(4).delta_t(64))
        .unwrap()
        .into_report()
        .output;
    assert_eq!(par.0, 20_000);
    assert_eq!(par.1, seq.1, "integer-valued sums are exact in f64");
    assert_eq!(par.2, seq.2);
    assert_eq!(par.2 .0.get(), (0..20_000).map(f).min().as_ref());
    let (mut a, mut b) = (par.3, seq.3);
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert!(!a.is_empty());
}

#[test]
fn a_static_balancer_left_to_its_defaults_is_valid_and_runs() {
    let config = Config::new(8).balancer(BalancerKind::MasterWorker);
    assert_eq!(config.validate(), Ok(()));
    let r = run(Stats(Values { lo: 0, hi: 5_000 }), &config)
        .unwrap()
        .into_report();
    assert_eq!(r.output.0, 5_000);
}

/// Panics at its first unit of work.
#[derive(Clone, Serialize, Deserialize)]
struct Panics;

impl Task for Panics {
    type Output = u64;
    fn work(&mut self, _: u64, _: &mut Context<'_, u64>) -> u64 {
        panic!("the task gave up");
    }
    fn split(&mut self) -> Option<Self> {
        None
    }
    fn is_empty(&self) -> bool {
        false
    }
}

#[test]
fn a_panic_in_the_task_keeps_its_file_and_line() {
    let err = run(Panics, &Config::new(2)).unwrap_err();
    let RunError::PePanicked {
        pe,
        ref message,
        ref location,
        ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!((pe, message.as_str()), (0, "the task gave up"));
    let location = location.as_deref().expect("a location");
    assert!(location.starts_with(file!()), "{location}");
    let text = err.to_string();
    assert!(
        text.contains("the task gave up") && text.contains(file!()),
        "{text}"
    );
}

#[test]
fn the_simulator_is_built_with_new_and_runs_as_a_machine() {
    let sim = Simulator::new(SimConfig {
        t_rout: 3,
        ..SimConfig::default()
    });
    assert_eq!(sim.name(), "sim");
    let r = sim
        .run(Stats(Values { lo: 0, hi: 3_000 }), &Config::new(16))
        .unwrap()
        .into_report();
    assert_eq!(r.report.output.0, 3_000);
    assert_eq!(Simulator::default().sim, SimConfig::default());
}

/// A minimising search: the smallest f(i) + 1, pruning with the incumbent.
#[derive(Clone, Serialize, Deserialize)]
struct Cheapest(Values);

impl Task for Cheapest {
    type Output = Min<i64>;
    const GOAL: Goal = Goal::Minimise;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Min<i64>>) -> u64 {
        self.0.step(budget, |i| {
            let cost = f(i) as i64 + 1;
            // best() is the smallest cost known (i64::MAX before any).
            if cost < ctx.best() {
                assert!(ctx.offer(cost), "a smaller cost improves the incumbent");
                ctx.output().offer(cost);
            }
            assert!(!ctx.offer(cost + 1), "a larger cost never improves it");
        })
    }
    fn split(&mut self) -> Option<Self> {
        self.0.halve().map(Cheapest)
    }
    fn is_empty(&self) -> bool {
        self.0.lo >= self.0.hi
    }
}

#[test]
fn the_incumbent_can_be_minimised() {
    let want = (0..50_000).map(|i| f(i) as i64 + 1).min();
    let root = || Cheapest(Values { lo: 0, hi: 50_000 });
    assert_eq!(run_sequential(root()).output.0, want);
    let r = run(root(), &Config::new(3).delta_t(100))
        .unwrap()
        .into_report();
    assert_eq!(r.output.0, want);
    assert_eq!(r.incumbent().map(|k| Goal::Minimise.value(k)), want);
    let s = Simulator::default()
        .run(root(), &Config::new(32).delta_t(100))
        .unwrap()
        .into_report();
    assert_eq!(s.report.output.0, want);
}

#[test]
fn a_stopped_run_hands_back_its_remaining_pieces() {
    let root = Stats(Values { lo: 0, hi: 1 << 20 });
    let config = Config::new(3)
        .delta_t(100)
        .max_units(10_000)
        .keep_remaining(true);
    let Ended::Stopped(stopped) = run(root, &config).unwrap() else {
        panic!("the limit stops the run")
    };
    let done = stopped.report.output.0 as u64;
    let left: u64 = stopped.remaining.iter().map(|v| v.0.hi - v.0.lo).sum();
    assert_eq!(
        done + left,
        1 << 20,
        "the work done and the pieces are the whole"
    );
    assert!(
        stopped.to_string().contains("10000 work units"),
        "{stopped}"
    );
}
