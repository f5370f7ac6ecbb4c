//! Paper 004 §4's placement by a permutation, in the simulator: Fig. 1 with the paper's own
//! pseudorandom permutations (a full-period linear congruential sequence, powers of a
//! generator of GF(2^h)) at Theorem 3's depth, judged by the tail criterion of 004-thm3; and
//! "a random permutation distributes the subproblems more evenly than a random placement",
//! random-static against the `random` balancer on the same trees and seeds. The control of
//! both is the block decomposition (the identity in place of the permutation).

use super::super::{bootstrap_ci, mean_ci, Control, Ctx, Finding, Premise, Table, Verdict};
use super::tail::{proof_depth, EPS};
use crate::scatter::adversary::wilson;
use rayon::prelude::*;
use treesplit::config::StaticPermutation;
use treesplit::{Balancer, Jobs};
use treesplit_apps::synthetic::SplitRule;

/// The work of the trees here (as 004-thm3's system runs).
const WORK: u64 = 1 << 22;

/// n·L_max/W of `balancer` on the synthetic tree (`rule`, α) of [`WORK`] units on n PEs.
fn run(
    balancer: Balancer,
    rule: SplitRule,
    alpha: f64,
    n: usize,
    seed: u64,
) -> Result<f64, String> {
    super::load_ratio(balancer, rule, alpha, WORK, n, seed)
}

/// Random-static with `permutation` and 2^h jobs.
fn permuted(permutation: StaticPermutation, h: u32) -> Balancer {
    Balancer::RandomStatic {
        jobs: Jobs::Depth(h),
        permutation,
    }
}

/// (hits above (1+ε), runs, Wilson interval, largest n·L_max/W) of the runs' n·L_max/W.
fn tail(ratios: &[f64]) -> (u64, u64, (f64, f64), f64) {
    let hits = ratios.iter().filter(|&&r| r > 1.0 + EPS + 1e-12).count() as u64;
    let n = ratios.len() as u64;
    (
        hits,
        n,
        wilson(hits, n),
        ratios.iter().copied().fold(0.0, f64::max),
    )
}

/// Fig. 1 with the paper's permutations at Theorem 3's depth (α-splitting adversary, α =
/// 0.4, n = 16): P[L_max > (1+ε)/n] over seeds, its Wilson upper end ≤ 1/n.
pub(super) fn fig1(ctx: &Ctx) -> Result<Finding, String> {
    let (alpha, n, beta) = (0.4, 16usize, 1.0);
    let h = proof_depth(alpha, n as u64, beta);
    let seeds: u64 = ctx.pick(64, 256);
    let target = 1.0 / n as f64;
    let systems: [(&str, Balancer); 3] = [
        (
            "linear congruential (full period mod 2^h)",
            permuted(StaticPermutation::Lcg, h),
        ),
        (
            "powers of a generator of GF(2^h), 0 inserted at random",
            permuted(StaticPermutation::Gf2, h),
        ),
        (
            "control: block decomposition (the identity)",
            Balancer::Block {
                jobs: Jobs::Depth(h),
            },
        ),
    ];
    let mut table = Table::new(&[
        "permutation",
        "α",
        "n",
        "h",
        "seeds",
        "P[L_max > (1+ε)/n]",
        "Wilson 95 %",
        "largest n·L_max/W",
        "upper end ≤ 1/n",
    ]);
    let mut ok = true;
    let mut words = Vec::new();
    let mut control = None;
    for (name, balancer) in systems {
        // Block decomposition draws nothing from the seed (nor does the adversarial tree):
        // a few seeds show it.
        let seeds = if name.starts_with("control") {
            seeds.min(16)
        } else {
            seeds
        };
        let ratios: Vec<f64> = (0..seeds)
            .into_par_iter()
            .map(|s| run(balancer, SplitRule::Adversarial, alpha, n, 7000 + s))
            .collect::<Result<_, _>>()?;
        let (hits, count, ci, largest) = tail(&ratios);
        let holds = ci.1 <= target;
        let said = format!(
            "{hits} of {count} seeds above (1+ε) (upper {:.3}), largest n·L_max/W {largest:.3}",
            ci.1
        );
        if name.starts_with("control") {
            control = Some((said, holds));
        } else {
            ok &= holds;
            words.push(format!("{name}: {said}"));
        }
        table.row(vec![
            name.into(),
            alpha.into(),
            n.into(),
            h.into(),
            count.into(),
            (hits as f64 / count as f64).into(),
            format!("{:.3}–{:.3}", ci.0, ci.1).into(),
            largest.into(),
            holds.into(),
        ]);
    }
    let (c_said, c_holds) = control.ok_or("no control run")?;
    let lead =
        treesplit::task::bag::x_alpha(alpha) * ((n as f64).log2() + (n as f64).log2().log2());
    Ok(Finding {
        prediction: format!("ε = {EPS}, β = 1: at Theorem 3's depth h = {h} (the proof's constants, as in 004-thm3) the paper's pseudorandom permutations keep P[L_max > (1+ε)/n] ≤ 1/n, as a random permutation does"),
        measured: words.join("; "),
        table,
        plot: None,
        verdict: Verdict::of(ok),
        remark: "The tree is the adversarial α-splitting tree (every split α to 1−α), so a seed changes only the permutation: the seeds measure the permutation family, not the tree.".into(),
        premises_measured: vec![Premise::new(
            "h ∈ x(α)(log₂ n + log₂ log₂ n) + Ω(β/ε²), 2^h divisible by n (Fig. 1: PE i generates the subproblems π((i−1)2^h/n + 1 … i·2^h/n))",
            format!("h = {h} ≥ {lead:.2}; 2^h/n = {}", (1u64 << h) / n as u64),
            f64::from(h) >= lead && (1u64 << h).is_multiple_of(n as u64),
        )],
        control: Some(Control {
            system: "block decomposition: the identity in place of the permutation (PE i takes the i-th 2^h/n consecutive leaves, a subtree), same trees and seeds".into(),
            measured: c_said,
            verdict: Verdict::of(c_holds),
        }),
        seeds: Some(seeds as usize),
    })
}

