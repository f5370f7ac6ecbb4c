//! The `treesplit` binary: answers, JSON, and clear errors (never a panic) on bad input.

mod chrome_trace;
mod cli_support;

use chrome_trace::check_chrome_trace;
use cli_support::{stderr, stdout, treesplit, treesplit_env, treesplit_with};
use std::process::{Command, Output};

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
fn trees_lists_the_named_trees() {
    let o = treesplit(&["trees"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("T1L"));
    assert!(stdout(&o).contains("102181082"));
}

#[test]
fn bench_reports_ratios() {
    let o = treesplit(&[
        "bench", "nqueens", "10", "--pes", "2", "--repeat", "1", "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(j["series"].as_array().unwrap().len(), 4);
    assert!(j["speedup_treesplit"].as_f64().unwrap() > 0.0);
}

const SIM: &[&str] = &[
    "sim",
    "nqueens",
    "8",
    "--pes",
    "16",
    "--net",
    "hypercube",
    "--t-rout",
    "10",
    "--t-split",
    "5",
    "--delta-t",
    "20",
    "--delay",
    "exp:4",
    "--seed",
    "3",
];

#[test]
fn sim_output_is_reproducible_byte_for_byte() {
    let a = treesplit(SIM);
    assert!(a.status.success(), "{}", stderr(&a));
    let b = treesplit(SIM);
    assert_eq!(a.stdout, b.stdout, "same seed, different output");
    let out = stdout(&a);
    assert!(out.contains("nqueens 8: 92"), "{out}");
    assert!(out.contains("Theorem 1"), "{out}");
    assert!(out.contains("termination detected"), "{out}");
    assert!(stderr(&a).contains("events/s"), "speed goes to stderr");
}

#[test]
fn sim_json_and_pictures() {
    let dir = std::env::temp_dir().join(format!("treesplit-cli-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("gantt.svg");
    let png = dir.join("util.png");
    let o = treesplit(&[
        "sim",
        "uts",
        "T1-mini",
        "--pes",
        "8",
        "--json",
        "--gantt",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(j["result"]["nodes"], 63_914);
    assert_eq!(j["simulation"]["report"]["totals"]["work_units"], 63_914);
    assert!(j["simulation"]["theorem1"]["h"].as_u64().unwrap() > 0);
    assert!(j["simulation"]["termination_delay"].is_u64());
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    // Above the timeline limit the picture is the utilization curve.
    let o = treesplit(&[
        "sim",
        "nqueens",
        "9",
        "--pes",
        "600",
        "--gantt",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sim_bad_input_gets_a_clear_error() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["sim", "nqueens", "8", "--net", "torus"],
            "unknown network",
        ),
        (&["sim", "nqueens", "8", "--delay", "gauss:3"], "bad delay"),
        (
            &["sim", "nqueens", "8", "--pes", "4", "--slow", "9:2"],
            "does not exist",
        ),
        (
            &["sim", "nqueens", "8", "--slow", "1:x"],
            "not a valid value",
        ),
        (
            &["sim", "nqueens", "8", "--empty-splits", "2"],
            "empty-splits",
        ),
        (&["sim", "nqueens", "8", "--t-rout", "0"], "t-rout"),
        (
            &["sim", "nqueens", "8", "--gantt", "out.txt"],
            ".svg or .png",
        ),
    ];
    for (args, expected) in cases {
        let o = treesplit(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: '{err}' lacks '{expected}'"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

#[test]
fn dst_command_runs_and_counts() {
    let o = treesplit(&["dst", "--cases", "25", "--seed", "100"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("25 passed, 0 failed"), "{}", stdout(&o));
}

#[test]
fn dst_cases_replay_exactly_from_their_command_line() {
    // The replay line `treesplit dst` prints (with only the flags that apply) reproduces the
    // case bit for bit.
    for seed in 0..40u64 {
        if treesplit_lab::dst_systems::is_system_seed(seed) {
            continue; // a system case (dst_systems), replayed by its seed
        }
        let case = treesplit_lab::dst::Case::random(seed, 64);
        let (t_par, messages, splits) = case.fingerprint().expect("case runs");
        let seed_text = seed.to_string();
        let o = treesplit(&[
            "dst",
            "--cases",
            "1",
            "--seed",
            &seed_text,
            "--max-pes",
            "64",
            "--json",
        ]);
        assert!(o.status.success(), "seed {seed}: {}", stderr(&o));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
        let line = j["slowest"]["replay"]
            .as_str()
            .expect("replay line")
            .to_string();
        let mut args: Vec<&str> = line.split_whitespace().skip(1).collect();
        args.push("--json");
        let o = treesplit(&args);
        assert!(o.status.success(), "{line}: {}", stderr(&o));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
        let r = &j["simulation"]["report"];
        assert_eq!(r["t_par"].as_f64(), Some(t_par), "seed {seed}: {line}");
        assert_eq!(
            r["totals"]["messages"].as_u64(),
            Some(messages),
            "seed {seed}: {line}"
        );
        assert_eq!(
            r["totals"]["splits"].as_u64(),
            Some(splits),
            "seed {seed}: {line}"
        );
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(["trees"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    drop(child.stdout.take()); // the reader goes away at once
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let _ = child.wait();
    assert!(!err.contains("panicked"), "{err}");
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
    // A huge bag cut from a small tree costs little (2^30 mostly empty jobs).
    let start = std::time::Instant::now();
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
    assert!(
        start.elapsed().as_secs() < 10,
        "--h 30 took {:?}",
        start.elapsed()
    );
    // A huge bag of a big tree is cut lazily: a limit stops it at once, in little memory.
    for balancer in ["block", "random", "random-static"] {
        let start = std::time::Instant::now();
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
        assert!(
            start.elapsed().as_secs() < 10,
            "{balancer}: {:?}",
            start.elapsed()
        );
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
fn searches_check_published_answers_and_bad_files_name_file_and_line() {
    let o = treesplit(&[
        "run",
        "knapsack",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testkit/data/knapsack/knapPI_1_100_1000_1.txt"
        ),
        "--pes",
        "2",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("profit 9147") && stdout(&o).contains("matches"),
        "{}",
        stdout(&o)
    );
    let o = treesplit(&["run", "golomb", "7", "--pes", "2", "--quiet"]);
    assert!(
        o.status.success() && stdout(&o).contains("length 25"),
        "{}",
        stdout(&o)
    );
    let o = treesplit(&[
        "sim",
        "puzzle15",
        "--korf",
        "79",
        "--korf-file",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../apps/data/korf100.tsv"),
        "--pes",
        "16",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("optimal length 42") && stdout(&o).contains("matches"),
        "{}",
        stdout(&o)
    );
    let o = treesplit(&[
        "run",
        "puzzle15",
        "--korf",
        "79",
        "--korf-file",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../apps/data/korf100.tsv"),
        "--pes",
        "1",
        "--quiet",
    ]);
    assert!(
        stdout(&o).contains("540860 nodes — matches"),
        "{}",
        stdout(&o)
    );
    // Bad instances: a clear error naming the file and line, exit code 2.
    let dir = std::env::temp_dir().join(format!("treesplit-cli-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# x\n3 100\n5 6\n7 -8\n").unwrap();
    let o = treesplit(&["run", "knapsack", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.txt:4: the weight is negative"),
        "{}",
        stderr(&o)
    );
    let o = treesplit(&["run", "knapsack", dir.join("missing.txt").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
    for (args, want) in [
        (
            &[
                "run",
                "puzzle15",
                "--tiles",
                "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15",
            ][..],
            "parity",
        ),
        (&["run", "puzzle15", "--tiles", "1 2 3"][..], "16 numbers"),
        (
            &[
                "run",
                "puzzle15",
                "--korf",
                "101",
                "--korf-file",
                concat!(env!("CARGO_MANIFEST_DIR"), "/../apps/data/korf100.tsv"),
            ][..],
            "no instance 101",
        ),
        (&["run", "puzzle15"][..], "--korf K or --tiles"),
        (&["run", "golomb", "17"][..], "2 ≤ n ≤ 16"),
    ] {
        let o = treesplit(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const KORF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../apps/data/korf100.tsv");

/// `args` with `--json`: exit 0 and exactly one JSON document on stdout.
fn json_of(args: &[&str]) -> serde_json::Value {
    let mut args = args.to_vec();
    args.push("--json");
    let o = treesplit(&args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)))
}

#[test]
fn every_subcommand_prints_json() {
    let j = json_of(&["run", "nqueens", "8", "--pes", "2", "--quiet"]);
    assert_eq!(j["result"], 92);
    let j = json_of(&["run", "nqueens", "8", "--sequential"]);
    assert_eq!(j["result"], 92);
    let j = json_of(&["sim", "nqueens", "8", "--pes", "8"]);
    assert_eq!(j["result"], 92);
    let j = json_of(&["bench", "golomb", "6", "--pes", "2", "--repeat", "1"]);
    assert!(j["search_overhead"].as_f64().unwrap() > 0.0, "{j}");
    let j = json_of(&[
        "compare",
        "nqueens",
        "7",
        "--pes",
        "8",
        "--balancers",
        "random-polling,random-shift",
    ]);
    assert_eq!(j.as_array().unwrap().len(), 2, "{j}");
    let j = json_of(&["dst", "--cases", "3"]);
    assert_eq!(j["passed"], 3, "{j}");
    let j = json_of(&["depth", "--pes", "4", "--work", "20000", "--max-h", "6"]);
    assert_eq!(j["rows"].as_array().unwrap().len(), 1, "{j}");
    let j = json_of(&["trees"]);
    assert!(
        j.as_array().unwrap().iter().any(|t| t["name"] == "T1L"),
        "{j}"
    );
}

#[test]
fn puzzle15_json_on_threads_and_sim() {
    for args in [
        &[
            "run",
            "puzzle15",
            "--korf",
            "79",
            "--korf-file",
            KORF,
            "--pes",
            "1",
            "--quiet",
        ][..],
        &[
            "run",
            "puzzle15",
            "--korf",
            "79",
            "--korf-file",
            KORF,
            "--pes",
            "2",
            "--quiet",
        ][..],
        &[
            "sim",
            "puzzle15",
            "--korf",
            "79",
            "--korf-file",
            KORF,
            "--pes",
            "16",
        ][..],
        &[
            "run",
            "puzzle15",
            "--korf",
            "79",
            "--korf-file",
            KORF,
            "--sequential",
        ][..],
    ] {
        let j = json_of(args);
        assert_eq!(j["result"]["length"], 42, "{args:?}: {j}");
        assert!(
            j["published"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["matches"] == true),
            "{args:?}: {j}"
        );
    }
}

#[test]
fn quiet_prints_no_notes_or_progress() {
    let dir = std::env::temp_dir().join(format!("treesplit-quiet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("c.svg");
    for args in [
        &["run", "nqueens", "8", "--pes", "2", "--quiet"][..],
        &["sim", "nqueens", "8", "--pes", "8", "--quiet"][..],
        &[
            "sim",
            "synthetic",
            "--work",
            "200000",
            "--pes",
            "8",
            "--balancer",
            "random-static",
            "--quiet",
        ][..],
        &[
            "bench", "nqueens", "8", "--pes", "2", "--repeat", "1", "--quiet",
        ][..],
        &[
            "compare",
            "nqueens",
            "7",
            "--pes",
            "8",
            "--quiet",
            "--svg",
            svg.to_str().unwrap(),
        ][..],
        &["dst", "--cases", "2", "--quiet"][..],
        &[
            "depth", "--pes", "4", "--work", "20000", "--max-h", "6", "--quiet",
        ][..],
        &["trees", "--quiet"][..],
    ] {
        let o = treesplit(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?} printed on stderr");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flags_that_do_not_apply_are_rejected() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "nqueens", "8", "--bundle", "fixed:2"], "--bundle"),
        (&["run", "nqueens", "8", "--adaptive"], "--adaptive"),
        (
            &[
                "run",
                "nqueens",
                "8",
                "--balancer",
                "poll-and-shuffle",
                "--adaptive-c",
                "2",
            ],
            "--adaptive-c",
        ),
        (
            &["run", "nqueens", "8", "--adaptive-gamma", "0.5"],
            "--adaptive-gamma",
        ),
        (
            &["run", "nqueens", "8", "--permutation", "pseudorandom"],
            "--permutation",
        ),
        (&["run", "nqueens", "8", "--round", "20"], "--round"),
        (&["run", "nqueens", "8", "--sync", "local"], "--sync"),
        (
            &[
                "sim",
                "nqueens",
                "8",
                "--balancer",
                "global-round-robin",
                "--round",
                "20",
            ],
            "--round",
        ),
        (
            &["run", "nqueens", "8", "--neighbourhood", "ring"],
            "--neighbourhood",
        ),
        (&["run", "nqueens", "8", "--h", "4"], "--h"),
        (&["run", "nqueens", "8", "--q", "4"], "--q"),
        (
            &["run", "nqueens", "8", "--h-from-alpha", "0.3"],
            "--h-from-alpha",
        ),
        (
            &[
                "run",
                "nqueens",
                "8",
                "--balancer",
                "block",
                "--q",
                "2",
                "--static-permutation",
                "lcg",
            ],
            "--static-permutation",
        ),
        (
            &[
                "run",
                "nqueens",
                "8",
                "--balancer",
                "master-worker",
                "--h",
                "4",
                "--atomic-jobs",
            ],
            "--atomic-jobs",
        ),
        (
            &[
                "run",
                "nqueens",
                "8",
                "--balancer",
                "block",
                "--q",
                "2",
                "--trim",
                "2",
            ],
            "--trim",
        ),
        (
            &[
                "sim",
                "nqueens",
                "8",
                "--balancer",
                "random-static",
                "--h",
                "4",
                "--fast-init",
            ],
            "--fast-init",
        ),
        (&["run", "nqueens", "8", "--net", "ring"], "--net"),
        (
            &["run", "nqueens", "8", "--sequential", "--gantt", "x.svg"],
            "--gantt",
        ),
        (
            &["run", "nqueens", "8", "--sequential", "--trace", "x.json"],
            "--trace",
        ),
        (
            &[
                "run",
                "puzzle15",
                "--korf",
                "79",
                "--korf-file",
                KORF,
                "--trace",
                "x.json",
            ],
            "--trace",
        ),
        (
            &["run", "nqueens", "8", "--sequential", "--pes", "2"],
            "--pes",
        ),
        (
            &[
                "run",
                "nqueens",
                "8",
                "--sequential",
                "--balancer",
                "random-shift",
            ],
            "--balancer",
        ),
        (
            &["run", "nqueens", "8", "--sequential", "--baseline"],
            "--baseline",
        ),
        (
            &[
                "run",
                "puzzle15",
                "--korf",
                "79",
                "--korf-file",
                KORF,
                "--baseline",
            ],
            "--baseline",
        ),
        (
            &[
                "sim",
                "puzzle15",
                "--korf",
                "79",
                "--korf-file",
                KORF,
                "--gantt",
                "x.svg",
            ],
            "--gantt",
        ),
        (
            &[
                "run",
                "puzzle15",
                "--tiles",
                "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
                "--korf-file",
                KORF,
            ],
            "--korf-file",
        ),
        (
            &["compare", "nqueens", "7", "--balancer", "random-shift"],
            "--balancer",
        ),
        (&["compare", "nqueens", "7", "--gantt", "x.svg"], "--gantt"),
        (&["compare", "nqueens", "7", "--trace", "x.json"], "--trace"),
        (
            &[
                "compare",
                "nqueens",
                "7",
                "--balancers",
                "random-polling,block",
                "--bundle",
                "fixed:2",
            ],
            "--bundle",
        ),
        (
            &["bench", "golomb", "6", "--rayon-depth", "2"],
            "--rayon-depth",
        ),
    ];
    for (args, flag) in cases {
        let o = treesplit(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: '{err}' does not name {flag}");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert!(stdout(&o).is_empty(), "{args:?} printed on stdout");
    }
    // The same flags where they apply are accepted.
    for args in [
        &[
            "run",
            "nqueens",
            "8",
            "--pes",
            "2",
            "--balancer",
            "master-worker",
            "--h",
            "4",
            "--bundle",
            "fixed:2",
            "--quiet",
        ][..],
        &[
            "run",
            "nqueens",
            "8",
            "--pes",
            "2",
            "--balancer",
            "poll-and-shuffle",
            "--round",
            "30",
            "--adaptive",
            "--adaptive-c",
            "2",
            "--permutation",
            "pseudorandom",
            "--quiet",
        ][..],
        &[
            "run",
            "nqueens",
            "8",
            "--pes",
            "3",
            "--balancer",
            "poll-and-shuffle",
            "--sync",
            "local",
            "--quiet",
        ][..],
        &[
            "sim",
            "knapsack",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../testkit/data/knapsack/knapPI_1_100_1000_1.txt"
            ),
            "--pes",
            "16",
            "--balancer",
            "poll-and-shuffle",
            "--sync",
            "local",
            "--adaptive",
            "--quiet",
        ][..],
        &[
            "run",
            "puzzle15",
            "--korf",
            "79",
            "--random-order",
            "5",
            "--pes",
            "2",
            "--quiet",
        ][..],
        &[
            "sim",
            "nqueens",
            "8",
            "--balancer",
            "neighbour-polling",
            "--neighbourhood",
            "hypercube",
            "--trim",
            "2",
            "--fast-init",
        ][..],
        &[
            "sim",
            "nqueens",
            "8",
            "--balancer",
            "prefix-sum",
            "--q",
            "2",
            "--atomic-jobs",
        ][..],
        &[
            "compare",
            "nqueens",
            "7",
            "--pes",
            "8",
            "--balancers",
            "random-polling,master-worker",
            "--bundle",
            "fixed:2",
            "--h",
            "4",
        ][..],
    ] {
        let o = treesplit(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
}

/// Korf's instances are built in: puzzle15 --korf works from any directory, with no path
/// outside the repository.
#[test]
fn korf_instances_are_built_in() {
    let o = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(["run", "puzzle15", "--korf", "79", "--pes", "2", "--quiet"])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("cannot start treesplit");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("optimal length 42"), "{}", stdout(&o));
    assert!(stdout(&o).contains("matches"), "{}", stdout(&o));
    let o = treesplit(&["run", "puzzle15", "--korf", "101"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no instance 101"), "{}", stderr(&o));
}

/// Started by an MPI launcher without `--machine mpi`, a run would be P independent thread
/// runs: it says what to do instead.
#[test]
fn a_launcher_without_the_mpi_machine_is_bad_input() {
    let o = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(["run", "nqueens", "8"])
        .env("OMPI_COMM_WORLD_SIZE", "2")
        .env("OMPI_COMM_WORLD_RANK", "0")
        .output()
        .expect("cannot start treesplit");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--machine mpi"), "{}", stderr(&o));
}

/// `compare` on branch-and-bound searches judges answers by the published optimum: search
/// overhead (other unit counts) and another optimal ruler of the same length are right.
#[test]
fn compare_accepts_any_optimal_answer_of_a_search() {
    let o = treesplit(&["compare", "golomb", "7", "--pes", "16", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = treesplit(&[
        "compare",
        "knapsack",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testkit/data/knapsack/f1_l-d_kp_10_269.txt"
        ),
        "--pes",
        "16",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Simulator time parameters past the limit are bad input naming the flag, never a hang or a
/// wrapped (faster) result.
#[test]
fn simulator_times_have_limits() {
    for (flag, value) in [
        ("--t-rout", "1152921504606846976"),
        ("--t-send", "18446744073709551615"),
        ("--t-recv", "18446744073709551615"),
        ("--t-split", "18446744073709551615"),
        ("--slow-links", "0:18446744073709551615"),
        ("--delay", "exp:1e300"),
        ("--slow", "0:1e18"),
    ] {
        let o = treesplit(&["sim", "nqueens", "8", "--pes", "4", flag, value]);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{flag}: {}", stderr(&o));
    }
}

#[test]
fn trace_and_gantt_of_real_and_simulated_runs() {
    let dir = std::env::temp_dir().join(format!("treesplit-cli-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("run.json");
    let png = dir.join("run.png");
    let o = treesplit(&[
        "run",
        "uts",
        "T1-mini",
        "--pes",
        "3",
        "--trace",
        json.to_str().unwrap(),
        "--gantt",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("63914 nodes"), "{}", stdout(&o));
    assert!(stdout(&o).contains("request latency"), "{}", stdout(&o));
    let doc = check_chrome_trace(&json, 3);
    assert_eq!(doc["otherData"]["machine"], "threads");
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    // The simulator: virtual time units as µs, the same format.
    let sim = dir.join("sim.json");
    let svg = dir.join("sim.svg");
    let o = treesplit(&[
        "sim",
        "nqueens",
        "8",
        "--pes",
        "5",
        "--json",
        "--trace",
        sim.to_str().unwrap(),
        "--gantt",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc = check_chrome_trace(&sim, 5);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let end = doc["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X" && e["tid"] == 0)
        .map(|e| e["ts"].as_f64().unwrap() + e["dur"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(end, j["simulation"]["report"]["t_par"].as_f64().unwrap());
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_timeline_path_is_bad_input_before_the_run() {
    for args in [
        // A simulation of ~10^8 units: the error must come before it, within seconds.
        &["sim", "uts", "T1L", "--gantt", "/nonexistent-dir/x.svg"][..],
        &["sim", "uts", "T1L", "--trace", "/nonexistent-dir/x.json"],
        &["run", "uts", "T1L", "--trace", "/nonexistent-dir/x.json"],
        &["run", "uts", "T1L", "--gantt", "/nonexistent-dir/x.png"],
        &["compare", "uts", "T1L", "--svg", "/nonexistent-dir/x.svg"],
    ] {
        let start = std::time::Instant::now();
        let o = treesplit(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("/nonexistent-dir/x."), "{args:?}: {err}");
        assert!(start.elapsed().as_secs() < 5, "{args:?} ran first");
    }
}

// ---- Bad input, limits and output details, and one command line ----------------------------

/// Exit code 2 (bad input) with a message holding every one of `wanted`, and no panic.
fn bad_input(o: &Output, what: &str, wanted: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    for w in wanted {
        assert!(err.contains(w), "{what}: '{err}' lacks '{w}'");
    }
    assert!(!err.contains("panicked"), "{what}: {err}");
}

#[test]
fn too_many_threads_fail_fast_and_oversubscription_is_said() {
    // Defect 4: bench built a rayon pool of 100000 threads (nothing for 45 s).
    let start = std::time::Instant::now();
    let o = treesplit(&["bench", "nqueens", "6", "--pes", "100000"]);
    bad_input(&o, "bench --pes 100000", &["--pes 100000", "treesplit sim"]);
    assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
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

#[test]
fn knapsack_with_every_item_fitting_is_fast_and_reads_standard_input() {
    // Defect 5 (quadratic in n) and `-` for standard input; a trailing `# comment` is fine.
    let n = 100_000u64;
    let mut text = format!("{n} {} # n capacity\n", 10 * n);
    let mut sum = 0;
    for i in 0..n {
        text.push_str(&format!("{} {} # item {i}\n", i % 97 + 1, i % 5 + 1));
        sum += i % 97 + 1;
    }
    let start = std::time::Instant::now();
    let o = treesplit_with(
        &["run", "knapsack", "-", "--pes", "2", "--json"],
        &[],
        Some(text.as_bytes()),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["result"]["profit"], sum, "{j}");
    assert_eq!(j["result"]["items"].as_array().unwrap().len(), n as usize);
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
    let o = treesplit_with(
        &[
            "run",
            "puzzle15",
            "--korf",
            "2",
            "--korf-file",
            "-",
            "--sequential",
        ],
        &[],
        Some(&std::fs::read(KORF).unwrap()),
    );
    assert!(stdout(&o).contains("length 55 — matches"), "{}", stdout(&o));
    let o = treesplit(&["run", "knapsack", "-", "--machine", "mpi"]);
    bad_input(&o, "stdin under MPI", &["rank 0 only"]);
}

#[test]
fn flags_and_faults_that_would_be_ignored_are_errors() {
    // Defect 6.
    let o = treesplit(&[
        "run",
        "nqueens",
        "6",
        "--balancer",
        "block",
        "--h",
        "3",
        "--q",
        "4",
    ]);
    bad_input(&o, "--h with --q", &["--h", "--q"]);
    let o = treesplit(&["compare", "nqueens", "6", "--gantt", "x.svg"]);
    bad_input(&o, "compare --gantt", &["--gantt"]);
    let o = treesplit(&["sim", "puzzle15", "--korf", "1", "--gantt", "x.svg"]);
    bad_input(&o, "sim puzzle15 --gantt", &["--gantt", "puzzle15"]);
    let o = treesplit(&["run", "puzzle15", "--korf", "1", "--baseline"]);
    bad_input(&o, "run puzzle15 --baseline", &["--baseline", "puzzle15"]);
    let fault =
        |spec: &str, args: &[&str]| treesplit_with(args, &[("TREESPLIT_FAULT", spec)], None);
    let o = fault("panic:5", &["run", "nqueens", "6", "--pes", "2"]);
    bad_input(&o, "fault PE >= P", &["TREESPLIT_FAULT", "PE 5", "0..2"]);
    let o = fault("panic:1", &["run", "nqueens", "6", "--sequential"]);
    bad_input(&o, "fault PE >= 1 sequential", &["PE 1"]);
    for args in [
        &["sim", "nqueens", "6"][..],
        &["bench", "nqueens", "6", "--repeat", "1"][..],
        &["compare", "nqueens", "6"][..],
        &["dst", "--cases", "1"][..],
        &["run", "puzzle15", "--korf", "1", "--pes", "1"][..],
    ] {
        let o = fault("panic:0", args);
        bad_input(&o, &format!("fault under {args:?}"), &["TREESPLIT_FAULT"]);
    }
    // Defect 7: a panic in the sequential run is a failed run with one clear message.
    let o = fault("panic:0", &["run", "nqueens", "6", "--sequential"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("error: the task panicked in the sequential run: injected fault"));
    assert!(!stderr(&o).contains("panicked at"), "{}", stderr(&o));
    let o = treesplit(&["bench", "nqueens", "6", "--delta-t", "0"]);
    bad_input(&o, "bench --delta-t 0", &["--delta-t"]);
}

#[test]
fn small_items_of_defect_11() {
    let dir = std::env::temp_dir().join(format!("treesplit-cli-d11-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let o = treesplit(&["run", "uts", "T1", "-b", "9.2e18"]);
    bad_input(&o, "-b 9.2e18", &["-b", "2^32"]);
    let o = treesplit(&[
        "run",
        "nqueens",
        "6",
        "--balancer",
        "block",
        "--q",
        "18446744073709551615",
    ]);
    bad_input(&o, "--q u64::MAX", &["--q 18446744073709551615"]);
    let o = treesplit(&["sim", "nqueens", "6", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let empty = file("empty.txt", "");
    let o = treesplit(&["run", "knapsack", &empty]);
    bad_input(&o, "empty file", &["the file is empty"]);
    assert!(!stderr(&o).contains(":0:"), "{}", stderr(&o));
    let ctrl = file("ctrl.txt", "2 1\x1b[31mX\n");
    let o = treesplit(&["run", "knapsack", &ctrl]);
    bad_input(&o, "control bytes", &["\\u{1b}"]);
    assert!(!stderr(&o).contains('\x1b'), "raw escape: {:?}", stderr(&o));
    let o = treesplit(&["run", "knapsack", "no\x07such"]);
    assert!(!stderr(&o).contains('\x07'), "raw bell: {:?}", stderr(&o));
    let o = treesplit(&[
        "sim",
        "nqueens",
        "6",
        "--balancer",
        "block",
        "--h",
        "0",
        "--quiet",
    ]);
    let theorem1 = stdout(&o)
        .lines()
        .find(|l| l.starts_with("Theorem 1"))
        .unwrap()
        .to_string();
    assert!(theorem1.contains("h = 0: nothing was split"), "{theorem1}");
    let o = treesplit(&["sim", "nqueens", "6", "--slow", "1:2,1:3"]);
    bad_input(&o, "duplicate --slow", &["--slow", "PE 1", "twice"]);
    let o = treesplit(&[
        "compare",
        "nqueens",
        "6",
        "--balancers",
        "block,block",
        "--h",
        "2",
    ]);
    bad_input(&o, "duplicate --balancers", &["--balancers", "block twice"]);
    let inst = file("inst.txt", "2 10 # n capacity\n3 4 # first\n5 6\n");
    let o = treesplit(&["run", "knapsack", &inst, "--sequential"]);
    assert!(
        stdout(&o).contains("profit 8"),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );
    file("index.tsv", "inst\t2\t10\n");
    let o = treesplit(&["run", "knapsack", &inst, "--sequential"]);
    bad_input(&o, "malformed index.tsv", &["index.tsv:1", "optimum"]);
    file("index.tsv", "inst\t2\t10\t8\n");
    let o = treesplit(&["run", "knapsack", &inst, "--sequential"]);
    assert!(stdout(&o).contains("published optimum"), "{}", stdout(&o));
    let o = treesplit(&["dst", "--max-pes", "0"]);
    bad_input(&o, "dst --max-pes 0", &["--max-pes"]);
    let o = treesplit(&["run", "--version"]);
    assert!(stdout(&o).starts_with("treesplit "), "{}", stdout(&o));
    let j = json_of(&[
        "bench",
        "puzzle15",
        "--tiles",
        "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15",
        "--repeat",
        "1",
    ]);
    assert!(
        j["measured"]
            .as_str()
            .unwrap()
            .contains("one IDA* iteration"),
        "{j}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_subcommand_takes_the_common_options_and_errors_are_json() {
    // --seed and --pes where they mean something.
    let j = json_of(&[
        "depth", "--pes", "4,8", "--seed", "3", "--work", "20000", "--max-h", "6",
    ]);
    assert_eq!(j["rows"].as_array().unwrap().len(), 2, "{j}");
    let j = json_of(&["dst", "--cases", "2", "--seed", "7"]);
    assert_eq!(j["passed"], 2, "{j}");
    let j = json_of(&[
        "bench",
        "knapsack",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testkit/data/knapsack/knapPI_1_100_1000_1.txt"
        ),
        "--repeat",
        "1",
        "--seed",
        "4",
    ]);
    assert_eq!(j["sequential_nodes"], j["parallel_nodes"], "{j}");
    let j = json_of(&[
        "compare",
        "nqueens",
        "6",
        "--pes",
        "4",
        "--seed",
        "2",
        "--balancers",
        "random-polling",
    ]);
    assert_eq!(j.as_array().unwrap().len(), 1, "{j}");
    let j = json_of(&[
        "sim",
        "puzzle15",
        "--tiles",
        "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15",
        "--pes",
        "4",
    ]);
    assert_eq!(j["result"]["length"], 3, "{j}");
    // … and errors where they do not.
    bad_input(
        &treesplit(&["trees", "--seed", "3"]),
        "trees --seed",
        &["--seed", "trees"],
    );
    bad_input(
        &treesplit(&["trees", "--pes", "3"]),
        "trees --pes",
        &["--pes"],
    );
    bad_input(
        &treesplit(&["dst", "--pes", "3"]),
        "dst --pes",
        &["--pes", "--max-pes"],
    );
    bad_input(
        &treesplit(&["run", "nqueens", "6", "--pes", "2,3"]),
        "a --pes list",
        &["--pes"],
    );
    // Under --json an error is one JSON document on stdout: from the plan, from clap, from a
    // run.
    for (args, code) in [
        (&["run", "nqueens", "0", "--json"][..], 2),
        (&["sim", "nqueens", "8", "--json", "--bogus"][..], 2),
        (&["trees", "--json", "--seed", "1"][..], 2),
        (&["run", "knapsack", "/nonexistent/k.txt", "--json"][..], 2),
    ] {
        let o = treesplit(args);
        assert_eq!(o.status.code(), Some(code), "{args:?}");
        let j: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)));
        assert_eq!(j["exit_code"], code, "{j}");
        assert!(!j["error"].as_str().unwrap().is_empty(), "{j}");
    }
    let o = treesplit_with(
        &["run", "nqueens", "6", "--sequential", "--json"],
        &[("TREESPLIT_FAULT", "panic:0")],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["exit_code"], 1, "{j}");
}

/// Searches without a published optimum are judged by
/// the sequential run's objective (compare and --check), flags are named as typed, and fault
/// injection is refused by every subcommand but run.
#[test]
fn searches_without_a_published_optimum_and_flag_names() {
    let dir = std::env::temp_dir().join(format!("treesplit-cli-noindex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("items.txt");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testkit/data/knapsack/knapPI_1_100_1000_1.txt"
        ),
        &file,
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let o = treesplit(&["compare", "knapsack", file, "--pes", "8", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = treesplit(&["run", "knapsack", file, "--pes", "2", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("objective matches the sequential run's (profit 9147"),
        "{}",
        stderr(&o)
    );
    let o = treesplit(&["run", "golomb", "7", "--pes", "2", "--check"]);
    assert!(
        stderr(&o).contains("check: the task kept its contract"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
    let o = treesplit(&["compare", "nqueens", "8", "--svg", "/tmp/x.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--svg /tmp/x.txt"), "{}", stderr(&o));
    let o = treesplit(&[
        "compare",
        "nqueens",
        "8",
        "--balancers",
        "random-polling",
        "--h",
        "3",
    ]);
    assert!(stderr(&o).contains("(--balancers)"), "{}", stderr(&o));
    let o = treesplit_env(&["trees"], &[("TREESPLIT_FAULT", "panic:0")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = treesplit(&[
        "run",
        "nqueens",
        "8",
        "--balancer",
        "block",
        "--h-from-alpha",
        "1e-300",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

// ---- scatter and hashtable (paper 003, paper 004 §2, Theorem 14.1) ----

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

// ---- The chapter's examples: mandelbrot, integrate, bfs ----

#[test]
fn examples_report_their_answers_on_threads_and_sim() {
    // Hard-coded counts from an independent Python loop with the same f64 arithmetic.
    let m = [
        "mandelbrot",
        "--n",
        "50",
        "--z0",
        "-0.75,0.1",
        "--a0",
        "0.05",
        "--max-iter",
        "500",
    ];
    for (cmd, balancer) in [
        ("run", "round-robin"),
        ("sim", "master-worker"),
        ("run", "prefix-sum"),
    ] {
        let mut args = vec![cmd];
        args.extend(m);
        args.extend(["--pes", "3", "--balancer", balancer]);
        let j = json_of(&args);
        let result = &j["result"];
        assert_eq!(result["in_set"], 2006, "{j}");
        assert_eq!(result["iterations"], 1_054_079u64, "{j}");
    }
    let dir = std::env::temp_dir().join(format!("treesplit-mandel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("m.png");
    let o = treesplit(&[
        "run",
        "mandelbrot",
        "--n",
        "64",
        "--png",
        png.to_str().unwrap(),
        "--pes",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("in_set"), "{}", stdout(&o));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    for f in ["pi", "osc", "sing"] {
        let j = json_of(&["sim", "integrate", "--f", f, "--tol", "1e-9", "--pes", "16"]);
        assert_eq!(j["published"]["matches"], true, "{j}");
        let seq = json_of(&[
            "run",
            "integrate",
            "--f",
            f,
            "--tol",
            "1e-9",
            "--sequential",
        ]);
        assert_eq!(
            seq["result"]["sum"], j["result"]["sum"],
            "exact sums are bit-identical"
        );
    }
    let edges = dir.join("g.txt");
    std::fs::write(&edges, "# a path and a triangle\n0 1\n1 2\n2 3\n3 1\n5 6\n").unwrap();
    for cmd in ["run", "sim"] {
        let j = json_of(&[
            cmd,
            "bfs",
            edges.to_str().unwrap(),
            "--source",
            "0",
            "--pes",
            "2",
        ]);
        assert_eq!(j["result"]["reached"], 4, "{j}");
        assert_eq!(j["result"]["distance_sum"], 1 + 2 + 2, "{j}");
        assert_eq!(j["result"]["depth"], 2, "{j}");
        assert_eq!(j["matches_sequential"], true, "{j}");
    }
    let j = json_of(&[
        "run",
        "bfs",
        "--rmat",
        "10",
        "--edge-factor",
        "4",
        "--pes",
        "2",
        "--balancer",
        "block",
    ]);
    assert_eq!(j["matches_sequential"], true, "{j}");
    assert!(j["teps"].as_f64().is_some(), "{j}");
    let o = treesplit(&["bench", "bfs", "--rmat", "10", "--repeat", "1"]);
    assert!(
        o.status.success() && stdout(&o).contains("speedup"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn examples_bad_input_exits_2_with_a_clear_message() {
    let dir = std::env::temp_dir().join(format!("treesplit-bfsbad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["bfs".into(), file("neg.txt", "0 1\n# c\n1 -4\n")],
            "neg.txt:3: negative vertex id -4".into(),
        ),
        (
            vec!["bfs".into(), file("three.txt", "0 1 2\n")],
            "three.txt:1: expected two vertex ids".into(),
        ),
        (
            vec!["bfs".into(), file("word.txt", "0 1\nx 2\n")],
            "word.txt:2: 'x' is not a vertex id".into(),
        ),
        (
            vec!["bfs".into(), file("big.txt", "0 99999999999999999999999\n")],
            "big.txt:1: vertex id 99999999999999999999999 is too large".into(),
        ),
        (
            vec!["bfs".into(), file("empty.txt", "# nothing\n")],
            "no edges".into(),
        ),
        (
            vec![
                "bfs".into(),
                file("ok.txt", "0 1\n"),
                "--source".into(),
                "5".into(),
            ],
            "--source 5".into(),
        ),
        (
            vec![
                "bfs".into(),
                file("ok2.txt", "0 1\n"),
                "--source".into(),
                "-1".into(),
            ],
            "--source -1".into(),
        ),
        (
            vec!["bfs".into()],
            "needs an edge-list FILE or --rmat".into(),
        ),
        (
            vec!["bfs".into(), "--rmat".into(), "40".into()],
            "--rmat SCALE must be in 1..=28".into(),
        ),
        (
            vec![
                "bfs".into(),
                "--rmat".into(),
                "8".into(),
                "--edge-factor".into(),
                "0".into(),
            ],
            "--edge-factor must be".into(),
        ),
        (
            vec!["mandelbrot".into(), "--n".into(), "0".into()],
            "--n must be in".into(),
        ),
        (
            vec!["mandelbrot".into(), "--max-iter".into(), "0".into()],
            "--max-iter must be at least 1".into(),
        ),
        (
            vec![
                "mandelbrot".into(),
                "--n".into(),
                "100000".into(),
                "--max-iter".into(),
                "18446744073709551615".into(),
            ],
            "overflows".into(),
        ),
        (
            vec!["mandelbrot".into(), "--z0".into(), "1".into()],
            "--z0 expects RE,IM".into(),
        ),
        (
            vec!["mandelbrot".into(), "--a0".into(), "-1".into()],
            "--a0 must be".into(),
        ),
        (
            vec!["mandelbrot".into(), "--png".into(), "x.svg".into()],
            "must end in .png".into(),
        ),
        (
            vec!["integrate".into(), "--tol".into(), "0".into()],
            "--tol must be a finite number > 0".into(),
        ),
        (
            vec!["integrate".into(), "--tol".into(), "-1e-3".into()],
            "--tol must be a finite number > 0".into(),
        ),
        (
            vec!["integrate".into(), "--tol".into(), "1e-20".into()],
            "below".into(),
        ),
        (
            vec!["integrate".into(), "--f".into(), "exp".into()],
            "unknown integrand 'exp'".into(),
        ),
        (
            vec!["integrate".into(), "--pieces".into(), "0".into()],
            "--pieces must be".into(),
        ),
    ];
    for (app, want) in cases {
        let mut args = vec!["run".to_string()];
        args.extend(app.clone());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&want),
            "{args:?}: want '{want}' in {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    for args in [
        vec!["run", "bfs", "--rmat", "6", "--max-units", "10"],
        vec!["run", "bfs", "--rmat", "6", "--baseline"],
        vec!["sim", "bfs", "--rmat", "6", "--gantt", "x.svg"],
        vec!["compare", "bfs", "--rmat", "6"],
    ] {
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("bfs"), "{args:?}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The network flags of `sim` — bad values and flags that do not apply are exit 2
/// with a clear message; the new networks and message lengths run to the exact answer.
#[test]
fn sim_network_flags() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["sim", "nqueens", "6", "--embedding", "row-major"],
            "--embedding does not apply to --balancer random-polling",
        ),
        (
            &[
                "sim",
                "nqueens",
                "6",
                "--balancer",
                "poll-and-shuffle",
                "--embedding",
                "diagonal",
            ],
            "unknown embedding",
        ),
        (
            &["sim", "nqueens", "6", "--routing", "packet"],
            "--routing applies only with --byte-time",
        ),
        (&["sim", "nqueens", "6", "--byte-time=-1"], "--byte-time"),
        (
            &[
                "sim",
                "nqueens",
                "6",
                "--byte-time",
                "1",
                "--routing",
                "wormhole",
            ],
            "unknown routing",
        ),
        (
            &[
                "sim",
                "nqueens",
                "6",
                "--balancer",
                "poll-and-shuffle",
                "--phase-c",
                "0",
            ],
            "--phase-c must be a positive number",
        ),
        (
            &[
                "sim",
                "nqueens",
                "6",
                "--balancer",
                "poll-and-shuffle",
                "--phase-c",
                "2",
                "--round",
                "40",
            ],
            "cannot be used with",
        ),
    ];
    for (args, expected) in cases {
        let o = treesplit(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: '{err}' lacks '{expected}'"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
    for net in [
        "butterfly",
        "ccc",
        "shuffle-exchange",
        "de-bruijn",
        "mesh2d",
        "fat-tree",
    ] {
        for extra in [
            &[][..],
            &["--byte-time", "0.5", "--routing", "cut-through"][..],
        ] {
            let mut args = vec![
                "sim",
                "nqueens",
                "7",
                "--pes",
                "30",
                "--net",
                net,
                "--balancer",
                "poll-and-shuffle",
            ];
            args.extend_from_slice(extra);
            let o = treesplit(&args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            assert!(stdout(&o).contains("40"), "{args:?}: {}", stdout(&o));
        }
    }
}

/// `reproduce`: two cheap experiments write index.md and results.json with their verdicts;
/// an unknown id is bad input that lists the ids; flags that do not apply are rejected.
#[test]
fn reproduce_writes_a_report_and_rejects_unknown_ids() {
    let dir = std::env::temp_dir().join(format!("treesplit-reproduce-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().expect("utf-8 temp dir");
    let o = treesplit(&[
        "reproduce",
        "--quick",
        "--only",
        "001-ex14.2,001-ex14.3",
        "--out",
        d,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.join("index.md")).expect("index.md");
    for id in ["001-ex14.2", "001-ex14.3"] {
        assert!(md.contains(&format!("## {id}")), "{md}");
        assert!(
            md.contains(&format!("treesplit reproduce --quick --only {id}")),
            "{md}"
        );
    }
    assert!(
        md.contains("**Verdict: PASS**") || md.contains("**Verdict: FAIL**"),
        "{md}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).expect("json"))
            .expect("results.json parses");
    let sections = json["sections"].as_array().expect("sections");
    assert_eq!(sections.len(), 2);
    for s in sections {
        assert!(
            ["pass", "fail"].contains(&s["verdict"].as_str().unwrap_or("")),
            "{s}"
        );
        assert!(
            !s["table"]["rows"].as_array().expect("rows").is_empty(),
            "{s}"
        );
    }
    assert!(
        stdout(&o).contains("PASS") || stdout(&o).contains("FAIL"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);

    let o = treesplit(&["reproduce", "--quick", "--only", "001-ex14.2,no-such-claim"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no-such-claim"), "{}", stderr(&o));
    assert!(stderr(&o).contains("000-thm1"), "{}", stderr(&o));
    let o = treesplit(&["reproduce", "--quick", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--seed"), "{}", stderr(&o));
}
