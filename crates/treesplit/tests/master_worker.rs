//! The master–worker variants of paper 001 §14.3 beyond the basic scheme: dealing large
//! tasks first (Graham's LPT bound met exactly on its tight example in the simulator, and
//! beating plain dealing on a skewed bag), the shared-memory master–worker's counter (every
//! job taken exactly once, on threads and in the simulator, with a cost per increment) and
//! the hierarchical master–worker (the sequential answer, every job once, for several
//! fan-outs). The jobs record their own numbers, so a job lost or done twice shows.

use serde::{Deserialize, Serialize};
use treesplit::config::{BundleRule, DealOrder, TerminationKind};
use treesplit::{
    run, simulate, Balancer, BalancerKind, Config, Context, IndexJob, IndexRange, Jobs, SimConfig,
};

/// Job i takes `sizes[i] · scale` units, estimated exactly, and records its number.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Numbered {
    sizes: Vec<u64>,
    scale: u64,
}

impl IndexJob for Numbered {
    type Output = Vec<u64>;
    fn run(&self, i: u64, ctx: &mut Context<'_, Vec<u64>>) -> u64 {
        ctx.output().push(i);
        self.sizes[i as usize] * self.scale
    }
    fn estimate(&self, i: u64) -> Option<u64> {
        Some(self.sizes[i as usize] * self.scale)
    }
}

fn bag(sizes: &[u64], scale: u64) -> IndexRange<Numbered> {
    let job = Numbered {
        sizes: sizes.to_vec(),
        scale,
    };
    IndexRange::new(job, 0, sizes.len() as u64)
}

/// Every job's number once, in order.
fn every_job_once(mut done: Vec<u64>, n: usize, tag: &str) {
    done.sort_unstable();
    assert_eq!(
        done,
        (0..n as u64).collect::<Vec<_>>(),
        "{tag}: a job lost or done twice"
    );
}

/// Master–worker on p workers (P = p + 1) with one job per bundle, dealing in `order`: the
/// simulated run's largest load of a worker (its makespan in work units).
fn makespan(sizes: &[u64], scale: u64, p: usize, order: DealOrder) -> u64 {
    let h = (sizes.len() as u64).next_power_of_two().trailing_zeros();
    let cfg = Config::new(p + 1)
        .balancer(Balancer::MasterWorker {
            jobs: Jobs::Depth(h),
            bundle: BundleRule::Fixed(1),
            order,
        })
        .delta_t(scale);
    let s = simulate(bag(sizes, scale), &cfg, &SimConfig::default())
        .unwrap()
        .into_report();
    let tag = format!("{order} on {sizes:?}, p = {p}");
    every_job_once(s.report.output.clone(), sizes.len(), &tag);
    assert_eq!(
        s.report.per_pe[0].counters.work_units, 0,
        "{tag}: the master worked"
    );
    s.report.totals.max_pe_work_units
}

/// Graham's tight example for p machines: 2p + 1 jobs of sizes 2p−1, 2p−1, 2p−2, 2p−2, …,
/// p+1, p+1, p, p, p. The optimum is 3p (the three jobs of p on one machine, the pairs
/// 2p−1 + p+1, 2p−2 + p+2, … on the others); LPT gives 4p − 1, exactly 4/3 − 1/(3p) times
/// the optimum.
#[test]
fn largest_first_meets_grahams_bound_on_its_tight_example() {
    for p in [2u64, 3, 4] {
        let mut sizes: Vec<u64> = (p + 1..2 * p).rev().flat_map(|s| [s, s]).collect();
        sizes.extend([p, p, p]);
        // Bag order is the reverse (small first), so that dealing must sort.
        sizes.reverse();
        assert_eq!(sizes.len() as u64, 2 * p + 1);
        let (opt, lpt) = (3 * p, 4 * p - 1);
        // The ratio by hand: (4p − 1)/(3p) = 4/3 − 1/(3p).
        assert_eq!(3 * p * lpt, (4 * p - 1) * opt);
        let scale = 1000;
        let got = makespan(&sizes, scale, p as usize, DealOrder::LargestFirst);
        assert_eq!(got, lpt * scale, "p = {p}: LPT makespan");
    }
    // p = 2, the chapter's example: jobs 3, 3, 2, 2, 2: LPT 7, optimum 6.
    assert_eq!(
        makespan(&[2, 2, 2, 3, 3], 1000, 2, DealOrder::LargestFirst),
        7000
    );
}

