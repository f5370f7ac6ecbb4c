//! Interconnection topologies: distances between PEs and their neighbours. The simulator
//! uses them for latencies (paper 002 §2.1: a message k hops away takes k·T_hop), and
//! neighbour polling uses them to choose whom to ask for work (paper 002 §1.1).

mod routes;

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
        /// A wrapped butterfly of k levels (k·2^k nodes, the smallest k with k·2^k ≥ P): node
        /// (ℓ, w) = ℓ·2^k + w is joined to ((ℓ+1) mod k, w) and ((ℓ+1) mod k, w XOR 2^ℓ).
        Butterfly = "butterfly",
        /// Cube-connected cycles (k·2^k nodes as for the butterfly): node (ℓ, w) is joined to
        /// its cycle neighbours (ℓ±1 mod k, w) and across to (ℓ, w XOR 2^ℓ).
        Ccc = "ccc",
        /// The shuffle-exchange network on 2^k ≥ P nodes: x is joined to x XOR 1 (exchange)
        /// and to its rotations by one bit (shuffle, unshuffle).
        ShuffleExchange = "shuffle-exchange",
        /// The binary de Bruijn graph on 2^k ≥ P nodes, undirected: x is joined to
        /// (2x + b) mod 2^k and (x + b·2^k)/2 for b ∈ {0, 1}.
        DeBruijn = "de-bruijn",
        /// The 2-D mesh of trees (paper 002 §4.1): the PEs are the leaves of a grid of
        /// ⌈√P⌉ columns (row-major numbering, as the 2-D mesh), every row and every column
        /// joined by a complete binary tree of routers (over 2^⌈log₂ ⌈√P⌉⌉ leaves); a
        /// message climbs its row's tree to the destination's column, then that column's
        /// tree: 2·(bits of c₁ XOR c₂) + 2·(bits of r₁ XOR r₂) hops.
        MeshOfTrees = "mesh-of-trees",
    }
}

impl Topology {
    /// Hops from PE `a` to PE `b` among `p` PEs (0 for a == b). On the hypercubic networks
    /// ([`Topology::is_hypercubic`]) this is a breadth-first search over the whole network
    /// (O(nodes)); the simulator keeps the rows it needs (`machine::sim::Network`).
    pub fn hops(self, a: usize, b: usize, p: usize) -> u64 {
        if a == b {
            return 0;
        }
        match self {
            Topology::Butterfly
            | Topology::Ccc
            | Topology::ShuffleExchange
            | Topology::DeBruijn => u64::from(self.bfs(a, p)[b]),
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
            Topology::MeshOfTrees => {
                let side = ceil_root(p, 2);
                2 * (tree_height(a % side, b % side) + tree_height(a / side, b / side))
            }
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
            Topology::MeshOfTrees => {
                // The siblings under the lowest router of its row tree and of its column
                // tree (every path between PEs has at least two hops).
                let side = ceil_root(p, 2);
                let (row, col) = (a / side, a % side);
                let across = ((col ^ 1) < side).then_some(row * side + (col ^ 1));
                [across, Some((row ^ 1) * side + col)]
                    .into_iter()
                    .flatten()
                    .filter(|&b| b < p)
                    .collect()
            }
            Topology::Butterfly
            | Topology::Ccc
            | Topology::ShuffleExchange
            | Topology::DeBruijn => {
                let k = self.order(p);
                self.graph_neighbours(a, k)
                    .into_iter()
                    .filter(|&b| b < p)
                    .collect()
            }
        };
        n.retain(|&b| b != a);
        n.sort_unstable();
        n.dedup();
        n
    }
}

impl Topology {
    /// True for the constant-degree hypercubic networks of paper 002 §4 (Theorem 2):
    /// butterfly, cube-connected cycles, shuffle-exchange and de Bruijn. Their PEs sit on
    /// the first P nodes of the smallest such network with at least P nodes; the other
    /// nodes only route.
    pub fn is_hypercubic(self) -> bool {
        matches!(
            self,
            Topology::Butterfly | Topology::Ccc | Topology::ShuffleExchange | Topology::DeBruijn
        )
    }

    /// The order k of the hypercubic network that holds `p` PEs: the smallest k ≥ 1 with
    /// k·2^k ≥ p (butterfly, CCC) or 2^k ≥ p (shuffle-exchange, de Bruijn).
    pub fn order(self, p: usize) -> u32 {
        let mut k = 1;
        while self.nodes_of_order(k) < p {
            k += 1;
        }
        k
    }

