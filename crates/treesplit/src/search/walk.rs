//! The depth-first walk every search kind shares: a stack of frames with lazy generators,
//! its `work` loop around a kind's visit, its split (the unexplored siblings nearest the
//! root), its estimate, and its wire form (the instance by digest, the path from the root,
//! the nodes of the frames and their generators' positions).

use super::Space;
use crate::task::shared::{Content, Sent, Shared};
use crate::task::Context;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The instance of a search, as [`Shared`] holds it.
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
pub(super) struct Instance<S>(pub(super) S);

impl<S: Space> Content for Instance<S> {
    fn digest(&self) -> u64 {
        self.0.digest()
    }
}

/// What a kind's visit decides about a node.
pub(super) enum Step {
    /// Go on to its children.
    Expand,
    /// Skip its subtree.
    Prune,
    /// Skip its subtree and those of its siblings after it (children come best first).
    PruneLevel,
    /// End the search: the task drops all its work.
    Stop,
}

/// One node on the stack.
struct Frame<S: Space> {
    node: S::Node,
    /// The generator of the node's children, made when first needed.
    children: Option<S::Children>,
    /// Children produced so far.
    produced: u32,
    /// Which child of its parent the node is.
    index: u32,
    /// The node was visited (it counted its unit).
    visited: bool,
    /// No more children will come from this frame (given away or exhausted).
    done: bool,
    /// The estimate left in this frame: its own unit while unvisited and its children not yet
    /// produced.
    left: u64,
}

impl<S: Space> Clone for Frame<S> {
    fn clone(&self) -> Self {
        Frame {
            node: self.node.clone(),
            children: self.children.clone(),
            ..*self
        }
    }
}

impl<S: Space> Frame<S> {
    fn new(node: S::Node, index: u32, left: u64) -> Self {
        Frame {
            node,
            children: None,
            produced: 0,
            index,
            visited: false,
            done: false,
            left,
        }
    }
}

/// A node's path from the root, as the stack holds it.
pub(super) struct PathTo<'a, S: Space> {
    base: &'a [u32],
    frames: &'a [Frame<S>],
    /// The node's index below the top frame (`None`: the node is the top frame's).
    last: Option<u32>,
}

impl<S: Space> PathTo<'_, S> {
    /// The child indices from the root to the node.
    pub(super) fn to_vec(&self) -> Vec<u32> {
        let mut path = self.base.to_vec();
        path.extend(self.frames.iter().skip(1).map(|f| f.index));
        if !self.frames.is_empty() {
            path.extend(self.last);
        }
        path
    }
}

/// A piece of a depth-first search over `S` (the state shared by the three kinds).
///
/// Invariant between calls: the top frame, if any, is unvisited, so a non-empty walk always
/// has a node to visit and `is_empty` is exact.
pub(super) struct Walk<S: Space> {
    space: Shared<Instance<S>>,
    /// Whether this is the root piece (it sends the instance whole).
    root: bool,
    /// Whether the space gives estimates.
    estimates: bool,
    /// The path from the root to the first frame's node.
    base: Vec<u32>,
    stack: Vec<Frame<S>>,
}

impl<S: Space> Clone for Walk<S> {
    fn clone(&self) -> Self {
        Walk {
            space: self.space.clone(),
            root: self.root,
            estimates: self.estimates,
            base: self.base.clone(),
            stack: self.stack.clone(),
        }
    }
}

impl<S: Space> Walk<S> {
    /// The whole search of `space`.
    pub(super) fn new(space: S) -> Self {
        let root = space.root();
        let estimate = space.estimate(&root);
        Walk {
            space: Shared::from_arc(Arc::new(Instance(space))),
            root: true,
            estimates: estimate.is_some(),
            base: Vec::new(),
            stack: vec![Frame::new(root, 0, estimate.unwrap_or(0))],
        }
    }

    /// The space searched.
    pub(super) fn space(&self) -> &S {
        &self.space.0
    }

    pub(super) fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    pub(super) fn estimate(&self) -> Option<u64> {
        self.estimates
            .then(|| self.stack.iter().map(|f| f.left).sum())
    }

