//! The simulator: the machine model of paper 000 §1.1 in deterministic virtual time.
//!
//! P PEs, each with one FIFO message queue, run the *same* protocol state machines through
//! the *same* PE driver as the thread machine. Tasks run for real (the answer is real) but
//! time is virtual: one work unit takes one time unit (times a PE's slowness factor), a split
//! costs T_split, a message takes the network's latency (T_rout on a crossbar, hops·T_hop on a
//! topology, plus an optional random delay), the sender pays T_send and the receiver T_recv
//! per message. A busy PE polls its queue after every slice of ⌈αΔt⌉ units (paper 000 §2's
//! "at least every Δt and at most every αΔt"; α = 1 by default) and pays T_poll for a probe
//! that finds it empty (paper 000 §3; 0 by default); an idle PE handles a message when it
//! arrives. An increment of a global counter (global round robin's) costs its holder T_count
//! (paper 000 §1.3; 0 by default).
//!
//! Run limits: `Config::max_units` counts the units of all PEs in virtual-time order, so a
//! limited run stays deterministic (same seed, same stop, same partial report);
//! `Config::time_limit` is wall-clock time, as on the other machines (it bounds how long
//! the simulation itself runs, not virtual time, and is not reproducible).
//!
//! This file holds the machine's parameters ([`SimConfig`]) and [`simulate`]; `report.rs` its
//! report (with Theorem 1 of paper 000 beside the measurement); `engine.rs` is the event loop,
//! `world.rs` the machine it plays (the PEs' engine-side state, and the link that is the
//! driver's transport), `events.rs` and `queue.rs` its event queue (a calendar of one bucket
//! per time unit, a heap beyond it: events leave in (time, PE, kind, sender) order),
//! `partition.rs` runs the engine on several threads (the PEs in partitions, one engine each,
//! advancing in windows no longer than a message's shortest trip), `incumbents.rs` works out
//! the delays of learning incumbents from the partitions' records, `network.rs` the latencies,
//! `links.rs` the links' bookings under contention,
//! `huge_pages.rs` the memory hints for many PEs, `memory.rs` the estimate of a run's memory,
//! `adversary.rs` the adversarial splitter.
//!
//! Every poll of a busy PE's queue is a point where a message may have arrived, so every work
//! slice ends at a slice end of its own; the reports are identical whatever the engine's
//! speed, and `crates/testkit/tests/golden_sim.rs` holds them to it. What makes slices cheap is
//! *run-ahead* (`engine.rs`): after a slice that did its whole budget at no cost, the driver
//! does up to 64 more such slices at once on the real task, keeping a snapshot (task and
//! result accumulator; `Task: Clone`), and stops before the first that is not plain (the end
//! of the piece, an incumbent found, a stop); a task that promises units plain
//! (`Task::plain_units`) is run ahead lazily, its slices counted now and done when the
//! run-ahead ends, with no snapshot. The slice ends in between are not events: the
//! order of events at one time depends on the events alone (PE, kind, sender), not on when
//! they were scheduled, so leaving them out changes nothing else. The PE gets one slice-end
//! event at the end of the last slice run ahead; a message that reaches it meanwhile moves
//! that event to the first slice end at or after the message's arrival, where the driver
//! keeps the slices begun by then (returns to the snapshot and redoes them, or, lazily, does
//! them) and runs the PE from there, exactly as if every slice end had been an event. The event count reported
//! counts the slice ends left out, so it is the count of an engine without run-ahead. The
//! rest of the speed comes from cheap events (the calendar queue, slice ends that live in the
//! queue alone, message sizes counted without serializing), from prefetching the state of
//! the PEs whose events come next, and, from 16,384 PEs on, from the machine's cores
//! (`partition.rs`; the report is the same bit for bit on any number of threads).

pub mod adversary;
mod engine;
mod events;
mod huge_pages;
mod incumbents;
mod links;
pub mod memory;
mod model;
pub mod network;
mod partition;
mod proof;
mod queue;
mod report;
mod world;

pub use crate::protocol::polling::embedding;
pub use links::Routing;
pub use memory::{estimate_memory, MemoryEstimate};
pub use model::MessageModel;
pub use network::{Delay, MessageLength, Network, Topology};
pub use proof::{Level, ProofReport, Summary};
pub use report::{RequestQueue, SimReport, Theorem1};

