//! A large instance sent once, and pieces that name it by digest (paper 002 §6.1, paper 001
//! §14.5.4).
//!
//! A search over a large instance (a knapsack's items, a DAG to schedule) splits into pieces
//! that all read the same instance. Once the root problem has been sent, a piece needs only
//! its O(h)-bit path of decisions from the root, not a copy of the instance. [`Shared`] is
//! that instance: an `Arc` identified by a digest of its contents ([`Content::digest`]).
//! A piece's serde form holds a [`Sent`]: the instance whole (the root's, which travels
//! first) or only its digest; on arrival [`Sent::receive`] finds the instance by its digest
//! among those this process holds.
//!
//! **Which instances a process holds.** Every [`Shared`] made or received in a process is
//! entered in the process's table of instances by type and digest, and stays there while any
//! piece, root or caller holds it (the table keeps weak references, so an instance is freed
//! with its last holder). Within one run, the root piece carries the whole instance and enters
//! it where it arrives; on MPI every rank also builds the root from the same input, so every
//! rank holds the instance before the first piece arrives. A piece whose instance is not held
//! where it arrives fails to deserialize with an error naming the digest
//! ([`UnknownInstance`]), never a wrong answer.
//!
//! **Files that stand alone.** A checkpoint must decode in a process that holds no instance
//! yet (a `resume` reads it before anything else), so pieces are written to a file inside
//! [`self_contained`]: there the first piece that names an instance carries it whole and the
//! later ones name it by digest, as on the wire within a run. Decoding the file in order
//! enters the instance with its first piece. [`named_instances`] lists the instances a
//! value names, so that a reader can tell whether a file's pieces belong to an instance it
//! built itself.
//!
//! [`bits`] and [`nibbles`] are the compact serde forms of a path: decisions as one bit each,
//! alternatives as four bits each.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, Mutex, Weak};

/// Data identified by its contents: equal contents give equal digests, and different
/// contents (in practice) different ones.
pub trait Content: Send + Sync + 'static {
    /// The digest of the contents ([`digest`] computes one from 64-bit words).
    fn digest(&self) -> u64;
}

/// FNV-1a over the bytes of 64-bit words (little-endian): a digest for [`Content`].
pub fn digest(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The instances this process holds, by type and digest (weak: an instance leaves with its
/// last holder); dead entries are swept when the table has doubled since the last sweep.
struct Table {
    entries: HashMap<(TypeId, u64), Weak<dyn Any + Send + Sync>>,
    sweep_at: usize,
}

static TABLE: Mutex<Option<Table>> = Mutex::new(None);

fn with_table<R>(f: impl FnOnce(&mut Table) -> R) -> R {
    let mut guard = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(|| Table {
        entries: HashMap::new(),
        sweep_at: 64,
    }))
}

/// A read-only instance shared by the pieces of a computation and sent whole only once
/// (module docs). Cloning is cheap (an `Arc`).
pub struct Shared<T: Content> {
    value: Arc<T>,
    digest: u64,
}

impl<T: Content> Shared<T> {
    /// Share `value`: the instance this process already holds with the same digest, or
    /// `value` itself, entered in the table.
    pub fn new(value: T) -> Self {
        Self::from_arc(Arc::new(value))
    }

    /// [`Shared::new`] for a value already in an `Arc`.
    pub fn from_arc(value: Arc<T>) -> Self {
        let digest = value.digest();
        let key = (TypeId::of::<T>(), digest);
        let value = with_table(|table| {
            if let Some(held) = table.entries.get(&key).and_then(Weak::upgrade) {
                return held.downcast::<T>().expect("the table is keyed by type");
            }
            let any: Arc<dyn Any + Send + Sync> = value.clone();
            table.entries.insert(key, Arc::downgrade(&any));
            if table.entries.len() >= table.sweep_at {
                table.entries.retain(|_, w| w.strong_count() > 0);
                table.sweep_at = (2 * table.entries.len()).max(64);
            }
            value
        });
        Shared { value, digest }
    }

    /// The instance with `digest` that this process holds, if any.
    pub fn find(digest: u64) -> Option<Self> {
        let held = with_table(|table| {
            table
                .entries
                .get(&(TypeId::of::<T>(), digest))
                .and_then(Weak::upgrade)
        })?;
        let value = held.downcast::<T>().expect("the table is keyed by type");
        Some(Shared { value, digest })
    }

    /// The digest pieces name the instance by.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// The instance as an `Arc`.
    pub fn arc(&self) -> &Arc<T> {
        &self.value
    }

    /// The instance on the wire, whole (the root's piece).
    pub fn whole(&self) -> Sent<T> {
        Sent::Whole(Arc::clone(&self.value))
    }

    /// The instance on the wire, by digest (any piece but the root's).
    pub fn by_digest(&self) -> Sent<T> {
        Sent::Id(self.digest)
    }

    /// The instance on the wire, whole in a piece that is not the root's: the representation
    /// without §6.1's compact pieces, kept to measure what the compact one saves.
    pub fn inline(&self) -> Sent<T> {
        Sent::Inline(Arc::clone(&self.value))
    }
}

/// [`Shared::from_arc`].
impl<T: Content> From<Arc<T>> for Shared<T> {
    fn from(value: Arc<T>) -> Self {
        Shared::from_arc(value)
    }
}

impl<T: Content> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared {
            value: Arc::clone(&self.value),
            digest: self.digest,
        }
    }
}

