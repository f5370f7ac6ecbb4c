//! `treesplit run|sim puzzle15`: IDA* as a sequence of tree-shaped computations, one per
//! threshold, each run by the configured balancer on the chosen machine. Reports the optimal
//! length (checked against Korf's published one and by replaying the moves) and the nodes
//! generated over all iterations; in the default stop-at-first-solution mode on one PE (or
//! `--sequential`), the count follows Korf's convention and is checked against the data file.

use crate::app::Published;
use crate::args::{MachineArg, RunOpts, SimOpts};
use crate::{print_published, verdict, Failure};
use treesplit::config::DEFAULT_ROUND;
use treesplit::topology::Topology;
use treesplit::{run_sequential, simulate, Threads};
use treesplit_apps::puzzle15::{ida_star, moves_string, solves, IdaResult};
use treesplit_apps::spec::PuzzleSpec;

fn fail(e: impl std::fmt::Display) -> Failure {
    Failure {
        message: e.to_string(),
        code: 1,
    }
}

/// What the machine adds up over the iterations.
#[derive(Default)]
struct Totals {
    t_par: f64,
    requests: u64,
    splits: u64,
}

pub fn run(spec: &PuzzleSpec, opts: &RunOpts) -> Result<(), Failure> {
    let stop = !spec.complete_last_iteration;
    let mut totals = Totals::default();
    let (result, machine) = if opts.sequential {
        let start = std::time::Instant::now();
        let r = ida_star(&spec.tiles, stop, |root| -> Result<_, Failure> {
            let s = run_sequential(root);
            Ok((s.output, s.work_units))
        })?;
        totals.t_par = start.elapsed().as_secs_f64();
        (r, "sequential".to_string())
    } else {
        if opts.machine == MachineArg::Mpi {
            return match mpi::run(spec, opts, stop)? {
                Some((r, machine, t)) => report(spec, &r, &machine, &t, false),
                None => Ok(()),
            };
        }
        let pes = opts
            .pes
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let config = opts
            .balance
            .config(pes, 1024, DEFAULT_ROUND, Topology::Ring)
            .map_err(Failure::input)?;
        let r = ida_star(&spec.tiles, stop, |root| -> Result<_, Failure> {
            let config = crate::run::resolve_jobs(&config, &root).map_err(Failure::input)?;
            let report = Threads::new().run(root, &config).map_err(fail)?;
            totals.t_par += report.t_par;
            totals.requests += report.totals.requests;
            totals.splits += report.totals.splits;
            Ok((report.output, report.totals.work_units))
        })?;
        (r, format!("threads, P = {pes}, {}", config.balancer))
    };
    report(
        spec,
        &result,
        &machine,
        &totals,
        opts.sequential || opts.pes == Some(1),
    )
}

#[cfg(feature = "mpi")]
mod mpi {
    use super::*;
    use treesplit::machine::mpi::Mpi;
    use treesplit_apps::puzzle15::{manhattan, Puzzle15};

    /// IDA* over MPI: every rank runs each iteration; rank 0 broadcasts whether it found a
    /// solution, the next threshold and the iteration's work units. `Some` on rank 0.
    #[allow(clippy::type_complexity)]
    pub fn run(
        spec: &PuzzleSpec,
        opts: &RunOpts,
        stop: bool,
    ) -> Result<Option<(IdaResult, String, Totals)>, Failure> {
        let mpi = Mpi::init().map_err(fail)?;
        let size = mpi.size();
        let config = opts
            .balance
            .config(size, 1024, DEFAULT_ROUND, Topology::Ring)
            .map_err(Failure::input)?;
        let mut totals = Totals::default();
        let (mut threshold, mut generated, mut thresholds) = (manhattan(&spec.tiles), 1, vec![]);
        let moves = loop {
            thresholds.push(threshold);
            if threshold == 0 {
                break Some(vec![]);
            }
            let root = Puzzle15::new(&spec.tiles, threshold, stop);
            let config = crate::run::resolve_jobs(&config, &root).map_err(Failure::input)?;
            let report = match mpi.run(|| root, &config) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: MPI rank {}: {e}; aborting the MPI job", mpi.rank());
                    mpi.abort(1)
                }
            };
            let mut shared = [0u64; 3];
            if let Some(r) = &report {
                totals.t_par += r.t_par;
                totals.requests += r.totals.requests;
                totals.splits += r.totals.splits;
                shared = [
                    u64::from(r.output.solution.is_some()),
                    u64::from(r.output.next_threshold),
                    r.totals.work_units,
                ];
            }
            mpi.broadcast_from_0(&mut shared);
            generated += shared[2];
            if shared[0] == 1 {
                break report.and_then(|r| r.output.solution);
            }
            if shared[1] >= u64::from(u32::MAX) {
                return Err(Failure::input("the board has no solution"));
            }
            threshold = shared[1] as u32;
        };
        Ok(moves.map(|moves| {
            let r = IdaResult {
                moves,
                generated,
                thresholds,
            };
            (r, format!("mpi, P = {size}, {}", config.balancer), totals)
        }))
    }
}

