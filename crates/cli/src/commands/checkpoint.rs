//! `run --checkpoint FILE [--checkpoint-every D]` and `resume FILE`: a computation that
//! survives the end of a batch job.
//!
//! The computation runs in epochs (`treesplit::checkpoint`): each is a run that keeps its
//! unfinished pieces when it stops; the pieces, the output so far, the units done and the
//! incumbent go to FILE (atomically: a temporary file, then a rename), and the next epoch
//! starts from them. An epoch ends at the next `--checkpoint-every`, at the run's own
//! `--time-limit` or `--max-units` (both count for the whole computation), or on SIGTERM,
//! SIGINT or SIGUSR1. `resume` reads FILE and carries on with any P, machine or balancer;
//! so does the same `run --checkpoint FILE` again (a requeued batch job) while FILE holds a
//! checkpoint of that computation. A checkpoint carries its instance; before going on, the
//! instance the input gives now must be the one its pieces belong to.
//!
//! On MPI, rank 0 holds the snapshot and decides each epoch's configuration (limits left,
//! incumbent, a static balancer's number of jobs from the pieces' estimates); every rank
//! learns it through `Machine::share_from_0`, and rank 0's decision to go on or end too.
//! Open MPI's `mpirun` forwards SIGUSR1 to every rank (SIGTERM ends the job): send SIGUSR1
//! to checkpoint an MPI job, e.g. Slurm's `--signal=B:USR1@120`.
//!
//! SIGHUP counts as SIGTERM unless the process ignores it (`nohup`).
//!
//! The signals are also how a run without `--checkpoint` ends cleanly: it stops within a
//! slice, prints what it did and exits 1. A second SIGTERM or SIGINT ends the process at once.

use super::CliMachine;
use crate::output::{self, print_published, verdict, Failure, Notes};
use crate::plan::{CheckpointPlan, Published, RunPlan};
use serde::Serialize;
use std::fmt::{Debug, Display};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Instant;
use treesplit::checkpoint::{after_epoch, epoch_config, Policy, Snapshot};
use treesplit::task::pieces::Pieces;
use treesplit::words::count;
use treesplit::{Config, Jobs, Report, Task};
use treesplit::{Ended, Stopped};
use treesplit_apps::spec::Objective;

/// The flag SIGTERM, SIGINT, SIGUSR1 and SIGHUP set, installed once per process; a run whose
/// configuration carries it (`Config::interrupt`) stops after its PEs' current slices, as at
/// a limit. While the flag is set, a second SIGTERM or SIGINT ends the process (exit 1).
pub fn interrupt_flag() -> Result<Arc<AtomicBool>, Failure> {
    static FLAG: OnceLock<Result<Arc<AtomicBool>, String>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGUSR1};
            use signal_hook::flag;
            // SIGHUP (the terminal or the session went away) stops the run as SIGTERM does,
            // unless the process was started to ignore it (`nohup`).
            let hangup = (!ignored(SIGHUP)).then_some(SIGHUP);
            for signal in [SIGTERM, SIGINT].into_iter().chain(hangup) {
                flag::register_conditional_shutdown(signal, 1, flag.clone())
                    .map_err(|e| format!("cannot install a signal handler: {e}"))?;
            }
            for signal in [SIGTERM, SIGINT, SIGUSR1].into_iter().chain(hangup) {
                flag::register(signal, flag.clone())
                    .map_err(|e| format!("cannot install a signal handler: {e}"))?;
            }
        }
        Ok(flag)
    })
    .clone()
    .map_err(Failure::run)
}

/// Whether `signal` is ignored in this process (as `nohup` leaves SIGHUP).
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    // SAFETY: sigaction with a null new action only reads the current disposition into
    // `old`, a zeroed sigaction of our own.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// What every rank learns of the next epoch from rank 0.
#[derive(Default)]
struct EpochWire {
    /// 0: none, else units + 1.
    max_units: u64,
    /// 0: none, else nanoseconds + 1.
    time_limit: u64,
    /// 0: none, else 1 with the value in `incumbent`.
    has_incumbent: u64,
    incumbent: u64,
    /// Static balancers: 0 as configured, 1 `Jobs::Depth`, 2 `Jobs::PerPe`.
    jobs_kind: u64,
    jobs: u64,
}

impl EpochWire {
    fn from_config(c: &Config) -> Self {
        let (jobs_kind, jobs) = match c.balancer.jobs() {
            Some(Jobs::Depth(h)) => (1, u64::from(h)),
            Some(Jobs::PerPe(q)) => (2, q),
            _ => (0, 0),
        };
        EpochWire {
            max_units: c.max_units.map_or(0, |u| u.saturating_add(1)),
            time_limit: c
                .time_limit
                .map_or(0, |t| (t.as_nanos().min(u64::MAX as u128 - 1) as u64) + 1),
            has_incumbent: u64::from(c.incumbent.is_some()),
            incumbent: c.incumbent.unwrap_or(0) as u64,
            jobs_kind,
            jobs,
        }
    }

