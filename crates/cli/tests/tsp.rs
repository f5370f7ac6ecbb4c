//! The travelling salesman end to end: every shipped TSPLIB instance reaches its published
//! optimum sequentially and on 2 PEs, every balancer on threads and the simulator give the
//! sequential optimum, standard input and random cities run, and malformed files are bad
//! input that names the line and the keyword.

mod support;

use support::{bad_input, json_of, stderr, stdout, treesplit, treesplit_with};

/// A shipped TSPLIB instance.
fn tsplib(name: &str) -> String {
    format!(
        "{}/../testkit/data/tsplib/{name}.tsp",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The instances of optima.tsv with their optima.
fn optima() -> Vec<(String, u64)> {
    let table = std::fs::read_to_string(format!(
        "{}/../testkit/data/tsplib/optima.tsv",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("file"))
        .map(|l| {
            let (file, optimum) = l.split_once('\t').unwrap();
            (
                file.trim_end_matches(".tsp").to_string(),
                optimum.parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_shipped_instance_reaches_its_published_optimum() {
    let all = optima();
    assert!(all.len() >= 9, "{all:?}");
    for (name, optimum) in all {
        let file = tsplib(&name);
        let o = treesplit(&["run", "tsp", &file, "--sequential"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains(&format!("length {optimum}: tour 1 ")) && out.contains("matches"),
            "{name}: {out}"
        );
        let j = json_of(&["run", "tsp", &file, "--pes", "2"]);
        assert_eq!(j["published"]["matches"], true, "{name}: {j}");
        assert_eq!(j["result"]["length"], optimum, "{name}: {j}");
        assert_eq!(j["result"]["tour"][0], 1, "{name}: {j}");
    }
}

#[test]
fn every_balancer_on_threads_and_the_simulator_gives_the_optimum() {
    let file = tsplib("att48");
    // Every balancer of the library's table, so that a new one is tried too.
    for balancer in treesplit::BalancerKind::ALL.iter().map(|k| k.name()) {
        let j = json_of(&["run", "tsp", &file, "--pes", "3", "--balancer", balancer]);
        assert_eq!(j["result"]["length"], 10628, "{balancer}: {j}");
        assert_eq!(j["published"]["matches"], true, "{balancer}: {j}");
        let o = treesplit(&["sim", "tsp", &file, "--pes", "16", "--balancer", balancer]);
        assert!(o.status.success(), "sim {balancer}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("length 10628: tour") && stdout(&o).contains("matches"),
            "sim {balancer}: {}",
            stdout(&o)
        );
    }
    // A larger tree in the simulator, on many PEs.
    let o = treesplit(&["sim", "tsp", &tsplib("eil51"), "--pes", "64"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("length 426: tour"), "{}", stdout(&o));
}

#[test]
fn standard_input_and_random_cities_run_without_a_published_optimum() {
    let text = std::fs::read(tsplib("gr17")).unwrap();
    let o = treesplit_with(&["run", "tsp", "-", "--pes", "2"], &[], Some(&text));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("length 2085: tour") && stdout(&o).contains("no published optimum"),
        "{}",
        stdout(&o)
    );
    let o = treesplit(&["run", "tsp", &tsplib("gr17"), "--optimum", "2084"]);
    assert_eq!(o.status.code(), Some(3), "a wrong optimum: {}", stdout(&o));
    let seq = json_of(&[
        "run",
        "tsp",
        "--random",
        "14",
        "--seed",
        "5",
        "--sequential",
    ]);
    let par = json_of(&["run", "tsp", "--random", "14", "--seed", "5", "--pes", "2"]);
    assert_eq!(seq["result"]["length"], par["result"]["length"]);
    let o = treesplit(&["run", "tsp", "--random", "0"]);
    bad_input(&o, "no cities", &["--random: N must be in 1..=200"]);
}

#[test]
fn malformed_files_are_bad_input_naming_the_line_and_the_keyword() {
    let dir = support::scratch("tsp-malformed");
    for (text, wanted) in [
        (
            "NAME: a\nTYPE: ATSP\nDIMENSION: 3\n",
            &["line 2", "TYPE", "ATSP"][..],
        ),
        (
            "NAME: a\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2\nEOF\n",
            &["line 5", "EDGE_WEIGHT_SECTION", "2 weights given"][..],
        ),
        (
            "NAME: a\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n",
            &["line 6", "NODE_COORD_SECTION", "not a number"][..],
        ),
        ("NAME: a\nEDGE_WEIGHT_TYPE: GEO\n", &["DIMENSION", "missing"][..]),
        ("\u{0}\u{1}", &["line 1", "NUL byte"][..]),
    ] {
        let file = dir.join("bad.tsp");
        std::fs::write(&file, text).unwrap();
        let o = treesplit(&["run", "tsp", file.to_str().unwrap()]);
        bad_input(&o, text, wanted);
        assert!(stderr(&o).contains("bad.tsp"), "{}", stderr(&o));
    }
}
