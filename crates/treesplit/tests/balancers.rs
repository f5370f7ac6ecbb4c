//! The library's end-to-end matrix: every balancer of `BalancerKind::ALL` × both termination
//! protocols × {threads, simulator} × P ∈ {1, 2, 3, 7} (threads) and {1, 2, 3, 7, 64}
//! (simulator, with slow PEs and several networks), with each balancer's own options. Every
//! run must give exactly the answer of a plain sequential walk and do exactly its number of
//! work units. Beside the matrix: branch and bound reaches the optimum and early stop ends
//! with the hit under every balancer; static balancers derive h from the task's estimates
//! (and name the missing number of jobs, typed, for a task without);
//! prefix sums balance as their theorems say; fast initialization starts PEs busy.

use std::fmt::Debug;
use std::time::Duration;
use treesplit::config::{
    Adaptive, BundleRule, DealOrder, PermutationKind, PermutedInit, PhaseSync, StaticPermutation,
    TerminationKind,
};
use treesplit::machine::sim::Delay;
use treesplit::machine::sim::MessageModel;
use treesplit::machine::sim::Topology;
use treesplit::{
    run, run_sequential, simulate, Balancer, BalancerKind, Config, Jobs, PollingOptions, SimConfig,
    Task,
};
use treesplit_testkit::support::{
    self, jobs, jobs_expected, with_polling, with_round, within, Alpha, Find, Knap, RangeSum, Tree,
};

const THREAD_PES: [usize; 4] = [1, 2, 3, 7];
const SIM_PES: [(usize, Topology); 7] = [
    (1, Topology::Crossbar),
    (2, Topology::Ring),
    (3, Topology::Mesh2d),
    (7, Topology::Hypercube),
    (64, Topology::Mesh2d),
    (256, Topology::FatTree),
    (30, Topology::MeshOfTrees),
];

/// A machine for the simulator runs: the topology given; for P ≥ 3 two slow PEs (where
/// synchronous schemes would first break); random delays (reordering messages between
/// different pairs) at P = 7; sender and receiver overheads at P ≥ 64.
fn sim_for(p: usize, topology: Topology) -> SimConfig {
    SimConfig {
        topology,
        slow: if p > 2 {
            vec![(1, 4.0), (p - 1, 2.5)]
        } else {
            vec![]
        },
        delay: if p == 7 {
            Delay::Uniform(25)
        } else {
            Delay::None
        },
        // Paper 000's blocking messages (T_send + T_recv = T_rout) on the larger machines,
        // latency only on the smaller ones.
        model: if p >= 64 {
            MessageModel::Blocking
        } else {
            MessageModel::LatencyOnly
        },
        ..SimConfig::default()
    }
}

/// The configuration of one case of the searches' matrices: `balancer` with `termination`
/// on `p` PEs, Δt = `delta_t`, seeded by P, with the bag size of case `p`.
fn case(balancer: BalancerKind, termination: TerminationKind, p: usize, delta_t: u64) -> Config {
    let cfg = Config::new(p)
        .balancer(balancer)
        .termination(termination)
        .delta_t(delta_t)
        .seed(p as u64);
    with_jobs(cfg, p)
}

/// The number of jobs of a static balancer, one of three rules chosen by `case`: 2^6 jobs,
/// 3 per PE, or 2^1 (fewer jobs than PEs).
fn with_jobs(mut cfg: Config, case: usize) -> Config {
    if !cfg.balancer.is_static() {
        return cfg;
    }
    let jobs = match case % 3 {
        0 => Jobs::Depth(6),
        1 => Jobs::PerPe(3),
        _ => Jobs::Depth(1),
    };
    cfg.balancer = cfg.balancer.with_jobs(jobs);
    cfg
}

fn with_pes(mut cfg: Config, p: usize) -> Config {
    cfg.pes = p;
    cfg
}