    /// Visit up to `budget` nodes in depth-first order, each with `visit`.
    #[inline]
    pub(super) fn work<O>(
        &mut self,
        budget: u64,
        ctx: &mut Context<'_, O>,
        mut visit: impl FnMut(&S, &S::Node, PathTo<'_, S>, &mut Context<'_, O>) -> Step,
    ) -> u64 {
        let space: &S = &self.space.0;
        let estimates = self.estimates;
        let mut units = 0;
        // The node to visit next, off the stack: the node, its index among its parent's
        // children and its share of the estimate. Leaves never go on the stack.
        let mut next: Option<(S::Node, u32, u64)> = None;
        if self
            .stack
            .last()
            .is_some_and(|f| !f.visited && !f.done && f.children.is_none())
        {
            let f = self.stack.pop().expect("just seen");
            next = Some((f.node, f.index, f.left));
        }
        loop {
            let (node, index, left) = match next.take() {
                Some(next) => next,
                None => {
                    // The next child of the top frame.
                    let Some(top) = self.stack.last_mut() else {
                        break;
                    };
                    if !top.visited {
                        // A frame that a split expanded before it was visited.
                        if units == budget {
                            break;
                        }
                        units += 1;
                        let path = PathTo {
                            base: &self.base,
                            frames: &self.stack,
                            last: None,
                        };
                        let top = self.stack.last().expect("the top frame");
                        match visit(space, &top.node, path, ctx) {
                            Step::Expand => {
                                let top = self.stack.last_mut().expect("the top frame");
                                top.visited = true;
                                top.left = top.left.saturating_sub(1);
                            }
                            Step::Prune => {
                                self.stack.pop();
                            }
                            Step::PruneLevel => {
                                self.stack.pop();
                                if let Some(parent) = self.stack.last_mut() {
                                    parent.done = true;
                                }
                            }
                            Step::Stop => {
                                self.stack.clear();
                                break;
                            }
                        }
                        continue;
                    }
                    if top.done {
                        self.stack.pop();
                        continue;
                    }
                    let children = top
                        .children
                        .get_or_insert_with(|| space.children(&top.node));
                    let Some(child) = space.next_child(&top.node, children) else {
                        self.stack.pop();
                        continue;
                    };
                    let index = top.produced;
                    top.produced += 1;
                    let share = if estimates {
                        let share = space.estimate(&child).unwrap_or(0).min(top.left);
                        top.left -= share;
                        share
                    } else {
                        0
                    };
                    (child, index, share)
                }
            };
            if units == budget {
                self.stack.push(Frame::new(node, index, left));
                break;
            }
            units += 1;
            let path = PathTo {
                base: &self.base,
                frames: &self.stack,
                last: Some(index),
            };
            match visit(space, &node, path, ctx) {
                Step::Expand => {}
                Step::Prune => continue,
                Step::PruneLevel => {
                    if let Some(parent) = self.stack.last_mut() {
                        parent.done = true;
                    }
                    continue;
                }
                Step::Stop => {
                    self.stack.clear();
                    break;
                }
            }
            let mut children = space.children(&node);
            if let Some(first) = space.next_child(&node, &mut children) {
                let mut left = left.saturating_sub(1);
                let share = if estimates {
                    let share = space.estimate(&first).unwrap_or(0).min(left);
                    left -= share;
                    share
                } else {
                    0
                };
                self.stack.push(Frame {
                    node,
                    children: Some(children),
                    produced: 1,
                    index,
                    visited: true,
                    done: false,
                    left,
                });
                next = Some((first, 0, share));
            }
        }
        units
    }

    /// Give away the unexplored siblings nearest the root (module docs of `search`).
    pub(super) fn split(&mut self) -> Option<Self> {
        let shared = self.space.clone();
        let space: &S = &shared.0;
        let mut i = 0;
        while i < self.stack.len() {
            let top = i + 1 == self.stack.len();
            let frame = &mut self.stack[i];
            if frame.done {
                i += 1;
                continue;
            }
            let children = frame
                .children
                .get_or_insert_with(|| space.children(&frame.node));
            let Some(first) = space.next_child(&frame.node, children) else {
                frame.done = true;
                i += 1;
                continue;
            };
            let first = self.produce(i, first);
            if !top {
                return Some(self.give(i, first));
            }
            // The top frame keeps its next child and gives away those after it, if any.
            self.stack.push(first);
            let frame = &mut self.stack[i];
            let children = frame.children.as_mut().expect("made above");
            match space.next_child(&frame.node, children) {
                Some(second) => {
                    let second = self.produce(i, second);
                    return Some(self.give(i, second));
                }
                None => {
                    frame.done = true;
                    i += 1;
                }
            }
        }
        None
    }

