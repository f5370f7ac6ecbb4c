//! The maximum-clique search forked with rayon's `join` and with chili's `join`: the
//! optimisation peers `bench maxclique` times beside treesplit, as a user who reaches for a
//! fork–join library would write them.
//!
//! Each is the task's search ([`super::MaxClique`]: the same vertex order, greedy colouring
//! with Re-NUMBER and colour bound) as a plain recursion. The incumbent ω̂ is one atomic that
//! every thread reads before each branch, so a larger clique found anywhere prunes everywhere
//! at once; its witness sits behind a lock taken only when ω̂ grows. Above depth `cut` a
//! node's children (those its colours do not prune at the time it is coloured) are forked:
//! the list halved, each half one `join`, the first half (the highest colours, which the
//! sequential search would try first) on the calling thread. A forked child checks its bound
//! again when it starts, against ω̂ as it is then. Below the cut the recursion is sequential
//! and allocates nothing once its per-depth buffers have grown.
//!
//! What `bench` compares is ω (and that the witness is a clique of that size), not the
//! nodes: a parallel branch-and-bound expands more or fewer nodes as incumbents arrive
//! earlier or later, so there is no common work to equal.

use super::graph::{remove, Bits};
use super::{Clique, Colouring, Graph};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// The cut-offs `bench maxclique` sweeps for each peer: fork at the root only, down to four
/// levels (the root alone has up to n children; below four levels a node's subtree is
/// usually too small to pay for a fork).
pub const CUTS: [u32; 4] = [1, 2, 3, 4];

/// A maximum clique of `graph` by the search forked with rayon above depth `cut`, in the
/// rayon pool it is called in.
pub fn rayon(graph: &Graph, cut: u32) -> Clique {
    let search = Search::new(graph);
    if let Some(root) = search.root() {
        search.rayon_node(&[], root, 0, cut);
    }
    search.clique()
}

/// A maximum clique of `graph` by the search forked with chili above depth `cut`.
pub fn chili(scope: &mut chili::Scope<'_>, graph: &Graph, cut: u32) -> Clique {
    let search = Search::new(graph);
    if let Some(root) = search.root() {
        search.chili_node(scope, &[], root, 0, cut);
    }
    search.clique()
}

/// What the threads share: the graph, ω̂ and its witness (search vertex numbers).
struct Search<'g> {
    graph: &'g Graph,
    best: AtomicU32,
    witness: Mutex<Vec<u32>>,
}

/// A forked child: the clique C + v, v's colour k (the bound: no clique below it has more
/// than |C| + k vertices) and its candidates.
struct Child {
    v: u32,
    k: u32,
    p: Bits,
}

/// One open node of the sequential recursion: its candidates and its branch points by
/// colour (taken from the end), kept per depth and reused.
#[derive(Default)]
struct Frame {
    p: Bits,
    order: Vec<u32>,
    colour: Vec<u32>,
}

/// A thread's buffers for the sequential recursion below the cut.
struct Scratch {
    colouring: Colouring,
    frames: Vec<Frame>,
}

impl<'g> Search<'g> {
    fn new(graph: &'g Graph) -> Self {
        Search {
            graph,
            best: AtomicU32::new(0),
            witness: Mutex::new(Vec::new()),
        }
    }

    /// The root's candidates: every vertex (`None` for the empty graph).
    fn root(&self) -> Option<Bits> {
        if self.graph.is_empty() {
            return None;
        }
        let mut all = vec![0u64; self.graph.words()];
        for v in 0..self.graph.len() as u32 {
            super::graph::insert(&mut all, v);
        }
        Some(all)
    }

    fn best(&self) -> u32 {
        self.best.load(Ordering::Relaxed)
    }

    /// Offer the clique `c`: it becomes ω̂ and the witness if it is larger.
    fn offer(&self, c: &[u32]) {
        let n = c.len() as u32;
        if self.best.fetch_max(n, Ordering::Relaxed) < n {
            let mut w = self.witness.lock().unwrap_or_else(|e| e.into_inner());
            if w.len() < c.len() {
                w.clear();
                w.extend_from_slice(c);
            }
        }
    }

    /// The witness in DIMACS numbers, ascending.
    fn clique(&self) -> Clique {
        let w = self.witness.lock().unwrap_or_else(|e| e.into_inner());
        let mut clique: Vec<u32> = w.iter().map(|&v| self.graph.dimacs(v)).collect();
        clique.sort_unstable();
        Clique {
            omega: clique.len() as u32,
            clique,
        }
    }

    /// The smallest colour that can still beat ω̂ from a clique of `size` vertices.
    fn kmin(&self, size: u32) -> u32 {
        (self.best() + 1).saturating_sub(size).max(1)
    }

    /// The children of the node (C = `clique`, candidates `p`) that its colours do not prune
    /// now, in the order the sequential search tries them.
    fn children(&self, clique: &[u32], mut p: Bits) -> Vec<Child> {
        let size = clique.len() as u32;
        let (mut order, mut colour) = (Vec::new(), Vec::new());
        Colouring::new(true).sort(self.graph, &p, self.kmin(size), &mut order, &mut colour);
        let mut children = Vec::with_capacity(order.len());
        while let (Some(v), Some(k)) = (order.pop(), colour.pop()) {
            if size + k <= self.best() {
                break;
            }
            remove(&mut p, v);
            let row = self.graph.row(v);
            children.push(Child {
                v,
                k,
                p: p.iter().zip(row).map(|(a, b)| a & b).collect(),
            });
        }
        children
    }

