//! Poll-and-shuffle (paper 002 §3 and §5): hypercube polling in synchronous phases, with a
//! random permutation of all pieces after every cycle of phases.
//!
//! A **phase** is one round (a round starts every Δ: the PE's timer deadlines,
//! `Polling::start_round`). A **cycle** is d = ⌈log₂ P⌉ phases numbered 0..d: a PE idle at
//! the end of phase i asks its hypercube
//! partner me XOR 2^i (no one when that is ≥ P). After a cycle all pieces are permuted, and
//! the next cycle starts at phase 0 (§3.1: "start a new cycle by resetting the phase counter
//! to 0"), so each cycle uses every dimension once — Lemma 2 needs the fresh dimensions.
//! Partners must agree on the dimension of a phase, so the phase is always computed from a
//! round number that all PEs share:
//!
//! - **pseudorandom permutation** (`PermutationKind::Pseudorandom`, the default): PE k's
//!   pieces move to π_n(k), a composition of precomputed random generators
//!   ([`super::generators`], §3.2), which every PE computes alone, so it fits into the round
//!   grid: a cycle is d + s rounds, positions 0..d are the phases, at position d every PE
//!   sends its pieces, and the s − 1 rounds after it let them arrive (s covers the machine's
//!   largest latency and a slice, so the permutation is complete before the next cycle).
//!   Non-adaptive, every PE permutes there; adaptive, PE 0 decides there and broadcasts
//!   `Shuffle{n}` down the label tree (s then also covers the broadcast).
//! - **permutation by messages** ([`super::shuffle`], §3.2): a collective whose length
//!   depends on the counting, so its end, not the round grid, starts the next cycle. After d
//!   phases every PE scatters (non-adaptive; adaptive: when PE 0's broadcast arrives) and
//!   asks no one until its part is done. When the root's final count proves the
//!   permutation complete, it stamps the numbering with the round by which numbering and
//!   placed pieces have reached every PE, and every PE counts phases from that round.
//!   Adaptive, when PE 0 does not start a permutation after d phases, the phases wrap around.
//!
//! Every cycle gets its complete permutation unless the machine delays a placed piece past
//! the next cycle's phase 0 (random delays, slow PEs, overheads beyond the latency the
//! machine announced): the receiver then records the permutation as incomplete
//! ([`PhaseStats::incomplete`]), which the report counts.
//!
//! On other networks (§4) the partner and the phases per cycle come from the network's
//! [`super::embedding::PhasePlan`] (Morton labels on meshes, fewer phases on meshes and fat
//! trees); d below is the plan's number of phases.
//!
//! Adaptive (§5): whenever a PE becomes idle or an idle PE enters a new phase, it notifies
//! PE 0 with probability c/P (at most once per phase), stamping the note with the phase.
//! When PE 0 decides, at phase r, it uses only the notes of phases r − lag − d .. r − lag
//! (latency compensation: lag = 1 phase under a global clock, d under local
//! synchronization), estimates the idle fraction γ̂ = notes/(c·d), and starts a permutation
//! only when γ̂ ≥ γ. Every estimate is kept for the report ([`PhaseStats`]; Lemmas 4, 5).
//!
//! Local synchronization (§6.3, [`super::local_sync`]) replaces the rounds by markers between
//! hypercube partners.

use super::embedding::{self, PhasePlan};
use super::generators::Generators;
use super::local_sync::LocalSync;
use super::rotation::Rotation;
use super::shuffle::Shuffler;
use super::{Held, Polling};
use crate::config::{Balancer, Config, PermutationKind, PhaseSync};
use crate::protocol::{Env, Message, PeId};
use crate::stats::{IdleEstimate, PhaseStats};
use rand::RngExt;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Adaptive triggering (§5): (c, γ) and PE 0's counts of idle notes.
#[derive(Debug)]
struct Adaptive {
    c: f64,
    gamma: f64,
    /// Phases between a note's phase and its use (latency compensation).
    lag: u64,
    /// PE 0: idle notes per phase stamp (older than the window: dropped).
    notes: BTreeMap<u64, u64>,
}

