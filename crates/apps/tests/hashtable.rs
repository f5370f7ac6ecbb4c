//! The distributed hash table (paper 003, Example 2.1): the distinct keys equal a sequential
//! dedup under every balancer on threads and in the simulator, a bucket of X distinct keys
//! costs X(X+1)/2 units, the block assignment with q buckets per PE is exactly paper 003's
//! multiple assignment (each PE's units are the sum over its q buckets), a piece carries
//! only its own buckets' keys on the wire, and string keys (a key file's lines) count as a
//! `HashSet` of the strings does.

use std::collections::HashSet;
use std::time::Duration;
use treesplit::{run, run_sequential, simulate, BalancerKind, Config, Jobs, SimConfig, Task};
use treesplit_apps::hashtable::{dedup, generate, insert_bucket, read_keys, HashTable, Key, Text};
use treesplit_testkit::support::within;

#[test]
fn a_bucket_costs_x_x_plus_1_over_2() {
    for x in 0..20u64 {
        let keys: Vec<u64> = (0..x).map(|k| k * 7 + 1).collect();
        let (d, units) = insert_bucket(&keys);
        assert_eq!((d.count, units), (x, x * (x + 1) / 2));
    }
    // 5, 7, 5, 9: 5 links (1), 7: one comparison + link (2), 5: found at the first
    // comparison (1), 9: two comparisons + link (3).
    let (d, units) = insert_bucket(&[5u64, 7, 5, 9]);
    assert_eq!((d.count, units), (3, 7));
}

#[test]
fn key_files_are_lines_of_any_bytes() {
    let keys = |bytes: &[u8]| -> Vec<Vec<u8>> {
        read_keys(bytes, "f")
            .unwrap()
            .into_iter()
            .map(|k| k.to_vec())
            .collect()
    };
    let lines: Vec<Vec<u8>> = [&b"# keys"[..], b"5", b"", b" 7 ", b"5", b"\xff\xfe", b"a\r"]
        .iter()
        .map(|l| l.to_vec())
        .collect();
    assert_eq!(keys(b"# keys\n5\n\n 7 \n5\n\xff\xfe\na\r\n"), lines);
    // A last line without its newline is a key; an empty file has none; a lone newline is
    // the empty key.
    assert_eq!(keys(b"# keys\n5\n\n 7 \n5\n\xff\xfe\na\r"), lines);
    assert!(keys(b"").is_empty());
    assert_eq!(keys(b"\n"), vec![Vec::<u8>::new()]);
    assert_eq!(keys(b"\n\n"), vec![Vec::<u8>::new(), Vec::new()]);
}

/// Words from `seed`, `n` of them, drawn from `vocabulary` distinct ones (so with
/// duplicates), with non-numeric, empty, non-UTF-8 and numeric-looking ones among them.
fn words(n: usize, vocabulary: u64, seed: u64) -> Vec<Text> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = x % vocabulary;
            let word: Vec<u8> = match w % 5 {
                0 => format!("{w}").into_bytes(),
                1 => format!("0{w}").into_bytes(),
                2 => format!("word {w}").into_bytes(),
                3 => vec![0xff, (w % 251) as u8, (w / 251) as u8],
                _ if w.is_multiple_of(7) => Vec::new(),
                _ => format!("# {w}").into_bytes(),
            };
            word.into_boxed_slice()
        })
        .collect()
}

#[test]
fn string_keys_equal_a_hash_set_of_the_strings_on_threads_and_in_the_simulator() {
    let keys = words(6000, 2500, 11);
    let distinct: HashSet<&[u8]> = keys.iter().map(|k| &k[..]).collect();
    assert!(distinct.len() > 1000 && distinct.len() < keys.len());
    let want = dedup(&keys);
    assert_eq!(want.count, distinct.len() as u64);
    let root = HashTable::new(&keys, 96);
    let seq = run_sequential(root.clone());
    assert_eq!(seq.output, want);
    for &balancer in BalancerKind::ALL {
        let cfg = Config::new(4).balancer(balancer).delta_t(64).seed(3);
        let cfg = cfg
            .clone()
            .balancer(cfg.balancer.with_jobs(Jobs::PerPe(24)));
        let r = {
            let (root, cfg) = (root.clone(), cfg.clone());
            within(Duration::from_secs(120), move || {
                run(root, &cfg).expect("thread run").into_report()
            })
        };
        assert_eq!(r.output, want, "{balancer} threads");
        assert_eq!(r.totals.work_units, seq.work_units, "{balancer} threads");
        let s = simulate(root.clone(), &cfg, &SimConfig::default())
            .expect("simulation")
            .into_report();
        assert_eq!(s.report.output, want, "{balancer} sim");
    }
}

