//! 0/1 knapsack by branch-and-bound (paper 001 §14.5.4): items sorted by profit density, the
//! Dantzig bound (fill greedily, then a fraction of the first item that does not fit), and
//! depth-first search that tries "take item i" before "leave item i". The application runs
//! the same search on the skeletons ([`skeleton`]); this module's hand-written task is the
//! comparison it is measured against and the lab's subject for piece sizes.
//!
//! A piece of the search is a fixed prefix of decisions plus a depth-first stack of frames,
//! one per decided level; each frame remembers which of its two alternatives are still
//! untried. A split hands over the *highest* unexplored subtree: the "leave" alternative of
//! the shallowest frame that still has one (so the requester gets a big subproblem and the
//! splitting depth stays small). A work unit is one node (one alternative tried).
//!
//! Every node is a feasible packing, so a node whose profit beats the incumbent is offered;
//! a node whose bound cannot beat the incumbent is pruned. The instance is shared (`Arc`)
//! between the pieces of one process. On the wire (`KnapsackWire`) only the root carries the
//! instance; every other piece is the instance's digest plus its path of decisions from the
//! root as a bit string and 4 bits per stack frame, levels, profits and weights replayed on
//! arrival (paper 002 §6.1, paper 001 §14.5.4; [`treesplit::task::shared`]).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;
use treesplit::task::shared::{self, Content, Sent, Shared};
use treesplit::{Context, Outcome, Task};

/// An instance: items sorted by profit density, with prefix sums for the bound.
#[derive(Debug, Serialize, Deserialize)]
pub struct Instance {
    /// The digest it is registered under (computed once).
    #[serde(skip)]
    id: std::sync::OnceLock<u64>,
    /// Capacity.
    pub capacity: u64,
    /// (profit, weight, index in the file) sorted by profit/weight, highest first.
    pub items: Vec<(u64, u64, u32)>,
    /// Prefix sums of the sorted profits and weights (n + 1 entries).
    prefix_profit: Vec<u64>,
    prefix_weight: Vec<u64>,
}

/// The largest number of items accepted.
pub const MAX_ITEMS: usize = 1 << 20;

impl Instance {
    /// An instance from `(profit, weight)` pairs in file order.
    pub fn new(capacity: u64, items: &[(u64, u64)]) -> Result<Self, String> {
        if items.len() > MAX_ITEMS {
            return Err(format!("more than {MAX_ITEMS} items"));
        }
        let total_p = items.iter().try_fold(0u64, |s, &(p, _)| s.checked_add(p));
        let total_w = items.iter().try_fold(0u64, |s, &(_, w)| s.checked_add(w));
        if total_p.is_none_or(|t| t > i64::MAX as u64) || total_w.is_none() {
            return Err("the total profit or weight does not fit in 63 bits".into());
        }
        let mut sorted: Vec<(u64, u64, u32)> = items
            .iter()
            .enumerate()
            .map(|(i, &(p, w))| (p, w, i as u32))
            .collect();
        // p_a/w_a > p_b/w_b  ⇔  p_a·w_b > p_b·w_a (weight 0 first); ties by index.
        sorted.sort_by(|a, b| {
            (u128::from(b.0) * u128::from(a.1))
                .cmp(&(u128::from(a.0) * u128::from(b.1)))
                .then(a.2.cmp(&b.2))
        });
        let mut prefix_profit = vec![0];
        let mut prefix_weight = vec![0];
        for &(p, w, _) in &sorted {
            prefix_profit.push(prefix_profit.last().unwrap() + p);
            prefix_weight.push(prefix_weight.last().unwrap() + w);
        }
        Ok(Instance {
            id: std::sync::OnceLock::new(),
            capacity,
            items: sorted,
            prefix_profit,
            prefix_weight,
        })
    }

