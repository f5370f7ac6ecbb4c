//! `treesplit compare`: every balancer on the same instance in the simulator, one table (and
//! optionally one picture), each run checked against the sequential answer. Runs on the same
//! simulator machine as `sim` (`SimMachine`).

use super::{resolve_jobs, SimMachine};
use crate::output::{self, plot, Failure, Notes};
use crate::plan::{AppVisitor, ComparePlan, Published};
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::{run_sequential, Config, Machine, Task};
use treesplit_apps::spec::Objective;

/// One balancer's figures.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub balancer: String,
    pub t_par: f64,
    pub efficiency: f64,
    pub requests: u64,
    pub rejections: u64,
    pub splits: u64,
    pub messages: u64,
    pub bytes: u64,
    pub termination_delay: u64,
    pub h: u32,
}

pub fn compare(plan: &ComparePlan) -> Result<(), Failure> {
    let config = plan.balance.config(plan.pes)?;
    let sim = &plan.sim;
    let app = &plan.app;
    let machine = SimMachine {
        sim: sim.clone(),
        empty_splits: plan.empty_splits,
    };
    let rows = app.visit(CompareApp {
        config: &config,
        machine: &machine,
        plan,
    })?;
    let notes = plan.out.notes();
    if plan.out.json {
        output::print_json(&rows)?;
    } else {
        println!(
            "{} on P = {} ({}, {} messages, T_rout {}, T_split {}, Δt {}, seed {})",
            app.describe(),
            config.pes,
            sim.topology,
            sim.model,
            sim.t_rout,
            sim.t_split,
            config.delta_t,
            config.seed
        );
        println!(
            "{:<20} {:>10} {:>10} {:>10} {:>10} {:>9} {:>10} {:>12} {:>11} {:>5}",
            "balancer",
            "T_par",
            "efficiency",
            "requests",
            "rejections",
            "splits",
            "messages",
            "bytes",
            "term. delay",
            "h"
        );
        for r in &rows {
            println!(
                "{:<20} {:>10} {:>10.4} {:>10} {:>10} {:>9} {:>10} {:>12} {:>11} {:>5}",
                r.balancer,
                r.t_par,
                r.efficiency,
                r.requests,
                r.rejections,
                r.splits,
                r.messages,
                r.bytes,
                r.termination_delay,
                r.h
            );
        }
    }
    if let Some(path) = &plan.svg {
        let title = format!(
            "{} on P = {} ({})",
            app.describe(),
            config.pes,
            sim.topology
        );
        let bars: Vec<(String, f64)> = rows
            .iter()
            .map(|r| (r.balancer.clone(), r.efficiency))
            .collect();
        plot::draw_comparison(path, &title, &bars)
            .map_err(|e| Failure::run(format!("cannot draw {}: {e}", path.display())))?;
        notes.note(format_args!("wrote {}", path.display()));
    }
    Ok(())
}

struct CompareApp<'a> {
    config: &'a Config,
    machine: &'a SimMachine,
    plan: &'a ComparePlan,
}

impl AppVisitor for CompareApp<'_> {
    type Out = Result<Vec<Row>, Failure>;

    /// Every chosen balancer on the same instance, each checked against the sequential run.
    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        published: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug + Objective,
    {
        let (config, machine) = (self.config, self.machine);
        let notes: Notes = self.plan.out.notes();
        let seq = run_sequential(make_root());
        let mut rows = Vec::new();
        let bar = super::progress::steps(
            self.plan.balancers.len() as u64,
            "compare",
            self.plan.out.progress(),
        );
        for &balancer in &self.plan.balancers {
            bar.inc(1);
            let config = self.plan.balance.config_for(balancer, config.pes)?;
            let config = resolve_jobs(&config, &make_root(), notes)?;
            let r = machine
                .run(make_root(), &config)
                .map_err(|e| Failure::run(format!("{balancer}: {e}")))?
                .into_report();
            let out = &r.report.output;
            let right = match published(out) {
                // A search: search overhead is normal, and any optimal solution will do.
                Some(p) if self.plan.app.is_optimization() => p.matches,
                // A search without a published optimum: the sequential run's objective.
                None if self.plan.app.is_optimization() => out.matches_objective(&seq.output),
                _ => *out == seq.output && r.report.totals.work_units == seq.work_units,
            };
            if !right {
                return Err(Failure::wrong(if self.plan.app.is_optimization() {
                    format!("{balancer} found {out}; the sequential run {}", seq.output)
                } else {
                    format!(
                        "{balancer} gave {out} in {} units; sequential {} in {}",
                        r.report.totals.work_units, seq.output, seq.work_units
                    )
                }));
            }
            let t = &r.report.totals;
            rows.push(Row {
                balancer: balancer.to_string(),
                t_par: r.report.t_par,
                efficiency: r.report.efficiency().unwrap_or(0.0),
                requests: t.requests,
                rejections: t.rejections,
                splits: t.splits,
                messages: t.messages,
                bytes: t.bytes,
                termination_delay: r.termination_delay,
                h: t.max_generation,
            });
        }
        bar.finish_and_clear();
        Ok(rows)
    }
}
