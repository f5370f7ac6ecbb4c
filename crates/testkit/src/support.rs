//! Shared support of the integration tests of the library and the applications: a time bound
//! for runs that might hang, and task types written against the public `Task` trait whose
//! answers are known without the library:
//!
//! - [`Tree`]: an irregular, deterministic hash-driven tree (UTS-like, binomial); its node
//!   count and checksum come from [`Tree::count`], a plain recursive walk.
//! - [`RangeSum`]: Σ f(i) over a range, split at the middle, with exact size estimates and
//!   `split_at` (closed form for `spin == 0`; optional poisoned index for panic tests).
//! - [`Alpha`]: W units split with a random fraction in [α, 1−α] (the synthetic tree of
//!   paper 004), for efficiency figures.
//! - [`jobs`]: an `IndexRange` of jobs of different sizes with per-job estimates (exact or
//!   noisy), for the static balancers and for deriving h from α.
//! - [`Knap`]: a 0/1 knapsack branch-and-bound using `ctx.best`/`ctx.offer`; its optimum
//!   comes from [`Knap::optimum_by_dp`].
//! - [`Find`]: a decision search that calls `ctx.stop()` when it finds its target.
//! - [`with_polling`], [`with_round`]: set the options of a typed [`Balancer`] in place.
//! - [`work_in_slices`]: a task worked by hand in slices of one budget, split after each, with
//!   the budget contract checked.

use serde::{Deserialize, Serialize};
use std::sync::mpsc;
use std::time::Duration;
use treesplit::config::BalancerOptions;
use treesplit::{Balancer, Context, IndexJob, IndexRange, Outcome, PollingOptions, Task};

/// Work `root` and every piece split from it to the end by hand, in slices of `budget` units
/// with a split after each slice, checking that no slice does more than its budget and that a
/// slice of a non-empty piece does some work; returns the merged output and the units done.
pub fn work_in_slices<T: Task>(root: T, budget: u64) -> (T::Output, u64) {
    let incumbent = treesplit::task::SharedIncumbent::new();
    let (mut out, mut units) = (T::Output::default(), 0);
    let mut pieces = vec![root];
    while let Some(mut piece) = pieces.pop() {
        let mut ctx = Context::new(&mut out, &incumbent, 0).with_goal(T::GOAL);
        let done = piece.work(budget, &mut ctx);
        assert!(done <= budget, "{done} units in a slice of budget {budget}");
        assert!(
            done >= 1 || piece.is_empty(),
            "a slice of budget {budget} did nothing"
        );
        units += done;
        if let Some(given) = piece.split() {
            pieces.push(given);
        }
        if !piece.is_empty() {
            pieces.push(piece);
        }
    }
    (out, units)
}

/// Run `f` on its own thread and fail the test if it takes longer than `limit`.
pub fn within<R: Send + 'static>(limit: Duration, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("did not finish within {limit:?} (hang?)"))
}

/// `balancer` with its polling options changed by `f` (static balancers are returned as
/// they are: they have none).
pub fn with_polling(balancer: Balancer, f: impl Fn(&mut PollingOptions)) -> Balancer {
    let mut polling = balancer.polling().copied();
    if let Some(polling) = &mut polling {
        f(polling);
    }
    balancer.with(&BalancerOptions {
        polling,
        ..BalancerOptions::default()
    })
}

/// `balancer` with round (phase) length `length` where it has one (random shift,
/// poll-and-shuffle); the others are returned as they are.
pub fn with_round(balancer: Balancer, length: u64) -> Balancer {
    balancer.with(&BalancerOptions {
        round: Some(length),
        ..BalancerOptions::default()
    })
}

/// The splitmix64 finalizer: a good 64-bit mixing function.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

// ---------------------------------------------------------------------------------------
// Tree

/// What a walk over a [`Tree`] finds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeStats {
    /// Nodes visited (one work unit each).
    pub nodes: u64,
    /// Nodes without children.
    pub leaves: u64,
    /// Wrapping sum of the nodes' hashes: a node visited twice or lost changes it.
    pub checksum: u64,
    /// The deepest node.
    pub max_depth: u32,
}

impl Outcome for TreeStats {
    fn merge(&mut self, other: Self) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.checksum = self.checksum.wrapping_add(other.checksum);
        self.max_depth = self.max_depth.max(other.max_depth);
    }
}

/// The shape of a [`Tree`]: `roots` subtrees; a node above `max_depth` has `m` children
/// with probability `q_permille`/1000 (decided by its hash), else none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeShape {
    pub roots: u32,
    pub m: u32,
    pub q_permille: u32,
    pub max_depth: u32,
    pub seed: u64,
    /// Extra hashing per node (makes units cost more real time).
    pub spin: u32,
}

