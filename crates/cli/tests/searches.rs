//! Branch-and-bound searches (knapsack, golomb, puzzle15) under `run` and `sim`: published
//! answers checked, bad instance files named with file and line, Korf's instances built in,
//! standard input as an instance file, and searches judged without a published optimum.

mod support;

use std::process::Command;
use support::{
    bad_input, json_of, run, stderr, stdout, treesplit, treesplit_env, treesplit_with, KORF,
};

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

/// Korf's instances are built in: puzzle15 --korf works from any directory, with no path
/// outside the repository.
#[test]
fn korf_instances_are_built_in() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_treesplit"));
    command
        .args(["run", "puzzle15", "--korf", "79", "--pes", "2", "--quiet"])
        .current_dir(std::env::temp_dir());
    let o = run(
        command,
        None,
        "puzzle15 --korf 79 from the temporary directory",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("optimal length 42"), "{}", stdout(&o));
    assert!(stdout(&o).contains("matches"), "{}", stdout(&o));
    let o = treesplit(&["run", "puzzle15", "--korf", "101"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no instance 101"), "{}", stderr(&o));
}

#[test]
fn knapsack_with_every_item_fitting_is_fast_and_reads_standard_input() {
    // 100,000 items that all fit (time linear in n: quadratic would exceed the runner's hang
    // limit), `-` for standard input, and a trailing `# comment` on a line.
    let n = 100_000u64;
    let mut text = format!("{n} {} # n capacity\n", 10 * n);
    let mut sum = 0;
    for i in 0..n {
        text.push_str(&format!("{} {} # item {i}\n", i % 97 + 1, i % 5 + 1));
        sum += i % 97 + 1;
    }
    let o = treesplit_with(
        &["run", "knapsack", "-", "--pes", "2", "--json"],
        &[],
        Some(text.as_bytes()),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["result"]["profit"], sum, "{j}");
    assert_eq!(j["result"]["items"].as_array().unwrap().len(), n as usize);
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

#[test]
fn compare_judges_a_puzzle15_iteration_by_its_solution() {
    // The last IDA* iteration stops at its first solution, so every balancer explores a
    // different number of nodes; each must still find a solution of Korf's optimal length
    // that solves the board. With the whole iteration explored, the units must match too.
    for extra in [&[][..], &["--complete-last-iteration"][..]] {
        let mut args = vec![
            "compare",
            "puzzle15",
            "--korf",
            "79",
            "--korf-file",
            KORF,
            "--pes",
            "16",
            "--json",
        ];
        args.extend_from_slice(extra);
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        // One row per balancer of the library's table.
        assert_eq!(
            rows.as_array().unwrap().len(),
            treesplit::BalancerKind::ALL.len(),
            "{rows}"
        );
    }
}

/// `--balancer` applies to puzzle15: each IDA* iteration is a parallel computation with the
/// balancer chosen, on threads and in the simulator, and the optimal length is found.
#[test]
fn puzzle15_runs_its_iterations_with_the_chosen_balancer() {
    for (command, pes, balancer) in [
        ("run", "2", "poll-and-shuffle"),
        ("sim", "16", "random-static"),
    ] {
        let j = json_of(&[
            command,
            "puzzle15",
            "--korf",
            "79",
            "--korf-file",
            KORF,
            "--pes",
            pes,
            "--balancer",
            balancer,
            "--quiet",
        ]);
        let machine = j["machine"].as_str().unwrap();
        assert!(
            machine.ends_with(&format!("P = {pes}, {balancer}")),
            "{machine}"
        );
        assert_eq!(j["result"]["length"], 42, "{command} {balancer}");
    }
}

#[test]
fn an_ida_search_says_a_static_balancers_choice_of_jobs_once_in_the_flags_words() {
    let o = treesplit(&[
        "sim",
        "puzzle15",
        "--korf",
        "79",
        "--korf-file",
        KORF,
        "--pes",
        "16",
        "--balancer",
        "random-static",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.matches("jobs per PE").count(), 1, "{err}");
    assert!(
        err.contains("give --h or --q") && !err.contains("Jobs::"),
        "{err}"
    );
}