/// "A random permutation is at least as good as a random placement": paired over seeds, the
/// mean difference of n·L_max/W (random-static with a Feistel permutation minus the `random`
/// balancer) has its 95 % bootstrap upper end ≤ 0 in every case.
pub(super) fn perm_vs_placement(ctx: &Ctx) -> Result<Finding, String> {
    let seeds: usize = ctx.pick(40, 200);
    // (rule, α, n, jobs per PE as a power of two).
    let cases: Vec<(SplitRule, f64, usize, u32)> = ctx.pick(
        vec![
            (SplitRule::Adversarial, 0.4, 16, 2),
            (SplitRule::Random, 0.25, 16, 4),
        ],
        vec![
            (SplitRule::Adversarial, 0.4, 16, 2),
            (SplitRule::Adversarial, 0.4, 16, 6),
            (SplitRule::Random, 0.25, 16, 4),
            (SplitRule::Adversarial, 0.4, 64, 4),
            (SplitRule::Random, 0.25, 64, 4),
        ],
    );
    let mut table = Table::new(&[
        "tree",
        "α",
        "n",
        "h",
        "E[n·L_max/W] permutation",
        "E[n·L_max/W] random placement",
        "E[n·L_max/W] block (control)",
        "mean difference permutation − placement (95 % bootstrap)",
        "mean difference block − placement (95 % bootstrap)",
    ]);
    let (mut ok, mut c_ok) = (true, true);
    let (mut words, mut c_words) = (Vec::new(), Vec::new());
    let mut counts_ok = true;
    for &(rule, alpha, n, per_pe) in &cases {
        let h = (n as f64).log2() as u32 + per_pe;
        let balancers = [
            permuted(StaticPermutation::Feistel, h),
            Balancer::RandomAssignment {
                jobs: Jobs::Depth(h),
            },
            Balancer::Block {
                jobs: Jobs::Depth(h),
            },
        ];
        let runs: Vec<[f64; 3]> = (0..seeds as u64)
            .into_par_iter()
            .map(|s| -> Result<[f64; 3], String> {
                let mut r = [0.0; 3];
                for (k, b) in balancers.iter().enumerate() {
                    r[k] = run(*b, rule, alpha, n, 9100 + s)?;
                }
                Ok(r)
            })
            .collect::<Result<_, _>>()?;
        counts_ok &= (1u64 << h).is_multiple_of(n as u64);
        let col = |k: usize| -> Vec<f64> { runs.iter().map(|r| r[k]).collect() };
        let diff = |k: usize| -> (f64, (f64, f64)) {
            let d: Vec<f64> = runs.iter().map(|r| r[k] - r[1]).collect();
            let mean = d.iter().sum::<f64>() / d.len() as f64;
            let ci = bootstrap_ci(d.len(), 2000, |pick| {
                pick.iter().map(|&i| d[i]).sum::<f64>() / pick.len() as f64
            });
            (mean, ci)
        };
        let (d, dci) = diff(0);
        let (cd, cdci) = diff(2);
        ok &= dci.1 <= 0.0;
        c_ok &= cdci.1 <= 0.0;
        let tree = match rule {
            SplitRule::Adversarial => "adversarial α-splitting",
            _ => "random α-splitting",
        };
        words.push(format!(
            "{tree}, n = {n}, h = {h}: {d:+.4} ({:+.4}…{:+.4})",
            dci.0, dci.1
        ));
        c_words.push(format!(
            "{tree}, n = {n}, h = {h}: {cd:+.4} ({:+.4}…{:+.4})",
            cdci.0, cdci.1
        ));
        table.row(vec![
            tree.into(),
            alpha.into(),
            n.into(),
            h.into(),
            mean_ci(&col(0)).0.into(),
            mean_ci(&col(1)).0.into(),
            mean_ci(&col(2)).0.into(),
            format!("{d:+.4} ({:+.4}…{:+.4})", dci.0, dci.1).into(),
            format!("{cd:+.4} ({:+.4}…{:+.4})", cdci.0, cdci.1).into(),
        ]);
    }
    Ok(Finding {
        prediction: "E[L_max] of the subproblems placed by a random permutation (random-static, Feistel) is at most that of the same subproblems placed independently at random (the `random` balancer): the mean paired difference is ≤ 0".into(),
        measured: format!("mean difference permutation − placement in n·L_max/W (95 % bootstrap): {}", words.join("; ")),
        table,
        plot: None,
        verdict: Verdict::of(ok),
        remark: "Paired: each seed cuts the same tree for all three balancers (the random α-splitting tree depends on the seed, the adversarial one does not); the seed also draws the permutation and the placement.".into(),
        premises_measured: vec![Premise::new(
            "the permutation's blocks are equal: n divides the 2^h subproblems (§4: PE i takes π((i−1)m/n + 1 … i·m/n))",
            format!("2^h/n ∈ {{{}}}", cases.iter().map(|c| (1u64 << c.3).to_string()).collect::<Vec<_>>().join(", ")),
            counts_ok,
        )],
        control: Some(Control {
            system: "block decomposition (the identity in place of the random permutation: consecutive leaves, a subtree, to a PE) against the same random placement, same trees and seeds".into(),
            measured: format!("mean difference block − placement: {}", c_words.join("; ")),
            verdict: Verdict::of(c_ok),
        }),
        seeds: Some(seeds),
    })
}
