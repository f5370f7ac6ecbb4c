//! The `treesplit` binary under the process's own limits: an address-space or data-segment
//! limit (`ulimit -v`, `ulimit -d`) is the memory a run has when it is the tightest, so an
//! instance, a simulation or threads that would not fit under it are bad input naming the
//! limit, not an allocation failure and an abort; runs that fit still run. And an absurd
//! `--pes` is refused at once, naming the limit of the machine that would run it, on every
//! subcommand that takes one (before any work that grows with P: a hang is killed by the support's limit).

mod support;

use std::process::{Command, Output};
use support::{stderr, stdout};

/// `treesplit args` started by `sh` after `ulimit` with `limit` (`-v 1000000`; none: no
/// limit), with environment `env`; a command still running after the support's hang limit is
/// killed and the test fails.
fn treesplit_under(limit: Option<&str>, args: &[&str], env: &[(&str, &str)]) -> Output {
    let script = match limit {
        Some(limit) => format!("ulimit {limit} && exec \"$0\" \"$@\""),
        None => "exec \"$0\" \"$@\"".to_string(),
    };
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_treesplit"))
        .args(args)
        .envs(env.iter().copied());
    support::run(
        command,
        None,
        &format!("treesplit {args:?} under ulimit {limit:?}"),
    )
}

/// Exit 2 with every one of `wanted` in the message, no panic, no abort.
fn refused(o: &Output, what: &str, wanted: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    for w in wanted {
        assert!(err.contains(w), "{what}: '{err}' lacks '{w}'");
    }
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{what}: {err}"
    );
}

/// `MemAvailable` of this machine, where it can be read.
fn mem_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// About 1 GiB of address space (KiB, as `ulimit -v` takes it): less than this machine has
/// available, so it is the tightest limit, and more than a small run takes.
const GIB_V: &str = "-v 1000000";

#[test]
fn an_address_space_limit_is_the_memory_a_run_has() {
    if mem_available().is_some_and(|m| m < 3 << 30) {
        eprintln!("skipped: less than 3 GiB available, MemAvailable would decide");
        return;
    }
    // An R-MAT graph of 2^24 vertices (about 4.6 GiB): refused before it is generated, where
    // generating it under the limit ended in an allocation failure and an abort (exit 134).
    let o = treesplit_under(
        Some(GIB_V),
        &["run", "bfs", "--rmat", "24", "--pes", "2"],
        &[],
    );
    refused(
        &o,
        "run bfs --rmat 24 under ulimit -v",
        &[
            "bfs: the instance needs about 4.6 GiB",
            "available (the address-space limit (ulimit -v))",
            "--rmat SCALE",
        ],
    );
    // A million simulated PEs (about 1.9 GiB of state): refused, naming the limit.
    let o = treesplit_under(
        Some(GIB_V),
        &["sim", "nqueens", "10", "--pes", "1000000"],
        &[],
    );
    refused(
        &o,
        "sim --pes 1000000 under ulimit -v",
        &[
            "--pes 1000000: simulating 1000000 PEs needs about",
            "the address-space limit (ulimit -v)",
            "simulate fewer PEs",
        ],
    );
    // The same for `compare` (each balancer's simulation) and the DAG simulator.
    for args in [
        &["compare", "nqueens", "8", "--pes", "1000000"][..],
        &[
            "sim",
            "dag",
            "--random",
            "100",
            "--balancer",
            "work-stealing",
            "--pes",
            "1000000",
        ],
    ] {
        let o = treesplit_under(Some(GIB_V), args, &[]);
        refused(
            &o,
            &format!("{args:?} under ulimit -v"),
            &[
                "simulating 1000000 PEs needs about",
                "the address-space limit (ulimit -v)",
            ],
        );
    }
    // Threads reserve their stacks (and malloc's arenas) in the address space: a thousand
    // threads do not fit in 1 GiB, where the run failed to start a thread half way.
    let o = treesplit_under(Some(GIB_V), &["run", "nqueens", "10", "--pes", "1000"], &[]);
    refused(
        &o,
        "run --pes 1000 under ulimit -v",
        &[
            "1000 threads reserve about",
            "under the address-space limit (ulimit -v)",
            "fewer --pes",
        ],
    );
    // The data-segment limit counts the same way.
    let o = treesplit_under(
        Some("-d 1000000"),
        &["run", "bfs", "--rmat", "24", "--pes", "2"],
        &[],
    );
    refused(
        &o,
        "run bfs --rmat 24 under ulimit -d",
        &["the data-segment limit (ulimit -d)"],
    );
    // TREESPLIT_MEMORY_MIB still overrides every limit read.
    let o = treesplit_under(
        Some(GIB_V),
        &["run", "bfs", "--rmat", "24", "--pes", "2"],
        &[("TREESPLIT_MEMORY_MIB", "512")],
    );
    refused(
        &o,
        "TREESPLIT_MEMORY_MIB under ulimit -v",
        &["more than the 512 MiB available (TREESPLIT_MEMORY_MIB)"],
    );
}

#[test]
fn runs_that_fit_under_an_address_space_limit_still_run() {
    for args in [
        &["run", "nqueens", "8", "--pes", "2"][..],
        &["run", "bfs", "--rmat", "12", "--pes", "2"],
        &["sim", "nqueens", "8", "--pes", "64"],
        &["run", "nqueens", "8", "--sequential"],
    ] {
        let o = treesplit_under(Some(GIB_V), args, &[]);
        assert!(
            o.status.success(),
            "{args:?} under ulimit {GIB_V}: {} {}",
            stdout(&o),
            stderr(&o)
        );
    }
}

#[test]
fn an_absurd_pes_is_refused_at_once_naming_the_machines_limit() {
    let threads = "is more than the thread machine runs (4096, one OS thread per PE)";
    let supported = "is more than the supported 4194304";
    for p in ["18446744073709551615", "1000000000", "100000000"] {
        let cases: [(Vec<&str>, &str); 11] = [
            (vec!["run", "nqueens", "10", "--pes", p], threads),
            (vec!["bench", "nqueens", "10", "--pes", p], threads),
            (
                vec!["run", "nqueens", "10", "--machine", "mpi", "--pes", p],
                supported,
            ),
            (vec!["sim", "nqueens", "10", "--pes", p], supported),
            (
                vec!["sim", "nqueens", "10", "--net", "ring", "--pes", p],
                supported,
            ),
            (vec!["compare", "nqueens", "10", "--pes", p], supported),
            (vec!["depth", "--pes", p], supported),
            (
                vec![
                    "run",
                    "dag",
                    "--random",
                    "100",
                    "--balancer",
                    "work-stealing",
                    "--pes",
                    p,
                ],
                threads,
            ),
            (
                vec![
                    "sim",
                    "dag",
                    "--random",
                    "100",
                    "--balancer",
                    "work-stealing",
                    "--pes",
                    p,
                ],
                supported,
            ),
            (vec!["dst", "--max-pes", p, "--cases", "1"], supported),
            (
                vec!["scatter", "--alpha", "1", "--pes", p],
                "scatter needs 2 ≤ P ≤ 16777216",
            ),
        ];
        for (args, limit) in cases {
            let o = treesplit_under(None, &args, &[]);
            let what = format!("{args:?}");
            refused(&o, &what, &[p, limit]);
            // The limit of the machine that runs it, not another's, and no flag never given.
            assert!(!stderr(&o).contains("--max-h"), "{what}: {}", stderr(&o));
        }
    }
}
