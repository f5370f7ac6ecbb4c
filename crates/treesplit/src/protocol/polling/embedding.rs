//! Poll-and-shuffle on other networks (paper 002 §4): which hypercube the PEs emulate, how
//! many of its dimensions a cycle uses, and the default phase length the network asks for.
//!
//! Poll-and-shuffle asks, after phase i of a cycle, the partner whose *hypercube label*
//! differs from one's own in bit i. The [`PhasePlan`] holds the labels and the phases per
//! cycle for the network the PEs sit on (the machine says which: the simulator its topology):
//!
//! - **r-dimensional meshes (§4.1, Theorem 3)**: a PE's label is the Morton
//!   (bit-interleaved) code of its mesh coordinates, so every j-cube lies in a submesh of
//!   diameter r·2^⌈j/r⌉ − r (the embedding of [14, Fig. 6.11]). When the side ⌈P^{1/r}⌉ is
//!   not a power of two, or P is not a full mesh, the labels are the ranks of the PEs'
//!   Morton codes (0..P in Z-order): a j-cube is then 2^j PEs consecutive along the Z-curve,
//!   still within a submesh of diameter O(2^{j/r}). The last ⌊r·log₂ log₂ P⌋ phases of a
//!   cycle are omitted (at least one phase is kept).
//! - **the mesh of trees (§4.1, last paragraph)**: the paper carries the mesh result over by
//!   emulating the mesh's algorithm on the mesh of trees ([1]); so does the plan: the PEs
//!   sit on the same √P-grid, the labels are the 2-D mesh's Morton ranks and the same last
//!   ⌊2·log₂ log₂ P⌋ phases are omitted. Partners along Morton bit i then meet in one row or
//!   column tree at height ⌊i/2⌋ + 1: 2·(⌊i/2⌋ + 1) hops (the mesh: 2^⌊i/2⌋), so T_phase,
//!   measured on the network, is Θ(log P) rather than the mesh's Θ(√P/log P). (Keeping every
//!   phase would cost only 2·⌈log₂ √P⌉ hops; the paper's reduction is the one written here.)
//! - **fat trees (§4.2, Theorem 4)**: labels are the leaf order, and a cycle runs only the
//!   ⌈√⌈log₂ P⌉⌉ lowest dimensions: polling stays inside sub fat trees of that height.
//! - **shuffle-exchange and de Bruijn networks (Theorem 2)**, P = 2^k PEs: the standard
//!   emulation of a normal hypercube algorithm ([17, §3.3.3]). In phase i the hypercube node
//!   x lives on PE rotr^i(x) (its bits rotated right i times), so its partner along dimension
//!   i, x XOR 2^i, lives on the exchange neighbour rotr^i(x) XOR 1 (one hop on the
//!   shuffle-exchange network, two on de Bruijn's); between phases every PE passes its pieces
//!   one unshuffle edge on, to rotr(pe) ([`PhasePlan::next_host`]), and after k phases every
//!   node is home again. Each dimension step is a constant number of hops.
//! - **wrapped butterflies and cube-connected cycles (Theorem 2)**, P = k·2^k PEs, PE
//!   (ℓ, w) = ℓ·2^k + w: the same emulation of a normal algorithm on the k-cube of the rows
//!   w ([17, §3.3.3]: row w holds hypercube node w, and its level-ℓ node does the work of
//!   dimension ℓ), pipelined so that every PE hosts a node: the P hypercube nodes are k
//!   copies of the k-cube, node (c, w) lives in phase i on PE ((c + i) mod k, w) and uses
//!   dimension (c + i) mod k of its copy, so each copy uses its k dimensions once per cycle,
//!   in (cyclic) order. The partner of PE (ℓ, w) is (ℓ, w XOR 2^ℓ): one cross edge on the
//!   cube-connected cycles, a cross and a straight edge on the butterfly; between phases
//!   every PE passes its pieces one level on, to (ℓ + 1 mod k, w), one edge. A cycle has k
//!   phases, log₂ P − log₂ k: like the mesh's omitted phases, the log₂ k dimensions that
//!   would join the copies are left to the permutation (every copy of a permutation is a
//!   uniformly random one: Lemma 2's symmetry holds within a copy).
//! - **hypercubes, rings and crossbars** (and the four above when P does not fill the
//!   network: a power of two, k·2^k): labels are the PE numbers, every one of the ⌈log₂ P⌉
//!   dimensions is used; on the hypercubic networks the partner is then reached by routing
//!   (O(log P) hops for some dimensions), and the default phase grows with that cost.
//!
//! [`Embedding::RowMajor`] (a configuration choice) keeps the plan of the hypercube on every network (labels = PE
//! numbers in row-major order, all dimensions): the variant the project ran before.
//!
//! T_phase: [`default_round`] is c times the communication of the most expensive phase
//! kept — the rotation of the pieces where the plan rotates, a request to the farthest
//! partner, its split and the answer, (2·H + R)·T_hop + T_split + Δt, with H the largest hop
//! distance between partners over the phases a cycle uses and R a rotation's hops. On a mesh H is the submesh diameter of the paper's formula, Θ(P^{1/r}/log P);
//! on a fat tree 2⌈√log P⌉; on a hypercube 1 (the simulator's old default round).

