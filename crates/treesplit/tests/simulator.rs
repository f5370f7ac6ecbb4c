//! The simulator engine itself, on the support tasks: the sequential answer on every P and
//! network, reproducibility bit for bit from the seed, adversaries (empty splits, slow PEs,
//! slow links, random delays, also with the costs of polling and of a global counter on),
//! closed-form times (one PE, slow PEs, latencies, slow links),
//! the charging of T_send, T_recv and T_split, the figures of Theorem 1 and Theorem 14.2,
//! errors instead of hangs (panics, no progress, the event limit, bad machines), and the
//! efficiency random polling must reach on the synthetic tree of paper 004.

use treesplit::machine::sim::adversary::EmptySplits;
use treesplit::machine::sim::Delay;
use treesplit::machine::sim::MessageModel;
use treesplit::machine::sim::Topology;
use treesplit::timeline::Activity;
use treesplit::{
    run_sequential, simulate, Balancer, BalancerKind, Config, ConfigError, Jobs, RunError,
    SimConfig,
};
use treesplit_testkit::support::{with_round, Alpha, RangeSum, Tree};

#[test]
fn every_p_and_network_gives_the_sequential_answer() {
    let tree = Tree::medium();
    let want = tree.count();
    assert_eq!(run_sequential(tree.clone()).output, want);
    for p in [1, 2, 3, 4, 7, 16, 64, 512] {
        for topology in Topology::ALL {
            let sim = SimConfig {
                topology: *topology,
                ..SimConfig::default()
            };
            let cfg = Config::new(p).delta_t(10).seed(p as u64);
            let r = simulate(tree.clone(), &cfg, &sim).unwrap().into_report();
            assert_eq!(r.report.output, want, "P={p} {topology}");
            assert_eq!(r.report.totals.work_units, want.nodes, "P={p} {topology}");
            assert_eq!(r.report.per_pe.len(), p);
            assert_eq!(r.report.machine, "sim");
        }
    }
}

#[test]
fn same_seed_same_report_byte_for_byte() {
    let sim = SimConfig {
        topology: Topology::Mesh2d,
        delay: Delay::Exponential(7.5),
        model: MessageModel::LatencyOnly,
        t_send: Some(1),
        t_recv: Some(2),
        ..SimConfig::default()
    };
    // The whole report, timeline included, but the real time the simulation took.
    let bytes = |seed| {
        let mut r = simulate(
            Tree::medium(),
            &Config::new(37).delta_t(16).seed(seed),
            &sim,
        )
        .unwrap()
        .into_report();
        r.wall_seconds = 0.0;
        format!("{r:?}")
    };
    let a = bytes(5);
    assert_eq!(a, bytes(5), "same seed, different output");
    assert_ne!(a, bytes(6), "the seed has no effect");
}

#[test]
fn adversaries_do_not_change_the_answer() {
    let tree = Tree::medium();
    let want = tree.count();
    let sim = SimConfig {
        topology: Topology::Ring,
        delay: Delay::Uniform(40),
        slow: vec![(0, 8.0), (5, 3.5)],
        slow_links: vec![(1, 5_000), (9, 700)],
        t_send: Some(12),
        ..SimConfig::default()
    };
    // And with the costs of polling and of a global counter on (paper 000 §1.3–§3).
    let costly = SimConfig {
        t_poll: 4,
        poll_alpha: 0.4,
        t_count: 9,
        ..sim.clone()
    };
    for (balancer, sim) in BalancerKind::ALL
        .iter()
        .flat_map(|b| [(b, &sim), (b, &costly)])
    {
        for p in [10, 33, 64] {
            let cfg = Config::new(p)
                .balancer(with_round(
                    Balancer::new(*balancer).with_jobs(Jobs::Depth(8)),
                    40,
                ))
                .delta_t(25)
                .seed(11);
            let r = simulate(EmptySplits::new(tree.clone(), 0.5, 9), &cfg, sim)
                .unwrap_or_else(|e| panic!("{balancer} P={p}: {e}"))
                .into_report();
            assert_eq!(r.report.output, want, "{balancer} P={p}");
            assert_eq!(r.report.totals.work_units, want.nodes, "{balancer} P={p}");
        }
    }
}

