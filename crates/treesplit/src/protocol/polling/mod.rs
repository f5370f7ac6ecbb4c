//! Receiver-initiated polling (work stealing), Fig. 1 of paper 000, and its relatives.
//!
//! PE 0 starts with the root task, all others idle. A busy PE works in slices of Δt units
//! and between slices answers the requests that reached it: it splits its piece and sends
//! one part to the requester, or rejects when the piece is atomic. An idle PE sends one
//! request at a time and rejects the requests that reach it meanwhile; a rejection makes it
//! ask again. The balancers differ only in whom an idle PE asks and when:
//!
//! - [`victim`]: random polling, neighbour polling and global round robin, which ask as soon
//!   as a PE is idle;
//! - [`random_shift`]: asks only when a round starts, PE (i + k_r) mod P;
//! - [`poll_and_shuffle`]: asks the hypercube partner of the current *phase* and permutes all
//!   pieces after each *cycle* of phases ([`shuffle`]: the permutation by messages;
//!   [`local_sync`]: phases by partners' markers instead of a clock).
//!
//! [`fast_init`] is the optional start that broadcasts the root instead of letting the
//! idle PEs steal it piece by piece; [`permuted_init`] the one that starts from the static
//! decomposition placed through a pseudorandom permutation (paper 004 §5.1). What every PE does regardless of its balancer (messages,
//! counters, termination, early stop, the progress rule) is [`PeCore`].

pub mod embedding;
pub(crate) mod fast_init;
pub(crate) mod generators;
pub(crate) mod local_sync;
pub(crate) mod permuted_init;
pub(crate) mod poll_and_shuffle;
pub(crate) mod random_shift;
pub(crate) mod rotation;
pub(crate) mod shuffle;
#[cfg(test)]
mod shuffle_tests;
#[cfg(test)]
mod testing;
pub(crate) mod victim;

pub(crate) use victim::pe_rng;

use super::pe::{PeCore, SliceEnd};
use super::{Message, PeId, Protocol, ProtocolStats, Step};
use crate::config::{Balancer, Config};
use crate::piece::{Fresh, Piece};
use crate::task::Incumbent;
use poll_and_shuffle::PollAndShuffle;
use rand_xoshiro::Xoshiro256PlusPlus;
use smallvec::SmallVec;
use victim::VictimRule;

/// A piece held by this PE: a task, its generation (splits since the root) and the
/// termination record it is kept under.
#[derive(Debug)]
pub(crate) struct Held {
    task: Piece,
    generation: u32,
    record: u64,
}

/// Trimming (paper 000 §4): serve at most `limit` requests by splitting between two work
/// slices; reject the rest at once, so that their senders ask elsewhere instead of queueing
/// behind a hard-to-split task.
#[derive(Debug, Default)]
struct Trim {
    limit: Option<u32>,
    /// Requests served since the last work slice.
    served: u32,
}

impl Trim {
    fn exhausted(&self) -> bool {
        self.limit.is_some_and(|limit| self.served >= limit)
    }
}

/// The polling state machine of one PE. (`repr(C)`: what a work slice touches comes first,
/// then the shared core, whose hot fields come first too.)
#[repr(C)]
pub(crate) struct Polling {
    /// The pieces this PE holds; it works on the last. Only poll-and-shuffle ever holds more
    /// than one (a permuted piece and a late answer may arrive together), so one is held
    /// inline, in the PE's own state.
    pieces: SmallVec<[Held; 1]>,
    trim: Trim,
    pe: PeCore,
    rule: VictimRule,
    rng: Xoshiro256PlusPlus,
    /// The run's seed (random shift and the pseudorandom permutation derive from it).
    seed: u64,
    /// A request of ours is on its way or being answered.
    awaiting_reply: bool,
    /// Fast or permuted initialization: the copy of the root has not arrived yet (no requests
    /// until then, or the root and an answer could both bring work).
    awaiting_root: bool,
    /// Permuted initialization: the record of the root copy the initial jobs were cut from
    /// and how many of them are not finished yet (the record is finished with the last).
    shared: Option<(u64, usize)>,
    /// Permuted initialization, where asked for.
    permuted_init: Option<crate::config::PermutedInit>,
    /// Poll-and-shuffle's phases, cycles and permutations (None for the other balancers).
    shuffle: Option<Box<PollAndShuffle>>,
    /// Round-based rules (random shift, poll-and-shuffle with a global clock): the round
    /// length in ticks (0: no rounds) and the next round to start. Round 0 starts at tick 0.
    round_ticks: u64,
    next_round: u64,
}

