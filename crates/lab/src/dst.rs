//! Deterministic simulation testing: random runs of the protocols in the simulator, on
//! random applications, networks, delays and adversaries, each checked against the
//! sequential answer.
//!
//! A case is drawn from one seed; [`Case::command_line`] prints the `treesplit sim …`
//! command that replays it exactly (the balancer's flags are the library's own,
//! `Balancer::flags`). Balancers, networks and permutations are drawn by name
//! ([`crate::dst_strata`]): a new balancer or network takes its share of the seeds and leaves
//! every other seed's case as it was; [`Case::of`] draws the case of a seed for a given
//! balancer (and network), which is how the golden corpus lists its cases.
//!
//! [`Case::check`] verifies: the result equals the sequential one; work units are conserved
//! exactly; the run terminates (the simulator reports deadlocks and runaway runs as errors);
//! termination is never declared while work exists anywhere (the simulator and the protocol
//! check this on every run); and detection after the last work unit takes O(T_rout · log P).

use crate::dst_strata::{draw_by_name, key, name_hash};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::{Debug, Display};
use treesplit::config::{
    Adaptive, BalancerOptions, BundleRule, DealOrder, Embedding, PermutationKind, PermutedInit,
    PhaseSync, StaticPermutation, TerminationKind,
};
use treesplit::machine::sim::{Delay, MessageLength, MessageModel, Routing, Topology};
use treesplit::{
    run_sequential, BalancerKind, Config, Jobs, Machine, PollingOptions, SimConfig, Simulator, Task,
};
use treesplit_apps::nqueens::NQueensSpec;
use treesplit_apps::spec::{AppVisitor, Published};
use treesplit_apps::synthetic::{SplitRule, SyntheticParams};
use treesplit_apps::uts::UtsParams;
use treesplit_apps::AppSpec;

/// The networks drawn before the hypercubic networks were added: the classic draw keeps its
/// range so that every seed names the same case. Every other network is drawn in the one case
/// in five that draws a network from a stream of its own, by name.
const CLASSIC_TOPOLOGIES: [&str; 6] = [
    "crossbar",
    "ring",
    "mesh2d",
    "mesh3d",
    "hypercube",
    "fat-tree",
];

/// The names DST drew by position before it drew by name (`dst_strata::draw_by_name`), in the
/// order of the lists then: a seed that draws among them draws what it always drew. These
/// lists never grow: a new balancer, network or permutation is drawn by name.
const POSITIONAL_BALANCERS: [&str; 11] = [
    "random-polling",
    "neighbour-polling",
    "global-round-robin",
    "random-shift",
    "poll-and-shuffle",
    "random-static",
    "block",
    "round-robin",
    "random",
    "master-worker",
    "prefix-sum",
];
/// See [`POSITIONAL_BALANCERS`].
const POSITIONAL_HYPERCUBIC: [&str; 4] = ["butterfly", "ccc", "shuffle-exchange", "de-bruijn"];
/// See [`POSITIONAL_BALANCERS`].
const POSITIONAL_STATIC_PERMUTATIONS: [&str; 4] = ["lcg", "gf2", "feistel", "random"];

/// A classic network, by its index in [`CLASSIC_TOPOLOGIES`].
fn classic(index: usize) -> Topology {
    CLASSIC_TOPOLOGIES[index].parse().expect("a network")
}

/// Which names a case draws among: every one of the library's lists ([`Case::random`]), or
/// only the positional ones ([`Case::of`]), so that its case is the same whatever is added.
#[derive(Clone, Copy, PartialEq)]
enum Names {
    All,
    Positional,
}

impl Names {
    /// The values of `all` this draw takes: all of them, or those named in `positional`.
    fn of<T: Copy>(
        self,
        all: &[T],
        name: impl Fn(T) -> &'static str,
        positional: &[&str],
    ) -> Vec<T> {
        all.iter()
            .copied()
            .filter(|&t| self == Names::All || positional.contains(&name(t)))
            .collect()
    }
}