/// Run `root` under `base` (P is set here) on threads and in the simulator for every P; each
/// run must give `output` and do `units` work units.
fn check<T: Task>(what: &str, root: &T, base: &Config, output: &T::Output, units: u64)
where
    T::Output: PartialEq + Debug,
{
    for (k, p) in THREAD_PES.into_iter().enumerate() {
        let cfg = with_jobs(with_pes(base.clone(), p).delta_t(32).seed(p as u64 + 7), k);
        let r = {
            let (root, cfg) = (root.clone(), cfg.clone());
            within(Duration::from_secs(60), move || {
                run(root, &cfg).map(treesplit::Ended::into_report)
            })
        }
        .unwrap_or_else(|e| panic!("{what} threads P={p} {cfg:?}: {e}"));
        let tag = format!("{what} threads {cfg:?}");
        assert_eq!(&r.output, output, "{tag}");
        assert_eq!(r.totals.work_units, units, "{tag}: work not conserved");
        assert_eq!(r.per_pe.len(), p, "{tag}");
    }
    for (k, (p, topology)) in SIM_PES.into_iter().enumerate() {
        let cfg = with_jobs(with_pes(base.clone(), p).delta_t(16).seed(p as u64), k + 1);
        let tag = format!("{what} sim {topology} {cfg:?}");
        let s = simulate(root.clone(), &cfg, &sim_for(p, topology))
            .map(treesplit::Ended::into_report)
            .unwrap_or_else(|e| panic!("{tag}: {e}"));
        assert_eq!(&s.report.output, output, "{tag}");
        assert_eq!(
            s.report.totals.work_units, units,
            "{tag}: work not conserved"
        );
        if p > 1 && !cfg.balancer.is_static() {
            assert!(
                s.report.totals.splits > 0,
                "{tag}: no split happened, the run exercised nothing"
            );
        }
    }
}

/// The matrix for one balancer: each variant (the balancer with some of its options) × both
/// termination protocols, on the irregular tree (no estimates) and, for static balancers, on
/// jobs with estimates.
fn matrix(kind: BalancerKind, variants: Vec<Balancer>) {
    let tree = Tree::small();
    let want = tree.count();
    assert!(want.nodes > 5_000, "the test tree is too small: {want:?}");
    let bag = jobs(600, 5, false);
    let (bag_output, bag_units) = jobs_expected(600, 5);
    assert!(!variants.is_empty(), "{kind}: no variant");
    for variant in variants {
        assert_eq!(variant.kind(), kind);
        for termination in TerminationKind::ALL {
            let cfg = base(variant).termination(*termination);
            check("tree", &tree, &cfg, &want, want.nodes);
            if kind.is_static() {
                check("jobs", &bag, &cfg, &bag_output, bag_units);
            }
        }
    }
}

fn base(balancer: impl Into<Balancer>) -> Config {
    Config::new(1).balancer(balancer)
}

/// Both polling options on.
const FAST_AND_TRIMMED: PollingOptions = PollingOptions {
    trim: Some(1),
    fast_init: true,
    permuted_init: None,
};

/// `balancer` with fast initialization, permutation-based initialization and trimming, the
/// options every polling balancer has: as given, fast, trimmed to 1, both (trimmed to 2),
/// permuted by GF(2^h) powers (default depth), by the LCG at depth 3 (fewer jobs than PEs
/// at P = 30) trimmed to 2.
fn polling_variants(balancer: Balancer) -> Vec<Balancer> {
    vec![
        balancer,
        with_polling(balancer, |p| p.fast_init = true),
        with_polling(balancer, |p| p.trim = Some(1)),
        with_polling(balancer, |p| {
            p.fast_init = true;
            p.trim = Some(2);
        }),
        with_polling(balancer, |p| {
            p.permuted_init = Some(PermutedInit {
                permutation: StaticPermutation::Gf2,
                depth: None,
            })
        }),
        with_polling(balancer, |p| {
            p.permuted_init = Some(PermutedInit {
                permutation: StaticPermutation::Lcg,
                depth: Some(3),
            });
            p.trim = Some(2);
        }),
    ]
}

#[test]
fn random_polling() {
    let mut variants = polling_variants(Balancer::new(BalancerKind::RandomPolling));
    // Local polling in blocks of 4 (a PE alone at the end joins the block before), after a
    // permuted initialization (Feistel) and after none (the blocks without PE 0 then get
    // work only from PE 0's block, never: PE 0's block does it all, still exactly).
    for init in [
        Some(PermutedInit {
            permutation: StaticPermutation::Feistel,
            depth: None,
        }),
        None,
    ] {
        variants.push(Balancer::RandomPolling {
            polling: PollingOptions {
                permuted_init: init,
                ..PollingOptions::default()
            },
            locality: 4,
        });
    }
    matrix(BalancerKind::RandomPolling, variants);
}