    /// The number of nodes of the hypercubic network of order `k`.
    fn nodes_of_order(self, k: u32) -> usize {
        match self {
            Topology::Butterfly | Topology::Ccc => (k as usize) << k,
            _ => 1 << k,
        }
    }

    /// A shortest-path tree of the hypercubic network holding `p` PEs, rooted at PE 0, as
    /// the parent of each PE: the first PE on its breadth-first path back to PE 0 (routers,
    /// nodes ≥ p, are passed through). Every PE's path to PE 0 in the tree is a shortest path
    /// of the network.
    pub(crate) fn shortest_path_parents(self, p: usize) -> Vec<usize> {
        let k = self.order(p);
        let mut up = vec![0; self.nodes_of_order(k)];
        // A PE hangs below the nearest PE on its path; a router passes that PE on.
        self.bfs_edges(0, k, |x, y| up[y] = if x < p { x } else { up[x] });
        up.truncate(p);
        up
    }

    /// The nodes of the hypercubic network holding `p` PEs (≥ p).
    pub fn nodes(self, p: usize) -> usize {
        self.nodes_of_order(self.order(p))
    }

    /// The network nodes joined to node `x` in the hypercubic network of order `k` (routers
    /// included, so possibly ≥ P; with repeats and x itself for tiny k).
    pub(crate) fn graph_neighbours(self, x: usize, k: u32) -> Vec<usize> {
        let n = 1usize << k;
        match self {
            Topology::Butterfly | Topology::Ccc => {
                let ku = k as usize;
                let (l, w) = (x / n, x % n);
                let id = |l: usize, w: usize| l * n + w;
                let (up, down) = ((l + 1) % ku, (l + ku - 1) % ku);
                if self == Topology::Butterfly {
                    // Straight and cross edges to the next level, and those from the previous.
                    vec![
                        id(up, w),
                        id(up, w ^ (1 << l)),
                        id(down, w),
                        id(down, w ^ (1 << down)),
                    ]
                } else {
                    vec![id(up, w), id(down, w), id(l, w ^ (1 << l))]
                }
            }
            Topology::ShuffleExchange => {
                let rotl = ((x << 1) | (x >> (k - 1))) & (n - 1);
                let rotr = ((x >> 1) | ((x & 1) << (k - 1))) & (n - 1);
                vec![x ^ 1, rotl, rotr]
            }
            Topology::DeBruijn => vec![
                (x << 1) & (n - 1),
                ((x << 1) | 1) & (n - 1),
                x >> 1,
                (x >> 1) | (n >> 1),
            ],
            _ => unreachable!("{self} is not hypercubic"),
        }
    }

    /// Hops from PE `a` to every node of the hypercubic network holding `p` PEs (BFS).
    pub(crate) fn bfs(self, a: usize, p: usize) -> Vec<u16> {
        self.bfs_from(a, self.order(p))
    }

    /// Hops from node `a` to every node of the hypercubic network of order `k`.
    fn bfs_from(self, a: usize, k: u32) -> Vec<u16> {
        let mut dist = vec![u16::MAX; self.nodes_of_order(k)];
        dist[a] = 0;
        self.bfs_edges(a, k, |x, y| dist[y] = dist[x] + 1);
        dist
    }

    /// Breadth-first search of the hypercubic network of order `k` from node `a`: calls
    /// `discover(x, y)` once for each node y ≠ a, in breadth-first order, with x the node it
    /// was first reached from.
    fn bfs_edges(self, a: usize, k: u32, mut discover: impl FnMut(usize, usize)) {
        let mut seen = vec![false; self.nodes_of_order(k)];
        let mut queue = std::collections::VecDeque::from([a]);
        seen[a] = true;
        while let Some(x) = queue.pop_front() {
            for y in self.graph_neighbours(x, k) {
                if !seen[y] {
                    seen[y] = true;
                    discover(x, y);
                    queue.push_back(y);
                }
            }
        }
    }

