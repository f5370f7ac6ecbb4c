//! `treesplit scatter` and the hash table application: η measured beside the predictions,
//! the tail of the maximum load under each placement, the hash table equal to the sequential
//! dedup on threads and the simulator (generated keys, and a key file's lines counted as a
//! set of strings), and bad input as exit 2.

mod support;

use std::collections::HashSet;
use support::{json_of, scratch, stderr, stdout, treesplit, treesplit_with};

#[test]
fn scatter_json_measures_eta_beside_the_predictions() {
    let j = json_of(&[
        "scatter", "--alpha", "1", "--q", "16", "--pes", "256", "--degree", "2", "--trials", "400",
    ]);
    for key in ["eta_measured", "eta_ci", "eta_predicted", "eta_exact"] {
        assert!(j[key].as_f64().is_some(), "{key}: {j}");
    }
    assert_eq!(j["regime"], "x-log", "{j}");
    let (m, ci, e) = (
        j["eta_measured"].as_f64().unwrap(),
        j["eta_ci"].as_f64().unwrap(),
        j["eta_exact"].as_f64().unwrap(),
    );
    assert!((m - e).abs() <= 1.6 * ci + 1e-3, "{j}");
    // Corollary 5.2 is a lower bound: the output says why it misses.
    assert_eq!(j["predicted_is_bound"], true);
    assert!(j["why"].as_str().unwrap().contains("lower bound"), "{j}");
    // Single assignment, α = Θ(1): the leading-term formula is far off at P = 1024; said so.
    let j = json_of(&[
        "scatter", "--alpha", "1", "--pes", "1024", "--trials", "300",
    ]);
    assert_eq!(j["regime"], "theta-one");
    assert!(j["why"].as_str().unwrap().contains("leading term"), "{j}");
    // A sweep: one point per (α, q, d, P).
    let j = json_of(&[
        "scatter", "--alpha", "1", "--q", "1,4", "--degree", "1,2", "--pes", "64", "--trials", "50",
    ]);
    assert_eq!(j["points"].as_array().unwrap().len(), 4);
}

#[test]
fn scatter_tail_shows_round_robin_failing_and_theorem_2() {
    let j = json_of(&[
        "scatter",
        "tail",
        "--pes",
        "64",
        "--c",
        "4",
        "--epsilon",
        "0.5",
        "--trials",
        "500",
    ]);
    let pl = j["placements"].as_array().unwrap();
    assert_eq!(pl[2]["placement"], "round-robin");
    assert_eq!(pl[2]["tail"], 1.0);
    assert!(pl[1]["mean_max_over_avg"].as_f64() <= pl[0]["mean_max_over_avg"].as_f64());
    assert_eq!(j["permutation_no_worse"], true);
    assert!(j["bounds"]["theorem2"].as_f64().is_some());
    let j = json_of(&[
        "scatter", "tail", "--sizes", "heavy", "--pes", "16", "--trials", "50",
    ]);
    assert!(
        j["theorem14_1_adversary"]["mean_max_over_avg"]
            .as_f64()
            .is_some(),
        "{j}"
    );
}

#[test]
fn hashtable_equals_the_sequential_dedup_on_threads_and_sim() {
    for args in [
        &[
            "run",
            "hashtable",
            "--keys",
            "5000",
            "--q",
            "8",
            "--pes",
            "3",
        ][..],
        &[
            "run",
            "hashtable",
            "--keys",
            "5000",
            "--q",
            "8",
            "--pes",
            "2",
            "--balancer",
            "block",
            "--check",
        ],
        &[
            "sim",
            "hashtable",
            "--keys",
            "5000",
            "--q",
            "8",
            "--pes",
            "64",
            "--balancer",
            "round-robin",
        ],
        &[
            "run",
            "hashtable",
            "--keys",
            "5000",
            "--q",
            "8",
            "--sequential",
        ],
    ] {
        let mut a = args.to_vec();
        a.push("--quiet");
        let j = json_of(&a);
        assert_eq!(j["published"]["matches"], true, "{args:?}: {j}");
        assert_eq!(j["result"]["count"], 5000, "{args:?}");
    }
}

/// The distinct lines of `bytes` (every line a key, an empty one too; a last line without
/// its newline too): an independent sequential count.
fn distinct_lines(bytes: &[u8]) -> usize {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    if bytes.is_empty() {
        return 0;
    }
    body.split(|&b| b == b'\n')
        .collect::<HashSet<&[u8]>>()
        .len()
}