#[test]
fn neighbour_polling_on_every_neighbourhood() {
    let mut variants: Vec<Balancer> = Topology::ALL
        .iter()
        .map(|t| Balancer::NeighbourPolling {
            polling: PollingOptions::default(),
            neighbourhood: *t,
        })
        .collect();
    variants.push(Balancer::NeighbourPolling {
        polling: FAST_AND_TRIMMED,
        neighbourhood: Topology::Ring,
    });
    matrix(BalancerKind::NeighbourPolling, variants);
}

#[test]
fn global_round_robin() {
    matrix(
        BalancerKind::GlobalRoundRobin,
        polling_variants(Balancer::new(BalancerKind::GlobalRoundRobin)),
    );
}

#[test]
fn random_shift_with_several_rounds() {
    let shift = |round| Balancer::RandomShift {
        polling: PollingOptions::default(),
        round,
    };
    let mut variants: Vec<Balancer> = [5, 50, 400].into_iter().map(shift).collect();
    variants.extend(polling_variants(shift(30)).into_iter().skip(1));
    matrix(BalancerKind::RandomShift, variants);
}

#[test]
fn poll_and_shuffle_with_both_permutations_adaptive_or_not() {
    let mut variants = Vec::new();
    for permutation in [PermutationKind::Messages, PermutationKind::Pseudorandom] {
        for adaptive in [
            None,
            Some(Adaptive::default()),
            Some(Adaptive { c: 1.0, gamma: 1.0 }),
        ] {
            variants.push(Balancer::PollAndShuffle {
                polling: PollingOptions::default(),
                round: 30,
                permutation,
                adaptive,
                sync: PhaseSync::Global,
                embedding: Default::default(),
            });
        }
    }
    variants.push(Balancer::PollAndShuffle {
        polling: FAST_AND_TRIMMED,
        round: 30,
        permutation: PermutationKind::Messages,
        adaptive: None,
        sync: PhaseSync::Global,
        embedding: Default::default(),
    });
    matrix(BalancerKind::PollAndShuffle, variants);
}

/// Paper 002 §6.3: phases by partners' markers, no clock (threads and the simulator): short
/// and long phases, adaptive, with fast initialization and trimming.
#[test]
fn poll_and_shuffle_with_local_synchronization() {
    let local = |polling, round, adaptive| Balancer::PollAndShuffle {
        polling,
        round,
        permutation: PermutationKind::Pseudorandom,
        adaptive,
        sync: PhaseSync::Local,
        embedding: Default::default(),
    };
    let variants = vec![
        local(PollingOptions::default(), 5, None),
        local(PollingOptions::default(), 200, None),
        local(PollingOptions::default(), 30, Some(Adaptive::default())),
        local(
            PollingOptions::default(),
            30,
            Some(Adaptive { c: 1.0, gamma: 1.0 }),
        ),
        local(FAST_AND_TRIMMED, 30, None),
    ];
    matrix(BalancerKind::PollAndShuffle, variants);
}

#[test]
fn random_static_with_every_permutation() {
    let variants = StaticPermutation::ALL
        .iter()
        .map(|k| Balancer::RandomStatic {
            jobs: Jobs::FromEstimates,
            permutation: *k,
        })
        .collect();
    matrix(BalancerKind::RandomStatic, variants);
}

#[test]
fn block() {
    matrix(BalancerKind::Block, vec![BalancerKind::Block.into()]);
}

#[test]
fn round_robin() {
    matrix(
        BalancerKind::RoundRobin,
        vec![BalancerKind::RoundRobin.into()],
    );
}

#[test]
fn random_assignment() {
    matrix(
        BalancerKind::RandomAssignment,
        vec![BalancerKind::RandomAssignment.into()],
    );
}

#[test]
fn master_worker_with_every_bundle_rule() {
    let variants = [
        BundleRule::Fixed(1),
        BundleRule::Fixed(5),
        BundleRule::Sqrt {
            startup: 50.0,
            max_job: 400.0,
        },
        BundleRule::Adaptive { c: 2.0, w_min: 100 },
        // W_min = 0: the target falls to 0 near the end; a bundle still holds one job.
        BundleRule::Adaptive { c: 3.5, w_min: 0 },
    ]
    .into_iter()
    .flat_map(|bundle| {
        [DealOrder::InOrder, DealOrder::LargestFirst].map(|order| Balancer::MasterWorker {
            jobs: Jobs::FromEstimates,
            bundle,
            order,
        })
    })
    .collect();
    matrix(BalancerKind::MasterWorker, variants);
}