impl Polling {
    /// PE `me` of the configured run, on the machine `env` describes (poll-and-shuffle plans
    /// its phases for its network and sizes its permutation by its latency) with
    /// `round_ticks` ticks per unit of `Config::round`; PE 0 passes the root task. The
    /// victim rule follows `config.balancer`; `fresh` makes the run's result accumulators.
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &super::Env,
        round_ticks: u64,
        fresh: Fresh,
        root: Option<Piece>,
    ) -> Self {
        let p = config.pes;
        let root = root.filter(|t| !t.is_empty());
        let options = *config
            .balancer
            .polling()
            .expect("a polling balancer has polling options");
        let fast_init = (options.fast_init || options.permuted_init.is_some()) && p > 1;
        let rule = match (
            VictimRule::new(me, config, env.network),
            env.adversary.fixed_victim,
        ) {
            // The fixed-victim adversary: every other PE asks that one.
            (VictimRule::Random, Some(victim)) if victim != me => {
                VictimRule::Neighbour(vec![victim])
            }
            (rule, _) => rule,
        };
        let round_length = rule
            .round_length()
            .map(|round| round.saturating_mul(round_ticks).max(1));
        let shuffle = matches!(config.balancer, Balancer::PollAndShuffle { .. })
            .then(|| Box::new(PollAndShuffle::new(me, config, env, round_length)));
        // Local synchronization counts its phases without a clock: no rounds.
        let local = shuffle.as_ref().is_some_and(|s| s.local.is_some());
        let round_ticks = match round_length {
            Some(length) if !local => length,
            _ => 0,
        };
        let mut pe = Polling {
            pe: PeCore::new(me, config, env, fresh, root.is_some()),
            pieces: SmallVec::new(),
            rule,
            rng: pe_rng(config.seed, me),
            seed: config.seed,
            trim: Trim {
                limit: options.trim,
                served: 0,
            },
            awaiting_reply: false,
            awaiting_root: fast_init && me != 0,
            shared: None,
            permuted_init: options.permuted_init,
            shuffle,
            round_ticks,
            next_round: 0,
        };
        if let Some(root) = root {
            if fast_init {
                // Exercise 14.7 of paper 001 (or paper 004 §5.1): PE 0 broadcasts the root
                // down the binary tree.
                pe.init_from_root(root, PeCore::ROOT_RECORD);
            } else {
                pe.pieces.push(Held {
                    task: root,
                    generation: 0,
                    record: PeCore::ROOT_RECORD,
                });
            }
        }
        pe
    }

    /// True when this PE may send a request now: idle, no request or root copy outstanding,
    /// not stopped, and the end not known.
    fn may_ask(&self) -> bool {
        self.pieces.is_empty()
            && !self.awaiting_reply
            && !self.awaiting_root
            && self.pe.p() > 1
            && !self.pe.is_stopped()
            && !self.pe.is_finishing()
    }

    /// Ask `victim` for work; the answer is awaited before asking again.
    fn ask_pe(&mut self, victim: PeId) {
        self.awaiting_reply = true;
        self.request(victim);
    }

    fn request(&mut self, victim: PeId) {
        self.pe.counters_mut().requests_sent += 1;
        self.pe.send(victim, Message::Request);
    }

    /// Poll-and-shuffle under local synchronization (§6.3)?
    fn is_local(&self) -> bool {
        self.shuffle.as_ref().is_some_and(|s| s.local.is_some())
    }

    /// Idle for termination detection: no piece held and none waiting for its placement.
    fn idle(&self) -> bool {
        self.pieces.is_empty() && !self.shuffle.as_ref().is_some_and(|s| s.holds_work())
    }

    fn advance_termination(&mut self) {
        let idle = self.idle();
        self.pe.advance_termination(idle);
    }

    /// Answer a request from `from`: give a piece (split off, or a whole one when holding
    /// several), or reject.
    fn answer_request(&mut self, from: PeId) {
        self.pe.counters_mut().requests_received += 1;
        if self.pe.is_finishing() {
            // Everyone is idle and finishing; the requester needs no answer.
            return;
        }
        if self.pe.is_stopped() || self.trim.exhausted() {
            self.reject(from);
        } else if self.pieces.len() > 1 {
            // Holding more than one piece: hand over a whole one, no split needed.
            self.trim.served += 1;
            let piece = self.pieces.remove(0);
            self.pe.note_generation(piece.generation);
            self.move_piece(from, piece);
        } else {
            let Some(piece) = self.pieces.last_mut() else {
                return self.reject(from);
            };
            let Some(task) = piece.task.split().filter(|part| !part.is_empty()) else {
                return self.reject(from);
            };
            self.pe.generation_ended(piece.generation);
            piece.generation += 1;
            let (generation, record) = (piece.generation, piece.record);
            let now_empty = piece.task.is_empty();
            self.trim.served += 1;
            self.pe.count_splits(1);
            self.pe.note_generation(generation);
            self.pe.send_piece(from, record, |token| Message::Work {
                task,
                generation,
                token,
            });
            if now_empty {
                self.pieces.pop();
                self.finish_held(record);
                self.idle_note();
            }
        }
    }

    fn reject(&mut self, to: PeId) {
        self.pe.counters_mut().rejections_sent += 1;
        self.pe.send(to, Message::Reject);
    }

    /// Keep a piece that arrived or was split off locally (an empty one, or any after an
    /// early stop, is done at once).
    fn take_piece(&mut self, task: Piece, generation: u32, record: u64) {
        self.pe.note_generation(generation);
        let piece = Held {
            task,
            generation,
            record,
        };
        if piece.task.is_empty() || self.pe.is_stopped() {
            self.keep_held(piece);
        } else {
            self.pieces.push(piece);
        }
    }

    /// A piece this PE will not work on (empty, or the run stopped): its generation ends, the
    /// PE keeps it for the run's remaining pieces, and its record is finished.
    fn keep_held(&mut self, piece: Held) {
        self.pe.generation_ended(piece.generation);
        self.pe.keep(piece.task);
        self.finish_held(piece.record);
    }

    /// The own work of a held piece of record `record` is done: the record is finished, or,
    /// for the initial jobs of a permuted initialization, which share their root copy's
    /// record, once the last of them is.
    fn finish_held(&mut self, record: u64) {
        if let Some((shared, left)) = &mut self.shared {
            if *shared == record {
                *left -= 1;
                if *left > 0 {
                    return;
                }
                self.shared = None;
            }
        }
        self.pe.finish_piece(record);
    }

    /// Send a whole piece to PE `to` as `Work`.
    fn move_piece(&mut self, to: PeId, piece: Held) {
        self.send_whole(to, piece, |task, generation, token| Message::Work {
            task,
            generation,
            token,
        });
    }

    /// Send a whole piece to PE `to` in the message `message(task, generation, token)` builds:
    /// it leaves this PE's records as given away.
    fn send_whole(
        &mut self,
        to: PeId,
        piece: Held,
        message: impl FnOnce(Piece, u32, u64) -> Message,
    ) {
        let record = piece.record;
        self.pe.send_piece(to, record, |token| {
            message(piece.task, piece.generation, token)
        });
        self.finish_held(record);
    }

    /// Early stop (from `from`, or found here): pass it on over the tree of PEs once, and drop
    /// every piece held (each finished for termination detection).
    fn begin_stop(&mut self, from: Option<PeId>) {
        if !self.pe.begin_stop(from) {
            return;
        }
        self.awaiting_root = false;
        let waiting = self
            .shuffle
            .as_deref_mut()
            .map(|ps| ps.shuffler.take_waiting())
            .unwrap_or_default();
        for piece in std::mem::take(&mut self.pieces).into_iter().chain(waiting) {
            self.keep_held(piece);
        }
        self.advance_termination();
    }
}

