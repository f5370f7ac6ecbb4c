//! Paper 004 (randomized static load balancing): Lemma 1's adversary against other size
//! vectors (`lemma1.rs`); Theorems 2 and 3 as tail statistics over many
//! placements at the proofs' constants (`tail.rs`); the smallest splitting depth h that
//! balances an adversarially split α-splitting tree (one seed: the bound it is judged against,
//! Theorem 4's, is deterministic), beside Theorem 4's x(α)·log n; §4.1's splitting overhead
//! h·2^h/n, read as an exponent against the network diameter; §5.2's comparison with random
//! polling on three tree searches at P = 1024 (`apps.rs`).

mod apps;
mod lemma1;
mod tail;

use super::{loglog_slope, Ctx, Experiment, Finding, Plot, Series, Table, Verdict};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};
use treesplit::config::StaticPermutation;
use treesplit::task::bag::{theorem3_depth, x_alpha};
use treesplit::{simulate, Balancer, Config, Jobs};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

const EPS: f64 = 0.2;
/// Work units of the depth sweep's tree (2^24: every piece the balancing depths produce that
/// matters to the largest load is many units long).
const WORK: u64 = 1 << 24;

/// max load / average load of random-static with 2^h jobs of an α-splitting tree on p PEs.
pub fn static_imbalance(
    alpha: f64,
    rule: SplitRule,
    p: usize,
    h: u32,
    seed: u64,
) -> Result<f64, String> {
    let params = SyntheticParams {
        work: WORK,
        alpha,
        atomic: 1,
        rule,
        spin: 1,
        seed,
    };
    let config = Config::new(p)
        .balancer(Balancer::RandomStatic {
            jobs: Jobs::Depth(h),
            permutation: StaticPermutation::Feistel,
        })
        .delta_t(WORK / p as u64 / 4 + 1)
        .seed(seed);
    let r = simulate(Synthetic::new(params)?, &config, &tail::load_only_sim())
        .map_err(|e| e.to_string())?
        .into_report();
    if r.report.output.units != WORK {
        return Err(format!("α = {alpha}, P = {p}, h = {h}: wrong units"));
    }
    let max = r.report.max_work_units();
    Ok(max as f64 * p as f64 / WORK as f64)
}

/// Theorem 4 with the tolerance: the largest piece (1−α)^h·W must be ≤ (1+ε)W/n.
fn thm4_bound(alpha: f64, n: usize) -> f64 {
    x_alpha(alpha) * (n as f64 / (1.0 + EPS)).log2()
}

/// One (α, n): the depths tried (h, max/avg) and the smallest that balanced.
struct Depth {
    alpha: f64,
    n: usize,
    tried: Vec<(u32, f64)>,
    smallest: Option<u32>,
    max_h: u32,
}

static SWEEP: Mutex<Vec<(bool, Arc<Vec<Depth>>)>> = Mutex::new(Vec::new());

fn sweep(ctx: &Ctx) -> Result<Arc<Vec<Depth>>, String> {
    let mut cache = SWEEP.lock().map_err(|e| e.to_string())?;
    if let Some((_, v)) = cache.iter().find(|(q, _)| *q == ctx.quick) {
        return Ok(v.clone());
    }
    let ns: Vec<usize> = ctx.pick(
        vec![16, 64, 256, 1024],
        vec![16, 64, 256, 1024, 4096, 16384],
    );
    let max_h = ctx.pick(14u32, 20);
    let cases: Vec<(f64, usize)> = [0.1, 0.2, 0.3, 0.4, 0.5]
        .iter()
        .flat_map(|&a| ns.iter().map(move |&n| (a, n)))
        .collect();
    let v: Vec<Result<Depth, String>> = cases
        .par_iter()
        .map(|&(alpha, n)| {
            let log_n = (n as f64).log2().ceil() as u32;
            let start = log_n.max((thm4_bound(alpha, n).ceil() as u32).saturating_sub(2));
            let mut d = Depth {
                alpha,
                n,
                tried: Vec::new(),
                smallest: None,
                max_h,
            };
            for h in start..=max_h {
                let r = static_imbalance(alpha, SplitRule::Adversarial, n, h, 1)?;
                d.tried.push((h, r));
                if r <= 1.0 + EPS {
                    d.smallest = Some(h);
                    break;
                }
            }
            Ok(d)
        })
        .collect();
    let v = Arc::new(v.into_iter().collect::<Result<Vec<_>, _>>()?);
    cache.push((ctx.quick, v.clone()));
    Ok(v)
}

