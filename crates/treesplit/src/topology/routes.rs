//! The route a message takes through each network, as the directed links it crosses: what
//! the simulator's link contention (`machine::sim::links`) books, so that two messages whose
//! routes share a link really meet there. Every route is a shortest path (its length is
//! [`Topology::hops`]), chosen deterministically:
//!
//! - crossbar: one link, the receiver's input port of the switch (messages to one PE
//!   serialize there; every other pair is disjoint);
//! - ring: the shorter way round, increasing numbers on a tie;
//! - 2-D and 3-D meshes: dimension order (x, then y, then z). Where the mesh is not full
//!   (P < side^k, the last row or layer part-filled) and a corner of that route is missing,
//!   the route first makes every decreasing move, then every increasing one (each phase in
//!   dimension order), which never leaves the PEs;
//! - hypercube: e-cube routing, the differing bits fixed from the lowest up (nodes ≥ P
//!   route, as for the distance);
//! - fat tree: up to the common ancestor and down. The link above a subtree of 2^j leaves
//!   has 2^j channels (the tree is fat: full bisection); a message takes channel
//!   (destination mod 2^j) on every level, up and down (destination-mod-k routing), so two
//!   messages collide only where they share a source's or destination's subtree and a channel;
//! - mesh of trees: up the source's row tree to the common ancestor of the two columns and
//!   down to the destination's column, then up that column's tree and down to the
//!   destination's row (each tree edge one link each way: the trees are not fat);
//! - butterfly, cube-connected cycles, shuffle-exchange, de Bruijn: a breadth-first
//!   shortest path, each step to the first neighbour (in the network's own neighbour order)
//!   that is one hop closer to the destination (the destination's BFS row tells).
//!
//! A link is named by a number unique within one network of P PEs: its tail node and its
//! port (or, on the fat tree, its level, direction, subtree and channel).

use super::{ceil_root, Topology};

/// A mesh-of-trees link's name: in the row (or column) tree `tree`, the edge from node
/// `index` of level `level` (leaves are level 0) to its parent, up or down.
fn tree_link(column: bool, tree: usize, level: u64, down: bool, index: usize) -> u64 {
    (u64::from(column) << 63)
        | (u64::from(down) << 62)
        | (level << 56)
        | ((tree as u64) << 28)
        | index as u64
}

/// A fat-tree link's name: level `j`, up or down, and the subtree-and-channel index below
/// 2^(bits of P) (the subtree's number above the channel's j bits).
fn fat_link(j: u32, down: bool, subtree: usize, channel: usize) -> u64 {
    (u64::from(j) << 40) | (u64::from(down) << 39) | ((subtree << j) | channel) as u64
}