use crate::topology::{ceil_root, Topology};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub use crate::config::Embedding;

/// The default c of T_phase = c·(2·H·T_hop + T_split + Δt) ([`default_round`]).
pub const DEFAULT_PHASE_C: f64 = 1.0;

/// The hypercube poll-and-shuffle emulates on one network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhasePlan {
    p: usize,
    /// Phases per cycle: the lowest `phases` dimensions are used.
    phases: u64,
    /// label[pe] and pe[label] (both empty: labels are the PE numbers).
    label: Vec<u32>,
    pe: Vec<u32>,
    /// Theorem 2's emulation of a normal hypercube algorithm (module comment).
    emulation: Emulation,
}

/// How a hypercubic network emulates the hypercube's phases (module comment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Emulation {
    /// None: partners by label, pieces stay where they are.
    Routed,
    /// Shuffle-exchange and de Bruijn, P = 2^k: in phase i node x lives on rotr^i(x).
    Rotation { k: u32 },
    /// Wrapped butterfly and cube-connected cycles, P = k·2^k: in phase i node (c, w) lives
    /// on level (c + i) mod k of row w.
    Levels { k: u32 },
}

/// ⌈log₂ P⌉, at least 1.
fn dims(p: usize) -> u64 {
    u64::from(usize::BITS - (p.max(2) - 1).leading_zeros()).max(1)
}

/// The mesh dimension r of a topology (None: not a mesh); the mesh of trees emulates the 2-D
/// mesh on the same grid of PEs.
fn mesh_rank(t: Topology) -> Option<u32> {
    match t {
        Topology::Mesh2d | Topology::MeshOfTrees => Some(2),
        Topology::Mesh3d => Some(3),
        _ => None,
    }
}

/// The Morton code of PE `pe` on an r-dimensional mesh of side `side`, row-major numbering.
fn morton(pe: usize, side: usize, r: u32) -> u64 {
    let mut code = 0u64;
    let mut rest = pe;
    for axis in 0..r as u64 {
        let c = (rest % side) as u64;
        rest /= side;
        for bit in 0..(64 / r as u64) {
            code |= ((c >> bit) & 1) << (bit * r as u64 + axis);
        }
    }
    code
}