/// The protocol adversary (the negative controls of `treesplit reproduce`) does what it names
/// and nothing else: with a fixed victim every request of the other PEs goes to it, with a
/// chain reduction the end is still found but later, and either way the answer is right; off
/// (the default), the machine's JSON carries no trace of it.
#[test]
fn the_protocol_adversary_does_what_it_names() {
    use treesplit::machine::sim::adversary::Adversary;
    let tree = Tree::medium();
    let want = tree.count();
    let cfg = Config::new(64).delta_t(10).seed(3);
    let run = |adversary| {
        let sim = SimConfig {
            adversary,
            ..SimConfig::default()
        };
        simulate(tree.clone(), &cfg, &sim).unwrap().into_report()
    };
    let plain = run(Adversary::default());
    let json = serde_json::to_string(&plain.sim).unwrap();
    assert!(!json.contains("adversary"), "{json}");
    let fixed = run(Adversary {
        fixed_victim: Some(5),
        ..Adversary::default()
    });
    assert_eq!(fixed.report.output, want);
    let pes = &fixed.report.per_pe;
    let at_victim = pes[5].counters.requests_received;
    let elsewhere: u64 = pes
        .iter()
        .map(|s| s.counters.requests_received)
        .sum::<u64>()
        - at_victim;
    assert!(at_victim > 0);
    assert!(
        elsewhere <= pes[5].counters.requests_sent,
        "{elsewhere} requests reached PEs other than the fixed victim, which sent only {}",
        pes[5].counters.requests_sent
    );
    let chain = run(Adversary {
        chain_reduction: true,
        ..Adversary::default()
    });
    assert_eq!(chain.report.output, want);
    assert!(chain.termination_delay > 4 * plain.termination_delay);
}

#[test]
fn a_single_pe_takes_exactly_t_seq() {
    for balancer in BalancerKind::ALL {
        let cfg = Config::new(1)
            .delta_t(7)
            .balancer(Balancer::new(*balancer).with_jobs(Jobs::Depth(4)));
        let r = simulate(Tree::small(), &cfg, &SimConfig::default())
            .unwrap()
            .into_report();
        let units = Tree::small().count().nodes;
        assert_eq!(r.report.totals.messages, 0, "{balancer}");
        if !balancer.is_static() {
            assert_eq!(
                r.report.t_par, units as f64,
                "{balancer}: no communication, no overhead"
            );
        } else {
            // Cutting the 2^4 jobs costs T_split per split, and nothing else.
            assert!(r.report.t_par >= units as f64, "{balancer}");
            assert_eq!(
                (r.report.t_par as u64 - units) % SimConfig::default().t_split,
                0,
                "{balancer}: {} beyond the work is not a multiple of T_split",
                r.report.t_par as u64 - units
            );
        }
        assert_eq!(r.report.t_seq, Some(units as f64));
        assert_eq!(r.last_work_end, r.report.t_par as u64, "{balancer}");
        assert_eq!(r.termination_delay, 0, "{balancer}");
    }
}

#[test]
fn slow_pes_take_proportionally_longer() {
    for (factor, n) in [(3.0, 100_000u64), (2.5, 10_001)] {
        let fast = simulate(RangeSum::new(n), &Config::new(1), &SimConfig::default())
            .unwrap()
            .into_report();
        let slow_sim = SimConfig {
            slow: vec![(0, factor)],
            ..SimConfig::default()
        };
        let slow = simulate(RangeSum::new(n), &Config::new(1).delta_t(n), &slow_sim)
            .unwrap()
            .into_report();
        assert_eq!(fast.report.t_par, n as f64);
        assert_eq!(
            slow.report.t_par,
            (n as f64 * factor).ceil(),
            "factor {factor}"
        );
        assert_eq!(slow.report.output, n * (n - 1) / 2);
    }
}