    /// Parse an instance file in any of the formats of [`format`] (a file of several
    /// instances must hold one only). Errors name `file` and the line.
    pub fn parse(text: &str, file: &str) -> Result<Self, String> {
        format::parse(text, file, None).map(|p| p.instance)
    }

    /// Read and parse an instance file (`-`: standard input).
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        let (text, name) = crate::input::read_text(path)?;
        Instance::parse(&text, &name)
    }

    /// The digest of the instance (capacity and items), under which pieces name it.
    pub fn id(&self) -> u64 {
        *self.id.get_or_init(|| {
            treesplit::task::shared::digest(
                std::iter::once(self.capacity).chain(
                    self.items
                        .iter()
                        .flat_map(|&(p, w, i)| [p, w, u64::from(i)]),
                ),
            )
        })
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True without items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The Dantzig bound for the items `level..` with `room` capacity left: take whole items
    /// in density order while they fit, then the fitting fraction of the next (rounded down:
    /// profits are integers).
    pub fn bound(&self, level: usize, room: u64) -> u64 {
        let base = self.prefix_weight[level];
        // The last k with prefix_weight[k] − base ≤ room.
        let k = self.prefix_weight[level..].partition_point(|&w| w - base <= room) + level - 1;
        let whole = self.prefix_profit[k] - self.prefix_profit[level];
        if k == self.items.len() {
            return whole;
        }
        let (p, w, _) = self.items[k];
        let left = room - (self.prefix_weight[k] - base);
        whole + (u128::from(p) * u128::from(left) / u128::from(w.max(1))) as u64
    }
}

/// The best packing found: its profit and the items (file indices, ascending).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Packing {
    /// Total profit.
    pub profit: u64,
    /// Total weight.
    pub weight: u64,
    /// The items taken (0-based line order in the file).
    pub items: Vec<u32>,
}

impl crate::objective::Objective for Packing {
    fn objective(&self) -> Option<u64> {
        Some(self.profit)
    }
}

impl Outcome for Packing {
    fn merge(&mut self, other: Self) {
        if (other.profit, std::cmp::Reverse(&other.items))
            > (self.profit, std::cmp::Reverse(&self.items))
        {
            *self = other;
        }
    }
}

impl fmt::Display for Packing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "profit {} (weight {}, {})",
            self.profit,
            self.weight,
            treesplit::words::count(self.items.len(), "item", "items")
        )
    }
}

const TAKE: u8 = 1;
const LEAVE: u8 = 2;

/// A node of the search: the decisions above it are fixed, items `level..` are open.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
struct Frame {
    level: u32,
    profit: u64,
    weight: u64,
    /// Alternatives for item `level` not tried yet (TAKE | LEAVE).
    untried: u8,
    /// The alternative being explored below this frame.
    current: u8,
}

impl Frame {
    /// The frame on the compact wire: `untried | current << 2` (what [`replay_frames`] reads).
    fn nibble(&self) -> u8 {
        self.untried | self.current << 2
    }
}

/// Pieces name the instance by [`Instance::id`].
impl Content for Instance {
    fn digest(&self) -> u64 {
        self.id()
    }
}

/// A piece of a knapsack search.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "KnapsackWire", try_from = "KnapsackWire")]
pub struct Knapsack {
    instance: Shared<Instance>,
    /// Decisions (taken?) for the sorted items above the first frame.
    prefix: Vec<bool>,
    stack: Vec<Frame>,
    /// An incumbent found by this piece whose packing is not built yet: its profit, weight
    /// and the index of the stack frame whose current alternative leads to it. Building a
    /// packing costs O(n), and when every item fits each "take" improves the incumbent, so
    /// building one per improvement made the search quadratic in n. The packing is built only
    /// when the path to it is about to change (the frame is popped or tries its other
    /// alternative) or the piece runs out of work; a better node found meanwhile lies below
    /// it on the same path and replaces it.
    pending: Option<(u64, u64, usize)>,
    /// Every piece carries the whole instance (the representation before paper 002 §6.1;
    /// [`Knapsack::with_inline_instance`]), not only the root.
    inline: bool,
}

