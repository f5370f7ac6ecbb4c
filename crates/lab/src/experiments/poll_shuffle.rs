//! Poll-and-shuffle sweeps (paper 002 §5, §6.1, §6.3), in the simulator:
//!
//! - [`adaptive_rows`]: adaptive triggering — idle notifications per d = ⌈log₂ P⌉ phases
//!   against Lemma 4 (Õ(log n)), and PE 0's estimates γ̂ against the true idle fraction γ̄ of
//!   the same phases from the simulator's utilization curve (Lemma 5: γ̂ ≥ γ̄ − ε w.h.p.);
//! - [`sync_rows`]: global clock against local synchronization (§6.3), efficiency and
//!   phases;
//! - [`knapsack_piece_bytes`]: bytes of a knapsack piece on the wire with the whole instance
//!   (before) and as a path from the root (after, §6.1);
//! - [`mesh_rows`]: Theorem 3's comparison at the command line's defaults — poll-and-shuffle
//!   against random polling on a 2-D mesh, per seed, with and without message overheads,
//!   with the number of cycles whose permutation had not completed before the next cycle
//!   ([`mesh_run`]: one such run, optionally with a random delay per message).

use serde::Serialize;
use std::sync::Arc;
use treesplit::config::{Adaptive, PermutationKind, PhaseSync};
use treesplit::machine::sim::MessageLength;
use treesplit::machine::sim::{Delay, MessageModel, Topology};
use treesplit::stats::IdleEstimate;
use treesplit::{simulate, Balancer, Config, PollingOptions, SimConfig, SimReport, Task};
use treesplit_apps::knapsack::{Instance, Knapsack};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

/// The synthetic α-splitting tree of the sweeps (paper 004's model, random split ratios).
pub fn synthetic(work: u64, alpha: f64, seed: u64) -> Synthetic {
    Synthetic::new(SyntheticParams {
        work,
        alpha,
        atomic: 1,
        rule: SplitRule::Random,
        spin: 1,
        seed,
    })
    .expect("valid synthetic parameters")
}

/// Poll-and-shuffle with the pseudorandom permutation and the given synchronization.
pub fn poll_and_shuffle(round: u64, adaptive: Option<Adaptive>, sync: PhaseSync) -> Balancer {
    Balancer::PollAndShuffle {
        polling: PollingOptions::default(),
        round,
        permutation: PermutationKind::Pseudorandom,
        adaptive,
        sync,
        embedding: Default::default(),
    }
}

/// One adaptive run: Lemma 4's and Lemma 5's figures.
#[derive(Debug, Clone, Serialize)]
pub struct AdaptiveRow {
    /// PEs.
    pub pes: usize,
    /// The notification constant c.
    pub c: f64,
    /// d = ⌈log₂ P⌉.
    pub dims: u64,
    /// Phases PE 0 went through.
    pub phases: u64,
    /// Idle notifications sent by all PEs.
    pub notes: u64,
    /// Notifications per d phases (Lemma 4: Õ(log n); expected c·γ̄·d).
    pub notes_per_cycle: f64,
    /// Estimates PE 0 made.
    pub estimates: usize,
    /// Mean of γ̂ − γ̄ over the estimates.
    pub mean_error: f64,
    /// Fraction of estimates with γ̂ < γ̄ − 0.1 (Lemma 5: small for c large enough).
    pub under_by_0_1: f64,
    /// Permutations PE 0 triggered.
    pub triggered: usize,
    /// Efficiency T_seq/(P·T_par).
    pub efficiency: f64,
    /// PE 0's estimate windows: (phases in the window, notifications stamped in it). Not
    /// serialized, so that the experiment's output stays as it was.
    #[serde(skip)]
    pub windows: Vec<(u64, u64)>,
    /// γ̂ − γ̄ of each of PE 0's estimates (Lemma 5 judged at any ε). Not serialized.
    #[serde(skip)]
    pub errors: Vec<f64>,
}

