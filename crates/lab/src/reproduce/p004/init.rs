//! Paper 004 §5.1: the static decomposition placed through a pseudorandom permutation as
//! the initialization of dynamic load balancing. Every subnetwork of sufficient size then
//! starts with about its share of the load, so random polling need not poll globally: polling
//! within submeshes of B PEs ("local polling") suffices, and on a mesh it shortens the
//! communication distance. Judged in the simulator on a 2-D mesh against the basic random
//! polling algorithm the paper names ([17]: global polling, the root on one PE): the paired
//! ratio T_par(permuted initialization + local polling) / T_par(basic random polling) over
//! the seeds, its 95 % bootstrap interval below 1 at every judged P.
//!
//! The control is local polling from the bare root (no permuted initialization), same
//! trees, machine, blocks and seeds: the blocks that start without load must wait for work
//! that never reaches them, and the same criterion must FAIL.
//!
//! The premise "load about even in every subnetwork" is read from the judged runs
//! themselves: with local polling no piece leaves its block, so a block's work done is the
//! load the initialization gave it.

use super::super::{
    bootstrap_ci, quantile, Control, Ctx, Finding, Plot, Premise, Series, Table, Verdict,
};
use rayon::prelude::*;
use treesplit::config::{PermutedInit, StaticPermutation};
use treesplit::machine::sim::{MessageModel, Topology};
use treesplit::{simulate, Balancer, Config, PollingOptions, SimConfig};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

/// Units per PE (T_seq/P), the hop cost (T_rout = T_hop), the splitting quality of the trees
/// (split fractions uniform in [α, 1−α]) and the block of local polling: B = 64 PEs, an
/// 8 × 8 submesh (the Morton labels' blocks of 64 on a square mesh of side a multiple of 8).
const PER_PE: u64 = 2048;
const T_HOP: u64 = 5;
const ALPHA: f64 = 0.25;
const BLOCK: u64 = 64;
const BLOCK_SIDE: usize = 8;
/// "About the same" load in every block: the most loaded block holds at most this much
/// more than its share T_seq·B/P (fixed before the runs).
const EVEN: f64 = 1.25;
/// Bootstrap resamples behind each interval.
const RESAMPLES: usize = 2000;

/// The three systems run on the same trees, machine and seeds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum System {
    /// Permuted initialization (GF(2^h) permutation, depth ⌈log₂ P⌉ + 2), then local polling.
    Judged,
    /// Basic random polling: global victims, the root on PE 0.
    Global,
    /// Global random polling after the same permuted initialization (shown, not judged).
    PermGlobal,
    /// Local polling from the bare root (the control).
    BareLocal,
}

impl System {
    fn balancer(self) -> Balancer {
        let init = PermutedInit {
            permutation: StaticPermutation::Gf2,
            depth: None,
        };
        let (permuted, locality) = match self {
            System::Judged => (Some(init), BLOCK),
            System::Global => (None, 0),
            System::PermGlobal => (Some(init), 0),
            System::BareLocal => (None, BLOCK),
        };
        Balancer::RandomPolling {
            polling: PollingOptions {
                permuted_init: permuted,
                ..PollingOptions::default()
            },
            locality,
        }
    }

    fn name(self) -> &'static str {
        match self {
            System::Judged => "permuted init + local polling (judged)",
            System::Global => "basic random polling (global, from the root)",
            System::PermGlobal => "permuted init + global polling (shown)",
            System::BareLocal => "local polling from the bare root (control)",
        }
    }
}

/// What one run measured: T_par, the largest generation, and the most loaded block's work
/// over its share T_seq·B/P.
#[derive(Debug, Clone, Copy)]
struct Run {
    t_par: f64,
    max_gen: u32,
    block_peak: f64,
}

/// The block (8 × 8 submesh) of PE `pe` on a square mesh of side `side`, row-major numbering.
fn block_of(pe: usize, side: usize) -> usize {
    let (row, col) = (pe / side, pe % side);
    (row / BLOCK_SIDE) * (side / BLOCK_SIDE) + col / BLOCK_SIDE
}

