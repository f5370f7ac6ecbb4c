//! The depth-first walk every search kind shares: a stack of frames with lazy generators,
//! its `work` loop around a kind's visit, its split (half of the unexplored siblings nearest
//! the root, interleaved), its estimate, and its wire form (the instance by digest, the path
//! from the root, the nodes of the frames and their generators' positions and strides).

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
    /// The generator's position: children it produced or skipped so far.
    pos: u64,
    /// The position of this frame's next child (`pos <= next`: the generator skips to it).
    next: u64,
    /// The distance between this frame's children: a split leaves each side every other one
    /// of the children left, so both strides double.
    stride: u64,
    /// Which child of its parent the node is.
    index: u32,
    /// The node was visited (it counted its unit).
    visited: bool,
    /// No more children will come from this frame (given away or exhausted).
    done: bool,
    /// The estimate left in this frame: its own unit while unvisited and its children not yet
    /// produced.
    left: u64,
    /// The frame as `work` pushed it: visited, its generator started, every child its own
    /// (stride 1), none skipped and not done. Its next child then comes by the generator
    /// alone, without the checks of a split frame, and `pos` is stale (it equals `next`).
    plain: bool,
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
            pos: 0,
            next: 0,
            stride: 1,
            index,
            visited: false,
            done: false,
            left,
            plain: false,
        }
    }

    /// Make `pos` exact again and take the slow path from here on (a split or a pruned level
    /// changes the frame).
    fn unplain(&mut self) {
        if self.plain {
            self.pos = self.next;
            self.plain = false;
        }
    }

    /// A node whose children no one has asked for yet: `work` visits it and starts its
    /// generator without keeping the frame.
    fn is_fresh(&self) -> bool {
        !self.visited && !self.done && self.next == 0 && self.stride == 1
    }

    /// The next child of this frame's share of its children, with its index among all of the
    /// node's children (`None`: none left).
    #[inline]
    fn next_child(&mut self, space: &S, spare: &mut Option<S::Node>) -> Option<(S::Node, u32)> {
        if self.plain {
            let children = self.children.as_mut()?;
            let index = u32::try_from(self.next).ok()?;
            let child = space.next_child_reusing(&self.node, children, spare)?;
            self.next += 1;
            return Some((child, index));
        }
        let children = self
            .children
            .get_or_insert_with(|| space.children(&self.node));
        if self.pos < self.next {
            let skip = self.next - self.pos;
            if space.skip_children(&self.node, children, skip) != skip {
                return None;
            }
            self.pos = self.next;
        }
        let index = u32::try_from(self.next).ok()?;
        let child = space.next_child_reusing(&self.node, children, spare)?;
        self.pos = self.next + 1;
        self.next = self.next.saturating_add(self.stride);
        Some((child, index))
    }
}

/// A node's path from the root, as the stack holds it.
pub(super) struct PathTo<'a, S: Space> {
    base: &'a [u32],
    frames: &'a [Frame<S>],
    /// The node's index below the top frame (`None`: the node is the top frame's).
    last: Option<u32>,
    /// The walk's last written path and its low-water mark ([`PathTo::write`]).
    written: &'a mut Vec<u32>,
    low: &'a mut usize,
}

impl<S: Space> PathTo<'_, S> {
    /// Write the path into the walk's buffer ([`Walk::written`]) and return it. Only the part
    /// below the lowest frame popped since the last write is rewritten, so that the nodes of
    /// a chain in which each improves on its parent (every item fits a knapsack) cost O(1)
    /// each, not O(depth).
    pub(super) fn write(&mut self) -> &[u32] {
        // Frames [0, keep) are those of the last write: their entries are in place.
        let keep = (*self.low).min(self.frames.len());
        self.written
            .truncate(self.base.len() + keep.saturating_sub(1));
        if keep == 0 {
            self.written.clear();
            self.written.extend_from_slice(self.base);
        }
        self.written.extend(
            self.frames[keep.max(1).min(self.frames.len())..]
                .iter()
                .map(|f| f.index),
        );
        self.written.extend(self.last);
        *self.low = self.frames.len();
        self.written
    }

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
    /// Whether the space gives estimates.
    estimates: bool,
    /// The path from the root to the first frame's node.
    base: Vec<u32>,
    stack: Vec<Frame<S>>,
    /// The path [`PathTo::write`] wrote last, valid for the frames below `low`.
    written: Vec<u32>,
    /// The lowest stack height since the last write: the frames below it are unchanged.
    low: usize,
    /// Nodes the walk is done with, for the generators to reuse (`Space::REUSE`; never sent).
    spare: Vec<S::Node>,
}

/// The most nodes a walk keeps for reuse (a stack's worth, for the nodes of popped frames).
const SPARE_NODES: usize = 64;