impl PhasePlan {
    /// The plan for `p` PEs on `network` (None: a hypercube numbering).
    pub fn new(network: Option<Topology>, p: usize, embedding: Embedding) -> Self {
        let d = dims(p);
        let identity = |phases: u64| PhasePlan {
            p,
            phases,
            label: Vec::new(),
            pe: Vec::new(),
            emulation: Emulation::Routed,
        };
        let Some(network) = network.filter(|_| embedding == Embedding::Network) else {
            return identity(d);
        };
        if let Some(r) = mesh_rank(network) {
            let side = ceil_root(p, r);
            let mut order: Vec<(u64, u32)> =
                (0..p).map(|pe| (morton(pe, side, r), pe as u32)).collect();
            order.sort_unstable();
            let pe: Vec<u32> = order.into_iter().map(|(_, pe)| pe).collect();
            let mut label = vec![0u32; p];
            for (l, &q) in pe.iter().enumerate() {
                label[q as usize] = l as u32;
            }
            let log_p = (p.max(2) as f64).log2();
            let omit = (f64::from(r) * log_p.log2().max(0.0)).floor() as u64;
            PhasePlan {
                p,
                phases: d.saturating_sub(omit).max(1),
                label,
                pe,
                emulation: Emulation::Routed,
            }
        } else if network == Topology::FatTree {
            identity(((d as f64).sqrt().ceil() as u64).clamp(1, d))
        } else if matches!(network, Topology::ShuffleExchange | Topology::DeBruijn)
            && p >= 4
            && p.is_power_of_two()
        {
            PhasePlan {
                emulation: Emulation::Rotation { k: d as u32 },
                ..identity(d)
            }
        } else if matches!(network, Topology::Butterfly | Topology::Ccc)
            && network.order(p) >= 2
            && network.nodes(p) == p
        {
            let k = network.order(p);
            PhasePlan {
                emulation: Emulation::Levels { k },
                ..identity(u64::from(k))
            }
        } else {
            identity(d)
        }
    }

    /// Phases per cycle.
    pub fn phases(&self) -> u64 {
        self.phases
    }

    /// PE `pe`'s hypercube label.
    pub fn label(&self, pe: usize) -> usize {
        self.label.get(pe).map_or(pe, |&l| l as usize)
    }

    /// The PE with hypercube label `label`.
    pub fn pe(&self, label: usize) -> usize {
        self.pe.get(label).map_or(label, |&q| q as usize)
    }

    /// PE `me`'s partner along dimension `dim` (None when that label is not a PE).
    pub fn partner(&self, me: usize, dim: u64) -> Option<usize> {
        let other = self.label(me) ^ (1usize << dim);
        (other < self.p).then(|| self.pe(other))
    }

    /// True when the plan emulates the hypercube by moving hosts (shuffle-exchange, de
    /// Bruijn, butterfly, cube-connected cycles): pieces move to [`Self::next_host`] before
    /// every phase but a cycle's first after a permutation.
    pub fn rotates(&self) -> bool {
        self.emulation != Emulation::Routed
    }

    /// The PE that hosts, in the next phase, the hypercube node PE `pe` hosts now: rotr(pe)
    /// on shuffle-exchange and de Bruijn, the next level of its row on butterfly and CCC.
    pub fn next_host(&self, pe: usize) -> usize {
        match self.emulation {
            Emulation::Routed => pe,
            Emulation::Rotation { k } => (pe >> 1) | ((pe & 1) << (k - 1)),
            Emulation::Levels { k } => {
                let (level, row) = (pe >> k, pe & ((1 << k) - 1));
                (((level + 1) % k as usize) << k) | row
            }
        }
    }

    /// The hypercube node PE `pe` hosts in phase `phase` of a cycle, named by the PE that
    /// hosts it in phase 0: rotl^phase(pe) on shuffle-exchange and de Bruijn, the level
    /// `phase` steps back in its row on butterfly and CCC, else its label.
    pub fn host_label(&self, pe: usize, phase: u64) -> usize {
        match self.emulation {
            Emulation::Routed => self.label(pe),
            Emulation::Rotation { k } => {
                let r = (phase % u64::from(k)) as u32;
                let mask = (1usize << k) - 1;
                ((pe << r) | (pe >> ((k - r) % k))) & mask
            }
            Emulation::Levels { k } => {
                let ku = k as usize;
                let (level, row) = (pe >> k, pe & ((1 << k) - 1));
                let back = (phase % u64::from(k)) as usize;
                (((level + ku - back) % ku) << k) | row
            }
        }
    }

