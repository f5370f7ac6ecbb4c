//! Paper 000 (asynchronous random polling): Theorem 1's lower-order term fitted over T_rout,
//! T_split, h (α and the adversarial split), Δt, T_atomic and P; Lemma 1(3)'s queue length a
//! request meets; Lemma 5's requests and splits against h·P; Theorem 2's tail over seeds, with
//! and without trimming. All in the simulator on synthetic α-splitting trees.

use super::{
    loglog_slope, mean_ci, quantile, Ctx, Experiment, Finding, Plot, Series, Table, Verdict,
};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};
use treesplit::{simulate, Balancer, Config, PollingOptions, SimConfig};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

/// ε of Theorem 1's h/ε term (the simulator's polls cost nothing, so the (1+ε)·T_seq/P
/// factor is free and ε enters only there).
const EPSILON: f64 = 0.1;

/// One simulated configuration of random polling on a synthetic tree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Setup {
    pub label: &'static str,
    pub p: usize,
    pub work: u64,
    pub alpha: f64,
    pub rule: SplitRule,
    pub atomic: u64,
    pub t_rout: u64,
    pub t_split: u64,
    pub delta_t: u64,
    pub trim: Option<u32>,
}

impl Setup {
    /// The splitting depth h the tree allows: splits until the largest piece is atomic,
    /// ⌈log_{1/(1−α)}(W/T_atomic)⌉.
    pub fn h(&self) -> u32 {
        let ratio = self.work as f64 / self.atomic as f64;
        if ratio <= 1.0 {
            return 0;
        }
        (ratio.ln() / (1.0 / (1.0 - self.alpha)).ln()).ceil() as u32
    }

    /// Theorem 1's term h(1/ε + T_rout + T_split) + T_atomic.
    pub fn predictor(&self) -> f64 {
        f64::from(self.h()) * (1.0 / EPSILON + (self.t_rout + self.t_split) as f64)
            + self.atomic as f64
    }

    /// Δt in O(T_rout + T_split), the theorem's premise.
    pub fn premise(&self) -> bool {
        self.delta_t <= self.t_rout + self.t_split
    }
}

/// What one run measured.
#[derive(Debug, Clone, Copy)]
pub(super) struct Run {
    pub lower: f64,
    pub requests: u64,
    pub splits: u64,
    pub h_seen: u32,
    pub queue_mean: f64,
    pub queue_max: u64,
}

/// Simulate `s` with `seed`; the answer is checked against the tree's known work.
pub(super) fn simulate_setup(s: &Setup, seed: u64) -> Result<Run, String> {
    let params = SyntheticParams {
        work: s.work,
        alpha: s.alpha,
        atomic: s.atomic,
        rule: s.rule,
        spin: 1,
        seed,
    };
    let config = Config::new(s.p)
        .balancer(Balancer::RandomPolling {
            polling: PollingOptions {
                trim: s.trim,
                fast_init: false,
            },
        })
        .delta_t(s.delta_t)
        .seed(seed);
    let sim = SimConfig {
        t_rout: s.t_rout,
        t_split: s.t_split,
        timeline_limit: 0,
        ..SimConfig::default()
    };
    let r = simulate(Synthetic::new(params)?, &config, &sim)
        .map_err(|e| e.to_string())?
        .into_report();
    if r.report.output.units != s.work {
        return Err(format!(
            "{}: {} units, not {}",
            s.label, r.report.output.units, s.work
        ));
    }
    Ok(Run {
        lower: r.theorem1.lower_order,
        requests: r.report.totals.requests,
        splits: r.report.totals.splits,
        h_seen: r.report.totals.max_generation,
        queue_mean: r.request_queue.mean().unwrap_or(0.0),
        queue_max: r.request_queue.max_waiting,
    })
}

/// A setup measured over seeds.
pub(super) struct Point {
    pub setup: Setup,
    pub runs: Vec<Run>,
}

impl Point {
    fn lower(&self) -> (f64, f64) {
        mean_ci(&self.runs.iter().map(|r| r.lower).collect::<Vec<_>>())
    }
}

