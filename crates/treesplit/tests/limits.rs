//! Run limits (`Config::max_units`, `Config::time_limit`) on every machine: a run of a
//! practically endless task stops cleanly (`Ended::Stopped`), its partial report
//! holds what was done (the output counts exactly the units done), and the units stay within
//! the documented slack of P·Δt above the limit. DAG runs (`DagConfig`) stop alike at a limit
//! or an interrupt, their schedule holding every task that finished.

use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use treesplit::dag::{Dag, DagTask, Schedule};
use treesplit::machine::simulate_dag;
use treesplit::{
    simulate, BalancerKind, Config, Context, DagConfig, DagScheduler, Ended, Jobs, Limit, Report,
    RunError, SimConfig, Stopped, Task, Threads,
};
use treesplit_testkit::support::within;

/// How long a stopped run may take before the test calls it hung: a run that ignores its
/// limit runs for ever, so this catches that and nothing else.
const HANG: Duration = Duration::from_secs(120);

/// 2^64 − 1 units of work, one output count per unit: practically endless, constant memory.
#[derive(Clone, Serialize, Deserialize)]
struct Endless {
    lo: u64,
    hi: u64,
}

impl Task for Endless {
    type Output = u64;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let end = self.hi.min(self.lo.saturating_add(budget));
        let done = end - self.lo;
        *ctx.output() += done;
        self.lo = end;
        done
    }
    fn split(&mut self) -> Option<Self> {
        if self.hi - self.lo < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let upper = Endless {
            lo: mid,
            hi: self.hi,
        };
        self.hi = mid;
        Some(upper)
    }
    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }
    fn estimate(&self) -> Option<u64> {
        Some(self.hi - self.lo)
    }
}

fn endless() -> Endless {
    Endless {
        lo: 0,
        hi: u64::MAX,
    }
}

/// The partial report of a run stopped by `expected`: units within [limit, limit + P·Δt]
/// (units limits), and the merged output equal to the units done.
fn check_partial(
    result: Result<Ended<Endless, Report<u64>>, RunError>,
    expected: Limit,
    p: u64,
    delta_t: u64,
) -> u64 {
    let Ok(Ended::Stopped(Stopped { limit, report, .. })) = result else {
        panic!("expected a limit stop, got {:?}", result.map(|e| e.limit()));
    };
    assert_eq!(limit, expected);
    let units = report.totals.work_units;
    assert_eq!(report.output, units, "every unit done is in the output");
    if let Limit::Units(n) = limit {
        assert!(
            units >= n && units <= n + p * delta_t,
            "{units} units for a limit of {n} (slack P·Δt = {})",
            p * delta_t
        );
    }
    units
}

#[test]
fn threads_stop_at_max_units() {
    for kind in [
        BalancerKind::RandomPolling,
        BalancerKind::MasterWorker,
        BalancerKind::Block,
    ] {
        let config = Config::new(4)
            .balancer(kind)
            .delta_t(1000)
            .max_units(2_000_000);
        let config = if kind.is_static() {
            config.balancer(treesplit::Balancer::from(kind).with_jobs(Jobs::PerPe(4)))
        } else {
            config
        };
        let r = within(HANG, move || Threads::new().run(endless(), &config));
        check_partial(r, Limit::Units(2_000_000), 4, 1000);
    }
}

#[test]
fn threads_stop_at_time_limit() {
    let config = Config::new(3)
        .delta_t(1000)
        .time_limit(Duration::from_millis(300));
    let r = within(HANG, move || Threads::new().run(endless(), &config));
    let units = check_partial(r, Limit::Time(Duration::from_millis(300)), 3, 1000);
    assert!(units > 0);
}

#[test]
fn simulator_stops_at_max_units_deterministically() {
    let config = Config::new(16).delta_t(100).max_units(500_000);
    let sim = SimConfig::default();
    let run = || simulate(endless(), &config, &sim).map(|e| e.map_report(|r| r.report));
    let a = check_partial(run(), Limit::Units(500_000), 16, 100);
    let b = check_partial(run(), Limit::Units(500_000), 16, 100);
    assert_eq!(a, b, "a units limit keeps the simulator deterministic");
}

#[test]
fn simulator_stops_at_time_limit() {
    let config = Config::new(8)
        .delta_t(100)
        .time_limit(Duration::from_millis(300));
    let r = within(HANG, move || {
        simulate(endless(), &config, &SimConfig::default()).map(|e| e.map_report(|r| r.report))
    });
    check_partial(r, Limit::Time(Duration::from_millis(300)), 8, 100);
}

#[test]
fn a_run_under_its_limit_is_unaffected() {
    let config = Config::new(4)
        .max_units(1 << 40)
        .time_limit(Duration::from_secs(600));
    let r = treesplit::run(Endless { lo: 0, hi: 100_000 }, &config).unwrap();
    assert!(r.is_finished());
    let r = r.into_report();
    assert_eq!(r.output, 100_000);
    assert_eq!(r.totals.work_units, 100_000);
}

