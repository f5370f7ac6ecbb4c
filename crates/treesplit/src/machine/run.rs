//! The one run wrapper of every machine: what a run does around the machine's own work.
//!
//! The machines' generic entry points (`Threads::run`, `simulate`, the MPI machine's `run`,
//! which also installs the decoders of its task type) hand their root to [`run`], which with
//! the pieces' virtual functions is all of a run that is compiled once per task type. It
//! - resolves a static balancer's number of jobs (`task::bag::resolve_depth`; a DAG run
//!   has none);
//! - erases the root into a piece (`crate::piece`), under contract checks when
//!   `Config::check` asks (`crate::check`);
//! - runs the machine's erased run ([`Backend`]), a panic there becoming an error;
//! - turns the merged output back into `T::Output` and the unfinished pieces into `Vec<T>`,
//!   and the run's end into an [`Ended`]: finished, or stopped by a limit with the report and
//!   the remaining pieces.
//!
//! The machines gather what their PEs ended with in a [`Gather`], which builds the report.

use crate::check::Checked;
use crate::config::Config;
use crate::driver::PeEnd;
use crate::ended::{self, Limit, Stopped};
use crate::error::{catch_quietly, panic_error, RunError};
use crate::piece::{Fresh, Piece, Yield};
use crate::protocol::assignment::cutter::{Cutter, Probe};
use crate::protocol::Env;
use crate::stats::{PeStats, Report};
use crate::task::bag::{resolve_depth, Resolved};
use crate::task::Task;

/// A machine's erased run.
pub(crate) trait Backend {
    /// What the machine reports beside the common report (the simulator: its figures).
    type Extra;

    /// True on the process that starts with the root and gets the result (MPI: rank 0).
    fn holds_root(&self) -> bool {
        true
    }

    /// Run from `start`.
    fn run(&self, start: Start<'_>) -> Ran<Self::Extra>;
}

/// What an erased run starts from.
pub(crate) struct Start<'a> {
    /// The root, on the process that holds it.
    pub root: Option<Piece>,
    /// The resolved configuration.
    pub config: &'a Config,
    /// Makes the run's result accumulators.
    pub fresh: Fresh,
    /// What the entry point tells the PEs (a DAG run); the machine adds its network.
    pub env: Env,
}

/// How an erased run ended: `Ok(None)` on a process that does not get the result.
pub(crate) type Ran<X> = Result<Option<Ended<X>>, RunError>;

/// How a typed run ended on one process.
pub(crate) enum Typed<T: Task, X> {
    /// On the process that gets the result: the end and the machine's own figures.
    Here(Box<ended::Ended<T>>, X),
    /// On another process (MPI ranks other than 0): the resolved configuration, which the
    /// result will be reported under.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    Elsewhere(Config),
}

/// How an erased run ended, on the process that gets the result.
pub(crate) struct Ended<X> {
    /// The report, the output merged from all PEs.
    pub report: Report<Yield>,
    /// The run limit a PE found reached, if any.
    pub limit: Option<Limit>,
    /// The work a stop left unfinished (`Config::keep_remaining`).
    pub remaining: Vec<Piece>,
    /// The machine's own figures.
    pub extra: X,
}

impl Ended<()> {
    /// The same end with the machine's figures.
    pub(crate) fn with<X>(self, extra: X) -> Ended<X> {
        Ended {
            report: self.report,
            limit: self.limit,
            remaining: self.remaining,
            extra,
        }
    }
}

/// Run the root `make_root` builds with `config` on `backend`: the typed side of every
/// machine's run (module comment).
pub(crate) fn run<T: Task, B: Backend>(
    backend: &B,
    make_root: impl FnOnce() -> T,
    config: &Config,
    env: Env,
) -> Result<Typed<T, B::Extra>, RunError> {
    // Every process builds the root. A static balancer that derives its number of jobs from
    // the root's estimates derives the same number everywhere (the derivation is
    // deterministic); and every process keeps a copy of the root until the run ends, so that
    // the instances pieces name by digest (`task::shared`) are held wherever those pieces
    // arrive, also after the process's own pieces of them are done.
    let holds_root = backend.holds_root();
    let root = make_root();
    let resolved = if env.dag.is_some() {
        // A DAG scheduler cuts no jobs: the balancer is unused.
        config.validate_options()?;
        Resolved {
            config: config.clone(),
            alpha: None,
            note: None,
        }
    } else {
        resolve_depth(config, &root)?
    };
    let config = &resolved.config;
    let _instances = root.clone();
    let root = holds_root.then(|| Piece::new(root));
    let few_jobs = root
        .as_ref()
        .filter(|_| env.dag.is_none())
        .and_then(|root| few_jobs(root, config, Fresh::of::<T::Output>()));
    let root = root.map(|piece| {
        if config.check {
            Checked::root(piece)
        } else {
            piece
        }
    });
    let start = Start {
        root,
        config,
        fresh: Fresh::of::<T::Output>(),
        env,
    };
    let Some(Ended {
        report,
        limit,
        remaining,
        extra,
    }) = run_erased(backend, start)?
    else {
        return Ok(Typed::Elsewhere(config.clone()));
    };
    let mut report = report.map_output(Yield::into_typed::<T::Output>);
    report.notes.extend(resolved.note);
    report.notes.extend(few_jobs);
    let ended = match limit {
        Some(limit) => ended::Ended::Stopped(Stopped {
            limit,
            report,
            remaining: remaining.into_iter().map(Piece::into_typed).collect(),
        }),
        None => ended::Ended::Finished(report),
    };
    Ok(Typed::Here(Box::new(ended), extra))
}

