//! Paper 003 (randomly scattered data): Corollary 3.1 (single assignment, q = 1: η → 0 for
//! α = Θ(1), η → γ(x)^d for α ~ x·ln P) and Corollary 5.2 (multiple assignment: η → 1 iff
//! q = ω(log^d P)), measured by Monte Carlo beside the exact finite-P η of `scatter::model`.

use super::{Ctx, Experiment, Finding, Plot, Series, Table, Verdict};
use crate::scatter::model::{exact_eta, gamma, predicted_eta, Assignment, Cost, Point};
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

fn cor31_theta(ctx: &Ctx) -> Result<Finding, String> {
    let n = ctx.pick(200, 2000);
    let mut table = Table::new(&[
        "P",
        "η (Monte Carlo)",
        "±95%",
        "η exact",
        "(α ln ln P / ln P)^d",
    ]);
    let (mut m, mut x, mut pr) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = f64::INFINITY;
    let mut decreasing = true;
    for k in [4u32, 8, 12, 16] {
        let p = 1u64 << k;
        let pt = point(4.0, 1, p, 2);
        let (e, ci, ex, pred) = eta(&pt, n);
        decreasing &= e + ci < last;
        last = e - ci;
        m.push((p as f64, e));
        x.push((p as f64, ex.unwrap_or(f64::NAN)));
        pr.push((p as f64, pred));
        table.row(vec![
            p.into(),
            e.into(),
            ci.into(),
            ex.unwrap_or(f64::NAN).into(),
            pred.into(),
        ]);
    }
    Ok(Finding {
        prediction: "q = 1, α = 4 (Θ(1)), c(X) = X²: η ~ (α ln ln P / ln P)^d → 0".into(),
        measured: format!(
            "η at P = 2^4 … 2^16: {}",
            m.iter()
                .map(|p| format!("{:.3}", p.1))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "η".into(),
            log_x: true,
            log_y: false,
            series: vec![
                Series::points("Monte Carlo", m),
                Series::line("exact (finite P)", x),
                Series::line("(α ln ln P/ln P)^d", pr),
            ],
        }),
        verdict: Verdict::of(decreasing),
        remark: String::new(),
    })
}

fn cor31_x(ctx: &Ctx) -> Result<Finding, String> {
    let n = ctx.pick(200, 2000);
    let mut table = Table::new(&[
        "P",
        "α = x ln P",
        "η (Monte Carlo)",
        "±95%",
        "η exact",
        "γ(x)^d",
        "|η − γ(x)^d|",
    ]);
    let target = gamma(1.0);
    let (mut m, mut g) = (Vec::new(), Vec::new());
    let mut gaps = Vec::new();
    for k in [6u32, 10, 14] {
        let p = 1u64 << k;
        let pt = point((p as f64).ln(), 1, p, 1);
        let (e, ci, ex, _) = eta(&pt, n);
        gaps.push((e - target).abs());
        m.push((p as f64, e));
        g.push((p as f64, target));
        table.row(vec![
            p.into(),
            pt.alpha.into(),
            e.into(),
            ci.into(),
            ex.unwrap_or(f64::NAN).into(),
            target.into(),
            (e - target).abs().into(),
        ]);
    }
    let ok = gaps.windows(2).all(|w| w[1] < w[0]) && gaps[gaps.len() - 1] <= 0.15;
    Ok(Finding {
        prediction: format!("q = 1, α = x·ln P with x = 1, c(X) = X: η → γ(x)^d = {target:.4} (root of γ + x(ln γ − γ + 1) = 0)"),
        measured: format!("|η − γ(x)^d| at P = 2^6, 2^10, 2^14: {}", gaps.iter().map(|g| format!("{g:.3}")).collect::<Vec<_>>().join(", ")),
        table,
        plot: Some(Plot { x: "P".into(), y: "η".into(), log_x: true, log_y: false, series: vec![Series::points("Monte Carlo", m), Series::line("γ(x)^d", g)] }),
        verdict: Verdict::of(ok),
        remark: String::new(),
    })
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

/// Paper 003's experiments.
pub(super) fn experiments() -> Vec<Experiment> {
    vec![
        Experiment {
            id: "003-cor3.1",
            source: "paper 003, Corollary 3.1 (i)",
            claim: "With single assignment and α = Θ(1), the efficiency η tends to 0 as P grows.",
            premises: "",
            model: "",
            inside: "",
            criterion: "PASS iff η (Monte Carlo, α = 4, d = 2) falls strictly, beyond its 95 % intervals, from P = 2^4 to 2^8, 2^12 and 2^16.",
            if_fail: "The decay is only like 1/ln²P up to ln ln P factors; neighbouring P can overlap within the intervals at the quick number of trials.",
            run: cor31_theta,
        },
        Experiment {
            id: "003-cor3.1-x",
            source: "paper 003, Corollary 3.1 (iii)",
            claim: "With α ~ x·ln P, η tends to γ(x)^d.",
            premises: "",
            model: "",
            inside: "",
            criterion: "PASS iff |η − γ(1)| shrinks from P = 2^6 to 2^10 to 2^14 and is at most 0.15 at 2^14 (d = 1).",
            if_fail: "The convergence to γ(x)^d is slow (corrections of order ln ln P / ln P).",
            run: cor31_x,
        },
        Experiment {
            id: "003-cor5.2",
            source: "paper 003, Corollary 5.2",
            claim: "Multiple assignment reaches η → 1 iff q = ω(log^d P).",
            premises: "",
            model: "",
            inside: "",
            criterion: "PASS iff η increases with q over q = 1 … 2048 (P = 256, d = 2, α = 1), is below 0.5 at q = 1 and at least 0.9 at q = 2048 (≈ 67·ln²P).",
            if_fail: "At q = 67·ln²P the convergence to 1 may not yet reach 0.9 for d = 2.",
            run: cor52,
        },
    ]
}
