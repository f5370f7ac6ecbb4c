//! Maximum clique by branch-and-bound with a greedy-colouring bound (San Segundo's BBMC, on
//! Tomita's MCQ/MCS scheme): the standard branch-and-bound benchmark.
//!
//! A node is a clique C and its candidates P (the vertices adjacent to all of C), as bitsets
//! over the graph's minimum-width vertex order ([`graph`]). Expanding a node colours P
//! greedily (each colour class an independent set, built by taking the lowest-indexed
//! uncoloured vertex and dropping its neighbours) and lists P by colour; branching takes the
//! listed vertices from the last: the child of vertex `order[i]` is C + order[i] with
//! candidates `order[..i] ∩ N(order[i])`. Colour k of `order[i]` bounds any clique in
//! `order[..=i]` by k vertices, so a branch with |C| + k ≤ the incumbent is pruned together
//! with every branch before it. Each clique found larger than the incumbent is offered
//! (treesplit maximises) and kept as the witness, in the file's vertex numbers.
//!
//! A piece is a clique prefix plus a depth-first stack of frames, one per open node: its
//! colour-ordered candidates and how many of them are still branch points. A split hands
//! over the upper half of the untried branch points of the shallowest frame that has one (the
//! receiver keeps the whole list below them: their candidate sets need it), and the giver
//! cuts its list at the same place. On the wire only the root carries the graph; any other
//! piece names it by digest (see [`treesplit::task::shared`]). A work unit is one branch.
//!
//! The application runs the same search as a skeleton branch-and-bound ([`skeleton`], the
//! task [`search`] makes); this hand-written task is kept beside it to measure what the
//! skeleton's generality costs.

pub mod app;
pub mod graph;
pub mod skeleton;

pub use app::{CliqueSource, MaxCliqueSpec};
pub use graph::Graph;
pub use skeleton::{search, CliqueSearch};

use graph::{has, insert, remove, Bits};
use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::task::shared::{Sent, Shared};
use treesplit::{Context, Outcome, Task};

/// A maximum clique found: its size ω and its vertices (DIMACS numbers, ascending).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clique {
    /// The clique number found.
    pub omega: u32,
    /// A clique of that size, in the file's vertex numbers (1-based), ascending.
    pub clique: Vec<u32>,
}

impl crate::objective::Objective for Clique {
    fn objective(&self) -> Option<u64> {
        let distinct = self.clique.windows(2).all(|w| w[0] < w[1]);
        (distinct && self.clique.len() == self.omega as usize).then_some(u64::from(self.omega))
    }
}

/// The larger clique; between two of one size, the lexicographically smaller vertex list.
impl Outcome for Clique {
    fn merge(&mut self, other: Self) {
        if (other.omega, std::cmp::Reverse(&other.clique))
            > (self.omega, std::cmp::Reverse(&self.clique))
        {
            *self = other;
        }
    }
}

impl fmt::Display for Clique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ω = {}: clique", self.omega)?;
        for v in &self.clique {
            write!(f, " {v}")?;
        }
        Ok(())
    }
}

/// Colour the candidates `p` greedily (BBMC): `order` lists them by colour class, ascending
/// index within a class, and `colour[i]` is the class of `order[i]` (1, 2, …).
pub(crate) fn colour_sort(graph: &Graph, p: &[u64], order: &mut Vec<u32>, colour: &mut Vec<u32>) {
    order.clear();
    colour.clear();
    let mut uncoloured: Bits = p.to_vec();
    let mut class: Bits = vec![0; p.len()];
    let mut k = 0;
    let mut start = 0;
    while start < uncoloured.len() {
        if uncoloured[start] == 0 {
            start += 1;
            continue;
        }
        k += 1;
        class[start..].copy_from_slice(&uncoloured[start..]);
        let mut w = start;
        while w < class.len() {
            let word = class[w];
            if word == 0 {
                w += 1;
                continue;
            }
            let v = (w * 64) as u32 + word.trailing_zeros();
            remove(&mut uncoloured, v);
            order.push(v);
            colour.push(k);
            let row = graph.row(v);
            class[w] &= !(1 << (v % 64)) & !row[w];
            for x in w + 1..class.len() {
                class[x] &= !row[x];
            }
        }
    }
}

/// An open node: its candidates listed by colour, the first `lo` of them no longer branch
/// points (another piece branches on them), and the set of `order` still listed.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Frame {
    order: Vec<u32>,
    colour: Vec<u32>,
    lo: u32,
    /// The vertices of `order` (rebuilt on arrival).
    #[serde(skip)]
    p: Bits,
}