/// The fraction of PEs idle over virtual time `[from, to)` from the utilization curve
/// (bin start, fraction busy), weighting bins by their overlap.
pub fn idle_fraction(curve: &[(u64, f64)], t_par: f64, from: u64, to: u64) -> f64 {
    let end_of = |i: usize| curve.get(i + 1).map_or(t_par.ceil() as u64, |&(t, _)| t);
    let (mut busy, mut span) = (0.0, 0.0);
    for (i, &(start, f)) in curve.iter().enumerate() {
        let (a, b) = (start.max(from), end_of(i).min(to));
        if b > a {
            busy += f * (b - a) as f64;
            span += (b - a) as f64;
        }
    }
    if span == 0.0 {
        return 0.0;
    }
    1.0 - busy / span
}

/// γ̂ − γ̄ for each of PE 0's estimates under a global clock of phase length `round`.
pub fn estimate_errors<O>(s: &SimReport<O>, round: u64) -> Vec<(IdleEstimate, f64)> {
    let estimates = s.report.per_pe[0]
        .phases
        .as_ref()
        .map(|p| p.estimates.clone())
        .unwrap_or_default();
    estimates
        .into_iter()
        .map(|e| {
            let truth = idle_fraction(&s.utilization, s.report.t_par, e.from * round, e.to * round);
            (e, truth)
        })
        .collect()
}

/// Adaptive poll-and-shuffle (global clock, phase length `round`) on the synthetic tree of
/// `work` units (α = 0.3) for each P, notification constant `c`, γ = 0.25.
pub fn adaptive_rows(
    pes: &[usize],
    c: f64,
    work: u64,
    round: u64,
    net: &SimConfig,
) -> Vec<AdaptiveRow> {
    adaptive_rows_seeded(pes, c, work, round, net, 1)
}

/// [`adaptive_rows`] with the tree and the machine seeded by `seed` (seed 1 is
/// [`adaptive_rows`]' run), so that tails over runs can be read from several seeds.
pub fn adaptive_rows_seeded(
    pes: &[usize],
    c: f64,
    work: u64,
    round: u64,
    net: &SimConfig,
    seed: u64,
) -> Vec<AdaptiveRow> {
    pes.iter()
        .map(|&p| {
            let config = Config::new(p)
                .balancer(poll_and_shuffle(
                    round,
                    Some(Adaptive { c, gamma: 0.25 }),
                    PhaseSync::Global,
                ))
                .delta_t(10)
                .seed(seed);
            let s = simulate(synthetic(work, 0.3, seed), &config, net)
                .expect("simulation")
                .into_report();
            let dims = u64::from(usize::BITS - (p.max(2) - 1).leading_zeros());
            let notes: u64 = s
                .report
                .per_pe
                .iter()
                .filter_map(|pe| pe.phases.as_ref())
                .map(|ph| ph.idle_notes)
                .sum();
            let phases = s.report.per_pe[0].phases.as_ref().map_or(0, |ph| ph.phases);
            let errors = estimate_errors(&s, round);
            let n = errors.len().max(1) as f64;
            AdaptiveRow {
                pes: p,
                c,
                dims,
                phases,
                notes,
                notes_per_cycle: notes as f64 * dims as f64 / phases.max(1) as f64,
                estimates: errors.len(),
                mean_error: errors.iter().map(|(e, t)| e.gamma_hat - t).sum::<f64>() / n,
                under_by_0_1: errors.iter().filter(|(e, t)| e.gamma_hat < t - 0.1).count() as f64
                    / n,
                triggered: errors.iter().filter(|(e, _)| e.triggered).count(),
                efficiency: s.report.efficiency().unwrap_or(0.0),
                windows: errors
                    .iter()
                    .map(|(e, _)| (e.to - e.from, e.notes))
                    .collect(),
                errors: errors.iter().map(|(e, t)| e.gamma_hat - t).collect(),
            }
        })
        .collect()
}

/// One run of [`sync_rows`].
#[derive(Debug, Clone, Serialize)]
pub struct SyncRow {
    /// PEs.
    pub pes: usize,
    /// "global" or "local".
    pub sync: String,
    /// Virtual T_par.
    pub t_par: f64,
    /// Efficiency.
    pub efficiency: f64,
    /// Phases PE 0 went through (local) — global runs report none.
    pub phases: u64,
    /// Work requests sent (local: idle phase markers).
    pub requests: u64,
    /// Messages sent.
    pub messages: u64,
}