    /// The frame of `child`, just produced by frame `i`, taking its share of the estimate.
    fn produce(&mut self, i: usize, child: S::Node) -> Frame<S> {
        let estimates = self.estimates;
        let share = if estimates {
            self.space.0.estimate(&child).unwrap_or(0)
        } else {
            0
        };
        let frame = &mut self.stack[i];
        let share = share.min(frame.left);
        frame.left -= share;
        let index = frame.produced;
        frame.produced += 1;
        Frame::new(child, index, share)
    }

    /// Give away frame `i`'s remaining children, `next` first: a piece of frame `i` (visited,
    /// with the generator) and `next` above it; frame `i` keeps none.
    fn give(&mut self, i: usize, next: Frame<S>) -> Self {
        let frame = &mut self.stack[i];
        let parent = Frame {
            node: frame.node.clone(),
            children: frame.children.clone(),
            produced: frame.produced,
            index: frame.index,
            visited: true,
            done: false,
            left: frame.left,
        };
        frame.done = true;
        frame.left = 0;
        let mut base = self.base.clone();
        base.extend(self.stack[1..=i].iter().map(|f| f.index));
        Walk {
            space: self.space.clone(),
            root: false,
            estimates: self.estimates,
            base,
            stack: vec![parent, next],
        }
    }
}

/// A frame on the wire: the generator travels as its position.
#[derive(Serialize, Deserialize)]
struct WireFrame<N> {
    node: N,
    produced: u32,
    index: u32,
    visited: bool,
    done: bool,
    left: u64,
}

/// A walk on the wire.
#[derive(Serialize, Deserialize)]
#[serde(bound(serialize = "S: Space", deserialize = "S: Space"))]
pub(super) struct Wire<S: Space> {
    instance: Sent<Instance<S>>,
    estimates: bool,
    base: Vec<u32>,
    frames: Vec<WireFrame<S::Node>>,
}

impl<S: Space> From<&Walk<S>> for Wire<S> {
    fn from(w: &Walk<S>) -> Self {
        Wire {
            instance: if w.root {
                w.space.whole()
            } else {
                w.space.by_digest()
            },
            estimates: w.estimates,
            base: w.base.clone(),
            frames: w
                .stack
                .iter()
                .map(|f| WireFrame {
                    node: f.node.clone(),
                    produced: f.produced,
                    index: f.index,
                    visited: f.visited,
                    done: f.done,
                    left: f.left,
                })
                .collect(),
        }
    }
}

impl<S: Space> TryFrom<Wire<S>> for Walk<S> {
    type Error = String;
    fn try_from(w: Wire<S>) -> Result<Self, String> {
        let root = matches!(w.instance, Sent::Whole(_));
        let space = w
            .instance
            .receive()
            .map_err(|e| format!("search piece: {e}"))?;
        if w.frames.last().is_some_and(|f| f.visited) {
            return Err("a malformed search piece: its top frame was visited".into());
        }
        let mut stack = Vec::with_capacity(w.frames.len());
        for f in w.frames {
            let children = if f.produced > 0 && !f.done {
                let mut children = space.0.children(&f.node);
                let skipped = space
                    .0
                    .skip_children(&f.node, &mut children, u64::from(f.produced));
                if skipped != u64::from(f.produced) {
                    return Err(format!(
                        "a malformed search piece: a node has {skipped} children, the piece produced {}",
                        f.produced
                    ));
                }
                Some(children)
            } else {
                None
            };
            stack.push(Frame {
                node: f.node,
                children,
                produced: f.produced,
                index: f.index,
                visited: f.visited,
                done: f.done,
                left: f.left,
            });
        }
        Ok(Walk {
            space,
            root,
            estimates: w.estimates,
            base: w.base,
            stack,
        })
    }
}
