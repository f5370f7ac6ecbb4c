//! The lab's commands: `treesplit dst` (deterministic simulation testing, its cases replayed
//! from their command lines) and `treesplit reproduce` (the reproduction report).

mod support;

use support::{bad_input, scratch, stderr, stdout, treesplit};

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
        "001-thm14.3-ratio,001-ex14.3",
        "--out",
        d,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.join("index.md")).expect("index.md");
    for id in ["001-thm14.3-ratio", "001-ex14.3"] {
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

    // Rerunning one claim into the same folder updates it in place: the other claim stays.
    let o = treesplit(&[
        "reproduce",
        "--quick",
        "--only",
        "001-ex14.3",
        "--out",
        d,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("1 kept from the earlier report"),
        "{}",
        stdout(&o)
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).expect("json"))
            .expect("results.json parses");
    let ids: Vec<&str> = json["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| s["id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ids, ["001-ex14.3", "001-thm14.3-ratio"]);
    // A full run of one claim would mix with the quick report: bad input, the report untouched.
    let before = std::fs::read(dir.join("results.json")).unwrap();
    let o = treesplit(&["reproduce", "--only", "001-ex14.3", "--out", d, "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--quick"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("results.json")).unwrap(), before);
    // A results.json that is no report is named, not overwritten.
    std::fs::write(dir.join("results.json"), "[1, 2]").unwrap();
    let o = treesplit(&["reproduce", "--quick", "--only", "001-ex14.3", "--out", d]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("results.json"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("results.json")).unwrap(), b"[1, 2]");
    let _ = std::fs::remove_dir_all(&dir);

    let o = treesplit(&[
        "reproduce",
        "--quick",
        "--only",
        "001-thm14.3-ratio,no-such-claim",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no-such-claim"), "{}", stderr(&o));
    assert!(stderr(&o).contains("000-thm1"), "{}", stderr(&o));
    let o = treesplit(&["reproduce", "--quick", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--seed"), "{}", stderr(&o));
}

/// `reproduce --out` that cannot take the report is bad input before any experiment runs (the
/// whole catalogue would outlast the runner's hang limit).
#[test]
fn reproduce_checks_its_out_path_before_the_experiments() {
    let dir = scratch("reproduce-out");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a directory\n").unwrap();
    for out in [file.join("report"), file.clone()] {
        let out = out.to_str().unwrap();
        let o = treesplit(&["reproduce", "--out", out]);
        bad_input(&o, "reproduce --out", &["--out", out]);
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"not a directory\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Progress lines (the step done, the time so far) go to a terminal only: a pipe or a log file
/// gets the results and the notes.
#[test]
fn progress_lines_stay_off_a_stderr_that_is_not_a_terminal() {
    let o = treesplit(&["depth", "--pes", "4", "--work", "20000", "--max-h", "6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("so far"), "{}", stderr(&o));
    let o = treesplit(&["dst", "--cases", "1001", "--max-pes", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("1000 cases"), "{}", stderr(&o));
    let dir = scratch("reproduce-progress");
    let o = treesplit(&[
        "reproduce",
        "--quick",
        "--only",
        "001-thm14.3-ratio",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("so far"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("[1/1]"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