#[cfg(not(feature = "mpi"))]
mod mpi {
    use super::*;

    #[allow(clippy::type_complexity)]
    pub fn run(
        _: &PuzzleSpec,
        _: &RunOpts,
        _: bool,
    ) -> Result<Option<(IdaResult, String, Totals)>, Failure> {
        Err(Failure::input(
            "this treesplit was built without MPI support; build it with `cargo build --release --features mpi`",
        ))
    }
}

pub fn sim(spec: &PuzzleSpec, o: &SimOpts) -> Result<(), Failure> {
    let (config, sim) = crate::sim::configs(o)?;
    let stop = !spec.complete_last_iteration;
    let mut totals = Totals::default();
    let mut latency = Vec::new();
    let r = ida_star(&spec.tiles, stop, |root| -> Result<_, Failure> {
        let config = crate::run::resolve_jobs(&config, &root).map_err(Failure::input)?;
        let s = simulate(root, &config, &sim).map_err(fail)?;
        totals.t_par += s.report.t_par;
        totals.requests += s.report.totals.requests;
        totals.splits += s.report.totals.splits;
        latency.push(s.termination_delay);
        Ok((s.report.output, s.report.totals.work_units))
    })?;
    let machine = format!("sim, P = {}, {}", config.pes, config.balancer);
    report(spec, &r, &machine, &totals, config.pes == 1)?;
    println!(
        "termination (or stop) detected after the last unit: {}",
        latency
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

fn report(
    spec: &PuzzleSpec,
    r: &IdaResult,
    machine: &str,
    totals: &Totals,
    deterministic: bool,
) -> Result<(), Failure> {
    let name = match spec.korf {
        Some(k) => format!("puzzle15 Korf #{k}"),
        None => "puzzle15".to_string(),
    };
    println!(
        "{name}: optimal length {} ({}), {} nodes generated, thresholds {:?}",
        r.moves.len(),
        moves_string(&r.moves),
        r.generated,
        r.thresholds
    );
    println!(
        "machine {machine}: T_par {:.4} (summed over iterations), requests {}, splits {}",
        totals.t_par, totals.requests, totals.splits
    );
    if !solves(&spec.tiles, &r.moves) {
        return Err(Failure {
            message: "the reported moves do not solve the puzzle (a treesplit bug)".into(),
            code: 3,
        });
    }
    let check = spec.optimal.map(|o| Published {
        source: "Korf 1985, korf100.tsv".into(),
        value: format!("length {o}"),
        matches: r.moves.len() as u32 == o,
    });
    print_published(&check);
    verdict(&check)?;
    if let (Some(nodes), true, false) = (spec.nodes, deterministic, spec.complete_last_iteration) {
        let check = Some(Published {
            source: "Korf's node-count convention, recomputed in korf100.tsv".into(),
            value: format!("{nodes} nodes"),
            matches: r.generated == nodes,
        });
        print_published(&check);
        verdict(&check)?;
    }
    Ok(())
}
