//! `treesplit scatter`: paper 003's efficiency η of randomly scattered data, measured by Monte
//! Carlo beside the paper's predictions (the regime's asymptotic η, the finite-P value from
//! b(α, P) of (3.2), and the exact finite-P η from the law of a PE's load), saying why the
//! asymptotic prediction misses where it does; `scatter tail`: adversarial job sizes under
//! random placement, random permutation and round-robin against paper 004's Theorem 2 and the
//! chapter's Theorem 14.1. Lists of parameters make sweeps, drawn with `--svg`.

use crate::output::{self, plot, Failure};
use crate::plan::scatter::{ScatterPlan, ScatterPlanMode};
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;
use std::path::Path;
use treesplit_lab::scatter::adversary::{self, Bounds, Instance, Placement, PlacementTail, Sizes};
use treesplit_lab::scatter::model::{self, Assignment, Dist, Point, Regime};
use treesplit_lab::scatter::montecarlo;

/// One point's report.
#[derive(Debug, Clone, Serialize)]
pub struct PointReport {
    pub alpha: f64,
    pub q: u64,
    pub pes: u64,
    pub degree: u32,
    pub cost: String,
    pub assignment: Assignment,
    pub trials: u64,
    /// Monte Carlo η and the half-width of its 95 % interval.
    pub eta_measured: f64,
    pub eta_ci: f64,
    /// The paper's asymptotic η for the regime (a lower bound where `predicted_is_bound`).
    pub eta_predicted: f64,
    pub predicted_is_bound: bool,
    pub regime: Regime,
    pub regime_statement: &'static str,
    /// x = α·q^{1/d}/ln P.
    pub x: f64,
    /// γ(x) of (3.3).
    pub gamma: f64,
    /// b(α·q^{1/d}, P) of (3.2), where it exists.
    pub b: Option<u64>,
    /// q·c*(α)/c(b): Theorem 3.1's E\[max\] ~ c(b) (q = 1) or Corollary 5.1's bound (q > 1).
    pub eta_b: Option<f64>,
    /// η at this finite P from the exact law of a PE's load (random placement: Poissonized).
    pub eta_exact: Option<f64>,
    /// |measured − exact| within the interval (plus 10^-3 for the truncated tails).
    pub exact_within_ci: Option<bool>,
    /// Why the asymptotic prediction misses, where it does.
    pub why: Option<String>,
}

pub fn scatter(plan: &ScatterPlan) -> Result<(), Failure> {
    match &plan.mode {
        ScatterPlanMode::Poisson { points, trials } => poisson(plan, points, *trials),
        ScatterPlanMode::Tail {
            sizes,
            pes,
            c,
            jobs,
            epsilon,
            trials,
        } => tail(plan, *sizes, *pes, c, *jobs, *epsilon, *trials),
    }
}

/// η ≈ mean/(mean + sd·√(2 ln P)): the maximum of P near-normal loads (Theorem 3.1's
/// max − c(α) ~ c'(α)·√(2α log P) for q = 1).
fn normal_eta(pt: &Point) -> f64 {
    let f = Dist::cost_of_poisson(pt.alpha, pt.cost);
    let m = f.mean();
    let var: f64 = f
        .values
        .iter()
        .zip(&f.probs)
        .map(|(&v, &p)| (v as f64 - m).powi(2) * p)
        .sum();
    let (mean, sd) = (pt.q as f64 * m, (pt.q as f64 * var).sqrt());
    mean / (mean + sd * (2.0 * (pt.pes as f64).ln()).sqrt())
}

