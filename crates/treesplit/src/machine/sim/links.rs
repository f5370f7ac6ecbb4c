//! How a message crosses the network's links (paper 002 §6.1): packet or cut-through
//! [`Routing`], and links with a bandwidth and contention, where two messages' routes share a
//! link and one waits for the other.
//!
//! The model. A message's route is the network's real route (`Topology::route`: dimension
//! order on meshes, e-cube on the hypercube, up and down the fat tree's channels, a BFS
//! shortest path on the hypercubic networks, the receiver's port on the crossbar). A link
//! carries one message at a time, 1/byte_time bytes per time unit: a message of `bytes`
//! holds each link of its route for w = ⌈bytes·byte_time⌉ time units (at least one). When a
//! message is sent, it books the links of its route in turn: on each, the earliest time at
//! or after its head reaches the link at which the link is free for w units. Its head then
//! reaches the next node T_hop later (cut-through: the body follows in the pipe; packet
//! routing: T_hop + w later, once the whole message is stored there), and it arrives when
//! its tail leaves the last link. Without a collision that is exactly the contention-free
//! charge of `MessageLength` (packet d·(T_hop + w), cut-through d·T_hop + w).
//!
//! Links serve messages first booked, first served: messages are booked in the order the
//! simulator sends them (its event order, deterministic), and one booked later may still
//! take a gap left free before an earlier booking (it never delays a booking already made).
//! A message blocked at a node under cut-through waits there whole (virtual cut-through; it
//! holds no link behind it). Bookings that ended before the current event are dropped.

use crate::topology::Topology;
use std::cell::OnceCell;
use std::collections::HashMap;

crate::names::named! {
    /// How a message's length adds to its latency (paper 002 §6.1), when a time per byte is
    /// set: packet routing stores the whole message at every hop (hops × size), cut-through
    /// routing pipelines it (hops + size).
    pub enum Routing("routing") {
        /// Store and forward: latency = hops·(T_hop + bytes·byte_time).
        Packet = "packet",
        /// Cut-through (wormhole): latency = hops·T_hop + bytes·byte_time.
        CutThrough = "cut-through",
    }
}

impl Default for Routing {
    /// Packet routing, the model of paper 002 §6.1's first analysis.
    fn default() -> Self {
        Routing::Packet
    }
}

/// The links' bookings, by link (the links a route names, `Topology::route`).
pub(super) struct Links {
    topology: Topology,
    p: usize,
    /// Per link, its booked intervals [start, end), sorted and disjoint.
    booked: HashMap<u64, Vec<(u64, u64)>>,
    /// Hypercubic networks: the destinations' BFS rows over all nodes (routers included).
    rows: Vec<OnceCell<Box<[u16]>>>,
    /// The route being booked (kept to reuse its memory).
    route: Vec<u64>,
    /// No message is sent before this time any more (the engine's current event).
    floor: u64,
}

/// Book `len` units on a link with bookings `list` at the earliest time at or after `at`
/// that leaves every booking as it is; return that time.
fn book(list: &mut Vec<(u64, u64)>, at: u64, len: u64) -> u64 {
    let mut start = at;
    // The ends are sorted too (the intervals are disjoint): skip those over by `at`.
    let mut i = list.partition_point(|&(_, end)| end <= start);
    while let Some(&(s, e)) = list.get(i) {
        if s >= start.saturating_add(len) {
            break;
        }
        start = start.max(e);
        i += 1;
    }
    list.insert(i, (start, start.saturating_add(len)));
    start
}

impl Links {
    pub(super) fn new(topology: Topology, p: usize) -> Self {
        Links {
            topology,
            p,
            booked: HashMap::new(),
            rows: if topology.is_hypercubic() {
                (0..p).map(|_| OnceCell::new()).collect()
            } else {
                Vec::new()
            },
            route: Vec::new(),
            floor: 0,
        }
    }

    /// No message will be sent before `time`: bookings over by then may go.
    pub(super) fn advance(&mut self, time: u64) {
        self.floor = self.floor.max(time);
    }

