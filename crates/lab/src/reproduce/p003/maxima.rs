//! Paper 003, Corollary 4.1 on Theorem 5.1's pair: the convex order carries over to the
//! expected maximum of p i.i.d. copies, E max_{i≤p} Σ_{j≤r^d} X_ij^(d) ≤ E max_{i≤p} X̃_i^(d),
//! the step by which the proof of Theorem 5.2 bounds multiple assignment (q = r^d subproblems
//! per PE) by single assignment with Poisson(rα) sizes. Both sides computed exactly at every p.

use super::super::{Control, Ctx, Finding, Plot, Premise, Series, Table, Verdict};
use crate::scatter::convex::compare;
use crate::scatter::model::{sum_of_copies, Cost, Dist};

/// The p of the sweep.
const PS: [u64; 7] = [2, 1 << 4, 1 << 8, 1 << 12, 1 << 16, 1 << 24, 1 << 32];

/// The criterion, fixed before the run: E max(first) ≤ E max(second) · (1 + 1e−9).
fn below(first: f64, second: f64) -> bool {
    first <= second * (1.0 + 1e-9)
}

/// Corollary 4.1 with μ = law of Σ_{j≤r^d} X_j^(d), ν = law of X̃^(d), X̃ ~ Poisson(rα).
pub(super) fn cor41(ctx: &Ctx) -> Result<Finding, String> {
    let alphas = ctx.pick(vec![0.5, 2.0], vec![0.25, 0.5, 1.0, 2.0, 4.0]);
    let cases: [(u64, u32); 5] = [(2, 1), (2, 2), (3, 2), (4, 2), (2, 3)];
    let mut table = Table::new(&[
        "α",
        "r",
        "d",
        "q = r^d",
        "p",
        "E max Σ_{j≤q} X_ij^(d) (multiple)",
        "E max X̃_i^(d), X̃ ~ Poisson(rα) (single)",
        "ratio multiple/single",
    ]);
    let (mut worst, mut worst2, mut judged) = (0f64, 0f64, 0usize);
    // The control: the same comparison with the two laws swapped (ν in place of μ), for d ≥ 2,
    // where μ ≺ ν strictly and ν ≺ μ does not hold: the corollary's premise is violated.
    let (mut c_all_below, mut c_judged, mut c_max_ratio) = (true, 0usize, 0f64);
    // Premises: μ ≺ ν (Theorem 5.1, measured on the computed laws), the means equal (rα)^d,
    // and the convolution lost no mass that matters.
    let (mut order_worst, mut mean_gap, mut lost) = (f64::NEG_INFINITY, 0f64, 0f64);
    let mut all_below = true;
    let mut curves = Vec::new();
    for &alpha in &alphas {
        for &(r, d) in &cases {
            let q = r.pow(d);
            let one = Dist::cost_of_poisson(alpha, Cost::Falling(d));
            let mu = sum_of_copies(&one, q)
                .ok_or_else(|| format!("α = {alpha}, r = {r}, d = {d}: too large to convolve"))?;
            let nu = Dist::cost_of_poisson(r as f64 * alpha, Cost::Falling(d));
            let cmp = compare(&mu, &nu);
            order_worst = order_worst.max(cmp.worst / cmp.means.1.max(1e-300));
            let exact_mean = (r as f64 * alpha).powi(d as i32);
            mean_gap = mean_gap
                .max((cmp.means.0 - exact_mean).abs() / exact_mean)
                .max((cmp.means.1 - exact_mean).abs() / exact_mean);
            lost = lost.max((1.0 - mu.probs.iter().sum::<f64>()).abs());
            let mut pts = Vec::new();
            for &p in &PS {
                let (m, s) = (mu.expected_max(p), nu.expected_max(p));
                let ok = below(m, s);
                all_below &= ok;
                worst = worst.max(m / s);
                judged += 1;
                if d >= 2 {
                    worst2 = worst2.max(m / s);
                    c_all_below &= below(s, m);
                    c_max_ratio = c_max_ratio.max(s / m);
                    c_judged += 1;
                }
                pts.push((p as f64, m / s));
                table.row(vec![
                    alpha.into(),
                    r.into(),
                    d.into(),
                    q.into(),
                    p.into(),
                    m.into(),
                    s.into(),
                    (m / s).into(),
                ]);
            }
            if alpha == 1.0 || (ctx.quick && alpha == 2.0) {
                curves.push(Series::points(
                    format!("α = {alpha}, r = {r}, d = {d}"),
                    pts,
                ));
            }
        }
    }
    Ok(Finding {
        prediction: "E max_{i≤p} Σ_{j≤r^d} X_ij^(d) ≤ E max_{i≤p} X̃_i^(d) at every p (Corollary 4.1 applied to Theorem 5.1's μ ≺ ν); the ratio is 1 for d = 1 (the laws are equal) and below 1 for d ≥ 2".into(),
        measured: format!(
            "{judged} (α, r, d, p): the largest ratio E max(multiple)/E max(single) is {worst:.9} (1 for d = 1, where the laws are equal; {worst2:.4} over d ≥ 2), {}",
            if all_below { "at most 1 + 1e−9 everywhere" } else { "above 1 + 1e−9 somewhere" }
        ),
        table,
        plot: Some(Plot {
            x: "p".into(),
            y: "E max (multiple, q = r^d) / E max (single, Poisson(rα))".into(),
            log_x: true,
            log_y: false,
            series: curves,
        }),
        verdict: Verdict::of(all_below),
        remark: "Both expected maxima are exact: the multiple side from the r^d-fold convolution of X^(d)'s law (tails below 1e−40 of the largest probability trimmed), the single side from the Poisson(rα) law, E max of p copies by the paper's (3.4). The ratio shows how much the bound of Theorem 5.2 gives away at finite p; it is the single side's asymptotics (Theorem 3.1) that Theorem 5.2's cases then state.".into(),
        premises_measured: vec![
            Premise::new(
                "the corollary's premise μ ≺ ν (Definition 4.1) holds for the pair: the largest E(μ ∨ c) − E(ν ∨ c) over all c ≥ 0, relative to the mean, at most 1e−9",
                format!("{order_worst:.2e}"),
                order_worst <= 1e-9,
            ),
            Premise::new(
                "both laws have the mean (rα)^d (Poisson sizes, c = X^(d))",
                format!("largest relative gap of either computed mean from (rα)^d: {mean_gap:.1e}"),
                mean_gap <= 1e-9,
            ),
            Premise::new(
                "the convolved law of a PE's load is a law (the trimmed tails lose at most 1e−12 of the mass)",
                format!("largest mass lost to trimming: {lost:.1e}"),
                lost <= 1e-12,
            ),
        ],
        control: Some(Control {
            system: format!("the two laws swapped (X̃^(d) in place of Σ X_j^(d) and back) in the {c_judged} (α, r, d, p) with d ≥ 2, where the premise ν ≺ μ is false; same laws, same p, same test"),
            measured: format!("largest ratio E max X̃^(d) / E max Σ X_j^(d): {c_max_ratio:.4}"),
            verdict: Verdict::of(c_all_below),
        }),
        seeds: None,
    })
}