    fn to_array(&self) -> [u64; 6] {
        [
            self.max_units,
            self.time_limit,
            self.has_incumbent,
            self.incumbent,
            self.jobs_kind,
            self.jobs,
        ]
    }

    /// The epoch's configuration: `base` with the shared values.
    fn config(a: [u64; 6], base: &Config) -> Config {
        let mut c = base.clone().keep_remaining(true);
        c.max_units = (a[0] > 0).then(|| a[0] - 1);
        c.time_limit = (a[1] > 0).then(|| std::time::Duration::from_nanos(a[1] - 1));
        c.incumbent = (a[2] == 1).then_some(a[3] as i64);
        match a[4] {
            1 => c.balancer = c.balancer.with_jobs(Jobs::Depth(a[5] as u32)),
            2 => c.balancer = c.balancer.with_jobs(Jobs::PerPe(a[5])),
            _ => {}
        }
        c
    }
}

/// Rank 0's decision after an epoch.
const GO_ON: u64 = 1;
const END: u64 = 0;
const FAILED: u64 = 2;

/// Run a checkpointed computation on `machine` and print its result (rank 0).
#[allow(clippy::too_many_arguments)]
pub fn run<T, M>(
    plan: &RunPlan,
    cp: &CheckpointPlan,
    machine: &M,
    config: Config,
    make_root: impl Fn() -> T,
    published: impl Fn(&T::Output) -> Option<Published>,
    notes: Notes,
) -> Result<(), Failure>
where
    T: Task,
    T::Output: Display + PartialEq + Debug + Objective,
    M: CliMachine,
{
    let rank0 = machine.prints();
    // `run --checkpoint FILE` where FILE already holds this computation's checkpoint goes
    // on from it, as `resume FILE` would.
    // The application's words, and the digest of each input file they name.
    let words = crate::plan::input_digest::stamped(&plan.app.checkpoint_words())?;
    let mut cp = cp.clone();
    if super::checkpoint_file::continues_existing(&cp.path, &words)? && cp.resume.is_none() {
        cp.resume = Some(cp.path.clone());
    }
    let cp = &cp;
    let ck = Policy {
        path: cp.path.clone(),
        every: cp.every,
    };
    // Every rank builds the root and holds it to the end: it holds the shared instance that
    // pieces arriving by digest name, and on resume it is the input as it is now.
    let root = make_root();
    // Every rank reads the file (so that a bad one fails everywhere alike); rank 0 keeps it.
    // A checkpoint carries its instance, so it decodes alone; its pieces must then belong to
    // the instance the input gives now.
    let mut snapshot = match &cp.resume {
        Some(file) => {
            let app = crate::plan::input_digest::app_words(&words);
            let bad = |e| Failure::input(output::checkpoint_error(file, &e, &app));
            let s = Snapshot::<T>::read(file).map_err(bad)?;
            crate::plan::input_digest::check_unchanged(&s.app, &words, file)?;
            s.check_instance(&root).map_err(bad)?;
            if let Some(max) = config.max_units.filter(|&m| m <= s.work_units) {
                return Err(Failure::input(format!(
                    "{}: the computation has already done {} work units, and --max-units {max} \
                     counts the whole computation (resumed runs included): give a larger \
                     --max-units to go on",
                    file.display(),
                    s.work_units
                )));
            }
            notes.note(format_args!(
                "{} {}: {}, {} done (runs so far: {})",
                if plan.checkpoint.as_ref().is_some_and(|c| c.resume.is_none()) {
                    "continuing the checkpointed computation in"
                } else {
                    "resuming"
                },
                file.display(),
                count(s.pieces.len(), "piece", "pieces"),
                count(s.work_units, "work unit", "work units"),
                s.runs
            ));
            rank0.then_some(s)
        }
        None => rank0.then(|| Snapshot::start(root.clone(), words.clone())),
    };
    let started = Instant::now();
    let mut first = true;
    let mut wrote = false;
    let ended = loop {
        let mut wire = [0u64; 6];
        let mut by_checkpoint = false;
        let mut root = Pieces::new(Vec::new());
        let mut failure = None;
        if let Some(s) = snapshot.as_mut() {
            let (epoch, by) = epoch_config(&config, s, &ck, started);
            by_checkpoint = by;
            root = Pieces::new(std::mem::take(&mut s.pieces));
            // A static balancer's number of jobs, from the pieces' estimates, decided here
            // for every rank (only rank 0 holds the pieces).
            let quiet = Notes { quiet: true };
            match super::resolve_jobs(&epoch, &root, if first { notes } else { quiet }) {
                Ok(epoch) => wire = EpochWire::from_config(&epoch).to_array(),
                Err(f) => failure = Some(f),
            }
        }
        // One broadcast: the epoch's configuration, and whether rank 0 failed to make it.
        let mut shared = [0u64; 7];
        shared[..6].copy_from_slice(&wire);
        shared[6] = u64::from(failure.is_some());
        machine.share_from_0(&mut shared);
        if shared[6] == 1 {
            return Err(failure.unwrap_or_else(|| Failure::run("rank 0 failed")));
        }
        wire.copy_from_slice(&shared[..6]);
        first = false;
        let epoch = EpochWire::config(wire, &config);
        let result = machine.run(root, &epoch);
        let mut decision = [END];
        let mut outcome = None;
        if let Some(s) = snapshot.as_mut() {
            let result = result.map(|ended| ended.map_report(|r| r.as_ref().clone()));
            match after_epoch(s, result, &config, &ck, by_checkpoint) {
                Ok(None) => {
                    decision = [GO_ON];
                    wrote = true;
                    notes.note(format_args!(
                        "checkpoint {}: {}, {} done",
                        ck.path.display(),
                        count(s.pieces.len(), "piece", "pieces"),
                        count(s.work_units, "work unit", "work units")
                    ));
                }
                Ok(Some(ended)) => outcome = Some(Ok(ended)),
                Err(e) => {
                    decision = [FAILED];
                    outcome = Some(Err(e));
                }
            }
        } else if let Err(e) = result {
            return Err(Failure::from(e));
        }
        machine.share_from_0(&mut decision);
        match decision[0] {
            GO_ON => continue,
            _ => break outcome,
        }
    };
    let Some(ended) = ended else {
        return Ok(()); // ranks other than 0 print nothing
    };
    let snapshot = snapshot.expect("rank 0's snapshot");
    match ended.map_err(Failure::from)? {
        Ended::Finished(report) => finished(
            plan, cp, wrote, &snapshot, report, make_root, published, notes,
        ),
        Ended::Stopped(Stopped { limit, report, .. }) => {
            notes.note(format_args!(
                "checkpoint written to {}: {} left, {} done (runs so far: {}); continue with `treesplit resume {}`",
                cp.path.display(),
                count(snapshot.pieces.len(), "piece", "pieces"),
                count(snapshot.work_units, "work unit", "work units"),
                snapshot.runs,
                cp.path.display()
            ));
            Err(super::finish::limit_reached(plan, limit, &report))
        }
    }
}

