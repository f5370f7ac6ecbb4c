//! The walk's invariants on small spaces: splits conserve nodes and estimates, pieces
//! round-trip through their wire form, and the three kinds give the answers of a plain
//! recursion.

use super::*;
use crate::run_sequential;
use crate::task::Task;
use crate::task::{Context, SharedIncumbent};
use serde::Deserialize;

/// The complete `b`-ary tree of depth `d`; a node is its depth and its number in its level.
#[derive(Debug, Serialize, Deserialize)]
struct Ary {
    b: u64,
    d: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct At {
    depth: u32,
    id: u64,
}

impl Space for Ary {
    type Node = At;
    type Children = u64;
    fn root(&self) -> At {
        At { depth: 0, id: 0 }
    }
    fn children(&self, node: &At) -> u64 {
        if node.depth == self.d {
            self.b
        } else {
            0
        }
    }
    fn next_child(&self, node: &At, next: &mut u64) -> Option<At> {
        if *next == self.b {
            return None;
        }
        *next += 1;
        Some(At {
            depth: node.depth + 1,
            id: node.id * self.b + *next - 1,
        })
    }
    fn estimate(&self, node: &At) -> Option<u64> {
        // (b^(d - depth + 1) - 1) / (b - 1) nodes below and at `node`.
        let levels = self.d - node.depth + 1;
        Some((0..levels).map(|k| self.b.pow(k)).sum())
    }
}

/// (nodes, sum of ids of the leaves).
impl Enumerate for Ary {
    type Output = (u64, u64);
    fn visit(&self, node: &At, out: &mut (u64, u64)) {
        out.0 += 1;
        if node.depth == self.d {
            out.1 += node.id;
        }
    }
}

fn nodes(a: &Ary) -> u64 {
    a.estimate(&a.root()).unwrap()
}

/// Work a task to the end by hand, splitting after every `every` units and working the given
/// pieces too (both after a round trip through postcard); returns (output, units, splits).
fn work_split<T: Task>(root: T, every: u64) -> (T::Output, u64, u64) {
    let inc = SharedIncumbent::new();
    let mut out = T::Output::default();
    let mut units = 0;
    let mut splits = 0;
    let mut pending = vec![root];
    while let Some(mut t) = pending.pop() {
        while !t.is_empty() {
            let mut ctx = Context::new(&mut out, &inc, 0).with_goal(T::GOAL);
            let done = t.work(every, &mut ctx);
            assert!((1..=every).contains(&done), "work did {done} of {every}");
            units += done;
            let before = t.estimate();
            if let Some(given) = t.split() {
                splits += 1;
                assert!(!given.is_empty(), "an empty piece was given away");
                if let Some(before) = before {
                    let after = t.estimate().unwrap() + given.estimate().unwrap();
                    assert_eq!(after, before, "the split did not conserve the estimate");
                }
                let bytes = postcard::to_allocvec(&given).unwrap();
                pending.push(postcard::from_bytes(&bytes).unwrap());
                // The piece kept travels too (a checkpoint, a scatter).
                let bytes = postcard::to_allocvec(&t).unwrap();
                t = postcard::from_bytes(&bytes).unwrap();
            }
        }
    }
    (out, units, splits)
}

#[test]
fn enumeration_visits_every_node_once_however_it_is_split() {
    for (b, d) in [(2, 10), (3, 6), (1, 5), (5, 0)] {
        let a = Ary { b, d };
        let n = nodes(&a);
        let leaves_sum: u64 = (0..b.pow(d)).sum();
        let seq = run_sequential(Enumeration::new(Ary { b, d }));
        assert_eq!(seq.output, (n, leaves_sum), "b={b} d={d}");
        assert_eq!(seq.work_units, n);
        for every in [1, 2, 3, 7, 100] {
            let (out, units, splits) = work_split(Enumeration::new(Ary { b, d }), every);
            assert_eq!(out, (n, leaves_sum), "b={b} d={d} every={every}");
            assert_eq!(units, n, "b={b} d={d} every={every}");
            if b > 1 && d > 1 {
                assert!(splits > 0, "b={b} d={d} every={every}: nothing split");
            }
        }
    }
}

#[test]
fn the_root_splits_before_any_work() {
    let mut root = Enumeration::new(Ary { b: 4, d: 3 });
    let given = root
        .split()
        .expect("an unvisited root with children splits");
    assert_eq!(root.estimate().unwrap() + given.estimate().unwrap(), 85);
    let mut pieces = vec![root, given];
    // Split everything as far as it goes without working: all pieces together still hold
    // every node.
    let mut i = 0;
    while i < pieces.len() {
        while let Some(g) = pieces[i].split() {
            pieces.push(g);
        }
        i += 1;
    }
    assert!(pieces.len() >= 4, "{} pieces", pieces.len());
    let mut total = (0, 0);
    for p in pieces {
        let s = run_sequential(p);
        total.0 += s.output.0;
        total.1 += s.output.1;
    }
    assert_eq!(total, (85, (0..64).sum()));
}

#[test]
fn repeated_splits_cut_a_wide_tree_into_pieces_of_comparable_size() {
    // A root with 64 children of 65 nodes each, split three rounds over, every piece once a
    // round, as a static balancer cuts the root: 8 pieces of about 8 children each (giving
    // away all siblings would leave one piece with 57 of them).
    let a = Ary { b: 64, d: 2 };
    let mut pieces = vec![Enumeration::new(Ary { b: 64, d: 2 })];
    for _ in 0..3 {
        let given: Vec<_> = pieces.iter_mut().filter_map(|p| p.split()).collect();
        pieces.extend(given);
    }
    assert_eq!(pieces.len(), 8);
    let sizes: Vec<u64> = pieces
        .into_iter()
        .map(|p| run_sequential(p).work_units)
        .collect();
    assert_eq!(sizes.iter().sum::<u64>(), nodes(&a));
    let mean = nodes(&a) / 8;
    assert!(
        sizes.iter().all(|&s| s * 4 < mean * 5),
        "pieces of {sizes:?} nodes, mean {mean}"
    );
}

#[test]
fn a_piece_is_small_and_names_the_instance_by_digest() {
    let mut root = Enumeration::new(Ary { b: 3, d: 8 });
    let inc = SharedIncumbent::new();
    let mut out = (0, 0);
    root.work(50, &mut Context::new(&mut out, &inc, 0));
    let given = root.split().unwrap();
    let bytes = postcard::to_allocvec(&given).unwrap();
    assert!(bytes.len() < 40, "{} bytes", bytes.len());
    let root_bytes = postcard::to_allocvec(&Enumeration::new(Ary { b: 3, d: 8 })).unwrap();
    assert_eq!(
        root_bytes[0], 0,
        "the root piece carries the instance whole"
    );
}

/// The goal is the leaf numbered 37.
impl Decide for Ary {
    fn is_goal(&self, node: &At) -> bool {
        node.depth == self.d && node.id == 37
    }
}

/// The largest leaf number, bounded by the largest leaf below a node.
impl Optimise for Ary {
    fn objective(&self, node: &At) -> Option<i64> {
        (node.depth == self.d).then_some(node.id as i64)
    }
    fn bound(&self, node: &At) -> Option<i64> {
        let below = self.b.pow(self.d - node.depth);
        Some(((node.id + 1) * below - 1) as i64)
    }
}

/// The node at `path` from the root, by the generators.
fn follow(a: &Ary, path: &[u32]) -> At {
    let mut node = a.root();
    for &i in path {
        let mut children = a.children(&node);
        assert_eq!(
            a.skip_children(&node, &mut children, u64::from(i)),
            u64::from(i)
        );
        node = a
            .next_child(&node, &mut children)
            .expect("the path's child");
    }
    node
}

#[test]
fn witnesses_carry_their_path_from_the_root() {
    let a = Ary { b: 3, d: 5 };
    for every in [1, 4, 1000] {
        let (found, _, _) = work_split(Decision::new(Ary { b: 3, d: 5 }), every);
        let w = found.0.expect("leaf 37 exists");
        assert_eq!(w.node, At { depth: 5, id: 37 });
        // 37 = 01101 in base 3.
        assert_eq!(w.path, vec![0, 1, 1, 0, 1]);
        assert_eq!(follow(&a, &w.path), w.node);

        let (best, _, _) = work_split(Optimisation::new(Ary { b: 3, d: 5 }), every);
        assert_eq!(best.value(), Some(242));
        let w = best.witness().unwrap();
        assert_eq!(w.path, vec![2; 5]);
        assert_eq!(follow(&a, &w.path), w.node);
    }
}

/// Choose `k` of the costs (ascending) with the smallest sum. Nodes own their choices (a
/// `Vec`) and are handed back for reuse (`Space::REUSE`); with `cut`, a generator started
/// with the incumbent stops where a child's bound (the sum so far plus its cost, ascending)
/// reaches it.
#[derive(Debug, Serialize, Deserialize)]
struct Choose {
    costs: Vec<i64>,
    k: usize,
    cut: bool,
}

impl Choose {
    fn new(cut: bool) -> Self {
        Choose {
            costs: vec![1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233],
            k: 4,
            cut,
        }
    }
    fn sum(&self, node: &[u8]) -> i64 {
        node.iter().map(|&i| self.costs[usize::from(i)]).sum()
    }
}

impl Space for Choose {
    type Node = Vec<u8>;
    /// The next index to add and the end of the indices to try.
    type Children = (usize, usize);
    fn root(&self) -> Vec<u8> {
        Vec::new()
    }
    fn children(&self, node: &Vec<u8>) -> (usize, usize) {
        let end = self.costs.len();
        if node.len() == self.k {
            return (end, end);
        }
        (node.last().map_or(0, |&i| usize::from(i) + 1), end)
    }
    fn next_child(&self, node: &Vec<u8>, next: &mut (usize, usize)) -> Option<Vec<u8>> {
        self.next_child_reusing(node, next, &mut None)
    }
    const REUSE: bool = true;
    fn next_child_reusing(
        &self,
        node: &Vec<u8>,
        (next, end): &mut (usize, usize),
        spare: &mut Option<Vec<u8>>,
    ) -> Option<Vec<u8>> {
        if *next >= *end {
            return None;
        }
        let mut child = spare.take().unwrap_or_default();
        child.clear();
        child.extend_from_slice(node);
        child.push(*next as u8);
        *next += 1;
        Some(child)
    }
}

/// The number of ways to choose `k`.
impl Enumerate for Choose {
    type Output = u64;
    fn visit(&self, node: &Vec<u8>, ways: &mut u64) {
        *ways += u64::from(node.len() == self.k);
    }
}

impl Optimise for Choose {
    const GOAL: crate::task::Goal = crate::task::Goal::Minimise;
    const PRUNE_LEVEL: bool = true;
    fn objective(&self, node: &Vec<u8>) -> Option<i64> {
        (node.len() == self.k).then(|| self.sum(node))
    }
    fn bound(&self, node: &Vec<u8>) -> Option<i64> {
        Some(self.sum(node))
    }
    fn children_beating(&self, node: &Vec<u8>, best: Option<i64>) -> (usize, usize) {
        let (next, mut end) = self.children(node);
        if let Some(best) = best.filter(|_| self.cut) {
            let sum = self.sum(node);
            while end > next && sum + self.costs[end - 1] >= best {
                end -= 1;
            }
        }
        (next, end)
    }
}

#[test]
fn reused_nodes_and_generators_cut_at_the_incumbent_keep_the_answers_exact() {
    // C(12, 4) = 495 ways; the cheapest four cost 1 + 2 + 3 + 5.
    let seq = run_sequential(Enumeration::new(Choose::new(false)));
    assert_eq!(seq.output, 495);
    let plain = run_sequential(Optimisation::new(Choose::new(false)));
    let cut = run_sequential(Optimisation::new(Choose::new(true)));
    for r in [&plain, &cut] {
        assert_eq!(r.output.value(), Some(11));
        assert_eq!(r.output.witness().unwrap().node, vec![0, 1, 2, 3]);
    }
    // The cut leaves out children the incumbent rules out: strictly fewer nodes.
    assert!(cut.work_units < plain.work_units);
    for every in [1, 2, 3, 7, 100] {
        let (ways, _, _) = work_split(Enumeration::new(Choose::new(true)), every);
        assert_eq!(ways, 495, "every={every}");
        for c in [false, true] {
            let (best, _, _) = work_split(Optimisation::new(Choose::new(c)), every);
            assert_eq!(best.value(), Some(11), "every={every} cut={c}");
            let w = best.witness().unwrap();
            assert_eq!(w.node, vec![0, 1, 2, 3], "every={every} cut={c}");
            assert_eq!(node_at(&Choose::new(c), &w.path), Some(w.node.clone()));
        }
    }
}
