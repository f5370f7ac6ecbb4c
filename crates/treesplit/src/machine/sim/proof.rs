//! The proof probe (`SimConfig::proof`): the quantities that the analysis of paper 000
//! (asynchronous random polling, §3) rests on, measured in virtual time during a run and
//! reported as [`ProofReport`] (the `proof` block of the simulator's JSON report).
//!
//! The proof of Theorem 1 charges each work request a cost and a delay, then counts how many
//! requests are needed until no subproblem of generation < h is left, then bounds the
//! finishing phase. The probe measures each link of that chain where the simulator knows
//! it, so that a lemma can be judged on what it states rather than on the end-to-end time:
//!
//! - **Lemma 1 (1)**: the CPU time every PE spent on one request: the requester's sending
//!   it, the victim's receiving it, its split and its sending the answer, the requester's
//!   receiving the answer (`cpu_per_request`);
//! - **Lemma 1 (2)**: at a PE with unanswered requests, the time between one answer and the
//!   next (or from the arrival of the first request to its answer: `answer_interval`);
//! - **Lemma 1 (3)**: the time from a request's arrival in the victim's queue to its answer
//!   leaving (`response`);
//! - **Lemma 2**: the *dead time* of a piece handed over: from the arrival of the request
//!   that split it off to the arrival of the piece at the requester, divided by k + 1, where
//!   k is the number of splits the victim made between that arrival and this split (the
//!   requests ahead of it in the queue that reached the same subproblem; `dead_time`);
//! - **Lemmas 3–5**: for every generation g, the time from which no subproblem of
//!   generation < g exists, and up to it the requests sent, the *red* requests of Lemma 4's
//!   colouring, the splits and the PEs' time not spent working (`levels`);
//! - **Lemma 6** and the lower bounds of [32]: the end of the last work unit, when the first
//!   piece of each generation was handed over, and the communications on the lineage of the
//!   piece that did the last work unit (`critical_messages`).
//!
//! Off (the default), the simulator keeps no probe and every hook is one test of an
//! `Option`. The probe follows one lineage per PE (the piece it works on): exact for the
//! balancers where a PE holds at most one piece (random polling and its relatives), an upper
//! bound where a PE may hold several (poll-and-shuffle). Fast initialization's root copies
//! are not subproblems and are not followed.

use crate::driver::Envelope;
use crate::protocol::termination::Signal;
use crate::protocol::{Message, PeId};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A sample's summary: count, mean, the largest and quantiles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Samples.
    pub count: u64,
    /// Their mean (0 without samples).
    pub mean: f64,
    /// The median (nearest rank).
    pub p50: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The largest.
    pub max: f64,
}

impl Summary {
    fn of(mut v: Vec<f64>) -> Summary {
        if v.is_empty() {
            return Summary::default();
        }
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let at = |q: f64| v[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
        Summary {
            count: n as u64,
            mean: v.iter().sum::<f64>() / n as f64,
            p50: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            max: v[n - 1],
        }
    }
}

/// Generation level g (Lemmas 3–5): from `time` on, no subproblem of generation < g
/// exists; what the run spent until then.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Level {
    /// The generation g.
    pub generation: u32,
    /// The time from which every subproblem left has generation ≥ g.
    pub time: u64,
    /// Work requests sent before it.
    pub requests: u64,
    /// Requests arrived before it that Lemma 4's colouring makes red: P requests in arrival
    /// order, then every request within `t_dead` of the last of them skipped, and so on.
    pub red_requests: u64,
    /// Splits before it.
    pub splits: u64,
    /// The PEs' time before it not spent working (sending, receiving, splitting, waiting):
    /// Lemma 5's expense for communicating, splitting and waiting.
    pub expense: u64,
}

