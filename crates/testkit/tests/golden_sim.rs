//! Golden outputs of the simulator: a fixed corpus of simulated runs (DST cases of every
//! balancer on every network, synthetic, UTS, N-Queens, knapsack and Golomb trees, timelines
//! on and off, unit limits, adversaries) whose complete output (the JSON report with every
//! counter and virtual time, the recorded trace, the Gantt segments, the error of a limited
//! run) must stay byte for byte what `data/golden_sim/` holds. It pins the simulator's
//! semantics while its engine is made faster: an optimization that changes any figure of any
//! run fails here.
//!
//! No case depends on the order or the length of the lists of balancers and networks: the DST
//! cases are listed by (balancer, network) stratum, each drawn from the seed its name hashes
//! to (`treesplit_lab::dst::strata`), and the other cases name their balancer. A new
//! balancer or network adds its strata (new lines, to bless) and changes no stored digest.
//!
//! The stored file holds one SHA-1 digest of each run's output (the outputs themselves are
//! megabytes), compared by case name. On a mismatch the test writes the new outputs (of the
//! cases that differ and of the new ones) to `target/golden_sim/` to be compared. Regenerate
//! with `TREESPLIT_BLESS=1 cargo test -p treesplit-testkit --test golden_sim`: for an intended
//! change of the simulator's semantics (say so in the commit), or to store the cases of a new
//! balancer or network (the file then only gains lines).

use sha1::{Digest, Sha1};
use std::collections::HashMap;
use std::fmt::{Debug, Display};
use std::path::PathBuf;
use treesplit::machine::sim::{Delay, MessageModel, Topology};
use treesplit::{BalancerKind, Ended, Machine, SimReport, Task};
use treesplit_apps::golomb::GolombSpec;
use treesplit_apps::knapsack::KnapsackFile;
use treesplit_apps::nqueens::NQueensSpec;
use treesplit_apps::spec::{AppVisitor, Objective, Published};
use treesplit_apps::synthetic::{SplitRule, SyntheticParams};
use treesplit_apps::uts::UtsParams;
use treesplit_apps::AppSpec;
use treesplit_lab::dst::strata;
use treesplit_lab::dst::Case;
use treesplit_testkit::data;

/// The whole output of one run, as text.
struct Golden<'c>(&'c Case);

impl AppVisitor for Golden<'_> {
    type Out = String;
    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        _: impl Fn(&T::Output) -> Option<Published>,
    ) -> String
    where
        T: Task,
        T::Output: Display + PartialEq + Debug + Objective,
    {
        let c = self.0;
        let show = |r: &SimReport<T::Output>| {
            format!(
                "{}\ntrace {}\ntimeline {:?}\n",
                json(r),
                json(&r.report.trace),
                r.timeline
            )
        };
        match c.simulator().run(make_root(), &c.config) {
            Ok(Ended::Finished(r)) => show(&r),
            Ok(Ended::Stopped(stopped)) => {
                let report = &stopped.report.report;
                format!(
                    "limit {:?} units {} t_par {}\n{}\ntrace {}\n",
                    stopped.limit,
                    report.totals.work_units,
                    report.t_par,
                    json(report),
                    json(&report.trace)
                )
            }
            Err(e) => format!("error {e}\n"),
        }
    }
}

/// JSON with the keys of every map in order (the trace's maps are hash maps).
fn json(value: &impl serde::Serialize) -> String {
    let value = serde_json::to_value(value).expect("a report serializes");
    serde_json::to_string(&value).expect("a value serializes")
}

fn synthetic(work: u64, alpha: f64, rule: SplitRule) -> AppSpec {
    AppSpec::Synthetic(SyntheticParams {
        work,
        alpha,
        atomic: 8,
        rule,
        spin: 1,
        seed: 7,
    })
}

