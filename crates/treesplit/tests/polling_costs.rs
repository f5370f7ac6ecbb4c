//! The simulator's costs of polling and of a global counter (paper 000 §1.3–§3), on cases
//! small enough to compute by hand: T_poll for every probe of an empty queue at a slice end,
//! the polling interval ⌈αΔt⌉, T_count for every increment of global round robin's counter;
//! what the report counts of them; that run-ahead changes nothing with them; and that with the
//! defaults nothing is charged or reported.

use treesplit::timeline::Activity;
use treesplit::{simulate, Balancer, BalancerKind, Config, ConfigError, Jobs, RunError, SimConfig};
use treesplit_testkit::support::{RangeSum, Tree};

fn machine(t_poll: u64, poll_alpha: f64, t_count: u64) -> SimConfig {
    SimConfig {
        t_poll,
        poll_alpha,
        t_count,
        ..SimConfig::default()
    }
}

/// The time PE `pe` spent on `activity` in the run's timeline.
fn time_on(r: &treesplit::SimReport<u64>, pe: usize, activity: Activity) -> u64 {
    r.timeline
        .as_ref()
        .expect("a timeline at small P")
        .iter()
        .filter(|s| s.pe as usize == pe && s.activity == activity)
        .map(|s| s.end - s.start)
        .sum()
}

/// The time PE `pe` first worked.
fn first_work(r: &treesplit::SimReport<u64>, pe: usize) -> u64 {
    r.timeline
        .as_ref()
        .expect("a timeline at small P")
        .iter()
        .filter(|s| s.pe as usize == pe && s.activity == Activity::Working)
        .map(|s| s.start)
        .min()
        .expect("the PE worked")
}

#[test]
fn one_pe_pays_t_poll_at_every_slice_end() {
    // One PE, 1,000 units, no messages: it works in slices of ⌈αΔt⌉ units and probes its
    // empty queue after each, the last one included (paper 000 Fig. 1: work, then probe).
    // T_par = 1,000 + slices · T_poll.
    for (delta_t, alpha, t_poll, slices) in [
        (64, 1.0, 3, 16), // ⌈1000/64⌉
        (64, 0.5, 3, 32), // ⌈αΔt⌉ = 32: ⌈1000/32⌉ = 32
        (64, 0.3, 3, 50), // ⌈19.2⌉ = 20: 50 slices
        (1_000, 1.0, 7, 1),
        (100, 1.0, 5, 10),
        (64, 1.0, 0, 16), // free probes: exactly T_seq
    ] {
        let r = simulate(
            RangeSum::new(1_000),
            &Config::new(1).delta_t(delta_t),
            &machine(t_poll, alpha, 0),
        )
        .unwrap()
        .into_report();
        let what = format!("Δt {delta_t}, α {alpha}, T_poll {t_poll}");
        let pe = &r.report.per_pe[0];
        assert_eq!(pe.counters.slices, slices, "{what}");
        let probes = if t_poll > 0 { slices } else { 0 };
        assert_eq!(pe.polling.probes, probes, "{what}");
        assert_eq!(pe.polling.probe_time, (probes * t_poll) as f64, "{what}");
        assert_eq!(r.report.totals.polling.probes, probes, "{what}");
        assert_eq!(r.report.t_par, (1_000 + slices * t_poll) as f64, "{what}");
        assert_eq!(pe.busy, r.report.t_par, "{what}: probes are busy time");
        assert_eq!(time_on(&r, 0, Activity::Working), 1_000, "{what}");
        assert_eq!(
            time_on(&r, 0, Activity::Receiving),
            probes * t_poll,
            "{what}"
        );
        assert_eq!(r.report.output, 1_000 * 999 / 2, "{what}");
    }
}

