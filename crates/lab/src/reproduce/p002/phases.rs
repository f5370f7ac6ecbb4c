//! Paper 002 §3.1, Lemma 3: Õ(h) phases with at least γn idle PEs and a phase number below
//! log n − log(2/γ) suffice to split every subproblem down to generation h, after which one
//! phase longer than T_atomic finishes the work. So the number of such phases in a whole
//! run of hypercube poll-and-shuffle is Õ(h): one constant c bounds it over h at every n.
//!
//! The phases are read from the run: under the global clock, round r is [r·Δ, (r+1)·Δ), and
//! the library's cycle (pseudorandom permutation) is d = log₂ n asking rounds followed by
//! the permutation's slot of ⌈(largest latency + Δt)/Δ⌉ rounds, so round r asks along
//! dimension r mod (d + slot) when that is below d (checked against the permutations PE 0
//! made, a premise). A round counts when the utilization curve shows at least γn PEs idle at
//! some point in it (its most idle bin). Random polling, counted by the same code on the
//! same clock, is the control: its idle rounds are Θ(h·log n), the weaker bound.

use super::super::{quantile, Control, Ctx, Experiment, Finding, Premise, Table, Verdict};
use super::runs::{exceed, grid, log2_ceil, words, Fig, PerP};
use super::stats::tail_words;
use crate::experiments::poll_shuffle::poll_and_shuffle;
use treesplit::config::{PhaseSync, DEFAULT_ROUND};
use treesplit::machine::sim::Topology;
use treesplit::{simulate, Config};
use treesplit_apps::synthetic::Synthetic;

/// γ of the lemma (log(2/γ) = 2: phases numbered below d − 2 count).
const GAMMA: f64 = 0.5;
const PER_PE: u64 = 2048;
const DELTA_T: u64 = 8;

/// The library's cycle on the hypercube of `p` PEs: (asking rounds d, rounds per cycle).
fn cycle(p: usize, diameter_latency: u64) -> (u64, u64) {
    let d = u64::from(log2_ceil(p as u64));
    let slot = (diameter_latency + DELTA_T).div_ceil(DEFAULT_ROUND).max(1);
    (d, d + slot)
}

/// The rounds with at least γn PEs idle at some point and a phase number below d −
/// log(2/γ), from the utilization curve (bin start, fraction busy).
fn qualifying(curve: &[(u64, f64)], t_par: f64, d: u64, cycle: u64) -> u64 {
    let rounds = (t_par / DEFAULT_ROUND as f64).ceil() as u64;
    let low = d.saturating_sub((2.0 / GAMMA).log2() as u64);
    let end_of = |i: usize| curve.get(i + 1).map_or(t_par.ceil() as u64, |&(t, _)| t);
    (0..rounds)
        .filter(|r| r % cycle < low)
        .filter(|r| {
            let (a, b) = (r * DEFAULT_ROUND, (r + 1) * DEFAULT_ROUND);
            curve
                .iter()
                .enumerate()
                .filter(|(i, (s, _))| *s < b && end_of(*i) > a)
                .any(|(_, (_, busy))| 1.0 - busy >= GAMMA)
        })
        .count() as u64
}

/// One run: its figures, the qualifying phases, and whether PE 0's permutations match the
/// cycle model (poll-and-shuffle; always true for the control).
fn one(p: usize, seed: u64, shuffle: bool) -> Result<(Fig, u64, bool), String> {
    let work = PER_PE * p as u64;
    let params = super::runs::halves(work, seed);
    let b = if shuffle {
        poll_and_shuffle(DEFAULT_ROUND, None, PhaseSync::Global)
    } else {
        super::runs::random_polling()
    };
    let config = Config::new(p).balancer(b).delta_t(DELTA_T).seed(seed);
    let sim = super::runs::machine(Topology::Hypercube, 5);
    let r = simulate(Synthetic::new(params)?, &config, &sim)
        .map_err(|e| e.to_string())?
        .into_report();
    if r.report.output.units != work {
        return Err("lemma 3: wrong units".into());
    }
    let (d, len) = cycle(p, r.diameter_latency);
    let q = qualifying(&r.utilization, r.report.t_par, d, len);
    let ph = r.report.per_pe[0].phases.as_ref();
    let (phases, perms) = ph.map_or((0, 0), |ph| (ph.phases, ph.permutations));
    let model_ok = !shuffle || perms.abs_diff(phases / len) <= 1;
    let fig = Fig {
        p,
        t_par: r.report.t_par,
        t_seq: work as f64,
        transfers: r.report.totals.splits,
        messages: r.report.totals.messages,
        max_gen: r.report.totals.max_generation,
        phases,
        permutations: perms,
        estimates: 0,
    };
    Ok((fig, q, model_ok))
}

fn measure(ps: &[usize], seeds: &[u64], shuffle: bool) -> Result<(PerP, Vec<u64>, bool), String> {
    let runs: Vec<(Fig, u64, bool)> = grid(ps, seeds, |p, s| one(p, s, shuffle))?;
    let model_ok = runs.iter().all(|r| r.2);
    let per: PerP = ps
        .iter()
        .map(|&p| {
            let at: Vec<&(Fig, u64, bool)> = runs.iter().filter(|r| r.0.p == p).collect();
            let h = f64::from(log2_ceil(PER_PE * p as u64));
            (
                p,
                at.iter().map(|r| r.1 as f64 / h).collect(),
                at.iter().map(|r| r.0).collect(),
            )
        })
        .collect();
    let counts = runs.iter().map(|r| r.1).collect();
    Ok((per, counts, model_ok))
}

