//! `treesplit`, the command-line tool: parse the flags, plan, and dispatch the plan to its
//! command. Everything else is in the `treesplit_cli` library.

use std::process::ExitCode;
use treesplit_cli::plan::{self, Plan};
use treesplit_cli::{commands, flags, output};

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