/// The poll-and-shuffle state of one PE.
pub(crate) struct PollAndShuffle {
    /// d: phases per cycle (⌈log₂ P⌉, the hypercube's dimension, unless the network's plan
    /// omits some).
    dims: u64,
    /// The hypercube laid onto the network: labels and phases per cycle.
    pub(super) plan: Arc<PhasePlan>,
    /// Theorem 2's emulation: where the pieces are hosted (rotating plans only).
    pub(super) rotation: Rotation,
    kind: PermutationKind,
    /// The pseudorandom permutation's precomputed generators (None: by messages).
    generators: Option<Arc<Generators>>,
    /// Pseudorandom: the rounds of a cycle's permutation slot (≥ 1).
    slot: u64,
    /// The round this PE is in (for the arrival time of permuted pieces).
    round: u64,
    adaptive: Option<Adaptive>,
    /// The permutation by messages (also tracks the start of the current cycle).
    pub(super) shuffler: Shuffler<Held>,
    /// PE 0: permutations started so far, i.e. the next one's number (collective triggers).
    started: u64,
    /// Local synchronization (§6.3): the phase markers' state (None: a global clock).
    pub(super) local: Option<LocalSync>,
    /// The phase this PE is in (the round, or the local phase count).
    phase: u64,
    /// The last phase in which this PE decided whether to send an idle note.
    noted: Option<u64>,
    /// What the report shows (phases, notes, permutations, PE 0's estimates).
    stats: PhaseStats,
}

impl PollAndShuffle {
    /// The state of PE `me` of the configured run on the machine `env` describes, with rounds
    /// of `round_length` ticks (None: no rounds, local synchronization).
    pub(crate) fn new(me: PeId, config: &Config, env: &Env, round_length: Option<u64>) -> Self {
        let p = config.pes;
        let (kind, adaptive, sync, round, embedding) = match config.balancer {
            Balancer::PollAndShuffle {
                permutation,
                adaptive,
                sync,
                round,
                embedding,
                ..
            } => (permutation, adaptive, sync, round, embedding),
            other => panic!("{other} is not poll-and-shuffle"),
        };
        let local = sync == PhaseSync::Local;
        // Local synchronization pairs PEs along every hypercube dimension of their numbers:
        // with a network's shortened cycle some PE may have no partner in any phase, and an
        // idle one would then pass phases without end (nothing paces it but its partners).
        let plan = embedding::plan((!local).then_some(env.network).flatten(), p, embedding);
        let dims = plan.phases();
        // Rounds that cover what one permutation step may take: the largest latency and a
        // slice (a busy PE starts a round at its slice's end). Unknown latency: one round.
        let rounds_for = |ticks: Option<u64>| match (ticks, round_length) {
            (Some(t), Some(len)) => t.saturating_add(config.delta_t).div_ceil(len).max(1),
            _ => 1,
        };
        let broadcasts = if adaptive.is_some() { 2 } else { 1 };
        let slot = rounds_for(env.latency.map(|l| l.saturating_mul(broadcasts)));
        let settle = if env.latency.is_some() {
            rounds_for(env.latency)
        } else {
            0
        };
        PollAndShuffle {
            dims,
            kind,
            generators: (kind == PermutationKind::Pseudorandom)
                .then(|| Generators::shared(config.seed, p)),
            slot,
            round: 0,
            adaptive: adaptive.map(|a| Adaptive {
                c: a.c,
                gamma: a.gamma,
                lag: if local { dims } else { 1 },
                notes: BTreeMap::new(),
            }),
            shuffler: Shuffler::new(me, p, plan.clone(), settle),
            plan,
            rotation: Rotation::default(),
            started: 0,
            local: local.then(|| LocalSync::new(round)),
            phase: 0,
            noted: None,
            stats: PhaseStats::default(),
        }
    }

    /// Round `round` starts.
    pub(crate) fn on_round(&mut self, round: u64) {
        self.round = round;
        self.shuffler.on_round(round);
    }

    /// Where PE `k`'s pieces go in the pseudorandom permutation number `n`.
    pub(super) fn target(&self, n: u64, k: PeId) -> PeId {
        self.generators
            .as_ref()
            .expect("a pseudorandom permutation has its generators")
            .target(n, k)
    }

    /// A piece placed by permutation `n` arrived: record the permutation as incomplete when
    /// the next cycle has already begun here.
    fn arrived(&mut self, n: u64) {
        let late = match self.kind {
            PermutationKind::Pseudorandom => {
                self.round >= (n + 1).saturating_mul(self.dims + self.slot)
            }
            PermutationKind::Messages => {
                self.shuffler.completed() > n + 1
                    || (self.shuffler.completed() == n + 1
                        && self.round >= self.shuffler.cycle_start())
            }
        };
        if late && self.stats.incomplete.last() != Some(&n) {
            self.stats.incomplete.push(n);
        }
    }