fn lemma3(ctx: &Ctx) -> Result<Finding, String> {
    let ps: Vec<usize> = ctx.pick(vec![16, 64, 256, 1024], vec![16, 64, 256, 1024, 4096]);
    let seeds: Vec<u64> = (1..=ctx.pick(3, 10)).collect();
    let (m, counts, model_ok) = measure(&ps, &seeds, true)?;
    let (cm, _, _) = measure(&ps, &seeds, false)?;
    let (c, over, n) = exceed(&m);
    let (cc, cover, _) = exceed(&cm);
    let (_, tail) = tail_words(over.len() as u64, n as u64, "runs", 1.0 / ps[2] as f64);
    let mut table = Table::new(&[
        "balancer",
        "P",
        "h",
        "qualifying phases / h (median)",
        "qualifying phases / h (max)",
        "phases of PE 0 (median)",
        "permutations (median)",
    ]);
    for (name, mm) in [
        ("poll-and-shuffle", &m),
        ("random polling (control, same clock)", &cm),
    ] {
        for (p, v, figs) in mm.iter() {
            let col =
                |f: &dyn Fn(&Fig) -> f64| quantile(&figs.iter().map(f).collect::<Vec<_>>(), 0.5);
            table.row(vec![
                name.into(),
                (*p).into(),
                log2_ceil(PER_PE * *p as u64).into(),
                quantile(v, 0.5).into(),
                quantile(v, 1.0).into(),
                col(&|f: &Fig| f.phases as f64).into(),
                col(&|f: &Fig| f.permutations as f64).into(),
            ]);
        }
    }
    let counted = counts.iter().all(|&q| q > 0);
    let judged = format!("P = {}…{}", ps[2], ps[ps.len() - 1]);
    Ok(Finding {
        prediction: format!("Lemma 3: the phases with at least γn idle PEs (γ = {GAMMA}) and a number below log n − log(2/γ) that a run goes through are Õ(h): one constant c bounds their number over h at every n; c = 1.5 × the largest over the seeds at P = {} and {} = {c:.2} (calibration, not judged)", ps[0], ps[1]),
        measured: format!("poll-and-shuffle runs at {judged} with more than c·h such phases: {}; {tail}", words(&over)),
        table,
        plot: None,
        verdict: Verdict::of(over.is_empty()),
        remark: format!("A round counts when its most idle bin of the utilization curve has at least γn PEs idle (\"at any point during this phase\"); Δ = T_phase = {DEFAULT_ROUND} > T_atomic = 1, so once every subproblem has generation ≥ h the next phase ends the work and the whole run's count is the lemma's Õ(h) plus O(1). Trees of exact halves, T_seq/n = {PER_PE}."),
        premises_measured: vec![
            Premise::new(
                "the phases read from the run are the algorithm's: PE 0's permutations equal its rounds over the cycle length d + slot (±1) in every run",
                format!("cycle model matches in every run: {}", if model_ok { "yes" } else { "no" }),
                model_ok,
            ),
            Premise::new(
                "phases with at least γn idle PEs occur (else the lemma is not exercised)",
                format!("qualifying phases per run: {}…{}", counts.iter().min().unwrap_or(&0), counts.iter().max().unwrap_or(&0)),
                counted,
            ),
            Premise::new(
                "h ∈ Ω(log n) and T_phase > T_atomic",
                format!("h = ⌈log₂(2048·P)⌉ = {} at P = {}; T_phase = {DEFAULT_ROUND}, T_atomic = 1", ps.iter().map(|&p| log2_ceil(PER_PE * p as u64).to_string()).collect::<Vec<_>>().join(", "), ps.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")),
                ps.iter().all(|&p| f64::from(log2_ceil(PER_PE * p as u64)) >= (p as f64).log2()) && DEFAULT_ROUND > 1,
            ),
        ],
        control: Some(Control {
            system: "random polling on the same hypercube, trees and seeds, its rounds counted by the same code on the same clock and cycle (its idle time is Θ(h·log n)), its own c calibrated the same way".into(),
            measured: format!("c = {cc:.2}; runs at {judged} above c·h: {}", words(&cover)),
            verdict: Verdict::of(cover.is_empty()),
        }),
        seeds: Some(seeds.len()),
    })
}

pub(super) fn experiments() -> Vec<Experiment> {
    vec![claim!("p002", "002-lemma3", lemma3)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round counts when one of its bins has at least γn idle and its phase number lies
    /// below d − log(2/γ); a busy round, or an idle round with a high number, does not.
    #[test]
    fn only_idle_low_numbered_rounds_count() {
        // Ten rounds of Δ = 50 in bins of 10; d = 4, cycles of 5 rounds: positions 0 and 1
        // count (4 − log₂ 4 = 2).
        let mut curve: Vec<(u64, f64)> = (0..50).map(|i| (i * 10, 1.0)).collect();
        curve[6].1 = 0.4; // round 1 (position 1): idle 0.6 in one bin
        for bin in &mut curve[10..15] {
            bin.1 = 0.0; // round 2 (position 2): all idle, too high a number
        }
        curve[27].1 = 0.5; // round 5 (position 0): idle exactly γ
        curve[31].1 = 0.6; // round 6 (position 1): idle 0.4 < γ
        assert_eq!(qualifying(&curve, 500.0, 4, 5), 2);
    }
}
