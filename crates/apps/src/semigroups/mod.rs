//! Numerical semigroups counted by genus, by the tree of Bras-Amorós and Fromentin–Hivert:
//! the root is ℕ (genus 0), and the children of a semigroup S are S \ {x} for each minimal
//! generator x of S larger than its Frobenius number; every numerical semigroup of genus g
//! appears exactly once, at depth g.
//!
//! A semigroup is held as Fromentin–Hivert's decomposition numbers: `dec[y]` is the number
//! of pairs {a, b} of elements with a + b = y (a ≤ b, 0 included), so y ∈ S ⇔ dec[y] > 0 and
//! y is a minimal generator ⇔ dec[y] = 1 (only 0 + y). The minimal generators above the
//! Frobenius number lie in [c, c + m) (conductor c, multiplicity m), and removing x lowers
//! dec[y] by one for each y with y − x ∈ S. For genus ≤ G only y < 3G + 2 matter (c ≤ 2G,
//! m ≤ G + 1). A piece is a depth-first stack of levels, each a semigroup and the range of
//! candidate generators still to try; a split hands over the upper half of the range of the
//! shallowest level with two or more left. A work unit is one semigroup visited.
//!
//! The application runs the same tree as a skeleton enumeration ([`skeleton`]); this
//! hand-written task is kept beside it to measure what the skeleton's generality costs.

pub mod app;
pub mod skeleton;

pub use app::{published_semigroups, SemigroupsSpec, A007323};
pub use skeleton::{count, SemigroupSpace};

use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::{Context, Outcome, Task};

/// The largest genus accepted (decomposition numbers stay below 256).
pub const MAX_GENUS: u32 = 80;

/// The number of semigroups of each genus 0..=G found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Entry g: the semigroups of genus g.
    pub counts: Vec<u64>,
}

/// Counts add genus by genus.
impl Outcome for Counts {
    fn merge(&mut self, other: Self) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }
}

/// Counts are not a search.
impl crate::objective::Objective for Counts {
    fn objective(&self) -> Option<u64> {
        None
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total: u64 = self.counts.iter().sum();
        write!(
            f,
            "{total} semigroups of genus ≤ {}; by genus:",
            self.counts.len().saturating_sub(1)
        )?;
        for c in &self.counts {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

/// A numerical semigroup by its decomposition numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Semigroup {
    conductor: u32,
    multiplicity: u32,
    genus: u32,
    dec: Vec<u8>,
}

impl Semigroup {
    /// ℕ, with decomposition numbers for 0..len.
    fn naturals(len: usize) -> Self {
        Semigroup {
            conductor: 1,
            multiplicity: 1,
            genus: 0,
            dec: (0..len).map(|y| (1 + y / 2) as u8).collect(),
        }
    }

    /// The candidate generators above the Frobenius number: c..c + m, within the array.
    fn candidates(&self) -> (u32, u32) {
        let end = (self.conductor + self.multiplicity).min(self.dec.len() as u32);
        (self.conductor, end)
    }

    /// S \ {x}, x a minimal generator above the Frobenius number, written into `child`.
    fn remove_into(&self, x: u32, child: &mut Semigroup) {
        child.conductor = x + 1;
        child.genus = self.genus + 1;
        child.multiplicity = if x == self.multiplicity {
            x + 1
        } else {
            self.multiplicity
        };
        child.dec.clear();
        child.dec.extend_from_slice(&self.dec);
        let x = x as usize;
        for y in x..self.dec.len() {
            if self.dec[y - x] > 0 {
                child.dec[y] -= 1;
            }
        }
    }
}

/// One level: a semigroup and its candidate generators `next..end` still to try.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Level {
    semigroup: Semigroup,
    next: u32,
    end: u32,
}

impl Level {
    /// The minimal generators left to remove.
    fn generators(&self) -> impl Iterator<Item = u32> + '_ {
        (self.next..self.end).filter(|&x| self.semigroup.dec[x as usize] == 1)
    }
}

/// A piece of the count of numerical semigroups of genus ≤ `max_genus`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Semigroups {
    max_genus: u32,
    /// The root, not yet counted.
    root_pending: bool,
    levels: Vec<Level>,
    /// Semigroups of popped levels, reused for children.
    #[serde(skip)]
    spare: Vec<Semigroup>,
}

