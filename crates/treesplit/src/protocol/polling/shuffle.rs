//! The random permutation of poll-and-shuffle by messages (paper 002 §3.2).
//!
//! Permutation number n: (1) every PE sends each subproblem it holds to a uniformly random PE
//! (a PE with none sends one *placeholder*, the empty subproblem, which carries no work);
//! (2) a reduction over the label tree of the network's hypercube
//! ([`super::embedding::PhasePlan::tree_parent`]: every edge one hypercube dimension, so
//! counting travels the network's own structure, never a long edge between PE numbers) sums
//! what was sent and what has arrived — since
//! counts only grow and the received total can never exceed the sent total, a wave whose
//! sums agree proves that every report was final: all scattered items have arrived; (3) the
//! same wave's subtree sums give every PE, top down, the global number of its first arrival
//! (a prefix sum); (4) each PE shuffles its arrivals locally and sends item number j to PE
//! j mod P. Placeholders occupy numbers (so idle positions are permuted too) but never travel.
//!
//! The root (label 0) starts the first counting wave `settle` rounds after its scatter,
//! when every scattered item has arrived unless the machine delayed it (the machine's
//! largest latency, in rounds), so that one wave usually suffices.
//!
//! This component holds the counting and numbering; the balancer
//! ([`super::poll_and_shuffle`]) sends the scattered items, hands arrivals over, and moves the
//! placed ones. It also tells the balancer when the next *cycle* of phases starts: the root
//! stamps the prefix sum's `Offset` signals with the round in which the numbering and the
//! placed pieces will have reached every PE (its final count's round, plus 2·`settle` + 1),
//! so every PE restarts its phase counter at the same global round, with its permutation
//! complete, and hypercube partners agree on the dimension of each phase (paper 002 §3.1,
//! Lemma 2).

use super::embedding::PhasePlan;
use crate::protocol::PeId;
use crate::small_queue::SmallQueue;
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

/// Messages of the counting wave and the prefix sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ShuffleSignal {
    /// PE 0 starts counting wave `wave` of permutation `n`; passed down the tree.
    Wave {
        /// Permutation number.
        n: u64,
        /// Wave number.
        wave: u64,
    },
    /// A subtree's totals for wave `wave` of permutation `n`.
    Count {
        /// Permutation number.
        n: u64,
        /// Wave number.
        wave: u64,
        /// Items scattered in the subtree.
        sent: u64,
        /// Items that have arrived in the subtree.
        received: u64,
    },
    /// The global number of the subtree's first arrival; passed down the tree.
    Offset {
        /// Permutation number.
        n: u64,
        /// First global number of the receiver's own arrivals.
        offset: u64,
        /// The round at which the next cycle's phase 0 is (the round after PE 0 found the
        /// permutation complete).
        cycle_start: u64,
    },
}

#[derive(Debug)]
struct Round {
    n: u64,
    /// The root: the round at which it starts the first counting wave.
    wave_due: u64,
    sent: u64,
    wave: u64,
    wave_seen: bool,
    reported: bool,
    reports: usize,
    sums: (u64, u64),
    /// Arrivals each child reported for its subtree in the last wave.
    child_received: HashMap<PeId, u64>,
    /// Own arrivals counted in the last report.
    own_reported: u64,
}

/// The permutation state of one PE; `X` is what is moved (a piece of work).
#[derive(Debug)]
pub(crate) struct Shuffler<X> {
    me: PeId,
    p: usize,
    /// The network's hypercube: the label tree the counting travels.
    plan: Arc<PhasePlan>,
    /// Rounds that cover the machine's largest latency (module comment).
    settle: u64,
    current: Option<Round>,
    /// Permutations this PE was asked to start while still busy with an earlier one.
    pending: VecDeque<u64>,
    /// Signals for later permutations, handled once the current one is done.
    deferred: Vec<(PeId, ShuffleSignal)>,
    arrivals: BTreeMap<u64, Vec<Option<X>>>,
    /// Permutations completed here (the next one must be numbered this).
    completed: u64,
    /// The last round started (PE 0 stamps completions with it).
    round: u64,
    /// The round at which phase 0 of the current cycle is: set when a permutation completes.
    cycle_start: u64,
    out: SmallQueue<(PeId, ShuffleSignal), 1>,
}

