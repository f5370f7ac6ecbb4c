//! The output layer: exit codes, error printing and JSON, in one place so that every
//! subcommand reports the same way. A command returns `Result<(), Failure>`; `main` hands the
//! result to [`exit`], which prints `error: …` once (on MPI rank 0 only) and picks the exit
//! code. Under `--json` an error is a JSON document `{"error": …, "exit_code": …}`: on stdout
//! when nothing was printed there yet (so stdout always holds exactly one JSON document), on
//! stderr otherwise (a wrong answer found after its report was printed). Control characters
//! from the input (file names, file contents) are escaped, never sent to the terminal raw.
//! Imports none of our modules but `plot` below it.

mod coarse;
pub mod paths;
pub mod picture;
pub mod plot;
mod rows;
pub mod trace;

use serde::Serialize;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use treesplit::{ConfigError, Limit, RunError};
pub use treesplit_apps::spec::Published;

/// Exit code of a successful run.
pub const OK: u8 = 0;
/// Exit code of a failed run (a task panicked on a PE, a picture could not be written, …).
pub const FAILED_RUN: u8 = 1;
/// Exit code of bad input (arguments, files, flags that do not apply).
pub const BAD_INPUT: u8 = 2;
/// Exit code of a wrong answer (a result that does not match the published one).
pub const WRONG_ANSWER: u8 = 3;

/// A failure the user should read: printed as `error: …` with its exit code.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub code: u8,
}

impl Failure {
    /// Bad input (exit code 2).
    pub fn input(message: impl std::fmt::Display) -> Self {
        Failure {
            message: message.to_string(),
            code: BAD_INPUT,
        }
    }

    /// A failed run (exit code 1).
    pub fn run(message: impl std::fmt::Display) -> Self {
        Failure {
            message: message.to_string(),
            code: FAILED_RUN,
        }
    }

    /// A wrong answer (exit code 3).
    pub fn wrong(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: WRONG_ANSWER,
        }
    }

    /// This failure, already said in the one JSON document on stdout (a partial report
    /// names what stopped the run): it keeps its exit code and prints nothing more.
    pub fn said_in_json(self) -> Self {
        Failure {
            message: String::new(),
            code: self.code,
        }
    }
}

/// This process's rank when started by an MPI launcher (mpirun, srun), from the launcher's
/// environment; 0 otherwise. Used so that errors are reported once, by rank 0.
pub fn launcher_rank() -> usize {
    [
        "OMPI_COMM_WORLD_RANK",
        "PMIX_RANK",
        "PMI_RANK",
        "SLURM_PROCID",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.parse().ok())
    .unwrap_or(0)
}

/// The number of processes an MPI launcher (mpirun, mpiexec, srun) started this one among,
/// from the launcher's environment; 1 when it was not started by one.
pub fn launcher_size() -> usize {
    let size = |v: &str| std::env::var(v).ok()?.parse::<usize>().ok();
    size("OMPI_COMM_WORLD_SIZE")
        .or_else(|| size("PMI_SIZE"))
        // Inside a Slurm allocation SLURM_NTASKS is set for every process; only a step
        // started by srun also has SLURM_PROCID.
        .or_else(|| size("SLURM_PROCID").and_then(|_| size("SLURM_NTASKS")))
        .unwrap_or(1)
}

/// Whether a JSON document went to stdout already.
static JSON_PRINTED: AtomicBool = AtomicBool::new(false);

