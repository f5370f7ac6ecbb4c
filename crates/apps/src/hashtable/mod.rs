//! The distributed hash table of paper 003, Example 2.1, as a tree-shaped computation.
//!
//! N keys are hashed into m = P·q buckets: subtable i (PE i under the block assignment, paper
//! 003's multiple assignment) holds buckets i·q..(i+1)·q. Processing a bucket inserts its X
//! keys into an initially empty chain, one after another, with a redundancy check against
//! every key already in the chain: the i-th key (from 0) costs i real key comparisons and one
//! link when it is new, so a bucket of X distinct keys costs X(X+1)/2 work units, the paper's
//! c(X); a duplicate stops at the comparison that finds it and is dropped. The result is the
//! set of distinct keys: their count and a checksum (wrapping sum of a hash of each), equal to
//! a sequential dedup ([`dedup`], a `HashSet`) whatever the machine, balancer and P.
//!
//! Keys ([`Key`]) are unsigned 64-bit integers (`--keys N`, generated from a seed) or byte
//! strings (`--file F`, one key a line, [`read_keys`]). A key's bucket and its share of the
//! checksum come from a fixed 64-bit hash of it, the same in every run, on every platform and
//! whatever the seed: an integer is its own hash; a string's hash is FNV-1a (64 bits) of its
//! bytes. The bucket is that hash mixed by the splitmix64 finalizer ([`mix`]) with a salt and
//! scaled to 0..m; the checksum adds the hash mixed without the salt.
//!
//! A piece is a range of buckets lo..hi over a shared table (splitting costs O(1): the range
//! is halved, the lower ⌈n/2⌉ buckets kept, so that a static balancer's job j is bucket j).
//! On the wire a piece carries only its own buckets' keys (the scattered data travels with
//! the work). A bucket is indivisible: a slice that ends inside one owes the rest of its
//! units to the next slices, as `treesplit::task::range` does.

use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;
use treesplit::{Context, Outcome, Task};

mod keys;
pub use keys::{generate, read_keys, Key, Text};

/// Most keys accepted (generated, or the lines of a key file).
pub const MAX_KEYS: u64 = 1 << 28;

/// Most buckets accepted.
pub const MAX_BUCKETS: u64 = 1 << 30;

/// The distinct keys found: count and checksum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Distinct {
    /// Distinct keys.
    pub count: u64,
    /// Wrapping sum of `mix(key's hash)` over the distinct keys.
    pub checksum: u64,
}

impl Outcome for Distinct {
    fn merge(&mut self, other: Self) {
        self.count += other.count;
        self.checksum = self.checksum.wrapping_add(other.checksum);
    }
}

/// Not a search: runs agree when their distinct keys do.
impl crate::objective::Objective for Distinct {
    fn objective(&self) -> Option<u64> {
        None
    }
}

impl fmt::Display for Distinct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} distinct keys, checksum {:016x}",
            self.count, self.checksum
        )
    }
}

/// The splitmix64 finalizer: the checksum's hash and, salted, the bucket hash.
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The bucket of a key whose hash is `hash` among `m`: an (ideally random) hash scaled to
/// 0..m.
pub fn bucket(hash: u64, m: u64) -> u64 {
    ((u128::from(mix(hash ^ 0x5851_F42D_4C95_7F2D)) * u128::from(m)) >> 64) as u64
}

/// The sequential dedup the runs must equal (a `HashSet` of the keys).
pub fn dedup<K: Key>(keys: &[K]) -> Distinct {
    let set: HashSet<&K> = keys.iter().collect();
    Distinct {
        count: set.len() as u64,
        checksum: set
            .iter()
            .fold(0u64, |s, k| s.wrapping_add(mix(k.hash64()))),
    }
}

/// c(X) = X(X+1)/2.
fn cost(x: u64) -> u64 {
    x * (x + 1) / 2
}

