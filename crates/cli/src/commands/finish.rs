//! How a run ends, for `run`/`sim` and for runs in checkpointed epochs alike: `--check`
//! holds the answer against a sequential run, and a run stopped by a limit or a signal
//! prints its partial report before it fails.

use crate::output::{self, Failure, Notes};
use crate::plan::RunPlan;
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::{run_sequential, Limit, Report, Task};
use treesplit_apps::spec::Objective;

/// `--check`: the contract was kept during the run; now the answer against a sequential run.
/// A search's work differs (search overhead) and another optimal solution is as good: it is
/// judged by its objective value.
pub fn check_result<T: Task>(
    plan: &RunPlan,
    report: &Report<T::Output>,
    make_root: impl Fn() -> T,
    notes: Notes,
) -> Result<(), Failure>
where
    T::Output: Display + PartialEq + Debug + Objective,
{
    if plan.balance.checks() && !plan.app.is_optimization() {
        treesplit::check::against_sequential(make_root(), report).map_err(Failure::from)?;
        notes.note(format_args!(
            "check: the task kept its contract; result and {} work units match the sequential run",
            report.totals.work_units
        ));
    } else if plan.balance.checks() {
        let seq = run_sequential(make_root());
        if !report.output.matches_objective(&seq.output) {
            return Err(Failure::wrong(format!(
                "check: the run found {}, the sequential run {}",
                report.output, seq.output
            )));
        }
        notes.note(format_args!(
            "check: the task kept its contract; the objective matches the sequential run's ({})",
            seq.output
        ));
    }
    Ok(())
}

/// `run --json` of a run stopped by a limit: the partial report.
#[derive(Serialize)]
struct PartialJson<'a, O, R> {
    app: String,
    stopped_by: String,
    partial: bool,
    result: &'a R,
    report: &'a Report<O>,
}

/// A run stopped by `--max-units`, `--time-limit` or a signal: print the partial report
/// (JSON under `--json`, which then says all: its `stopped_by` names the limit), then fail
/// (exit code 1).
pub fn limit_reached<O: Serialize + Display>(
    plan: &RunPlan,
    limit: Limit,
    report: &Report<O>,
) -> Failure {
    partial(
        plan.app.describe(),
        plan.out.json,
        limit,
        report,
        &report.output,
        &report.summary(),
    )
}

/// The partial report of `app`'s run that `limit` stopped, its result so far being
/// `result`, then `summary` (JSON under `json`: the result and the report), and the
/// failure (exit code 1) to return.
pub fn partial<O: Serialize, R: Serialize + Display>(
    app: String,
    json: bool,
    limit: Limit,
    report: &Report<O>,
    result: &R,
    summary: &str,
) -> Failure {
    let failure = output::stopped(limit, report.totals.work_units, report.t_par);
    if json {
        if let Err(f) = output::print_json(&PartialJson {
            app,
            stopped_by: limit.to_string(),
            partial: true,
            result,
            report,
        }) {
            return f;
        }
        // The partial report is the one document: no error document beside it.
        return failure.said_in_json();
    }
    println!("{app} (partial, stopped by {limit}): {result}");
    print!("{summary}");
    failure
}