#[test]
fn the_first_steal_waits_for_a_request_and_an_answer() {
    // P = 2: PE 1 asks at time 0, PE 0 answers after its slice, the piece travels back: PE 1
    // starts work no earlier than 2·latency, and no earlier than the end of PE 0's first slice
    // plus T_split plus the latency.
    for (topology, t_rout, t_hop, slow_link) in [
        (Topology::Crossbar, 10, None, 0),
        (Topology::Crossbar, 300, None, 0),
        (Topology::Ring, 10, Some(70), 0),
        (Topology::Crossbar, 10, None, 1_000),
    ] {
        let sim = SimConfig {
            topology,
            t_rout,
            t_hop,
            slow_links: if slow_link > 0 {
                vec![(1, slow_link)]
            } else {
                vec![]
            },
            ..SimConfig::default()
        };
        let latency = t_hop.unwrap_or(t_rout);
        let delta_t = 50;
        let r = simulate(
            RangeSum::new(100_000),
            &Config::new(2).delta_t(delta_t),
            &sim,
        )
        .unwrap()
        .into_report();
        let segments = r.timeline.as_ref().expect("a timeline at P = 2");
        let first = segments
            .iter()
            .filter(|s| s.pe == 1 && s.activity == Activity::Working)
            .map(|s| s.start)
            .min()
            .expect("PE 1 worked");
        // The request from PE 1 pays its slow link; the piece from PE 0 does not.
        let request = latency + slow_link;
        let answer_sent = request.div_ceil(delta_t) * delta_t + sim.t_split;
        assert!(
            first >= answer_sent + latency,
            "{topology} T_rout={t_rout}: PE 1 started at {first}, before {}",
            answer_sent + latency
        );
        assert_eq!(r.diameter_latency, latency, "{topology} P=2");
        assert_eq!(r.report.totals.work_units, 100_000);
    }
}

#[test]
fn a_slow_link_can_keep_a_pe_out_of_the_run() {
    // PE 1's request takes 5,000 extra units to reach PE 0, which has finished the 3,000
    // units by then: PE 1 does nothing, and the run takes the work plus termination.
    let sim = SimConfig {
        slow_links: vec![(1, 5_000)],
        ..SimConfig::default()
    };
    let r = simulate(RangeSum::new(3_000), &Config::new(2).delta_t(10), &sim)
        .unwrap()
        .into_report();
    assert_eq!(r.report.per_pe[1].counters.work_units, 0);
    assert_eq!(r.report.per_pe[0].counters.work_units, 3_000);
    // PE 0 first sends the first termination wave to PE 1, paying T_send.
    assert_eq!(r.last_work_end, 3_000 + sim.send_cost());
    assert_eq!(r.report.output, 3_000 * 2_999 / 2);
}

#[test]
fn diameter_latency_follows_the_topology() {
    // Closed forms: ring ⌊P/2⌋ hops, 2-D mesh 2(⌈√P⌉−1), 3-D mesh 3(⌈∛P⌉−1), hypercube
    // ⌈log₂ P⌉, fat tree 2⌈log₂ P⌉, crossbar 1, mesh of trees
    // 2·(bits of side − 1) + 2·(bits of rows − 1) (64 PEs: 8×8, 4·3; 30: 6 columns, 5 rows, 2·3 + 2·3; 12: 4 columns, 3 rows, 2·2 + 2·2).
    let t_hop = 7;
    for (p, topology, hops) in [
        (64, Topology::Crossbar, 1),
        (64, Topology::Ring, 32),
        (9, Topology::Ring, 4),
        (64, Topology::Mesh2d, 14),
        (10, Topology::Mesh2d, 6),
        (64, Topology::Mesh3d, 9),
        (64, Topology::Hypercube, 6),
        (100, Topology::Hypercube, 7),
        (64, Topology::FatTree, 12),
        (64, Topology::MeshOfTrees, 12),
        (30, Topology::MeshOfTrees, 12),
        (12, Topology::MeshOfTrees, 8),
    ] {
        // A message on the crossbar takes T_rout; elsewhere each hop takes T_hop.
        let sim = SimConfig {
            topology,
            t_rout: if topology == Topology::Crossbar {
                t_hop
            } else {
                10
            },
            t_hop: (topology != Topology::Crossbar).then_some(t_hop),
            ..SimConfig::default()
        };
        let r = simulate(RangeSum::new(5_000), &Config::new(p).delta_t(20), &sim)
            .unwrap()
            .into_report();
        assert_eq!(r.diameter_latency, hops * t_hop, "{topology} P={p}");
        assert_eq!(r.report.totals.work_units, 5_000);
    }
}

#[test]
fn longer_latencies_cost_time() {
    // The same work at P = 16 under ever slower networks: T_par grows with T_rout.
    let mut last = 0.0;
    for t_rout in [1, 100, 2_000, 20_000] {
        let sim = SimConfig {
            t_rout,
            ..SimConfig::default()
        };
        let r = simulate(Tree::medium(), &Config::new(16).delta_t(10), &sim)
            .unwrap()
            .into_report();
        assert!(
            r.report.t_par > last,
            "T_rout={t_rout}: T_par {} not above {last}",
            r.report.t_par
        );
        last = r.report.t_par;
    }
}