fn depth_table(v: &[Depth]) -> Table {
    let mut t = Table::new(&[
        "α",
        "n",
        "x(α)",
        "smallest h",
        "max/avg at it (or at the last h tried)",
        "depths tried",
        "Theorem 4: x(α)log₂(n/(1+ε))",
        "Theorem 3: x(α)(log n + log log n)",
    ]);
    for d in v {
        let last = d.tried.last().map_or(f64::NAN, |x| x.1);
        t.row(vec![
            d.alpha.into(),
            d.n.into(),
            x_alpha(d.alpha).into(),
            d.smallest
                .map_or(format!("> {}", d.max_h).into(), Into::into),
            last.into(),
            format!(
                "{}…{}",
                d.tried.first().map_or(0, |x| x.0),
                d.tried.last().map_or(0, |x| x.0)
            )
            .into(),
            thm4_bound(d.alpha, d.n).into(),
            theorem3_depth(d.alpha, d.n).into(),
        ]);
    }
    t
}

fn depth_plot(v: &[Depth]) -> Option<Plot> {
    let mut series = Vec::new();
    for a in [0.1, 0.2, 0.3, 0.4, 0.5] {
        let these: Vec<&Depth> = v.iter().filter(|d| d.alpha == a).collect();
        series.push(Series::points(
            format!("measured α = {a}"),
            these
                .iter()
                .filter_map(|d| d.smallest.map(|h| (d.n as f64, f64::from(h))))
                .collect(),
        ));
        series.push(Series::line(
            format!("Theorem 3 α = {a}"),
            these
                .iter()
                .map(|d| (d.n as f64, theorem3_depth(a, d.n)))
                .collect(),
        ));
    }
    Some(Plot {
        x: "n".into(),
        y: "splitting depth h".into(),
        log_x: true,
        log_y: false,
        series,
    })
}

fn thm4(ctx: &Ctx) -> Result<Finding, String> {
    let v = sweep(ctx)?;
    let mut bad = Vec::new();
    let mut judged = 0;
    for d in v.iter() {
        let bound = thm4_bound(d.alpha, d.n);
        for &(h, r) in &d.tried {
            if f64::from(h) < bound {
                judged += 1;
                if r <= 1.0 + EPS {
                    bad.push(format!("α = {}, n = {}, h = {h}", d.alpha, d.n));
                }
            }
        }
    }
    Ok(Finding {
        prediction: "no depth h < x(α)·log₂(n/(1+ε)) balances: after fewer splits a piece of size (1−α)^h·W > (1+ε)W/n is left".into(),
        measured: format!("{judged} depths below the bound simulated; balanced among them: {}", if bad.is_empty() { "none".to_string() } else { bad.join("; ") }),
        table: depth_table(&v),
        plot: depth_plot(&v),
        verdict: if judged == 0 { Verdict::Inconclusive } else { Verdict::of(bad.is_empty()) },
        remark: String::new(),
    })
}

