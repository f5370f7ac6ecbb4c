//! `skeleton_cost`: what the search skeletons' generality costs. Each port on the skeletons
//! (`treesplit::search`) runs sequentially against its hand-written task on the same
//! instance, interleaved (hand, skeleton, hand, skeleton, …) so that a machine whose speed
//! drifts affects both alike; it prints each side's median time and the median of the
//! pairwise ratios skeleton / hand (above 1: the skeleton is slower), and checks that both
//! sides give the same answer.
//!
//! ```text
//! cargo run --release -p treesplit-lab --bin skeleton_cost -- [REPEATS] [--only WORD] [--side hand|skeleton] [--small]
//! ```
//!
//! REPEATS defaults to 7. `--only WORD` keeps the comparisons whose name contains WORD;
//! `--side` runs one side only, REPEATS times, and prints its units (for `perf stat` or
//! callgrind, which then count that side's instructions alone); `--small` takes small
//! instances (N-Queens 11, Golomb 9, genus 18) for callgrind. Maximum clique runs on the
//! DIMACS graph brock200_4 from `../shared/data/dimacs` beside the repository, skipped with a
//! note where the folder is absent; its hand-written side is the BBMC task without Re-NUMBER
//! (the same order, colouring and bound as the skeleton version; the application's task with
//! Re-NUMBER runs as a third line). Bad input is exit 2; answers that differ exit 3.

use std::process::ExitCode;
use std::time::Instant;
use treesplit::run_sequential;
use treesplit::search::{Enumeration, Optimisation};
use treesplit::task::shared::Shared;
use treesplit_apps::golomb::{skeleton::Rulers, Golomb};
use treesplit_apps::knapsack::skeleton::search;
use treesplit_apps::knapsack::{Instance, Knapsack};
use treesplit_apps::maxclique::{self, Graph, MaxClique};
use treesplit_apps::nqueens::skeleton::Queens;
use treesplit_apps::semigroups::{self, Semigroups};
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

fn pairs(small: bool) -> Result<Vec<Pair>, String> {
    // The instances: the measured ones, or small ones for instruction counts under callgrind.
    let (q, g, s) = if small { (11, 9, 18) } else { (14, 11, 24) };
    let knapsack_file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testkit/data/knapsack/knapPI_3_1000_1000_1.txt"
    );
    let inst = || Instance::read(std::path::Path::new(knapsack_file));
    inst()?;
    let mut pairs = vec![
        Pair {
            name: format!("nqueens {q} (enumeration)"),
            hand: Box::new(move || {
                let r = run_sequential(NQueens::new(q).expect("n ≤ 14"));
                (r.output as i64, r.work_units)
            }),
            skeleton: Box::new(move || {
                let r = run_sequential(Enumeration::new(Queens::new(q).expect("n ≤ 14")));
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
            name: format!("golomb {g} (branch-and-bound)"),
            hand: Box::new(move || {
                let r = run_sequential(Golomb::new(g).expect("n ≤ 11"));
                (r.output.length().map_or(-1, i64::from), r.work_units)
            }),
            skeleton: Box::new(move || {
                let r = run_sequential(Optimisation::new(Rulers::new(g).expect("n ≤ 11")));
                (r.output.value().unwrap_or(-1), r.work_units)
            }),
        },
        Pair {
            name: format!("semigroups {s} (enumeration)"),
            hand: Box::new(move || {
                let r = run_sequential(Semigroups::new(s).expect("genus ≤ 24"));
                (r.output.counts.iter().sum::<u64>() as i64, r.work_units)
            }),
            skeleton: Box::new(move || {
                let r = run_sequential(semigroups::count(s).expect("genus ≤ 24"));
                (r.output.counts.iter().sum::<u64>() as i64, r.work_units)
            }),
        },
    ];
    let dimacs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/dimacs");
    let file = std::path::Path::new(dimacs).join("brock200_4.clq");
    if file.exists() {
        let graph = Shared::new(Graph::read(&file)?);
        let (g1, g2, g3) = (graph.clone(), graph.clone(), graph);
        let skeleton = move |g: &Shared<Graph>| {
            let r = run_sequential(maxclique::search(g.clone()));
            (i64::from(r.output.omega), r.work_units)
        };
        let g4 = g1.clone();
        pairs.push(Pair {
            name: "maxclique brock200_4 (branch-and-bound, BBMC without Re-NUMBER)".into(),
            hand: Box::new(move || {
                let r = run_sequential(MaxClique::with_renumber(g1.clone(), false));
                (i64::from(r.output.omega), r.work_units)
            }),
            skeleton: Box::new(move || skeleton(&g2)),
        });
        pairs.push(Pair {
            name: "maxclique brock200_4 (branch-and-bound, BBMC with Re-NUMBER)".into(),
            hand: Box::new(move || {
                let r = run_sequential(MaxClique::new(g3.clone()));
                (i64::from(r.output.omega), r.work_units)
            }),
            skeleton: Box::new(move || skeleton(&g4)),
        });
    } else {
        eprintln!(
            "skeleton_cost: no {}: maximum clique skipped",
            file.display()
        );
    }
    Ok(pairs)
}

/// The command line: repeats, the name filter and the side to run alone.
struct Args {
    repeats: usize,
    only: Option<String>,
    side: Option<bool>,
    small: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        repeats: 7,
        only: None,
        side: None,
        small: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--small" => args.small = true,
            "--only" => args.only = Some(it.next().ok_or("--only needs a word")?),
            "--side" => {
                args.side = match it.next().as_deref() {
                    Some("hand") => Some(false),
                    Some("skeleton") => Some(true),
                    _ => return Err("--side takes hand or skeleton".into()),
                }
            }
            r => match r.parse() {
                Ok(r) if r >= 1 => args.repeats = r,
                _ => return Err(format!("not a repeat count ≥ 1: {r}")),
            },
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    const USAGE: &str =
        "usage: skeleton_cost [REPEATS ≥ 1] [--only WORD] [--side hand|skeleton] [--small]";
    let Args {
        repeats,
        only,
        side,
        small,
    } = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("skeleton_cost: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let pairs = match pairs(small) {
        Ok(p) => p
            .into_iter()
            .filter(|p| only.as_ref().is_none_or(|w| p.name.contains(w.as_str())))
            .collect::<Vec<_>>(),
        Err(e) => {
            eprintln!("skeleton_cost: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(skeleton) = side {
        for pair in pairs {
            let run = if skeleton { &pair.skeleton } else { &pair.hand };
            let (mut answer, mut units) = (0, 0);
            for _ in 0..repeats {
                (answer, units) = run();
            }
            println!("{}: answer {answer}, units {units}", pair.name);
        }
        return ExitCode::SUCCESS;
    }
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
