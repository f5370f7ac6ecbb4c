//! Paper 002 (better algorithms for parallel backtracking), in the simulator: hypercube
//! poll-and-shuffle's lower-order term judged absolutely (Theorem 1: L/h bounded as P grows,
//! tails over many seeds), the bound Õ(T_seq/n + h) of Equation (1) in Definition 1's sense,
//! neighbour polling's shielding on a ring with uneven splits (§1.1), Lemmas 4 and 5
//! (adaptive triggering) through `experiments::poll_shuffle`, and the networks of §4
//! (Theorems 3 and 4, the defaults on the mesh, complete permutations) in [`networks`].

mod networks;

use super::{loglog_slope, quantile, Ctx, Experiment, Finding, Plot, Series, Table, Verdict};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};
use treesplit::config::DEFAULT_ROUND;
use treesplit::machine::sim::{MessageModel, Topology};
use treesplit::{simulate, Balancer, BalancerKind, Config, PollingOptions, SimConfig};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

const NAMES: [&str; 3] = ["poll-and-shuffle", "random polling", "neighbour polling"];

/// Balancer k: poll-and-shuffle at its defaults (pseudorandom permutation, phase Δ =
/// DEFAULT_ROUND), random polling, neighbour polling over `neighbourhood`.
fn balancer(k: usize, neighbourhood: Topology) -> Balancer {
    let polling = PollingOptions::default();
    match k {
        0 => match Balancer::new(BalancerKind::PollAndShuffle) {
            Balancer::PollAndShuffle {
                permutation,
                adaptive,
                sync,
                embedding,
                ..
            } => Balancer::PollAndShuffle {
                polling,
                round: DEFAULT_ROUND,
                permutation,
                adaptive,
                sync,
                embedding,
            },
            other => other,
        },
        1 => Balancer::RandomPolling { polling },
        _ => Balancer::NeighbourPolling {
            polling,
            neighbourhood,
        },
    }
}

/// One run: T_par, T_seq, the run's largest generation, and the premise's h.
type Run = (f64, f64, u32, u32);

/// Balancer k at P: per seed one [`Run`].
type Runs = (usize, usize, Vec<Run>);

/// (balancer, P) → per-seed runs on one network.
struct Sweep {
    ps: Vec<usize>,
    runs: Vec<Runs>,
}

/// The sweeps measured so far: (quick, network) → sweep.
type Cache = Mutex<Vec<((bool, Topology), Arc<Sweep>)>>;
static SWEEP: Cache = Mutex::new(Vec::new());

/// The hypercube sweep (Theorem 1, Equation (1)): poll-and-shuffle, random polling and
/// neighbour polling; synthetic trees of 2048·P units with split ratios uniform in
/// [0.5, 0.5] (α = 0.5: exact halves) and many seeds. The ring sweep (§1.1): random polling
/// and neighbour polling, α = 0.3 (uneven splits), hop latency 5.
fn sweep(ctx: &Ctx, network: Topology) -> Result<Arc<Sweep>, String> {
    let mut cache = SWEEP.lock().map_err(|e| e.to_string())?;
    if let Some((_, v)) = cache.iter().find(|(q, _)| *q == (ctx.quick, network)) {
        return Ok(v.clone());
    }
    let ring = network == Topology::Ring;
    let ps: Vec<usize> = match (ring, ctx.quick) {
        (false, true) => vec![16, 64, 256, 1024],
        (false, false) => vec![16, 64, 256, 1024, 4096, 16384],
        (true, true) => vec![16, 64, 256],
        (true, false) => vec![16, 64, 256, 1024],
    };
    let seeds: u64 = ctx.pick(5, 10);
    let kinds: &[usize] = if ring { &[1, 2] } else { &[0, 1] };
    let jobs: Vec<(usize, usize, u64)> = kinds
        .iter()
        .flat_map(|&k| {
            ps.iter()
                .flat_map(move |&p| (1..=seeds).map(move |s| (k, p, s)))
        })
        .collect();
    let results: Vec<Result<Run, String>> = jobs
        .par_iter()
        .map(|&(k, p, seed)| {
            let params = SyntheticParams {
                work: 2048 * p as u64,
                alpha: if ring { 0.3 } else { 0.5 },
                atomic: 1,
                rule: SplitRule::Random,
                spin: 1,
                seed,
            };
            let config = Config::new(p)
                .balancer(balancer(k, network))
                .delta_t(8)
                .seed(seed);
            let sim = SimConfig {
                topology: network,
                model: MessageModel::LatencyOnly,
                t_rout: 5,
                t_hop: Some(5),
                t_split: 5,
                timeline_limit: 0,
                ..SimConfig::default()
            };
            let r = simulate(Synthetic::new(params)?, &config, &sim)
                .map_err(|e| e.to_string())?
                .into_report();
            if r.report.output.units != params.work {
                return Err(format!("{}: wrong units", NAMES[k]));
            }
            Ok((
                r.report.t_par,
                params.work as f64,
                r.report.totals.max_generation,
                premise_h(&params),
            ))
        })
        .collect();
    let mut runs: Vec<Runs> = Vec::new();
    for (&(k, p, _), r) in jobs.iter().zip(results) {
        let r = r?;
        match runs.iter_mut().find(|x| x.0 == k && x.1 == p) {
            Some(x) => x.2.push(r),
            None => runs.push((k, p, vec![r])),
        }
    }
    let v = Arc::new(Sweep { ps, runs });
    cache.push(((ctx.quick, network), v.clone()));
    Ok(v)
}