    /// True while pieces wait here for their placement by a permutation.
    pub(crate) fn holds_work(&self) -> bool {
        self.shuffler.holds_work()
    }

    /// PE 0, adaptive, deciding in phase `now`: is the estimated idle fraction γ̂ of the d
    /// phases that ended at least `lag` phases ago at least γ? (Always, when not adaptive.)
    pub(super) fn wanted(&mut self, now: u64) -> bool {
        let dims = self.dims;
        let Some(a) = &mut self.adaptive else {
            return true;
        };
        let to = now.saturating_sub(a.lag);
        let from = to.saturating_sub(dims);
        a.notes = a.notes.split_off(&from);
        if to == from {
            return false;
        }
        let notes: u64 = a.notes.range(from..to).map(|(_, n)| n).sum();
        let gamma_hat = notes as f64 / (a.c * (to - from) as f64);
        let triggered = gamma_hat >= a.gamma;
        self.stats.estimates.push(IdleEstimate {
            from,
            to,
            notes,
            gamma_hat,
            triggered,
        });
        triggered
    }

    /// What the report shows about the phases.
    pub(crate) fn stats(&self) -> Option<PhaseStats> {
        Some(self.stats.clone())
    }

    /// This PE enters phase `phase`.
    pub(super) fn enter_phase(&mut self, phase: u64) {
        self.phase = phase;
        self.stats.phases += 1;
    }

    /// Adaptive triggering (§5)?
    pub(super) fn is_adaptive(&self) -> bool {
        self.adaptive.is_some()
    }

    /// d = ⌈log₂ P⌉, the phases of a cycle.
    pub(super) fn dims(&self) -> u64 {
        self.dims
    }

    /// The partner of PE `me` in the phase of hypercube dimension `dim` (the network's
    /// embedding; None: no partner among the P PEs).
    pub(super) fn partner(&self, me: PeId, dim: u64) -> Option<PeId> {
        self.plan.partner(me, dim)
    }

    /// PE 0: permutations started so far (the next one's number), counted up.
    pub(super) fn next_permutation(&mut self) -> u64 {
        self.started += 1;
        self.started - 1
    }
}

/// What a PE does at the end of a phase.
enum Action {
    /// Ask the partner along this dimension (when idle).
    Ask(u64),
    /// Permutation number n starts here (PE 0 also broadcasts it when `broadcast`).
    Permute { n: u64, broadcast: bool },
    /// Nothing (a permutation is in progress here, or this round belongs to none of its phases).
    Nothing,
}

impl Polling {
    fn shuffle_state(&mut self) -> &mut PollAndShuffle {
        self.shuffle
            .as_deref_mut()
            .expect("a poll-and-shuffle PE has its state")
    }

    /// Send `Shuffle{n}` to this PE's children in the label tree (adaptive triggering).
    pub(super) fn broadcast_shuffle(&mut self, n: u64) {
        let ps = self.shuffle.as_deref().expect("poll-and-shuffle state");
        let children: Vec<PeId> = ps.plan.tree_children(self.pe.me()).collect();
        for c in children {
            self.pe.send(c, Message::Shuffle { n });
        }
    }

    /// Poll-and-shuffle at the end of a phase (round `round` starts).
    pub(super) fn poll_and_shuffle_round(&mut self, round: u64) {
        self.shuffle_state().enter_phase(round);
        // The root may have started a counting wave at this round.
        self.place(Vec::new());
        self.idle_note();
        match self.phase_action(round) {
            Action::Ask(dimension) => self.ask_in_phase(dimension),
            Action::Permute { n, broadcast } => {
                if broadcast {
                    self.broadcast_shuffle(n);
                }
                self.permute(n);
            }
            Action::Nothing => {}
        }
    }