use super::run::{self, Backend, Gather, Ran, Start};
use crate::config::{Config, ConfigError, DagConfig};
use crate::dag::{DagTask, Schedule};
use crate::driver::{BoundExchange, MachineTime, PeDriver};
use crate::ended::Ended;
use crate::error::RunError;
use crate::protocol::Env;
use crate::task::Task;
use crate::timeline::ActivityLog;
use adversary::{Adversary, EmptySplits};
use engine::Engine;
use events::EventQueue;
use incumbents::Incumbents;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use report::{Measured, SimFigures};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Instant;
use world::{SimPe, Slot, Span, State, World};

/// The simulated machine's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimConfig {
    /// The interconnect.
    pub topology: Topology,
    /// What sending and receiving cost the PEs (`model.rs`): blocking (paper 000 §1.1, the
    /// default) or latency only.
    #[serde(default)]
    pub model: MessageModel,
    /// T_rout: a message's latency on the crossbar, and what sending and receiving it cost
    /// the PEs together under the blocking model.
    pub t_rout: u64,
    /// Latency per hop on the networks other than the crossbar (default: T_rout); on the
    /// crossbar it must be left out or equal T_rout.
    pub t_hop: Option<u64>,
    /// Cost of one split on the splitting PE (T_split).
    pub t_split: u64,
    /// The sender's cost per message (LogP overhead o); `None`: the model's
    /// ([`SimConfig::send_cost`]). A report holds the value charged.
    #[serde(default)]
    pub t_send: Option<u64>,
    /// The receiver's cost per message handled (LogP overhead o on the receiving side);
    /// `None`: the model's ([`SimConfig::recv_cost`]). A report holds the value charged.
    #[serde(default)]
    pub t_recv: Option<u64>,
    /// T_poll (paper 000 §3): what a busy PE's unsuccessful probe of its message queue
    /// costs it, charged at every slice end that finds the queue empty. 0 (the default):
    /// probes are free.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub t_poll: u64,
    /// α (paper 000 §2): a busy PE polls at least every Δt and at most every αΔt; the
    /// simulated PE polls after every ⌈αΔt⌉ work units, the most often the rule allows (see
    /// [`SimConfig::poll_interval`]). 1 (the default): every Δt.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub poll_alpha: f64,
    /// T_count (paper 000 §1.3): what one increment of a global counter costs the PE that
    /// holds it (global round robin's counter at PE 0). 0 (the default): free.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub t_count: u64,
    /// Random extra delay per message.
    pub delay: Delay,
    /// Slow PEs: (PE, factor); a unit of work takes `factor` time units there.
    pub slow: Vec<(usize, f64)>,
    /// Slow links: (PE, extra latency of every message that PE sends).
    pub slow_links: Vec<(usize, u64)>,
    /// Record per-PE segments for a Gantt chart when P is at most this (the utilization
    /// curve is recorded at any P).
    pub timeline_limit: usize,
    /// Give up (with an error) after this many events.
    pub max_events: u64,
    /// Charge message lengths (paper 002 §6.1): a time per byte on top of the latency, by
    /// packet or cut-through routing. None (the default): sizes cost nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<MessageLength>,
    /// Measure what the proof of paper 000's Theorem 1 rests on (`proof.rs`; the report's
    /// `proof`). Off by default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub proof: bool,
    /// The threads the engine runs on (`partition.rs`); the report is the same whatever
    /// their number. `None` (the default): all the machine's cores when P is at least
    /// [`PARTITION_MIN_PES`] and the run allows it ([`SimConfig::engine_threads`]), else one.
    /// Read, never written: a report is the same on any number of threads.
    #[serde(default, skip_serializing)]
    pub threads: Option<usize>,
    /// Protocol variants that violate an assumption of paper 000, for negative controls
    /// ([`adversary::Adversary`]). Off by default.
    #[serde(default, skip_serializing_if = "Adversary::is_off")]
    pub adversary: Adversary,
}

/// The fewest PEs for which the engine runs on several threads by default: below, its
/// windows hold too few events to pay for the threads' meeting at their ends.
pub const PARTITION_MIN_PES: usize = 16_384;

