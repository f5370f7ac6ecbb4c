//! The lemmas of paper 000 §3, each judged on the quantity it states, measured by the
//! simulator's proof probe: Lemma 1 (a request's CPU cost, the answer interval, the response
//! time and the queue a request meets), Lemma 2 (dead time), Lemma 3 (red requests until no
//! subproblem of generation < h is left), Lemma 4 (the colouring), Lemma 5 (the expense
//! until then) and Lemma 6 (the finishing phase).

use super::super::{mean_ci, quantile, Ctx, Finding, Plot, Series, Table, Verdict};
use super::{constants, describe, levels, sweep, Point, Run, Setup, MARGIN};

/// Per setup of the sweep: `value(run)` against `bound(setup)`; the largest ratio over the
/// runs of each setup goes in the table; returns the table, the plot and the largest ratio.
fn per_setup(
    points: &[Point],
    what: &str,
    bound_name: &str,
    value: impl Fn(&Run) -> f64,
    bound: impl Fn(&Setup) -> f64,
) -> (Table, Plot, f64) {
    let mut table = Table::new(&[
        "varied",
        "setup",
        &format!("{what} (mean over seeds)"),
        &format!("{what} (largest)"),
        bound_name,
        "largest / bound",
    ]);
    let mut worst: f64 = 0.0;
    let mut pts = Vec::new();
    for (i, pt) in points.iter().enumerate() {
        let b = bound(&pt.setup);
        let max = pt.max(&value);
        worst = worst.max(max / b);
        pts.push((i as f64, max / b));
        table.row(vec![
            pt.setup.label.into(),
            describe(&pt.setup).into(),
            pt.mean(&value).into(),
            max.into(),
            b.into(),
            (max / b).into(),
        ]);
    }
    let n = pts.len() as f64;
    let plot = Plot {
        x: "setup (table row)".into(),
        y: format!("{what} / bound"),
        series: vec![
            Series::points("largest over seeds / bound", pts),
            Series::line("1", vec![(0.0, 1.0), (n - 1.0, 1.0)]),
        ],
        ..Plot::default()
    };
    (table, plot, worst)
}

fn finding(prediction: String, what: &str, table: Table, plot: Plot, worst: f64) -> Finding {
    Finding {
        prediction,
        measured: format!("largest {what} / bound over all setups and seeds: {worst:.3}"),
        table,
        plot: Some(plot),
        verdict: Verdict::of(worst <= 1.0),
        remark: String::new(),
        ..Finding::default()
    }
}

pub(super) fn lemma1_cpu(ctx: &Ctx) -> Result<Finding, String> {
    let points = sweep(ctx)?;
    let (table, plot, worst) = per_setup(
        &points,
        "CPU time per request",
        "T_split + 2·T_rout",
        |r| r.proof.cpu_per_request.max,
        |s| (s.t_split + 2 * s.t_rout) as f64,
    );
    Ok(finding(
        "every request costs all PEs together at most T_split + 2·T_rout of CPU time: one split and two messages (the request and its answer), each costing T_rout to send and receive (§1.1)".into(),
        "CPU time per request",
        table,
        plot,
        worst,
    ))
}

pub(super) fn lemma1_interval(ctx: &Ctx) -> Result<Finding, String> {
    let points = sweep(ctx)?;
    let c = MARGIN * constants(ctx)?.interval;
    let (table, plot, worst) = per_setup(
        &points,
        "time between answers",
        "Δt + T_split + c·T_rout",
        |r| r.proof.answer_interval.max,
        |s| (s.delta_t + s.t_split) as f64 + c * s.t_rout as f64,
    );
    Ok(finding(
        format!("at a PE with requests waiting, the next answer leaves within Δt + T_split + c·T_rout: at most one slice until the queue is checked, then the messages handled ahead of the request (its own request's answer, its next request, termination messages), the request's receipt, its split and the answer's sending; c = {MARGIN} × the largest (interval − Δt − T_split)/T_rout of any calibration run = {c:.3}"),
        "time between answers",
        table,
        plot,
        worst,
    ))
}

