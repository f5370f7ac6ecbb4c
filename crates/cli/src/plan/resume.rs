//! `treesplit resume FILE`: the plan of the run a checkpoint describes. The checkpoint keeps
//! the application's words; they are read back as `treesplit run` would read them, with this
//! command line's machine and balancer options, and the seeds and `--q` that made the
//! checkpointed instance kept unless given again. The run is then planned as any other
//! (`run_plan`), its checkpoint resumed from the file.

use super::{input_digest, run_plan, CheckpointPlan, Env, RunPlan};
use crate::flags::{Cli, Command, Given, ResumeArgs, RunArgs};
use crate::output::{self, paths, Failure};

/// `resume FILE`: the run its checkpoint describes, with this command line's machine and
/// balancer options.
pub(super) fn plan(r: ResumeArgs, given: &Given, env: &Env) -> Result<RunPlan, Failure> {
    let words = treesplit::checkpoint::read_app(&r.file)
        .map_err(|e| Failure::input(output::checkpoint_error(&r.file, &e, &[])))?;
    let words = input_digest::app_words(&words);
    // The checkpoint's input came on standard input: it must come again, not be waited for
    // from a terminal.
    #[cfg(unix)]
    // SAFETY: isatty only reads the state of descriptor 0.
    if words.iter().any(|w| w == "-") && unsafe { libc::isatty(0) } == 1 {
        return Err(Failure::input(format!(
            "{}: the checkpointed computation read its input from standard input; give the same input again: treesplit resume {} < INPUT",
            r.file.display(),
            r.file.display()
        )));
    }
    let line = ["treesplit".to_string(), "run".to_string()]
        .into_iter()
        .chain(words.iter().cloned());
    let (app, seed, instance, q) =
        match <Cli as clap::Parser>::try_parse_from(line).map(|c| c.command) {
            Ok(Command::Run(run)) => (
                run.app,
                run.opts.seed,
                run.opts.instance,
                run.opts.balance.jobs_per_pe,
            ),
            _ => {
                return Err(Failure::input(format!(
                    "{}: the checkpoint names an application this treesplit does not know: {}",
                    r.file.display(),
                    words.join(" ")
                )))
            }
        };
    let every = r.opts.checkpoint_every;
    let path = r.opts.checkpoint.clone().unwrap_or_else(|| r.file.clone());
    let mut r = r;
    // The words keep the seed an instance was drawn from (`--random`, generated keys:
    // `--instance-seed`, or `--seed` in older checkpoints) and an instance's own --q (the
    // hash table's): they stay unless this command line gives them, and the instance they
    // make must then be the checkpoint's. A `--seed` given here seeds the balancer only.
    if !given.has("instance_seed") {
        r.opts.instance.instance_seed = instance.or(seed);
    }
    if !given.has("seed") {
        r.opts.seed = seed;
    }
    if !given.has("jobs_per_pe") && q.is_some() {
        r.opts.balance.jobs_per_pe = q;
    }
    let mut given = given.clone();
    given.insert("checkpoint");
    let run = RunArgs {
        app,
        opts: r.opts,
        sequential: false,
        baseline: false,
    };
    let mut plan = run_plan(run, &given, env)?;
    // The checkpoint resumed from is read: no output but its own checkpoint may go there.
    paths::check(&plan.timeline.outputs(), std::slice::from_ref(&r.file))?;
    if plan.checkpoint.is_none() {
        let checkpoint = paths::Output::new("resume", &path, paths::Kind::Checkpoint);
        let mut outputs = plan.timeline.outputs();
        outputs.insert(0, checkpoint);
        paths::check(&outputs, &[])?;
    }
    plan.checkpoint = Some(CheckpointPlan {
        path,
        every,
        resume: Some(r.file),
    });
    Ok(plan)
}