/// For a static balancer whose bag holds fewer non-empty jobs than there are PEs, a sentence
/// saying so: the root cut as the PEs cut it (`protocol::assignment::cutter`, pieces worked
/// until they split), on a copy, counting jobs up to P.
fn few_jobs(root: &Piece, config: &Config, fresh: Fresh) -> Option<String> {
    let m = config.jobs()?;
    let p = config.pes as u64;
    let probe = Probe::new(config.delta_t, fresh, 0);
    let jobs = Cutter::new(root, m, 0..m)
        .probing(Some(probe))
        .take(config.pes)
        .count() as u64;
    (jobs < p).then(|| {
        use crate::words::{count, noun};
        format!(
            "{}: the root splits into only {} of {m}, fewer than the {p} PEs: {} {} none",
            config.balancer.kind(),
            count(jobs, "non-empty job", "non-empty jobs"),
            count(p - jobs, "PE", "PEs"),
            noun(p - jobs, "gets", "get")
        )
    })
}

/// The machine's erased run, a panic there becoming an error (compiled once per machine).
fn run_erased<B: Backend>(backend: &B, start: Start<'_>) -> Ran<B::Extra> {
    match catch_quietly(|| backend.run(start)) {
        Ok(ended) => ended,
        Err(payload) => Err(panic_error(usize::MAX, payload)),
    }
}

/// What the PEs of a run ended with, gathered on the process that gets the result.
pub(crate) struct Gather {
    /// The PEs' records, up to the highest PE gathered so far. Room for all is reserved at
    /// the start but filled only as PEs come, so its memory becomes resident as they do (the
    /// simulator gives back each PE's own state as it gathers it).
    per_pe: Vec<Option<PeStats>>,
    p: usize,
    output: Option<Yield>,
    limit: Option<Limit>,
    remaining: Vec<Piece>,
}

impl Gather {
    /// Nothing gathered yet from the `p` PEs.
    pub(crate) fn new(p: usize) -> Self {
        Gather {
            per_pe: Vec::with_capacity(p),
            p,
            output: None,
            limit: None,
            remaining: Vec::new(),
        }
    }

    /// PE `pe` ended with `end` (PE 0 brings the result).
    pub(crate) fn add(&mut self, pe: usize, end: PeEnd) {
        if pe == 0 {
            self.output = end.output;
        }
        self.limit = self.limit.or(end.limit);
        self.remaining.extend(end.remaining);
        if self.per_pe.len() <= pe {
            self.per_pe.resize_with(pe + 1, || None);
        }
        self.per_pe[pe] = Some(end.stats);
    }

    /// True once every PE's end is here.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub(crate) fn is_complete(&self) -> bool {
        self.per_pe.len() == self.p && self.per_pe.iter().all(Option::is_some)
    }

    /// The report of the run of `config` on `machine`, which took `t_par`.
    pub(crate) fn finish(
        self,
        machine: &str,
        config: &Config,
        t_par: f64,
    ) -> Result<Ended<()>, RunError> {
        let mut per_pe = self.per_pe;
        per_pe.resize_with(self.p, || None);
        let per_pe = per_pe
            .into_iter()
            .enumerate()
            .map(|(pe, stats)| {
                stats.ok_or_else(|| {
                    RunError::Internal(format!("PE {pe} ended without its statistics"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let output = self
            .output
            .ok_or_else(|| RunError::Internal("PE 0 finished without the result".into()))?;
        Ok(Ended {
            report: Report::new(output, machine, config.clone(), t_par, per_pe),
            limit: self.limit,
            remaining: self.remaining,
            extra: (),
        })
    }
}

/// The configuration and the PEs' environment of the DAG run of `root` under `config`.
pub(crate) fn dag_setup(
    config: &crate::config::DagConfig,
    root: &crate::dag::DagTask,
) -> (Config, Env) {
    let env = Env {
        network: None,
        latency: None,
        dag: Some(crate::protocol::DagRun {
            scheduler: config.scheduler,
            dag: root.dag.clone(),
            unit_ns: root.unit_ns,
        }),
        counter: None,
    };
    (config.config(), env)
}
