//! Measurements of a run: per-PE counts and times, totals, efficiency, and a readable
//! summary (the JSON form is the serde serialization of [`Report`]).

use crate::config::Config;
pub use crate::protocol::PeCounters;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// What one PE did during a run.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PeStats {
    /// The PE's index.
    pub pe: usize,
    /// The protocol's counts.
    #[serde(flatten)]
    pub counters: PeCounters,
    /// Time not spent idle: working, splitting, handling messages (seconds on real
    /// machines, virtual time units in the simulator).
    pub busy: f64,
    /// Time spent blocked waiting for a message while idle.
    pub idle: f64,
    /// Bytes of serialized messages sent (machines that serialize; 0 elsewhere).
    #[serde(default)]
    pub bytes_sent: u64,
    /// Mean time from sending a work request to its answer, in seconds (MPI machine).
    #[serde(default)]
    pub request_rtt: Option<f64>,
    /// Branch-and-bound: offers of this PE that improved the incumbent it knew.
    #[serde(default)]
    pub improvements: u64,
    /// Branch-and-bound, simulator: mean delay from a global improvement to this PE learning
    /// of it (by a bound message or a piggybacked bound), over the improvements it learned.
    #[serde(default)]
    pub bound_latency: Option<f64>,
}

/// Sums and extremes over all PEs.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Totals {
    /// Work units done by all PEs (must equal the sequential count).
    pub work_units: u64,
    /// Sum of busy times.
    pub busy: f64,
    /// Sum of idle times.
    pub idle: f64,
    /// Requests sent.
    pub requests: u64,
    /// Requests answered with a rejection.
    pub rejections: u64,
    /// Splits that produced a piece for another PE.
    pub splits: u64,
    /// Pieces received.
    pub pieces_received: u64,
    /// The splitting depth h seen: the largest generation of any piece.
    pub max_generation: u32,
    /// All messages.
    pub messages: u64,
    /// Messages of termination detection and result reduction.
    pub termination_messages: u64,
    /// Bytes of all messages, serialized (machines that count them).
    #[serde(default)]
    pub bytes: u64,
    /// Branch-and-bound: offers that improved the incumbent (summed over PEs).
    #[serde(default)]
    pub improvements: u64,
    /// Largest work units done by one PE.
    pub max_pe_work_units: u64,
    /// Smallest work units done by one PE.
    pub min_pe_work_units: u64,
}

/// The full record of a parallel run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report<O> {
    /// The merged result.
    pub output: O,
    /// Which machine ran it ("threads", "sim", "mpi").
    pub machine: String,
    /// The configuration.
    pub config: Config,
    /// T_par: wall-clock seconds from start to the result on PE 0 (virtual time in the simulator).
    pub t_par: f64,
    /// T_seq of the sequential baseline, when it was measured in the same invocation.
    pub t_seq: Option<f64>,
    /// Per-PE measurements.
    pub per_pe: Vec<PeStats>,
    /// Sums over PEs.
    pub totals: Totals,
    /// What the library chose for the user, one sentence each (e.g. a static balancer's
    /// number of jobs, with any floor or cap that applied).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl<O> Report<O> {
    /// Assemble a report and compute the totals.
    pub fn new(output: O, machine: &str, config: Config, t_par: f64, per_pe: Vec<PeStats>) -> Self {
        let mut t = Totals {
            min_pe_work_units: u64::MAX,
            ..Totals::default()
        };
        for s in &per_pe {
            let c = &s.counters;
            t.work_units += c.work_units;
            t.busy += s.busy;
            t.idle += s.idle;
            t.requests += c.requests_sent;
            t.rejections += c.rejections_sent;
            t.splits += c.splits;
            t.pieces_received += c.pieces_received;
            t.max_generation = t.max_generation.max(c.max_generation);
            t.messages += c.messages_sent;
            t.termination_messages += c.termination_messages;
            t.bytes += s.bytes_sent;
            t.improvements += s.improvements;
            t.max_pe_work_units = t.max_pe_work_units.max(c.work_units);
            t.min_pe_work_units = t.min_pe_work_units.min(c.work_units);
        }
        if per_pe.is_empty() {
            t.min_pe_work_units = 0;
        }
        Report {
            output,
            machine: machine.to_string(),
            config,
            t_par,
            t_seq: None,
            per_pe,
            totals: t,
            notes: Vec::new(),
        }
    }

    /// Number of PEs.
    pub fn pes(&self) -> usize {
        self.per_pe.len()
    }

    /// T_seq / (P · T_par), when T_seq was measured.
    pub fn efficiency(&self) -> Option<f64> {
        self.t_seq.map(|ts| ts / (self.pes() as f64 * self.t_par))
    }

    /// Busy time over P · T_par: the fraction of PE time spent on task work.
    pub fn utilization(&self) -> f64 {
        self.totals.busy / (self.pes() as f64 * self.t_par)
    }

    /// A readable multi-line summary (the result is printed by the caller).
    pub fn summary(&self) -> String {
        let t = &self.totals;
        let p = self.pes();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "machine {}  balancer {}  P = {p}  Δt = {}  seed = {}",
            self.machine, self.config.balancer, self.config.delta_t, self.config.seed
        );
        // Real machines report seconds; the simulator reports virtual time units.
        let (unit, digits) = if self.machine == "sim" {
            ("", 0)
        } else {
            (" s", 4)
        };
        let _ = write!(s, "T_par {:.digits$}{unit}", self.t_par);
        if let (Some(ts), Some(e)) = (self.t_seq, self.efficiency()) {
            let speedup = ts / self.t_par;
            let _ = write!(
                s,
                "   T_seq {ts:.digits$}{unit}   speedup {speedup:.3}   efficiency {e:.3}"
            );
        }
        let _ = writeln!(s, "   utilization {:.3}", self.utilization());
        let _ = writeln!(
            s,
            "work units {}  (per PE min {} max {})  splitting depth h = {}",
            t.work_units, t.min_pe_work_units, t.max_pe_work_units, t.max_generation
        );
        let _ = writeln!(
            s,
            "requests {}  rejections {}  splits {}  messages {} ({} for termination)",
            t.requests, t.rejections, t.splits, t.messages, t.termination_messages
        );
        if t.improvements > 0 {
            let latency: Vec<f64> = self
                .per_pe
                .iter()
                .filter_map(|pe| pe.bound_latency)
                .collect();
            let _ = write!(s, "incumbent improvements {}", t.improvements);
            if !latency.is_empty() {
                let mean = latency.iter().sum::<f64>() / latency.len() as f64;
                let max = latency.iter().copied().fold(0.0, f64::max);
                let _ = write!(
                    s,
                    "  learned after {mean:.1} on average per PE (slowest PE {max:.1})"
                );
            }
            let _ = writeln!(s);
        }
        if p <= 64 {
            let _ = writeln!(
                s,
                "{:>5} {:>14} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>4}",
                "PE",
                "work units",
                "busy",
                "idle",
                "req sent",
                "req recv",
                "rejects",
                "splits",
                "gen"
            );
            for pe in &self.per_pe {
                let c = &pe.counters;
                let _ = writeln!(
                    s,
                    "{:>5} {:>14} {:>9.digits$} {:>9.digits$} {:>9} {:>9} {:>8} {:>8} {:>4}",
                    pe.pe,
                    c.work_units,
                    pe.busy,
                    pe.idle,
                    c.requests_sent,
                    c.requests_received,
                    c.rejections_sent,
                    c.splits,
                    c.max_generation
                );
            }
        }
        s
    }
}