pub(super) fn lemma1_response(ctx: &Ctx) -> Result<Finding, String> {
    let points = sweep(ctx)?;
    let (table, plot, worst) = per_setup(
        &points,
        "mean response time",
        "2·(Δt + T_split + T_rout)",
        |r| r.proof.response.mean,
        |s| 2.0 * s.cycle(),
    );
    Ok(finding(
        "the expected time from a request's arrival to its answer leaving is at most (1 + E[queue met])·(Δt + T_split + T_rout) ≤ 2·(Δt + T_split + T_rout): the proof's expected queue length ≤ 1, each request ahead and the request itself served within one cycle".into(),
        "mean response time (per run)",
        table,
        plot,
        worst,
    ))
}

pub(super) fn lemma1_queue(ctx: &Ctx) -> Result<Finding, String> {
    let points = sweep(ctx)?;
    let mut table = Table::new(&[
        "varied",
        "setup",
        "requests (mean)",
        "mean queue met",
        "±95%",
        "max queue met",
    ]);
    let mut worst: f64 = 0.0;
    let mut pts = Vec::new();
    for (i, pt) in points.iter().enumerate() {
        let (m, ci) = mean_ci(&pt.each(|r| r.queue_mean));
        worst = worst.max(m);
        pts.push((i as f64, m));
        table.row(vec![
            pt.setup.label.into(),
            describe(&pt.setup).into(),
            pt.mean(|r| r.requests as f64).into(),
            m.into(),
            ci.into(),
            pt.max(|r| r.queue_max as f64).into(),
        ]);
    }
    Ok(Finding {
        prediction: "a request meets an expected queue length ≤ Σᵢ(queue length at PE i)/P ≤ 1 (at most P requests are active)".into(),
        measured: format!(
            "largest mean queue length met over the {} setups: {worst:.4}",
            points.len()
        ),
        table,
        plot: Some(Plot {
            x: "setup (table row)".into(),
            y: "mean queue length a request meets".into(),
            series: vec![
                Series::points("measured", pts.clone()),
                Series::line("bound 1", vec![(0.0, 1.0), (pts.len() as f64 - 1.0, 1.0)]),
            ],
            ..Plot::default()
        }),
        verdict: Verdict::of(worst <= 1.0),
        remark: String::new(),
        ..Finding::default()
    })
}

pub(super) fn lemma2(ctx: &Ctx) -> Result<Finding, String> {
    let points = sweep(ctx)?;
    let c = MARGIN * constants(ctx)?.dead;
    let (table, plot, worst) = per_setup(
        &points,
        "dead time per reaching request",
        "Δt + T_split + c·T_rout",
        |r| r.proof.dead_time.max,
        |s| (s.delta_t + s.t_split) as f64 + c * s.t_rout as f64,
    );
    let batch = points
        .iter()
        .map(|pt| pt.max(|r| r.proof.dead_batch as f64))
        .fold(0.0, f64::max);
    let mut f = finding(
        format!("a piece handed over is dead from the arrival of the request that splits it off until it arrives at the requester; with k requests ahead of it that reached the same subproblem, dead time/(k + 1) ≤ Δt + T_split + c·T_rout (the proof's worst case (k + 1)(Δt + T_split + T_rout) with O(T_rout) for the messages); c = {MARGIN} × the largest (dead time/(k + 1) − Δt − T_split)/T_rout of any calibration run = {c:.3}"),
        "dead time/(k + 1)",
        table,
        plot,
        worst,
    );
    f.remark =
        format!("The largest k + 1 seen: {batch:.0} requests reached one subproblem in one poll.");
    Ok(f)
}