impl crate::protocol::NewPe for Polling {
    fn new_pe(s: crate::protocol::PeStart<'_>) -> Self {
        Polling::new(s.me, s.config, s.env, s.round_ticks, s.fresh, s.root)
    }
}

impl Protocol for Polling {
    fn step(&mut self) -> Step {
        if self.is_local() {
            self.local_progress();
        }
        if !self.pieces.is_empty() {
            return self.pe.step_busy();
        }
        if self.may_ask() {
            self.ask();
        }
        let idle = self.idle();
        self.pe.step(false, idle)
    }

    fn work(&mut self, budget: u64, incumbent: &dyn Incumbent) -> u64 {
        let Some(piece) = self.pieces.last_mut() else {
            return 0;
        };
        self.trim.served = 0;
        let slice = self.pe.work_on(&mut piece.task, budget, incumbent);
        if let Some(local) = self.shuffle.as_deref_mut().and_then(|s| s.local.as_mut()) {
            local.worked(slice.units);
        }
        match slice.end {
            SliceEnd::Stop => self.begin_stop(None),
            SliceEnd::Emptied => {
                let piece = self.pieces.pop().expect("the piece worked on");
                self.pe.generation_ended(piece.generation);
                self.finish_held(piece.record);
                self.idle_note();
                self.advance_termination();
            }
            SliceEnd::More => {}
        }
        slice.units
    }

