//! The MPI machine: one PE per MPI rank (Open MPI through the `mpi` crate), behind the cargo
//! feature `mpi`.
//!
//! Each rank drives its protocol state machine exactly as the thread machine does; only the
//! transport differs. Protocol messages are serialized with postcard and sent with tag
//! [`TAG_PROTOCOL`]. A busy rank polls with a non-blocking matched probe after every slice of
//! Δt work units; an idle rank blocks in a matched probe. Termination detection and the result
//! reduction are the protocol's own messages. Afterwards every rank sends its statistics to
//! rank 0 (tag [`TAG_STATS`]), which builds the report.
//!
//! Branch-and-bound incumbents: when a rank's local incumbent improves, the rank sends the new
//! value to every other rank (tag [`TAG_BOUND`]) at its next poll, so an improvement reaches
//! all ranks within one slice (Δt units of work) plus one message latency.
//!
//! Failures: a panic in user code (or a broken protocol invariant) on any rank prints a message
//! naming the rank and calls `MPI_Abort`, which ends the whole job with a non-zero exit; a rank
//! that dies is detected by the MPI launcher, which ends the job.

use crate::config::Config;
use crate::error::{panic_message, RunError};
use crate::protocol::{self, Message, Step};
use crate::stats::{PeStats, Report};
use crate::task::{Incumbent, SharedIncumbent, Task};
use mpi::environment::Universe;
use mpi::point_to_point::{Message as MpiMessage, Status};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Tag of protocol messages.
pub const TAG_PROTOCOL: i32 = 1;
/// Tag of incumbent broadcasts (8 bytes, little-endian i64).
pub const TAG_BOUND: i32 = 2;
/// Tag of the per-rank statistics sent to rank 0 at the end.
pub const TAG_STATS: i32 = 3;

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

    /// Run the computation: rank 0 builds the root with `make_root` and gets the report;
    /// the other ranks get `Ok(None)`. `config.pes` must equal the number of ranks. A panic on
    /// any rank aborts the job.
    pub fn run<T: Task>(
        &self,
        make_root: impl FnOnce() -> T,
        config: &Config,
    ) -> Result<Option<Report<T::Output>>, RunError> {
        config.validate().map_err(RunError::InvalidConfig)?;
        if config.pes != self.size() {
            return Err(RunError::InvalidConfig(format!(
                "the configuration asks for {} PEs but the MPI job has {} ranks",
                config.pes,
                self.size()
            )));
        }
        let rank = self.rank();
        match catch_unwind(AssertUnwindSafe(|| self.run_rank(make_root, config))) {
            Ok(result) => result,
            Err(payload) => {
                eprintln!(
                    "error: PE {rank} (MPI rank {rank}) panicked: {}; aborting the MPI job",
                    panic_message(&*payload)
                );
                self.abort(70)
            }
        }
    }

    fn run_rank<T: Task>(
        &self,
        make_root: impl FnOnce() -> T,
        config: &Config,
    ) -> Result<Option<Report<T::Output>>, RunError> {
        let world = &self.world;
        let rank = self.rank();
        let root = (rank == 0).then(make_root);
        let mut pe = protocol::new_pe(rank, config, root);
        let incumbent = SharedIncumbent::new();
        let mut shared_bound = i64::MIN;
        let mut stats = PeStats {
            pe: rank,
            ..PeStats::default()
        };
        let mut rtt = (Duration::ZERO, 0u32);
        let mut request_out: Option<Instant> = None;
        let mut idle = Duration::ZERO;
        // Statistics of ranks that finished while rank 0 was still reducing results.
        let mut early_stats: Vec<(usize, Vec<u8>)> = Vec::new();

        world.barrier();
        let start = Instant::now();
        // Synchronous balancers: rounds of Δ µs on the local clock, started together by the
        // barrier above (ranks' clocks drift apart only by the barrier's skew).
        let round_length = pe.round_length().map(Duration::from_micros);
        let mut round = None;
        loop {
            if let Some(length) = round_length {
                let now = (start.elapsed().as_nanos() / length.as_nanos().max(1)) as u64;
                // Every round in order, even after a long slice: synchronous protocols (the
                // permutation rounds of poll-and-shuffle) must not miss one.
                while round.is_none_or(|r| r < now) {
                    let next = round.map_or(0, |r| r + 1);
                    round = Some(next);
                    pe.on_round(next);
                }
            }
            let step = pe.step();
            while let Some((to, message)) = pe.poll_transmit() {
                if matches!(message, Message::Request) {
                    request_out = Some(Instant::now());
                }
                let bytes = postcard::to_allocvec(&message)
                    .map_err(|e| RunError::Internal(format!("cannot serialize a message: {e}")))?;
                stats.bytes_sent += bytes.len() as u64;
                world
                    .process_at_rank(to as i32)
                    .send_with_tag(&bytes[..], TAG_PROTOCOL);
            }
            let incoming = match step {
                Step::Work { budget } => {
                    let counted = crate::task::CountingIncumbent::new(&incumbent);
                    pe.work(budget, &counted);
                    stats.improvements += counted.improvements();
                    let best = incumbent.best();
                    if best > shared_bound {
                        shared_bound = best;
                        for r in (0..self.size()).filter(|&r| r != rank) {
                            world
                                .process_at_rank(r as i32)
                                .send_with_tag(&best.to_le_bytes()[..], TAG_BOUND);
                        }
                    }
                    let mut incoming = Vec::new();
                    while let Some(probed) = world.any_process().immediate_matched_probe() {
                        incoming.push(receive(probed));
                    }
                    incoming
                }
                Step::Wait => {
                    let t0 = Instant::now();
                    let probed = match (round_length, round) {
                        // MPI has no probe with a timeout: until the next round starts, probe
                        // and sleep in short steps (only synchronous balancers do this).
                        (Some(length), Some(r)) => {
                            let next = start
                                + Duration::from_nanos(
                                    (length.as_nanos() as u64).saturating_mul(r + 1),
                                );
                            loop {
                                if let Some(probed) = world.any_process().immediate_matched_probe()
                                {
                                    break Some(probed);
                                }
                                let now = Instant::now();
                                if now >= next {
                                    break None;
                                }
                                std::thread::sleep((next - now).min(Duration::from_micros(20)));
                            }
                        }
                        _ => Some(world.any_process().matched_probe()),
                    };
                    idle += t0.elapsed();
                    probed.map(receive).into_iter().collect()
                }
                Step::Finished => break,
            };
            for (from, tag, bytes) in incoming {
                match tag {
                    TAG_PROTOCOL => {
                        let message: Message<T> = postcard::from_bytes(&bytes).map_err(|e| {
                            RunError::Internal(format!(
                                "PE {rank}: undecodable message from PE {from}: {e}"
                            ))
                        })?;
                        if matches!(message, Message::Reject | Message::Work { .. }) {
                            if let Some(t) = request_out.take() {
                                rtt.0 += t.elapsed();
                                rtt.1 += 1;
                            }
                        }
                        pe.receive(from, message);
                    }
                    TAG_BOUND => {
                        let value = i64::from_le_bytes(
                            bytes
                                .try_into()
                                .map_err(|_| RunError::Internal("bad bound message".into()))?,
                        );
                        incumbent.offer(value);
                        shared_bound = shared_bound.max(value);
                    }
                    TAG_STATS if rank == 0 => early_stats.push((from, bytes)),
                    other => {
                        return Err(RunError::Internal(format!(
                            "PE {rank}: message with unknown tag {other} from PE {from}"
                        )))
                    }
                }
            }
        }
        while let Some((to, message)) = pe.poll_transmit() {
            let bytes =
                postcard::to_allocvec(&message).map_err(|e| RunError::Internal(e.to_string()))?;
            stats.bytes_sent += bytes.len() as u64;
            world
                .process_at_rank(to as i32)
                .send_with_tag(&bytes[..], TAG_PROTOCOL);
        }
        let t_par = start.elapsed();
        stats.counters = pe.counters().clone();
        stats.idle = idle.as_secs_f64();
        stats.busy = t_par.saturating_sub(idle).as_secs_f64();
        stats.request_rtt = (rtt.1 > 0).then(|| rtt.0.as_secs_f64() / f64::from(rtt.1));
        let output = pe.take_output();

        // Statistics to rank 0, on their own tag (late protocol messages may still be queued).
        let result = if rank == 0 {
            let mut per_pe = vec![stats];
            for r in 1..self.size() {
                let bytes = match early_stats.iter().position(|(from, _)| *from == r) {
                    Some(i) => early_stats.swap_remove(i).1,
                    None => {
                        world
                            .process_at_rank(r as i32)
                            .receive_vec_with_tag::<u8>(TAG_STATS)
                            .0
                    }
                };
                let w: WireStats = postcard::from_bytes(&bytes).map_err(|e| {
                    RunError::Internal(format!("undecodable statistics from PE {r}: {e}"))
                })?;
                per_pe.push(w.into_stats(r));
            }
            let output = output
                .ok_or_else(|| RunError::Internal("PE 0 finished without the result".into()))?;
            Some(Report::new(
                output,
                "mpi",
                config.clone(),
                t_par.as_secs_f64(),
                per_pe,
            ))
        } else {
            let bytes = postcard::to_allocvec(&WireStats::from(&stats))
                .map_err(|e| RunError::Internal(e.to_string()))?;
            world
                .process_at_rank(0)
                .send_with_tag(&bytes[..], TAG_STATS);
            None
        };
        // Everyone is done sending; drop the requests and rejections still queued (the
        // protocol guarantees that no work is among them).
        world.barrier();
        while let Some(probed) = world.any_process().immediate_matched_probe() {
            let (from, tag, bytes) = receive(probed);
            if tag == TAG_PROTOCOL {
                if let Ok(Message::<T>::Work { .. }) = postcard::from_bytes(&bytes) {
                    return Err(RunError::Internal(format!(
                        "a piece of work from PE {from} to PE {rank} was never received"
                    )));
                }
            }
        }
        Ok(result)
    }
}