    /// Book the route of a message sent at `now` from `from` to `to` that holds each link
    /// `w` units (the contention-free length charge per link), each hop taking `t_hop`;
    /// return when it arrives.
    pub(super) fn send(
        &mut self,
        now: u64,
        from: usize,
        to: usize,
        t_hop: u64,
        w: u64,
        routing: Routing,
    ) -> u64 {
        let (topology, p) = (self.topology, self.p);
        let row = self
            .rows
            .get(to)
            .map(|cell| &**cell.get_or_init(|| topology.bfs(to, p).into_boxed_slice()));
        self.route.clear();
        topology.route(from, to, p, row, &mut self.route);
        if self.route.is_empty() {
            // A PE's message to itself: one hop's latency, as without contention.
            return now.saturating_add(t_hop).saturating_add(w);
        }
        let hold = w.max(1);
        let mut head = now;
        for link in &self.route {
            let list = self.booked.entry(*link).or_default();
            if list.len() > 8 && list[0].1 <= self.floor {
                // Sorted by end too: the bookings over by now are a prefix.
                let floor = self.floor;
                let over = list.partition_point(|&(_, end)| end <= floor);
                list.drain(..over);
            }
            let start = book(list, head, hold);
            head = match routing {
                Routing::Packet => start.saturating_add(t_hop).saturating_add(w),
                Routing::CutThrough => start.saturating_add(t_hop),
            };
        }
        match routing {
            Routing::Packet => head,
            Routing::CutThrough => head.saturating_add(w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bookings_fill_the_first_gap() {
        let mut l = Vec::new();
        assert_eq!(book(&mut l, 10, 5), 10);
        assert_eq!(book(&mut l, 12, 5), 15, "waits behind [10, 15)");
        assert_eq!(book(&mut l, 0, 10), 0, "fits before both");
        assert_eq!(
            book(&mut l, 0, 1),
            20,
            "[0,10) [10,15) [15,20) leave no gap"
        );
        assert_eq!(l, vec![(0, 10), (10, 15), (15, 20), (20, 21)]);
        let mut l = vec![(0, 4), (10, 12)];
        assert_eq!(book(&mut l, 2, 6), 4, "the gap [4, 10) holds 6");
        assert_eq!(book(&mut l, 2, 6), 12, "no gap left before 12");
    }

    /// Worked by hand on a 4×4 mesh (T_hop 10): a message of w = 50 from PE 0 to PE 3 (3
    /// hops along row 0) costs what the contention-free model says when alone; a second one
    /// from PE 1 to PE 3, sent at the same time, shares links 1→2 and 2→3 and waits.
    #[test]
    fn two_messages_on_one_link_serialize() {
        let mut links = Links::new(Topology::Mesh2d, 16);
        // Packet: 3·(10 + 50) = 180 alone.
        assert_eq!(links.send(0, 0, 3, 10, 50, Routing::Packet), 180);
        // 1 → 3 at time 0 wants link 1→2 at 0, booked by the first message over [60, 110):
        // it fits before ([0, 50)), then wants link 2→3 at 60, booked over [120, 170): it
        // fits in [60, 110) too. Arrives at 60 + 60 = 120, as alone.
        assert_eq!(links.send(0, 1, 3, 10, 50, Routing::Packet), 120);
        // A third, 1 → 3 at time 5: link 1→2 is busy [0, 50) and [60, 110): starts at 110;
        // link 2→3 from 170 ([60,110) and [120,170) taken): arrives 170 + 60 = 230.
        assert_eq!(links.send(5, 1, 3, 10, 50, Routing::Packet), 230);

        let mut links = Links::new(Topology::Mesh2d, 16);
        // Cut-through: 3·10 + 50 = 80 alone; the link 0→1 is held [0, 50), 1→2 [10, 60),
        // 2→3 [20, 70).
        assert_eq!(links.send(0, 0, 3, 10, 50, Routing::CutThrough), 80);
        // 1 → 3 at 0: link 1→2 free only from 60; its head reaches 2 at 70, link 2→3 is free
        // from 70: arrives 70 + 10 + 50 = 130 (alone it would take 2·10 + 50 = 70).
        assert_eq!(links.send(0, 1, 3, 10, 50, Routing::CutThrough), 130);
        // Disjoint routes do not meet: 4 → 7 (row 1) at 0 takes 80 as alone.
        assert_eq!(links.send(0, 4, 7, 10, 50, Routing::CutThrough), 80);
    }

    /// The 4×4 mesh of trees (T_hop 10, w 50): PE 0 → PE 15 is 8 hops, 8·(10 + 50) = 480 by
    /// packet alone; PE 1 → PE 2, sent at the same time, crosses row 0's root (its links
    /// row-root → column-2 side and back are the second and third of its route): it books
    /// the up link at level 1 while 0 → 15 holds it [60, 110) and waits.
    #[test]
    fn mesh_of_trees_messages_meet_at_a_root() {
        let mut links = Links::new(Topology::MeshOfTrees, 16);
        assert_eq!(links.send(0, 0, 15, 10, 50, Routing::Packet), 480);
        // 1 → 2: link 1 → its level-1 router free at 0, held [0, 50), head there at 60;
        // the up link at level 1 (router 0 → root) is 0 → 15's second link, held [60, 110):
        // from 60 it waits to 110, then 170; down link level 1 (root → router 1) is 0 → 15's
        // third, held [120, 170): free at 170, next 230; its last link to leaf 2 is free:
        // arrives 230 + 60 = 290 (alone: 4·60 = 240).
        assert_eq!(links.send(0, 1, 2, 10, 50, Routing::Packet), 290);
        // Cut-through alone: 8·10 + 50.
        let mut links = Links::new(Topology::MeshOfTrees, 16);
        assert_eq!(links.send(0, 0, 15, 10, 50, Routing::CutThrough), 130);
    }

    /// A message of length w over d hops costs d·(T_hop + w) by packet and d·T_hop + w by
    /// cut-through when alone, on every network; a second identical message right behind
    /// it on the same route arrives w later by cut-through (the pipe is full), and w later
    /// by packet too (each link is busy w longer).
    #[test]
    fn alone_it_costs_the_contention_free_charge() {
        for &t in Topology::ALL {
            let p = 30;
            let (a, b) = (1, 29);
            let d = t.hops(a, b, p);
            for (routing, alone) in [
                (Routing::Packet, d * (7 + 40)),
                (Routing::CutThrough, d * 7 + 40),
            ] {
                let mut links = Links::new(t, p);
                assert_eq!(links.send(100, a, b, 7, 40, routing), 100 + alone, "{t}");
                assert_eq!(links.send(100, a, b, 7, 40, routing), 140 + alone, "{t}");
            }
        }
    }
}
