//! Optimal Golomb rulers: the shortest ruler with n marks whose pairwise differences are all
//! distinct, by branch-and-bound.
//!
//! Marks are placed left to right (mark 0 at 0); a candidate position is rejected when one
//! of its differences to earlier marks was used before (a 256-bit set of used differences),
//! and a partial ruler is pruned when its last mark plus a lower bound for the remaining r
//! marks — the sum of the r smallest differences not used yet — cannot beat the incumbent.
//! The incumbent starts at the greedy (Mian–Chowla) ruler's length, so the first rulers are
//! found at once; improvements are offered as −length (treesplit maximises). Each piece is
//! a depth-first stack of levels, each with its range of candidate positions; a split hands
//! over the upper half of the range of the shallowest level that has two or more left.
//! A work unit is one candidate position tried.

use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::{Context, Outcome, Task};

/// The most marks supported (differences must stay below 256).
pub const MAX_N: usize = 16;

type Bits = [u64; 4];

fn has(b: &Bits, i: u32) -> bool {
    b[(i / 64) as usize] >> (i % 64) & 1 == 1
}

fn set(b: &mut Bits, i: u32) {
    b[(i / 64) as usize] |= 1 << (i % 64);
}

/// Sum of the `r` smallest positive differences not in `used`.
fn smallest_unused(used: &Bits, r: usize) -> u32 {
    let (mut sum, mut left, mut d) = (0, r, 1);
    while left > 0 && d < 256 {
        if !has(used, d) {
            sum += d;
            left -= 1;
        }
        d += 1;
    }
    sum + if left > 0 { 1000 } else { 0 }
}

/// The greedy ruler: each mark at the smallest position keeping the differences distinct.
pub fn greedy_ruler(n: usize) -> Vec<u32> {
    let mut marks = vec![0u32];
    let mut used = [0u64; 4];
    let mut c = 1;
    while marks.len() < n {
        if c >= 256 {
            break;
        }
        if marks.iter().all(|&m| !has(&used, c - m)) {
            for &m in &marks {
                set(&mut used, c - m);
            }
            marks.push(c);
        }
        c += 1;
    }
    marks
}

/// True when all pairwise differences of `marks` are distinct.
pub fn is_golomb(marks: &[u32]) -> bool {
    let mut seen = std::collections::HashSet::new();
    marks
        .iter()
        .enumerate()
        .all(|(i, &a)| marks[i + 1..].iter().all(|&b| seen.insert(b.abs_diff(a))))
}

/// The shortest ruler found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ruler {
    /// Its marks, from 0 (empty: none found).
    pub marks: Vec<u32>,
}

impl crate::objective::Objective for Ruler {
    fn objective(&self) -> Option<u64> {
        (is_golomb(&self.marks) && !self.marks.is_empty())
            .then(|| u64::from(*self.marks.last().expect("a nonempty ruler")))
    }
}

impl Ruler {
    /// Its length (the last mark).
    pub fn length(&self) -> Option<u32> {
        self.marks.last().copied()
    }
}

impl Outcome for Ruler {
    fn merge(&mut self, other: Self) {
        let key = |r: &Ruler| (r.length().map_or(u32::MAX, |l| l), r.marks.clone());
        if !other.marks.is_empty() && (self.marks.is_empty() || key(&other) < key(self)) {
            *self = other;
        }
    }
}

impl fmt::Display for Ruler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.length() {
            Some(l) => write!(
                f,
                "length {l}: {}",
                self.marks
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            None => f.write_str("no ruler"),
        }
    }
}

/// One level: placing mark `k` somewhere in `next..=limit`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Level {
    next: u32,
    limit: u32,
    /// Differences used by marks 0..k.
    used: Bits,
}

/// A piece of the search for an optimal ruler with `n` marks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Golomb {
    n: usize,
    /// Marks placed (mark j at index j); the levels place marks `base..`.
    marks: Vec<u32>,
    base: usize,
    levels: Vec<Level>,
    /// The greedy ruler's length: no mark beyond it.
    cap: u32,
}

