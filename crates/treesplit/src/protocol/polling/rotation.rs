//! Theorem 2 of paper 002 on the shuffle-exchange, de Bruijn, butterfly and cube-connected
//! cycles networks: the hypercube algorithm run by the standard emulation of a normal
//! hypercube algorithm ([`super::embedding`]). In phase i a hypercube node lives on the PE
//! [`super::embedding::PhasePlan::host_label`] names (on shuffle-exchange and de Bruijn
//! node x on rotr^i(x), on butterfly and CCC node (c, w) on level c + i of row w); its
//! partner along the phase's dimension lives a constant number of hops away. Before each
//! phase every PE passes its pieces one edge on, to the next host (`Rotate` messages, then
//! an empty `Rotate` that closes the step), and asks its partner once its predecessor's
//! step has closed, so that the pieces it asks for are where the phase's hypercube node
//! lives. Each dimension step therefore costs a constant number of hops: "Neighborhood
//! polling and permutation routing takes a constant factor longer than on the hypercube"
//! (Theorem 2's proof).

use super::Polling;
use crate::piece::Piece;
use crate::protocol::{Message, PeId};

/// The rotation state of one PE.
#[derive(Debug, Default)]
pub(crate) struct Rotation {
    /// The phase of the cycle whose hosts this PE's pieces are on (0 after a permutation).
    hosted: u64,
    /// Rotation steps this PE has made, and the closing markers it has received.
    sent: u64,
    seen: u64,
    /// The phase whose request waits for the predecessor's step to close.
    pending: Option<u64>,
}

impl Rotation {
    /// The phase of the cycle whose hosts the pieces are on.
    pub(super) fn hosted(&self) -> u64 {
        self.hosted
    }

    /// A permutation puts every piece on its phase-0 host.
    pub(super) fn reset(&mut self) {
        self.hosted = 0;
    }
}

impl Polling {
    /// Phase `phase` of a cycle starts: ask the partner along its dimension when idle — on a
    /// rotating plan after moving the pieces to the phase's hosts.
    pub(super) fn ask_in_phase(&mut self, phase: u64) {
        let me = self.pe.me();
        let ps = self.shuffle.as_deref_mut().expect("poll-and-shuffle state");
        if !ps.plan.rotates() {
            let partner = ps.plan.partner(me, phase);
            if let Some(partner) = partner.filter(|_| self.may_ask()) {
                self.ask_pe(partner);
            }
            return;
        }
        if ps.rotation.hosted != phase {
            ps.rotation.hosted = phase;
            ps.rotation.sent += 1;
            let next = ps.plan.next_host(me);
            if next == me {
                // A fixed point of the rotation (all bits equal): its predecessor is itself.
                ps.rotation.seen += 1;
            } else {
                for piece in std::mem::take(&mut self.pieces) {
                    self.send_whole(next, piece, |task, generation, token| Message::Rotate {
                        piece: Some((task, generation, token)),
                    });
                }
                self.pe.send(next, Message::Rotate { piece: None });
            }
        }
        if let Some(ps) = self.shuffle.as_deref_mut() {
            ps.rotation.pending = Some(phase);
        }
        self.rotation_progress();
        self.advance_termination();
    }

    /// Ask the phase's partner once the predecessor's step has closed.
    fn rotation_progress(&mut self) {
        let me = self.pe.me();
        let ps = self.shuffle.as_deref_mut().expect("poll-and-shuffle state");
        let r = &mut ps.rotation;
        if r.seen < r.sent {
            return;
        }
        let Some(phase) = r.pending.take() else {
            return;
        };
        let partner = ps.plan.partner_in_phase(me, phase);
        if let Some(partner) = partner.filter(|_| self.may_ask()) {
            self.ask_pe(partner);
        }
    }

    /// A rotated piece arrived from the previous host (None: the step is closed).
    pub(super) fn receive_rotate(&mut self, from: PeId, piece: Option<(Piece, u32, u64)>) {
        match piece {
            Some((task, generation, token)) => {
                let record = self.pe.receive_piece(from, token);
                self.take_piece(task, generation, record);
                self.advance_termination();
            }
            None => {
                if let Some(ps) = self.shuffle.as_deref_mut() {
                    ps.rotation.seen += 1;
                }
                self.rotation_progress();
            }
        }
    }
}