fn one(system: System, p: usize, seed: u64) -> Result<Run, String> {
    let work = PER_PE * p as u64;
    let params = SyntheticParams {
        work,
        alpha: ALPHA,
        atomic: 1,
        rule: SplitRule::Random,
        spin: 1,
        seed,
    };
    let sim = SimConfig {
        topology: Topology::Mesh2d,
        model: MessageModel::LatencyOnly,
        t_rout: T_HOP,
        t_hop: Some(T_HOP),
        t_split: 5,
        timeline_limit: 0,
        ..SimConfig::default()
    };
    let config = Config::new(p)
        .balancer(system.balancer())
        .delta_t(8)
        .seed(seed);
    let r = simulate(Synthetic::new(params)?, &config, &sim)
        .map_err(|e| e.to_string())?
        .into_report();
    if r.report.output.units != work {
        return Err(format!(
            "{}: {} units done of {work}",
            system.name(),
            r.report.output.units
        ));
    }
    let side = (p as f64).sqrt().round() as usize;
    let mut blocks = vec![0u64; (side / BLOCK_SIDE).pow(2)];
    for s in &r.report.per_pe {
        blocks[block_of(s.pe, side)] += s.counters.work_units;
    }
    let share = work as f64 * BLOCK as f64 / p as f64;
    Ok(Run {
        t_par: r.report.t_par,
        max_gen: r.report.totals.max_generation,
        block_peak: blocks.iter().copied().max().unwrap_or(0) as f64 / share,
    })
}

/// Per P: the runs of `system` over the seeds.
fn measure(system: System, ps: &[usize], seeds: &[u64]) -> Result<Vec<Vec<Run>>, String> {
    let jobs: Vec<(usize, u64)> = ps
        .iter()
        .flat_map(|&p| seeds.iter().map(move |&s| (p, s)))
        .collect();
    let runs: Vec<Run> = jobs
        .par_iter()
        .map(|&(p, s)| one(system, p, s))
        .collect::<Result<_, _>>()?;
    Ok(runs.chunks(seeds.len()).map(<[Run]>::to_vec).collect())
}

/// The paired ratios T_par(a)/T_par(b) over the seeds, their mean and its 95 % bootstrap
/// interval.
fn ratio(a: &[Run], b: &[Run]) -> (Vec<f64>, f64, (f64, f64)) {
    let r: Vec<f64> = a.iter().zip(b).map(|(x, y)| x.t_par / y.t_par).collect();
    let mean = |idx: &[usize]| idx.iter().map(|&i| r[i]).sum::<f64>() / idx.len() as f64;
    let all: Vec<usize> = (0..r.len()).collect();
    let m = mean(&all);
    let ci = bootstrap_ci(r.len(), RESAMPLES, mean);
    (r, m, ci)
}

