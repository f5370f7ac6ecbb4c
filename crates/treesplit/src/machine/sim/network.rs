//! The simulated interconnect: who is how far from whom, and how long a message takes.
//!
//! Paper 000 §1.1 charges T_rout per message (a crossbar: every pair one hop). Paper 002
//! §2.1 uses packet switching on a topology: a message k hops away takes k·T_hop. On top,
//! an optional random delay per message makes asynchrony real, and chosen PEs can be given
//! long extra delays (an adversary). Messages between one sender and one receiver stay in
//! order (as MPI guarantees); across pairs they may overtake each other. With message
//! lengths charged (§6.1), a message's size adds to its latency by packet or cut-through
//! routing, and with contention on, messages whose routes share a link wait for it
//! (`links.rs`).

use super::links::{Links, Routing};
use crate::names::BadValue;
use crate::topology::ceil_root;
pub use crate::topology::Topology;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// A random extra delay added to every message.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Delay {
    /// No random delay.
    None,
    /// Uniform on 0..=max.
    Uniform(u64),
    /// Exponential with the given mean, rounded down.
    Exponential(f64),
}

impl Delay {
    fn sample(self, rng: &mut Xoshiro256PlusPlus) -> u64 {
        match self {
            Delay::None => 0,
            Delay::Uniform(max) => rng.random_range(0..=max),
            Delay::Exponential(mean) => {
                let u: f64 = rng.random();
                (-(1.0 - u).ln() * mean).floor().min(1e15) as u64
            }
        }
    }

    /// A bound that holds for all but a tiny fraction of samples (for the detection-delay check).
    pub fn typical_max(self) -> u64 {
        match self {
            Delay::None => 0,
            Delay::Uniform(max) => max,
            Delay::Exponential(mean) => (mean * 20.0).ceil() as u64,
        }
    }
}

impl fmt::Display for Delay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Delay::None => f.write_str("none"),
            Delay::Uniform(m) => write!(f, "uniform:{m}"),
            Delay::Exponential(m) => write!(f, "exp:{m}"),
        }
    }
}

impl FromStr for Delay {
    type Err = BadValue;
    /// `none`, `uniform:MAX` or `exp:MEAN`.
    fn from_str(s: &str) -> Result<Self, BadValue> {
        let bad = || BadValue {
            what: "delay",
            given: s.to_string(),
            expected: "use none, uniform:MAX or exp:MEAN",
        };
        match s.split_once(':') {
            None if s == "none" => Ok(Delay::None),
            Some(("uniform", v)) => v.parse().map(Delay::Uniform).map_err(|_| bad()),
            Some(("exp", v)) => match v.parse::<f64>() {
                Ok(m) if m.is_finite() && m >= 0.0 => Ok(Delay::Exponential(m)),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }
}

/// Message length charging (paper 002 §6.1): time per byte and the routing mode, and
/// whether links are shared (contention).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct MessageLength {
    /// Virtual time per byte of a message (its postcard size, as MPI would send it).
    pub byte_time: f64,
    /// Packet or cut-through routing.
    pub routing: Routing,
    /// Links with a bandwidth (1/byte_time bytes per time unit) that carry one message at a
    /// time: messages whose routes share a link wait for it (`links.rs`). Off (the
    /// default): every message travels as if alone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub contention: bool,
}

impl MessageLength {
    /// The time a message of `bytes` adds over `hops` hops, rounded up.
    pub fn charge(self, hops: u64, bytes: u64) -> u64 {
        let once = (bytes as f64 * self.byte_time).ceil().min(1e15) as u64;
        match self.routing {
            Routing::Packet => once.saturating_mul(hops.max(1)),
            Routing::CutThrough => once,
        }
    }
}

/// The network of one simulation: latencies, random delays, per-pair FIFO order.
pub struct Network {
    topology: Topology,
    p: usize,
    t_hop: u64,
    delay: Delay,
    /// Extra delay of every message sent by a PE (the slow-link adversary).
    extra: HashMap<usize, u64>,
    /// Latest arrival time per (from, to) pair, kept only when arrival times can reorder.
    last_arrival: HashMap<(usize, usize), u64>,
    /// Hypercubic networks: the BFS rows of the senders seen so far (P·nodes·2 bytes at most).
    rows: Vec<std::cell::OnceCell<Box<[u16]>>>,
    /// Message length charging (None: latency ignores the size, as paper 002 §2 assumes).
    length: Option<MessageLength>,
    /// The links' bookings, with contention on.
    links: Option<Links>,
}

impl Network {
    /// A network of `p` PEs.
    pub fn new(
        topology: Topology,
        p: usize,
        t_hop: u64,
        delay: Delay,
        extra: HashMap<usize, u64>,
    ) -> Self {
        Network {
            topology,
            p,
            t_hop,
            delay,
            extra,
            last_arrival: HashMap::new(),
            rows: if topology.is_hypercubic() {
                (0..p).map(|_| std::cell::OnceCell::new()).collect()
            } else {
                Vec::new()
            },
            length: None,
            links: None,
        }
    }

