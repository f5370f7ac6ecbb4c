//! `treesplit`, the command-line tool: a thin layer over the `treesplit` library and the
//! applications in `treesplit-apps`.

mod app;
mod args;
mod bench;
mod compare;
mod depth;
mod dst;
mod fault;
mod ida;
mod plot;
mod progress;
mod run;
mod search_bench;
mod sim;

use app::Published;
use args::{Cli, Command};
use clap::Parser;
use std::process::ExitCode;

/// A failure the user should read: printed as `error: …`, exit code 2 for bad input,
/// 1 for a failed run, 3 for a wrong answer.
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) code: u8,
}

impl Failure {
    pub(crate) fn input(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 2,
        }
    }
}

/// This process's rank when started by an MPI launcher (mpirun, srun), from the launcher's
/// environment; 0 otherwise. Used so that errors are reported once, by rank 0.
pub(crate) fn launcher_rank() -> usize {
    [
        "OMPI_COMM_WORLD_RANK",
        "PMIX_RANK",
        "PMI_RANK",
        "SLURM_PROCID",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.parse().ok())
    .unwrap_or(0)
}

fn main() -> ExitCode {
    // Like other command-line tools, end quietly when the reader of our output goes away
    // (`treesplit … | head`) instead of panicking on a broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE at startup, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if launcher_rank() == 0 {
                let _ = e.print();
            }
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Run(r) => app::from_args(&r.app)
            .map_err(Failure::input)
            .and_then(|a| run::run(&a, &r.opts)),
        Command::Sim(s) => app::from_args(&s.app)
            .map_err(Failure::input)
            .and_then(|a| sim::sim(&a, &s.opts)),
        Command::Bench(b) => app::from_args(&b.app)
            .map_err(Failure::input)
            .and_then(|a| bench::bench(&a, &b)),
        Command::Compare(c) => app::from_args(&c.app)
            .map_err(Failure::input)
            .and_then(|a| compare::compare(&a, &c)),
        Command::Dst(d) => dst::dst(&d),
        Command::Depth(d) => depth::depth(&d),
        Command::Trees => {
            list_trees();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if launcher_rank() == 0 {
                eprintln!("error: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}

fn list_trees() {
    println!("{:<8} {:<45} {:>14}", "name", "UTS flags", "nodes");
    for t in treesplit_apps::uts::NAMED_TREES {
        let nodes = t.nodes.map_or("-".to_string(), |n| n.to_string());
        println!("{:<8} {:<45} {:>14}", t.name, t.flags, nodes);
    }
}

pub(crate) fn print_published(check: &Option<Published>) {
    if let Some(p) = check {
        let mark = if p.matches {
            "matches"
        } else {
            "DOES NOT MATCH"
        };
        println!("published ({}): {} — {mark}", p.source, p.value);
    }
}

pub(crate) fn verdict(check: &Option<Published>) -> Result<(), Failure> {
    match check {
        Some(p) if !p.matches => Err(Failure {
            message: format!(
                "the result does not match the published {} ({})",
                p.value, p.source
            ),
            code: 3,
        }),
        _ => Ok(()),
    }
}
