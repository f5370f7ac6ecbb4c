//! Tests of the optimal scheduler: against an exhaustive search on small DAGs, bad instances,
//! and Fig. 14.7's two-digit multiplication.

use super::*;

/// Exhaustive search without bounds or symmetry breaking: every task order × PE choice,
/// each task at its earliest time.
fn brute(costs: &[u64], preds: &[Vec<usize>], pes: usize) -> u64 {
    fn go(
        costs: &[u64],
        preds: &[Vec<usize>],
        finish: &mut Vec<Option<u64>>,
        free: &mut Vec<u64>,
    ) -> u64 {
        let n = costs.len();
        if finish.iter().all(Option::is_some) {
            return finish.iter().map(|f| f.unwrap()).max().unwrap_or(0);
        }
        let mut best = u64::MAX;
        for v in 0..n {
            if finish[v].is_some() || preds[v].iter().any(|&u| finish[u].is_none()) {
                continue;
            }
            let ready = preds[v]
                .iter()
                .map(|&u| finish[u].unwrap())
                .max()
                .unwrap_or(0);
            for pe in 0..free.len() {
                let (old, start) = (free[pe], ready.max(free[pe]));
                free[pe] = start + costs[v];
                finish[v] = Some(start + costs[v]);
                best = best.min(go(costs, preds, finish, free));
                finish[v] = None;
                free[pe] = old;
            }
        }
        best
    }
    go(
        costs,
        preds,
        &mut vec![None; costs.len()],
        &mut vec![0; pes],
    )
}

fn random_dag(seed: u64, n: usize) -> (Vec<u64>, Vec<Vec<usize>>) {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut next = || rng.random::<u64>();
    let costs = (0..n).map(|_| 1 + next() % 5).collect();
    let preds = (0..n)
        .map(|v| (0..v).filter(|_| next() % 4 == 0).collect())
        .collect();
    (costs, preds)
}

#[test]
fn matches_exhaustive_search_on_small_dags() {
    for seed in 0..40 {
        let n = 3 + (seed % 5) as usize;
        let (costs, preds) = random_dag(seed, n);
        for pes in 1..=3 {
            let inst = Instance::new(costs.clone(), &preds, pes).unwrap();
            let s = treesplit::run_sequential(OptimalSchedule::new(inst.clone())).output;
            let m = inst.check(&s).unwrap();
            assert_eq!(Some(m), s.makespan);
            assert_eq!(m, brute(&costs, &preds, pes), "seed {seed} n {n} p {pes}");
            assert!(m >= inst.lower_bound());
        }
    }
}

/// The same piece, field by field (the partial schedules, candidates, positions).
fn same(a: &OptimalSchedule, b: &OptimalSchedule) -> bool {
    a.cap == b.cap
        && a.inst.id() == b.inst.id()
        && format!("{:?}", a.levels) == format!("{:?}", b.levels)
}

/// Pieces travel as paths (§6.1): every piece met while a search is worked and split,
/// root included, comes back from postcard as the same piece; the pieces are far smaller
/// than with the instance and partial schedules inside; and searching the pieces
/// received, not the originals, finds the optimum.
#[test]
fn pieces_round_trip_as_paths() {
    use treesplit::task::SharedIncumbent;
    use treesplit::Context;
    for seed in 0..12 {
        let (costs, preds) = random_dag(seed, 14 + (seed % 4) as usize);
        let inst = Instance::new(costs, &preds, 3).unwrap();
        let want = treesplit::run_sequential(OptimalSchedule::new(inst.clone()))
            .output
            .makespan;
        let trip = |p: &OptimalSchedule| {
            let bytes = postcard::to_allocvec(p).unwrap();
            let back: OptimalSchedule = postcard::from_bytes(&bytes).unwrap();
            assert!(same(p, &back), "seed {seed}");
            (back, bytes.len())
        };
        let inc = SharedIncumbent::new();
        let mut out = Schedule::default();
        let mut todo = vec![trip(&OptimalSchedule::new(inst.clone())).0];
        let (mut compact, mut inline, mut pieces) = (0, 0, 0);
        while let Some(mut piece) = todo.pop() {
            piece.work(7, &mut Context::new(&mut out, &inc, 0));
            if let Some(given) = piece.split() {
                let (given, bytes) = trip(&given);
                compact += bytes;
                inline += given.inline_bytes();
                pieces += 1;
                todo.push(given);
            }
            if !piece.is_empty() {
                todo.push(trip(&piece).0);
            }
        }
        assert_eq!(out.makespan, want, "seed {seed}");
        eprintln!(
            "seed {seed}: {} tasks, {pieces} pieces, mean bytes {:.1} as paths, {:.1} inline",
            inst.tasks(),
            compact as f64 / pieces as f64,
            inline as f64 / pieces as f64
        );
        assert!(pieces > 3, "seed {seed}: {pieces} pieces");
        assert!(
            compact * 4 < inline,
            "seed {seed}: {compact} bytes as paths, {inline} inline"
        );
    }
}

