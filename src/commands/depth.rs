//! `treesplit depth`: how deep must randomized static load balancing split? For a synthetic
//! α-splitting tree (paper 004 §3) and each P, the simulator runs random-static for growing
//! h and reports the smallest h whose most loaded PE gets at most (1+ε)·T_seq/P work units,
//! beside Theorem 3's sufficient depth x(α)(log P + log log P) and Theorem 4's lower bound
//! x(α)·log P.

use crate::output::{self, Failure};
use crate::plan::DepthPlan;
use serde::Serialize;
use treesplit::task::bag::{theorem3_depth, theorem4_h, x_alpha};
use treesplit::{simulate, Balancer, Config, Jobs, SimConfig};
use treesplit_apps::synthetic::{SplitRule, Synthetic};

/// One P's row of the table.
#[derive(Serialize)]
struct Row {
    pes: usize,
    /// The smallest h that balances (None: none up to --max-h).
    smallest_h: Option<u32>,
    /// The last h tried and its max/avg load.
    h_tried: u32,
    max_over_avg_load: f64,
    theorem3_depth: f64,
    theorem4_h: f64,
}

#[derive(Serialize)]
struct DepthJson {
    permutation: String,
    work: u64,
    alpha: f64,
    adversarial: bool,
    epsilon: f64,
    x_alpha: f64,
    rows: Vec<Row>,
}

pub fn depth(args: &DepthPlan) -> Result<(), Failure> {
    let params = args.params;
    let mut rows = Vec::new();
    let json = args.out.json;
    if !json {
        println!(
        "random-static ({} permutation) on a synthetic tree: T_seq = {} units, α = {}, {} splits; target max load ≤ {:.2}·T_seq/P; x(α) = {:.3}",
        args.permutation,
        params.work,
        params.alpha,
        if params.rule == SplitRule::Random { "random" } else { "adversarial" },
        1.0 + args.epsilon,
        x_alpha(params.alpha)
    );
        println!(
            "{:>6} {:>10} {:>12} {:>22} {:>16}",
            "P", "smallest h", "max/avg load", "x(α)(log P+log log P)", "x(α)·log P"
        );
    }
    let sim = SimConfig::default();
    let notes = args.out.notes();
    let started = std::time::Instant::now();
    for &p in &args.pes {
        let first = (p as f64).log2().ceil() as u32;
        let mut found = None;
        let mut last = (0, f64::INFINITY);
        for h in first..=args.max_h {
            let config = Config::new(p)
                .balancer(Balancer::RandomStatic {
                    jobs: Jobs::Depth(h),
                    permutation: args.permutation,
                })
                .delta_t(params.work / p as u64 / 4 + 1)
                .seed(args.seed);
            let root = Synthetic::new(params).map_err(Failure::input)?;
            let r = simulate(root, &config, &sim)
                .map_err(|e| Failure::run(format!("P = {p}, h = {h}: {e}")))?;
            if r.report.output.units != params.work {
                return Err(Failure::wrong(format!(
                    "P = {p}, h = {h}: {} units done, not {}",
                    r.report.output.units, params.work
                )));
            }
            let max = r.report.max_work_units();
            let ratio = max as f64 * p as f64 / params.work as f64;
            last = (h, ratio);
            notes.note(format_args!(
                "P = {p}, h = {h}: max/avg load {ratio:.3} ({} s so far)",
                started.elapsed().as_secs()
            ));
            if ratio <= 1.0 + args.epsilon {
                found = Some((h, ratio));
                break;
            }
        }
        let row = Row {
            pes: p,
            smallest_h: found.map(|(h, _)| h),
            h_tried: found.map_or(last.0, |(h, _)| h),
            max_over_avg_load: found.map_or(last.1, |(_, r)| r),
            theorem3_depth: theorem3_depth(params.alpha, p),
            theorem4_h: theorem4_h(params.alpha, p),
        };
        if !json {
            let h = match row.smallest_h {
                Some(h) => h.to_string(),
                None => format!("> {}", row.h_tried),
            };
            println!(
                "{:>6} {:>10} {:>12.3} {:>22.1} {:>16.1}",
                p, h, row.max_over_avg_load, row.theorem3_depth, row.theorem4_h
            );
        }
        rows.push(row);
    }
    if json {
        output::print_json(&DepthJson {
            permutation: args.permutation.to_string(),
            work: params.work,
            alpha: params.alpha,
            adversarial: params.rule == SplitRule::Adversarial,
            epsilon: args.epsilon,
            x_alpha: x_alpha(params.alpha),
            rows,
        })?;
    }
    Ok(())
}
