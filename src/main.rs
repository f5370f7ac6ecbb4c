//! `treesplit`, the command-line tool: a thin layer over the `treesplit` library and the
//! applications in `treesplit-apps`.

mod app;
mod args;
mod bench;
mod dst;
mod plot;
mod progress;
mod sim;

use app::{App, Published};
use args::{Cli, Command, RunOpts};
use clap::Parser;
use serde::Serialize;
use std::fmt::Display;
use std::process::ExitCode;
use treesplit::{run_sequential, Config, Task, Threads};
use treesplit_apps::{NQueens, Synthetic, Uts};

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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(run) => app::from_args(&run.app)
            .map_err(Failure::input)
            .and_then(|a| run_app(&a, &run.opts)),
        Command::Sim(s) => app::from_args(&s.app)
            .map_err(Failure::input)
            .and_then(|a| sim::sim(&a, &s.opts)),
        Command::Bench(b) => app::from_args(&b.app)
            .map_err(Failure::input)
            .and_then(|a| bench::bench(&a, &b)),
        Command::Dst(d) => dst::dst(&d),
        Command::Trees => {
            list_trees();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
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

fn run_app(app: &App, opts: &RunOpts) -> Result<(), Failure> {
    match app {
        App::NQueens(n) => {
            let n = *n;
            NQueens::new(n).map_err(Failure::input)?;
            execute(
                || NQueens::new(n).expect("checked"),
                app,
                opts,
                |s| app::published_nqueens(n, *s),
            )
        }
        App::Uts(p) => execute(
            || Uts::new(*p),
            app,
            opts,
            |c| app::published_uts(p, c.nodes),
        ),
        App::Synthetic(p) => {
            Synthetic::new(*p).map_err(Failure::input)?;
            execute(
                || Synthetic::new(*p).expect("checked"),
                app,
                opts,
                |s| app::published_synthetic(p, s.units),
            )
        }
    }
}

#[derive(Serialize)]
struct SequentialJson<'a, O> {
    app: String,
    result: &'a O,
    work_units: u64,
    t_seq: f64,
    published: Option<Published>,
}

#[derive(Serialize)]
struct ParallelJson<'a, O> {
    app: String,
    result: &'a O,
    published: Option<Published>,
    efficiency: Option<f64>,
    report: &'a treesplit::Report<O>,
}

/// Run one application instance as the options say, print the result and the report.
fn execute<T, F>(
    make_root: impl Fn() -> T,
    app: &App,
    opts: &RunOpts,
    published: F,
) -> Result<(), Failure>
where
    T: Task,
    T::Output: Display,
    F: Fn(&T::Output) -> Option<Published>,
{
    let describe = app.describe();
    if opts.sequential {
        let r = run_sequential(make_root());
        let check = published(&r.output);
        if opts.json {
            let j = SequentialJson {
                app: describe,
                result: &r.output,
                work_units: r.work_units,
                t_seq: r.t_seq,
                published: check.clone(),
            };
            println!(
                "{}",
                serde_json::to_string_pretty(&j).map_err(|e| Failure::input(e.to_string()))?
            );
        } else {
            println!("{describe}: {}", r.output);
            print_published(&check);
            println!(
                "sequential baseline: {} work units in {:.4} s",
                r.work_units, r.t_seq
            );
        }
        return verdict(&check);
    }
    let pes = opts
        .pes
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = Config::new(pes)
        .balancer(opts.balancer)
        .delta_t(opts.delta_t.unwrap_or_else(|| app.default_delta_t()))
        .seed(opts.seed);
    config.validate().map_err(Failure::input)?;
    let t_seq = opts.baseline.then(|| run_sequential(make_root()).t_seq);
    let progress = progress::Progress::new(opts.quiet);
    let update = |units: u64, elapsed: std::time::Duration| progress.update(units, elapsed);
    let result = Threads::new()
        .on_progress(&update)
        .run(make_root(), &config);
    progress.finish();
    let mut report = result.map_err(|e| Failure {
        message: e.to_string(),
        code: 1,
    })?;
    report.t_seq = t_seq;
    let check = published(&report.output);
    if opts.json {
        let j = ParallelJson {
            app: describe,
            result: &report.output,
            published: check.clone(),
            efficiency: report.efficiency(),
            report: &report,
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&j).map_err(|e| Failure::input(e.to_string()))?
        );
    } else {
        println!("{describe}: {}", report.output);
        print_published(&check);
        print!("{}", report.summary());
    }
    verdict(&check)
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