#[test]
fn malformed_pieces_are_refused() {
    let (costs, preds) = random_dag(3, 8);
    let inst = Instance::new(costs, &preds, 2).unwrap();
    let root = OptimalSchedule::new(inst.clone());
    let id = inst.id();
    let wire = |path: Vec<(u8, u8)>, levels: Vec<(u32, u32, u32)>| {
        postcard::to_allocvec(&Wire {
            instance: treesplit::task::shared::Sent::Id(id),
            cap: root.cap,
            path,
            levels,
        })
        .unwrap()
    };
    let err = |b: Vec<u8>| postcard::from_bytes::<OptimalSchedule>(&b).is_err();
    assert!(err(wire(vec![(60, 0)], vec![(0, 1, 0)])), "no such task");
    assert!(err(wire(vec![], vec![(0, 99, 0)])), "range out of bounds");
    assert!(
        err(wire(vec![], vec![(0, 1, 0), (0, 1, 0)])),
        "level under nothing"
    );
    assert!(!err(wire(vec![], vec![(0, 1, 0)])));
    let unknown = postcard::to_allocvec(&Wire {
        instance: treesplit::task::shared::Sent::Id(id ^ 1),
        cap: 1,
        path: vec![],
        levels: vec![],
    })
    .unwrap();
    assert!(err(unknown), "an instance not registered here");
}

#[test]
fn bad_instances_are_refused() {
    assert!(Instance::new(vec![1, 1], &[vec![1], vec![0]], 2)
        .unwrap_err()
        .contains("cycle"));
    assert!(Instance::new(vec![1], &[vec![0]], 2)
        .unwrap_err()
        .contains("own predecessor"));
    assert!(Instance::new(vec![1], &[vec![3]], 2).is_err());
    assert!(Instance::new(vec![1], &[vec![]], 0).is_err());
    assert!(Instance::new(vec![u64::MAX, 1], &[vec![], vec![]], 1).is_err());
}

/// Fig. 14.7: the recursive multiplication of two-digit numbers (W = 20, critical path
/// 11). On 3 PEs the optimum is the critical path; on 2 PEs it cannot be below 11 and the
/// optimum found is a feasible schedule that no list schedule beats.
#[test]
fn optimal_schedules_of_the_two_digit_multiplication() {
    let dag = crate::dag::multiply(1).expect("K = 1");
    assert_eq!((dag.work(), dag.critical_path()), (20, 11));
    let mut optimum = Vec::new();
    for pes in [2, 3] {
        let inst = from_dag(&dag, pes).unwrap();
        let s = treesplit::run_sequential(OptimalSchedule::new(inst.clone())).output;
        let m = inst.check(&s).unwrap();
        assert!(m >= inst.lower_bound() && m <= inst.check(&inst.list_schedule()).unwrap());
        optimum.push(m);
    }
    assert_eq!(optimum[1], 11, "3 PEs: the critical path");
    assert!(optimum[0] >= 11, "2 PEs: {optimum:?}");
    eprintln!("Fig. 14.7 optimal makespans on 2 and 3 PEs: {optimum:?}");
}
