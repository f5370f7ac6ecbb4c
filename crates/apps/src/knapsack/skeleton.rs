//! 0/1 knapsack on the search skeletons ([`treesplit::search`]): the hand-written task's
//! branch-and-bound (items by profit density, take before leave, the Dantzig bound) as a node
//! (the next item, the profit and weight so far) and a generator (take the item if it fits,
//! then leave it). The packing is rebuilt from the witness's path. Kept beside the
//! hand-written task to measure what the skeleton's generality costs (BENCHMARKS.md, "search
//! skeletons").

use super::{Instance, Packing};
use serde::{Deserialize, Serialize};
use treesplit::search::{node_at, Best, Optimise, Space};

/// A knapsack instance as a search space.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KnapsackSpace(pub Instance);

/// A node: items `0..level` (in density order) are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partial {
    level: u32,
    profit: u64,
    weight: u64,
}

impl KnapsackSpace {
    /// The packing of the witness of `best` (empty when there is none).
    pub fn packing(&self, best: &Best<KnapsackSpace>) -> Packing {
        let Some(w) = best.witness() else {
            return Packing::default();
        };
        let mut items = Vec::new();
        for depth in 0..w.path.len() {
            let above = node_at(self, &w.path[..depth]).expect("the witness's path");
            let below = node_at(self, &w.path[..=depth]).expect("the witness's path");
            if below.weight != above.weight || below.profit != above.profit {
                items.push(self.0.items[depth].2);
            }
        }
        items.sort_unstable();
        Packing {
            profit: w.node.profit,
            weight: w.node.weight,
            items,
        }
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
            let inst = Instance::read(&path).unwrap();
            let space = KnapsackSpace(Instance::read(&path).unwrap());
            let seq = run_sequential(Optimisation::new(KnapsackSpace(inst)));
            assert_eq!(seq.output.value(), Some(optimum as i64), "{file}");
            let r = run(
                Optimisation::new(KnapsackSpace(Instance::read(&path).unwrap())),
                &Config::new(2),
            )
            .unwrap()
            .into_report();
            assert_eq!(r.output.value(), Some(optimum as i64), "{file}");
            let packing = space.packing(&r.output);
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