fn crossover(ctx: &Ctx) -> Result<Finding, String> {
    let v = sweep(ctx)?;
    let mut table = Table::new(&[
        "α",
        "x(α)",
        "measured exponent of h·2^h/n in n",
        "predicted local exponent of n^(x−1)(log n)^(x+1)",
        "asymptotic x(α) − 1",
        "static beats dynamic on a mesh (x−1 < 1/2)",
        "… on a ring (x−1 < 1)",
    ]);
    let mut ok = true;
    let mut judged = 0;
    let (mut meas, mut pred) = (Vec::new(), Vec::new());
    for a in [0.1, 0.2, 0.3, 0.4, 0.5] {
        let pts: Vec<(f64, f64)> = v
            .iter()
            .filter(|d| d.alpha == a)
            .filter_map(|d| {
                d.smallest
                    .map(|h| (d.n as f64, f64::from(h) * 2f64.powi(h as i32) / d.n as f64))
            })
            .collect();
        let x = x_alpha(a);
        let model: Vec<(f64, f64)> = pts
            .iter()
            .map(|&(n, _)| (n, n.powf(x - 1.0) * n.log2().powf(x + 1.0)))
            .collect();
        let (m, p) = if pts.len() >= 3 {
            (loglog_slope(&pts), loglog_slope(&model))
        } else {
            (f64::NAN, f64::NAN)
        };
        if pts.len() >= 3 {
            judged += 1;
            ok &= (m - p).abs() <= 0.5;
            meas.push((a, m));
            pred.push((a, p));
        }
        table.row(vec![
            a.into(),
            x.into(),
            m.into(),
            p.into(),
            (x - 1.0).into(),
            (x - 1.0 < 0.5).into(),
            (x - 1.0 < 1.0).into(),
        ]);
    }
    let mesh = 1.0 - 2f64.powf(-2.0 / 3.0);
    let ring = 1.0 - 2f64.powf(-0.5);
    Ok(Finding {
        prediction: format!("T_par ∈ (1+ε)T_seq/n + O(d + l) + T_split·O(n^(x(α)−1)(log n)^(x(α)+1)); static beats dynamic (Ω(dl)) when the split term grows more slowly than the diameter d: α > {mesh:.3} on a mesh (d = √n), α > {ring:.3} on a ring (d = n)"),
        measured: format!("exponents of the split term from the measured smallest h, {judged} values of α with ≥ 3 points: {}", meas.iter().map(|(a, m)| format!("α = {a}: {m:.2}")).collect::<Vec<_>>().join(", ")),
        table,
        plot: Some(Plot { x: "α".into(), y: "exponent of n in h·2^h/n".into(), log_x: false, log_y: false, series: vec![Series::points("measured", meas), Series::line("predicted (local, with log factors)", pred), Series::line("mesh diameter exponent 1/2", vec![(0.1, 0.5), (0.5, 0.5)]), Series::line("ring diameter exponent 1", vec![(0.1, 1.0), (0.5, 1.0)])] }),
        verdict: if judged < 2 { Verdict::Inconclusive } else { Verdict::of(ok) },
        remark: "The crossover itself is asymptotic; the criterion checks its ingredient, the growth of the splitting overhead, which sets where the thresholds lie.".into(),
    })
}

const LOADS_MODEL: &str = "simulator, random-static balancer (Fig. 1: 2^h jobs by splitting the root h times, a Feistel pseudorandom permutation) on the synthetic adversarial α-splitting tree, loads read as work units per PE; only the loads are judged, so the cost model does not matter (stated in full: crossbar, T_rout = 10, T_send = T_recv = 5, T_split = 5, no delay).";

