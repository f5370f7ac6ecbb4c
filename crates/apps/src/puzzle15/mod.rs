//! The 15-puzzle by IDA* with the Manhattan distance heuristic (Korf 1985), one iteration at a
//! time as a tree-shaped computation.
//!
//! Goal and conventions follow `../shared/data/korf100.tsv`: tiles by board position 0..15 in
//! row-major order, 0 the blank, goal = blank at position 0 and tile i at position i. The
//! blank's moves are tried in the order UP, LEFT, RIGHT, DOWN; the move undoing the previous
//! one is never generated. An iteration with threshold T expands nodes with f = g + h ≤ T;
//! every child generated is one work unit (children with f > T included, and they give the
//! next threshold). Counting 1 for the start node plus all children of all iterations, and
//! stopping the last iteration at the first goal generated, reproduces Korf's node counts.
//!
//! A piece is a depth-first stack of frames, each with its board (packed, 4 bits per tile) and
//! the range of moves not yet tried; a split hands over the upper half of the untried moves of
//! the shallowest frame that has any, with the path leading to it.
//!
//! **Randomized last iteration** (paper 002 §6.2: "in the last iteration it is a quite good
//! approach to work on several randomly selected subproblems until the first solution is
//! found"): with an order seed ([`Puzzle15::randomized`]) every node tries its moves in a
//! pseudorandom order drawn from its board and the seed, so the subproblems the PEs (and a
//! sequential walk) reach first are random ones rather than Korf's leftmost. Every iteration
//! but the last is complete either way (the same nodes, in another order); the last one stops
//! at the first solution, whose node count is what the order changes.

use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::{Context, Outcome, Task};

/// Blank moves in Korf's order: UP, LEFT, RIGHT, DOWN (position deltas).
const MOVES: [i8; 4] = [-4, -1, 1, 4];
/// Move names for printing.
const NAMES: [char; 4] = ['U', 'L', 'R', 'D'];

/// A board: tile at each position, 0 the blank.
pub type Tiles = [u8; 16];

fn pack(t: &Tiles) -> u64 {
    t.iter()
        .enumerate()
        .fold(0, |acc, (i, &v)| acc | u64::from(v) << (4 * i))
}

fn tile_at(board: u64, pos: usize) -> u8 {
    (board >> (4 * pos) & 15) as u8
}

fn manhattan_of(tile: u8, pos: usize) -> u32 {
    let t = tile as usize;
    ((t / 4).abs_diff(pos / 4) + (t % 4).abs_diff(pos % 4)) as u32
}

/// The Manhattan distance of a board to the goal.
pub fn manhattan(t: &Tiles) -> u32 {
    t.iter()
        .enumerate()
        .filter(|(_, &v)| v != 0)
        .map(|(p, &v)| manhattan_of(v, p))
        .sum()
}

/// Check a board: the numbers 0..15 once each, and solvable for the blank-first goal.
pub fn check_tiles(t: &[u8]) -> Result<Tiles, String> {
    let tiles: Tiles = t
        .try_into()
        .map_err(|_| format!("a 15-puzzle board has 16 numbers, got {}", t.len()))?;
    let mut seen = [false; 16];
    for &v in &tiles {
        if v > 15 || seen[v as usize] {
            return Err(format!(
                "the board must hold each of 0..15 once (0 = blank); {v} is {}",
                if v > 15 { "out of range" } else { "repeated" }
            ));
        }
        seen[v as usize] = true;
    }
    // Solvability for the goal with the blank at position 0: the permutation parity (of all
    // 16 entries) must equal the parity of the blank's Manhattan distance from position 0.
    let mut inversions = 0;
    for i in 0..16 {
        for j in i + 1..16 {
            if tiles[i] > tiles[j] {
                inversions += 1;
            }
        }
    }
    let blank = tiles.iter().position(|&v| v == 0).expect("a blank");
    if (inversions + blank / 4 + blank % 4) % 2 != 0 {
        return Err(
            "this board cannot reach the goal (0 1 2 … 15, blank first): wrong parity".into(),
        );
    }
    Ok(tiles)
}

