//! Paper 000 (asynchronous random polling): Theorem 1 and its proof chain, Theorem 2's tail,
//! and the lower bounds the paper cites from [32], all in the simulator on synthetic
//! α-splitting trees under the paper's own machine model (§1.1: a message costs the PEs
//! T_rout of their own time).
//!
//! Every run switches on the simulator's proof probe (`SimConfig::proof`), which measures
//! each link of the proof where the simulator knows it: the cost, answer interval and
//! response time of each request (Lemma 1), the dead time of each piece handed over
//! (Lemma 2), the time, requests, red requests and expense until no subproblem of
//! generation < h is left (Lemmas 3–5), the finishing phase (Lemma 6), and the lineage of
//! the pieces (the lower bounds). `theorems.rs` judges Theorems 1 and 2, `lemmas.rs` the
//! lemmas, `lower.rs` the lower bounds, `polling.rs` §3's cost of polling (T_poll), `contrast.rs` §1.3's
//! global round robin (T_count), `termination.rs` §2's
//! termination detection delay; `catalogue.rs` lists the experiments, whose prose
//! (claim, premises, criterion) is in `claims/ID.md`. The constants the O(·) of Theorem 1 and Lemma 6 hide are
//! fixed on a calibration set of setups and seeds that the judged runs do not contain
//! (`calibration`); the lemmas whose proofs name their constants are judged with those. The
//! negative controls run the same criteria on systems that violate a claim: pollers that
//! break Fig. 1 (a fixed victim, a lazy poller: `violators`), ring neighbours, a Δt outside
//! Theorem 1's range, termination detection along a chain of PEs, trees that do not force the
//! lower bounds' chain (the simulator's `Adversary` provides the protocol variants).

mod catalogue;
mod contrast;
mod lemmas;
mod lower;
mod polling;
mod termination;
mod theorems;

pub(super) use catalogue::experiments;

use rayon::prelude::*;
use std::sync::{Arc, Mutex};
use treesplit::machine::sim::adversary::Adversary;
use treesplit::machine::sim::{Level, MessageModel, ProofReport};
use treesplit::{simulate, Balancer, BalancerKind, Config, PollingOptions, SimConfig, SimReport};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams, SyntheticSum};

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
    /// T_atomic of the claims: every piece of generation ≥ h is at most this large.
    pub atomic: u64,
    /// The tree's own split threshold where it is below T_atomic (None: T_atomic): pieces
    /// of at most this many units do not split. Halving trees split below T_atomic keep
    /// being split by requests past generation h instead of being worked out at a
    /// generation < h, so that the time from which every piece has generation ≥ h comes
    /// while work remains.
    pub tree_atomic: Option<u64>,
    pub t_rout: u64,
    pub t_split: u64,
    pub delta_t: u64,
    pub trim: Option<u32>,
    /// The balancer: random polling (the claims' algorithm) or a control that violates a
    /// claim (global round robin, neighbour polling on a ring, …).
    pub balancer: BalancerKind,
    /// The simulator's adversarial protocol variants (a control's fixed victim or chain
    /// reduction; off in every judged run).
    pub adversary: Adversary,
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

    /// Δt + T_split + T_rout: one request's cycle in the lemmas.
    pub fn cycle(&self) -> f64 {
        (self.delta_t + self.t_split + self.t_rout) as f64
    }

    /// Lemma 6's term T_atomic + h(Δt + T_split + T_rout).
    pub fn finish_term(&self) -> f64 {
        self.atomic as f64 + f64::from(self.h()) * self.cycle()
    }

    /// Δt in O(T_rout + T_split), the theorem's premise.
    pub fn premise(&self) -> bool {
        self.delta_t <= self.t_rout + self.t_split
    }

    /// The simulated machine: paper 000 §1.1 (see [`MODEL`]), with the proof probe.
    pub fn machine(&self) -> SimConfig {
        SimConfig {
            t_rout: self.t_rout,
            model: MessageModel::Blocking,
            t_send: Some(self.t_rout.div_ceil(2)),
            t_recv: Some(self.t_rout / 2),
            t_split: self.t_split,
            timeline_limit: 0,
            proof: true,
            adversary: self.adversary,
            ..SimConfig::default()
        }
    }
}

