//! The simulator on real applications: the published answers (N-Queens, UTS) and exact
//! work conservation on every P and network. The simulator engine itself (reproducibility
//! from the seed, adversaries, closed-form times, overheads, errors, the efficiency on the
//! synthetic tree of paper 004) is tested on the library's own tasks in
//! `crates/treesplit/tests/simulator.rs`.

use treesplit::machine::sim::Topology;
use treesplit::{run_sequential, simulate, Config, SimConfig};
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
            let q = simulate(NQueens::new(9).unwrap(), &cfg, &sim)
                .unwrap()
                .into_report();
            assert_eq!(q.report.output, 352, "nqueens P={p} {topology}");
            assert_eq!(
                q.report.totals.work_units, seq_q.work_units,
                "nqueens P={p} {topology}"
            );
            let u = simulate(Uts::new(t1_mini()), &cfg, &sim)
                .unwrap()
                .into_report();
            assert_eq!(u.report.output, seq_u.output, "uts P={p} {topology}");
            assert_eq!(u.report.totals.work_units, 63_914, "uts P={p} {topology}");
        }
    }
}