#[test]
fn zero_limits_are_bad_input() {
    let zero = Config::new(2).max_units(0);
    assert_eq!(
        treesplit::run(endless(), &zero).map(|r| r.into_report().output),
        Err(RunError::InvalidConfig(
            treesplit::ConfigError::ZeroMaxUnits
        ))
    );
    let zero = Config::new(2).time_limit(Duration::ZERO);
    assert_eq!(
        treesplit::run(endless(), &zero).map(|r| r.into_report().output),
        Err(RunError::InvalidConfig(
            treesplit::ConfigError::ZeroTimeLimit
        ))
    );
}

#[test]
fn every_balancer_stops_cleanly_at_a_limit_in_the_simulator_and_on_threads() {
    for &kind in BalancerKind::ALL {
        let mut config = Config::new(8)
            .balancer(kind)
            .delta_t(100)
            .max_units(300_000);
        if kind.is_static() {
            config = config.balancer(treesplit::Balancer::from(kind).with_jobs(Jobs::PerPe(4)));
        }
        let r =
            simulate(endless(), &config, &SimConfig::default()).map(|e| e.map_report(|r| r.report));
        check_partial(r, Limit::Units(300_000), 8, 100);
        let config = Config { pes: 3, ..config };
        let r = Threads::new().run(endless(), &config);
        check_partial(r, Limit::Units(300_000), 3, 100);
    }
}

/// Endless work whose units take real time (a short spin each), so that a slice of a huge Δt
/// would take hours: limits must be honoured within the slice.
#[derive(Clone, Serialize, Deserialize)]
struct SlowEndless(Endless);

impl Task for SlowEndless {
    type Output = u64;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let mut done = 0;
        while done < budget && !self.0.is_empty() {
            let mut x = std::hint::black_box(done);
            for _ in 0..50 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            std::hint::black_box(x);
            done += self.0.work(1, ctx);
        }
        done
    }
    fn split(&mut self) -> Option<Self> {
        self.0.split().map(SlowEndless)
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Δt of 10^15 units: about a year per slice of [`SlowEndless`].
const HUGE_DELTA_T: u64 = 1_000_000_000_000_000;

#[test]
fn threads_stop_at_time_limit_within_a_huge_slice() {
    let config = Config::new(2)
        .delta_t(HUGE_DELTA_T)
        .time_limit(Duration::from_millis(200));
    let result = within(HANG, move || {
        Threads::new().run(SlowEndless(endless()), &config)
    });
    let Ok(Ended::Stopped(Stopped { limit, report, .. })) = result else {
        panic!("expected a time-limit stop");
    };
    assert_eq!(limit, Limit::Time(Duration::from_millis(200)));
    assert_eq!(report.output, report.totals.work_units);
}

#[test]
fn threads_stop_at_an_interrupt_within_a_huge_slice() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let config = Config::new(2).delta_t(HUGE_DELTA_T).interrupt(flag.clone());
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let result = within(HANG, move || {
        Threads::new().run(SlowEndless(endless()), &config)
    });
    let Ok(Ended::Stopped(Stopped { limit, report, .. })) = result else {
        panic!("expected an interrupt stop");
    };
    assert_eq!(limit, Limit::Interrupted);
    assert_eq!(report.output, report.totals.work_units);
}

#[test]
fn simulator_stops_at_time_limit_within_a_huge_slice() {
    let config = Config::new(2)
        .delta_t(HUGE_DELTA_T)
        .time_limit(Duration::from_millis(200));
    let result = within(HANG, move || {
        simulate(SlowEndless(endless()), &config, &SimConfig::default())
            .map(|e| e.map_report(|r| r.report))
    });
    let Ok(Ended::Stopped(Stopped { limit, report, .. })) = result else {
        panic!("expected a time-limit stop");
    };
    assert_eq!(limit, Limit::Time(Duration::from_millis(200)));
    assert_eq!(report.output, report.totals.work_units);
}

/// The cost of every task of [`layered`]: equal costs make a lost task visible in the units.
const COST: u64 = 4;

/// `layers` × `width` tasks (width ≥ 2) of cost [`COST`]; every task after the first layer
/// waits for two tasks of the layer before.
fn layered(layers: u32, width: u32) -> std::sync::Arc<Dag> {
    let preds = (0..layers * width)
        .map(|v| {
            let (layer, i) = (v / width, v % width);
            match layer {
                0 => vec![],
                _ => {
                    let above = (layer - 1) * width;
                    vec![above + i, above + (i + 1) % width]
                }
            }
        })
        .collect();
    let n = (layers * width) as usize;
    std::sync::Arc::new(Dag::new(vec![COST; n], preds).unwrap())
}

