//! Poll-and-shuffle with local synchronization (paper 002 §6.3, Fig. 4): phases without a
//! global clock.
//!
//! §6.3: "We only need to make sure that requests are always exchanged between PEs in the same
//! phase." Each PE counts its own phases k = 0, 1, …; phase k's dimension is k mod d and its
//! partner me XOR 2^(k mod d). A PE **finishes** phase k when it is idle, or when it has done Δ
//! work units in it (`round`: work units here, not time); it then sends `Phase{k, idle}` to its
//! partner. Once it has both its own and its partner's marker of phase k, the pair exchanges
//! work as in Fig. 4: if exactly one of them was idle, that one has asked, and the other
//! answers at once — a split-off piece (`Work`) or a `Reject` (it may have run dry meanwhile) —
//! and the idle one waits for that answer before it moves on; otherwise nobody answers. Then
//! both enter phase k+1. While a busy PE waits for its partner's marker it keeps working on
//! its own subproblem (the paragraph after Fig. 4), so busy PEs never wait; idle PEs are
//! paced by their partners and can run at most about a cycle ahead of the slowest busy PE.
//!
//! Local synchronization always uses the hypercube numbering and all d = ⌈log₂ P⌉ dimensions,
//! whatever the network (the §4 embeddings shorten the cycle, and then a PE may have no
//! partner in any phase of it: an idle one would pass phases without end).
//!
//! After phase k with k+1 a multiple of d (a cycle's end) every PE moves its pieces to
//! π_n(me), the pseudorandom permutation n = cycle number that every PE computes alone (the
//! permutation by messages is a collective timed by rounds, so the configuration refuses
//! it), and ends them with a placeholder (`Scatter{n, None}`). Like Fig. 4's collective
//! step, the permutation synchronizes: a PE marks no further phase until the placeholder of
//! π_n⁻¹(me) has arrived, so the pieces it is to receive are in hand (FIFO per pair) before it
//! could call itself idle. (Without this, a PE could receive a piece after marking idle and
//! permute it on, unworked, at the next cycle end: on two PEs the pieces travelled back and
//! forth forever.) Adaptive, PE 0 decides at its own cycle ends and broadcasts `Shuffle{n}`; a PE permutes
//! when it arrives. Permuted pieces travel as `Scatter`, answers as `Work`, so an answer is
//! never confused with a permuted piece. No wall clock is read anywhere: the protocol has no
//! rounds, and the driver calls nothing but `step`, `work` and `receive`.
//!
//! A PE without a partner in phase k (me XOR 2^i ≥ P) finishes it alone. Markers are no work
//! messages: termination detection is unchanged (when all PEs are idle they keep passing
//! markers until `Finish` arrives). After an early stop or once finishing, PEs stop marking.

use super::Polling;
use crate::protocol::Message;

/// A PE's local phase state.
#[derive(Debug)]
pub(crate) struct LocalSync {
    /// Work units per phase of a busy PE (Δ).
    length: u64,
    /// The current phase k.
    phase: u64,
    /// Work units done in phase k.
    units: u64,
    /// Our marker of phase k, once sent: `Some(idle)`.
    marked: Option<bool>,
    /// Phase k is complete but we asked and wait for the partner's answer.
    answer_due: bool,
    /// Partners' markers not used yet: (phase, idle).
    early: Vec<(u64, bool)>,
    /// A permutation this PE has sent its pieces off in, whose incoming pieces (ended by
    /// a placeholder from π⁻¹(me)) have not all arrived: no phase is marked until they have.
    perm_wait: Option<u64>,
    /// Permutations whose incoming pieces have all arrived (placeholders received).
    perm_done: Vec<u64>,
}

impl LocalSync {
    /// The state of a PE at the start: phase 0, with phases of `length` work units.
    pub(crate) fn new(length: u64) -> Self {
        LocalSync {
            length: length.max(1),
            phase: 0,
            units: 0,
            marked: None,
            answer_due: false,
            early: Vec::new(),
            perm_wait: None,
            perm_done: Vec::new(),
        }
    }