/// Measure and predict one point.
pub fn point(pt: &Point, trials: u64, seed: u64) -> PointReport {
    let est = montecarlo::estimate(pt.pes, &montecarlo::trials(pt, trials, seed));
    let regime = Regime::of(pt);
    let (pred, bound) = model::predicted_eta(pt);
    let exact = model::exact_eta(pt);
    let b = model::b_alpha_p(pt.alpha_eff(), pt.pes);
    let eta_b = model::b_prediction(pt);
    let reference = exact.unwrap_or(est.eta);
    let tol = est.ci.max(0.02);
    let (p, d) = (pt.pes, pt.cost.degree());
    let why = if pt.assignment == Assignment::RandomPlacement {
        Some("random placement is not the paper's strategy (q per PE only on average): the paper's regimes and bounds are for exactly q per PE, shown for comparison".to_string())
    } else if bound {
        Some(format!(
            "Corollary {} is a lower bound (from the convex order of Theorem 5.1: a PE's q loads are dominated by one Poisson(alpha q^(1/d)) subproblem), not an estimate; eta is {reference:.4} here, the bound {pred:.4}{}",
            if regime == Regime::SmallQ { "5.1" } else { "5.2 (ii)" },
            if est.eta + est.ci + 1e-3 >= pred { " (it holds)" } else { " (it fails at this finite P)" }
        ))
    } else if (pred - reference).abs() > tol {
        Some(match regime {
            Regime::ThetaOne => format!(
                "(alpha ln ln P / ln P)^d keeps only the leading term of E[max X] ~ ln P / ln ln P (Theorem 3.1), whose relative error decays like ln ln ln P / ln ln P: large at P = {p}; the finite-P form c*(alpha)/c(b) with b(alpha, P) = {} of (3.2) gives {:.4}",
                b.map_or("-".into(), |b| b.to_string()),
                eta_b.unwrap_or(f64::NAN)
            ),
            Regime::XLog => format!(
                "gamma(x)^d is the limit as P -> infinity with alpha q^(1/d) ~ x ln P; at P = {p} the Stirling corrections of (3.2) (log sqrt(2 pi b)/b, log(b+1)/b) are still large: b = {} gives c*(alpha)/c(b) = {:.4}",
                b.map_or("-".into(), |b| b.to_string()),
                eta_b.unwrap_or(f64::NAN)
            ),
            Regime::OmegaLog => format!(
                "eta -> 1 only as P -> infinity: at P = {p} the largest load still exceeds the mean by about sd·sqrt(2 ln P) (Theorem 3.1: c'(alpha)·sqrt(2 alpha log P) for q = 1), which predicts eta = {:.4}",
                normal_eta(pt)
            ),
            Regime::SmallQ => unreachable!("a bound"),
        })
    } else {
        None
    };
    let _ = d;
    PointReport {
        alpha: pt.alpha,
        q: pt.q,
        pes: pt.pes,
        degree: pt.cost.degree(),
        cost: pt.cost.to_string(),
        assignment: pt.assignment,
        trials,
        eta_measured: est.eta,
        eta_ci: est.ci,
        eta_predicted: pred,
        predicted_is_bound: bound,
        regime,
        regime_statement: regime.statement(),
        x: pt.x(),
        gamma: model::gamma(pt.x()),
        b,
        eta_b,
        eta_exact: exact,
        exact_within_ci: exact.map(|e| (e - est.eta).abs() <= est.ci + 1e-3),
        why: why.map(|w| {
            if exact.is_none() && pt.assignment == Assignment::Multiple {
                format!("{w} (the exact law was too large to compute at this point)")
            } else {
                w
            }
        }),
    }
}

fn opt(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.4}"))
}