/// The schedule of a stopped DAG run, a unit of cost taking `unit` ticks: each task recorded
/// once, for at least its cost, after all its predecessors (recorded too) finished; and no
/// finished task lost: on every PE the units done exceed the recorded tasks' costs by less
/// than one task (the one abandoned at the stop). Returns the tasks recorded.
fn check_stopped_dag(dag: &Dag, report: &Report<Schedule>, unit: u64) -> usize {
    let records = &report.output.0;
    let mut at = vec![None; dag.len()];
    for r in records {
        assert!(
            at[r.task as usize].replace(*r).is_none(),
            "task {} twice",
            r.task
        );
        assert!(
            r.finish - r.start >= COST * unit,
            "task {} too short",
            r.task
        );
    }
    for r in records {
        for &u in dag.preds(r.task) {
            let before = at[u as usize]
                .unwrap_or_else(|| panic!("task {} ran, its predecessor {u} is missing", r.task));
            assert!(before.finish <= r.start, "task {} started early", r.task);
        }
    }
    for pe in &report.per_pe {
        let recorded = records.iter().filter(|r| r.pe as usize == pe.pe).count() as u64 * COST;
        let units = pe.counters.work_units;
        assert!(
            units >= recorded && units - recorded < COST,
            "PE {}: {units} units done, {recorded} in finished tasks",
            pe.pe
        );
    }
    records.len()
}

/// A DAG run on two threads, a unit of cost taking `unit_ns`: the interrupt flag is set
/// before the run when `at_units` is 0, else once the progress report passes `at_units`.
fn interrupted_dag(
    dag: &std::sync::Arc<Dag>,
    scheduler: DagScheduler,
    unit_ns: u64,
    at_units: u64,
) -> Result<Ended<DagTask>, RunError> {
    let flag = std::sync::Arc::new(AtomicBool::new(at_units == 0));
    let config = DagConfig::new(2, scheduler)
        .delta_t(COST)
        .interrupt(flag.clone());
    let root = DagTask::shared(dag.clone(), unit_ns);
    within(HANG, move || {
        let progress = move |units: u64, _: Duration| {
            if units >= at_units {
                flag.store(true, Ordering::SeqCst);
            }
        };
        Threads::new().on_progress(&progress).run_dag(root, &config)
    })
}

#[test]
fn a_dag_run_with_its_interrupt_already_set_stops_at_once() {
    let dag = layered(200, 4);
    for scheduler in DagScheduler::ALL.iter().copied() {
        let Ok(Ended::Stopped(stopped)) = interrupted_dag(&dag, scheduler, 10_000, 0) else {
            panic!("{scheduler}: expected an interrupt stop");
        };
        assert_eq!(stopped.limit, Limit::Interrupted, "{scheduler}");
        assert!(stopped.remaining.is_empty());
        let tasks = check_stopped_dag(&dag, &stopped.report, 10_000);
        assert!(tasks < dag.len(), "{scheduler}: all {tasks} tasks ran");
    }
}

#[test]
fn an_interrupt_during_a_dag_run_keeps_every_finished_task() {
    // 3,200 tasks of 4 units of 100 µs: over half a second on two threads, interrupted once a
    // tenth of the work is done.
    let dag = layered(400, 8);
    for scheduler in DagScheduler::ALL.iter().copied() {
        let result = interrupted_dag(&dag, scheduler, 100_000, dag.work() / 10);
        let Ok(Ended::Stopped(stopped)) = result else {
            panic!("{scheduler}: expected an interrupt stop");
        };
        assert_eq!(stopped.limit, Limit::Interrupted, "{scheduler}");
        let tasks = check_stopped_dag(&dag, &stopped.report, 100_000);
        assert!(
            tasks > 0 && tasks < dag.len(),
            "{scheduler}: {tasks} of {} tasks",
            dag.len()
        );
        assert!(stopped.report.totals.work_units >= dag.work() / 10);
    }
}

#[test]
fn a_simulated_dag_run_stops_at_max_units() {
    let dag = layered(100, 8);
    let limit = dag.work() / 2;
    for scheduler in DagScheduler::ALL.iter().copied() {
        let config = DagConfig::new(4, scheduler).delta_t(COST).max_units(limit);
        let root = DagTask::shared(dag.clone(), 0);
        let Ok(Ended::Stopped(stopped)) = simulate_dag(root, &config, &SimConfig::default()) else {
            panic!("{scheduler}: expected a units stop");
        };
        assert_eq!(stopped.limit, Limit::Units(limit), "{scheduler}");
        let report = &stopped.report.report;
        let units = report.totals.work_units;
        assert!(
            units >= limit && units <= limit + 4 * COST,
            "{scheduler}: {units} units for a limit of {limit}"
        );
        check_stopped_dag(&dag, report, 1);
    }
}