/// The h of the premises (paper 002 §2.1): a bound on the generation from which every
/// subproblem is atomic. A split of the synthetic tree gives away round(f·size) units with
/// f ≥ α, so the larger part has at most size − round(α·size) units (work done only
/// shrinks it), and pieces of at most `atomic` units are atomic: h is the number of such
/// steps from the root's size down to `atomic` (α = 0.5, atomic 1: ⌈log₂ T_seq⌉).
fn premise_h(params: &SyntheticParams) -> u32 {
    let mut size = params.work;
    let mut h = 0;
    while size > params.atomic.max(1) {
        size -= ((size as f64 * params.alpha).round() as u64).clamp(1, size - 1);
        h += 1;
    }
    h
}

impl Sweep {
    fn runs(&self, k: usize, p: usize) -> &[Run] {
        &self
            .runs
            .iter()
            .find(|x| x.0 == k && x.1 == p)
            .expect("measured")
            .2
    }

    /// Per seed L = T_par − T_seq/P.
    fn lower_order(&self, k: usize, p: usize) -> Vec<f64> {
        self.runs(k, p)
            .iter()
            .map(|r| r.0 - r.1 / p as f64)
            .collect()
    }

    /// Per seed L/h (h: the premise's bound, [`premise_h`]).
    fn per_h(&self, k: usize, p: usize) -> Vec<f64> {
        self.runs(k, p)
            .iter()
            .map(|r| (r.0 - r.1 / p as f64) / f64::from(r.3.max(1)))
            .collect()
    }

    /// Per seed T_par/(T_seq/P + h).
    fn ratio(&self, k: usize, p: usize) -> Vec<f64> {
        self.runs(k, p)
            .iter()
            .map(|r| r.0 / (r.1 / p as f64 + f64::from(r.3)))
            .collect()
    }

    fn has(&self, k: usize) -> bool {
        self.runs.iter().any(|x| x.0 == k)
    }

    /// One row per (balancer, P): h, L's median and 90 % quantile, L/h's median, 90 %
    /// quantile and maximum over the seeds, and the median of T_par/(T_seq/P + h).
    fn table(&self) -> (Table, Vec<Series>) {
        let mut table = Table::new(&[
            "balancer",
            "P",
            "seeds",
            "h",
            "largest generation",
            "L median",
            "L q90",
            "L/h median",
            "L/h q90",
            "L/h max",
            "T_par/(T_seq/P + h) max",
        ]);
        let mut series = Vec::new();
        for (k, name) in NAMES.iter().enumerate().filter(|(k, _)| self.has(*k)) {
            let mut pts = Vec::new();
            for &p in &self.ps {
                let (l, lh) = (self.lower_order(k, p), self.per_h(k, p));
                let h = self.runs(k, p).iter().map(|r| r.3).max().unwrap_or(0);
                let g = self.runs(k, p).iter().map(|r| r.2).max().unwrap_or(0);
                pts.push((p as f64, quantile(&l, 0.5)));
                table.row(vec![
                    (*name).into(),
                    p.into(),
                    l.len().into(),
                    h.into(),
                    g.into(),
                    quantile(&l, 0.5).into(),
                    quantile(&l, 0.9).into(),
                    quantile(&lh, 0.5).into(),
                    quantile(&lh, 0.9).into(),
                    quantile(&lh, 1.0).into(),
                    quantile(&self.ratio(k, p), 1.0).into(),
                ]);
            }
            series.push(Series::points(*name, pts));
        }
        (table, series)
    }

    /// The log-log slope over P of the q-quantile of `f(k, p)`.
    fn slope(&self, k: usize, q: f64, f: impl Fn(&Sweep, usize, usize) -> Vec<f64>) -> f64 {
        loglog_slope(
            &self
                .ps
                .iter()
                .map(|&p| (p as f64, quantile(&f(self, k, p), q)))
                .collect::<Vec<_>>(),
        )
    }
}