/// A network outside [`CLASSIC_TOPOLOGIES`], drawn by name for `key`, the positional index
/// from `x`.
fn newer_network(x: &mut Xoshiro256PlusPlus, key: u64, names: Names) -> Topology {
    // The draw that chose among the hypercubic networks by position, kept as it was.
    let index = x.random_range(0..POSITIONAL_HYPERCUBIC.len());
    let others: Vec<Topology> = names
        .of(Topology::ALL, Topology::name, &POSITIONAL_HYPERCUBIC)
        .into_iter()
        .filter(|t| !CLASSIC_TOPOLOGIES.contains(&t.name()))
        .collect();
    draw_by_name(key, &others, Topology::name, &POSITIONAL_HYPERCUBIC, index)
}

/// One simulated run to check.
#[derive(Debug, Clone)]
pub struct Case {
    /// The application.
    pub app: AppSpec,
    /// P, balancer, Δt, seed.
    pub config: Config,
    /// The simulated machine and its adversaries.
    pub sim: SimConfig,
    /// Fraction of splits that hand over an empty piece.
    pub empty_splits: f64,
}

/// What a checked case measured.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Virtual time from the last work unit to the result at PE 0.
    pub termination_delay: u64,
    /// The bound it was checked against.
    pub delay_bound: u64,
    /// Work units (= sequential units).
    pub work_units: u64,
}

impl Case {
    /// The case drawn from `seed`, with P ≤ `max_pes`. Its balancer, networks and static
    /// permutation are drawn by name among all of the library's: a new one takes its share
    /// of the seeds and leaves the others' cases as they were.
    pub fn random(seed: u64, max_pes: usize) -> Case {
        Case::draw(seed, max_pes, None, None, Names::All)
    }

    /// The case drawn from `seed` with P ≤ `max_pes` for balancer `kind` and, where given,
    /// on `network`. It depends on nothing but its arguments: its other choices among names
    /// (networks where not given, neighbourhood, static permutation) are made among the names
    /// of the positional draw only, so no balancer, network or permutation added to the
    /// library changes it (the golden corpus's cases, [`strata`]). Its draws are
    /// those [`Case::random`] makes for `seed` where that draws `kind` and no newer name,
    /// but for the costs of polling and of a global counter (T_poll, α, T_count), which it
    /// leaves free.
    pub fn of(seed: u64, max_pes: usize, kind: BalancerKind, network: Option<Topology>) -> Case {
        Case::draw(seed, max_pes, Some(kind), network, Names::Positional)
    }