/// Run every setup over `seeds` seeds (in parallel; the results do not depend on the
/// number of threads).
pub(super) fn measure(setups: &[Setup], seeds: u64) -> Result<Vec<Point>, String> {
    let jobs: Vec<(usize, u64)> = (0..setups.len())
        .flat_map(|i| (1..=seeds).map(move |s| (i, s)))
        .collect();
    let runs: Vec<Result<Run, String>> = jobs
        .par_iter()
        .map(|&(i, seed)| simulate_setup(&setups[i], seed))
        .collect();
    let mut points: Vec<Point> = setups
        .iter()
        .map(|&setup| Point {
            setup,
            runs: Vec::new(),
        })
        .collect();
    for ((i, _), r) in jobs.iter().zip(runs) {
        points[*i].runs.push(r?);
    }
    Ok(points)
}

fn base() -> Setup {
    Setup {
        label: "base",
        p: 256,
        work: 1 << 20,
        alpha: 0.5,
        rule: SplitRule::Random,
        atomic: 1,
        t_rout: 10,
        t_split: 5,
        delta_t: 8,
        trim: None,
    }
}

/// Theorem 1's sweep: one factor at a time around the base.
fn setups(ctx: &Ctx) -> Vec<Setup> {
    let b = base();
    let mut v = vec![b];
    for t in [2, 40, 160] {
        v.push(Setup {
            label: "T_rout",
            t_rout: t,
            ..b
        });
    }
    for t in [1, 40, 160] {
        v.push(Setup {
            label: "T_split",
            t_split: t,
            ..b
        });
    }
    for (alpha, rule) in [
        (0.25, SplitRule::Random),
        (0.25, SplitRule::Adversarial),
        (0.1, SplitRule::Adversarial),
    ] {
        v.push(Setup {
            label: "alpha",
            alpha,
            rule,
            ..b
        });
    }
    for d in [2, 32, 128] {
        v.push(Setup {
            label: "Δt",
            delta_t: d,
            ..b
        });
    }
    for a in [64, 1024] {
        v.push(Setup {
            label: "T_atomic",
            atomic: a,
            ..b
        });
    }
    let ps: &[usize] = if ctx.quick {
        &[16, 64, 1024]
    } else {
        &[16, 64, 1024, 4096, 16384, 65536]
    };
    for &p in ps {
        v.push(Setup {
            label: "P",
            p,
            work: 4096 * p as u64,
            ..b
        });
    }
    v
}

static SWEEP: Mutex<Vec<(bool, Arc<Vec<Point>>)>> = Mutex::new(Vec::new());

/// The sweep, measured once per process and mode.
fn sweep(ctx: &Ctx) -> Result<Arc<Vec<Point>>, String> {
    let mut cache = SWEEP.lock().map_err(|e| e.to_string())?;
    if let Some((_, v)) = cache.iter().find(|(q, _)| *q == ctx.quick) {
        return Ok(v.clone());
    }
    let v = Arc::new(measure(&setups(ctx), ctx.pick(3, 8))?);
    cache.push((ctx.quick, v.clone()));
    Ok(v)
}

fn describe(s: &Setup) -> String {
    format!(
        "P={} W={} α={}{} T_at={} T_rout={} T_split={} Δt={}",
        s.p,
        s.work,
        s.alpha,
        if s.rule == SplitRule::Adversarial {
            " adv"
        } else {
            ""
        },
        s.atomic,
        s.t_rout,
        s.t_split,
        s.delta_t
    )
}