impl TreeShape {
    fn children(&self, hash: u64, depth: u32) -> u32 {
        if depth >= self.max_depth || (hash >> 20) % 1000 >= u64::from(self.q_permille) {
            0
        } else {
            self.m
        }
    }

    fn child(hash: u64, k: u32) -> u64 {
        mix(hash ^ (u64::from(k) + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93))
    }

    fn visit(&self, hash: u64, depth: u32, stats: &mut TreeStats) -> u32 {
        let mut h = hash;
        for _ in 0..self.spin {
            h = mix(h);
        }
        stats.nodes += 1;
        stats.checksum = stats.checksum.wrapping_add(hash ^ (h & 1));
        stats.max_depth = stats.max_depth.max(depth);
        let c = self.children(hash, depth);
        if c == 0 {
            stats.leaves += 1;
        }
        c
    }
}

/// An irregular tree worked depth first from a stack of unvisited nodes; `split` hands the
/// bottom (highest, oldest) half of the stack to the new piece. The root task holds the
/// `roots` top nodes, so it splits before any work is done (fast initialization needs that).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tree {
    pub shape: TreeShape,
    /// Unvisited nodes (hash, depth); the top is visited next.
    pub stack: Vec<(u64, u32)>,
}

impl Tree {
    pub fn new(shape: TreeShape) -> Self {
        let stack = (0..shape.roots)
            .rev()
            .map(|k| (TreeShape::child(mix(shape.seed), k), 0))
            .collect();
        Tree { shape, stack }
    }

    /// An irregular tree of `roots` subtrees, binomial with mean 0.98 children per node
    /// (near critical: subtree sizes vary over orders of magnitude), cut at depth 60.
    pub fn binomial(roots: u32, seed: u64) -> Self {
        Tree::new(TreeShape {
            roots,
            m: 5,
            q_permille: 196,
            max_depth: 60,
            seed,
            spin: 0,
        })
    }

    /// About 10,000 nodes.
    pub fn small() -> Self {
        Tree::binomial(256, 3)
    }

    /// About 30,000 nodes.
    pub fn medium() -> Self {
        Tree::binomial(1024, 3)
    }

    /// The answer by a plain recursive walk, independent of the library.
    pub fn count(&self) -> TreeStats {
        fn walk(shape: &TreeShape, hash: u64, depth: u32, stats: &mut TreeStats) {
            let c = shape.visit(hash, depth, stats);
            for k in 0..c {
                walk(shape, TreeShape::child(hash, k), depth + 1, stats);
            }
        }
        let mut stats = TreeStats::default();
        for &(hash, depth) in &self.stack {
            walk(&self.shape, hash, depth, &mut stats);
        }
        stats
    }
}

impl Task for Tree {
    type Output = TreeStats;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, TreeStats>) -> u64 {
        let mut done = 0;
        while done < budget {
            let Some((hash, depth)) = self.stack.pop() else {
                break;
            };
            let c = self.shape.visit(hash, depth, ctx.output());
            for k in (0..c).rev() {
                self.stack.push((TreeShape::child(hash, k), depth + 1));
            }
            done += 1;
        }
        done
    }

    fn split(&mut self) -> Option<Self> {
        if self.stack.len() < 2 {
            return None;
        }
        let k = self.stack.len() / 2;
        let given = self.stack.drain(..k).collect();
        Some(Tree {
            shape: self.shape,
            stack: given,
        })
    }

    fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}

// ---------------------------------------------------------------------------------------
// RangeSum

/// f(i): i itself for `spin == 0` (closed form sums), else `spin` rounds of an LCG mix.
pub fn f(i: u64, spin: u32) -> u64 {
    if spin == 0 {
        return i;
    }
    let mut x = i;
    for _ in 0..spin {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
            ^ (x >> 29);
    }
    x >> 40
}

/// Independent jobs over a range (paper 001 §14.5.1): Σ f(i) for i in lo..hi, one unit per
/// index, split at the middle; exact estimates and cuts anywhere. `panic_at` makes the unit
/// with that index panic.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RangeSum {
    pub lo: u64,
    pub hi: u64,
    pub panic_at: Option<u64>,
    pub spin: u32,
}

impl RangeSum {
    /// 0..n with f(i) = i.
    pub fn new(n: u64) -> Self {
        RangeSum {
            lo: 0,
            hi: n,
            panic_at: None,
            spin: 0,
        }
    }

    /// 0..n with a costlier f.
    pub fn spinning(n: u64, spin: u32) -> Self {
        RangeSum {
            spin,
            ..RangeSum::new(n)
        }
    }

