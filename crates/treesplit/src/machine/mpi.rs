//! The MPI machine: one PE per MPI rank (Open MPI through the `mpi` crate), behind the cargo
//! feature `mpi`.
//!
//! Each rank runs the one PE driver ([`crate::driver`]); this file is only its transport.
//! Every envelope (protocol message, incumbent, statistics) is serialized with postcard and
//! sent with tag [`TAG_ENVELOPE`]. A busy rank polls with a non-blocking matched probe after
//! every slice of Δt work units; an idle rank blocks in a matched probe. Termination detection
//! and the result reduction are the protocol's own messages. Afterwards every rank sends its
//! statistics to rank 0, which builds the report; envelopes still queued then are checked for
//! lost work, like on the other machines.
//!
//! Branch-and-bound incumbents: when a rank's local incumbent improves, the rank sends the new
//! value to every other rank at the end of the slice, so an improvement reaches all ranks
//! within one slice (Δt units of work) plus one message latency.
//!
//! Run limits: `max_units` is enforced per rank (a rank stops the run once its own units
//! reach ⌈N/P⌉: the ranks keep no shared counter), so a run ends within N + P·Δt units; a
//! rank that stopped says so in its statistics, and the run ends
//! [`Stopped`](crate::Ended::Stopped) with the partial report.
//!
//! The report: every rank sends its statistics to rank 0, which builds the report and
//! broadcasts it, so every rank returns the same report (and multi-run drivers decide alike
//! on every rank). The remaining pieces of a stopped run stay on rank 0.
//!
//! Failures: a panic in user code (or a broken protocol invariant) on any rank prints a message
//! naming the rank and calls `MPI_Abort`, which ends the whole job with a non-zero exit; a rank
//! that dies is detected by the MPI launcher, which ends the job.

use super::run::{self, Backend, Gather, Ran, Start};
use crate::check::Checked;
use crate::config::DagConfig;
use crate::config::{Config, ConfigError};
use crate::dag::DagTask;
use crate::driver::{
    self, BoundExchange, Envelope, Flow, Handled, Incoming, MachineTime, PeDriver, Slice,
    Transport, WireStats,
};
use crate::ended::{Ended, Limit, Stopped};
use crate::error::{catch_quietly, panic_error, RunError};
use crate::piece::{Decoders, Decoding};
use crate::protocol::Env;
use crate::protocol::PeId;
use crate::stats::Report;
use crate::task::Task;
use crate::timeline::Trace;
use mpi::environment::Universe;
use mpi::point_to_point::{Message as MpiMessage, Status};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::time::{Duration, Instant};

/// The tag of every message: a postcard-encoded envelope (protocol message, incumbent, or a
/// rank's statistics at the end).
pub const TAG_ENVELOPE: i32 = 1;

/// An initialized MPI environment (one per process).
pub struct Mpi {
    _universe: Universe,
    world: SimpleCommunicator,
}

impl Mpi {
    /// Initialize MPI; fails if it was initialized before in this process.
    pub fn init() -> Result<Self, RunError> {
        let universe = mpi::initialize().ok_or_else(|| {
            RunError::Machine("MPI was already initialized in this process".into())
        })?;
        let world = universe.world();
        Ok(Mpi {
            _universe: universe,
            world,
        })
    }

    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    /// Number of ranks in the job.
    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Rank 0's `values` on every rank (MPI_Bcast): how drivers of several runs in a row
    /// (IDA*'s iterations) share what rank 0 learned from a report.
    pub fn broadcast_from_0(&self, values: &mut [u64]) {
        self.world.process_at_rank(0).broadcast_into(values);
    }

    /// End the whole job with `code` (MPI_Abort).
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// Run the computation: every rank builds the root with `make_root` and keeps it until the
    /// run ends (so that pieces naming a shared instance by digest find it on every rank), and
    /// rank 0's is the one worked; every rank gets the
    /// report (rank 0 broadcasts it), and the remaining pieces of a stopped run are rank 0's
    /// alone (the other ranks' [`Stopped::remaining`] is empty). `config.pes` must equal the number of ranks, and a
    /// configuration error is returned on every rank alike before any communication. Once the
    /// ranks communicate, a panic or an error on any rank is printed and aborts the whole job
    /// (the other ranks could not finish without it).
    pub fn run<T: Task>(
        &self,
        make_root: impl FnOnce() -> T,
        config: &Config,
    ) -> Result<Ended<T>, RunError> {
        self.check_size(config)?;
        // Messages decode to pieces of `T` (with their names under contract checks).
        let _decoding = Decoding::install(if config.check {
            Checked::decoders::<T>()
        } else {
            Decoders::of::<T>()
        });
        self.run_with(make_root, config, Env::default())
    }

