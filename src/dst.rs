//! `treesplit dst --cases N`: deterministic simulation testing from the command line. Each
//! failing case is printed with the `treesplit sim …` command that replays it.

use crate::args::DstArgs;
use crate::Failure;
use std::time::Instant;
use treesplit_apps::dst::Case;

pub fn dst(args: &DstArgs) -> Result<(), Failure> {
    let start = Instant::now();
    let mut failures = 0u64;
    let mut worst_delay = 0.0f64;
    let mut worst_case = String::new();
    for k in 0..args.cases {
        let seed = args.seed.wrapping_add(k);
        let case = Case::random(seed, args.max_pes);
        match case.check() {
            Ok(c) => {
                let ratio = c.termination_delay as f64 / c.delay_bound as f64;
                if ratio > worst_delay {
                    worst_delay = ratio;
                    worst_case = case.command_line();
                }
            }
            Err(e) => {
                failures += 1;
                println!(
                    "FAILED case seed {seed}: {e}\n  replay: {}",
                    case.command_line()
                );
            }
        }
        if (k + 1) % 1000 == 0 {
            eprintln!(
                "{} cases, {failures} failed, {:.1} s",
                k + 1,
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "{} passed, {failures} failed ({:.1} s; worst termination delay {:.1} % of its bound)",
        args.cases - failures,
        start.elapsed().as_secs_f64(),
        worst_delay * 100.0
    );
    if !worst_case.is_empty() {
        println!("slowest detection relative to its bound: {worst_case}");
    }
    if failures > 0 {
        return Err(Failure {
            message: format!("{failures} of {} cases failed", args.cases),
            code: 1,
        });
    }
    Ok(())
}