    /// Permutation `n` was done here with a partner PE other than this one: wait for its
    /// placeholder before the next phase.
    pub(crate) fn permuted(&mut self, n: u64) {
        self.perm_wait = Some(n);
    }

    /// The placeholder ending permutation `n`'s pieces for this PE arrived.
    pub(crate) fn permutation_arrived(&mut self, n: u64) {
        self.perm_done.push(n);
    }

    /// A work slice of `units` ran in the current phase.
    pub(crate) fn worked(&mut self, units: u64) {
        self.units += units;
    }
}

impl Polling {
    fn local(&mut self) -> &mut LocalSync {
        self.shuffle
            .as_deref_mut()
            .and_then(|s| s.local.as_mut())
            .expect("a locally synchronized PE has its phase state")
    }

    /// A partner's marker arrived.
    pub(super) fn receive_phase(&mut self, phase: u64, idle: bool) {
        self.local().early.push((phase, idle));
    }

    /// Move through as many phases as the markers at hand allow (called from `step`, i.e.
    /// after every slice and every delivered message).
    pub(super) fn local_progress(&mut self) {
        let (me, p) = (self.pe.me(), self.pe.p());
        while p > 1 && !self.pe.is_finishing() && !self.pe.is_stopped() && !self.awaiting_root {
            let phase_now = self.local().phase;
            let ps = self.shuffle.as_deref().expect("poll-and-shuffle");
            // The network's embedding gives the partner (no partner: p, finish alone).
            let partner = ps.partner(me, phase_now % ps.dims()).unwrap_or(p);
            let idle = self.pieces.is_empty();
            let ls = self.local();
            if let Some(n) = ls.perm_wait {
                let Some(at) = ls.perm_done.iter().position(|&k| k == n) else {
                    return; // the permuted pieces for this PE are still on their way
                };
                ls.perm_done.swap_remove(at);
                ls.perm_wait = None;
            }
            let phase = ls.phase;
            if ls.answer_due {
                if self.awaiting_reply {
                    return;
                }
                self.local().answer_due = false;
                self.next_phase();
                continue;
            }
            let mine = match ls.marked {
                Some(mine) => mine,
                None => {
                    if !idle && ls.units < ls.length {
                        return; // keep working on this phase
                    }
                    if partner >= p {
                        self.next_phase();
                        continue;
                    }
                    ls.marked = Some(idle);
                    if idle {
                        self.pe.counters_mut().requests_sent += 1;
                    }
                    self.pe.send(partner, Message::Phase { phase, idle });
                    idle
                }
            };
            let ls = self.local();
            let Some(at) = ls.early.iter().position(|&(k, _)| k == phase) else {
                return; // wait for the partner (working, when busy)
            };
            let (_, theirs) = ls.early.swap_remove(at);
            match (mine, theirs) {
                (false, true) => self.answer_request(partner),
                (true, false) => {
                    self.awaiting_reply = true;
                    self.local().answer_due = true;
                    continue;
                }
                _ => {}
            }
            self.next_phase();
        }
    }

