//! Published instance files in the forms users download them, end to end: Pisinger's CSV of
//! hard knapsack instances (several a file, one picked by `FILE#K` or `FILE#NAME`, its `z`
//! line checked), YewPar's `.kp` knapsack files (a capacity alone, then the expected optimum),
//! DIMACS graphs closed by an `END` line and edge lists without a header; an `index.tsv` of
//! another kind beside an instance does not block its run, and `--optimum`, `--omega` and
//! `--no-published` give the known answer or skip the check. Every instance here is built
//! from one of the test kit's instances with a published answer, which the run must find.

mod support;

use std::path::{Path, PathBuf};
use support::{bad_input, scratch, stderr, stdout, treesplit};
use treesplit_apps::maxclique::Graph;

/// The test kit's knapsack instances.
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../testkit/data/knapsack");

/// A test kit instance: its capacity and (profit, weight) items.
fn instance(name: &str) -> (u64, Vec<(u64, u64)>) {
    let text = std::fs::read_to_string(Path::new(DATA).join(format!("{name}.txt"))).unwrap();
    let mut numbers = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (f[0], f[1])
        });
    let (n, capacity) = numbers.next().unwrap();
    let items: Vec<(u64, u64)> = numbers.collect();
    assert_eq!(items.len() as u64, n, "{name}");
    (capacity, items)
}

/// The published optimum of a test kit instance (its `index.tsv`).
fn optimum(name: &str) -> u64 {
    let index = std::fs::read_to_string(Path::new(DATA).join("index.tsv")).unwrap();
    let line = index
        .lines()
        .find(|l| l.split('\t').next() == Some(name))
        .unwrap();
    line.split('\t').nth(3).unwrap().parse().unwrap()
}

