//! Table 14.1 of paper 001: for prefix sum, master–worker, randomized static and work
//! stealing, the smallest total work T that reaches T_par ≤ (1+ε)·T/p (T/(p−1) for
//! master–worker, whose master works no jobs) on the table's machine, swept over p and ε,
//! per seed (each seed its own job sizes), with the exponents of p and of 1/ε fitted and their
//! bootstrap intervals over seeds judged against the table's formulas; another row's
//! algorithm, through the same criterion, is the control.

use super::jobs::{simulate_jobs, JobList};
use crate::reproduce::{
    bootstrap_ci, loglog_slope, Cell, Control, Ctx, Finding, Plot, Premise, Series, Table, Verdict,
};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};
use treesplit::config::{BundleRule, StaticPermutation};
use treesplit::machine::sim::{Delay, MessageModel, Topology};
use treesplit::{Balancer, Config, Jobs, PollingOptions, SimConfig};

/// The machine of the Table 14.1 experiments (and of every job experiment of this paper):
/// a crossbar, latency T_rout = 10, the sender and the receiver each busy 5 per message
/// (t_send + t_recv = T_rout, paper 000 §1.1's blocking messages), so a message's startup
/// α = 20; no random delay, no message lengths charged. Cutting a job costs nothing
/// (T_split = 0): the table takes the jobs as a list that every PE indexes directly, while a
/// static balancer here cuts its jobs from the [`JobList`] by splitting, 2 to 6 splits per
/// job (at T_split = 1 that alone kept randomized static above 1.4·T/p at every m, whatever
/// ε). Every field is set here, so the experiments do not depend on the simulator's defaults.
pub(super) fn table_sim() -> SimConfig {
    SimConfig {
        topology: Topology::Crossbar,
        t_rout: 10,
        t_hop: None,
        t_split: 0,
        model: MessageModel::Blocking,
        t_send: Some(5),
        t_recv: Some(5),
        delay: Delay::None,
        length: None,
        slow: Vec::new(),
        slow_links: Vec::new(),
        timeline_limit: 0,
        ..SimConfig::default()
    }
}

/// The machine of Theorem 14.2's random shift runs: a crossbar with latency only (T_rout =
/// 10, T_split = 5, no sender or receiver overhead), so that a round of Δ = 50 covers a
/// request, a split and an answer as the theorem's Δ does.
pub(super) fn latency_sim() -> SimConfig {
    SimConfig {
        t_split: 5,
        model: MessageModel::LatencyOnly,
        t_send: Some(0),
        t_recv: Some(0),
        ..table_sim()
    }
}
pub(super) const ALPHA: f64 = 20.0;
pub(super) const T_MAX: u64 = 16;
const T_MEAN: f64 = 8.5;

/// The four algorithms of Table 14.1 (and the bundle rules of master–worker).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Algo {
    PrefixSum,
    MasterWorker(BundleKind),
    RandomStatic,
    WorkStealing,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum BundleKind {
    Sqrt,
    Adaptive,
    Fixed(u64),
}

impl Algo {
    fn balancer(self, m: u64) -> Balancer {
        let jobs = Jobs::Depth(64 - (m - 1).leading_zeros());
        match self {
            Algo::PrefixSum => Balancer::PrefixSum {
                jobs,
                splittable: true,
            },
            Algo::MasterWorker(b) => Balancer::MasterWorker {
                jobs,
                bundle: match b {
                    BundleKind::Sqrt => BundleRule::Sqrt {
                        startup: ALPHA,
                        max_job: T_MAX as f64,
                    },
                    BundleKind::Adaptive => BundleRule::Adaptive {
                        c: 2.0,
                        w_min: T_MAX,
                    },
                    BundleKind::Fixed(b) => BundleRule::Fixed(b),
                },
                order: treesplit::config::DealOrder::InOrder,
            },
            Algo::RandomStatic => Balancer::RandomStatic {
                jobs,
                permutation: StaticPermutation::Feistel,
            },
            Algo::WorkStealing => Balancer::RandomPolling {
                polling: PollingOptions::default(),
                locality: 0,
            },
        }
    }