    /// Schedule the task DAG `make_root` builds on every rank (see [`DagConfig`]): the run
    /// finished, or a limit or the interrupt flag stopped it; every rank gets the report.
    pub fn run_dag(
        &self,
        make_root: impl FnOnce() -> DagTask,
        config: &DagConfig,
    ) -> Result<Ended<DagTask>, RunError> {
        let root = make_root();
        let (config, env) = run::dag_setup(config, &root);
        self.check_size(&config)?;
        let _decoding = Decoding::install(Decoders::of::<DagTask>());
        self.run_with(|| root, &config, env)
    }

    fn check_size(&self, config: &Config) -> Result<(), RunError> {
        if config.pes != self.size() {
            return Err(RunError::InvalidConfig(ConfigError::PesMismatch {
                pes: config.pes,
                machine: self.size(),
            }));
        }
        Ok(())
    }

    /// [`Mpi::run`] with the PEs' environment `env`; every rank gets the report.
    fn run_with<T: Task>(
        &self,
        make_root: impl FnOnce() -> T,
        config: &Config,
        env: Env,
    ) -> Result<Ended<T>, RunError> {
        match run::run(self, make_root, config, env)? {
            run::Typed::Here(ended, ()) => {
                let mut bytes = encode_report(&ended)?;
                self.broadcast_bytes(&mut bytes);
                Ok(*ended)
            }
            run::Typed::Elsewhere(config) => {
                let mut bytes = Vec::new();
                self.broadcast_bytes(&mut bytes);
                decode_report(&bytes, config)
            }
        }
    }

    /// Rank 0's `bytes` on every rank (their length first, then the bytes).
    fn broadcast_bytes(&self, bytes: &mut Vec<u8>) {
        let root = self.world.process_at_rank(0);
        let mut len = [bytes.len() as u64];
        root.broadcast_into(&mut len[..]);
        bytes.resize(len[0] as usize, 0);
        root.broadcast_into(&mut bytes[..]);
    }

    /// One rank's run: rank 0 gets the report, the run limit any rank reached and the work
    /// left on all ranks.
    fn run_rank(&self, start: Start<'_>) -> Ran<()> {
        let (root, config, fresh, env) = (start.root, start.config, start.fresh, &start.env);
        let rank = self.rank();
        self.world.barrier();
        // Rounds of synchronous balancers run on the local clock, started together by the
        // barrier above (ranks' clocks drift apart only by the barrier's skew). Ticks are
        // aligned to rank 0's start through the system clock, which ranks on one host share,
        // so that the DAG schedulers' start and finish times compare across ranks (a
        // successor's start never precedes its predecessor's finish by the barrier's skew).
        let start = Instant::now();
        let wall = |t: std::time::SystemTime| {
            t.duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as i64)
        };
        let mine = wall(std::time::SystemTime::now());
        let mut root_start = [mine];
        self.world
            .process_at_rank(0)
            .broadcast_into(&mut root_start[..]);
        let mut link = Link {
            offset: mine - root_start[0],
            world: &self.world,
            rank,
            start,
            pending: None,
            early_stats: Vec::new(),
            units: 0,
        };
        let clock = MachineTime {
            now: 0,
            ticks_per_round_unit: 1000,
            tick_seconds: 1e-9,
        };
        let mut pe = PeDriver::new(
            rank,
            config,
            env,
            fresh,
            root,
            clock,
            BoundExchange::ToAll,
            None,
        );
        driver::drive(&mut pe, &mut link)?;
        let now = link.elapsed();
        let t_par = now as f64 * 1e-9;
        let end = pe.end(now);

