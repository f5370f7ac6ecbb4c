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
        ..Finding::default()
    })
}

/// Paper 003's experiments.
pub(super) fn experiments() -> Vec<Experiment> {
    vec![
        claim!("p003", "003-cor3.1", single::cor31_theta),
        claim!("p003", "003-cor3.1-ii", single::cor31_small),
        claim!("p003", "003-cor3.1-x", single::cor31_x),
        claim!("p003", "003-cor3.1-iv", single::cor31_omega),
        claim!("p003", "003-thm3.1-prob", single::thm31_in_probability),
        claim!("p003", "003-thm5.1", multiple::thm51),
        claim!("p003", "003-cor5.2", cor52),
        claim!("p003", "003-cor5.2-p", multiple::cor52_limit),
        claim!("p003", "003-ex2.1", multiple::example21),
    ]
}