impl Semigroups {
    /// The count for genus 0..=`max_genus` (at most [`MAX_GENUS`]).
    pub fn new(max_genus: u32) -> Result<Self, String> {
        if max_genus > MAX_GENUS {
            return Err(format!(
                "semigroups: the genus must be at most {MAX_GENUS}, got {max_genus}"
            ));
        }
        let root = Semigroup::naturals(3 * max_genus as usize + 2);
        let (next, end) = root.candidates();
        Ok(Semigroups {
            max_genus,
            root_pending: true,
            levels: vec![Level {
                semigroup: root,
                next,
                end,
            }],
            spare: Vec::new(),
        })
    }

    fn count(&self, genus: u32, ctx: &mut Context<'_, Counts>) {
        let counts = &mut ctx.output().counts;
        if counts.len() <= self.max_genus as usize {
            counts.resize(self.max_genus as usize + 1, 0);
        }
        counts[genus as usize] += 1;
    }
}

impl Task for Semigroups {
    type Output = Counts;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Counts>) -> u64 {
        let mut units = 0;
        if self.root_pending && budget > 0 {
            self.root_pending = false;
            self.count(0, ctx);
            units += 1;
            if self.max_genus == 0 {
                self.levels.clear();
            }
        }
        while units < budget {
            let Some(level) = self.levels.last_mut() else {
                break;
            };
            // The next minimal generator of the level's range.
            let dec = &level.semigroup.dec;
            let x = (level.next..level.end).find(|&x| dec[x as usize] == 1);
            let Some(x) = x else {
                let done = self.levels.pop().expect("a level");
                self.spare.push(done.semigroup);
                continue;
            };
            level.next = x + 1;
            units += 1;
            let mut child = self.spare.pop().unwrap_or(Semigroup {
                conductor: 0,
                multiplicity: 0,
                genus: 0,
                dec: Vec::new(),
            });
            level.semigroup.remove_into(x, &mut child);
            let genus = child.genus;
            self.count(genus, ctx);
            if genus < self.max_genus {
                let (next, end) = child.candidates();
                self.levels.push(Level {
                    semigroup: child,
                    next,
                    end,
                });
            } else {
                self.spare.push(child);
            }
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        if self.root_pending {
            return None;
        }
        let last = self.levels.len().checked_sub(1)?;
        for (i, level) in self.levels.iter_mut().enumerate() {
            let generators: Vec<u32> = level.generators().collect();
            if generators.len() >= 2 || (generators.len() == 1 && i < last) {
                // Hand over the upper half of the generators left.
                let from = generators[generators.len() / 2];
                let given = Level {
                    semigroup: level.semigroup.clone(),
                    next: from,
                    end: level.end,
                };
                level.end = from;
                return Some(Semigroups {
                    max_genus: self.max_genus,
                    root_pending: false,
                    levels: vec![given],
                    spare: Vec::new(),
                });
            }
        }
        None
    }

    fn is_empty(&self) -> bool {
        !self.root_pending && self.levels.iter().all(|l| l.generators().next().is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_genus_match_a007323_up_to_genus_15() {
        for g in [0, 1, 2, 15] {
            let r = treesplit::run_sequential(Semigroups::new(g).unwrap());
            assert_eq!(r.output.counts, A007323[..=g as usize], "genus ≤ {g}");
            assert_eq!(r.work_units, A007323[..=g as usize].iter().sum::<u64>());
        }
        assert!(Semigroups::new(MAX_GENUS + 1).is_err());
    }

    #[test]
    fn the_skeleton_enumeration_counts_the_same() {
        let r = treesplit::run_sequential(count(15).unwrap());
        assert_eq!(r.output.counts, A007323[..=15]);
        assert_eq!(r.work_units, A007323[..=15].iter().sum::<u64>());
        assert_eq!(
            treesplit::run_sequential(count(0).unwrap()).output.counts,
            [1]
        );
        assert!(count(MAX_GENUS + 1).is_err());
    }

    #[test]
    fn split_pieces_count_the_same() {
        let mut root = Semigroups::new(12).unwrap();
        let mut found = Counts::default();
        let incumbent = treesplit::task::SharedIncumbent::new();
        let mut pieces = vec![];
        {
            let mut cx = Context::new(&mut found, &incumbent, 0);
            for _ in 0..6 {
                root.work(7, &mut cx);
                pieces.extend(root.split());
            }
        }
        for p in pieces {
            let bytes = postcard::to_allocvec(&p).unwrap();
            let back: Semigroups = postcard::from_bytes(&bytes).unwrap();
            found.merge(treesplit::run_sequential(back).output);
        }
        found.merge(treesplit::run_sequential(root).output);
        assert_eq!(found.counts, A007323[..=12]);
    }
}