    fn stop(&mut self, from: Option<PeId>) {
        self.begin_stop(from);
    }

    fn is_idle(&self) -> bool {
        self.idle()
    }

    fn plain_task(&mut self) -> Option<(&mut PeCore, &mut Piece)> {
        // Poll-and-shuffle may hold several pieces and permutes them; it never runs ahead. Nor
        // does a PE holding the several jobs of a permuted initialization.
        if self.shuffle.is_some() || self.pe.is_stopped() || self.pieces.len() > 1 {
            return None;
        }
        let piece = self.pieces.last_mut()?;
        Some((&mut self.pe, &mut piece.task))
    }

    fn receive(&mut self, from: PeId, message: Message) {
        match message {
            Message::Request => self.answer_request(from),
            Message::Reject => {
                self.pe.counters_mut().rejections_received += 1;
                self.awaiting_reply = false;
            }
            Message::Work {
                task,
                generation,
                token,
            } => {
                self.awaiting_reply = false;
                assert!(
                    self.pieces.is_empty() || self.shuffle.is_some(),
                    "PE {}: work arrived while busy",
                    self.pe.me()
                );
                let record = self.pe.receive_piece(from, token);
                self.take_piece(task, generation, record);
                self.advance_termination();
            }
            Message::Root { task, token } => {
                self.awaiting_root = false;
                let record = self.pe.receive_piece(from, token);
                self.init_from_root(task, record);
                self.advance_termination();
            }
            Message::Counter | Message::Victim(_) => self.receive_victim(from, message),
            Message::Phase { phase, idle } => self.receive_phase(phase, idle),
            Message::IdleNote { .. }
            | Message::Shuffle { .. }
            | Message::Scatter { .. }
            | Message::Shuffling(_)
            | Message::Permuted { .. } => self.receive_shuffle(from, message),
            Message::Rotate { piece } => {
                if self.pe.is_finishing() {
                    assert!(
                        piece.is_none(),
                        "PE {}: work arrived after termination",
                        self.pe.me()
                    );
                    return;
                }
                self.receive_rotate(from, piece)
            }
            Message::Bundle { .. }
            | Message::Scan(_)
            | Message::NextJob(_)
            | Message::DagTasks { .. }
            | Message::DagDone { .. } => {
                panic!(
                    "PE {}: a static balancer's message reached a polling PE",
                    self.pe.me()
                )
            }
            Message::Stop | Message::Termination(_) => {
                unreachable!("the core's messages are handled by Protocol::handle")
            }
        }
    }

    fn core(&self) -> &PeCore {
        &self.pe
    }

    fn core_mut(&mut self) -> &mut PeCore {
        &mut self.pe
    }

    fn is_busy(&self) -> bool {
        !self.pieces.is_empty()
    }

    fn poll_timeout(&self) -> Option<u64> {
        (self.round_ticks > 0).then(|| self.next_round.saturating_mul(self.round_ticks))
    }

    /// Start every round due by tick `now`, in order: the synchronous rules (the permutation
    /// rounds of poll-and-shuffle) must not miss one, even after a long slice.
    fn handle_timeout(&mut self, now: u64) {
        if self.round_ticks == 0 {
            return;
        }
        let due = now / self.round_ticks;
        while self.next_round <= due {
            self.start_round(self.next_round);
            self.next_round += 1;
        }
    }

    fn stats(&self) -> ProtocolStats {
        ProtocolStats {
            counters: self.pe.counters().clone(),
            phases: self.shuffle.as_ref().and_then(|s| s.stats()),
        }
    }
}

impl Polling {
    /// Round `round` starts (round-based rules; [`Protocol::handle_timeout`] starts them).
    pub(crate) fn start_round(&mut self, round: u64) {
        if let Some(shuffle) = &mut self.shuffle {
            shuffle.on_round(round);
        }
        if self.pe.p() == 1 || self.pe.is_finishing() || self.pe.is_stopped() {
            return;
        }
        match self.rule {
            VictimRule::PollAndShuffle { .. } => self.poll_and_shuffle_round(round),
            VictimRule::RandomShift { .. } => self.random_shift_round(round),
            _ => {}
        }
    }
}