/// Non-adaptive poll-and-shuffle with the pseudorandom permutation on `net`, global clock
/// (phase `round` time units) against local synchronization (phase `round` work units), on
/// the synthetic tree of `work` units; answers and work are checked against the tree.
pub fn sync_rows(pes: &[usize], work: u64, round: u64, net: &SimConfig) -> Vec<SyncRow> {
    let mut rows = Vec::new();
    for &p in pes {
        for sync in [PhaseSync::Global, PhaseSync::Local] {
            let config = Config::new(p)
                .balancer(poll_and_shuffle(round, None, sync))
                .delta_t(10)
                .seed(1);
            let s = simulate(synthetic(work, 0.3, 1), &config, net)
                .expect("simulation")
                .into_report();
            assert_eq!(s.report.totals.work_units, work, "work conserved");
            rows.push(SyncRow {
                pes: p,
                sync: sync.to_string(),
                t_par: s.report.t_par,
                efficiency: s.report.efficiency().unwrap_or(0.0),
                phases: s.report.per_pe[0].phases.as_ref().map_or(0, |ph| ph.phases),
                requests: s.report.totals.requests,
                messages: s.report.totals.messages,
            });
        }
    }
    rows
}

/// Bytes of knapsack pieces on the wire (postcard).
#[derive(Debug, Clone, Serialize)]
pub struct PieceBytes {
    /// Items of the instance.
    pub items: usize,
    /// The root piece (it carries the instance, both before and after).
    pub root: usize,
    /// Split-off pieces measured.
    pub pieces: usize,
    /// Mean bytes of a split-off piece carrying the whole instance (before).
    pub before: f64,
    /// Mean bytes of a split-off piece as digest + path of decisions (after).
    pub after: f64,
    /// Largest path (decided items) among them.
    pub max_path: usize,
    /// Mean bytes of the piece kept after each split (its whole depth-first stack: what
    /// poll-and-shuffle's permutations ship), with the instance and whole frames (before).
    pub kept_before: f64,
    /// The same as digest, decision bits and 4 bits a frame (after).
    pub kept_after: f64,
    /// Deepest stack kept (frames).
    pub max_stack: usize,
}

/// Split a knapsack root repeatedly (working a little between splits) and measure the
/// pieces given away: as they travel now and as they did with the whole instance inside.
pub fn knapsack_piece_bytes(instance: Arc<Instance>, splits: usize) -> PieceBytes {
    use treesplit::task::SharedIncumbent;
    use treesplit::Context;
    let mut root = Knapsack::new(Arc::clone(&instance));
    let mut inline = Knapsack::new(Arc::clone(&instance)).with_inline_instance();
    let root_bytes = postcard::to_allocvec(&root).expect("serializes").len();
    let size = |k: &Knapsack| postcard::to_allocvec(k).expect("serializes").len();
    let (mut out, inc) = (Default::default(), SharedIncumbent::new());
    let (mut before, mut after, mut pieces, mut max_path) = (0usize, 0usize, 0usize, 0usize);
    let (mut kept_before, mut kept_after, mut max_stack) = (0usize, 0usize, 0usize);
    for _ in 0..splits {
        // The two searches take the same steps (same incumbent history), so their pieces are
        // the same subproblems in two representations.
        root.work(50, &mut Context::new(&mut out, &inc, 0));
        let mut out2 = Default::default();
        inline.work(50, &mut Context::new(&mut out2, &SharedIncumbent::new(), 0));
        let (Some(piece), Some(whole)) = (root.split(), inline.split()) else {
            break;
        };
        assert_eq!(piece.path_len(), whole.path_len(), "lockstep");
        max_path = max_path.max(piece.path_len());
        after += size(&piece);
        before += size(&whole);
        kept_after += size(&root);
        kept_before += size(&inline);
        max_stack = max_stack.max(root.stack_len());
        pieces += 1;
    }
    let n = pieces.max(1) as f64;
    PieceBytes {
        items: instance.len(),
        root: root_bytes,
        pieces,
        before: before as f64 / n,
        after: after as f64 / n,
        max_path,
        kept_before: kept_before as f64 / n,
        kept_after: kept_after as f64 / n,
        max_stack,
    }
}