    fn draw(
        seed: u64,
        max_pes: usize,
        kind: Option<BalancerKind>,
        network: Option<Topology>,
        names: Names,
    ) -> Case {
        let case_seed = seed;
        let mut r = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x0D57_D57D_57D5);
        let max_pes = max_pes.max(1);
        let pes = match r.random_range(0..10) {
            0..=4 => r.random_range(1..=16.min(max_pes)),
            5..=7 => r.random_range(1..=128.min(max_pes)),
            _ => r.random_range(1..=max_pes),
        };
        let app = match r.random_range(0..10) {
            0..=3 => AppSpec::Synthetic(SyntheticParams {
                work: r.random_range(1..=200_000),
                alpha: f64::from(r.random_range(1..=50u32)) / 100.0,
                atomic: r.random_range(1..=64),
                rule: if r.random_bool(0.5) {
                    SplitRule::Random
                } else {
                    SplitRule::Adversarial
                },
                spin: 1,
                seed: r.random_range(0..1000),
            }),
            4..=6 => AppSpec::NQueens(NQueensSpec(r.random_range(6..=9))),
            _ => {
                let name = ["default", "T1-mini", "T3-mini"][r.random_range(0..3)];
                AppSpec::Uts(UtsParams::parse(&[name.to_string()]).expect("named tree"))
            }
        };
        let topology = classic(r.random_range(0..CLASSIC_TOPOLOGIES.len()));
        let topology = network.unwrap_or(topology);
        let delay = match r.random_range(0..3) {
            0 => Delay::None,
            1 => Delay::Uniform(r.random_range(0..=100)),
            _ => Delay::Exponential(f64::from(r.random_range(1..=60u32)) / 2.0),
        };
        let slow = if r.random_bool(0.3) {
            (0..r.random_range(1..=3))
                .map(|_| {
                    (
                        r.random_range(0..pes),
                        f64::from(r.random_range(2..=16u32)) / 2.0,
                    )
                })
                .collect()
        } else {
            vec![]
        };
        let slow_links = if r.random_bool(0.2) {
            (0..r.random_range(1..=2))
                .map(|_| (r.random_range(0..pes), r.random_range(10..=2000)))
                .collect()
        } else {
            vec![]
        };
        // One factor per PE (the command line rejects a PE listed twice).
        let mut slow: Vec<(usize, f64)> = slow;
        let mut slow_links: Vec<(usize, u64)> = slow_links;
        let mut seen = std::collections::HashSet::new();
        slow.retain(|&(pe, _)| seen.insert(pe));
        seen.clear();
        slow_links.retain(|&(pe, _)| seen.insert(pe));
        let sim = SimConfig {
            topology,
            t_rout: r.random_range(1..=50),
            t_hop: if r.random_bool(0.3) {
                Some(r.random_range(1..=20))
            } else {
                None
            },
            t_split: r.random_range(0..=20),
            t_send: Some(if r.random_bool(0.3) {
                r.random_range(1..=3)
            } else {
                0
            }),
            t_recv: Some(if r.random_bool(0.3) {
                r.random_range(1..=3)
            } else {
                0
            }),
            delay,
            slow,
            slow_links,
            ..SimConfig::default()
        };
        // The message model (paper 000 §1.1's blocking messages, or latency only with the
        // overheads drawn above), from a stream of its own so that every other draw of a
        // seed stays as it was. Blocking: the overheads the model derives from T_rout, one
        // of them given (the other makes up T_rout), or both given, covering T_rout.
        let mut m = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x4D4F_4445_4C21);
        let mut sim = sim;
        if m.random_bool(0.6) {
            sim.model = MessageModel::Blocking;
            let t_rout = sim.t_rout;
            (sim.t_send, sim.t_recv) = match m.random_range(0..4) {
                0 | 1 => (None, None),
                2 if m.random_bool(0.5) => (Some(m.random_range(0..=t_rout + 3)), None),
                2 => (None, Some(m.random_range(0..=t_rout + 3))),
                _ => {
                    let s = m.random_range(0..=t_rout);
                    (Some(s), Some(t_rout - s + m.random_range(0..=3)))
                }
            };
        } else {
            sim.model = MessageModel::LatencyOnly;
        }
        let (t_send, t_recv) = sim.overheads();
        // Every option is drawn for every case (the same draws in the same order whatever the
        // balancer, so a seed names the same case), then the balancer takes its own. The
        // balancer is drawn by name: the positional index drawn here (over the balancers of
        // the positional draw, a fixed range) stands if a balancer among those wins.
        let index = r.random_range(0..POSITIONAL_BALANCERS.len());
        let kind = kind.unwrap_or_else(|| {
            let key = key(case_seed, "balancer");
            draw_by_name(
                key,
                BalancerKind::ALL,
                BalancerKind::name,
                &POSITIONAL_BALANCERS,
                index,
            )
        });
        let neighbourhood = classic(r.random_range(0..CLASSIC_TOPOLOGIES.len()));
        let polling = PollingOptions {
            trim: if r.random_bool(0.25) {
                Some(r.random_range(1..=4))
            } else {
                None
            },
            fast_init: r.random_bool(0.3),
            permuted_init: None,
        };
        let permutation = if r.random_bool(0.5) {
            PermutationKind::Messages
        } else {
            PermutationKind::Pseudorandom
        };
        let adaptive_on = r.random_bool(0.4);
        let adaptive = Adaptive {
            c: f64::from(r.random_range(1..=16u32)) / 2.0,
            gamma: f64::from(r.random_range(1..=10u32)) / 10.0,
        };
        let adaptive = adaptive_on.then_some(adaptive);
        // Local synchronization (paper 002 §6.3) for half of the pseudorandom permutations,
        // drawn from a stream of its own so that every other draw of a seed stays as it was.
        let sync = if permutation == PermutationKind::Pseudorandom
            && Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5C_5C5C_5C5C).random_bool(0.5)
        {
            PhaseSync::Local
        } else {
            PhaseSync::Global
        };
        // A phase must fit a request, a split and the answer (paper 002 §3; paper 001
        // §14.5.2), and every message the PE sends in it.
        let round = 2 * sim.t_rout.max(sim.t_hop.unwrap_or(0))
            + sim.t_split
            + 8 * (t_send + t_recv)
            + r.random_range(1..=200);
        let termination = if r.random_bool(0.5) {
            TerminationKind::FourCounter
        } else {
            TerminationKind::ResponseTree
        };
        let delta_t = r.random_range(1..=100);
        let seed = r.random_range(0..1_000_000);
        let empty_splits = if r.random_bool(0.2) {
            f64::from(r.random_range(1..=9u32)) / 10.0
        } else {
            0.0
        };
        // The static balancers' bag and options.
        let jobs = if r.random_bool(0.5) {
            Jobs::Depth(r.random_range(0..=10))
        } else {
            Jobs::PerPe(r.random_range(1..=4))
        };
        let static_permutation = draw_by_name(
            key(case_seed, "static permutation"),
            &names.of(
                StaticPermutation::ALL,
                StaticPermutation::name,
                &POSITIONAL_STATIC_PERMUTATIONS,
            ),
            StaticPermutation::name,
            &POSITIONAL_STATIC_PERMUTATIONS,
            r.random_range(0..POSITIONAL_STATIC_PERMUTATIONS.len()),
        );
        let bundle = match r.random_range(0..3) {
            0 => BundleRule::Fixed(r.random_range(1..=8)),
            1 => BundleRule::Sqrt {
                startup: f64::from(r.random_range(1..=100u32)),
                max_job: f64::from(r.random_range(1..=1000u32)),
            },
            _ => BundleRule::Adaptive {
                c: f64::from(r.random_range(1..=8u32)) / 2.0,
                w_min: r.random_range(0..=200),
            },
        };
        // Drawn for every case (it was drawn for the static balancers only, last).
        let splittable = r.random_bool(0.5);
        // Paper 002 §4 and §6.1, drawn from a stream of their own so that the
        // cases drawn before keep their every other choice: a hypercubic network or any other
        // newer than the classic ones (for the machine or neighbour polling), message-length
        // charging, and poll-and-shuffle's row-major embedding.
        let mut x = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x4E45_5457_4F52_4B53);
        if x.random_bool(0.2) {
            let newer = newer_network(&mut x, key(case_seed, "network"), names);
            sim.topology = network.unwrap_or(newer);
        }
        let neighbourhood = if x.random_bool(0.2) {
            newer_network(&mut x, key(case_seed, "neighbourhood"), names)
        } else {
            neighbourhood
        };
        if x.random_bool(0.15) {
            sim.length = Some(MessageLength {
                byte_time: f64::from(x.random_range(1..=20u32)) / 10.0,
                routing: if x.random_bool(0.5) {
                    Routing::Packet
                } else {
                    Routing::CutThrough
                },
                contention: false,
            });
        }
        let embedding = if x.random_bool(0.25) {
            Embedding::RowMajor
        } else {
            Embedding::Network
        };
        // The costs of polling and of a global counter (paper 000 §1.3–§3: T_poll, α,
        // T_count), from a stream of their own so that every other draw of a seed stays as it
        // was; only where every name is drawn (`Case::random`), so that the golden corpus's
        // cases (`Case::of`) stay as they were.
        let mut q = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x504F_4C4C_434F_5354);
        if names == Names::All && q.random_bool(0.3) {
            sim.t_poll = q.random_range(0..=20);
            sim.poll_alpha = f64::from(q.random_range(1..=10u32)) / 10.0;
            sim.t_count = if q.random_bool(0.5) {
                q.random_range(1..=30)
            } else {
                0
            };
        }
        // Link contention (paper 002 §6.1) where a length is charged, from a stream of its
        // own and only where every name is drawn, as above.
        let mut c = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x434F_4E54_454E_5449);
        if let Some(l) = sim.length.as_mut().filter(|_| names == Names::All) {
            l.contention = c.random_bool(0.5);
        }
        // Master–worker's dealing order and hierarchical master–worker's fan-out, from a
        // stream of their own and only where every name is drawn, so that every other draw of
        // a seed and the golden corpus's cases stay as they were.
        let mut d = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x4445_414C_4F52_4452);
        let (order, fanout) = if names == Names::All {
            let order = if d.random_bool(0.5) {
                DealOrder::LargestFirst
            } else {
                DealOrder::InOrder
            };
            (
                order,
                if d.random_bool(0.5) {
                    0
                } else {
                    d.random_range(2..=9)
                },
            )
        } else {
            (DealOrder::InOrder, 0)
        };
        // Permutation-based initialization and local polling, from a stream of their own and
        // only where every name is drawn, as above.
        let mut e = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5045_524D_494E_4954);
        let mut polling = polling;
        let mut locality = 0;
        if names == Names::All {
            if !polling.fast_init && e.random_bool(0.3) {
                polling.permuted_init = Some(PermutedInit {
                    permutation: StaticPermutation::ALL
                        [e.random_range(0..StaticPermutation::ALL.len())],
                    depth: e.random_bool(0.5).then(|| e.random_range(0..=9)),
                });
            }
            if e.random_bool(0.3) {
                locality = e.random_range(2..=16);
            }
        }
        if sim.topology == Topology::Crossbar {
            // A message on the crossbar takes T_rout: it has no hop latency of its own.
            sim.t_hop = None;
        }
        let balancer = BalancerOptions {
            polling: Some(polling),
            round: Some(round),
            neighbourhood: Some(neighbourhood),
            permutation: Some(permutation),
            adaptive,
            sync: Some(sync),
            embedding: Some(embedding),
            jobs: Some(jobs),
            static_permutation: Some(static_permutation),
            bundle: Some(bundle),
            splittable: Some(splittable),
            order: Some(order),
            fanout: Some(fanout),
            locality: Some(locality),
        }
        .balancer(kind);
        let config = Config::new(pes)
            .balancer(balancer)
            .termination(termination)
            .delta_t(delta_t)
            .seed(seed);
        Case {
            app,
            config,
            sim,
            empty_splits,
        }
    }

    /// The command that replays this case exactly.
    pub fn command_line(&self) -> String {
        let c = &self.config;
        let s = &self.sim;
        let mut line = format!(
            "treesplit sim {} --pes {} {} --delta-t {} --seed {} --termination {} --net {} --model {} --t-rout {} --t-split {} --delay {}",
            self.app.cli_args(),
            c.pes,
            c.balancer.flags().join(" "),
            c.delta_t,
            c.seed,
            c.termination,
            s.topology,
            s.model,
            s.t_rout,
            s.t_split,
            s.delay
        );
        if let Some(t) = s.t_send {
            line.push_str(&format!(" --t-send {t}"));
        }
        if let Some(t) = s.t_recv {
            line.push_str(&format!(" --t-recv {t}"));
        }
        if let Some(h) = s.t_hop {
            line.push_str(&format!(" --t-hop {h}"));
        }
        let list = |v: Vec<String>| v.join(",");
        if !s.slow.is_empty() {
            line.push_str(&format!(
                " --slow {}",
                list(s.slow.iter().map(|(p, f)| format!("{p}:{f}")).collect())
            ));
        }
        if !s.slow_links.is_empty() {
            line.push_str(&format!(
                " --slow-links {}",
                list(
                    s.slow_links
                        .iter()
                        .map(|(p, d)| format!("{p}:{d}"))
                        .collect()
                )
            ));
        }
        if self.empty_splits > 0.0 {
            line.push_str(&format!(" --empty-splits {}", self.empty_splits));
        }
        if let Some(l) = s.length {
            line.push_str(&format!(
                " --byte-time {} --routing {}{}",
                l.byte_time,
                l.routing,
                if l.contention { " --contention" } else { "" }
            ));
        }
        if s.t_poll > 0 {
            line.push_str(&format!(" --t-poll {}", s.t_poll));
        }
        if s.poll_alpha < 1.0 {
            line.push_str(&format!(" --poll-alpha {}", s.poll_alpha));
        }
        if s.t_count > 0 {
            line.push_str(&format!(" --t-count {}", s.t_count));
        }
        line
    }

    /// The case's simulated machine, with its empty-splits adversary.
    pub fn simulator(&self) -> Simulator {
        Simulator::new(self.sim.clone()).empty_splits(self.empty_splits)
    }

    /// Run the case and return (T_par, messages, splits): the figures a replay must reproduce.
    pub fn fingerprint(&self) -> Result<(f64, u64, u64), String> {
        struct Fingerprint<'c>(&'c Case);
        impl AppVisitor for Fingerprint<'_> {
            type Out = Result<(f64, u64, u64), String>;
            fn visit<T>(
                self,
                make_root: impl Fn() -> T,
                _: impl Fn(&T::Output) -> Option<Published>,
            ) -> Self::Out
            where
                T: Task,
                T::Output: Display + PartialEq + Debug + treesplit_apps::spec::Objective,
            {
                let c = self.0;
                let r = c
                    .simulator()
                    .run(make_root(), &c.config)
                    .map_err(|e| e.to_string())?
                    .into_report();
                Ok((
                    r.report.t_par,
                    r.report.totals.messages,
                    r.report.totals.splits,
                ))
            }
        }
        self.app.visit(Fingerprint(self))
    }

    /// Run the case and check everything; the error says what failed.
    pub fn check(&self) -> Result<Checked, String> {
        struct Check<'c>(&'c Case);
        impl AppVisitor for Check<'_> {
            type Out = Result<Checked, String>;
            fn visit<T>(
                self,
                make_root: impl Fn() -> T,
                _: impl Fn(&T::Output) -> Option<Published>,
            ) -> Self::Out
            where
                T: Task,
                T::Output: Display + PartialEq + Debug + treesplit_apps::spec::Objective,
            {
                self.0.check_task(make_root)
            }
        }
        self.app.visit(Check(self))
    }

    /// Run the task `make` builds on the case's machine and check it against its sequential
    /// run: the same result, the same work units, termination within the delay bound.
    pub(crate) fn check_task<T: Task>(&self, make: impl Fn() -> T) -> Result<Checked, String>
    where
        T::Output: PartialEq + Debug,
    {
        let seq = run_sequential(make());
        let r = self
            .simulator()
            .run(make(), &self.config)
            .map_err(|e| e.to_string())?
            .into_report();
        if r.report.output != seq.output {
            return Err(format!(
                "result {:?} differs from the sequential {:?}",
                r.report.output, seq.output
            ));
        }
        if r.report.totals.work_units != seq.work_units {
            return Err(format!(
                "work not conserved: {} units done, the sequential run does {}",
                r.report.totals.work_units, seq.work_units
            ));
        }
        let bound = self.delay_bound(
            r.report.totals.max_generation,
            r.report.t_par,
            r.diameter_latency,
            r.largest_termination_message,
            (r.report.totals.splits, r.report.totals.polling.counts),
        );
        if r.termination_delay > bound {
            return Err(format!(
                "termination took {} after the last work unit, more than the O(T_rout·log P) bound {bound}",
                r.termination_delay
            ));
        }
        Ok(Checked {
            termination_delay: r.termination_delay,
            delay_bound: bound,
            work_units: seq.work_units,
        })
    }
}

