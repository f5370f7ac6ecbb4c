//! Termination detection, one component beside the balancers: the balancers report what
//! happens to their pieces of work and forward the component's signals; they hold no
//! termination logic themselves. Two protocols (`Config::termination`):
//!
//! - [`four_counter`]: double counting of work messages over reduction waves (paper 000 §2,
//!   paper 001 §14.5.3), then a result reduction, both over the binomial tree of PEs;
//! - [`response_tree`]: every received piece reports back to the PE it came from once it and
//!   everything split off from it are done, carrying the results (paper 001 §14.5.3); PE 0
//!   then broadcasts the end.

pub(crate) mod four_counter;
pub(crate) mod response_tree;

pub(crate) use four_counter::FourCounter;
pub(crate) use response_tree::ResponseTree;

use crate::config::TerminationKind;
use crate::piece::{Fresh, Yield};
use crate::protocol::tree::ReductionTree;
use crate::protocol::PeId;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};

/// Messages of termination detection and result collection (both protocols).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Signal {
    /// Four-counter: PE 0 starts reduction wave `wave`; forwarded down the tree.
    WaveStart {
        /// Wave number, from 1.
        wave: u64,
    },
    /// Four-counter: a subtree's summed counts for wave `wave`, sent to the parent.
    WaveUp {
        /// Wave number.
        wave: u64,
        /// Work messages sent in the subtree.
        sent: u64,
        /// Work messages received in the subtree.
        received: u64,
    },
    /// Global termination is known; forwarded down the termination protocol's tree of PEs.
    Finish,
    /// Four-counter: a subtree's merged result, sent to the parent after `Finish`.
    Result {
        /// The merged outcome of the subtree.
        output: Yield,
    },
    /// Response tree: the piece the receiver sent with token `record`, and everything split
    /// off from it, is done; here is its result.
    Response {
        /// The token the piece was sent with (the sender's record of it).
        record: u64,
        /// The merged outcome of that piece and its descendants.
        output: Yield,
    },
}

/// What termination detection needs to know of the local PE.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Local {
    /// The PE holds no task.
    pub idle: bool,
    /// Work messages this PE has sent.
    pub sent: u64,
    /// Work messages this PE has received.
    pub received: u64,
}

/// The termination protocol of one PE.
#[derive(Debug)]
pub(crate) enum Termination {
    /// Four-counter waves.
    FourCounter(FourCounter),
    /// Response tree.
    ResponseTree(ResponseTree),
}

impl Termination {
    /// The protocol state of PE `me` of `p` on `network` (None: threads, MPI); `chain`: the
    /// four-counter waves run along the chain of PEs (the simulator's adversary) instead of
    /// the network's tree; `holds_root` on the PE that starts with work; `fresh` makes the
    /// run's result accumulators.
    pub(crate) fn new(
        kind: TerminationKind,
        me: PeId,
        p: usize,
        network: Option<Topology>,
        chain: bool,
        holds_root: bool,
        fresh: Fresh,
    ) -> Self {
        match kind {
            TerminationKind::FourCounter => Termination::FourCounter(FourCounter::new(
                me,
                p,
                if chain {
                    ReductionTree::chain(p)
                } else {
                    ReductionTree::of(network, p)
                },
                fresh,
            )),
            TerminationKind::ResponseTree => {
                Termination::ResponseTree(ResponseTree::new(me, p, holds_root, fresh))
            }
        }
    }

    /// Make what progress is possible given the local state (call whenever the PE is idle).
    pub(crate) fn advance(&mut self, local: Local, output: &mut Yield) {
        if let Termination::FourCounter(t) = self {
            t.advance(local, output);
        }
    }

    /// Handle a signal from PE `from`.
    pub(crate) fn receive(&mut self, from: PeId, signal: Signal, local: Local, output: &mut Yield) {
        match self {
            Termination::FourCounter(t) => t.receive(from, signal, local, output),
            Termination::ResponseTree(t) => t.receive(from, signal, local, output),
        }
    }

    /// The record of the root piece on the PE that holds it.
    pub(crate) const ROOT_RECORD: u64 = response_tree::ROOT;

    /// A piece split off the piece kept under `record` is about to be sent; returns the token
    /// it travels with (the response tree's return address; unused by four-counter).
    pub(crate) fn on_piece_sent(&mut self, record: u64) -> u64 {
        match self {
            Termination::FourCounter(_) => 0,
            Termination::ResponseTree(t) => t.on_piece_sent(record),
        }
    }

    /// A piece sent with `token` arrived from PE `from`; returns the record to keep it under.
    pub(crate) fn on_piece_received(&mut self, from: PeId, token: u64) -> u64 {
        match self {
            Termination::FourCounter(_) => 0,
            Termination::ResponseTree(t) => t.on_piece_received(from, token),
        }
    }

    /// The piece kept under `record` has been worked to the end (or given away entirely).
    pub(crate) fn on_piece_finished(&mut self, record: u64, output: &mut Yield) {
        if let Termination::ResponseTree(t) = self {
            t.on_piece_finished(record, output);
        }
    }

    /// The next signal to send, if any.
    pub(crate) fn poll_transmit(&mut self) -> Option<(PeId, Signal)> {
        match self {
            Termination::FourCounter(t) => t.poll_transmit(),
            Termination::ResponseTree(t) => t.poll_transmit(),
        }
    }

    /// True once the end is known: no more work requests should be made or answered.
    pub(crate) fn is_finishing(&self) -> bool {
        match self {
            Termination::FourCounter(t) => t.is_finishing(),
            Termination::ResponseTree(t) => t.is_finishing(),
        }
    }

    /// True when this PE's part of the run is over.
    pub(crate) fn is_done(&self) -> bool {
        match self {
            Termination::FourCounter(t) => t.is_done(),
            Termination::ResponseTree(t) => t.is_done(),
        }
    }

    /// PE 0: the merged result of the run, once done.
    pub(crate) fn take_result(&mut self) -> Option<Yield> {
        match self {
            Termination::FourCounter(t) => t.take_result(),
            Termination::ResponseTree(t) => t.take_result(),
        }
    }
}