    /// The answer by a plain loop.
    pub fn expected(&self) -> u64 {
        (self.lo..self.hi).map(|i| f(i, self.spin)).sum()
    }
}

impl Task for RangeSum {
    type Output = u64;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let end = self.hi.min(self.lo.saturating_add(budget));
        for i in self.lo..end {
            if Some(i) == self.panic_at {
                panic!("unit {i} is poisoned");
            }
            *ctx.output() += f(i, self.spin);
        }
        let done = end - self.lo;
        self.lo = end;
        done
    }
    fn split(&mut self) -> Option<Self> {
        if self.hi.saturating_sub(self.lo) < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let upper = RangeSum {
            lo: mid,
            ..self.clone()
        };
        self.hi = mid;
        Some(upper)
    }
    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }
    fn estimate(&self) -> Option<u64> {
        Some(self.hi.saturating_sub(self.lo))
    }
    fn split_at(&mut self, units: u64) -> Option<Self> {
        let cut = self.lo.checked_add(units.max(1))?;
        if cut >= self.hi {
            return None;
        }
        let rest = RangeSum {
            lo: cut,
            ..self.clone()
        };
        self.hi = cut;
        Some(rest)
    }
}

// ---------------------------------------------------------------------------------------
// Alpha

/// `units` units of work; a split hands over a fraction in [α, 1−α] of what is left, chosen
/// by a hash (paper 004's synthetic α-splitting tree). Output: units done.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Alpha {
    pub units: u64,
    pub alpha: f64,
    pub seed: u64,
}

impl Task for Alpha {
    type Output = u64;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let d = budget.min(self.units);
        self.units -= d;
        *ctx.output() += d;
        d
    }
    fn split(&mut self) -> Option<Self> {
        if self.units < 2 {
            return None;
        }
        let u = (mix(self.seed) >> 11) as f64 / (1u64 << 53) as f64;
        let fraction = self.alpha + (1.0 - 2.0 * self.alpha) * u;
        let given = ((self.units as f64 * fraction) as u64).clamp(1, self.units - 1);
        self.units -= given;
        let other = Alpha {
            units: given,
            alpha: self.alpha,
            seed: mix(self.seed ^ 1),
        };
        self.seed = mix(self.seed ^ 2);
        Some(other)
    }
    fn is_empty(&self) -> bool {
        self.units == 0
    }
    fn estimate(&self) -> Option<u64> {
        Some(self.units)
    }
}

// ---------------------------------------------------------------------------------------
// Jobs with estimates

/// Job i costs 1 + hash(i) mod 64 units and adds i·cost to the output; its estimate is
/// exact, or off by up to ±50 % with `noisy`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CostJob {
    pub seed: u64,
    pub noisy: bool,
}

impl CostJob {
    pub fn cost(&self, i: u64) -> u64 {
        1 + mix(self.seed ^ i) % 64
    }
}

impl IndexJob for CostJob {
    type Output = u64;
    fn run(&self, i: u64, ctx: &mut Context<'_, u64>) -> u64 {
        let c = self.cost(i);
        *ctx.output() += i * c;
        c
    }
    fn estimate(&self, i: u64) -> Option<u64> {
        let c = self.cost(i);
        Some(if self.noisy {
            (c / 2 + mix(i ^ 77) % (c + 1)).max(1)
        } else {
            c
        })
    }
}

/// n jobs of different sizes.
pub fn jobs(n: u64, seed: u64, noisy: bool) -> IndexRange<CostJob> {
    IndexRange::new(CostJob { seed, noisy }, 0, n)
}

/// (output, work units) of [`jobs`] by a plain loop.
pub fn jobs_expected(n: u64, seed: u64) -> (u64, u64) {
    let j = CostJob { seed, noisy: false };
    (0..n).fold((0, 0), |(o, u), i| (o + i * j.cost(i), u + j.cost(i)))
}

// ---------------------------------------------------------------------------------------
// Branch and bound

/// The best packing found: its profit and the set of items (a bit mask).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Best {
    pub profit: Option<i64>,
    pub mask: u64,
}

impl Outcome for Best {
    fn merge(&mut self, other: Self) {
        if (other.profit, other.mask) > (self.profit, self.mask) {
            *self = other;
        }
    }
}