/// A knapsack piece on the wire: the root with its instance, any other piece with the
/// instance's digest; its decisions above the first frame as a bit string and each stack
/// frame as 4 bits (its untried and current alternatives). A frame's level, profit and weight
/// follow from the decisions above it, so they are replayed on arrival, not sent: a piece
/// shipped whole (poll-and-shuffle's permutations) costs O(depth) bits too. The inline form
/// (the representation before §6.1) sends whole frames in `stack` instead.
#[derive(Serialize, Deserialize)]
pub struct KnapsackWire {
    instance: Sent<Instance>,
    #[serde(with = "shared::bits")]
    prefix: Vec<bool>,
    /// Compact form: `untried | current << 2` per frame, first frame at level `prefix.len()`.
    #[serde(with = "shared::nibbles")]
    frames: Vec<u8>,
    /// Inline form: the frames whole.
    stack: Vec<Frame>,
    pending: Option<(u64, u64, usize)>,
}

impl From<Knapsack> for KnapsackWire {
    fn from(k: Knapsack) -> Self {
        let root = k.prefix.is_empty()
            && k.pending.is_none()
            && k.stack.len() == 1
            && k.stack[0].level == 0
            && k.stack[0].untried == TAKE | LEAVE;
        KnapsackWire {
            instance: if k.inline {
                k.instance.inline()
            } else if root {
                k.instance.whole()
            } else {
                k.instance.by_digest()
            },
            frames: if k.inline {
                vec![]
            } else {
                k.stack.iter().map(Frame::nibble).collect()
            },
            stack: if k.inline { k.stack } else { vec![] },
            prefix: k.prefix,
            pending: k.pending,
        }
    }
}

impl TryFrom<KnapsackWire> for Knapsack {
    type Error = String;
    fn try_from(w: KnapsackWire) -> Result<Self, String> {
        let inline = w.instance.is_inline();
        let instance = w.instance.receive().map_err(|e| format!("knapsack {e}"))?;
        let n = instance.len() as u32;
        if w.prefix.len() > instance.len() || w.stack.iter().any(|f| f.level >= n) {
            return Err("a knapsack piece deeper than its instance".into());
        }
        let stack = if inline {
            if !w.frames.is_empty() {
                return Err("an inline knapsack piece with compact frames".into());
            }
            // Whole frames must be what the replay of their alternatives gives (an alternative
            // out of range does not survive the 4-bit form, so it is caught here too).
            let nibbles: Vec<u8> = w.stack.iter().map(Frame::nibble).collect();
            if replay_frames(&instance, &w.prefix, &nibbles)? != w.stack {
                return Err(
                    "an inconsistent knapsack piece: a frame's alternatives, level, profit or weight"
                        .into(),
                );
            }
            w.stack
        } else {
            if !w.stack.is_empty() {
                return Err("a compact knapsack piece with whole frames".into());
            }
            replay_frames(&instance, &w.prefix, &w.frames)?
        };
        if let Some((_, _, depth)) = w.pending {
            if depth >= stack.len() {
                return Err("a knapsack piece whose pending incumbent lies below its stack".into());
            }
        }
        Ok(Knapsack {
            instance,
            prefix: w.prefix,
            stack,
            pending: w.pending,
            inline,
        })
    }
}

