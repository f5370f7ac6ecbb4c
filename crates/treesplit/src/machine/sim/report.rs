//! What a simulation reports ([`SimReport`]): the common report, and beside it the
//! simulated machine, virtual-time figures and the bounds of the papers' theorems next to
//! the measurement.

use super::SimConfig;
use crate::config::{Balancer, Config};
use crate::stats::Report;
use crate::timeline::{ActivityLog, Segment};
use serde::{Deserialize, Serialize};

/// The bound of Theorem 1 of paper 000 beside the measured time.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Theorem1 {
    /// T_seq / P.
    pub t_seq_over_p: f64,
    /// The measured lower-order term T_par − T_seq/P.
    pub lower_order: f64,
    /// The splitting depth h seen (largest generation).
    pub h: u32,
    /// lower_order / (h · (T_rout + T_split)): the constant hidden in the O(·); `None` when
    /// nothing was split (h = 0), where the ratio has no meaning.
    pub constant: Option<f64>,
}

/// Paper 000 Lemma 1(3): how many requests a request finds already waiting in the queue of
/// the PE it arrives at (the proof bounds the expectation by 1: at most P requests are
/// active, spread over P PEs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestQueue {
    /// Requests that arrived at a PE that had not finished.
    pub requests: u64,
    /// The sum over them of the requests they found waiting.
    pub waiting: u64,
    /// The most requests any request found waiting.
    pub max_waiting: u64,
}

impl RequestQueue {
    pub(crate) fn add(&mut self, waiting: u64) {
        self.requests += 1;
        self.waiting += waiting;
        self.max_waiting = self.max_waiting.max(waiting);
    }

    /// Add the requests counted elsewhere (in another partition of the engine).
    pub(crate) fn merge(&mut self, other: &RequestQueue) {
        self.requests += other.requests;
        self.waiting += other.waiting;
        self.max_waiting = self.max_waiting.max(other.max_waiting);
    }

    /// The mean queue length a request met (`None` without requests).
    pub fn mean(&self) -> Option<f64> {
        (self.requests > 0).then(|| self.waiting as f64 / self.requests as f64)
    }
}

/// Everything a simulation measured.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SimReport<O> {
    /// The common report (times in virtual units; `t_seq` = total work units).
    pub report: Report<O>,
    /// The simulated machine.
    pub sim: SimConfig,
    /// When the last work unit ended.
    pub last_work_end: u64,
    /// Virtual time from the last work unit to termination detected at PE 0 (T_par).
    pub termination_delay: u64,
    /// Virtual time from termination detected (T_par) to PE 0 holding the result and ending:
    /// announcing the end and, under four-counter termination, reducing the results over the
    /// tree of PEs. Not part of T_par (paper 000 bounds T_par to the detection).
    #[serde(default)]
    pub t_collect: u64,
    /// The largest message latency without random delays (for reading the delay).
    pub diameter_latency: u64,
    /// Theorem 1 of paper 000 against the measurement.
    pub theorem1: Theorem1,
    /// Random shift: the bound of Theorem 14.2 of paper 001, T_seq/P + (3ch + 3)Δ with
    /// c = 2 + 4 ln 2 (probability ≥ 1 − 1/P) and the measured h, not counting t_atomic.
    pub theorem_14_2: Option<f64>,
    /// (time, fraction of PEs busy).
    pub utilization: Vec<(u64, f64)>,
    /// Events simulated.
    pub events: u64,
    /// Paper 000 Lemma 1(3): the requests a request found queued where it arrived (not
    /// serialized, so that reports stay as they were).
    #[serde(skip)]
    pub request_queue: RequestQueue,
    /// The bytes of the largest termination message sent (a response carries the results of
    /// its record, so its length depends on the task's outcome). Not serialized, so that
    /// reports stay as they were.
    #[serde(skip)]
    pub largest_termination_message: u64,
    /// What the proof probe measured (`SimConfig::proof`; absent when off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<super::ProofReport>,
    /// Real seconds the simulation took (not serialized: output stays reproducible).
    #[serde(skip)]
    pub wall_seconds: f64,
    /// Per-PE activity segments (only when P ≤ timeline_limit).
    #[serde(skip)]
    pub timeline: Option<Vec<Segment>>,
}

