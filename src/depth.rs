//! `treesplit depth`: how deep must randomized static load balancing split? For a synthetic
//! α-splitting tree (paper 004 §3) and each P, the simulator runs random-static for growing
//! h and reports the smallest h whose most loaded PE gets at most (1+ε)·T_seq/P work units,
//! beside Theorem 3's sufficient depth x(α)(log P + log log P) and Theorem 4's lower bound
//! x(α)·log P.

use crate::args::{DepthArgs, SplitRuleArg};
use crate::Failure;
use treesplit::task::bag::{theorem3_depth, theorem4_h, x_alpha};
use treesplit::{simulate, Balancer, Config, SimConfig};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

pub fn depth(args: &DepthArgs) -> Result<(), Failure> {
    if args.pes.is_empty() || args.pes.iter().any(|&p| p < 2) {
        return Err(Failure::input(
            "--pes needs a list of PE counts, each at least 2",
        ));
    }
    if args.epsilon.is_nan() || args.epsilon <= 0.0 {
        return Err(Failure::input("--epsilon must be positive"));
    }
    let params = SyntheticParams {
        work: args.work,
        alpha: args.alpha,
        atomic: 1,
        rule: match args.split {
            SplitRuleArg::Random => SplitRule::Random,
            SplitRuleArg::Adversarial => SplitRule::Adversarial,
        },
        spin: 1,
        seed: args.seed,
    };
    params.validate().map_err(Failure::input)?;
    println!(
        "random-static ({} permutation) on a synthetic tree: T_seq = {} units, α = {}, {} splits; target max load ≤ {:.2}·T_seq/P; x(α) = {:.3}",
        args.permutation,
        args.work,
        args.alpha,
        if params.rule == SplitRule::Random { "random" } else { "adversarial" },
        1.0 + args.epsilon,
        x_alpha(args.alpha)
    );
    println!(
        "{:>6} {:>10} {:>12} {:>22} {:>16}",
        "P", "smallest h", "max/avg load", "x(α)(log P+log log P)", "x(α)·log P"
    );
    let sim = SimConfig::default();
    for &p in &args.pes {
        let first = (p as f64).log2().ceil() as u32;
        let mut found = None;
        let mut last = (0, f64::INFINITY);
        for h in first..=args.max_h {
            let config = Config::new(p)
                .balancer(Balancer::RandomStatic)
                .h(Some(h))
                .static_permutation(args.permutation)
                .delta_t(args.work / p as u64 / 4 + 1)
                .seed(args.seed);
            let root = Synthetic::new(params).map_err(Failure::input)?;
            let r = simulate(root, &config, &sim).map_err(|e| Failure {
                message: format!("P = {p}, h = {h}: {e}"),
                code: 1,
            })?;
            if r.report.output.units != args.work {
                return Err(Failure {
                    message: format!(
                        "P = {p}, h = {h}: {} units done, not {}",
                        r.report.output.units, args.work
                    ),
                    code: 3,
                });
            }
            let max = r
                .report
                .per_pe
                .iter()
                .map(|s| s.counters.work_units)
                .max()
                .unwrap_or(0);
            let ratio = max as f64 * p as f64 / args.work as f64;
            last = (h, ratio);
            if ratio <= 1.0 + args.epsilon {
                found = Some((h, ratio));
                break;
            }
        }
        let (h, ratio) = match found {
            Some((h, r)) => (h.to_string(), r),
            None => (format!("> {}", last.0), last.1),
        };
        println!(
            "{:>6} {:>10} {:>12.3} {:>22.1} {:>16.1}",
            p,
            h,
            ratio,
            theorem3_depth(args.alpha, p),
            theorem4_h(args.alpha, p)
        );
    }
    Ok(())
}