fn plot(x: &str, series: Vec<Series>) -> Option<Plot> {
    Some(Plot {
        x: x.into(),
        y: "L = T_par − T_seq/P (median over seeds)".into(),
        log_x: true,
        log_y: true,
        series,
    })
}

/// Definition 1's test on calibrated constants: c := 1.5 × the largest value of `f` over
/// the seeds at the two smallest P; the runs at the larger P that exceed c, as "P = …: x".
fn exceedances(
    s: &Sweep,
    k: usize,
    f: impl Fn(&Sweep, usize, usize) -> Vec<f64>,
) -> (f64, Vec<String>) {
    let c = 1.5
        * s.ps[..2]
            .iter()
            .map(|&p| quantile(&f(s, k, p), 1.0))
            .fold(0.0, f64::max);
    let over = s.ps[2..]
        .iter()
        .map(|&p| (p, quantile(&f(s, k, p), 1.0)))
        .filter(|&(_, x)| x > c)
        .map(|(p, x)| format!("P = {p}: {x:.1}"))
        .collect();
    (c, over)
}

fn thm1(ctx: &Ctx) -> Result<Finding, String> {
    let s = sweep(ctx, Topology::Hypercube)?;
    let (table, series) = s.table();
    let (c, over) = exceedances(&s, 0, Sweep::per_h);
    let (c_rp, over_rp) = exceedances(&s, 1, Sweep::per_h);
    let judged = format!("P = {}…{}", s.ps[2], s.ps.last().expect("ps"));
    Ok(Finding {
        prediction: format!("T_par ∈ (1+ε)T_seq/n + Õ(h): one constant c bounds L/h at every n w.h.p.; c = 1.5 × the largest L/h over the seeds at P = {} and {} = {c:.1} (calibration, not judged); random polling's Õ(h log n) should outgrow its own c ({c_rp:.1})", s.ps[0], s.ps[1]),
        measured: format!(
            "poll-and-shuffle, runs at {judged} with L/h > c: {}; random polling: {}",
            if over.is_empty() { "none".to_string() } else { over.join(", ") },
            if over_rp.is_empty() { "none".to_string() } else { over_rp.join(", ") },
        ),
        table,
        plot: plot("P (hypercube)", series),
        verdict: Verdict::of(over.is_empty()),
        remark: String::new(),
        ..Finding::default()
    })
}

fn lower_bound(ctx: &Ctx) -> Result<Finding, String> {
    let s = sweep(ctx, Topology::Hypercube)?;
    let (table, _) = s.table();
    let c = 2.0 * quantile(&s.ratio(0, s.ps[0]), 0.5);
    let judged: Vec<(usize, f64)> = s.ps[1..]
        .iter()
        .map(|&p| (p, quantile(&s.ratio(0, p), 1.0)))
        .collect();
    let over: Vec<String> = judged
        .iter()
        .filter(|(_, m)| *m > c)
        .map(|(p, m)| format!("P = {p}: {m:.3}"))
        .collect();
    let series = [0, 1]
        .iter()
        .map(|&k| {
            Series::points(
                NAMES[k],
                s.ps.iter()
                    .map(|&p| (p as f64, quantile(&s.ratio(k, p), 1.0)))
                    .collect(),
            )
        })
        .chain([Series::line(
            "c (fixed at the smallest P)",
            s.ps.iter().map(|&p| (p as f64, c)).collect(),
        )])
        .collect();
    Ok(Finding {
        prediction: format!("T_par ∈ Õ(T_seq/n + h) (Definition 1: P[T_par > cβ(T_seq/n + h)] ≤ n^−β with one constant c for all n, no log factor); c = 2 × the median ratio at P = {} = {c:.3}, fixed there and not judged there", s.ps[0]),
        measured: if over.is_empty() {
            format!("no run at P = {}…{} exceeds c·(T_seq/n + h); largest ratio {:.3}", s.ps[1], s.ps.last().expect("ps"), judged.iter().map(|x| x.1).fold(0.0, f64::max))
        } else {
            format!("runs above c·(T_seq/n + h): {}", over.join(", "))
        },
        table,
        plot: Some(Plot { x: "P (hypercube)".into(), y: "max over seeds of T_par / (T_seq/P + h)".into(), log_x: true, log_y: false, series }),
        verdict: Verdict::of(over.is_empty()),
        remark: String::new(),
        ..Finding::default()
    })
}