    /// PE `me`'s partner in phase `phase` of a cycle, along the hypercube dimension its node
    /// uses then: the exchange neighbour me XOR 1 on shuffle-exchange and de Bruijn, the
    /// same level of row w XOR 2^ℓ on butterfly and CCC, else [`Self::partner`].
    pub fn partner_in_phase(&self, me: usize, phase: u64) -> Option<usize> {
        match self.emulation {
            Emulation::Routed => self.partner(me, phase),
            Emulation::Rotation { .. } => Some(me ^ 1),
            Emulation::Levels { k } => Some(me ^ (1 << (me >> k))),
        }
    }

    /// The root of the label tree: the PE labelled 0.
    pub fn root(&self) -> usize {
        self.pe(0)
    }

    /// PE `pe`'s parent in the label tree (None at the root). The label tree is the binomial
    /// tree over the hypercube labels rooted at label 0: label x's parent is x with its
    /// lowest set bit cleared, so every edge joins partners along one hypercube dimension —
    /// one hop on a hypercube, a Morton dimension's short path inside its submesh on a mesh.
    /// The permutation by messages counts and numbers along it.
    pub fn tree_parent(&self, pe: usize) -> Option<usize> {
        let x = self.label(pe);
        (x != 0).then(|| self.pe(x & (x - 1)))
    }

    /// PE `pe`'s children in the label tree, in increasing label order (child x + 2^j
    /// heads the labels x + 2^j .. x + 2^(j+1), so a preorder walk numbers labels in order).
    pub fn tree_children(&self, pe: usize) -> impl Iterator<Item = usize> + '_ {
        let x = self.label(pe);
        let low = if x == 0 {
            dims(self.p) as u32
        } else {
            x.trailing_zeros()
        };
        (0..low)
            .map(move |j| x | (1usize << j))
            .filter(move |&c| c < self.p)
            .map(move |c| self.pe(c))
    }

    /// The largest hop distance between partners over the phases a cycle uses, on
    /// `network` (on the hypercubic networks, over 64 evenly spread PEs per dimension).
    pub fn max_partner_hops(&self, network: Topology) -> u64 {
        let step = if network.is_hypercubic() {
            (self.p / 64).max(1)
        } else {
            1
        };
        let mut rows: HashMap<usize, Vec<u16>> = HashMap::new();
        let mut max = 0;
        for dim in 0..self.phases {
            for me in (0..self.p).step_by(step) {
                let Some(q) = self.partner_in_phase(me, dim) else {
                    continue;
                };
                let hops = if network.is_hypercubic() {
                    u64::from(rows.entry(me).or_insert_with(|| network.bfs(me, self.p))[q])
                } else {
                    network.hops(me, q, self.p)
                };
                max = max.max(hops);
            }
        }
        max.max(1)
    }

    /// The largest hop distance of a rotation step (0 without rotation).
    pub fn max_rotation_hops(&self, network: Topology) -> u64 {
        if !self.rotates() {
            return 0;
        }
        let step = (self.p / 64).max(1);
        (0..self.p)
            .step_by(step)
            .map(|pe| u64::from(network.bfs(pe, self.p)[self.next_host(pe)]))
            .max()
            .unwrap_or(0)
    }
}

/// The plan of a run, shared by its PEs (computed once per network, P and embedding).
pub fn plan(network: Option<Topology>, p: usize, embedding: Embedding) -> Arc<PhasePlan> {
    type Cache = Mutex<HashMap<(Option<Topology>, usize, Embedding), Arc<PhasePlan>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    cache
        .entry((network, p, embedding))
        .or_insert_with(|| Arc::new(PhasePlan::new(network, p, embedding)))
        .clone()
}

