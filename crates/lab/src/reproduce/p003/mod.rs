//! Paper 003 (Kimura, Ichiyoshi: randomly scattered data): Corollary 3.1's four regimes of
//! single assignment (`single.rs`, η computed exactly at any P and checked by Monte Carlo),
//! Theorem 5.1's convex order, Corollary 5.2's multiple assignment and Example 2.1's
//! distributed hash table (`multiple.rs` and here), Theorem 3.1's second case in E max against
//! c(b) (`thm31b.rs`), Theorem 5.2's first two cases with the
//! proof's finite-p bound (`thm52.rs`), Corollary 5.1's four cases for costs with lower-order
//! terms (`cor51.rs`), an answer to the conjecture after Corollary 5.2 (`conj.rs`), and
//! Proposition 4.2 on Theorem 5.1's pairs as a unit test (`prop42.rs`).

mod bgamma;
mod conj;
mod cor42;
mod cor51;
mod maxima;
mod multiple;
#[cfg(test)]
mod prop42;
mod single;
mod thm31b;
mod thm52;

use super::{Control, Ctx, Experiment, Finding, Plot, Premise, Series, Table, Verdict};
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

/// The q of Corollary 5.2's sweep at P = 256.
const COR52_Q: [u64; 7] = [1, 4, 16, 64, 256, 1024, 2048];

/// The criterion of 003-cor5.2 (fixed before the run): η increasing over the sweep, below 0.5
/// at q = 1 and at least 0.9 at q = 2048.
fn cor52_criterion(etas: &[(u64, f64)]) -> (bool, bool) {
    let increasing = etas.windows(2).all(|w| w[1].1 > w[0].1);
    let big = etas.last().map_or(0.0, |x| x.1);
    (increasing, increasing && etas[0].1 < 0.5 && big >= 0.9)
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
        "mean c(X) drawn (E X² = 2)",
        "control c = X⁴: q/ln⁴P",
        "control η (Monte Carlo)",
    ]);
    let mut m = Vec::new();
    let mut cm = Vec::new();
    let mut etas = Vec::new();
    let mut control = Vec::new();
    // Premise: the sizes are Poisson(1), read from the run as the mean cost per subproblem
    // against E X² = α + α² = 2 (within 3 standard errors at every q).
    let mut worst_z = 0f64;
    let log_c = (p as f64).ln().powi(4);
    for q in COR52_Q {
        let pt = point(1.0, q, p, d);
        let ts = trials(&pt, n, 3);
        let est = estimate(pt.pes, &ts);
        let (e, ci) = (est.eta, est.ci);
        let (ex, pred) = (exact_eta(&pt), predicted_eta(&pt).0);
        let per: Vec<f64> = ts.iter().map(|t| t.total / (p * q) as f64).collect();
        let (mean_c, half) = super::mean_ci(&per);
        let se = (half / 1.96).max(1e-12);
        worst_z = worst_z.max((mean_c - 2.0).abs() / se);
        // The negative control: degree d′ = 4 (c = X⁴) over the same q, for which q ≤ 2048 is
        // Θ(log^4 P), not ω(log^4 P).
        let cpt = Point {
            cost: Cost::Power(4),
            ..pt
        };
        let ce = estimate(cpt.pes, &trials(&cpt, n, 3)).eta;
        control.push((q, ce));
        cm.push((q as f64, ce));
        etas.push((q, e));
        m.push((q as f64, e));
        table.row(vec![
            q.into(),
            (q as f64 / log_d).into(),
            e.into(),
            ci.into(),
            ex.unwrap_or(f64::NAN).into(),
            pred.into(),
            mean_c.into(),
            (q as f64 / log_c).into(),
            ce.into(),
        ]);
    }
    let (increasing, ok) = cor52_criterion(&etas);
    let (c_increasing, c_ok) = cor52_criterion(&control);
    let big = etas.last().map_or(0.0, |x| x.1);
    let c_big = control.last().map_or(0.0, |x| x.1);
    let (q_lo, q_hi) = (COR52_Q[0] as f64, COR52_Q[COR52_Q.len() - 1] as f64);
    Ok(Finding {
        prediction: format!("multiple assignment of q Poisson(1) subproblems per PE, c(X) = X², P = {p}: η → 1 iff q = ω(log^d P) (ln²P = {log_d:.0}); η small for q = O(1)"),
        measured: format!("η rises from {:.3} at q = 1 to {big:.3} at q = 2048 ({}increasing)", etas[0].1, if increasing { "" } else { "not " }),
        table,
        plot: Some(Plot { x: "q".into(), y: "η".into(), log_x: true, log_y: false, series: vec![Series::points("Monte Carlo, c = X²", m), Series::points("control, c = X⁴", cm)] }),
        verdict: Verdict::of(ok),
        remark: String::new(),
        premises_measured: vec![
            Premise::new(
                "subproblem sizes Poisson(α = 1): the mean cost per subproblem drawn is E X² = α + α² = 2",
                format!("largest distance of the drawn mean of X² from 2 over the sweep: {worst_z:.2} standard errors ({n} trials per q)"),
                worst_z <= 3.0,
            ),
            Premise::new(
                "the sweep spans both regimes of the corollary at this P: q = O(1) (q/ln²P < 0.1) at its start and q far above ln²P (q/ln²P > 10) at its end",
                format!("q/ln²P from {:.3} to {:.1}", q_lo / log_d, q_hi / log_d),
                q_lo / log_d < 0.1 && q_hi / log_d > 10.0,
            ),
        ],
        control: Some(Control {
            system: format!("degree d′ = 4 (c = X⁴) in place of d = 2, same P, q and seeds (the same Poisson draws): q = 2048 is only {:.1}·ln⁴P, Θ(log^d′ P) rather than ω", q_hi / log_c),
            measured: format!("η from {:.3} at q = 1 to {c_big:.3} at q = 2048 ({}increasing)", control[0].1, if c_increasing { "" } else { "not " }),
            verdict: Verdict::of(c_ok),
        }),
        seeds: Some(n as usize),
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
        claim!("p003", "003-thm3.1-b", bgamma::b_gamma),
        claim!("p003", "003-thm3.1-ii-b", thm31b::thm31_b),
        claim!("p003", "003-cor4.2", cor42::cor42),
        claim!("p003", "003-thm5.1", multiple::thm51),
        claim!("p003", "003-cor4.1", maxima::cor41),
        claim!("p003", "003-thm5.2-i", thm52::theta_one),
        claim!("p003", "003-thm5.2-ii", thm52::small_q),
        claim!("p003", "003-cor5.1-i", cor51::theta_one),
        claim!("p003", "003-cor5.1-ii", cor51::small_q),
        claim!("p003", "003-cor5.1-iii", cor51::x_log),
        claim!("p003", "003-cor5.1-iv", cor51::omega),
        claim!("p003", "003-cor5.2", cor52),
        claim!("p003", "003-cor5.2-p", multiple::cor52_limit),
        claim!("p003", "003-conj5", conj::conjecture),
        claim!("p003", "003-ex2.1", multiple::example21),
    ]
}
