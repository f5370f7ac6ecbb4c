//! `treesplit run/sim maxclique` and `semigroups` end to end: ω of G(n, p) graphs against
//! Debian's `cliquer` (Niskanen–Östergård) on the same DIMACS files, on threads and in the
//! simulator, with the witness checked against the graph; `--random N,P --seed S` draws the
//! graph the library draws; malformed graph files and arguments are bad input naming the file
//! and line; semigroup counts against OEIS A007323.
//!
//! `cliquer` is a system package (`.ci/run` installs it and sets `TREESPLIT_REQUIRE_CLIQUER`,
//! which makes its absence a failure); elsewhere the comparison with it is skipped, saying
//! so, and ω is still checked against the sequential run.

mod support;

use std::process::Command;
use support::{bad_input, json_of, scratch, stderr, stdout, treesplit};
use treesplit_apps::maxclique::Graph;

/// The numbers of numerical semigroups of genus 0..=30 (OEIS A007323).
const A007323: [u64; 31] = [
    1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693, 2857, 4806, 8045, 13467, 22464,
    37396, 62194, 103246, 170963, 282828, 467224, 770832, 1270267, 2091030, 3437839, 5646773,
];

/// ω by `cliquer -su FILE` ("size=ω, weight=ω: v1 v2 …"), or `None` where cliquer is not
/// installed and not required.
fn cliquer_omega(file: &std::path::Path) -> Option<u64> {
    let o = match Command::new("cliquer").arg("-su").arg(file).output() {
        Ok(o) => o,
        Err(e) if std::env::var_os("TREESPLIT_REQUIRE_CLIQUER").is_some() => {
            panic!("cliquer is required (TREESPLIT_REQUIRE_CLIQUER) but cannot run: {e}")
        }
        Err(e) => {
            eprintln!("cliquer cannot run ({e}): the comparison with it is skipped");
            return None;
        }
    };
    assert!(o.status.success(), "cliquer failed: {}", stderr(&o));
    let out = stdout(&o);
    let size = out
        .split("size=")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .unwrap_or_else(|| panic!("no size= in cliquer's output: {out}"));
    Some(size.trim().parse().unwrap())
}

fn omega_of(j: &serde_json::Value, what: &str) -> u64 {
    assert_eq!(
        j["published"]["matches"], true,
        "{what}: witness check: {j}"
    );
    let clique = j["result"]["clique"].as_array().expect("a clique");
    let omega = j["result"]["omega"].as_u64().expect("ω");
    assert_eq!(clique.len() as u64, omega, "{what}");
    omega
}

