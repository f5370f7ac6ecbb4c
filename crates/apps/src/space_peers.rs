//! The peers of any skeleton enumeration ([`treesplit::search::Enumerate`]), for `bench`: the
//! plain recursion over the space's generators (what the skeleton's walk does, with no stack
//! of frames, budget or splitting), and the same recursion forked by rayon and by chili over
//! the children of the nodes above a depth cut-off. An application on the skeletons gets its
//! peers from its space alone, so the cost of the skeleton against the plain recursion and
//! against the fork-join runtimes is measured the same way for every one of them.

use crate::peers::{Peers, EVERY_NODE};
use rayon::prelude::*;
use treesplit::search::Enumerate;
use treesplit::Outcome;

/// The peers of the enumeration of a space.
pub struct EnumerationPeers<S>(pub S);

impl<S: Enumerate> EnumerationPeers<S>
where
    S::Node: Sync,
{
    /// The node's children, produced by its generator.
    fn children(&self, node: &S::Node) -> Vec<S::Node> {
        let mut generator = self.0.children(node);
        std::iter::from_fn(|| self.0.next_child(node, &mut generator)).collect()
    }

    /// The plain recursion below (and at) `node`.
    fn below(&self, node: &S::Node, out: &mut S::Output) {
        self.0.visit(node, out);
        let mut generator = self.0.children(node);
        while let Some(child) = self.0.next_child(node, &mut generator) {
            self.below(&child, out);
        }
    }

    /// The subtree of `node` at `depth`, its children forked by rayon above `cut`.
    fn rayon_at(&self, node: &S::Node, depth: u32, cut: u32) -> S::Output {
        let mut out = S::Output::default();
        if depth >= cut {
            self.below(node, &mut out);
            return out;
        }
        self.0.visit(node, &mut out);
        let below = self
            .children(node)
            .par_iter()
            .map(|child| self.rayon_at(child, depth + 1, cut))
            .reduce(S::Output::default, |mut a, b| {
                a.merge(b);
                a
            });
        out.merge(below);
        out
    }

    /// The subtrees of `nodes` at `depth`, halved by chili's `join` above `cut`.
    fn chili_at(
        &self,
        scope: &mut chili::Scope<'_>,
        nodes: &[S::Node],
        depth: u32,
        cut: u32,
    ) -> S::Output {
        match nodes {
            [] => S::Output::default(),
            [node] => {
                let mut out = S::Output::default();
                if depth >= cut {
                    self.below(node, &mut out);
                    return out;
                }
                self.0.visit(node, &mut out);
                let children = self.children(node);
                out.merge(self.chili_at(scope, &children, depth + 1, cut));
                out
            }
            _ => {
                let (left, right) = nodes.split_at(nodes.len() / 2);
                let (mut a, b) = scope.join(
                    |s| self.chili_at(s, left, depth, cut),
                    |s| self.chili_at(s, right, depth, cut),
                );
                a.merge(b);
                a
            }
        }
    }
}

impl<S: Enumerate> Peers for EnumerationPeers<S>
where
    S::Node: Sync,
{
    type Output = S::Output;

    fn sequential(&self) -> S::Output {
        let mut out = S::Output::default();
        self.below(&self.0.root(), &mut out);
        out
    }

    fn rayon(&self, cut: u32) -> S::Output {
        self.rayon_at(&self.0.root(), 0, cut)
    }

    fn chili(&self, scope: &mut chili::Scope<'_>, cut: u32) -> Option<S::Output> {
        Some(self.chili_at(scope, &[self.0.root()], 0, cut))
    }

    fn cuts(&self) -> Vec<u32> {
        vec![2, 4, 6, 8, 12, EVERY_NODE]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::chili_pool;
    use crate::semigroups::skeleton::SemigroupSpace;

    #[test]
    fn every_peer_counts_the_semigroups_as_oeis_a007323() {
        // A007323: 1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592.
        let want = [1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592];
        let peers = EnumerationPeers(SemigroupSpace::new(12).unwrap());
        assert_eq!(peers.sequential().counts, want);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let chili = chili_pool(2);
        for cut in peers.cuts() {
            assert_eq!(
                pool.install(|| peers.rayon(cut)).counts,
                want,
                "rayon, cut {cut}"
            );
            let got = peers.chili(&mut chili.scope(), cut).unwrap();
            assert_eq!(got.counts, want, "chili, cut {cut}");
        }
    }
}
