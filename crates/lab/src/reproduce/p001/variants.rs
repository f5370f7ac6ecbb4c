//! Paper 001 §14.3's hierarchical master–worker (an overall master deals bundles to
//! submasters, which deal smaller bundles on) against the flat one: weak scaling with one job
//! per request, the growth of T_par/(T/(P−1)) with P judged by its bootstrap interval.

use super::super::{
    bootstrap_ci, loglog_slope, Control, Ctx, Finding, Plot, Premise, Series, Table, Verdict,
};
use super::jobs::{simulate_jobs, JobList};
use super::table::{table_sim, T_MAX};
use rayon::prelude::*;
use treesplit::config::{BundleRule, DealOrder};
use treesplit::{Balancer, Config, Jobs, SimConfig};

/// T_par (the end of the last work unit) and T of `balancer` on `m` jobs of 1..=t̂ units
/// (sizes from `sizes`) on `p` PEs of `machine`.
pub(super) fn jobs_run(
    balancer: Balancer,
    m: u64,
    p: usize,
    sizes: u64,
    machine: &SimConfig,
) -> Result<(f64, u64), String> {
    let root = JobList::new(m, T_MAX, sizes, false);
    let total = root.left;
    let config = Config::new(p).balancer(balancer).delta_t(16);
    let r = simulate_jobs(root, &config, machine, total)?;
    Ok((r.last_work_end as f64, total))
}

fn depth(m: u64) -> Jobs {
    Jobs::Depth(64 - (m - 1).leading_zeros())
}

/// Master–worker dealing one job per request: flat (`fanout` None) or hierarchical with
/// groups of `fanout` PEs (0: ⌈√P⌉).
fn mw(m: u64, fanout: Option<u64>) -> Balancer {
    let bundle = BundleRule::Fixed(1);
    match fanout {
        None => Balancer::MasterWorker {
            jobs: depth(m),
            bundle,
            order: DealOrder::InOrder,
        },
        Some(fanout) => Balancer::HierarchicalMasterWorker {
            jobs: depth(m),
            bundle,
            order: DealOrder::InOrder,
            fanout,
        },
    }
}

/// The exponent threshold of the hierarchical claim: halfway between the hierarchy's 1/2 (a
/// server of ⌈√P⌉ PEs deals ∝ m/√P jobs) and the flat master's 1 (it deals all m).
const SPLIT: f64 = 0.75;

/// The three schemes of the hierarchical claim: (name, fan-out).
const SCHEMES: [(&str, Option<u64>); 3] = [
    ("hierarchical, fan-out ⌈√P⌉", Some(0)),
    ("flat", None),
    ("hierarchical, fan-out 2 (control)", Some(2)),
];

/// Per scheme: per P, the ratio T_par/(T/(P−1)) of each instance.
type Ratios = Vec<Vec<Vec<f64>>>;

/// The exponent of the mean ratio against P and its 95 % bootstrap interval over instances.
fn exponent(ps: &[usize], r: &[Vec<f64>]) -> (f64, f64, f64) {
    let at = |pick: &[usize]| -> f64 {
        let pts: Vec<(f64, f64)> = ps
            .iter()
            .zip(r)
            .map(|(&p, v)| {
                (
                    p as f64,
                    pick.iter().map(|&i| v[i]).sum::<f64>() / pick.len() as f64,
                )
            })
            .collect();
        loglog_slope(&pts)
    };
    let n = r[0].len();
    let all: Vec<usize> = (0..n).collect();
    let (lo, hi) = bootstrap_ci(n, 2000, at);
    (at(&all), lo, hi)
}

