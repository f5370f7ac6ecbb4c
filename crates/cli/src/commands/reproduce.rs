//! `treesplit reproduce`: run the catalogue of claims (`treesplit_lab::reproduce`), show a
//! progress bar over the experiments, write the report (DIR/index.md, DIR/results.json, SVGs)
//! and print one line per claim. FAILs are findings, not errors: the command exits 0 once the
//! report is written (1 if it cannot be).

use crate::output::{self, Failure};
use crate::plan::ReproducePlan;
use serde::Serialize;
use std::time::Instant;
use treesplit_lab::reproduce::{self, report, Ctx};

#[derive(Serialize)]
struct Summary<'a> {
    out: String,
    seconds: f64,
    counts: report::Counts,
    verdicts: Vec<(&'a str, &'static str)>,
}

pub fn reproduce(plan: &ReproducePlan) -> Result<(), Failure> {
    let ctx = Ctx { quick: plan.quick };
    let started = Instant::now();
    let n = if plan.only.is_empty() {
        reproduce::ids().len()
    } else {
        plan.only.len()
    };
    let bar = super::progress::steps(n as u64, "reproduce", plan.out.progress());
    let notes = plan.out.notes();
    let sections = reproduce::run(&ctx, &plan.only, &mut |done, _, id| {
        bar.set_position(done as u64);
        if !id.is_empty() {
            bar.set_message(id.to_string());
            if bar.is_hidden() {
                notes.note(format_args!(
                    "[{}/{n}] {id} ({:.0} s so far)",
                    done + 1,
                    started.elapsed().as_secs_f64()
                ));
            }
        }
    })
    .map_err(Failure::input)?;
    bar.finish_and_clear();
    let counts = report::write(&plan.dir, &sections, plan.quick).map_err(Failure::run)?;
    let seconds = started.elapsed().as_secs_f64();
    if plan.out.json {
        output::print_json(&Summary {
            out: plan.dir.display().to_string(),
            seconds,
            counts,
            verdicts: sections
                .iter()
                .map(|s| (s.id.as_str(), s.finding.verdict.label()))
                .collect(),
        })?;
    } else {
        for s in &sections {
            println!(
                "{:<16} {:<26} {}",
                s.finding.verdict.label(),
                s.id,
                s.finding.measured
            );
        }
        println!(
            "{} PASS, {} FAIL, {} INCONCLUSIVE, {} not yet measured in {seconds:.1} s; report: {}",
            counts.pass,
            counts.fail,
            counts.inconclusive,
            counts.not_yet_measured,
            plan.dir.join("index.md").display()
        );
    }
    Ok(())
}
