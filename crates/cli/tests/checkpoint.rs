//! Checkpoint and resume from the command line: a run stopped by a limit or by
//! SIGTERM writes its checkpoint and exits 1; `resume` on another P and balancer gives the
//! published answer, and the units of all runs add up to the sequential count; periodic
//! checkpoints finish exactly; damaged, truncated and foreign files are bad input (exit 2);
//! flags that do not apply are refused; SIGTERM without --checkpoint prints the partial
//! report and exits 1; a checkpoint path that holds anything but a checkpoint of the same
//! computation is bad input and is never replaced or removed.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;
use support::{answer, stderr, stdout, treesplit, wait};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ts-cli-ckpt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn code(o: &Output, expected: i32, what: &str) {
    assert_eq!(
        o.status.code(),
        Some(expected),
        "{what}: stdout {} stderr {}",
        stdout(o),
        stderr(o)
    );
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

/// Work units of the sequential run.
fn sequential_units(app: &[&str]) -> u64 {
    let mut args = vec!["run"];
    args.extend(app);
    args.extend(["--sequential", "--json"]);
    let o = treesplit(&args);
    code(&o, 0, "sequential");
    json(&o)["work_units"].as_u64().unwrap()
}

/// The units a stopped run's partial JSON report says were done.
fn partial_units(o: &Output) -> u64 {
    let j = json(o);
    assert_eq!(j["partial"], true, "{j}");
    j["report"]["totals"]["work_units"].as_u64().unwrap()
}

#[test]
fn a_limit_stop_resumes_on_another_p_and_balancer_with_the_published_answer() {
    let d = dir("limit");
    let file = d.join("q.ckpt");
    let f = file.to_str().unwrap();
    let app = ["nqueens", "12"];
    let total = sequential_units(&app);
    let o = treesplit(&[
        "run",
        "nqueens",
        "12",
        "--pes",
        "2",
        "--max-units",
        "300000",
        "--checkpoint",
        f,
        "--json",
    ]);
    code(&o, 1, "stopped at the limit");
    let before = partial_units(&o);
    assert!(before < total && file.exists());
    for (balancer, pes) in [("random-static", "3"), ("master-worker", "2")] {
        let copy = d.join(format!("{balancer}.ckpt"));
        std::fs::copy(&file, &copy).unwrap();
        let o = treesplit(&[
            "resume",
            copy.to_str().unwrap(),
            "--pes",
            pes,
            "--balancer",
            balancer,
            "--json",
        ]);
        code(&o, 0, balancer);
        let j = json(&o);
        assert_eq!(j["result"], 14200, "{balancer}");
        assert_eq!(j["published"]["matches"], true);
        assert_eq!(
            j["work_units"].as_u64(),
            Some(total),
            "{balancer}: units add up"
        );
        assert!(
            !copy.exists(),
            "a finished computation removes its checkpoint"
        );
    }
}

#[test]
fn periodic_checkpoints_and_a_second_stop_still_add_up() {
    let d = dir("epochs");
    let f = d.join("g.ckpt");
    let f = f.to_str().unwrap();
    // Golomb rulers, a branch-and-bound search: stopped twice, then finished elsewhere.
    let o = treesplit(&[
        "run",
        "golomb",
        "9",
        "--pes",
        "2",
        "--max-units",
        "20000",
        "--checkpoint",
        f,
    ]);
    code(&o, 1, "first stop");
    // --max-units counts the whole computation: the first run has spent 20000 already.
    let o = treesplit(&["resume", f, "--pes", "3", "--max-units", "20000"]);
    code(&o, 2, "a spent limit");
    assert!(
        stderr(&o).contains("has already done") && stderr(&o).contains("larger --max-units"),
        "{}",
        stderr(&o)
    );
    let o = treesplit(&["resume", f, "--pes", "3", "--max-units", "40000"]);
    code(&o, 1, "second stop");
    assert!(
        stderr(&o).contains("continue with `treesplit resume")
            && stderr(&o).contains("the limit of 40000 work units"),
        "{}",
        stderr(&o)
    );
    let o = treesplit(&[
        "resume",
        f,
        "--pes",
        "2",
        "--checkpoint-every",
        "20ms",
        "--json",
    ]);
    code(&o, 0, "finish");
    let j = json(&o);
    assert_eq!(j["result"]["marks"].as_array().unwrap().last().unwrap(), 44);
    assert_eq!(j["published"]["matches"], true);
    assert!(j["runs"].as_u64().unwrap() >= 3, "{j}");
}

/// Start `treesplit args`, send SIGTERM after `after`, and wait for its end (a run that
/// ignores the signal is caught by the runner's hang limit).
fn terminate(args: &[&str], after: Duration) -> Output {
    signal(args, after, libc::SIGTERM)
}

/// Start `treesplit args`, send `signal` after `after`, and wait for its end.
fn signal(args: &[&str], after: Duration, signal: i32) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_treesplit"));
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // The child gets SIGHUP's default disposition even where this test runs under `nohup`
    // (which the child would inherit, and under which it rightly leaves SIGHUP alone).
    // SAFETY: only `signal`, which is async-signal-safe, runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_DFL);
            Ok(())
        });
    }
    let child = command.spawn().unwrap();
    std::thread::sleep(after);
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    wait(child, &format!("treesplit {args:?} after signal {signal}"))
}

