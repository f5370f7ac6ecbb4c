//! Four-counter (double counting) termination detection and the final result reduction.
//!
//! Paper 000 §2 and paper 001 §14.5.3: every PE counts the work messages it has sent and
//! received. PE 0 repeatedly runs an asynchronous reduction of these two counts over the
//! network's reduction tree of PEs (`tree::ReductionTree`: the binomial tree, PE i's parent i
//! without its lowest set bit, or on the hypercubic networks a shortest-path tree). A wave
//! starts with `WaveStart` sent down the tree; a PE adds its counts to those of its children
//! and sends `WaveUp` to its parent once it has the children's reports *and is idle*. When two
//! consecutive waves give the same sums and sent = received, no work is left anywhere, not even
//! in transit:
//!
//! Wave k+1 starts only after wave k completed at PE 0, so every PE's wave-k report precedes
//! every wave-(k+1) report. Counters only grow, so equal sums mean that no PE sent or
//! received work between its two reports; it was idle at both and could only have become
//! busy by receiving work, so it was idle throughout. At the moment wave k completed, every
//! PE was inside that interval: all idle, and sent = received means nothing in transit.
//!
//! PE 0 then sends `Finish` down the tree, and results flow back up as `Result` messages,
//! merged at each PE, so PE 0 ends with the result of the whole run. Detection costs
//! O(T_rout · log P) after the last PE becomes idle.
//!
//! Why not the binary tree of PE numbers: the binomial tree's depth is ⌈log₂ P⌉ like the binary
//! tree's, but every edge joins two PEs whose numbers differ in one bit, so on a hypercube each
//! wave message crosses one link, where an edge i → 2i+1 of the binary tree crosses up to log₂
//! P. It is also the one-port model's fastest broadcast and reduction tree (a PE sends to its
//! largest subtree first), which matters under paper 000's blocking messages, where each send
//! costs T_send.
//!
//! This is a component of its own: balancers feed it their counts and idleness and forward
//! its signals; they hold no termination logic themselves.

use super::{Local, Signal};
use crate::piece::{Fresh, Yield};
use crate::protocol::tree::ReductionTree;
use crate::protocol::PeId;
use crate::small_queue::SmallQueue;

#[derive(Debug)]
enum Phase {
    /// Running reduction waves.
    Detecting,
    /// `Finish` seen: collecting children's results.
    Collecting { results: usize, acc: Yield },
    /// Result sent to the parent (PE 0: result ready).
    Done,
}

/// The four-counter protocol state of one PE.
#[derive(Debug)]
pub(crate) struct FourCounter {
    fresh: Fresh,
    me: PeId,
    p: usize,
    tree: ReductionTree,
    n_children: usize,
    wave: u64,
    started: bool,
    contributed: bool,
    reports: usize,
    acc: (u64, u64),
    previous: Option<(u64, u64)>,
    waves_completed: u64,
    phase: Phase,
    result: Option<Yield>,
    out: SmallQueue<(PeId, Signal), 1>,
}

impl FourCounter {
    /// The state of PE `me` of `p`, whose results `fresh` makes, with waves over `tree`.
    /// PE 0 starts the first wave at once.
    pub(crate) fn new(me: PeId, p: usize, tree: ReductionTree, fresh: Fresh) -> Self {
        assert!(me < p, "PE {me} out of range for P = {p}");
        let n_children = tree.children(me, p).len();
        let mut fc = FourCounter {
            fresh,
            me,
            p,
            tree,
            n_children,
            wave: 0,
            started: false,
            contributed: false,
            reports: 0,
            acc: (0, 0),
            previous: None,
            waves_completed: 0,
            phase: Phase::Detecting,
            result: None,
            out: SmallQueue::new(),
        };
        if me == 0 {
            fc.start_wave(1);
        }
        fc
    }

    /// The children in the tree, the deepest subtree first (the order a broadcast sends in).
    fn children(&self) -> Vec<PeId> {
        self.tree.children(self.me, self.p)
    }

    fn parent(&self) -> PeId {
        self.tree
            .parent(self.me)
            .expect("only PEs other than 0 report to a parent")
    }