/// What the proof probe measured in one run (see the module comment).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProofReport {
    /// Lemma 1 (1): CPU time spent on one answered request, all PEs together.
    pub cpu_per_request: Summary,
    /// Lemma 1 (2): time between successive answers at a PE with requests waiting.
    pub answer_interval: Summary,
    /// Lemma 1 (3): time from a request's arrival to its answer leaving.
    pub response: Summary,
    /// Lemma 2: dead time per request that reached a subproblem (dead time / (k + 1)).
    pub dead_time: Summary,
    /// The largest k + 1 seen: requests that reached one subproblem in one poll.
    pub dead_batch: u64,
    /// The dead time Lemma 4's colouring skips after each P red requests: the worst cycle of
    /// Lemma 2 on this machine, Δt + T_recv + T_split + T_send + the diameter latency.
    pub t_dead: u64,
    /// Lemmas 3–5: the generation levels 1 ..= (largest generation + 1).
    pub levels: Vec<Level>,
    /// When the first piece of each generation g ≥ 1 was handed to another PE (index g − 1;
    /// `u64::MAX`: none of that generation travelled).
    pub first_handed: Vec<u64>,
    /// When the last work unit ended.
    pub last_work_end: u64,
    /// The communications on the lineage of the piece that did the last work unit: one per
    /// request that split an ancestor, one per hand-over.
    pub critical_messages: u64,
    /// The most communications on the lineage of any piece.
    pub max_lineage_messages: u64,
    /// When PE 0 detected termination (decided that all work was done): the end of T_par
    /// as paper 000 counts it, before the results are collected (0 on one PE).
    pub termination_detected: u64,
}

/// How many of a PE's latest split times the probe keeps: more than a PE makes while its
/// own time runs ahead of the events (one poll's worth).
const RECENT_SPLITS: usize = 64;

/// A request in a victim's queue.
#[derive(Clone, Copy)]
struct Arrival {
    at: u64,
    /// The victim's splits when it arrived.
    splits: u64,
}

/// A request being handled by its victim.
#[derive(Clone, Copy)]
struct Handling {
    from: PeId,
    arrived: Arrival,
    cpu: u64,
}

/// A PE's own request, from its sending to the answer's receipt.
#[derive(Clone, Copy, Default)]
struct Out {
    cpu: u64,
    answered: bool,
}

/// The probe's state during a run.
pub(super) struct Probe {
    p: usize,
    t_send: u64,
    t_recv: u64,
    t_split: u64,
    t_dead: u64,
    arrivals: Vec<VecDeque<Arrival>>,
    handling: Vec<Option<Handling>>,
    out: Vec<Option<Out>>,
    unanswered: Vec<u32>,
    waiting_since: Vec<u64>,
    splits: Vec<u64>,
    /// The times of each PE's latest splits (see [`Probe::request_arrived`]).
    recent_splits: Vec<VecDeque<u64>>,
    /// The lineage messages of each PE's piece, and of the pieces in flight to each PE.
    lineage: Vec<u64>,
    in_flight: Vec<VecDeque<(PeId, u64)>>,
    /// The latest end of a subproblem of each generation.
    level_end: Vec<u64>,
    first_handed: Vec<u64>,
    request_sent: Vec<u64>,
    request_arrived: Vec<u64>,
    split_at: Vec<u64>,
    idle_segments: Vec<(u64, u64)>,
    cpu: Vec<f64>,
    intervals: Vec<f64>,
    response: Vec<f64>,
    dead: Vec<f64>,
    dead_batch: u64,
    last_work: (u64, u64),
    max_lineage: u64,
    detected: Option<u64>,
}

impl Probe {
    /// A probe for `p` PEs with these costs; `t_dead` as in [`ProofReport::t_dead`].
    pub(super) fn new(p: usize, t_send: u64, t_recv: u64, t_split: u64, t_dead: u64) -> Self {
        Probe {
            p,
            t_send,
            t_recv,
            t_split,
            t_dead,
            arrivals: vec![VecDeque::new(); p],
            handling: vec![None; p],
            out: vec![None; p],
            unanswered: vec![0; p],
            waiting_since: vec![0; p],
            splits: vec![0; p],
            recent_splits: vec![VecDeque::new(); p],
            lineage: vec![0; p],
            in_flight: vec![VecDeque::new(); p],
            level_end: Vec::new(),
            first_handed: Vec::new(),
            request_sent: Vec::new(),
            request_arrived: Vec::new(),
            split_at: Vec::new(),
            idle_segments: Vec::new(),
            cpu: Vec::new(),
            intervals: Vec::new(),
            response: Vec::new(),
            dead: Vec::new(),
            dead_batch: 0,
            last_work: (0, 0),
            max_lineage: 0,
            detected: None,
        }
    }

