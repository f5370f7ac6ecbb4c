//! The thread machine with tasks defined here: exact answers, work conservation, panics
//! that end the run with an error, termination that waits for work in transit, and runs
//! that end within a time bound; bad configurations rejected with typed errors.

use serde::{Deserialize, Serialize};
use std::time::Duration;
use treesplit::config::{Adaptive, BundleRule, PermutationKind, PhaseSync};
use treesplit::config::{MAX_H, MAX_PES};
use treesplit::{
    run, run_sequential, Balancer, BalancerKind, Config, ConfigError, Context, Jobs,
    PollingOptions, RunError, Task, Threads,
};
use treesplit_testkit::support::{within, RangeSum, Tree};

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
                run(range(n), &cfg).unwrap().into_report()
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
        run(range(200_000), &cfg).unwrap().into_report()
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
            RunError::PePanicked { pe, message, .. } => {
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
                .into_report()
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
        matches!(&err, RunError::ContractViolated { pe: 0, what } if what.contains("no progress")),
        "{err}"
    );
}

#[test]
fn bad_configurations_are_rejected() {
    let adaptive = |c, gamma| Balancer::PollAndShuffle {
        polling: PollingOptions::default(),
        round: 30,
        permutation: PermutationKind::Messages,
        adaptive: Some(Adaptive { c, gamma }),
        sync: PhaseSync::Global,
        embedding: Default::default(),
    };
    let bundle = |bundle| Balancer::MasterWorker {
        jobs: Jobs::Depth(4),
        bundle,
        order: treesplit::config::DealOrder::InOrder,
    };
    let cases = [
        (Config::new(0), ConfigError::NoPes),
        (
            Config::new(MAX_PES + 1),
            ConfigError::TooManyPes {
                pes: MAX_PES + 1,
                max: MAX_PES,
            },
        ),
        (Config::new(2).delta_t(0), ConfigError::ZeroDeltaT),
        (
            Config::new(2).balancer(Balancer::RandomShift {
                polling: PollingOptions::default(),
                round: 0,
            }),
            ConfigError::ZeroRound,
        ),
        (
            Config::new(2).balancer(Balancer::RandomPolling {
                polling: PollingOptions {
                    trim: Some(0),
                    ..PollingOptions::default()
                },
                locality: 0,
            }),
            ConfigError::ZeroTrim,
        ),
        (
            Config::new(2).balancer(adaptive(0.0, 0.5)),
            ConfigError::AdaptiveC(0.0),
        ),
        (
            Config::new(2).balancer(Balancer::PollAndShuffle {
                polling: PollingOptions::default(),
                round: 30,
                permutation: PermutationKind::Messages,
                adaptive: None,
                sync: PhaseSync::Local,
                embedding: Default::default(),
            }),
            ConfigError::LocalSyncPermutation,
        ),
        (
            Config::new(2).balancer(adaptive(f64::INFINITY, 0.5)),
            ConfigError::AdaptiveC(f64::INFINITY),
        ),
        (
            Config::new(2).balancer(adaptive(4.0, 0.0)),
            ConfigError::AdaptiveGamma(0.0),
        ),
        (
            Config::new(2).balancer(adaptive(4.0, 1.5)),
            ConfigError::AdaptiveGamma(1.5),
        ),
        (
            Config::new(2).balancer(bundle(BundleRule::Fixed(0))),
            ConfigError::BundleSize,
        ),
        (
            Config::new(2).balancer(bundle(BundleRule::Adaptive { c: -1.0, w_min: 5 })),
            ConfigError::BundleConstant(-1.0),
        ),
        (
            Config::new(2).balancer(bundle(BundleRule::Sqrt {
                startup: 0.0,
                max_job: 3.0,
            })),
            ConfigError::BundleSqrt {
                startup: 0.0,
                max_job: 3.0,
            },
        ),
        (
            Config::new(2)
                .balancer(Balancer::new(BalancerKind::Block).with_jobs(Jobs::Depth(MAX_H + 1))),
            ConfigError::DepthTooLarge {
                h: MAX_H + 1,
                max: MAX_H,
            },
        ),
        (
            Config::new(2)
                .balancer(Balancer::new(BalancerKind::RoundRobin).with_jobs(Jobs::PerPe(0))),
            ConfigError::NoJobsPerPe,
        ),
        (
            Config::new(4).balancer(
                Balancer::new(BalancerKind::PrefixSum).with_jobs(Jobs::PerPe(1 << MAX_H)),
            ),
            ConfigError::TooManyJobs { max_h: MAX_H },
        ),
        (
            // Random-static rounds q·P up to a power of two: 3·2^29 becomes 2^31.
            Config::new(3).balancer(
                Balancer::new(BalancerKind::RandomStatic).with_jobs(Jobs::PerPe(1 << (MAX_H - 1))),
            ),
            ConfigError::TooManyJobs { max_h: MAX_H },
        ),
    ];
    for (cfg, want) in cases {
        assert_eq!(cfg.validate(), Err(want.clone()), "{cfg:?}");
        let what = format!("{cfg:?}");
        let got = within(Duration::from_secs(10), move || run(range(10), &cfg));
        assert_eq!(got.err(), Some(RunError::InvalidConfig(want)), "{what}");
    }
    // The largest bags are accepted (validated, not run): 2^30 jobs, and 3·(2^28 + 1) jobs
    // that random-static rounds up to 2^30.
    for cfg in [
        Config::new(1).balancer(Balancer::new(BalancerKind::Block).with_jobs(Jobs::Depth(MAX_H))),
        Config::new(3).balancer(
            Balancer::new(BalancerKind::RandomStatic)
                .with_jobs(Jobs::PerPe((1 << (MAX_H - 2)) + 1)),
        ),
    ] {
        assert_eq!(cfg.jobs(), Some(1 << MAX_H), "{cfg:?}");
        assert_eq!(cfg.validate(), Ok(()), "{cfg:?}");
    }
    // A static balancer given no number of jobs, on a task without estimates: the default
    // number of jobs per PE, said in the report.
    let cfg = Config::new(2).balancer(BalancerKind::MasterWorker);
    let report = within(Duration::from_secs(10), move || run(Tree::small(), &cfg))
        .unwrap()
        .into_report();
    assert_eq!(
        report.output,
        treesplit::run_sequential(Tree::small()).output
    );
    assert_eq!(report.config.jobs(), Some(32));
}