/// The corpus: (name, case).
fn corpus() -> Vec<(String, Case)> {
    // DST cases of every balancer on every network, four of each, as `treesplit dst` draws
    // them (P ≤ 512, any tree, delays, adversaries).
    let mut cases = strata("dst", BalancerKind::ALL, Topology::ALL, 4, 512);
    // Every balancer on every network on the same synthetic tree, P ≤ 64.
    for (name, mut c) in strata("synthetic", BalancerKind::ALL, Topology::ALL, 1, 64) {
        c.app = synthetic(30_000, 0.3, SplitRule::Random);
        cases.push((name, c));
    }
    // Applications, timelines and limits on a few balancers.
    let knapsack = KnapsackFile::read(&data::path("knapsack/f1_l-d_kp_10_269.txt"))
        .expect("the knapsack instance");
    let apps = [
        ("synthetic", synthetic(50_000, 0.3, SplitRule::Random)),
        (
            "synthetic-adv",
            synthetic(20_000, 0.1, SplitRule::Adversarial),
        ),
        (
            "uts",
            AppSpec::Uts(UtsParams::parse(&["T1-mini".to_string()]).expect("a named tree")),
        ),
        ("nqueens", AppSpec::NQueens(NQueensSpec(8))),
        ("knapsack", AppSpec::Knapsack(knapsack)),
        ("golomb", AppSpec::Golomb(GolombSpec(6))),
    ];
    for (seed, base) in [
        (2000, BalancerKind::GlobalRoundRobin),
        (2001, BalancerKind::Block),
        (2002, BalancerKind::NeighbourPolling),
        (2003, BalancerKind::RandomPolling),
        (2004, BalancerKind::PollAndShuffle),
        (2005, BalancerKind::RandomAssignment),
    ]
    .map(|(s, kind)| (s, Case::of(s, 100, kind, None)))
    {
        for (app_name, app) in &apps {
            for (variant, trace, limit) in [
                ("plain", None, None),
                ("trace", Some(64), None),
                ("limit", None, Some(5_000)),
                ("trace-limit", Some(16), Some(2_000)),
            ] {
                let mut c = base.clone();
                c.app = app.clone();
                c.config.trace = trace;
                c.config.max_units = limit;
                cases.push((format!("{app_name}-{variant}-from-{seed}"), c));
            }
        }
    }
    // Default machine (crossbar, T_rout 10, no delay) with timelines recorded for the Gantt
    // chart, and a loaded network.
    for (i, mut c) in [
        Case::of(3000, 64, BalancerKind::RoundRobin, None),
        Case::of(3001, 64, BalancerKind::RandomAssignment, None),
    ]
    .into_iter()
    .enumerate()
    {
        c.sim = treesplit::SimConfig {
            delay: if i == 0 {
                Delay::None
            } else {
                Delay::Exponential(12.5)
            },
            // The default (blocking) model, and latency only with overheads of 1.
            model: if i == 0 {
                MessageModel::Blocking
            } else {
                MessageModel::LatencyOnly
            },
            t_send: (i > 0).then_some(1),
            t_recv: (i > 0).then_some(1),
            ..treesplit::SimConfig::default()
        };
        c.app = synthetic(100_000, 0.3, SplitRule::Random);
        cases.push((format!("default-machine-{i}"), c));
    }
    // Many PEs: where the event queue holds thousands of events at once.
    let mut c = Case::of(3002, 64, BalancerKind::RandomPolling, None);
    c.config = treesplit::Config::new(2048)
        .balancer(treesplit::Balancer::new(BalancerKind::RandomPolling))
        .delta_t(10)
        .seed(5);
    c.sim = treesplit::SimConfig::default();
    c.app = synthetic(1_000_000, 0.3, SplitRule::Random);
    cases.push(("default-machine-2048".into(), c));
    cases
}

fn data_file() -> PathBuf {
    data::path("golden_sim/digests.tsv")
}