    /// A request reached PE `to`'s queue at `at` (a PE that has not finished).
    ///
    /// The engine handles events in time order, but a PE's own time runs ahead of them while
    /// it is driven: a request that arrived at `at` may be seen after the PE, at a later time
    /// of its own, already answered others and split. Those splits do not count as made
    /// before the arrival, and an answer sent after `at` counts as one this request saw.
    pub(super) fn request_arrived(&mut self, to: PeId, at: u64) {
        self.request_arrived.push(at);
        let later = self.recent_splits[to]
            .iter()
            .rev()
            .take_while(|&&t| t > at)
            .count() as u64;
        self.arrivals[to].push_back(Arrival {
            at,
            splits: self.splits[to] - later,
        });
        if self.unanswered[to] == 0 {
            self.waiting_since[to] = self.waiting_since[to].max(at);
        }
        self.unanswered[to] += 1;
    }

    /// PE `i` sent `envelope` to `to`, done sending at `now`; it arrives at `at`.
    pub(super) fn sent(&mut self, i: PeId, to: PeId, envelope: &Envelope, now: u64, at: u64) {
        let Envelope::Protocol(message) = envelope else {
            return;
        };
        match message {
            Message::Request => {
                self.request_sent.push(now);
                self.out[i] = Some(Out {
                    cpu: self.t_send,
                    answered: false,
                });
            }
            Message::Reject | Message::Work { .. } => {
                if let Message::Work { generation, .. } = message {
                    let g = *generation as usize;
                    if g >= 1 {
                        grow(&mut self.first_handed, g, u64::MAX);
                        self.first_handed[g - 1] = self.first_handed[g - 1].min(now);
                    }
                    self.in_flight[to].push_back((i, self.lineage[i] + 1));
                }
                let Some(h) = self.handling[i].filter(|h| h.from == to) else {
                    return;
                };
                self.handling[i] = None;
                self.response.push((now - h.arrived.at) as f64);
                self.intervals.push((now - self.waiting_since[i]) as f64);
                self.unanswered[i] = self.unanswered[i].saturating_sub(1);
                self.waiting_since[i] = now;
                if matches!(message, Message::Work { .. }) {
                    // The splits since the request arrived include its own.
                    let batch = (self.splits[i] - h.arrived.splits).max(1);
                    self.dead_batch = self.dead_batch.max(batch);
                    self.dead.push((at - h.arrived.at) as f64 / batch as f64);
                }
                if let Some(out) = &mut self.out[to] {
                    out.cpu += h.cpu + self.t_send;
                    out.answered = true;
                }
            }
            Message::Termination(Signal::Finish) if i == 0 && self.detected.is_none() => {
                self.detected = Some(now.saturating_sub(self.t_send));
            }
            _ => {}
        }
    }

    /// PE `i` took `envelope` from `from` out of its queue (and paid T_recv for it).
    pub(super) fn received(&mut self, i: PeId, from: PeId, envelope: &Envelope) {
        let Envelope::Protocol(message) = envelope else {
            return;
        };
        match message {
            Message::Request => {
                if let Some(arrived) = self.arrivals[i].pop_front() {
                    self.handling[i] = Some(Handling {
                        from,
                        arrived,
                        cpu: self.t_recv,
                    });
                }
            }
            Message::Reject | Message::Work { .. } => {
                if let Message::Work { .. } = message {
                    let q = &mut self.in_flight[i];
                    if let Some(k) = q.iter().position(|&(f, _)| f == from) {
                        let (_, depth) = q.remove(k).expect("found");
                        self.lineage[i] = self.lineage[i].max(depth);
                        self.max_lineage = self.max_lineage.max(depth);
                    }
                }
                if let Some(out) = self.out[i].filter(|o| o.answered) {
                    self.cpu.push((out.cpu + self.t_recv) as f64);
                    self.out[i] = None;
                }
            }
            _ => {}
        }
    }