    /// Builder: charge message lengths (§6.1), and book the links with contention on (where
    /// a message holds each link at least one time unit even at no time per byte).
    pub fn with_length(mut self, length: Option<MessageLength>) -> Self {
        self.length = length.filter(|l| l.byte_time > 0.0 || l.contention);
        self.links = self
            .length
            .filter(|l| l.contention)
            .map(|_| Links::new(self.topology, self.p));
        self
    }

    /// No message will be sent before `time` (the engine's current event): the links may
    /// forget what is over by then.
    pub(super) fn advance(&mut self, time: u64) {
        if let Some(links) = &mut self.links {
            links.advance(time);
        }
    }

    /// Hops from `from` to `to` (cached BFS rows on the hypercubic networks).
    pub fn hops(&self, from: usize, to: usize) -> u64 {
        if self.topology.is_hypercubic() && from != to {
            let row = self.rows[from].get_or_init(|| {
                self.topology
                    .bfs(from, self.p)
                    .into_iter()
                    .take(self.p)
                    .collect()
            });
            u64::from(row[to])
        } else {
            self.topology.hops(from, to, self.p)
        }
    }

    /// The latency without random delay from `from` to `to`.
    pub fn latency(&self, from: usize, to: usize) -> u64 {
        (self.hops(from, to).max(1))
            .saturating_mul(self.t_hop)
            .saturating_add(self.extra.get(&from).copied().unwrap_or(0))
    }

    /// The smallest latency between two PEs: one hop (the windows of the partitioned
    /// engine are no longer, see `partition.rs`).
    pub(crate) fn min_latency(&self) -> u64 {
        self.t_hop.max(1)
    }

    /// The largest latency between any two PEs, without random delay or adversaries.
    pub fn diameter_latency(&self) -> u64 {
        let hops = match self.topology {
            Topology::Crossbar => 1,
            Topology::Ring => (self.p / 2) as u64,
            Topology::Mesh2d => 2 * (ceil_root(self.p, 2) as u64 - 1),
            Topology::Mesh3d => 3 * (ceil_root(self.p, 3) as u64 - 1),
            Topology::Hypercube | Topology::FatTree => {
                let bits = u64::from(usize::BITS - (self.p.max(2) - 1).leading_zeros());
                if self.topology == Topology::FatTree {
                    2 * bits
                } else {
                    bits
                }
            }
            Topology::MeshOfTrees => Topology::mesh_of_trees_diameter(self.p),
            t if t.is_hypercubic() => t.hypercubic_diameter(self.p),
            _ => unreachable!("every topology has a diameter"),
        };
        hops.max(1) * self.t_hop
    }

