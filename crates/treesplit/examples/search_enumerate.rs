//! Enumeration on the search skeletons: count the subsets of a set of weights that sum
//! exactly to a target (the search of `subset_sum.rs`, which writes the `Task` by hand).
//!
//! Run: `cargo run --release -p treesplit --example search_enumerate -- 30 2`  (30 weights, 2 PEs)

use serde::{Deserialize, Serialize};
use treesplit::search::{Enumerate, Enumeration, Space};
use treesplit::{run, run_sequential, Config};

#[derive(Serialize, Deserialize)]
struct SubsetSum {
    weights: Vec<u64>,
    target: u64,
}

/// Items `0..depth` are decided and the chosen ones weigh `sum`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Node {
    depth: usize,
    sum: u64,
}

impl Space for SubsetSum {
    type Node = Node;
    /// Children produced so far: with item `depth` (if it fits), then without it.
    type Children = u8;
    fn root(&self) -> Node {
        Node { depth: 0, sum: 0 }
    }
    fn children(&self, _: &Node) -> u8 {
        0
    }
    fn next_child(&self, n: &Node, k: &mut u8) -> Option<Node> {
        let w = *self.weights.get(n.depth)?;
        *k += 1;
        let depth = n.depth + 1;
        match *k {
            1 if n.sum + w <= self.target => Some(Node {
                depth,
                sum: n.sum + w,
            }),
            1 | 2 => {
                *k = 2;
                Some(Node { depth, sum: n.sum })
            }
            _ => None,
        }
    }
}

impl Enumerate for SubsetSum {
    type Output = u64;
    fn visit(&self, n: &Node, count: &mut u64) {
        *count += u64::from(n.depth == self.weights.len() && n.sum == self.target);
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(28, |a| a.parse().expect("number of weights"));
    let pes: usize = args.next().map_or(2, |a| a.parse().expect("number of PEs"));
    // The weights of `subset_sum.rs`: pseudo-random in 1..1000, the target half their sum.
    let mut x = 12345u64;
    let weights: Vec<u64> = (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            1 + (x >> 33) % 999
        })
        .collect();
    let target = weights.iter().sum::<u64>() / 2;
    let space = || SubsetSum {
        weights: weights.clone(),
        target,
    };
    let seq = run_sequential(Enumeration::new(space()));
    let report = run(Enumeration::new(space()), &Config::new(pes).delta_t(1024))
        .expect("run failed")
        .into_report();
    println!(
        "{n} weights, target {target}: {} subsets (sequential {})",
        report.output, seq.output
    );
    assert_eq!(report.output, seq.output);
    assert_eq!(
        report.totals.work_units, seq.work_units,
        "work units are conserved"
    );
    print!("{}", report.summary());
}