impl<T: Content> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: Content + fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shared")
            .field("digest", &format_args!("{:016x}", self.digest))
            .field("value", &self.value)
            .finish()
    }
}

/// Equal when the contents are (by digest).
impl<T: Content> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        self.digest == other.digest
    }
}

/// A [`Shared`] instance as a piece carries it.
#[derive(Debug, Deserialize)]
pub enum Sent<T> {
    /// The whole instance (the root's piece).
    Whole(Arc<T>),
    /// The digest of an instance the receiver holds.
    Id(u64),
    /// The whole instance in a piece that is not the root's ([`Shared::inline`]).
    Inline(Arc<T>),
}

/// What serializing does with instances on this thread, inside [`self_contained`] or
/// [`named_instances`]: the instances written so far (by type and digest), and whether the
/// first mention of each is written whole.
struct Scope {
    whole_once: bool,
    named: BTreeSet<(TypeId, u64)>,
}

thread_local! {
    static SCOPE: RefCell<Vec<Scope>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` in a scope of this thread's serializing, and return what it noted.
fn in_scope<R>(whole_once: bool, f: impl FnOnce() -> R) -> (R, BTreeSet<(TypeId, u64)>) {
    SCOPE.with(|s| {
        s.borrow_mut().push(Scope {
            whole_once,
            named: BTreeSet::new(),
        })
    });
    // Pop the scope even if `f` unwinds, so that a caught panic leaves no scope behind.
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            SCOPE.with(|s| s.borrow_mut().pop());
        }
    }
    let pop = Pop;
    let r = f();
    let named = SCOPE.with(|s| {
        s.borrow_mut()
            .last_mut()
            .map(|s| std::mem::take(&mut s.named))
    });
    drop(pop);
    (r, named.unwrap_or_default())
}

/// Serialize in `f` so that what is written stands alone: the first [`Sent`] naming each
/// instance (by digest) is written whole, with the instance as this process holds it, and the
/// later ones by digest. Decoding the bytes in order then needs no instance held beforehand.
/// A checkpoint file is written this way.
pub fn self_contained<R>(f: impl FnOnce() -> R) -> R {
    in_scope(true, f).0
}

/// The shared instances a value names (by type and digest), whole or by digest: two values
/// whose pieces name the same instances belong to the same instance.
pub fn named_instances<V: Serialize + ?Sized>(value: &V) -> Result<Instances, String> {
    let (written, named) = in_scope(false, || postcard::to_io(value, std::io::sink()).map(drop));
    written.map_err(|e| e.to_string())?;
    Ok(Instances(named))
}

/// The shared instances a value names ([`named_instances`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Instances(BTreeSet<(TypeId, u64)>);

impl Instances {
    /// True when every instance `self` names is one `other` names too.
    pub fn within(&self, other: &Instances) -> bool {
        self.0.is_subset(&other.0)
    }

    /// The digests, in order.
    pub fn digests(&self) -> Vec<u64> {
        self.0.iter().map(|&(_, d)| d).collect()
    }
}

/// The serde form of [`Sent`] (the derived form of the same enum, by reference).
#[derive(Serialize)]
#[serde(rename = "Sent")]
enum SentRef<'a, T> {
    Whole(&'a T),
    Id(u64),
    Inline(&'a T),
}

/// As derived, except inside [`self_contained`] (the first mention of an instance is written
/// whole) and [`named_instances`] (the instances are noted).
impl<T: Content + Serialize> Serialize for Sent<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let scoped = SCOPE.with(|scope| {
            let mut scope = scope.borrow_mut();
            let scope = scope.last_mut()?;
            let digest = match self {
                Sent::Id(d) => *d,
                Sent::Whole(v) | Sent::Inline(v) => v.digest(),
            };
            let first = scope.named.insert((TypeId::of::<T>(), digest));
            Some(scope.whole_once && first)
        });
        match self {
            Sent::Id(d) if scoped == Some(true) => match Shared::<T>::find(*d) {
                Some(held) => SentRef::Whole(&*held.value).serialize(s),
                None => Err(serde::ser::Error::custom(format!(
                    "instance {d:016x} is not held in this process, so it cannot be written with its pieces"
                ))),
            },
            Sent::Id(d) => SentRef::<T>::Id(*d).serialize(s),
            Sent::Whole(v) => SentRef::Whole(&**v).serialize(s),
            Sent::Inline(v) => SentRef::Inline(&**v).serialize(s),
        }
    }
}

impl<T: Content> Sent<T> {
    /// True for [`Sent::Inline`].
    pub fn is_inline(&self) -> bool {
        matches!(self, Sent::Inline(_))
    }

    /// The instance this names: a whole one is entered in the table (or the held copy with
    /// its digest is used); a digest must name an instance this process holds.
    pub fn receive(self) -> Result<Shared<T>, UnknownInstance> {
        match self {
            Sent::Whole(value) | Sent::Inline(value) => Ok(Shared::from_arc(value)),
            Sent::Id(digest) => Shared::find(digest).ok_or(UnknownInstance { digest }),
        }
    }
}

/// A piece named an instance by a digest this process does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownInstance {
    /// The digest.
    pub digest: u64,
}

impl fmt::Display for UnknownInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instance {:016x} is not known in this process (pieces travel as paths from the root; every process must hold the instance)",
            self.digest
        )
    }
}

impl std::error::Error for UnknownInstance {}

/// A vector of booleans as a bit string (`#[serde(with = "bits")]`): its length, then 8 bits
/// a byte.
pub mod bits {
    use super::*;

    /// Serialize `v` as (length, packed bytes).
    pub fn serialize<S: Serializer>(v: &[bool], s: S) -> Result<S::Ok, S::Error> {
        let mut bytes = vec![0u8; v.len().div_ceil(8)];
        for (i, &b) in v.iter().enumerate() {
            bytes[i / 8] |= u8::from(b) << (i % 8);
        }
        (v.len() as u64, bytes).serialize(s)
    }

    /// Deserialize what [`serialize`] wrote.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<bool>, D::Error> {
        let (len, bytes): (u64, Vec<u8>) = Deserialize::deserialize(d)?;
        if bytes.len() as u64 != len.div_ceil(8) {
            return Err(serde::de::Error::custom("bit string of the wrong length"));
        }
        Ok((0..len as usize)
            .map(|i| bytes[i / 8] >> (i % 8) & 1 == 1)
            .collect())
    }
}

/// A vector of 4-bit values as a nibble string (`#[serde(with = "nibbles")]`): its length,
/// then two values a byte. A value above 15 is an error when serializing.
pub mod nibbles {
    use super::*;

    /// Serialize `v` as (length, packed bytes).
    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        let mut bytes = vec![0u8; v.len().div_ceil(2)];
        for (i, &x) in v.iter().enumerate() {
            if x > 15 {
                return Err(serde::ser::Error::custom("a nibble above 15"));
            }
            bytes[i / 2] |= x << (4 * (i % 2));
        }
        (v.len() as u64, bytes).serialize(s)
    }

    /// Deserialize what [`serialize`] wrote.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let (len, bytes): (u64, Vec<u8>) = Deserialize::deserialize(d)?;
        if bytes.len() as u64 != len.div_ceil(2) {
            return Err(serde::de::Error::custom(
                "nibble string of the wrong length",
            ));
        }
        Ok((0..len as usize)
            .map(|i| bytes[i / 2] >> (4 * (i % 2)) & 15)
            .collect())
    }
}

#[cfg(test)]
mod tests;