#[test]
fn the_default_configuration_uses_every_core() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cfg = Config::default();
    assert_eq!(cfg.pes, cores);
    assert_eq!(cfg.validate(), Ok(()));
    assert_eq!(cfg.balancer, Balancer::new(BalancerKind::RandomPolling));
    assert_eq!(Config { pes: 1, ..cfg }, Config::new(1));
}

#[test]
fn an_empty_root_finishes_at_once() {
    for p in [1, 4] {
        let r = within(Duration::from_secs(10), move || {
            run(range(0), &Config::new(p)).unwrap().into_report()
        });
        assert_eq!(r.totals.work_units, 0);
        assert_eq!(r.output, 0);
    }
}

/// The thread machine runs one OS thread per PE: past its limit it says so instead of letting
/// the OS abort the process (the simulator is the machine for more PEs).
#[test]
fn the_thread_machine_refuses_more_pes_than_threads() {
    use treesplit::machine::threads::MAX_THREADS;
    use treesplit::ConfigError;
    let too_many = Config::new(MAX_THREADS + 1);
    assert_eq!(
        run(RangeSum::new(1000), &too_many).err(),
        Some(RunError::InvalidConfig(ConfigError::TooManyThreads {
            pes: MAX_THREADS + 1,
            max: MAX_THREADS
        }))
    );
    // The simulator takes the same configuration.
    let r = treesplit::simulate(RangeSum::new(100_000), &too_many, &Default::default())
        .expect("the simulator runs 4,097 PEs")
        .into_report();
    assert_eq!(r.report.totals.work_units, 100_000);
}