#[test]
fn busy_time_is_work_plus_the_charged_overheads() {
    // Busy time is exactly work + T_send per message sent + T_recv per message handled +
    // T_split per split; a message is handled at most once, and every piece sent is handled.
    let tree = Tree::medium();
    let units = tree.count().nodes;
    for (t_send, t_recv, t_split) in [(0, 0, 5), (3, 0, 5), (0, 4, 5), (2, 3, 11), (1, 1, 1)] {
        let sim = SimConfig {
            model: MessageModel::LatencyOnly,
            t_send: Some(t_send),
            t_recv: Some(t_recv),
            t_split,
            ..SimConfig::default()
        };
        for balancer in [BalancerKind::RandomPolling, BalancerKind::GlobalRoundRobin] {
            let r = simulate(
                tree.clone(),
                &Config::new(8).delta_t(10).balancer(balancer),
                &sim,
            )
            .unwrap()
            .into_report();
            let t = &r.report.totals;
            assert!(t.splits > 0 && t.messages > 0);
            let base = t.work_units + t_send * t.messages + t_split * t.splits;
            let busy = t.busy as u64;
            let what = format!("{balancer} T_send={t_send} T_recv={t_recv} T_split={t_split}");
            assert_eq!(t.work_units, units, "{what}");
            assert!(busy >= base, "{what}: busy {busy} < {base}");
            assert!(
                busy <= base + t_recv * t.messages,
                "{what}: busy {busy} > {} + T_recv per message",
                base
            );
            assert_eq!((busy - base) % t_recv.max(1), 0, "{what}");
            if let Some(handled) = (busy - base).checked_div(t_recv) {
                assert!(handled >= t.pieces_received, "{what}: {handled} handled");
            }
            // Per PE, busy + idle covers the time it took part.
            for pe in &r.report.per_pe {
                let end = r.report.t_par + r.t_collect as f64;
                assert!(pe.busy + pe.idle <= end, "{what} PE {}", pe.pe);
            }
        }
    }
}

#[test]
fn timeline_segments_are_disjoint_and_account_for_busy_time() {
    let sim = SimConfig {
        t_send: Some(2),
        t_recv: Some(9),
        slow: vec![(3, 2.0)],
        ..SimConfig::default()
    };
    let r = simulate(Tree::medium(), &Config::new(8).delta_t(10), &sim)
        .unwrap()
        .into_report();
    let segments = r.timeline.as_ref().unwrap();
    for pe in 0..8u32 {
        let mut mine: Vec<_> = segments.iter().filter(|s| s.pe == pe).collect();
        mine.sort_by_key(|s| s.start);
        for w in mine.windows(2) {
            assert!(
                w[0].end <= w[1].start,
                "PE {pe}: overlapping segments {w:?}"
            );
        }
        let busy: u64 = mine
            .iter()
            .filter(|s| s.activity != Activity::Idle)
            .map(|s| s.end - s.start)
            .sum();
        assert_eq!(busy as f64, r.report.per_pe[pe as usize].busy, "PE {pe}");
        assert!(mine.last().unwrap().end <= r.report.t_par as u64 + r.t_collect);
    }
    assert!(r.utilization.iter().all(|&(_, u)| (0.0..=1.0).contains(&u)));
    let big = SimConfig {
        timeline_limit: 4,
        ..SimConfig::default()
    };
    let r = simulate(Tree::small(), &Config::new(8), &big)
        .unwrap()
        .into_report();
    assert!(r.timeline.is_none(), "a timeline beyond timeline_limit");
}