/// What one run measured.
#[derive(Debug, Clone)]
pub(super) struct Run {
    /// T_par as the paper counts it: until PE 0 detected termination.
    pub t_par: f64,
    /// L = T_par − T_seq/P.
    pub lower: f64,
    /// The setup's h (`Setup::h`).
    pub h: u32,
    pub requests: u64,
    pub pieces: u64,
    pub h_seen: u32,
    pub queue_mean: f64,
    pub queue_max: u64,
    /// Increments of a global counter (global round robin's) and the time charged for them
    /// (`SimConfig::t_count` each).
    pub counts: u64,
    pub count_time: f64,
    /// P and the tree's work W (T_seq).
    pub p: usize,
    pub work: u64,
    pub proof: ProofReport,
}

impl Run {
    /// Generation level `g` ≥ 1 (the last level when the run never reached generation g:
    /// then every subproblem ended before it).
    pub fn level(&self, g: u32) -> Level {
        let levels = &self.proof.levels;
        levels[(g.max(1) as usize).min(levels.len()) - 1]
    }

    /// Lemma 6: the time from the level h to the detected termination.
    pub fn finish(&self, h: u32) -> f64 {
        self.t_par - self.level(h).time as f64
    }

    /// Whether some piece of generation `g` existed (the probe's levels go one past the
    /// deepest generation reached).
    pub fn reached(&self, g: u32) -> bool {
        self.proof.levels.len() > g as usize
    }

    /// The work left at T_g, the time from which no subproblem of generation < g exists:
    /// W less the PE time before T_g that was not expense (P·T_g − expense).
    pub fn remaining_at(&self, g: u32) -> f64 {
        let l = self.level(g);
        self.work as f64 - (self.p as f64 * l.time as f64 - l.expense as f64)
    }
}

/// Simulate the tree of `s` with `seed` on `machine` under the setup's balancer; the answer
/// is checked against the tree's known work.
pub(super) fn simulate_tree(
    s: &Setup,
    seed: u64,
    machine: &SimConfig,
) -> Result<SimReport<SyntheticSum>, String> {
    let params = SyntheticParams {
        work: s.work,
        alpha: s.alpha,
        atomic: s.tree_atomic.unwrap_or(s.atomic),
        rule: s.rule,
        spin: 1,
        seed,
    };
    let balancer = match s.balancer {
        BalancerKind::RandomPolling => Balancer::RandomPolling {
            polling: PollingOptions {
                trim: s.trim,
                ..PollingOptions::default()
            },
            locality: 0,
        },
        other => Balancer::new(other),
    };
    let config = Config::new(s.p)
        .balancer(balancer)
        .delta_t(s.delta_t)
        .seed(seed);
    let r = simulate(Synthetic::new(params)?, &config, machine)
        .map_err(|e| e.to_string())?
        .into_report();
    if r.report.output.units != s.work {
        return Err(format!(
            "{}: {} units, not {}",
            s.label, r.report.output.units, s.work
        ));
    }
    Ok(r)
}

/// Simulate `s` with `seed` on its machine ([`simulate_tree`]) and read what the claims use.
#[cfg(test)]
pub(super) fn simulate_setup(s: &Setup, seed: u64) -> Result<Run, String> {
    simulate_on(s, seed, &s.machine())
}

/// Simulate `s` with `seed` on `machine` (the proof probe must be on) and read what the
/// claims use.
pub(super) fn simulate_on(s: &Setup, seed: u64, machine: &SimConfig) -> Result<Run, String> {
    let r = simulate_tree(s, seed, machine)?;
    let proof = r.proof.ok_or("the proof probe did not report")?;
    let t_par = proof.termination_detected as f64;
    Ok(Run {
        t_par,
        lower: t_par - r.theorem1.t_seq_over_p,
        h: s.h(),
        requests: r.report.totals.requests,
        pieces: r.report.totals.pieces_received,
        h_seen: r.report.totals.max_generation,
        queue_mean: r.request_queue.mean().unwrap_or(0.0),
        queue_max: r.request_queue.max_waiting,
        counts: r.report.totals.polling.counts,
        count_time: r.report.totals.polling.count_time,
        p: s.p,
        work: s.work,
        proof,
    })
}

