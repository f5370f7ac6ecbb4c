//! Maximum clique by bitset branch-and-bound with a greedy-colouring bound, the class of San
//! Segundo's BBMC: the standard branch-and-bound benchmark.
//!
//! A node is a clique C and its candidates P (the vertices adjacent to all of C), as bitsets
//! over the graph's minimum-width (degeneracy) vertex order ([`graph`]). Expanding a node
//! colours P greedily word by word ([`Colouring`]: each colour class an independent set,
//! built by taking the lowest-indexed uncoloured vertex and dropping its neighbours with one
//! AND-NOT per word) and lists, by colour, only the vertices whose colour k could still
//! improve the incumbent ω̂ (|C| + k > ω̂; Tomita's MCS and BBMC leave the lower classes out:
//! they are candidates, never branch points), after Tomita's Re-NUMBER (MCS) has moved what
//! it can of them into the lower classes ([`Colouring::sort`]: on the DIMACS graphs it cuts
//! the nodes by a third to a half and pays for itself). Branching takes the listed vertices from the
//! last: the child of vertex `order[i]` is C + order[i] with candidates P ∖ order[i..] ∩
//! N(order[i]). Colour k of `order[i]` bounds any clique among P ∖ order[i+1..] by k vertices,
//! so a branch with |C| + k ≤ ω̂ is pruned together with every branch before it. Each clique
//! found larger than the incumbent is offered (treesplit maximises) and kept as the witness,
//! in the file's vertex numbers.
//!
//! **Nodes.** A node (a work unit) is one candidate set expanded, i.e. coloured: a branch
//! whose candidate set is empty is a leaf and costs no colouring, and the root's colouring
//! (when the piece is made) is not counted. The MCQ peer ([`mcq`]) counts its calls of
//! `expand` below the root the same way, so the two counts compare.
//!
//! **No allocation per node.** A piece keeps a stack of frames, one per open node (its
//! candidate set and its listed vertices with their colours), and the frames of closed nodes
//! in a spare pool that the next child reuses, with the colouring's two scratch bitsets: after
//! the first descent the search allocates nothing.
//!
//! A split hands over the upper half of the listed vertices of the shallowest frame that has
//! a branch point to spare, with that frame's candidate set (their children need the
//! candidates below them), and the giver drops them from its list and its set. On the wire
//! only the root carries the graph; any other piece names it by digest (see
//! [`treesplit::task::shared`]).
//!
//! The application runs this task. The same search written on the skeletons ([`skeleton`]:
//! the same order, greedy colouring and bound, listing only the colours that can beat the
//! incumbent; it cannot re-number, which reorders the children by the incumbent) is kept
//! beside it to measure what the skeleton's generality costs, against this task without
//! Re-NUMBER ([`MaxClique::with_renumber`]).

pub mod app;
pub mod bench;
pub mod forked;
pub mod graph;
pub mod mcq;
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

/// The greedy colouring of a candidate set, BBMC's: its two scratch bitsets are kept between
/// calls, so colouring allocates nothing once they have the graph's width.
#[derive(Debug, Clone, Default)]
pub struct Colouring {
    uncoloured: Bits,
    class: Bits,
    /// The classes below `kmin`, one bitset each (words after words), for Re-NUMBER.
    low: Bits,
    /// Whether to re-number (Tomita's MCS): see [`Colouring::sort`].
    renumber: bool,
}

impl Colouring {
    /// A colouring that re-numbers (`renumber`) or colours greedily only.
    pub fn new(renumber: bool) -> Self {
        Colouring {
            renumber,
            ..Colouring::default()
        }
    }