/// The stack frames of a compact piece: frame k is at level `prefix.len() + k`, its profit
/// and weight are those of the items taken above it (the prefix, then the frames' current
/// alternatives). Refuses frames that cannot come from a search: a bad nibble, a frame below
/// one with no current alternative, a path over the capacity or deeper than the instance.
fn replay_frames(inst: &Instance, prefix: &[bool], frames: &[u8]) -> Result<Vec<Frame>, String> {
    let bad = |why: &str| Err(format!("an inconsistent knapsack piece: {why}"));
    if prefix.len() + frames.len() > inst.len() {
        return bad("deeper than its instance");
    }
    let (mut profit, mut weight) = (0u64, 0u64);
    for (item, _) in inst.items.iter().zip(prefix).filter(|(_, &t)| t) {
        profit += item.0;
        weight += item.1;
    }
    let mut stack = Vec::with_capacity(frames.len());
    let mut below_current = true;
    for (k, &nibble) in frames.iter().enumerate() {
        let (untried, current) = (nibble & 3, nibble >> 2);
        if current > LEAVE {
            return bad("a frame's current alternative is not take or leave");
        }
        if !below_current {
            return bad("a frame below one that explores no alternative");
        }
        if weight > inst.capacity {
            return bad("its decisions exceed the capacity");
        }
        let level = prefix.len() + k;
        stack.push(Frame {
            level: level as u32,
            profit,
            weight,
            untried,
            current,
        });
        below_current = current != 0;
        if current == TAKE {
            let (p, w, _) = inst.items[level];
            profit += p;
            weight += w;
        }
    }
    Ok(stack)
}

impl Knapsack {
    /// The whole search. Shares the instance in this process ([`treesplit::task::shared`]),
    /// so that pieces naming it by digest can arrive here.
    pub fn new(instance: impl Into<Shared<Instance>>) -> Self {
        let instance = instance.into();
        let stack = if instance.is_empty() {
            vec![]
        } else {
            vec![Frame {
                level: 0,
                profit: 0,
                weight: 0,
                untried: TAKE | LEAVE,
                current: 0,
            }]
        };
        Knapsack {
            instance,
            prefix: vec![],
            stack,
            pending: None,
            inline: false,
        }
    }

    /// The same search whose pieces all carry the whole instance, as before paper 002
    /// §6.1's compact pieces: for measuring what the compact form saves
    /// (`experiments::poll_shuffle::knapsack_mesh_rows`). Answers are the same.
    pub fn with_inline_instance(mut self) -> Self {
        self.inline = true;
        self
    }

    /// Decisions from the root to this piece's first frame (its path, in bits on the wire).
    pub fn path_len(&self) -> usize {
        self.prefix.len()
    }

    /// Frames on the depth-first stack (decided levels below the prefix).
    pub fn stack_len(&self) -> usize {
        self.stack.len()
    }

    /// Every alternative tried.
    fn exhausted(&self) -> bool {
        self.stack.iter().all(|f| f.untried == 0)
    }

    /// Build the pending incumbent's packing (see `pending`) if the path to it starts to
    /// change at stack frame `from` or above it.
    fn flush(&mut self, from: usize, ctx: &mut Context<'_, Packing>) {
        if let Some((profit, weight, depth)) = self.pending {
            if depth >= from {
                self.pending = None;
                let packing = self.packing(profit, weight, depth);
                ctx.output().merge(packing);
            }
        }
    }

    /// The packing of the node below the current alternative of stack frame `depth`.
    fn packing(&self, profit: u64, weight: u64, depth: usize) -> Packing {
        let mut taken: Vec<bool> = self.prefix.clone();
        taken.extend(self.stack[..=depth].iter().map(|f| f.current == TAKE));
        let mut items: Vec<u32> = taken
            .iter()
            .zip(&self.instance.items)
            .filter(|(t, _)| **t)
            .map(|(_, it)| it.2)
            .collect();
        items.sort_unstable();
        Packing {
            profit,
            weight,
            items,
        }
    }
}