    /// Table 14.1's T = Ω(…) for this algorithm (t̂/t̄ = 16/8.5).
    fn formula(self, p: f64, eps: f64) -> f64 {
        let lg = p.log2();
        match self {
            Algo::PrefixSum | Algo::WorkStealing => p / eps * (T_MAX as f64 + ALPHA * lg),
            Algo::MasterWorker(_) => p / eps * (ALPHA * p / eps) * (T_MAX as f64 / T_MEAN),
            Algo::RandomStatic => p / eps * (lg / eps) * T_MAX as f64,
        }
    }

    fn formula_text(self) -> &'static str {
        match self {
            Algo::PrefixSum | Algo::WorkStealing => "(p/ε)(t̂ + α log p)",
            Algo::MasterWorker(_) => "(p/ε)(αp/ε)(t̂/t̄)",
            Algo::RandomStatic => "(p/ε)(log p/ε)·t̂",
        }
    }

    /// The PEs that work jobs: all but the dedicated master for master–worker. The target
    /// is T_par ≤ (1+ε)·T/workers: with a master that works no jobs, T/(p−1) is the best any
    /// schedule reaches.
    pub(super) fn workers(self, p: usize) -> usize {
        match self {
            Algo::MasterWorker(_) if p > 1 => p - 1,
            _ => p,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Algo::PrefixSum => "prefix sum",
            Algo::MasterWorker(_) => "master–worker (√(αm/t̂) bundles)",
            Algo::RandomStatic => "randomized static",
            Algo::WorkStealing => "work stealing",
        }
    }
}

/// T_par of `algo` on `m` jobs (sizes seeded by 7) on `p` PEs: the end of the last work
/// unit (Table 14.1 ignores collecting the result), and T.
pub(super) fn job_run(algo: Algo, m: u64, p: usize, seed: u64) -> Result<(f64, u64), String> {
    job_run_sized(algo, m, p, seed, 7)
}

/// [`job_run`] on the job sizes drawn from `sizes`.
pub(super) fn job_run_sized(
    algo: Algo,
    m: u64,
    p: usize,
    seed: u64,
    sizes: u64,
) -> Result<(f64, u64), String> {
    let root = JobList::new(m, T_MAX, sizes, false);
    let total = root.left;
    let config = Config::new(p)
        .balancer(algo.balancer(m))
        .delta_t(16)
        .seed(seed);
    let r =
        simulate_jobs(root, &config, &table_sim(), total).map_err(|e| format!("{algo:?}: {e}"))?;
    Ok((r.last_work_end as f64, total))
}

/// The job counts tried: 2^k and 3·2^(k−1), from p up to `max`.
fn ladder(p: u64, max: u64) -> Vec<u64> {
    let mut v = Vec::new();
    let mut m = p.next_power_of_two();
    while m <= max {
        v.push(m);
        v.push(m / 2 * 3);
        m *= 2;
    }
    v
}

/// How many consecutive ladder points must reach the target before the first of them counts
/// as the smallest T that *guarantees* it (Table 14.1's "minimum required total work T …
/// to guarantee"): T_par/T is not monotone in m (bundle sizes and the cut positions round
/// differently from one m to the next), so one lucky m is not a guarantee.
const CONFIRM: usize = 3;

/// The first ladder point m ≥ `start` (with its T) from which `reach(m)` (whether the target
/// was reached, and T) holds at [`CONFIRM`] consecutive ladder points (fewer where the
/// ladder ends).
fn smallest_on(
    p: usize,
    max_m: u64,
    start: u64,
    reach: impl Fn(u64) -> Result<(bool, u64), String>,
) -> Result<Option<(u64, u64)>, String> {
    let mut first: Option<(u64, u64)> = None;
    let mut streak = 0;
    for m in ladder(p as u64, max_m).into_iter().filter(|&m| m >= start) {
        let (ok, total) = reach(m)?;
        if ok {
            first = first.or(Some((m, total)));
            streak += 1;
            if streak == CONFIRM {
                return Ok(first);
            }
        } else {
            first = None;
            streak = 0;
        }
    }
    Ok(first)
}