/// A rank's statistics as they travel to rank 0 (postcard cannot encode the flattened
/// `PeStats` that JSON reports use).
#[derive(serde::Serialize, serde::Deserialize)]
struct WireStats {
    counters: crate::protocol::PeCounters,
    busy: f64,
    idle: f64,
    bytes_sent: u64,
    request_rtt: Option<f64>,
    improvements: u64,
}

impl From<&PeStats> for WireStats {
    fn from(s: &PeStats) -> Self {
        WireStats {
            counters: s.counters.clone(),
            busy: s.busy,
            idle: s.idle,
            bytes_sent: s.bytes_sent,
            request_rtt: s.request_rtt,
            improvements: s.improvements,
        }
    }
}

impl WireStats {
    fn into_stats(self, pe: usize) -> PeStats {
        PeStats {
            pe,
            counters: self.counters,
            busy: self.busy,
            idle: self.idle,
            bytes_sent: self.bytes_sent,
            request_rtt: self.request_rtt,
            improvements: self.improvements,
            bound_latency: None,
        }
    }
}

/// Receive a probed message: (source rank, tag, bytes).
fn receive(probed: (MpiMessage, Status)) -> (usize, i32, Vec<u8>) {
    let (bytes, status) = probed.matched_receive_vec::<u8>();
    (status.source_rank() as usize, status.tag(), bytes)
}

impl super::Machine for Mpi {
    type Report<O> = Report<O>;

    fn name(&self) -> &'static str {
        "mpi"
    }

    fn run<T: Task>(
        &self,
        root: T,
        config: &Config,
    ) -> Result<Option<Report<T::Output>>, RunError> {
        Mpi::run(self, || root, config)
    }

    fn share_from_0(&self, values: &mut [u64]) {
        self.broadcast_from_0(values);
    }
}