/// The most threads the engine runs on.
pub const MAX_ENGINE_THREADS: usize = 64;

/// The most threads the engine takes by default, so that a many-core host does not cut a run
/// into partitions whose windows hold fewer events than their meetings cost. (Measured on 2
/// cores only; more threads can always be asked for.)
pub const DEFAULT_ENGINE_THREADS: usize = 8;

/// The stack of each engine thread a partitioned run starts (user code runs on it): address
/// space a caller under a limit on it must leave room for.
pub const ENGINE_STACK: usize = 64 << 20;

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            topology: Topology::Crossbar,
            model: MessageModel::Blocking,
            t_rout: 10,
            t_hop: None,
            t_split: 5,
            t_send: None,
            t_recv: None,
            t_poll: 0,
            poll_alpha: 1.0,
            t_count: 0,
            delay: Delay::None,
            slow: vec![],
            slow_links: vec![],
            timeline_limit: 512,
            max_events: 20_000_000_000,
            length: None,
            proof: false,
            threads: None,
            adversary: Adversary::default(),
        }
    }
}

impl SimConfig {
    /// Check the parameters against P.
    pub fn validate(&self, p: usize) -> Result<(), ConfigError> {
        let times = [
            ("T_rout", self.t_rout),
            ("T_hop", self.t_hop.unwrap_or(0)),
            ("T_split", self.t_split),
            ("T_send", self.t_send.unwrap_or(0)),
            ("T_recv", self.t_recv.unwrap_or(0)),
            ("T_poll", self.t_poll),
            ("T_count", self.t_count),
        ];
        let delay = match self.delay {
            Delay::None => 0.0,
            Delay::Uniform(max) => max as f64,
            Delay::Exponential(mean) => mean,
        };
        let links = self
            .slow_links
            .iter()
            .map(|&(_, d)| ("slow link", d as f64));
        for (what, value) in times
            .iter()
            .map(|&(w, t)| (w, t as f64))
            .chain([("random delay", delay)])
            .chain(links)
        {
            if !(value.is_finite() && value <= MAX_TIME_PARAMETER as f64) {
                return Err(ConfigError::SimTimeTooLarge {
                    what,
                    value,
                    max: MAX_TIME_PARAMETER,
                });
            }
        }
        let exists = |what, pe| match pe < p {
            true => Ok(()),
            false => Err(ConfigError::NoSuchPe { what, pe, pes: p }),
        };
        for &(pe, factor) in &self.slow {
            exists("slow PE", pe)?;
            if !(factor.is_finite() && (1.0..=MAX_SLOWNESS).contains(&factor)) {
                return Err(ConfigError::Slowness { pe, factor });
            }
        }
        for &(pe, _) in &self.slow_links {
            exists("the sender of slow link", pe)?;
        }
        if let Some(pe) = self.adversary.fixed_victim {
            exists("fixed victim", pe)?;
        }
        if let Some(l) = self.length {
            if !(l.byte_time.is_finite() && (0.0..=1e6).contains(&l.byte_time)) {
                return Err(ConfigError::SimTimeTooLarge {
                    what: "time per byte",
                    value: l.byte_time,
                    max: 1_000_000,
                });
            }
        }
        if !(self.poll_alpha > 0.0 && self.poll_alpha <= 1.0) {
            return Err(ConfigError::PollAlpha(self.poll_alpha));
        }
        if self.hop_latency() == 0 || self.t_hop == Some(0) {
            return Err(ConfigError::ZeroLatency);
        }
        if let Some(n) = self.threads {
            if !(1..=MAX_ENGINE_THREADS.min(p.max(1))).contains(&n) {
                return Err(ConfigError::EngineThreads {
                    threads: n,
                    why: format!(
                        "it must be between 1 and {} (and at most P = {p})",
                        MAX_ENGINE_THREADS
                    ),
                });
            }
        }
        self.validate_model()
    }

    /// The work units a busy PE works between two polls of its queue under the rule "at
    /// least every Δt and at most every αΔt" (paper 000 §2): ⌈αΔt⌉, the shortest interval
    /// the rule allows, so that the probes cost the most the rule admits (T_poll per ⌈αΔt⌉
    /// units, at most ε = T_poll/(αΔt) of the work). Δt itself where α = 1.
    pub fn poll_interval(&self, delta_t: u64) -> u64 {
        if self.poll_alpha >= 1.0 {
            delta_t
        } else {
            ((delta_t as f64 * self.poll_alpha).ceil() as u64).clamp(1, delta_t.max(1))
        }
    }