        // Statistics to rank 0; protocol messages still arriving are late requests and
        // rejections, which the lost-work check looks at.
        let result = if rank == 0 {
            let mut gather = Gather::new(self.size());
            gather.add(0, end);
            for (from, w) in std::mem::take(&mut link.early_stats) {
                gather.add(from, w.into_end(from)?);
            }
            while !gather.is_complete() {
                let (from, envelope) = link.receive(self.world.any_process().matched_probe())?;
                match envelope {
                    Envelope::Stats(w) => gather.add(from, w.into_end(from)?),
                    other => driver::check_leftover(from, rank, &other)?,
                }
            }
            Some(gather.finish("mpi", config, t_par)?)
        } else {
            let wire = WireStats::from_end(end)
                .map_err(|e| RunError::Internal(format!("rank {rank}'s unfinished work: {e}")))?;
            link.send(0, Envelope::Stats(Box::new(wire)), 0)?;
            None
        };
        // Everyone is done sending; drop the requests and rejections still queued (the
        // protocol guarantees that no work is among them, and the check makes sure).
        self.world.barrier();
        while let Some(probed) = self.world.any_process().immediate_matched_probe() {
            let (from, envelope) = link.receive(probed)?;
            driver::check_leftover(from, rank, &envelope)?;
        }
        Ok(result)
    }
}

/// One rank's end of the MPI machine: every envelope is postcard-encoded under one tag.
struct Link<'a> {
    world: &'a SimpleCommunicator,
    rank: usize,
    start: Instant,
    /// Nanoseconds from rank 0's start to this rank's, by the system clock.
    offset: i64,
    /// What a blocking wait received, for the next `try_recv`.
    pending: Option<(MpiMessage, Status)>,
    /// Rank 0: statistics of ranks that finished while it was still reducing results.
    early_stats: Vec<(usize, WireStats)>,
    /// Work units this rank has done (run limits).
    units: u64,
}

impl Link<'_> {
    /// Nanoseconds since the common start.
    fn elapsed(&self) -> u64 {
        (self.start.elapsed().as_nanos() as i64 + self.offset).max(0) as u64
    }

    /// Receive a probed message and decode its envelope.
    fn receive(&self, probed: (MpiMessage, Status)) -> Result<(usize, Envelope), RunError> {
        let (bytes, status) = probed.matched_receive_vec::<u8>();
        let from = status.source_rank() as usize;
        if status.tag() != TAG_ENVELOPE {
            return Err(RunError::Internal(format!(
                "PE {}: message with unknown tag {} from PE {from}",
                self.rank,
                status.tag()
            )));
        }
        let envelope = postcard::from_bytes(&bytes).map_err(|e| {
            RunError::Internal(format!(
                "PE {}: undecodable message from PE {from}: {e}",
                self.rank
            ))
        })?;
        Ok((from, envelope))
    }
}

impl Transport for Link<'_> {
    fn now(&mut self) -> u64 {
        self.elapsed()
    }

    fn send(&mut self, to: PeId, envelope: Envelope, _bound: i64) -> Result<u64, RunError> {
        let bytes = postcard::to_allocvec(&envelope)
            .map_err(|e| RunError::Internal(format!("cannot serialize a message: {e}")))?;
        self.world
            .process_at_rank(to as i32)
            .send_with_tag(&bytes[..], TAG_ENVELOPE);
        Ok(bytes.len() as u64)
    }

    fn try_recv(&mut self) -> Result<Option<Incoming>, RunError> {
        loop {
            let probed = match self.pending.take() {
                Some(probed) => probed,
                None => match self.world.any_process().immediate_matched_probe() {
                    Some(probed) => probed,
                    None => return Ok(None),
                },
            };
            match self.receive(probed)? {
                (from, Envelope::Stats(w)) if self.rank == 0 => self.early_stats.push((from, *w)),
                (from, Envelope::Stats(_) | Envelope::Abort) => {
                    return Err(RunError::Internal(format!(
                        "PE {}: unexpected machine message from PE {from}",
                        self.rank
                    )))
                }
                (from, envelope) => {
                    return Ok(Some(Incoming {
                        from,
                        envelope,
                        bound: None,
                    }))
                }
            }
        }
    }

    fn recv_until(&mut self, deadline: Option<u64>) -> Result<Flow, RunError> {
        self.pending = match deadline {
            None => Some(self.world.any_process().matched_probe()),
            // MPI has no probe with a timeout: until the deadline, probe and sleep in short
            // steps (only synchronous balancers wait with a deadline).
            Some(tick) => {
                let until = self.start + Duration::from_nanos(tick);
                loop {
                    if let Some(probed) = self.world.any_process().immediate_matched_probe() {
                        break Some(probed);
                    }
                    let now = Instant::now();
                    if now >= until {
                        break None;
                    }
                    std::thread::sleep((until - now).min(Duration::from_micros(20)));
                }
            }
        };
        Ok(Flow::Continue)
    }

    fn handled(&mut self, _handled: &Handled) {}

    fn worked(&mut self, _slice: &Slice) -> Result<Flow, RunError> {
        Ok(Flow::Continue)
    }

    fn total_units(&mut self, units: u64) -> u64 {
        self.units += units;
        self.units.saturating_mul(self.world.size() as u64)
    }

    fn wall_clock(&mut self) -> Duration {
        self.start.elapsed()
    }
}

