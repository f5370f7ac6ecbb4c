//! Paper 001 §14.4 and §14.5: Theorem 14.1 (random mapping of jobs to PEs: the worst case
//! and the 1/ε² law, Monte Carlo on the scatter model) and Theorem 14.2 (random shift's
//! execution time bound, in the simulator).

use super::super::{loglog_slope, mean_ci, Cell, Ctx, Finding, Plot, Series, Table, Verdict};
use super::table::latency_sim;
use crate::scatter::adversary::{measure, Instance, Placement, Sizes};
use rayon::prelude::*;
use treesplit::{simulate, Balancer, Config, PollingOptions};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

pub(super) fn thm14_1(ctx: &Ctx) -> Result<Finding, String> {
    let trials = ctx.pick(400, 4000);
    let mut table = Table::new(&[
        "p",
        "T/t̂",
        "E[ℓ̂]/(T/p) uniform sizes",
        "E[ℓ̂]/(T/p) ⌈T/t̂⌉ jobs of size t̂",
        "uniform ≤ unit + 0.01",
    ]);
    let mut ok = true;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &p in &[16u64, 64, 256] {
        for &k in &[4u64, 16, 64] {
            let m = 2 * k * p;
            let inst = Instance::random(Sizes::Uniform, m, 11 + p + k);
            let ratio = inst.total / inst.t_max;
            let heavy = Instance::adversarial(ratio.ceil() as u64, ratio.ceil() as u64, p);
            let u = measure(&inst, p, 0.1, Placement::Random, trials, 3).mean_max_over_avg;
            let v = measure(&heavy, p, 0.1, Placement::Random, trials, 5).mean_max_over_avg;
            let holds = u <= v + 0.01;
            ok &= holds;
            a.push((ratio / p as f64, u));
            b.push((ratio / p as f64, v));
            table.row(vec![
                p.into(),
                ratio.into(),
                u.into(),
                v.into(),
                holds.into(),
            ]);
        }
    }
    Ok(Finding {
        prediction: "E[ℓ̂] for m jobs mapped to random PEs is no larger than for ⌈T/t̂⌉ jobs of size t̂ (same T)".into(),
        measured: format!("{} of {} comparisons hold (Monte Carlo, {trials} placements each)", table.rows.iter().filter(|r| matches!(&r[4], Cell::Text(t) if t == "yes")).count(), table.rows.len()),
        table,
        plot: Some(Plot {
            x: "T/(t̂·p)".into(), y: "E[ℓ̂]/(T/p)".into(), log_x: true, log_y: false,
            series: vec![Series::points("uniform sizes", a), Series::points("⌈T/t̂⌉ jobs of size t̂", b)],
        }),
        verdict: Verdict::of(ok),
        remark: String::new(),
        ..Finding::default()
    })
}

pub(super) fn thm14_1_eps(ctx: &Ctx) -> Result<Finding, String> {
    let trials = ctx.pick(300, 3000);
    let p = 64u64;
    let ln_p = (p as f64).ln();
    let mut table = Table::new(&[
        "ε",
        "smallest c on the grid with E[ℓ̂] ≤ (1+ε)T/p",
        "T/t̂ = c·p·ln p/ε²",
    ]);
    let mut cs = Vec::new();
    let mut pts = Vec::new();
    for &eps in &[0.4f64, 0.2, 0.1] {
        let grid: Vec<f64> = (0..16).map(|i| 0.125 * 2f64.powf(i as f64 / 2.0)).collect();
        let mut found = None;
        for &c in &grid {
            let k = (c * p as f64 * ln_p / (eps * eps)).ceil() as u64;
            let inst = Instance::adversarial(k, k, p);
            let r = measure(&inst, p, eps, Placement::Random, trials, 9).mean_max_over_avg;
            if r <= 1.0 + eps {
                found = Some((c, k));
                break;
            }
        }
        match found {
            Some((c, k)) => {
                cs.push(c);
                pts.push((1.0 / eps, k as f64));
                table.row(vec![eps.into(), c.into(), k.into()]);
            }
            None => table.row(vec![eps.into(), "> grid".into(), "—".into()]),
        }
    }
    let spread =
        cs.iter().copied().fold(0.0, f64::max) / cs.iter().copied().fold(f64::INFINITY, f64::min);
    let verdict = if cs.len() < 3 {
        Verdict::Inconclusive
    } else {
        Verdict::of(spread <= 2.5)
    };
    Ok(Finding {
        prediction: "E[ℓ̂] ≤ (1+ε)T/p once T/t̂ ≥ (c/ε²)·p·log p with one constant c: the T/t̂ needed grows as 1/ε² (p = 64, unit jobs, the worst case)".into(),
        measured: format!("the constant c needed at ε = 0.4, 0.2, 0.1: {cs:?} (max/min {spread:.2}); exponent of 1/ε in the needed T/t̂: {:.2}", loglog_slope(&pts)),
        table,
        plot: Some(Plot { x: "1/ε".into(), y: "T/t̂ needed".into(), log_x: true, log_y: true, series: vec![Series::points("measured", pts)] }),
        verdict,
        remark: String::new(),
        ..Finding::default()
    })
}