/// Keep `node` for reuse: in the slot handed to the next generator, or in the pool.
#[inline]
fn keep<N>(slot: &mut Option<N>, pool: &mut Vec<N>, node: N) {
    if slot.is_none() {
        *slot = Some(node);
    } else if pool.len() < SPARE_NODES {
        pool.push(node);
    }
}

impl<S: Space> Clone for Walk<S> {
    fn clone(&self) -> Self {
        Walk {
            space: self.space.clone(),
            estimates: self.estimates,
            base: self.base.clone(),
            stack: self.stack.clone(),
            written: self.written.clone(),
            low: self.low,
            spare: Vec::new(),
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
            estimates: estimate.is_some(),
            base: Vec::new(),
            stack: vec![Frame::new(root, 0, estimate.unwrap_or(0))],
            written: Vec::new(),
            low: 0,
            spare: Vec::new(),
        }
    }

    /// True for the root piece before any work or split: it alone sends the instance whole.
    /// Once worked or split it names it by digest like every other piece (every process
    /// holds the instance by then, having built the root), so that a checkpoint names the
    /// instance it was cut from and resuming it against another instance fails. A piece
    /// given away always has two frames, so no other piece looks like this.
    fn is_untouched_root(&self) -> bool {
        self.base.is_empty() && self.stack.len() == 1 && self.stack[0].is_fresh()
    }

    /// The space searched.
    pub(super) fn space(&self) -> &S {
        &self.space.0
    }

    /// The path [`PathTo::write`] wrote last.
    pub(super) fn written(&self) -> &[u32] {
        &self.written
    }

    pub(super) fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    pub(super) fn estimate(&self) -> Option<u64> {
        self.estimates
            .then(|| self.stack.iter().map(|f| f.left).sum())
    }

