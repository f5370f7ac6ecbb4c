//! The MPI machine end to end: `mpirun -n K treesplit run … --machine mpi` on the apps, with
//! published answers and exact work conservation checked, over shared memory and over TCP on
//! loopback, plus failures (a panicking task, a dying rank, bad arguments). Every mpirun runs
//! under `timeout`, so a deadlock fails the test instead of hanging it.
//!
//! Needs Open MPI (`mpirun`) and a build with `--features mpi`; `.ci/run` installs both.
#![cfg(feature = "mpi")]

mod support;

use std::process::{Command, Output};

fn mpirun(ranks: usize, extra_mca: &[&str], args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("timeout");
    cmd.args(["--kill-after=10", "120", "mpirun", "-n", &ranks.to_string()]);
    cmd.args(extra_mca);
    cmd.arg(env!("CARGO_BIN_EXE_treesplit")).args(args);
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output()
        .expect("cannot start timeout/mpirun (is Open MPI installed?)")
}

fn json_run(ranks: usize, extra_mca: &[&str], app: &[&str]) -> serde_json::Value {
    let mut args = vec!["run"];
    args.extend_from_slice(app);
    args.extend_from_slice(&["--machine", "mpi", "--json", "--seed", "3"]);
    let o = mpirun(ranks, extra_mca, &args, &[]);
    assert_ne!(
        o.status.code(),
        Some(124),
        "mpirun -n {ranks} {app:?} timed out (deadlock?)"
    );
    assert!(
        o.status.success(),
        "mpirun -n {ranks} {app:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

fn check(j: &serde_json::Value, ranks: usize, units: u64) {
    assert_eq!(j["published"]["matches"], true, "{j}");
    assert_eq!(j["report"]["machine"], "mpi");
    assert_eq!(
        j["report"]["per_pe"].as_array().unwrap().len(),
        ranks,
        "one PE per rank"
    );
    assert_eq!(
        j["report"]["totals"]["work_units"], units,
        "work not conserved"
    );
}

#[test]
fn apps_on_1_to_4_ranks() {
    let nqueens_units =
        treesplit::run_sequential(treesplit_apps::NQueens::new(10).unwrap()).work_units;
    for ranks in 1..=4 {
        let j = json_run(ranks, &[], &["nqueens", "10"]);
        assert_eq!(j["result"], 724);
        check(&j, ranks, nqueens_units);
        let j = json_run(ranks, &[], &["uts", "T1-mini"]);
        assert_eq!(j["result"]["nodes"], 63_914);
        check(&j, ranks, 63_914);
        let j = json_run(
            ranks,
            &[],
            &[
                "synthetic",
                "--work",
                "3000000",
                "--alpha",
                "0.2",
                "--split",
                "adversarial",
            ],
        );
        check(&j, ranks, 3_000_000);
    }
}

/// Poll-and-shuffle with local synchronization (paper 002 §6.3) has no rounds: ranks pair
/// up by phase markers alone. Knapsack pieces cross ranks as digest + path (§6.1): each rank
/// holds the instance it read, and the published optimum comes out.
#[test]
fn poll_and_shuffle_with_local_synchronization_on_mpi() {
    for ranks in [2, 3, 4] {
        let j = json_run(
            ranks,
            &[],
            &[
                "uts",
                "T1-mini",
                "--balancer",
                "poll-and-shuffle",
                "--sync",
                "local",
            ],
        );
        check(&j, ranks, 63_914);
        assert_eq!(j["report"]["config"]["balancer"]["sync"], "local");
        let j = json_run(
            ranks,
            &[],
            &[
                "knapsack",
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../testkit/data/knapsack/knapPI_1_100_1000_1.txt"
                ),
                "--balancer",
                "poll-and-shuffle",
                "--sync",
                "local",
                "--adaptive",
            ],
        );
        assert_eq!(j["result"]["profit"], 9147, "{j}");
    }
}

#[test]
fn every_balancer_on_3_ranks() {
    for balancer in [
        "neighbour-polling",
        "global-round-robin",
        "random-shift",
        "poll-and-shuffle",
    ] {
        let j = json_run(3, &[], &["uts", "T1-mini", "--balancer", balancer]);
        check(&j, 3, 63_914);
        assert_eq!(j["report"]["config"]["balancer"]["name"], balancer);
    }
    // The static balancers, on a bag of 2^7 jobs or 5 jobs per rank.
    for (balancer, extra) in [
        (
            "random-static",
            &["--h", "7", "--static-permutation", "gf2"][..],
        ),
        (
            "random-static",
            &["--h", "7", "--static-permutation", "lcg"][..],
        ),
        ("block", &["--q", "5"][..]),
        ("round-robin", &["--q", "5"][..]),
        ("random", &["--q", "5"][..]),
        (
            "master-worker",
            &["--h", "7", "--bundle", "adaptive:2:1"][..],
        ),
        ("prefix-sum", &["--h", "7", "--atomic-jobs"][..]),
        (
            "master-worker",
            &["--h", "7", "--deal-order", "largest-first"][..],
        ),
        (
            "hierarchical-master-worker",
            &["--h", "7", "--fanout", "2"][..],
        ),
        ("shared-memory-master-worker", &["--q", "5"][..]),
    ] {
        let mut args = vec!["uts", "T1-mini", "--balancer", balancer];
        args.extend_from_slice(extra);
        let j = json_run(3, &[], &args);
        check(&j, 3, 63_914);
        assert_eq!(j["report"]["config"]["balancer"]["name"], balancer);
    }
    for ranks in [2, 4] {
        let j = json_run(
            ranks,
            &[],
            &[
                "uts",
                "T1-mini",
                "--termination",
                "response-tree",
                "--fast-init",
            ],
        );
        check(&j, ranks, 63_914);
        assert_eq!(j["report"]["config"]["termination"], "response-tree");
    }
}

#[test]
fn uts_t1_on_2_and_4_ranks() {
    for ranks in [2, 4] {
        let j = json_run(ranks, &[], &["uts", "T1"]);
        assert_eq!(j["result"]["nodes"], 4_130_071);
        check(&j, ranks, 4_130_071);
        assert!(j["report"]["totals"]["splits"].as_u64().unwrap() > 0);
    }
}

#[test]
fn over_tcp_on_loopback() {
    let tcp = [
        "--mca",
        "btl",
        "tcp,self",
        "--mca",
        "btl_tcp_if_include",
        "lo",
        "--mca",
        "oob_tcp_if_include",
        "lo",
    ];
    let j = json_run(3, &tcp, &["uts", "T1-mini"]);
    check(&j, 3, 63_914);
    assert!(j["report"]["per_pe"][1]["bytes_sent"].as_u64().unwrap() > 0);
}

#[test]
fn a_panicking_task_ends_the_job_naming_the_rank() {
    let o = mpirun(
        3,
        &[],
        &["run", "synthetic", "--work", "20000000", "--machine", "mpi"],
        &[("TREESPLIT_FAULT", "panic:1")],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(124), "timed out: {err}");
    assert_eq!(o.status.code(), Some(1), "a failed run: {err}");
    assert!(err.contains("PE 1 (MPI rank 1) panicked"), "{err}");
    assert!(err.contains("injected fault"), "{err}");
}

#[test]
fn a_dying_rank_ends_the_job() {
    let o = mpirun(
        3,
        &[],
        &["run", "synthetic", "--work", "20000000", "--machine", "mpi"],
        &[("TREESPLIT_FAULT", "exit:2")],
    );
    assert_ne!(o.status.code(), Some(124), "timed out");
    assert!(!o.status.success());
}

#[test]
fn bad_arguments_are_reported_once() {
    let o = mpirun(3, &[], &["run", "nqueens", "0", "--machine", "mpi"], &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert_eq!(err.matches("error: N-Queens needs").count(), 1, "{err}");
    // A flag that does not apply: rejected before MPI starts, once.
    let o = mpirun(
        3,
        &[],
        &[
            "run",
            "nqueens",
            "8",
            "--machine",
            "mpi",
            "--bundle",
            "fixed:2",
        ],
        &[],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert_eq!(
        err.matches("error: --bundle does not apply").count(),
        1,
        "{err}"
    );
}

/// IDA* with --json over MPI: one JSON document, printed by rank 0.
#[test]
fn puzzle15_json_on_ranks() {
    let o = mpirun(
        3,
        &[],
        &[
            "run",
            "puzzle15",
            "--korf",
            "79",
            "--korf-file",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../apps/data/korf100.tsv"),
            "--machine",
            "mpi",
            "--json",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
    assert_eq!(j["result"]["length"], 42, "{j}");
    assert!(
        j["machine"].as_str().unwrap().starts_with("mpi, P = 3"),
        "{j}"
    );
}

/// Branch-and-bound over MPI: incumbents travel between ranks as bound messages; the optima
/// are the published ones. IDA* runs its iterations one MPI run after another.
#[test]
fn branch_and_bound_on_ranks() {
    for ranks in [1, 2, 4] {
        for (app, extra) in [
            (
                &[
                    "knapsack",
                    concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/../testkit/data/knapsack/knapPI_3_500_1000_1.txt"
                    ),
                ][..],
                &[][..],
            ),
            (
                &[
                    "knapsack",
                    concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/../testkit/data/knapsack/knapPI_2_200_1000_1.txt"
                    ),
                ][..],
                &["--balancer", "master-worker", "--h", "6"][..],
            ),
            (
                &["golomb", "8"][..],
                &["--termination", "response-tree"][..],
            ),
            (
                &[
                    "tsp",
                    concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/../testkit/data/tsplib/eil51.tsp"
                    ),
                ][..],
                &[][..],
            ),
        ] {
            let mut args = app.to_vec();
            args.extend_from_slice(extra);
            let j = json_run(ranks, &[], &args);
            assert_eq!(j["published"]["matches"], true, "{args:?} on {ranks}: {j}");
            assert_eq!(j["report"]["per_pe"].as_array().unwrap().len(), ranks);
            assert!(j["report"]["totals"]["improvements"].as_u64().unwrap() >= 1);
        }
    }
    // IDA*: one MPI run per iteration, rank 0 broadcasting the next threshold.
    for ranks in [1, 3] {
        let o = mpirun(
            ranks,
            &[],
            &[
                "run",
                "puzzle15",
                "--korf",
                "79",
                "--korf-file",
                concat!(env!("CARGO_MANIFEST_DIR"), "/../apps/data/korf100.tsv"),
                "--machine",
                "mpi",
            ],
            &[],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("optimal length 42") && out.contains("matches"),
            "{out}"
        );
        assert_eq!(
            out.matches("optimal length").count(),
            1,
            "printed once: {out}"
        );
    }
}

#[test]
fn trace_and_gantt_on_3_ranks() {
    let dir = std::env::temp_dir().join(format!("treesplit-mpi-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("mpi.json");
    let svg = dir.join("mpi.svg");
    let o = mpirun(
        3,
        &[],
        &[
            "run",
            "uts",
            "T1-mini",
            "--machine",
            "mpi",
            "--quiet",
            "--trace",
            json.to_str().unwrap(),
            "--gantt",
            svg.to_str().unwrap(),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc = support::chrome_trace::check_chrome_trace(&json, 3);
    assert_eq!(doc["otherData"]["machine"], "mpi");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Paper 003's distributed hash table on 3 ranks: the distinct keys equal the sequential
/// dedup, and the work units equal the simulator's for the same P (the table has P·q buckets).
#[test]
fn hashtable_on_3_ranks() {
    let sim = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args([
            "sim",
            "hashtable",
            "--keys",
            "20000",
            "--q",
            "32",
            "--pes",
            "3",
        ])
        .args(["--json", "--seed", "3"])
        .output()
        .unwrap();
    let sim: serde_json::Value = serde_json::from_slice(&sim.stdout).unwrap();
    let units = sim["simulation"]["report"]["totals"]["work_units"]
        .as_u64()
        .unwrap();
    for balancer in ["random-polling", "block", "random", "prefix-sum"] {
        let j = json_run(
            3,
            &[],
            &[
                "hashtable",
                "--keys",
                "20000",
                "--q",
                "32",
                "--balancer",
                balancer,
            ],
        );
        check(&j, 3, units);
    }
}

// ---- The chapter's examples on MPI ranks ----

#[test]
fn examples_on_3_ranks() {
    for balancer in ["random-polling", "round-robin", "master-worker"] {
        let j = json_run(
            3,
            &[],
            &[
                "mandelbrot",
                "--n",
                "50",
                "--z0",
                "-0.75,0.1",
                "--a0",
                "0.05",
                "--max-iter",
                "500",
                "--balancer",
                balancer,
            ],
        );
        check(&j, 3, 1_054_079);
        assert_eq!(j["result"]["in_set"], 2006, "{j}");
        let j = json_run(
            3,
            &[],
            &[
                "integrate",
                "--f",
                "osc",
                "--tol",
                "1e-9",
                "--balancer",
                balancer,
            ],
        );
        assert_eq!(j["published"]["matches"], true, "{j}");
        let mut args = vec![
            "run",
            "bfs",
            "--rmat",
            "10",
            "--edge-factor",
            "8",
            "--source",
            "3",
        ];
        args.extend(["--machine", "mpi", "--json", "--balancer", balancer]);
        let o = mpirun(3, &[], &args, &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(j["matches_sequential"], true, "{j}");
        let seq = treesplit_seq(&[
            "run",
            "bfs",
            "--rmat",
            "10",
            "--edge-factor",
            "8",
            "--source",
            "3",
            "--sequential",
            "--json",
        ]);
        assert_eq!(
            j["result"], seq["result"],
            "MPI BFS equals the sequential BFS"
        );
    }
}

fn treesplit_seq(args: &[&str]) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success());
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Task DAGs (paper 001 §14.6): every DAG scheduler on 3 ranks runs every task once, never
/// before its predecessors finished (ranks' clocks are aligned through the system clock),
/// within Theorem 14.3 plus the communication term.
#[test]
fn dag_schedulers_respect_dependencies_on_mpi() {
    let stg = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testkit/data/dag/small10.stg"
    );
    for scheduler in ["master-worker", "random-static", "work-stealing"] {
        for input in [&["dag", "--multiply", "2"][..], &["dag", stg][..]] {
            let mut app = input.to_vec();
            app.extend(["--balancer", scheduler, "--unit", "20us"]);
            let j = json_run(3, &[], &app);
            assert_eq!(j["machine"], "mpi", "{j}");
            assert_eq!(j["pes"], 3);
            assert_eq!(j["dependencies_respected"], true, "{j}");
            assert_eq!(j["holds_with_communication"], true, "{j}");
            assert_eq!(j["totals"]["work_units"], j["work"], "{j}");
            assert!(j["makespan"].as_f64().unwrap() >= j["lower_bound"].as_f64().unwrap());
        }
    }
}

/// Maximum clique on ranks: every rank draws G(n, p) from the same seed (or reads the same
/// file), pieces name the graph by digest, and ω equals the sequential run's with the witness
/// checked against the graph; semigroup counts equal OEIS A007323 with one unit a semigroup.
#[test]
fn maxclique_and_semigroups_on_ranks() {
    let dir = std::env::temp_dir().join(format!("treesplit-mpi-clique-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("g.clq");
    std::fs::write(
        &file,
        treesplit_apps::maxclique::Graph::random(120, 0.8, 7)
            .unwrap()
            .to_dimacs(),
    )
    .unwrap();
    let path = file.to_str().unwrap();
    for graph in [&["--random", "150,0.7"][..], &[path][..]] {
        let mut seq_args = vec!["run", "maxclique"];
        seq_args.extend_from_slice(graph);
        seq_args.extend(["--sequential", "--json"]);
        if graph.len() == 2 {
            seq_args.extend(["--seed", "3"]); // json_run's seed
        }
        let omega = treesplit_seq(&seq_args)["result"]["omega"].clone();
        assert!(omega.as_u64().unwrap() > 3, "{omega}");
        for (ranks, balancer) in [
            (2, "random-polling"),
            (3, "random-static"),
            (4, "poll-and-shuffle"),
        ] {
            let mut app = vec!["maxclique"];
            app.extend_from_slice(graph);
            app.extend(["--balancer", balancer]);
            let j = json_run(ranks, &[], &app);
            assert_eq!(j["result"]["omega"], omega, "{app:?} on {ranks} ranks: {j}");
            assert_eq!(j["published"]["matches"], true, "{j}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let counts: [u64; 19] = [
        1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693, 2857, 4806, 8045, 13467,
    ];
    for ranks in [2, 3] {
        let j = json_run(ranks, &[], &["semigroups", "18"]);
        assert_eq!(j["result"]["counts"], serde_json::json!(counts), "{j}");
        check(&j, ranks, counts.iter().sum());
    }
}