fn thm1(ctx: &Ctx) -> Result<Finding, String> {
    let points = sweep(ctx)?;
    let mut table = Table::new(&[
        "varied",
        "setup",
        "h",
        "h seen",
        "X = h(1/ε+T_rout+T_split)+T_atomic",
        "L = T_par − T_seq/P (mean)",
        "±95%",
        "L/X",
        "judged",
    ]);
    let (mut sxy, mut sxx) = (0.0, 0.0);
    let mut worst: f64 = 0.0;
    let mut judged_pts = Vec::new();
    let mut other_pts = Vec::new();
    for pt in points.iter() {
        let s = &pt.setup;
        let (l, ci) = pt.lower();
        let x = s.predictor();
        let h_seen = pt.runs.iter().map(|r| r.h_seen).max().unwrap_or(0);
        if s.premise() {
            sxy += l * x;
            sxx += x * x;
            worst = worst.max(l / x);
            judged_pts.push((x, l));
        } else {
            other_pts.push((x, l));
        }
        table.row(vec![
            s.label.into(),
            describe(s).into(),
            s.h().into(),
            h_seen.into(),
            x.into(),
            l.into(),
            ci.into(),
            (l / x).into(),
            s.premise().into(),
        ]);
    }
    let c = sxy / sxx;
    let xs: Vec<f64> = judged_pts.iter().map(|p| p.0).collect();
    let (lo, hi) = (
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(0.0, f64::max),
    );
    Ok(Finding {
        prediction: format!(
            "E[T_par] − T_seq/P ≤ C·X with X = h(1/ε + T_rout + T_split) + T_atomic, ε = {EPSILON}, h = ⌈log_(1/(1−α))(W/T_atomic)⌉ computed for each setup (X from {lo:.0} to {hi:.0})"
        ),
        measured: format!(
            "least-squares constant C = {c:.3} (L ≈ C·X through the origin over the {} judged setups); largest L/X = {worst:.3}; log-log slope of L against X = {:.2}",
            judged_pts.len(),
            loglog_slope(&judged_pts)
        ),
        table,
        plot: Some(Plot {
            x: "X = h(1/ε+T_rout+T_split)+T_atomic".into(),
            y: "L = T_par − T_seq/P".into(),
            log_x: true,
            log_y: true,
            series: vec![
                Series::points("judged (Δt ≤ T_rout+T_split)", judged_pts),
                Series::points("Δt > T_rout+T_split (not judged)", other_pts),
                Series::line(format!("C·X, C = {c:.3}"), vec![(lo, c * lo), (hi, c * hi)]),
                Series::line("4·X", vec![(lo, 4.0 * lo), (hi, 4.0 * hi)]),
            ],
        }),
        verdict: Verdict::of(worst <= 4.0),
        remark: String::new(),
    })
}

fn lemma1(ctx: &Ctx) -> Result<Finding, String> {
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
        let (m, ci) = mean_ci(&pt.runs.iter().map(|r| r.queue_mean).collect::<Vec<_>>());
        let max = pt.runs.iter().map(|r| r.queue_max).max().unwrap_or(0);
        let req = pt.runs.iter().map(|r| r.requests as f64).sum::<f64>() / pt.runs.len() as f64;
        worst = worst.max(m);
        pts.push((i as f64, m));
        table.row(vec![
            pt.setup.label.into(),
            describe(&pt.setup).into(),
            req.into(),
            m.into(),
            ci.into(),
            max.into(),
        ]);
    }
    Ok(Finding {
        prediction: "a request meets an expected queue length ≤ Σᵢ(queue length at PE i)/P ≤ 1 (at most P requests are active)".into(),
        measured: format!("largest mean queue length met over the {} setups: {worst:.4}", points.len()),
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
    })
}