/// One block of Pisinger's CSV format, with optimum `z`.
fn pisinger_block(name: &str, z: u64) -> String {
    let (capacity, items) = instance(name);
    let mut s = format!(
        "{name}\nn {}\nc {capacity}\nz {z}\ntime 0.00\n",
        items.len()
    );
    for (i, (p, w)) in items.iter().enumerate() {
        s.push_str(&format!("{},{p},{w},0\n", i + 1));
    }
    s + "-----\n\n"
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `run knapsack ARGS` on two PEs: exit code, stdout and stderr.
fn knapsack(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["run", "knapsack"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--pes", "2", "--quiet"]);
    let o = treesplit(&all);
    (o.status.code(), stdout(&o), stderr(&o))
}

#[test]
fn knapsack_reads_pisingers_csv_and_checks_its_z_line() {
    let d = scratch("pisinger-csv");
    let (small, hard) = ("f1_l-d_kp_10_269", "knapPI_1_100_1000_1");
    let (z_small, z_hard) = (optimum(small), optimum(hard));
    assert_eq!((z_small, z_hard), (295, 9147));
    let csv = write(
        &d,
        "knapPI_mixed.csv",
        &(pisinger_block(small, z_small) + &pisinger_block(hard, z_hard)),
    );
    let csv = csv.to_str().unwrap();
    for (pick, profit, name) in [
        ("2", z_hard, hard),
        (hard, z_hard, hard),
        ("1", z_small, small),
        (small, z_small, small),
    ] {
        let (code, out, err) = knapsack(&[&format!("{csv}#{pick}")]);
        assert_eq!(code, Some(0), "#{pick}: {err}");
        assert!(
            out.contains(&format!(": profit {profit} (")),
            "#{pick}: {out}"
        );
        assert!(
            out.contains(&format!("the optimum z of {name} (")) && out.contains("— matches"),
            "#{pick}: {out}"
        );
    }
    // Several instances and no pick: which one is asked, not guessed.
    let o = treesplit(&["run", "knapsack", csv]);
    bad_input(&o, "no pick", &["holds 2 instances", "#K (1..=2)", "#NAME"]);
    let o = treesplit(&["run", "knapsack", &format!("{csv}#3")]);
    bad_input(&o, "#3", &["#3", "K must be in 1..=2"]);
    let o = treesplit(&["run", "knapsack", &format!("{csv}#knapPI_9")]);
    bad_input(&o, "#knapPI_9", &["no instance of that name"]);
    // A file of one instance needs no pick, and its z is what the run is checked against:
    // a wrong z is a wrong answer (exit 3) unless --optimum or --no-published says otherwise.
    let one = write(&d, "one.csv", &pisinger_block(hard, z_hard + 1));
    let one = one.to_str().unwrap();
    let (code, out, err) = knapsack(&[one]);
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(out.contains("DOES NOT MATCH"), "{out}");
    let (code, out, err) = knapsack(&[one, "--optimum", &z_hard.to_string()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("given by --optimum): 9147 — matches"), "{out}");
    let (code, out, err) = knapsack(&[one, "--no-published"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(": profit 9147 (") && !out.contains("published ("),
        "{out}"
    );
    // index.tsv beside the file lists the instance too: the two optima must agree.
    write(&d, "index.tsv", &format!("{hard}\t100\t995\t{z_hard}\n"));
    let o = treesplit(&["run", "knapsack", one]);
    bad_input(&o, "z against index.tsv", &["is 9148, but", "lists 9147"]);
    let (code, out, err) = knapsack(&[&format!("{csv}#{hard}")]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("— matches"), "{out}");
    // Bad blocks are bad input naming the line.
    let bad = write(&d, "bad.csv", "kp\nn 2\nc 10\n1,5,4,0\n2,5,x,0\n-----\n");
    let o = treesplit(&["run", "knapsack", bad.to_str().unwrap()]);
    bad_input(
        &o,
        "bad weight",
        &["bad.csv:5:", "the weight is not a whole number"],
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn knapsack_reads_yewpar_kp_files_a_capacity_first() {
    let d = scratch("yewpar-kp");
    let name = "knapPI_2_100_1000_1";
    let (capacity, items) = instance(name);
    let z = optimum(name);
    let lines: String = items.iter().map(|(p, w)| format!("{p} {w}\n")).collect();
    // YewPar's form: the capacity, the expected result, then `profit weight` lines.
    let kp = write(&d, "weak.kp", &format!("{capacity}\n{z}\n{lines}"));
    let (code, out, err) = knapsack(&[kp.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&format!(": profit {z} (")), "{out}");
    assert!(out.contains("weak.kp:2 states): 1514 — matches"), "{out}");
    // The capacity alone, then the items: no optimum stated, so --optimum gives it.
    let bare = write(&d, "bare.kp", &format!("{capacity}\n{lines}"));
    let (code, out, err) = knapsack(&[bare.to_str().unwrap(), "--optimum", "1514"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(": profit 1514 (") && out.contains("— matches"),
        "{out}"
    );
    let (code, _, err) = knapsack(&[bare.to_str().unwrap(), "--optimum", "1515"]);
    assert_eq!(code, Some(3), "{err}");
    // A stated optimum that is wrong is a wrong answer.
    let wrong = write(&d, "wrong.kp", &format!("{capacity}\n{}\n{lines}", z - 1));
    let (code, out, _) = knapsack(&[wrong.to_str().unwrap()]);
    assert_eq!(code, Some(3), "{out}");
    for (text, want) in [
        (
            format!("{capacity}\n"),
            "bad.kp:1: no 'profit weight' lines",
        ),
        (
            format!("{capacity}\n{z}\n5 6 7\n"),
            "bad.kp:3: expected two numbers",
        ),
        (
            format!("{capacity} 1 2\n"),
            "bad.kp:1: expected 'n capacity' (or a capacity alone",
        ),
        (
            format!("{capacity}\n5 6\n7\n"),
            "bad.kp:3: missing the weight",
        ),
    ] {
        let bad = write(&d, "bad.kp", &text);
        let o = treesplit(&["run", "knapsack", bad.to_str().unwrap()]);
        bad_input(&o, want, &[want]);
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_index_tsv_of_another_kind_does_not_block_a_knapsack_run() {
    let d = scratch("foreign-index");
    let inst = write(&d, "inst.txt", "2 10\n3 4\n5 6\n");
    let inst = inst.to_str().unwrap();
    let index = |text: &[u8]| std::fs::write(d.join("index.tsv"), text).unwrap();
    // Another application's table, a free-form one and one that is not text at all.
    for other in [
        &b"file\tn\tm\tomega\nc5.clq\t5\t6\t3\n"[..],
        b"these are my notes, not a table\n",
        b"\x00\xff\xfe binary\n",
    ] {
        index(other);
        let (code, out, err) = knapsack(&[inst]);
        assert_eq!(code, Some(0), "{other:?}: {err}");
        assert!(
            out.contains(": profit 8 (") && !out.contains("published ("),
            "{out}"
        );
    }
    // A table that lists this instance is ours: its optimum is checked, and an entry that
    // disagrees with the file is an error that names the ways past it.
    index(b"other\tx\ty\nname\tn\tcapacity\toptimum\ninst\t2\t10\t8\n");
    let (code, out, err) = knapsack(&[inst]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("index.tsv)): 8 — matches"), "{out}");
    index(b"inst\t3\t10\t8\n");
    let o = treesplit(&["run", "knapsack", inst]);
    bad_input(
        &o,
        "disagreeing entry",
        &["index.tsv:1:", "n = 3", "--no-published", "--optimum"],
    );
    let (code, out, err) = knapsack(&[inst, "--no-published"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("published ("), "{out}");
    let (code, out, err) = knapsack(&[inst, "--optimum", "8"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("given by --optimum): 8 — matches"), "{out}");
    let o = treesplit(&["run", "knapsack", inst, "--optimum", "8", "--no-published"]);
    bad_input(&o, "both", &["--optimum", "--no-published"]);
    let o = treesplit(&["run", "knapsack", inst, "--optimum", "-1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&d);
}

/// K(3,3,3,3): 12 vertices in 4 parts of 3, every pair of parts joined; ω = 4. Its edges,
/// 1-based.
fn multipartite() -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for u in 1..=12u32 {
        for v in u + 1..=12 {
            if (u - 1) / 3 != (v - 1) / 3 {
                edges.push((u, v));
            }
        }
    }
    edges
}

/// `run maxclique ARGS` on two PEs: exit code, stdout and stderr.
fn maxclique(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["run", "maxclique"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--pes", "2", "--quiet"]);
    let o = treesplit(&all);
    (o.status.code(), stdout(&o), stderr(&o))
}

/// ω as a run prints it.
fn omega_of(out: &str) -> u32 {
    let at = out.find("ω = ").unwrap_or_else(|| panic!("no ω: {out}"));
    let rest = &out[at + "ω = ".len()..];
    rest[..rest.find(':').unwrap()].parse().unwrap()
}

#[test]
fn maxclique_reads_dimacs_with_end_and_edge_lists_without_a_header() {
    let d = scratch("graph-formats");
    let edges = multipartite();
    let dimacs: String = format!("c K(3,3,3,3)\np edge 12 {}\n", edges.len())
        + &edges
            .iter()
            .map(|(u, v)| format!("e {u} {v}\n"))
            .collect::<String>();
    let ended = write(&d, "k3333.clq", &format!("{dimacs}END\n"));
    let (code, out, err) = maxclique(&[ended.to_str().unwrap(), "--omega", "4"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("--omega gives ω; the witness checked against the graph): ω = 4 — matches"),
        "{out}"
    );
    // An edge list: comments of three kinds, each edge once in each direction.
    let list: String = "# K(3,3,3,3)\n% an edge list\nc 1-based\n".to_string()
        + &edges
            .iter()
            .map(|(u, v)| format!("{u} {v}\n{v} {u}\n"))
            .collect::<String>();
    let list = write(&d, "k3333.txt", &list);
    let (code, out, err) = maxclique(&[list.to_str().unwrap(), "--omega", "4"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(omega_of(&out), 4, "{out}");
    let (code, _, err) = maxclique(&[list.to_str().unwrap(), "--omega", "5"]);
    assert_eq!(code, Some(3), "{err}");
    // A random graph as DIMACS and as an edge list (with END): the same ω.
    let g = Graph::random(70, 0.5, 11).unwrap();
    let file = write(&d, "g.clq", &g.to_dimacs());
    let (code, out, err) = maxclique(&[file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let omega = omega_of(&out);
    assert!(omega >= 2, "{out}");
    let body: String = g
        .to_dimacs()
        .lines()
        .filter_map(|l| l.strip_prefix("e "))
        .map(|l| format!("{l}\n"))
        .collect();
    let list = write(&d, "g.edges", &format!("{body}END\n"));
    let (code, out, err) = maxclique(&[list.to_str().unwrap(), "--omega", &omega.to_string()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("— matches"), "{out}");
    // The published DIMACS set, where the checkout has it: brock200_2 (ω = 12) as an edge
    // list closed by END.
    let brock = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/dimacs/brock200_2.clq"
    );
    if let Ok(text) = std::fs::read_to_string(brock) {
        let body: String = text
            .lines()
            .filter_map(|l| l.strip_prefix("e "))
            .map(|l| format!("{l}\n"))
            .collect();
        let list = write(&d, "brock200_2.edges", &format!("{body}END\n"));
        let (code, out, err) = maxclique(&[list.to_str().unwrap(), "--omega", "12"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("ω = 12 — matches"), "{out}");
    }
    // Bad input names the line; the checks of DIMACS files stay.
    for (text, want) in [
        (
            format!("{dimacs}END\ne 1 2\n"),
            ":58: a line after END (line 57)",
        ),
        ("1 2\n2 2\n".to_string(), ":2: a loop at vertex 2"),
        ("1 2\n0 3\n".to_string(), ":2: vertex 0"),
        ("1 2\n2 3 4\n".to_string(), ":2: expected an edge 'u v'"),
        (
            "p edge 3 1\ne 1 4\nEND\n".to_string(),
            ":2: vertex 4 is not in 1..=3",
        ),
        (
            "p edge 3 2\ne 1 2\nEND\n".to_string(),
            ":1: the problem line announces 2 edges",
        ),
        ("c nothing\n".to_string(), ":1: no problem line"),
    ] {
        let bad = write(&d, "bad.clq", &text);
        let o = treesplit(&["run", "maxclique", bad.to_str().unwrap()]);
        bad_input(&o, want, &[want]);
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn maxclique_omega_and_no_published_override_the_table() {
    let d = scratch("omega-flags");
    let graph = write(
        &d,
        "c5.clq",
        "p edge 5 6\ne 1 2\ne 2 3\ne 3 4\ne 4 5\ne 5 1\ne 1 3\n",
    );
    let g = graph.to_str().unwrap();
    // A table that lists another ω: a wrong answer, unless the command line says otherwise.
    write(&d, "index.tsv", "file\tn\tm\tomega\nc5.clq\t5\t6\t4\n");
    let (code, _, _) = maxclique(&[g]);
    assert_eq!(code, Some(3));
    let (code, out, err) = maxclique(&[g, "--omega", "3"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("ω = 3 — matches"), "{out}");
    let (code, out, err) = maxclique(&[g, "--no-published"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("no published ω for this graph"), "{out}");
    // A table whose entry is of another graph: bad input that names the ways past it.
    write(&d, "index.tsv", "file\tn\tm\tomega\nc5.clq\t6\t6\t3\n");
    let o = treesplit(&["run", "maxclique", g]);
    bad_input(&o, "other graph", &["n = 6", "--no-published", "--omega"]);
    let (code, _, err) = maxclique(&[g, "--no-published"]);
    assert_eq!(code, Some(0), "{err}");
    // Flags that cannot both hold are refused, never ignored.
    let o = treesplit(&["run", "maxclique", g, "--omega", "3", "--no-published"]);
    bad_input(&o, "both", &["--omega", "--no-published"]);
    let o = treesplit(&["run", "maxclique", "--random", "20,0.5", "--no-published"]);
    bad_input(&o, "--random", &["--no-published", "--random"]);
    let (code, out, err) = maxclique(&["--random", "30,0.0", "--omega", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("ω = 1 — matches"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}
