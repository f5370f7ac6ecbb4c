//! The plain sequential maximum-clique solver that `bench maxclique` times beside the task:
//! Tomita and Seki's MCQ (2003), written as a strong sequential program is written and on
//! nothing of treesplit's, so that the task's speed is judged against a solver of the
//! literature rather than against itself.
//!
//! The vertices are ordered once by non-increasing degree (ties by the file's number); the
//! adjacency is one bitset per vertex in that order. A node is a clique C and its candidates
//! P, a list in the static order; `expand` colours P greedily in that order (each vertex into
//! the first colour class holding none of its neighbours), lists P by colour, and branches
//! from the last vertex: the child of `order[i]` has the candidates among `order[..i]`
//! adjacent to it, in the static order (as MCSa keeps them; MCQ's own colour order gave
//! several times the nodes on the DIMACS graphs), and colour k of `order[i]` prunes it, and every branch before it, when
//! |C| + k ≤ the incumbent. The buffers of each depth are reused, so the search allocates
//! nothing after its first descent. Nodes are counted as the task counts them: one per
//! non-empty candidate set expanded below the root.

use super::{Clique, Graph};

/// One depth's buffers: the candidates (static order), the colour classes, the colour-sorted
/// list, the candidates already branched on.
#[derive(Default)]
struct Level {
    p: Vec<u32>,
    gone: Vec<u64>,
    classes: Vec<Vec<u32>>,
    order: Vec<u32>,
    colour: Vec<u32>,
}

/// MCQ's search state.
struct Mcq {
    words: usize,
    /// Row i: the neighbours of vertex i (degree order).
    adj: Vec<u64>,
    clique: Vec<u32>,
    best: Vec<u32>,
    levels: Vec<Level>,
    nodes: u64,
}

impl Mcq {
    fn adjacent(&self, u: u32, v: u32) -> bool {
        self.adj[u as usize * self.words + (v / 64) as usize] >> (v % 64) & 1 == 1
    }

    /// Colour `level.p` greedily into `level.order` and `level.colour`.
    fn colour(&self, level: &mut Level) {
        let mut used = 0;
        for &v in &level.p {
            let k = (0..used)
                .find(|&k| level.classes[k].iter().all(|&u: &u32| !self.adjacent(u, v)))
                .unwrap_or(used);
            if k == used {
                if level.classes.len() == used {
                    level.classes.push(Vec::new());
                }
                level.classes[used].clear();
                used += 1;
            }
            level.classes[k].push(v);
        }
        level.order.clear();
        level.colour.clear();
        for (k, class) in level.classes[..used].iter().enumerate() {
            level.order.extend_from_slice(class);
            level
                .colour
                .extend(std::iter::repeat_n(k as u32 + 1, class.len()));
        }
    }

    /// Expand the candidates of depth `d` (already in `levels[d].p`).
    fn expand(&mut self, d: usize) {
        if self.levels.len() <= d + 1 {
            self.levels.resize_with(d + 2, Level::default);
        }
        let mut level = std::mem::take(&mut self.levels[d]);
        self.colour(&mut level);
        level.gone.clear();
        level.gone.resize(self.words, 0);
        for i in (0..level.order.len()).rev() {
            if self.clique.len() + level.colour[i] as usize <= self.best.len() {
                break;
            }
            let v = level.order[i];
            self.clique.push(v);
            level.gone[(v / 64) as usize] |= 1 << (v % 64);
            let mut next = std::mem::take(&mut self.levels[d + 1].p);
            next.clear();
            next.extend(
                level
                    .p
                    .iter()
                    .copied()
                    .filter(|&u| level.gone[(u / 64) as usize] >> (u % 64) & 1 == 0)
                    .filter(|&u| self.adjacent(v, u)),
            );
            if next.is_empty() {
                if self.clique.len() > self.best.len() {
                    self.best.clone_from(&self.clique);
                }
                self.levels[d + 1].p = next;
            } else {
                self.nodes += 1;
                self.levels[d + 1].p = next;
                self.expand(d + 1);
            }
            self.clique.pop();
        }
        self.levels[d] = level;
    }
}

/// A maximum clique of `graph` by MCQ, and the nodes it expanded (non-empty candidate sets
/// below the root).
pub fn solve(graph: &Graph) -> (Clique, u64) {
    let n = graph.len();
    // The file's vertices (0-based), by non-increasing degree, ties by number.
    let mut by_file: Vec<(u32, u32)> = (0..n as u32)
        .map(|s| {
            let degree = graph.row(s).iter().map(|w| w.count_ones()).sum();
            (graph.dimacs(s) - 1, degree)
        })
        .collect();
    let search_of: Vec<u32> = {
        let mut s = vec![0u32; n];
        for (i, &(file, _)) in by_file.iter().enumerate() {
            s[file as usize] = i as u32;
        }
        s
    };
    by_file.sort_by_key(|&(file, degree)| (std::cmp::Reverse(degree), file));
    // Vertex i of MCQ is file vertex by_file[i].0, which is search vertex search_of[..].
    let words = n.div_ceil(64).max(1);
    let mut adj = vec![0u64; n * words];
    let mut rank = vec![0u32; n];
    for (i, &(file, _)) in by_file.iter().enumerate() {
        rank[file as usize] = i as u32;
    }
    for (i, &(file, _)) in by_file.iter().enumerate() {
        let row = graph.row(search_of[file as usize]);
        for s in 0..n as u32 {
            if row[(s / 64) as usize] >> (s % 64) & 1 == 1 {
                let j = rank[(graph.dimacs(s) - 1) as usize];
                adj[i * words + (j / 64) as usize] |= 1 << (j % 64);
            }
        }
    }
    let mut mcq = Mcq {
        words,
        adj,
        clique: Vec::new(),
        best: Vec::new(),
        levels: vec![Level::default()],
        nodes: 0,
    };
    if n > 0 {
        mcq.levels[0].p = (0..n as u32).collect();
        mcq.expand(0);
    }
    let mut clique: Vec<u32> = mcq
        .best
        .iter()
        .map(|&i| by_file[i as usize].0 + 1)
        .collect();
    clique.sort_unstable();
    (
        Clique {
            omega: clique.len() as u32,
            clique,
        },
        mcq.nodes,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit::task::shared::Shared;

    #[test]
    fn mcq_finds_the_tasks_clique_number_and_a_clique() {
        for (n, p, seed) in [(60, 0.5, 1), (80, 0.8, 2), (30, 1.0, 3), (20, 0.0, 4)] {
            let g = Graph::random(n, p, seed).unwrap();
            let (found, _) = solve(&g);
            assert!(g.is_clique(&found.clique), "G({n}, {p})");
            assert_eq!(found.clique.len(), found.omega as usize);
            let task = treesplit::run_sequential(super::super::MaxClique::new(Shared::new(g)));
            assert_eq!(found.omega, task.output.omega, "G({n}, {p})");
        }
        assert_eq!(solve(&Graph::new(0, &[]).unwrap()).0, Clique::default());
    }
}