#[test]
fn hierarchical_master_worker_with_fanouts_and_bundle_rules() {
    let variants = [
        (0, BundleRule::Fixed(1), DealOrder::InOrder),
        (2, BundleRule::Fixed(3), DealOrder::LargestFirst),
        (
            3,
            BundleRule::Adaptive { c: 2.0, w_min: 50 },
            DealOrder::InOrder,
        ),
        (
            4,
            BundleRule::Sqrt {
                startup: 50.0,
                max_job: 400.0,
            },
            DealOrder::LargestFirst,
        ),
    ]
    .into_iter()
    .map(
        |(fanout, bundle, order)| Balancer::HierarchicalMasterWorker {
            jobs: Jobs::FromEstimates,
            bundle,
            order,
            fanout,
        },
    )
    .collect();
    matrix(BalancerKind::HierarchicalMasterWorker, variants);
}

#[test]
fn shared_memory_master_worker() {
    matrix(
        BalancerKind::SharedMemoryMasterWorker,
        vec![BalancerKind::SharedMemoryMasterWorker.into()],
    );
}

#[test]
fn prefix_sum_splittable_and_atomic() {
    matrix(
        BalancerKind::PrefixSum,
        [true, false]
            .into_iter()
            .map(|splittable| Balancer::PrefixSum {
                jobs: Jobs::FromEstimates,
                splittable,
            })
            .collect(),
    );
}

#[test]
fn every_balancer_covered() {
    // The tests above name each balancer once; a balancer added to ALL must get its own.
    assert_eq!(
        BalancerKind::ALL.len(),
        13,
        "a new balancer needs a matrix test here"
    );
}

/// Exact estimates and cuttable jobs: splittable prefix sums give every PE at most ⌈T/P⌉
/// units; atomic ones at most ⌈T/P⌉ plus one job (the 2-approximation of paper 001 §14.2).
#[test]
fn prefix_sums_balance_as_promised() {
    let n = 100_000u64;
    for splittable in [true, false] {
        for (p, h) in [(2, 9), (3, 7), (7, 10), (64, 12), (100, 8)] {
            let cfg = Config::new(p)
                .balancer(Balancer::PrefixSum {
                    jobs: Jobs::Depth(h),
                    splittable,
                })
                .seed(p as u64);
            let s = simulate(RangeSum::new(n), &cfg, &SimConfig::default())
                .unwrap()
                .into_report();
            assert_eq!(s.report.output, n * (n - 1) / 2);
            assert_eq!(s.report.totals.work_units, n);
            let limit = n.div_ceil(p as u64) + if splittable { 0 } else { n.div_ceil(1 << h) };
            assert!(
                s.report.totals.max_pe_work_units <= limit,
                "splittable={splittable} P={p} h={h}: a PE did {} units, limit {limit}",
                s.report.totals.max_pe_work_units
            );
        }
    }
}

/// Prefix sums move a PE's consecutive jobs for one destination in one message (paper 001
/// §14.2). On 64 PEs with 2^15 jobs the whole run — broadcast, prefix sum, jobs, termination
/// and result reduction — sends at most 8·P·log₂P messages: for jobs of 1..64 units (exact
/// estimates, the answer checked against a plain loop) and for the jobs of an α-splitting
/// tree (α = 0.3), whose sizes vary so much that most jobs belong to another PE (one message
/// per job would be about 30,000).
#[test]
fn prefix_sums_send_one_bundle_per_destination() {
    let (want, units) = jobs_expected(1 << 15, 3);
    bundled_prefix_sum("jobs", jobs(1 << 15, 3, false), &want, units);
    let tree = Alpha {
        units: 1 << 22,
        alpha: 0.3,
        seed: 9,
    };
    bundled_prefix_sum("alpha tree", tree, &(1 << 22), 1 << 22);
}

