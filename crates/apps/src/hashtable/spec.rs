//! A hash table instance as the command line names it: where its keys come from, q buckets
//! per PE and P, and the keys themselves (generated keys on first use, once the command line
//! has compared the instance's memory estimate, [`Instance::footprint`], with the machine's),
//! handed to a visitor as the task of its kind of keys. Its q (`--q`) and the seed of its keys
//! (`--instance-seed`, else `--seed`) are its own parameters, set with P once the machine is known
//! ([`Instance::adapt`]).

use super::{dedup, generate, HashTable, Key, Text, MAX_BUCKETS};
use crate::instance::{Footprint, Instance, Scattered};
use crate::spec::{AppVisitor, Published};
use std::sync::{Arc, OnceLock};

/// The most key comparisons a run may take (about 2.8·10^14: days at a few ns each).
pub const MAX_WORK: u64 = 1 << 48;

/// The keys of an instance, of one kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keys {
    /// Unsigned 64-bit integers (generated).
    Numbers(Arc<Vec<u64>>),
    /// Byte strings (a key file's lines).
    Text(Arc<Vec<Text>>),
}

impl Keys {
    /// How many.
    pub fn len(&self) -> usize {
        match self {
            Keys::Numbers(k) => k.len(),
            Keys::Text(k) => k.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How the keys were given.
#[derive(Debug, Clone, PartialEq)]
pub enum KeySource {
    /// `--keys N`, generated from the seed.
    Generated {
        /// N.
        n: u64,
        /// The seed.
        seed: u64,
    },
    /// `--file F`.
    File(std::path::PathBuf),
}

/// The hash table instance: keys, q buckets per PE and P.
#[derive(Debug, Clone)]
pub struct HashtableSpec {
    /// Where the keys come from.
    pub source: KeySource,
    /// The keys, once read or generated (shared by the instance's clones).
    keys: Arc<OnceLock<Keys>>,
    /// Buckets per PE (subtable size).
    pub q: u64,
    /// PEs (subtables).
    pub pes: u64,
}

impl PartialEq for HashtableSpec {
    fn eq(&self, other: &Self) -> bool {
        let keys_agree = match self.source {
            // The same source, seed and number: the same keys.
            KeySource::Generated { .. } => true,
            KeySource::File(_) => self.keys() == other.keys(),
        };
        self.source == other.source && self.q == other.q && self.pes == other.pes && keys_agree
    }
}

impl HashtableSpec {
    /// `n` keys generated from `seed` (on first use), in `q` buckets per PE on `pes` PEs.
    pub fn generated(n: u64, seed: u64, q: u64, pes: u64) -> Self {
        HashtableSpec {
            source: KeySource::Generated { n, seed },
            keys: Arc::new(OnceLock::new()),
            q,
            pes,
        }
    }

    /// The keys read from `path` (a key file's lines); q and P are set by
    /// [`HashtableSpec::adapt`].
    pub fn read(path: std::path::PathBuf, keys: Vec<Text>) -> Self {
        HashtableSpec {
            source: KeySource::File(path),
            keys: Arc::new(OnceLock::from(Keys::Text(Arc::new(keys)))),
            q: 0,
            pes: 0,
        }
    }

    /// The keys, generated now if they are generated keys not generated yet.
    pub fn keys(&self) -> &Keys {
        self.keys.get_or_init(|| match self.source {
            KeySource::Generated { n, seed } => Keys::Numbers(Arc::new(generate(n, seed))),
            KeySource::File(_) => unreachable!("a key file is read when the instance is made"),
        })
    }

    /// N, the number of keys (known before generated keys are generated).
    pub fn len(&self) -> u64 {
        match self.source {
            KeySource::Generated { n, .. } => n,
            KeySource::File(_) => self.keys().len() as u64,
        }
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// m = P·q.
    pub fn buckets(&self) -> u64 {
        self.q * self.pes
    }

    /// α = N/m, the load factor.
    pub fn alpha(&self) -> f64 {
        self.len() as f64 / self.buckets() as f64
    }
}

impl Instance for HashtableSpec {
    /// The hash table of these keys (of their kind), checked against a sequential dedup.
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        match self.keys() {
            Keys::Numbers(keys) => visit_table(visitor, keys, self.buckets()),
            Keys::Text(keys) => visit_table(visitor, keys, self.buckets()),
        }
    }

    fn cli_args(&self) -> String {
        match &self.source {
            KeySource::Generated { n, seed } => {
                format!("hashtable --keys {n} --q {} --instance-seed {seed}", self.q)
            }
            KeySource::File(f) => format!("hashtable --file {} --q {}", f.display(), self.q),
        }
    }

    /// With its table's size and load factor.
    fn describe(&self) -> String {
        format!(
            "{} ({} keys in m = P·q = {} buckets, load factor α = {:.3})",
            self.cli_args(),
            self.len(),
            self.buckets(),
            self.alpha()
        )
    }

    /// ~1-2 ns per key comparison.
    fn default_delta_t(&self) -> u64 {
        8192
    }

    /// q is the subtable size, the seed draws generated keys.
    fn takes(&self, option: crate::app::RunOption) -> bool {
        use crate::app::RunOption;
        matches!(option, RunOption::JobsPerPe | RunOption::Seed)
    }

    fn draws_instance(&self) -> bool {
        matches!(self.source, KeySource::Generated { .. })
    }

    fn scattered(&self) -> Option<Scattered> {
        Some(Scattered {
            items: self.len() as usize,
            q: self.q,
            alpha: self.alpha(),
        })
    }

    /// The subtable size q (`--q`, required), P (subtables) and the seed of generated keys
    /// (`--instance-seed`, else `--seed`).
    fn adapt(&mut self, q: Option<u64>, pes: usize, seed: Option<u64>) -> Result<(), String> {
        let q = q.ok_or("hashtable needs --q Q, the buckets per PE (subtable size; m = P·q)")?;
        if q == 0 {
            return Err("hashtable --q must be at least 1".into());
        }
        let m = (q as u128) * (pes.max(1) as u128);
        if m > u128::from(MAX_BUCKETS) {
            return Err(format!(
                "hashtable: m = P·q = {m} buckets is more than the supported {MAX_BUCKETS}"
            ));
        }
        // The work, about N(α+1)/2 key comparisons for α = N/m keys a bucket (each bucket's
        // c(X) = X(X+1)/2): too many is a run that cannot end.
        let n = self.len();
        let work = (n as u128) * ((n as u128).div_ceil(m) + 1) / 2;
        if work > u128::from(MAX_WORK) {
            return Err(format!(
                "hashtable: {n} keys in m = P·q = {m} buckets (α = {:.0} keys a bucket) take about {work:.1e} key comparisons (a bucket of X keys takes X(X+1)/2), more than the {MAX_WORK:.1e} a run may take (days of work); use a larger --q or fewer keys",
                n as f64 / m as f64,
                work = work as f64,
                MAX_WORK = MAX_WORK as f64,
            ));
        }
        self.q = q;
        self.pes = pes.max(1) as u64;
        if let KeySource::Generated { seed: s, .. } = &mut self.source {
            *s = seed.unwrap_or(1);
            self.keys = Arc::new(OnceLock::new());
        }
        Ok(())
    }

    /// The memory a run of this instance takes at its peak, in bytes, for N keys in m = P·q
    /// buckets: the keys (8 bytes an integer; 16 bytes and the allocator's block of its bytes
    /// a string); then the larger of the sequential check's hash set (a power of two ≥ 8N/7
    /// slots of 9 bytes), building the table (each key's bucket, 8 bytes, a copy of the keys
    /// grouped by bucket, and four arrays of 8 bytes a bucket) and the run (the table, the keys
    /// and 16 bytes a bucket; the chains of the P PEs, a word or a reference a key of the
    /// fullest bucket each; and the copy of a piece's keys as it is sent or measured, the keys
    /// and 8 bytes a bucket).
    fn footprint(&self) -> Option<Footprint> {
        let n = self.len();
        // Bytes of all keys and of one chain entry.
        let (held, chain_entry) = match self.source {
            KeySource::Generated { .. } => (n.saturating_mul(8), 8),
            KeySource::File(_) => match self.keys() {
                Keys::Text(k) => (k.iter().map(|k| 16 + k.heap_bytes()).sum(), 16),
                Keys::Numbers(k) => (k.len() as u64 * 8, 8),
            },
        };
        let m = self.buckets().max(1);
        let slots = (n.saturating_mul(8) / 7 + 1)
            .checked_next_power_of_two()
            .unwrap_or(u64::MAX);
        let check = slots.saturating_mul(9);
        let build = n
            .saturating_mul(8)
            .saturating_add(held)
            .saturating_add(m.saturating_mul(32));
        // The fullest bucket: about α = N/m, plus a margin for the hash's spread.
        let alpha = n.div_ceil(m);
        let largest_bucket = alpha.saturating_add(alpha / 4).saturating_add(16);
        let chains = largest_bucket
            .saturating_mul(self.pes.clamp(1, m))
            .saturating_mul(chain_entry);
        let run = held
            .saturating_mul(2)
            .saturating_add(m.saturating_mul(24))
            .saturating_add(chains);
        Some(Footprint {
            bytes: held.saturating_add(check.max(build).max(run)),
            what: format!("{n} keys in m = {m} buckets"),
            smaller: "use fewer keys (--keys N, a shorter --file) or a smaller --q",
        })
    }
}

/// The hash table of `keys` in `m` buckets, checked against the sequential dedup.
fn visit_table<K: Key, V: AppVisitor>(visitor: V, keys: &Arc<Vec<K>>, m: u64) -> V::Out {
    let keys = Arc::clone(keys);
    let expected = dedup(&keys);
    visitor.visit(
        move || HashTable::new(&keys, m),
        move |d| {
            Some(Published {
                source: "sequential dedup (HashSet)".into(),
                value: expected.to_string(),
                matches: *d == expected,
            })
        },
    )
}