/// Lemma 3's constant from its proof: the smallest c > 1 with
/// c − ln c − 2 − 1/e ≥ (β + 1)·ln P / h (β = 1), which makes P·P[gen(I⟨i⟩) < h] ≤ P^−β.
pub(super) fn lemma3_c(h: u32, p: usize) -> f64 {
    let need = 2.0 * (p as f64).ln() / f64::from(h.max(1)) + 2.0 + (-1f64).exp();
    let f = |c: f64| c - c.ln();
    let (mut lo, mut hi) = (1.0, 1000.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if f(mid) >= need {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

pub(super) fn lemma3(ctx: &Ctx) -> Result<Finding, String> {
    let points = levels(ctx)?;
    let mut table = Table::new(&[
        "setup",
        "h",
        "seeds",
        "red requests until T_h / (P·h): median",
        "(1 − 1/P)-quantile",
        "largest",
        "c of the proof (β = 1)",
    ]);
    let (mut worst, mut pts, mut cs) = (0.0f64, Vec::new(), Vec::new());
    for pt in points.iter() {
        let (p, h) = (pt.setup.p, pt.setup.h());
        let ratios = pt.each(|r| r.level(h).red_requests as f64 / (p as f64 * f64::from(h)));
        let q = quantile(&ratios, 1.0 - 1.0 / p as f64);
        let c = lemma3_c(h, p);
        worst = worst.max(q / c);
        pts.push((p as f64, q));
        cs.push((p as f64, c));
        table.row(vec![
            describe(&pt.setup).into(),
            h.into(),
            ratios.len().into(),
            quantile(&ratios, 0.5).into(),
            q.into(),
            quantile(&ratios, 1.0).into(),
            c.into(),
        ]);
    }
    Ok(Finding {
        prediction: "after c·P·h red requests no subproblem of generation < h is left, with probability ≥ 1 − P^−β; c from the proof: the smallest c with c − ln c − 2 − 1/e ≥ (β+1)·ln P/h, β = 1".into(),
        measured: format!("largest ratio of the (1 − 1/P)-quantile of red requests until T_h / (P·h) to c: {worst:.3}"),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "red requests until T_h / (P·h)".into(),
            log_x: true,
            series: vec![
                Series::points("(1 − 1/P)-quantile over seeds", pts),
                Series::line("c of the proof", cs),
            ],
            ..Plot::default()
        }),
        verdict: Verdict::of(worst <= 1.0),
        remark: String::new(),
        ..Finding::default()
    })
}

pub(super) fn lemma4(ctx: &Ctx) -> Result<Finding, String> {
    let points = levels(ctx)?;
    let mut table = Table::new(&[
        "setup",
        "T_dead",
        "requests until T_h (mean)",
        "red until T_h (mean)",
        "requests/red (largest)",
    ]);
    let (mut worst, mut pts) = (0.0f64, Vec::new());
    for pt in points.iter() {
        let h = pt.setup.h();
        let per = |r: &Run| {
            let l = r.level(h);
            l.requests as f64 / (l.red_requests as f64).max(1.0)
        };
        let max = pt.max(per);
        worst = worst.max(max);
        pts.push((pt.setup.p as f64, max));
        table.row(vec![
            describe(&pt.setup).into(),
            pt.runs[0].proof.t_dead.into(),
            pt.mean(|r| r.level(h).requests as f64).into(),
            pt.mean(|r| r.level(h).red_requests as f64).into(),
            max.into(),
        ]);
    }
    Ok(Finding {
        prediction: "colouring P successive requests red, then skipping those within T_dead, leaves at most 2P uncoloured requests per P red ones: all requests ≤ 3 × red requests (T_dead = Δt + T_recv + T_split + T_send + T_rout, Lemma 2's cycle on this machine)".into(),
        measured: format!("largest requests/red until T_h over all runs: {worst:.3}"),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "requests / red requests until T_h".into(),
            log_x: true,
            series: vec![
                Series::points("largest over seeds", pts.clone()),
                Series::line(
                    "3",
                    vec![(pts[0].0, 3.0), (pts[pts.len() - 1].0, 3.0)],
                ),
            ],
            ..Plot::default()
        }),
        verdict: Verdict::of(worst <= 3.0),
        remark: String::new(),
        ..Finding::default()
    })
}

