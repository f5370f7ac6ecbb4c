//! One rule for every output path of every subcommand: an output never replaces a file the
//! run reads, never shares its path with another output, and replaces an existing file only
//! when it holds what that output writes (a trace, a picture, a report, a checkpoint of the
//! same computation). Each refusal is bad input (exit 2) before the run, and the file stays
//! byte for byte as it was.

mod support;

use std::path::{Path, PathBuf};
use support::{stderr, treesplit};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ts-cli-out-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const GRAPH: &str = "p edge 5 6\ne 1 2\ne 2 3\ne 3 1\ne 3 4\ne 4 5\ne 5 3\n";

/// `args` (with `{}` standing for `file`) is refused with exit 2 saying `says`, and `file`
/// keeps its contents.
fn refused(args: &[&str], file: &Path, says: &str) {
    let before = std::fs::read(file).unwrap();
    let f = file.to_str().unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "{}" { f } else { a })
        .collect();
    let o = treesplit(&args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    assert_eq!(std::fs::read(file).unwrap(), before, "{args:?} changed {f}");
}

#[test]
fn no_output_flag_replaces_an_input_or_a_foreign_file() {
    let d = dir("inputs");
    let graph = d.join("g.clq");
    std::fs::write(&graph, GRAPH).unwrap();
    let reads = "which this run reads";
    // The input of the run, under every output flag of run and sim.
    for flag in ["--trace", "--gantt", "--checkpoint"] {
        let path = if flag == "--gantt" {
            let svg = d.join("g.svg");
            std::fs::copy(&graph, &svg).unwrap();
            refused(
                &["run", "maxclique", "{}", "--pes", "2", flag, "{}"],
                &svg,
                reads,
            );
            refused(
                &["run", "maxclique", "{}", "--pes", "2", flag, "{}"],
                &graph,
                "must end in",
            );
            continue;
        } else {
            graph.clone()
        };
        refused(
            &["run", "maxclique", "{}", "--pes", "2", flag, "{}"],
            &path,
            reads,
        );
    }
    refused(
        &["sim", "maxclique", "{}", "--pes", "4", "--trace", "{}"],
        &graph,
        reads,
    );
    // A user's file where a trace, a picture or a report page would go.
    let notes = d.join("notes.json");
    std::fs::write(&notes, "{\"mine\": 1}\n").unwrap();
    refused(
        &["run", "nqueens", "6", "--trace", "{}"],
        &notes,
        "is not a Chrome trace",
    );
    refused(
        &["sim", "nqueens", "6", "--trace", "{}"],
        &notes,
        "is not a Chrome trace",
    );
    let picture = d.join("picture.svg");
    std::fs::write(&picture, "not a picture\n").unwrap();
    refused(
        &["sim", "nqueens", "6", "--gantt", "{}"],
        &picture,
        "is not an SVG or PNG",
    );
    refused(
        &["compare", "nqueens", "6", "--svg", "{}"],
        &picture,
        "is not an SVG or PNG",
    );
    refused(
        &["scatter", "--alpha", "2", "--svg", "{}"],
        &picture,
        "is not an SVG or PNG",
    );
    let png = d.join("photo.png");
    std::fs::write(&png, "not a png\n").unwrap();
    refused(
        &["run", "mandelbrot", "--n", "16", "--png", "{}"],
        &png,
        "is not an SVG or PNG",
    );
    // The task DAG file under --gantt.
    let dag = d.join("g.stg.svg");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testkit/data/dag/small10.stg"
        ),
        &dag,
    )
    .unwrap();
    refused(
        &[
            "run",
            "dag",
            "{}",
            "--balancer",
            "work-stealing",
            "--gantt",
            "{}",
        ],
        &dag,
        reads,
    );
    // A report over a foreign page.
    let out = d.join("report");
    std::fs::create_dir_all(&out).unwrap();
    let page = out.join("index.md");
    std::fs::write(&page, "# my notes\n").unwrap();
    let o = treesplit(&["reproduce", "--quick", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not a reproduction report's page"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "# my notes\n");
}

#[test]
fn two_outputs_on_one_path_are_refused_and_a_trace_replaces_a_trace() {
    let d = dir("shared");
    let x = d.join("x.svg");
    std::fs::write(&x, "").unwrap();
    refused(
        &["run", "nqueens", "6", "--gantt", "{}", "--trace", "{}"],
        &x,
        "name the same file",
    );
    refused(
        &["sim", "nqueens", "6", "--gantt", "{}", "--trace", "{}"],
        &x,
        "name the same file",
    );
    refused(
        &["run", "nqueens", "6", "--checkpoint", "{}", "--trace", "{}"],
        &x,
        "name the same file",
    );
    // `resume` reads its checkpoint: no output but its own --checkpoint goes there.
    let ckpt = d.join("q.ckpt");
    let c = ckpt.to_str().unwrap();
    let o = treesplit(&[
        "run",
        "nqueens",
        "11",
        "--pes",
        "2",
        "--max-units",
        "300",
        "--checkpoint",
        c,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    refused(&["resume", "{}", "--trace", "{}"], &ckpt, "--trace");
    // A trace written before is replaced by the next one.
    let t = d.join("t.json");
    for _ in 0..2 {
        let o = treesplit(&[
            "run",
            "nqueens",
            "6",
            "--pes",
            "2",
            "--trace",
            t.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    assert!(std::fs::read_to_string(&t)
        .unwrap()
        .starts_with("{\"traceEvents\""));
}

/// An endless or binary source as an input or a checkpoint is bad input at its first line or
/// its header, not a process that fills memory.
#[test]
fn endless_inputs_are_refused_at_once() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    for (args, says) in [
        (&["run", "maxclique", "/dev/zero"][..], "holds a NUL byte"),
        (&["run", "knapsack", "/dev/zero"], "holds a NUL byte"),
        (&["run", "bfs", "/dev/zero"], "holds a NUL byte"),
        (
            &["run", "hashtable", "--file", "/dev/zero", "--q", "4"],
            "longer than 1 MiB",
        ),
        (
            &["run", "dag", "/dev/zero", "--balancer", "work-stealing"],
            "holds a NUL byte",
        ),
        // Random bytes: a NUL byte or a bad UTF-8 sequence, whichever comes first.
        (
            &["run", "maxclique", "/dev/urandom"],
            "not a text file|not UTF-8 text",
        ),
        (&["resume", "/dev/zero"], "not a treesplit checkpoint"),
    ] {
        let o = treesplit(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            says.split('|').any(|s| stderr(&o).contains(s)),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}