    /// Where round `round` falls in this PE's cycle (module comment).
    fn phase_action(&mut self, round: u64) -> Action {
        let me = self.pe.me();
        let ps = self.shuffle_state();
        let dims = ps.dims;
        let root = ps.plan.root();
        if ps.kind == PermutationKind::Pseudorandom {
            let cycle = dims + ps.slot;
            let position = round % cycle;
            if position < dims {
                return Action::Ask(position);
            }
            if position > dims {
                return Action::Nothing; // the permuted pieces are on their way
            }
            let n = round / cycle;
            if ps.adaptive.is_none() {
                return Action::Permute {
                    n,
                    broadcast: false,
                };
            }
            if me == root && ps.wanted(round) {
                return Action::Permute { n, broadcast: true };
            }
            return Action::Nothing;
        }
        if ps.shuffler.is_busy() {
            return Action::Nothing; // this PE's pieces are being scattered
        }
        let start = ps.shuffler.cycle_start();
        if round < start {
            return Action::Nothing;
        }
        if round >= start + dims {
            if ps.adaptive.is_none() {
                // Every PE knows the cycle's end: no broadcast needed. (A PE whose numbering
                // arrived after its cycle had already ended permutes at once: its part is
                // needed for the permutation to complete anywhere.)
                let n = ps.shuffler.completed();
                return Action::Permute {
                    n,
                    broadcast: false,
                };
            }
            if me == root && ps.wanted(round) {
                return Action::Permute {
                    n: ps.next_permutation(),
                    broadcast: true,
                };
            }
        }
        Action::Ask((round - start) % dims)
    }

    /// The poll-and-shuffle messages: idle notes, a permutation's start, scattered pieces and
    /// the permutation's counting signals.
    pub(super) fn receive_shuffle(&mut self, from: PeId, message: Message) {
        if self.pe.is_finishing() {
            if let Message::Scatter { piece, .. } = &message {
                assert!(
                    piece.is_none(),
                    "PE {}: work arrived after termination",
                    self.pe.me()
                );
            }
            return;
        }
        match message {
            Message::IdleNote { phase } => {
                if let Some(a) = &mut self.shuffle_state().adaptive {
                    *a.notes.entry(phase).or_default() += 1;
                }
            }
            Message::Shuffle { n } => {
                self.broadcast_shuffle(n);
                self.permute(n);
            }
            Message::Permuted {
                n,
                task,
                generation,
                token,
            } => {
                self.shuffle_state().arrived(n);
                let record = self.pe.receive_piece(from, token);
                self.take_piece(task, generation, record);
                self.advance_termination();
            }
            Message::Scatter {
                piece: Some((task, generation, token)),
                ..
            } if self.shuffle_state().local.is_some() => {
                // Local synchronization: a permuted piece (answers travel as `Work`).
                let record = self.pe.receive_piece(from, token);
                self.take_piece(task, generation, record);
                self.advance_termination();
            }
            Message::Scatter { n, piece: None } if self.shuffle_state().local.is_some() => {
                // Local synchronization: the permuted pieces from `from` are all here.
                if let Some(local) = self.shuffle_state().local.as_mut() {
                    local.permutation_arrived(n);
                }
            }
            Message::Scatter { n, piece } => {
                let mut piece = piece.map(|(task, generation, token)| Held {
                    task,
                    generation,
                    record: self.pe.receive_piece(from, token),
                });
                if self.pe.is_stopped() {
                    // A stopped PE keeps what reaches it; a placeholder keeps the counts.
                    if let Some(held) = piece.take() {
                        self.keep_held(held);
                    }
                }
                let ps = self.shuffle.as_deref_mut().expect("poll-and-shuffle state");
                let placed = ps.shuffler.arrive(n, piece, &mut self.rng);
                self.place(placed);
            }
            Message::Shuffling(signal) => {
                let ps = self.shuffle.as_deref_mut().expect("poll-and-shuffle state");
                let placed = ps.shuffler.receive(from, signal, &mut self.rng);
                self.place(placed);
            }
            _ => unreachable!("only poll-and-shuffle messages are routed here"),
        }
    }

