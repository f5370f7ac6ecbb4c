//! Running the `treesplit` binary from the CLI tests: with arguments, an environment and
//! standard input, and reading what it printed. Every run has a generous time limit that only
//! catches a hang ([`HANG`]); no test measures how fast a command is.

#![allow(dead_code)] // each test file uses its own subset

pub mod chrome_trace;
pub mod svg;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// How long a command may run before the test calls it hung: far above what any of these
/// commands needs on a loaded machine, so it catches a hang and nothing else.
pub const HANG: Duration = Duration::from_secs(300);

/// Korf's 100 instances of the 15-puzzle.
pub const KORF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../apps/data/korf100.tsv");

/// A knapsack instance with a published optimum (profit 9147).
pub const KNAPSACK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testkit/data/knapsack/knapPI_1_100_1000_1.txt"
);

/// `treesplit args`.
pub fn treesplit(args: &[&str]) -> Output {
    treesplit_with(args, &[], None)
}

/// `treesplit args` with environment `env`.
pub fn treesplit_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    treesplit_with(args, env, None)
}

/// `treesplit args` with environment `env` and `input` on standard input (empty if none).
pub fn treesplit_with(args: &[&str], env: &[(&str, &str)], input: Option<&[u8]>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_treesplit"));
    command.args(args).envs(env.iter().copied());
    run(command, input, &format!("treesplit {args:?}"))
}

/// Start `command` with piped standard streams, feed it `input` and wait for its end; a
/// command still running after [`HANG`] is killed and the test fails, naming `what`.
pub fn run(mut command: Command, input: Option<&[u8]>, what: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start treesplit");
    let stdin = child.stdin.take().expect("piped stdin");
    let input = input.map(<[u8]>::to_vec);
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut stdin = stdin;
        if let Some(bytes) = input {
            let _ = stdin.write_all(&bytes); // a command may exit before reading it all
        }
    });
    let output = wait(child, what);
    let _ = writer.join();
    output
}

/// Wait for `child` (its standard output and error piped) to end and collect what it
/// printed; still running after [`HANG`], it is killed and the test fails, naming `what`.
pub fn wait(mut child: Child, what: &str) -> Output {
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let status = wait_status(&mut child, what);
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// The exit status of `child`; still running after [`HANG`], it is killed and the test
/// fails, naming `what`.
pub fn wait_status(child: &mut Child, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for treesplit") {
            return status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} hung: still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// What it printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What it printed on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `args` with `--json`: exit 0 and exactly one JSON document on stdout.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    let mut args = args.to_vec();
    args.push("--json");
    let o = treesplit(&args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)))
}

/// Exit code 2 (bad input) with a message holding every one of `wanted`, and no panic.
pub fn bad_input(o: &Output, what: &str, wanted: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    for w in wanted {
        assert!(err.contains(w), "{what}: '{err}' lacks '{w}'");
    }
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// A fresh, empty directory for one test's files (`name` keeps tests apart; the process id
/// keeps concurrent runs apart).
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("treesplit-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The answer in a result line: the line up to a witness that another optimal run may pick
/// differently (a clique's vertices, a knapsack's items, a ruler's marks).
pub fn answer(line: &str) -> &str {
    // After the application's description (a path may be written another way).
    let line = line.split_once(": ").map_or(line, |(_, a)| a);
    [": clique", " (weight", ": 0 1", ": tour"]
        .iter()
        .filter_map(|w| line.find(w))
        .min()
        .map_or(line, |i| &line[..i])
}

/// The arguments of an instance of registry application `app` large enough that a run stops
/// at a limit of a few hundred units (its registry example where that is large enough;
/// `clique`: the maximum-clique input), for the tests that checkpoint every application.
pub fn stopping_instance(app: &dyn treesplit_apps::app::App, clique: &str) -> Vec<String> {
    let knapsack = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testkit/data/knapsack/knapPI_3_100_1000_1.txt"
    );
    let tsp = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testkit/data/tsplib/eil51.tsp"
    );
    let sized: &[(&str, &[&str])] = &[
        ("nqueens", &["11"]),
        ("uts", &["T3"]),
        ("knapsack", &[knapsack]),
        ("golomb", &["8"]),
        ("maxclique", &[clique]),
        ("tsp", &[tsp]),
        ("semigroups", &["16"]),
        ("hashtable", &["--keys", "1000", "--q", "4"]),
        ("integrate", &["--f", "osc"]),
        ("synthetic", &["--work", "200000"]),
        ("tree-sum", &["--depth", "14"]),
        ("fib", &["18"]),
    ];
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../testkit/data");
    match sized.iter().find(|(n, _)| *n == app.name()) {
        Some((_, args)) => args.iter().map(|a| a.to_string()).collect(),
        None => app
            .example()
            .iter()
            .map(|w| w.replace("{data}", data))
            .collect(),
    }
}

/// The applications [`stopping_instance`] sizes: each must checkpoint.
pub const SIZED_TO_STOP: &[&str] = &[
    "nqueens",
    "uts",
    "knapsack",
    "golomb",
    "maxclique",
    "tsp",
    "semigroups",
    "hashtable",
    "integrate",
    "synthetic",
    "tree-sum",
    "fib",
];