    /// What keeps a run of `config` on one engine thread, if anything: what counts in the
    /// order of all events (a limit of work units, a random delay drawn from one generator),
    /// or records kept whole (the proof probe, Gantt segments).
    fn needs_one_thread(&self, config: &Config) -> Option<&'static str> {
        if config.max_units.is_some() {
            Some("a limit of work units counts them in the order of all events")
        } else if self.delay != Delay::None {
            Some("a random delay is drawn from one generator in the order of all events")
        } else if self.length.is_some_and(|l| l.contention) {
            Some("link contention books every link of the machine in the order of all messages")
        } else if self.proof {
            Some("the proof probe watches all PEs at once")
        } else if config.pes <= self.timeline_limit {
            Some("at P up to the timeline limit (512 PEs by default) the simulator keeps every PE's timeline whole (what it did when, for the report), which one engine thread does; several engine threads pay off only above it")
        } else {
            None
        }
    }

    /// The threads the engine runs `config` on: [`SimConfig::threads`] if given (an error if
    /// the run needs one thread), else the machine's cores (at most
    /// [`DEFAULT_ENGINE_THREADS`]) when P is at least
    /// [`PARTITION_MIN_PES`] and nothing needs one thread, else one.
    pub fn engine_threads(&self, config: &Config) -> Result<usize, ConfigError> {
        let blocked = self.needs_one_thread(config);
        match (self.threads, blocked) {
            (Some(n), Some(why)) if n > 1 => Err(ConfigError::EngineThreads {
                threads: n,
                why: why.to_string(),
            }),
            (Some(n), _) => Ok(n),
            (None, None) if config.pes >= PARTITION_MIN_PES => {
                Ok(std::thread::available_parallelism()
                    .map_or(1, |n| n.get().min(DEFAULT_ENGINE_THREADS)))
            }
            (None, _) => Ok(1),
        }
    }
}

fn is_zero(t: &u64) -> bool {
    *t == 0
}

fn one() -> f64 {
    1.0
}

fn is_one(alpha: &f64) -> bool {
    *alpha == 1.0
}

/// The largest latency, split, send or receive time, random delay and slow-link delay the
/// simulator accepts (10^12 time units): with at most 2^22 PEs and 2·10^10 events, virtual time
/// stays far from 2^64.
pub const MAX_TIME_PARAMETER: u64 = 1_000_000_000_000;

/// PEs gathered between two releases of the memory of the slots taken out.
const RELEASE_EVERY: usize = 1 << 14;

/// The largest slowness factor accepted.
pub const MAX_SLOWNESS: f64 = 1e6;

/// Simulate a run of `root` on `config.pes` PEs of the machine `sim`.
pub fn simulate<T: Task>(
    root: T,
    config: &Config,
    sim: &SimConfig,
) -> Result<Ended<T, SimReport<T::Output>>, RunError> {
    match run::run(sim, || root, config, Env::default())? {
        run::Typed::Here(ended, figures) => Ok((*ended).map_report(|r| figures.report(r))),
        run::Typed::Elsewhere(_) => unreachable!("the simulator holds the root"),
    }
}

/// Simulate the schedule of the task DAG `root` on `config.pes` PEs of the machine `sim`
/// (see [`DagConfig`]): the run finished, or a limit or the interrupt flag stopped it.
pub fn simulate_dag(
    root: DagTask,
    config: &DagConfig,
    sim: &SimConfig,
) -> Result<Ended<DagTask, SimReport<Schedule>>, RunError> {
    let (config, env) = run::dag_setup(config, &root);
    match run::run(sim, || root, &config, env)? {
        run::Typed::Here(ended, figures) => Ok((*ended).map_report(|r| figures.report(r))),
        run::Typed::Elsewhere(_) => unreachable!("the simulator holds the root"),
    }
}

impl Backend for SimConfig {
    type Extra = SimFigures;

