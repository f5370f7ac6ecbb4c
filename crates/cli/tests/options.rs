//! The options every subcommand shares: `--json` (reports and errors), `--quiet`, the
//! common options where they mean something and errors where they do not, flags and faults
//! that would be ignored, odd input that gets a clear error, and a closed output pipe.

mod support;

use std::process::Command;
use support::{bad_input, json_of, stderr, stdout, treesplit, treesplit_with, wait, KORF};

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

#[test]
fn flags_and_faults_that_would_be_ignored_are_errors() {
    // Flags that a subcommand or an application would ignore, and faults for PEs that do not
    // exist or subcommands that take none.
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
    bad_input(
        &o,
        "fault PE >= P",
        &["TREESPLIT_FAULT", "PE 5", "PEs 0 and 1"],
    );
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
    // A panic in the sequential run is a failed run with one clear message.
    let o = fault("panic:0", &["run", "nqueens", "6", "--sequential"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("error: the task panicked in the sequential run: injected fault"));
    assert!(!stderr(&o).contains("panicked at"), "{}", stderr(&o));
    let o = treesplit(&["bench", "nqueens", "6", "--delta-t", "0"]);
    bad_input(&o, "bench --delta-t 0", &["--delta-t"]);
}

#[test]
fn odd_input_gets_a_clear_error_and_reports_say_what_they_measured() {
    let dir = std::env::temp_dir().join(format!("treesplit-cli-odd-{}", std::process::id()));
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
    // A branch and bound's parallel node count depends on when the incumbent reaches each PE
    // (it differs under load), so the bench reports it beside the sequential count as the
    // search overhead rather than promising equality.
    let (seq, par) = (
        j["sequential_nodes"].as_f64().unwrap(),
        j["parallel_nodes"].as_f64().unwrap(),
    );
    assert!(seq > 0.0 && par > 0.0, "{j}");
    assert!(
        (j["search_overhead"].as_f64().unwrap() - par / seq).abs() < 1e-9,
        "{j}"
    );
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
    // … and errors where they do not: the subcommand does not list them, and clap refuses
    // them.
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
        &["--pes", "dst"],
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

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(["trees"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    drop(child.stdout.take()); // the reader goes away at once
    let o = wait(child, "trees into a closed pipe");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
}

/// A command line clap cannot parse is quoted with its control characters escaped, not
/// dropped: the user sees the tab, newline or escape that made the value wrong.
#[test]
fn parse_errors_show_control_characters_escaped() {
    for (args, quoted) in [
        (&["run", "nqueens", "1\u{1b}0"][..], "'1\\u{1b}0'"),
        (&["run", "nqueens", "8", "--pes", "2\t3"][..], "'2\\t3'"),
        (&["run", "nqueens", "8", "--seed", "4\n2"][..], "'4\\n2'"),
        (&["r\u{1}un", "nqueens", "8"][..], "'r\\u{1}un'"),
        (
            &["run", "nqueens", "8", "--balancer", "x\u{1b}[31my"][..],
            "'x\\u{1b}[31my'",
        ),
        (
            &["run", "nqueens", "8", "--pe\u{7f}s", "2"][..],
            "'--pe\\u{7f}s'",
        ),
    ] {
        let o = treesplit(args);
        bad_input(&o, &format!("{args:?}"), &[quoted, "For more information"]);
        let err = stderr(&o);
        assert!(
            !err.contains(['\u{1b}', '\u{1}', '\u{7f}']),
            "raw control: {err:?}"
        );
        let mut json_args = args.to_vec();
        json_args.push("--json");
        let o = treesplit(&json_args);
        assert_eq!(o.status.code(), Some(2), "{json_args:?}");
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON error");
        let message = doc["error"].as_str().expect("an error message");
        assert!(message.contains(quoted), "{json_args:?}: {message}");
    }
}

#[test]
fn a_negative_number_is_refused_by_the_options_own_parser() {
    // Not read as an unknown flag `-1` (clap's tip "use '-- -1'" would not help).
    for (args, what) in [
        (&["run", "nqueens", "8", "--pes", "-1"][..], "'--pes <PES>'"),
        (
            &["sim", "nqueens", "8", "--seed", "-1"][..],
            "'--seed <SEED>'",
        ),
        (&["run", "nqueens", "-3"][..], "'<N>'"),
    ] {
        let o = treesplit(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("invalid value '-") && err.contains(what),
            "{args:?}: {err}"
        );
    }
}
