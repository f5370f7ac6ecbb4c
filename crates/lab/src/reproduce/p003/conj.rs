//! Paper 003 §5, the conjecture after Corollary 5.2: "η → 0 holds for q = o(log^d p) for
//! d > 1 as well as for d = 1". The paper proves η → 0 only for q = o((log p/log log p)^d).
//! Between the two rates (q = ln²p/ln ln p for d = 2) the exact η of multiple assignment is
//! computed at p = 2^k, beside the split of the expected maximum load into the mean q·α^d and
//! the excess over it, read against E max of the p·q single subproblem costs (which the
//! paper's own lower bound uses, ~ (ln p/ln ln p)^d): an excess of that order and no more makes
//! η → 1 wherever q grows faster than (log p/log log p)^d, against the conjecture. An answer,
//! not a pass or a fail: finite p cannot settle a limit.

use super::super::{Ctx, Finding, Plot, Premise, Series, Table, Verdict};
use crate::scatter::model::{sum_of_copies, Cost, Dist};

/// α and d of the run (the distributed hash table's degree, Example 2.1).
const ALPHA: f64 = 1.0;
const D: u32 = 2;

/// A rule q(ln p) with its name.
type Rule = (&'static str, fn(f64) -> f64);

/// The rules: inside the conjecture's range and outside the proven one, the boundary of the
/// proven range, and inside the proven range (the paper's η → 0).
const RULES: [Rule; 3] = [
    (
        "q = ⌈ln²p / ln ln p⌉ (conjecture: η → 0; unproven)",
        |l| l * l / l.ln(),
    ),
    (
        "q = ⌈(ln p / ln ln p)²⌉ (the proven range's edge)",
        |l| (l / l.ln()).powi(2),
    ),
    ("q = ⌈ln p⌉ (proven: η → 0)", |l| l),
];

/// One (p, rule): q, η, the excess E max − q·α^d, E max of p·q single costs, their ratio.
struct Row {
    k: u32,
    q: u64,
    eta: f64,
    excess: f64,
    single: f64,
}

fn row(k: u32, rule: fn(f64) -> f64) -> Result<Row, String> {
    let p = 1u64 << k;
    let lnp = (p as f64).ln();
    let q = rule(lnp).ceil().max(1.0) as u64;
    let one = Dist::cost_of_poisson(ALPHA, Cost::Falling(D));
    let load = sum_of_copies(&one, q).ok_or_else(|| format!("p = 2^{k}, q = {q}: too large"))?;
    let mean = q as f64 * ALPHA.powi(D as i32);
    let emax = load.expected_max(p);
    Ok(Row {
        k,
        q,
        eta: mean / emax,
        excess: emax - mean,
        single: one.expected_max(p.saturating_mul(q)),
    })
}

/// The answer to the conjecture.
pub(super) fn conjecture(ctx: &Ctx) -> Result<Finding, String> {
    let ks: Vec<u32> = ctx.pick(vec![8, 16, 24, 32], vec![8, 16, 24, 32, 40, 48, 56]);
    let mut table = Table::new(&[
        "rule",
        "p",
        "q",
        "q / (ln p/ln ln p)²",
        "q / ln²p",
        "η exact",
        "excess E max − q·α^d",
        "E max of p·q single X^(2)",
        "excess / single",
    ]);
    let mut series = Vec::new();
    let mut runs: Vec<Vec<Row>> = Vec::new();
    for &(name, rule) in &RULES {
        let rows: Vec<Row> = ks.iter().map(|&k| row(k, rule)).collect::<Result<_, _>>()?;
        for r in &rows {
            let lnp = ((1u64 << r.k) as f64).ln();
            table.row(vec![
                name.into(),
                format!("2^{}", r.k).into(),
                r.q.into(),
                (r.q as f64 / (lnp / lnp.ln()).powi(2)).into(),
                (r.q as f64 / (lnp * lnp)).into(),
                r.eta.into(),
                r.excess.into(),
                r.single.into(),
                (r.excess / r.single).into(),
            ]);
        }
        series.push(Series::points(
            name,
            rows.iter().map(|r| ((1u64 << r.k) as f64, r.eta)).collect(),
        ));
        runs.push(rows);
    }
    let conj = &runs[0];
    let proven = &runs[2];
    let rising = conj.windows(2).all(|w| w[1].eta > w[0].eta);
    let falling = proven.windows(2).all(|w| w[1].eta < w[0].eta);
    let ratio_hi = runs
        .iter()
        .flatten()
        .map(|r| r.excess / r.single)
        .fold(0f64, f64::max);
    let ratio_lo = runs
        .iter()
        .flatten()
        .map(|r| r.excess / r.single)
        .fold(f64::INFINITY, f64::min);
    // The premise of the conjecture's rule: q = o(log^d p) while q/(ln p/ln ln p)^d grows.
    let rel: Vec<(f64, f64)> = conj
        .iter()
        .map(|r| {
            let lnp = ((1u64 << r.k) as f64).ln();
            (
                r.q as f64 / (lnp * lnp),
                r.q as f64 / (lnp / lnp.ln()).powi(2),
            )
        })
        .collect();
    let inside = rel.windows(2).all(|w| w[1].0 < w[0].0 && w[1].1 > w[0].1);
    let answer = if rising && ratio_lo >= 0.5 && ratio_hi <= 2.0 {
        "No, in the computed range: for q = ⌈ln²p/ln ln p⌉, which is o(log²p), η rises with p instead of falling, and the excess of the expected maximum load over its mean stays within a factor 2 of E max of the p·q single subproblem costs (Θ((log p/log log p)^d)); an excess of that order is o(q) for every q = ω((log p/log log p)^d), where η → 1. The data side with η → 0 only below (log p/log log p)^d, the range the paper proves"
    } else if !rising {
        "Consistent with the conjecture in the computed range: η does not rise for q = ⌈ln²p/ln ln p⌉"
    } else {
        "Open: η rises for q = ⌈ln²p/ln ln p⌉, but the excess over the mean is not within a factor 2 of the single subproblems' maximum, so the finite-p trend cannot be read as the limit"
    };
    let (c0, c1) = (conj[0].eta, conj[conj.len() - 1].eta);
    Ok(Finding {
        prediction: "the conjecture: η → 0 for every q = o(log^d p) (d = 2, α = 1, c = X^(2)); the paper proves it for q = o((log p/log log p)^d)".into(),
        measured: format!(
            "{answer}. η for q = ⌈ln²p/ln ln p⌉ from {c0:.3} (p = 2^{}) to {c1:.3} (p = 2^{}){}; for q = ⌈ln p⌉ from {:.3} to {:.3}{}; excess/single from {ratio_lo:.2} to {ratio_hi:.2} over all rules and p",
            ks[0],
            ks[ks.len() - 1],
            if rising { ", rising at every step" } else { ", not rising at every step" },
            proven[0].eta,
            proven[proven.len() - 1].eta,
            if falling { ", falling at every step" } else { ", not falling at every step" },
        ),
        table,
        plot: Some(Plot {
            x: "p".into(),
            y: "η".into(),
            log_x: true,
            log_y: false,
            series,
        }),
        verdict: Verdict::Answer,
        remark: "Exact laws: a PE's load is the q-fold convolution of X^(2)'s law (tails below 1e−40 of the largest entry trimmed), E max over p PEs by the paper's (3.4). The heuristic behind the answer is the paper's own lower bound read the other way: the maximum load exceeds its mean by about the largest single subproblem cost among the p·q, c(ln p/ln ln p), plus a Gaussian term O(√(q ln p)); both are o(q) once q = ω((log p/log log p)^d). Finite p (up to 2^56) cannot settle a limit in ln ln p; the table shows how far the rates are apart there.".into(),
        premises_measured: vec![
            Premise::new(
                "the rule lies in the conjecture's range and outside the proven one: q/ln²p falls and q/(ln p/ln ln p)² grows at every step",
                format!(
                    "q/ln²p from {:.3} to {:.3}, q/(ln p/ln ln p)² from {:.2} to {:.2}",
                    rel[0].0,
                    rel[rel.len() - 1].0,
                    rel[0].1,
                    rel[rel.len() - 1].1
                ),
                inside,
            ),
            Premise::new(
                "the computation can show η falling: the paper's proven case q = ⌈ln p⌉ through the same code falls at every step",
                format!("η from {:.3} to {:.3}", proven[0].eta, proven[proven.len() - 1].eta),
                falling,
            ),
        ],
        control: None,
        seeds: None,
    })
}