/// §14.3: the hierarchical master–worker is more scalable than the flat one.
pub(super) fn hierarchical(ctx: &Ctx) -> Result<Finding, String> {
    let ps: Vec<usize> = ctx.pick(vec![16, 64, 256], vec![16, 64, 256, 1024]);
    let seeds = ctx.pick(4u64, 12);
    let cases: Vec<(usize, usize, u64)> = (0..SCHEMES.len())
        .flat_map(|k| {
            ps.iter()
                .flat_map(move |&p| (1..=seeds).map(move |s| (k, p, s)))
        })
        .collect();
    let runs: Vec<Result<f64, String>> = cases
        .par_iter()
        .map(|&(k, p, s)| {
            let m = 64 * p as u64;
            let (t, w) = jobs_run(mw(m, SCHEMES[k].1), m, p, 1000 + s, &table_sim())?;
            Ok(t * (p - 1) as f64 / w as f64)
        })
        .collect();
    let mut ratios: Ratios = vec![vec![Vec::new(); ps.len()]; SCHEMES.len()];
    for (&(k, p, _), r) in cases.iter().zip(runs) {
        let i = ps.iter().position(|&q| q == p).expect("a P of the grid");
        ratios[k][i].push(r?);
    }
    let mut table = Table::new(&[
        "scheme",
        "P",
        "m = 64·P",
        "T_par/(T/(P−1)) (mean over instances)",
        "smallest",
        "largest",
    ]);
    let mut series = Vec::new();
    for (k, (name, _)) in SCHEMES.iter().enumerate() {
        let mut pts = Vec::new();
        for (i, &p) in ps.iter().enumerate() {
            let v = &ratios[k][i];
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            pts.push((p as f64, mean));
            table.row(vec![
                (*name).into(),
                p.into(),
                (64 * p).into(),
                mean.into(),
                v.iter().copied().fold(f64::INFINITY, f64::min).into(),
                v.iter().copied().fold(0.0, f64::max).into(),
            ]);
        }
        series.push(Series::points(*name, pts));
    }
    let (e, lo, hi) = exponent(&ps, &ratios[0]);
    let (fe, flo, fhi) = exponent(&ps, &ratios[1]);
    let (ce, clo, chi) = exponent(&ps, &ratios[2]);
    let flat_smallest = ratios[1][0].iter().copied().fold(f64::INFINITY, f64::min);
    Ok(Finding {
        prediction: format!("one job per request, weak scaling (m = 64·P jobs of 1..{T_MAX} units): the flat master deals all m jobs, T_par ∝ m and T_par/(T/(P−1)) ∝ P (exponent 1); with groups of ⌈√P⌉ PEs every server deals ∝ m/√P jobs or bundles, T_par/(T/(P−1)) ∝ √P (exponent 1/2); PASS iff the hierarchy's exponent has its 95 % interval below {SPLIT}"),
        measured: format!("exponent of T_par/(T/(P−1)) against P, hierarchical (fan-out ⌈√P⌉): {e:.3}, 95 % bootstrap interval {lo:.3} … {hi:.3}; flat: {fe:.3} ({flo:.3} … {fhi:.3})"),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "T_par/(T/(P−1))".into(),
            log_x: true,
            log_y: true,
            series,
        }),
        verdict: Verdict::of(hi < SPLIT),
        remark: String::new(),
        premises_measured: vec![
            Premise::new(
                "the regime the claim is about: the flat scheme does not scale (its master's sending time decides T_par: exponent's interval above the threshold, T_par ≥ 2·T/(P−1) already at the smallest P)",
                format!("flat exponent interval {flo:.3} … {fhi:.3}; smallest flat T_par/(T/(P−1)) at P = {}: {flat_smallest:.2}", ps[0]),
                flo > SPLIT && flat_smallest >= 2.0,
            ),
        ],
        control: Some(Control {
            system: "a hierarchy that divides nothing: fan-out 2, every submaster serving one worker, so PE 0 still serves about P/2 clients one job each".into(),
            measured: format!("exponent {ce:.3}, 95 % bootstrap interval {clo:.3} … {chi:.3}"),
            verdict: Verdict::of(chi < SPLIT),
        }),
        seeds: Some(seeds as usize),
    })
}