    fn run(&self, start: Start<'_>) -> Ran<SimFigures> {
        let (root, config, fresh) = (start.root, start.config, start.fresh);
        self.validate(config.pes)?;
        // The machine with the model's overheads written in: what the report shows.
        let resolved = self.resolved();
        let sim = &resolved;
        let (t_send, t_recv) = sim.overheads();
        let p = config.pes;
        let network = || {
            Network::new(
                sim.topology,
                p,
                sim.hop_latency(),
                sim.delay,
                sim.slow_links.iter().copied().collect(),
            )
            .with_length(sim.length)
        };
        let (diameter_latency, lookahead) = {
            let n = network();
            // A message leaves once the sender has paid T_send, and takes a hop at least.
            (n.diameter_latency(), n.min_latency().saturating_add(t_send))
        };
        // The PEs know the network they sit on and its largest latency (poll-and-shuffle
        // plans its phases for it and sizes its permutation by it).
        let env = &Env {
            network: Some(sim.topology),
            latency: Some(
                diameter_latency
                    .saturating_add(t_send)
                    .saturating_add(t_recv),
            ),
            adversary: sim.adversary,
            ..start.env
        };
        let start = Instant::now();
        let slowness: HashMap<usize, f64> = sim.slow.iter().copied().collect();
        let mut root = root;
        let clock = MachineTime {
            now: 0,
            ticks_per_round_unit: 1,
            tick_seconds: 1.0,
        };
        // The PEs poll every ⌈αΔt⌉ work units (paper 000 §2's rule, `poll_interval`); the
        // report keeps the Δt given.
        let interval = sim.poll_interval(config.delta_t);
        let polling;
        let pe_config = if interval == config.delta_t {
            config
        } else {
            polling = Config {
                delta_t: interval,
                ..config.clone()
            };
            &polling
        };
        let mut pes = huge_pages::vec(p);
        let heap_before = huge_pages::heap_end();
        pes.extend((0..p).map(|i| {
            let root = if i == 0 { root.take() } else { None };
            Slot {
                sim: SimPe::new(slowness.get(&i).copied().unwrap_or(1.0)),
                driver: PeDriver::new(
                    i,
                    pe_config,
                    env,
                    fresh,
                    root,
                    clock,
                    BoundExchange::TreeFlood,
                    None,
                ),
            }
        }));
        let heap_after = huge_pages::heap_end();
        huge_pages::advise(heap_before, heap_after);
        let threads = sim.engine_threads(config)?;
        // A count per PE of the span for a cost that is charged (none for a free one).
        let per_pe = |cost: u64, span: &Span| match cost {
            0 => Vec::new(),
            _ => vec![0; span.end - span.first],
        };
        let new_world = |span: Span| {
            let whole = span.is_whole();
            let (probes, increments) = (per_pe(sim.t_poll, &span), per_pe(sim.t_count, &span));
            World {
                config: sim,
                t_send,
                t_recv,
                detected: None,
                queue: EventQueue::new(),
                network: network(),
                rng: Xoshiro256PlusPlus::seed_from_u64(config.seed ^ 0x5EED_0F5E_ED0F),
                incumbents: Incumbents::default(),
                span,
                event_time: 0,
                work_in_flight: 0,
                last_work_end: 0,
                events: 0,
                events_elsewhere: 0,
                activities: ActivityLog::new(p, p <= sim.timeline_limit),
                violation: None,
                finish_sent: false,
                total_units: 0,
                started: start,
                request_queue: RequestQueue::default(),
                largest_termination_message: 0,
                heap: if whole {
                    huge_pages::HeapFollower::Main {
                        advised: heap_after,
                    }
                } else {
                    huge_pages::HeapFollower::Arena
                },
                proof: sim.proof.then(|| {
                    let t_dead = config.delta_t + t_recv + sim.t_split + t_send + diameter_latency;
                    Box::new(proof::Probe::new(p, t_send, t_recv, sim.t_split, t_dead))
                }),
                probes,
                increments,
            }
        };
        let worlds = if threads == 1 {
            let mut engine = Engine {
                current: 0,
                pes: &mut pes,
                world: new_world(Span::whole(p)),
            };
            engine.run()?;
            vec![engine.world]
        } else {
            partition::run(&mut pes, threads, lookahead, new_world)?
        };
        // The queues are empty now; their buffers go back before the PEs' statistics are
        // gathered (the peak of a run with many PEs).
        let (world, incumbents) = World::merge(worlds);
        let learning = incumbents::latencies(incumbents, p);
        let State::Done { at: end } = pes[0].sim.state else {
            unreachable!("every PE finished")
        };
        // T_par as the papers define it: the work done and termination detected. Collecting
        // the result at PE 0 after that is reported apart (`SimReport::t_collect`).
        let t_par = world.detected.map_or(end, |d| d.min(end));
        let mut gather = Gather::new(p);
        // The slots' memory is given back as they are taken out, so that the statistics
        // gathered do not come on top of all the PEs' state (with many PEs, the run's peak).
        let first = pes.as_ptr() as usize;
        let mut slots = pes.into_iter();
        for i in 0..p {
            if i % RELEASE_EVERY == 0 {
                huge_pages::release(first, slots.as_slice().as_ptr() as usize);
            }
            let Some(Slot {
                driver: mut pe,
                sim: sim_pe,
            }) = slots.next()
            else {
                unreachable!("one slot per PE")
            };
            let State::Done { at } = sim_pe.state else {
                unreachable!("every PE finished")
            };
            let mut end = pe.end(at);
            let (sum, n) = learning.get(i).copied().unwrap_or((0, 0));
            end.stats.bound_latency = (n > 0).then(|| sum as f64 / n as f64);
            let polling = &mut end.stats.polling;
            if let Some(&probes) = world.probes.get(i) {
                polling.probes = probes;
                polling.probe_time = (probes * sim.t_poll) as f64;
            }
            if let Some(&increments) = world.increments.get(i) {
                polling.counts = increments;
                polling.count_time = (increments * sim.t_count) as f64;
            }
            gather.add(i, end);
        }
        let mut ended = gather.finish("sim", config, t_par as f64)?;
        let measured = Measured {
            end,
            last_work_end: world.last_work_end,
            diameter_latency,
            activities: world.activities,
            events: world.events,
            request_queue: world.request_queue,
            largest_termination_message: world.largest_termination_message,
            proof: world.proof.map(|probe| probe.report()),
            wall_seconds: start.elapsed().as_secs_f64(),
        };
        let figures = SimFigures::new(&mut ended.report, config, sim, t_par, measured);
        Ok(Some(ended.with(figures)))
    }
}