impl Golomb {
    /// The whole search for n marks (2 ≤ n ≤ 16).
    pub fn new(n: usize) -> Result<Self, String> {
        if !(2..=MAX_N).contains(&n) {
            return Err(format!("Golomb rulers need 2 ≤ n ≤ {MAX_N} marks, got {n}"));
        }
        let cap = *greedy_ruler(n).last().expect("a greedy ruler");
        Ok(Golomb {
            n,
            marks: vec![0; n],
            base: 1,
            levels: vec![Level {
                next: 1,
                limit: cap,
                used: [0; 4],
            }],
            cap,
        })
    }

    /// The largest position worth trying for mark `k` given the incumbent length.
    fn max_pos(&self, k: usize, level: &Level, best: u32) -> u32 {
        let r = self.n - 1 - k; // marks still to place after mark k
        let lb = smallest_unused(&level.used, r);
        level.limit.min(best.saturating_sub(1).saturating_sub(lb))
    }
}

impl Task for Golomb {
    type Output = Ruler;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Ruler>) -> u64 {
        let mut units = 0;
        while units < budget {
            let Some(&level) = self.levels.last() else {
                break;
            };
            let k = self.base + self.levels.len() - 1;
            let best = if ctx.best() == i64::MIN {
                self.cap + 1
            } else {
                (-ctx.best()) as u32
            };
            let c = level.next;
            if c > self.max_pos(k, &level, best) {
                self.levels.pop();
                continue;
            }
            self.levels.last_mut().unwrap().next = c + 1;
            units += 1;
            if self.marks[..k].iter().any(|&m| has(&level.used, c - m)) {
                continue;
            }
            self.marks[k] = c;
            if k == self.n - 1 {
                if ctx.offer(-(c as i64)) {
                    ctx.output().merge(Ruler {
                        marks: self.marks.clone(),
                    });
                }
                continue;
            }
            let mut used = level.used;
            for &m in &self.marks[..k] {
                set(&mut used, c - m);
            }
            self.levels.push(Level {
                next: c + 1,
                limit: self.cap,
                used,
            });
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        let last = self.levels.len().checked_sub(1)?;
        let (i, level) = self
            .levels
            .iter_mut()
            .enumerate()
            .find(|(_, l)| l.next <= l.limit)?;
        let left = level.limit - level.next + 1;
        let from = if left >= 2 {
            level.next + left / 2
        } else if i < last {
            level.next
        } else {
            return None;
        };
        let given = Level {
            next: from,
            limit: level.limit,
            used: level.used,
        };
        level.limit = from - 1;
        let k = self.base + i;
        let mut marks = vec![0; self.n];
        marks[..k].copy_from_slice(&self.marks[..k]);
        Some(Golomb {
            n: self.n,
            marks,
            base: k,
            levels: vec![given],
            cap: self.cap,
        })
    }

    fn is_empty(&self) -> bool {
        self.levels.iter().all(|l| l.next > l.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_rulers_are_golomb() {
        for n in 2..=MAX_N {
            let r = greedy_ruler(n);
            assert_eq!(r.len(), n);
            assert!(is_golomb(&r) && *r.last().unwrap() < 256, "{r:?}");
        }
        assert!(!is_golomb(&[0, 1, 2]));
    }

    #[test]
    fn small_rulers_are_optimal() {
        for (n, len) in [(2, 1), (3, 3), (4, 6), (5, 11), (6, 17), (7, 25)] {
            let r = treesplit::run_sequential(Golomb::new(n).unwrap()).output;
            assert_eq!(r.length(), Some(len), "n={n}: {r}");
            assert!(is_golomb(&r.marks));
        }
    }
}

pub mod app;
pub use app::{published_golomb, GolombSpec, GOLOMB_LENGTHS};
pub mod skeleton;
