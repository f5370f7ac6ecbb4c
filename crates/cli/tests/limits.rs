//! The `treesplit` binary's run limits, UTS trees that never end, and `--check`:
//! an infinite tree without a limit is bad input; with `--max-units` or `--time-limit` it
//! ends with exit 1 and the partial report; `--check` verifies a run against
//! the sequential one; caught panics print no raw panic location.

mod support;

use std::process::Output;
use support::{stderr, stdout, treesplit, treesplit_env};

/// Run and require exit `code` (a run that does not stop is caught by the runner's hang
/// limit); returns the output.
fn expect(args: &[&str], code: i32) -> Output {
    let o = treesplit(args);
    assert_eq!(
        o.status.code(),
        Some(code),
        "{args:?}: stdout {} stderr {}",
        stdout(&o),
        stderr(&o)
    );
    o
}

#[test]
fn trees_that_never_end_need_a_limit() {
    for args in [
        &["run", "uts", "T3-mini", "-q", "1", "--pes", "2"][..],
        &["run", "uts", "-a", "0", "-d", "4294967295"],
        &["sim", "uts", "T3-mini", "-q", "1"],
        &["run", "uts", "T3-mini", "-q", "1", "--sequential"],
        &["bench", "uts", "T3-mini", "-q", "1"],
        &["compare", "uts", "T3-mini", "-q", "1"],
    ] {
        let o = expect(args, 2);
        let e = stderr(&o);
        assert!(
            e.contains("would never end") && e.contains("--max-units"),
            "{e}"
        );
        assert!(!e.contains("panicked"), "{e}");
    }
    let o = expect(&["run", "uts", "T3-mini", "-q", "1"], 2);
    assert!(stderr(&o).contains("q·m"), "{}", stderr(&o));
}

#[test]
fn an_infinite_tree_with_max_units_ends_with_the_partial_report() {
    let o = expect(
        &[
            "run",
            "uts",
            "T3-mini",
            "-q",
            "1",
            "--pes",
            "2",
            "--max-units",
            "300000",
            "--quiet",
        ],
        1,
    );
    assert!(stdout(&o).contains("partial, stopped by the limit of 300000 work units"));
    assert!(stderr(&o).contains("error: the run reached the limit of 300000 work units"));
    let o = expect(
        &[
            "run",
            "uts",
            "T3-mini",
            "-q",
            "1",
            "--pes",
            "2",
            "--max-units",
            "300000",
            "--json",
            "--delta-t",
            "1000",
        ],
        1,
    );
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(j["partial"], true);
    let units = j["report"]["totals"]["work_units"].as_u64().unwrap();
    assert!((300_000..=302_000).contains(&units), "{units}");
    assert_eq!(
        j["result"]["nodes"].as_u64(),
        Some(units),
        "every node visited counted"
    );
}

#[test]
fn the_simulator_honours_limits_and_max_units_is_deterministic() {
    let args = [
        "sim",
        "uts",
        "T3-mini",
        "-q",
        "1",
        "--pes",
        "32",
        "--max-units",
        "200000",
        "--json",
    ];
    let a = expect(&args, 1);
    let b = expect(&args, 1);
    assert_eq!(stdout(&a), stdout(&b));
    let j: serde_json::Value = serde_json::from_slice(&a.stdout).expect("valid JSON");
    assert!(j["report"]["totals"]["work_units"].as_u64().unwrap() >= 200_000);
    expect(
        &[
            "sim",
            "uts",
            "T3-mini",
            "-q",
            "1",
            "--time-limit",
            "1s",
            "--quiet",
        ],
        1,
    );
}

#[test]
fn time_limits_stop_every_app() {
    expect(
        &[
            "run",
            "uts",
            "T3-mini",
            "-q",
            "1",
            "--pes",
            "2",
            "--time-limit",
            "0.5",
        ],
        1,
    );
    expect(
        &[
            "run",
            "uts",
            "T1L",
            "--pes",
            "2",
            "--time-limit",
            "300ms",
            "--quiet",
        ],
        1,
    );
    expect(
        &["run", "nqueens", "16", "--pes", "2", "--time-limit", "1s"],
        1,
    );
    expect(
        &["run", "golomb", "13", "--pes", "2", "--max-units", "100000"],
        1,
    );
    expect(
        &[
            "run",
            "puzzle15",
            "--korf",
            "88",
            "--pes",
            "2",
            "--max-units",
            "100000",
        ],
        1,
    );
    expect(
        &["sim", "puzzle15", "--korf", "88", "--max-units", "100000"],
        1,
    );
    // A run that ends under its limits is unaffected.
    for limit in ["5m", "1.5h", "30s", "2500ms", "7"] {
        expect(
            &[
                "run",
                "nqueens",
                "8",
                "--pes",
                "2",
                "--max-units",
                "1000000000",
                "--time-limit",
                limit,
            ],
            0,
        );
    }
}

