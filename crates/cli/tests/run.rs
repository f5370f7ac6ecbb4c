//! `treesplit run` and `treesplit trees`: the answer and the published value, the JSON
//! report, UTS trees from raw flags, bad input as exit 2 with a clear message, static
//! balancers' bags, thread counts past the cores, MPI launchers without the MPI machine, and
//! instances larger than the memory available, refused before their data is built.

mod support;

use support::{bad_input, stderr, stdout, treesplit, treesplit_env};

#[test]
fn run_prints_the_answer_and_the_published_value() {
    let o = treesplit(&["run", "nqueens", "9", "--pes", "3", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("nqueens 9: 352"), "{out}");
    assert!(out.contains("matches"), "{out}");
    assert!(out.contains("splitting depth h"), "{out}");
}

#[test]
fn json_report_has_result_totals_and_per_pe_counts() {
    let o = treesplit(&[
        "run",
        "uts",
        "T1-mini",
        "--pes",
        "4",
        "--seed",
        "5",
        "--json",
        "--baseline",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(j["result"]["nodes"], 63_914);
    assert_eq!(j["published"]["matches"], true);
    assert_eq!(j["report"]["totals"]["work_units"], 63_914);
    assert_eq!(j["report"]["per_pe"].as_array().unwrap().len(), 4);
    assert!(j["report"]["per_pe"][0]["requests_sent"].is_u64());
    assert!(j["efficiency"].as_f64().unwrap() > 0.0);
    assert_eq!(j["report"]["config"]["seed"], 5);
}

#[test]
fn sequential_baseline_and_synthetic() {
    let o = treesplit(&[
        "run",
        "synthetic",
        "--work",
        "100000",
        "--alpha",
        "0.25",
        "--sequential",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("100000 units"));
    let o = treesplit(&[
        "run",
        "synthetic",
        "--work",
        "100000",
        "--split",
        "adversarial",
        "--pes",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("matches"));
}

#[test]
fn raw_uts_flags_work() {
    let o = treesplit(&[
        "run", "uts", "-t", "0", "-b", "20", "-q", "0.124875", "-m", "8", "-r", "42", "--pes", "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("6213 nodes"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("T3-mini"),
        "named tree recognised from raw flags"
    );
}

#[test]
fn trees_lists_the_named_trees() {
    let o = treesplit(&["trees"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("T1L"));
    assert!(stdout(&o).contains("102181082"));
}

#[test]
fn bad_input_gets_a_clear_error_and_nonzero_exit() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "nqueens", "0"], "1 ≤ n ≤ 20"),
        (&["run", "nqueens", "25"], "1 ≤ n ≤ 20"),
        (&["run", "nqueens", "8", "--pes", "0"], "at least 1"),
        (&["run", "nqueens", "8", "--delta-t", "0"], "delta-t"),
        (
            &["run", "nqueens", "8", "--balancer", "magic"],
            "unknown balancer",
        ),
        (&["run", "nqueens", "eight"], "invalid value"),
        (&["run", "uts", "T99"], "unknown UTS tree"),
        (&["run", "uts", "-t", "7"], "tree type"),
        (&["run", "uts", "-q", "2"], "probability"),
        (&["run", "synthetic", "--alpha", "0.7"], "alpha"),
        (&["run", "synthetic", "--work", "0"], "work"),
        (&["run", "chess"], "unrecognized subcommand"),
        (&["bench", "nqueens", "8", "--repeat", "0"], "repeat"),
    ];
    for (args, expected) in cases {
        let o = treesplit(args);
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: '{err}' lacks '{expected}'"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

#[test]
fn static_balancers_say_what_they_need_and_measure_alpha() {
    // No bag size and no size estimates: 16 jobs per PE, said on stderr, the right answer.
    let o = treesplit(&[
        "run",
        "nqueens",
        "8",
        "--balancer",
        "random-static",
        "--pes",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("16 jobs per PE (m = 32)"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("nqueens 8: 92"), "{}", stdout(&o));
    // A huge bag cut from a small tree costs little (2^30 mostly empty jobs): it ends (the
    // runner's time limit catches only a hang).
    let o = treesplit(&[
        "run",
        "nqueens",
        "10",
        "--balancer",
        "random-static",
        "--h",
        "30",
        "--pes",
        "2",
        "--quiet",
    ]);
    assert!(stdout(&o).contains("nqueens 10: 724"), "{}", stderr(&o));
    // A huge bag of a big tree is cut lazily: a limit stops it at once, in little memory.
    for balancer in ["block", "random", "random-static"] {
        let o = treesplit(&[
            "run",
            "synthetic",
            "--work",
            "100000000",
            "--alpha",
            "0.3",
            "--pes",
            "2",
            "--balancer",
            balancer,
            "--h",
            "30",
            "--max-units",
            "1000",
            "--quiet",
        ]);
        assert_eq!(o.status.code(), Some(1), "{balancer}: {}", stderr(&o));
        assert!(stdout(&o).contains("partial"), "{balancer}: {}", stdout(&o));
    }
    // depth refuses depths it cannot finish.
    let o = treesplit(&["depth", "--max-h", "100"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--max-h 100: at most 24"),
        "{}",
        stderr(&o)
    );
    for bad in [
        &["--bundle", "fixed:0"][..],
        &["--bundle", "adaptive:x:1"][..],
        &["--static-permutation", "rot13"][..],
        &["--q", "0"][..],
        &["--h", "31"][..],
        &["--h-from-alpha", "0.9"][..],
    ] {
        let mut args = vec![
            "run",
            "nqueens",
            "8",
            "--balancer",
            "master-worker",
            "--quiet",
        ];
        args.extend_from_slice(bad);
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("error"), "{bad:?}: {}", stderr(&o));
    }
    // The synthetic tree has exact sizes: α is measured and h follows Theorem 3.
    let o = treesplit(&[
        "sim",
        "synthetic",
        "--work",
        "2000000",
        "--alpha",
        "0.3",
        "--pes",
        "16",
        "--balancer",
        "random-static",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("Theorem 3"), "{}", stderr(&o));
    assert!(stdout(&o).contains("matches"), "{}", stdout(&o));
    // --h-from-alpha works without estimates.
    let o = treesplit(&[
        "run",
        "nqueens",
        "9",
        "--pes",
        "2",
        "--balancer",
        "prefix-sum",
        "--h-from-alpha",
        "0.4",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("nqueens 9: 352"), "{}", stdout(&o));
}

#[test]
fn too_many_threads_fail_fast_and_oversubscription_is_said() {
    // More threads than a machine can start is bad input before any pool is built.
    let o = treesplit(&["bench", "nqueens", "6", "--pes", "100000"]);
    bad_input(&o, "bench --pes 100000", &["--pes 100000", "treesplit sim"]);
    let o = treesplit(&["run", "nqueens", "8", "--pes", "100000"]);
    bad_input(&o, "run --pes 100000", &["--pes 100000", "treesplit sim"]);
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let p = (4 * cores + 1).to_string();
    let o = treesplit(&["run", "nqueens", "6", "--pes", &p]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).matches("oversubscribed").count(),
        1,
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("treesplit sim"), "{}", stderr(&o));
    let o = treesplit(&["run", "nqueens", "6", "--pes", &p, "--quiet"]);
    assert_eq!(stderr(&o), "", "--quiet silences the warning");
}

/// Started by an MPI launcher without `--machine mpi`, a run would be P independent thread
/// runs: it says what to do instead.
#[test]
fn a_launcher_without_the_mpi_machine_is_bad_input() {
    let o = treesplit_env(
        &["run", "nqueens", "8"],
        &[("OMPI_COMM_WORLD_SIZE", "2"), ("OMPI_COMM_WORLD_RANK", "0")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--machine mpi"), "{}", stderr(&o));
}

#[test]
fn instances_larger_than_the_memory_available_are_refused_before_they_are_built() {
    // 1 GiB available: an R-MAT graph of 2^26 vertices (about 18 GiB to generate and search)
    // and 2^28 keys (about 6.5 GiB) are refused at once, naming both figures and what to
    // change; generating either would take minutes and run out of memory.
    let gib = [("TREESPLIT_MEMORY_MIB", "1024")];
    for args in [
        &["run", "bfs", "--rmat", "26"][..],
        &["sim", "bfs", "--rmat", "26", "--pes", "4"],
        &["bench", "bfs", "--rmat", "26", "--repeat", "1"],
        &["run", "bfs", "--rmat", "26", "--sequential"],
    ] {
        let o = treesplit_env(args, &gib);
        bad_input(
            &o,
            &format!("{args:?}"),
            &[
                "bfs: the instance needs about 18.",
                "67108864 vertices and 1073741824 edges",
                "more than the 1.0 GiB available (TREESPLIT_MEMORY_MIB)",
                "--rmat SCALE",
            ],
        );
    }
    let (keys, q) = ("268435456", "1048576");
    for args in [
        &["run", "hashtable", "--keys", keys, "--q", q, "--pes", "2"][..],
        &["sim", "hashtable", "--keys", keys, "--q", q, "--pes", "2"],
        &[
            "compare",
            "hashtable",
            "--keys",
            keys,
            "--q",
            q,
            "--pes",
            "2",
        ],
    ] {
        let o = treesplit_env(args, &gib);
        bad_input(
            &o,
            &format!("{args:?}"),
            &[
                "hashtable: the instance needs about",
                "268435456 keys in m = 2097152 buckets",
                "more than the 1.0 GiB available",
                "fewer keys",
            ],
        );
    }
    // 2^28 keys in 2 buckets: 2^27 keys a bucket take about 2^54 key comparisons, a run that
    // cannot end, whatever the memory.
    let o = treesplit(&["run", "hashtable", "--keys", keys, "--q", "1", "--pes", "2"]);
    bad_input(
        &o,
        "hashtable --q 1",
        &["134217728 keys a bucket", "key comparisons", "a larger --q"],
    );
    // Instances that fit run as before under the same figure.
    let o = treesplit_env(&["run", "bfs", "--rmat", "10", "--pes", "2"], &gib);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("reached"), "{}", stdout(&o));
    let o = treesplit_env(
        &[
            "run",
            "hashtable",
            "--keys",
            "100000",
            "--q",
            "64",
            "--pes",
            "2",
        ],
        &gib,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("100000 distinct keys"),
        "{}",
        stdout(&o)
    );
    // The figure itself must be a whole number of MiB.
    let o = treesplit_env(
        &["run", "nqueens", "6"],
        &[("TREESPLIT_MEMORY_MIB", "lots")],
    );
    bad_input(
        &o,
        "TREESPLIT_MEMORY_MIB=lots",
        &["TREESPLIT_MEMORY_MIB=lots", "MiB"],
    );
}