/// A skewed bag, the large job last: dealt in order, the large job starts after the small
/// ones have been shared out (makespan 3 + 6 = 9 units of 1000 on 2 workers); large first,
/// it starts at once and the other worker takes all small ones (6, the optimum).
#[test]
fn largest_first_beats_dealing_in_order_on_a_skewed_bag() {
    let sizes = [1, 1, 1, 1, 1, 1, 6];
    assert_eq!(makespan(&sizes, 1000, 2, DealOrder::InOrder), 9000);
    assert_eq!(makespan(&sizes, 1000, 2, DealOrder::LargestFirst), 6000);
}

/// Sizes 1..=64 in a pseudorandom pattern.
fn mixed(n: usize) -> Vec<u64> {
    (0..n as u64)
        .map(|i| 1 + (i * 2_654_435_761) % 64)
        .collect()
}

/// The shared-memory master–worker's counter hands out every job exactly once: on threads
/// (an atomic fetch-and-add) and in the simulator (PE 0's counter, with and without a cost
/// per increment), for bags with fewer and more jobs than PEs, under both termination
/// protocols. In the simulator PE 0 counts one increment per job and one per PE that found
/// the counter past m.
#[test]
fn the_shared_counter_hands_out_every_job_once() {
    let sizes = mixed(300);
    for termination in TerminationKind::ALL {
        for (p, h) in [(1, 4), (2, 9), (3, 1), (5, 9), (8, 6)] {
            let cfg = Config::new(p)
                .balancer(Balancer::SharedMemoryMasterWorker {
                    jobs: Jobs::Depth(h),
                })
                .termination(*termination)
                .delta_t(50)
                .seed(p as u64);
            let tag = format!("P = {p}, h = {h}, {termination}");
            let r = run(bag(&sizes, 3), &cfg).unwrap().into_report();
            every_job_once(r.output, sizes.len(), &format!("threads {tag}"));
            for t_count in [0, 7] {
                let sim = SimConfig {
                    t_count,
                    ..SimConfig::default()
                };
                let s = simulate(bag(&sizes, 3), &cfg, &sim).unwrap().into_report();
                every_job_once(s.report.output, sizes.len(), &format!("sim {tag}"));
                let m = 1u64 << h;
                if t_count > 0 {
                    // Each of the m numbers once, and the one past m for each PE.
                    assert_eq!(s.report.per_pe[0].polling.counts, m + p as u64, "{tag}");
                }
            }
        }
    }
}

/// Hierarchical master–worker gives the sequential answer and does every job once, for
/// fan-outs from 2 to one group of all PEs (the flat scheme), with several bundle rules,
/// dealing in order and large tasks first, on threads and in the simulator.
#[test]
fn hierarchical_master_worker_does_every_job_once() {
    let sizes = mixed(500);
    for (p, fanout) in [(1, 0), (2, 0), (5, 2), (7, 3), (10, 0), (16, 4), (9, 9)] {
        for bundle in [
            BundleRule::Fixed(1),
            BundleRule::Fixed(3),
            BundleRule::Adaptive { c: 2.0, w_min: 10 },
        ] {
            for order in DealOrder::ALL {
                let cfg = Config::new(p)
                    .balancer(Balancer::HierarchicalMasterWorker {
                        jobs: Jobs::Depth(9),
                        bundle,
                        order: *order,
                        fanout,
                    })
                    .delta_t(40)
                    .seed(p as u64);
                let tag = format!("P = {p}, fan-out {fanout}, {bundle}, {order}");
                let r = run(bag(&sizes, 2), &cfg).unwrap().into_report();
                every_job_once(r.output, sizes.len(), &format!("threads {tag}"));
                let s = simulate(bag(&sizes, 2), &cfg, &SimConfig::default())
                    .unwrap()
                    .into_report();
                every_job_once(s.report.output, sizes.len(), &format!("sim {tag}"));
            }
        }
    }
}

/// A fan-out of 1 (a submaster with no workers) is refused, typed.
#[test]
fn a_fanout_of_one_is_refused() {
    let cfg = Config::new(4).balancer(Balancer::HierarchicalMasterWorker {
        jobs: Jobs::Depth(3),
        bundle: BundleRule::Fixed(1),
        order: DealOrder::InOrder,
        fanout: 1,
    });
    let err = run(bag(&[1, 2, 3], 1), &cfg).unwrap_err();
    assert!(err.to_string().contains("fan-out"), "{err}");
    assert!(BalancerKind::HierarchicalMasterWorker.is_static());
}