/// The default phase length T_phase of poll-and-shuffle on `network` (module comment):
/// ⌈c·(2·H·T_hop + T_split + Δt)⌉ with H the plan's largest partner distance.
pub fn default_round(
    network: Topology,
    p: usize,
    embedding: Embedding,
    (t_hop, t_split, delta_t): (u64, u64, u64),
    c: f64,
) -> u64 {
    let plan = plan(Some(network), p, embedding);
    let h = plan.max_partner_hops(network);
    let comm = h
        .saturating_mul(2)
        .saturating_add(plan.max_rotation_hops(network))
        .saturating_mul(t_hop)
        .saturating_add(t_split)
        .saturating_add(delta_t);
    ((comm as f64 * c).ceil() as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Theorem 3's embedding: on a 2^a × 2^a (and 2^a cubed) mesh every j-cube lies in a
    /// submesh of diameter r·2^⌈j/r⌉ − r, and the labels are a bijection.
    #[test]
    fn morton_subcubes_lie_in_small_submeshes() {
        for (t, r, p) in [
            (Topology::Mesh2d, 2u32, 256usize),
            (Topology::Mesh2d, 2, 4096),
            (Topology::Mesh3d, 3, 512),
        ] {
            let plan = PhasePlan::new(Some(t), p, Embedding::Network);
            let mut seen = vec![false; p];
            for pe in 0..p {
                assert_eq!(plan.pe(plan.label(pe)), pe);
                assert!(!seen[plan.label(pe)]);
                seen[plan.label(pe)] = true;
            }
            for j in 0..dims(p) as u32 {
                let bound = u64::from(r) * (1u64 << j.div_ceil(r)) - u64::from(r);
                for cube in (0..p).step_by(1 << j) {
                    let members: Vec<usize> = (cube..cube + (1 << j)).map(|l| plan.pe(l)).collect();
                    let diameter = members
                        .iter()
                        .flat_map(|&a| members.iter().map(move |&b| t.hops(a, b, p)))
                        .max()
                        .unwrap();
                    assert!(diameter <= bound, "{t} P={p} j={j}: {diameter} > {bound}");
                    // Exactly a box with ⌈(j−i)/r⌉ label bits on axis i.
                    let exact: u64 = (0..r).map(|i| (1u64 << ((j + r - 1 - i) / r)) - 1).sum();
                    assert_eq!(diameter, exact, "{t} P={p} j={j}");
                }
            }
        }
    }

    /// The mesh of trees' plan worked by hand on 4×4 PEs (PE (r, c) = 4r + c): the labels are
    /// the Morton codes, column bits at the even places, row bits at the odd; partners along
    /// dimensions 0 and 1 are siblings in a row or column tree (2 hops), along 2 and 3 they
    /// meet at a tree's root (4 hops). A cycle keeps 4 − ⌊2·log₂ 4⌋ = 0 → 1 phase; at 4096
    /// PEs, 5 (the mesh's), with partners at most 2·3 = 6 hops apart.
    #[test]
    fn mesh_of_trees_plan_by_hand() {
        let t = Topology::MeshOfTrees;
        let plan = PhasePlan::new(Some(t), 16, Embedding::Network);
        let labels: Vec<usize> = (0..16).map(|pe| plan.label(pe)).collect();
        assert_eq!(
            labels,
            [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]
        );
        for (dim, hops) in [(0, 2), (1, 2), (2, 4), (3, 4)] {
            for pe in 0..16 {
                let q = plan.partner(pe, dim).unwrap();
                assert_eq!(t.hops(pe, q, 16), hops, "PE {pe} dimension {dim}");
            }
        }
        assert_eq!(plan.phases(), 1);
        let big = PhasePlan::new(Some(t), 4096, Embedding::Network);
        assert_eq!(big.phases(), 5);
        assert_eq!(big.max_partner_hops(t), 6);
        assert_eq!(
            big,
            PhasePlan::new(Some(Topology::Mesh2d), 4096, Embedding::Network),
            "the mesh's plan, emulated"
        );
        // T_phase: 2·6·10 + 5 + 10.
        assert_eq!(
            default_round(t, 4096, Embedding::Network, (10, 5, 10), 1.0),
            135
        );
    }

    /// Row-major labels put a 6-cube on a 64×64 mesh along one row (diameter 63 > 14).
    #[test]
    fn row_major_subcubes_are_long() {
        let plan = PhasePlan::new(Some(Topology::Mesh2d), 4096, Embedding::RowMajor);
        assert_eq!(plan.phases(), 12);
        assert_eq!(Topology::Mesh2d.hops(plan.pe(0), plan.pe(63), 4096), 63);
    }

    #[test]
    fn phases_per_cycle() {
        let phases = |t, p| PhasePlan::new(Some(t), p, Embedding::Network).phases();
        // 2-D mesh: 12 − ⌊2·log₂ 12⌋ = 12 − 7; 14 − ⌊2·log₂ 14⌋ = 14 − 7.
        assert_eq!(phases(Topology::Mesh2d, 4096), 5);
        assert_eq!(phases(Topology::Mesh2d, 16384), 7);
        assert_eq!(phases(Topology::Mesh3d, 4096), 2);
        assert_eq!(phases(Topology::Mesh2d, 4), 1);
        // Fat tree: ⌈√12⌉ = 4, ⌈√14⌉ = 4, ⌈√16⌉ = 4, ⌈√17⌉ = 5.
        assert_eq!(phases(Topology::FatTree, 4096), 4);
        assert_eq!(phases(Topology::FatTree, 1 << 16), 4);
        assert_eq!(phases(Topology::FatTree, 1 << 17), 5);
        assert_eq!(phases(Topology::Hypercube, 1000), 10);
        assert_eq!(phases(Topology::Butterfly, 1000), 10);
        assert_eq!(PhasePlan::new(None, 1000, Embedding::Network).phases(), 10);
    }

    /// Non-square P: the ranked Morton labels are still a bijection whose partners are PEs.
    #[test]
    fn ranked_labels_for_any_p() {
        for p in [1, 2, 3, 10, 100, 2048, 1000] {
            for t in [Topology::Mesh2d, Topology::Mesh3d] {
                let plan = PhasePlan::new(Some(t), p, Embedding::Network);
                for pe in 0..p {
                    assert_eq!(plan.pe(plan.label(pe)), pe);
                    for dim in 0..plan.phases() {
                        if let Some(q) = plan.partner(pe, dim) {
                            assert_eq!(plan.partner(q, dim), Some(pe));
                        }
                    }
                }
            }
        }
    }

    /// The label tree spans every PE once, and each of its edges is one hypercube dimension
    /// of the labels (on a mesh: a pair within one Morton submesh).
    #[test]
    fn label_tree_edges_are_hypercube_dimensions() {
        for (t, p) in [
            (Some(Topology::Mesh2d), 4096usize),
            (Some(Topology::Mesh2d), 1000),
            (Some(Topology::Mesh3d), 512),
            (None, 13),
            (None, 1),
        ] {
            let plan = PhasePlan::new(t, p, Embedding::Network);
            let mut seen = vec![0u32; p];
            let mut stack = vec![plan.root()];
            while let Some(q) = stack.pop() {
                seen[q] += 1;
                for c in plan.tree_children(q) {
                    assert_eq!(plan.tree_parent(c), Some(q));
                    let diff = plan.label(c) ^ plan.label(q);
                    assert_eq!(diff.count_ones(), 1, "{t:?} P={p}: {q}-{c}");
                    stack.push(c);
                }
            }
            assert!(
                seen.iter().all(|&n| n == 1),
                "{t:?} P={p}: not a spanning tree"
            );
        }
        // On the 64×64 mesh, the deepest root-to-leaf path crosses every dimension once:
        // 2·(1 + 2 + … + 32) = 126 hops, the mesh's diameter.
        let plan = PhasePlan::new(Some(Topology::Mesh2d), 4096, Embedding::Network);
        let mut q = plan.pe(4095);
        let mut hops = 0;
        while let Some(up) = plan.tree_parent(q) {
            hops += Topology::Mesh2d.hops(q, up, 4096);
            q = up;
        }
        assert_eq!(hops, 126);
    }

    /// Theorem 2's emulation: in every phase the host of x XOR 2^i is the exchange neighbour
    /// of the host of x, hosts move one hop between phases, and after k phases every node
    /// is home.
    #[test]
    fn rotation_emulates_every_dimension_in_a_constant_number_of_hops() {
        for t in [Topology::ShuffleExchange, Topology::DeBruijn] {
            let p = 256;
            let plan = PhasePlan::new(Some(t), p, Embedding::Network);
            assert!(plan.rotates());
            for phase in 0..8u64 {
                for pe in 0..p {
                    let x = plan.host_label(pe, phase);
                    let q = plan.partner_in_phase(pe, phase).unwrap();
                    assert_eq!(plan.host_label(q, phase), x ^ (1 << phase), "{t}");
                    assert!(t.hops(pe, q, p) <= 2, "{t}: exchange");
                    let next = plan.next_host(pe);
                    assert_eq!(plan.host_label(next, phase + 1), x, "{t}: x moves on");
                    assert!(t.hops(pe, next, p) <= 1, "{t}: one hop");
                }
            }
            assert_eq!(plan.max_rotation_hops(t), 1);
        }
        assert!(
            !PhasePlan::new(Some(Topology::ShuffleExchange), 100, Embedding::Network).rotates()
        );
    }

    /// Theorem 2's emulation on the wrapped butterfly and cube-connected cycles: in every
    /// phase a PE's partner hosts the node across one row bit, one edge away on the CCC and
    /// two on the butterfly; hosts move one edge between phases; over a cycle every node
    /// uses each of its copy's k dimensions once; after k phases every node is home.
    #[test]
    fn levels_emulate_every_dimension_in_a_constant_number_of_hops() {
        for (t, cross) in [(Topology::Butterfly, 2), (Topology::Ccc, 1)] {
            for (k, p) in [(4usize, 64usize), (5, 160)] {
                let plan = PhasePlan::new(Some(t), p, Embedding::Network);
                assert!(plan.rotates(), "{t} P={p}");
                assert_eq!(plan.phases(), k as u64);
                for x in 0..p {
                    // Follow node x (hosted by PE x in phase 0) through a cycle.
                    assert_eq!(plan.host_label(x, 0), x);
                    let mut host = x;
                    let mut used = 0usize;
                    for phase in 0..k as u64 {
                        assert_eq!(plan.host_label(host, phase), x, "{t}: x is hosted");
                        let q = plan.partner_in_phase(host, phase).unwrap();
                        let y = plan.host_label(q, phase);
                        let diff = x ^ y;
                        assert_eq!(diff.count_ones(), 1, "{t}: one hypercube dimension");
                        assert!(diff < 1 << k, "{t}: within x's copy");
                        assert_eq!(plan.partner_in_phase(q, phase), Some(host));
                        used |= diff;
                        assert_eq!(t.hops(host, q, p), cross, "{t}: partner");
                        let next = plan.next_host(host);
                        assert_eq!(t.hops(host, next, p), 1, "{t}: one edge on");
                        host = next;
                    }
                    assert_eq!(used, (1 << k) - 1, "{t}: every dimension once");
                    assert_eq!(host, x, "{t}: home after a cycle");
                }
                assert_eq!(plan.max_rotation_hops(t), 1);
                assert_eq!(plan.max_partner_hops(t), cross);
            }
            // P not filling the network: partners by routing.
            assert!(!PhasePlan::new(Some(t), 100, Embedding::Network).rotates());
        }
    }

    #[test]
    fn default_rounds_follow_the_network() {
        let times = (10, 5, 10);
        // Hypercube: one hop, the simulator's old default 2·T_rout + T_split + Δt.
        assert_eq!(
            default_round(Topology::Hypercube, 4096, Embedding::Network, times, 1.0),
            35
        );
        // 64×64 mesh, dimensions 0..5: partners up to 4 hops apart.
        assert_eq!(
            default_round(Topology::Mesh2d, 4096, Embedding::Network, times, 1.0),
            95
        );
        // Row-major: dimension 11 is 32 rows apart.
        assert_eq!(
            default_round(Topology::Mesh2d, 4096, Embedding::RowMajor, times, 1.0),
            655
        );
        // Fat tree of 4096 leaves, 4 phases: partners up to 8 hops apart.
        assert_eq!(
            default_round(Topology::FatTree, 4096, Embedding::Network, times, 2.0),
            350
        );
    }
}