fn poisson(plan: &ScatterPlan, points: &[Point], trials: u64) -> Result<(), Failure> {
    let reports: Vec<PointReport> = points
        .iter()
        .enumerate()
        .map(|(i, pt)| point(pt, trials, montecarlo::mix(plan.seed ^ (i as u64) << 32)))
        .collect();
    if plan.out.json {
        match &reports[..] {
            [one] => output::print_json(one)?,
            many => output::print_json(&serde_json::json!({ "points": many }))?,
        }
    } else if let [r] = &reports[..] {
        println!(
            "scatter: P = {}, q = {}, alpha = {}, c(X) = {} (degree {}), {} assignment, {} trials",
            r.pes,
            r.q,
            r.alpha,
            r.cost,
            r.degree,
            r.assignment.name(),
            r.trials
        );
        println!(
            "regime:        {} ({}), x = alpha q^(1/d) / ln P = {:.4}",
            r.regime.name(),
            r.regime_statement,
            r.x
        );
        println!(
            "eta measured:  {:.4} ± {:.4} (95 % CI, Monte Carlo)",
            r.eta_measured, r.eta_ci
        );
        println!(
            "eta exact:     {} (finite P, from the exact law of a PE's load{}){}",
            opt(r.eta_exact),
            if r.assignment == Assignment::RandomPlacement {
                ", Poissonized"
            } else {
                ""
            },
            match r.exact_within_ci {
                Some(true) => ", measured within the CI",
                Some(false) => ", measured OUTSIDE the CI",
                None => "",
            }
        );
        println!(
            "eta predicted: {:.4} (the paper's asymptotic {})",
            r.eta_predicted,
            if r.predicted_is_bound {
                "lower bound"
            } else {
                "value"
            }
        );
        println!(
            "b(alpha q^(1/d), P) = {}: q c*(alpha) / c(b) = {};  gamma(x) = {:.4}",
            r.b.map_or("-".into(), |b| b.to_string()),
            opt(r.eta_b),
            r.gamma
        );
        if let Some(w) = &r.why {
            println!("why: {w}");
        }
    } else {
        println!(
            "{:>7} {:>6} {:>6} {:>2} {:>9} {:>9} {:>8} {:>8} {:>8} {:>10}",
            "P", "q", "alpha", "d", "measured", "±ci", "exact", "b-form", "paper", "regime"
        );
        for r in &reports {
            println!(
                "{:>7} {:>6} {:>6} {:>2} {:>9.4} {:>9.4} {:>8} {:>8} {:>7.4}{} {:>10}",
                r.pes,
                r.q,
                r.alpha,
                r.degree,
                r.eta_measured,
                r.eta_ci,
                opt(r.eta_exact),
                opt(r.eta_b),
                r.eta_predicted,
                if r.predicted_is_bound { "≥" } else { " " },
                r.regime.name()
            );
        }
    }
    if let Some(path) = &plan.svg {
        draw_eta(path, &reports)
            .map_err(|e| Failure::run(format!("cannot draw {}: {e}", path.display())))?;
        plan.out
            .notes()
            .note(format_args!("wrote {}", path.display()));
    }
    Ok(())
}

/// η against q, one colour per (P, d, α): measured (points with CI bars), exact (solid),
/// the paper's prediction (dashed).
/// The x axis of the η plot: q on a log scale from a little below the smallest q to a little
/// above the largest (no point on the frame), labelled at the q values measured, as whole
/// numbers, thinned so that neighbouring labels stay at least 60 pixels apart.
fn q_axis(reports: &[PointReport]) -> (std::ops::Range<f64>, Vec<f64>) {
    let mut qs: Vec<u64> = reports.iter().map(|r| r.q).collect();
    qs.sort_unstable();
    qs.dedup();
    let (lo, hi) = (qs[0] as f64, qs[qs.len() - 1] as f64);
    // A margin of 4 % of the span on each side, and at least a factor 1.2.
    let margin = (hi / lo).powf(0.04).max(1.2);
    let range = lo / margin..hi * margin;
    // The plot is about 900 pixels wide: 60 pixels are this share of the log span.
    let step = (range.end / range.start).ln() * 60.0 / 900.0;
    let mut keys: Vec<f64> = Vec::new();
    for &q in &qs {
        let q = q as f64;
        if keys.last().is_none_or(|&k| (q / k).ln() >= step) {
            keys.push(q);
        }
    }
    // The largest q is always labelled (in place of a neighbour too close to it).
    if keys.last() != Some(&hi) {
        if keys.last().is_some_and(|&k| (hi / k).ln() < step) && keys.len() > 1 {
            keys.pop();
        }
        keys.push(hi);
    }
    (range, keys)
}