impl Frame {
    fn new(graph: &Graph, p: Bits) -> Frame {
        let mut frame = Frame {
            order: Vec::new(),
            colour: Vec::new(),
            lo: 0,
            p,
        };
        colour_sort(graph, &frame.p, &mut frame.order, &mut frame.colour);
        frame
    }

    /// Branch points left.
    fn left(&self) -> usize {
        self.order.len() - self.lo as usize
    }
}

/// A piece of a maximum-clique search.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "MaxCliqueWire", try_from = "MaxCliqueWire")]
pub struct MaxClique {
    graph: Shared<Graph>,
    /// The vertices chosen above each frame: frame k's clique is `clique[..base + k]`.
    clique: Vec<u32>,
    base: usize,
    frames: Vec<Frame>,
}

impl MaxClique {
    /// The whole search of `graph`.
    pub fn new(graph: Shared<Graph>) -> Self {
        let mut all = vec![0u64; graph.words()];
        for v in 0..graph.len() as u32 {
            insert(&mut all, v);
        }
        let frames = if graph.is_empty() {
            vec![]
        } else {
            vec![Frame::new(&graph, all)]
        };
        MaxClique {
            graph,
            clique: Vec::new(),
            base: 0,
            frames,
        }
    }

    /// The clique of search vertices `vertices` in DIMACS numbers, ascending.
    fn witness(&self, vertices: &[u32]) -> Clique {
        let mut clique: Vec<u32> = vertices.iter().map(|&v| self.graph.dimacs(v)).collect();
        clique.sort_unstable();
        Clique {
            omega: clique.len() as u32,
            clique,
        }
    }
}

impl Task for MaxClique {
    type Output = Clique;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Clique>) -> u64 {
        let mut units = 0;
        while units < budget {
            let depth = self.base + self.frames.len();
            let Some(frame) = self.frames.last_mut() else {
                break;
            };
            let size = depth as i64; // the clique of a branch here: C + 1 vertex
            let best = ctx.best().max(0);
            let Some(&k) = frame.colour.last() else {
                self.frames.pop();
                continue;
            };
            if frame.left() == 0 || size - 1 + i64::from(k) <= best {
                self.frames.pop();
                continue;
            }
            units += 1;
            let v = frame.order.pop().expect("a branch point");
            frame.colour.pop();
            remove(&mut frame.p, v);
            let row = self.graph.row(v);
            let child: Bits = frame.p.iter().zip(row).map(|(a, b)| a & b).collect();
            self.clique.truncate(depth - 1);
            self.clique.push(v);
            if size > best && ctx.offer(size) {
                let found = self.witness(&self.clique);
                ctx.output().merge(found);
            }
            if child.iter().any(|&w| w != 0) {
                let next = Frame::new(&self.graph, child);
                let top = i64::from(*next.colour.last().expect("a coloured candidate"));
                if size + top > ctx.best() {
                    self.frames.push(next);
                }
            }
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        let last = self.frames.len().checked_sub(1)?;
        let (i, frame) = self
            .frames
            .iter_mut()
            .enumerate()
            .find(|(i, f)| f.left() >= 2 || (f.left() == 1 && *i < last))?;
        let left = frame.left();
        let mid = frame.order.len() - left.div_ceil(2);
        // The receiver branches on order[mid..] with the whole list below them.
        let given = Frame {
            order: frame.order.clone(),
            colour: frame.colour.clone(),
            lo: mid as u32,
            p: frame.p.clone(),
        };
        for &v in &frame.order[mid..] {
            remove(&mut frame.p, v);
        }
        frame.order.truncate(mid);
        frame.colour.truncate(mid);
        let base = self.base + i;
        Some(MaxClique {
            graph: self.graph.clone(),
            clique: self.clique[..base].to_vec(),
            base,
            frames: vec![given],
        })
    }

    fn is_empty(&self) -> bool {
        self.frames.iter().all(|f| f.left() == 0)
    }
}

/// A maximum-clique piece on the wire: the root with its graph, any other with the graph's
/// digest; the clique above its first frame and its frames (their candidate sets are
/// rebuilt from their lists on arrival).
#[derive(Serialize, Deserialize)]
pub struct MaxCliqueWire {
    graph: Sent<Graph>,
    clique: Vec<u32>,
    frames: Vec<Frame>,
}

