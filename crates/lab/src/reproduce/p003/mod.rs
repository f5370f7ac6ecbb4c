//! Paper 003 (Kimura, Ichiyoshi: randomly scattered data): Corollary 3.1's four regimes of
//! single assignment (`single.rs`, η computed exactly at any P and checked by Monte Carlo),
//! Theorem 5.1's convex order, Corollary 5.2's multiple assignment and Example 2.1's
//! distributed hash table (`multiple.rs` and here).

mod multiple;
mod single;

use super::{Ctx, Experiment, Finding, Plot, Series, Table, Verdict};
use crate::scatter::model::{exact_eta, predicted_eta, Assignment, Cost, Point};
use crate::scatter::montecarlo::{estimate, trials};

fn point(alpha: f64, q: u64, pes: u64, d: u32) -> Point {
    Point {
        alpha,
        q,
        pes,
        cost: Cost::Power(d),
        assignment: Assignment::Multiple,
    }
}

/// η by Monte Carlo (and its CI), the exact η where computable, the paper's prediction.
fn eta(pt: &Point, n: u64) -> (f64, f64, Option<f64>, f64) {
    let e = estimate(pt.pes, &trials(pt, n, 3));
    (e.eta, e.ci, exact_eta(pt), predicted_eta(pt).0)
}

fn cor52(ctx: &Ctx) -> Result<Finding, String> {
    let n = ctx.pick(60, 600);
    let p = 256u64;
    let d = 2;
    let log_d = (p as f64).ln().powi(d as i32);
    let mut table = Table::new(&[
        "q",
        "q/ln²P",
        "η (Monte Carlo)",
        "±95%",
        "η exact",
        "paper's η (regime)",
    ]);
    let mut m = Vec::new();
    let mut etas = Vec::new();
    for q in [1u64, 4, 16, 64, 256, 1024, 2048] {
        let pt = point(1.0, q, p, d);
        let (e, ci, ex, pred) = eta(&pt, n);
        etas.push((q, e));
        m.push((q as f64, e));
        table.row(vec![
            q.into(),
            (q as f64 / log_d).into(),
            e.into(),
            ci.into(),
            ex.unwrap_or(f64::NAN).into(),
            pred.into(),
        ]);
    }
    let increasing = etas.windows(2).all(|w| w[1].1 > w[0].1);
    let big = etas.last().map_or(0.0, |x| x.1);
    Ok(Finding {
        prediction: format!("multiple assignment of q Poisson(1) subproblems per PE, c(X) = X², P = {p}: η → 1 iff q = ω(log^d P) (ln²P = {log_d:.0}); η small for q = O(1)"),
        measured: format!("η rises from {:.3} at q = 1 to {big:.3} at q = 2048 ({}increasing)", etas[0].1, if increasing { "" } else { "not " }),
        table,
        plot: Some(Plot { x: "q".into(), y: "η".into(), log_x: true, log_y: false, series: vec![Series::points("Monte Carlo", m)] }),
        verdict: Verdict::of(increasing && etas[0].1 < 0.5 && big >= 0.9),
        remark: String::new(),
    })
}

const SINGLE_PREMISES: &str = "§2–3: p PEs, one subproblem each (q = 1); the input sizes X_1 … X_p i.i.d. Poisson(α); each subproblem solved by the same polynomial algorithm c of degree d ≥ 1; η = E(L_1 + … + L_p)/(p·E max L_i) (2.2); limits as p → ∞ with α a function of p.";
const EXACT_MODEL: &str = "paper 003's load model computed exactly: E max c(X_i) by the paper's (3.4) with the Poisson law in log space, P given by ln P so that it can exceed any machine (crates/lab/src/scatter/extreme.rs); Monte Carlo of the same model (i.i.d. Poisson draws) at P = 16 and 4096 as a check. No machine, no simulator: the claim is about the load distribution alone.";