#[test]
fn bad_limits_and_flags_that_do_not_apply_are_bad_input() {
    for (args, text) in [
        (
            &["run", "nqueens", "8", "--max-units", "0"][..],
            "--max-units must be at least 1",
        ),
        (
            &["run", "nqueens", "8", "--time-limit", "0"],
            "more than zero",
        ),
        (
            &["run", "nqueens", "8", "--time-limit", "soon"],
            "not a duration",
        ),
        (
            &["run", "nqueens", "8", "--time-limit=-3s"],
            "more than zero",
        ),
        (
            &["run", "nqueens", "8", "--time-limit", "3 eons"],
            "not a duration",
        ),
        (
            &["sim", "nqueens", "8", "--max-units", "0"],
            "--max-units must be at least 1",
        ),
        // bench and compare take no limits: clap refuses them.
        (
            &["bench", "nqueens", "8", "--max-units", "5"],
            "unexpected argument '--max-units'",
        ),
        (
            &["compare", "nqueens", "8", "--check"],
            "unexpected argument '--check'",
        ),
        (
            &["run", "nqueens", "8", "--sequential", "--time-limit", "1s"],
            "--sequential",
        ),
    ] {
        let o = expect(args, 2);
        assert!(stderr(&o).contains(text), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn check_verifies_runs_against_the_sequential_one() {
    let o = expect(&["run", "nqueens", "9", "--pes", "3", "--check"], 0);
    assert!(
        stderr(&o).contains("match the sequential run"),
        "{}",
        stderr(&o)
    );
    expect(
        &[
            "run",
            "synthetic",
            "--work",
            "200000",
            "--pes",
            "2",
            "--check",
        ],
        0,
    );
    expect(
        &["sim", "synthetic", "--work", "200000", "--check", "--quiet"],
        0,
    );
    expect(
        &[
            "sim",
            "uts",
            "T1-mini",
            "--check",
            "--balancer",
            "block",
            "--h",
            "6",
        ],
        0,
    );
}

#[test]
fn caught_panics_print_the_message_but_no_raw_location() {
    let o = treesplit_env(
        &["run", "nqueens", "10", "--pes", "2"],
        &[("TREESPLIT_FAULT", "panic:0")],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("error: PE 0 panicked"), "{e}");
    assert!(!e.contains("panicked at"), "{e}");
}

/// A slice never does more units than `--max-units` allows: a huge Δt cannot carry an
/// infinite tree past the limit before the driver checks it.
#[test]
fn a_huge_delta_t_does_not_overshoot_max_units() {
    for command in ["run", "sim"] {
        let o = expect(
            &[
                command,
                "uts",
                "T3-mini",
                "-q",
                "1",
                "--pes",
                "2",
                "--max-units",
                "1000",
                "--delta-t",
                "100000000",
            ],
            1,
        );
        assert!(
            stdout(&o).contains(": 1000 nodes"),
            "{command}: {}",
            stdout(&o)
        );
    }
}

/// Under `--json` a run stopped by a limit prints one document, the partial report on stdout
/// (its `stopped_by` says why), and no error document on stderr beside it.
#[test]
fn under_json_a_limit_stop_prints_only_the_partial_report() {
    let dir = std::env::temp_dir().join(format!("treesplit-json-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("q.ckpt");
    for args in [
        vec![
            "run",
            "uts",
            "T3-mini",
            "-q",
            "1",
            "--pes",
            "2",
            "--max-units",
            "1000",
            "--json",
        ],
        vec![
            "run",
            "nqueens",
            "12",
            "--pes",
            "2",
            "--max-units",
            "100000",
            "--checkpoint",
            ckpt.to_str().unwrap(),
            "--json",
        ],
    ] {
        let o = expect(&args, 1);
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
        assert_eq!(j["partial"], true, "{j}");
        assert!(
            j["stopped_by"].as_str().unwrap().contains("work units"),
            "{j}"
        );
        assert!(
            !stderr(&o).contains("exit_code"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("error"), "{args:?}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Durations take humantime's forms beside decimals with one unit and plain seconds.
#[test]
fn durations_take_microseconds_and_compound_forms() {
    for limit in ["1h30m", "1h 30m", "90min", "2days"] {
        expect(
            &["run", "nqueens", "8", "--pes", "2", "--time-limit", limit],
            0,
        );
    }
    let o = expect(
        &[
            "run",
            "uts",
            "T3-mini",
            "-q",
            "1",
            "--pes",
            "2",
            "--time-limit",
            "100us",
        ],
        1,
    );
    assert!(stdout(&o).contains("partial"), "{}", stdout(&o));
}

#[test]
fn negative_durations_are_refused_by_the_duration_parser() {
    for (flag, value) in [("--time-limit", "-1s"), ("--checkpoint-every", "-5m")] {
        let o = expect(&["run", "nqueens", "8", flag, value], 2);
        let err = stderr(&o);
        assert!(err.contains(value), "{flag} {value}: {err}");
        assert!(
            !err.contains("unexpected argument") && !err.contains("tip:"),
            "{flag} {value} read as flags: {err}"
        );
    }
}