fn lemma5(ctx: &Ctx) -> Result<Finding, String> {
    let points = sweep(ctx)?;
    let mut by_p: Vec<&Point> = points
        .iter()
        .filter(|pt| pt.setup.label == "P" || pt.setup.label == "base")
        .collect();
    by_p.sort_by_key(|pt| pt.setup.p);
    let mut table = Table::new(&[
        "P",
        "h",
        "requests",
        "splits",
        "requests/(hP)",
        "±95%",
        "splits/(hP)",
    ]);
    let (mut rq, mut sp) = (Vec::new(), Vec::new());
    for pt in &by_p {
        let hp = f64::from(pt.setup.h()) * pt.setup.p as f64;
        let (r, rci) = mean_ci(
            &pt.runs
                .iter()
                .map(|r| r.requests as f64 / hp)
                .collect::<Vec<_>>(),
        );
        let (s, _) = mean_ci(
            &pt.runs
                .iter()
                .map(|r| r.splits as f64 / hp)
                .collect::<Vec<_>>(),
        );
        let n = pt.runs.len() as f64;
        table.row(vec![
            pt.setup.p.into(),
            pt.setup.h().into(),
            (pt.runs.iter().map(|r| r.requests as f64).sum::<f64>() / n).into(),
            (pt.runs.iter().map(|r| r.splits as f64).sum::<f64>() / n).into(),
            r.into(),
            rci.into(),
            s.into(),
        ]);
        rq.push((pt.setup.p as f64, r));
        sp.push((pt.setup.p as f64, s));
    }
    let growth = rq.last().map_or(f64::NAN, |l| l.1) / rq[0].1;
    Ok(Finding {
        prediction: "the load-balancing expense until all pieces have generation ≥ h is O(hP(Δt + T_split + T_rout)): requests and splits grow as h·P, so requests/(hP) stays bounded as P grows (W = 4096·P)".into(),
        measured: format!(
            "requests/(hP) at P = {} over that at P = {}: {growth:.3}",
            by_p.last().map_or(0, |p| p.setup.p),
            by_p[0].setup.p
        ),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "per h·P".into(),
            log_x: true,
            series: vec![Series::points("requests/(hP)", rq), Series::points("splits/(hP)", sp)],
            ..Plot::default()
        }),
        verdict: Verdict::of(growth <= 2.0),
        remark: String::new(),
    })
}

static TAIL: Mutex<Vec<(bool, Arc<Vec<Point>>)>> = Mutex::new(Vec::new());

/// Theorem 2: the base setup over many seeds, without and with trimming.
fn tails(ctx: &Ctx) -> Result<Arc<Vec<Point>>, String> {
    let mut cache = TAIL.lock().map_err(|e| e.to_string())?;
    if let Some((_, v)) = cache.iter().find(|(q, _)| *q == ctx.quick) {
        return Ok(v.clone());
    }
    let b = Setup {
        label: "untrimmed",
        alpha: 0.25,
        rule: SplitRule::Adversarial,
        ..base()
    };
    let setups = [
        b,
        Setup {
            label: "trim 1",
            trim: Some(1),
            ..b
        },
    ];
    let v = Arc::new(measure(&setups, ctx.pick(40, 200))?);
    cache.push((ctx.quick, v.clone()));
    Ok(v)
}

fn tail_finding(ctx: &Ctx, which: usize) -> Result<Finding, String> {
    let points = tails(ctx)?;
    let mut table = Table::new(&[
        "setup",
        "seeds",
        "mean L",
        "median",
        "p90",
        "p99",
        "max",
        "max/median",
        "mean queue met",
        "max queue met",
    ]);
    let mut series = Vec::new();
    let mut ratio = f64::NAN;
    for (i, pt) in points.iter().enumerate() {
        let ls: Vec<f64> = pt.runs.iter().map(|r| r.lower).collect();
        let med = quantile(&ls, 0.5);
        let max = quantile(&ls, 1.0);
        let (m, _) = mean_ci(&ls);
        if i == which {
            ratio = max / med;
        }
        table.row(vec![
            pt.setup.label.into(),
            ls.len().into(),
            m.into(),
            med.into(),
            quantile(&ls, 0.9).into(),
            quantile(&ls, 0.99).into(),
            max.into(),
            (max / med).into(),
            (pt.runs.iter().map(|r| r.queue_mean).sum::<f64>() / ls.len() as f64).into(),
            pt.runs
                .iter()
                .map(|r| r.queue_max)
                .max()
                .unwrap_or(0)
                .into(),
        ]);
        let mut sorted = ls.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len() as f64;
        series.push(Series::points(
            format!("{} (P[L > x])", pt.setup.label),
            sorted
                .iter()
                .enumerate()
                .map(|(k, &x)| (x, 1.0 - k as f64 / n))
                .collect(),
        ));
    }
    Ok(Finding {
        prediction: format!(
            "T_par ≤ (1+ε)T_seq/P + Õ(T_atomic + h(1/ε + T_split + T_rout)) with high probability: L concentrates, its largest value over seeds is within a constant of its median ({})",
            describe(&points[which].setup)
        ),
        measured: format!("max/median of L over {} seeds: {ratio:.3}", points[which].runs.len()),
        table,
        plot: Some(Plot {
            x: "L = T_par − T_seq/P".into(),
            y: "P[L > x] (empirical)".into(),
            log_y: true,
            series,
            ..Plot::default()
        }),
        verdict: Verdict::of(ratio <= 2.0),
        remark: String::new(),
    })
}

