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
//! - **pseudorandom permutation** (`PermutationKind::Pseudorandom`): the permutation moves
//!   PE k's pieces to π(k) = (a·k + b) mod P, which every PE computes alone, so it fits into
//!   the round grid: the cycle position is round mod (d+1), positions 0..d are the phases and
//!   position d is the permutation. Non-adaptive, every PE permutes there; adaptive, PE 0
//!   decides there and broadcasts `Shuffle{n}`, and each PE permutes on its arrival.
//! - **permutation by messages** ([`super::shuffle`], §3.2): a collective that takes many
//!   rounds, so PE 0 alone starts one — after a full cycle since the last one started, and
//!   only when the previous one has finished at PE 0 (they cannot pile up on a slow machine)
//!   — by sending `Shuffle{n}` down the binary tree. A PE whose pieces are being scattered
//!   (the permutation is in progress here) asks no one. When PE 0's final count proves the
//!   permutation complete in round r, it stamps the placement signals with r+1, and every
//!   PE, once its own part has completed, counts phases from that round: phase
//!   (round − (r+1)) mod d. If PE 0 does not start a permutation after d phases (adaptive,
//!   or the previous one is still running), the phases wrap around.
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
use super::local_sync::LocalSync;
use super::shuffle::Shuffler;
use super::{Held, Polling};
use crate::config::{Balancer, Config, PermutationKind, PhaseSync};
use crate::protocol::{hash, Message, PeId};
use crate::stats::{IdleEstimate, PhaseStats};
use rand::RngExt;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where PE `k`'s pieces go in permutation number `n` among `p` PEs: an affine bijection
/// k ↦ (a·k + b) mod p with gcd(a, p) = 1, a and b drawn from the seed and n (a pseudorandom
/// permutation that every PE computes without communication).
pub(crate) fn shuffle_target(seed: u64, n: u64, p: usize, k: usize) -> usize {
    let draw = |salt: u64| {
        super::round_shift(seed ^ salt.wrapping_mul(0xD6E8_FEB8_6659_FD93), n, p.max(2)) as u64
    };
    let p64 = p as u64;
    let mut a = draw(1) % p64.max(1);
    if a == 0 {
        a = 1;
    }
    while hash::gcd(a, p64) != 1 {
        a = a % p64 + 1;
    }
    let b = draw(2) % p64.max(1);
    ((u128::from(a) * k as u128 + u128::from(b)) % u128::from(p64)) as usize
}

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
    plan: Arc<PhasePlan>,
    kind: PermutationKind,
    adaptive: Option<Adaptive>,
    /// The permutation by messages (also tracks the start of the current cycle).
    shuffler: Shuffler<Held>,
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
    /// The state of PE `me` of the configured run.
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        network: Option<crate::topology::Topology>,
    ) -> Self {
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
        let plan = embedding::plan((!local).then_some(network).flatten(), p, embedding);
        let dims = plan.phases();
        PollAndShuffle {
            dims,
            plan,
            kind,
            adaptive: adaptive.map(|a| Adaptive {
                c: a.c,
                gamma: a.gamma,
                lag: if local { dims } else { 1 },
                notes: BTreeMap::new(),
            }),
            shuffler: Shuffler::new(me, p),
            started: 0,
            local: local.then(|| LocalSync::new(round)),
            phase: 0,
            noted: None,
            stats: PhaseStats::default(),
        }
    }

    /// Round `round` starts.
    pub(crate) fn on_round(&mut self, round: u64) {
        self.shuffler.on_round(round);
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

    /// What the report shows about the phases (adaptive or locally synchronized runs only,
    /// so that other reports keep their form).
    pub(crate) fn stats(&self) -> Option<PhaseStats> {
        (self.adaptive.is_some() || self.local.is_some()).then(|| self.stats.clone())
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

    /// Poll-and-shuffle at the end of a phase (round `round` starts).
    pub(super) fn poll_and_shuffle_round(&mut self, round: u64) {
        let me = self.pe.me();
        self.shuffle_state().enter_phase(round);
        self.idle_note();
        match self.phase_action(round) {
            Action::Ask(dimension) => {
                let partner = self.shuffle_state().plan.partner(me, dimension);
                if let Some(partner) = partner.filter(|_| self.may_ask()) {
                    self.ask_pe(partner);
                }
            }
            Action::Permute { n, broadcast } => {
                if broadcast {
                    self.pe.send_to_children(|| Message::Shuffle { n });
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
        if ps.kind == PermutationKind::Pseudorandom {
            let position = round % (dims + 1);
            if position < dims {
                return Action::Ask(position);
            }
            if ps.adaptive.is_none() {
                return Action::Permute {
                    n: round / (dims + 1),
                    broadcast: false,
                };
            }
            if me == 0 && ps.wanted(round) {
                return Action::Permute {
                    n: ps.next_permutation(),
                    broadcast: true,
                };
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
        if me == 0 && round >= start + dims && ps.wanted(round) {
            return Action::Permute {
                n: ps.next_permutation(),
                broadcast: true,
            };
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
                self.pe.send_to_children(|| Message::Shuffle { n });
                self.permute(n);
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
                let piece = piece.map(|(task, generation, token)| Held {
                    task,
                    generation,
                    record: self.pe.receive_piece(from, token),
                });
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
            if ps.shuffler.request(n) {
                self.scatter(n);
            }
            return;
        }
        let (me, p) = (self.pe.me(), self.pe.p());
        let target = shuffle_target(self.seed, n, p, me);
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
                self.move_piece(target, piece);
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

    /// Permutation by messages, step 4: pieces numbered for other PEs travel there.
    fn place(&mut self, placed: Vec<(PeId, Held)>) {
        let me = self.pe.me();
        for (to, piece) in placed {
            if to == me && self.pe.is_stopped() {
                let record = piece.record;
                self.pe.keep(piece.task);
                self.pe.finish_piece(record);
            } else if to == me {
                self.pieces.push(piece);
            } else {
                self.move_piece(to, piece);
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

#[cfg(test)]
mod tests {
    use super::shuffle_target;
    use crate::config::{Balancer, BalancerKind, Config, PermutationKind};
    use crate::protocol::polling::shuffle::ShuffleSignal;
    use crate::protocol::polling::testing::pe as new_pe;
    use crate::protocol::polling::Polling;
    use crate::protocol::{Message, PeId, Protocol};

    /// The PEs PE `pe` asks at the start of each of `rounds` (answering every request with a
    /// rejection), the other messages dropped.
    fn asked(pe: &mut Polling, rounds: std::ops::Range<u64>) -> Vec<PeId> {
        let mut asked = Vec::new();
        for round in rounds {
            pe.start_round(round);
            while let Some((to, message)) = pe.poll_transmit() {
                if matches!(message, Message::Request) {
                    asked.push(to);
                    pe.receive(to, Message::Reject);
                }
            }
        }
        asked
    }

    /// §3.1: a cycle asks along dimensions 0, 1, …, d−1; a PE whose permutation is in
    /// progress asks no one; after it, the phases start over at 0 from the round PE 0 stamped.
    #[test]
    fn phases_restart_at_zero_after_a_permutation_by_messages() {
        let config = Config::new(8).balancer(BalancerKind::PollAndShuffle);
        assert!(matches!(
            config.balancer,
            Balancer::PollAndShuffle {
                permutation: PermutationKind::Messages,
                ..
            }
        ));
        let mut pe = new_pe(5, &config, None);
        assert_eq!(asked(&mut pe, 0..4), [4, 7, 1, 4]);
        // Permutation 0 reaches PE 5 from its parent, PE 2: it scatters its placeholder and
        // asks no one until its part is done.
        pe.receive(2, Message::Shuffle { n: 0 });
        assert_eq!(asked(&mut pe, 4..7), []);
        pe.receive(2, Message::Shuffling(ShuffleSignal::Wave { n: 0, wave: 1 }));
        assert_eq!(asked(&mut pe, 7..8), []);
        // PE 0 found the permutation complete in round 9: the numbering arrives stamped 10.
        pe.receive(
            2,
            Message::Shuffling(ShuffleSignal::Offset {
                n: 0,
                offset: 0,
                cycle_start: 10,
            }),
        );
        assert_eq!(asked(&mut pe, 8..10), [], "before the stamped round");
        assert_eq!(asked(&mut pe, 10..14), [4, 7, 1, 4], "phase 0 at round 10");
    }

    /// Pseudorandom permutations sit at position d of the round grid mod d+1: phases 0..d−1
    /// before it, phase 0 right after it.
    #[test]
    fn pseudorandom_cycles_follow_the_round_grid() {
        let config = Config::new(8).balancer(Balancer::PollAndShuffle {
            polling: Default::default(),
            round: crate::config::DEFAULT_ROUND,
            permutation: PermutationKind::Pseudorandom,
            adaptive: None,
            sync: Default::default(),
            embedding: Default::default(),
        });
        let mut pe = new_pe(5, &config, None);
        assert_eq!(asked(&mut pe, 0..9), [4, 7, 1, 4, 7, 1, 4]);
    }

    #[test]
    fn shuffle_targets_are_permutations() {
        for p in [1, 2, 3, 5, 8, 12, 64, 100, 1000, 4096] {
            for n in 0..20 {
                let mut hit = vec![false; p];
                for k in 0..p {
                    let t = shuffle_target(7, n, p, k);
                    assert!(t < p && !hit[t], "P={p} n={n}: not a bijection");
                    hit[t] = true;
                }
            }
        }
    }

    #[test]
    fn shuffle_targets_keep_their_values() {
        // Pinned: replays of recorded simulations depend on these.
        let targets: Vec<usize> = (0..4).map(|n| shuffle_target(7, n, 10, 3)).collect();
        assert_eq!(targets, [5, 0, 3, 9]);
    }
}