impl Backend for Mpi {
    type Extra = ();

    fn holds_root(&self) -> bool {
        self.rank() == 0
    }

    /// Once the ranks communicate, a panic or an error on any rank is printed and aborts the
    /// whole job (the other ranks could not finish without it): a failed run, exit code 1.
    fn run(&self, start: Start<'_>) -> Ran<()> {
        let rank = self.rank();
        match catch_quietly(|| self.run_rank(start)) {
            Ok(Ok(ended)) => Ok(ended),
            Ok(Err(e)) => {
                eprintln!("error: MPI rank {rank}: {e}; aborting the MPI job");
                self.abort(1)
            }
            Err(payload) => {
                match panic_error(rank, payload) {
                    RunError::PePanicked {
                        message,
                        location,
                        backtrace,
                        ..
                    } => eprintln!(
                        "error: PE {rank} (MPI rank {rank}) panicked: {message}{}; aborting the MPI job{}",
                        location.map(|at| format!(" ({at})")).unwrap_or_default(),
                        backtrace
                            .map(|t| format!("\nstack backtrace of PE {rank}:\n{t}"))
                            .unwrap_or_default()
                    ),
                    other => eprintln!("error: MPI rank {rank}: {other}; aborting the MPI job"),
                }
                self.abort(1)
            }
        }
    }
}

machine!(
    Mpi,
    "mpi",
    Report,
    |m, root, config| Mpi::run(m, || root, config),
    fn share_from_0(&self, values: &mut [u64]) {
        self.broadcast_from_0(values);
    }
);

/// A report as rank 0 broadcasts it (postcard cannot encode the configuration, which every
/// rank has: the resolved one of the run).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(bound = "O: serde::Serialize + serde::de::DeserializeOwned")]
struct WireReport<O> {
    output: O,
    t_par: f64,
    t_seq: Option<f64>,
    per_pe: Vec<WireStats>,
    notes: Vec<String>,
    trace: Option<Trace>,
    limit: Option<Limit>,
}

/// Rank 0's end of a run, to broadcast.
fn encode_report<T: Task>(ended: &Ended<T>) -> Result<Vec<u8>, RunError> {
    let r = ended.report();
    let wire = WireReport {
        output: r.output.clone(),
        t_par: r.t_par,
        t_seq: r.t_seq,
        per_pe: r
            .per_pe
            .iter()
            .cloned()
            .map(WireStats::from_stats)
            .collect(),
        notes: r.notes.clone(),
        trace: r.trace.clone(),
        limit: ended.limit(),
    };
    postcard::to_allocvec(&wire)
        .map_err(|e| RunError::Internal(format!("cannot encode the report: {e}")))
}

/// The end of a run as rank 0 broadcast it, on another rank (with no remaining pieces).
fn decode_report<T: Task>(bytes: &[u8], config: Config) -> Result<Ended<T>, RunError> {
    let wire: WireReport<T::Output> = postcard::from_bytes(bytes)
        .map_err(|e| RunError::Internal(format!("cannot decode rank 0's report: {e}")))?;
    let per_pe = (wire.per_pe.into_iter().enumerate())
        .map(|(pe, w)| w.into_stats(pe))
        .collect();
    let mut report = Report::new(wire.output, "mpi", config, wire.t_par, per_pe);
    report.t_seq = wire.t_seq;
    report.notes = wire.notes;
    report.trace = wire.trace;
    Ok(match wire.limit {
        None => Ended::Finished(report),
        Some(limit) => Ended::Stopped(Stopped {
            limit,
            report,
            remaining: Vec::new(),
        }),
    })
}