/// Buckets first..first+counts.len() and their keys, grouped by bucket.
#[derive(Debug)]
struct Table<K> {
    first: u64,
    /// offsets[b − first]..offsets[b − first + 1] are bucket b's keys.
    offsets: Vec<u64>,
    keys: Vec<K>,
    /// Σ c(X) over the buckets before: the estimate (exact without duplicates).
    cost_prefix: Vec<u64>,
}

impl<K> Table<K> {
    fn from_counts(first: u64, counts: &[u64], keys: Vec<K>) -> Self {
        let mut offsets = Vec::with_capacity(counts.len() + 1);
        let mut cost_prefix = Vec::with_capacity(counts.len() + 1);
        let (mut o, mut c) = (0u64, 0u64);
        offsets.push(0);
        cost_prefix.push(0);
        for &x in counts {
            o += x;
            c += cost(x);
            offsets.push(o);
            cost_prefix.push(c);
        }
        Table {
            first,
            offsets,
            keys,
            cost_prefix,
        }
    }

    fn keys_of(&self, b: u64) -> &[K] {
        let i = (b - self.first) as usize;
        &self.keys[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Estimated units of buckets lo..hi.
    fn cost(&self, lo: u64, hi: u64) -> u64 {
        self.cost_prefix[(hi - self.first) as usize] - self.cost_prefix[(lo - self.first) as usize]
    }
}

/// A piece of the hash table's insertion batch: buckets lo..hi, of keys `K` (integers unless
/// named).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "Wire<K>", from = "Wire<K>")]
#[serde(bound(serialize = "K: Key", deserialize = "K: Key"))]
pub struct HashTable<K = u64> {
    table: Arc<Table<K>>,
    lo: u64,
    hi: u64,
    owed: u64,
}

/// A piece on the wire: its own buckets' key counts and keys only.
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "K: Serialize",
    deserialize = "K: serde::de::DeserializeOwned"
))]
struct Wire<K> {
    lo: u64,
    owed: u64,
    counts: Vec<u64>,
    keys: Vec<K>,
}

impl<K: Clone> From<HashTable<K>> for Wire<K> {
    fn from(h: HashTable<K>) -> Wire<K> {
        let t = &h.table;
        let (a, b) = ((h.lo - t.first) as usize, (h.hi - t.first) as usize);
        Wire {
            lo: h.lo,
            owed: h.owed,
            counts: t.offsets[a..=b].windows(2).map(|w| w[1] - w[0]).collect(),
            keys: t.keys[t.offsets[a] as usize..t.offsets[b] as usize].to_vec(),
        }
    }
}

impl<K> From<Wire<K>> for HashTable<K> {
    fn from(w: Wire<K>) -> HashTable<K> {
        let hi = w.lo + w.counts.len() as u64;
        HashTable {
            table: Arc::new(Table::from_counts(w.lo, &w.counts, w.keys)),
            lo: w.lo,
            hi,
            owed: w.owed,
        }
    }
}

impl<K: Key> HashTable<K> {
    /// The batch inserting `keys` into a table of `m` ≥ 1 buckets.
    pub fn new(keys: &[K], m: u64) -> Self {
        let mut counts = vec![0u64; m as usize];
        let buckets: Vec<u64> = keys.iter().map(|k| bucket(k.hash64(), m)).collect();
        for &b in &buckets {
            counts[b as usize] += 1;
        }
        // Counting sort by bucket, keeping the input order within a bucket.
        let mut next: Vec<u64> = Vec::with_capacity(m as usize);
        let mut o = 0;
        for &c in &counts {
            next.push(o);
            o += c;
        }
        let mut grouped = vec![K::default(); keys.len()];
        for (k, &b) in keys.iter().zip(&buckets) {
            grouped[next[b as usize] as usize] = k.clone();
            next[b as usize] += 1;
        }
        HashTable {
            table: Arc::new(Table::from_counts(0, &counts, grouped)),
            lo: 0,
            hi: m,
            owed: 0,
        }
    }