    /// The diameter in hops of the hypercubic network holding `p` PEs (the whole network,
    /// routers included: an upper bound on the largest distance between two PEs, exact when
    /// P fills it): wrapped butterfly k + ⌊k/2⌋, CCC 2k + ⌊k/2⌋ − 2 (k ≥ 4), shuffle-exchange
    /// 2k − 1, de Bruijn k. Small orders, where the formulas do not hold, are searched.
    pub(crate) fn hypercubic_diameter(self, p: usize) -> u64 {
        let k = u64::from(self.order(p));
        match self {
            Topology::Butterfly if k >= 2 => k + k / 2,
            Topology::Ccc if k >= 4 => 2 * k + k / 2 - 2,
            Topology::ShuffleExchange if k >= 2 => 2 * k - 1,
            Topology::DeBruijn => k,
            _ => (0..self.nodes(p))
                .map(|a| u64::from(*self.bfs_from(a, k as u32).iter().max().expect("nodes")))
                .max()
                .unwrap_or(0),
        }
    }
}

/// The height of the lowest common ancestor of leaves `x` and `y` of a complete binary
/// tree: the bits of x XOR y (0 for x == y).
pub(crate) fn tree_height(x: usize, y: usize) -> u64 {
    u64::from(usize::BITS - (x ^ y).leading_zeros())
}

impl Topology {
    /// The mesh of trees holding `p` PEs: its grid side ⌈√P⌉, the height k = ⌈log₂ side⌉ of
    /// its row and column trees, and its nodes — side² leaves (those numbered ≥ P only
    /// route) and the routers of 2·side trees, each with ⌈side/2⌉ + ⌈side/4⌉ + … + 1 (side − 1
    /// when side is a power of two).
    pub fn mesh_of_trees_shape(p: usize) -> (usize, u32, usize) {
        let side = ceil_root(p, 2);
        let k = usize::BITS - (side.max(1) - 1).leading_zeros();
        let routers: usize = (1..=k).map(|j| side.div_ceil(1 << j)).sum();
        (side, k, side * side + 2 * side * routers)
    }

    /// The largest distance between two of the `p` PEs of a mesh of trees:
    /// 2·(bits of side − 1) + 2·(bits of rows − 1), rows = ⌈P/side⌉ (4·log₂ √P when P fills a
    /// grid whose side is a power of two). Exact: PEs (0, side − 1) and (rows − 1, 0) exist.
    pub fn mesh_of_trees_diameter(p: usize) -> u64 {
        let side = ceil_root(p, 2);
        let rows = p.div_ceil(side.max(1));
        if p <= 1 {
            return 0;
        }
        2 * (tree_height(0, side - 1) + tree_height(0, rows.max(1) - 1))
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
        for t in Topology::ALL.iter().filter(|t| t.is_hypercubic()) {
            for p in [2, 3, 5, 8, 24, 30, 64, 100] {
                for a in 0..p {
                    let by_hops: Vec<usize> = (0..p).filter(|&b| t.hops(a, b, p) == 1).collect();
                    assert_eq!(t.neighbours(a, p), by_hops, "{t} P={p} PE {a}");
                }
            }
        }
        assert_eq!(Topology::Crossbar.neighbours(1, 4), vec![0, 2, 3]);
        // Mesh of trees: every path has two hops at least; the neighbours are the PEs two
        // hops away (the siblings in the row's and the column's tree).
        for p in [2, 3, 5, 8, 10, 16, 27, 30, 64] {
            for a in 0..p {
                let t = Topology::MeshOfTrees;
                let by_hops: Vec<usize> = (0..p).filter(|&b| t.hops(a, b, p) == 2).collect();
                assert_eq!(t.neighbours(a, p), by_hops, "P={p} PE {a}");
            }
        }
    }

