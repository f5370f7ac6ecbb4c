//! `treesplit sim`: one run in the simulator. The report on stdout is reproducible byte for
//! byte from the seed; how fast the simulator ran goes to stderr.

use crate::app::{App, AppVisitor, Published};
use crate::args::SimOpts;
use crate::{plot, print_published, verdict, Failure};
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::machine::sim::adversary::parse_pe_list;
use treesplit::machine::sim::{Delay, Topology};
use treesplit::{Config, SimConfig, SimReport, Task};
use treesplit_apps::dst::simulate_maybe_adversarial;

/// The configuration the options describe (checked).
pub fn configs(o: &SimOpts) -> Result<(Config, SimConfig), Failure> {
    let topology: Topology = o.net.parse().map_err(Failure::input)?;
    let delay: Delay = o.delay.parse().map_err(Failure::input)?;
    let sim = SimConfig {
        topology,
        t_rout: o.t_rout,
        t_hop: o.t_hop,
        t_split: o.t_split,
        t_send: o.t_send,
        t_recv: o.t_recv,
        delay,
        slow: parse_pe_list(&o.slow, "slow PE").map_err(Failure::input)?,
        slow_links: parse_pe_list(&o.slow_links, "slow link").map_err(Failure::input)?,
        ..SimConfig::default()
    };
    if !(0.0..=1.0).contains(&o.empty_splits) {
        return Err(Failure::input(format!(
            "--empty-splits must be a fraction in [0, 1], got {}",
            o.empty_splits
        )));
    }
    // On a crossbar every PE is a neighbour; neighbour polling then means a ring.
    let neighbourhood = if topology == Topology::Crossbar {
        Topology::Ring
    } else {
        topology
    };
    let delta_t = o.balance.delta_t.unwrap_or(o.t_rout.max(1));
    // A round must fit a request, the victim's next poll, a split and the answer.
    let default_round = 2 * o.t_rout + o.t_split + delta_t;
    let config = o
        .balance
        .config(o.pes, delta_t, default_round, neighbourhood)
        .map_err(Failure::input)?;
    sim.validate(o.pes).map_err(Failure::input)?;
    Ok((config, sim))
}

pub fn sim(app: &App, o: &SimOpts) -> Result<(), Failure> {
    if let App::Puzzle15(spec) = app {
        return crate::ida::sim(spec, o);
    }
    let (config, sim) = configs(o)?;
    if let Some(path) = &o.gantt {
        plot::check_path(path).map_err(Failure::input)?;
    }
    app.visit(SimApp {
        app,
        config: &config,
        sim: &sim,
        o,
    })
}

struct SimApp<'a> {
    app: &'a App,
    config: &'a Config,
    sim: &'a SimConfig,
    o: &'a SimOpts,
}

impl AppVisitor for SimApp<'_> {
    type Out = Result<(), Failure>;

    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        published: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug,
    {
        execute(
            make_root(),
            self.app,
            self.config,
            self.sim,
            self.o,
            published,
        )
    }
}

#[derive(Serialize)]
struct SimJson<'a, O> {
    app: String,
    result: &'a O,
    published: Option<Published>,
    simulation: &'a SimReport<O>,
}

fn execute<T: Task>(
    root: T,
    app: &App,
    config: &Config,
    sim: &SimConfig,
    o: &SimOpts,
    published: impl Fn(&T::Output) -> Option<Published>,
) -> Result<(), Failure>
where
    T::Output: Display,
{
    let config = &crate::run::resolve_jobs(config, &root).map_err(Failure::input)?;
    let r = simulate_maybe_adversarial(root, config, sim, o.empty_splits).map_err(|e| Failure {
        message: e.to_string(),
        code: 1,
    })?;
    let check = published(&r.report.output);
    if o.json {
        let j = SimJson {
            app: app.describe(),
            result: &r.report.output,
            published: check.clone(),
            simulation: &r,
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&j).map_err(|e| Failure::input(e.to_string()))?
        );
    } else {
        println!("{}: {}", app.describe(), r.report.output);
        print_published(&check);
        print!("{}", r.report.summary());
        print!("{}", r.summary());
    }
    eprintln!("{}", r.speed());
    if let Some(path) = &o.gantt {
        plot::draw(path, &r).map_err(|e| Failure {
            message: format!("cannot draw {}: {e}", path.display()),
            code: 1,
        })?;
        eprintln!("wrote {}", path.display());
    }
    verdict(&check)
}
