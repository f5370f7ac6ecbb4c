//! The lower bounds paper 000 cites from [32], on the kind of tree they speak of (α-splitting
//! with the adversarial split: the requester always gets the small part, so the large part
//! needs the most splits): the Ω(h·T_split) splitting chain and the resulting
//! Ω(T_seq/P + T_atomic + h·T_split) time, judged as its tightness for random polling on a
//! forcing instance run under every dynamic balancer of the library (that a run lies above
//! the chain holds by construction, so it is shown, not judged), the Ω(h) communications on
//! the critical path, and the Ω(hP) pieces handed over.

use super::super::{mean_ci, Control, Ctx, Finding, Plot, Premise, Series, Table, Verdict};
use super::theorems::{tail_setup, tails};
use super::{base, bootstrap_exponent, cached, describe, measure, Cache, Point, Setup};
use std::sync::{Arc, Mutex};
use treesplit::machine::sim::adversary::Adversary;
use treesplit::BalancerKind;
use treesplit_apps::synthetic::SplitRule;

static LOWER: Cache = Mutex::new(Vec::new());

/// P = 256, adversarial α ∈ {0.25, 0.1}, W ∈ {2^14, 2^18, 2^22} at α = 0.25, T_split from 5
/// to 160: h from 34 to 119 (seeds 3001 …; 2 quick, 6 full).
fn lower_points(ctx: &Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&LOWER, ctx, || {
        let b = Setup {
            label: "lower",
            work: 1 << 18,
            alpha: 0.25,
            rule: SplitRule::Adversarial,
            ..base()
        };
        let mut setups = Vec::new();
        for work in [1 << 14, 1 << 18, 1 << 22] {
            setups.push(Setup { work, ..b });
        }
        for t_split in [40, 160] {
            setups.push(Setup { t_split, ..b });
        }
        for t_split in [5, 40, 160] {
            setups.push(Setup {
                alpha: 0.1,
                t_split,
                ..b
            });
        }
        measure(&setups, 3001, ctx.pick(2, 6))
    })
}

/// The dynamic balancers of the library, random polling first, global round robin (the
/// control) second.
const DYNAMIC: [BalancerKind; 5] = [
    BalancerKind::RandomPolling,
    BalancerKind::GlobalRoundRobin,
    BalancerKind::NeighbourPolling,
    BalancerKind::RandomShift,
    BalancerKind::PollAndShuffle,
];

static FORCING: Cache = Mutex::new(Vec::new());

/// The forcing instance of the Ω(h·T_split) chain: adversarial α = 0.1 (the requester gets
/// the tenth, so the large part needs h ≈ 92 … 119 splits one after the other), T_split =
/// 160 ≥ T_rout, W = 1024·P (so h·T_split ≫ T_seq/P), P = 16, 64, 256, under every dynamic
/// balancer (seeds 3101 …; 3 quick, 6 full).
fn forcing(ctx: &Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&FORCING, ctx, || {
        let mut setups = Vec::new();
        for balancer in DYNAMIC {
            for p in [16usize, 64, 256] {
                setups.push(Setup {
                    label: "forcing",
                    p,
                    work: 1024 * p as u64,
                    alpha: 0.1,
                    rule: SplitRule::Adversarial,
                    t_split: 160,
                    balancer,
                    ..base()
                });
            }
        }
        measure(&setups, 3101, ctx.pick(3, 6))
    })
}

/// The lower bound's terms T_seq/P + T_atomic + h·T_split.
fn lower_bound(s: &Setup) -> f64 {
    (s.work / s.p as u64) as f64 + s.atomic as f64 + f64::from(s.h()) * s.t_split as f64
}

/// The exponent of T_par/(T_seq/P + T_atomic + h·T_split) against P for `balancer`, with
/// its 95 % bootstrap interval.
fn tightness(points: &[Point], balancer: BalancerKind) -> (f64, f64, f64) {
    let groups: Vec<(f64, Vec<f64>)> = points
        .iter()
        .filter(|pt| pt.setup.balancer == balancer)
        .map(|pt| {
            let lb = lower_bound(&pt.setup);
            (pt.setup.p as f64, pt.each(|r| r.t_par / lb))
        })
        .collect();
    bootstrap_exponent(&groups)
}

/// The exponent the tightness criterion allows: T_par/(T_seq/P + T_atomic + h·T_split) may
/// not grow like P^(1/2) or faster (a counter or a diameter on the chain's path).
const TIGHT: f64 = 0.5;