pub(super) fn init(ctx: &Ctx) -> Result<Finding, String> {
    let ps: Vec<usize> = ctx.pick(vec![256, 1024], vec![256, 1024, 4096]);
    let seeds: Vec<u64> = (1..=ctx.pick(3, 10)).collect();
    let judged = measure(System::Judged, &ps, &seeds)?;
    let global = measure(System::Global, &ps, &seeds)?;
    let perm_global = measure(System::PermGlobal, &ps, &seeds)?;
    let control = measure(System::BareLocal, &ps, &seeds)?;
    let mut table = Table::new(&[
        "system",
        "P",
        "T_par median",
        "efficiency median",
        "T_par / T_par(basic random polling), mean",
        "95 % CI",
        "most loaded block / share, max",
    ]);
    let mut series = Vec::new();
    let mut failed = Vec::new();
    let mut control_failed = Vec::new();
    let mut judged_words = Vec::new();
    let mut control_words = Vec::new();
    for (system, runs) in [
        (System::Judged, &judged),
        (System::PermGlobal, &perm_global),
        (System::BareLocal, &control),
        (System::Global, &global),
    ] {
        let mut pts = Vec::new();
        for (i, &p) in ps.iter().enumerate() {
            let (_, m, ci) = ratio(&runs[i], &global[i]);
            let t: Vec<f64> = runs[i].iter().map(|r| r.t_par).collect();
            let e: Vec<f64> = t
                .iter()
                .map(|t| (PER_PE * p as u64) as f64 / (p as f64 * t))
                .collect();
            let peak = runs[i].iter().map(|r| r.block_peak).fold(0.0, f64::max);
            pts.push((p as f64, m));
            let cell = format!("[{:.3}, {:.3}]", ci.0, ci.1);
            let said = format!("P = {p}: {m:.3} {cell}");
            match system {
                System::Judged => {
                    if ci.1.is_nan() || ci.1 >= 1.0 {
                        failed.push(said.clone());
                    }
                    judged_words.push(said);
                }
                System::BareLocal => {
                    if ci.1.is_nan() || ci.1 >= 1.0 {
                        control_failed.push(said.clone());
                    }
                    control_words.push(said);
                }
                _ => {}
            }
            table.row(vec![
                system.name().into(),
                p.into(),
                quantile(&t, 0.5).into(),
                quantile(&e, 0.5).into(),
                m.into(),
                cell.into(),
                peak.into(),
            ]);
        }
        if system != System::Global {
            series.push(Series::points(system.name(), pts));
        }
    }
    let peak = judged
        .iter()
        .flatten()
        .map(|r| r.block_peak)
        .fold(0.0, f64::max);
    let gens_ok = ps
        .iter()
        .zip(&judged)
        .all(|(&p, runs)| runs.iter().all(|r| (1u64 << r.max_gen.min(63)) >= p as u64));
    Ok(Finding {
        prediction: format!("on a 2-D mesh, random polling that starts from the permuted static decomposition and polls only within 8 × 8 submeshes (B = {BLOCK}) finishes sooner than basic random polling: at every P the 95 % bootstrap interval of the mean paired ratio T_par(judged)/T_par(basic random polling) lies below 1"),
        measured: format!(
            "ratios {}; at or above 1: {}",
            judged_words.join("; "),
            if failed.is_empty() { "none".into() } else { failed.join("; ") }
        ),
        table,
        plot: Some(Plot {
            x: "P (2-D mesh)".into(),
            y: "T_par / T_par(basic random polling), mean over seeds".into(),
            log_x: true,
            log_y: true,
            series,
        }),
        verdict: Verdict::of(failed.is_empty()),
        remark: format!("T_seq/P = {PER_PE} units, split fractions uniform in [{ALPHA}, {}], T_atomic 1, T_hop = T_rout = {T_HOP}, T_split 5, Δt 8; permuted initialization with the GF(2^h) permutation of §4 at depth ⌈log₂ P⌉ + 2 (about four jobs per PE, 4B per block). The row 'permuted init + global polling' separates what the initialization gives from what local polling gives; it is not judged.", 1.0 - ALPHA),
        premises_measured: vec![
            Premise::new(
                format!("the load is about the same in every subnetwork of B = {BLOCK} PEs: in every judged run the most loaded block's work (no piece leaves a block under local polling) is at most {EVEN} × its share T_seq·B/P"),
                format!("largest over the judged runs: {peak:.3}"),
                peak <= EVEN,
            ),
            Premise::new(
                "the tree feeds every PE (T_seq ∈ Ω(P), h ∈ Ω(log P)): every judged run split down to generation ≥ log₂ P",
                format!("generation ≥ log₂ P in every judged run: {}; T_seq = {PER_PE}·P", if gens_ok { "yes" } else { "no" }),
                gens_ok,
            ),
        ],
        control: Some(Control {
            system: format!("local polling within the same blocks of B = {BLOCK} PEs started from the bare root on PE 0 (no permuted initialization), same trees, machine and seeds, through the same criterion"),
            measured: format!(
                "ratios {}; at or above 1: {}",
                control_words.join("; "),
                if control_failed.is_empty() { "none".into() } else { control_failed.len().to_string() + " of " + &ps.len().to_string() + " P" }
            ),
            verdict: Verdict::of(control_failed.is_empty()),
        }),
        seeds: Some(seeds.len()),
    })
}