/// Run `root` by prefix sums (splittable and atomic) on 64 PEs with 2^15 jobs: the answer is
/// `want`, the work `units`, and at most 8·P·log₂P messages were sent.
fn bundled_prefix_sum<T: Task>(what: &str, root: T, want: &T::Output, units: u64)
where
    T::Output: PartialEq + Debug,
{
    let (p, h) = (64usize, 15u32);
    let limit = 8 * p as u64 * u64::from(p.ilog2());
    for splittable in [true, false] {
        let cfg = Config::new(p)
            .balancer(Balancer::PrefixSum {
                jobs: Jobs::Depth(h),
                splittable,
            })
            .seed(5);
        let sim = SimConfig {
            timeline_limit: 0,
            ..SimConfig::default()
        };
        let s = simulate(root.clone(), &cfg, &sim).unwrap().into_report();
        let tag = format!("{what} splittable={splittable}");
        assert_eq!(&s.report.output, want, "{tag}");
        assert_eq!(s.report.totals.work_units, units, "{tag}");
        let received: u64 = s
            .report
            .per_pe
            .iter()
            .map(|pe| pe.counters.pieces_received)
            .sum();
        // Jobs did travel (else the bound would say nothing): besides the root copies
        // (P − 1), bundles arrived.
        assert!(received > p as u64 - 1, "{tag}: {received} pieces received");
        let messages = s.report.totals.messages;
        assert!(
            messages <= limit,
            "{tag}: {messages} messages, more than 8·P·log₂P = {limit}"
        );
    }
}

/// Static balancers given no number of jobs (`Jobs::FromEstimates`, the default) derive h
/// from the root's estimates (Theorem 3 of paper 004), in `resolve_depth` and in the
/// machines themselves; a task without estimates gets `DEFAULT_JOBS_PER_PE` jobs per PE, and
/// the report says what was chosen.
#[test]
fn a_static_balancer_with_the_default_number_of_jobs_is_a_valid_configuration() {
    let config = Config::new(8).balancer(BalancerKind::MasterWorker);
    assert_eq!(config.validate(), Ok(()));
    // A number of jobs given out of range is still refused.
    let deep = Config::new(8)
        .balancer(Balancer::from(BalancerKind::MasterWorker).with_jobs(Jobs::Depth(40)));
    assert!(deep.validate().is_err());
}

