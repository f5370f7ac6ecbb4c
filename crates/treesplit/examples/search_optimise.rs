//! Branch-and-bound on the search skeletons: the largest sum of a subset of the weights that
//! does not exceed the target, and the subset reaching it, in parallel. The search itself
//! (the space, its children and its bound) takes the 28 lines before `main`.
//!
//! Run: `cargo run --release -p treesplit --example search_optimise -- 40 2`  (40 weights, 2 PEs)

use serde::{Deserialize, Serialize};
use treesplit::search::{Optimisation, Optimise, Space};
use treesplit::{run, Config};

/// The weights and the target.
#[derive(Serialize, Deserialize)]
struct SubsetSum(Vec<u64>, u64);

impl Space for SubsetSum {
    type Node = (usize, u64, Vec<usize>); // items decided, the sum of those chosen, and which
    type Children = Vec<Self::Node>; // the children left, the next one last
    fn root(&self) -> Self::Node {
        (0, 0, vec![])
    }
    fn children(&self, (i, sum, chosen): &Self::Node) -> Self::Children {
        let Some(w) = self.0.get(*i) else {
            return vec![];
        };
        let with = (sum + w <= self.1).then(|| (i + 1, sum + w, [&chosen[..], &[*i]].concat()));
        let without = Some((i + 1, *sum, chosen.clone()));
        [without, with].into_iter().flatten().collect()
    }
    fn next_child(&self, _: &Self::Node, children: &mut Self::Children) -> Option<Self::Node> {
        children.pop()
    }
}

impl Optimise for SubsetSum {
    fn objective(&self, (_, sum, _): &Self::Node) -> Option<i64> {
        Some(*sum as i64)
    }
    fn bound(&self, (i, sum, _): &Self::Node) -> Option<i64> {
        Some(self.1.min(sum + self.0[*i..].iter().sum::<u64>()) as i64)
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(40, |a| a.parse().expect("number of weights"));
    let pes: usize = args.next().map_or(2, |a| a.parse().expect("number of PEs"));
    // Deterministic pseudo-random weights in 1..100000; the target is a third of their sum.
    let mut x = 12345u64;
    let weights: Vec<u64> = (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            1 + (x >> 33) % 99_999
        })
        .collect();
    let target = weights.iter().sum::<u64>() / 3;
    let space = SubsetSum(weights.clone(), target);
    let report = run(Optimisation::new(space), &Config::new(pes))
        .expect("run failed")
        .into_report();
    let best = report
        .output
        .witness()
        .expect("the empty subset is a solution");
    let sum: u64 = best.node.2.iter().map(|&i| weights[i]).sum();
    assert_eq!(
        Some(sum as i64),
        report.output.value(),
        "the witness reaches the optimum"
    );
    println!(
        "{n} weights, target {target}: best sum {sum} with items {:?}",
        best.node.2
    );
    print!("{}", report.summary());
}