pub(super) fn split_time(ctx: &Ctx) -> Result<Finding, String> {
    let points = forcing(ctx)?;
    let mut table = Table::new(&[
        "setup",
        "h",
        "h seen (largest)",
        "T_seq/P",
        "h·T_split",
        "T_par (mean)",
        "T_par / (T_seq/P + T_atomic + h·T_split): mean",
        "smallest",
    ]);
    let mut series: Vec<Series> = Vec::new();
    for balancer in DYNAMIC {
        let mut pts = Vec::new();
        for pt in points.iter().filter(|pt| pt.setup.balancer == balancer) {
            let s = &pt.setup;
            let lb = lower_bound(s);
            let ratio = pt.mean(|r| r.t_par / lb);
            pts.push((s.p as f64, ratio));
            table.row(vec![
                describe(s).into(),
                s.h().into(),
                pt.max(|r| f64::from(r.h_seen)).into(),
                (s.work / s.p as u64).into(),
                (f64::from(s.h()) * s.t_split as f64).into(),
                pt.mean(|r| r.t_par).into(),
                ratio.into(),
                pt.runs
                    .iter()
                    .map(|r| r.t_par / lb)
                    .fold(f64::INFINITY, f64::min)
                    .into(),
            ]);
        }
        series.push(Series::points(balancer.name(), pts));
    }
    let least = points
        .iter()
        .flat_map(|pt| pt.runs.iter().map(|r| r.t_par / lower_bound(&pt.setup)))
        .fold(f64::INFINITY, f64::min);
    let (e, lo, hi) = tightness(&points, BalancerKind::RandomPolling);
    let (ce, clo, chi) = tightness(&points, BalancerKind::GlobalRoundRobin);
    let others: Vec<String> = DYNAMIC[2..]
        .iter()
        .map(|&b| {
            let (x, l, u) = tightness(&points, b);
            format!("{} {x:.3} ({l:.3} … {u:.3})", b.name())
        })
        .collect();
    let regime = points.iter().all(|pt| {
        let s = &pt.setup;
        f64::from(s.h()) * s.t_split as f64 >= 4.0 * (s.work / s.p as u64) as f64
            && s.t_rout <= s.t_split
    });
    Ok(Finding {
        prediction: format!("on a tree that forces a chain of h splits, T_par ∈ Ω(T_seq/P + T_atomic + h·T_split) for any balancer, and random polling comes within a constant of it: T_par/(T_seq/P + T_atomic + h·T_split) stays bounded as P grows, i.e. its exponent against P has a 95 % bootstrap interval below {TIGHT} (a balancer whose chain waits on a counter or a path of length P^(1/2) or more does not)"),
        measured: format!(
            "exponent of T_par/(T_seq/P + T_atomic + h·T_split) against P for random polling: {e:.3} (95 % bootstrap interval {lo:.3} … {hi:.3}); the other balancers: {}; smallest ratio of any run of any balancer: {least:.3}",
            others.join(", ")
        ),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "T_par / (T_seq/P + T_atomic + h·T_split) (mean over seeds)".into(),
            log_x: true,
            log_y: true,
            series,
        }),
        verdict: Verdict::of(hi < TIGHT),
        remark: "That every run lies above the chain (the first piece of generation g no earlier than g·T_split, T_par ≥ h_seen·T_split) holds by construction of the simulator (splits of one lineage are sequential); it is shown as the smallest ratio, not judged. The Ω of the lower bound hides a constant, so the ratio is not required to be ≥ 1.".into(),
        premises_measured: vec![Premise::new(
            "the forcing regime: the chain dominates (h·T_split ≥ 4·T_seq/P) and T_rout ≤ T_split (the lower bound has no T_rout term)",
            "h·T_split from 14720 to 19040 against T_seq/P = 1024; T_rout = 10, T_split = 160",
            regime,
        )],
        control: Some(Control {
            system: "global round robin (every request passes the counter at PE 0) on the same trees".into(),
            measured: format!("exponent {ce:.3}, 95 % bootstrap interval {clo:.3} … {chi:.3}"),
            verdict: Verdict::of(chi < TIGHT),
        }),
        seeds: Some(ctx.pick(3, 6)),
    })
}

static UNFORCED: Cache = Mutex::new(Vec::new());

/// The control of the critical path: a tree that does not force the chain, random splits
/// (fraction uniform in [α, 1 − α]) at α = 0.05, P = 256, W = 2^18: h = 244 bounds its depth
/// but its lineages are far shorter (seeds 3201 …; 2 quick, 4 full).
fn unforced(ctx: &Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&UNFORCED, ctx, || {
        let setup = Setup {
            label: "unforced",
            work: 1 << 18,
            alpha: 0.05,
            rule: SplitRule::Random,
            ..base()
        };
        measure(&[setup], 3201, ctx.pick(2, 4))
    })
}

