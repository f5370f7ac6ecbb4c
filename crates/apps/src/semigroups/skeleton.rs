//! Numerical semigroups by genus as a skeleton enumeration ([`treesplit::search`]): the space
//! is the largest genus, a node is a semigroup, and its children come lazily, one per minimal
//! generator above its Frobenius number; each visit counts the node at its genus. The
//! application runs this enumeration; the hand-written task beside it measures what the
//! skeleton's generality costs (BENCHMARKS.md).

use super::{Counts, Semigroup};
use serde::{Deserialize, Serialize};
use treesplit::search::{Enumerate, Enumeration, Space};

/// The tree of semigroups up to genus `max_genus`.
#[derive(Debug, Serialize, Deserialize)]
pub struct SemigroupSpace {
    max_genus: u32,
}

/// The candidate generators of a node still to try: `next..end`.
#[derive(Debug, Clone, Copy)]
pub struct Generators {
    next: u32,
    end: u32,
}

impl Space for SemigroupSpace {
    type Node = Semigroup;
    type Children = Generators;

    fn root(&self) -> Semigroup {
        Semigroup::naturals(3 * self.max_genus as usize + 2)
    }

    fn children(&self, node: &Semigroup) -> Generators {
        if node.genus >= self.max_genus {
            return Generators { next: 0, end: 0 };
        }
        let (next, end) = node.candidates();
        Generators { next, end }
    }

    fn next_child(&self, node: &Semigroup, g: &mut Generators) -> Option<Semigroup> {
        self.next_child_reusing(node, g, &mut None)
    }

    /// The walk hands over the semigroups it is done with: a child's decomposition numbers
    /// are written into their array, as the hand-written task reuses its popped levels.
    const REUSE: bool = true;

    #[inline]
    fn next_child_reusing(
        &self,
        node: &Semigroup,
        g: &mut Generators,
        spare: &mut Option<Semigroup>,
    ) -> Option<Semigroup> {
        let x = (g.next..g.end).find(|&x| node.dec[x as usize] == 1)?;
        g.next = x + 1;
        let mut child = spare.take().unwrap_or(Semigroup {
            conductor: 0,
            multiplicity: 0,
            genus: 0,
            dec: Vec::new(),
        });
        node.remove_into(x, &mut child);
        Some(child)
    }
}

impl Enumerate for SemigroupSpace {
    type Output = Counts;

    fn visit(&self, node: &Semigroup, counts: &mut Counts) {
        let counts = &mut counts.counts;
        if counts.len() <= self.max_genus as usize {
            counts.resize(self.max_genus as usize + 1, 0);
        }
        counts[node.genus as usize] += 1;
    }
}

impl SemigroupSpace {
    /// The tree of the semigroups of genus 0..=`max_genus` (at most [`super::MAX_GENUS`]).
    pub fn new(max_genus: u32) -> Result<Self, String> {
        if max_genus > super::MAX_GENUS {
            return Err(format!(
                "semigroups: the genus must be at most {}, got {max_genus}",
                super::MAX_GENUS
            ));
        }
        Ok(SemigroupSpace { max_genus })
    }
}

/// The count of numerical semigroups of genus 0..=`max_genus` (at most
/// [`super::MAX_GENUS`]), as a task.
pub fn count(max_genus: u32) -> Result<Enumeration<SemigroupSpace>, String> {
    SemigroupSpace::new(max_genus).map(Enumeration::new)
}