#[test]
fn simulator_outputs_are_byte_identical_to_the_stored_ones() {
    let mut lines = String::new();
    let mut outputs = Vec::new();
    for (name, case) in corpus() {
        let text = case.app.visit(Golden(&case));
        let digest: String = Sha1::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        lines.push_str(&format!("{name}\t{digest}\n"));
        outputs.push((name, text));
    }
    if let Some(dir) = std::env::var_os("TREESPLIT_GOLDEN_DUMP") {
        // Every output in full, to compare two versions of the simulator.
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &outputs {
            std::fs::write(PathBuf::from(&dir).join(format!("{name}.txt")), text).unwrap();
        }
    }
    let path = data_file();
    if std::env::var_os("TREESPLIT_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &lines).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(&path).expect("the stored digests");
    // Compared by name: a case added to the corpus (a new balancer's or network's strata) is
    // new, not a shift of the others.
    let stored: HashMap<&str, &str> = stored
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .collect();
    let digests: HashMap<&str, &str> = lines
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/golden_sim");
    let (mut differ, mut new) = (Vec::new(), Vec::new());
    for (name, text) in &outputs {
        let slot = match stored.get(name.as_str()) {
            None => &mut new,
            Some(&old) if old != digests[name.as_str()] => &mut differ,
            Some(_) => continue,
        };
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.txt")), text).unwrap();
        slot.push(name.clone());
    }
    let mut gone: Vec<&str> = stored
        .keys()
        .copied()
        .filter(|name| !digests.contains_key(name))
        .collect();
    gone.sort_unstable();
    assert!(
        differ.is_empty() && new.is_empty() && gone.is_empty(),
        "of {} simulator outputs ({} stored), {} differ from the stored ones: {differ:?}; \
         {} are new cases without a stored digest (bless to add them: the stored file should \
         then only gain lines): {new:?}; {} stored cases are no longer in the corpus: {gone:?}; \
         the outputs that differ or are new are in {}",
        outputs.len(),
        stored.len(),
        differ.len(),
        new.len(),
        gone.len(),
        dir.display()
    );
}

/// The engine on several threads (`SimConfig::threads`) gives every run of the corpus that
/// it can take the output of one engine, byte for byte: the same counters, virtual times,
/// traces and errors. Gantt segments are kept only by one engine, so both runs leave them out
/// here; runs that need one engine (unit limits, random delays) are left out, and asking for
/// more threads there is an error.
#[test]
fn the_engine_on_several_threads_gives_the_output_of_one() {
    let (mut compared, mut refused, mut learned) = (0, 0, 0);
    for (name, mut case) in corpus() {
        case.sim.timeline_limit = 0;
        let one = case.app.visit(Golden(&case));
        for threads in [2, 3, 7] {
            let mut c = case.clone();
            c.sim.threads = Some(threads.min(c.config.pes));
            if c.sim.threads == Some(1) {
                continue;
            }
            if c.sim.engine_threads(&c.config).is_err() {
                refused += 1;
                let out = c.app.visit(Golden(&c));
                assert!(
                    out.starts_with("error ") && out.contains("engine cannot run on"),
                    "{name}: a run that needs one engine, on {threads} threads: {out}"
                );
                continue;
            }
            let many = c.app.visit(Golden(&c));
            if let Some(at) = one.bytes().zip(many.bytes()).position(|(a, b)| a != b) {
                let around =
                    |s: &str| s[at.saturating_sub(300)..(at + 300).min(s.len())].to_string();
                panic!(
                    "{name}: the output on {threads} threads differs from one engine's at byte {at}:\n{}\n---\n{}",
                    around(&one),
                    around(&many)
                );
            }
            assert_eq!(one.len(), many.len(), "{name} on {threads} threads");
            compared += 1;
            if many.contains("\"bound_latency\":") && !many.contains("\"bound_latency\":null") {
                learned += 1;
            }
        }
    }
    // Much of the corpus runs on threads (the rest has unit limits or random delays), some
    // of it branch-and-bound with incumbents learned late.
    assert!(
        compared > 500 && refused > 0 && learned > 0,
        "compared {compared}, refused {refused}, with incumbents learned {learned}"
    );
    // A run stopped by the event limit fails the same way.
    let mut c = corpus().pop().expect("a case").1;
    c.sim.max_events = 5_000;
    let one = c.app.visit(Golden(&c));
    c.sim.threads = Some(2);
    assert!(one.contains("did not end within 5000 events"), "{one}");
    assert_eq!(c.app.visit(Golden(&c)), one);
}
