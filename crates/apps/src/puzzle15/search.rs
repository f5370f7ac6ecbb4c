//! IDA* as a sequence of tree-shaped computations, one per threshold, each run by the
//! configured balancer on the command line's machine ([`Host`]). One iteration loop
//! (`iterate`) serves every machine and the sequential baseline: after each iteration, rank
//! 0's outcome (solution found, the next threshold, the work units) is shared with
//! `share_from_0`, so MPI ranks agree on the next step. Reports the optimal length (checked
//! against Korf's published one and by replaying the moves) and the nodes generated over all
//! iterations; in the default stop-at-first-solution mode on one PE (or `--sequential`), the
//! count follows Korf's convention and is checked against the data file.

use super::PuzzleSpec;
use super::{manhattan, moves_string, solves, IdaResult, Iteration, Puzzle15};
use crate::app::{resolve_jobs, AppError, Host, Session};
use crate::spec::Published;
use serde::Serialize;
use treesplit::{run_sequential, Config, Ended, Limit};

/// One iteration's outcome, its work units, and the run limit that stopped it.
type Outcome = (Iteration, u64, Option<Limit>);

/// What the machine adds up over the iterations.
#[derive(Default, Serialize)]
struct Totals {
    t_par: f64,
    requests: u64,
    splits: u64,
    /// Simulator: the termination (or stop) detection delay of each iteration.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    termination_delays: Vec<u64>,
}

/// IDA* with the sequential baseline for each iteration (`run puzzle15 --sequential`).
pub fn run_sequential_ida(spec: &PuzzleSpec, session: &dyn Session) -> Result<(), AppError> {
    let start = std::time::Instant::now();
    let result = iterate(
        spec,
        !spec.complete_last_iteration,
        |_| {},
        |root, _| {
            let s = run_sequential(root);
            Ok(Some((s.output, s.work_units, None)))
        },
    )?;
    let totals = Totals {
        t_par: start.elapsed().as_secs_f64(),
        ..Totals::default()
    };
    let Some(r) = result else { return Ok(()) };
    report(session, spec, &r, "sequential", &totals, true)
}

/// IDA* on `machine`, each iteration with `config` (run limits bound the whole search).
pub fn run<H: Host>(
    spec: &PuzzleSpec,
    machine: &H,
    config: &Config,
    session: &dyn Session,
) -> Result<(), AppError> {
    let mut totals = Totals::default();
    let started = std::time::Instant::now();
    // A static balancer's choice of jobs is said once, at the first iteration.
    let mut notes = session;
    let result = iterate(
        spec,
        !spec.complete_last_iteration,
        |values| machine.share_from_0(values),
        |root, generated| {
            // Run limits bound the whole search: each iteration gets what is left.
            let left = config.clone().limits_left(generated, started);
            let left = resolve_jobs(&left, &root, notes)?;
            notes = session.quiet();
            let ended = machine.run(root, &left).map_err(AppError::Library)?;
            if !machine.prints() {
                return Ok(None);
            }
            let r = match ended {
                Ended::Finished(r) => r,
                // The whole search's limit: every rank learns of it through `share`.
                Ended::Stopped(stopped) => {
                    let limit = match stopped.limit {
                        Limit::Units(_) => Limit::Units(config.max_units.unwrap_or(0)),
                        Limit::Time(_) => Limit::Time(config.time_limit.unwrap_or_default()),
                        Limit::Interrupted => Limit::Interrupted,
                    };
                    let r = stopped.report.as_ref();
                    return Ok(Some((r.output.clone(), r.totals.work_units, Some(limit))));
                }
            };
            totals
                .termination_delays
                .extend(machine.termination_delay(&r));
            let r = r.as_ref();
            totals.t_par += r.t_par;
            totals.requests += r.totals.requests;
            totals.splits += r.totals.splits;
            Ok(Some((r.output.clone(), r.totals.work_units, None)))
        },
    )?;
    let Some(r) = result else {
        return Ok(()); // ranks other than 0 print nothing
    };
    let name = format!(
        "{}, P = {}, {}",
        machine.name(),
        config.pes,
        config.balancer
    );
    report(session, spec, &r, &name, &totals, config.pes == 1)
}

