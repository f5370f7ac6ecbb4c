//! Tree arithmetic over the PEs, in one place.
//!
//! Broadcasts (the root copy, a poll-and-shuffle permutation's start, the response tree's
//! `Finish`), the counting waves of the permutation by messages and the
//! early-stop flood run over the **binary tree of PEs**: PE i's children are 2i+1 and
//! 2i+2, its parent ⌊(i−1)/2⌋, so the depth is ⌊log₂ P⌋. Prefix-sum assignment uses the
//! **binomial tree** instead, whose subtrees are contiguous ranges of PEs, so that sums arrive
//! in PE order. Termination detection's waves and the result reduction run over the
//! network's [`ReductionTree`].

use super::PeId;
use crate::topology::Topology;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The tree that termination detection's waves and the result reduction run over, chosen
/// for the network so that a tree edge is one link where the network allows it:
///
/// - **binomial** (PE i's parent is i without its lowest set bit) on the crossbar, the
///   hypercube (every edge one link), meshes, rings and fat trees (an edge i → i + 2^j stays
///   inside the j-cube of the numbering, which these networks keep local), and on threads and
///   MPI;
/// - **a shortest-path tree of the network** on the hypercubic networks of paper 002 §4
///   (butterfly, cube-connected cycles, shuffle-exchange, de Bruijn), whose PE numbers do
///   not follow hypercube dimensions: every edge one link (routers passed through), depth at
///   most the diameter, O(log P).
#[derive(Debug, Clone)]
pub(crate) enum ReductionTree {
    Binomial,
    Table(Arc<TreeTable>),
}

/// A tree of PEs given by its parent array, with each PE's children listed (the child with
/// the deepest subtree first, the order a broadcast sends in).
#[derive(Debug)]
pub(crate) struct TreeTable {
    parent: Vec<u32>,
    first: Vec<u32>,
    children: Vec<u32>,
}

impl TreeTable {
    fn new(parent: &[usize]) -> TreeTable {
        let p = parent.len();
        let mut count = vec![0u32; p + 1];
        for &q in &parent[1..] {
            count[q + 1] += 1;
        }
        for i in 0..p {
            count[i + 1] += count[i];
        }
        let first = count.clone();
        let mut children = vec![0u32; p.saturating_sub(1)];
        let mut next = count;
        for (c, &q) in parent.iter().enumerate().skip(1) {
            children[next[q] as usize] = c as u32;
            next[q] += 1;
        }
        // Heights, leaves up: a pass over the PEs by depth, deepest first, settles every
        // child's height before its parent's.
        let depth: Vec<u32> = (0..p)
            .map(|c| {
                let (mut d, mut x) = (0, c);
                while x != 0 {
                    x = parent[x];
                    d += 1;
                }
                d
            })
            .collect();
        let mut order: Vec<usize> = (0..p).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(depth[i]));
        let mut height = vec![0u32; p];
        for &c in &order {
            if c != 0 {
                let q = parent[c];
                height[q] = height[q].max(height[c] + 1);
            }
        }
        for q in 0..p {
            let (a, b) = (first[q] as usize, first[q + 1] as usize);
            children[a..b].sort_by_key(|&c| (std::cmp::Reverse(height[c as usize]), c));
        }
        TreeTable {
            parent: parent.iter().map(|&q| q as u32).collect(),
            first,
            children,
        }
    }
}

impl ReductionTree {
    /// The tree for `p` PEs on `network` (None: threads and MPI, the binomial tree).
    pub(crate) fn of(network: Option<Topology>, p: usize) -> ReductionTree {
        match network {
            Some(t) if t.is_hypercubic() && p > 1 => {
                type Cache = Mutex<HashMap<(Topology, usize), Arc<TreeTable>>>;
                static CACHE: OnceLock<Cache> = OnceLock::new();
                let mut cache = CACHE
                    .get_or_init(Default::default)
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                let table = cache
                    .entry((t, p))
                    .or_insert_with(|| Arc::new(TreeTable::new(&t.shortest_path_parents(p))))
                    .clone();
                ReductionTree::Table(table)
            }
            _ => ReductionTree::Binomial,
        }
    }

    /// The chain P − 1 → … → 1 → 0 (PE i's parent is i − 1): depth P − 1, the ring-based
    /// summing the four-counter method was first given with, for the simulator's adversary.
    pub(crate) fn chain(p: usize) -> ReductionTree {
        let parent: Vec<usize> = (0..p).map(|i| i.saturating_sub(1)).collect();
        ReductionTree::Table(Arc::new(TreeTable::new(&parent)))
    }

    /// The parent of PE `me` (None for the root, PE 0).
    pub(crate) fn parent(&self, me: PeId) -> Option<PeId> {
        (me > 0).then(|| match self {
            ReductionTree::Binomial => binomial_parent(me),
            ReductionTree::Table(t) => t.parent[me] as PeId,
        })
    }

    /// The children of PE `me` among `p`, the deepest subtree first.
    pub(crate) fn children(&self, me: PeId, p: usize) -> Vec<PeId> {
        match self {
            ReductionTree::Binomial => binomial_children(me, p).rev().collect(),
            ReductionTree::Table(t) => t.children[t.first[me] as usize..t.first[me + 1] as usize]
                .iter()
                .map(|&c| c as PeId)
                .collect(),
        }
    }
}