impl<X> Shuffler<X> {
    /// The state of PE `me` of `p`, counting over `plan`'s label tree; `settle` rounds cover
    /// the machine's largest latency.
    pub(crate) fn new(me: PeId, p: usize, plan: Arc<PhasePlan>, settle: u64) -> Self {
        Shuffler {
            me,
            p,
            plan,
            settle,
            current: None,
            pending: VecDeque::new(),
            deferred: Vec::new(),
            arrivals: BTreeMap::new(),
            completed: 0,
            round: 0,
            cycle_start: 0,
            out: SmallQueue::new(),
        }
    }

    fn children(&self) -> Vec<PeId> {
        self.plan.tree_children(self.me).collect()
    }

    /// Round `round` starts: the root starts the first counting wave when it is due.
    pub(crate) fn on_round(&mut self, round: u64) {
        self.round = round;
        let due = self
            .current
            .as_ref()
            .is_some_and(|r| r.wave == 0 && round >= r.wave_due);
        if due && self.me == self.plan.root() {
            self.start_wave(1);
        }
    }

    /// The number the next permutation must have here (permutations completed so far).
    pub(crate) fn completed(&self) -> u64 {
        self.completed
    }

    /// The round at which phase 0 of the current cycle is (0 before the first permutation).
    pub(crate) fn cycle_start(&self) -> u64 {
        self.cycle_start
    }

    /// True while a permutation is under way here or waiting to start.
    pub(crate) fn is_busy(&self) -> bool {
        self.current.is_some() || !self.pending.is_empty()
    }

    /// True while items that carry work wait here for their placement.
    pub(crate) fn holds_work(&self) -> bool {
        self.arrivals
            .values()
            .any(|v| v.iter().any(Option::is_some))
    }

    /// Take out the items waiting here for their placement, leaving placeholders so that the
    /// permutation's counts still hold: a stopped PE keeps them (they are not placed any more).
    pub(crate) fn take_waiting(&mut self) -> Vec<X> {
        self.arrivals
            .values_mut()
            .flat_map(|v| v.iter_mut().filter_map(Option::take))
            .collect()
    }

    /// Permutation `n` starts here: returns whether the caller should scatter now (it must
    /// then call [`Shuffler::scattered`]); otherwise it is queued behind the current one.
    pub(crate) fn request(&mut self, n: u64) -> bool {
        if self.current.is_none() && self.pending.is_empty() && n == self.completed {
            return true;
        }
        if n >= self.completed
            && !self.pending.contains(&n)
            && self.current.as_ref().is_none_or(|r| r.n != n)
        {
            self.pending.push_back(n);
        }
        false
    }

    /// The caller scattered `sent` items (placeholders included) for permutation `n`.
    pub(crate) fn scattered<R: RngExt>(
        &mut self,
        n: u64,
        sent: u64,
        rng: &mut R,
    ) -> Vec<(PeId, X)> {
        self.current = Some(Round {
            n,
            wave_due: self.round + self.settle,
            sent,
            wave: 0,
            wave_seen: false,
            reported: false,
            reports: 0,
            sums: (0, 0),
            child_received: HashMap::new(),
            own_reported: 0,
        });
        if self.me == self.plan.root() && self.settle == 0 {
            self.start_wave(1);
        }
        let mut placed = Vec::new();
        for (from, s) in std::mem::take(&mut self.deferred) {
            placed.extend(self.receive(from, s, rng));
        }
        placed.extend(self.progress(rng));
        placed
    }