/// A setup measured over seeds.
pub(super) struct Point {
    pub setup: Setup,
    pub runs: Vec<Run>,
}

impl Point {
    /// The mean of `f` over the runs.
    pub fn mean(&self, f: impl Fn(&Run) -> f64) -> f64 {
        self.runs.iter().map(f).sum::<f64>() / self.runs.len() as f64
    }

    /// The largest `f` over the runs.
    pub fn max(&self, f: impl Fn(&Run) -> f64) -> f64 {
        self.runs.iter().map(f).fold(f64::NEG_INFINITY, f64::max)
    }

    /// `f` over the runs.
    pub fn each(&self, f: impl Fn(&Run) -> f64) -> Vec<f64> {
        self.runs.iter().map(f).collect()
    }
}

/// Run every setup over the seeds `first ..= first + seeds − 1` (in parallel; the results
/// do not depend on the number of threads).
pub(super) fn measure(setups: &[Setup], first: u64, seeds: u64) -> Result<Vec<Point>, String> {
    measure_on(setups, first, seeds, Setup::machine)
}

/// [`measure`] with each setup on the machine `machine` makes of it.
pub(super) fn measure_on(
    setups: &[Setup],
    first: u64,
    seeds: u64,
    machine: impl Fn(&Setup) -> SimConfig + Sync,
) -> Result<Vec<Point>, String> {
    let jobs: Vec<(usize, u64)> = (0..setups.len())
        .flat_map(|i| (first..first + seeds).map(move |s| (i, s)))
        .collect();
    let runs: Vec<Result<Run, String>> = jobs
        .par_iter()
        .map(|&(i, seed)| simulate_on(&setups[i], seed, &machine(&setups[i])))
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

/// A set of measured points, made once per process and mode.
type Cache = Mutex<Vec<(bool, Arc<Vec<Point>>)>>;

/// The points of `cache` for this mode, measured by `make` the first time.
fn cached(
    cache: &Cache,
    ctx: &super::Ctx,
    make: impl FnOnce() -> Result<Vec<Point>, String>,
) -> Result<Arc<Vec<Point>>, String> {
    let mut cache = cache.lock().map_err(|e| e.to_string())?;
    if let Some((_, v)) = cache.iter().find(|(q, _)| *q == ctx.quick) {
        return Ok(v.clone());
    }
    let v = Arc::new(make()?);
    cache.push((ctx.quick, v.clone()));
    Ok(v)
}

pub(super) fn base() -> Setup {
    Setup {
        label: "base",
        p: 256,
        work: 1 << 20,
        alpha: 0.5,
        rule: SplitRule::Random,
        atomic: 1,
        tree_atomic: None,
        t_rout: 10,
        t_split: 5,
        delta_t: 8,
        trim: None,
        balancer: BalancerKind::RandomPolling,
        adversary: Adversary::default(),
    }
}

/// Theorem 1's sweep: one factor at a time around the base.
fn sweep_setups(ctx: &super::Ctx) -> Vec<Setup> {
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
        &[16, 64, 1024, 4096, 16384]
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

static SWEEP: Cache = Mutex::new(Vec::new());

/// The sweep of Theorem 1 (seeds 1 ..= 3 quick, 1 ..= 8 full).
pub(super) fn sweep(ctx: &super::Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&SWEEP, ctx, || {
        measure(&sweep_setups(ctx), 1, ctx.pick(3, 8))
    })
}

/// The calibration set: setups none of the judged sets contains (other P, W, α, T_rout,
/// T_split, Δt and T_atomic), at seeds none of them uses (1001 …), covering the ranges the
/// judged sweep varies: small and large T_rout, T_split and P, random and adversarial α.
fn calibration_setups() -> Vec<Setup> {
    let b = base();
    vec![
        Setup {
            label: "calibration",
            p: 128,
            work: 1 << 19,
            t_rout: 80,
            t_split: 20,
            delta_t: 12,
            ..b
        },
        Setup {
            label: "calibration",
            p: 128,
            work: 1 << 19,
            t_rout: 8,
            t_split: 80,
            delta_t: 12,
            ..b
        },
        Setup {
            label: "calibration",
            p: 2048,
            work: 4096 * 2048,
            delta_t: 6,
            ..b
        },
        Setup {
            label: "calibration",
            p: 128,
            work: 1 << 19,
            alpha: 0.3,
            t_rout: 6,
            t_split: 12,
            delta_t: 10,
            ..b
        },
        Setup {
            label: "calibration",
            p: 512,
            work: 1 << 21,
            alpha: 0.2,
            rule: SplitRule::Adversarial,
            t_rout: 20,
            t_split: 3,
            delta_t: 16,
            ..b
        },
        Setup {
            label: "calibration",
            p: 32,
            work: 1 << 17,
            alpha: 0.4,
            atomic: 16,
            t_rout: 4,
            t_split: 4,
            delta_t: 4,
            ..b
        },
    ]
}

static CALIBRATION: Cache = Mutex::new(Vec::new());

/// The calibration runs (seeds 1001 ..= 1003 quick, 1001 ..= 1006 full).
pub(super) fn calibration(ctx: &super::Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&CALIBRATION, ctx, || {
        measure(&calibration_setups(), 1001, ctx.pick(3, 6))
    })
}

