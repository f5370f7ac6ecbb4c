//! Measurements of a run: per-PE counts ([`PeCounters`], kept by the protocols) and times,
//! totals, efficiency, the request-latency
//! histogram and split-size statistics, and a readable summary (the JSON form is the serde
//! serialization of [`Report`]; a recorded [`Trace`] travels beside it, not in it).

use crate::config::Config;
use crate::timeline::{PeTrace, Trace};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// Counts a protocol keeps for one PE (the machine adds wall-clock times).
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeCounters {
    /// Work units done on this PE.
    pub work_units: u64,
    /// Work slices run (calls of `work`).
    pub slices: u64,
    /// Requests this PE sent.
    pub requests_sent: u64,
    /// Requests that reached this PE.
    pub requests_received: u64,
    /// Requests this PE answered with a rejection.
    pub rejections_sent: u64,
    /// Rejections this PE received.
    pub rejections_received: u64,
    /// Splits of this PE's task that produced a piece to send.
    pub splits: u64,
    /// Pieces of work sent.
    pub pieces_sent: u64,
    /// Pieces of work received.
    pub pieces_received: u64,
    /// Largest generation of a piece held by this PE (the splitting depth seen here).
    pub max_generation: u32,
    /// All messages sent, of any kind.
    pub messages_sent: u64,
    /// Messages sent by termination detection and result reduction.
    pub termination_messages: u64,
}

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
    /// Request latencies (request sent → its answer, a piece or a rejection, received) in
    /// log2 buckets of ticks: nanoseconds on real machines, virtual units in the simulator.
    #[serde(default)]
    pub request_latency: Log2Histogram,
    /// The pieces of work this PE gave away.
    #[serde(default)]
    pub split_sizes: SplitSizes,
    /// Simulator: what this PE's probes of an empty queue and increments of a global counter
    /// cost (T_poll, T_count; part of `busy`). Left out of JSON while 0.
    #[serde(flatten)]
    pub polling: PollCosts,
    /// The PE's recorded timeline, when the configuration asked for one (moved into
    /// [`Report::trace`] by [`Report::new`]).
    #[serde(skip)]
    pub trace: Option<PeTrace>,
    /// Poll-and-shuffle: phases, idle notifications and PE 0's idle estimates (paper 002
    /// §5, Lemmas 4 and 5). `None` (left out of JSON) for the other balancers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phases: Option<PhaseStats>,
    /// Branch-and-bound: the best incumbent value this PE knew at its end (`None`: none).
    /// A checkpoint keeps the best of all PEs' (`Report::incumbent`). Not in JSON reports
    /// (the result carries the solution).
    #[serde(skip)]
    pub incumbent: Option<i64>,
}

impl PeStats {
    /// Add the same PE's figures from a later run of the same computation (checkpoint
    /// epochs): counts and times add up, means are weighted by their counts, the timeline is
    /// the later run's.
    pub fn absorb(&mut self, later: &PeStats) {
        let rtt_weights = (self.counters.requests_sent, later.counters.requests_sent);
        let bound_weights = (self.improvements, later.improvements);
        self.add(later);
        self.request_rtt = weighted_mean(self.request_rtt, later.request_rtt, rtt_weights);
        self.bound_latency = weighted_mean(self.bound_latency, later.bound_latency, bound_weights);
        self.trace = later.trace.clone();
        self.phases = match (self.phases.take(), &later.phases) {
            (Some(mut p), Some(q)) => {
                p.phases += q.phases;
                p.idle_notes += q.idle_notes;
                p.permutations += q.permutations;
                p.estimates.extend(q.estimates.iter().copied());
                p.incomplete.extend(q.incomplete.iter().copied());
                p.incomplete.sort_unstable();
                p.incomplete.dedup();
                Some(p)
            }
            (p, q) => p.or_else(|| q.clone()),
        };
        self.incumbent = self.incumbent.max(later.incumbent);
    }