/// Whether the command line asks for `--json` (looked at before and whether or not clap
/// parses it, so that its own errors are JSON too).
pub fn json_requested() -> bool {
    std::env::args()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// `text` with control characters (but newlines and tabs) escaped: messages quote file
/// names and contents, which must not reach the terminal as escape sequences.
pub fn escape_controls(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => c.to_string(),
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// `text` with every control character escaped, newlines and tabs too: for a value the user
/// typed, quoted in a message, whose layout it is no part of.
fn escape_all_controls(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    error: &'a str,
    exit_code: u8,
}

/// Print a failure: `error: …` on stderr, or the JSON error document under `--json`.
fn print_error(message: &str, code: u8) {
    let message = escape_controls(message.trim_end());
    if !json_requested() {
        eprintln!("error: {message}");
        return;
    }
    let doc = ErrorJson {
        error: &message,
        exit_code: code,
    };
    let text = serde_json::to_string(&doc).unwrap_or_default();
    if JSON_PRINTED.swap(true, Ordering::SeqCst) {
        eprintln!("{text}");
    } else {
        println!("{text}");
    }
}

/// The process's exit: prints the failure (rank 0 only) and returns its code.
pub fn exit(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::from(OK),
        Err(f) => {
            let rank = launcher_rank();
            if rank != 0 {
                // The launcher ends the job when the first rank leaves with a failure, rank
                // 0 (the one that speaks) perhaps before it has said why. A failure of what
                // every rank plans alike is rank 0's too: give it the time to say so. A
                // failure of this rank alone is said by this rank, if the job still runs.
                std::thread::sleep(RANK_GRACE);
                if !f.message.is_empty() {
                    print_error(&format!("rank {rank}: {}", f.message), f.code);
                }
                return ExitCode::from(f.code);
            }
            ExitCode::from(say(f).code)
        }
    }
}

/// How long a failing rank other than 0 waits before it leaves an MPI job ([`exit`]).
const RANK_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Print `f`'s message now (on rank 0 of a launcher, or the only process) and return it with
/// the message said, so that [`exit`] only sets the code. An MPI command says its failure
/// before it leaves the job: once any rank has left with a failure's code, the launcher may
/// end rank 0 before it has printed.
pub fn say(f: Failure) -> Failure {
    if launcher_rank() == 0 && !f.message.is_empty() {
        print_error(&f.message, f.code);
    }
    Failure {
        message: String::new(),
        code: f.code,
    }
}

/// The exit of a command line clap could not parse (or `--help`, `--version`): printed once.
/// `--version` names the program, also after a subcommand (`treesplit run --version`, which
/// clap would call `treesplit-run`).
pub fn clap_exit(e: clap::Error) -> ExitCode {
    let code = ExitCode::from(if e.use_stderr() { BAD_INPUT } else { OK });
    if launcher_rank() == 0 {
        match e.kind() {
            clap::error::ErrorKind::DisplayVersion => {
                println!("treesplit {}", env!("CARGO_PKG_VERSION"))
            }
            _ if e.use_stderr() && json_requested() => {
                let text = clap_message(e);
                let text = text.strip_prefix("error: ").unwrap_or(&text);
                print_error(text, BAD_INPUT);
            }
            _ if e.use_stderr() => eprint!("{}", clap_message(e)),
            _ => {
                let _ = e.print();
            }
        }
    }
    code
}

/// clap's message for a command line it could not parse, with what the user typed shown
/// whole. clap's own rendering drops control characters and escape sequences from the text
/// (`'1\x1b0'` would read `'1'`), so the values in the error's context are escaped in full
/// (`\t`, `\n`, `\u{1b}`) and the message is rendered without styles, its remaining control
/// characters (a value parser's reason quoting the value) escaped by [`escape_controls`].
fn clap_message(mut e: clap::Error) -> String {
    use clap::builder::{StyledStr, Styles};
    use clap::error::ContextValue;
    let plain = |s: &StyledStr| StyledStr::from(s.to_string());
    let context: Vec<_> = e
        .context()
        .filter_map(|(kind, value)| {
            let value = match value {
                ContextValue::String(s) => ContextValue::String(escape_all_controls(s)),
                ContextValue::Strings(v) => {
                    ContextValue::Strings(v.iter().map(|s| escape_all_controls(s)).collect())
                }
                ContextValue::StyledStr(s) => ContextValue::StyledStr(plain(s)),
                ContextValue::StyledStrs(v) => {
                    ContextValue::StyledStrs(v.iter().map(plain).collect())
                }
                _ => return None,
            };
            Some((kind, value))
        })
        .collect();
    if e.context().next().is_none() {
        // A message clap formatted when it was raised (the help shown for a missing
        // subcommand): styled already, and quoting no input.
        return escape_controls(&e.render().to_string());
    }
    for (kind, value) in context {
        e.insert(kind, value);
    }
    let e = e.with_cmd(&clap::Command::new("treesplit").styles(Styles::plain()));
    escape_controls(&e.render().ansi().to_string())
}

/// Print `value` as the one JSON document on stdout.
pub fn print_json(value: &impl Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(Failure::run)?;
    JSON_PRINTED.store(true, Ordering::SeqCst);
    println!("{text}");
    Ok(())
}

/// The line comparing a result with its published value, if there is one.
pub fn print_published(check: &Option<Published>) {
    if let Some(p) = check {
        println!("{}", p.line());
    }
}

/// A wrong answer (exit code 3) when the result does not match its published value.
pub fn verdict(check: &Option<Published>) -> Result<(), Failure> {
    match check.as_ref().and_then(Published::mismatch) {
        Some(message) => Err(Failure::wrong(message)),
        None => Ok(()),
    }
}

/// Notes on stderr (what was chosen, how fast the simulator ran, files written), which
/// `--quiet` silences.
#[derive(Debug, Clone, Copy)]
pub struct Notes {
    pub quiet: bool,
}

impl Notes {
    /// Print `text` on stderr unless quiet.
    pub fn note(&self, text: impl std::fmt::Display) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }
}