#[test]
fn theorem_figures_are_computed_from_the_run() {
    let sim = SimConfig::default();
    for (p, balancer) in [
        (16, BalancerKind::RandomPolling),
        (64, BalancerKind::RandomShift),
        (7, BalancerKind::RandomShift),
    ] {
        let cfg = Config::new(p)
            .delta_t(10)
            .balancer(with_round(balancer.into(), 40));
        assert_eq!(
            cfg.balancer.round().is_some(),
            balancer == BalancerKind::RandomShift
        );
        let n = 200_000u64;
        let r = simulate(RangeSum::new(n), &cfg, &sim)
            .unwrap()
            .into_report();
        let t = &r.theorem1;
        let what = format!("{balancer} P={p}");
        assert_eq!(t.t_seq_over_p, n as f64 / p as f64, "{what}");
        assert_eq!(
            t.lower_order,
            r.report.t_par - n as f64 / p as f64,
            "{what}"
        );
        assert_eq!(t.h, r.report.totals.max_generation, "{what}");
        // Halving splits of a range of n: no piece is deeper than ⌈log₂ n⌉.
        assert!(t.h >= 1 && t.h <= 18, "{what}: h = {}", t.h);
        let constant = t.lower_order / (f64::from(t.h) * (sim.t_rout + sim.t_split) as f64);
        assert!(
            (t.constant.expect("h > 0") - constant).abs() < 1e-9,
            "{what}"
        );
        assert!(t.lower_order >= 0.0, "{what}: faster than T_seq/P");
        match (balancer, r.theorem_14_2) {
            (BalancerKind::RandomShift, Some(bound)) => {
                // T_seq/P + (3ch + 3)Δ, c = 2 + 4 ln 2: holds w.h.p. (t_atomic ≤ Δt here).
                let c = 2.0 + 4.0 * std::f64::consts::LN_2;
                let want = n as f64 / p as f64 + (3.0 * c * f64::from(t.h) + 3.0) * 40.0;
                assert!((bound - want).abs() < 1e-6, "{what}: {bound} vs {want}");
                assert!(
                    r.report.t_par <= bound + 10.0,
                    "{what}: {} > {bound}",
                    r.report.t_par
                );
            }
            (BalancerKind::RandomShift, None) => panic!("{what}: no Theorem 14.2 figure"),
            (_, b) => assert!(b.is_none(), "{what}: Theorem 14.2 for {balancer}"),
        }
        let e = r.report.efficiency().unwrap();
        assert!((e - n as f64 / (p as f64 * r.report.t_par)).abs() < 1e-12);
        assert!(r.summary().contains("Theorem 1"));
    }
}

#[test]
fn random_polling_is_efficient_on_the_synthetic_tree_of_paper_004() {
    // α = 0.3, T_seq = 10^7 (10^8 in BENCHMARKS.md), crossbar, T_rout = 10, T_split = 5.
    let work = 10_000_000;
    let r = simulate(
        Alpha {
            units: work,
            alpha: 0.3,
            seed: 0,
        },
        &Config::new(256).delta_t(10),
        &SimConfig::default(),
    )
    .unwrap()
    .into_report();
    let e = r.report.efficiency().unwrap();
    assert!(e >= 0.9, "efficiency {e} at P = 256");
    assert!(
        r.termination_delay <= 20 * 10 * 10,
        "termination took {}",
        r.termination_delay
    );
    assert_eq!(r.report.totals.work_units, work);
    assert_eq!(r.report.output, work);
}

#[test]
fn a_panicking_task_is_an_error_naming_its_pe() {
    for p in [1, 4, 33] {
        let root = RangeSum {
            panic_at: Some(150_000),
            ..RangeSum::new(200_000)
        };
        match simulate(root, &Config::new(p).delta_t(64), &SimConfig::default()) {
            Err(RunError::PePanicked { pe, message, .. }) => {
                assert!(pe < p, "P={p}: PE {pe}");
                assert!(message.contains("unit 150000 is poisoned"), "{message}");
            }
            other => panic!("P={p}: expected a panic error, got {other:?}"),
        }
    }
}

/// A task that claims work but never makes progress.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Stuck;

