//! Response-tree termination (paper 001 §14.5.3).
//!
//! A PE keeps a *record* for every piece of work it received (PE 0: for the root): who sent
//! it and with which token, how many pieces have been split off it and not yet reported
//! done (`outstanding`), whether its own remaining work is done, and the results its
//! descendants reported. A piece split off and sent away carries the sender's record id as
//! its token. When a record's own work is done and nothing is outstanding, the PE sends a
//! `Response` with the record's results (its descendants' and whatever the PE's accumulator
//! holds) to the PE the piece came from. When PE 0's root record completes, all work is
//! done and PE 0 holds the whole result; it broadcasts `Finish` down the binary tree of PEs.
//!
//! The responses mirror the pieces sent, so the protocol costs one message per piece;
//! detection ends one response chain after the last piece finishes, plus the O(log P)
//! broadcast. Results travel with the responses (every unit of output is taken from a PE's
//! accumulator exactly once, and merging is associative and commutative).

use super::{Local, Signal};
use crate::piece::{Fresh, Yield};
use crate::protocol::{tree, PeId};
use crate::small_queue::SmallQueue;
use std::collections::HashMap;

/// The record id of the root on PE 0.
pub(crate) const ROOT: u64 = 0;

#[derive(Debug)]
struct Record {
    parent: Option<(PeId, u64)>,
    outstanding: u64,
    done: bool,
    acc: Yield,
}

/// The response-tree state of one PE.
#[derive(Debug)]
pub(crate) struct ResponseTree {
    fresh: Fresh,
    me: PeId,
    p: usize,
    records: HashMap<u64, Record>,
    next_id: u64,
    finishing: bool,
    result: Option<Yield>,
    out: SmallQueue<(PeId, Signal), 1>,
}

impl ResponseTree {
    /// The state of PE `me` of `p`, whose results `fresh` makes; PE 0 opens the root record
    /// (done at once if it holds no work).
    pub(crate) fn new(me: PeId, p: usize, holds_root: bool, fresh: Fresh) -> Self {
        let mut rt = ResponseTree {
            fresh,
            me,
            p,
            records: HashMap::new(),
            next_id: 0,
            finishing: false,
            result: None,
            out: SmallQueue::new(),
        };
        if me == 0 {
            let id = rt.open(None);
            debug_assert_eq!(id, ROOT);
            if !holds_root {
                rt.on_piece_finished(ROOT, &mut fresh.make());
            }
        }
        rt
    }

    fn open(&mut self, parent: Option<(PeId, u64)>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.records.insert(
            id,
            Record {
                parent,
                outstanding: 0,
                done: false,
                acc: self.fresh.make(),
            },
        );
        id
    }

    /// A piece split off the piece of record `record` is sent: one more outstanding response;
    /// the returned token is its return address.
    pub(crate) fn on_piece_sent(&mut self, record: u64) -> u64 {
        let me = self.me;
        self.records
            .get_mut(&record)
            .unwrap_or_else(|| panic!("PE {me}: a piece was split off unknown record {record}"))
            .outstanding += 1;
        record
    }

    /// A piece arrived from `from` with `token`; returns the record it is kept under.
    pub(crate) fn on_piece_received(&mut self, from: PeId, token: u64) -> u64 {
        self.open(Some((from, token)))
    }

    /// The own work of the piece of record `record` is done (worked or given away).
    pub(crate) fn on_piece_finished(&mut self, record: u64, output: &mut Yield) {
        let me = self.me;
        self.records
            .get_mut(&record)
            .unwrap_or_else(|| panic!("PE {me}: unknown record {record} finished"))
            .done = true;
        self.try_complete(record, output);
    }

    fn try_complete(&mut self, id: u64, output: &mut Yield) {
        let complete = self
            .records
            .get(&id)
            .is_some_and(|r| r.done && r.outstanding == 0);
        if !complete {
            return;
        }
        let record = self.records.remove(&id).expect("checked");
        let mut total = record.acc;
        total.merge(std::mem::replace(output, self.fresh.make()));
        match record.parent {
            Some((pe, token)) => self.out.push_back((
                pe,
                Signal::Response {
                    record: token,
                    output: total,
                },
            )),
            None => {
                // PE 0's root record: everything is done.
                self.result = Some(total);
                self.finish();
            }
        }
    }

