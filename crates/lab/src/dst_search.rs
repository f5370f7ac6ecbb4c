//! Deterministic simulation testing of the search skeletons (`treesplit::search`): the three
//! kinds on the simulated machine of a drawn tree case, each checked independently of the
//! run. An enumeration (N-Queens counts) must give the sequential answer with exactly its
//! work units and terminate within the delay bound of a tree case; a decision (one N-Queens
//! placement) must find a valid one where the published counts say one exists, and where none
//! does, visit every node; a branch-and-bound (a drawn knapsack, a Golomb ruler) must reach
//! the optimum that dynamic programming or the published table gives, with a witness that
//! reaches it. `dst_systems` draws these among its system cases.

use crate::dst::Case;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use treesplit::search::{node_at, Decision, Enumeration, Optimisation};
use treesplit::{run_sequential, Machine};
use treesplit_apps::golomb::{app::GOLOMB_LENGTHS, is_golomb, skeleton::Rulers};
use treesplit_apps::knapsack::{skeleton::search, Instance};
use treesplit_apps::nqueens::{skeleton::Queens, NQUEENS_SOLUTIONS};

/// A skeleton search drawn for a system case.
#[derive(Debug, Clone, PartialEq)]
pub enum Search {
    /// Count the N-Queens solutions (enumeration).
    Count(u32),
    /// Find one N-Queens placement (decision).
    Place(u32),
    /// The best packing of a drawn knapsack: (n items, seed) (branch-and-bound).
    Pack(usize, u64),
    /// The shortest Golomb ruler with n marks (branch-and-bound, minimising).
    Ruler(usize),
}

impl Search {
    /// A search drawn from `r`.
    pub fn random(r: &mut Xoshiro256PlusPlus) -> Search {
        match r.random_range(0..4) {
            0 => Search::Count(r.random_range(4..=9)),
            1 => Search::Place(r.random_range(1..=12)),
            2 => Search::Pack(r.random_range(1..=28), r.random_range(0..1000)),
            _ => Search::Ruler(r.random_range(2..=7)),
        }
    }

    /// The kind of search.
    pub fn kind(&self) -> &'static str {
        match self {
            Search::Count(_) => "enumeration",
            Search::Place(_) => "decision",
            Search::Pack(..) | Search::Ruler(_) => "branch-and-bound",
        }
    }

    /// Run the search on `case`'s machine and check it.
    pub fn check(&self, case: &Case) -> Result<(), String> {
        let sim = case.simulator();
        match *self {
            Search::Count(n) => {
                let make = || Enumeration::new(Queens::new(n).expect("drawn in range"));
                case.check_task(make)?;
                let want = NQUEENS_SOLUTIONS[n as usize - 1];
                let got = run_sequential(make()).output;
                if got != want {
                    return Err(format!("{n}-queens: {got} solutions, published {want}"));
                }
                Ok(())
            }
            Search::Place(n) => {
                let space = Queens::new(n).expect("drawn in range");
                let r = sim
                    .run(Decision::new(space), &case.config)
                    .map_err(|e| e.to_string())?
                    .into_report()
                    .report;
                let exists = NQUEENS_SOLUTIONS[n as usize - 1] > 0;
                match r.output.0 {
                    Some(w) => {
                        if !space.is_full(&w.node) || node_at(&space, &w.path) != Some(w.node) {
                            return Err(format!("{n}-queens: a wrong placement {w:?}"));
                        }
                        Ok(())
                    }
                    None if exists => Err(format!("{n}-queens: no placement found")),
                    None => {
                        let seq = run_sequential(Decision::new(space));
                        if r.totals.work_units != seq.work_units {
                            return Err(format!(
                                "{n}-queens without placements: {} units, the sequential run {}",
                                r.totals.work_units, seq.work_units
                            ));
                        }
                        Ok(())
                    }
                }
            }
            Search::Pack(n, seed) => {
                let items = knapsack_items(n, seed);
                let capacity = items.iter().map(|&(_, w)| w).sum::<u64>() / 2;
                let instance =
                    std::sync::Arc::new(Instance::new(capacity, &items).expect("small profits"));
                let packing = sim
                    .run(search(instance), &case.config)
                    .map_err(|e| e.to_string())?
                    .into_report()
                    .report
                    .output;
                let want = knapsack_by_dp(&items, capacity);
                let (p, w) = packing.items.iter().fold((0, 0), |(p, w), &i| {
                    (p + items[i as usize].0, w + items[i as usize].1)
                });
                if packing.profit != want || p != want || w > capacity {
                    return Err(format!(
                        "knapsack ({n} items, seed {seed}): the packing {packing:?} \
                         (profit {p}, weight {w} of {capacity}); the optimum is {want}"
                    ));
                }
                Ok(())
            }
            Search::Ruler(n) => {
                let r = sim
                    .run(
                        Optimisation::new(Rulers::new(n).expect("drawn in range")),
                        &case.config,
                    )
                    .map_err(|e| e.to_string())?
                    .into_report()
                    .report;
                let want = i64::from(GOLOMB_LENGTHS[n - 2]);
                let marks = r.output.witness().map(|w| w.node.marks());
                let valid = marks.as_ref().is_some_and(|m| {
                    m.len() == n && is_golomb(m) && m.last().map(|&l| i64::from(l)) == Some(want)
                });
                if r.output.value() != Some(want) || !valid {
                    return Err(format!(
                        "golomb {n}: {:?} with marks {marks:?}; the optimum is {want}",
                        r.output.value()
                    ));
                }
                Ok(())
            }
        }
    }
}

/// `n` items (profit, weight) drawn from `seed`: weights 1..=60, profits near them (the
/// correlated instances that make the tree large).
fn knapsack_items(n: usize, seed: u64) -> Vec<(u64, u64)> {
    use rand::SeedableRng;
    let mut r = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let w = r.random_range(1..=60u64);
            (w + r.random_range(0..=10u64), w)
        })
        .collect()
}

/// The optimum by dynamic programming over capacities.
fn knapsack_by_dp(items: &[(u64, u64)], capacity: u64) -> u64 {
    let cap = capacity as usize;
    let mut best = vec![0u64; cap + 1];
    for &(p, w) in items {
        for c in (w as usize..=cap).rev() {
            best[c] = best[c].max(best[c - w as usize] + p);
        }
    }
    best[cap]
}
