//! Timelines (`Config::trace`) and the report's request-latency histogram and split sizes:
//! a traced run still gives the exact answer; every PE has a timeline covering its life; the
//! histogram counts exactly the requests answered; messages pair up; a small ring drops the
//! oldest events and counts them; the simulator records the same timeline in virtual time.

use std::time::Duration;
use treesplit::machine::sim::MessageModel;
use treesplit::timeline::{Activity, Trace};
use treesplit::timeline::{EventKind, MessageKind, PeState, DEFAULT_TRACE_CAPACITY};
use treesplit::{run, simulate, Balancer, Config, ConfigError, PollingOptions, Report, SimConfig};
use treesplit_testkit::support::{within, RangeSum};

fn polling(p: usize) -> Config {
    Config::new(p)
        .delta_t(64)
        .balancer(Balancer::RandomPolling {
            polling: PollingOptions::default(),
            locality: 0,
        })
}

/// The checks every traced random-polling run passes.
fn check(report: &Report<u64>, trace: &Trace, p: usize) {
    assert_eq!(trace.pes.len(), p, "one timeline per PE");
    for (i, pe) in trace.pes.iter().enumerate() {
        assert_eq!(pe.pe as usize, i);
        assert!(!pe.is_empty(), "PE {i} recorded nothing");
        let states = pe.states();
        assert!(!states.is_empty(), "PE {i} has no states");
        // Contiguous intervals, in order, up to the PE's end.
        for w in states.windows(2) {
            assert_eq!(w[0].2, w[1].1, "PE {i}: a gap or overlap in {states:?}");
        }
        assert_eq!(states.last().unwrap().2, pe.end);
        if report.per_pe[i].counters.work_units > 0 {
            assert!(
                states.iter().any(|s| s.0 == PeState::Working),
                "PE {i} worked but has no working interval"
            );
        }
        let times: Vec<u64> = pe.events().map(|e| e.at).collect();
        assert!(
            times.windows(2).all(|w| w[0] <= w[1]),
            "PE {i}: time runs back"
        );
    }
    // Every answer to a request is one latency: rejections and pieces received (random
    // polling without fast initialization sends pieces only in answer to requests).
    let t = &report.totals;
    let answered: u64 = report
        .per_pe
        .iter()
        .map(|s| s.counters.rejections_received + s.counters.pieces_received)
        .sum();
    assert_eq!(t.request_latency.total(), answered);
    assert!(answered <= t.requests && t.requests <= answered + p as u64);
    let per_pe: u64 = report
        .per_pe
        .iter()
        .map(|s| s.request_latency.total())
        .sum();
    assert_eq!(per_pe, answered);
    // The trace saw the same answers arrive, and pairs every message it kept both ends of.
    let received = trace
        .pes
        .iter()
        .flat_map(|pe| pe.events())
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Receive {
                    kind: MessageKind::Reject | MessageKind::Work,
                    ..
                }
            )
        })
        .count() as u64;
    assert_eq!(received, answered);
    let messages = trace.messages();
    let sent: u64 = report.per_pe.iter().map(|s| s.counters.messages_sent).sum();
    assert!(messages.len() as u64 <= sent);
    assert!(messages.iter().all(|m| m.3 >= m.1));
    // Split sizes: every piece given away, with its estimate (RangeSum estimates exactly).
    let z = &t.split_sizes;
    let pieces: u64 = report.per_pe.iter().map(|s| s.counters.pieces_sent).sum();
    assert_eq!(z.pieces, pieces);
    assert_eq!(z.estimated, pieces);
    assert_eq!(z.sizes.total(), pieces);
    // Halves of what was left (pieces split again are counted again, so no bound on the sum).
    assert!(z.max_units <= t.work_units / 2 + 1 && z.units >= z.max_units);
}

#[test]
fn a_traced_thread_run_is_exact_and_every_pe_has_a_timeline() {
    let (n, p) = (300_000, 4);
    let root = RangeSum::spinning(n, 64);
    let expected = root.expected();
    let cfg = polling(p).trace(DEFAULT_TRACE_CAPACITY);
    let r = within(Duration::from_secs(60), move || {
        run(root, &cfg).unwrap().into_report()
    });
    assert_eq!(r.output, expected);
    assert_eq!(r.totals.work_units, n);
    let trace = r.trace.as_ref().expect("a trace was asked for");
    assert_eq!(trace.dropped(), 0);
    assert_eq!(trace.tick_seconds, 1e-9);
    check(&r, trace, p);
    // The trace stays out of the JSON report, and the config says nothing when it is off.
    assert!(run(RangeSum::new(1000), &Config::new(2))
        .unwrap()
        .into_report()
        .trace
        .is_none());
}