#[derive(Serialize)]
struct FinishedJson<'a, O> {
    app: String,
    result: &'a O,
    published: Option<Published>,
    /// Runs (epochs) of the whole computation, resumed ones included.
    runs: u32,
    /// Seconds of those runs.
    seconds: f64,
    work_units: u64,
    /// The last run's report (its output and work units are the whole computation's).
    report: &'a Report<O>,
}

/// The computation is complete: print its result, check it, remove the checkpoint (if this
/// run `wrote` it or resumed from it).
#[allow(clippy::too_many_arguments)]
fn finished<T>(
    plan: &RunPlan,
    cp: &CheckpointPlan,
    wrote: bool,
    snapshot: &Snapshot<T>,
    report: Report<T::Output>,
    make_root: impl Fn() -> T,
    published: impl Fn(&T::Output) -> Option<Published>,
    notes: Notes,
) -> Result<(), Failure>
where
    T: Task,
    T::Output: Display + PartialEq + Debug + Objective,
{
    let check = published(&report.output);
    if plan.out.json {
        output::print_json(&FinishedJson {
            app: plan.app.describe(),
            result: &report.output,
            published: check.clone(),
            runs: snapshot.runs,
            seconds: snapshot.seconds,
            work_units: snapshot.work_units,
            report: &report,
        })?;
    } else {
        println!("{}: {}", plan.app.describe(), report.output);
        print_published(&check);
        print!("{}", report.summary());
        println!(
            "checkpointed computation: {} in {:.3} s in all, over {}",
            count(snapshot.work_units, "work unit", "work units"),
            snapshot.seconds,
            count(snapshot.runs, "run", "runs")
        );
    }
    super::checkpoint_file::remove_when_complete(cp, wrote, notes);
    verdict(&check)?;
    super::finish::check_result(plan, &report, make_root, notes)
}