/// One knapsack run with message lengths charged: compact pieces against pieces that carry
/// the whole instance (§6.1).
#[derive(Debug, Clone, Serialize)]
pub struct KnapsackLengthRow {
    /// The network.
    pub network: String,
    /// PEs.
    pub pes: usize,
    /// The balancer.
    pub balancer: String,
    /// Virtual time per byte (0: lengths not charged).
    pub byte_time: f64,
    /// Packet or cut-through routing.
    pub routing: String,
    /// Pieces carry the whole instance (before §6.1) rather than a path.
    pub inline: bool,
    /// The optimum found (checked equal across rows by the caller).
    pub profit: u64,
    /// Virtual T_par.
    pub t_par: u64,
    /// Nodes searched / (P·T_par).
    pub efficiency: f64,
    /// Nodes searched by all PEs.
    pub nodes: u64,
    /// Pieces received by all PEs.
    pub pieces: u64,
    /// Bytes of all messages.
    pub bytes: u64,
    /// Requests sent.
    pub requests: u64,
    /// Events simulated.
    pub events: u64,
    /// Real seconds the simulation took.
    pub wall_seconds: f64,
}

/// Knapsack on `machine` (its `length` replaced by each of `lengths`, None = not charged),
/// P = `pes`, with compact and with inline pieces.
pub fn knapsack_length_rows(
    instance: &Arc<Instance>,
    pes: usize,
    balancer: &Balancer,
    machine: &SimConfig,
    lengths: &[Option<MessageLength>],
) -> Result<Vec<KnapsackLengthRow>, String> {
    let config = Config::new(pes).balancer(*balancer).delta_t(10).seed(1);
    let mut rows = Vec::new();
    for &length in lengths {
        for inline in [true, false] {
            let root = Knapsack::new(Arc::clone(instance));
            let root = if inline {
                root.with_inline_instance()
            } else {
                root
            };
            let sim = SimConfig {
                length,
                ..machine.clone()
            };
            let s = simulate(root, &config, &sim)
                .map_err(|e| e.to_string())?
                .into_report();
            let t = &s.report.totals;
            rows.push(KnapsackLengthRow {
                network: sim.topology.to_string(),
                pes,
                balancer: balancer.kind().to_string(),
                byte_time: length.map_or(0.0, |l| l.byte_time),
                routing: length.map_or("-".into(), |l| l.routing.to_string()),
                inline,
                profit: s.report.output.profit,
                t_par: s.report.t_par as u64,
                efficiency: s.report.efficiency().unwrap_or(0.0),
                nodes: t.work_units,
                pieces: t.pieces_received,
                bytes: t.bytes,
                requests: t.requests,
                events: s.events,
                wall_seconds: s.wall_seconds,
            });
        }
    }
    Ok(rows)
}