    /// Visit up to `budget` nodes in depth-first order, each with `visit`, and start the
    /// generator of each node visited and expanded with `start` (the kind's: an optimisation
    /// lets it see the incumbent, see [`Optimise::children_beating`](super::Optimise)).
    #[inline]
    pub(super) fn work<O>(
        &mut self,
        budget: u64,
        ctx: &mut Context<'_, O>,
        mut visit: impl FnMut(&S, &S::Node, PathTo<'_, S>, &mut Context<'_, O>) -> Step,
        mut start: impl FnMut(&S, &S::Node, &Context<'_, O>) -> S::Children,
    ) -> u64 {
        let space: &S = &self.space.0;
        let estimates = self.estimates;
        let mut units = 0;
        // The node to visit next, off the stack: the node, its index among its parent's
        // children and its share of the estimate. Leaves never go on the stack.
        let mut next: Option<(S::Node, u32, u64)> = None;
        // A node the walk is done with, handed to the next child's generator to reuse
        // (only where the space asks for them: `Space::REUSE`).
        let mut spare: Option<S::Node> = None;
        if self.stack.last().is_some_and(Frame::is_fresh) {
            let f = self.stack.pop().expect("just seen");
            self.low = self.low.min(self.stack.len());
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
                    if !top.plain && !top.visited {
                        // A frame that a split expanded before it was visited.
                        if units == budget {
                            break;
                        }
                        units += 1;
                        let path = PathTo {
                            base: &self.base,
                            frames: &self.stack,
                            last: None,
                            written: &mut self.written,
                            low: &mut self.low,
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
                                    parent.unplain();
                                    parent.done = true;
                                }
                            }
                            Step::Stop => {
                                self.stack.clear();
                                self.low = 0;
                                break;
                            }
                        }
                        self.low = self.low.min(self.stack.len());
                        continue;
                    }
                    let produced = if top.plain || !top.done {
                        if S::REUSE && spare.is_none() {
                            spare = self.spare.pop();
                        }
                        top.next_child(space, &mut spare)
                    } else {
                        None
                    };
                    let Some((child, index)) = produced else {
                        let popped = self.stack.pop();
                        if S::REUSE {
                            if let Some(f) = popped {
                                keep(&mut spare, &mut self.spare, f.node);
                            }
                        }
                        self.low = self.low.min(self.stack.len());
                        continue;
                    };
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
                written: &mut self.written,
                low: &mut self.low,
            };
            match visit(space, &node, path, ctx) {
                Step::Expand => {}
                Step::Prune => {
                    if S::REUSE {
                        keep(&mut spare, &mut self.spare, node);
                    }
                    continue;
                }
                Step::PruneLevel => {
                    if let Some(parent) = self.stack.last_mut() {
                        parent.unplain();
                        parent.done = true;
                    }
                    if S::REUSE {
                        keep(&mut spare, &mut self.spare, node);
                    }
                    continue;
                }
                Step::Stop => {
                    self.stack.clear();
                    self.low = 0;
                    break;
                }
            }
            let mut children = start(space, &node, ctx);
            if S::REUSE && spare.is_none() {
                spare = self.spare.pop();
            }
            let first = space.next_child_reusing(&node, &mut children, &mut spare);
            if let Some(first) = first {
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
                    pos: 1,
                    next: 1,
                    stride: 1,
                    index,
                    visited: true,
                    done: false,
                    left,
                    plain: true,
                });
                next = Some((first, 0, share));
            } else if S::REUSE {
                keep(&mut spare, &mut self.spare, node);
            }
        }
        if let Some(node) = spare.filter(|_| self.spare.len() < SPARE_NODES) {
            self.spare.push(node);
        }
        units
    }

    /// Give away half of the unexplored siblings nearest the root (module docs of
    /// `search`): the lowest frame with children left keeps every other one of them and the
    /// piece takes the others, so both halves hold children of every rank (a generator
    /// produces the best first) and no generator needs to know how many it has left.
    pub(super) fn split(&mut self) -> Option<Self> {
        self.stack.iter_mut().for_each(Frame::unplain);
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
            let Some((first, at)) = frame.next_child(space, &mut None) else {
                frame.done = true;
                i += 1;
                continue;
            };
            let first = self.produce(i, first, at);
            if !top {
                return Some(self.give(i, first));
            }
            // The top frame keeps its next child and shares out those after it, if any.
            self.stack.push(first);
            let frame = &mut self.stack[i];
            match frame.next_child(space, &mut None) {
                Some((second, at)) => {
                    let second = self.produce(i, second, at);
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

    /// The frame of `child`, just produced by frame `i` as its child number `index`, taking
    /// its share of the estimate.
    fn produce(&mut self, i: usize, child: S::Node, index: u32) -> Frame<S> {
        let estimates = self.estimates;
        let share = if estimates {
            self.space.0.estimate(&child).unwrap_or(0)
        } else {
            0
        };
        let frame = &mut self.stack[i];
        let share = share.min(frame.left);
        frame.left -= share;
        Frame::new(child, index, share)
    }

    /// Share out frame `i`'s children from `next` on: the piece gets `next` and every other
    /// child after it (a piece of frame `i`, visited, with the generator, and `next` above it);
    /// frame `i` keeps the children in between, and half of the estimate left.
    fn give(&mut self, i: usize, next: Frame<S>) -> Self {
        let frame = &mut self.stack[i];
        let stride = frame.stride.saturating_mul(2);
        let kept = frame.left / 2;
        let parent = Frame {
            node: frame.node.clone(),
            children: frame.children.clone(),
            pos: frame.pos,
            next: u64::from(next.index).saturating_add(stride),
            stride,
            index: frame.index,
            visited: true,
            done: false,
            left: frame.left - kept,
            plain: false,
        };
        // Frame i's next child is the one after `next`, now every `stride` children.
        frame.stride = stride;
        frame.left = kept;
        let mut base = self.base.clone();
        base.extend(self.stack[1..=i].iter().map(|f| f.index));
        Walk {
            space: self.space.clone(),
            estimates: self.estimates,
            base,
            stack: vec![parent, next],
            written: Vec::new(),
            low: 0,
            spare: Vec::new(),
        }
    }
}

/// A frame on the wire: the generator travels as its position.
#[derive(Serialize, Deserialize)]
struct WireFrame<N> {
    node: N,
    next: u64,
    stride: u64,
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
            instance: if w.is_untouched_root() {
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
                    next: f.next,
                    stride: f.stride,
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
        let space = w
            .instance
            .receive()
            .map_err(|e| format!("search piece: {e}"))?;
        if w.frames.last().is_some_and(|f| f.visited) {
            return Err("a malformed search piece: its top frame was visited".into());
        }
        let mut stack = Vec::with_capacity(w.frames.len());
        for f in w.frames {
            if f.stride == 0 {
                return Err("a malformed search piece: a frame's stride is 0".into());
            }
            let mut frame = Frame {
                node: f.node,
                children: None,
                pos: 0,
                next: f.next,
                stride: f.stride,
                index: f.index,
                visited: f.visited,
                done: f.done,
                left: f.left,
                plain: false,
            };
            // The child before the frame's next one was produced where the piece came from:
            // rebuild the generator up to it, which checks that the instance and the
            // generator agree with the sender's.
            if !frame.done && frame.next >= frame.stride && frame.next > 0 {
                let last = frame.next - frame.stride;
                let space: &S = &space.0;
                let children = frame.children.insert(space.children(&frame.node));
                let skipped = space.skip_children(&frame.node, children, last);
                if skipped != last || space.next_child(&frame.node, children).is_none() {
                    return Err(format!(
                        "a malformed search piece: a node has {skipped} children, the piece produced child {last}"
                    ));
                }
                frame.pos = last + 1;
            }
            stack.push(frame);
        }
        Ok(Walk {
            space,
            estimates: w.estimates,
            base: w.base,
            stack,
            written: Vec::new(),
            low: 0,
            spare: Vec::new(),
        })
    }
}