    /// A scattered item (None: a placeholder) of permutation `n` arrived.
    pub(crate) fn arrive<R: RngExt>(
        &mut self,
        n: u64,
        item: Option<X>,
        rng: &mut R,
    ) -> Vec<(PeId, X)> {
        self.arrivals.entry(n).or_default().push(item);
        self.progress(rng)
    }

    fn start_wave(&mut self, wave: u64) {
        let children = self.children();
        let r = self.current.as_mut().expect("a round is under way");
        r.wave = wave;
        r.wave_seen = true;
        r.reported = false;
        r.reports = 0;
        r.sums = (0, 0);
        let n = r.n;
        for c in children {
            self.out.push_back((c, ShuffleSignal::Wave { n, wave }));
        }
    }

    /// Handle a signal; returns items placed on this PE or to be sent: (destination, item).
    pub(crate) fn receive<R: RngExt>(
        &mut self,
        from: PeId,
        signal: ShuffleSignal,
        rng: &mut R,
    ) -> Vec<(PeId, X)> {
        let n = match signal {
            ShuffleSignal::Wave { n, .. }
            | ShuffleSignal::Count { n, .. }
            | ShuffleSignal::Offset { n, .. } => n,
        };
        if self.current.as_ref().is_none_or(|r| r.n != n) {
            self.deferred.push((from, signal));
            return Vec::new();
        }
        match signal {
            ShuffleSignal::Wave { wave, .. } => self.start_wave(wave),
            ShuffleSignal::Count { sent, received, .. } => {
                let r = self.current.as_mut().expect("checked");
                r.reports += 1;
                r.sums.0 += sent;
                r.sums.1 += received;
                r.child_received.insert(from, received);
            }
            ShuffleSignal::Offset {
                offset,
                cycle_start,
                ..
            } => return self.place(offset, cycle_start, rng),
        }
        self.progress(rng)
    }

    /// Report up the tree when possible; at PE 0, finish or repeat the wave.
    fn progress<R: RngExt>(&mut self, rng: &mut R) -> Vec<(PeId, X)> {
        let n_children = self.children().len();
        let me = self.me;
        let Some(r) = self.current.as_mut() else {
            return Vec::new();
        };
        if !r.wave_seen || r.reported || r.reports < n_children {
            return Vec::new();
        }
        let own = self.arrivals.get(&r.n).map_or(0, |v| v.len() as u64);
        r.own_reported = own;
        r.reported = true;
        let (sent, received) = (r.sums.0 + r.sent, r.sums.1 + own);
        let (n, wave) = (r.n, r.wave);
        if let Some(parent) = self.plan.tree_parent(me) {
            self.out.push_back((
                parent,
                ShuffleSignal::Count {
                    n,
                    wave,
                    sent,
                    received,
                },
            ));
            return Vec::new();
        }
        if sent == received {
            let cycle_start = self.round + 2 * self.settle + 1;
            self.place(0, cycle_start, rng)
        } else {
            // Items are still travelling: count again. (Without children, the next arrival
            // triggers the new count.)
            self.start_wave(wave + 1);
            Vec::new()
        }
    }

    /// Number this PE's arrivals from `offset` on, pass the children theirs (and the start of
    /// the next cycle), and return the placements.
    fn place<R: RngExt>(&mut self, offset: u64, cycle_start: u64, rng: &mut R) -> Vec<(PeId, X)> {
        let r = self.current.take().expect("a round is under way");
        let mut items = self.arrivals.remove(&r.n).unwrap_or_default();
        assert_eq!(
            items.len() as u64,
            r.own_reported,
            "PE {}: arrivals after the final count",
            self.me
        );
        // Local shuffle (Fisher–Yates).
        for i in (1..items.len()).rev() {
            let j = rng.random_range(0..=i);
            items.swap(i, j);
        }
        let mut next = offset + r.own_reported;
        for c in self.children() {
            self.out.push_back((
                c,
                ShuffleSignal::Offset {
                    n: r.n,
                    offset: next,
                    cycle_start,
                },
            ));
            next += r.child_received.get(&c).copied().unwrap_or(0);
        }
        let p = self.p as u64;
        let placed: Vec<(PeId, X)> = items
            .into_iter()
            .enumerate()
            .filter_map(|(i, item)| item.map(|x| (((offset + i as u64) % p) as PeId, x)))
            .collect();
        self.completed = r.n + 1;
        self.cycle_start = cycle_start;
        placed
    }

