//! How a run that did not fail ended: it finished, or a limit or an interrupt stopped it.
//!
//! A stopped run is not an error: every PE stopped cleanly, no work was lost, and the run
//! hands back what it did (its report: the output merged so far, the units, T_par) and what
//! it did not do (the remaining pieces). The work done and the remaining pieces are the whole
//! computation, so a stopped run can be resumed (`crate::checkpoint` does that across
//! processes). A decision search that ends itself early (`Context::stop`) has finished.

use crate::stats::Report;
use crate::task::Task;
use std::fmt;
use std::time::Duration;

/// What stopped a run before its end (`Config::max_units`, `Config::time_limit`,
/// `Config::interrupt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Limit {
    /// At most this many work units in all (the run may overshoot by up to P·Δt units: each
    /// PE finishes the slice it is in).
    Units(u64),
    /// At most this long (wall-clock, on every machine; each PE finishes its slice).
    Time(Duration),
    /// The run's interrupt flag was set (`Config::interrupt`: a signal, say).
    Interrupted,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Units(1) => f.write_str("the limit of 1 work unit"),
            Limit::Units(n) => write!(f, "the limit of {n} work units"),
            Limit::Time(d) => write!(f, "the time limit of {:?}", d),
            Limit::Interrupted => f.write_str("an interrupt"),
        }
    }
}

/// How a run ended: `R` is the machine's report (a [`Report`] on threads and MPI, a
/// `SimReport` in the simulator).
#[derive(Clone)]
pub enum Ended<T, R = Report<<T as Task>::Output>> {
    /// The computation ran to its end (or a decision search stopped it: `Context::stop`).
    Finished(R),
    /// A limit or an interrupt stopped the run.
    Stopped(Stopped<T, R>),
}

/// A run that a limit or an interrupt stopped: what it did and what is left.
#[derive(Clone)]
pub struct Stopped<T, R> {
    /// What stopped it.
    pub limit: Limit,
    /// The report of the work done until the stop (the output merged from every PE so far).
    pub report: R,
    /// Every piece that was held, queued or in flight at the stop, when the run kept them
    /// (`Config::keep_remaining`; empty otherwise). Under MPI rank 0 holds them and the other
    /// ranks get none. The work done and these pieces are the whole computation.
    pub remaining: Vec<T>,
}

impl<T, R> Ended<T, R> {
    /// True when the computation ran to its end.
    pub fn is_finished(&self) -> bool {
        matches!(self, Ended::Finished(_))
    }

    /// The report, whether the run finished or stopped.
    pub fn report(&self) -> &R {
        match self {
            Ended::Finished(r) => r,
            Ended::Stopped(s) => &s.report,
        }
    }

    /// The report, whether the run finished or stopped.
    pub fn into_report(self) -> R {
        match self {
            Ended::Finished(r) => r,
            Ended::Stopped(s) => s.report,
        }
    }

    /// The report of a finished run; the stop of a stopped one.
    pub fn into_finished(self) -> Result<R, Stopped<T, R>> {
        match self {
            Ended::Finished(r) => Ok(r),
            Ended::Stopped(s) => Err(s),
        }
    }

    /// What stopped the run (`None`: it finished).
    pub fn limit(&self) -> Option<Limit> {
        match self {
            Ended::Finished(_) => None,
            Ended::Stopped(s) => Some(s.limit),
        }
    }

    /// The same end with the report mapped by `f`.
    pub fn map_report<S>(self, f: impl FnOnce(R) -> S) -> Ended<T, S> {
        match self {
            Ended::Finished(r) => Ended::Finished(f(r)),
            Ended::Stopped(s) => Ended::Stopped(Stopped {
                limit: s.limit,
                report: f(s.report),
                remaining: s.remaining,
            }),
        }
    }
}

impl<T, R> fmt::Display for Stopped<T, R> {
    /// One sentence: what stopped the run.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Limit::Interrupted => f.write_str("the run was interrupted (a signal) and stopped"),
            limit => write!(f, "the run reached {limit} and was stopped"),
        }
    }
}

/// The report and the number of remaining pieces (the task type need not be `Debug`).
impl<T, R: fmt::Debug> fmt::Debug for Ended<T, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ended::Finished(r) => f.debug_tuple("Finished").field(r).finish(),
            Ended::Stopped(s) => f.debug_tuple("Stopped").field(s).finish(),
        }
    }
}

impl<T, R: fmt::Debug> fmt::Debug for Stopped<T, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stopped")
            .field("limit", &self.limit)
            .field("report", &self.report)
            .field("remaining", &self.remaining.len())
            .finish()
    }
}