/// The cases of every (balancer, network) pair of `balancers` × `networks`, `per_stratum` of
/// each, P ≤ `max_pes`: case i of balancer B on network N is named `{label}-{B}-{N}-{i}` and
/// drawn ([`Case::of`]) from the seed that name hashes to. The case of a name depends on
/// nothing but the name: longer lists add cases, in any order, and change none.
pub fn strata(
    label: &str,
    balancers: &[BalancerKind],
    networks: &[Topology],
    per_stratum: usize,
    max_pes: usize,
) -> Vec<(String, Case)> {
    let mut cases = Vec::new();
    for &balancer in balancers {
        for &network in networks {
            for i in 0..per_stratum {
                let name = format!("{label}-{balancer}-{network}-{i}");
                let case = Case::of(name_hash(&name), max_pes, balancer, Some(network));
                cases.push((name, case));
            }
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// While the library has no balancer, network or static permutation outside the
    /// positional lists, `Case::random` draws what it drew by position, and a seed's case is
    /// the case `Case::of` draws for its balancer. (Once one exists, `random` also draws it,
    /// and `of` still draws every case as before.)
    #[test]
    fn a_random_case_is_the_case_of_its_balancer() {
        let newer = BalancerKind::ALL
            .iter()
            .any(|k| !POSITIONAL_BALANCERS.contains(&k.name()))
            || Topology::ALL.iter().any(|t| {
                !CLASSIC_TOPOLOGIES.contains(&t.name())
                    && !POSITIONAL_HYPERCUBIC.contains(&t.name())
            })
            || StaticPermutation::ALL
                .iter()
                .any(|p| !POSITIONAL_STATIC_PERMUTATIONS.contains(&p.name()));
        for seed in 0..300u64 {
            let mut case = Case::random(seed, 512);
            let kind = case.config.balancer.kind();
            let of = Case::of(seed, 512, kind, None);
            // `of` leaves out the costs of polling and of a global counter that `random` draws.
            assert_eq!(
                (of.sim.t_poll, of.sim.poll_alpha, of.sim.t_count),
                (0, 1.0, 0)
            );
            (case.sim.t_poll, case.sim.poll_alpha, case.sim.t_count) = (0, 1.0, 0);
            assert!(
                newer || format!("{case:?}") == format!("{of:?}"),
                "seed {seed}"
            );
            // A case of a given balancer and network is of that balancer, on that network.
            let on = Case::of(seed, 512, kind, Some(Topology::Ring));
            assert_eq!(on.sim.topology, Topology::Ring);
            assert_eq!(on.config.balancer.kind(), kind);
        }
    }

    /// Case `{B}-{N}-{i}` of the strata is the same case whatever the other balancers and
    /// networks listed: listing one more balancer and one more network (here: the lists
    /// without their last, then whole) adds cases and re-rolls none.
    #[test]
    fn more_balancers_or_networks_add_strata_and_change_no_case() {
        let kinds = BalancerKind::ALL;
        let nets = Topology::ALL;
        let fewer = strata(
            "t",
            &kinds[..kinds.len() - 1],
            &nets[..nets.len() - 1],
            2,
            64,
        );
        let more: HashMap<String, String> = strata("t", kinds, nets, 2, 64)
            .into_iter()
            .map(|(name, case)| (name, format!("{case:?}")))
            .collect();
        // The grown lists in another order: the same cases again.
        let mut reversed_kinds = kinds.to_vec();
        reversed_kinds.reverse();
        let reordered = strata("t", &reversed_kinds, nets, 2, 64);
        assert_eq!(more.len(), kinds.len() * nets.len() * 2);
        assert_eq!(fewer.len(), (kinds.len() - 1) * (nets.len() - 1) * 2);
        for (name, case) in fewer.iter().chain(&reordered) {
            assert_eq!(more[name], format!("{case:?}"), "{name}");
        }
        // Each case is of its stratum.
        for (name, case) in &fewer {
            let kind = case.config.balancer.kind();
            let net = case.sim.topology;
            assert!(name.starts_with(&format!("t-{kind}-{net}-")), "{name}");
        }
    }
}