impl Task for Knapsack {
    type Output = Packing;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Packing>) -> u64 {
        let inst = Arc::clone(self.instance.arc());
        let n = inst.len() as u32;
        let mut units = 0;
        while units < budget {
            let Some(last) = self.stack.len().checked_sub(1) else {
                break;
            };
            // The top frame is popped or switches its alternative: the path below changes.
            self.flush(last, ctx);
            let top = &mut self.stack[last];
            if top.untried == 0 {
                self.stack.pop();
                continue;
            }
            units += 1;
            let (p, w, _) = inst.items[top.level as usize];
            let (profit, weight) = if top.untried & TAKE != 0 {
                top.untried &= !TAKE;
                top.current = TAKE;
                if top.weight + w > inst.capacity {
                    continue;
                }
                (top.profit + p, top.weight + w)
            } else {
                top.untried = 0;
                top.current = LEAVE;
                (top.profit, top.weight)
            };
            let level = top.level + 1;
            let best = ctx.best().max(0) as u64;
            if profit > best && ctx.offer(profit as i64) {
                // Below the pending one, if any, and better: it replaces it.
                self.pending = Some((profit, weight, last));
            }
            if level < n
                && inst.bound(level as usize, inst.capacity - weight) + profit
                    > ctx.best().max(0) as u64
            {
                self.stack.push(Frame {
                    level,
                    profit,
                    weight,
                    untried: TAKE | LEAVE,
                    current: 0,
                });
            }
        }
        if self.exhausted() {
            self.flush(0, ctx);
        }
        units
    }

    fn split(&mut self) -> Option<Self> {
        let last = self.stack.len().checked_sub(1)?;
        let i = self.stack.iter().position(|f| f.untried & LEAVE != 0)?;
        let frame = self.stack[i];
        if i == last && frame.untried != TAKE | LEAVE {
            return None; // the top frame's last alternative: nothing to share
        }
        self.stack[i].untried &= !LEAVE;
        let mut prefix = self.prefix.clone();
        prefix.extend(self.stack[..i].iter().map(|f| f.current == TAKE));
        Some(Knapsack {
            instance: self.instance.clone(),
            prefix,
            stack: vec![Frame {
                untried: LEAVE,
                current: 0,
                ..frame
            }],
            pending: None,
            inline: self.inline,
        })
    }

    /// Empty once every alternative is tried and the last incumbent's packing is built (a
    /// split can take a piece's last alternative while an incumbent is pending: the next
    /// `work` builds it, doing no units).
    fn is_empty(&self) -> bool {
        self.exhausted() && self.pending.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_that_takes_the_last_alternative_keeps_the_pending_incumbent() {
        use treesplit::task::SharedIncumbent;
        use treesplit::Context;
        // Item 0 (5, 1) fits; item 1 (400, 100) does not, but its fraction keeps the bound up.
        let inst = Arc::new(Instance::new(10, &[(5, 1), (400, 100)]).unwrap());
        let mut k = Knapsack::new(inst);
        let (mut out, inc) = (Packing::default(), SharedIncumbent::new());
        let mut ctx = Context::new(&mut out, &inc, 0);
        // Take item 0 (an incumbent, pending), try item 1 (does not fit), leave it.
        assert_eq!(k.work(3, &mut ctx), 3);
        let part = k.split().expect("the 'leave item 0' subtree");
        assert!(part.pending.is_none());
        // Every alternative of `k` is tried, but its incumbent's packing is not built yet.
        assert!(!k.is_empty());
        assert_eq!(k.work(10, &mut ctx), 0);
        assert!(k.is_empty());
        assert_eq!(
            out,
            Packing {
                profit: 5,
                weight: 1,
                items: vec![0]
            }
        );
    }

    /// A piece shipped whole in the middle of its search (4 bits a frame, levels, profits and
    /// weights replayed) is the same piece: same stack, and the search it finishes finds the
    /// same optimum as the one never shipped.
    #[test]
    fn a_piece_shipped_mid_search_is_the_same_piece() {
        use treesplit::task::{Incumbent, SharedIncumbent};
        use treesplit::Context;
        let items: Vec<(u64, u64)> = (1..=60)
            .map(|i| (i * 7 % 97 + 1, i * 13 % 89 + 1))
            .collect();
        let inst = Arc::new(Instance::new(600, &items).unwrap());
        for steps in [1u64, 7, 40, 300, 2000] {
            let mut k = Knapsack::new(Arc::clone(&inst));
            let (mut out, inc) = (Packing::default(), SharedIncumbent::new());
            k.work(steps, &mut Context::new(&mut out, &inc, 0));
            let bytes = postcard::to_allocvec(&k).unwrap();
            let mut back: Knapsack = postcard::from_bytes(&bytes).unwrap();
            assert_eq!(
                format!("{:?}", back.stack),
                format!("{:?}", k.stack),
                "{steps}"
            );
            assert_eq!(back.prefix, k.prefix);
            if k.stack.len() > 1 {
                let inline = postcard::to_allocvec(&k.clone().with_inline_instance()).unwrap();
                assert!(
                    bytes.len() * 10 < inline.len(),
                    "{} vs {}",
                    bytes.len(),
                    inline.len()
                );
            }
            let (mut out2, inc2) = (out.clone(), SharedIncumbent::new());
            inc2.offer(inc.best());
            while !k.is_empty() {
                k.work(1000, &mut Context::new(&mut out, &inc, 0));
            }
            while !back.is_empty() {
                back.work(1000, &mut Context::new(&mut out2, &inc2, 0));
            }
            assert_eq!(out.profit, out2.profit, "{steps}");
        }
    }

    #[test]
    fn inconsistent_pieces_are_refused() {
        // Sorted by density as given: weights 5, 5, 5, 5, 1 against capacity 10.
        let inst = Arc::new(Instance::new(10, &[(9, 5), (8, 5), (7, 5), (6, 5), (1, 1)]).unwrap());
        let k = Knapsack::new(Arc::clone(&inst));
        let wire = |prefix: Vec<bool>, frames: Vec<u8>| KnapsackWire {
            instance: Sent::Id(inst.id()),
            prefix,
            frames,
            stack: vec![],
            pending: None,
        };
        assert!(Knapsack::try_from(KnapsackWire::from(k)).is_ok());
        for (prefix, frames, why) in [
            (vec![], vec![TAKE | LEAVE | 3 << 2], "current"),
            (vec![], vec![LEAVE, LEAVE], "explores no alternative"),
            (vec![true, true, true], vec![LEAVE], "capacity"),
            (vec![], vec![LEAVE | TAKE << 2; 4], "capacity"),
            (vec![false; 5], vec![LEAVE], "deeper"),
        ] {
            let e = Knapsack::try_from(wire(prefix, frames)).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
        // The inline form's whole frames are checked against the same replay.
        let mut inline =
            KnapsackWire::from(Knapsack::new(Arc::clone(&inst)).with_inline_instance());
        assert!(inline.frames.is_empty() && inline.stack.len() == 1);
        let mut bad_alternative = KnapsackWire {
            stack: inline.stack.clone(),
            ..wire(vec![], vec![])
        };
        bad_alternative.instance = Sent::Inline(Arc::clone(&inst));
        bad_alternative.stack[0].untried = 7;
        assert!(Knapsack::try_from(bad_alternative).is_err());
        inline.stack[0].weight = u64::MAX;
        let e = Knapsack::try_from(inline).unwrap_err();
        assert!(e.contains("level, profit or weight"), "{e}");
    }

    #[test]
    fn bound_is_the_fractional_greedy_value() {
        let inst = Instance::new(10, &[(10, 5), (6, 4), (5, 5)]).unwrap();
        // 10 (w5) + 6 (w4) + 1/5 of 5 = 17.
        assert_eq!(inst.bound(0, 10), 17);
        assert_eq!(inst.bound(1, 10), 11);
        assert_eq!(inst.bound(3, 10), 0);
    }
}

pub mod app;
pub mod format;
pub mod spec;

pub use spec::{index_optimum, KnapsackFile};
pub mod skeleton;