#[test]
fn static_balancers_derive_h_from_estimates() {
    use treesplit::task::bag::{resolve_depth, Resolved, DEFAULT_JOBS_PER_PE};
    let (n, sum) = (1u64 << 20, (1u64 << 20) * ((1 << 20) - 1) / 2);
    for kind in BalancerKind::STATIC {
        // Halving splits: α = 1/2, x(α) = 1, h = ⌈log₂ P + log₂ log₂ P⌉ = 4 + 2 at P = 16.
        let cfg = Config::new(16).balancer(*kind);
        assert_eq!(cfg.balancer.jobs(), Some(Jobs::FromEstimates), "{kind}");
        assert_eq!(cfg.jobs(), None, "{kind}");
        assert_eq!(
            cfg.validate(),
            Ok(()),
            "{kind}: resolved when the run starts"
        );
        // Theorem 3 asks for 6; raised to log₂ P + 4 = 8 (16 jobs per PE), and said so.
        let Resolved {
            config: resolved,
            alpha,
            note,
        } = resolve_depth(&cfg, &RangeSum::new(n)).unwrap();
        assert_eq!(alpha, Some(0.5), "{kind}");
        assert_eq!(resolved.balancer.jobs(), Some(Jobs::Depth(8)), "{kind}");
        let note = note.expect("a chosen depth is noted");
        assert!(
            note.contains("gives h = 6") && note.contains("raised to log₂ P + 4 = 8"),
            "{note}"
        );
        // Only the number of jobs changes; the balancer keeps its other options.
        assert_eq!(
            resolved.balancer,
            cfg.balancer.with_jobs(Jobs::Depth(8)),
            "{kind}"
        );
        assert_eq!(resolved.validate(), Ok(()), "{kind}");
        // A given number of jobs is left as it is.
        let given = Config::new(16).balancer(Balancer::new(*kind).with_jobs(Jobs::PerPe(2)));
        assert_eq!(
            resolve_depth(&given, &RangeSum::new(n)).unwrap(),
            Resolved {
                config: given.clone(),
                alpha: None,
                note: None
            },
            "{kind}"
        );
        let s = simulate(RangeSum::new(n), &resolved, &SimConfig::default())
            .unwrap()
            .into_report();
        assert_eq!(s.report.output, sum);
        assert_eq!(s.report.totals.work_units, n);
        // The simulator derives the same h itself from the unresolved configuration.
        let direct = simulate(RangeSum::new(n), &cfg, &SimConfig::default())
            .map(treesplit::Ended::into_report)
            .unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(direct.report.output, sum, "{kind}");
        assert_eq!(direct.report.totals.work_units, n, "{kind}");
        assert_eq!(direct.report.t_par, s.report.t_par, "{kind}");
        assert_eq!(direct.report.notes, vec![note.clone()], "{kind}");
        // Jobs of different sizes (exact and noisy estimates): some h, and the exact answer,
        // whether resolved first or left to the machine.
        for noisy in [false, true] {
            let root = jobs(3_000, 9, noisy);
            let cfg = Config::new(7).balancer(*kind);
            let r = resolve_depth(&cfg, &root).unwrap();
            let (resolved, a) = (r.config, r.alpha.expect("estimates give α"));
            assert!(a > 0.0 && a <= 0.5, "{kind}: α = {a}");
            assert!(
                matches!(resolved.balancer.jobs(), Some(Jobs::Depth(_))),
                "{kind}: {:?}",
                resolved.balancer
            );
            let (output, units) = jobs_expected(3_000, 9);
            for config in [resolved, cfg] {
                let what = format!("{kind} noisy={noisy} {:?}", config.balancer.jobs());
                let r = {
                    let (root, config) = (root.clone(), config.clone());
                    within(Duration::from_secs(60), move || {
                        run(root, &config).map(treesplit::Ended::into_report)
                    })
                }
                .unwrap_or_else(|e| panic!("{what} threads: {e}"));
                assert_eq!((r.output, r.totals.work_units), (output, units), "{what}");
                let s = simulate(root.clone(), &config, &SimConfig::default())
                    .map(treesplit::Ended::into_report)
                    .unwrap_or_else(|e| panic!("{what} sim: {e}"));
                assert_eq!(
                    (s.report.output, s.report.totals.work_units),
                    (output, units),
                    "{what}"
                );
            }
        }
        // No estimates, no number of jobs: DEFAULT_JOBS_PER_PE jobs per PE, said in the
        // note, and the exact answer on both machines.
        let r = resolve_depth(&cfg, &Tree::small()).unwrap();
        assert_eq!(
            r.config.balancer.jobs(),
            Some(Jobs::PerPe(DEFAULT_JOBS_PER_PE)),
            "{kind}"
        );
        let note = r.note.expect("the default is noted");
        assert!(note.contains("16 jobs per PE"), "{note}");
        let want = run_sequential(Tree::small());
        let threads = {
            let cfg = cfg.clone();
            within(Duration::from_secs(60), move || {
                run(Tree::small(), &cfg).map(treesplit::Ended::into_report)
            })
        }
        .unwrap_or_else(|e| panic!("{kind} threads: {e}"));
        assert_eq!(
            (threads.output, threads.totals.work_units, &threads.notes),
            (want.output, want.work_units, &vec![note.clone()]),
            "{kind} threads"
        );
        let sim = simulate(Tree::small(), &cfg, &SimConfig::default())
            .map(treesplit::Ended::into_report)
            .unwrap_or_else(|e| panic!("{kind} sim: {e}"));
        assert_eq!(
            (sim.report.output, sim.report.totals.work_units),
            (want.output, want.work_units),
            "{kind} sim"
        );
    }
}

/// With fast initialization every PE below 2^⌊log₂ P⌋ starts with a piece of the root, so
/// PEs 0..4 all work even before anyone steals.
#[test]
fn fast_initialization_starts_pes_busy() {
    let polling = BalancerKind::ALL.iter().filter(|k| !k.is_static());
    assert_eq!(polling.clone().count(), 5);
    for balancer in polling {
        for p in [4, 5, 8, 16] {
            let cfg = Config::new(p)
                .balancer(with_round(
                    with_polling((*balancer).into(), |o| o.fast_init = true),
                    30,
                ))
                .delta_t(32)
                .seed(3);
            assert_eq!(cfg.balancer.polling().map(|o| o.fast_init), Some(true));
            let s = simulate(Tree::small(), &cfg, &SimConfig::default())
                .unwrap()
                .into_report();
            assert_eq!(s.report.output, Tree::small().count(), "{balancer} P={p}");
            let started = s
                .report
                .per_pe
                .iter()
                .take(4)
                .filter(|pe| pe.counters.work_units > 0)
                .count();
            assert_eq!(
                started, 4,
                "{balancer} P={p}: fast initialization left PEs 0..4 idle"
            );
        }
    }
}