    /// Add `other`'s counts, times, bytes, improvements, request latencies and split sizes:
    /// what adds up over PEs (the report's totals) and over the epochs of one PE.
    fn add(&mut self, other: &PeStats) {
        let (a, b) = (&mut self.counters, &other.counters);
        a.work_units += b.work_units;
        a.slices += b.slices;
        a.requests_sent += b.requests_sent;
        a.requests_received += b.requests_received;
        a.rejections_sent += b.rejections_sent;
        a.rejections_received += b.rejections_received;
        a.splits += b.splits;
        a.pieces_sent += b.pieces_sent;
        a.pieces_received += b.pieces_received;
        a.max_generation = a.max_generation.max(b.max_generation);
        a.messages_sent += b.messages_sent;
        a.termination_messages += b.termination_messages;
        self.busy += other.busy;
        self.idle += other.idle;
        self.bytes_sent += other.bytes_sent;
        self.improvements += other.improvements;
        self.request_latency.merge(&other.request_latency);
        self.split_sizes.merge(&other.split_sizes);
        self.polling.add(&other.polling);
    }
}

/// What the simulator charged a PE (or all PEs) for polling and for a global counter:
/// paper 000 §3's T_poll per probe that found the message queue empty, §1.3's T_count per
/// increment of a global counter the PE held (global round robin's, at PE 0). Each field is
/// left out of JSON while 0, so a run without these costs reports as it did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PollCosts {
    /// Probes that found the queue empty (charged only while T_poll > 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub probes: u64,
    /// Their time: T_poll each.
    #[serde(default, skip_serializing_if = "is_zero_time")]
    pub probe_time: f64,
    /// Increments of a global counter (charged only while T_count > 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub counts: u64,
    /// Their time: T_count each.
    #[serde(default, skip_serializing_if = "is_zero_time")]
    pub count_time: f64,
}

impl PollCosts {
    fn add(&mut self, other: &PollCosts) {
        self.probes += other.probes;
        self.probe_time += other.probe_time;
        self.counts += other.counts;
        self.count_time += other.count_time;
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_zero_time(t: &f64) -> bool {
    *t == 0.0
}

/// The mean of two means with weights `w` (either may be missing; equal weights when both
/// weights are 0).
fn weighted_mean(a: Option<f64>, b: Option<f64>, w: (u64, u64)) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) if w.0 + w.1 > 0 => {
            Some((x * w.0 as f64 + y * w.1 as f64) / (w.0 + w.1) as f64)
        }
        (Some(x), Some(y)) => Some((x + y) / 2.0),
        (x, y) => x.or(y),
    }
}

/// What a poll-and-shuffle PE counted about its phases (paper 002 §5).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseStats {
    /// Phases this PE went through (rounds under a global clock, its own phase count under
    /// local synchronization).
    pub phases: u64,
    /// Idle notifications this PE sent to PE 0 (its own counted too; Lemma 4).
    pub idle_notes: u64,
    /// Permutations this PE took part in.
    pub permutations: u64,
    /// PE 0, adaptive: every estimate of the idle fraction it decided on (Lemma 5).
    pub estimates: Vec<IdleEstimate>,
    /// The numbers of the permutations that had not completed here when the next cycle
    /// began: a piece they placed on this PE arrived after its phase 0 (ascending).
    #[serde(default)]
    pub incomplete: Vec<u64>,
}

impl PhaseStats {
    /// The cycles whose permutation did not complete in time anywhere: the distinct
    /// permutation numbers any PE of `pes` recorded as incomplete.
    pub fn incomplete_cycles<'a>(pes: impl IntoIterator<Item = &'a PhaseStats>) -> usize {
        let mut all: Vec<u64> = pes
            .into_iter()
            .flat_map(|p| p.incomplete.iter().copied())
            .collect();
        all.sort_unstable();
        all.dedup();
        all.len()
    }
}

/// PE 0's estimate γ̂ of the fraction of idle PEs over phases `from..to` (paper 002 §5):
/// γ̂ = notes / (c·(to − from)), notes those stamped with a phase in the window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IdleEstimate {
    /// First phase of the window.
    pub from: u64,
    /// One past the last phase of the window.
    pub to: u64,
    /// Notifications stamped with a phase in the window.
    pub notes: u64,
    /// The estimate γ̂.
    pub gamma_hat: f64,
    /// Whether PE 0 started a permutation on it.
    pub triggered: bool,
}

