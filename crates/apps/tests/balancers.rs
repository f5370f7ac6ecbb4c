//! Every balancer × {threads, simulator} × several P × {N-Queens 9, UTS T1-mini, a synthetic
//! tree}: the exact sequential answer, work conserved, and termination within a time bound.
//! The simulator runs include slow PEs, where synchronous schemes would first break.

use std::sync::mpsc;
use std::time::Duration;
use treesplit::machine::sim::Topology;
use treesplit::{run, run_sequential, simulate, Balancer, Config, SimConfig, Task};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};
use treesplit_apps::uts::{Uts, UtsParams};
use treesplit_apps::NQueens;

fn within<R: Send + 'static>(limit: Duration, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("did not finish within {limit:?} (hang?)"))
}

fn check_all<T: Task + Clone>(name: &str, root: T)
where
    T::Output: PartialEq + std::fmt::Debug,
{
    let seq = run_sequential(root.clone());
    for &balancer in Balancer::ALL {
        for p in [1, 2, 3, 8] {
            let cfg = Config::new(p)
                .balancer(balancer)
                .delta_t(64)
                .seed(p as u64 + 7);
            let r = {
                let root = root.clone();
                within(Duration::from_secs(120), move || {
                    run(root, &cfg).expect("thread run")
                })
            };
            assert_eq!(r.output, seq.output, "{name} {balancer} threads P={p}");
            assert_eq!(
                r.totals.work_units, seq.work_units,
                "{name} {balancer} threads P={p}"
            );
        }
        for (p, topology) in [
            (1, Topology::Crossbar),
            (2, Topology::Ring),
            (3, Topology::Mesh2d),
            (8, Topology::Hypercube),
            (64, Topology::Mesh2d),
        ] {
            let cfg = Config::new(p)
                .balancer(balancer)
                .delta_t(16)
                .seed(p as u64)
                .neighbourhood(topology);
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
            let r = simulate(root.clone(), &cfg, &sim).expect("simulation");
            assert_eq!(
                r.report.output, seq.output,
                "{name} {balancer} sim P={p} {topology}"
            );
            assert_eq!(
                r.report.totals.work_units, seq.work_units,
                "{name} {balancer} sim P={p} {topology}"
            );
        }
    }
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