#[test]
fn sigterm_writes_a_checkpoint_and_the_resume_is_exact() {
    let d = dir("term");
    let f = d.join("q.ckpt");
    let f = f.to_str().unwrap();
    let total = sequential_units(&["nqueens", "15"]);
    let o = terminate(
        &[
            "run",
            "nqueens",
            "15",
            "--pes",
            "2",
            "--checkpoint",
            f,
            "--json",
        ],
        Duration::from_millis(300),
    );
    code(&o, 1, "SIGTERM");
    let before = partial_units(&o);
    let o = treesplit(&[
        "resume",
        f,
        "--pes",
        "3",
        "--balancer",
        "poll-and-shuffle",
        "--json",
    ]);
    code(&o, 0, "resume");
    let j = json(&o);
    assert_eq!(j["result"], 2279184);
    assert_eq!(j["work_units"].as_u64(), Some(total));
    assert!(before < total);
}

/// A hangup (the terminal or the batch session went away) writes the checkpoint as SIGTERM
/// does; the same command then continues it.
#[test]
fn sighup_writes_a_checkpoint() {
    let d = dir("hup");
    let f = d.join("q.ckpt");
    let f = f.to_str().unwrap();
    let args = ["run", "nqueens", "15", "--pes", "2", "--checkpoint", f];
    let o = signal(&args, Duration::from_millis(300), libc::SIGHUP);
    code(&o, 1, "SIGHUP");
    assert!(std::path::Path::new(f).exists(), "{}", stderr(&o));
    let o = treesplit(&args);
    code(&o, 0, "the same command again");
    assert!(stdout(&o).contains("nqueens 15: 2279184"), "{}", stdout(&o));
    // The units are the whole computation's, the per-PE figures this run's: said so.
    assert!(
        stdout(&o).contains("in the whole computation,") && stdout(&o).contains("in this run"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn sigterm_without_a_checkpoint_prints_what_was_done() {
    let o = terminate(
        &["run", "nqueens", "16", "--pes", "2"],
        Duration::from_millis(300),
    );
    code(&o, 1, "SIGTERM");
    assert!(
        stdout(&o).contains("partial, stopped by an interrupt"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
}

#[test]
fn damaged_truncated_and_foreign_checkpoints_are_bad_input() {
    let d = dir("bad");
    let f = d.join("q.ckpt");
    let fs = f.to_str().unwrap();
    let o = treesplit(&[
        "run",
        "nqueens",
        "12",
        "--pes",
        "2",
        "--max-units",
        "100000",
        "--checkpoint",
        fs,
    ]);
    code(&o, 1, "stop");
    let good = std::fs::read(&f).unwrap();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            {
                let mut b = good.clone();
                let i = b.len() / 2;
                b[i] ^= 1;
                b
            },
            "checksum",
        ),
        (good[..good.len() - 5].to_vec(), "truncated"),
        (
            b"not a checkpoint at all".to_vec(),
            "not a treesplit checkpoint",
        ),
        (
            {
                let mut b = good.clone();
                b[8] = 99;
                b
            },
            "version 99",
        ),
    ];
    for (bytes, says) in cases {
        let bad = d.join("bad.ckpt");
        std::fs::write(&bad, &bytes).unwrap();
        let o = treesplit(&["resume", bad.to_str().unwrap(), "--pes", "2"]);
        code(&o, 2, says);
        assert!(stderr(&o).contains(says), "{says}: {}", stderr(&o));
    }
    let o = treesplit(&["resume", d.join("missing").to_str().unwrap()]);
    code(&o, 2, "missing");
    // The same file resumed with a wrong application type cannot happen through the CLI (the
    // file names its application); through the library it is `WrongComputation`.
}

#[test]
fn checkpoint_flags_that_do_not_apply_are_refused() {
    let d = dir("flags");
    let f = d.join("x.ckpt");
    let f = f.to_str().unwrap();
    for (args, says) in [
        (
            vec!["run", "nqueens", "8", "--sequential", "--checkpoint", f],
            "--checkpoint",
        ),
        (
            vec!["run", "nqueens", "8", "--checkpoint-every", "1s"],
            "--checkpoint-every needs",
        ),
        (
            vec!["run", "puzzle15", "--korf", "1", "--checkpoint", f],
            "puzzle15",
        ),
        (
            vec!["run", "nqueens", "8", "--checkpoint", f, "--baseline"],
            "--baseline",
        ),
        (
            vec!["sim", "nqueens", "8", "--checkpoint", f],
            "--checkpoint",
        ),
        (
            vec!["run", "nqueens", "8", "--checkpoint", "/nonexistent/dir/x"],
            "cannot write",
        ),
    ] {
        let o = treesplit(&args);
        code(&o, 2, says);
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

/// `--checkpoint FILE` replaces only a treesplit checkpoint of the same computation: a user's
/// file, or another computation's checkpoint, is bad input before the run and stays byte for
/// byte as it was, whether the run would finish, stop at a limit, or resume; a finished run
/// removes only a checkpoint it wrote itself or resumed from.
#[test]
fn a_checkpoint_path_holding_anything_else_is_never_replaced_or_removed() {
    let d = dir("guard");
    let precious = d.join("precious.txt");
    std::fs::write(&precious, "data\n").unwrap();
    let p = precious.to_str().unwrap();
    let unchanged = |what: &str| {
        assert_eq!(
            std::fs::read(&precious).unwrap(),
            b"data\n",
            "{what} changed the file"
        );
    };
    for (args, what) in [
        (
            vec!["run", "nqueens", "10", "--pes", "2", "--checkpoint", p],
            "a run that finishes",
        ),
        (
            vec![
                "run",
                "nqueens",
                "12",
                "--pes",
                "2",
                "--max-units",
                "100000",
                "--checkpoint",
                p,
            ],
            "a run that stops at a limit",
        ),
    ] {
        let o = treesplit(&args);
        code(&o, 2, what);
        assert!(
            stderr(&o).contains(&format!(
                "--checkpoint {p}: the file exists and is not a treesplit checkpoint"
            )),
            "{what}: {}",
            stderr(&o)
        );
        unchanged(what);
    }
    // A real checkpoint of nqueens 12, then `resume` into the user's file.
    let ckpt = d.join("q12.ckpt");
    let c = ckpt.to_str().unwrap();
    let o = treesplit(&[
        "run",
        "nqueens",
        "12",
        "--pes",
        "2",
        "--max-units",
        "100000",
        "--checkpoint",
        c,
    ]);
    code(&o, 1, "stop");
    let saved = std::fs::read(&ckpt).unwrap();
    let o = treesplit(&["resume", c, "--pes", "2", "--checkpoint", p]);
    code(&o, 2, "resume --checkpoint onto a user's file");
    assert!(
        stderr(&o).contains("not a treesplit checkpoint"),
        "{}",
        stderr(&o)
    );
    unchanged("resume --checkpoint");
    // Another computation's checkpoint is not replaced either.
    let o = treesplit(&["run", "nqueens", "11", "--pes", "2", "--checkpoint", c]);
    code(&o, 2, "another computation");
    assert!(
        stderr(&o).contains("the checkpoint of another computation (nqueens 12)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read(&ckpt).unwrap(),
        saved,
        "another computation's checkpoint changed"
    );
    // `resume` into another checkpoint of the same computation, finished in one run, leaves
    // both as they were (it wrote neither).
    let other = d.join("other.ckpt");
    std::fs::copy(&ckpt, &other).unwrap();
    let o = treesplit(&[
        "resume",
        other.to_str().unwrap(),
        "--pes",
        "2",
        "--checkpoint",
        c,
    ]);
    code(
        &o,
        0,
        "resume into another checkpoint of the same computation",
    );
    assert_eq!(
        std::fs::read(&ckpt).unwrap(),
        saved,
        "a finished run changed a checkpoint it never wrote"
    );
    assert_eq!(
        std::fs::read(&other).unwrap(),
        saved,
        "the checkpoint resumed from changed"
    );
    // The same computation run again continues from its checkpoint, which it removes once
    // the computation is complete.
    let o = treesplit(&[
        "run",
        "nqueens",
        "12",
        "--pes",
        "2",
        "--checkpoint",
        other.to_str().unwrap(),
    ]);
    code(&o, 0, "the same computation again");
    assert!(
        stderr(&o).contains("continuing the checkpointed computation"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("nqueens 12: 14200"), "{}", stdout(&o));
    assert!(
        !other.exists(),
        "the continued checkpoint stays after the end"
    );
}

/// A missing checkpoint names its path once; a checkpoint whose instance file changed since it
/// was written says so.
#[test]
fn a_missing_checkpoint_and_a_changed_instance_say_what_happened() {
    let d = dir("changed");
    let missing = d.join("nonexistent.ckpt");
    let m = missing.to_str().unwrap();
    let o = treesplit(&["resume", m]);
    code(&o, 2, "missing");
    assert_eq!(stderr(&o).matches(m).count(), 1, "{}", stderr(&o));
    let items = d.join("items.txt");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testkit/data/knapsack/knapPI_1_100_1000_1.txt"
        ),
        &items,
    )
    .unwrap();
    let f = d.join("k.ckpt");
    let o = treesplit(&[
        "run",
        "knapsack",
        items.to_str().unwrap(),
        "--pes",
        "2",
        "--max-units",
        "200",
        "--checkpoint",
        f.to_str().unwrap(),
    ]);
    code(&o, 1, "stopped");
    // One item's profit changes.
    let text = std::fs::read_to_string(&items).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let last = lines.len() - 1;
    let fields: Vec<&str> = lines[last].split_whitespace().collect();
    let profit: u64 = fields[0].parse().unwrap();
    lines[last] = format!("{} {}", profit + 1, fields[1]);
    std::fs::write(&items, lines.join("\n") + "\n").unwrap();
    let o = treesplit(&["resume", f.to_str().unwrap(), "--pes", "2"]);
    code(&o, 2, "resume after the instance changed");
    // The input's digest is compared first; the instance's, for a checkpoint without one.
    assert!(
        stderr(&o).contains("changed since the checkpoint was written"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("Serde"), "{}", stderr(&o));
}

/// Every application of the registry either checkpoints or refuses `--checkpoint` saying why.
/// One that checkpoints stops at a unit limit (exit 1), resumes on another P to a second stop,
/// and is then continued by the first command line run again without its limit; the result
/// equals the sequential run's. The instances that are sent once (a graph, a knapsack's items,
/// a semigroup tree's root) travel in the checkpoint file.
#[test]
fn every_application_resumes_and_a_rerun_continues_with_the_sequential_answer() {
    let d = dir("apps");
    let clique = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/dimacs/brock200_2.clq"
    );
    let clique = if std::path::Path::new(clique).exists() {
        clique
    } else {
        // A clean clone without shared/: a random graph is sent once all the same.
        "--random=100,0.8"
    };
    for app in treesplit_apps::registry::APPS {
        let name = app.name();
        let args = support::stopping_instance(&**app, clique);
        let args: Vec<&'static str> = args.into_iter().map(|a| &*a.leak()).collect();
        let file = d.join(format!("{name}.ckpt"));
        let f: &'static str = file.to_str().unwrap().to_string().leak();
        let line = |extra: &[&'static str]| -> Vec<&str> {
            let mut v = vec!["run", name];
            v.extend(&args);
            v.extend(extra);
            v
        };
        let first = line(&["--pes", "2", "--max-units", "300", "--checkpoint", f]);
        let o = treesplit(&first);
        if o.status.code() == Some(2) {
            // An application whose runs cannot be checkpointed (a sequence of runs: IDA*'s
            // thresholds, BFS's levels, a task DAG) says why; those sized above checkpoint.
            assert!(
                stderr(&o).contains("does not apply"),
                "{name}: {}",
                stderr(&o)
            );
            assert!(!support::SIZED_TO_STOP.contains(&name), "{name}: refused");
            continue;
        }
        code(&o, 1, &format!("{name}: the first stop"));
        assert!(file.exists(), "{name}: no checkpoint");
        let sequential = treesplit(&line(&["--sequential"]));
        code(&sequential, 0, &format!("{name}: sequential"));
        let want = stdout(&sequential).lines().next().unwrap_or("").to_string();
        // The second stop 300 units after the first (a slice may overshoot a limit).
        let done: u64 = stderr(&o)
            .split(" work units done")
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}: {}", stderr(&o)));
        let second = (done + 300).to_string();
        let o = treesplit(&["resume", f, "--pes", "3", "--max-units", &second]);
        let again = line(&["--pes", "2", "--checkpoint", f]);
        let last = if o.status.code() == Some(1) {
            assert!(file.exists(), "{name}: no checkpoint after the second stop");
            let o = treesplit(&again);
            code(&o, 0, &format!("{name}: the command run again"));
            assert!(
                stderr(&o).contains("continuing the checkpointed computation in"),
                "{name}: {}",
                stderr(&o)
            );
            o
        } else {
            code(&o, 0, &format!("{name}: resume"));
            o
        };
        let got = stdout(&last).lines().next().unwrap_or("").to_string();
        assert_eq!(answer(&got), answer(&want), "{name}");
        assert!(!file.exists(), "{name}: the checkpoint stays after the end");
    }
}

/// Maximum clique from standard input and from a random graph: the checkpoint carries the
/// graph, so `resume` needs only the same input again (the graph on standard input, or the
/// same seed).
#[test]
fn a_graph_from_standard_input_or_drawn_at_random_resumes() {
    let d = dir("stdin");
    let mut graph = String::from("p edge 60 0\n");
    let mut edges = 0;
    let mut x: u64 = 12345;
    let mut text = String::new();
    for u in 1..=60 {
        for v in u + 1..=60 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if (x >> 33) % 10 < 8 {
                text.push_str(&format!("e {u} {v}\n"));
                edges += 1;
            }
        }
    }
    graph = graph.replace(" 0\n", &format!(" {edges}\n")) + &text;
    let f = d.join("in.ckpt");
    let f = f.to_str().unwrap();
    let input = Some(graph.as_bytes());
    let o = support::treesplit_with(
        &[
            "run",
            "maxclique",
            "-",
            "--pes",
            "2",
            "--max-units",
            "50",
            "--checkpoint",
            f,
        ],
        &[],
        input,
    );
    code(&o, 1, "stdin: stop");
    let seq = support::treesplit_with(&["run", "maxclique", "-", "--sequential"], &[], input);
    code(&seq, 0, "stdin: sequential");
    let o = support::treesplit_with(&["resume", f, "--pes", "3"], &[], input);
    code(&o, 0, "stdin: resume");
    let first = |o: &Output| stdout(o).lines().next().unwrap_or("").to_string();
    assert_eq!(answer(&first(&o)), answer(&first(&seq)));
    let r = d.join("random.ckpt");
    let r = r.to_str().unwrap();
    let random = ["run", "maxclique", "--random", "90,0.8", "--seed", "3"];
    let o = treesplit(
        &[
            &random[..],
            &["--pes", "2", "--max-units", "50", "--checkpoint", r],
        ]
        .concat(),
    );
    code(&o, 1, "random: stop");
    let seq = treesplit(&[&random[..], &["--sequential"]].concat());
    let o = treesplit(&["resume", r, "--pes", "3"]);
    code(&o, 0, "random: resume");
    assert_eq!(answer(&first(&o)), answer(&first(&seq)));
}

/// Pieces hold what they took from their input (the hash table's keys), so a checkpoint
/// whose input file changed is refused by `resume` and by the same `run` again (exit 2, the
/// checkpoint left as it was); with the input restored, the computation goes on.
#[test]
fn a_changed_input_file_is_refused_and_the_checkpoint_kept() {
    let d = dir("changed-input");
    let keys = d.join("keys.txt");
    let f = d.join("h.ckpt");
    let (keys_s, f_s) = (keys.to_str().unwrap(), f.to_str().unwrap());
    let original: String = (1..=20_000).map(|k| format!("{k}\n")).collect();
    std::fs::write(&keys, &original).unwrap();
    let run = [
        "run",
        "hashtable",
        "--file",
        keys_s,
        "--q",
        "100",
        "--pes",
        "2",
        "--checkpoint",
        f_s,
    ];
    let o = treesplit(&[&run[..], &["--max-units", "1000"]].concat());
    code(&o, 1, "the first run stops at its limit");
    let saved = std::fs::read(&f).unwrap();
    std::fs::write(&keys, original.replace("\n7\n", "\n20001\n")).unwrap();
    for (args, what) in [(&["resume", f_s][..], "resume"), (&run[..], "run again")] {
        let o = treesplit(args);
        code(&o, 2, what);
        assert!(
            stderr(&o).contains("changed since the checkpoint was written"),
            "{what}: {}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read(&f).unwrap(),
            saved,
            "{what} kept the checkpoint"
        );
    }
    std::fs::write(&keys, &original).unwrap();
    let o = treesplit(&["resume", f_s]);
    code(&o, 0, "resume on the restored input");
    assert!(stdout(&o).contains("20000 distinct keys"), "{}", stdout(&o));
    assert!(
        !f.exists(),
        "the finished computation's checkpoint is removed"
    );
}