/// The critical-path criterion on `points`: rows of `table`, the plot's points, the
/// smallest mean (communications on the last work's lineage)/h and the smallest (most
/// communications on a lineage)/h_seen.
fn lineages(points: &[Point], table: &mut Table) -> (Vec<(f64, f64)>, f64, f64) {
    let (mut least, mut deepest) = (f64::INFINITY, f64::INFINITY);
    let mut pts = Vec::new();
    for pt in points.iter() {
        let h = f64::from(pt.setup.h());
        let (m, ci) = mean_ci(&pt.each(|r| r.proof.critical_messages as f64));
        let d = pt
            .runs
            .iter()
            .map(|r| r.proof.max_lineage_messages as f64 / f64::from(r.h_seen.max(1)))
            .fold(f64::INFINITY, f64::min);
        least = least.min(m / h);
        deepest = deepest.min(d);
        pts.push((h, m));
        table.row(vec![
            describe(&pt.setup).into(),
            pt.setup.h().into(),
            pt.max(|r| f64::from(r.h_seen)).into(),
            m.into(),
            ci.into(),
            (m / h).into(),
            d.into(),
        ]);
    }
    (pts, least, deepest)
}

/// The premises of the lower bounds on `points`: the smallest h_seen/h over the runs, and
/// whether every piece handed over answered a request (pieces ≤ requests in every run).
fn forcing_premises(points: &[Point]) -> Vec<Premise> {
    let runs = || points.iter().flat_map(|pt| pt.runs.iter());
    let depth = runs()
        .map(|r| f64::from(r.h_seen) / f64::from(r.h))
        .fold(f64::INFINITY, f64::min);
    let answered = runs().all(|r| r.pieces <= r.requests);
    vec![
        Premise::new(
            "the tree forces a chain of Ω(h) splits (adversarial α-splitting: the requester gets the α-part)",
            format!("smallest deepest generation reached / h over the runs: {depth:.3} (at least 1/3)"),
            depth >= 1.0 / 3.0,
        ),
        Premise::new(
            "receiver-initiated: a piece moves only to answer a request",
            format!("pieces handed over ≤ requests in every run: {}", if answered { "yes" } else { "no" }),
            answered,
        ),
    ]
}

pub(super) fn critical_path(ctx: &Ctx) -> Result<Finding, String> {
    let points = lower_points(ctx)?;
    let mut table = Table::new(&[
        "setup",
        "h",
        "h seen (largest)",
        "communications on the last work's lineage (mean)",
        "±95%",
        "… / h",
        "most on any lineage / h_seen (smallest)",
    ]);
    let (pts, least, deepest) = lineages(&points, &mut table);
    let control = unforced(ctx)?;
    let (_, c_least, c_deepest) = lineages(&control, &mut table);
    let c_depth = forcing_premises(&control).remove(0).measured;
    let line: Vec<(f64, f64)> = pts.iter().map(|&(h, _)| (h, h / 4.0)).collect();
    Ok(Finding {
        prediction: "a receiver-initiated balancer splits only on request: the lineage of the deepest piece carries at least one request per split (≥ h_seen communications), and the lineage of the piece that does the last work unit — the critical path — carries Ω(h) of them: at least h/4 on average in every setup".into(),
        measured: format!(
            "smallest mean (communications on the last work's lineage)/h: {least:.3}; smallest (most communications on a lineage)/h_seen: {deepest:.3}"
        ),
        table,
        plot: Some(Plot {
            x: "h".into(),
            y: "communications on the critical lineage".into(),
            series: vec![Series::points("mean over seeds", pts), Series::line("h/4", line)],
            ..Plot::default()
        }),
        verdict: Verdict::of(least >= 0.25 && deepest >= 1.0),
        remark: String::new(),
        premises_measured: forcing_premises(&points),
        control: Some(Control {
            system: format!(
                "a tree outside the premise, whose splits do not force the chain: random split fractions in [α, 1 − α], {} ({c_depth}), seeds 3201 …",
                describe(&control[0].setup)
            ),
            measured: format!(
                "smallest mean (communications on the last work's lineage)/h: {c_least:.3}; smallest (most on a lineage)/h_seen: {c_deepest:.3}"
            ),
            verdict: Verdict::of(c_least >= 0.25 && c_deepest >= 1.0),
        }),
        seeds: Some(points[0].runs.len()),
    })
}