/// The smallest T on the ladder (from `start`) from which T_par ≤ (1+ε)·T/w holds for every
/// seed at [`CONFIRM`] consecutive ladder points (fewer where the ladder ends), w the PEs that
/// work jobs ([`Algo::workers`]).
pub(super) fn smallest_t(
    algo: Algo,
    p: usize,
    eps: f64,
    seeds: u64,
    max_m: u64,
    start: u64,
) -> Result<Option<(u64, u64)>, String> {
    smallest_on(p, max_m, start, |m| {
        let runs: Vec<Result<(f64, u64), String>> = (1..=seeds)
            .into_par_iter()
            .map(|s| job_run(algo, m, p, s))
            .collect();
        let mut ok = true;
        let mut total = 0;
        for r in runs {
            let (t_par, t) = r?;
            total = t;
            ok &= t_par <= (1.0 + eps) * t as f64 / algo.workers(p) as f64;
        }
        Ok((ok, total))
    })
}

/// One row's measurements: the smallest T per seed, ε and p (`None`: not reached within
/// the largest m). Seed s draws its own job sizes (the instance) and its own balancer seed,
/// so the deterministic rows vary over instances and the randomized ones over both.
pub(super) struct Sweep {
    ps: Vec<usize>,
    epss: Vec<f64>,
    max_m: u64,
    /// t[seed][ε index][p index].
    t: Vec<Vec<Vec<Option<f64>>>>,
}

/// The sweeps computed so far (a row's control is another row's sweep: each is run once).
static SWEEPS: Mutex<Vec<(bool, String, Arc<Sweep>)>> = Mutex::new(Vec::new());

/// The p, ε and seeds of the table's sweep, and the largest m tried. Master–worker's T grows
/// as p²/ε²: its full-sweep corner p = 256, ε = 1/8 needs about 4·10⁶ jobs (4 × the ≈ 10⁶ of
/// p = 128, ε = 1/8), beyond the other rows' 2²¹, so its ladder goes to 2²³ (its three
/// confirming points included); the criterion and its bands are the same for every row.
fn grid(ctx: &Ctx, algo: Algo) -> (Vec<usize>, Vec<f64>, usize, u64) {
    let full_max = match algo {
        Algo::MasterWorker(_) => 1 << 23,
        _ => 1 << 21,
    };
    (
        ctx.pick(vec![8, 16, 32, 64], vec![8, 16, 32, 64, 128, 256]),
        ctx.pick(vec![0.5, 0.25], vec![0.5, 0.25, 0.125]),
        ctx.pick(6, 12),
        ctx.pick(1 << 16, full_max),
    )
}

fn sweep(ctx: &Ctx, algo: Algo) -> Result<Arc<Sweep>, String> {
    let key = format!("{algo:?}");
    let mut cache = SWEEPS.lock().map_err(|e| e.to_string())?;
    if let Some((_, _, v)) = cache.iter().find(|(q, k, _)| *q == ctx.quick && *k == key) {
        return Ok(v.clone());
    }
    let (ps, epss, seeds, max_m) = grid(ctx, algo);
    let t: Vec<Result<Vec<Vec<Option<f64>>>, String>> = (1..=seeds as u64)
        .into_par_iter()
        .map(|s| {
            let mut by_eps: Vec<Vec<Option<f64>>> = Vec::new();
            for &eps in &epss {
                let mut row = Vec::new();
                for (i, &p) in ps.iter().enumerate() {
                    // A smaller ε needs at least the T a larger one needed at this p.
                    let start = by_eps.iter().filter_map(|r| r[i]).fold(0.0, f64::max);
                    let start_m = (start / T_MEAN * 0.7) as u64;
                    let r = smallest_on(p, max_m, start_m, |m| {
                        let (t_par, t) = job_run_sized(algo, m, p, s, 1000 + s)?;
                        Ok((t_par <= (1.0 + eps) * t as f64 / algo.workers(p) as f64, t))
                    })?;
                    row.push(r.map(|(_, t)| t as f64));
                }
                by_eps.push(row);
            }
            Ok(by_eps)
        })
        .collect();
    let v = Arc::new(Sweep {
        ps,
        epss,
        max_m,
        t: t.into_iter().collect::<Result<_, _>>()?,
    });
    cache.push((ctx.quick, key, v.clone()));
    Ok(v)
}