    /// PE `i` handled a message at `now` (after paying for it) and made `splits` splits;
    /// `ended`: the smallest generation of a subproblem that ceased to exist.
    pub(super) fn handled(&mut self, i: PeId, splits: u64, ended: Option<u32>, now: u64) {
        if splits > 0 {
            let recent = &mut self.recent_splits[i];
            if recent.len() == RECENT_SPLITS {
                recent.pop_front();
            }
            recent.push_back(now);
            self.splits[i] += splits;
            self.split_at.push(now);
            self.lineage[i] += splits;
            if let Some(h) = &mut self.handling[i] {
                h.cpu += splits * self.t_split;
            }
        }
        if let Some(g) = ended {
            self.ended(g, now);
        }
    }

    /// PE `i`'s slice ended at `end` having done `units`; `ended` as in [`Probe::handled`].
    /// (The last work unit of a run empties the last piece, in a slice of its own: the
    /// slices run ahead never empty one.)
    pub(super) fn worked(&mut self, i: PeId, units: u64, ended: Option<u32>, end: u64) {
        if let Some(g) = ended {
            if units > 0 && end >= self.last_work.0 {
                self.last_work = (end, self.lineage[i]);
            }
            self.ended(g, end);
            // A PE that finished its piece starts its next lineage with the next piece.
            self.lineage[i] = 0;
        }
    }

    fn ended(&mut self, generation: u32, at: u64) {
        let g = generation as usize;
        grow(&mut self.level_end, g + 1, 0);
        self.level_end[g] = self.level_end[g].max(at);
    }

    /// PE time `[start, end)` not spent working.
    pub(super) fn not_working(&mut self, start: u64, end: u64) {
        if end > start {
            self.idle_segments.push((start, end));
        }
    }

    /// The report, once the run is over.
    pub(super) fn report(mut self) -> ProofReport {
        self.request_sent.sort_unstable();
        self.request_arrived.sort_unstable();
        self.split_at.sort_unstable();
        let before = |v: &[u64], t: u64| v.partition_point(|&x| x < t) as u64;
        let red = self.red_requests();
        // Level g: no subproblem of generation < g is left after the latest end of one.
        let mut levels = Vec::with_capacity(self.level_end.len());
        let mut time = 0;
        for (k, &end) in self.level_end.iter().enumerate() {
            time = time.max(end);
            let expense = self
                .idle_segments
                .iter()
                .map(|&(s, e)| e.min(time).saturating_sub(s))
                .sum();
            levels.push(Level {
                generation: k as u32 + 1,
                time,
                requests: before(&self.request_sent, time),
                red_requests: red.partition_point(|&x| x < time) as u64,
                splits: before(&self.split_at, time),
                expense,
            });
        }
        ProofReport {
            cpu_per_request: Summary::of(self.cpu),
            answer_interval: Summary::of(self.intervals),
            response: Summary::of(self.response),
            dead_time: Summary::of(self.dead),
            dead_batch: self.dead_batch,
            t_dead: self.t_dead,
            levels,
            first_handed: self.first_handed,
            last_work_end: self.last_work.0,
            critical_messages: self.last_work.1,
            max_lineage_messages: self.max_lineage,
            termination_detected: self.detected.unwrap_or(0),
        }
    }

    /// Lemma 4's colouring of the requests in arrival order: P red ones, then skip those
    /// arriving within T_dead of the last red one, and so on. The red ones' arrival times.
    fn red_requests(&self) -> Vec<u64> {
        let mut red = Vec::new();
        let mut run = 0;
        let mut skip_until = None;
        for &at in &self.request_arrived {
            if let Some(until) = skip_until {
                if at < until {
                    continue;
                }
                skip_until = None;
            }
            red.push(at);
            run += 1;
            if run == self.p {
                run = 0;
                skip_until = Some(at + self.t_dead);
            }
        }
        red
    }
}

fn grow(v: &mut Vec<u64>, len: usize, fill: u64) {
    if v.len() < len {
        v.resize(len, fill);
    }
}
