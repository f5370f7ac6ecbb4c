//! `treesplit reproduce`: run the catalogue of claims (`treesplit_lab::reproduce`), show a
//! progress bar over the experiments, write the report (DIR/index.md, DIR/results.json, SVGs)
//! and print one line per claim. FAILs are findings, not errors: the command exits 0 once the
//! report is written (1 if it cannot be; 2, before any experiment, if `--out` cannot take it).
//! With `--only`, an earlier report in `--out` is updated in place rather than replaced.

use crate::output::{self, Failure};
use crate::plan::ReproducePlan;
use serde::Serialize;
use std::path::Path;
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
    check_out_dir(&plan.dir)?;
    let earlier = earlier_report(plan)?;
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
                super::progress::line(
                    notes,
                    format_args!(
                        "[{}/{n}] {id} ({:.0} s so far)",
                        done + 1,
                        started.elapsed().as_secs_f64()
                    ),
                );
            }
        }
    })
    .map_err(Failure::input)?;
    bar.finish_and_clear();
    let fresh = sections.len();
    let report = match earlier {
        Some(earlier) => reproduce::merge(earlier, sections.clone()),
        None => sections.clone(),
    };
    let counts = report::write(&plan.dir, &report, plan.quick).map_err(Failure::run)?;
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
        let kept = report.len() - fresh;
        let updated = if kept > 0 {
            format!(" ({fresh} claims run now, {kept} kept from the earlier report)")
        } else {
            String::new()
        };
        println!(
            "{} PASS, {} FAIL, {} INCONCLUSIVE, {} ANSWER, {} not yet measured in {seconds:.1} s{updated}; report: {}",
            counts.pass,
            counts.fail,
            counts.inconclusive,
            counts.answer,
            counts.not_yet_measured,
            plan.dir.join("index.md").display()
        );
    }
    Ok(())
}

/// With `--only`, the report in `--out` is updated in place: the claims run now replace
/// theirs and the others stay (`reproduce::merge`), so rerunning one claim never throws away
/// the rest of a report that took half an hour. Read before any experiment runs: a report of
/// the other kind (quick against full) or a results.json that is not a report is bad input,
/// since merging would mix two catalogues or lose a file.
fn earlier_report(plan: &ReproducePlan) -> Result<Option<Vec<reproduce::Section>>, Failure> {
    if plan.only.is_empty() {
        return Ok(None);
    }
    let Some((quick, sections)) = report::read(&plan.dir)
        .map_err(|e| Failure::input(format!("--out {}: {e}", plan.dir.display())))?
    else {
        return Ok(None);
    };
    if quick != plan.quick {
        let kind = |q: bool| {
            if q {
                "a --quick report"
            } else {
                "a full report"
            }
        };
        return Err(Failure::input(format!(
            "--out {} holds {}; this run would make {}, and --only updates a report in place, \
             so the two would mix: choose another --out{}",
            plan.dir.display(),
            kind(quick),
            kind(plan.quick),
            if quick {
                " or add --quick"
            } else {
                " or drop --quick"
            }
        )));
    }
    Ok(Some(sections))
}

/// Make the report's directory and write a file there before any experiment runs, so that a
/// `--out` that cannot take the report is bad input at once, not after the experiments.
fn check_out_dir(dir: &Path) -> Result<(), Failure> {
    let fail = |e: std::io::Error| {
        Failure::input(format!(
            "--out {}: cannot write the report there: {e}",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".treesplit-write-test-{}", std::process::id()));
    std::fs::File::create(&probe).map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)?;
    // The report replaces only an earlier report's files.
    use crate::output::paths::{check, Kind, Output};
    check(
        &[
            Output::new("--out", &dir.join("index.md"), Kind::ReportPage),
            Output::new("--out", &dir.join("results.json"), Kind::ReportNumbers),
        ],
        &[],
    )
}