    fn start_wave(&mut self, wave: u64) {
        self.wave = wave;
        self.started = true;
        self.contributed = false;
        self.reports = 0;
        self.acc = (0, 0);
        let children = self.children();
        for c in children {
            self.out.push_back((c, Signal::WaveStart { wave }));
        }
    }

    /// Termination is known: pass `Finish` down the tree and start collecting results.
    fn begin_finish(&mut self) {
        let children = self.children();
        for c in children {
            self.out.push_back((c, Signal::Finish));
        }
        self.phase = Phase::Collecting {
            results: 0,
            acc: self.fresh.make(),
        };
    }

    /// Handle a termination signal from PE `from`, then make what progress is possible.
    pub(crate) fn receive(&mut self, from: PeId, signal: Signal, local: Local, output: &mut Yield) {
        match signal {
            Signal::WaveStart { wave } => {
                assert_eq!(
                    wave,
                    self.wave + 1,
                    "PE {}: wave {wave} out of order",
                    self.me
                );
                self.start_wave(wave);
            }
            Signal::WaveUp {
                wave,
                sent,
                received,
            } => {
                assert!(
                    wave == self.wave && self.started && !self.contributed,
                    "PE {}: unexpected report of wave {wave} from PE {from}",
                    self.me
                );
                self.reports += 1;
                self.acc.0 += sent;
                self.acc.1 += received;
            }
            Signal::Finish => {
                assert!(
                    local.idle,
                    "PE {}: termination declared while this PE still holds work",
                    self.me
                );
                self.begin_finish();
            }
            Signal::Response { .. } => panic!(
                "PE {}: response-tree signal under four-counter termination",
                self.me
            ),
            Signal::Result { output: child } => match &mut self.phase {
                Phase::Collecting { results, acc } => {
                    *results += 1;
                    acc.merge(child);
                }
                _ => panic!("PE {}: result from PE {from} before Finish", self.me),
            },
        }
        self.advance(local, output);
    }

    /// Make what progress is possible given the local state (call whenever the PE is idle).
    pub(crate) fn advance(&mut self, local: Local, output: &mut Yield) {
        let n_children = self.n_children;
        loop {
            match &mut self.phase {
                Phase::Done => return,
                Phase::Collecting { results, acc } => {
                    if *results < n_children {
                        return;
                    }
                    let mut total = std::mem::replace(acc, self.fresh.make());
                    total.merge(std::mem::replace(output, self.fresh.make()));
                    if self.me == 0 {
                        self.result = Some(total);
                    } else {
                        let parent = self.parent();
                        self.out
                            .push_back((parent, Signal::Result { output: total }));
                    }
                    self.phase = Phase::Done;
                    return;
                }
                Phase::Detecting => {
                    if !(self.started
                        && !self.contributed
                        && local.idle
                        && self.reports == n_children)
                    {
                        return;
                    }
                    let sums = (self.acc.0 + local.sent, self.acc.1 + local.received);
                    self.contributed = true;
                    if self.me != 0 {
                        let parent = self.parent();
                        let (sent, received) = sums;
                        self.out.push_back((
                            parent,
                            Signal::WaveUp {
                                wave: self.wave,
                                sent,
                                received,
                            },
                        ));
                        return;
                    }
                    // PE 0: a wave is complete.
                    self.waves_completed += 1;
                    if self.previous == Some(sums) && sums.0 == sums.1 {
                        self.begin_finish();
                    } else {
                        self.previous = Some(sums);
                        let next = self.wave + 1;
                        self.start_wave(next);
                    }
                }
            }
        }
    }

    /// The next signal to send, if any.
    pub(crate) fn poll_transmit(&mut self) -> Option<(PeId, Signal)> {
        self.out.pop_front()
    }

    /// True once `Finish` has been seen: no more work requests should be made.
    pub(crate) fn is_finishing(&self) -> bool {
        !matches!(self.phase, Phase::Detecting)
    }

    /// True when this PE's part of the run is over.
    pub(crate) fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// PE 0: the merged result of the run, once done.
    pub(crate) fn take_result(&mut self) -> Option<Yield> {
        self.result.take()
    }