/// Paper 004's experiments.
pub(super) fn experiments() -> Vec<Experiment> {
    vec![
        Experiment {
            id: "004-lemma1",
            source: "paper 004, Lemma 1",
            claim: "\"An optimal strategy for the adversary is to assign the size s_max to exactly 1/s_max subproblems and the size 0 to all remaining subproblems.\" (The adversary's goal: to maximise E L_max.)",
            premises: "§2: m ≥ n > 1 subproblems of total size 1, max size ≤ s_max ≤ 1/n with 1/s_max ∈ N, placed independently and uniformly at random; the adversary does not know the placement.",
            model: "paper 004's abstract model (§2) by Monte Carlo with common random numbers: in each trial every subproblem goes to one random PE, the same for every size vector compared. No machine: the claim is about the loads.",
            inside: "Inside: (n, m, 1/s_max) = (16, 256, 64) and (64, 1024, 256); four other admissible size vectors (all equal; 2/s_max halves; half the mass at s_max and the rest spread; pseudorandom sizes); 2·10^4 (quick) or 2·10^5 (full) placements. Optimality over all size vectors cannot be enumerated: the experiment tests it against these.",
            criterion: "PASS iff for every other size vector and both (n, m), the paired mean E[L_max(Lemma 1) − L_max(other)] is not significantly negative (its mean plus its 95 % half-width is ≥ 0).",
            if_fail: "A size vector with a significantly larger E L_max would contradict the lemma.",
            run: lemma1::lemma1,
        },
        Experiment {
            id: "004-thm2-tail",
            source: "paper 004, Theorem 2",
            claim: "\"For every ε > 0 and every β > 0 there is a constant c such that P[L_max > (1+ε)/n] ≤ n^(−β) if s_max ≤ 1/(c n ln n) and if the adversary uses the strategy from Lemma 1.\" The proof takes c ≥ 2(β+1)/ε².",
            premises: "§2: n > 1 PEs, m ≥ n subproblems of total size 1, each placed independently and uniformly at random; the adversary (Lemma 1) gives 1/s_max subproblems the size s_max (1/s_max ∈ N) and the rest 0; the bound holds for large enough c.",
            model: "paper 004's abstract model (§2) by Monte Carlo: each placement draws the n loads of the k = 1/s_max heavy jobs exactly as a multinomial (a chain of binomials). No machine: the claim is about the loads.",
            inside: "Inside: ε = 0.5, β ∈ {1, 2}, n = 16 … 256 (quick) or 1024 (full), k = ⌈c n ln n⌉ for the proof's c = 2(β+1)/ε² and for the valid Chernoff constant (β+1)/((1+ε)ln(1+ε) − ε); at least 6 n^β (quick) or 10 n^β (full) placements per case, so that a tail of n^−β is resolved.",
            criterion: "PASS iff at the valid Chernoff constant, for every (n, β), the upper end of the Wilson 95 % interval of P[L_max > (1+ε)/n] is at most n^−β. The proof's own c is reported beside it, not judged (its Chernoff form is not a valid bound).",
            if_fail: "A tail above n^−β at the valid constant would contradict the Chernoff and union bounds, i.e. a bug in the sampling.",
            run: tail::thm2,
        },
        Experiment {
            id: "004-thm3",
            source: "paper 004, Theorem 3",
            claim: "\"For every ε > 0 and every β > 0 randomized static load balancing using tree splitting ensures that P[L_max > (1+ε)/n] ≤ n^−β if h ∈ x(α)(log n + log log n) + Ω(β/ε²) with x(α) := 1/log(1/(1−α))\" (log base 2).",
            premises: "§3: the α-splitting model (every split leaves both parts ≥ α of the piece; the adversary chooses), 2^h subproblems from a complete splitting tree of depth h, placed at random (§4: by a random permutation, assumed at least as good); the proof solves (1−α)^h = 1/(c n ln n) with Theorem 2's c.",
            model: "the system: simulator, random-static (Fig. 1, Feistel permutation) on the synthetic tree whose every split is the adversarial α : 1−α, loads in work units, many seeds (W = 2^22; crossbar, T_rout = 10, T_send = T_recv = 5, T_split = 5, no delay; only loads are judged). Beside it, where the system cannot run the ~4n seeds a tail of 1/n needs, the model of the proof: the exact leaf sizes of the same tree placed independently at random (§2; §4 takes it as the bound for a random permutation).",
            inside: "Inside: ε = 0.5, β = 1, h the proof's own depth ⌈log₂(c n ln n)·x(α)⌉ with c the valid Chernoff constant 18.5 (the larger of it and the proof's 2(β+1)/ε² = 16); α ∈ {0.2, 0.3, 0.4}, n = 16 … 256. α = 1/2 is left out (equal leaves balance exactly). The Feistel permutation stands in for a uniformly random one (the paper's §4 also leaves that to pseudorandom permutations).",
            criterion: "PASS iff for every case, on the system and on the model, the upper end of the Wilson 95 % interval of P[L_max > (1+ε)/n] over the seeds or placements is at most n^−1.",
            if_fail: "A tail above 1/n at the proof's depth contradicts the theorem for the system's permutation (Feistel), or, on the model, a bug.",
            run: tail::thm3,
        },
        Experiment {
            id: "004-thm4",
            source: "paper 004, Theorem 4",
            claim: "\"No load balancing algorithm which considers 2^h subproblems as atomic that are generated by recursively splitting the root problem, can achieve good load balancing under the α-splitting model if h < x(α) log n.\"",
            premises: "§3: the α-splitting model with the adversary splitting α : 1−α every time; good load balancing means L_max ≤ (1+ε)/n; a deterministic statement (the largest piece after h splits).",
            model: LOADS_MODEL,
            inside: "Inside: ε = 0.2, α ∈ {0.1 … 0.5}, n = 16 … 1024 (quick) or 16384 (full), every depth simulated from just below the bound up to the smallest balancing one (one seed: the bound does not depend on the placement). The bound is read with the tolerance, x(α) log₂(n/(1+ε)): a piece of (1−α)^h > (1+ε)/n alone overloads its PE.",
            criterion: "PASS iff no simulated depth h < x(α)·log₂(n/(1+ε)) reached max load ≤ (1+ε)·average.",
            if_fail: "A bug: the bound is deterministic for the adversarial split.",
            run: thm4,
        },
        Experiment {
            id: "004-crossover",
            source: "paper 004, §4.1",
            claim: "\"T_par ∈ (1+ε) T_seq/n + O(d + l) + T_split O(n^(x(α)−1) (log n)^(x(α)+1)) … For example for α > 0.37… (α > 0.29…) communication costs asymptotically dominate splitting costs on a mesh-connected (ring-connected) machine.\"",
            premises: "§4.1: h chosen by Theorem 3 so that L_max ≤ (1+ε)T_seq/n; n PEs on a network of diameter d; the splitting overhead is h·2^h/n splits per PE; asymptotic in n, polylogarithmic factors ignored.",
            model: LOADS_MODEL,
            inside: "Partly: this judges the splitting term's growth with n (the exponent x(α) − 1 that sets the thresholds), from the smallest balancing depth of one seed, not the crossover of running times itself (which needs message lengths and the network's diameter in the simulator); n = 16 … 1024 (quick) or 16384 (full) is far from asymptotic.",
            criterion: "PASS iff for every α with ≥ 3 measured n the log-log exponent of the splitting overhead h·2^h/n (from the smallest balancing h of the depth sweep) is within ±0.5 of the local exponent of n^(x−1)(log n)^(x+1) over the same n.",
            if_fail: "The smallest h moves in steps of 1, which doubles 2^h: over a 64× range of n the exponent is coarse.",
            run: crossover,
        },
        Experiment {
            id: "004-sec5.2",
            source: "paper 004, §5.2",
            claim: "\"Randomized static load balancing has been implemented as one of the load balancers in the parallel tree search library PIGSeL. However, it cannot currently compete with the 'Random Polling' dynamic load balancing algorithm which achieves almost perfect speedup on a 1024-PE mesh-connected transputer system for quite small problem instances of irregular tree search problems like the knapsack problem, the 15-Puzzle and search for 'Golomb rulers'.\"",
            premises: "§5.2: a report of measurements (ref. [21]) on a 1024-PE mesh of transputers with PIGSeL's implementations; instance sizes and machine constants are not given.",
            model: "simulator, paper 000 §1.1's machine model stated in full: a 32 × 32 mesh, T_send = T_recv = 5 per message (T_send + T_recv = T_rout = 10: blocking messages), 1 time unit of latency per hop, T_split = 5, Δt = 10, no random delay; the library's random polling and random-static (Theorem 3's depth from the task's size estimates, Feistel permutation) at their defaults; efficiency = sequential work / (P·T_par), the answer checked against the sequential run.",
            inside: "Partly: P = 1024 on a mesh as in the paper; the instances are ours (Golomb 10 marks, a 24-item knapsack, Korf's #57 — quick; Golomb 11, a 28-item knapsack, Korf's #46 — full; the knapsack is subset-sum-like, profit = weight with an odd capacity, so that branch-and-bound cannot stop early), the 15-puzzle as one complete IDA* iteration at the optimal bound, 1 (quick) or 2 (full) seeds; the transputers' constants are not known, so T_rout = 10 work units is a choice.",
            criterion: "PASS iff on each of the three searches random polling is more efficient than randomized static and reaches efficiency ≥ 0.8; INCONCLUSIVE iff it is more efficient everywhere but below 0.8 somewhere (instances too small to show almost perfect speedup); FAIL iff randomized static is at least as efficient as random polling on some search.",
            if_fail: "Randomized static competing with random polling would contradict the section's report for these applications (or show that the library's static depth is better than PIGSeL's was).",
            run: apps::section52,
        },
    ]
}