    /// Colour the candidates `p` greedily, class by class (each class the lowest-indexed
    /// uncoloured vertex, then the lowest not adjacent to those taken, and so on), and list in
    /// `order` the vertices of classes `kmin` and above, by class and ascending within a class,
    /// with their classes (1, 2, …) in `colour`. The lower classes are coloured (their vertices
    /// are candidates) but not listed: no branch on them can beat the incumbent.
    ///
    /// Re-NUMBER (Tomita's MCS, where the colouring was built with [`Colouring::new`]`(true)`):
    /// a vertex v about to join a class k ≥ `kmin` (a branch point) instead joins a lower class
    /// k1 where it has exactly one neighbour q, if q can move to a class k2, k1 < k2 < `kmin`,
    /// that holds none of q's neighbours; v is then no branch point.
    pub fn sort(
        &mut self,
        graph: &Graph,
        p: &[u64],
        kmin: u32,
        order: &mut Vec<u32>,
        colour: &mut Vec<u32>,
    ) {
        order.clear();
        colour.clear();
        self.uncoloured.clear();
        self.uncoloured.extend_from_slice(p);
        self.class.clear();
        self.class.resize(p.len(), 0);
        let (uncoloured, class) = (&mut self.uncoloured[..], &mut self.class[..]);
        let mut end = uncoloured.len();
        while end > 0 && uncoloured[end - 1] == 0 {
            end -= 1;
        }
        let words = p.len();
        self.low.clear();
        let low = &mut self.low;
        let mut k = 0;
        let mut start = 0;
        while start < end {
            if uncoloured[start] == 0 {
                start += 1;
                continue;
            }
            k += 1;
            class[start..end].copy_from_slice(&uncoloured[start..end]);
            let listed = k >= kmin;
            if !listed {
                low.resize(k as usize * words, 0);
            }
            let mut w = start;
            while w < end {
                let word = class[w];
                if word == 0 {
                    w += 1;
                    continue;
                }
                let bit = word.trailing_zeros();
                let v = (w * 64) as u32 + bit;
                uncoloured[w] &= !(1 << bit);
                let row = graph.row(v);
                if listed {
                    if self.renumber && renumber(graph, low, words, end, v, row) {
                        class[w] &= !(1 << bit);
                        continue;
                    }
                    order.push(v);
                    colour.push(k);
                } else {
                    insert(&mut low[(k as usize - 1) * words..k as usize * words], v);
                }
                class[w] &= !(1 << bit) & !row[w];
                for x in w + 1..end {
                    class[x] &= !row[x];
                }
            }
        }
    }
}

/// Re-NUMBER `v` (adjacency `row`) into the classes `low` (`words` each, vertices below word
/// `end`): into the first class k1 with exactly one neighbour q of v, once q has moved to a
/// later class k2 without neighbours of q. Whether v moved.
fn renumber(graph: &Graph, low: &mut [u64], words: usize, end: usize, v: u32, row: &[u64]) -> bool {
    let classes = low.len() / words;
    for k1 in 0..classes {
        let c1 = &low[k1 * words..k1 * words + end];
        let mut q = None;
        let mut many = false;
        for (w, (&c, &r)) in c1.iter().zip(row).enumerate() {
            let x = c & r;
            if x == 0 {
                continue;
            }
            if q.is_some() || x & (x - 1) != 0 {
                many = true;
                break;
            }
            q = Some((w * 64) as u32 + x.trailing_zeros());
        }
        let Some(q) = q.filter(|_| !many) else {
            continue;
        };
        let row_q = graph.row(q);
        for k2 in k1 + 1..classes {
            let c2 = &low[k2 * words..k2 * words + end];
            if c2.iter().zip(row_q).all(|(&c, &r)| c & r == 0) {
                remove(&mut low[k1 * words..(k1 + 1) * words], q);
                insert(&mut low[k2 * words..(k2 + 1) * words], q);
                insert(&mut low[k1 * words..(k1 + 1) * words], v);
                return true;
            }
        }
    }
    false
}

/// Colour the candidates `p` greedily (BBMC) and list all of them: `order` lists them by
/// colour class, ascending index within a class, and `colour[i]` is the class of `order[i]`
/// (1, 2, …).
#[cfg(test)]
pub(crate) fn colour_sort(graph: &Graph, p: &[u64], order: &mut Vec<u32>, colour: &mut Vec<u32>) {
    Colouring::default().sort(graph, p, 1, order, colour);
}

/// An open node: its candidates `p` (the vertices still to branch on and those below them)
/// and its branch points, `order` by colour with their classes in `colour` (taken from the
/// end).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Frame {
    order: Vec<u32>,
    colour: Vec<u32>,
    p: Bits,
}

/// A piece of a maximum-clique search.
#[derive(Debug, Clone)]
pub struct MaxClique {
    graph: Shared<Graph>,
    /// The vertices chosen above each frame: frame k's clique is `clique[..base + k]`.
    clique: Vec<u32>,
    base: usize,
    frames: Vec<Frame>,
    /// Frames of closed nodes, reused by the next children (never sent).
    spare: Vec<Frame>,
    /// The colouring's scratch bitsets (never sent).
    colouring: Colouring,
}

impl Serialize for MaxClique {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        MaxCliqueWire::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for MaxClique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let wire = MaxCliqueWire::deserialize(d)?;
        MaxClique::try_from(wire).map_err(serde::de::Error::custom)
    }
}

impl MaxClique {
    /// The whole search of `graph`, with Re-NUMBER.
    pub fn new(graph: Shared<Graph>) -> Self {
        Self::with_renumber(graph, true)
    }

