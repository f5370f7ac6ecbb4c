//! `treesplit`, the command-line tool: a thin layer over the `treesplit` library and the
//! applications in `treesplit-apps`. This file only parses and dispatches. The layers, each
//! importing only those below it:
//!
//! - `flags`: the clap definitions and which flags were given;
//! - `plan`: flags → a checked, typed plan (application, machine, balancer configuration,
//!   output options; the rules of which flags apply);
//! - `commands`: run a plan (run/sim, bench, compare, dst, depth, trees, reproduce) on a machine;
//! - `output`: exit codes, `error: …` printing, JSON, pictures.

mod commands;
mod flags;
mod output;
mod plan;

use plan::Plan;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Like other command-line tools, end quietly when the reader of our output goes away
    // (`treesplit … | head`) instead of panicking on a broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE at startup, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let (cli, given) = match flags::parse() {
        Ok(parsed) => parsed,
        Err(e) => return output::clap_exit(e),
    };
    output::exit(plan::plan(cli, &given).and_then(|plan| match plan {
        Plan::Run(p) => commands::run::run(&p),
        Plan::Bench(p) => commands::bench::bench(&p),
        Plan::Compare(p) => commands::compare::compare(&p),
        Plan::Dst(p) => commands::dst::dst(&p),
        Plan::Depth(p) => commands::depth::depth(&p),
        Plan::Trees(out) => commands::trees::trees(&out),
        Plan::Scatter(p) => commands::scatter::scatter(&p),
        Plan::Dag(p) => commands::dag::dag(&p),
        Plan::Reproduce(p) => commands::reproduce::reproduce(&p),
    }))
}
