//! `treesplit run|sim dag`: the DAG measures in the JSON report, every scheduler on the
//! simulator (P = 8, 64) and threads respecting dependencies and Theorem 14.3 with its
//! communication term, the Gantt chart, bad input as exit 2 with a clear message, and runs
//! stopped by a limit or SIGTERM printing the tasks that finished (exit 1).

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{stderr, stdout, treesplit, treesplit_with, wait, HANG};

const FIG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testkit/data/dag/fig14_7.stg"
);
const SMALL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testkit/data/dag/small10.stg"
);
const SCHEDULERS: [&str; 3] = ["master-worker", "random-static", "work-stealing"];

fn json(args: &[&str]) -> serde_json::Value {
    let o = treesplit(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

fn check(j: &serde_json::Value, what: &str) {
    assert_eq!(j["dependencies_respected"], true, "{what}");
    assert_eq!(j["holds_with_communication"], true, "{what}: {j}");
    let makespan = j["makespan"].as_f64().unwrap();
    assert!(
        makespan >= j["lower_bound"].as_f64().unwrap(),
        "{what}: {j}"
    );
    assert!(
        makespan <= j["bound_with_communication"].as_f64().unwrap() + 1e-9,
        "{what}: {j}"
    );
}

#[test]
fn fig_14_7_measures_in_the_json_report() {
    let j = json(&[
        "sim",
        "dag",
        FIG,
        "--balancer",
        "work-stealing",
        "--pes",
        "3",
        "--json",
    ]);
    assert_eq!(j["tasks"], 10);
    assert_eq!(j["work"], 20);
    assert_eq!(j["critical_path"], 11);
    assert_eq!(j["lower_bound"], 11.0);
    assert!((j["theorem_14_3_bound"].as_f64().unwrap() - (20.0 / 3.0 + 11.0)).abs() < 1e-9);
    assert!((j["two_minus_one_over_p"].as_f64().unwrap() - (2.0 - 1.0 / 3.0)).abs() < 1e-9);
    check(&j, "fig 14.7");
    let j = json(&[
        "sim",
        "dag",
        "--multiply",
        "1",
        "--balancer",
        "random-static",
        "--json",
    ]);
    assert_eq!(
        (j["tasks"].as_u64(), j["work"].as_u64()),
        (Some(8), Some(20))
    );
    assert_eq!(j["critical_path"], 11);
}

#[test]
fn every_scheduler_in_the_simulator_at_8_and_64_pes() {
    for scheduler in SCHEDULERS {
        for p in ["8", "64"] {
            for input in [
                &["dag", SMALL][..],
                &["dag", "--random", "300", "--seed", "4"][..],
            ] {
                let mut args = vec!["sim"];
                args.extend(input);
                args.extend(["--balancer", scheduler, "--pes", p, "--json"]);
                let j = json(&args);
                check(&j, &format!("{args:?}"));
                assert_eq!(j["pes"], p.parse::<u64>().unwrap());
            }
        }
    }
}

#[test]
fn every_scheduler_on_threads() {
    for scheduler in SCHEDULERS {
        let j = json(&[
            "run",
            "dag",
            "--multiply",
            "2",
            "--balancer",
            scheduler,
            "--pes",
            "2",
            "--unit",
            "20us",
            "--json",
        ]);
        check(&j, scheduler);
        assert_eq!(j["machine"], "threads");
        assert_eq!(j["unit_ns"], 20_000);
        // 88 units of 20 µs: at least the critical path of 19 units.
        assert!(j["makespan"].as_f64().unwrap() >= 19.0 * 20e-6);
    }
}

#[test]
fn text_report_and_gantt_chart() {
    let dir = std::env::temp_dir().join(format!("treesplit-dag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("fig.svg");
    let o = treesplit(&[
        "sim",
        "dag",
        FIG,
        "--balancer",
        "master-worker",
        "--pes",
        "3",
        "--gantt",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("10 tasks, 12 edges, work W = 20, critical path = 11"),
        "{out}"
    );
    assert!(out.contains("Theorem 14.3"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..50.min(text.len())]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn stg_from_standard_input() {
    let text = std::fs::read(SMALL).unwrap();
    let o = treesplit_with(
        &["sim", "dag", "-", "--balancer", "random-static", "--json"],
        &[],
        Some(&text),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (j["work"].as_u64(), j["critical_path"].as_u64()),
        (Some(44), Some(23))
    );
}

#[test]
fn bad_input_is_exit_2_with_a_clear_message() {
    let dir = std::env::temp_dir().join(format!("treesplit-dag-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cyclic = dir.join("cycle.stg");
    std::fs::write(&cyclic, "2\n0 0 0\n1 5 2 0 2\n2 4 1 1\n3 0 2 1 2\n").unwrap();
    let unknown = dir.join("unknown.stg");
    std::fs::write(&unknown, "2\n0 0 0\n1 5 1 9\n2 4 1 0\n3 0 2 1 2\n").unwrap();
    let (c, u) = (cyclic.to_str().unwrap(), unknown.to_str().unwrap());
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["sim", "dag", c, "--balancer", "work-stealing"],
            "cycle through task",
        ),
        (
            vec!["sim", "dag", u, "--balancer", "work-stealing"],
            "unknown.stg:3: task 1 names predecessor 9",
        ),
        (vec!["sim", "dag", FIG], "needs a DAG scheduler"),
        (
            vec!["sim", "dag", FIG, "--balancer", "random-polling"],
            "--balancer random-polling balances tree-shaped",
        ),
        (
            vec!["sim", "nqueens", "6", "--balancer", "work-stealing"],
            "schedules task DAGs only",
        ),
        (
            vec!["sim", "dag", FIG, "--balancer", "master-worker", "--h", "4"],
            "--h does not apply to task DAGs",
        ),
        (
            vec![
                "sim",
                "dag",
                FIG,
                "--balancer",
                "master-worker",
                "--unit",
                "5us",
            ],
            "--unit does not apply to the simulator",
        ),
        (
            vec![
                "run",
                "dag",
                FIG,
                "--balancer",
                "master-worker",
                "--unit",
                "5 parsecs",
            ],
            "--unit 5 parsecs",
        ),
        (
            vec!["run", "dag", FIG, "--balancer", "master-worker", "--check"],
            "--check does not apply to task DAGs",
        ),
        (
            vec![
                "sim",
                "dag",
                "--multiply",
                "11",
                "--balancer",
                "master-worker",
            ],
            "--multiply 11",
        ),
        (
            vec!["sim", "dag", "--random", "0", "--balancer", "master-worker"],
            "--random 0",
        ),
        (
            vec!["sim", "dag", "/no/such.stg", "--balancer", "master-worker"],
            "cannot read /no/such.stg",
        ),
        (
            vec![
                "sim",
                "dag",
                FIG,
                "--balancer",
                "master-worker",
                "--termination",
                "response-tree",
            ],
            "--termination does not apply to task DAGs",
        ),
        // Only `run` and `sim` offer task DAGs.
        (vec!["compare", "dag", FIG], "unrecognized subcommand 'dag'"),
        (vec!["bench", "dag", FIG], "unrecognized subcommand 'dag'"),
    ];
    for (args, want) in cases {
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    // Neither a file nor a generator: clap's usage error.
    let o = treesplit(&["sim", "dag", "--balancer", "master-worker"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--optimal`: Fig. 14.7's DAG has optimal makespan 11 on 3 PEs (the critical path) and 12
/// on 2; every scheduler's makespan is at least the optimum (ratio ≥ 1); a DAG too large
/// for the exponential search is refused with exit 2.
#[test]
fn optimal_schedule_beside_the_greedy_one() {
    for (pes, optimum) in [("3", 11), ("2", 12)] {
        for scheduler in ["random-static", "work-stealing"] {
            let j = json(&[
                "sim",
                "dag",
                FIG,
                "--balancer",
                scheduler,
                "--pes",
                pes,
                "--t-rout",
                "1",
                "--optimal",
                "--json",
            ]);
            assert_eq!(j["optimal_makespan"], optimum, "P = {pes}: {j}");
            let ratio = j["ratio_to_optimum"].as_f64().unwrap();
            assert!(ratio >= 1.0 - 1e-12, "P = {pes} {scheduler}: {j}");
            check(&j, "optimal");
        }
    }
    let o = treesplit(&[
        "sim",
        "dag",
        FIG,
        "--balancer",
        "work-stealing",
        "--pes",
        "3",
        "--optimal",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("optimal schedule on 3 PEs (branch-and-bound): makespan 11"),
        "{}",
        stdout(&o)
    );
    let o = treesplit(&[
        "sim",
        "dag",
        "--random",
        "100",
        "--balancer",
        "work-stealing",
        "--optimal",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("at most 32 tasks"), "{}", stderr(&o));
}

#[test]
fn a_limit_stops_a_dag_run_with_its_partial_report() {
    for args in [
        &[
            "sim",
            "dag",
            "--random",
            "500",
            "--balancer",
            "random-static",
            "--pes",
            "8",
        ][..],
        &[
            "run",
            "dag",
            "--random",
            "200",
            "--balancer",
            "master-worker",
            "--pes",
            "2",
            "--unit",
            "1us",
        ],
    ] {
        let mut args = args.to_vec();
        args.extend(["--max-units", "300", "--json"]);
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
        assert_eq!(j["partial"], true, "{j}");
        assert_eq!(j["stopped_by"], "the limit of 300 work units", "{j}");
        let finished = j["result"]["finished"].as_u64().unwrap();
        assert!(
            finished > 0 && finished < j["result"]["tasks"].as_u64().unwrap(),
            "{j}"
        );
        assert!(
            j["report"]["totals"]["work_units"].as_u64().unwrap() >= 300,
            "{j}"
        );
    }
}

#[cfg(target_os = "linux")]
/// Whether process `pid` handles SIGTERM yet (Linux: the `SigCgt` mask in /proc).
fn catches_sigterm(pid: u32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGTERM - 1)) != 0)
}

#[cfg(target_os = "linux")]
#[test]
fn sigterm_stops_a_dag_run_with_its_partial_report() {
    // 2,000 tasks of 1 to 10 units of 1 ms: over five seconds on two threads.
    let args = [
        "run",
        "dag",
        "--random",
        "2000",
        "--unit",
        "1ms",
        "--balancer",
        "work-stealing",
        "--pes",
        "2",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !catches_sigterm(child.id()) {
        assert!(started.elapsed() < HANG, "the run never handled SIGTERM");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Let it run a while (any stop before its end would do).
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let o = wait(child, "run dag after SIGTERM");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("(partial, stopped by an interrupt)")
            && out.contains("of 2000 tasks finished"),
        "{out}"
    );
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
}