/// Counts of values in log2 buckets: `counts[0]` counts the value 0, `counts[k]` (k ≥ 1) the
/// values in [2^(k−1), 2^k). The vector is as long as the largest bucket used.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Log2Histogram {
    /// Counts per bucket.
    pub counts: Vec<u64>,
}

impl Log2Histogram {
    /// The bucket of `value`.
    pub fn bucket(value: u64) -> usize {
        (u64::BITS - value.leading_zeros()) as usize
    }

    /// The smallest value of bucket `k`.
    pub fn lower(k: usize) -> u64 {
        if k == 0 {
            0
        } else {
            1u64 << (k - 1)
        }
    }

    /// Count `value`.
    #[inline]
    pub fn add(&mut self, value: u64) {
        let k = Self::bucket(value);
        match self.counts.get_mut(k) {
            Some(c) => *c += 1,
            None => self.grow_and_add(k),
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_and_add(&mut self, k: usize) {
        self.counts.resize(k + 1, 0);
        self.counts[k] += 1;
    }

    /// Add `other`'s counts.
    pub fn merge(&mut self, other: &Log2Histogram) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// Values counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The non-empty buckets as "≥lower:count", the lower bound printed by `fmt` (e.g.
    /// nanoseconds as µs).
    fn describe(&self, fmt: impl Fn(u64) -> String) -> String {
        let parts: Vec<String> = self
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(k, c)| format!("≥{}:{c}", fmt(Self::lower(k))))
            .collect();
        parts.join(" ")
    }
}

/// The sizes of the pieces of work given away (answers to requests, master–worker bundles'
/// jobs). A piece's size is its task's `estimate()` (work units) when the task gives one;
/// tasks without estimates are described by the pieces' generations (splitting depth) only,
/// as the units a piece later does are not known where it was split.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitSizes {
    /// Pieces given away.
    pub pieces: u64,
    /// Pieces whose task gave a size estimate.
    pub estimated: u64,
    /// Sum of the estimates.
    pub units: u64,
    /// The largest estimate.
    pub max_units: u64,
    /// The estimates in log2 buckets of work units.
    pub sizes: Log2Histogram,
    /// The pieces' generations in log2 buckets.
    pub generations: Log2Histogram,
}

impl SplitSizes {
    /// Count a piece of generation `generation` with estimated size `estimate`.
    pub fn add(&mut self, estimate: Option<u64>, generation: u32) {
        self.pieces += 1;
        self.generations.add(u64::from(generation));
        if let Some(units) = estimate {
            self.estimated += 1;
            self.units = self.units.saturating_add(units);
            self.max_units = self.max_units.max(units);
            self.sizes.add(units);
        }
    }

    /// Add `other`'s pieces.
    pub fn merge(&mut self, other: &SplitSizes) {
        self.pieces += other.pieces;
        self.estimated += other.estimated;
        self.units = self.units.saturating_add(other.units);
        self.max_units = self.max_units.max(other.max_units);
        self.sizes.merge(&other.sizes);
        self.generations.merge(&other.generations);
    }
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
    /// Request latencies of all PEs (log2 buckets of ticks, see [`PeStats::request_latency`]).
    #[serde(default)]
    pub request_latency: Log2Histogram,
    /// The pieces all PEs gave away.
    #[serde(default)]
    pub split_sizes: SplitSizes,
    /// Simulator: what all PEs' probes and counter increments cost (see [`PollCosts`]).
    #[serde(flatten)]
    pub polling: PollCosts,
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
    /// The recorded timeline of every PE, when the configuration asked for one
    /// ([`Config::trace`]); not part of the JSON report.
    #[serde(skip)]
    pub trace: Option<Trace>,
}

impl<O> Report<O> {
    /// The same report with its output mapped by `f`.
    pub(crate) fn map_output<P>(self, f: impl FnOnce(O) -> P) -> Report<P> {
        Report {
            output: f(self.output),
            machine: self.machine,
            config: self.config,
            t_par: self.t_par,
            t_seq: self.t_seq,
            per_pe: self.per_pe,
            totals: self.totals,
            notes: self.notes,
            trace: self.trace,
        }
    }

