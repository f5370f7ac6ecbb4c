//! Search skeletons on every balancer, on threads and in the simulator: an enumeration must
//! give exactly the sequential answer (and a published count) with exactly its work units; a
//! decision must stop with a valid goal, or find none where there is none with every node
//! visited; a branch-and-bound must reach the optimum that dynamic programming gives, with a
//! witness that reaches it.

use serde::{Deserialize, Serialize};
use std::time::Duration;
use treesplit::checkpoint::Snapshot;
use treesplit::machine::sim::Topology;
use treesplit::search::{
    Best, Decide, Decision, Enumerate, Enumeration, Found, Optimisation, Optimise, Space,
};
use treesplit::task::pieces::Pieces;
use treesplit::{
    run, run_sequential, simulate, Balancer, BalancerKind, Config, Ended, Jobs, Outcome, SimConfig,
    Stopped, Task, Threads,
};
use treesplit_testkit::support::{mix, within};

// ---------------------------------------------------------------------------------------
// N-Queens as an enumeration: a node is a partial placement, row by row.

#[derive(Debug, Serialize, Deserialize)]
struct Queens {
    n: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Board {
    row: u32,
    cols: u32,
    diag1: u32,
    diag2: u32,
}

impl Space for Queens {
    type Node = Board;
    type Children = u32;
    fn root(&self) -> Board {
        Board {
            row: 0,
            cols: 0,
            diag1: 0,
            diag2: 0,
        }
    }
    fn children(&self, b: &Board) -> u32 {
        if b.row == self.n {
            return 0;
        }
        !(b.cols | b.diag1 | b.diag2) & ((1 << self.n) - 1)
    }
    fn next_child(&self, b: &Board, free: &mut u32) -> Option<Board> {
        if *free == 0 {
            return None;
        }
        let bit = *free & free.wrapping_neg();
        *free ^= bit;
        Some(Board {
            row: b.row + 1,
            cols: b.cols | bit,
            diag1: (b.diag1 | bit) << 1,
            diag2: (b.diag2 | bit) >> 1,
        })
    }
}

impl Enumerate for Queens {
    type Output = u64;
    fn visit(&self, b: &Board, solutions: &mut u64) {
        *solutions += u64::from(b.row == self.n);
    }
}

// ---------------------------------------------------------------------------------------
// Subset sum as a decision: is there a subset of the weights summing to the target?

#[derive(Debug, Serialize, Deserialize)]
struct SubsetSum {
    weights: Vec<u64>,
    target: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Subset {
    next: usize,
    sum: u64,
    chosen: u64,
}

impl Space for SubsetSum {
    type Node = Subset;
    type Children = u8;
    fn root(&self) -> Subset {
        Subset {
            next: 0,
            sum: 0,
            chosen: 0,
        }
    }
    fn children(&self, s: &Subset) -> u8 {
        if s.next == self.weights.len() {
            2
        } else {
            0
        }
    }
    fn next_child(&self, s: &Subset, state: &mut u8) -> Option<Subset> {
        // 0: with item `next` (if it fits), 1: without it, 2: done.
        let w = *self.weights.get(s.next)?;
        if *state == 0 {
            *state = 1;
            if s.sum + w <= self.target {
                return Some(Subset {
                    next: s.next + 1,
                    sum: s.sum + w,
                    chosen: s.chosen | 1 << s.next,
                });
            }
        }
        if *state == 1 {
            *state = 2;
            return Some(Subset {
                next: s.next + 1,
                ..*s
            });
        }
        None
    }
}

impl Decide for SubsetSum {
    fn is_goal(&self, s: &Subset) -> bool {
        s.sum == self.target
    }
}

impl SubsetSum {
    fn new(n: usize, seed: u64, target: u64) -> Self {
        let weights = (0..n as u64).map(|i| 1 + mix(seed ^ i) % 500).collect();
        SubsetSum { weights, target }
    }
    /// Whether some subset sums to the target, by dynamic programming.
    fn reachable(&self) -> bool {
        let t = self.target as usize;
        let mut can = vec![false; t + 1];
        can[0] = true;
        for &w in &self.weights {
            for s in (w as usize..=t).rev() {
                can[s] |= can[s - w as usize];
            }
        }
        can[t]
    }
}

// ---------------------------------------------------------------------------------------
// 0/1 knapsack as branch-and-bound.

#[derive(Debug, Serialize, Deserialize)]
struct Knapsack {
    /// (profit, weight), best profit per weight first.
    items: Vec<(i64, i64)>,
    capacity: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Packing {
    next: usize,
    profit: i64,
    weight: i64,
    chosen: u64,
}

impl Knapsack {
    fn new(n: usize, seed: u64) -> Self {
        let mut items: Vec<(i64, i64)> = (0..n as u64)
            .map(|i| {
                let h = mix(seed ^ (i << 8));
                let w = 10 + (h % 90) as i64;
                (w + 10 + ((h >> 16) % 3) as i64, w)
            })
            .collect();
        items.sort_by(|a, b| (b.0 * a.1).cmp(&(a.0 * b.1)));
        let capacity = items.iter().map(|&(_, w)| w).sum::<i64>() / 2;
        Knapsack { items, capacity }
    }
    fn optimum_by_dp(&self) -> i64 {
        let cap = self.capacity as usize;
        let mut best = vec![0i64; cap + 1];
        for &(p, w) in &self.items {
            for c in (w as usize..=cap).rev() {
                best[c] = best[c].max(best[c - w as usize] + p);
            }
        }
        best[cap]
    }
}

impl Space for Knapsack {
    type Node = Packing;
    type Children = u8;
    fn root(&self) -> Packing {
        Packing {
            next: 0,
            profit: 0,
            weight: 0,
            chosen: 0,
        }
    }
    fn children(&self, _: &Packing) -> u8 {
        0
    }
    fn next_child(&self, p: &Packing, state: &mut u8) -> Option<Packing> {
        let &(profit, weight) = self.items.get(p.next)?;
        if *state == 0 {
            *state = 1;
            if p.weight + weight <= self.capacity {
                return Some(Packing {
                    next: p.next + 1,
                    profit: p.profit + profit,
                    weight: p.weight + weight,
                    chosen: p.chosen | 1 << p.next,
                });
            }
        }
        if *state == 1 {
            *state = 2;
            return Some(Packing {
                next: p.next + 1,
                ..*p
            });
        }
        None
    }
}

impl Optimise for Knapsack {
    fn objective(&self, p: &Packing) -> Option<i64> {
        Some(p.profit)
    }
    /// The profit plus the room left filled at the best ratio of the items left (a weak
    /// bound, so that the tree is large enough to be shared out).
    fn bound(&self, p: &Packing) -> Option<i64> {
        let room = self.capacity - p.weight;
        Some(match self.items.get(p.next) {
            Some(&(pi, wi)) => p.profit + (pi * room + wi - 1) / wi,
            None => p.profit,
        })
    }
}

// ---------------------------------------------------------------------------------------
// The machines and balancers.

const THREAD_PES: [usize; 3] = [1, 2, 3];
const SIM_PES: [(usize, Topology); 3] = [
    (1, Topology::Crossbar),
    (7, Topology::Hypercube),
    (64, Topology::Mesh2d),
];

/// Every balancer on P PEs (static ones with a bag of 2^5 jobs).
fn configs(p: usize) -> impl Iterator<Item = Config> {
    BalancerKind::ALL.iter().map(move |&kind| {
        let mut balancer = Balancer::new(kind);
        if kind.is_static() {
            balancer = balancer.with_jobs(Jobs::Depth(5));
        }
        Config::new(p)
            .balancer(balancer)
            .delta_t(16)
            .seed(p as u64 + 3)
    })
}

/// Run `root` on every balancer on threads and in the simulator; `judge` gets each run's
/// output and work units.
fn every_run<T: Task>(what: &str, root: &T, judge: impl Fn(&str, &T::Output, u64)) {
    for p in THREAD_PES {
        for cfg in configs(p) {
            let tag = format!("{what} threads P={p} {}", cfg.balancer.kind());
            let r = {
                let (root, cfg) = (root.clone(), cfg.clone());
                within(Duration::from_secs(60), move || {
                    run(root, &cfg).map(treesplit::Ended::into_report)
                })
            }
            .unwrap_or_else(|e| panic!("{tag}: {e}"));
            judge(&tag, &r.output, r.totals.work_units);
        }
    }
    for (p, topology) in SIM_PES {
        for cfg in configs(p) {
            let tag = format!("{what} sim {topology} P={p} {}", cfg.balancer.kind());
            let sim = SimConfig {
                topology,
                ..SimConfig::default()
            };
            let s = simulate(root.clone(), &cfg, &sim)
                .map(treesplit::Ended::into_report)
                .unwrap_or_else(|e| panic!("{tag}: {e}"));
            judge(&tag, &s.report.output, s.report.totals.work_units);
            if p > 1 && !cfg.balancer.is_static() {
                assert!(s.report.totals.splits > 0, "{tag}: nothing was split");
            }
        }
    }
}

#[test]
fn enumeration_counts_n_queens_on_every_balancer_and_machine() {
    // OEIS A000170: 8 → 92, 9 → 352.
    for (n, want) in [(8, 92), (9, 352)] {
        let root = Enumeration::new(Queens { n });
        let seq = run_sequential(root.clone());
        assert_eq!(seq.output, want);
        every_run(&format!("queens {n}"), &root, |tag, &out, units| {
            assert_eq!(out, want, "{tag}");
            assert_eq!(units, seq.work_units, "{tag}: work not conserved");
        });
    }
}

#[test]
fn decision_finds_a_valid_goal_or_proves_there_is_none_on_every_balancer_and_machine() {
    // A target some subset reaches, and one above the total that none reaches.
    let yes = SubsetSum::new(24, 5, 2500);
    assert!(yes.reachable());
    let total: u64 = SubsetSum::new(18, 7, 0).weights.iter().sum();
    let no = SubsetSum::new(18, 7, total + 1);
    assert!(!no.reachable());

    let weights = yes.weights.clone();
    let root = Decision::new(yes);
    every_run("subset sum (yes)", &root, |tag, out: &Found<Subset>, _| {
        let s = out
            .node()
            .unwrap_or_else(|| panic!("{tag}: no subset found"));
        let sum: u64 = (0..weights.len())
            .filter(|&i| s.chosen >> i & 1 == 1)
            .map(|i| weights[i])
            .sum();
        assert_eq!(sum, 2500, "{tag}: the witness does not reach the target");
        assert_eq!(s.sum, 2500, "{tag}");
        let w = out.0.as_ref().unwrap();
        assert_eq!(w.path.len(), s.next, "{tag}: one child index per level");
    });

    let root = Decision::new(no);
    let seq = run_sequential(root.clone());
    assert!(seq.output.node().is_none());
    every_run("subset sum (no)", &root, |tag, out, units| {
        assert!(out.node().is_none(), "{tag}: {out:?}");
        assert_eq!(units, seq.work_units, "{tag}: every node is visited");
    });
}

#[test]
fn branch_and_bound_reaches_the_optimum_with_a_witness_on_every_balancer_and_machine() {
    let knapsack = Knapsack::new(40, 11);
    let optimum = knapsack.optimum_by_dp();
    let items = knapsack.items.clone();
    let capacity = knapsack.capacity;
    let root = Optimisation::new(knapsack);
    let seq = run_sequential(root.clone());
    assert_eq!(seq.output.value(), Some(optimum));
    assert!(
        seq.work_units > 5_000,
        "a tree too small: {}",
        seq.work_units
    );
    every_run("knapsack", &root, |tag, out: &Best<Knapsack>, _| {
        assert_eq!(out.value(), Some(optimum), "{tag}");
        let w = out.witness().unwrap();
        let (profit, weight) = (0..items.len())
            .filter(|&i| w.node.chosen >> i & 1 == 1)
            .fold((0, 0), |(p, c), i| (p + items[i].0, c + items[i].1));
        assert_eq!(
            profit, optimum,
            "{tag}: the witness does not reach the optimum"
        );
        assert!(weight <= capacity, "{tag}: the witness does not fit");
    });
}

/// Stop a run at `max_units` keeping its pieces: (output, units, pieces).
fn stop<T: Task>(root: T, config: &Config, sim: bool) -> (T::Output, u64, Vec<T>) {
    let config = config.clone().keep_remaining(true);
    let result = if sim {
        simulate(root, &config, &SimConfig::default()).map(|e| e.map_report(|r| r.report))
    } else {
        Threads::new().run(root, &config)
    };
    match result {
        Ok(Ended::Stopped(Stopped {
            report, remaining, ..
        })) => (report.output, report.totals.work_units, remaining),
        Ok(Ended::Finished(report)) => (report.output, report.totals.work_units, Vec::new()),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_stopped_search_resumes_from_a_checkpoint_on_another_balancer_exactly() {
    // OEIS A000170: 10 → 724.
    let root = Enumeration::new(Queens { n: 10 });
    let seq = run_sequential(root.clone());
    assert_eq!(seq.output, 724);
    let kinds = BalancerKind::ALL;
    for (i, &kind) in kinds.iter().enumerate() {
        let next = kinds[(i + 1) % kinds.len()];
        for sim in [true, false] {
            let cfg = |kind: BalancerKind, p: usize| {
                let mut b = Balancer::new(kind);
                if kind.is_static() {
                    b = b.with_jobs(Jobs::PerPe(4));
                }
                Config::new(p).balancer(b).delta_t(50).seed(p as u64)
            };
            let first = cfg(kind, 3).max_units(seq.work_units / 3);
            let (mut output, units, pieces) = stop(root.clone(), &first, sim);
            assert!(
                units < seq.work_units && !pieces.is_empty(),
                "{kind} sim={sim}: stopped with {units} units and {} pieces",
                pieces.len()
            );
            // Through a checkpoint's bytes: the pieces' wire form.
            let mut snapshot = Snapshot::start(Pieces::new(pieces), vec!["queens".into()]);
            snapshot.output = output;
            let bytes = snapshot.encode().unwrap();
            let snapshot = Snapshot::<Pieces<Enumeration<Queens>>>::decode(&bytes).unwrap();
            output = snapshot.output;
            let rest = Pieces::new(
                snapshot
                    .pieces
                    .into_iter()
                    .flat_map(Pieces::into_inner)
                    .collect(),
            );
            let r = if sim {
                simulate(rest, &cfg(next, 5), &SimConfig::default())
                    .unwrap()
                    .into_report()
                    .report
            } else {
                Threads::new()
                    .run(rest, &cfg(next, 5))
                    .unwrap()
                    .into_report()
            };
            output.merge(r.output);
            assert_eq!(output, 724, "{kind} then {next}, sim={sim}");
            assert_eq!(
                units + r.totals.work_units,
                seq.work_units,
                "{kind} then {next}, sim={sim}: units"
            );
        }
    }
}

/// A checkpoint carries the instance its pieces name: it decodes and resumes, in the
/// simulator and on threads, in a process that no longer holds the instance (nothing else in
/// this test binary uses 11 queens), and it fits the root built again from the same input but
/// not another one.
#[test]
fn a_checkpoint_resumes_where_the_instance_is_no_longer_held() {
    // OEIS A000170: 11 → 2680.
    let seq = run_sequential(Enumeration::new(Queens { n: 11 }));
    assert_eq!(seq.output, 2680);
    for sim in [true, false] {
        let cfg = Config::new(3).delta_t(50).seed(7);
        let (output, units, pieces) = stop(
            Enumeration::new(Queens { n: 11 }),
            &cfg.clone().max_units(seq.work_units / 3),
            sim,
        );
        assert!(!pieces.is_empty(), "sim={sim}: the run finished");
        let mut snapshot = Snapshot::start(Pieces::new(pieces), vec!["queens 11".into()]);
        snapshot.output = output;
        snapshot.work_units = units;
        let bytes = snapshot.encode().unwrap();
        drop(snapshot); // the last holder of the instance
        let back = Snapshot::<Pieces<Enumeration<Queens>>>::decode(&bytes)
            .unwrap_or_else(|e| panic!("sim={sim}: {e}"));
        back.check_instance(&Pieces::new(vec![Enumeration::new(Queens { n: 11 })]))
            .unwrap();
        let other = back
            .check_instance(&Pieces::new(vec![Enumeration::new(Queens { n: 12 })]))
            .unwrap_err();
        assert!(
            other.to_string().contains("the instance changed"),
            "{other}"
        );
        let rest = Pieces::new(
            back.pieces
                .into_iter()
                .flat_map(Pieces::into_inner)
                .collect(),
        );
        let r = if sim {
            simulate(rest, &Config::new(5), &SimConfig::default())
                .unwrap()
                .into_report()
                .report
        } else {
            Threads::new()
                .run(rest, &Config::new(2))
                .unwrap()
                .into_report()
        };
        let mut total = back.output;
        total.merge(r.output);
        assert_eq!(total, 2680, "sim={sim}");
        assert_eq!(
            back.work_units + r.totals.work_units,
            seq.work_units,
            "sim={sim}"
        );
    }
}

#[test]
fn checked_runs_find_the_searches_keep_the_task_contract() {
    for kind in BalancerKind::ALL {
        let mut b = Balancer::new(*kind);
        if kind.is_static() {
            b = b.with_jobs(Jobs::Depth(5));
        }
        let cfg = Config::new(3).balancer(b).delta_t(8).seed(1).check(true);
        let root = Enumeration::new(Queens { n: 8 });
        let r = run(root.clone(), &cfg).unwrap().into_report();
        treesplit::check::against_sequential(root, &r).unwrap_or_else(|e| panic!("{kind}: {e}"));
        let r = run(Optimisation::new(Knapsack::new(30, 2)), &cfg)
            .unwrap_or_else(|e| panic!("{kind}: {e}"))
            .into_report();
        assert_eq!(r.output.value(), Some(Knapsack::new(30, 2).optimum_by_dp()));
    }
}
