//! The shared instance's table, its wire forms and the packed path encodings.

use super::*;

/// A test instance: a vector of words, digested by [`digest`].
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Words(Vec<u64>);

impl Content for Words {
    fn digest(&self) -> u64 {
        digest(self.0.iter().copied())
    }
}

/// A piece as an application sends it: the instance and a path of decisions.
#[derive(Serialize, Deserialize)]
struct Piece {
    instance: Sent<Words>,
    #[serde(with = "bits")]
    path: Vec<bool>,
}

#[test]
fn equal_contents_share_one_instance() {
    let a = Shared::new(Words(vec![1, 2, 3, 1001]));
    let b = Shared::new(Words(vec![1, 2, 3, 1001]));
    assert!(Arc::ptr_eq(a.arc(), b.arc()), "the held copy is reused");
    assert_eq!(a, b);
    let c = Shared::new(Words(vec![1, 2, 3, 1002]));
    assert_ne!(a.digest(), c.digest());
    assert!(!Arc::ptr_eq(a.arc(), c.arc()));
}

#[test]
fn a_piece_by_digest_finds_the_held_instance_and_is_small() {
    let instance = Shared::new(Words((0..1000).collect()));
    let root = Piece {
        instance: instance.whole(),
        path: vec![],
    };
    let later = Piece {
        instance: instance.by_digest(),
        path: vec![true, false, true],
    };
    let root_bytes = postcard::to_allocvec(&root).unwrap();
    let later_bytes = postcard::to_allocvec(&later).unwrap();
    assert!(
        root_bytes.len() > 1000,
        "the root carries the whole instance"
    );
    assert!(later_bytes.len() <= 16, "{} bytes", later_bytes.len());
    let got: Piece = postcard::from_bytes(&later_bytes).unwrap();
    assert_eq!(got.path, vec![true, false, true]);
    let received = got.instance.receive().unwrap();
    assert!(Arc::ptr_eq(received.arc(), instance.arc()));
}

#[test]
fn an_unknown_digest_is_an_error_naming_it() {
    let sent: Sent<Words> = Sent::Id(0x0123_4567_89ab_cdef);
    let e = sent.receive().unwrap_err();
    assert_eq!(e.digest, 0x0123_4567_89ab_cdef);
    assert!(e.to_string().contains("0123456789abcdef"), "{e}");
}

#[test]
fn a_whole_instance_received_is_held_and_found_by_type() {
    let words = Words(vec![7, 7, 7, 424242]);
    let d = words.digest();
    let bytes = postcard::to_allocvec(&Sent::Whole(Arc::new(words))).unwrap();
    let held = postcard::from_bytes::<Sent<Words>>(&bytes)
        .unwrap()
        .receive()
        .unwrap();
    assert_eq!(Shared::<Words>::find(d).unwrap(), held);
    assert!(
        Shared::<Other>::find(d).is_none(),
        "another type, same digest"
    );
    drop(held);
    assert!(
        Shared::<Words>::find(d).is_none(),
        "an instance leaves the table with its last holder"
    );
}

#[derive(Debug)]
struct Other;

impl Content for Other {
    fn digest(&self) -> u64 {
        0
    }
}

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
    assert!(
        postcard::from_bytes::<B>(&[9, 1, 0]).is_err(),
        "9 bits need 2 bytes"
    );
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
fn self_contained_bytes_carry_each_instance_once_and_decode_alone() {
    let words = Words((5000..6000).collect());
    let d = words.digest();
    let instance = Shared::new(words);
    let pieces: Vec<Piece> = (0..3)
        .map(|i| Piece {
            instance: instance.by_digest(),
            path: vec![i % 2 == 0],
        })
        .collect();
    let plain = postcard::to_allocvec(&pieces).unwrap();
    assert!(plain.len() < 64, "by digest: {} bytes", plain.len());
    let alone = self_contained(|| postcard::to_allocvec(&pieces)).unwrap();
    let once = postcard::to_allocvec(&instance.whole()).unwrap().len();
    assert!(
        alone.len() > once && alone.len() < once + 64,
        "the instance once ({once} bytes): {} bytes",
        alone.len()
    );
    let named = named_instances(&pieces).unwrap();
    assert_eq!(named.digests(), vec![d]);
    assert!(named.within(&named_instances(&instance.whole()).unwrap()));
    assert!(!named.within(&Instances::default()));
    drop((pieces, instance));
    assert!(Shared::<Words>::find(d).is_none(), "the instance was freed");
    let back: Vec<Piece> = postcard::from_bytes(&alone).unwrap();
    let held: Vec<Shared<Words>> = back
        .into_iter()
        .map(|p| p.instance.receive().unwrap())
        .collect();
    assert_eq!(held[0].0[0], 5000);
    assert!(Arc::ptr_eq(held[0].arc(), held[2].arc()));
}