    /// Permutation number `n`: every piece held here moves, whole, to the PE the shared
    /// pseudorandom permutation assigns to this PE (idle PEs hold empty subproblems, which
    /// need not travel), or, by messages, is scattered.
    pub(super) fn permute(&mut self, n: u64) {
        let ps = self.shuffle_state();
        ps.stats.permutations += 1;
        if ps.kind == PermutationKind::Messages {
            ps.rotation.reset();
            if ps.shuffler.request(n) {
                self.scatter(n);
            }
            return;
        }
        let me = self.pe.me();
        let ps = self.shuffle_state();
        // The hypercube node these pieces belong to, and its phase-0 host.
        let label = ps.plan.host_label(me, ps.rotation.hosted());
        ps.rotation.reset();
        let target = ps.target(n, label);
        if target == me {
            return;
        }
        let local = self.shuffle_state().local.is_some();
        if local {
            // Wait for the placeholder of π⁻¹(me) before the next phase (local_sync.rs).
            if let Some(l) = self.shuffle_state().local.as_mut() {
                l.permuted(n);
            }
        }
        for piece in std::mem::take(&mut self.pieces) {
            if local {
                // Local synchronization: as `Scatter`, so that it is not taken for an answer.
                self.send_whole(target, piece, |task, generation, token| Message::Scatter {
                    n,
                    piece: Some((task, generation, token)),
                });
            } else {
                self.send_permuted(target, n, piece);
            }
        }
        if local {
            self.pe.send(target, Message::Scatter { n, piece: None });
        }
        self.idle_note();
        self.advance_termination();
    }

    /// Adaptive (§5): an idle PE notifies PE 0 with probability c/P, once per phase — called
    /// when it enters a phase and whenever it may have become idle.
    pub(super) fn idle_note(&mut self) {
        let (me, p) = (self.pe.me(), self.pe.p());
        if !self.pieces.is_empty() || self.pe.is_finishing() {
            return;
        }
        let Some(ps) = self.shuffle.as_deref_mut() else {
            return;
        };
        let phase = ps.phase;
        let Some(a) = &mut ps.adaptive else {
            return;
        };
        if ps.noted == Some(phase) {
            return;
        }
        ps.noted = Some(phase);
        if !self.rng.random_bool((a.c / p as f64).min(1.0)) {
            return;
        }
        ps.stats.idle_notes += 1;
        if me == 0 {
            *a.notes.entry(phase).or_default() += 1;
        } else {
            self.pe.send(0, Message::IdleNote { phase });
        }
    }

    /// Permutation by messages, step 1: every piece held here (or, when idle, the empty
    /// subproblem) goes to a uniformly random PE.
    fn scatter(&mut self, n: u64) {
        let (me, p) = (self.pe.me(), self.pe.p());
        let pieces: Vec<Option<Held>> = if self.pieces.is_empty() {
            vec![None]
        } else {
            std::mem::take(&mut self.pieces)
                .into_iter()
                .map(Some)
                .collect()
        };
        let sent = pieces.len() as u64;
        for piece in pieces {
            let to = self.rng.random_range(0..p);
            if to == me {
                let ps = self.shuffle.as_deref_mut().expect("poll-and-shuffle state");
                let placed = ps.shuffler.arrive(n, piece, &mut self.rng);
                self.place(placed);
            } else if let Some(piece) = piece {
                self.send_whole(to, piece, |task, generation, token| Message::Scatter {
                    n,
                    piece: Some((task, generation, token)),
                });
            } else {
                self.pe.send(to, Message::Scatter { n, piece: None });
            }
        }
        let ps = self.shuffle.as_deref_mut().expect("poll-and-shuffle state");
        let placed = ps.shuffler.scattered(n, sent, &mut self.rng);
        self.place(placed);
    }

    /// Send a piece placed by permutation `n` to PE `to`.
    fn send_permuted(&mut self, to: PeId, n: u64, piece: Held) {
        self.send_whole(to, piece, |task, generation, token| Message::Permuted {
            n,
            task,
            generation,
            token,
        });
    }

    /// Permutation by messages, step 4: pieces numbered for other PEs travel there.
    fn place(&mut self, placed: Vec<(PeId, Held)>) {
        let me = self.pe.me();
        let n = self
            .shuffle
            .as_deref()
            .map_or(0, |ps| ps.shuffler.completed().saturating_sub(1));
        for (to, piece) in placed {
            if to == me && self.pe.is_stopped() {
                self.keep_held(piece);
            } else if to == me {
                self.pieces.push(piece);
            } else {
                self.send_permuted(to, n, piece);
            }
        }
        let ps = self.shuffle.as_deref_mut().expect("poll-and-shuffle state");
        let mut signals = Vec::new();
        while let Some(signal) = ps.shuffler.poll_transmit() {
            signals.push(signal);
        }
        let next = ps.shuffler.next_pending();
        for (to, signal) in signals {
            self.pe.send(to, Message::Shuffling(signal));
        }
        if let Some(n) = next {
            self.scatter(n);
        }
        self.advance_termination();
    }
}