impl Topology {
    /// Append to `out` the links of the route from PE `a` to PE `b` among `p` PEs (none for
    /// a == b). `row_to_b`: on the hypercubic networks, the hops from `b` to every node of
    /// the network (`Topology::bfs`, untruncated); ignored elsewhere.
    pub fn route(self, a: usize, b: usize, p: usize, row_to_b: Option<&[u16]>, out: &mut Vec<u64>) {
        if a == b {
            return;
        }
        match self {
            Topology::Crossbar => out.push(b as u64),
            Topology::Ring => {
                let forward = (b + p - a) % p;
                let (step, port) = if forward <= p - forward {
                    (1, 0)
                } else {
                    (p - 1, 1)
                };
                let mut x = a;
                while x != b {
                    out.push((x * 2 + port) as u64);
                    x = (x + step) % p;
                }
            }
            Topology::Mesh2d | Topology::Mesh3d => {
                let k = if self == Topology::Mesh2d { 2 } else { 3 };
                mesh_route(k, ceil_root(p, k as u32), a, b, p, out);
            }
            Topology::Hypercube => {
                let mut x = a;
                for d in 0..usize::BITS {
                    if ((x ^ b) >> d) & 1 == 1 {
                        out.push(((x as u64) << 6) | u64::from(d));
                        x ^= 1 << d;
                    }
                }
            }
            Topology::FatTree => {
                let h = usize::BITS - (a ^ b).leading_zeros();
                for j in 0..h {
                    out.push(fat_link(j, false, a >> j, b & ((1 << j) - 1)));
                }
                for j in (0..h).rev() {
                    out.push(fat_link(j, true, b >> j, b & ((1 << j) - 1)));
                }
            }
            Topology::MeshOfTrees => {
                let side = ceil_root(p, 2);
                let (ra, ca, rb, cb) = (a / side, a % side, b / side, b % side);
                // Row ra's tree from column ca to cb, then column cb's tree from ra to rb.
                for (column, tree, from, to) in [(false, ra, ca, cb), (true, cb, ra, rb)] {
                    let h = super::tree_height(from, to);
                    for j in 0..h {
                        out.push(tree_link(column, tree, j, false, from >> j));
                    }
                    for j in (0..h).rev() {
                        out.push(tree_link(column, tree, j, true, to >> j));
                    }
                }
            }
            _ => {
                let row = row_to_b.expect("a hypercubic route needs the destination's BFS row");
                let k = self.order(p);
                let mut x = a;
                while x != b {
                    let here = row[x];
                    let (port, next) = self
                        .graph_neighbours(x, k)
                        .into_iter()
                        .enumerate()
                        .find(|&(_, y)| row[y] + 1 == here)
                        .expect("a BFS row has a neighbour one hop closer");
                    out.push(((x as u64) << 2) | port as u64);
                    x = next;
                }
            }
        }
    }
}

