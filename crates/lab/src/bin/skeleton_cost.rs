//! `skeleton_cost`: what the search skeletons' generality costs. Each port on the skeletons
//! (`treesplit::search`) runs sequentially against its hand-written task on the same
//! instance, interleaved (hand, skeleton, hand, skeleton, …) so that a machine whose speed
//! drifts affects both alike; it prints each side's median time and the median of the
//! pairwise ratios skeleton / hand (above 1: the skeleton is slower), and checks that both
//! sides give the same answer.
//!
//! ```text
//! cargo run --release -p treesplit-lab --bin skeleton_cost -- [REPEATS]   (default 7)
//! ```
//!
//! Bad input is exit 2; answers that differ exit 3.

use std::process::ExitCode;
use std::time::Instant;
use treesplit::run_sequential;
use treesplit::search::{Enumeration, Optimisation};
use treesplit_apps::golomb::{skeleton::Rulers, Golomb};
use treesplit_apps::knapsack::skeleton::search;
use treesplit_apps::knapsack::{Instance, Knapsack};
use treesplit_apps::nqueens::skeleton::Queens;
use treesplit_apps::NQueens;

/// One comparison: a name and the two sides, each returning (answer, work units).
struct Pair {
    name: String,
    hand: Box<dyn Fn() -> (i64, u64)>,
    skeleton: Box<dyn Fn() -> (i64, u64)>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn pairs() -> Result<Vec<Pair>, String> {
    let knapsack_file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testkit/data/knapsack/knapPI_3_1000_1000_1.txt"
    );
    let inst = || Instance::read(std::path::Path::new(knapsack_file));
    inst()?;
    Ok(vec![
        Pair {
            name: "nqueens 14 (enumeration)".into(),
            hand: Box::new(|| {
                let r = run_sequential(NQueens::new(14).expect("n = 14"));
                (r.output as i64, r.work_units)
            }),
            skeleton: Box::new(|| {
                let r = run_sequential(Enumeration::new(Queens::new(14).expect("n = 14")));
                (r.output as i64, r.work_units)
            }),
        },
        Pair {
            name: "knapsack knapPI_3_1000_1000_1 (branch-and-bound)".into(),
            hand: Box::new(move || {
                let r = run_sequential(Knapsack::new(std::sync::Arc::new(
                    inst().expect("read above"),
                )));
                (r.output.profit as i64, r.work_units)
            }),
            skeleton: Box::new(move || {
                let r = run_sequential(search(std::sync::Arc::new(inst().expect("read above"))));
                (r.output.profit as i64, r.work_units)
            }),
        },
        Pair {
            name: "golomb 11 (branch-and-bound)".into(),
            hand: Box::new(|| {
                let r = run_sequential(Golomb::new(11).expect("n = 11"));
                (r.output.length().map_or(-1, i64::from), r.work_units)
            }),
            skeleton: Box::new(|| {
                let r = run_sequential(Optimisation::new(Rulers::new(11).expect("n = 11")));
                (r.output.value().unwrap_or(-1), r.work_units)
            }),
        },
    ])
}

fn main() -> ExitCode {
    let repeats: usize = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 7,
        Some(Ok(r)) if r >= 1 => r,
        Some(_) => {
            eprintln!("usage: skeleton_cost [REPEATS ≥ 1]");
            return ExitCode::from(2);
        }
    };
    let pairs = match pairs() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("skeleton_cost: {e}");
            return ExitCode::from(2);
        }
    };
    println!("| search | hand-written (s) | skeleton (s) | skeleton / hand | units hand | units skeleton |");
    println!("|---|---|---|---|---|---|");
    for pair in pairs {
        let (mut hand, mut skel, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let mut units = (0, 0);
        for _ in 0..repeats {
            let t = Instant::now();
            let (a, ua) = (pair.hand)();
            let th = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let (b, ub) = (pair.skeleton)();
            let ts = t.elapsed().as_secs_f64();
            if a != b {
                eprintln!(
                    "{}: the hand-written task gives {a}, the skeleton {b}",
                    pair.name
                );
                return ExitCode::from(3);
            }
            units = (ua, ub);
            hand.push(th);
            skel.push(ts);
            ratios.push(ts / th);
        }
        println!(
            "| {} | {:.3} | {:.3} | {:.3} | {} | {} |",
            pair.name,
            median(&mut hand),
            median(&mut skel),
            median(&mut ratios),
            units.0,
            units.1
        );
    }
    ExitCode::SUCCESS
}
