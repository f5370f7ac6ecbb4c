//! Run limits and `--check` on the MPI machine: `mpirun -n 3 treesplit run … --machine mpi`
//! with `--max-units` on a tree that never ends stops with exit 1 and rank 0's partial
//! report (under `--json` the one document, naming the limit) (each rank stops at its share ⌈N/P⌉, so the total is at most N + P·Δt); a time
//! limit stops it too; `--check` passes a correct run.
#![cfg(feature = "mpi")]

use std::process::{Command, Output};

fn mpirun(ranks: usize, args: &[&str]) -> Output {
    let mut cmd = Command::new("timeout");
    cmd.args(["--kill-after=10", "120", "mpirun", "-n", &ranks.to_string()]);
    cmd.arg(env!("CARGO_BIN_EXE_treesplit")).args(args);
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1");
    cmd.output()
        .expect("cannot start timeout/mpirun (is Open MPI installed?)")
}

#[test]
fn limits_stop_an_endless_tree_on_ranks() {
    let o = mpirun(
        3,
        &[
            "run",
            "uts",
            "T3-mini",
            "-q",
            "1",
            "--machine",
            "mpi",
            "--json",
            "--max-units",
            "300000",
            "--delta-t",
            "1000",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // Under --json the partial report on stdout says what stopped the run; stderr holds no
    // error document beside it.
    assert!(!err.contains("exit_code"), "{err}");
    let j: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
    assert_eq!(j["stopped_by"], "the limit of 300000 work units", "{j}");
    assert_eq!(j["partial"], true);
    assert_eq!(j["report"]["machine"], "mpi");
    let units = j["report"]["totals"]["work_units"].as_u64().unwrap();
    assert!((100_000..=303_000).contains(&units), "{units}");
    assert_eq!(j["result"]["nodes"].as_u64(), Some(units));

    let o = mpirun(
        2,
        &[
            "run",
            "uts",
            "T3-mini",
            "-q",
            "1",
            "--machine",
            "mpi",
            "--time-limit",
            "1s",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_limit_stops_every_rank_of_an_ida_search() {
    let o = mpirun(
        3,
        &[
            "run",
            "puzzle15",
            "--korf",
            "88",
            "--machine",
            "mpi",
            "--max-units",
            "100000",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(124), "timed out: {err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("IDA* search was stopped by the limit of 100000 work units"),
        "{err}"
    );
}

#[test]
fn check_passes_a_correct_run_on_ranks() {
    let o = mpirun(3, &["run", "nqueens", "9", "--machine", "mpi", "--check"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("match the sequential run"));
}