    /// Phase k is done here: enter k+1, permuting after a cycle's last phase.
    fn next_phase(&mut self) {
        let ps = self.shuffle.as_deref_mut().expect("poll-and-shuffle");
        let dims = ps.dims();
        let ls = ps.local.as_mut().expect("local synchronization");
        ls.phase += 1;
        ls.units = 0;
        ls.marked = None;
        let phase = ls.phase;
        ps.enter_phase(phase);
        if phase.is_multiple_of(dims) {
            let cycle = phase / dims - 1;
            if !ps.is_adaptive() {
                self.permute(cycle);
            } else if self.pe.me() == 0 && ps.wanted(phase) {
                let n = ps.next_permutation();
                self.pe.send_to_children(|| Message::Shuffle { n });
                self.permute(n);
            }
        }
        self.idle_note();
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{Balancer, Config, PermutationKind, PhaseSync};
    use crate::protocol::polling::testing::{pe as new_pe, units};
    use crate::protocol::polling::Polling;
    use crate::protocol::{Message, PeId, Protocol, Step};

    fn config(p: usize) -> Config {
        Config::new(p).balancer(Balancer::PollAndShuffle {
            polling: Default::default(),
            round: 100,
            permutation: PermutationKind::Pseudorandom,
            adaptive: None,
            sync: PhaseSync::Local,
            embedding: Default::default(),
        })
    }

    fn marker(phase: u64, idle: bool) -> Message {
        Message::Phase { phase, idle }
    }

    fn drain(pe: &mut Polling) -> Vec<(PeId, String)> {
        let mut out = Vec::new();
        while let Some((to, m)) = pe.poll_transmit() {
            let name = match m {
                Message::Phase { phase, idle } => format!("phase {phase} {idle}"),
                Message::Work { task, .. } => format!("work {}", units(&task)),
                Message::Reject => "reject".into(),
                other => format!("{other:?}")
                    .split([' ', '{', '('])
                    .next()
                    .unwrap()
                    .into(),
            };
            out.push((to, name));
        }
        out
    }

    /// An idle PE marks its phase at once and waits; it moves on only with its partner's
    /// marker, and after asking a busy partner only with the answer.
    #[test]
    fn idle_pe_waits_for_its_partner_and_the_answer() {
        let config = config(8);
        let mut pe = new_pe(5, &config, None);
        assert_eq!(pe.poll_timeout(), None, "no rounds: no clock");
        assert_eq!(pe.step(), Step::Wait);
        assert_eq!(drain(&mut pe), [(4, "phase 0 true".to_string())]);
        // Partner 4 was busy at its phase end: PE 5 asked and waits for the answer.
        pe.receive(4, marker(0, false));
        assert_eq!(pe.step(), Step::Wait);
        assert_eq!(drain(&mut pe), []);
        // An early marker of phase 1 (partner 7) waits until phase 1.
        pe.receive(7, marker(1, true));
        assert_eq!(pe.step(), Step::Wait);
        assert_eq!(drain(&mut pe), []);
        pe.receive(4, Message::Reject);
        assert_eq!(pe.step(), Step::Wait);
        // Phase 1 with 7 (both idle: no answer), then phase 2 with 1.
        assert_eq!(
            drain(&mut pe),
            [
                (7, "phase 1 true".to_string()),
                (1, "phase 2 true".to_string())
            ]
        );
    }

    /// A busy PE works through its phase, keeps working while its partner is behind, and
    /// answers an idle partner with a split-off piece.
    #[test]
    fn busy_pe_keeps_working_and_answers_its_idle_partner() {
        let config = config(2);
        let mut pe = new_pe(0, &config, Some(1000));
        assert!(matches!(pe.step(), Step::Work { .. }));
        assert_eq!(drain(&mut pe), []);
        pe.work(60, &crate::task::SharedIncumbent::new());
        assert!(matches!(pe.step(), Step::Work { .. }));
        assert_eq!(drain(&mut pe), [], "60 of 100 units: the phase goes on");
        pe.work(60, &crate::task::SharedIncumbent::new());
        assert!(matches!(pe.step(), Step::Work { .. }), "still working");
        assert_eq!(drain(&mut pe), [(1, "phase 0 false".to_string())]);
        pe.work(40, &crate::task::SharedIncumbent::new());
        pe.receive(1, marker(0, true));
        pe.step();
        // 1000 − 160 = 840 left: split in halves, 420 to PE 1. With d = 1 every phase ends a
        // cycle; the permutation of two PEs may keep or swap the pieces.
        let sent = drain(&mut pe);
        assert_eq!(sent[0], (1, "work 420".to_string()));
    }
}