/// A checkpoint file's error in the command line's terms: its path said once, an input that
/// changed since the checkpoint was written with what to do, and pieces that do not decode
/// said as what that means for `app` (the checkpoint's words).
pub fn checkpoint_error(
    path: &std::path::Path,
    e: &treesplit::checkpoint::CheckpointError,
    app: &[String],
) -> String {
    use treesplit::checkpoint::CheckpointError;
    match e {
        CheckpointError::Io(..) => e.to_string(),
        CheckpointError::InstanceChanged { .. } => format!(
            "{}: {e}; give the input the checkpoint was made from, or remove the checkpoint to start over",
            path.display()
        ),
        // The frame, its checksum and the task type are right, yet the pieces do not decode:
        // another build of this application wrote it.
        CheckpointError::Decode(_) => format!(
            "{}: {e} (the checkpoint of `{}` was written by another build of treesplit, or it is an older checkpoint that names its instance by digest and the input changed since)",
            path.display(),
            app.join(" ")
        ),
        _ => format!("{}: {e}", path.display()),
    }
}

/// A configuration error in the command line's terms: the flag to change.
pub fn config_error(e: &ConfigError) -> String {
    match e {
        ConfigError::NoPes => "--pes must be at least 1".into(),
        ConfigError::TooManyPes { pes, max } => {
            format!("--pes {pes} is more than the supported {max}")
        }
        ConfigError::ZeroDeltaT => "--delta-t must be at least 1 work unit".into(),
        ConfigError::TraceCapacity { .. } => format!("--trace: {e}"),
        ConfigError::ZeroRound => "--round must be at least 1".into(),
        ConfigError::ZeroTrim => {
            "--trim must be at least 1 (leave it out to serve every request)".into()
        }
        ConfigError::AdaptiveC(c) => format!("--adaptive-c must be a positive number, got {c}"),
        ConfigError::AdaptiveGamma(g) => format!("--adaptive-gamma must be in (0, 1], got {g}"),
        ConfigError::LocalSyncPermutation => {
            "--sync local needs --permutation pseudorandom (the permutation by messages is timed by rounds)".into()
        }
        ConfigError::BundleSize | ConfigError::BundleConstant(_) | ConfigError::BundleSqrt { .. } => {
            format!("--bundle: {e}")
        }
        ConfigError::Fanout => format!("--fanout: {e}"),
        ConfigError::PollWithin => format!("--poll-within: {e}"),
        ConfigError::TwoInits => format!("--fast-init and --permuted-init: {e}"),
        ConfigError::InitDepth { .. } => format!("--permuted-init: {e}"),
        ConfigError::DepthTooLarge { h, max } => {
            format!("--h {h} is more than the supported {max}")
        }
        ConfigError::NoJobsPerPe => "--q (jobs per PE) must be at least 1".into(),
        ConfigError::TooManyJobs { max_h } => {
            format!("--h/--q: more than 2^{max_h} jobs are not supported")
        }
        ConfigError::PesMismatch { pes, machine } => format!(
            "--pes {pes} does not match the MPI job's {}",
            treesplit::words::count(machine, "rank", "ranks")
        ),
        ConfigError::NoSuchPe { what, pe, pes } => {
            let flag = if what.contains("link") { "--slow-links" } else { "--slow" };
            format!("{flag}: {what} {pe} does not exist (P = {pes})")
        }
        ConfigError::Slowness { pe, factor } => format!(
            "--slow: the slowness factor of PE {pe} must be a number in [1, 10^6], got {factor}"
        ),
        ConfigError::EngineThreads { threads, why } => {
            format!("--sim-threads {threads}: {why}")
        }
        ConfigError::PollAlpha(alpha) => format!(
            "--poll-alpha must be in (0, 1] (a busy PE polls at least every Δt and at most every αΔt, paper 000 §2), got {alpha}"
        ),
        ConfigError::ZeroLatency => {
            "--t-rout must be at least 1, and --t-hop when given (messages cannot be instantaneous)"
                .into()
        }
        ConfigError::HopOnCrossbar { .. } => {
            "--t-hop applies to the networks other than the crossbar (a message on the crossbar takes T_rout, --t-rout)"
                .into()
        }
        ConfigError::BlockingOverheads {
            t_send,
            t_recv,
            t_rout,
        } => format!(
            "--t-send {t_send} + --t-recv {t_recv} is less than --t-rout {t_rout}: the blocking model (paper 000 §1.1) charges sending and receiving a message at least T_rout; use --model latency-only for smaller overheads"
        ),
        ConfigError::SimTimeTooLarge { what, value, max } => {
            let flag = match *what {
                "T_rout" => "--t-rout",
                "T_hop" => "--t-hop",
                "T_split" => "--t-split",
                "T_send" => "--t-send",
                "T_recv" => "--t-recv",
                "T_poll" => "--t-poll",
                "T_count" => "--t-count",
                "random delay" => "--delay",
                _ => "--slow-links",
            };
            let value = if value.fract() == 0.0 && *value <= u64::MAX as f64 {
                (*value as u64).to_string()
            } else {
                format!("{value:e}")
            };
            format!("{flag}: {value} is more than the simulator supports ({max} time units)")
        }
        ConfigError::VirtualTimeOverflow => format!("{e}"),
        ConfigError::ZeroMaxUnits => "--max-units must be at least 1".into(),
        ConfigError::ZeroTimeLimit => "--time-limit must be more than zero".into(),
        ConfigError::TooManyThreads { pes, max } => format!(
            "--pes {pes} is more than the thread machine runs ({max}, one OS thread per PE); use `treesplit sim` for larger machines"
        ),
    }
}