#[test]
fn hashtable_counts_the_distinct_lines_of_a_key_file() {
    let dir = scratch("keys");
    // Words, numbers written two ways, an empty line, a `#` line, spaces, bytes that are not
    // UTF-8, and a last line without its newline.
    let text: &[u8] =
        b"apple\nbanana\napple\n\n# not a comment\n\n  apple\nbanana\n\xff\xfe\n42\n042\nlast";
    assert_eq!(distinct_lines(text), 9);
    let file = dir.join("words.txt");
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    for args in [
        &["run", "hashtable", "--file", path, "--q", "2", "--pes", "2"][..],
        &[
            "run",
            "hashtable",
            "--file",
            path,
            "--q",
            "3",
            "--sequential",
        ],
        &["sim", "hashtable", "--file", path, "--q", "2", "--pes", "8"],
    ] {
        let o = treesplit(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("9 distinct keys"),
            "{args:?}: {}",
            stdout(&o)
        );
        assert!(stdout(&o).contains("matches"), "{args:?}: {}", stdout(&o));
    }
    // `-`: the same keys from standard input.
    let o = treesplit_with(
        &["run", "hashtable", "--file", "-", "--q", "2", "--pes", "2"],
        &[],
        Some(text),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("9 distinct keys"), "{}", stdout(&o));
    // Many keys with duplicates: the count a HashSet of the lines gives, on threads and in
    // the simulator, with equal checksums.
    let mut many = Vec::new();
    let mut x = 7u64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let w = x % 9_000;
        many.extend_from_slice(
            match w % 3 {
                0 => format!("{w}\n"),
                1 => format!("key {w}\n"),
                _ => format!("{}\n", "é".repeat(w as usize % 40)),
            }
            .as_bytes(),
        );
    }
    let want = distinct_lines(&many);
    assert!(want > 3_000 && want < 20_000, "{want}");
    let file = dir.join("many.txt");
    std::fs::write(&file, &many).unwrap();
    let path = file.to_str().unwrap();
    let mut checksums = HashSet::new();
    for args in [
        &[
            "run",
            "hashtable",
            "--file",
            path,
            "--q",
            "16",
            "--pes",
            "3",
        ][..],
        &[
            "sim",
            "hashtable",
            "--file",
            path,
            "--q",
            "4",
            "--pes",
            "64",
        ],
    ] {
        let mut a = args.to_vec();
        a.push("--quiet");
        let j = json_of(&a);
        assert_eq!(j["result"]["count"], want, "{args:?}: {j}");
        assert_eq!(j["published"]["matches"], true, "{args:?}: {j}");
        checksums.insert(j["result"]["checksum"].clone());
    }
    assert_eq!(checksums.len(), 1, "{checksums:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scatter_and_hashtable_bad_input_exits_2() {
    for args in [
        &["scatter", "--alpha", "0"][..],
        &["scatter", "--alpha", "-1"],
        &["scatter", "--alpha", "nan"],
        &["scatter", "--alpha", "1", "--q", "0"],
        &["scatter", "--alpha", "1", "--degree", "0"],
        &["scatter", "--alpha", "1", "--degree", "7"],
        &["scatter", "--alpha", "1", "--pes", "1"],
        &["scatter", "--alpha", "1", "--trials", "1"],
        &[
            "scatter",
            "--alpha",
            "1",
            "--q",
            "18446744073709551615",
            "--pes",
            "16777216",
        ],
        &[
            "scatter", "--alpha", "1e6", "--degree", "6", "--q", "1000", "--trials", "2",
        ],
        &[
            "scatter",
            "--alpha",
            "1",
            "--cost",
            "hashtable",
            "--degree",
            "3",
        ],
        &["scatter", "--alpha", "1", "--svg", "x.txt"],
        &["scatter"],
        &["scatter", "tail", "--epsilon", "0"],
        &["scatter", "tail", "--c", "-1"],
        &["scatter", "tail", "--sizes", "uniform", "--c", "2"],
        &["scatter", "tail", "--pes", "64", "--jobs", "10"],
        &["run", "hashtable", "--keys", "100"],
        &["run", "hashtable", "--keys", "100", "--q", "0"],
        &["run", "hashtable", "--q", "4"],
        &[
            "run",
            "hashtable",
            "--keys",
            "10",
            "--file",
            "k.txt",
            "--q",
            "4",
        ],
        &["run", "hashtable", "--keys", "99999999999999", "--q", "4"],
        &[
            "sim",
            "hashtable",
            "--keys",
            "10",
            "--q",
            "4294967296",
            "--pes",
            "64",
        ],
        &[
            "run",
            "hashtable",
            "--file",
            "/nonexistent/keys.txt",
            "--q",
            "4",
        ],
        &["bench", "hashtable", "--keys", "10"],
    ] {
        let o = treesplit(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("error"), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}
