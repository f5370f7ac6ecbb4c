//! The applications' tasks under every balancer × {threads, simulator} × several P ×
//! {N-Queens 9, UTS T1-mini, a synthetic tree}: the exact sequential answer, work conserved,
//! and termination within a time bound. The simulator runs include slow PEs. The static
//! balancers run on bags of 2^h or q·P jobs cut from the same roots.
//!
//! The balancers' own options (every permutation, bundle rule, prefix-sum variant,
//! poll-and-shuffle variant, neighbourhood, round length) are tested on the library's own
//! tasks in `crates/treesplit/tests/balancers.rs`.

use std::time::Duration;
use treesplit::config::TerminationKind;
use treesplit::machine::sim::Topology;
use treesplit::{
    run, run_sequential, simulate, Balancer, BalancerKind, Config, Jobs, PollingOptions, SimConfig,
    Task,
};
use treesplit_testkit::support::within;

/// The static balancers need a bag size: alternately 2^h jobs and q jobs per PE.
fn with_jobs(cfg: Config, case: usize) -> Config {
    let jobs = match case % 3 {
        0 => Jobs::Depth(6),
        1 => Jobs::PerPe(3),
        _ => Jobs::Depth(1),
    };
    let balancer = cfg.balancer.with_jobs(jobs);
    cfg.balancer(balancer)
}

/// Neighbour polling asks neighbours in `topology`; the other balancers have no neighbourhood.
fn with_neighbourhood(cfg: Config, topology: Topology) -> Config {
    match cfg.balancer {
        Balancer::NeighbourPolling { polling, .. } => cfg.balancer(Balancer::NeighbourPolling {
            polling,
            neighbourhood: topology,
        }),
        _ => cfg,
    }
}
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};
use treesplit_apps::uts::{Uts, UtsParams};
use treesplit_apps::NQueens;

fn check_all<T: Task + Clone>(name: &str, root: T)
where
    T::Output: PartialEq + std::fmt::Debug,
{
    let seq = run_sequential(root.clone());
    let combinations = BalancerKind::ALL
        .iter()
        .flat_map(|b| TerminationKind::ALL.iter().map(move |t| (*b, *t)));
    for (balancer, termination) in combinations {
        for p in [1, 2, 3, 8] {
            let cfg = with_jobs(
                Config::new(p)
                    .balancer(balancer)
                    .termination(termination)
                    .delta_t(64)
                    .seed(p as u64 + 7),
                p,
            );
            let r = {
                let root = root.clone();
                within(Duration::from_secs(120), move || {
                    run(root, &cfg).expect("thread run").into_report()
                })
            };
            assert_eq!(
                r.output, seq.output,
                "{name} {balancer} {termination} threads P={p}"
            );
            assert_eq!(
                r.totals.work_units, seq.work_units,
                "{name} {balancer} {termination} threads P={p}"
            );
        }
        for (p, topology) in [
            (1, Topology::Crossbar),
            (2, Topology::Ring),
            (3, Topology::Mesh2d),
            (8, Topology::Hypercube),
            (64, Topology::Mesh2d),
        ] {
            let cfg = with_jobs(
                with_neighbourhood(
                    Config::new(p)
                        .balancer(balancer)
                        .termination(termination)
                        .delta_t(16)
                        .seed(p as u64),
                    topology,
                ),
                p + 1,
            );
            let slow = if p > 2 {
                vec![(1, 4.0), (p - 1, 2.5)]
            } else {
                vec![]
            };
            let sim = SimConfig {
                topology,
                slow,
                ..SimConfig::default()
            };
            let r = simulate(root.clone(), &cfg, &sim)
                .expect("simulation")
                .into_report();
            assert_eq!(
                r.report.output, seq.output,
                "{name} {balancer} {termination} sim P={p} {topology}"
            );
            assert_eq!(
                r.report.totals.work_units, seq.work_units,
                "{name} {balancer} {termination} sim P={p} {topology}"
            );
        }
    }
}