/// The result of one iteration: a solution (the blank's moves) if one has f ≤ T, and the
/// smallest f above T seen (the next threshold).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Iteration {
    /// The moves of the first solution found (by (length, moves) order when several).
    pub solution: Option<Vec<u8>>,
    /// Smallest f > T among the children generated (u32::MAX: none).
    pub next_threshold: u32,
}

/// An iteration's objective is its solution's length (the instance checks the moves: see
/// the published answer of [`PuzzleSpec`]).
impl crate::objective::Objective for Iteration {
    fn objective(&self) -> Option<u64> {
        self.solution.as_ref().map(|s| s.len() as u64)
    }
}

impl Default for Iteration {
    fn default() -> Self {
        Iteration {
            solution: None,
            next_threshold: u32::MAX,
        }
    }
}

impl Outcome for Iteration {
    fn merge(&mut self, other: Self) {
        self.next_threshold = self.next_threshold.min(other.next_threshold);
        if let Some(s) = other.solution {
            let better = match &self.solution {
                None => true,
                Some(mine) => (s.len(), &s) < (mine.len(), mine),
            };
            if better {
                self.solution = Some(s);
            }
        }
    }
}

impl fmt::Display for Iteration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.solution {
            Some(s) => write!(f, "solution of {} moves: {}", s.len(), moves_string(s)),
            None => write!(f, "no solution; next threshold {}", self.next_threshold),
        }
    }
}

/// The moves as letters (U, L, R, D: where the blank goes).
pub fn moves_string(moves: &[u8]) -> String {
    moves.iter().map(|&m| NAMES[m as usize]).collect()
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Frame {
    board: u64,
    blank: u8,
    g: u16,
    h: u16,
    /// The move that led here (4: none).
    incoming: u8,
    /// Moves next..end not tried yet.
    next: u8,
    end: u8,
}

/// A piece of one IDA* iteration.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Puzzle15 {
    threshold: u32,
    /// Stop the whole search at the first solution (the end of the last iteration).
    stop_at_first: bool,
    /// Moves from the start to the first frame.
    path: Vec<u8>,
    stack: Vec<Frame>,
    /// Randomized move order (§6.2): the seed; None: Korf's order.
    #[serde(default)]
    order: Option<u64>,
}

