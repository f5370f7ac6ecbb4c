//! Paper 002 §1.1's account of random polling ([27]): T_par ∈ (1+ε)T_seq/n + O(dh) with
//! high probability on crossbars, butterflies and meshes (d the network's diameter), one
//! claim per network, each judged like Theorem 1 (002-thm1): one constant c bounds
//! L/(d·h), L = T_par − T_seq/n, at every n; c calibrated at the two smallest P (runs not
//! judged), the larger P judged run by run, the tail read as an upper confidence bound.
//!
//! The control is random polling on a machine that violates the bound: every hop costs
//! log₂ n times as much (a poller with an O(d·h·log n) term), same trees, P and seeds, its
//! own c calibrated the same way.

use super::super::{Control, Ctx, Experiment, Finding, Plot, Premise, Series, Table, Verdict};
use super::runs::{exceed, grid, log2_ceil, machine, per_p, run, words, Fig, PerP};
use super::stats::tail_words;
use std::collections::HashMap;
use treesplit::machine::sim::{Delay, Network, Topology};
use treesplit_apps::synthetic::Synthetic;

/// Units per PE (T_seq/n, as 002-thm1) and the hop cost of the judged machine.
const PER_PE: u64 = 2048;
const T_HOP: u64 = 5;

/// The diameter of `network` on `p` PEs, in hops.
fn diameter(network: Topology, p: usize) -> u64 {
    Network::new(network, p, 1, Delay::None, HashMap::new()).diameter_latency()
}

/// One run of random polling: trees of exact halves (h = ⌈log₂ T_seq⌉, every leaf at
/// generation h), PER_PE·P units; the hop cost T_HOP, or T_HOP·log₂ P for the control.
fn one(network: Topology, p: usize, seed: u64, control: bool) -> Result<Fig, String> {
    let work = PER_PE * p as u64;
    let params = super::runs::halves(work, seed);
    let hop = if control {
        T_HOP * u64::from(log2_ceil(p as u64))
    } else {
        T_HOP
    };
    let b = super::runs::random_polling();
    run(
        Synthetic::new(params)?,
        work,
        |o| o.units,
        b,
        p,
        &machine(network, hop),
        seed,
    )
}

fn measure(network: Topology, ps: &[usize], seeds: &[u64], control: bool) -> Result<PerP, String> {
    let figs = grid(ps, seeds, |p, s| one(network, p, s, control))?;
    Ok(per_p(ps, &figs, |p, f| {
        f.lower_order() / ((diameter(network, p) * T_HOP) as f64 * f64::from(h_of(p)))
    }))
}

fn h_of(p: usize) -> u32 {
    log2_ceil(PER_PE * p as u64)
}

fn judge(ctx: &Ctx, network: Topology) -> Result<Finding, String> {
    let ps: Vec<usize> = ctx.pick(vec![16, 64, 256, 1024], vec![16, 64, 256, 1024, 4096]);
    let seeds: Vec<u64> = (1..=ctx.pick(3, 10)).collect();
    let m = measure(network, &ps, &seeds, false)?;
    let cm = measure(network, &ps, &seeds, true)?;
    let (c, over, n) = exceed(&m);
    let (cc, cover, _) = exceed(&cm);
    let (_, tail) = tail_words(over.len() as u64, n as u64, "runs", 1.0 / ps[2] as f64);
    let mut table = Table::new(&[
        "machine",
        "P",
        "d (hops)",
        "h",
        "L median",
        "L/(d·h·T_hop) median",
        "L/(d·h·T_hop) max",
        "efficiency median",
    ]);
    let mut series = Vec::new();
    for (name, mm) in [
        ("hop T_hop (judged)", &m),
        ("hop T_hop·log₂ n (control)", &cm),
    ] {
        let mut pts = Vec::new();
        for (p, v, figs) in mm.iter() {
            let l: Vec<f64> = figs.iter().map(Fig::lower_order).collect();
            let e: Vec<f64> = figs.iter().map(Fig::efficiency).collect();
            pts.push((*p as f64, super::super::quantile(v, 0.5)));
            table.row(vec![
                name.into(),
                (*p).into(),
                diameter(network, *p).into(),
                h_of(*p).into(),
                super::super::quantile(&l, 0.5).into(),
                super::super::quantile(v, 0.5).into(),
                super::super::quantile(v, 1.0).into(),
                super::super::quantile(&e, 0.5).into(),
            ]);
        }
        series.push(Series::points(name, pts));
    }
    let gens_ok = m
        .iter()
        .all(|(p, _, f)| f.iter().all(|f| (1u64 << f.max_gen.min(63)) >= *p as u64));
    let h_ok = ps.iter().all(|&p| f64::from(h_of(p)) >= (p as f64).log2());
    let judged = format!("P = {}…{}", ps[2], ps[ps.len() - 1]);
    Ok(Finding {
        prediction: format!("random polling on the {network}: T_par ∈ (1+ε)T_seq/n + O(dh) w.h.p.: one constant c bounds L/(d·h·T_hop) at every n; c = 1.5 × the largest over the seeds at P = {} and {} = {c:.3} (calibration, not judged)", ps[0], ps[1]),
        measured: format!("runs at {judged} with L/(d·h·T_hop) > c: {}; {tail}", words(&over)),
        table,
        plot: Some(Plot {
            x: format!("P ({network})"),
            y: "L/(d·h·T_hop), median over seeds".into(),
            log_x: true,
            log_y: true,
            series,
        }),
        verdict: Verdict::of(over.is_empty()),
        remark: format!("T_seq/n = {PER_PE} units, trees of exact halves, T_hop = T_rout = {T_HOP}, T_split 5, Δt 8; ε = 0 (L is measured against T_seq/n itself, the strictest reading)."),
        premises_measured: vec![
            Premise::new(
                "h ∈ Ω(log n): h ≥ log₂ n at every P",
                format!("h = {} at P = {}", ps.iter().map(|&p| h_of(p).to_string()).collect::<Vec<_>>().join(", "), ps.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")),
                h_ok,
            ),
            Premise::new(
                "T_seq ∈ Ω(n) and the tree feeds every PE: every run split down to generation ≥ log₂ P",
                format!("T_seq/n = {PER_PE}; generation ≥ log₂ P in every run: {}", if gens_ok { "yes" } else { "no" }),
                gens_ok,
            ),
        ],
        control: Some(Control {
            system: "random polling on the same network, trees and seeds with every hop costing T_hop·log₂ n (an O(d·h·log n) lower-order term), its own c calibrated the same way".into(),
            measured: format!("c = {cc:.3}; runs at {judged} above c: {}", words(&cover)),
            verdict: Verdict::of(cover.is_empty()),
        }),
        seeds: Some(seeds.len()),
    })
}

fn crossbar(ctx: &Ctx) -> Result<Finding, String> {
    judge(ctx, Topology::Crossbar)
}

fn butterfly(ctx: &Ctx) -> Result<Finding, String> {
    judge(ctx, Topology::Butterfly)
}

fn mesh(ctx: &Ctx) -> Result<Finding, String> {
    judge(ctx, Topology::Mesh2d)
}

pub(super) fn experiments() -> Vec<Experiment> {
    vec![
        claim!("p002", "002-random-polling-crossbar", crossbar),
        claim!("p002", "002-random-polling-butterfly", butterfly),
        claim!("p002", "002-random-polling-mesh", mesh),
    ]
}