    /// PE 0: reduction waves completed so far.
    #[cfg(test)]
    pub(crate) fn waves_completed(&self) -> u64 {
        self.waves_completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    fn result(pe: &mut FourCounter) -> Option<u64> {
        pe.take_result().map(Yield::into_typed)
    }

    /// A hand-driven network of `p` PEs running only termination detection; `busy` marks
    /// PEs holding work and `counts` their (sent, received) work messages.
    struct Net {
        pes: Vec<FourCounter>,
        outputs: Vec<Yield>,
        busy: Vec<bool>,
        counts: Vec<(u64, u64)>,
        queue: VecDeque<(PeId, PeId, Signal)>,
    }

    impl Net {
        fn new(p: usize) -> Self {
            let mut net = Net {
                pes: (0..p)
                    .map(|i| FourCounter::new(i, p, ReductionTree::Binomial, Fresh::of::<u64>()))
                    .collect(),
                outputs: (0..p as u64).map(|i| Yield::new(i + 1)).collect(),
                busy: vec![false; p],
                counts: vec![(0, 0); p],
                queue: VecDeque::new(),
            };
            net.busy[0] = true;
            net.collect();
            net
        }
        fn local(&self, i: PeId) -> Local {
            Local {
                idle: !self.busy[i],
                sent: self.counts[i].0,
                received: self.counts[i].1,
            }
        }
        fn collect(&mut self) {
            for i in 0..self.pes.len() {
                let local = self.local(i);
                if local.idle {
                    self.pes[i].advance(local, &mut self.outputs[i]);
                }
                while let Some((to, s)) = self.pes[i].poll_transmit() {
                    self.queue.push_back((i, to, s));
                }
            }
        }
        /// Deliver queued signals (and those they cause), at most 10,000: while work is in
        /// transit and everyone is idle, waves repeat without end, as they should.
        fn settle(&mut self) {
            for _ in 0..10_000 {
                let Some((from, to, s)) = self.queue.pop_front() else {
                    return;
                };
                let local = self.local(to);
                self.pes[to].receive(from, s, local, &mut self.outputs[to]);
                self.collect();
            }
        }
    }

    #[test]
    fn single_pe_terminates_when_idle() {
        let mut net = Net::new(1);
        assert!(!net.pes[0].is_done());
        net.busy[0] = false;
        net.collect();
        assert!(net.pes[0].is_done());
        assert_eq!(result(&mut net.pes[0]), Some(1));
    }

    #[test]
    fn no_termination_while_work_in_transit() {
        for p in [2, 3, 7, 16] {
            let mut net = Net::new(p);
            net.settle();
            // PE 0 sends a piece to PE p-1 and goes idle; the piece is "in transit".
            net.counts[0].0 += 1;
            net.busy[0] = false;
            net.collect();
            net.settle();
            assert!(
                net.pes.iter().all(|pe| !pe.is_finishing()),
                "P={p}: declared with work in flight"
            );
            // The piece arrives, is worked on, and PE p-1 goes idle again.
            net.counts[p - 1].1 += 1;
            net.busy[p - 1] = true;
            net.settle();
            assert!(!net.pes[0].is_finishing());
            net.busy[p - 1] = false;
            net.collect();
            net.settle();
            assert!(
                net.pes.iter().all(|pe| pe.is_done()),
                "P={p}: did not terminate"
            );
            let expected: u64 = (1..=p as u64).sum();
            assert_eq!(result(&mut net.pes[0]), Some(expected));
        }
    }

    #[test]
    fn busy_pe_blocks_every_wave() {
        let mut net = Net::new(5);
        net.busy[0] = false;
        net.busy[3] = true;
        net.collect();
        net.settle();
        assert!(!net.pes[0].is_finishing());
        assert_eq!(net.pes[0].waves_completed(), 0);
        net.busy[3] = false;
        net.collect();
        net.settle();
        assert!(net.pes[0].is_done());
        assert_eq!(net.pes[0].waves_completed(), 2);
    }
}