    /// The next permutation queued here, if its turn has come (the caller scatters for it).
    pub(crate) fn next_pending(&mut self) -> Option<u64> {
        if self.current.is_none() && self.pending.front() == Some(&self.completed) {
            self.pending.pop_front()
        } else {
            None
        }
    }

    /// The next signal to send.
    pub(crate) fn poll_transmit(&mut self) -> Option<(PeId, ShuffleSignal)> {
        self.out.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::collections::VecDeque;

    /// P PEs scatter their items (PE i holds i % 3 items; none means a placeholder) to random
    /// PEs through a queue delivered in random order; every real item must be placed exactly
    /// once, on PE (global number mod P).
    #[test]
    fn every_item_is_placed_once() {
        for p in [1usize, 2, 3, 7, 16, 33] {
            for seed in 0..5u64 {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let plan = Arc::new(PhasePlan::new(None, p, Default::default()));
                let mut pes: Vec<Shuffler<u64>> = (0..p)
                    .map(|i| Shuffler::new(i, p, plan.clone(), 0))
                    .collect();
                enum Msg {
                    Item(u64, Option<u64>),
                    Signal(PeId, ShuffleSignal),
                }
                let mut queue: VecDeque<(PeId, Msg)> = VecDeque::new();
                let mut placed: Vec<(PeId, u64)> = Vec::new();
                let mut total = 0;
                for (i, pe) in pes.iter_mut().enumerate() {
                    pe.on_round(5);
                    assert!(pe.request(0));
                    let items: Vec<u64> =
                        (0..(i % 3) as u64).map(|k| (i as u64) * 10 + k).collect();
                    total += items.len();
                    let sent = items.len().max(1) as u64;
                    if items.is_empty() {
                        queue.push_back((rng.random_range(0..p), Msg::Item(0, None)));
                    }
                    for x in items {
                        queue.push_back((rng.random_range(0..p), Msg::Item(0, Some(x))));
                    }
                    placed.extend(pe.scattered(0, sent, &mut rng));
                    while let Some((to, s)) = pe.poll_transmit() {
                        queue.push_back((to, Msg::Signal(i, s)));
                    }
                }
                let mut steps = 0;
                while let Some(k) = (!queue.is_empty()).then(|| rng.random_range(0..queue.len())) {
                    steps += 1;
                    assert!(steps < 100_000, "P={p}: the permutation never completes");
                    let (to, msg) = queue.remove(k).expect("index in range");
                    let out = match msg {
                        Msg::Item(n, x) => pes[to].arrive(n, x, &mut rng),
                        Msg::Signal(from, s) => pes[to].receive(from, s, &mut rng),
                    };
                    placed.extend(out);
                    while let Some((dest, s)) = pes[to].poll_transmit() {
                        queue.push_back((dest, Msg::Signal(to, s)));
                    }
                }
                let mut items: Vec<u64> = placed.iter().map(|&(_, x)| x).collect();
                items.sort_unstable();
                items.dedup();
                assert_eq!(
                    items.len(),
                    total,
                    "P={p} seed={seed}: items lost or duplicated"
                );
                assert_eq!(placed.len(), total);
                assert!(pes.iter().all(|s| !s.is_busy() && !s.holds_work()));
                // PE 0 found the permutation complete in round 5: with no settling rounds the
                // next cycle starts at 6 on every PE.
                assert!(pes.iter().all(|s| s.cycle_start() == 6));
            }
        }
    }
}
