//! The simulator on real applications: the sequential answer on every P, exact work
//! conservation, reproducibility bit for bit from the seed, the adversaries, and the
//! efficiency random polling must reach on the papers' synthetic tree.

use treesplit::machine::sim::adversary::EmptySplits;
use treesplit::machine::sim::{Delay, Topology};
use treesplit::{run_sequential, simulate, Config, SimConfig};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};
use treesplit_apps::uts::{Uts, UtsParams};
use treesplit_apps::NQueens;

fn t1_mini() -> UtsParams {
    UtsParams::parse(&["T1-mini".to_string()]).unwrap()
}

#[test]
fn every_app_on_every_p_and_network() {
    let seq_q = run_sequential(NQueens::new(9).unwrap());
    let seq_u = run_sequential(Uts::new(t1_mini()));
    for p in [1, 2, 3, 4, 7, 16, 64, 512] {
        for topology in Topology::ALL {
            let sim = SimConfig {
                topology: *topology,
                ..SimConfig::default()
            };
            let cfg = Config::new(p).delta_t(10).seed(p as u64);
            let q = simulate(NQueens::new(9).unwrap(), &cfg, &sim).unwrap();
            assert_eq!(q.report.output, 352, "nqueens P={p} {topology}");
            assert_eq!(
                q.report.totals.work_units, seq_q.work_units,
                "nqueens P={p} {topology}"
            );
            let u = simulate(Uts::new(t1_mini()), &cfg, &sim).unwrap();
            assert_eq!(u.report.output, seq_u.output, "uts P={p} {topology}");
            assert_eq!(u.report.totals.work_units, 63_914, "uts P={p} {topology}");
        }
    }
}

#[test]
fn same_seed_same_report_byte_for_byte() {
    let sim = SimConfig {
        topology: Topology::Mesh2d,
        delay: Delay::Exponential(7.5),
        ..SimConfig::default()
    };
    let json = |seed| {
        let r = simulate(
            Uts::new(t1_mini()),
            &Config::new(37).delta_t(16).seed(seed),
            &sim,
        )
        .unwrap();
        serde_json::to_string(&r).unwrap()
    };
    let a = json(5);
    assert_eq!(a, json(5), "same seed, different output");
    assert_ne!(a, json(6), "the seed has no effect");
}

#[test]
fn adversaries_do_not_change_the_answer() {
    let params = SyntheticParams {
        work: 300_000,
        alpha: 0.1,
        atomic: 4,
        rule: SplitRule::Adversarial,
        spin: 1,
        seed: 3,
    };
    let seq = run_sequential(Synthetic::new(params).unwrap());
    let sim = SimConfig {
        topology: Topology::Ring,
        delay: Delay::Uniform(40),
        slow: vec![(0, 8.0), (5, 3.5)],
        slow_links: vec![(1, 5_000), (9, 700)],
        t_send: 2,
        ..SimConfig::default()
    };
    for p in [10, 33, 64] {
        let cfg = Config::new(p).delta_t(25).seed(11);
        let r = simulate(
            EmptySplits::new(Synthetic::new(params).unwrap(), 0.5, 9),
            &cfg,
            &sim,
        )
        .unwrap();
        assert_eq!(r.report.output, seq.output, "P={p}");
        assert_eq!(r.report.totals.work_units, params.work, "P={p}");
    }
}

#[test]
fn slow_pes_take_proportionally_longer() {
    let params = SyntheticParams {
        work: 100_000,
        alpha: 0.5,
        atomic: 1,
        rule: SplitRule::Random,
        spin: 1,
        seed: 0,
    };
    let fast = simulate(
        Synthetic::new(params).unwrap(),
        &Config::new(1),
        &SimConfig::default(),
    )
    .unwrap();
    let slow_sim = SimConfig {
        slow: vec![(0, 3.0)],
        ..SimConfig::default()
    };
    let slow = simulate(Synthetic::new(params).unwrap(), &Config::new(1), &slow_sim).unwrap();
    assert_eq!(fast.report.t_par, 100_000.0);
    assert_eq!(slow.report.t_par, 300_000.0);
}

#[test]
fn a_single_pe_takes_exactly_t_seq() {
    let r = simulate(
        NQueens::new(8).unwrap(),
        &Config::new(1).delta_t(7),
        &SimConfig::default(),
    )
    .unwrap();
    let units = run_sequential(NQueens::new(8).unwrap()).work_units;
    assert_eq!(
        r.report.t_par, units as f64,
        "no communication, no overhead"
    );
    assert_eq!(r.report.totals.messages, 0);
}

#[test]
fn random_polling_is_efficient_on_the_synthetic_tree_of_paper_004() {
    // α = 0.3, T_seq = 10^7 (10^8 in BENCHMARKS.md), crossbar, T_rout = 10, T_split = 5.
    let params = SyntheticParams {
        work: 10_000_000,
        alpha: 0.3,
        atomic: 1,
        rule: SplitRule::Random,
        spin: 1,
        seed: 0,
    };
    let r = simulate(
        Synthetic::new(params).unwrap(),
        &Config::new(256).delta_t(10),
        &SimConfig::default(),
    )
    .unwrap();
    let e = r.report.efficiency().unwrap();
    assert!(e >= 0.9, "efficiency {e} at P = 256");
    assert!(
        r.termination_delay <= 20 * 10 * 10,
        "termination took {}",
        r.termination_delay
    );
    assert_eq!(r.report.totals.work_units, params.work);
}

#[test]
fn bad_simulator_configurations_are_rejected() {
    let cfg = Config::new(4);
    let bad = [
        SimConfig {
            slow: vec![(4, 2.0)],
            ..SimConfig::default()
        },
        SimConfig {
            slow: vec![(1, 0.5)],
            ..SimConfig::default()
        },
        SimConfig {
            slow_links: vec![(9, 2)],
            ..SimConfig::default()
        },
        SimConfig {
            t_rout: 0,
            ..SimConfig::default()
        },
    ];
    for sim in bad {
        assert!(
            simulate(NQueens::new(6).unwrap(), &cfg, &sim).is_err(),
            "{sim:?} accepted"
        );
    }
}