/// Random polling with fast initialization and with trimming on the applications, on threads
/// and in the simulator: fast initialization needs every application's `split` to be
/// deterministic (every PE splits its copy of the root alike).
fn check_options<T: Task + Clone>(name: &str, root: T)
where
    T::Output: PartialEq + std::fmt::Debug,
{
    let seq = run_sequential(root.clone());
    for (fast_init, trim, termination) in [
        (true, None, TerminationKind::FourCounter),
        (false, Some(1), TerminationKind::ResponseTree),
        (true, Some(2), TerminationKind::ResponseTree),
    ] {
        for p in [1, 2, 3, 5, 8, 16] {
            let cfg = Config::new(p)
                .delta_t(32)
                .seed(3)
                .balancer(Balancer::RandomPolling {
                    polling: PollingOptions {
                        trim,
                        fast_init,
                        permuted_init: None,
                    },
                    locality: 0,
                })
                .termination(termination);
            let r = {
                let (root, cfg) = (root.clone(), cfg.clone());
                within(Duration::from_secs(120), move || {
                    run(root, &cfg).expect("thread run").into_report()
                })
            };
            assert_eq!(
                r.output, seq.output,
                "{name} threads P={p} fast_init={fast_init} trim={trim:?}"
            );
            assert_eq!(r.totals.work_units, seq.work_units, "{name} threads P={p}");
            let s = simulate(root.clone(), &cfg, &SimConfig::default())
                .expect("simulation")
                .into_report();
            assert_eq!(
                s.report.output, seq.output,
                "{name} sim P={p} fast_init={fast_init} trim={trim:?}"
            );
            assert_eq!(
                s.report.totals.work_units, seq.work_units,
                "{name} sim P={p}"
            );
            if fast_init && p >= 4 {
                // Every PE below 2^⌊log₂ P⌋ starts with a piece: no PE 1..4 needs to steal first.
                let started: usize = s
                    .report
                    .per_pe
                    .iter()
                    .take(4)
                    .filter(|pe| pe.counters.work_units > 0)
                    .count();
                assert_eq!(
                    started, 4,
                    "{name} sim P={p}: fast initialization left PEs 0..4 idle"
                );
            }
        }
    }
}

#[test]
fn random_polling_options_keep_answers_exact() {
    check_options("nqueens 10", NQueens::new(10).unwrap());
    check_options(
        "uts T1-mini",
        Uts::new(UtsParams::parse(&["T1-mini".to_string()]).unwrap()),
    );
    let p = SyntheticParams {
        work: 300_000,
        alpha: 0.3,
        atomic: 1,
        rule: SplitRule::Random,
        spin: 1,
        seed: 9,
    };
    check_options("synthetic", Synthetic::new(p).unwrap());
}

#[test]
fn nqueens_under_every_balancer() {
    check_all("nqueens 9", NQueens::new(9).unwrap());
}

#[test]
fn uts_under_every_balancer() {
    check_all(
        "uts T1-mini",
        Uts::new(UtsParams::parse(&["T1-mini".to_string()]).unwrap()),
    );
}

#[test]
fn synthetic_under_every_balancer() {
    let p = SyntheticParams {
        work: 500_000,
        alpha: 0.2,
        atomic: 8,
        rule: SplitRule::Adversarial,
        spin: 2,
        seed: 4,
    };
    check_all("synthetic", Synthetic::new(p).unwrap());
}

/// §3's relaxations of α-splitting: splits of no guaranteed quality (the random splitting
/// factor model) and splits that do not reduce the piece.
#[test]
fn synthetic_relaxed_splits_under_every_balancer() {
    for rule in [SplitRule::RandomFactor, SplitRule::NonReducing] {
        let p = SyntheticParams {
            work: 200_000,
            alpha: 0.2,
            atomic: 8,
            rule,
            spin: 1,
            seed: 6,
        };
        check_all(&format!("synthetic {rule:?}"), Synthetic::new(p).unwrap());
    }
}