/// A 0/1 knapsack (n ≤ 64 items, hash-driven profits and weights, sorted by profit per
/// weight) by depth-first branch and bound: a node's bound is its profit plus the fractional
/// relaxation of the items still undecided, and a node whose bound does not beat `ctx.best()` is pruned. Every complete packing found is
/// offered with `ctx.offer`. One unit per node.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Knap {
    /// (profit, weight) of each item.
    pub items: Vec<(i64, i64)>,
    pub capacity: i64,
    /// Open nodes: (next item, profit, weight, mask).
    pub stack: Vec<(usize, i64, i64, u64)>,
}

impl Knap {
    pub fn new(n: usize, seed: u64) -> Self {
        assert!(n <= 64);
        let items: Vec<(i64, i64)> = (0..n as u64)
            .map(|i| {
                let h = mix(seed ^ (i << 8));
                let w = 10 + (h % 90) as i64;
                // Strongly correlated profits make the search tree large.
                (w + 10 + ((h >> 16) % 3) as i64, w)
            })
            .collect();
        let mut items = items;
        // By profit per weight, best first, for the fractional bound.
        items.sort_by(|a, b| (b.0 * a.1).cmp(&(a.0 * b.1)));
        let capacity = items.iter().map(|&(_, w)| w).sum::<i64>() / 2;
        Knap {
            items,
            capacity,
            stack: vec![(0, 0, 0, 0)],
        }
    }

    /// The optimum by dynamic programming over capacities, independent of the library.
    pub fn optimum_by_dp(&self) -> i64 {
        let cap = self.capacity as usize;
        let mut best = vec![0i64; cap + 1];
        for &(p, w) in &self.items {
            for c in (w as usize..=cap).rev() {
                best[c] = best[c].max(best[c - w as usize] + p);
            }
        }
        best[cap]
    }

    /// (profit, weight) of the items in `mask`.
    pub fn packing(&self, mask: u64) -> (i64, i64) {
        self.items
            .iter()
            .enumerate()
            .filter(|(i, _)| mask >> i & 1 == 1)
            .fold((0, 0), |(p, w), (_, &(pi, wi))| (p + pi, w + wi))
    }

    /// An upper bound on the profit the items from `from` on add to a packing of `weight`:
    /// the fractional (greedy) relaxation.
    fn bound(&self, from: usize, weight: i64) -> i64 {
        let mut room = self.capacity - weight;
        let mut bound = 0;
        for &(p, w) in &self.items[from..] {
            if w <= room {
                room -= w;
                bound += p;
            } else {
                return bound + (p * room + w - 1) / w;
            }
        }
        bound
    }
}

impl Task for Knap {
    type Output = Best;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Best>) -> u64 {
        let mut done = 0;
        while done < budget {
            let Some((i, profit, weight, mask)) = self.stack.pop() else {
                break;
            };
            done += 1;
            if profit + self.bound(i, weight) <= ctx.best() {
                continue;
            }
            if i == self.items.len() {
                ctx.offer(profit);
                ctx.output().merge(Best {
                    profit: Some(profit),
                    mask,
                });
                continue;
            }
            let (p, w) = self.items[i];
            self.stack.push((i + 1, profit, weight, mask));
            if weight + w <= self.capacity {
                self.stack
                    .push((i + 1, profit + p, weight + w, mask | 1 << i));
            }
        }
        done
    }

    fn split(&mut self) -> Option<Self> {
        if self.stack.len() < 2 {
            return None;
        }
        let k = self.stack.len() / 2;
        Some(Knap {
            items: self.items.clone(),
            capacity: self.capacity,
            stack: self.stack.drain(..k).collect(),
        })
    }

    fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}

// ---------------------------------------------------------------------------------------
// Decision search with early stop

/// What a [`Find`] search saw: the smallest hit and how many indices were tested.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    pub hit: Option<u64>,
    pub tested: u64,
}

impl Outcome for Found {
    fn merge(&mut self, other: Self) {
        self.hit = match (self.hit, other.hit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.tested += other.tested;
    }
}

/// Tests indices lo..hi (one unit each) for being `target`; on a hit it records it, calls
/// `ctx.stop()` and empties itself. Split at the middle.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Find {
    pub lo: u64,
    pub hi: u64,
    pub target: u64,
}

impl Task for Find {
    type Output = Found;
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Found>) -> u64 {
        let mut done = 0;
        while done < budget && self.lo < self.hi {
            let i = self.lo;
            self.lo += 1;
            done += 1;
            ctx.output().tested += 1;
            if i == self.target {
                ctx.output().hit = Some(i);
                ctx.stop();
                self.lo = self.hi;
            }
        }
        done
    }
    fn split(&mut self) -> Option<Self> {
        if self.hi.saturating_sub(self.lo) < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let upper = Find {
            lo: mid,
            ..self.clone()
        };
        self.hi = mid;
        Some(upper)
    }
    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }
}