pub(super) fn thm14_2(ctx: &Ctx) -> Result<Finding, String> {
    let seeds = ctx.pick(8u64, 40);
    let ps: Vec<usize> = ctx.pick(vec![16, 64, 256], vec![16, 64, 256, 1024, 4096]);
    let jobs: Vec<(usize, u64)> = ps
        .iter()
        .flat_map(|&p| (1..=seeds).map(move |s| (p, s)))
        .collect();
    let runs: Vec<Result<(usize, f64, f64), String>> = jobs
        .par_iter()
        .map(|&(p, seed)| {
            let params = SyntheticParams {
                work: 2048 * p as u64,
                alpha: 0.5,
                atomic: 1,
                rule: SplitRule::Random,
                spin: 1,
                seed,
            };
            let config = Config::new(p)
                .balancer(Balancer::RandomShift {
                    polling: PollingOptions::default(),
                    round: 50,
                })
                .delta_t(8)
                .seed(seed);

            let r = simulate(Synthetic::new(params)?, &config, &latency_sim())
                .map_err(|e| e.to_string())?
                .into_report();
            Ok((p, r.report.t_par, r.theorem_14_2.unwrap_or(f64::NAN) + 1.0))
        })
        .collect();
    let mut table = Table::new(&[
        "P",
        "seeds",
        "T_par mean",
        "T_par max",
        "bound T_seq/P + (3ch+3)Δ + t_atomic",
        "violations",
    ]);
    let mut violations = 0usize;
    let (mut m, mut bd) = (Vec::new(), Vec::new());
    let runs: Vec<(usize, f64, f64)> = runs.into_iter().collect::<Result<_, _>>()?;
    for &p in &ps {
        let these: Vec<&(usize, f64, f64)> = runs.iter().filter(|r| r.0 == p).collect();
        let v = these.iter().filter(|r| r.1 > r.2).count();
        violations += v;
        let t: Vec<f64> = these.iter().map(|r| r.1).collect();
        let (mean, ci) = mean_ci(&t);
        let bound = these.iter().map(|r| r.2).fold(f64::INFINITY, f64::min);
        m.push((p as f64, mean, ci));
        bd.push((p as f64, bound));
        table.row(vec![
            p.into(),
            these.len().into(),
            mean.into(),
            t.iter().copied().fold(0.0, f64::max).into(),
            bound.into(),
            v.into(),
        ]);
    }
    let allowed: f64 = ps.iter().map(|&p| seeds as f64 / p as f64).sum();
    Ok(Finding {
        prediction: "T_par ≤ T_seq/P + (3ch+3)Δ + t_atomic with probability ≥ 1 − 1/P (d = 1, c = 2 + 4 ln 2, Δ = 50, W = 2048·P, h = log₂ W)".into(),
        measured: format!("{violations} violations in {} runs (allowed by the probability: {allowed:.2})", runs.len()),
        table,
        plot: Some(Plot {
            x: "P".into(), y: "T_par".into(), log_x: true, log_y: true,
            series: vec![
                Series::points("measured mean", m.iter().map(|x| (x.0, x.1)).collect()).with_ci(m.iter().map(|x| x.2).collect()),
                Series::line("Theorem 14.2 bound", bd),
            ],
        }),
        verdict: Verdict::of(violations as f64 <= allowed.floor()),
        remark: String::new(),
        ..Finding::default()
    })
}
