//! The hash table's keys: what a key is to the table ([`Key`]: equality, a fixed 64-bit
//! hash, what a chain holds of it), the two kinds of keys (unsigned 64-bit integers and byte
//! strings, [`Text`]), generated keys and key files.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};

/// A key of the hash table: compared for equality in the chains, hashed to its bucket with a
/// fixed hash (the same in every run and on every platform, whatever the seed), and sent on
/// the wire with the pieces.
pub trait Key:
    Clone + Default + Eq + Hash + Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// What a chain holds of a key to compare it with the next ones: the key itself where it
    /// is a word, a reference to its bytes otherwise.
    type Ref<'a>: Copy + Eq
    where
        Self: 'a;

    /// The key as a chain holds it.
    fn as_ref(&self) -> Self::Ref<'_>;

    /// The key's fixed 64-bit hash (mixed further for its bucket and the checksum).
    fn hash64(&self) -> u64;

    /// Insert a bucket of these keys into an empty chain ([`insert_bucket`](super::insert_bucket)).
    fn insert_bucket(keys: &[Self]) -> (super::Distinct, u64) {
        super::insert_refs(keys)
    }

    /// Bytes the key takes in memory beside the slot that holds it (a string's bytes).
    fn heap_bytes(&self) -> u64 {
        0
    }
}

/// Integer keys are their own hash.
impl Key for u64 {
    type Ref<'a> = u64;

    #[inline]
    fn as_ref(&self) -> u64 {
        *self
    }

    #[inline]
    fn hash64(&self) -> u64 {
        *self
    }

    fn insert_bucket(keys: &[u64]) -> (super::Distinct, u64) {
        super::insert_words(keys)
    }
}

/// A key read from a file: the bytes of one line (any bytes, UTF-8 or not).
pub type Text = Box<[u8]>;

/// String keys hash by FNV-1a (64 bits) of their bytes.
impl Key for Text {
    type Ref<'a> = &'a [u8];

    fn as_ref(&self) -> &[u8] {
        self
    }

    fn hash64(&self) -> u64 {
        let mut h = fnv::FnvHasher::default();
        h.write(self);
        h.finish()
    }

    /// The allocator's block for the bytes (16-byte granules with an 8-byte header, at least
    /// 32 bytes; none for the empty string).
    fn heap_bytes(&self) -> u64 {
        if self.is_empty() {
            0
        } else {
            (self.len() as u64 + 8).next_multiple_of(16).max(32)
        }
    }
}

/// N keys from a seed: random 64-bit values (distinct with overwhelming probability, the
/// paper's no-redundancy assumption).
pub fn generate(n: u64, seed: u64) -> Vec<u64> {
    let base = super::mix(seed ^ 0xD1B5_4A32_D192_ED03);
    (0..n).map(|i| super::mix(base.wrapping_add(i))).collect()
}

/// The keys of a key file's bytes: every line is one key, its bytes without the line's `\n`
/// (any bytes: UTF-8 or not, spaces, `#` and a `\r` before the `\n` are part of the key), an
/// empty line the empty key, and a last line without `\n` a key too; so the distinct keys
/// are the lines `LC_ALL=C sort -u FILE` prints. At most [`MAX_KEYS`](super::MAX_KEYS) keys;
/// errors name the file `name`.
pub fn read_keys(bytes: &[u8], name: &str) -> Result<Vec<Text>, String> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let lines = body.split(|&b| b == b'\n');
    let count =
        bytes.iter().filter(|&&b| b == b'\n').count() as u64 + u64::from(!bytes.ends_with(b"\n"));
    if count > super::MAX_KEYS {
        return Err(format!(
            "{name}: {count} keys (lines), more than the {} accepted",
            super::MAX_KEYS
        ));
    }
    Ok(lines.map(Box::from).collect())
}