impl From<MaxClique> for MaxCliqueWire {
    fn from(mut m: MaxClique) -> Self {
        let root = m.base == 0
            && m.frames.len() == 1
            && m.frames[0].lo == 0
            && m.frames[0].order.len() == m.graph.len();
        m.clique.truncate(m.base + m.frames.len().saturating_sub(1));
        MaxCliqueWire {
            graph: if root {
                m.graph.whole()
            } else {
                m.graph.by_digest()
            },
            clique: m.clique,
            frames: m.frames,
        }
    }
}

impl TryFrom<MaxCliqueWire> for MaxClique {
    type Error = String;
    fn try_from(w: MaxCliqueWire) -> Result<Self, String> {
        let graph = w.graph.receive().map_err(|e| format!("maxclique {e}"))?;
        let n = graph.len() as u32;
        let bad = |why: &str| Err(format!("an inconsistent maximum-clique piece: {why}"));
        let base = match w.clique.len().checked_sub(w.frames.len().saturating_sub(1)) {
            Some(base) => base,
            None => return bad("fewer clique vertices than frames"),
        };
        if w.clique.iter().any(|&v| v >= n) {
            return bad("a clique vertex outside the graph");
        }
        let mut frames = w.frames;
        for f in &mut frames {
            if f.order.len() != f.colour.len() || f.lo as usize > f.order.len() {
                return bad("a frame's lists disagree");
            }
            let mut p = vec![0u64; graph.words()];
            for &v in &f.order {
                if v >= n || has(&p, v) {
                    return bad("a frame lists a vertex twice or outside the graph");
                }
                insert(&mut p, v);
            }
            f.p = p;
        }
        Ok(MaxClique {
            graph,
            clique: w.clique,
            base,
            frames,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn omega(graph: Graph) -> Clique {
        treesplit::run_sequential(MaxClique::new(Shared::new(graph))).output
    }

    #[test]
    fn small_graphs_have_their_clique_numbers() {
        let g = Graph::parse_dimacs(
            "p edge 5 6\ne 1 2\ne 2 3\ne 1 3\ne 3 4\ne 4 5\ne 3 5\n",
            "t",
        )
        .unwrap();
        let found = omega(g);
        assert_eq!(found.omega, 3);
        assert!(found.clique == [1, 2, 3] || found.clique == [3, 4, 5]);
        assert_eq!(omega(Graph::random(12, 1.0, 1).unwrap()).omega, 12);
        assert_eq!(omega(Graph::random(12, 0.0, 1).unwrap()).omega, 1);
        assert_eq!(omega(Graph::new(0, &[]).unwrap()), Clique::default());
    }

    #[test]
    fn colour_classes_are_independent_sets_in_ascending_order() {
        let g = Graph::random(90, 0.5, 3).unwrap();
        let mut all = vec![0u64; g.words()];
        for v in 0..90 {
            insert(&mut all, v);
        }
        let (mut order, mut colour) = (vec![], vec![]);
        colour_sort(&g, &all, &mut order, &mut colour);
        assert_eq!(order.len(), 90);
        assert!(colour.windows(2).all(|w| w[0] <= w[1]));
        for i in 0..90 {
            for j in i + 1..90 {
                if colour[i] == colour[j] {
                    assert!(!has(g.row(order[i]), order[j]));
                }
            }
        }
    }

    #[test]
    fn pieces_travel_by_digest_and_split_without_losing_cliques() {
        let g = Shared::new(Graph::random(60, 0.6, 9).unwrap());
        let want = treesplit::run_sequential(MaxClique::new(g.clone())).output;
        let mut root = MaxClique::new(g.clone());
        let whole = postcard::to_allocvec(&root).unwrap();
        let mut ctx_best = Clique::default();
        // Work a little, split, ship the given piece and run both halves to the end.
        let incumbent = treesplit::task::SharedIncumbent::new();
        let given = {
            let mut cx = Context::new(&mut ctx_best, &incumbent, 0);
            root.work(5, &mut cx);
            root.split().expect("a split")
        };
        let bytes = postcard::to_allocvec(&given).unwrap();
        assert!(
            bytes.len() < whole.len() / 4,
            "{} vs {}",
            bytes.len(),
            whole.len()
        );
        let back: MaxClique = postcard::from_bytes(&bytes).unwrap();
        let mut found = ctx_best;
        found.merge(treesplit::run_sequential(root).output);
        found.merge(treesplit::run_sequential(back).output);
        assert_eq!(found.omega, want.omega);
    }
}