#[test]
fn a_string_hashes_to_its_bucket_by_a_fixed_hash() {
    // FNV-1a (64 bits) of the bytes: the published test values.
    assert_eq!(Text::from(&b""[..]).hash64(), 0xcbf2_9ce4_8422_2325);
    assert_eq!(Text::from(&b"a"[..]).hash64(), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(Text::from(&b"foobar"[..]).hash64(), 0x8594_4171_f739_67e8);
    // Integers are their own hash: generated keys go to the buckets they always did.
    assert_eq!(42u64.hash64(), 42);
}

#[test]
fn sequential_run_is_the_dedup_and_costs_the_sum_of_c() {
    let mut keys = generate(5000, 3);
    keys.extend_from_within(..700); // duplicates
    let m = 512;
    let root = HashTable::new(&keys, m);
    let seq = run_sequential(root.clone());
    assert_eq!(seq.output, dedup(&keys));
    assert_eq!(seq.output.count, 5000);
    let distinct = HashTable::new(&generate(5000, 3), m);
    let want: u64 = distinct
        .bucket_sizes()
        .iter()
        .map(|x| x * (x + 1) / 2)
        .sum();
    assert_eq!(run_sequential(distinct.clone()).work_units, want);
    assert_eq!(distinct.estimate(), Some(want));
}

#[test]
fn every_balancer_on_threads_and_in_the_simulator_equals_the_dedup() {
    let mut keys = generate(3000, 9);
    keys.extend_from_within(..300);
    let want = dedup(&keys);
    for &balancer in BalancerKind::ALL {
        for p in [1usize, 3, 4] {
            let q = 16;
            let root = HashTable::new(&keys, q * p as u64);
            let seq = run_sequential(root.clone());
            let cfg = Config::new(p).balancer(balancer).delta_t(64).seed(p as u64);
            let cfg = cfg.clone().balancer(cfg.balancer.with_jobs(Jobs::PerPe(q)));
            let r = {
                let (root, cfg) = (root.clone(), cfg.clone());
                within(Duration::from_secs(120), move || {
                    run(root, &cfg).expect("thread run").into_report()
                })
            };
            assert_eq!(r.output, want, "{balancer} threads P={p}");
            assert_eq!(
                r.totals.work_units, seq.work_units,
                "{balancer} threads P={p}"
            );
        }
        for p in [8usize, 64] {
            let q = 8;
            let root = HashTable::new(&keys, q * p as u64);
            let seq = run_sequential(root.clone());
            let cfg = Config::new(p).balancer(balancer).delta_t(16).seed(5);
            let cfg = cfg.clone().balancer(cfg.balancer.with_jobs(Jobs::PerPe(q)));
            let s = simulate(root, &cfg, &SimConfig::default())
                .expect("simulation")
                .into_report();
            assert_eq!(s.report.output, want, "{balancer} sim P={p}");
            assert_eq!(
                s.report.totals.work_units, seq.work_units,
                "{balancer} sim P={p}"
            );
        }
    }
}

#[test]
fn block_with_q_per_pe_is_paper_003s_multiple_assignment() {
    let (p, q) = (16usize, 32u64);
    let root = HashTable::new(&generate(20_000, 4), q * p as u64);
    let sizes = root.bucket_sizes();
    let cfg = Config::new(p).balancer(BalancerKind::Block).delta_t(16);
    let cfg = cfg.clone().balancer(cfg.balancer.with_jobs(Jobs::PerPe(q)));
    let s = simulate(root, &cfg, &SimConfig::default())
        .expect("simulation")
        .into_report();
    for pe in &s.report.per_pe {
        let block = &sizes[pe.pe * q as usize..(pe.pe + 1) * q as usize];
        let want: u64 = block.iter().map(|x| x * (x + 1) / 2).sum();
        assert_eq!(pe.counters.work_units, want, "PE {}", pe.pe);
    }
}

#[test]
fn a_piece_carries_only_its_buckets() {
    let keys = generate(4000, 1);
    let mut root = HashTable::new(&keys, 64);
    let whole = serde_json::to_string(&root).unwrap().len();
    let upper = root.split().expect("64 buckets split");
    assert_eq!(upper.bucket_sizes().len(), 32);
    let text = serde_json::to_string(&upper).unwrap();
    assert!(text.len() < whole * 6 / 10, "{} of {whole}", text.len());
    let back: HashTable = serde_json::from_str(&text).unwrap();
    assert_eq!(back.bucket_sizes(), upper.bucket_sizes());
    let (a, b) = (run_sequential(root).output, run_sequential(back).output);
    let mut both = a;
    treesplit::Outcome::merge(&mut both, b);
    assert_eq!(both, dedup(&keys));
}
