//! The symmetric travelling salesman problem by branch-and-bound: the shortest closed tour
//! through every city of a TSPLIB file ([`tsplib`]), the canonical minimising search.
//!
//! The search ([`skeleton`]) extends a path from city 0 one city at a time, children in
//! order of their bounds; a node's bound is the Held–Karp 1-tree bound of the rest of the
//! tour under the root's Lagrangian penalties, improved by a few subgradient steps of its
//! own ([`bound`]). Before the search, a nearest-neighbour tour improved by 2-opt and Or-opt
//! is computed to be the first incumbent (each piece offers it at its first node), and a
//! long subgradient ascent gives the root's penalties: both are part of the instance
//! ([`Problem`]), computed once where it is read.
//!
//! The answer is a [`Tour`]: its length and the cities in the file's numbers, checked
//! against the distances and, where it is published, the optimum (`optima.tsv` beside the
//! file, or `--optimum`).

pub mod app;
pub mod bound;
pub mod skeleton;
pub mod tsplib;

pub use app::{TspSource, TspSpec};
pub use skeleton::{search, TspSearch, TspSpace};
pub use tsplib::Matrix;

use bound::Dist;
use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::Outcome;

/// Subgradient steps at the root (each one a minimum spanning tree, O(n²)): 3000 up to 200
/// cities, 300 beyond.
fn root_iterations(n: usize) -> usize {
    if n <= 200 {
        3000
    } else {
        300
    }
}

/// An instance ready to search: the distances, the first tour and the root's penalties.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// The file's `NAME`.
    pub name: String,
    /// Cities.
    pub n: usize,
    /// `dist[i * n + j]`.
    pub dist: Vec<u32>,
    /// The heuristic tour (city 0 first) and its length.
    pub first: Vec<u16>,
    /// Its length.
    pub first_length: u64,
    /// The root's penalties, one per city (city 0's is 0).
    pub pi: Vec<f64>,
    /// The root's bound (the Held–Karp bound, rounded up).
    pub root_bound: i64,
}

impl Problem {
    /// Prepare `m` for the search: the heuristic tour and the root's ascent.
    pub fn new(m: Matrix) -> Problem {
        let n = m.n;
        let dist = Dist { n, d: &m.dist };
        let first = bound::heuristic_tour(&dist);
        let first_length = dist.tour_length(&first);
        let (pi, root_bound) = if n <= 2 {
            (vec![0.0; n], first_length as i64)
        } else {
            let u: Vec<usize> = (1..n).collect();
            let mut pi = vec![0.0; n - 1];
            let upper = first_length as f64;
            let (lb, best) = bound::ascent(
                &dist,
                0.0,
                0,
                &u,
                &mut pi,
                upper,
                upper,
                root_iterations(n),
                n.max(10),
            );
            let mut all = vec![0.0];
            all.extend(best);
            (all, bound::ceil(lb).min(first_length as i64))
        };
        Problem {
            name: m.name,
            n,
            dist: m.dist,
            first,
            first_length,
            pi,
            root_bound,
        }
    }

    /// The distances.
    pub fn distances(&self) -> Dist<'_> {
        Dist {
            n: self.n,
            d: &self.dist,
        }
    }

    /// The tour `path` (0-based cities) as a [`Tour`]: in the file's numbers, from city 1,
    /// in the direction whose second city is the smaller.
    pub fn tour(&self, path: &[u16]) -> Tour {
        let length = self.distances().tour_length(path);
        let mut cities: Vec<u32> = path.iter().map(|&c| u32::from(c) + 1).collect();
        if let Some(z) = cities.iter().position(|&c| c == 1) {
            cities.rotate_left(z);
        }
        if cities.len() > 2 && cities[cities.len() - 1] < cities[1] {
            cities[1..].reverse();
        }
        Tour {
            length,
            tour: cities,
        }
    }

    /// True when `tour` visits every city once (file numbers) and has the length it claims.
    pub fn is_tour(&self, tour: &Tour) -> bool {
        let mut seen = vec![false; self.n];
        let valid = tour.tour.len() == self.n
            && tour.tour.iter().all(|&c| {
                let i = c as usize;
                (1..=self.n).contains(&i) && !std::mem::replace(&mut seen[i - 1], true)
            });
        valid && {
            let path: Vec<u16> = tour.tour.iter().map(|&c| (c - 1) as u16).collect();
            self.distances().tour_length(&path) == tour.length
        }
    }
}

/// A shortest tour found: its length and its cities in the file's numbers (1-based), from
/// city 1. The default, empty, is no tour.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tour {
    /// The tour's length.
    pub length: u64,
    /// The cities in order, city 1 first.
    pub tour: Vec<u32>,
}

impl crate::objective::Objective for Tour {
    fn objective(&self) -> Option<u64> {
        let mut sorted = self.tour.clone();
        sorted.sort_unstable();
        let distinct = sorted.windows(2).all(|w| w[0] < w[1]);
        (!self.tour.is_empty() && distinct).then_some(self.length)
    }
}

/// The shorter tour; between two of one length, the lexicographically smaller city list.
impl Outcome for Tour {
    fn merge(&mut self, other: Self) {
        if other.tour.is_empty() {
            return;
        }
        if self.tour.is_empty() || (other.length, &other.tour) < (self.length, &self.tour) {
            *self = other;
        }
    }
}

impl fmt::Display for Tour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tour.is_empty() {
            return write!(f, "no tour");
        }
        write!(f, "length {}: tour", self.length)?;
        for c in &self.tour {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