/// The parent of PE `me` in the binary tree of PEs (None for the root, PE 0).
pub(crate) fn parent(me: PeId) -> Option<PeId> {
    (me > 0).then(|| (me - 1) / 2)
}

/// The children of PE `me` among `p` PEs in the binary tree: 2·me+1 and 2·me+2, those < p.
pub(crate) fn children(me: PeId, p: usize) -> impl Iterator<Item = PeId> {
    [2 * me + 1, 2 * me + 2].into_iter().filter(move |&c| c < p)
}

/// The neighbours of PE `me` in the binary tree of PEs (parent, then children), which early
/// stop floods: every PE learns of a stop within 2·log₂ P hops.
pub(crate) fn neighbours(me: PeId, p: usize) -> impl Iterator<Item = PeId> {
    parent(me).into_iter().chain(children(me, p))
}

/// The parent of PE `i` > 0 in the binomial tree: `i` without its lowest set bit.
pub(crate) fn binomial_parent(i: PeId) -> PeId {
    i - (i & i.wrapping_neg())
}

/// The binomial-tree children of PE `i` among `p`, in increasing order (smallest subtree
/// first; `.rev()` gives the largest first, the order a broadcast sends in): i + 2^k for
/// 2^k < lowbit(i) (all k for PE 0). PE i's subtree is the contiguous range i..i+lowbit(i),
/// and each edge joins PEs whose numbers differ in one bit: one link of a hypercube.
pub(crate) fn binomial_children(i: PeId, p: usize) -> impl DoubleEndedIterator<Item = PeId> {
    let limit = if i == 0 {
        p.next_power_of_two()
    } else {
        i & i.wrapping_neg()
    };
    (0..limit.trailing_zeros())
        .map(move |k| i + (1usize << k))
        .filter(move |&c| c < p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_tree_parents_and_children_agree() {
        for p in [1, 2, 3, 7, 8, 13, 100] {
            for i in 0..p {
                for c in children(i, p) {
                    assert_eq!(parent(c), Some(i));
                }
                assert_eq!(
                    neighbours(i, p).count(),
                    usize::from(i > 0) + children(i, p).count()
                );
            }
        }
    }

    #[test]
    fn binomial_subtrees_are_contiguous_and_cover_all_pes() {
        for p in [1, 2, 3, 7, 8, 13, 64, 100] {
            let mut parent = vec![None; p];
            for i in 0..p {
                for c in binomial_children(i, p) {
                    assert!(parent[c].is_none());
                    parent[c] = Some(i);
                    assert_eq!(binomial_parent(c), i);
                }
            }
            assert!((1..p).all(|i| parent[i].is_some()), "P={p}");
        }
    }

    #[test]
    fn binomial_edges_are_hypercube_links_and_the_depth_is_at_most_ceil_log2_p() {
        for p in [2, 3, 5, 8, 13, 64, 100, 1024] {
            let mut depth = vec![0u32; p];
            for i in 0..p {
                let children: Vec<PeId> = binomial_children(i, p).collect();
                // Increasing order: the largest subtree last, so `.rev()` sends to it first.
                assert!(children.windows(2).all(|w| w[0] < w[1]));
                for c in children {
                    assert_eq!((c ^ i).count_ones(), 1, "P={p}: edge {i}–{c}");
                    depth[c] = depth[i] + 1;
                }
            }
            // PE i's depth is its number of set bits.
            assert!((0..p).all(|i| depth[i] == i.count_ones()), "P={p}");
            let ceil_log2 = p.next_power_of_two().trailing_zeros();
            assert!(depth.iter().all(|&d| d <= ceil_log2), "P={p}");
        }
    }

    #[test]
    fn hypercubic_reduction_trees_follow_shortest_paths_from_pe_0() {
        for t in [
            Topology::Butterfly,
            Topology::Ccc,
            Topology::ShuffleExchange,
            Topology::DeBruijn,
        ] {
            for p in [2, 5, 24, 64, 100, 160, 256] {
                let tree = ReductionTree::of(Some(t), p);
                let from_0 = t.bfs(0, p);
                let mut seen = vec![0usize; p];
                for q in 0..p {
                    for c in tree.children(q, p) {
                        assert_eq!(tree.parent(c), Some(q), "{t} P={p}");
                        seen[c] += 1;
                        // The edge lies on a shortest path from PE 0.
                        let hops = t.hops(q, c, p);
                        assert_eq!(
                            u64::from(from_0[c]),
                            u64::from(from_0[q]) + hops,
                            "{t} P={p}: edge {q}–{c}"
                        );
                    }
                }
                assert_eq!(tree.parent(0), None);
                assert!(seen[1..].iter().all(|&n| n == 1), "{t} P={p}: not a tree");
            }
        }
        assert!(matches!(
            ReductionTree::of(Some(Topology::Mesh2d), 64),
            ReductionTree::Binomial
        ));
        assert!(matches!(
            ReductionTree::of(None, 64),
            ReductionTree::Binomial
        ));
    }
}
