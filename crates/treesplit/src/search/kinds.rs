//! The three kinds of search as tasks over the shared walk, and their outcomes: what a visit
//! does to a node (fold it, test it as a goal, bound and offer it) is all that differs.

use super::walk::{Step, Walk, Wire};
use super::{Decide, Enumerate, Optimise};
use crate::task::{Context, Goal, Outcome, Task};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

/// A node and its path from the root: the child indices (0 for the first child a generator
/// produced) from the root down to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness<N> {
    /// The node.
    pub node: N,
    /// Its path from the root.
    pub path: Vec<u32>,
}

/// The outcome of a [`Decision`]: a goal node, if one was found. Where several PEs found one
/// before the run stopped, the one earliest in depth-first order (smallest path) is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found<N>(pub Option<Witness<N>>);

impl<N> Default for Found<N> {
    fn default() -> Self {
        Found(None)
    }
}

impl<N> Found<N> {
    /// The goal node found, if any.
    pub fn node(&self) -> Option<&N> {
        self.0.as_ref().map(|w| &w.node)
    }
}

impl<N> Outcome for Found<N>
where
    N: Clone + fmt::Debug + Send + Serialize + DeserializeOwned + 'static,
{
    fn merge(&mut self, other: Self) {
        if let Some(theirs) = other.0 {
            if self.0.as_ref().is_none_or(|mine| theirs.path < mine.path) {
                self.0 = Some(theirs);
            }
        }
    }
}

/// The outcome of an [`Optimisation`]: the best objective found and a node that reaches it.
/// Between nodes of equal objective the one earliest in depth-first order (smallest path) is
/// kept; which of them a parallel run finds depends on the run.
pub struct Best<S: Optimise> {
    /// The best objective and its witness (`None`: no solution).
    pub found: Option<(i64, Witness<S::Node>)>,
    goal: PhantomData<fn() -> S>,
}

impl<S: Optimise> Best<S> {
    /// The best objective, if a solution was found.
    pub fn value(&self) -> Option<i64> {
        self.found.as_ref().map(|(v, _)| *v)
    }

    /// A node that reaches the best objective.
    pub fn witness(&self) -> Option<&Witness<S::Node>> {
        self.found.as_ref().map(|(_, w)| w)
    }

    /// True when `(value, path)` is better than what is held.
    fn beaten_by(&self, value: i64, path: &[u32]) -> bool {
        match &self.found {
            None => true,
            Some((held, w)) => {
                let (a, b) = (S::GOAL.key(value), S::GOAL.key(*held));
                a > b || (a == b && path < w.path.as_slice())
            }
        }
    }
}

impl<S: Optimise> Default for Best<S> {
    fn default() -> Self {
        Best {
            found: None,
            goal: PhantomData,
        }
    }
}

impl<S: Optimise> Clone for Best<S> {
    fn clone(&self) -> Self {
        Best {
            found: self.found.clone(),
            goal: PhantomData,
        }
    }
}

impl<S: Optimise> fmt::Debug for Best<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Best").field("found", &self.found).finish()
    }
}

impl<S: Optimise> Serialize for Best<S> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        self.found.serialize(s)
    }
}

impl<'de, S: Optimise> Deserialize<'de> for Best<S> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Best {
            found: Deserialize::deserialize(d)?,
            goal: PhantomData,
        })
    }
}

impl<S: Optimise> Outcome for Best<S> {
    fn merge(&mut self, other: Self) {
        if let Some((value, witness)) = other.found {
            if self.beaten_by(value, &witness.path) {
                self.found = Some((value, witness));
            }
        }
    }
}

/// What an [`Optimisation`] reports: an [`Outcome`] made from a node that improved the
/// incumbent, whose `merge` keeps the better of two. [`Best`] (the value and the witness) is
/// the default; an application reports its own solution (a packing, a clique in its own
/// numbering) by implementing this, without wrapping the task.
pub trait Solution<S: Optimise>: Outcome {
    /// The report of `witness`, a node of objective `value` that improved the incumbent.
    fn found(space: &S, value: i64, witness: Witness<S::Node>) -> Self;
}

impl<S: Optimise> Solution<S> for Best<S> {
    fn found(_: &S, value: i64, witness: Witness<S::Node>) -> Self {
        Best {
            found: Some((value, witness)),
            goal: PhantomData,
        }
    }
}

/// The serde form the three tasks share (the walk's wire form), and their constructors.
macro_rules! search_task {
    ($name:ident<S: $bound:ident $(, $r:ident: $rbound:ident)?>) => {
        impl<S: $bound $(, $r: $rbound<S>)?> Clone for $name<S $(, $r)?> {
            fn clone(&self) -> Self {
                $name(self.0.clone(), PhantomData)
            }
        }

        impl<S: $bound $(, $r: $rbound<S>)?> Serialize for $name<S $(, $r)?> {
            fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
                Wire::from(&self.0).serialize(s)
            }
        }

        impl<'de, S: $bound $(, $r: $rbound<S>)?> Deserialize<'de> for $name<S $(, $r)?> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let wire = Wire::<S>::deserialize(d)?;
                Walk::try_from(wire)
                    .map(|w| $name(w, PhantomData))
                    .map_err(serde::de::Error::custom)
            }
        }

        impl<S: $bound $(, $r: $rbound<S>)?> $name<S $(, $r)?> {
            /// The space searched.
            pub fn space(&self) -> &S {
                self.0.space()
            }

            fn split_walk(&mut self) -> Option<Self> {
                self.0.split().map(|w| $name(w, PhantomData))
            }
        }
    };
}