/// The constants the O(·) of the claims hide, fixed on the calibration set (the largest
/// value of any calibration run): Theorem 1's L/X and the c of O(T_rout) in Lemma 1 (2)
/// and Lemma 2, (answer interval − Δt − T_split)/T_rout and (dead time − Δt − T_split)/T_rout.
#[derive(Debug, Clone, Copy)]
pub(super) struct Constants {
    pub thm1: f64,
    pub interval: f64,
    pub dead: f64,
}

pub(super) fn constants(ctx: &super::Ctx) -> Result<Constants, String> {
    let cal = calibration(ctx)?;
    let largest = |f: &dyn Fn(&Setup, &Run) -> f64| {
        cal.iter()
            .map(|pt| pt.max(|r| f(&pt.setup, r)))
            .fold(0.0, f64::max)
    };
    let rest = |s: &Setup, x: f64| (x - (s.delta_t + s.t_split) as f64) / s.t_rout as f64;
    Ok(Constants {
        thm1: largest(&|s, r| r.lower / s.predictor()),
        interval: largest(&|s, r| rest(s, r.proof.answer_interval.max)),
        dead: largest(&|s, r| rest(s, r.proof.dead_time.max)),
    })
}

/// The margin the judged runs get over the calibrated constants (fixed with them).
pub(super) const MARGIN: f64 = 2.0;

/// Trees that reach generation h early: each split halves (α = 0.5), T_atomic = W/(8P), so
/// h = 3 + log₂P and every piece of generation ≥ h is at most T_atomic; W = 4096·P. The tree
/// itself splits down to single units (`tree_atomic` 1): a piece worked below T_atomic at a
/// generation < h is still split by the next request that reaches it, so that every piece
/// has generation ≥ h while work remains (with T_atomic as the tree's own threshold, the
/// last such piece was always worked out at the very end, and Lemma 6's premise never held
/// while work remained).
pub(super) fn deep_setup(p: usize, balancer: BalancerKind) -> Setup {
    Setup {
        label: "deep",
        p,
        work: 4096 * p as u64,
        atomic: 512,
        tree_atomic: Some(1),
        balancer,
        ..base()
    }
}

fn deep_ps(ctx: &super::Ctx) -> &'static [usize] {
    // P = 16 is left out: there, pieces of generation h − 1 were often worked below
    // 2·T_atomic before a request reached them (too few idle PEs), so 5 of 16 runs never
    // reached generation h and the premise of Lemmas 3–6 did not hold.
    if ctx.quick {
        &[64, 256]
    } else {
        &[64, 256, 1024]
    }
}

/// How much less often than Δt the lazy poller of the controls checks its queue.
pub(super) const LAZY: u64 = 32;

static VIOLATORS: Cache = Mutex::new(Vec::new());