    /// The 4×4 mesh of trees worked by hand: PE (r, c) = 4r + c; each row and column has a
    /// tree of two levels of routers. Same row, columns 0 and 1: up to their common router
    /// and down, 2 hops; columns 0 and 2: up to the row's root, 4; across rows and columns,
    /// row tree then column tree.
    #[test]
    fn mesh_of_trees_by_hand() {
        let t = Topology::MeshOfTrees;
        let hops = |a, b| t.hops(a, b, 16);
        assert_eq!(hops(0, 1), 2);
        assert_eq!(hops(0, 2), 4);
        assert_eq!(hops(1, 2), 4, "columns 1 and 2 meet only at the root");
        assert_eq!(hops(0, 4), 2);
        assert_eq!(hops(0, 5), 4);
        assert_eq!(hops(5, 6), 4);
        assert_eq!(hops(0, 15), 8);
        assert_eq!(hops(3, 12), 8);
        assert_eq!(hops(6, 9), 8, "(1,2)→(2,1): 4 along row 1, 4 down column 1");
        // Diameter 4·log₂ 4 = 8; 16 leaves and 2·4 trees of 3 routers.
        assert_eq!(Topology::mesh_of_trees_diameter(16), 8);
        assert_eq!(Topology::mesh_of_trees_shape(16), (4, 2, 16 + 24));
        let max = (0..16).flat_map(|a| (0..16).map(move |b| hops(a, b))).max();
        assert_eq!(max, Some(8));
        // 64×64 (4096 PEs): 4·6 = 24; 65,536 PEs: 4·8 = 32.
        assert_eq!(Topology::mesh_of_trees_diameter(4096), 24);
        assert_eq!(Topology::mesh_of_trees_diameter(1 << 16), 32);
        // Partly filled grids: the diameter is the largest distance between PEs.
        for p in [1, 2, 3, 5, 10, 30, 50, 100] {
            let max = (0..p)
                .flat_map(|a| (0..p).map(move |b| t.hops(a, b, p)))
                .max()
                .unwrap();
            assert_eq!(Topology::mesh_of_trees_diameter(p), max, "P={p}");
        }
        // 6 columns: trees over 8 leaf places, 3 + 2 + 1 routers each.
        assert_eq!(Topology::mesh_of_trees_shape(30), (6, 3, 36 + 12 * 6));
    }

    /// The explicit graphs of the hypercubic networks, written out edge by edge from their
    /// textbook definitions (independent of `graph_neighbours`), searched by BFS: `hops`
    /// must agree on every pair, the degree must be the network's, and the diameters the
    /// published ones.
    #[test]
    fn hypercubic_hops_match_bfs_on_the_explicit_graph() {
        fn explicit(t: Topology, k: u32) -> Vec<Vec<usize>> {
            let rows = 1usize << k;
            let ku = k as usize;
            let n = t.nodes_of_order(k);
            let mut adj = vec![Vec::new(); n];
            let mut edge = |a: usize, b: usize| {
                if a != b {
                    adj[a].push(b);
                    adj[b].push(a);
                }
            };
            match t {
                Topology::Butterfly => {
                    for l in 0..ku {
                        for w in 0..rows {
                            let next = (l + 1) % ku;
                            edge(l * rows + w, next * rows + w);
                            edge(l * rows + w, next * rows + (w ^ (1 << l)));
                        }
                    }
                }
                Topology::Ccc => {
                    for l in 0..ku {
                        for w in 0..rows {
                            edge(l * rows + w, ((l + 1) % ku) * rows + w);
                            edge(l * rows + w, l * rows + (w ^ (1 << l)));
                        }
                    }
                }
                Topology::ShuffleExchange => {
                    for x in 0..rows {
                        edge(x, x ^ 1);
                        edge(x, ((x << 1) | (x >> (k - 1))) & (rows - 1));
                    }
                }
                Topology::DeBruijn => {
                    for x in 0..rows {
                        edge(x, (2 * x) % rows);
                        edge(x, (2 * x + 1) % rows);
                    }
                }
                _ => unreachable!(),
            }
            adj
        }
        for t in Topology::ALL.iter().copied().filter(|t| t.is_hypercubic()) {
            for k in 1..=6u32 {
                let adj = explicit(t, k);
                let n = adj.len();
                let mut diameter = 0;
                for a in 0..n {
                    let mut dist = vec![u64::MAX; n];
                    dist[a] = 0;
                    let mut queue = std::collections::VecDeque::from([a]);
                    while let Some(x) = queue.pop_front() {
                        for &y in &adj[x] {
                            if dist[y] == u64::MAX {
                                dist[y] = dist[x] + 1;
                                queue.push_back(y);
                            }
                        }
                    }
                    for (b, &d) in dist.iter().enumerate() {
                        assert_eq!(t.hops(a, b, n), d, "{t} k={k} {a}→{b}");
                    }
                    diameter = diameter.max(*dist.iter().max().unwrap());
                }
                assert_eq!(t.hypercubic_diameter(n), diameter, "{t} k={k} diameter");
            }
        }
        // Published values (2k + ⌊k/2⌋ − 2 for CCC, k + ⌊k/2⌋ for the wrapped butterfly).
        assert_eq!(Topology::Butterfly.hypercubic_diameter(24), 4);
        assert_eq!(Topology::Ccc.hypercubic_diameter(64), 8);
        assert_eq!(Topology::DeBruijn.hypercubic_diameter(1024), 10);
        assert_eq!(Topology::ShuffleExchange.hypercubic_diameter(1024), 19);
    }
}