    /// Branch-and-bound: the best incumbent any PE knew at its end (`None`: none), as the
    /// incumbent keeps it: the value itself for a maximising task, its key for a minimising
    /// one (`Goal::value` gives the value back).
    pub fn incumbent(&self) -> Option<i64> {
        self.per_pe.iter().filter_map(|s| s.incumbent).max()
    }

    /// Assemble a report and compute the totals.
    /// The PEs' traces, if recorded, move into [`Report::trace`].
    pub fn new(
        output: O,
        machine: &str,
        config: Config,
        t_par: f64,
        mut per_pe: Vec<PeStats>,
    ) -> Self {
        let mut sum = PeStats::default();
        for s in &per_pe {
            sum.add(s);
        }
        let work = per_pe.iter().map(|s| s.counters.work_units);
        let c = &sum.counters;
        let t = Totals {
            work_units: c.work_units,
            busy: sum.busy,
            idle: sum.idle,
            requests: c.requests_sent,
            rejections: c.rejections_sent,
            splits: c.splits,
            pieces_received: c.pieces_received,
            max_generation: c.max_generation,
            messages: c.messages_sent,
            termination_messages: c.termination_messages,
            bytes: sum.bytes_sent,
            improvements: sum.improvements,
            max_pe_work_units: work.clone().max().unwrap_or(0),
            min_pe_work_units: work.min().unwrap_or(0),
            request_latency: sum.request_latency,
            split_sizes: sum.split_sizes,
            polling: sum.polling,
        };
        let traces: Vec<PeTrace> = per_pe.iter_mut().filter_map(|s| s.trace.take()).collect();
        let trace = (!traces.is_empty()).then(|| Trace {
            tick_seconds: if machine == "sim" { 1.0 } else { 1e-9 },
            pes: traces,
        });
        Report {
            output,
            machine: machine.to_string(),
            config,
            t_par,
            t_seq: None,
            per_pe,
            totals: t,
            notes: Vec::new(),
            trace,
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

    /// The most work units any one PE did (the load of the most loaded PE).
    pub fn max_work_units(&self) -> u64 {
        self.per_pe
            .iter()
            .map(|s| s.counters.work_units)
            .max()
            .unwrap_or(0)
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
        // A resumed computation's units cover all its runs, its per-PE figures this one.
        let this_run: u64 = self.per_pe.iter().map(|pe| pe.counters.work_units).sum();
        let units = if this_run < t.work_units {
            format!(
                "work units {} in the whole computation, {this_run} in this run",
                t.work_units
            )
        } else {
            format!("work units {}", t.work_units)
        };
        let _ = writeln!(
            s,
            "{units}  (per PE min {} max {})  splitting depth h = {}",
            t.min_pe_work_units, t.max_pe_work_units, t.max_generation
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
        if t.request_latency.total() > 0 {
            // Ticks are ns on real machines, virtual units in the simulator.
            let hist = if self.machine == "sim" {
                t.request_latency.describe(|v| v.to_string())
            } else {
                t.request_latency
                    .describe(|v| format!("{:.1}µs", v as f64 / 1000.0))
            };
            let _ = writeln!(
                s,
                "request latency (log2 buckets, {} answers): {hist}",
                t.request_latency.total()
            );
        }
        let z = &t.split_sizes;
        if z.pieces > 0 {
            let _ = write!(s, "pieces given away {}", z.pieces);
            if z.estimated > 0 {
                let _ = write!(
                    s,
                    ": estimated size mean {:.1} max {} units (log2 buckets: {})",
                    z.units as f64 / z.estimated as f64,
                    z.max_units,
                    z.sizes.describe(|v| v.to_string())
                );
            } else {
                let _ = write!(s, " (the task gives no size estimates)");
            }
            let _ = writeln!(
                s,
                "; generations (log2 buckets): {}",
                z.generations.describe(|v| v.to_string())
            );
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