pub(super) fn lemma5(ctx: &Ctx) -> Result<Finding, String> {
    let points = levels(ctx)?;
    let mut table = Table::new(&[
        "P",
        "h",
        "T_h (mean)",
        "requests until T_h (mean)",
        "splits until T_h (mean)",
        "expense until T_h (mean)",
        "±95%",
        "expense/(hP(Δt+T_split+T_rout))",
        "bound B5",
    ]);
    let (mut over, mut pts) = (0.0f64, Vec::new());
    for pt in points.iter() {
        let s = &pt.setup;
        let h = s.h();
        let hp = f64::from(h) * s.p as f64;
        let (e, ci) = mean_ci(&pt.each(|r| r.level(h).expense as f64));
        let t_dead = pt.runs[0].proof.t_dead as f64;
        let per_request = 2.0 * s.cycle() + (s.t_split + 2 * s.t_rout) as f64;
        let b5 = lemma3_c(h, s.p) * hp * (t_dead + 3.0 * per_request);
        over = over.max(e / b5);
        let ratio = e / (hp * s.cycle());
        pts.push((s.p as f64, ratio));
        table.row(vec![
            s.p.into(),
            h.into(),
            pt.mean(|r| r.level(h).time as f64).into(),
            pt.mean(|r| r.level(h).requests as f64).into(),
            pt.mean(|r| r.level(h).splits as f64).into(),
            e.into(),
            ci.into(),
            ratio.into(),
            b5.into(),
        ]);
    }
    let growth = pts[pts.len() - 1].1 / pts[0].1;
    Ok(Finding {
        prediction: "the expense (PE time not spent working: communicating, splitting, waiting) until no subproblem of generation < h is left is O(hP(Δt + T_split + T_rout)); with the proof's constants, ≤ B5 = c·h·P·(T_dead + 3·(2(Δt+T_split+T_rout) + T_split + 2T_rout)) (c of Lemma 3, 3 requests per red one (Lemma 4), each waited for and paid (Lemma 1)), and expense/(hP(Δt+T_split+T_rout)) does not grow with P".into(),
        measured: format!(
            "largest mean expense / B5: {over:.3}; expense/(hP(Δt+T_split+T_rout)) at P = {} over that at P = {}: {growth:.3}",
            points[points.len() - 1].setup.p,
            points[0].setup.p
        ),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "expense until T_h / (hP(Δt+T_split+T_rout))".into(),
            log_x: true,
            series: vec![Series::points("mean over seeds", pts)],
            ..Plot::default()
        }),
        verdict: Verdict::of(over <= 1.0 && growth <= 2.0),
        remark: String::new(),
        ..Finding::default()
    })
}

pub(super) fn lemma6(ctx: &Ctx) -> Result<Finding, String> {
    let points = sweep(ctx)?;
    let c6 = constants(ctx)?.finish;
    let bound = MARGIN * c6;
    let (table, plot, worst) = per_setup(
        &points,
        "T_par − T_h",
        "C·(T_atomic + h(Δt+T_split+T_rout))",
        |r| r.finish(r.h),
        |s| bound * s.finish_term(),
    );
    let mut f = finding(
        format!("once every subproblem has generation ≥ h (at T_h), the rest of the run, termination detection included, takes O(T_atomic + h(Δt + T_split + T_rout)); C = {MARGIN} × {c6:.3} = {bound:.3}, {c6:.3} being the largest ratio of any calibration run"),
        "(T_par − T_h)",
        table,
        plot,
        worst,
    );
    f.measured = format!(
        "largest (T_par − T_h)/(C·(T_atomic + h(Δt+T_split+T_rout))) over all setups and seeds: {worst:.3}"
    );
    Ok(f)
}