/// Paper 000's experiments.
pub(super) fn experiments() -> Vec<Experiment> {
    vec![
        Experiment {
            id: "000-thm1",
            source: "paper 000, Theorem 1",
            claim: "Asynchronous random polling runs in E[T_par] ≤ (1+ε)T_seq/P + O(T_atomic + h(1/ε + T_rout + T_split)) for Δt in O(T_rout + T_split).",
            premises: "",
            model: "",
            inside: "",
            criterion: "PASS iff L/X ≤ 4 for every setup with Δt ≤ T_rout + T_split (one constant 4 covers the O(·) across T_rout, T_split, α, the adversarial split, Δt, T_atomic and P); mean over seeds.",
            if_fail: "The O(·) hides a constant the paper does not give; 4 is our choice. Setups with a large h (adversarial α = 0.1) have most of their pieces finished long before they are split h times, so X overstates the work left, which makes L/X small, not large.",
            run: thm1,
        },
        Experiment {
            id: "000-lemma1-queue",
            source: "paper 000, Lemma 1(3) (proof)",
            claim: "A request arriving at a random PE meets an expected queue length of at most 1.",
            premises: "",
            model: "",
            inside: "",
            criterion: "PASS iff the mean number of requests already queued where a request arrives is ≤ 1 in every setup of 000-thm1 (mean over seeds).",
            if_fail: "The proof's averaging assumes the target PE is uniform and independent of the queue lengths.",
            run: lemma1,
        },
        Experiment {
            id: "000-lemma5",
            source: "paper 000, Lemma 5",
            claim: "The expense for communicating, splitting and waiting until no piece has generation < h is O(hP(Δt + T_split + T_rout)).",
            premises: "",
            model: "",
            inside: "",
            criterion: "PASS iff requests/(h·P) at the largest P is at most 2× its value at the smallest P (W = 4096·P, other parameters at the base).",
            if_fail: "Requests also count the rejections of the final phase, while PEs wait for termination; their number grows with the termination time, which grows as log P.",
            run: lemma5,
        },
        Experiment {
            id: "000-thm2-tail",
            source: "paper 000, Theorem 2",
            claim: "The bound of Theorem 1 also holds with high probability (Õ), not only in expectation.",
            premises: "",
            model: "",
            inside: "",
            criterion: "PASS iff the largest L = T_par − T_seq/P over the seeds (40 quick, 200 full) is at most 2× the median (P = 256, W = 2^20, adversarial α = 0.25).",
            if_fail: "The Õ(·) allows a constant larger than 2; a single unlucky seed dominates the maximum at this sample size.",
            run: |c| tail_finding(c, 0),
        },
        Experiment {
            id: "000-thm2-trim",
            source: "paper 000, §4 (trimming request queues)",
            claim: "Trimming the request queues (serving at most one request per work slice, rejecting the rest) keeps the high-probability bound.",
            premises: "",
            model: "",
            inside: "",
            criterion: "PASS iff with trim 1 the largest L over the seeds is at most 2× the median (same setup and seeds as 000-thm2-tail).",
            if_fail: "Rejected requests are retried after a round trip; with trim 1 a hot PE turns away useful requests, which lengthens the tail.",
            run: |c| tail_finding(c, 1),
        },
    ]
}
