//! The simulator's proof probe (`SimConfig::proof`): it changes nothing else in a run, its
//! closed-form figures on two PEs, and the consistency of its generation levels with the
//! run's own counters.

use treesplit::{simulate, Config, SimConfig};
use treesplit_testkit::support::{Alpha, RangeSum};

fn machine(proof: bool) -> SimConfig {
    SimConfig {
        t_rout: 10,
        t_send: Some(5),
        t_recv: Some(5),
        t_split: 3,
        proof,
        ..SimConfig::default()
    }
}

#[test]
fn the_probe_changes_nothing_else() {
    let tree = Alpha {
        units: 200_000,
        alpha: 0.3,
        seed: 7,
    };
    let cfg = Config::new(37).delta_t(16).seed(3);
    let run = |proof| {
        let mut r = simulate(tree.clone(), &cfg, &machine(proof))
            .unwrap()
            .into_report();
        r.wall_seconds = 0.0;
        r.sim.proof = false;
        let probe = r.proof.take();
        (format!("{r:?}"), probe)
    };
    let (off, none) = run(false);
    let (on, probe) = run(true);
    assert!(none.is_none());
    assert!(probe.is_some());
    assert_eq!(off, on);
}

#[test]
fn two_pes_give_the_closed_form_costs() {
    // PE 1 asks PE 0 once; every request costs T_send + T_recv at each end, plus T_split when
    // answered by a piece.
    let sim = machine(true);
    let r = simulate(RangeSum::new(100_000), &Config::new(2).delta_t(50), &sim)
        .unwrap()
        .into_report();
    let p = r.proof.expect("the probe ran");
    let (t_send, t_recv) = (5, 5);
    let base = 2 * (t_send + t_recv);
    assert!(p.cpu_per_request.count > 0);
    assert!(p.cpu_per_request.max <= (base + sim.t_split) as f64);
    assert!(p.cpu_per_request.p50 >= base as f64);
    // A piece is dead at least for the latency and the victim's receive, split and send.
    let least = (sim.t_rout + t_recv + sim.t_split + t_send) as f64;
    assert!(p.dead_time.count > 0 && p.dead_time.p50 >= least / p.dead_batch as f64);
    // An answer leaves within one slice, the receive, the split and the send.
    let most = (50 + t_recv + sim.t_split + t_send) as f64;
    assert!(p.response.max <= most, "{} > {most}", p.response.max);
    assert_eq!(p.last_work_end, r.last_work_end);
}

#[test]
fn generation_levels_agree_with_the_run() {
    let tree = Alpha {
        units: 1 << 20,
        alpha: 0.25,
        seed: 11,
    };
    let r = simulate(tree, &Config::new(64).delta_t(8).seed(5), &machine(true))
        .unwrap()
        .into_report();
    let p = r.proof.expect("the probe ran");
    let t = &r.report.totals;
    // Levels 1 ..= h + 1, h the largest generation: every subproblem ended, the last of
    // them when the last work unit ended.
    assert_eq!(p.levels.len() as u32, t.max_generation + 1);
    let last = p.levels.last().unwrap();
    assert_eq!(last.time, r.last_work_end);
    assert!(last.requests <= t.requests && last.splits == t.splits);
    for w in p.levels.windows(2) {
        assert!(w[0].time <= w[1].time);
        assert!(w[0].requests <= w[1].requests && w[0].red_requests <= w[1].red_requests);
        assert!(w[0].expense <= w[1].expense && w[0].splits <= w[1].splits);
    }
    // The expense until a level is the PEs' time then, less the work done by then.
    assert_eq!(last.expense, 64 * last.time - (1 << 20));
    // Termination is detected after the last work unit; T_par ends there (the papers'
    // definition) and the results are collected after it.
    assert!(p.termination_detected >= r.last_work_end);
    assert_eq!(p.termination_detected as f64, r.report.t_par);
    assert!(r.t_collect > 0);
    // Only the pieces handed over carry a generation; the deepest one came from a split.
    assert_eq!(p.first_handed.len() as u32, t.max_generation);
    assert!(p.critical_messages >= 1 && p.critical_messages <= p.max_lineage_messages);
    assert!(p.max_lineage_messages <= 2 * u64::from(t.max_generation));
}
