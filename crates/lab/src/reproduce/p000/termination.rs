//! Paper 000 §2's termination detection delay: the four-counter method over a tree-based
//! asynchronous reduction notices the end within O(T_rout·log P) of the last work unit. Judged
//! by a constant derived from the protocol and by the growth of the delay with P, against the
//! chain of PEs (the ring-based summing of the method's origin) as the control.

use super::super::{Control, Ctx, Finding, Plot, Premise, Series, Table, Verdict};
use super::{base, bootstrap_exponent, cached, describe, measure, Cache, Point, Run, Setup};
use std::sync::{Arc, Mutex};
use treesplit::machine::sim::adversary::Adversary;

/// The delay the proof allows, in units of T_rout·⌈log₂P⌉: up to three waves (the one under
/// way when the last work ends, which may have counted before it, and the two that agree),
/// each down and up the binomial tree of depth ⌈log₂P⌉, each hop costing its latency T_rout,
/// its sending and receiving (T_send + T_recv = T_rout) and at most one message handled
/// ahead of it at the PE (≤ T_rout): 3 · 2 · 3.
const WAVES_BOUND: f64 = 18.0;

/// The exponent of delay/(T_rout·log₂P) against P that the criterion allows: a delay
/// growing like P^(1/4) or faster is not O(T_rout·log P) at these P.
const GROWTH: f64 = 0.25;

/// The P series: W = 256·P, halving splits down to single units, the base machine.
fn setups(ctx: &Ctx, chain: bool) -> Vec<Setup> {
    let ps: &[usize] = if ctx.quick {
        &[16, 64, 256]
    } else {
        &[16, 64, 256, 1024, 4096]
    };
    ps.iter()
        .map(|&p| Setup {
            label: if chain { "chain" } else { "tree" },
            p,
            work: 256 * p as u64,
            adversary: Adversary {
                chain_reduction: chain,
                ..Adversary::default()
            },
            ..base()
        })
        .collect()
}

static TREE: Cache = Mutex::new(Vec::new());
static CHAIN: Cache = Mutex::new(Vec::new());

/// Four-counter over the binomial tree (seeds 501 …; 4 quick, 16 full).
fn tree(ctx: &Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&TREE, ctx, || {
        measure(&setups(ctx, false), 501, ctx.pick(4, 16))
    })
}

/// The control: the same runs summing along the chain of PEs (seeds 601 …; 2 quick, 4 full).
fn chain(ctx: &Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&CHAIN, ctx, || {
        measure(&setups(ctx, true), 601, ctx.pick(2, 4))
    })
}

/// The points of a curve.
type Curve = Vec<(f64, f64)>;

/// An exponent with its 95 % bootstrap interval (estimate, low, high).
type Exponent = (f64, f64, f64);

/// The detection delay of a run: from the end of the last work unit to PE 0's decision.
fn delay(r: &Run) -> f64 {
    r.proof.termination_detected as f64 - r.proof.last_work_end as f64
}

/// The delay in units of T_rout·⌈log₂P⌉.
fn scaled(s: &Setup, r: &Run) -> f64 {
    delay(r) / (s.t_rout as f64 * (s.p as f64).log2().ceil())
}

/// The criterion on `points`: rows of `table`, the plot's points (P, mean scaled delay), the
/// largest scaled delay of any run and the exponent of the scaled delay against P with its
/// 95 % bootstrap interval.
fn judge_series(points: &[Point], table: &mut Table) -> (Curve, f64, Exponent) {
    let mut pts = Vec::new();
    let mut worst: f64 = 0.0;
    let mut groups = Vec::new();
    for pt in points {
        let s = &pt.setup;
        let ys = pt.each(|r| scaled(s, r));
        let mean = ys.iter().sum::<f64>() / ys.len() as f64;
        let max = ys.iter().copied().fold(0.0, f64::max);
        worst = worst.max(max);
        pts.push((s.p as f64, mean));
        groups.push((s.p as f64, ys));
        table.row(vec![
            describe(s).into(),
            pt.runs.len().into(),
            pt.mean(delay).into(),
            pt.max(delay).into(),
            mean.into(),
            max.into(),
        ]);
    }
    (pts, worst, bootstrap_exponent(&groups))
}

pub(super) fn delay_claim(ctx: &Ctx) -> Result<Finding, String> {
    let points = tree(ctx)?;
    let control = chain(ctx)?;
    let mut table = Table::new(&[
        "setup",
        "seeds",
        "delay (mean)",
        "delay (largest)",
        "delay/(T_rout·⌈log₂P⌉) (mean)",
        "largest",
    ]);
    let (pts, worst, (e, lo, hi)) = judge_series(&points, &mut table);
    let (c_pts, c_worst, (ce, clo, chi)) = judge_series(&control, &mut table);
    let runs = || points.iter().flat_map(|pt| pt.runs.iter());
    let after = runs().all(|r| r.proof.termination_detected >= r.proof.last_work_end);
    let busy = runs()
        .map(|r| r.proof.last_work_end as f64 / r.t_par)
        .fold(f64::INFINITY, f64::min);
    let ok = |worst: f64, hi: f64| worst <= WAVES_BOUND && hi < GROWTH;
    Ok(Finding {
        prediction: format!("the delay from the end of the last work unit to PE 0's detection is at most {WAVES_BOUND}·T_rout·⌈log₂P⌉ (three waves down and up the binomial tree, each hop its latency, its two overheads and one message ahead: 3·2·3), and delay/(T_rout·⌈log₂P⌉) does not grow with P: the 95 % bootstrap interval of its exponent against P lies below {GROWTH}"),
        measured: format!(
            "largest delay/(T_rout·⌈log₂P⌉) of any run: {worst:.3}; its exponent against P: {e:.3} (95 % bootstrap interval {lo:.3} … {hi:.3})"
        ),
        table,
        plot: Some(Plot {
            x: "P".into(),
            y: "detection delay / (T_rout·⌈log₂P⌉)".into(),
            log_x: true,
            log_y: true,
            series: vec![
                Series::points("tree (four-counter, binomial tree), mean", pts.clone()),
                Series::points("chain of PEs (control), mean", c_pts),
                Series::line(
                    format!("{WAVES_BOUND}"),
                    vec![(pts[0].0, WAVES_BOUND), (pts[pts.len() - 1].0, WAVES_BOUND)],
                ),
            ],
        }),
        verdict: Verdict::of(ok(worst, hi)),
        remark: String::new(),
        premises_measured: vec![
            Premise::new(
                "the delay is measured after all work is done (detection never before the last work unit)",
                format!("detection at or after the last work unit in every run: {}", if after { "yes" } else { "no" }),
                after,
            ),
            Premise::new(
                "the work kept the PEs busy until near the end, so the waves meet the endgame's requests (not an idle machine)",
                format!("the last work unit ended at {:.1} % of T_par or later in every run", 100.0 * busy),
                busy > 0.5,
            ),
        ],
        control: Some(Control {
            system: "the same runs with the four-counter waves summing along a chain of PEs (PE i's parent i − 1: the ring-based summing of [22] that §2 replaces by a tree), the simulator's adversary, seeds 601 …".into(),
            measured: format!(
                "largest delay/(T_rout·⌈log₂P⌉): {c_worst:.3}; exponent against P {ce:.3} (95 % bootstrap interval {clo:.3} … {chi:.3})"
            ),
            verdict: Verdict::of(ok(c_worst, chi)),
        }),
        seeds: Some(points[0].runs.len()),
    })
}