#[test]
fn a_small_ring_keeps_the_newest_events_and_counts_the_rest() {
    let root = RangeSum::spinning(200_000, 16);
    let expected = root.expected();
    let cfg = polling(3).delta_t(16).trace(4);
    let r = within(Duration::from_secs(60), move || {
        run(root, &cfg).unwrap().into_report()
    });
    assert_eq!(r.output, expected);
    let trace = r.trace.unwrap();
    for pe in &trace.pes {
        assert!(pe.len() <= 4);
    }
    assert!(trace.dropped() > 0, "a 4-event ring must overflow");
}

#[test]
fn the_simulator_records_the_same_timeline_in_virtual_time() {
    let (n, p) = (50_000, 8);
    let cfg = polling(p).delta_t(10).trace(DEFAULT_TRACE_CAPACITY);
    let s = simulate(RangeSum::new(n), &cfg, &SimConfig::default())
        .unwrap()
        .into_report();
    let r = &s.report;
    assert_eq!(r.output, RangeSum::new(n).expected());
    let trace = r.trace.as_ref().unwrap();
    assert_eq!(trace.tick_seconds, 1.0);
    check(r, trace, p);
    for (pe, stats) in trace.pes.iter().zip(&r.per_pe) {
        // One unit takes one time unit, all of it in working (or splitting) intervals, and
        // the PE ends with T_par's bookkeeping.
        let busy: u64 = pe
            .states()
            .iter()
            .filter(|s| s.0.is_busy())
            .map(|s| s.2 - s.1)
            .sum();
        assert!(busy >= stats.counters.work_units, "PE {}", pe.pe);
    }
    // PE 0's trace ends when it holds the result: T_par (termination detected) and the
    // collection after it.
    assert_eq!(trace.pes[0].end as f64, r.t_par + s.t_collect as f64);
    // Deterministic: the same run records the same timeline.
    let again = simulate(RangeSum::new(n), &cfg, &SimConfig::default())
        .unwrap()
        .into_report();
    let a: Vec<_> = trace.pes.iter().map(|pe| pe.states()).collect();
    let b: Vec<_> = again
        .report
        .trace
        .unwrap()
        .pes
        .iter()
        .map(|pe| pe.states())
        .collect();
    assert_eq!(a, b);
}

#[test]
fn the_simulators_activity_log_agrees_with_its_counts_and_its_trace() {
    let (n, p) = (50_000, 8);
    let cfg = polling(p).delta_t(10).trace(DEFAULT_TRACE_CAPACITY);
    let sim = SimConfig {
        model: MessageModel::LatencyOnly,
        t_send: Some(2),
        t_recv: Some(3),
        ..SimConfig::default()
    };
    let s = simulate(RangeSum::new(n), &cfg, &sim)
        .unwrap()
        .into_report();
    let r = &s.report;
    let segments = s.timeline.as_ref().expect("segments are kept for P ≤ 512");
    let time = |pe: usize, a: Activity| -> u64 {
        segments
            .iter()
            .filter(|s| s.pe as usize == pe && s.activity == a)
            .map(|s| s.end - s.start)
            .sum()
    };
    let trace = r.trace.as_ref().unwrap();
    let from_trace = trace.activities(true).into_segments().unwrap();
    for (pe, stats) in r.per_pe.iter().enumerate() {
        let c = &stats.counters;
        // One unit takes one time unit; each split T_split (5), each message T_send and
        // T_recv.
        assert_eq!(time(pe, Activity::Working), c.work_units, "PE {pe}");
        assert_eq!(time(pe, Activity::Splitting), 5 * c.splits, "PE {pe}");
        assert_eq!(time(pe, Activity::Sending), 2 * c.messages_sent, "PE {pe}");
        assert!(time(pe, Activity::Receiving) > 0, "PE {pe}");
        // The trace's busy states hold the busy activities (and the messages handled
        // between slices).
        let traced: u64 = from_trace
            .iter()
            .filter(|s| {
                s.pe as usize == pe && matches!(s.activity, Activity::Working | Activity::Splitting)
            })
            .map(|s| s.end - s.start)
            .sum();
        assert!(traced >= c.work_units + 5 * c.splits, "PE {pe}");
    }
    // The curve holds exactly the busy time, in its bins.
    let width = s.utilization.get(1).map_or(1, |b| b.0);
    let busy: f64 = s
        .utilization
        .iter()
        .map(|&(_, f)| f * (p as u64 * width) as f64)
        .sum();
    let expected = (r.totals.work_units + 5 * r.totals.splits) as f64;
    assert!(
        (busy - expected).abs() < 1e-6 * expected,
        "{busy} against {expected}"
    );
}

#[test]
fn a_trace_ring_must_hold_at_least_one_event() {
    assert!(matches!(
        Config::new(2).trace(0).validate(),
        Err(ConfigError::TraceCapacity { capacity: 0, .. })
    ));
    assert!(Config::new(2).trace(1).validate().is_ok());
}