impl Sweep {
    /// The geometric mean of the smallest T over the seeds `pick` at (ε index, p index),
    /// `None` unless every picked seed reached the target there.
    fn geo(&self, pick: &[usize], e: usize, i: usize) -> Option<f64> {
        let mut s = 0.0;
        for &k in pick {
            s += self.t[k][e][i]?.ln();
        }
        Some((s / pick.len() as f64).exp())
    }

    /// The exponent of p (the log-log slope over p at each ε with ≥ 3 points, averaged over
    /// ε) and of 1/ε (the slope over ε at each p that reached every ε, averaged over p), on
    /// the seeds `pick`.
    fn exponents(&self, pick: &[usize]) -> (f64, f64) {
        let mut p_slopes = Vec::new();
        for e in 0..self.epss.len() {
            let pts: Vec<(f64, f64)> = (0..self.ps.len())
                .filter_map(|i| self.geo(pick, e, i).map(|t| (self.ps[i] as f64, t)))
                .collect();
            if pts.len() >= 3 {
                p_slopes.push(loglog_slope(&pts));
            }
        }
        let mut e_slopes = Vec::new();
        for i in 0..self.ps.len() {
            let pts: Vec<(f64, f64)> = (0..self.epss.len())
                .filter_map(|e| self.geo(pick, e, i).map(|t| (1.0 / self.epss[e], t)))
                .collect();
            if pts.len() == self.epss.len() && pts.len() >= 2 {
                e_slopes.push(loglog_slope(&pts));
            }
        }
        let mean = |v: &[f64]| {
            if v.is_empty() {
                f64::NAN
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            }
        };
        (mean(&p_slopes), mean(&e_slopes))
    }

    /// Point estimates and 95 % bootstrap intervals (over seeds) of both exponents.
    fn intervals(&self) -> Exps {
        let all: Vec<usize> = (0..self.t.len()).collect();
        let (p, e) = self.exponents(&all);
        Exps {
            p,
            e,
            p_ci: bootstrap_ci(all.len(), RESAMPLES, |k| self.exponents(k).0),
            e_ci: bootstrap_ci(all.len(), RESAMPLES, |k| self.exponents(k).1),
        }
    }

    /// Seeds that reached the target at every (p, ε).
    fn complete(&self) -> usize {
        self.t
            .iter()
            .filter(|s| s.iter().all(|r| r.iter().all(Option::is_some)))
            .count()
    }
}

const RESAMPLES: usize = 1000;

/// Exponents of p and 1/ε with their bootstrap intervals.
struct Exps {
    p: f64,
    e: f64,
    p_ci: (f64, f64),
    e_ci: (f64, f64),
}

/// The four rows.
const ROWS: [Algo; 4] = [
    Algo::PrefixSum,
    Algo::MasterWorker(BundleKind::Sqrt),
    Algo::RandomStatic,
    Algo::WorkStealing,
];

/// Two rows whose predicted exponents differ by less than this are the same row at the
/// resolution of the sweep (prefix sum's 1.28 and randomized static's 1.33 over p = 8…256).
const SAME: f64 = 0.25;