/// Branch and bound under every balancer: the optimum by dynamic programming, a packing that
/// fits and adds up; improvements reach the other simulated PEs.
#[test]
fn branch_and_bound_reaches_the_optimum_under_every_balancer() {
    let knap = Knap::new(30, 0);
    let optimum = knap.optimum_by_dp();
    assert_eq!(run_sequential(knap.clone()).output.profit, Some(optimum));
    let valid = |best: &support::Best, what: &str| {
        assert_eq!(best.profit, Some(optimum), "{what}");
        let (profit, weight) = knap.packing(best.mask);
        assert_eq!(
            Some(profit),
            best.profit,
            "{what}: the packing does not add up"
        );
        assert!(weight <= knap.capacity, "{what}: the packing does not fit");
    };
    for balancer in BalancerKind::ALL {
        for termination in TerminationKind::ALL {
            for p in [1, 2, 3, 7] {
                let cfg = case(*balancer, *termination, p, 16);
                let what = format!("{balancer} {termination} P={p}");
                let r = {
                    let (root, cfg) = (knap.clone(), cfg.clone());
                    within(Duration::from_secs(60), move || {
                        run(root, &cfg).unwrap().into_report()
                    })
                };
                valid(&r.output, &format!("{what} threads"));
            }
            for p in [1, 3, 16, 64] {
                let cfg = case(*balancer, *termination, p, 8);
                let what = format!("{balancer} {termination} sim P={p}");
                let s = simulate(knap.clone(), &cfg, &SimConfig::default())
                    .unwrap()
                    .into_report();
                valid(&s.report.output, &what);
                if p > 1 && s.report.totals.improvements > 1 {
                    assert!(
                        s.report.per_pe.iter().any(|pe| pe.bound_latency.is_some()),
                        "{what}: no PE learned of an improvement"
                    );
                }
            }
        }
    }
}

/// A decision search that stops early under every balancer: it ends (no hang) with the hit,
/// having done no more than all the work, and the units counted are the indices tested.
#[test]
fn early_stop_ends_with_the_hit_under_every_balancer() {
    let (n, target) = (200_000, 123_457);
    let root = Find {
        lo: 0,
        hi: n,
        target,
    };
    let seq = run_sequential(root.clone());
    assert_eq!(seq.output.hit, Some(target));
    assert_eq!(
        seq.work_units,
        target + 1,
        "the sequential run stops at the hit"
    );
    for balancer in BalancerKind::ALL {
        for termination in TerminationKind::ALL {
            for p in [1, 2, 7] {
                let cfg = case(*balancer, *termination, p, 64);
                let what = format!("{balancer} {termination} threads P={p}");
                let r = {
                    let (root, cfg) = (root.clone(), cfg.clone());
                    within(Duration::from_secs(60), move || {
                        run(root, &cfg).unwrap().into_report()
                    })
                };
                assert_eq!(r.output.hit, Some(target), "{what}");
                assert_eq!(r.output.tested, r.totals.work_units, "{what}");
                assert!(r.totals.work_units <= n, "{what}");
            }
            for p in [1, 3, 64] {
                let cfg = case(*balancer, *termination, p, 64);
                let what = format!("{balancer} {termination} sim P={p}");
                let s = simulate(root.clone(), &cfg, &SimConfig::default())
                    .unwrap()
                    .into_report();
                assert_eq!(s.report.output.hit, Some(target), "{what}");
                assert_eq!(s.report.output.tested, s.report.totals.work_units, "{what}");
                assert!(s.report.totals.work_units <= n, "{what}");
                if p == 1 && !balancer.is_static() {
                    assert_eq!(s.report.totals.work_units, target + 1, "{what}");
                }
            }
        }
    }
}
