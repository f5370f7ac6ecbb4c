//! Checkpoint and resume on the MPI machine: a run on 3 ranks stopped by
//! `--max-units` or by SIGUSR1 to `mpirun` writes its checkpoint (rank 0) and exits 1; the
//! computation resumed on 2 ranks with periodic checkpoints (epochs agreed over the ranks),
//! and on threads, gives the published answer with the sequential run's work units.
//!
//! Needs Open MPI (`mpirun`) and a build with `--features mpi`; `.ci/run` installs both.
#![cfg(feature = "mpi")]

mod support;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn mpirun_command(ranks: usize, args: &[&str]) -> Command {
    let mut cmd = Command::new("timeout");
    cmd.args(["--kill-after=10", "120", "mpirun", "-n", &ranks.to_string()]);
    cmd.arg(env!("CARGO_BIN_EXE_treesplit")).args(args);
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1");
    cmd
}

fn mpirun(ranks: usize, args: &[&str]) -> Output {
    mpirun_command(ranks, args)
        .output()
        .expect("cannot start timeout/mpirun (is Open MPI installed?)")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ts-mpi-ckpt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {} / {}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn a_stopped_mpi_run_resumes_on_fewer_ranks_and_on_threads() {
    let d = dir("limit");
    let file = d.join("q.ckpt");
    let f = file.to_str().unwrap();
    let total = treesplit::run_sequential(treesplit_apps::NQueens::new(12).unwrap()).work_units;
    let o = mpirun(
        3,
        &[
            "run",
            "nqueens",
            "12",
            "--machine",
            "mpi",
            "--max-units",
            "400000",
            "--checkpoint",
            f,
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(file.exists());
    let copy = d.join("copy.ckpt");
    std::fs::copy(&file, &copy).unwrap();
    let o = mpirun(
        2,
        &[
            "resume",
            f,
            "--machine",
            "mpi",
            "--checkpoint-every",
            "10ms",
            "--json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    assert_eq!(j["result"], 14200);
    assert_eq!(j["work_units"].as_u64(), Some(total), "{j}");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(["resume", copy.to_str().unwrap(), "--pes", "3", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    assert_eq!(j["result"], 14200);
    assert_eq!(j["work_units"].as_u64(), Some(total));
}

#[test]
fn sigusr1_to_mpirun_checkpoints_every_rank() {
    let d = dir("usr1");
    let file = d.join("q.ckpt");
    let f = file.to_str().unwrap();
    // mpirun itself (not under `timeout`, which does not pass SIGUSR1 on). N-Queens 16: long
    // enough that the signal comes first on a fast idle machine (15 took about a second).
    let mut child = Command::new("mpirun")
        .args(["-n", "3", env!("CARGO_BIN_EXE_treesplit")])
        .args([
            "run",
            "nqueens",
            "16",
            "--machine",
            "mpi",
            "--checkpoint",
            f,
        ])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start mpirun (is Open MPI installed?)");
    std::thread::sleep(Duration::from_millis(1500));
    // mpirun forwards SIGUSR1 to every rank.
    // SAFETY: a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGUSR1);
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("mpirun did not end within 60 s of SIGUSR1");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("checkpoint written to"), "{err}");
    let o = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(["resume", f, "--pes", "2", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    assert_eq!(j["result"], 14_772_512);
    assert_eq!(j["published"]["matches"], true);
}

/// Searches whose instance is sent once (a knapsack's items, a random graph): a run on 3 ranks
/// stopped at a limit resumes on 2 ranks with periodic checkpoints, and the same command run
/// again continues a checkpoint; each gives the sequential answer.
#[test]
fn searches_sent_once_resume_on_ranks_and_the_same_command_continues() {
    let d = dir("sent-once");
    let knapsack = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testkit/data/knapsack/knapPI_3_100_1000_1.txt"
    );
    for (app, want) in [
        (vec!["knapsack", knapsack], "profit 2397"),
        (vec!["maxclique", "--random", "90,0.8", "--seed", "3"], ""),
    ] {
        let seq = Command::new(env!("CARGO_BIN_EXE_treesplit"))
            .args(["run"])
            .args(&app)
            .args(["--sequential"])
            .output()
            .unwrap();
        let first = |o: &Output| {
            let text = String::from_utf8_lossy(&o.stdout).to_string();
            support::answer(text.lines().next().unwrap_or("")).to_string()
        };
        let answer = first(&seq);
        assert!(answer.contains(want), "{answer}");
        let file = d.join(format!("{}.ckpt", app[0]));
        let f = file.to_str().unwrap();
        let line = |extra: &[&str]| -> Vec<String> {
            let mut v: Vec<String> = vec!["run".into()];
            v.extend(app.iter().map(|s| s.to_string()));
            v.extend(["--machine", "mpi", "--checkpoint", f].map(String::from));
            v.extend(extra.iter().map(|s| s.to_string()));
            v
        };
        let args = line(&["--max-units", "100"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = mpirun(3, &args);
        assert_eq!(
            o.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let copy = d.join("copy.ckpt");
        std::fs::copy(&file, &copy).unwrap();
        let o = mpirun(
            2,
            &["resume", f, "--machine", "mpi", "--checkpoint-every", "5ms"],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(first(&o), answer, "{app:?}: resumed on 2 ranks");
        std::fs::rename(&copy, &file).unwrap();
        let args = line(&[]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = mpirun(2, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("continuing the checkpointed computation"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(first(&o), answer, "{app:?}: the same command again");
        assert!(!file.exists());
    }
}

/// Every application of the registry on MPI ranks: a run on 3 ranks stopped at a unit limit
/// writes its checkpoint and resumes on 2 ranks with the sequential run's answer. One that
/// cannot run checkpointed on ranks (a sequence of computations, a task DAG) says why.
#[test]
fn every_application_resumes_on_ranks_with_the_sequential_answer() {
    let d = dir("apps");
    let first = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        support::answer(text.lines().next().unwrap_or("")).to_string()
    };
    let mut resumed = Vec::new();
    for app in treesplit_apps::registry::APPS {
        let name = app.name();
        let args = support::stopping_instance(&**app, "--random=100,0.8");
        let file = d.join(format!("{name}.ckpt"));
        let f = file.to_str().unwrap();
        let mut line: Vec<&str> = vec!["run", name];
        line.extend(args.iter().map(String::as_str));
        let mut stopped = line.clone();
        stopped.extend(["--machine", "mpi", "--checkpoint", f, "--max-units", "300"]);
        let o = mpirun(3, &stopped);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        if o.status.code() == Some(2) {
            assert!(err.contains("does not apply"), "{name}: {err}");
            assert!(!support::SIZED_TO_STOP.contains(&name), "{name}: refused");
            continue;
        }
        assert_eq!(o.status.code(), Some(1), "{name}: the first stop: {err}");
        assert!(file.exists(), "{name}: no checkpoint: {err}");
        let mut sequential = line.clone();
        sequential.push("--sequential");
        let seq = Command::new(env!("CARGO_BIN_EXE_treesplit"))
            .args(&sequential)
            .output()
            .unwrap();
        assert!(seq.status.success(), "{name}: sequential");
        let o = mpirun(2, &["resume", f, "--machine", "mpi"]);
        assert!(
            o.status.success(),
            "{name}: resume on 2 ranks: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(first(&o), first(&seq), "{name}: resumed on 2 ranks");
        assert!(!file.exists(), "{name}: the checkpoint stays after the end");
        resumed.push(name);
    }
    for name in support::SIZED_TO_STOP {
        assert!(
            resumed.contains(name),
            "{name} was not resumed: {resumed:?}"
        );
    }
}