impl<O> SimReport<O> {
    /// A readable summary of the simulation-specific figures.
    pub fn summary(&self) -> String {
        let t = &self.theorem1;
        let shift = match self.theorem_14_2 {
            Some(b) => {
                // The theorem's premises: a round holds a request, a split and the reply;
                // h ≥ log P.
                let round = self.report.config.balancer.round().unwrap_or_default();
                let need = 2 * self.diameter_latency + self.sim.t_split;
                let h = self.report.totals.max_generation;
                let p = self.report.pes().max(1);
                let mut outside = Vec::new();
                if round < need {
                    outside.push(format!(
                        "Δ = {round} is shorter than a request, a split and a reply (2 × latency {} + T_split {} = {need})",
                        self.diameter_latency, self.sim.t_split
                    ));
                }
                if (1u64 << h.min(63)) < p as u64 {
                    outside.push(format!("h = {h} < log₂ P"));
                }
                let premise = if outside.is_empty() {
                    String::new()
                } else {
                    format!(" (outside the theorem's premise: {})", outside.join("; "))
                };
                format!(
                    "Theorem 14.2 (random shift, Δ = {round}): T_par ≤ T_seq/P + (3ch+3)Δ + t_atomic = {b:.0} + t_atomic; measured {}{premise}\n",
                    self.report.t_par
                )
            }
            None => String::new(),
        };
        // Poll-and-shuffle: how many cycles' permutations had not completed when the next
        // cycle began (paper 002 §3: every cycle ends with a complete permutation).
        let phases: Vec<&crate::stats::PhaseStats> = self
            .report
            .per_pe
            .iter()
            .filter_map(|pe| pe.phases.as_ref())
            .collect();
        let shift = match phases.first() {
            Some(first) => format!(
                "{shift}poll-and-shuffle: {} permutations, {} cycles whose permutation had not completed when the next cycle began\n",
                first.permutations,
                crate::stats::PhaseStats::incomplete_cycles(phases.iter().copied()),
            ),
            None => shift,
        };
        let hop = match self.sim.topology {
            crate::topology::Topology::Crossbar => String::new(),
            _ => format!(", T_hop {}", self.sim.hop_latency()),
        };
        let (t_send, t_recv) = self.sim.overheads();
        let polling = self.polling();
        format!(
            "network {} ({} messages: T_rout {}{hop}, T_split {}, T_send {t_send}, T_recv {t_recv}, delay {})\n{polling}\
             Theorem 1: T_seq/P = {:.1}   T_par − T_seq/P = {:.1}   h = {}   (T_par − T_seq/P)/(h·(T_rout+T_split)) = {}\n\
             termination detected {} after the last work unit ({:.2} × diameter latency {}); result collected {} later (not in T_par)\n\
             {}{} events\n",
            self.sim.topology,
            self.sim.model,
            self.sim.t_rout,
            self.sim.t_split,
            self.sim.delay,
            t.t_seq_over_p,
            t.lower_order,
            t.h,
            t.constant
                .map_or("— (h = 0: nothing was split)".into(), |c| format!("{c:.3}")),
            self.termination_delay,
            self.termination_delay as f64 / self.diameter_latency.max(1) as f64,
            self.diameter_latency,
            self.t_collect,
            shift,
            self.events,
        )
    }

    /// The summary's lines on the costs of polling (T_poll and α, paper 000 §2–§3) and of
    /// the global counter (T_count, §1.3); none while they are the defaults.
    fn polling(&self) -> String {
        let (sim, totals) = (&self.sim, &self.report.totals.polling);
        let mut lines = String::new();
        if sim.t_poll > 0 || sim.poll_alpha < 1.0 {
            let delta_t = self.report.config.delta_t;
            let interval = sim.poll_interval(delta_t);
            let t_seq = self.report.t_seq.unwrap_or(0.0).max(1.0);
            lines += &format!(
                "polling: T_poll {}, α {} (a busy PE polls every ⌈αΔt⌉ = {interval} work units, Δt {delta_t}): {} unsuccessful probes cost {} = {:.4}·T_seq (ε = T_poll/(αΔt) = {:.4})\n",
                sim.t_poll,
                sim.poll_alpha,
                totals.probes,
                totals.probe_time,
                totals.probe_time / t_seq,
                sim.t_poll as f64 / (sim.poll_alpha * delta_t as f64),
            );
        }
        if sim.t_count > 0 {
            lines += &format!(
                "global counter: T_count {}: {} increments cost {}\n",
                sim.t_count, totals.counts, totals.count_time
            );
        }
        lines
    }