fn draw_eta(path: &Path, reports: &[PointReport]) -> Result<(), String> {
    plot::register_font();
    let axis = q_axis(reports);
    let mut groups: Vec<(u64, u32, f64)> = Vec::new();
    for r in reports {
        let key = (r.pes, r.degree, r.alpha);
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    if path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
        == Some("png")
    {
        eta_on(
            BitMapBackend::new(path, (1000, 700)).into_drawing_area(),
            reports,
            &groups,
            axis.clone(),
        )
    } else {
        eta_on(
            SVGBackend::new(path, (1000, 700)).into_drawing_area(),
            reports,
            &groups,
            axis,
        )
    }
}

fn eta_on<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    reports: &[PointReport],
    groups: &[(u64, u32, f64)],
    (range, keys): (std::ops::Range<f64>, Vec<f64>),
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let first = &reports[0];
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "paper 003: eta vs q ({}, c(X) = {} family, {} trials/point)",
                first.assignment.name(),
                first.cost,
                first.trials
            ),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(range.log_scale().with_key_points(keys), 0f64..1.02f64)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_label_formatter(&|q| format!("{}", q.round() as u64))
        .x_desc("q (subproblems per PE, log scale)")
        .y_desc("eta = E[avg load] / E[max load]")
        .draw()
        .map_err(e)?;
    for (gi, &(p, d, a)) in groups.iter().enumerate() {
        let colour = Palette99::pick(gi).to_rgba();
        let rows: Vec<&PointReport> = reports
            .iter()
            .filter(|r| (r.pes, r.degree, r.alpha) == (p, d, a))
            .collect();
        let exact: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| Some((r.q as f64, r.eta_exact?)))
            .collect();
        chart
            .draw_series(LineSeries::new(exact, colour.stroke_width(2)))
            .map_err(e)?
            .label(format!(
                "P={p} d={d} alpha={a}: exact (line), measured (dots), paper (dashed)"
            ))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(rows.iter().map(|r| {
                PathElement::new(
                    vec![
                        (r.q as f64, (r.eta_measured - r.eta_ci).max(0.0)),
                        (r.q as f64, (r.eta_measured + r.eta_ci).min(1.02)),
                    ],
                    colour.stroke_width(1),
                )
            }))
            .map_err(e)?;
        chart
            .draw_series(
                rows.iter()
                    .map(|r| Circle::new((r.q as f64, r.eta_measured), 3, colour.filled())),
            )
            .map_err(e)?;
        chart
            .draw_series(DashedLineSeries::new(
                rows.iter().map(|r| (r.q as f64, r.eta_predicted)),
                6,
                4,
                colour.stroke_width(1),
            ))
            .map_err(e)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .label_font(("sans-serif", 12))
        .draw()
        .map_err(e)?;
    root.present().map_err(e)
}

/// One instance of `scatter tail`.
#[derive(Debug, Clone, Serialize)]
pub struct TailReport {
    pub sizes: Sizes,
    pub pes: u64,
    pub epsilon: f64,
    pub jobs: u64,
    /// T/t̂.
    pub t_over_tmax: f64,
    pub bounds: Bounds,
    pub placements: Vec<PlacementTail>,
    /// Uniform and heavy sizes: Theorem 14.1's comparison, ⌈T/t̂⌉ jobs of size t̂ placed at
    /// random (its E\[L_max\]/(T/P) is no smaller than the instance's).
    pub theorem14_1_adversary: Option<PlacementTail>,
    /// Random permutation at least as good as random mapping (tail and mean, within noise).
    pub permutation_no_worse: bool,
}

fn tail_point(
    inst: &Instance,
    sizes: Sizes,
    pes: u64,
    epsilon: f64,
    trials: u64,
    seed: u64,
) -> TailReport {
    let ratio = inst.total / inst.t_max;
    let placements: Vec<PlacementTail> = Placement::ALL
        .iter()
        .map(|&pl| adversary::measure(inst, pes, epsilon, pl, trials, seed))
        .collect();
    let theorem14_1_adversary = (sizes != Sizes::Adversarial).then(|| {
        let k = ratio.ceil() as u64;
        let adv = Instance::adversarial(k, inst.jobs.max(k), pes);
        adversary::measure(&adv, pes, epsilon, Placement::Random, trials, seed ^ 0xA5)
    });
    let (r, pm) = (&placements[0], &placements[1]);
    let permutation_no_worse =
        pm.tail_ci.0 <= r.tail_ci.1 && pm.mean_max_over_avg <= r.mean_max_over_avg * 1.001;
    TailReport {
        sizes,
        pes,
        epsilon,
        jobs: inst.jobs,
        t_over_tmax: ratio,
        bounds: adversary::bounds(ratio, pes, epsilon),
        placements,
        theorem14_1_adversary,
        permutation_no_worse,
    }
}

