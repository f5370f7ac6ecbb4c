//! How an application fails, as a type: [`AppError`] says the kind of failure (bad input, a
//! failed run, a wrong answer, the library's error, a stop at a limit) and the command line
//! decides what each kind means to its user (its exit code). Parsing an application's
//! parameters and its own loops fail with it. It names no application.

use treesplit::RunError;

/// How an application's own loop failed, by kind of failure; the command line decides what
/// each kind means to its user (its exit code).
#[derive(Debug)]
pub enum AppError {
    /// The input (the instance, or an option given with it) is bad.
    BadInput(String),
    /// The run failed (a pool, a peer program, the output).
    RunFailed(String),
    /// The computation gave a wrong answer.
    WrongAnswer(String),
    /// A run's error from the library, as any other run's.
    Library(RunError),
    /// A run limit or an interrupt stopped a computation of the loop.
    Stopped {
        /// What stopped it.
        limit: treesplit::Limit,
        /// The work units done until the stop.
        work_units: u64,
        /// The stopped computation's T_par.
        t_par: f64,
    },
}

impl AppError {
    /// The report of a computation that ran to its end; one that a limit or an interrupt
    /// stopped is [`AppError::Stopped`] with what it did.
    pub fn unless_stopped<T, O, R: AsRef<treesplit::Report<O>>>(
        ended: treesplit::Ended<T, R>,
    ) -> Result<R, AppError> {
        match ended {
            treesplit::Ended::Finished(r) => Ok(r),
            treesplit::Ended::Stopped(s) => {
                let r = s.report.as_ref();
                Err(AppError::Stopped {
                    limit: s.limit,
                    work_units: r.totals.work_units,
                    t_par: r.t_par,
                })
            }
        }
    }
}