#[test]
fn maxclique_matches_cliquer_on_threads_and_in_the_simulator() {
    let dir = scratch("maxclique-cliquer");
    for (n, p, seed) in [(200, 0.5, 1), (200, 0.75, 2), (100, 0.9, 3)] {
        let file = dir.join(format!("g{n}-{p}-{seed}.clq"));
        std::fs::write(&file, Graph::random(n, p, seed).unwrap().to_dimacs()).unwrap();
        let path = file.to_str().unwrap();
        let what = format!("G({n}, {p}) seed {seed}");
        let seq = omega_of(&json_of(&["run", "maxclique", path, "--sequential"]), &what);
        if let Some(omega) = cliquer_omega(&file) {
            assert_eq!(seq, omega, "{what}: sequential against cliquer");
        }
        for args in [
            &["run", "maxclique", path, "--pes", "2"][..],
            &[
                "run",
                "maxclique",
                path,
                "--pes",
                "3",
                "--balancer",
                "random-static",
            ][..],
            &["sim", "maxclique", path, "--pes", "256"][..],
            &[
                "sim",
                "maxclique",
                path,
                "--pes",
                "64",
                "--balancer",
                "master-worker",
            ][..],
        ] {
            assert_eq!(omega_of(&json_of(args), &what), seq, "{what}: {args:?}");
        }
        // --random draws the same graph from the same seed.
        let np = format!("{n},{p}");
        let s = seed.to_string();
        let j = json_of(&[
            "run",
            "maxclique",
            "--random",
            &np,
            "--seed",
            &s,
            "--pes",
            "2",
        ]);
        assert_eq!(omega_of(&j, &what), seq, "{what}: --random");
        let j = json_of(&[
            "run",
            "maxclique",
            "--random",
            &np,
            "--seed",
            &s,
            "--sequential",
        ]);
        assert_eq!(omega_of(&j, &what), seq, "{what}: --random --sequential");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn maxclique_prints_omega_and_its_clique_and_checks_it() {
    let o = treesplit(&[
        "run",
        "maxclique",
        "--random",
        "60,0.5",
        "--pes",
        "2",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("ω = ") && out.contains(": clique "), "{out}");
    assert!(
        out.contains("no published ω for this graph: only the witness is checked")
            && out.contains("matches"),
        "{out}"
    );
    let o = treesplit(&[
        "run",
        "maxclique",
        "--random",
        "60,0.5",
        "--pes",
        "2",
        "--check",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// ω published in an `index.tsv` beside a DIMACS file (the DIMACS set in shared/data, or a
/// table written here) is checked: equal ω matches; a table that lists another ω is a wrong
/// answer (exit 3); one whose entry has another size is bad input (exit 2); a file named
/// `index.tsv` without `file` and `omega` columns is another table, and is ignored.
#[test]
fn maxclique_checks_omega_against_a_published_table() {
    let d = scratch("omega-index");
    // The 5-cycle with a chord: ω = 3 ({1, 2, 3}).
    let graph = d.join("c5.clq");
    std::fs::write(
        &graph,
        "p edge 5 6\ne 1 2\ne 2 3\ne 3 4\ne 4 5\ne 5 1\ne 1 3\n",
    )
    .unwrap();
    let g = graph.to_str().unwrap();
    let index = d.join("index.tsv");
    let run = || treesplit(&["run", "maxclique", g, "--pes", "2", "--quiet"]);
    std::fs::write(&index, "file\tn\tm\tomega\nc5.clq\t5\t6\t3\n").unwrap();
    let o = run();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("lists ω; the witness checked against the graph): ω = 3 — matches"),
        "{}",
        stdout(&o)
    );
    std::fs::write(&index, "file\tn\tm\tomega\nc5.clq\t5\t6\t4\n").unwrap();
    let o = run();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    std::fs::write(&index, "file\tn\tm\tomega\nc5.clq\t6\t6\t3\n").unwrap();
    let o = run();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("lists n = 6, but the graph has n = 5"),
        "{}",
        stderr(&o)
    );
    std::fs::write(&index, "name\tn\tcapacity\toptimum\nc5\t5\t6\t4\n").unwrap();
    let o = run();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no published ω for this graph"),
        "{}",
        stdout(&o)
    );
    // A graph of the shared DIMACS set, where the checkout has it.
    let brock = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/dimacs/brock200_2.clq"
    );
    if std::path::Path::new(brock).exists() {
        let o = treesplit(&["run", "maxclique", brock, "--pes", "2", "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("ω = 12 — matches"), "{}", stdout(&o));
    }
}

#[test]
fn malformed_graphs_and_arguments_are_bad_input() {
    let dir = scratch("maxclique-bad");
    for (text, want) in [
        (
            "c x\np edge 3 2\ne 1 2\ne 2 4\n",
            ":4: vertex 4 is not in 1..=3",
        ),
        (
            "p edge 3 1\ne 1 two\n",
            ":2: the second vertex is not a whole number",
        ),
        ("e 1 2\n", ":1: an edge before the problem line"),
        (
            "p edge 3 5\ne 1 2\n",
            ":1: the problem line announces 5 edges",
        ),
        ("", "the file is empty"),
    ] {
        let file = dir.join("bad.clq");
        std::fs::write(&file, text).unwrap();
        let o = treesplit(&["run", "maxclique", file.to_str().unwrap()]);
        bad_input(&o, text, &["bad.clq", want]);
    }
    for (args, want) in [
        (&["run", "maxclique"][..], "<FILE>"),
        (&["run", "maxclique", "--random", "10"][..], "N,P"),
        (
            &["run", "maxclique", "--random", "10,1.5"][..],
            "P must be in [0, 1]",
        ),
        (
            &["run", "maxclique", "--random", "0,0.5"][..],
            "N must be in",
        ),
        (
            &["run", "maxclique", "/no/such/graph.clq"][..],
            "cannot read",
        ),
        (&["run", "semigroups", "81"][..], "at most 80"),
        (&["run", "semigroups", "x"][..], "invalid value"),
    ] {
        bad_input(&treesplit(args), &format!("{args:?}"), &[want]);
    }
    let file = dir.join("ok.clq");
    std::fs::write(&file, "p edge 2 1\ne 1 2\n").unwrap();
    let o = treesplit(&[
        "run",
        "maxclique",
        file.to_str().unwrap(),
        "--random",
        "5,0.5",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn semigroups_match_a007323_on_two_pes_and_in_the_simulator() {
    for (args, genus) in [
        (&["run", "semigroups", "22", "--pes", "2"][..], 22),
        (
            &[
                "run",
                "semigroups",
                "16",
                "--pes",
                "3",
                "--balancer",
                "random-static",
            ][..],
            16,
        ),
        (&["sim", "semigroups", "15", "--pes", "128"][..], 15),
        (&["run", "semigroups", "12", "--sequential"][..], 12),
    ] {
        let j = json_of(args);
        let counts: Vec<u64> = j["result"]["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        assert_eq!(counts, A007323[..=genus], "{args:?}");
        assert_eq!(j["published"]["matches"], true, "{args:?}");
        if let Some(units) = j["report"]["totals"]["work_units"].as_u64() {
            assert_eq!(
                units,
                A007323[..=genus].iter().sum::<u64>(),
                "{args:?}: one unit a semigroup"
            );
        }
    }
}

#[test]
fn bench_maxclique_times_a_folder_and_only_bench_takes_one() {
    let dir = scratch("maxclique-folder");
    let mut omegas = Vec::new();
    for (name, n, p) in [("a.clq", 60, 0.5), ("b.clq", 40, 0.8)] {
        let file = dir.join(name);
        std::fs::write(&file, Graph::random(n, p, 1).unwrap().to_dimacs()).unwrap();
        let path = file.to_str().unwrap();
        let j = json_of(&["run", "maxclique", path, "--sequential"]);
        omegas.push(omega_of(&j, name));
    }
    std::fs::write(dir.join("notes.txt"), "not a graph\n").unwrap();
    let path = dir.to_str().unwrap();
    // Each graph's ω, checked by bench against the task's sequential run and the MCQ peer.
    let j = json_of(&["bench", "maxclique", path, "--repeat", "1", "--pes", "2"]);
    let graphs = j["graphs"].as_array().expect("graphs");
    let names: Vec<&str> = graphs
        .iter()
        .map(|g| g["graph"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a.clq", "b.clq"], "{j}");
    for (g, omega) in graphs.iter().zip(&omegas) {
        assert_eq!(g["omega"].as_u64(), Some(*omega), "{j}");
        assert!(g["nodes"].as_u64().is_some() && g["mcq_nodes"].as_u64().is_some());
    }
    // The other commands refuse a folder; a folder without graphs is bad input.
    let why = "a folder of graphs is for `treesplit bench maxclique DIR` only";
    for args in [
        &["run", "maxclique", path, "--sequential"][..],
        &["run", "maxclique", path, "--pes", "2"][..],
        &["sim", "maxclique", path, "--pes", "8"][..],
    ] {
        bad_input(&treesplit(args), &format!("{args:?}"), &[why]);
    }
    let empty = scratch("maxclique-empty-folder");
    let args = [
        "bench",
        "maxclique",
        empty.to_str().unwrap(),
        "--repeat",
        "1",
    ];
    bad_input(
        &treesplit(&args),
        "an empty folder",
        &["a folder without .clq files"],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}