/// The route on a k-dimensional mesh of side `side` (row-major numbering, `p` PEs): see the
/// module comment. A link is its tail node and port 2·dimension + (1 if decreasing).
fn mesh_route(k: usize, side: usize, a: usize, b: usize, p: usize, out: &mut Vec<u64>) {
    let coords = |x: usize| -> [usize; 3] {
        let mut c = [0; 3];
        let mut rest = x;
        for slot in c.iter_mut().take(k) {
            *slot = rest % side;
            rest /= side;
        }
        c
    };
    let index = |c: &[usize; 3]| (0..k).rev().fold(0, |acc, d| acc * side + c[d]);
    let (ca, cb) = (coords(a), coords(b));
    // Dimension order's corners: a with its first d coordinates replaced by b's.
    let corners_exist = (1..k).all(|d| {
        let mut c = ca;
        c[..d].copy_from_slice(&cb[..d]);
        index(&c) < p
    });
    let moves: Vec<usize> = if corners_exist {
        (0..k).collect()
    } else {
        let down = (0..k).filter(|&d| cb[d] < ca[d]);
        down.chain((0..k).filter(|&d| cb[d] > ca[d])).collect()
    };
    let mut c = ca;
    for d in moves {
        while c[d] != cb[d] {
            let decreasing = cb[d] < c[d];
            out.push((index(&c) * 2 * k + 2 * d + usize::from(decreasing)) as u64);
            if decreasing {
                c[d] -= 1;
            } else {
                c[d] += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every route has the network's distance as its length, never repeats a link, and on
    /// the meshes and the ring never passes a node that is not a PE.
    #[test]
    fn routes_are_shortest_paths() {
        for &t in Topology::ALL {
            for p in [1, 2, 3, 5, 8, 10, 24, 27, 30, 64] {
                let rows: Vec<Vec<u16>> = if t.is_hypercubic() {
                    (0..p).map(|b| t.bfs(b, p)).collect()
                } else {
                    Vec::new()
                };
                for a in 0..p {
                    for b in 0..p {
                        let mut r = Vec::new();
                        t.route(a, b, p, rows.get(b).map(|r| r.as_slice()), &mut r);
                        assert_eq!(r.len() as u64, t.hops(a, b, p), "{t} P={p} {a}→{b}");
                        let distinct: HashSet<_> = r.iter().collect();
                        assert_eq!(distinct.len(), r.len(), "{t} P={p} {a}→{b} repeats a link");
                        if matches!(t, Topology::Mesh2d | Topology::Mesh3d) {
                            let k = if t == Topology::Mesh2d { 4 } else { 6 };
                            assert!(r.iter().all(|&l| (l as usize) / k < p), "{t} P={p}");
                        }
                    }
                }
            }
        }
    }

    /// Routes worked out by hand.
    #[test]
    fn routes_by_hand() {
        let route = |t: Topology, a, b, p| {
            let mut r = Vec::new();
            t.route(a, b, p, None, &mut r);
            r
        };
        // 4×4 mesh, 0 → 15: x first along row 0 (ports 0 = +x), then y up column 3 (port 2).
        assert_eq!(
            route(Topology::Mesh2d, 0, 15, 16),
            vec![0, 4, 8, 3 * 4 + 2, 7 * 4 + 2, 11 * 4 + 2]
        );
        // 10 PEs on a 4×3 mesh (row 2 holds PEs 8, 9): 9 → 3 in dimension order would turn
        // at 11, not a PE, so the route goes down column 1 first (port 3 = −y), then right.
        assert_eq!(
            route(Topology::Mesh2d, 9, 3, 10),
            vec![9 * 4 + 3, 5 * 4 + 3, 4, 2 * 4]
        );
        // 3 → 9 turns at 1, a PE: dimension order (left along row 0, port 1, then up).
        assert_eq!(
            route(Topology::Mesh2d, 3, 9, 10),
            vec![3 * 4 + 1, 2 * 4 + 1, 4 + 2, 5 * 4 + 2]
        );
        // Hypercube 0b101 → 0b010: bits 0, 1, 2 in turn.
        assert_eq!(
            route(Topology::Hypercube, 5, 2, 8),
            vec![5 << 6, (4 << 6) | 1, (6 << 6) | 2]
        );
        // Ring of 8: 1 → 6 the short way back (port 1), through 0 and 7.
        assert_eq!(route(Topology::Ring, 1, 6, 8), vec![3, 1, 15]);
        // Crossbar: the receiver's port only.
        assert_eq!(route(Topology::Crossbar, 1, 3, 4), vec![3]);
        // Fat tree: 0 → 1 and 2 → 1 share the last link down into leaf 1, and nothing else;
        // 0 → 1 and 0 → 3 share leaf 0's own link up and nothing else.
        let (r01, r21, r03) = (
            route(Topology::FatTree, 0, 1, 4),
            route(Topology::FatTree, 2, 1, 4),
            route(Topology::FatTree, 0, 3, 4),
        );
        let shared = |x: &[u64], y: &[u64]| x.iter().filter(|l| y.contains(l)).count();
        assert_eq!(shared(&r01, &r21), 1);
        assert_eq!(shared(&r01, &r03), 1);
        assert_eq!(shared(&r21, &r03), 0);
        // 4×4 mesh of trees: 0 → 15 climbs row 0's tree to its root and down to column 3
        // (4 links), then column 3's tree (4 links); 1 → 2 crosses row 0's root too, so it
        // shares that root's two links with 0 → 15's, and nothing else; 4 → 7 (row 1) is
        // disjoint from both.
        let r = |a, b| route(Topology::MeshOfTrees, a, b, 16);
        let (r0_15, r1_2, r4_7) = (r(0, 15), r(1, 2), r(4, 7));
        assert_eq!(r0_15.len(), 8);
        assert_eq!(
            r0_15[..4],
            [
                tree_link(false, 0, 0, false, 0),
                tree_link(false, 0, 1, false, 0),
                tree_link(false, 0, 1, true, 1),
                tree_link(false, 0, 0, true, 3),
            ]
        );
        assert_eq!(shared(&r0_15, &r1_2), 2);
        assert_eq!(shared(&r0_15, &r4_7), 0);
        assert_eq!(shared(&r1_2, &r4_7), 0);
    }
}
