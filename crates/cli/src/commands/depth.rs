//! `treesplit depth`: how deep must randomized static load balancing split? For a synthetic
//! α-splitting tree (paper 004 §3) and each P, the lab's measurement
//! (`treesplit_lab::experiments::depth`) finds the smallest h whose most loaded PE gets at
//! most (1+ε)·T_seq/P work units, beside Theorem 3's sufficient depth
//! x(α)(log P + log log P) and Theorem 4's lower bound x(α)·log P; this file prints the rows.

use crate::output::{self, Failure};
use crate::plan::DepthPlan;
use serde::Serialize;
use treesplit::task::bag::x_alpha;
use treesplit_lab::experiments::depth::{DepthError, DepthRow};

#[derive(Serialize)]
struct DepthJson {
    permutation: String,
    work: u64,
    alpha: f64,
    adversarial: bool,
    split: String,
    epsilon: f64,
    x_alpha: f64,
    rows: Vec<DepthRow>,
}

pub fn depth(args: &DepthPlan) -> Result<(), Failure> {
    let depth = args.depth;
    let params = depth.params;
    let mut rows = Vec::new();
    let json = args.out.json;
    if !json {
        println!(
        "random-static ({} permutation) on a synthetic tree: T_seq = {} units, α = {}, {} splits; target max load ≤ {:.2}·T_seq/P; x(α) = {:.3}",
        depth.permutation,
        params.work,
        params.alpha,
        params.rule.name(),
        1.0 + depth.epsilon,
        x_alpha(params.alpha)
    );
        if !params.rule.is_alpha_splitting() {
            println!(
                "note: {} splits are not α-splits, the premise of Theorems 3 and 4; their depths are shown beside the measurement, not as its bound",
                params.rule.name()
            );
        }
        println!(
            "{:>6} {:>10} {:>12} {:>22} {:>16}",
            "P", "smallest h", "max/avg load", "x(α)(log P+log log P)", "x(α)·log P"
        );
    }
    let notes = args.out.notes();
    let started = std::time::Instant::now();
    for &p in &args.pes {
        let row = depth
            .row(p, |h, ratio| {
                super::progress::line(
                    notes,
                    format_args!(
                        "P = {p}, h = {h}: max/avg load {ratio:.3} ({} s so far)",
                        started.elapsed().as_secs()
                    ),
                )
            })
            .map_err(|e| match e {
                DepthError::Input(m) => Failure::input(m),
                DepthError::Run(m) => Failure::run(m),
                DepthError::Wrong(m) => Failure::wrong(m),
            })?;
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
            permutation: depth.permutation.to_string(),
            work: params.work,
            alpha: params.alpha,
            adversarial: depth.adversarial(),
            split: params.rule.name().to_string(),
            epsilon: depth.epsilon,
            x_alpha: x_alpha(params.alpha),
            rows,
        })?;
    }
    Ok(())
}
