//! Compact pieces (paper 002 §6.1, paper 001 §14.5.4): once the root problem has been
//! broadcast, a subproblem is the O(h)-bit path of decisions from the root, not a copy of the
//! instance. An application whose pieces point at a shared instance (`Arc`) registers the
//! instance here under a digest of its contents; a piece then travels as the digest plus its
//! path, and the receiving process finds the instance in its own registry — every process of
//! a run reads the same instance (MPI ranks each parse the command line), and the root piece
//! itself still carries the whole instance, which registers it where it arrives (the
//! simulator charges that broadcast as before). A piece whose instance is not known where it
//! arrives fails to deserialize with an error naming the digest, never a wrong answer.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Registered instances by (type, digest).
type Instances = HashMap<(std::any::TypeId, u64), Arc<dyn Any + Send + Sync>>;

/// The instances registered in this process.
static INSTANCES: Mutex<Option<Instances>> = Mutex::new(None);

/// FNV-1a over 64-bit words: the digest an instance is registered under.
pub fn digest(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Register `instance` under `id` (kept for the life of the process; registering again is
/// harmless) and return the registered copy.
pub fn register<T: Any + Send + Sync>(id: u64, instance: &Arc<T>) -> Arc<T> {
    let mut map = INSTANCES.lock().unwrap_or_else(|e| e.into_inner());
    let entry = map
        .get_or_insert_with(HashMap::new)
        .entry((std::any::TypeId::of::<T>(), id))
        .or_insert_with(|| Arc::clone(instance) as Arc<dyn Any + Send + Sync>);
    Arc::clone(entry)
        .downcast::<T>()
        .expect("the registry is keyed by type")
}

/// The instance registered under `id`, if any.
pub fn lookup<T: Any + Send + Sync>(id: u64) -> Option<Arc<T>> {
    let map = INSTANCES.lock().unwrap_or_else(|e| e.into_inner());
    map.as_ref()?
        .get(&(std::any::TypeId::of::<T>(), id))
        .map(|a| Arc::clone(a).downcast::<T>().expect("keyed by type"))
}

/// The instance of a piece on the wire: whole (the root) or by digest.
#[derive(Serialize, Deserialize)]
pub enum WireInstance<T> {
    /// The whole instance (the root's broadcast).
    Whole(T),
    /// The digest of a registered instance.
    Id(u64),
    /// The whole instance in a piece that is not the root: the representation before
    /// §6.1, kept so that its cost can be measured against the compact one (the piece's
    /// own splits travel this way too).
    Inline(T),
}

/// A vector of booleans as a bit string: its length, then 8 bits a byte.
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

/// A vector of 4-bit values as a nibble string: its length, then two values a byte. A value
/// above 15 is an error when serializing.
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
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct B(#[serde(with = "bits")] Vec<bool>);

    #[test]
    fn bit_strings_round_trip_and_are_short() {
        for n in [0usize, 1, 7, 8, 9, 100] {
            let v = B((0..n).map(|i| i % 3 == 0).collect());
            let bytes = postcard::to_allocvec(&v).unwrap();
            assert!(bytes.len() <= 2 + n.div_ceil(8) + 1, "{n}: {}", bytes.len());
            assert_eq!(postcard::from_bytes::<B>(&bytes).unwrap(), v);
        }
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct N(#[serde(with = "nibbles")] Vec<u8>);

    #[test]
    fn nibble_strings_round_trip_and_are_short() {
        for n in [0usize, 1, 2, 3, 100] {
            let v = N((0..n).map(|i| (i * 7 % 16) as u8).collect());
            let bytes = postcard::to_allocvec(&v).unwrap();
            assert!(bytes.len() <= 2 + n.div_ceil(2) + 1, "{n}: {}", bytes.len());
            assert_eq!(postcard::from_bytes::<N>(&bytes).unwrap(), v);
        }
        assert!(postcard::to_allocvec(&N(vec![16])).is_err());
        assert!(
            postcard::from_bytes::<N>(&[3, 1, 0]).is_err(),
            "3 nibbles need 2 bytes"
        );
    }

    #[test]
    fn registry_finds_by_type_and_digest() {
        let a = Arc::new(5u32);
        register(77, &a);
        assert_eq!(*lookup::<u32>(77).unwrap(), 5);
        assert!(lookup::<u64>(77).is_none());
        assert!(lookup::<u32>(78).is_none());
    }
}
