//! A task defined outside treesplit: count the subsets of a set of weights that sum exactly
//! to a target, by backtracking with a depth-first stack.
//!
//! The split hands over the *highest* unexplored alternative of the stack (the decision
//! nearest the root), as paper 001 §14.5.4 recommends, so the splitting depth stays ≤ n.
//!
//! Run: `cargo run --release -p treesplit --example subset_sum -- 32 4`  (32 weights, 4 PEs)

use serde::{Deserialize, Serialize};
use treesplit::{run, run_sequential, Config, Context, Task};

/// One open node of the search: items `0..depth` are decided and the chosen ones weigh `sum`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Frame {
    depth: usize,
    sum: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct SubsetSum {
    weights: Vec<u64>,
    target: u64,
    stack: Vec<Frame>,
}

impl SubsetSum {
    fn new(weights: Vec<u64>, target: u64) -> Self {
        SubsetSum {
            weights,
            target,
            stack: vec![Frame { depth: 0, sum: 0 }],
        }
    }
}

impl Task for SubsetSum {
    type Output = u64;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let mut units = 0;
        while units < budget {
            let Some(frame) = self.stack.pop() else { break };
            units += 1;
            if frame.depth == self.weights.len() {
                if frame.sum == self.target {
                    *ctx.output() += 1;
                }
                continue;
            }
            let next = frame.depth + 1;
            // Without the item (explored later), with it (explored next, if it fits).
            self.stack.push(Frame {
                depth: next,
                sum: frame.sum,
            });
            let with = frame.sum + self.weights[frame.depth];
            if with <= self.target {
                self.stack.push(Frame {
                    depth: next,
                    sum: with,
                });
            }
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        // The bottom of the stack is the frame nearest the root: give it away.
        if self.stack.len() < 2 {
            return None;
        }
        let highest = self.stack.remove(0);
        Some(SubsetSum {
            weights: self.weights.clone(),
            target: self.target,
            stack: vec![highest],
        })
    }

    fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(28, |a| a.parse().expect("number of weights"));
    let pes: usize = args.next().map_or(2, |a| a.parse().expect("number of PEs"));
    // Deterministic pseudo-random weights in 1..1000; the target is half their sum.
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

    let seq = run_sequential(SubsetSum::new(weights.clone(), target));
    let report = run(
        SubsetSum::new(weights, target),
        &Config::new(pes).delta_t(1024),
    )
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
    println!(
        "sequential {:.3} s, parallel {:.3} s on {pes} PEs",
        seq.t_seq, report.t_par
    );
}