    /// When a message of `bytes` sent at `now` from `from` to `to` arrives.
    pub fn arrival(
        &mut self,
        now: u64,
        from: usize,
        to: usize,
        bytes: u64,
        rng: &mut Xoshiro256PlusPlus,
    ) -> u64 {
        let at = match (self.length, &mut self.links) {
            (Some(l), Some(links)) => links
                .send(now, from, to, self.t_hop, l.charge(1, bytes), l.routing)
                .saturating_add(self.extra.get(&from).copied().unwrap_or(0)),
            (length, _) => {
                let length = length.map_or(0, |l| l.charge(self.hops(from, to), bytes));
                now.saturating_add(self.latency(from, to))
                    .saturating_add(length)
            }
        }
        .saturating_add(self.delay.sample(rng));
        if self.delay == Delay::None && self.length.is_none() {
            return at; // fixed latency per pair: order is kept by itself
        }
        let last = self.last_arrival.entry((from, to)).or_insert(0);
        *last = (*last).max(at);
        *last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(Topology::Ring.hops(0, 7, 8), 1);
        assert_eq!(Topology::Ring.hops(0, 4, 8), 4);
        assert_eq!(Topology::Mesh2d.hops(0, 15, 16), 6);
        assert_eq!(Topology::Mesh3d.hops(0, 63, 64), 9);
        assert_eq!(Topology::Hypercube.hops(0b1010, 0b0101, 16), 4);
        assert_eq!(Topology::FatTree.hops(0, 1, 16), 2);
        assert_eq!(Topology::FatTree.hops(0, 15, 16), 8);
        assert_eq!(Topology::Crossbar.neighbours(0, 4), vec![1, 2, 3]);
        assert_eq!(Topology::Hypercube.neighbours(0, 8), vec![1, 2, 4]);
        for t in Topology::ALL {
            for p in [1, 2, 3, 5, 8, 10, 27] {
                for a in 0..p {
                    for b in 0..p {
                        assert_eq!(t.hops(a, b, p), t.hops(b, a, p), "{t} symmetric");
                        assert_eq!(t.hops(a, b, p) == 0, a == b);
                    }
                }
            }
        }
    }

    /// §6.1: packet routing pays the size at every hop, cut-through once; order per pair kept.
    #[test]
    fn message_length_is_charged() {
        use rand::SeedableRng;
        let packet = MessageLength {
            byte_time: 0.5,
            routing: Routing::Packet,
            contention: false,
        };
        let cut = MessageLength {
            routing: Routing::CutThrough,
            ..packet
        };
        assert_eq!(packet.charge(4, 100), 200);
        assert_eq!(cut.charge(4, 100), 50);
        assert_eq!(cut.charge(4, 3), 2, "rounded up");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        // Mesh 4×4: PE 0 to PE 15 is 6 hops of 10.
        let mut net = Network::new(Topology::Mesh2d, 16, 10, Delay::None, HashMap::new())
            .with_length(Some(packet));
        assert_eq!(net.arrival(0, 0, 15, 100, &mut rng), 60 + 300);
        // A short message sent right after a long one does not overtake it.
        assert_eq!(net.arrival(1, 0, 15, 2, &mut rng), 360);
        let mut net = Network::new(Topology::Mesh2d, 16, 10, Delay::None, HashMap::new())
            .with_length(Some(cut));
        assert_eq!(net.arrival(0, 0, 15, 100, &mut rng), 60 + 50);
        // 4×4 mesh of trees: PE 0 to PE 15 is 8 hops (up and down row 0's tree, then column
        // 3's): 8·10 + 8·50 by packet, 8·10 + 50 by cut-through; its diameter is those 8.
        let mut net = Network::new(Topology::MeshOfTrees, 16, 10, Delay::None, HashMap::new())
            .with_length(Some(packet));
        assert_eq!(net.arrival(0, 0, 15, 100, &mut rng), 80 + 400);
        assert_eq!(net.diameter_latency(), 80);
        let mut net = Network::new(Topology::MeshOfTrees, 16, 10, Delay::None, HashMap::new())
            .with_length(Some(cut));
        assert_eq!(net.arrival(0, 0, 15, 100, &mut rng), 80 + 50);
        let mut off = Network::new(Topology::Mesh2d, 16, 10, Delay::None, HashMap::new());
        assert_eq!(off.arrival(0, 0, 15, 100, &mut rng), 60);
        for (t, p) in [(Topology::Butterfly, 24), (Topology::DeBruijn, 10)] {
            let net = Network::new(t, p, 1, Delay::None, HashMap::new());
            for a in 0..p {
                for b in 0..p {
                    assert_eq!(net.hops(a, b), t.hops(a, b, p), "{t} cached rows");
                }
            }
        }
    }

    #[test]
    fn delays_parse() {
        assert_eq!("none".parse::<Delay>(), Ok(Delay::None));
        assert_eq!("uniform:30".parse::<Delay>(), Ok(Delay::Uniform(30)));
        assert_eq!("exp:2.5".parse::<Delay>(), Ok(Delay::Exponential(2.5)));
        assert!("exp:-1".parse::<Delay>().is_err());
        assert!("gauss:3".parse::<Delay>().is_err());
        assert!("torus".parse::<Topology>().is_err());
    }
}