#[test]
fn a_request_that_arrives_during_a_probe_waits_for_the_next_slice_end() {
    // P = 2, blocking messages with T_rout 40 (T_send = T_recv = 20), T_split 5, Δt 50.
    // PE 1 asks PE 0 at once: the request leaves at 20 and arrives at 60. PE 0's first slice
    // ends at 50 with its queue empty.
    // - T_poll 0: the next slice ends at 100 and sees the request; receive (120), split
    //   (125), send (145); the piece arrives at 185 and PE 1 receives it by 205.
    // - T_poll 20: PE 0 probes over [50, 70) (the request arrives meanwhile and is not
    //   seen), works [70, 120), sees it at 120: 140, 145, 165; the piece arrives at 205 and
    //   PE 1 works from 225.
    for (t_poll, pe1_starts) in [(0, 205), (20, 225)] {
        let sim = SimConfig {
            t_rout: 40,
            t_split: 5,
            t_poll,
            ..SimConfig::default()
        };
        let r = simulate(RangeSum::new(100_000), &Config::new(2).delta_t(50), &sim)
            .unwrap()
            .into_report();
        assert_eq!(first_work(&r, 1), pe1_starts, "T_poll {t_poll}");
        if t_poll > 0 {
            let probe = r
                .timeline
                .as_ref()
                .unwrap()
                .iter()
                .find(|s| s.pe == 0 && s.activity == Activity::Receiving)
                .copied()
                .expect("PE 0 probed");
            assert_eq!((probe.start, probe.end), (50, 70));
        }
        assert_eq!(r.report.totals.work_units, 100_000);
        // Every probe cost T_poll, and no probe found a message.
        for pe in &r.report.per_pe {
            assert_eq!(pe.polling.probe_time, (pe.polling.probes * t_poll) as f64);
            assert!(pe.polling.probes <= pe.counters.slices);
        }
    }
}

#[test]
fn global_round_robin_pays_t_count_at_the_counter() {
    // P = 2, global round robin, T_rout 10 (T_send = T_recv = 5), T_split 5, Δt 50. PE 1
    // asks PE 0 for the counter at once (arrives at 15); PE 0 sees it at its slice end 50:
    // receive (55), increment (55 + T_count), answer (60 + T_count, arrives at
    // 70 + T_count); PE 1 receives it and asks PE 0 for work (arrives at 90 + T_count); PE 0
    // sees the request at the end of its next slice (110 + T_count): receive, split, send
    // (125 + T_count, arrives at 135 + T_count); PE 1 works from 140 + T_count.
    for t_count in [0, 7, 100] {
        let cfg = Config::new(2)
            .balancer(Balancer::new(BalancerKind::GlobalRoundRobin))
            .delta_t(50);
        let r = simulate(RangeSum::new(100_000), &cfg, &machine(0, 1.0, t_count))
            .unwrap()
            .into_report();
        assert_eq!(first_work(&r, 1), 140 + t_count, "T_count {t_count}");
        let (pe0, pe1) = (&r.report.per_pe[0], &r.report.per_pe[1]);
        if t_count > 0 {
            assert!(pe0.polling.counts >= 1, "T_count {t_count}");
        } else {
            assert_eq!(pe0.polling.counts, 0, "free increments are not counted");
        }
        assert_eq!(
            pe0.polling.count_time,
            (pe0.polling.counts * t_count) as f64
        );
        assert_eq!(pe1.polling.counts, 0, "only PE 0 holds the counter");
        assert_eq!(r.report.totals.polling.counts, pe0.polling.counts);
        assert_eq!(r.report.totals.work_units, 100_000);
    }
}

#[test]
fn random_polling_keeps_no_counter() {
    let cfg = Config::new(16).delta_t(20).seed(3);
    let r = simulate(Tree::medium(), &cfg, &machine(0, 1.0, 50))
        .unwrap()
        .into_report();
    assert_eq!(r.report.totals.polling.counts, 0);
    assert_eq!(r.report.totals.polling.count_time, 0.0);
}

#[test]
fn a_single_pe_pays_one_probe_per_slice_under_every_balancer() {
    // No messages on one PE: beyond the work, the run takes T_poll per slice end (one per
    // slice of a dynamic balancer), T_count per increment of a counter the PE keeps (the
    // shared-memory master–worker's, PE 0's in the simulator), and a static balancer
    // T_split per cut besides.
    let units = Tree::small().count().nodes;
    for balancer in BalancerKind::ALL {
        let cfg = Config::new(1)
            .delta_t(7)
            .balancer(Balancer::new(*balancer).with_jobs(Jobs::Depth(4)));
        let sim = machine(3, 0.5, 11);
        let r = simulate(Tree::small(), &cfg, &sim).unwrap().into_report();
        let pe = &r.report.per_pe[0];
        let beyond = r.report.t_par as u64
            - units
            - pe.polling.probes * sim.t_poll
            - pe.polling.counts * sim.t_count;
        assert_eq!(beyond % sim.t_split, 0, "{balancer}: {beyond}");
        if !balancer.is_static() {
            assert_eq!(pe.polling.probes, pe.counters.slices, "{balancer}");
            assert_eq!(beyond, 0, "{balancer}");
        } else {
            // The slice that cuts the bag ends in a probe too, though it works no job.
            assert!(pe.polling.probes >= pe.counters.slices, "{balancer}");
        }
        assert_eq!(r.report.totals.work_units, units, "{balancer}");
    }
}