/// The IDA* iterations: `run_iteration` runs one threshold's root (given the work units
/// generated so far, the same on every process) and returns its outcome and
/// work units where this process holds them (`None` on MPI ranks other than 0), and the run
/// limit that stopped it, if any; `share` makes rank 0's decision known everywhere, so all
/// ranks stop together at a limit. `None` on the processes without the result.
fn iterate(
    spec: &PuzzleSpec,
    stop: bool,
    share: impl Fn(&mut [u64]),
    mut run_iteration: impl FnMut(Puzzle15, u64) -> Result<Option<Outcome>, AppError>,
) -> Result<Option<IdaResult>, AppError> {
    let (mut threshold, mut generated, mut thresholds) = (manhattan(&spec.tiles), 1, vec![]);
    let moves = loop {
        thresholds.push(threshold);
        if threshold == 0 {
            break Some(vec![]);
        }
        let mut root = Puzzle15::new(&spec.tiles, threshold, stop);
        if let Some(seed) = spec.random_order {
            root = root.randomized(seed);
        }
        let outcome = run_iteration(root, generated)?;
        // [solution found, next threshold, work units, stopped by a limit (1 units, 2 time,
        // 3 interrupt, then its value)] as rank 0 saw them.
        let mut shared = [0u64; 5];
        if let Some((out, units, limit)) = &outcome {
            let (kind, value) = match limit {
                None => (0, 0),
                Some(Limit::Units(n)) => (1, *n),
                Some(Limit::Time(t)) => (2, t.as_nanos().min(u64::MAX as u128) as u64),
                Some(Limit::Interrupted) => (3, 0),
            };
            shared = [
                u64::from(out.solution.is_some()),
                u64::from(out.next_threshold),
                *units,
                kind,
                value,
            ];
        }
        share(&mut shared);
        generated += shared[2];
        if shared[3] != 0 {
            let limit = match shared[3] {
                1 => Limit::Units(shared[4]),
                3 => Limit::Interrupted,
                _ => Limit::Time(std::time::Duration::from_nanos(shared[4])),
            };
            return Err(AppError::RunFailed(format!(
                "the IDA* search was stopped by {limit} at threshold {threshold}: \
                 {generated} nodes generated in all"
            )));
        }
        if shared[0] == 1 {
            break outcome.and_then(|(out, _, _)| out.solution);
        }
        if shared[1] >= u64::from(u32::MAX) {
            return Err(AppError::BadInput("the board has no solution".into()));
        }
        threshold = shared[1] as u32;
    };
    Ok(moves.map(|moves| IdaResult {
        moves,
        generated,
        thresholds,
    }))
}

#[derive(Serialize)]
struct IdaJson<'a> {
    app: String,
    result: IdaJsonResult<'a>,
    machine: &'a str,
    totals: &'a Totals,
    published: Vec<Published>,
}

#[derive(Serialize)]
struct IdaJsonResult<'a> {
    length: usize,
    moves: String,
    generated: u64,
    thresholds: &'a [u32],
}

fn report(
    session: &dyn Session,
    spec: &PuzzleSpec,
    r: &IdaResult,
    machine: &str,
    totals: &Totals,
    one_pe: bool,
) -> Result<(), AppError> {
    let name = match spec.korf {
        Some(k) => format!("puzzle15 Korf #{k}"),
        None => "puzzle15".to_string(),
    };
    let mut checks = vec![];
    checks.extend(spec.optimal.map(|o| Published {
        source: "Korf 1985, korf100.tsv".into(),
        value: format!("length {o}"),
        matches: r.moves.len() as u32 == o,
    }));
    // Korf's count holds for his move order only (a random order changes the last iteration).
    let korf_order = spec.random_order.is_none();
    if let (Some(nodes), true, false, true) =
        (spec.nodes, one_pe, spec.complete_last_iteration, korf_order)
    {
        checks.push(Published {
            source: "Korf's node-count convention, recomputed in korf100.tsv".into(),
            value: format!("{nodes} nodes"),
            matches: r.generated == nodes,
        });
    }
    let json = session.json();
    if json {
        session.print_json(&IdaJson {
            app: name,
            result: IdaJsonResult {
                length: r.moves.len(),
                moves: moves_string(&r.moves),
                generated: r.generated,
                thresholds: &r.thresholds,
            },
            machine,
            totals,
            published: checks.clone(),
        })?;
    } else {
        println!(
            "{name}: optimal length {} ({}), {} generated, thresholds {:?}",
            r.moves.len(),
            moves_string(&r.moves),
            treesplit::words::count(r.generated, "node", "nodes"),
            r.thresholds
        );
        println!(
            "machine {machine}: T_par {:.4} (summed over iterations), requests {}, splits {}",
            totals.t_par, totals.requests, totals.splits
        );
    }
    if !solves(&spec.tiles, &r.moves) {
        return Err(AppError::WrongAnswer(
            "the reported moves do not solve the puzzle (a treesplit bug)".into(),
        ));
    }
    for check in checks {
        if !json {
            println!("{}", check.line());
        }
        if let Some(wrong) = check.mismatch() {
            return Err(AppError::WrongAnswer(wrong));
        }
    }
    if !json && !totals.termination_delays.is_empty() {
        println!(
            "termination (or stop) detected after the last unit: {}",
            totals
                .termination_delays
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(())
}