/// The pollers that violate Fig. 1, for the controls of Lemmas 1 and 2, on the base machine
/// at P = 64, W = 4096·P (seeds 1 …; 2 quick, 4 full): first a fixed victim (every idle PE
/// but PE 0 asks PE 0, the simulator's adversary), then a lazy poller (a busy PE checks its
/// queue only every `LAZY`·Δt, Δt = 8 being the one the criteria use).
pub(super) fn violators(ctx: &super::Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&VIOLATORS, ctx, || {
        let b = Setup {
            p: 64,
            work: 4096 * 64,
            ..base()
        };
        let setups = [
            Setup {
                label: "fixed victim",
                adversary: Adversary {
                    fixed_victim: Some(0),
                    ..Adversary::default()
                },
                ..b
            },
            Setup {
                label: "lazy poller",
                delta_t: LAZY * b.delta_t,
                ..b
            },
        ];
        measure(&setups, 1, ctx.pick(2, 4))
    })
}

static DEEP: Cache = Mutex::new(Vec::new());

/// Lemmas 3–6 on the trees of [`deep_setup`], random polling, seeds 101 … (16 quick, 64
/// full).
pub(super) fn deep(ctx: &super::Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&DEEP, ctx, || {
        let setups: Vec<Setup> = deep_ps(ctx)
            .iter()
            .map(|&p| deep_setup(p, BalancerKind::RandomPolling))
            .collect();
        measure(&setups, 101, ctx.pick(16, 64))
    })
}

static DEEP_RING: Cache = Mutex::new(Vec::new());

/// The control of Lemmas 3 and 5: the same trees under polling of ring neighbours (a victim
/// that is not uniformly random), seeds 201 … (4 quick, 8 full).
pub(super) fn deep_ring(ctx: &super::Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&DEEP_RING, ctx, || {
        let setups: Vec<Setup> = deep_ps(ctx)
            .iter()
            .map(|&p| deep_setup(p, BalancerKind::NeighbourPolling))
            .collect();
        measure(&setups, 201, ctx.pick(4, 8))
    })
}

static DEEP_CALIBRATION: Cache = Mutex::new(Vec::new());

/// Lemma 6's calibration: trees of the same kind (T_atomic = W/(8P)) at a P and on machines
/// none of the judged runs has, seeds 1001 … (3 quick, 6 full).
fn deep_calibration(ctx: &super::Ctx) -> Result<Arc<Vec<Point>>, String> {
    cached(&DEEP_CALIBRATION, ctx, || {
        let b = base();
        let setups = [
            Setup {
                label: "calibration",
                p: 128,
                work: 2048 * 128,
                atomic: 256,
                tree_atomic: Some(1),
                t_rout: 20,
                t_split: 10,
                delta_t: 12,
                ..b
            },
            Setup {
                label: "calibration",
                p: 128,
                work: 4096 * 128,
                atomic: 512,
                tree_atomic: Some(1),
                t_rout: 6,
                t_split: 20,
                delta_t: 6,
                ..b
            },
        ];
        measure(&setups, 1001, ctx.pick(3, 6))
    })
}

/// Lemma 6's constant: the largest (T_par − T_h)/(T_atomic + h(Δt + T_split + T_rout)) of any
/// run of [`deep_calibration`].
pub(super) fn finish_constant(ctx: &super::Ctx) -> Result<f64, String> {
    let cal = deep_calibration(ctx)?;
    Ok(cal
        .iter()
        .map(|pt| pt.max(|r| r.finish(pt.setup.h()) / pt.setup.finish_term()))
        .fold(0.0, f64::max))
}