fn shielding(ctx: &Ctx) -> Result<Finding, String> {
    let s = sweep(ctx, Topology::Ring)?;
    let (table, series) = s.table();
    let p = *s.ps.last().expect("ps");
    let (np, rp) = (
        quantile(&s.lower_order(2, p), 0.5),
        quantile(&s.lower_order(1, p), 0.5),
    );
    let (en, er) = (
        s.slope(2, 0.5, Sweep::lower_order),
        s.slope(1, 0.5, Sweep::lower_order),
    );
    Ok(Finding {
        prediction: "on a ring with uneven splits, polling only neighbours lets busy clusters shield their large subproblems from idle PEs farther away: neighbour polling's lower-order term exceeds random polling's and grows faster with P".into(),
        measured: format!("at P = {p}: median L neighbour {np:.0}, random {rp:.0} (ratio {:.2}); slopes over P: neighbour {en:.2}, random {er:.2}", np / rp),
        table,
        plot: plot("P (ring)", series),
        verdict: Verdict::of(np >= 2.0 * rp && en > er),
        remark: String::new(),
        ..Finding::default()
    })
}

/// Adaptive poll-and-shuffle on a hypercube (Δ = 100, γ = 0.25): rows for c = 2 and 8.
fn adaptive(ctx: &Ctx) -> Result<Vec<crate::experiments::poll_shuffle::AdaptiveRow>, String> {
    use crate::experiments::poll_shuffle::{adaptive_rows, machine};
    let ps: Vec<usize> = ctx.pick(vec![64, 256], vec![256, 1024, 4096]);
    let work = ctx.pick(2_000_000, 20_000_000);
    let net = machine(Topology::Hypercube);
    let rows: Vec<_> = [2.0, 8.0]
        .par_iter()
        .flat_map(|&c| adaptive_rows(&ps, c, work, 100, &net))
        .collect();
    Ok(rows)
}

fn adaptive_table(rows: &[crate::experiments::poll_shuffle::AdaptiveRow]) -> Table {
    let mut t = Table::new(&[
        "P",
        "c",
        "d",
        "phases (PE 0)",
        "notes",
        "notes per d phases",
        "c·d",
        "estimates",
        "mean γ̂ − γ̄",
        "share γ̂ < γ̄ − 0.1",
        "triggered",
    ]);
    for r in rows {
        t.row(vec![
            r.pes.into(),
            r.c.into(),
            r.dims.into(),
            r.phases.into(),
            r.notes.into(),
            r.notes_per_cycle.into(),
            (r.c * r.dims as f64).into(),
            r.estimates.into(),
            r.mean_error.into(),
            r.under_by_0_1.into(),
            r.triggered.into(),
        ]);
    }
    t
}

fn lemma4(ctx: &Ctx) -> Result<Finding, String> {
    let rows = adaptive(ctx)?;
    let worst = rows
        .iter()
        .map(|r| r.notes_per_cycle / (r.c * r.dims as f64))
        .fold(0.0, f64::max);
    Ok(Finding {
        prediction: "each PE idle in a phase notifies PE 0 with probability c/n, so PE 0 receives c·γ̄·d ≤ c·d = Õ(log n) notes per d phases".into(),
        measured: format!("largest (notes per d phases)/(c·d) over the runs: {worst:.3}"),
        table: adaptive_table(&rows),
        plot: None,
        verdict: Verdict::of(worst <= 1.0),
        remark: String::new(),
        ..Finding::default()
    })
}

fn lemma5(ctx: &Ctx) -> Result<Finding, String> {
    let rows = adaptive(ctx)?;
    let judged: Vec<_> = rows
        .iter()
        .filter(|r| r.c >= 8.0 && r.estimates > 0)
        .collect();
    let worst = judged.iter().map(|r| r.under_by_0_1).fold(0.0, f64::max);
    Ok(Finding {
        prediction: "PE 0's estimate γ̂ = notes/(c·d) of the idle fraction is rarely far below the true idle fraction γ̄ when c is large enough (c = 8), so permutations are triggered when many PEs idle".into(),
        measured: if judged.is_empty() {
            "no estimates at c = 8".into()
        } else {
            format!("largest share of estimates with γ̂ < γ̄ − 0.1 at c = 8: {worst:.3}")
        },
        table: adaptive_table(&rows),
        plot: None,
        verdict: if judged.is_empty() {
            Verdict::Inconclusive
        } else {
            Verdict::of(worst <= 0.25)
        },
        remark: String::new(),
        ..Finding::default()
    })
}

/// Paper 002's experiments.
pub(super) fn experiments() -> Vec<Experiment> {
    let mut all = vec![
        claim!("p002", "002-thm1", thm1),
        claim!("p002", "002-lower-bound", lower_bound),
        claim!("p002", "002-neighbour-shielding", shielding),
        claim!("p002", "002-lemma4", lemma4),
        claim!("p002", "002-lemma5", lemma5),
    ];
    all.extend(networks::experiments());
    all
}
