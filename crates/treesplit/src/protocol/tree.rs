//! Tree arithmetic over the PEs, in one place.
//!
//! Broadcasts (the root copy, a poll-and-shuffle permutation's start, `Finish`), reductions
//! (four-counter waves, results, the counting waves of the permutation by messages) and the
//! early-stop flood all run over the **binary tree of PEs**: PE i's children are 2i+1 and
//! 2i+2, its parent ⌊(i−1)/2⌋, so the depth is ⌊log₂ P⌋. Prefix-sum assignment uses the
//! **binomial tree** instead, whose subtrees are contiguous ranges of PEs, so that sums arrive
//! in PE order.

use super::PeId;

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
}