    /// The number of keys in each bucket of this piece.
    pub fn bucket_sizes(&self) -> Vec<u64> {
        (self.lo..self.hi)
            .map(|b| self.table.keys_of(b).len() as u64)
            .collect()
    }
}

/// Insert a bucket's keys into an empty chain with redundancy checks: the distinct keys and
/// the units (comparisons, plus one link per new key).
pub fn insert_bucket<K: Key>(keys: &[K]) -> (Distinct, u64) {
    K::insert_bucket(keys)
}

/// [`insert_bucket`] of any keys: the chain holds what [`Key::as_ref`] makes of them.
fn insert_refs<K: Key>(keys: &[K]) -> (Distinct, u64) {
    let mut chain: Vec<K::Ref<'_>> = Vec::with_capacity(keys.len());
    let mut units = 0u64;
    let mut out = Distinct::default();
    for k in keys {
        let k_ref = k.as_ref();
        let mut dup = false;
        for &c in &chain {
            units += 1;
            if c == k_ref {
                dup = true;
                break;
            }
        }
        if !dup {
            units += 1;
            chain.push(k_ref);
            out.count += 1;
            out.checksum = out.checksum.wrapping_add(mix(k.hash64()));
        }
    }
    (out, units)
}

/// [`insert_bucket`] of integer keys: the chain is a vector of words, scanned by value (this
/// loop runs about a fifth faster than [`insert_refs`] on words).
fn insert_words(keys: &[u64]) -> (Distinct, u64) {
    let mut chain: Vec<u64> = Vec::with_capacity(keys.len());
    let mut units = 0u64;
    let mut out = Distinct::default();
    for &k in keys {
        let mut dup = false;
        for &c in &chain {
            units += 1;
            if c == k {
                dup = true;
                break;
            }
        }
        if !dup {
            units += 1;
            chain.push(k);
            out.count += 1;
            out.checksum = out.checksum.wrapping_add(mix(k));
        }
    }
    (out, units)
}

impl<K: Key> Task for HashTable<K> {
    type Output = Distinct;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Distinct>) -> u64 {
        let mut done = self.owed;
        while self.lo < self.hi && done < budget {
            let (found, units) = insert_bucket(self.table.keys_of(self.lo));
            ctx.output().merge(found);
            done += units;
            self.lo += 1;
        }
        let reported = done.min(budget);
        self.owed = done - reported;
        reported
    }

    fn split(&mut self) -> Option<Self> {
        if self.hi.saturating_sub(self.lo) < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo).div_ceil(2);
        let upper = HashTable {
            table: Arc::clone(&self.table),
            lo: mid,
            hi: self.hi,
            owed: 0,
        };
        self.hi = mid;
        Some(upper)
    }

    /// Empty buckets cost nothing: a piece whose buckets hold no keys is done.
    fn is_empty(&self) -> bool {
        self.owed == 0 && (self.lo >= self.hi || self.table.cost(self.lo, self.hi) == 0)
    }

    /// X(X+1)/2 per bucket (exact when the keys are distinct), plus the units owed.
    fn estimate(&self) -> Option<u64> {
        Some(self.owed + self.table.cost(self.lo, self.hi))
    }

    fn split_at(&mut self, units: u64) -> Option<Self> {
        let t = &self.table;
        let (a, end) = ((self.lo - t.first) as usize, (self.hi - t.first) as usize);
        let base = t.cost_prefix[a];
        // Keep the most buckets whose units stay within `units`, at least one.
        let fit = t.cost_prefix[a..=end].partition_point(|&c| c - base <= units);
        let cut = self.lo + (fit as u64).saturating_sub(1).max(1);
        if cut >= self.hi {
            return None;
        }
        let rest = HashTable {
            table: Arc::clone(&self.table),
            lo: cut,
            hi: self.hi,
            owed: 0,
        };
        self.hi = cut;
        Some(rest)
    }
}

pub mod app;
pub mod spec;

pub use spec::{HashtableSpec, KeySource};