fn tail(
    plan: &ScatterPlan,
    sizes: Sizes,
    pes: u64,
    cs: &[f64],
    jobs: Option<u64>,
    epsilon: f64,
    trials: u64,
) -> Result<(), Failure> {
    let p = pes as f64;
    let mut reports = Vec::new();
    if sizes == Sizes::Adversarial {
        for (i, &c) in cs.iter().enumerate() {
            let k = (c * p * p.ln()).ceil() as u64;
            let m = jobs.unwrap_or_else(|| (4 * k).div_ceil(pes) * pes);
            let inst = Instance::adversarial(k, m, pes);
            reports.push(tail_point(
                &inst,
                sizes,
                pes,
                epsilon,
                trials,
                montecarlo::mix(plan.seed + i as u64),
            ));
        }
    } else {
        let inst = Instance::random(sizes, jobs.unwrap_or(64 * pes), plan.seed);
        reports.push(tail_point(
            &inst,
            sizes,
            pes,
            epsilon,
            trials,
            montecarlo::mix(plan.seed),
        ));
    }
    if plan.out.json {
        match &reports[..] {
            [one] => output::print_json(one)?,
            many => output::print_json(&serde_json::json!({ "points": many }))?,
        }
    } else {
        for r in &reports {
            let b = &r.bounds;
            println!(
                "scatter tail: {} sizes, P = {}, m = {} jobs, T/t̂ = {:.1} = c·P·ln P with c = {:.3}, ε = {}",
                r.sizes.name(), r.pes, r.jobs, r.t_over_tmax, b.c, r.epsilon
            );
            println!(
                "  Theorem 14.1: T/t̂ ≥ (c/ε²)·P·log P holds with c = {:.3};  bounds on P[L_max > (1+ε)T/P]: Theorem 2 as stated P·exp(−ε²μ/2) = {:.3e}, Chernoff {:.3e}, binomial union {:.3e} (μ = {:.2})",
                b.c_14_1, b.theorem2, b.chernoff, b.binomial_union, b.mu
            );
            for t in r.placements.iter().chain(&r.theorem14_1_adversary) {
                let name = if r
                    .theorem14_1_adversary
                    .as_ref()
                    .is_some_and(|a| std::ptr::eq(a, t))
                {
                    "Thm 14.1 adversary (random)".to_string()
                } else {
                    t.placement.name().to_string()
                };
                println!(
                    "  {:<28} P[tail] = {:.4} [{:.4}, {:.4}] over {} placements; E[L_max]/(T/P) = {:.4}",
                    name, t.tail, t.tail_ci.0, t.tail_ci.1, t.trials, t.mean_max_over_avg
                );
            }
            println!(
                "  random permutation no worse than random mapping: {}",
                if r.permutation_no_worse { "yes" } else { "NO" }
            );
        }
    }
    if let Some(path) = &plan.svg {
        draw_tail(path, &reports)
            .map_err(|e| Failure::run(format!("cannot draw {}: {e}", path.display())))?;
        plan.out
            .notes()
            .note(format_args!("wrote {}", path.display()));
    }
    Ok(())
}

/// A curve of the tail picture: its value at one point.
type TailValue = Box<dyn Fn(&TailReport) -> f64>;

/// The tail against c: the three placements measured, Theorem 2's bound, Chernoff, union.
fn draw_tail(path: &Path, reports: &[TailReport]) -> Result<(), String> {
    plot::register_font();
    let cmax = reports.iter().map(|r| r.bounds.c).fold(0.0, f64::max) * 1.05;
    let cmin = reports
        .iter()
        .map(|r| r.bounds.c)
        .fold(f64::INFINITY, f64::min)
        * 0.95;
    if path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
        == Some("png")
    {
        tail_on(
            BitMapBackend::new(path, (1000, 700)).into_drawing_area(),
            reports,
            cmin,
            cmax,
        )
    } else {
        tail_on(
            SVGBackend::new(path, (1000, 700)).into_drawing_area(),
            reports,
            cmin,
            cmax,
        )
    }
}