/// A row's predicted exponents of p and 1/ε over `ps` (the formula's local log-log slopes),
/// and the bands: half the distance to the nearest other row whose prediction differs by at
/// least [`SAME`], so that no exponent lies in the bands of two rows that predict apart.
fn predicted(algo: Algo, ps: &[usize], epss: &[f64]) -> ((f64, f64), (f64, f64)) {
    let pexp = |a: Algo| {
        let s: Vec<f64> = epss
            .iter()
            .map(|&e| {
                loglog_slope(
                    &ps.iter()
                        .map(|&p| (p as f64, a.formula(p as f64, e)))
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        s.iter().sum::<f64>() / s.len() as f64
    };
    let eexp = |a: Algo| {
        loglog_slope(
            &epss
                .iter()
                .map(|&e| (1.0 / e, a.formula(64.0, e)))
                .collect::<Vec<_>>(),
        )
    };
    let band = |f: &dyn Fn(Algo) -> f64| {
        let me = f(algo);
        let gap = ROWS
            .iter()
            .map(|&a| (f(a) - me).abs())
            .filter(|&d| d >= SAME)
            .fold(f64::INFINITY, f64::min);
        (me, gap / 2.0)
    };
    (band(&pexp), band(&eexp))
}

/// PASS iff both intervals lie inside their bands, FAIL iff either lies wholly outside its
/// band, else INCONCLUSIVE (the interval straddles a band's edge); the words say which.
fn judge_row(x: &Exps, (p, dp): (f64, f64), (e, de): (f64, f64)) -> (Verdict, String) {
    let inside = |(lo, hi): (f64, f64), c: f64, d: f64| lo >= c - d && hi <= c + d;
    let outside = |(lo, hi): (f64, f64), c: f64, d: f64| hi < c - d || lo > c + d;
    let text = format!(
        "exponent of p {:.2} (95 % CI {:.2}…{:.2}, band {:.2}…{:.2}); exponent of 1/ε {:.2} (95 % CI {:.2}…{:.2}, band {:.2}…{:.2})",
        x.p, x.p_ci.0, x.p_ci.1, p - dp, p + dp, x.e, x.e_ci.0, x.e_ci.1, e - de, e + de
    );
    let v = if !(x.p_ci.0.is_finite() && x.e_ci.0.is_finite()) {
        Verdict::Inconclusive
    } else if outside(x.p_ci, p, dp) || outside(x.e_ci, e, de) {
        Verdict::Fail
    } else if inside(x.p_ci, p, dp) && inside(x.e_ci, e, de) {
        Verdict::Pass
    } else {
        Verdict::Inconclusive
    };
    (v, text)
}

/// One row of Table 14.1: the smallest T reaching the target over p, ε and seeds; the
/// exponents of p and 1/ε, with bootstrap intervals over seeds, judged against the formula's
/// within bands half as wide as the gap to the nearest row that predicts otherwise; the
/// `control` row's algorithm judged by the same criterion.
pub(super) fn table_experiment(ctx: &Ctx, algo: Algo, control: Algo) -> Result<Finding, String> {
    let s = sweep(ctx, algo)?;
    let (ps, epss, max_m) = (&s.ps, &s.epss, s.max_m);
    let seeds = s.t.len();
    let mut table = Table::new(&[
        "p",
        "ε",
        "seeds reaching the target",
        "smallest T (geometric mean over seeds)",
        "min … max over seeds",
        "T/p",
        "formula (unscaled)",
    ]);
    let mut series = Vec::new();
    let all: Vec<usize> = (0..seeds).collect();
    for (e, &eps) in epss.iter().enumerate() {
        let mut pts = Vec::new();
        for (i, &p) in ps.iter().enumerate() {
            let ts: Vec<f64> = s.t.iter().filter_map(|k| k[e][i]).collect();
            let g = s.geo(&all, e, i);
            if let Some(g) = g {
                pts.push((p as f64, g));
            }
            table.row(vec![
                p.into(),
                eps.into(),
                ts.len().into(),
                g.map_or_else(|| format!("> {max_m} jobs").into(), Cell::from),
                format!(
                    "{:.0} … {:.0}",
                    ts.iter().copied().fold(f64::INFINITY, f64::min),
                    ts.iter().copied().fold(0.0, f64::max)
                )
                .into(),
                g.map_or(f64::NAN, |g| g / p as f64).into(),
                algo.formula(p as f64, eps).into(),
            ]);
        }
        if !pts.is_empty() {
            let k = (pts
                .iter()
                .map(|(p, t)| (t / algo.formula(*p, eps)).ln())
                .sum::<f64>()
                / pts.len() as f64)
                .exp();
            series.push(Series::line(
                format!("{} scaled, ε = {eps}", algo.formula_text()),
                ps.iter()
                    .map(|&p| (p as f64, k * algo.formula(p as f64, eps)))
                    .collect(),
            ));
        }
        series.push(Series::points(format!("measured, ε = {eps}"), pts));
    }
    let (pp, pe) = predicted(algo, ps, epss);
    let x = s.intervals();
    let (verdict, measured) = judge_row(&x, pp, pe);
    let c = sweep(ctx, control)?;
    let (cv, cm) = judge_row(&c.intervals(), pp, pe);
    let (cp, ce) = predicted(control, ps, epss);
    let complete = s.complete();
    let target = if algo.workers(64) == 64 {
        "T/p"
    } else {
        "T/(p−1)"
    };
    Ok(Finding {
        prediction: format!(
            "T = Ω({}) with α = {ALPHA} (T_rout 10 + T_send 5 + T_recv 5, cutting a job free), t̂ = {T_MAX}, t̄ = {T_MEAN}: local exponent of p over p = {ps:?}: {:.2} (band ±{:.2}); exponent of 1/ε: {:.2} (band ±{:.2})",
            algo.formula_text(), pp.0, pp.1, pe.0, pe.1
        ),
        measured,
        table,
        plot: Some(Plot { x: "p".into(), y: format!("smallest T with T_par ≤ (1+ε){target}"), log_x: true, log_y: true, series }),
        verdict,
        remark: String::new(),
        premises_measured: vec![Premise::new(
            format!("every seed reaches T_par ≤ (1+ε){target} at every p and ε within m ≤ {max_m} jobs (the exponents are fitted on the same grid for every seed)"),
            format!("{complete} of {seeds} seeds"),
            complete == seeds,
        )],
        control: Some(Control {
            system: format!(
                "{} (Table 14.1's row {}: exponent of p {:.2}, of 1/ε {:.2}), through this row's criterion",
                control.name(), control.formula_text(), cp.0, ce.0
            ),
            measured: cm,
            verdict: cv,
        }),
        seeds: Some(seeds),
    })
}

/// The sweep of `algo`'s smallest T divided, seed by seed (the same instance), by `base`'s:
/// its exponents are the differences of the two rows' exponents, and a constant factor
/// between the rows gives exponents 0. `None` where either row missed the target.
fn ratio_sweep(a: &Sweep, b: &Sweep) -> Sweep {
    Sweep {
        ps: a.ps.clone(),
        epss: a.epss.clone(),
        max_m: a.max_m,
        t: a.t
            .iter()
            .zip(&b.t)
            .map(|(sa, sb)| {
                sa.iter()
                    .zip(sb)
                    .map(|(ra, rb)| {
                        ra.iter()
                            .zip(rb)
                            .map(|(x, y)| Some((*x)? / (*y)?))
                            .collect()
                    })
                    .collect()
            })
            .collect(),
    }
}

/// The predicted exponents of p and 1/ε of `algo`'s smallest T over prefix sum's (Table
/// 14.1's formulas), with the bands of [`predicted`]'s rule: half the gap to the nearest
/// other row's ratio that predicts otherwise by at least [`SAME`].
fn predicted_ratio(algo: Algo, ps: &[usize], epss: &[f64]) -> ((f64, f64), (f64, f64)) {
    let of = |a: Algo| {
        let (x, y) = (predicted(a, ps, epss), predicted(Algo::PrefixSum, ps, epss));
        ((x.0).0 - (y.0).0, (x.1).0 - (y.1).0)
    };
    let me = of(algo);
    let band = |f: &dyn Fn((f64, f64)) -> f64| {
        let gap = ROWS
            .iter()
            .map(|&a| (f(of(a)) - f(me)).abs())
            .filter(|&d| d >= SAME)
            .fold(f64::INFINITY, f64::min);
        (f(me), gap / 2.0)
    };
    (band(&|x| x.0), band(&|x| x.1))
}

/// §14.1's "work stealing comes within a constant factor of the gold standard [prefix sum]
/// in expectation": the ratio of the two rows' smallest T, instance by instance, has
/// exponents of p and of 1/ε judged against 0 by [`judge_row`]; `control`'s ratio through the
/// same criterion.
pub(super) fn ratio_experiment(ctx: &Ctx, algo: Algo, control: Algo) -> Result<Finding, String> {
    let base = sweep(ctx, Algo::PrefixSum)?;
    let s = ratio_sweep(&*sweep(ctx, algo)?, &base);
    let c = ratio_sweep(&*sweep(ctx, control)?, &base);
    let (ps, epss) = (&s.ps, &s.epss);
    let seeds = s.t.len();
    let all: Vec<usize> = (0..seeds).collect();
    let mut table = Table::new(&[
        "p",
        "ε",
        "smallest T work stealing / prefix sum (geometric mean over instances)",
        "min … max over instances",
        "control: master–worker / prefix sum",
    ]);
    let mut series = Vec::new();
    for (e, &eps) in epss.iter().enumerate() {
        let mut pts = Vec::new();
        for (i, &p) in ps.iter().enumerate() {
            let rs: Vec<f64> = s.t.iter().filter_map(|k| k[e][i]).collect();
            let g = s.geo(&all, e, i);
            if let Some(g) = g {
                pts.push((p as f64, g));
            }
            table.row(vec![
                p.into(),
                eps.into(),
                g.map_or(f64::NAN, |g| g).into(),
                format!(
                    "{:.2} … {:.2}",
                    rs.iter().copied().fold(f64::INFINITY, f64::min),
                    rs.iter().copied().fold(0.0, f64::max)
                )
                .into(),
                c.geo(&all, e, i).map_or(f64::NAN, |g| g).into(),
            ]);
        }
        series.push(Series::points(format!("{}, ε = {eps}", algo.name()), pts));
    }
    let (pp, pe) = predicted_ratio(algo, ps, epss);
    let (verdict, measured) = judge_row(&s.intervals(), pp, pe);
    let (cv, cm) = judge_row(&c.intervals(), pp, pe);
    let (cp, ce) = predicted_ratio(control, ps, epss);
    let complete = s.complete().min(c.complete());
    Ok(Finding {
        prediction: format!(
            "Table 14.1 gives both rows T = Ω((p/ε)(t̂ + α log p)): the ratio of their smallest T is a constant, exponents of p {:.2} (band ±{:.2}) and of 1/ε {:.2} (band ±{:.2}), the bands half the gap to the nearest row that predicts otherwise (master–worker's or randomized static's ratio)",
            pp.0, pp.1, pe.0, pe.1
        ),
        measured: format!("of the ratio {} / prefix sum: {measured}", algo.name()),
        table,
        plot: Some(Plot {
            x: "p".into(),
            y: "smallest T / prefix sum's smallest T".into(),
            log_x: true,
            log_y: true,
            series,
        }),
        verdict,
        remark: String::new(),
        premises_measured: vec![Premise::new(
            "every instance reaches the target T_par ≤ (1+ε)·T/workers at every p and ε under both rows (the ratio is fitted on the same grid for every instance)",
            format!("{complete} of {seeds} instances"),
            complete == seeds,
        )],
        control: Some(Control {
            system: format!(
                "{} over prefix sum (Table 14.1's ratio: exponent of p {:.2}, of 1/ε {:.2}), through the same criterion",
                control.name(),
                cp.0,
                ce.0
            ),
            measured: cm,
            verdict: cv,
        }),
        seeds: Some(seeds),
    })
}

/// A machine with (almost) no scheduling overhead, for claims that disregard it: latency
/// T_rout = 1 (the least the simulator allows), no sender or receiver overhead, free splits.
pub(super) fn overhead_free_sim() -> SimConfig {
    SimConfig {
        t_rout: 1,
        t_split: 0,
        model: MessageModel::LatencyOnly,
        t_send: Some(0),
        t_recv: Some(0),
        ..table_sim()
    }
}