    fn finish(&mut self) {
        self.finishing = true;
        for c in tree::children(self.me, self.p) {
            self.out.push_back((c, Signal::Finish));
        }
    }

    /// Handle a signal from PE `from`.
    pub(crate) fn receive(&mut self, from: PeId, signal: Signal, local: Local, output: &mut Yield) {
        match signal {
            Signal::Response {
                record,
                output: child,
            } => {
                let r = self.records.get_mut(&record).unwrap_or_else(|| {
                    panic!(
                        "PE {}: response from PE {from} for unknown record {record}",
                        self.me
                    )
                });
                assert!(
                    r.outstanding > 0,
                    "PE {}: unexpected response for record {record}",
                    self.me
                );
                r.outstanding -= 1;
                r.acc.merge(child);
                self.try_complete(record, output);
            }
            Signal::Finish => {
                assert!(
                    local.idle,
                    "PE {}: termination declared while this PE still holds work",
                    self.me
                );
                assert!(
                    self.records.is_empty(),
                    "PE {}: termination declared with open records",
                    self.me
                );
                self.finish();
            }
            other => panic!(
                "PE {}: four-counter signal {other:?} under response-tree termination",
                self.me
            ),
        }
    }

    /// The next signal to send, if any.
    pub(crate) fn poll_transmit(&mut self) -> Option<(PeId, Signal)> {
        self.out.pop_front()
    }

    /// True once the end is known.
    pub(crate) fn is_finishing(&self) -> bool {
        self.finishing
    }

    /// True when this PE's part is over (the end is known and passed on).
    pub(crate) fn is_done(&self) -> bool {
        self.finishing
    }

    /// PE 0: the result of the run.
    pub(crate) fn take_result(&mut self) -> Option<Yield> {
        self.result.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(me: PeId, p: usize, holds_root: bool) -> ResponseTree {
        ResponseTree::new(me, p, holds_root, Fresh::of::<u64>())
    }

    fn drain(rt: &mut ResponseTree) -> Vec<(PeId, Signal)> {
        std::iter::from_fn(|| rt.poll_transmit()).collect()
    }

    #[test]
    fn root_completes_only_after_every_descendant() {
        let idle = Local {
            idle: true,
            sent: 0,
            received: 0,
        };
        let mut pe0 = tree(0, 3, true);
        let mut pe1 = tree(1, 3, false);
        let mut pe2 = tree(2, 3, false);
        // PE 0 splits twice: a piece to PE 1, which passes a piece on to PE 2.
        let t1 = pe0.on_piece_sent(ROOT);
        let r1 = pe1.on_piece_received(0, t1);
        let t2 = pe1.on_piece_sent(r1);
        let r2 = pe2.on_piece_received(1, t2);
        let (mut o0, mut o1, mut o2) = (Yield::new(5u64), Yield::new(7u64), Yield::new(11u64));
        pe0.on_piece_finished(ROOT, &mut o0);
        pe1.on_piece_finished(r1, &mut o1);
        assert!(
            drain(&mut pe0).is_empty() && drain(&mut pe1).is_empty(),
            "nothing completes while PE 2 works"
        );
        pe2.on_piece_finished(r2, &mut o2);
        let [(to, s)]: [_; 1] = drain(&mut pe2).try_into().unwrap();
        assert_eq!(to, 1);
        pe1.receive(2, s, idle, &mut o1);
        let [(to, s)]: [_; 1] = drain(&mut pe1).try_into().unwrap();
        assert_eq!(to, 0);
        assert!(!pe0.is_finishing());
        pe0.receive(1, s, idle, &mut o0);
        assert!(pe0.is_finishing());
        assert_eq!(
            pe0.take_result().map(Yield::into_typed),
            Some(5u64 + 7 + 11)
        );
        let finish: Vec<_> = drain(&mut pe0).into_iter().map(|(to, _)| to).collect();
        assert_eq!(finish, vec![1, 2]);
    }

    #[test]
    fn empty_root_finishes_at_once() {
        let mut pe0 = tree(0, 1, false);
        assert!(pe0.is_done());
        assert_eq!(pe0.take_result().map(Yield::into_typed), Some(0u64));
    }
}
