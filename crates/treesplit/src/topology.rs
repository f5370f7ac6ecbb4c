//! Interconnection topologies: distances between PEs and their neighbours. The simulator
//! uses them for latencies (paper 002 §2.1: a message k hops away takes k·T_hop), and
//! neighbour polling uses them to choose whom to ask for work (paper 002 §1.1).

crate::names::named! {
    /// The network topology.
    pub enum Topology("network") {
        /// Every pair of PEs one hop apart.
        Crossbar = "crossbar",
        /// A ring: distance min(|i−j|, P−|i−j|).
        Ring = "ring",
        /// A 2-D mesh, ⌈√P⌉ columns, row-major numbering, no wrap-around.
        Mesh2d = "mesh2d",
        /// A 3-D mesh, ⌈∛P⌉ per side.
        Mesh3d = "mesh3d",
        /// A hypercube: distance = Hamming distance of the PE numbers.
        Hypercube = "hypercube",
        /// A binary fat tree with the PEs at the leaves: up to the common ancestor and down.
        FatTree = "fat-tree",
    }
}

impl Topology {
    /// Hops from PE `a` to PE `b` among `p` PEs (0 for a == b).
    pub fn hops(self, a: usize, b: usize, p: usize) -> u64 {
        if a == b {
            return 0;
        }
        match self {
            Topology::Crossbar => 1,
            Topology::Ring => {
                let d = a.abs_diff(b);
                d.min(p - d) as u64
            }
            Topology::Mesh2d => {
                let side = ceil_root(p, 2);
                ((a % side).abs_diff(b % side) + (a / side).abs_diff(b / side)) as u64
            }
            Topology::Mesh3d => {
                let side = ceil_root(p, 3);
                let (ax, ay, az) = (a % side, (a / side) % side, a / (side * side));
                let (bx, by, bz) = (b % side, (b / side) % side, b / (side * side));
                (ax.abs_diff(bx) + ay.abs_diff(by) + az.abs_diff(bz)) as u64
            }
            Topology::Hypercube => (a ^ b).count_ones() as u64,
            Topology::FatTree => 2 * u64::from(usize::BITS - (a ^ b).leading_zeros()),
        }
    }

    /// The neighbours of PE `a`: the PEs one hop away (on a fat tree, where every path has
    /// at least two hops, the PEs under the same lowest switch; on a crossbar, every other
    /// PE). Computed directly, in O(degree).
    pub fn neighbours(self, a: usize, p: usize) -> Vec<usize> {
        let mut n: Vec<usize> = match self {
            Topology::Crossbar => (0..p).filter(|&b| b != a).collect(),
            Topology::Ring => [(a + 1) % p, (a + p - 1) % p].into_iter().collect(),
            Topology::Mesh2d | Topology::Mesh3d => {
                let k = if self == Topology::Mesh2d { 2 } else { 3 };
                let side = ceil_root(p, k);
                let mut v = Vec::new();
                let mut stride = 1;
                for _ in 0..k {
                    let coord = (a / stride) % side;
                    if coord > 0 {
                        v.push(a - stride);
                    }
                    if coord + 1 < side && a + stride < p {
                        v.push(a + stride);
                    }
                    stride *= side;
                }
                v
            }
            Topology::Hypercube => (0..usize::BITS)
                .map(|d| a ^ (1 << d))
                .filter(|&b| b < p)
                .collect(),
            Topology::FatTree => [a ^ 1].into_iter().filter(|&b| b < p).collect(),
        };
        n.retain(|&b| b != a);
        n.sort_unstable();
        n.dedup();
        n
    }
}

/// The smallest s with s^k ≥ p.
pub(crate) fn ceil_root(p: usize, k: u32) -> usize {
    let mut s = (p as f64).powf(1.0 / k as f64).floor().max(1.0) as usize;
    while s.pow(k) < p {
        s += 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_the_pes_one_hop_away() {
        for t in [
            Topology::Ring,
            Topology::Mesh2d,
            Topology::Mesh3d,
            Topology::Hypercube,
        ] {
            for p in [2, 3, 5, 8, 10, 27, 30, 64] {
                for a in 0..p {
                    let by_hops: Vec<usize> = (0..p).filter(|&b| t.hops(a, b, p) == 1).collect();
                    assert_eq!(t.neighbours(a, p), by_hops, "{t} P={p} PE {a}");
                }
            }
        }
        assert_eq!(Topology::FatTree.neighbours(4, 8), vec![5]);
        assert_eq!(Topology::Crossbar.neighbours(1, 4), vec![0, 2, 3]);
    }
}