    /// How fast the simulator ran (real time; differs between runs, so kept apart).
    pub fn speed(&self) -> String {
        format!(
            "simulated {} events in {:.3} s: {:.2} M events/s",
            self.events,
            self.wall_seconds,
            self.events as f64 / self.wall_seconds.max(1e-9) / 1e6
        )
    }
}

impl<O> AsRef<Report<O>> for SimReport<O> {
    fn as_ref(&self) -> &Report<O> {
        &self.report
    }
}

impl<O> AsMut<Report<O>> for SimReport<O> {
    fn as_mut(&mut self) -> &mut Report<O> {
        &mut self.report
    }
}

/// Everything a simulation measured beside the common report (the fields of [`SimReport`]
/// but `report`).
pub(crate) struct SimFigures {
    sim: SimConfig,
    last_work_end: u64,
    termination_delay: u64,
    t_collect: u64,
    diameter_latency: u64,
    theorem1: Theorem1,
    theorem_14_2: Option<f64>,
    utilization: Vec<(u64, f64)>,
    events: u64,
    request_queue: RequestQueue,
    largest_termination_message: u64,
    proof: Option<super::ProofReport>,
    wall_seconds: f64,
    timeline: Option<Vec<Segment>>,
}

/// What the engine measured of a run, besides the PEs' records.
pub(crate) struct Measured {
    /// When PE 0 ended, holding the result.
    pub end: u64,
    /// When the last work unit ended.
    pub last_work_end: u64,
    /// The largest message latency without random delays.
    pub diameter_latency: u64,
    /// What the PEs' time went to: the utilization curve, and Gantt segments if kept.
    pub activities: ActivityLog,
    /// Events simulated.
    pub events: u64,
    /// Requests queued where each request arrived.
    pub request_queue: RequestQueue,
    /// The bytes of the largest termination message sent.
    pub largest_termination_message: u64,
    /// The proof probe's report, if it ran.
    pub proof: Option<super::ProofReport>,
    /// Real seconds the simulation took.
    pub wall_seconds: f64,
}

impl SimFigures {
    /// The figures of a run of `config` on `sim` whose termination was detected at `t_par`,
    /// with `report` (whose T_seq this sets: the total work units), from what the engine
    /// `measured`.
    pub(crate) fn new<O>(
        report: &mut Report<O>,
        config: &Config,
        sim: &SimConfig,
        t_par: u64,
        measured: Measured,
    ) -> Self {
        let p = config.pes;
        let t_seq = report.totals.work_units as f64;
        report.t_seq = Some(t_seq);
        let h = report.totals.max_generation;
        let t_seq_over_p = t_seq / p as f64;
        let lower_order = t_par as f64 - t_seq_over_p;
        let theorem1 = Theorem1 {
            t_seq_over_p,
            lower_order,
            h,
            constant: (h > 0)
                .then(|| lower_order / (f64::from(h) * (sim.t_rout + sim.t_split).max(1) as f64)),
        };
        let theorem_14_2 = match config.balancer {
            Balancer::RandomShift { round, .. } => {
                let c = 2.0 + 4.0 * std::f64::consts::LN_2;
                Some(t_seq_over_p + (3.0 * c * f64::from(h) + 3.0) * round as f64)
            }
            _ => None,
        };
        SimFigures {
            theorem_14_2,
            sim: sim.clone(),
            last_work_end: measured.last_work_end,
            termination_delay: t_par.saturating_sub(measured.last_work_end),
            t_collect: measured.end.saturating_sub(t_par),
            diameter_latency: measured.diameter_latency,
            theorem1,
            utilization: measured.activities.curve(p, measured.end),
            events: measured.events,
            request_queue: measured.request_queue,
            largest_termination_message: measured.largest_termination_message,
            proof: measured.proof,
            wall_seconds: measured.wall_seconds,
            timeline: measured.activities.into_segments(),
        }
    }

    /// The simulation's report around `report`.
    pub(crate) fn report<O>(self, report: Report<O>) -> SimReport<O> {
        SimReport {
            report,
            sim: self.sim,
            last_work_end: self.last_work_end,
            termination_delay: self.termination_delay,
            t_collect: self.t_collect,
            diameter_latency: self.diameter_latency,
            theorem1: self.theorem1,
            theorem_14_2: self.theorem_14_2,
            utilization: self.utilization,
            events: self.events,
            request_queue: self.request_queue,
            largest_termination_message: self.largest_termination_message,
            proof: self.proof,
            wall_seconds: self.wall_seconds,
            timeline: self.timeline,
        }
    }
}