/// The exponent e of mean(y) ≈ a·x^e over the groups (x, the y of each seed), least squares
/// on logarithms, with its 95 % bootstrap interval: 2000 resamples of the seeds within each
/// group (a fixed generator, so the interval is the same on every rerun).
pub(super) fn bootstrap_exponent(groups: &[(f64, Vec<f64>)]) -> (f64, f64, f64) {
    use rand::{RngExt, SeedableRng};
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let point = super::loglog_slope(
        &groups
            .iter()
            .map(|(x, ys)| (*x, mean(ys)))
            .collect::<Vec<_>>(),
    );
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(0x000b_0075);
    let slopes: Vec<f64> = (0..2000)
        .map(|_| {
            let pts: Vec<(f64, f64)> = groups
                .iter()
                .map(|(x, ys)| {
                    let m = (0..ys.len())
                        .map(|_| ys[rng.random_range(0..ys.len())])
                        .sum::<f64>()
                        / ys.len() as f64;
                    (*x, m)
                })
                .collect();
            super::loglog_slope(&pts)
        })
        .collect();
    (
        point,
        super::quantile(&slopes, 0.025),
        super::quantile(&slopes, 0.975),
    )
}

/// The one-sided 95 % upper confidence bound on a rate with `k` events in `n` trials
/// (Clopper–Pearson; 1 − 0.05^(1/n) when k = 0, about 3/n).
pub(super) fn rate_upper(k: usize, n: usize) -> f64 {
    if k >= n {
        return 1.0;
    }
    // Bisection on the binomial tail: the p with P[Bin(n, p) ≤ k] = 0.05.
    let tail = |p: f64| {
        let mut term = (1.0 - p).powi(n as i32);
        let mut sum = term;
        for i in 0..k {
            term *= (n - i) as f64 / (i + 1) as f64 * p / (1.0 - p);
            sum += term;
        }
        sum
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if tail(mid) > 0.05 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

pub(super) fn describe(s: &Setup) -> String {
    let mut d = format!(
        "{}P={} W={} α={}{} T_at={} T_rout={} T_split={} Δt={}{}",
        if s.balancer == BalancerKind::RandomPolling {
            String::new()
        } else {
            format!("{} ", s.balancer.name())
        },
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
        s.delta_t,
        s.trim.map_or(String::new(), |t| format!(" trim {t}"))
    );
    if let Some(a) = s.tree_atomic {
        d.push_str(&format!(" (splits down to {a})"));
    }
    if let Some(v) = s.adversary.fixed_victim {
        d.push_str(&format!(" fixed victim PE {v}"));
    }
    if s.adversary.chain_reduction {
        d.push_str(" chain reduction");
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lemma 1 (1) as the simulator's accounting (an invariant of the implementation, so a
    /// test rather than a claim): a request costs all PEs together at most one split and two
    /// messages, T_split + 2·T_rout, on every machine.
    #[test]
    fn a_request_costs_at_most_one_split_and_two_messages() {
        for (t_rout, t_split, delta_t) in [(10, 5, 8), (40, 1, 2), (3, 160, 32)] {
            let s = Setup {
                p: 16,
                work: 1 << 14,
                t_rout,
                t_split,
                delta_t,
                ..base()
            };
            let r = simulate_setup(&s, 1).unwrap();
            let cpu = r.proof.cpu_per_request;
            assert!(cpu.count > 0);
            assert!(
                cpu.max <= (t_split + 2 * t_rout) as f64,
                "{} > T_split + 2·T_rout at T_rout = {t_rout}, T_split = {t_split}",
                cpu.max
            );
            assert!(cpu.p50 >= (2 * t_rout) as f64);
        }
    }

    #[test]
    fn the_rate_bound_is_clopper_pearson() {
        let u = rate_upper(0, 100);
        assert!((u - (1.0 - 0.05f64.powf(0.01))).abs() < 1e-9);
        assert!(rate_upper(2, 100) > u && rate_upper(2, 100) < 0.1);
        assert_eq!(rate_upper(5, 5), 1.0);
    }

    #[test]
    fn the_bootstrap_brackets_an_exact_exponent() {
        let groups: Vec<(f64, Vec<f64>)> = (1..6)
            .map(|i| {
                let x = f64::from(i);
                (x, vec![0.9 * x.sqrt(), x.sqrt(), 1.1 * x.sqrt()])
            })
            .collect();
        let (e, lo, hi) = bootstrap_exponent(&groups);
        assert!((e - 0.5).abs() < 1e-9);
        assert!(lo <= 0.5 && 0.5 <= hi && hi - lo < 0.3);
    }
}