/// The default machine of the sweeps: `topology`, T_rout = 10 per hop (`t_hop`), T_split 5,
/// latency only (paper 002 §2.1: messages cost the PEs no time of their own).
pub fn machine(topology: Topology) -> SimConfig {
    SimConfig {
        topology,
        model: MessageModel::LatencyOnly,
        t_rout: 10,
        t_hop: Some(10),
        t_split: 5,
        ..SimConfig::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_fraction_weights_bins_by_overlap() {
        let curve = [(0, 1.0), (10, 0.5), (20, 0.0)];
        assert!((idle_fraction(&curve, 30.0, 0, 10) - 0.0).abs() < 1e-9);
        assert!((idle_fraction(&curve, 30.0, 5, 15) - 0.25).abs() < 1e-9);
        assert!((idle_fraction(&curve, 30.0, 20, 30) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn compact_knapsack_pieces_are_much_smaller() {
        let items: Vec<(u64, u64)> = (1..=200)
            .map(|i| (i * 7 % 97 + 1, i * 13 % 89 + 1))
            .collect();
        let inst = Arc::new(Instance::new(2000, &items).unwrap());
        let b = knapsack_piece_bytes(inst, 20);
        assert!(b.pieces > 0);
        assert!(b.root > 200 * 3, "the root carries the instance: {b:?}");
        assert!(b.after * 10.0 < b.before, "{b:?}");
        assert!(b.after < 80.0, "digest + O(h) bits + frame: {b:?}");
    }
}

/// One run of [`mesh_rows`].
#[derive(Debug, Clone, Serialize)]
pub struct MeshRow {
    /// PEs.
    pub pes: usize,
    /// T_send = T_recv (0: latency only).
    pub overhead: u64,
    /// Seed (machine and tree).
    pub seed: u64,
    /// "poll-and-shuffle" or "random-polling".
    pub algorithm: String,
    /// Virtual T_par.
    pub t_par: f64,
    /// T_seq/(P·T_par).
    pub efficiency: f64,
    /// Poll-and-shuffle: permutations (PE 0) and cycles whose permutation had not completed
    /// when the next cycle began.
    pub permutations: u64,
    /// See `permutations`.
    pub incomplete: usize,
}

/// Theorem 3's comparison on a 2-D mesh at the command line's defaults (T_rout = T_hop = 10,
/// T_split = 5, Δt = 10, poll-and-shuffle with the Morton embedding, its default phase and
/// permutation): synthetic α = 0.3 trees of `work` units (tree seed 0, as
/// `treesplit sim synthetic --work W --alpha 0.3 --spin 1`), machine seeds `seeds`, with
/// T_send = T_recv = each of `overheads`.
pub fn mesh_rows(pes: usize, work: u64, seeds: &[u64], overheads: &[u64]) -> Vec<MeshRow> {
    use super::networks::Algorithm;
    use rayon::prelude::*;
    let jobs: Vec<(u64, u64, Algorithm)> = overheads
        .iter()
        .flat_map(|&o| {
            seeds.iter().flat_map(move |&s| {
                [Algorithm::PollAndShuffle, Algorithm::RandomPolling].map(|a| (o, s, a))
            })
        })
        .collect();
    jobs.par_iter()
        .map(|&(overhead, seed, algorithm)| {
            mesh_run(pes, work, seed, overhead, algorithm, Delay::None)
        })
        .collect()
}

/// One run of [`mesh_rows`]' setting: `algorithm` with machine seed `seed`, T_send = T_recv =
/// `overhead`, and a random extra `delay` per message (none in [`mesh_rows`]).
pub fn mesh_run(
    pes: usize,
    work: u64,
    seed: u64,
    overhead: u64,
    algorithm: super::networks::Algorithm,
    delay: Delay,
) -> MeshRow {
    use super::networks::config;
    let sim = SimConfig {
        topology: Topology::Mesh2d,
        t_rout: super::networks::T_ROUT,
        t_split: super::networks::T_SPLIT,
        // T_send + T_recv ≥ T_rout is paper 000 §1.1's blocking model; less is
        // latency only with those overheads.
        model: if 2 * overhead >= super::networks::T_ROUT {
            MessageModel::Blocking
        } else {
            MessageModel::LatencyOnly
        },
        t_send: Some(overhead),
        t_recv: Some(overhead),
        delay,
        timeline_limit: 0,
        ..SimConfig::default()
    };
    let config = config(Topology::Mesh2d, pes, algorithm, seed);
    let r = simulate(synthetic(work, 0.3, 0), &config, &sim)
        .expect("the mesh comparison runs")
        .into_report();
    let phases: Vec<_> = r
        .report
        .per_pe
        .iter()
        .filter_map(|pe| pe.phases.as_ref())
        .collect();
    MeshRow {
        pes,
        overhead,
        seed,
        algorithm: algorithm.to_string(),
        t_par: r.report.t_par,
        efficiency: r.report.efficiency().unwrap_or(0.0),
        permutations: phases.first().map_or(0, |p| p.permutations),
        incomplete: treesplit::stats::PhaseStats::incomplete_cycles(phases.iter().copied()),
    }
}