/// The 24 orders of the four moves.
const ORDERS: [[u8; 4]; 24] = {
    let mut all = [[0u8; 4]; 24];
    let mut k = 0;
    let mut a: i32 = 0;
    while a < 4 {
        let mut b: i32 = 0;
        while b < 4 {
            let mut c: i32 = 0;
            while c < 4 {
                let d = 6 - a - b - c;
                if a != b && a != c && b != c && 0 <= d && d < 4 && d != a && d != b && d != c {
                    all[k] = [a as u8, b as u8, c as u8, d as u8];
                    k += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    all
};

/// The move tried `j`-th at a node with `board` under order seed `order`.
fn move_at(board: u64, order: Option<u64>, j: u8) -> usize {
    match order {
        None => j as usize,
        Some(seed) => {
            let mut x = board ^ seed.rotate_left(29);
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^= x >> 31;
            ORDERS[(x % 24) as usize][j as usize] as usize
        }
    }
}

impl Puzzle15 {
    /// The iteration with threshold `threshold` from `tiles`.
    pub fn new(tiles: &Tiles, threshold: u32, stop_at_first: bool) -> Self {
        let blank = tiles.iter().position(|&v| v == 0).unwrap_or(0) as u8;
        Puzzle15 {
            threshold,
            stop_at_first,
            path: vec![],
            stack: vec![Frame {
                board: pack(tiles),
                blank,
                g: 0,
                h: manhattan(tiles) as u16,
                incoming: 4,
                next: 0,
                end: 4,
            }],
            order: None,
        }
    }

    /// The same iteration with each node's moves in a pseudorandom order drawn from `seed`
    /// (§6.2's randomized last iteration; module comment).
    pub fn randomized(mut self, seed: u64) -> Self {
        self.order = Some(seed);
        self
    }
}

fn legal(blank: usize, m: usize) -> bool {
    match m {
        0 => blank >= 4,
        1 => !blank.is_multiple_of(4),
        2 => blank % 4 != 3,
        _ => blank < 12,
    }
}

impl Task for Puzzle15 {
    type Output = Iteration;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Iteration>) -> u64 {
        let mut units = 0;
        let mut next_threshold = u32::MAX;
        while units < budget {
            let Some(top) = self.stack.last_mut() else {
                break;
            };
            if top.next >= top.end {
                self.stack.pop();
                continue;
            }
            let m = move_at(top.board, self.order, top.next);
            top.next += 1;
            let blank = top.blank as usize;
            if !legal(blank, m) || (top.incoming != 4 && top.incoming as usize == 3 - m) {
                continue; // off the board, or undoing the parent: not generated
            }
            units += 1;
            let to = (blank as i32 + i32::from(MOVES[m])) as usize;
            let tile = tile_at(top.board, to);
            let h = top.h as u32 - manhattan_of(tile, to) + manhattan_of(tile, blank);
            let g = top.g as u32 + 1;
            let f = g + h;
            if f > self.threshold {
                next_threshold = next_threshold.min(f);
                continue;
            }
            let board = top.board & !(15 << (4 * to)) | u64::from(tile) << (4 * blank);
            if h == 0 {
                let mut moves = self.path.clone();
                moves.extend(self.stack.iter().skip(1).map(|fr| fr.incoming));
                moves.push(m as u8);
                ctx.output().merge(Iteration {
                    solution: Some(moves),
                    next_threshold: u32::MAX,
                });
                if self.stop_at_first {
                    ctx.stop();
                    self.stack.clear();
                    break;
                }
                continue;
            }
            self.stack.push(Frame {
                board,
                blank: to as u8,
                g: g as u16,
                h: h as u16,
                incoming: m as u8,
                next: 0,
                end: 4,
            });
        }
        if next_threshold != u32::MAX {
            ctx.output().merge(Iteration {
                solution: None,
                next_threshold,
            });
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        let last = self.stack.len().checked_sub(1)?;
        let (i, frame) = self
            .stack
            .iter_mut()
            .enumerate()
            .find(|(_, f)| f.next < f.end)?;
        let left = frame.end - frame.next;
        let from = if left >= 2 {
            frame.next + left / 2
        } else if i < last {
            frame.next
        } else {
            return None;
        };
        let given = Frame {
            next: from,
            ..*frame
        };
        frame.end = from;
        let mut path = self.path.clone();
        path.extend(self.stack[1..=i].iter().map(|f| f.incoming));
        Some(Puzzle15 {
            threshold: self.threshold,
            stop_at_first: self.stop_at_first,
            path,
            stack: vec![given],
            order: self.order,
        })
    }

    fn is_empty(&self) -> bool {
        self.stack.iter().all(|f| f.next >= f.end)
    }
}

/// Apply `moves` to `tiles`; true when they reach the goal.
pub fn solves(tiles: &Tiles, moves: &[u8]) -> bool {
    let mut t = *tiles;
    let mut blank = t.iter().position(|&v| v == 0).unwrap_or(0);
    for &m in moves {
        if m > 3 || !legal(blank, m as usize) {
            return false;
        }
        let to = (blank as i32 + i32::from(MOVES[m as usize])) as usize;
        t.swap(blank, to);
        blank = to;
    }
    t.iter().enumerate().all(|(i, &v)| v as usize == i)
}

/// The result of a whole IDA* search.
#[derive(Debug, Clone, Serialize)]
pub struct IdaResult {
    /// The optimal solution (the blank's moves).
    pub moves: Vec<u8>,
    /// Nodes generated: 1 for the start plus every child of every iteration.
    pub generated: u64,
    /// The thresholds of the iterations run.
    pub thresholds: Vec<u32>,
}

/// IDA*: run iterations with growing thresholds through `iteration` (which runs one
/// iteration's root on some machine and returns its outcome and work units) until one
/// finds a solution.
pub fn ida_star<E>(
    tiles: &Tiles,
    stop_at_first: bool,
    iteration: impl FnMut(Puzzle15) -> Result<(Iteration, u64), E>,
) -> Result<IdaResult, E> {
    ida_star_ordered(tiles, stop_at_first, None, iteration)
}

/// [`ida_star`] with every iteration's moves in the pseudorandom order of `order` (None:
/// Korf's order).
pub fn ida_star_ordered<E>(
    tiles: &Tiles,
    stop_at_first: bool,
    order: Option<u64>,
    mut iteration: impl FnMut(Puzzle15) -> Result<(Iteration, u64), E>,
) -> Result<IdaResult, E> {
    let mut threshold = manhattan(tiles);
    let mut generated = 1;
    let mut thresholds = Vec::new();
    loop {
        thresholds.push(threshold);
        if threshold == 0 {
            return Ok(IdaResult {
                moves: vec![],
                generated,
                thresholds,
            });
        }
        let mut root = Puzzle15::new(tiles, threshold, stop_at_first);
        if let Some(seed) = order {
            root = root.randomized(seed);
        }
        let (out, units) = iteration(root)?;
        generated += units;
        if let Some(moves) = out.solution {
            return Ok(IdaResult {
                moves,
                generated,
                thresholds,
            });
        }
        assert!(
            out.next_threshold != u32::MAX,
            "a solvable board always has a next threshold"
        );
        threshold = out.next_threshold;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_and_board_errors() {
        let goal: Vec<u8> = (0..16).collect();
        assert!(check_tiles(&goal).is_ok());
        let mut swapped = goal.clone();
        swapped.swap(1, 2);
        assert!(check_tiles(&swapped).unwrap_err().contains("parity"));
        assert!(check_tiles(&goal[..15]).unwrap_err().contains("16 numbers"));
        let mut dup = goal.clone();
        dup[3] = 2;
        assert!(check_tiles(&dup).unwrap_err().contains("repeated"));
    }

    #[test]
    fn a_short_puzzle_is_solved_optimally_with_korfs_count() {
        // Two moves from the goal: blank right then down.
        let mut t: Tiles = core::array::from_fn(|i| i as u8);
        t.swap(0, 1);
        t.swap(1, 5);
        let r = ida_star(&t, true, |root| -> Result<_, ()> {
            let s = treesplit::run_sequential(root);
            Ok((s.output, s.work_units))
        })
        .unwrap();
        assert_eq!(r.moves.len(), 2);
        assert!(solves(&t, &r.moves));
    }

    #[test]
    fn orders_are_the_24_permutations() {
        let mut seen = std::collections::HashSet::new();
        for o in ORDERS {
            let mut s = o;
            s.sort_unstable();
            assert_eq!(s, [0, 1, 2, 3]);
            seen.insert(o);
        }
        assert_eq!(seen.len(), 24);
    }

    /// A randomized order finds an optimal solution too, and completes the earlier
    /// iterations with exactly Korf's node counts (only the order differs there).
    #[test]
    fn randomized_order_keeps_optimality_and_complete_iterations() {
        let mut t: Tiles = core::array::from_fn(|i| i as u8);
        for (a, b) in [(0, 1), (1, 5), (5, 6), (6, 2), (2, 3), (3, 7), (7, 11)] {
            t.swap(a, b);
        }
        let seq = |root: Puzzle15| -> Result<_, ()> {
            let s = treesplit::run_sequential(root);
            Ok((s.output, s.work_units))
        };
        let korf = ida_star(&t, true, seq).unwrap();
        let complete = ida_star(&t, false, seq).unwrap();
        for seed in 1..6 {
            let r = ida_star_ordered(&t, true, Some(seed), seq).unwrap();
            assert_eq!(r.moves.len(), korf.moves.len(), "optimal length");
            assert!(solves(&t, &r.moves));
            assert_eq!(r.thresholds, korf.thresholds);
            let full = ida_star_ordered(&t, false, Some(seed), seq).unwrap();
            assert_eq!(
                full.generated, complete.generated,
                "same nodes, another order"
            );
        }
    }
}

pub mod app;
pub mod search;
pub mod spec;

pub use spec::PuzzleSpec;