    /// The whole search of `graph`, re-numbering or not (`renumber`: see [`Colouring::sort`]);
    /// without, it has the order, colouring and bound of the skeleton version ([`skeleton`]).
    pub fn with_renumber(graph: Shared<Graph>, renumber: bool) -> Self {
        let mut all = vec![0u64; graph.words()];
        for v in 0..graph.len() as u32 {
            insert(&mut all, v);
        }
        let mut colouring = Colouring::new(renumber);
        let frames = if graph.is_empty() {
            vec![]
        } else {
            let mut root = Frame {
                p: all,
                ..Frame::default()
            };
            colouring.sort(&graph, &root.p, 1, &mut root.order, &mut root.colour);
            vec![root]
        };
        MaxClique {
            graph,
            clique: Vec::new(),
            base: 0,
            frames,
            spare: Vec::new(),
            colouring,
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

    /// Close the deepest frame, keeping it for reuse.
    fn pop(&mut self) {
        if let Some(f) = self.frames.pop() {
            self.spare.push(f);
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
            let k = frame.colour.last().copied();
            if k.is_none_or(|k| size - 1 + i64::from(k) <= best) {
                self.pop();
                continue;
            }
            let v = frame.order.pop().expect("a branch point");
            frame.colour.pop();
            remove(&mut frame.p, v);
            let mut child = self.spare.pop().unwrap_or_default();
            child.p.clear();
            let row = self.graph.row(v);
            child.p.extend(frame.p.iter().zip(row).map(|(a, b)| a & b));
            self.clique.truncate(depth - 1);
            self.clique.push(v);
            if size > best && ctx.offer(size) {
                let found = self.witness(&self.clique);
                ctx.output().merge(found);
            }
            if child.p.iter().all(|&w| w == 0) {
                self.spare.push(child);
                continue;
            }
            units += 1;
            // A child's vertex of colour k makes a clique of size + k: it is a branch point
            // only where that beats the incumbent.
            let kmin = (ctx.best().max(0) - size + 1).max(1);
            let kmin = u32::try_from(kmin).unwrap_or(u32::MAX);
            self.colouring.sort(
                &self.graph,
                &child.p,
                kmin,
                &mut child.order,
                &mut child.colour,
            );
            if child.order.is_empty() {
                self.spare.push(child);
            } else {
                self.frames.push(child);
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
            .find(|(i, f)| f.order.len() >= 2 || (f.order.len() == 1 && *i < last))?;
        let mid = frame.order.len() / 2;
        // The receiver branches on order[mid..], with the whole candidate set below them.
        let given = Frame {
            order: frame.order[mid..].to_vec(),
            colour: frame.colour[mid..].to_vec(),
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
            spare: Vec::new(),
            colouring: Colouring::new(self.colouring.renumber),
        })
    }

    fn is_empty(&self) -> bool {
        self.frames.iter().all(|f| f.order.is_empty())
    }
}

/// A maximum-clique piece on the wire: the root with its graph, any other with the graph's
/// digest; the clique above its first frame and its frames (candidate sets, listed vertices
/// and their colours).
#[derive(Serialize, Deserialize)]
pub struct MaxCliqueWire {
    graph: Sent<Graph>,
    clique: Vec<u32>,
    frames: Vec<Frame>,
    renumber: bool,
}

impl From<&MaxClique> for MaxCliqueWire {
    fn from(m: &MaxClique) -> Self {
        let root = m.base == 0 && m.frames.len() == 1 && m.frames[0].order.len() == m.graph.len();
        let above = (m.base + m.frames.len().saturating_sub(1)).min(m.clique.len());
        MaxCliqueWire {
            graph: if root {
                m.graph.whole()
            } else {
                m.graph.by_digest()
            },
            clique: m.clique[..above].to_vec(),
            frames: m.frames.clone(),
            renumber: m.colouring.renumber,
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
        let mut all = vec![0u64; graph.words()];
        for v in 0..n {
            insert(&mut all, v);
        }
        for f in &w.frames {
            if f.order.len() != f.colour.len() {
                return bad("a frame's lists disagree");
            }
            if f.p.len() != all.len() || f.p.iter().zip(&all).any(|(p, a)| p & !a != 0) {
                return bad("a frame's candidates are not a set of the graph's vertices");
            }
            let mut seen = vec![0u64; graph.words()];
            for &v in &f.order {
                if v >= n || has(&seen, v) || !has(&f.p, v) {
                    return bad("a frame lists a vertex twice or outside its candidates");
                }
                insert(&mut seen, v);
            }
        }
        Ok(MaxClique {
            graph,
            clique: w.clique,
            base,
            frames: w.frames,
            spare: Vec::new(),
            colouring: Colouring::new(w.renumber),
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
