//! Receiver-initiated polling (work stealing), Fig. 1 of paper 000, with three victim rules.
//!
//! PE 0 starts with the root task, all others idle. A busy PE works in slices of Δt units
//! and between slices answers the requests that reached it: it splits its task and sends
//! one part to the requester, or rejects when the task is atomic. An idle PE sends one
//! request at a time and rejects the requests that reach it meanwhile; a rejection makes it
//! ask again. Whom it asks is the victim rule:
//!
//! - **random** (random polling, paper 000): a uniformly random other PE;
//! - **neighbour** (neighbour polling, paper 002 §1.1, the bad baseline): a random neighbour
//!   in a ring, mesh or hypercube, which lets busy clusters shield large subproblems;
//! - **global round robin** (paper 000 §1.3, [18]): the value of a global counter kept by
//!   PE 0, read and incremented with a message round trip to PE 0 (`Counter` → `Victim`),
//!   so PE 0 becomes a hot spot as P grows.
//!
//! Termination is detected by the four-counter component ([`super::termination`]).

use super::shuffle::Shuffler;
use super::termination::{Local, Termination};
use super::{Costs, Message, PeCounters, PeId, Protocol, Step};
use crate::config::{Balancer, Config, PermutationKind};
use crate::task::{Context, Incumbent, Task};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

/// A task together with its generation (number of splits since the root).
#[derive(Debug)]
struct Piece<T> {
    task: T,
    generation: u32,
    /// The termination protocol's record of this piece.
    record: u64,
}

/// Whom an idle PE asks for work.
#[derive(Debug, Clone, PartialEq, Eq)]
enum VictimRule {
    Random,
    /// A random one of these PEs.
    Neighbour(Vec<PeId>),
    /// Ask PE 0 for the next value of the global counter.
    GlobalRoundRobin,
    /// At the start of each round of this length, ask PE (i + k_round) mod P.
    RandomShift {
        round: u64,
    },
    /// Hypercube poll-and-shuffle: phases of this length; after phase i ask the partner along
    /// dimension i (of `dims`); after `dims` phases (or when PE 0 triggers it, adaptive)
    /// permute all pieces.
    PollAndShuffle {
        round: u64,
        dims: u32,
    },
}

