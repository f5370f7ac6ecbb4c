//! 0/1 knapsack on the search skeletons ([`treesplit::search`]): the hand-written task's
//! branch-and-bound (items by profit density, take before leave, the Dantzig bound) as a node
//! (the next item, the profit and weight so far) and a generator (take the item if it fits,
//! then leave it). The packing is rebuilt from the witness's path (a [`Solution`]). The
//! application runs this search: it stays within 5 % of the hand-written task's sequential
//! rate (docs/benchmarks/skeletons.md), which is kept beside it as the measured
//! comparison and for the lab's piece-size experiments (its compact bit-string pieces).

use super::{Instance, Packing};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use treesplit::search::{Optimisation, Optimise, Solution, Space, Witness};

/// A knapsack instance as a search space.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KnapsackSpace(pub Arc<Instance>);

/// The branch-and-bound the application runs, reporting the best [`Packing`].
pub type KnapsackSearch = Optimisation<KnapsackSpace, Packing>;

/// The whole search of `instance`.
pub fn search(instance: Arc<Instance>) -> KnapsackSearch {
    Optimisation::reporting(KnapsackSpace(instance))
}

/// A node: items `0..level` (in density order) are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partial {
    level: u32,
    profit: u64,
    weight: u64,
}

impl KnapsackSpace {
    /// The packing a path from the root decides: at each level the first child takes the
    /// item when it fits, the other (or the only one) leaves it.
    pub fn packing(&self, path: &[u32]) -> Packing {
        let (mut profit, mut weight, mut items) = (0, 0, Vec::new());
        for (&(p, w, index), &child) in self.0.items.iter().zip(path) {
            if child == 0 && weight + w <= self.0.capacity {
                profit += p;
                weight += w;
                items.push(index);
            }
        }
        items.sort_unstable();
        Packing {
            profit,
            weight,
            items,
        }
    }
}

/// A node that improved the incumbent, as its packing.
impl Solution<KnapsackSpace> for Packing {
    fn found(space: &KnapsackSpace, _: i64, witness: Witness<Partial>) -> Self {
        space.packing(&witness.path)
    }
}

impl Space for KnapsackSpace {
    type Node = Partial;
    /// The alternatives left: 2 (take, then leave), 1 (leave), 0.
    type Children = u8;

    fn root(&self) -> Partial {
        Partial {
            level: 0,
            profit: 0,
            weight: 0,
        }
    }

    #[inline]
    fn children(&self, node: &Partial) -> u8 {
        if (node.level as usize) < self.0.len() {
            2
        } else {
            0
        }
    }

    #[inline]
    fn next_child(&self, node: &Partial, left: &mut u8) -> Option<Partial> {
        let level = node.level + 1;
        if *left == 2 {
            *left = 1;
            let (p, w, _) = self.0.items[node.level as usize];
            if node.weight + w <= self.0.capacity {
                return Some(Partial {
                    level,
                    profit: node.profit + p,
                    weight: node.weight + w,
                });
            }
        }
        if *left == 1 {
            *left = 0;
            return Some(Partial { level, ..*node });
        }
        None
    }

    fn digest(&self) -> u64 {
        self.0.id()
    }
}

impl Optimise for KnapsackSpace {
    #[inline]
    fn objective(&self, node: &Partial) -> Option<i64> {
        Some(node.profit as i64)
    }

    #[inline]
    fn bound(&self, node: &Partial) -> Option<i64> {
        let level = node.level as usize;
        if level == self.0.len() {
            return Some(node.profit as i64);
        }
        Some((node.profit + self.0.bound(level, self.0.capacity - node.weight)) as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit::search::Optimisation;
    use treesplit::{run, run_sequential, Config};
    use treesplit_testkit::data;

    #[test]
    fn the_skeleton_reaches_the_published_optima_with_a_valid_packing() {
        let index = data::read("knapsack/index.tsv");
        let mut checked = 0;
        for line in index
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            let (file, optimum): (&str, u64) = (cols[0], cols[3].parse().unwrap());
            // The small instances (the large ones take long in a debug build).
            if cols[1].parse::<usize>().unwrap() > 200 {
                continue;
            }
            let path = data::path(&format!("knapsack/{file}.txt"));
            let inst = Arc::new(Instance::read(&path).unwrap());
            let space = KnapsackSpace(inst.clone());
            // With the default report: the value, and a witness whose path decides its node.
            let seq = run_sequential(Optimisation::new(KnapsackSpace(inst.clone())));
            assert_eq!(seq.output.value(), Some(optimum as i64), "{file}");
            let w = seq.output.witness().expect("a witness");
            let by_path = space.packing(&w.path);
            assert_eq!(
                (by_path.profit, by_path.weight),
                (w.node.profit, w.node.weight)
            );
            // As the application reports it: the packing, on 2 PEs.
            let packing = run(search(inst.clone()), &Config::new(2))
                .unwrap()
                .into_report()
                .output;
            assert_eq!(packing.profit, optimum, "{file}");
            let (p, w) = packing.items.iter().fold((0, 0), |(p, w), &i| {
                let (pi, wi, _) = space.0.items.iter().find(|it| it.2 == i).copied().unwrap();
                (p + pi, w + wi)
            });
            assert_eq!((p, w), (packing.profit, packing.weight), "{file}");
            assert!(w <= space.0.capacity, "{file}");
            checked += 1;
        }
        assert!(checked >= 2, "{checked} instances checked");
    }
}
