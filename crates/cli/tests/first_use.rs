//! What a new user of the command line met first: counts in messages said in words ("1
//! vertex", "PEs 0 and 1"), errors naming the limit or flag that is the cause, the scatter
//! plot's q axis, a random instance's own seed (`--instance-seed`, kept by checkpoints),
//! `bench` saying each measurement as it goes, the maximum-clique size limit explained, and
//! a PE's panic with its backtrace under `RUST_BACKTRACE`.

mod support;

use support::{answer, bad_input, scratch, stderr, stdout, treesplit, treesplit_env};

#[test]
fn a_pe_range_is_said_in_words() {
    let fault = |spec: &str, pes: &str| {
        treesplit_env(
            &["run", "nqueens", "6", "--pes", pes],
            &[("TREESPLIT_FAULT", spec)],
        )
    };
    let o = fault("panic:5", "2");
    bad_input(&o, "two PEs", &["the run has only PEs 0 and 1"]);
    let o = fault("panic:1", "1");
    bad_input(&o, "one PE", &["the run has only PE 0"]);
    let o = fault("panic:9", "4");
    bad_input(&o, "four PEs", &["the run has only PEs 0 to 3"]);
    assert!(!stderr(&o).contains("0.."), "{}", stderr(&o));
}

#[test]
fn counts_of_one_take_the_singular() {
    // G(3, 0) has no edges: its largest clique is one vertex.
    let o = treesplit(&["run", "maxclique", "--random", "3,0", "--pes", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("a clique of 1 vertex "),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("1 vertices"), "{}", stdout(&o));
    // Two static jobs for three PEs: one PE gets none.
    let o = treesplit(&[
        "run",
        "nqueens",
        "8",
        "--pes",
        "3",
        "--balancer",
        "random-static",
        "--h",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("1 PE gets none"), "{e}");
    assert!(!e.contains("PE get ") && !e.contains("1 PEs"), "{e}");
}

#[test]
fn errors_name_their_own_cause() {
    // Threads: the thread machine's limit, not the simulator's.
    let o = treesplit(&["run", "nqueens", "8", "--pes", "100000000"]);
    bad_input(
        &o,
        "run --pes",
        &["--pes 100000000", "thread machine runs (4096"],
    );
    assert!(!stderr(&o).contains("4194304"), "{}", stderr(&o));
    // depth simulates every P: the simulator's limit, and no --max-h the user never gave.
    let o = treesplit(&["depth", "--pes", "100000000"]);
    bad_input(&o, "depth --pes", &["--pes 100000000", "4194304"]);
    assert!(!stderr(&o).contains("--max-h"), "{}", stderr(&o));
    let o = treesplit(&[
        "run",
        "nqueens",
        "8",
        "--balancer",
        "master-worker",
        "--bundle",
        "fixed:0",
    ]);
    bad_input(&o, "--bundle fixed:0", &["fixed:0", "B ≥ 1"]);
    // Without --gantt the refusal of engine threads speaks of no Gantt chart.
    let o = treesplit(&["sim", "nqueens", "8", "--pes", "64", "--sim-threads", "4"]);
    bad_input(&o, "--sim-threads", &["--sim-threads 4", "timeline"]);
    assert!(!stderr(&o).contains("Gantt"), "{}", stderr(&o));
}

#[test]
fn the_scatter_q_axis_is_labelled_at_the_q_measured() {
    use support::svg::{elements, overlap};
    let dir = scratch("first-use-scatter");
    let svg = dir.join("eta.svg");
    let qs = "1,2,4,8,16,32,64,128,256,512,1024,2048";
    let o = treesplit(&[
        "scatter",
        "--alpha",
        "1",
        "--q",
        qs,
        "--pes",
        "64",
        "--trials",
        "20",
        "--svg",
        svg.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let all = elements(&text);
    // The x axis's labels: centred numbers (the y axis's are right-aligned).
    let labels: Vec<_> = all
        .iter()
        .filter(|e| e.tag == "text" && e.attr("text-anchor") == "middle")
        .filter(|e| e.text.parse::<f64>().is_ok())
        .collect();
    let names: Vec<&str> = labels.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(names, qs.split(',').collect::<Vec<_>>(), "{names:?}");
    for pair in labels.windows(2) {
        assert!(
            !overlap(pair[0].bbox(), pair[1].bbox()),
            "{} and {} overlap",
            pair[0].text,
            pair[1].text
        );
    }
    // No point on the frame: the largest q's label lies inside the plot, left of its edge.
    let last = labels.last().unwrap();
    assert!(last.bbox().2 < 990.0, "{:?}", last.bbox());
    // Many q values: labels thinned, the largest still labelled, none overlapping.
    let many: Vec<String> = (1..=60).map(|q| q.to_string()).collect();
    let o = treesplit(&[
        "scatter",
        "--alpha",
        "1",
        "--q",
        &many.join(","),
        "--pes",
        "64",
        "--trials",
        "5",
        "--svg",
        svg.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let all = elements(&text);
    let labels: Vec<_> = all
        .iter()
        .filter(|e| e.tag == "text" && e.attr("text-anchor") == "middle")
        .filter(|e| e.text.parse::<u64>().is_ok())
        .collect();
    assert!(labels.len() > 5 && labels.len() < 60, "{}", labels.len());
    assert_eq!(labels.last().unwrap().text, "60");
    for pair in labels.windows(2) {
        assert!(!overlap(pair[0].bbox(), pair[1].bbox()), "{}", pair[1].text);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first line's answer of a run (`… : ANSWER`).
fn first_answer(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    answer(stdout(o).lines().next().unwrap_or("")).to_string()
}

#[test]
fn a_random_instance_has_its_own_seed() {
    let clique = |extra: &[&str]| {
        let mut args = vec!["run", "maxclique", "--random", "80,0.6", "--pes", "2"];
        args.extend_from_slice(extra);
        treesplit(&args)
    };
    // --seed alone draws the instance, as before; --instance-seed keeps it while --seed
    // changes the balancer's randomness.
    let old = clique(&["--seed", "3"]);
    let new = clique(&["--seed", "9", "--instance-seed", "3", "--json"]);
    assert!(new.status.success(), "{}", stderr(&new));
    let j: serde_json::Value = serde_json::from_slice(&new.stdout).unwrap();
    assert!(j.to_string().contains("--instance-seed 3"), "{j}");
    let with = clique(&["--seed", "9", "--instance-seed", "3"]);
    assert_eq!(first_answer(&with), first_answer(&old));
    assert!(stdout(&with).contains("seed = 9"), "{}", stdout(&with));
    // The hash table's generated keys likewise.
    let table = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "hashtable",
            "--keys",
            "5000",
            "--q",
            "4",
            "--pes",
            "2",
        ];
        args.extend_from_slice(extra);
        treesplit(&args)
    };
    assert_eq!(
        first_answer(&table(&["--seed", "5"])),
        first_answer(&table(&["--seed", "8", "--instance-seed", "5"]))
    );
    // A random DAG names the seed it was drawn from.
    let o = treesplit(&[
        "run",
        "dag",
        "--random",
        "30",
        "--balancer",
        "work-stealing",
        "--pes",
        "2",
        "--seed",
        "9",
        "--instance-seed",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("random 30 (seed 4)"), "{}", stdout(&o));
    // An instance that draws nothing refuses it.
    let o = treesplit(&["run", "nqueens", "8", "--instance-seed", "3"]);
    bad_input(
        &o,
        "nqueens --instance-seed",
        &["--instance-seed", "nqueens"],
    );
    let o = treesplit(&[
        "run",
        "dag",
        "--multiply",
        "1",
        "--balancer",
        "work-stealing",
        "--instance-seed",
        "3",
    ]);
    bad_input(&o, "dag --multiply --instance-seed", &["--instance-seed"]);
}

#[test]
fn a_checkpoint_keeps_the_instance_seed_and_resume_may_change_the_balancers() {
    let dir = scratch("first-use-ckpt");
    let file = dir.join("clique.ckpt");
    let file = file.to_str().unwrap();
    let random = ["run", "maxclique", "--random", "90,0.8"];
    let o = treesplit(
        &[
            &random[..],
            &[
                "--instance-seed",
                "3",
                "--seed",
                "5",
                "--pes",
                "2",
                "--max-units",
                "50",
                "--checkpoint",
                file,
            ],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let seq = treesplit(&[&random[..], &["--seed", "3", "--sequential"]].concat());
    // A --seed here seeds the balancer: the instance stays the checkpoint's.
    let o = treesplit(&["resume", file, "--pes", "3", "--seed", "7"]);
    assert_eq!(first_answer(&o), first_answer(&seq));
    assert!(stdout(&o).contains("--instance-seed 3"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_says_each_measurement_as_it_goes() {
    let args = ["bench", "nqueens", "7", "--pes", "2", "--repeat", "2"];
    let o = treesplit(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    let lines: Vec<&str> = e.lines().filter(|l| l.starts_with("bench: ")).collect();
    assert!(
        lines.iter().any(|l| l.contains("the sequential baseline")),
        "{e}"
    );
    assert!(lines.iter().any(|l| l.contains("sweep rayon")), "{e}");
    for what in ["recursion", "treesplit P=2", "rayon 2 threads"] {
        for round in ["repeat 1/2", "repeat 2/2"] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.contains(round) && l.contains(what) && l.ends_with(" s")),
                "{round} {what}: {e}"
            );
        }
    }
    for quiet in ["--quiet", "--json"] {
        let o = treesplit(&[&args[..], &[quiet]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!stderr(&o).contains("bench: "), "{quiet}: {}", stderr(&o));
    }
}

#[test]
fn the_maximum_clique_limit_says_why() {
    let o = treesplit(&["run", "maxclique", "--random", "16385,0.5"]);
    bad_input(&o, "--random above the limit", &["16384", "n²/8 bytes"]);
}

#[test]
fn a_pe_panic_carries_its_backtrace_when_asked() {
    let run = |backtrace: &str| {
        treesplit_env(
            &["run", "nqueens", "10", "--pes", "2"],
            &[
                ("TREESPLIT_FAULT", "panic:0"),
                ("RUST_BACKTRACE", backtrace),
                ("RUST_LIB_BACKTRACE", backtrace),
            ],
        )
    };
    let o = run("1");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("error: PE 0 panicked"), "{e}");
    assert!(e.contains("stack backtrace of PE 0:"), "{e}");
    // Numbered frames follow it.
    let after = e.split("stack backtrace of PE 0:").nth(1).unwrap_or("");
    assert!(
        after.lines().any(|l| l.trim_start().starts_with("0: ")),
        "{e}"
    );
    let o = run("0");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!stderr(&o).contains("backtrace"), "{}", stderr(&o));
}