/// A note of the library's (`Report::notes`) in the command line's words: the options it
/// names become the flags that set them.
pub fn library_note(note: &str) -> String {
    note.replace("Jobs::Depth or Jobs::PerPe", "--h or --q")
}

/// A run that `limit` stopped after `work_units` units and `t_par`: a failed run.
pub fn stopped(limit: Limit, work_units: u64, t_par: f64) -> Failure {
    Failure::run(match limit {
        Limit::Interrupted => format!(
            "the run was interrupted (a signal) and stopped: {work_units} work units done (T_par {t_par:.6})"
        ),
        limit => format!(
            "the run reached {limit} and was stopped: {work_units} work units done (T_par {t_par:.6})"
        ),
    })
}

/// An application's own loop's failure as the command line's: bad input, a failed run or a
/// wrong answer (exit codes 2, 1, 3); a run's error from the library as any other run's.
impl From<treesplit_apps::app::AppError> for Failure {
    fn from(f: treesplit_apps::app::AppError) -> Self {
        use treesplit_apps::app::AppError;
        match f {
            AppError::BadInput(m) => Failure::input(m),
            AppError::RunFailed(m) => Failure::run(m),
            AppError::WrongAnswer(m) => Failure::wrong(m),
            AppError::Library(e) => Failure::from(e),
            AppError::Stopped {
                limit,
                work_units,
                t_par,
            } => stopped(limit, work_units, t_par),
        }
    }
}

impl From<RunError> for Failure {
    /// A run's error: a configuration the library rejects is bad input (in the flags'
    /// terms), a result that differs from the sequential run's a wrong answer, anything else
    /// (a task that broke its contract, a machine's failure) a failed run.
    fn from(e: RunError) -> Self {
        match e {
            RunError::InvalidConfig(c) => Failure::input(config_error(&c)),
            RunError::WrongAnswer(_) => Failure::wrong(e.to_string()),
            other => Failure::run(other),
        }
    }
}