/// Paper 003's experiments.
pub(super) fn experiments() -> Vec<Experiment> {
    vec![
        Experiment {
            id: "003-cor3.1",
            source: "paper 003, Corollary 3.1 (i)",
            claim: "\"Under the assumptions of Theorem 3.1, we have, as p → ∞, (i) η ~ (α log log p / log p)^d if α = Θ(1)\" (log is the natural logarithm: the proof uses Stirling's formula).",
            premises: SINGLE_PREMISES,
            model: EXACT_MODEL,
            inside: "Inside for c = X^(d) (the falling factorial, whose mean is α^d, as the formula assumes): α = 1 fixed, d = 1 and 2, P from 2^4 to e^(10^4) (quick) or e^(10^7) (full). The limit p → ∞ itself lies outside any finite sweep; the table also shows c = X^d, for which the formula is off by the constant c*(α)/α^d.",
            criterion: "For d = 1 and 2, with R = η/(α ln ln P/ln P)^d: PASS iff R is within [0.9, 1.1] at the largest P; INCONCLUSIVE iff it is not but R is below 1 and rises strictly at every step from P = 2^64 on (approaching 1 too slowly to reach it at a representable P); FAIL otherwise, or if the Monte Carlo η at P = 16 or 4096 lies more than 3 half-widths from the exact η.",
            if_fail: "A ratio that falls or passes 1 contradicts the corollary; a Monte Carlo disagreement is a bug in the exact computation.",
            run: single::cor31_theta,
        },
        Experiment {
            id: "003-cor3.1-ii",
            source: "paper 003, Corollary 3.1 (ii)",
            claim: "\"(ii) η → 0 if α = o(log p)\"",
            premises: SINGLE_PREMISES,
            model: EXACT_MODEL,
            inside: "Inside: α = √ln P, which is o(log P), d = 1 and 2 with c = X^(d), P from 2^4 to e^(10^4) (quick) or e^(10^7) (full); the limit itself lies beyond any finite sweep.",
            criterion: "PASS iff for d = 1 and 2 the exact η falls strictly at every step of the sweep and ends at most a quarter of its value at P = 2^4, and the Monte Carlo η at P = 16 and 4096 lies within 3 half-widths of the exact η.",
            if_fail: "η rising with P at α = √ln P would contradict (ii); a Monte Carlo disagreement is a bug in the exact computation.",
            run: single::cor31_small,
        },
        Experiment {
            id: "003-cor3.1-x",
            source: "paper 003, Corollary 3.1 (iii)",
            claim: "\"(iii) η → γ^d if α ~ x log p for some x > 0, where γ = γ(x) is the root of (3.3) in 0 < γ < 1\", (3.3): γ + x(log γ − γ + 1) = 0.",
            premises: SINGLE_PREMISES,
            model: EXACT_MODEL,
            inside: "Inside: α = x ln P exactly, x = 1, d = 1 (c(X) = X), P from 2^4 to e^(10^4) (quick) or e^(10^5) (full).",
            criterion: "PASS iff |η − γ(1)| shrinks at every step of the sweep, is at most 0.02 at the largest P, and the Monte Carlo η at P = 16 and 4096 lies within 3 half-widths of the exact η.",
            if_fail: "The convergence to γ(x)^d is slow (corrections of order ln ln P / ln P).",
            run: single::cor31_x,
        },
        Experiment {
            id: "003-cor3.1-iv",
            source: "paper 003, Corollary 3.1 (iv)",
            claim: "\"(iv) η → 1 if α = ω(log p)\"",
            premises: SINGLE_PREMISES,
            model: EXACT_MODEL,
            inside: "Inside: α = (ln P)², which is ω(log P), d = 1 and 2 with c = X^(d), P from 2^4 to 2^1024 (α up to 5·10^5); the limit itself lies beyond any finite sweep.",
            criterion: "PASS iff for d = 1 and 2 the exact η rises strictly at every step of the sweep and 1 − η at the largest P is at most half of 1 − η at P = 2^4, and the Monte Carlo η at P = 16 and 4096 lies within 3 half-widths of the exact η.",
            if_fail: "η falling with P at α = ln²P would contradict (iv).",
            run: single::cor31_omega,
        },
        Experiment {
            id: "003-thm3.1-prob",
            source: "paper 003, Theorem 3.1 (last statement) and its proof",
            claim: "\"Moreover, when α = ω(log p), max_{1≤i≤p} c(X_i) − c(α) ~ c′(α)√(2α log p) (in probability).\" The proof: \"P(√κ₀ < (max c(X_i) − c(α))/(c′(α)√(2α log p)) < √κ₁) → 1 as p → ∞ for 0 < ∀κ₀ < 1 < ∀κ₁.\"",
            premises: SINGLE_PREMISES,
            model: "paper 003's load model computed exactly: the law of max X_i is F(n)^P with the Poisson tail in log space (crates/lab/src/scatter/extreme.rs); a Monte Carlo of i.i.d. Poisson draws at P = 4096 as a check. No machine.",
            inside: "Inside for c(X) = X (c′ = 1): α = ln²P and α = ln P·ln ln P (both ω(log P)), √κ₀ = 0.9, √κ₁ = 1.1, P from 2^16 to 2^1024; the limit itself lies beyond a finite sweep.",
            criterion: "PASS iff for both rules the probability of the window never falls as P grows and is at least 0.99 at P = 2^1024, and the Monte Carlo fraction at P = 4096 (α = ln²P) lies within 3 standard errors of the exact probability.",
            if_fail: "A probability that falls or stays low would contradict the convergence in probability; a Monte Carlo disagreement is a bug in the exact computation.",
            run: single::thm31_in_probability,
        },
        Experiment {
            id: "003-thm5.1",
            source: "paper 003, Theorem 5.1",
            claim: "\"Let {X_i}_{1≤i≤r^d} be i.i.d. Poisson random variables with parameter α > 0, and X̃ be a Poisson random variable with parameter rα, where r ∈ N. Then we have Σ_{1≤i≤r^d} X_i^(d) ≺ X̃^(d)\", with ≺ the convex ordering of Definition 4.1: X ≺ Y iff E(X ∨ c) ≤ E(Y ∨ c) for all c ≥ 0.",
            premises: "Any α > 0, r ∈ N, d ≥ 1; X^(d) = X(X−1)…(X−d+1).",
            model: "The two laws computed exactly (Poisson laws, the left side as the r^d-fold convolution; crates/lab/src/scatter/convex.rs), E(X ∨ c) compared at every threshold c where the difference can be largest. No machine.",
            inside: "Inside: α ∈ {0.5, 2} (quick) or {0.25, 0.5, 1, 2, 4} (full), (r, d) ∈ {(2,1), (2,2), (3,2), (4,2), (2,3), (3,3)}; every c ≥ 0 is covered (the difference is piecewise linear between support points). The convolution trims tails below 1e−40.",
            criterion: "PASS iff for every (α, r, d) the largest E(LHS ∨ c) − E(RHS ∨ c) over all c ≥ 0 is at most 1e−9 of the mean.",
            if_fail: "A positive difference beyond rounding at some c would contradict the theorem (or reveal an error in the convolution).",
            run: multiple::thm51,
        },
        Experiment {
            id: "003-cor5.2",
            source: "paper 003, Corollary 5.2",
            claim: "\"Under the assumptions of Corollary 5.1, we have, as p → ∞, (i) η → 1 if α^d q = ω(log^d p), (ii) η ≳ γ^d if α^d q ~ x^d log^d p for some x > 0\"; and after it: \"for a fixed α > 0 and q = o((log p / log log p)^d), we have η → 0\".",
            premises: "§5: p PEs with q subproblems each (multiple assignment, L_i = Σ_j c(X_ij)), the X_ij i.i.d. Poisson(α), α fixed, c of degree d; limits as p → ∞ with q = q(p).",
            model: "paper 003's load model by Monte Carlo (i.i.d. Poisson draws, exactly q per PE, crates/lab/src/scatter/montecarlo.rs) beside the exact finite-P η where the convolution is small enough; c(X) = X².",
            inside: "Partly: the corollary is a limit in p with q growing as a function of p; the experiment holds P = 256 fixed and sweeps q from 1 to 2048 (≈ 67·ln²P), reading the regimes off q/ln²P at that one P. It judges the shape (η rises with q, small at q = O(1), near 1 far above ln²P), not the limit in p.",
            criterion: "PASS iff η increases with q over q = 1 … 2048 (P = 256, d = 2, α = 1), is below 0.5 at q = 1 and at least 0.9 at q = 2048 (≈ 67·ln²P).",
            if_fail: "At q = 67·ln²P the convergence to 1 may not yet reach 0.9 for d = 2.",
            run: cor52,
        },
        Experiment {
            id: "003-cor5.2-p",
            source: "paper 003, Corollary 5.2 (i) and (ii)",
            claim: "\"Under the assumptions of Corollary 5.1, we have, as p → ∞, (i) η → 1 if α^d q = ω(log^d p), (ii) η ≳ γ^d if α^d q ~ x^d log^d p for some x > 0\"",
            premises: "§5: p PEs with q subproblems each (multiple assignment), the X_ij i.i.d. Poisson(α) with α fixed, c of degree d; q = q(p) grows with p; limits as p → ∞.",
            model: "paper 003's load model computed exactly: a PE's load law as the q-fold convolution of c(X)'s law, E max over p i.i.d. PEs by (3.4) (crates/lab/src/scatter/model.rs). No machine.",
            inside: "Inside: α = 1, d = 2 with c = X^(2) (Theorem 5.2's polynomial), q = ⌈ln³p⌉ for (i) and q = ⌈ln²p⌉ (x ≈ 1) for (ii), p = 2^4 … 2^12 (quick) or 2^16 (full); the limit itself lies beyond a finite sweep.",
            criterion: "PASS iff with q = ⌈ln³p⌉ η rises strictly at every step of p, and with q = ⌈ln²p⌉ η is at least γ(x)^d at every p.",
            if_fail: "η falling with q = ln³p, or below γ(x)^d with q = ln²p, would contradict the corollary (its (ii) is asymptotic: ≳).",
            run: multiple::cor52_limit,
        },
        Experiment {
            id: "003-ex2.1",
            source: "paper 003, Example 2.1 with Corollary 5.2",
            claim: "\"For example, the distributed hash table in Example 2.1 works efficiently in parallel, provided that there are Ω(p log² p) items. The size of the subtable at each processor should be Ω(log² p) in order to keep the load factor α small.\"",
            premises: "Example 2.1: a table of m = pq buckets in p subtables of q; an ideally random hash, so bucket sizes are i.i.d. Poisson(α); inserting a batch costs c(X) = X(X+1)/2 redundancy checks per bucket (all checks fail); α = Θ(1). Corollary 5.2 (ii): η ≳ γ(x)^d when α^d q ~ x^d log^d p.",
            model: "The distributed hash table application itself (crates/apps/src/hashtable): its generated 64-bit keys, its bucket hash, and the units its insert_bucket counts per bucket, summed per subtable under the block assignment (no simulator: the claim is about the loads, not time).",
            inside: "Inside, except that the hash is the application's fixed hash, not an ideal random one: α = 1, q = ⌈ln²p⌉ (x ≈ 1, N = Θ(p log²p)) against q = 4 (N = Θ(p)), p = 2^4 … 2^10 (quick) or 2^14 (full), 10–100 tables per point.",
            criterion: "PASS iff with q = ⌈ln²p⌉ η is at least γ(x)² at every p and η at the largest p is at least 0.9 × η at the smallest p, and with q = 4 η falls strictly as p grows.",
            if_fail: "η below γ(x)² or falling with Θ(p log² p) keys would contradict the example's claim; q = 4 not falling would contradict η → 0 for q = O(1).",
            run: multiple::example21,
        },
    ]
}