    /// Enter `child` of the node C = `clique`: check its bound against ω̂ as it is now and
    /// offer C + v; the clique C + v when its candidates are worth expanding.
    fn enter(&self, clique: &[u32], child: &Child) -> Option<Vec<u32>> {
        let size = clique.len() as u32;
        if size + child.k <= self.best() {
            return None;
        }
        let mut c = Vec::with_capacity(clique.len() + 1);
        c.extend_from_slice(clique);
        c.push(child.v);
        self.offer(&c);
        (child.p.iter().any(|&w| w != 0)).then_some(c)
    }

    /// The node C = `clique` with candidates `p` at `depth`, forked with rayon above `cut`.
    fn rayon_node(&self, clique: &[u32], p: Bits, depth: u32, cut: u32) {
        if depth >= cut {
            return self.sequential(clique, p);
        }
        let children = self.children(clique, p);
        self.rayon_children(clique, &children, depth, cut);
    }

    fn rayon_children(&self, clique: &[u32], children: &[Child], depth: u32, cut: u32) {
        match children {
            [] => {}
            [child] => {
                if let Some(c) = self.enter(clique, child) {
                    self.rayon_node(&c, child.p.clone(), depth + 1, cut);
                }
            }
            _ => {
                let (a, b) = children.split_at(children.len() / 2);
                rayon::join(
                    || self.rayon_children(clique, a, depth, cut),
                    || self.rayon_children(clique, b, depth, cut),
                );
            }
        }
    }

    /// The node C = `clique` with candidates `p` at `depth`, forked with chili above `cut`.
    fn chili_node(
        &self,
        scope: &mut chili::Scope<'_>,
        clique: &[u32],
        p: Bits,
        depth: u32,
        cut: u32,
    ) {
        if depth >= cut {
            return self.sequential(clique, p);
        }
        let children = self.children(clique, p);
        self.chili_children(scope, clique, &children, depth, cut);
    }

    fn chili_children(
        &self,
        scope: &mut chili::Scope<'_>,
        clique: &[u32],
        children: &[Child],
        depth: u32,
        cut: u32,
    ) {
        match children {
            [] => {}
            [child] => {
                if let Some(c) = self.enter(clique, child) {
                    self.chili_node(scope, &c, child.p.clone(), depth + 1, cut);
                }
            }
            _ => {
                let (a, b) = children.split_at(children.len() / 2);
                scope.join(
                    |s| self.chili_children(s, clique, a, depth, cut),
                    |s| self.chili_children(s, clique, b, depth, cut),
                );
            }
        }
    }

    /// The subtree of the node C = `clique` with candidates `p`, on this thread.
    fn sequential(&self, clique: &[u32], p: Bits) {
        let mut scratch = Scratch {
            colouring: Colouring::new(true),
            frames: vec![Frame {
                p,
                ..Frame::default()
            }],
        };
        let mut c = clique.to_vec();
        self.expand(&mut c, 0, &mut scratch);
    }

    /// Expand the node in `s.frames[d]` (its candidates set) below the clique `c`.
    fn expand(&self, c: &mut Vec<u32>, d: usize, s: &mut Scratch) {
        let size = c.len() as u32;
        let mut f = std::mem::take(&mut s.frames[d]);
        s.colouring.sort(
            self.graph,
            &f.p,
            self.kmin(size),
            &mut f.order,
            &mut f.colour,
        );
        if s.frames.len() == d + 1 {
            s.frames.push(Frame::default());
        }
        while let (Some(v), Some(k)) = (f.order.pop(), f.colour.pop()) {
            if size + k <= self.best() {
                break;
            }
            remove(&mut f.p, v);
            let row = self.graph.row(v);
            let child = &mut s.frames[d + 1].p;
            child.clear();
            child.extend(f.p.iter().zip(row).map(|(a, b)| a & b));
            let empty = child.iter().all(|&w| w == 0);
            c.push(v);
            if size + 1 > self.best() {
                self.offer(c);
            }
            if !empty {
                self.expand(c, d + 1, s);
            }
            c.pop();
        }
        s.frames[d] = f;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::chili_pool;
    use treesplit::run_sequential;
    use treesplit::task::shared::Shared;

    /// On random graphs of several densities both peers find the task's ω at every cut-off,
    /// on 1 and 3 threads, with a witness that is a clique of that size.
    #[test]
    fn the_forked_searches_find_the_tasks_omega() {
        for (n, p, seed) in [
            (0, 0.5, 1),
            (1, 0.5, 1),
            (40, 0.3, 2),
            (60, 0.7, 3),
            (90, 0.9, 4),
        ] {
            let shared = Shared::new(Graph::random(n, p, seed).unwrap());
            let want = run_sequential(super::super::MaxClique::new(shared.clone()))
                .output
                .omega;
            let g: &Graph = &shared;
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let chili = chili_pool(threads);
                for cut in CUTS {
                    let r = pool.install(|| rayon(g, cut));
                    let c = super::chili(&mut chili.scope(), g, cut);
                    for (who, got) in [("rayon", r), ("chili", c)] {
                        assert_eq!(got.omega, want, "{who} n {n} p {p} cut {cut}");
                        assert_eq!(got.clique.len() as u32, want);
                        assert!(g.is_clique(&got.clique), "{who} n {n}: not a clique");
                    }
                }
            }
        }
    }
}
