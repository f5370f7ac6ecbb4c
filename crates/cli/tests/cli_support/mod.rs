//! Running the `treesplit` binary from the CLI tests: with arguments, an environment and
//! standard input, and reading what it printed.

#![allow(dead_code)] // each test file uses its own subset

use std::process::{Command, Output};

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
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_treesplit"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start treesplit");
    let mut stdin = child.stdin.take().unwrap();
    if let Some(bytes) = input {
        stdin.write_all(bytes).unwrap();
    }
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// What it printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What it printed on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
