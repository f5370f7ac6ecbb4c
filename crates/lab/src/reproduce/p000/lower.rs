//! The lower bounds paper 000 cites from [32], on the kind of tree they speak of (α-splitting
//! with the adversarial split: the requester always gets the small part, so the large part
//! needs the most splits): the Ω(h·T_split) splitting chain and the resulting
//! Ω(T_seq/P + T_atomic + h·T_split) time, the Ω(h) communications on the critical path, and
//! the Ω(hP) pieces handed over. Random polling is one receiver-initiated algorithm: its runs
//! must lie above each bound, and the paper says they come close to it.

use super::super::{mean_ci, Ctx, Finding, Plot, Series, Table, Verdict};
use super::theorems::tails;
use super::{base, cached, describe, measure, Cache, Point, Run, Setup};
use std::sync::{Arc, Mutex};
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

/// The splitting chain: the first piece of generation g was handed over no earlier than
/// g·T_split (its g ancestors' splits came one after the other); the smallest ratio.
fn chain(r: &Run, t_split: u64) -> f64 {
    r.proof
        .first_handed
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != u64::MAX)
        .map(|(k, &t)| t as f64 / ((k as u64 + 1) * t_split.max(1)) as f64)
        .fold(f64::INFINITY, f64::min)
}

pub(super) fn split_time(ctx: &Ctx) -> Result<Finding, String> {
    let points = lower_points(ctx)?;
    let mut table = Table::new(&[
        "setup",
        "h",
        "h seen",
        "T_par (mean)",
        "T_seq/P",
        "h·T_split",
        "T_par / max(T_seq/P, h_seen·T_split) (smallest)",
        "first piece of gen g / (g·T_split) (smallest)",
        "T_par / (T_seq/P + T_atomic + h·T_split) (mean)",
    ]);
    let (mut least, mut chain_least) = (f64::INFINITY, f64::INFINITY);
    let (mut pts, mut close) = (Vec::new(), Vec::new());
    for pt in points.iter() {
        let s = &pt.setup;
        let hs = f64::from(s.h()) * s.t_split as f64;
        let above = |r: &Run| r.t_par / r.share.max(f64::from(r.h_seen) * s.t_split as f64);
        let a = pt.runs.iter().map(above).fold(f64::INFINITY, f64::min);
        let c = pt
            .runs
            .iter()
            .map(|r| chain(r, s.t_split))
            .fold(f64::INFINITY, f64::min);
        let tight = pt.mean(|r| r.t_par / (r.share + s.atomic as f64 + hs));
        least = least.min(a);
        chain_least = chain_least.min(c);
        pts.push((hs, pt.mean(|r| r.t_par)));
        close.push((hs, tight));
        table.row(vec![
            describe(s).into(),
            s.h().into(),
            pt.max(|r| f64::from(r.h_seen)).into(),
            pt.mean(|r| r.t_par).into(),
            pt.runs[0].share.into(),
            hs.into(),
            a.into(),
            c.into(),
            tight.into(),
        ]);
    }
    Ok(Finding {
        prediction: "the splits of one lineage come one after the other, so the first piece of generation g exists no earlier than g·T_split, and T_par ≥ max(T_seq/P, h_seen·T_split) with h_seen the deepest generation reached; random polling comes close: T_par/(T_seq/P + T_atomic + h·T_split) stays bounded".into(),
        measured: format!(
            "smallest T_par / max(T_seq/P, h_seen·T_split): {least:.3}; smallest (first piece of generation g)/(g·T_split): {chain_least:.3}; T_par/(T_seq/P + T_atomic + h·T_split) from {:.3} to {:.3}",
            close.iter().map(|p| p.1).fold(f64::INFINITY, f64::min),
            close.iter().map(|p| p.1).fold(0.0, f64::max)
        ),
        table,
        plot: Some(Plot {
            x: "h·T_split".into(),
            y: "T_par / (T_seq/P + T_atomic + h·T_split)".into(),
            log_x: true,
            series: vec![Series::points("mean over seeds", close)],
            ..Plot::default()
        }),
        verdict: Verdict::of(least >= 1.0 && chain_least >= 1.0),
        remark: String::new(),
        ..Finding::default()
    })
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
        ..Finding::default()
    })
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
    let mut pts = Vec::new();
    for pt in points.iter().filter(|pt| pt.setup.trim.is_none()) {
        let hp = f64::from(pt.setup.h()) * pt.setup.p as f64;
        let (m, ci) = mean_ci(&pt.each(|r| r.pieces as f64 / hp));
        pts.push((pt.setup.p as f64, m));
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
            series: vec![Series::points("mean over seeds", pts)],
            ..Plot::default()
        }),
        verdict: Verdict::of(keep >= 0.5),
        remark: String::new(),
        ..Finding::default()
    })
}