/// An enumeration over a [`Space`](super::Space) (a [`Task`]): every node visited once, folded into the
/// output by [`Enumerate::visit`].
pub struct Enumeration<S: Enumerate>(Walk<S>, PhantomData<fn() -> S>);

search_task!(Enumeration<S: Enumerate>);

impl<S: Enumerate> Enumeration<S> {
    /// The whole search of `space`.
    pub fn new(space: S) -> Self {
        Enumeration(Walk::new(space), PhantomData)
    }
}

impl<S: Enumerate> Task for Enumeration<S> {
    type Output = S::Output;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, S::Output>) -> u64 {
        self.0.work(
            budget,
            ctx,
            |space, node, _, ctx| {
                space.visit(node, ctx.output());
                Step::Expand
            },
            |space, node, _| space.children(node),
        )
    }

    fn split(&mut self) -> Option<Self> {
        self.split_walk()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn estimate(&self) -> Option<u64> {
        self.0.estimate()
    }
}

/// A decision search over a [`Space`](super::Space) (a [`Task`]): it stops every PE at the first goal
/// node ([`Decide::is_goal`]), skipping pruned subtrees ([`Decide::prune`]).
pub struct Decision<S: Decide>(Walk<S>, PhantomData<fn() -> S>);

search_task!(Decision<S: Decide>);

impl<S: Decide> Decision<S> {
    /// The whole search of `space`.
    pub fn new(space: S) -> Self {
        Decision(Walk::new(space), PhantomData)
    }
}

impl<S: Decide> Task for Decision<S> {
    type Output = Found<S::Node>;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Found<S::Node>>) -> u64 {
        self.0.work(
            budget,
            ctx,
            |space, node, path, ctx| {
                if space.prune(node) {
                    return Step::Prune;
                }
                if !space.is_goal(node) {
                    return Step::Expand;
                }
                ctx.output().merge(Found(Some(Witness {
                    node: node.clone(),
                    path: path.to_vec(),
                })));
                ctx.stop();
                Step::Stop
            },
            |space, node, _| space.children(node),
        )
    }

    fn split(&mut self) -> Option<Self> {
        self.split_walk()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn estimate(&self) -> Option<u64> {
        self.0.estimate()
    }
}

/// A branch-and-bound search over a [`Space`](super::Space) (a [`Task`]): a node whose
/// [`Optimise::bound`] cannot beat the incumbent is pruned; a node whose
/// [`Optimise::objective`] improves the incumbent is offered and reported as an `R`
/// ([`Solution`]; by default [`Best`], the value and the witness).
pub struct Optimisation<S: Optimise, R: Solution<S> = Best<S>>(Walk<S>, PhantomData<fn() -> R>);

search_task!(Optimisation<S: Optimise, R: Solution>);

impl<S: Optimise> Optimisation<S> {
    /// The whole search of `space`, reporting the [`Best`] value and its witness.
    pub fn new(space: S) -> Self {
        Optimisation(Walk::new(space), PhantomData)
    }
}

impl<S: Optimise, R: Solution<S>> Optimisation<S, R> {
    /// The whole search of `space`, reporting its solution as an `R`
    /// (`Optimisation::<S, R>::reporting(space)`).
    pub fn reporting(space: S) -> Self {
        Optimisation(Walk::new(space), PhantomData)
    }
}

/// True when `a` is strictly better than `b` under `goal`.
fn better(goal: Goal, a: i64, b: i64) -> bool {
    goal.key(a) > goal.key(b)
}

impl<S: Optimise, R: Solution<S>> Task for Optimisation<S, R> {
    type Output = R;
    const GOAL: Goal = S::GOAL;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, R>) -> u64 {
        // The best node this slice found, reported when the slice ends: a node that improves
        // the incumbent is often beaten by its own child at once (every item fits a
        // knapsack), so reporting each would cost O(depth) a node.
        let mut held: Option<(i64, S::Node)> = None;
        // The incumbent the last visit saw (or the value it set), for the generator of the
        // node it expands: the incumbent can only have improved since, so a generator started
        // with it leaves out only children that the current one would prune too.
        let seen = Cell::new(None);
        let units = self.0.work(
            budget,
            ctx,
            |space, node, mut path, ctx| {
                let best = ctx.best();
                let none_yet = best == S::GOAL.value(i64::MIN);
                seen.set((!none_yet).then_some(best));
                if let Some(bound) = space.bound(node) {
                    if !none_yet && !better(S::GOAL, bound, best) {
                        return if S::PRUNE_LEVEL {
                            Step::PruneLevel
                        } else {
                            Step::Prune
                        };
                    }
                }
                if let Some(value) = space.objective(node) {
                    if (none_yet || better(S::GOAL, value, best)) && ctx.offer(value) {
                        seen.set(Some(value));
                        path.write();
                        held = Some((value, node.clone()));
                    }
                }
                Step::Expand
            },
            |space, node, _| space.children_beating(node, seen.get()),
        );
        if let Some((value, node)) = held {
            let witness = Witness {
                node,
                path: self.0.written().to_vec(),
            };
            let found = R::found(self.0.space(), value, witness);
            ctx.output().merge(found);
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        self.split_walk()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn estimate(&self) -> Option<u64> {
        self.0.estimate()
    }
}