fn tail_on<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    reports: &[TailReport],
    cmin: f64,
    cmax: f64,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let r0 = &reports[0];
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "P[L_max > (1+eps) T/P], {} sizes, P = {}, eps = {}, {} placements each",
                r0.sizes.name(),
                r0.pes,
                r0.epsilon,
                r0.placements[0].trials
            ),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(cmin..cmax.max(cmin + 1e-9), 0f64..1.02f64)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("c = T / (t_max P ln P)")
        .y_desc("probability")
        .draw()
        .map_err(e)?;
    let series: Vec<(String, TailValue, RGBAColor, bool)> = vec![
        (
            "random mapping (measured)".into(),
            Box::new(|r: &TailReport| r.placements[0].tail),
            Palette99::pick(0).to_rgba(),
            false,
        ),
        (
            "random permutation (measured)".into(),
            Box::new(|r: &TailReport| r.placements[1].tail),
            Palette99::pick(1).to_rgba(),
            false,
        ),
        (
            "round-robin, adversarial order".into(),
            Box::new(|r: &TailReport| r.placements[2].tail),
            Palette99::pick(2).to_rgba(),
            false,
        ),
        (
            "Theorem 2 as stated: P exp(-eps^2 mu/2)".into(),
            Box::new(|r: &TailReport| r.bounds.theorem2),
            BLACK.to_rgba(),
            true,
        ),
        (
            "Chernoff bound".into(),
            Box::new(|r: &TailReport| r.bounds.chernoff),
            Palette99::pick(4).to_rgba(),
            true,
        ),
        (
            "binomial union bound".into(),
            Box::new(|r: &TailReport| r.bounds.binomial_union),
            Palette99::pick(5).to_rgba(),
            true,
        ),
    ];
    for (name, f, colour, dashed) in series {
        let pts: Vec<(f64, f64)> = reports.iter().map(|r| (r.bounds.c, f(r))).collect();
        if dashed {
            chart
                .draw_series(DashedLineSeries::new(pts, 6, 4, colour.stroke_width(2)))
                .map_err(e)?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        } else {
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(e)?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, colour.filled())))
                .map_err(e)?;
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 12))
        .draw()
        .map_err(e)?;
    root.present().map_err(e)
}

/// An instance's measured η over its randomly scattered data (work units / (P × the busiest
/// PE's units)) beside paper 003's prediction for the balancer's assignment, and the paper's
/// Ω(P log² P) conclusion.
pub fn scattered_eta(
    data: &treesplit_apps::instance::Scattered,
    balancer: treesplit::BalancerKind,
    totals: &treesplit::stats::Totals,
    pes: usize,
) -> String {
    use treesplit::BalancerKind;
    let measured = totals.work_units as f64 / (pes as f64 * totals.max_pe_work_units.max(1) as f64);
    let p = pes.max(2) as u64;
    let alpha = data.alpha;
    let assignment = match balancer {
        BalancerKind::Block => Some(Assignment::Multiple),
        BalancerKind::RandomAssignment => Some(Assignment::RandomPlacement),
        _ => None,
    };
    let lnp = (p as f64).ln();
    let items = data.items as f64 / (p as f64 * lnp * lnp);
    let tail = format!(
        "N = {:.2}·P·ln²P keys (Corollary 5.2: eta -> 1 needs N = omega(P log² P) at a fixed load factor)",
        items
    );
    match assignment.filter(|_| alpha > 0.0 && pes > 1) {
        Some(assignment) => {
            let pt = Point {
                alpha,
                q: data.q,
                pes: p,
                cost: model::Cost::Hashtable,
                assignment,
            };
            let (pred, bound) = model::predicted_eta(&pt);
            format!(
                "eta measured {measured:.4} (work units / (P × busiest PE)); paper 003 for the {} assignment at alpha = {alpha:.3}, q = {}: exact finite-P {}, {} {pred:.4} ({}); {tail}",
                assignment.name(),
                data.q,
                opt(model::exact_eta(&pt)),
                if bound { "asymptotic bound" } else { "asymptotic" },
                Regime::of(&pt).name()
            )
        }
        None => format!(
            "eta measured {measured:.4} (work units / (P × busiest PE)); paper 003's prediction is for the static block (exactly q per PE) and random assignments, not {balancer}; {tail}"
        ),
    }
}
