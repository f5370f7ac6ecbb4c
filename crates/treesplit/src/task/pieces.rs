//! A task made of several pieces of one computation: how a stopped run is resumed
//! (`crate::checkpoint`). The unfinished work of a run under `Config::keep_remaining` is a set
//! of pieces scattered over the PEs; [`Pieces`] makes them one root again, so that any
//! balancer on any machine and any number of PEs can carry on with it.
//!
//! Work goes to the last piece; a split hands over the first half of the pieces while there
//! are two or more, and splits the one piece left otherwise. Estimates add up (unknown when
//! any piece's is), and `split_at` cuts between pieces or inside the piece the cut falls in,
//! so the static balancers get sizes too.

use super::{Context, Task};
use serde::{Deserialize, Serialize};

/// Several pieces of one computation as one task.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Pieces<T: Task> {
    pieces: Vec<T>,
}

impl<T: Task> Pieces<T> {
    /// The pieces as one task (empty pieces are dropped).
    pub fn new(pieces: Vec<T>) -> Self {
        Pieces {
            pieces: pieces.into_iter().filter(|p| !p.is_empty()).collect(),
        }
    }

    /// The pieces left.
    pub fn into_inner(self) -> Vec<T> {
        self.pieces
    }

    /// Number of pieces left.
    pub fn count(&self) -> usize {
        self.pieces.len()
    }
}

impl<T: Task> Task for Pieces<T> {
    type Output = T::Output;
    const GOAL: crate::task::Goal = T::GOAL;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Self::Output>) -> u64 {
        let mut units = 0;
        while units < budget {
            let Some(last) = self.pieces.last_mut() else {
                break;
            };
            let done = last.work(budget - units, ctx);
            units += done;
            if last.is_empty() {
                self.pieces.pop();
            } else if done == 0 && !ctx.stop_requested() {
                // A piece that made no progress (waiting for a better incumbent, say): end
                // the slice, so that the PE's progress rule sees the stall instead of this
                // loop spinning on it.
                break;
            }
            if ctx.stop_requested() {
                self.pieces.clear();
                break;
            }
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        match self.pieces.len() {
            0 => None,
            1 => self.pieces[0].split().map(|p| Pieces::new(vec![p])),
            n => {
                let rest = self.pieces.split_off(n / 2);
                let given = std::mem::replace(&mut self.pieces, rest);
                Some(Pieces { pieces: given })
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.pieces.iter().all(Task::is_empty)
    }

    fn estimate(&self) -> Option<u64> {
        self.pieces
            .iter()
            .try_fold(0u64, |sum, p| Some(sum.saturating_add(p.estimate()?)))
    }

    fn split_at(&mut self, units: u64) -> Option<Self> {
        let mut before = 0u64;
        for i in 0..self.pieces.len() {
            let size = self.pieces[i].estimate()?;
            if before.saturating_add(size) > units {
                let mut rest = self.pieces.split_off(i + 1);
                let cut = units - before;
                if cut == 0 {
                    rest.insert(0, self.pieces.pop()?);
                } else if let Some(tail) = self.pieces[i].split_at(cut) {
                    rest.insert(0, tail);
                }
                return (!rest.is_empty()).then(|| Pieces::new(rest));
            }
            before = before.saturating_add(size);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::testing::sum;

    /// Splitting and cutting the pieces loses and duplicates nothing.
    #[test]
    fn pieces_conserve_work() {
        let parts = vec![sum(0, 10), sum(10, 11), sum(11, 100)];
        let mut all = Pieces::new(parts);
        assert_eq!(all.estimate(), Some(100));
        let mut cut = all.split_at(40).unwrap();
        assert_eq!((all.estimate(), cut.estimate()), (Some(40), Some(60)));
        let given = cut.split().unwrap();
        assert_eq!(cut.estimate().unwrap() + given.estimate().unwrap(), 60);
        let total: u64 = [all, cut, given]
            .into_iter()
            .map(|t| crate::run_sequential(t).output)
            .sum();
        assert_eq!(total, (0..100).sum::<u64>());
    }

    /// A piece that makes no progress in a slice ends the slice (it does not spin): the PE's
    /// progress rule then decides.
    #[test]
    fn a_stalled_piece_ends_the_slice() {
        #[derive(Clone, Serialize, Deserialize)]
        struct Stalls {
            left: u64,
            stalls: u32,
        }
        impl Task for Stalls {
            type Output = u64;
            fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
                if self.stalls > 0 {
                    self.stalls -= 1;
                    return 0;
                }
                let done = self.left.min(budget);
                self.left -= done;
                *ctx.output() += done;
                done
            }
            fn split(&mut self) -> Option<Self> {
                None
            }
            fn is_empty(&self) -> bool {
                self.left == 0
            }
        }
        let mut p = Pieces::new(vec![Stalls { left: 5, stalls: 2 }]);
        let (mut out, incumbent) = (0u64, crate::task::SharedIncumbent::new());
        let mut ctx = Context::new(&mut out, &incumbent, 0);
        assert_eq!(p.work(10, &mut ctx), 0);
        assert_eq!(p.work(10, &mut ctx), 0);
        assert_eq!(p.work(10, &mut ctx), 5);
        assert!(p.is_empty());
    }
}