/// Where PE `k`'s pieces go in permutation number `n` among `p` PEs: an affine bijection
/// k ↦ (a·k + b) mod p with gcd(a, p) = 1, a and b drawn from the seed and n (a pseudorandom
/// permutation that every PE computes without communication).
pub fn shuffle_target(seed: u64, n: u64, p: usize, k: usize) -> usize {
    let draw = |salt: u64| {
        round_shift(seed ^ salt.wrapping_mul(0xD6E8_FEB8_6659_FD93), n, p.max(2)) as u64
    };
    let p64 = p as u64;
    let mut a = draw(1) % p64.max(1);
    if a == 0 {
        a = 1;
    }
    while gcd(a, p64) != 1 {
        a = a % p64 + 1;
    }
    let b = draw(2) % p64.max(1);
    ((u128::from(a) * k as u128 + u128::from(b)) % u128::from(p64)) as usize
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The shift k ∈ 1..P of round `round`: the same on every PE, from the run's seed alone.
pub fn round_shift(seed: u64, round: u64, p: usize) -> usize {
    let mut x = seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5851_F42D_4C95_7F2D;
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    1 + (x % (p as u64 - 1)) as usize
}

/// The polling state machine of one PE.
pub struct Polling<T: Task> {
    me: PeId,
    p: usize,
    delta_t: u64,
    /// The pieces this PE holds; it works on the last. Only poll-and-shuffle ever holds more
    /// than one (a permuted piece and a late answer may arrive together).
    pieces: Vec<Piece<T>>,
    /// A request of ours is on its way or being answered.
    awaiting_reply: bool,
    rng: Xoshiro256PlusPlus,
    output: T::Output,
    out: VecDeque<(PeId, Message<T>)>,
    termination: Termination<T::Output>,
    counters: PeCounters,
    /// Consecutive slices that did no work on a non-empty task.
    stalled_slices: u32,
    rule: VictimRule,
    /// PE 0 under global round robin: the global counter.
    counter: u64,
    /// Serve at most this many requests per poll (None: all).
    trim: Option<u32>,
    /// The run's seed (random shift derives each round's shift from it).
    seed: u64,
    /// Requests served by splitting since the last work slice.
    served_this_poll: u32,
    /// Poll-and-shuffle, adaptive (paper 002 §5): (c, γ); None: a permutation every cycle.
    adaptive: Option<(f64, f64)>,
    /// The last round started.
    last_round: u64,
    /// PE 0, adaptive: idle notes received in the current round, and per recent round.
    notes_now: u64,
    notes_window: VecDeque<u64>,
    /// Poll-and-shuffle: how to permute, and the state of the permutation by messages.
    permutation: PermutationKind,
    shuffler: Shuffler<Piece<T>>,
    /// PE 0, adaptive: permutations triggered so far and the round of the last one.
    triggered: u64,
    last_trigger: u64,
    /// Fast initialization: the copy of the root has not arrived yet (no requests until then,
    /// or the root and an answer could both bring work).
    awaiting_root: bool,
    /// Early stop: this PE has dropped its work and takes no more.
    stopped: bool,
    /// Costs since the machine last asked.
    costs: Costs,
}

/// The generator of PE `me` for run seed `seed`: independent streams per PE, reproducible.
pub fn pe_rng(seed: u64, me: PeId) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ (me as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

impl<T: Task> Polling<T> {
    /// PE `me` of the configured run; PE 0 passes the root task. The victim rule follows
    /// `config.balancer` (random, neighbour or global round robin polling).
    pub fn new(me: PeId, config: &Config, root: Option<T>) -> Self {
        let options = *config
            .balancer
            .polling()
            .expect("a polling balancer has polling options");
        let root_copy = if options.fast_init { root.clone() } else { None };
        let piece = root.filter(|t| !t.is_empty()).map(|task| Piece {
            task,
            generation: 0,
            record: Termination::<T::Output>::ROOT_RECORD,
        });
        let p = config.pes;
        let mut adaptive = None;
        let mut permutation = PermutationKind::Messages;
        let rule = match config.balancer {
            Balancer::NeighbourPolling { neighbourhood, .. } => {
                let mut n = neighbourhood.neighbours(me, p);
                if n.is_empty() && p > 1 {
                    n = crate::topology::Topology::Ring.neighbours(me, p);
                }
                VictimRule::Neighbour(n)
            }
            Balancer::GlobalRoundRobin { .. } => VictimRule::GlobalRoundRobin,
            Balancer::RandomShift { round, .. } => VictimRule::RandomShift { round },
            Balancer::PollAndShuffle {
                round,
                permutation: kind,
                adaptive: a,
                ..
            } => {
                adaptive = a.map(|a| (a.c, a.gamma));
                permutation = kind;
                VictimRule::PollAndShuffle {
                    round,
                    dims: (usize::BITS - (p.max(2) - 1).leading_zeros()).max(1),
                }
            }
            Balancer::RandomPolling { .. } => VictimRule::Random,
            other => panic!("{other} is not a polling balancer"),
        };
        let holds_root = piece.is_some();
        let mut pe = Polling {
            me,
            p: config.pes,
            delta_t: config.delta_t.max(1),
            pieces: piece.into_iter().collect(),
            awaiting_reply: false,
            rng: pe_rng(config.seed, me),
            output: T::Output::default(),
            out: VecDeque::new(),
            termination: Termination::new(config.termination, me, config.pes, holds_root),
            counters: PeCounters::default(),
            stalled_slices: 0,
            rule,
            counter: 0,
            trim: options.trim,
            seed: config.seed,
            served_this_poll: 0,
            awaiting_root: options.fast_init && p > 1 && me != 0,
            adaptive,
            last_round: 0,
            notes_now: 0,
            notes_window: VecDeque::new(),
            triggered: 0,
            permutation,
            shuffler: Shuffler::new(me, config.pes),
            last_trigger: 0,
            stopped: false,
            costs: Costs::default(),
        };
        if options.fast_init && p > 1 {
            // Exercise 14.7 of paper 001: PE 0 broadcasts the root down the reduction tree.
            pe.pieces.clear();
            if let Some(root) = root_copy.filter(|r| !r.is_empty()) {
                pe.init_from_root(root, Termination::<T::Output>::ROOT_RECORD);
            }
        }
        pe
    }

    /// Fast initialization: pass copies of the root down the binary tree (counted as work
    /// messages, so termination cannot be declared while one is in flight), then split the
    /// root ⌊log₂ P⌋ times, keeping at level j the part bit j of this PE's number selects. The
    /// pieces of PEs 0..2^⌊log₂ P⌋ partition the root; the other PEs start idle.
    fn init_from_root(&mut self, root: T, record: u64) {
        for child in [2 * self.me + 1, 2 * self.me + 2] {
            if child < self.p {
                self.counters.pieces_sent += 1;
                let token = self.termination.on_piece_sent(record);
                self.send(
                    child,
                    Message::Root {
                        task: root.clone(),
                        token,
                    },
                );
            }
        }
        let levels = usize::BITS - 1 - self.p.leading_zeros(); // ⌊log₂ P⌋
        if self.me >= 1 << levels {
            self.termination.on_piece_finished(record, &mut self.output);
            return;
        }
        let mut task = root;
        let mut generation = 0;
        for level in 0..levels {
            let Some(other) = task.split() else {
                if self.me >> level & 1 == 1 {
                    // The other side of an atomic task is empty.
                    self.termination.on_piece_finished(record, &mut self.output);
                    return;
                }
                continue;
            };
            generation += 1;
            self.count_splits(1);
            if self.me >> level & 1 == 1 {
                task = other;
            }
        }
        self.take_piece(task, generation, record);
    }

    /// Count `n` splits of this PE's tasks (and charge them as costs).
    fn count_splits(&mut self, n: u64) {
        self.counters.splits += n;
        self.costs.splits += n;
    }

    /// PE 0: the next value of the global counter for `requester` (never itself).
    fn next_victim(&mut self, requester: PeId) -> PeId {
        let mut v = (self.counter % self.p as u64) as PeId;
        self.counter += 1;
        if v == requester {
            v = (self.counter % self.p as u64) as PeId;
            self.counter += 1;
        }
        v
    }

    /// Start asking for work according to the victim rule.
    fn ask(&mut self) {
        let victim = match &self.rule {
            VictimRule::Random => self.random_other(),
            VictimRule::Neighbour(n) => n[self.rng.random_range(0..n.len())],
            VictimRule::GlobalRoundRobin if self.me == 0 => self.next_victim(0),
            VictimRule::GlobalRoundRobin => {
                self.awaiting_reply = true;
                self.send(0, Message::Counter);
                return;
            }
            // Round-based rules ask only when a round starts (`on_round`).
            VictimRule::RandomShift { .. } | VictimRule::PollAndShuffle { .. } => return,
        };
        self.ask_pe(victim);
    }

    /// Ask `victim` for work; the answer is awaited before asking again.
    fn ask_pe(&mut self, victim: PeId) {
        self.awaiting_reply = true;
        self.request(victim);
    }

    fn request(&mut self, victim: PeId) {
        self.counters.requests_sent += 1;
        self.send(victim, Message::Request);
    }

    fn local(&self) -> Local {
        Local {
            idle: self.pieces.is_empty() && !self.shuffler.holds_work(),
            sent: self.counters.pieces_sent,
            received: self.counters.pieces_received,
        }
    }

    fn send(&mut self, to: PeId, message: Message<T>) {
        self.counters.messages_sent += 1;
        self.out.push_back((to, message));
    }

    fn random_other(&mut self) -> PeId {
        let k = self.rng.random_range(0..self.p - 1);
        if k >= self.me {
            k + 1
        } else {
            k
        }
    }

    /// Answer a request from `from`: split and send a piece, or reject.
    fn answer_request(&mut self, from: PeId) {
        self.counters.requests_received += 1;
        if self.termination.is_finishing() {
            // Everyone is idle and finishing; the requester needs no answer.
            return;
        }
        // Trimming (paper 000 §4): serve at most `trim` requests per poll; reject the rest at
        // once so that their senders ask elsewhere instead of queueing here.
        let trimmed = self.stopped
            || self
                .trim
                .is_some_and(|limit| self.served_this_poll >= limit);
        let given = if trimmed {
            None
        } else if self.pieces.len() > 1 {
            // Holding more than one piece: hand over a whole one, no split needed.
            let piece = self.pieces.remove(0);
            Some((piece.task, piece.generation, true, piece.record, false))
        } else {
            match self.pieces.last_mut() {
                Some(piece) => match piece.task.split() {
                    Some(part) if !part.is_empty() => {
                        piece.generation += 1;
                        let now_empty = piece.task.is_empty();
                        Some((part, piece.generation, now_empty, piece.record, true))
                    }
                    _ => None,
                },
                None => None,
            }
        };
        match given {
            Some((task, generation, whole_piece_gone, record, split)) => {
                self.served_this_poll += 1;
                if split {
                    self.count_splits(1);
                }
                self.counters.pieces_sent += 1;
                self.counters.max_generation = self.counters.max_generation.max(generation);
                let token = self.termination.on_piece_sent(record);
                if whole_piece_gone {
                    if split {
                        self.pieces.pop();
                    }
                    self.termination.on_piece_finished(record, &mut self.output);
                }
                self.send(
                    from,
                    Message::Work {
                        task,
                        generation,
                        token,
                    },
                );
            }
            None => {
                self.counters.rejections_sent += 1;
                self.send(from, Message::Reject);
            }
        }
    }

    fn drain_termination(&mut self) {
        while let Some((to, signal)) = self.termination.poll_transmit() {
            self.counters.termination_messages += 1;
            self.send(to, Message::Termination(signal));
        }
    }

    fn advance_termination(&mut self) {
        if self.pieces.is_empty() {
            let local = self.local();
            self.termination.advance(local, &mut self.output);
        }
        self.drain_termination();
    }
}

impl<T: Task> Protocol<T> for Polling<T> {
    fn step(&mut self) -> Step {
        if self.termination.is_done() {
            return Step::Finished;
        }
        if !self.pieces.is_empty() {
            return Step::Work {
                budget: self.delta_t,
            };
        }
        if !self.awaiting_reply
            && !self.awaiting_root
            && !self.stopped
            && self.p > 1
            && !self.termination.is_finishing()
        {
            self.ask();
        }
        self.advance_termination();
        if self.termination.is_done() {
            Step::Finished
        } else {
            Step::Wait
        }
    }

    fn work(&mut self, budget: u64, incumbent: &dyn Incumbent) -> u64 {
        let Some(piece) = self.pieces.last_mut() else {
            return 0;
        };
        self.served_this_poll = 0;
        let mut ctx = Context::new(&mut self.output, incumbent, self.me);
        let units = piece.task.work(budget, &mut ctx);
        let stop = ctx.stop_requested();
        self.counters.work_units += units;
        self.counters.slices += 1;
        if stop {
            self.begin_stop(None);
        } else if piece.task.is_empty() {
            let record = piece.record;
            self.pieces.pop();
            self.stalled_slices = 0;
            self.termination.on_piece_finished(record, &mut self.output);
            self.advance_termination();
        } else if units == 0 && budget > 0 {
            self.stalled_slices += 1;
            assert!(
                self.stalled_slices < 1000,
                "task made no progress in 1000 work slices but is not empty (Task::work must return at least 1)"
            );
        } else {
            self.stalled_slices = 0;
        }
        units
    }

    fn receive(&mut self, from: PeId, message: Message<T>) {
        match message {
            Message::Request => self.answer_request(from),
            Message::Reject => {
                self.counters.rejections_received += 1;
                self.awaiting_reply = false;
            }
            Message::Work {
                task,
                generation,
                token,
            } => {
                self.counters.pieces_received += 1;
                self.awaiting_reply = false;
                assert!(
                    self.pieces.is_empty()
                        || matches!(self.rule, VictimRule::PollAndShuffle { .. }),
                    "PE {}: work arrived while busy",
                    self.me
                );
                let record = self.termination.on_piece_received(from, token);
                self.take_piece(task, generation, record);
                self.advance_termination();
            }
            Message::Root { task, token } => {
                self.counters.pieces_received += 1;
                self.awaiting_root = false;
                let record = self.termination.on_piece_received(from, token);
                self.init_from_root(task, record);
                self.advance_termination();
            }
            Message::IdleNote => self.notes_now += 1,
            Message::Scatter { n, piece } => {
                let item = piece.map(|(task, generation, token)| {
                    self.counters.pieces_received += 1;
                    let record = self.termination.on_piece_received(from, token);
                    Piece {
                        task,
                        generation,
                        record,
                    }
                });
                if self.termination.is_finishing() {
                    assert!(
                        item.is_none(),
                        "PE {}: work arrived after termination",
                        self.me
                    );
                } else {
                    let placed = self.shuffler.arrive(n, item, &mut self.rng);
                    self.place(placed);
                }
            }
            Message::Shuffling(signal) => {
                if !self.termination.is_finishing() {
                    let placed = self.shuffler.receive(from, signal, &mut self.rng);
                    self.place(placed);
                }
            }
            Message::Shuffle { n } => {
                if !self.termination.is_finishing() {
                    self.broadcast_shuffle(n);
                    self.shuffle(n);
                }
            }
            Message::Counter => {
                if !self.termination.is_finishing() {
                    let victim = self.next_victim(from);
                    self.send(from, Message::Victim(victim));
                }
            }
            Message::Victim(victim) => {
                if !self.termination.is_finishing() {
                    self.request(victim);
                }
            }
            Message::Stop => self.begin_stop(Some(from)),
            Message::Bundle { .. } | Message::Scan(_) => {
                panic!(
                    "PE {}: a static balancer's message reached a polling PE",
                    self.me
                )
            }
            Message::Termination(signal) => {
                let local = self.local();
                self.termination
                    .receive(from, signal, local, &mut self.output);
                self.drain_termination();
            }
        }
    }

    fn poll_transmit(&mut self) -> Option<(PeId, Message<T>)> {
        self.out.pop_front()
    }

    fn counters(&self) -> &PeCounters {
        &self.counters
    }

    fn take_costs(&mut self) -> Costs {
        std::mem::take(&mut self.costs)
    }

    fn take_output(&mut self) -> Option<T::Output> {
        self.termination.take_result()
    }

    fn is_busy(&self) -> bool {
        !self.pieces.is_empty()
    }

    fn round_length(&self) -> Option<u64> {
        match self.rule {
            VictimRule::RandomShift { round } | VictimRule::PollAndShuffle { round, .. } => {
                Some(round)
            }
            _ => None,
        }
    }

    /// Random shift (paper 001 §14.5.2): a PE idle at the start of round r asks PE
    /// (i + k_r) mod P; all PEs use the same k_r, so every PE receives at most one request.
    fn on_round(&mut self, round: u64) {
        self.last_round = round;
        if self.p == 1 || self.termination.is_finishing() || self.stopped {
            return;
        }
        match self.rule {
            VictimRule::PollAndShuffle { dims, .. } => self.poll_and_shuffle_round(round, dims),
            _ => {
                if self.pieces.is_empty() && !self.awaiting_reply && !self.awaiting_root {
                    let victim = (self.me + round_shift(self.seed, round, self.p)) % self.p;
                    self.ask_pe(victim);
                }
            }
        }
    }
}

impl<T: Task> Polling<T> {
    /// Poll-and-shuffle at the end of a phase (paper 002 §3 and §5).
    fn poll_and_shuffle_round(&mut self, round: u64, dims: u32) {
        let dims = u64::from(dims);
        if let Some((c, _)) = self.adaptive {
            // Idle PEs notify PE 0 with probability c/P; PE 0 keeps the counts of the last
            // `dims` phases.
            if self.pieces.is_empty() && self.rng.random_bool((c / self.p as f64).min(1.0)) {
                if self.me == 0 {
                    self.notes_now += 1;
                } else {
                    self.send(0, Message::IdleNote);
                }
            }
            if self.me == 0 {
                self.notes_window
                    .push_back(std::mem::take(&mut self.notes_now));
                while self.notes_window.len() as u64 > dims {
                    self.notes_window.pop_front();
                }
            }
        }
        // The pseudorandom bijection needs no coordination: every PE permutes at the end of each
        // cycle of `dims` phases, in the same round.
        if self.adaptive.is_none() && self.permutation == PermutationKind::Pseudorandom {
            let position = round % (dims + 1);
            if position == dims {
                self.shuffle(round / (dims + 1));
            } else {
                self.ask_partner(position);
            }
            return;
        }
        // The permutation by messages is a collective: PE 0 alone starts one, after a full
        // cycle of `dims` phases and only when the previous one has finished at PE 0, so they
        // cannot pile up on a slow machine; adaptively (§5) only when it estimates at least γ·P
        // idle PEs.
        if self.me == 0 && round >= self.last_trigger + dims && !self.shuffler.is_busy() {
            let wanted = match self.adaptive {
                None => true,
                Some((c, gamma)) => {
                    let mean = self.notes_window.iter().sum::<u64>() as f64
                        / self.notes_window.len() as f64;
                    mean * self.p as f64 / c >= gamma * self.p as f64
                }
            };
            if wanted {
                self.last_trigger = round;
                let n = self.triggered;
                self.triggered += 1;
                self.broadcast_shuffle(n);
                self.shuffle(n);
                return;
            }
        }
        // The dimension comes from the global round number, so that partners agree on it even
        // though a permutation's start reaches PEs in different rounds.
        self.ask_partner(round % dims);
    }

    /// An idle PE asks its partner along hypercube dimension `dimension` (if it exists).
    fn ask_partner(&mut self, dimension: u64) {
        if self.pieces.is_empty() && !self.awaiting_reply && !self.awaiting_root {
            let partner = self.me ^ (1 << dimension);
            if partner < self.p {
                self.ask_pe(partner);
            }
        }
    }

    /// Pass the start of permutation `n` down the binary tree of PEs.
    fn broadcast_shuffle(&mut self, n: u64) {
        for child in [2 * self.me + 1, 2 * self.me + 2] {
            if child < self.p {
                self.send(child, Message::Shuffle { n });
            }
        }
    }

    /// Permutation number `n`: every piece held here moves, whole, to the PE the shared
    /// pseudorandom permutation assigns to this PE (idle PEs hold empty subproblems, which
    /// need not travel). Phases start over.
    fn shuffle(&mut self, n: u64) {
        if self.permutation == PermutationKind::Messages {
            if self.shuffler.request(n) {
                self.scatter(n);
            }
            return;
        }
        let target = shuffle_target(self.seed, n, self.p, self.me);
        if target == self.me {
            return;
        }
        for piece in std::mem::take(&mut self.pieces) {
            self.move_piece(target, piece);
        }
        self.advance_termination();
    }

    /// Early stop (from `from`, or found here): pass it on over the tree of PEs once, and drop
    /// every piece held (each finished for termination detection).
    fn begin_stop(&mut self, from: Option<PeId>) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.awaiting_root = false;
        for to in super::tree_neighbours(self.me, self.p) {
            if Some(to) != from {
                self.send(to, Message::Stop);
            }
        }
        for piece in std::mem::take(&mut self.pieces) {
            self.termination
                .on_piece_finished(piece.record, &mut self.output);
        }
        self.advance_termination();
    }

    /// Keep a piece that arrived or was split off locally (an empty one, or any after an
    /// early stop, is done at once).
    fn take_piece(&mut self, task: T, generation: u32, record: u64) {
        self.counters.max_generation = self.counters.max_generation.max(generation);
        if task.is_empty() || self.stopped {
            self.termination.on_piece_finished(record, &mut self.output);
        } else {
            self.pieces.push(Piece {
                task,
                generation,
                record,
            });
        }
    }

    /// Send a whole piece to PE `to`: it leaves this PE's records as given away.
    fn move_piece(&mut self, to: PeId, piece: Piece<T>) {
        let token = self.termination.on_piece_sent(piece.record);
        self.counters.pieces_sent += 1;
        self.send(
            to,
            Message::Work {
                task: piece.task,
                generation: piece.generation,
                token,
            },
        );
        self.termination
            .on_piece_finished(piece.record, &mut self.output);
    }
}

impl<T: Task> Polling<T> {
    /// Permutation by messages, step 1: every piece held here (or, when idle, the empty
    /// subproblem) goes to a uniformly random PE.
    fn scatter(&mut self, n: u64) {
        let mut pieces = std::mem::take(&mut self.pieces);
        let mut sent = 0;
        if pieces.is_empty() {
            sent += 1;
            let to = self.rng.random_range(0..self.p);
            if to == self.me {
                let placed = self.shuffler.arrive(n, None, &mut self.rng);
                self.place(placed);
            } else {
                self.send(to, Message::Scatter { n, piece: None });
            }
        }
        for piece in pieces.drain(..) {
            sent += 1;
            let to = self.rng.random_range(0..self.p);
            if to == self.me {
                let placed = self.shuffler.arrive(n, Some(piece), &mut self.rng);
                self.place(placed);
            } else {
                let token = self.termination.on_piece_sent(piece.record);
                self.counters.pieces_sent += 1;
                self.send(
                    to,
                    Message::Scatter {
                        n,
                        piece: Some((piece.task, piece.generation, token)),
                    },
                );
                self.termination
                    .on_piece_finished(piece.record, &mut self.output);
            }
        }
        let placed = self.shuffler.scattered(n, sent, &mut self.rng);
        self.place(placed);
    }

    /// Permutation by messages, step 4: pieces numbered for other PEs travel there.
    fn place(&mut self, placed: Vec<(PeId, Piece<T>)>) {
        for (to, piece) in placed {
            if to == self.me && self.stopped {
                self.termination
                    .on_piece_finished(piece.record, &mut self.output);
            } else if to == self.me {
                self.pieces.push(piece);
            } else {
                self.move_piece(to, piece);
            }
        }
        while let Some((to, signal)) = self.shuffler.poll_transmit() {
            self.send(to, Message::Shuffling(signal));
        }
        if let Some(n) = self.shuffler.next_pending() {
            self.scatter(n);
        }
        self.advance_termination();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn round_shifts_stay_in_range_and_vary() {
        for p in [2, 3, 17, 1024] {
            let shifts: Vec<usize> = (0..200).map(|r| round_shift(3, r, p)).collect();
            assert!(shifts.iter().all(|&k| (1..p).contains(&k)));
            if p > 2 {
                assert!(
                    shifts.iter().any(|&k| k != shifts[0]),
                    "the shift never changes for P={p}"
                );
            }
        }
    }
}