static FIXED: Cache = Mutex::new(Vec::new());

/// The control of the message count: a fixed-victim poller (every idle PE but PE 0 asks
/// PE 0) on the trees of `tails` at P = 16, 64, 256 (seeds 2001 …; 2 quick, 4 full).
fn fixed_victim(ctx: &Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&FIXED, ctx, || {
        let setups: Vec<Setup> = [16usize, 64, 256]
            .iter()
            .map(|&p| Setup {
                adversary: Adversary {
                    fixed_victim: Some(0),
                    ..Adversary::default()
                },
                ..tail_setup("fixed victim", p)
            })
            .collect();
        measure(&setups, 2001, ctx.pick(2, 4))
    })
}

/// Pieces/(hP) per P of `points` (mean over seeds, with its 95 % half-width), as rows of
/// `table`; returns the points (P, mean) and the smallest efficiency T_seq/(P·T_par) of any
/// run.
fn pieces_per_hp(points: &[Point], table: &mut Table) -> (Vec<(f64, f64)>, f64) {
    let mut pts = Vec::new();
    let mut efficiency = f64::INFINITY;
    for pt in points.iter().filter(|pt| pt.setup.trim.is_none()) {
        let hp = f64::from(pt.setup.h()) * pt.setup.p as f64;
        let (m, ci) = mean_ci(&pt.each(|r| r.pieces as f64 / hp));
        pts.push((pt.setup.p as f64, m));
        for r in &pt.runs {
            efficiency = efficiency.min(r.work as f64 / (r.p as f64 * r.t_par));
        }
        table.row(vec![
            describe(&pt.setup).into(),
            pt.setup.h().into(),
            pt.runs.len().into(),
            pt.mean(|r| r.pieces as f64).into(),
            m.into(),
            ci.into(),
            pt.mean(|r| r.requests as f64 / hp).into(),
        ]);
    }
    (pts, efficiency)
}

pub(super) fn messages(ctx: &Ctx) -> Result<Finding, String> {
    let points = tails(ctx)?;
    let mut table = Table::new(&[
        "setup",
        "h",
        "seeds",
        "pieces handed over (mean)",
        "pieces/(hP)",
        "±95%",
        "requests/(hP)",
    ]);
    let (pts, efficiency) = pieces_per_hp(&points, &mut table);
    let control = fixed_victim(ctx)?;
    let (c_pts, c_efficiency) = pieces_per_hp(&control, &mut table);
    let c_keep = c_pts[c_pts.len() - 1].1 / c_pts[0].1;
    let keep = pts[pts.len() - 1].1 / pts[0].1;
    Ok(Finding {
        prediction: "Ω(hP) pieces are handed over in all: pieces/(hP) stays bounded below as P grows (W = 4096·P, adversarial α = 0.25)".into(),
        measured: format!(
            "pieces/(hP) at P = {} over that at P = {}: {keep:.3}",
            pts[pts.len() - 1].0,
            pts[0].0
        ),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "pieces handed over / (hP)".into(),
            log_x: true,
            series: vec![
                Series::points("random polling, mean over seeds", pts),
                Series::points("fixed-victim poller (control)", c_pts.clone()),
            ],
            ..Plot::default()
        }),
        verdict: Verdict::of(keep >= 0.5),
        remark: "The bound is for balancers that keep the PEs busy: one that leaves them idle can hand over fewer pieces (the control, whose efficiency is shown).".into(),
        premises_measured: vec![Premise::new(
            "the balancer keeps the PEs busy, as the bound's algorithms must to reach T_par ∈ O(T_seq/P + …): efficiency T_seq/(P·T_par) ≥ 1/4",
            format!("smallest efficiency of any run: {efficiency:.3}"),
            efficiency >= 0.25,
        )],
        control: Some(Control {
            system: format!(
                "a fixed-victim poller (every idle PE but PE 0 asks PE 0, the simulator's adversary) on the same trees at P = 16, 64, 256, seeds 2001 …: receiver-initiated but not keeping the PEs busy (smallest efficiency {c_efficiency:.3})"
            ),
            measured: format!(
                "pieces/(hP) at P = {} over that at P = {}: {c_keep:.3}",
                c_pts[c_pts.len() - 1].0,
                c_pts[0].0
            ),
            verdict: Verdict::of(c_keep >= 0.5),
        }),
        seeds: Some(points[0].runs.len()),
    })
}
