//! The MPI machine across several "hosts": Linux network namespaces joined by veth pairs and a
//! bridge, ranks started in them by Open MPI's launcher through `scripts/multihost.sh`'s rsh
//! agent, talking TCP over the namespaces' subnet. Checks published answers (N-Queens, UTS,
//! knapsack) and exact work conservation on 2, 3 and 4 hosts, and that `kill -9` of a rank on
//! one host ends the job, naming the rank, rather than hanging.
//!
//! Needs root (namespaces), iproute2 and Open MPI, and a build with `--features mpi`; where
//! namespaces are not permitted the test prints why and passes without running.
#![cfg(all(feature = "mpi", target_os = "linux"))]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const HOSTS: usize = 4;

fn script() -> Command {
    let mut cmd =
        Command::new(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/multihost.sh"));
    // Names and state of this test only (a developer's own setup keeps the default prefix).
    cmd.env("TS_MULTIHOST_PREFIX", "tsmt")
        .env("TS_MULTIHOST_NET", "78")
        .env(
            "TS_MULTIHOST_STATE",
            std::env::temp_dir().join("treesplit-multihost-test"),
        );
    cmd
}

/// Tests of this file set hosts up one at a time (they use the same names).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The namespaces of this test; removed when dropped, also when an assertion fails.
struct Hosts(#[allow(dead_code)] MutexGuard<'static, ()>);

impl Hosts {
    /// Set up the hosts, or `None` (having said why) where this machine does not permit it.
    fn new() -> Option<Hosts> {
        let guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let check = script()
            .arg("check")
            .output()
            .expect("cannot run scripts/multihost.sh");
        if !check.status.success() {
            eprintln!(
                "skipped: {}{}",
                String::from_utf8_lossy(&check.stdout).trim(),
                String::from_utf8_lossy(&check.stderr).trim()
            );
            return None;
        }
        // What an interrupted earlier run of this test left (only names it recorded).
        let _ = script().arg("teardown").output();
        let setup = script()
            .args(["setup", &HOSTS.to_string()])
            .output()
            .unwrap();
        assert!(
            setup.status.success(),
            "setup failed: {}",
            String::from_utf8_lossy(&setup.stderr)
        );
        Some(Hosts(guard))
    }

    /// `mpirun -n hosts PROGRAM ARGS…` over the first `hosts` hosts.
    fn mpirun(&self, hosts: usize, program: &str, args: &[&str]) -> Output {
        let mut cmd = script();
        cmd.args(["mpirun", &hosts.to_string(), program]).args(args);
        // Every mpirun under a time limit: a deadlock fails the test instead of hanging it.
        let mut timed = Command::new("timeout");
        timed
            .args(["--kill-after=10", "120"])
            .arg(cmd.get_program())
            .args(cmd.get_args());
        for (k, v) in cmd.get_envs() {
            timed.env(k, v.unwrap());
        }
        timed.output().expect("cannot start timeout")
    }

    fn json_run(&self, hosts: usize, app: &[&str]) -> serde_json::Value {
        let mut args = vec!["run"];
        args.extend_from_slice(app);
        args.extend_from_slice(&["--machine", "mpi", "--json", "--seed", "5"]);
        let o = self.mpirun(hosts, env!("CARGO_BIN_EXE_treesplit"), &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_ne!(
            o.status.code(),
            Some(124),
            "{hosts} hosts {app:?} timed out: {err}"
        );
        assert!(o.status.success(), "{hosts} hosts {app:?} failed: {err}");
        let j: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
        assert_eq!(j["published"]["matches"], true, "{j}");
        assert_eq!(j["report"]["machine"], "mpi");
        let per_pe = j["report"]["per_pe"].as_array().unwrap();
        assert_eq!(per_pe.len(), hosts, "one PE per host");
        // Messages crossed the namespaces' network.
        assert!(
            per_pe
                .iter()
                .all(|pe| pe["bytes_sent"].as_u64().unwrap() > 0),
            "{j}"
        );
        j
    }
}

impl Drop for Hosts {
    fn drop(&mut self) {
        let _ = script().arg("teardown").output();
    }
}

#[test]
fn answers_on_2_to_4_hosts() {
    let Some(hosts) = Hosts::new() else { return };
    // Each rank names its host: the ranks really run in different namespaces.
    let o = hosts.mpirun(HOSTS, "hostname", &[]);
    let names = String::from_utf8_lossy(&o.stdout);
    let mut names: Vec<&str> = names.lines().collect();
    names.sort_unstable();
    assert_eq!(names, ["tsmt1", "tsmt2", "tsmt3", "tsmt4"], "{o:?}");
    // A branch-and-bound search of 5.8 M nodes that splits (the 100-item files are solved
    // almost at the root).
    let knapsack = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testkit/data/knapsack/f8_l-d_kp_23_10000.txt"
    );
    let nqueens_units =
        treesplit::run_sequential(treesplit_apps::NQueens::new(11).unwrap()).work_units;
    for n in 2..=HOSTS {
        let j = hosts.json_run(n, &["nqueens", "11"]);
        assert_eq!(j["result"], 2680);
        assert_eq!(j["report"]["totals"]["work_units"], nqueens_units);
        let j = hosts.json_run(n, &["uts", "T1"]);
        assert_eq!(j["result"]["nodes"], 4_130_071);
        assert_eq!(j["report"]["totals"]["work_units"], 4_130_071);
        hosts.json_run(n, &["knapsack", knapsack]);
    }
}

/// The processes of this test's ranks (found by the environment the script passes down to
/// them through Open MPI's daemons) with world rank `rank`.
fn rank_pids(rank: u32) -> Vec<i32> {
    let want = format!("OMPI_COMM_WORLD_RANK={rank}");
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let vars: Vec<&[u8]> = env.split(|&b| b == 0).collect();
        if vars.contains(&&b"TS_MULTIHOST_PREFIX=tsmt"[..]) && vars.contains(&want.as_bytes()) {
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).unwrap_or_default();
            if exe.ends_with("treesplit") {
                out.push(pid);
            }
        }
    }
    out
}

#[test]
fn kill_9_of_a_rank_on_another_host_ends_the_job() {
    let Some(_hosts) = Hosts::new() else { return };
    let mut cmd = script();
    cmd.args(["mpirun", "3", env!("CARGO_BIN_EXE_treesplit")])
        .args([
            "run",
            "synthetic",
            "--work",
            "5000000000",
            "--machine",
            "mpi",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let fail = |child: &mut std::process::Child, why: &str| -> ! {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{why}");
    };
    let start = Instant::now();
    let victim = loop {
        if let [pid] = rank_pids(1)[..] {
            break pid;
        }
        if start.elapsed() > Duration::from_secs(30) {
            fail(&mut child, "rank 1 did not start");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    std::thread::sleep(Duration::from_millis(1000));
    let killed = Instant::now();
    // SAFETY: sending a signal to a rank this test started.
    assert_eq!(unsafe { libc::kill(victim, libc::SIGKILL) }, 0);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if killed.elapsed() > Duration::from_secs(120) {
            fail(
                &mut child,
                "the job still runs 120 s after kill -9 of rank 1: hung",
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    eprintln!(
        "job over 3 hosts ended {:?} after kill -9 of rank 1 ({status})",
        killed.elapsed()
    );
    assert!(!status.success(), "exit 0 after a rank died:\n{err}");
    assert!(
        err.contains("process rank 1 ") && err.contains("signal 9"),
        "no message naming rank 1:\n{err}"
    );
}