impl treesplit::Task for Stuck {
    type Output = ();
    fn work(&mut self, _budget: u64, _ctx: &mut treesplit::Context<'_, ()>) -> u64 {
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
fn runs_that_cannot_end_are_errors_not_hangs() {
    let small = SimConfig {
        max_events: 200,
        ..SimConfig::default()
    };
    for p in [1, 3] {
        let stuck = simulate(Stuck, &Config::new(p), &small);
        assert!(
            stuck.is_err(),
            "P={p}: a task without progress ended normally"
        );
    }
    // A correct run that needs more events than allowed ends with an error that says so.
    let err = simulate(RangeSum::new(100_000), &Config::new(8).delta_t(10), &small).unwrap_err();
    assert!(err.to_string().contains("200 events"), "{err}");
}

#[test]
fn bad_simulator_configurations_are_rejected() {
    let cfg = Config::new(4);
    let bad = [
        (
            SimConfig {
                slow: vec![(4, 2.0)],
                ..SimConfig::default()
            },
            ConfigError::NoSuchPe {
                what: "slow PE",
                pe: 4,
                pes: 4,
            },
        ),
        (
            SimConfig {
                slow: vec![(1, 0.5)],
                ..SimConfig::default()
            },
            ConfigError::Slowness { pe: 1, factor: 0.5 },
        ),
        (
            SimConfig {
                slow_links: vec![(9, 2)],
                ..SimConfig::default()
            },
            ConfigError::NoSuchPe {
                what: "the sender of slow link",
                pe: 9,
                pes: 4,
            },
        ),
        (
            SimConfig {
                t_rout: 0,
                ..SimConfig::default()
            },
            ConfigError::ZeroLatency,
        ),
        (
            SimConfig {
                t_hop: Some(0),
                ..SimConfig::default()
            },
            ConfigError::ZeroLatency,
        ),
    ];
    for (sim, want) in bad {
        assert_eq!(sim.validate(4), Err(want.clone()), "{sim:?}");
        assert_eq!(
            simulate(RangeSum::new(100), &cfg, &sim).err(),
            Some(RunError::InvalidConfig(want)),
            "{sim:?} accepted"
        );
    }
    // NaN is not ≥ 1 (and not equal to itself: match the variant).
    let nan = SimConfig {
        slow: vec![(1, f64::NAN)],
        ..SimConfig::default()
    };
    assert!(
        matches!(
            simulate(RangeSum::new(100), &cfg, &nan),
            Err(RunError::InvalidConfig(ConfigError::Slowness { pe: 1, factor })) if factor.is_nan()
        ),
        "{nan:?} accepted"
    );
    assert_eq!(
        simulate(RangeSum::new(100), &Config::new(0), &SimConfig::default()).err(),
        Some(RunError::InvalidConfig(ConfigError::NoPes))
    );
    // A static balancer given no number of jobs: h is derived from a task's estimates, and a
    // task without estimates gets 16 jobs per PE.
    let block = Config::new(4).balancer(BalancerKind::Block);
    let r = simulate(RangeSum::new(100), &block, &SimConfig::default())
        .unwrap()
        .into_report();
    assert_eq!(r.report.output, 100 * 99 / 2);
    assert_eq!(r.report.totals.work_units, 100);
    let r = simulate(Tree::small(), &block, &SimConfig::default())
        .unwrap()
        .into_report();
    assert_eq!(r.report.config.jobs(), Some(64));
    assert_eq!(r.report.output, run_sequential(Tree::small()).output);
}

/// Virtual time never wraps: time parameters above the simulator's limit are rejected up
/// front, and a run whose time would still pass 2^63 (huge slices on a very slow PE) ends
/// with an error instead of wrapping to an earlier time.
#[test]
fn virtual_time_is_bounded_not_wrapped() {
    use treesplit::machine::sim::MAX_TIME_PARAMETER;
    use treesplit::{ConfigError, Context, Task};

    /// `left` units, done as fast as asked (no real work), never split.
    #[derive(Clone, serde::Serialize, serde::Deserialize)]
    struct Lazy {
        left: u64,
    }
    impl Task for Lazy {
        type Output = u64;
        fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
            let done = self.left.min(budget);
            self.left -= done;
            *ctx.output() += done;
            done
        }
        fn split(&mut self) -> Option<Self> {
            None
        }
        fn is_empty(&self) -> bool {
            self.left == 0
        }
    }

    let cfg = Config::new(2);
    for sim in [
        SimConfig {
            t_rout: MAX_TIME_PARAMETER + 1,
            ..SimConfig::default()
        },
        SimConfig {
            t_send: Some(u64::MAX),
            ..SimConfig::default()
        },
    ] {
        assert!(matches!(
            simulate(Lazy { left: 10 }, &cfg, &sim),
            Err(RunError::InvalidConfig(ConfigError::SimTimeTooLarge { .. }))
        ));
    }
    let slow = SimConfig {
        slow: vec![(0, 1e6)],
        ..SimConfig::default()
    };
    let r = simulate(
        Lazy { left: u64::MAX / 2 },
        &Config::new(1).delta_t(u64::MAX / 4),
        &slow,
    );
    assert_eq!(
        r.err(),
        Some(RunError::InvalidConfig(ConfigError::VirtualTimeOverflow))
    );
    // At the limits, a small run still ends with the right answer.
    let big = SimConfig {
        t_rout: MAX_TIME_PARAMETER,
        t_split: MAX_TIME_PARAMETER,
        ..SimConfig::default()
    };
    let r = simulate(Lazy { left: 1000 }, &Config::new(4), &big)
        .expect("a run at the limits")
        .into_report();
    assert_eq!(r.report.output, 1000);
}
