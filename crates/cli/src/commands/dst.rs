//! `treesplit dst --cases N`: deterministic simulation testing from the command line. Each
//! failing case is printed with the `treesplit sim …` command that replays it
//! (`Case::command_line`, the balancer's flags from `Balancer::flags`: only flags that apply).

use crate::output::{self, Failure};
use crate::plan::DstPlan;
use serde::Serialize;
use std::time::Instant;
use treesplit_lab::dst::Case;
use treesplit_lab::dst_systems::{is_system_seed, SystemCase};

/// A failed case.
#[derive(Serialize)]
struct Failed {
    seed: u64,
    error: String,
    replay: String,
}

/// The case whose termination detection came closest to its bound.
#[derive(Serialize)]
struct Slowest {
    seed: u64,
    /// Termination delay over its bound.
    delay_over_bound: f64,
    replay: String,
}

#[derive(Serialize)]
struct DstJson {
    cases: u64,
    passed: u64,
    failed: Vec<Failed>,
    seconds: f64,
    slowest: Option<Slowest>,
}

pub fn dst(args: &DstPlan) -> Result<(), Failure> {
    let start = Instant::now();
    let notes = args.out.notes();
    let mut failed = Vec::new();
    let mut slowest: Option<Slowest> = None;
    let bar = super::progress::steps(args.cases, "dst", args.out.progress());
    for k in 0..args.cases {
        bar.inc(1);
        if k > 0 && k % 1000 == 0 && bar.is_hidden() {
            super::progress::line(
                notes,
                format_args!(
                    "{} cases, {} failed, {:.1} s",
                    k,
                    failed.len(),
                    start.elapsed().as_secs_f64()
                ),
            );
        }
        let seed = args.seed.wrapping_add(k);
        if is_system_seed(seed) {
            // The examples, the multi-run applications, DAGs and checkpoint/resume (dst_systems).
            let case = SystemCase::random(seed, args.max_pes);
            if let Err(e) = case.check() {
                let f = Failed {
                    seed,
                    error: e,
                    replay: case.describe(),
                };
                if !args.out.json {
                    bar.suspend(|| {
                        println!("FAILED case seed {seed}: {}\n  case: {}", f.error, f.replay)
                    });
                }
                failed.push(f);
            }
            continue;
        }
        let case = Case::random(seed, args.max_pes);
        match case.check() {
            Ok(c) => {
                let ratio = c.termination_delay as f64 / c.delay_bound as f64;
                if slowest.as_ref().is_none_or(|s| ratio > s.delay_over_bound) {
                    slowest = Some(Slowest {
                        seed,
                        delay_over_bound: ratio,
                        replay: case.command_line(),
                    });
                }
            }
            Err(e) => {
                let f = Failed {
                    seed,
                    error: e.to_string(),
                    replay: case.command_line(),
                };
                if !args.out.json {
                    // Above the progress bar, if one is drawn.
                    bar.suspend(|| {
                        println!(
                            "FAILED case seed {seed}: {}\n  replay: {}",
                            f.error, f.replay
                        )
                    });
                }
                failed.push(f);
            }
        }
    }
    bar.finish_and_clear();
    let failures = failed.len() as u64;
    let seconds = start.elapsed().as_secs_f64();
    if args.out.json {
        output::print_json(&DstJson {
            cases: args.cases,
            passed: args.cases - failures,
            failed,
            seconds,
            slowest,
        })?;
    } else {
        println!(
            "{} passed, {failures} failed ({seconds:.1} s; worst termination delay {:.1} % of its bound)",
            args.cases - failures,
            slowest.as_ref().map_or(0.0, |s| s.delay_over_bound) * 100.0
        );
        if let Some(s) = slowest.as_ref().filter(|s| s.delay_over_bound > 0.0) {
            println!("slowest detection relative to its bound: {}", s.replay);
        }
    }
    if failures > 0 {
        return Err(Failure::run(format!(
            "{failures} of {} cases failed",
            args.cases
        )));
    }
    Ok(())
}