/// The JSON keys of the new parameters and figures.
const KEYS: [&str; 7] = [
    "t_poll",
    "poll_alpha",
    "t_count",
    "probes",
    "probe_time",
    "counts",
    "count_time",
];

/// The run's JSON report and summary, and which of [`KEYS`] the report holds.
fn keys_of(sim: &SimConfig) -> (String, Vec<&'static str>) {
    let cfg = Config::new(16)
        .balancer(Balancer::new(BalancerKind::GlobalRoundRobin))
        .delta_t(20)
        .seed(3);
    let r = simulate(Tree::medium(), &cfg, sim).unwrap().into_report();
    let json = serde_json::to_string(&r).unwrap();
    let held = KEYS
        .into_iter()
        .filter(|key| json.contains(&format!("\"{key}\"")))
        .collect();
    (r.summary(), held)
}

#[test]
fn the_defaults_charge_nothing_and_report_nothing_new() {
    let (summary, held) = keys_of(&SimConfig::default());
    assert!(held.is_empty(), "{held:?} in a default report");
    assert!(!summary.contains("T_poll") && !summary.contains("T_count"));
    // Given, they are in the report.
    let (summary, held) = keys_of(&machine(2, 0.5, 3));
    assert_eq!(held, KEYS);
    assert!(summary.contains("T_poll 2, α 0.5"), "{summary}");
    assert!(summary.contains("T_count 3"), "{summary}");
}

#[test]
fn alpha_outside_the_unit_interval_and_huge_costs_are_refused() {
    for alpha in [0.0, -0.5, 1.5, f64::NAN] {
        let e = simulate(RangeSum::new(10), &Config::new(2), &machine(0, alpha, 0)).unwrap_err();
        assert!(
            matches!(e, RunError::InvalidConfig(ConfigError::PollAlpha(_))),
            "α {alpha}: {e}"
        );
    }
    for sim in [
        machine(2_000_000_000_000, 1.0, 0),
        machine(0, 1.0, 2_000_000_000_000),
    ] {
        let e = simulate(RangeSum::new(10), &Config::new(2), &sim).unwrap_err();
        assert!(
            matches!(
                e,
                RunError::InvalidConfig(ConfigError::SimTimeTooLarge { .. })
            ),
            "{e}"
        );
    }
}

#[test]
fn the_poll_interval_is_the_ceiling_of_alpha_delta_t() {
    let at = |alpha, delta_t| machine(0, alpha, 0).poll_interval(delta_t);
    assert_eq!(at(1.0, 64), 64);
    assert_eq!(at(0.5, 64), 32);
    assert_eq!(at(0.3, 64), 20);
    assert_eq!(at(0.01, 10), 1);
    assert_eq!(at(0.999, 1), 1);
}

#[test]
fn run_ahead_changes_nothing_with_probes_that_cost() {
    // A recorded trace keeps the driver from running ahead (every slice end is an event);
    // the JSON report (which leaves the trace out) is the same either way. Above the timeline
    // limit (512 PEs), where the engine runs ahead with T_poll > 0.
    for balancer in BalancerKind::ALL {
        for t_poll in [1, 6] {
            let cfg = Config::new(600)
                .balancer(Balancer::new(*balancer).with_jobs(Jobs::Depth(6)))
                .delta_t(9)
                .seed(4);
            let sim = machine(t_poll, 0.7, 2);
            let json = |cfg: &Config| {
                let mut r = simulate(Tree::medium(), cfg, &sim).unwrap().into_report();
                r.report.config.trace = None;
                serde_json::to_string(&r).unwrap()
            };
            let mut traced = cfg.clone();
            traced.trace = Some(1 << 16);
            assert_eq!(json(&cfg), json(&traced), "{balancer} T_poll {t_poll}");
        }
    }
}
