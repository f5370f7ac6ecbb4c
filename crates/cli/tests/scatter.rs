//! `treesplit scatter` and the hash table application: η measured beside the predictions,
//! the tail of the maximum load under each placement, the hash table equal to the sequential
//! dedup on threads and the simulator, and bad input as exit 2.

mod support;

use support::{json_of, stderr, stdout, treesplit, treesplit_with};

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
    let dir = std::env::temp_dir().join(format!("treesplit-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("keys.txt");
    std::fs::write(&good, "# keys\n5\n7\n5\n9\n7\n").unwrap();
    let o = treesplit(&[
        "run",
        "hashtable",
        "--file",
        good.to_str().unwrap(),
        "--q",
        "2",
        "--pes",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 distinct keys"), "{}", stdout(&o));
    assert!(stdout(&o).contains("eta measured"), "{}", stdout(&o));
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "5\n\nseven\n").unwrap();
    let o = treesplit(&[
        "run",
        "hashtable",
        "--file",
        bad.to_str().unwrap(),
        "--q",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.txt:3:"), "{}", stderr(&o));
    // `-`: the keys from standard input.
    let o = treesplit_with(
        &["run", "hashtable", "--file", "-", "--q", "2", "--pes", "2"],
        &[],
        Some(
            b"# keys
5
7
5
9
7
",
        ),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 distinct keys"), "{}", stdout(&o));
    let o = treesplit_with(
        &["run", "hashtable", "--file", "-", "--q", "2"],
        &[],
        Some(
            b"5

seven
",
        ),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("<stdin>:3:"), "{}", stderr(&o));
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
