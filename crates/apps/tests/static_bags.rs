//! The static balancers on a tree that cannot split before it works (UTS: a piece of one node
//! splits only once the node is expanded): the bag is cut by working pieces until they
//! split, so every balancer spreads T1-mini over the PEs, on threads and in the simulator,
//! with the published node count and every unit counted once; and a bag with fewer
//! non-empty jobs than PEs says so in the report.

use std::time::Duration;
use treesplit::{run, run_sequential, simulate, BalancerKind, Config, Jobs, Report, SimConfig};
use treesplit_apps::uts::{Uts, UtsCount, UtsParams, NAMED_TREES};
use treesplit_testkit::support::within;

/// The tree, its published node count and its sequential count (leaves and height too).
fn tree(name: &str) -> (Uts, u64, UtsCount) {
    let published = NAMED_TREES
        .iter()
        .find(|t| t.name == name)
        .and_then(|t| t.nodes)
        .expect("a tree with a published count");
    let params = UtsParams::parse(&[name.to_string()]).expect("a named tree");
    let root = Uts::new(params);
    let count = run_sequential(root.clone()).output;
    assert_eq!(count.nodes, published, "{name}: the sequential count");
    (root, published, count)
}

fn static_kinds() -> impl Iterator<Item = BalancerKind> {
    BalancerKind::ALL.iter().copied().filter(|k| k.is_static())
}

/// The sequential (and published) count, every unit once, and, with `spread`, the work
/// spread: at least three PEs in four did some (a bag may leave a few PEs without a non-empty
/// job: block's consecutive jobs can all lie in a small subtree), and none more than a third
/// of the tree.
fn check_spread(what: &str, report: &Report<UtsCount>, count: &UtsCount, p: usize, spread: bool) {
    let nodes = count.nodes;
    assert_eq!(&report.output, count, "{what}: the sequential count");
    assert_eq!(report.totals.work_units, nodes, "{what}: work units");
    assert!(
        report.notes.iter().all(|n| !n.contains("non-empty job")),
        "{what}: {:?}",
        report.notes
    );
    if !spread {
        return;
    }
    let working = report
        .per_pe
        .iter()
        .filter(|pe| pe.counters.work_units > 0)
        .count();
    assert!(
        4 * working >= 3 * p,
        "{what}: only {working} of {p} PEs worked"
    );
    assert!(
        report.totals.max_pe_work_units * 3 <= nodes,
        "{what}: one PE did {} of {nodes} units",
        report.totals.max_pe_work_units
    );
}

#[test]
fn static_balancers_spread_uts_on_threads() {
    let (root, _, count) = tree("T1-mini");
    let p = 8;
    for kind in static_kinds() {
        let cfg = Config::new(p).balancer(kind).seed(5);
        let root = root.clone();
        let r = within(Duration::from_secs(120), move || {
            run(root, &cfg)
                .expect("thread run")
                .into_finished()
                .expect("finished")
        });
        // The master–worker family deals jobs to whichever worker asks first (a master, its
        // submasters, or a shared counter): on threads how the work spreads depends on the
        // OS's scheduling (the simulator checks its spread).
        let spread = !matches!(
            kind,
            BalancerKind::MasterWorker
                | BalancerKind::HierarchicalMasterWorker
                | BalancerKind::SharedMemoryMasterWorker
        );
        check_spread(&format!("{kind} threads"), &r, &count, p, spread);
    }
}

#[test]
fn static_balancers_spread_uts_in_the_simulator() {
    let (root, _, count) = tree("T1-mini");
    for p in [8, 64] {
        for kind in static_kinds() {
            let cfg = Config::new(p).balancer(kind).seed(5).delta_t(64);
            let r = simulate(root.clone(), &cfg, &SimConfig::default())
                .expect("simulation")
                .into_report();
            check_spread(&format!("{kind} sim P={p}"), &r.report, &count, p, true);
        }
    }
}

/// The default tree has 1,732 nodes: a bag for 4,096 PEs cannot give every PE a job.
#[test]
fn fewer_jobs_than_pes_are_noted() {
    let (root, nodes, count) = tree("default");
    let p = 4096;
    for kind in static_kinds() {
        let cfg = Config::new(p).balancer(kind).delta_t(64);
        let cfg = cfg.clone().balancer(cfg.balancer.with_jobs(Jobs::PerPe(1)));
        let r = simulate(root.clone(), &cfg, &SimConfig::default())
            .expect("simulation")
            .into_report();
        assert_eq!(
            (&r.report.output, r.report.totals.work_units),
            (&count, nodes),
            "{kind}"
        );
        assert!(
            r.report
                .notes
                .iter()
                .any(|n| n.contains("non-empty job") && n.contains("4096 PEs")),
            "{kind}: {:?}",
            r.report.notes
        );
    }
}