/// The simulator as a [`Machine`](super::Machine): runs every computation on the simulated
/// machine `sim`, optionally against the empty-splits adversary ([`Simulator::empty_splits`]).
#[derive(Debug, Clone, Default)]
pub struct Simulator {
    /// The simulated machine's parameters.
    pub sim: SimConfig,
    /// The probability that a split hands over an empty piece (0: never).
    empty_splits: f64,
}

machine!(Simulator, "sim", SimReport, |m, root, config| {
    if m.empty_splits > 0.0 {
        let root = EmptySplits::new(root, m.empty_splits, config.seed);
        Ok(match simulate(root, config, &m.sim)? {
            Ended::Finished(r) => Ended::Finished(r),
            Ended::Stopped(s) => Ended::Stopped(crate::ended::Stopped {
                limit: s.limit,
                report: s.report,
                remaining: s
                    .remaining
                    .into_iter()
                    .filter_map(EmptySplits::into_inner)
                    .collect(),
            }),
        })
    } else {
        simulate(root, config, &m.sim)
    }
});

impl Simulator {
    /// The simulated machine `sim`.
    pub fn new(sim: SimConfig) -> Self {
        Simulator {
            sim,
            empty_splits: 0.0,
        }
    }

    /// The empty-splits adversary: every split hands over an empty piece with probability
    /// `probability` (deterministically, from the run's seed; see [`adversary::EmptySplits`]).
    /// The protocols must treat such a piece as a rejection and lose no work.
    pub fn empty_splits(mut self, probability: f64) -> Self {
        self.empty_splits = probability;
        self
    }

    /// Simulate the schedule of the task DAG `root` (see [`simulate_dag`]).
    pub fn run_dag(
        &self,
        root: DagTask,
        config: &DagConfig,
    ) -> Result<Ended<DagTask, SimReport<Schedule>>, RunError> {
        simulate_dag(root, config, &self.sim)
    }
}
