//! `treesplit compare`: every balancer on the same instance in the simulator, one table (and
//! optionally one picture), each run checked against the sequential answer.

use crate::app::{App, AppVisitor, Published};
use crate::args::CompareArgs;
use crate::{plot, sim, Failure};
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::{run_sequential, Balancer, Config, SimConfig, Task};
use treesplit_apps::dst::simulate_maybe_adversarial;

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

pub fn compare(app: &App, args: &CompareArgs) -> Result<(), Failure> {
    let (config, sim) = sim::configs(&args.opts)?;
    if let Some(path) = &args.svg {
        plot::check_path(path).map_err(Failure::input)?;
    }
    let rows = app.visit(CompareApp {
        config: &config,
        sim: &sim,
        args,
    })?;
    if args.opts.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).map_err(|e| Failure::input(e.to_string()))?
        );
    } else {
        println!(
            "{} on P = {} ({}, T_rout {}, T_split {}, Δt {}, seed {})",
            app.describe(),
            config.pes,
            sim.topology,
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
    if let Some(path) = &args.svg {
        let title = format!(
            "{} on P = {} ({})",
            app.describe(),
            config.pes,
            sim.topology
        );
        plot::draw_comparison(path, &title, &rows).map_err(|e| Failure {
            message: format!("cannot draw {}: {e}", path.display()),
            code: 1,
        })?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

struct CompareApp<'a> {
    config: &'a Config,
    sim: &'a SimConfig,
    args: &'a CompareArgs,
}

impl AppVisitor for CompareApp<'_> {
    type Out = Result<Vec<Row>, Failure>;

    /// Every chosen balancer on the same instance, each checked against the sequential run.
    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        _: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug,
    {
        let (config, sim, args) = (self.config, self.sim, self.args);
        let seq = run_sequential(make_root());
        let mut rows = Vec::new();
        let balancers = if args.balancers.is_empty() {
            Balancer::ALL
        } else {
            &args.balancers[..]
        };
        for &balancer in balancers {
            let config = config.clone().balancer(balancer);
            let config = match treesplit::task::bag::resolve_depth(&config, &make_root()) {
                Ok((config, _)) => config,
                Err(_) if balancer.is_static() => {
                    eprintln!("{balancer}: skipped (give --h, --q or --h-from-alpha: this application gives no size estimates)");
                    continue;
                }
                Err(e) => return Err(Failure::input(e)),
            };
            let r = simulate_maybe_adversarial(make_root(), &config, sim, args.opts.empty_splits)
                .map_err(|e| Failure {
                message: format!("{balancer}: {e}"),
                code: 1,
            })?;
            if r.report.output != seq.output || r.report.totals.work_units != seq.work_units {
                return Err(Failure {
                    message: format!(
                        "{balancer} gave {:?} in {} units; sequential {:?} in {}",
                        r.report.output, r.report.totals.work_units, seq.output, seq.work_units
                    ),
                    code: 3,
                });
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
        Ok(rows)
    }
}
