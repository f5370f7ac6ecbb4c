//! Checkpoint and resume: a long tree search that survives the end of a batch job.
//!
//! **What a checkpoint is.** A run under `Config::keep_remaining` that stops — at a time or
//! unit limit, or when its interrupt flag is set (a signal) — keeps every piece of work it
//! did not finish instead of dropping it. The stop is the protocols' own early stop, flooded
//! over the tree of PEs; termination detection then ends the run as usual, so every piece
//! that was held, queued or in flight is in some PE's hands at the end and is gathered
//! (threads and the simulator directly, MPI with the ranks' end-of-run statistics). The
//! pieces, the output merged so far, the work units done and the best incumbent are a
//! [`Snapshot`]: the consistent state of the whole computation, whatever balancer and
//! machine ran it.
//!
//! **Resuming.** [`Pieces`] makes the pieces one root again, so a resumed run may use any
//! number of PEs, any balancer and any machine. Its output merged with the snapshot's is the
//! answer, and its units plus the snapshot's are the sequential run's (exactly, for
//! searches without pruning).
//!
//! **Resuming in a program: the instance.** A file carries the shared instances its pieces
//! name ([`shared::self_contained`]), so [`Snapshot::read`] needs none held in the process,
//! and reading may come before or after building the root. To learn whether the file belongs
//! to the input, build the root from the input (a second root, beside the snapshot's pieces)
//! and call [`Snapshot::check_instance`] with it. While the resumed run lasts, every process
//! that runs pieces must hold the instance: on threads and in the simulator the snapshot's
//! pieces hold it; under MPI only the rank that read the file holds them, so every rank builds
//! the root before the run and keeps it until the run returns (the CLI has every rank build
//! the root, then read the file), or a piece that names the instance by digest fails to
//! decode there.
//!
//! **Periodic checkpoints** ([`run_epochs`]) run the computation in epochs: each epoch is a
//! run with a time limit of the checkpoint interval; at its end the snapshot is written and
//! the next epoch starts from its pieces. An epoch costs one stop wave and one new
//! distribution of the pieces.
//!
//! **The file** ([`Snapshot::write`], [`Snapshot::read`]) is written to a temporary file in
//! the same directory and renamed over the old one, so a crash leaves the old checkpoint or
//! the new one, never half of one. Layout: the magic `TREESPLT`, the format version (u32
//! little-endian), the body's length (u64 little-endian), the body (postcard), and the
//! SHA-1 of the body. A truncated, corrupt, foreign or wrong-version file is a
//! [`CheckpointError`] that says which.

use crate::config::Config;
use crate::ended::{Ended, Limit, Stopped};
use crate::error::RunError;
use crate::stats::Report;
use crate::task::pieces::Pieces;
use crate::task::shared;
use crate::task::{Outcome, Task};
use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The first bytes of every checkpoint file.
pub const MAGIC: &[u8; 8] = b"TREESPLT";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the body: magic, version, length.
const HEADER: usize = 8 + 4 + 8;
/// Bytes after the body: its SHA-1.
const DIGEST: usize = 20;

/// The state of a computation between two runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Snapshot<T: Task> {
    /// What the computation is, in the caller's terms (the CLI stores the application's
    /// command-line words); the library does not interpret it.
    pub app: Vec<String>,
    /// The task type's name: a checkpoint of another computation is refused.
    pub task_type: String,
    /// The unfinished pieces.
    pub pieces: Vec<T>,
    /// The output merged from all work done so far.
    pub output: T::Output,
    /// Work units done so far (all runs together).
    pub work_units: u64,
    /// Branch-and-bound: the best incumbent value found so far.
    pub incumbent: Option<i64>,
    /// Runs (epochs) this computation has had.
    pub runs: u32,
    /// Seconds spent in those runs.
    pub seconds: f64,
    /// The runs folded in since this snapshot was started or read, as one report: T_par and
    /// every per-PE figure summed over them (not stored in the file).
    #[serde(skip)]
    session: Option<Box<Report<T::Output>>>,
}

impl<T: Task> Snapshot<T> {
    /// A computation that has not started: the root, nothing done.
    pub fn start(root: T, app: Vec<String>) -> Self {
        Snapshot {
            app,
            task_type: std::any::type_name::<T>().to_string(),
            pieces: vec![root],
            output: T::Output::default(),
            work_units: 0,
            incumbent: None,
            runs: 0,
            seconds: 0.0,
            session: None,
        }
    }

    /// True when no work is left.
    pub fn is_finished(&self) -> bool {
        self.pieces.iter().all(Task::is_empty)
    }

    /// Fold in a run that started from this snapshot's pieces and ended with `report`, leaving
    /// `remaining` unfinished.
    pub fn absorb(&mut self, report: &Report<T::Output>, remaining: Vec<T>) {
        self.output.merge(report.output.clone());
        self.work_units += report.totals.work_units;
        self.incumbent = self.incumbent.max(report.incumbent());
        self.pieces = remaining;
        self.runs += 1;
        self.seconds += report.t_par;
        self.session = Some(Box::new(match self.session.take() {
            None => report.clone(),
            Some(so_far) => session_with(*so_far, report),
        }));
    }

    /// The report of the whole computation ending with the run that ended with `last`: the
    /// output and work units of all runs; T_par and the per-PE figures summed over the runs
    /// of this session (the runs since the snapshot was started or read), with a note when
    /// earlier sessions did part of the work.
    pub fn whole_report(&self, last: Report<T::Output>) -> Report<T::Output> {
        let mut report = match &self.session {
            Some(session) => (**session).clone(),
            None => last,
        };
        let session_units = report.totals.work_units;
        report.output = self.output.clone();
        report.totals.work_units = self.work_units;
        if self.work_units > session_units {
            report.notes.push(format!(
                "resumed: the output and work units cover the whole computation ({} units, \
                 {} of them before this run); T_par and the per-PE figures cover this run",
                self.work_units,
                self.work_units - session_units
            ));
        }
        report
    }

    /// Check that the snapshot's pieces belong to `root`: every shared instance they name
    /// ([`shared`]: a large instance sent once) is one that `root` names too. A snapshot read
    /// back decodes without the instance (the file carries it), so this is how a caller that
    /// builds the root again from its input learns that the input changed since the snapshot
    /// was written. Tasks without shared instances always fit. `root` may be built before or
    /// after the snapshot is read; keep it while the resumed run lasts where other processes
    /// need the instance (MPI: the module's "Resuming in a program").
    pub fn check_instance(&self, root: &T) -> Result<(), CheckpointError> {
        let pieces = shared::named_instances(&self.pieces).map_err(CheckpointError::Encode)?;
        let now = shared::named_instances(root).map_err(CheckpointError::Encode)?;
        if pieces.within(&now) {
            Ok(())
        } else {
            Err(CheckpointError::InstanceChanged {
                app: self.app.clone(),
                found: pieces.digests(),
                now: now.digests(),
            })
        }
    }

    /// Write the snapshot to `path` atomically (a temporary file beside it, then a rename).
    pub fn write(&self, path: &Path) -> Result<(), CheckpointError> {
        let bytes = self.encode()?;
        let io = |e: std::io::Error| CheckpointError::Io(path.to_path_buf(), e.to_string());
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path
            .file_name()
            .ok_or_else(|| CheckpointError::Io(path.to_path_buf(), "not a file name".into()))?;
        let tmp = dir.join(format!(
            ".{}.tmp-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let result = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result.map_err(io)
    }

    /// The bytes of a checkpoint file holding this snapshot: magic, version, length, the
    /// postcard body and its SHA-1 ([`Snapshot::decode`] reads them back).
    pub fn encode(&self) -> Result<Vec<u8>, CheckpointError> {
        let body = shared::self_contained(|| postcard::to_allocvec(self))
            .map_err(|e| CheckpointError::Encode(e.to_string()))?;
        let mut bytes = Vec::with_capacity(HEADER + body.len() + DIGEST);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes.extend_from_slice(&Sha1::digest(&body));
        Ok(bytes)
    }

    /// Read and check a snapshot written by [`Snapshot::write`]. The file carries the shared
    /// instances its pieces name, so none need be held in the process; check it against the
    /// input with [`Snapshot::check_instance`] (the module's "Resuming in a program").
    pub fn read(path: &Path) -> Result<Self, CheckpointError> {
        Self::decode(&read_file(path)?)
    }

    /// Check and decode a checkpoint file's bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, CheckpointError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(CheckpointError::NotACheckpoint);
        }
        if bytes.len() < HEADER {
            return Err(CheckpointError::Truncated {
                expected: HEADER as u64,
                found: bytes.len() as u64,
            });
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(CheckpointError::Version {
                found: version,
                supported: VERSION,
            });
        }
        let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        let expected = len
            .checked_add((HEADER + DIGEST) as u64)
            .ok_or(CheckpointError::Corrupt("the body length overflows"))?;
        if (bytes.len() as u64) < expected {
            return Err(CheckpointError::Truncated {
                expected,
                found: bytes.len() as u64,
            });
        }
        if (bytes.len() as u64) > expected {
            return Err(CheckpointError::Corrupt("bytes after the checksum"));
        }
        let body = &bytes[HEADER..HEADER + len as usize];
        if Sha1::digest(body).as_slice() != &bytes[HEADER + len as usize..] {
            return Err(CheckpointError::Checksum);
        }
        // The task type is the second field: decode the prefix first, so that another
        // computation's checkpoint says so instead of failing to decode.
        #[derive(Deserialize)]
        struct Head {
            app: Vec<String>,
            task_type: String,
        }
        let head: Head =
            postcard::from_bytes(body).map_err(|e| CheckpointError::Decode(e.to_string()))?;
        let expected_type = std::any::type_name::<T>();
        if head.task_type != expected_type {
            return Err(CheckpointError::WrongComputation {
                app: head.app,
                found: head.task_type,
                expected: expected_type.to_string(),
            });
        }
        postcard::from_bytes(body).map_err(|e| CheckpointError::Decode(e.to_string()))
    }
}

/// The computation a checkpoint file holds, read without knowing its task type: what the
/// caller stored in [`Snapshot::app`] (the CLI picks the application from it).
pub fn read_app(path: &Path) -> Result<Vec<String>, CheckpointError> {
    let bytes = read_file(path)?;
    // Check the frame with a task type that decodes nothing but the head.
    match Snapshot::<crate::task::range::IndexRange<NoJob>>::decode(&bytes) {
        Err(CheckpointError::WrongComputation { app, .. }) => Ok(app),
        Err(e) => Err(e),
        Ok(s) => Ok(s.app),
    }
}

/// The bytes of a checkpoint file, read no further than its header announces: the header
/// first (a file that is not a checkpoint is refused there, whatever its size, `/dev/zero`
/// included), then the body and its digest, and one byte more to tell a longer file.
fn read_file(path: &Path) -> Result<Vec<u8>, CheckpointError> {
    use std::io::Read;
    let io = |e: std::io::Error| CheckpointError::Io(path.to_path_buf(), e.to_string());
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    let mut reader = file.take(HEADER as u64);
    reader.read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC || bytes.len() < HEADER {
        return Ok(bytes); // `decode` says which
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let rest = len.saturating_add(DIGEST as u64 + 1);
    let mut reader = reader.into_inner().take(rest);
    // Grown as it is read: a header that announces more than the file holds costs nothing.
    reader.read_to_end(&mut bytes).map_err(io)?;
    Ok(bytes)
}

/// A job type no computation uses (for [`read_app`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct NoJob;

impl crate::task::range::IndexJob for NoJob {
    type Output = ();
    fn run(&self, _: u64, _: &mut crate::task::Context<'_, ()>) -> u64 {
        1
    }
}

/// Why a checkpoint could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    /// The file could not be read or written.
    Io(PathBuf, String),
    /// The file does not start with the checkpoint magic.
    NotACheckpoint,
    /// The file was written by another format version.
    Version {
        /// Its version.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The file is shorter than its header says.
    Truncated {
        /// Bytes the header announces.
        expected: u64,
        /// Bytes there are.
        found: u64,
    },
    /// The body's checksum does not match: the file was damaged.
    Checksum,
    /// The frame is inconsistent.
    Corrupt(&'static str),
    /// The checkpoint is of another computation (another task type).
    WrongComputation {
        /// What the checkpoint says it is.
        app: Vec<String>,
        /// Its task type.
        found: String,
        /// The task type asked for.
        expected: String,
    },
    /// The body passed its checksum but does not decode (a bug, or a foreign writer).
    Decode(String),
    /// The pieces name a shared instance the root built now does not
    /// ([`Snapshot::check_instance`]): the input changed since the checkpoint was written.
    InstanceChanged {
        /// What the checkpoint says it is.
        app: Vec<String>,
        /// The digests of the instances the checkpoint's pieces name.
        found: Vec<u64>,
        /// The digests of the instances the root names now.
        now: Vec<u64>,
    },
    /// The snapshot could not be encoded.
    Encode(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(path, e) => write!(f, "checkpoint {}: {e}", path.display()),
            CheckpointError::NotACheckpoint => {
                f.write_str("not a treesplit checkpoint (the file does not start with TREESPLT)")
            }
            CheckpointError::Version { found, supported } => write!(
                f,
                "checkpoint format version {found}; this build reads version {supported}"
            ),
            CheckpointError::Truncated { expected, found } => write!(
                f,
                "the checkpoint is truncated: {found} bytes of {expected}"
            ),
            CheckpointError::Checksum => {
                f.write_str("the checkpoint is damaged: its SHA-1 checksum does not match")
            }
            CheckpointError::Corrupt(what) => write!(f, "the checkpoint is damaged: {what}"),
            CheckpointError::WrongComputation { app, found, .. } => write!(
                f,
                "the checkpoint is of another computation ({}; task type {found})",
                app.join(" ")
            ),
            CheckpointError::Decode(e) => write!(f, "the checkpoint does not decode: {e}"),
            CheckpointError::InstanceChanged { app, found, now } => {
                let hex = |d: &[u64]| {
                    d.iter()
                        .map(|d| format!("{d:016x}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                write!(
                    f,
                    "the instance changed since the checkpoint was written: its pieces belong to instance {} of `{}`, the input now gives {}",
                    hex(found),
                    app.join(" "),
                    if now.is_empty() { "none".to_string() } else { hex(now) }
                )
            }
            CheckpointError::Encode(e) => write!(f, "the checkpoint cannot be encoded: {e}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// `so_far` followed by the run that ended with `later` (the same PEs): T_par and the
/// per-PE figures added, the totals recomputed from them, the later run's timeline.
fn session_with<O: Clone>(so_far: Report<O>, later: &Report<O>) -> Report<O> {
    let mut per_pe = so_far.per_pe;
    for (pe, more) in per_pe.iter_mut().zip(&later.per_pe) {
        pe.absorb(more);
    }
    let mut report = Report::new(
        later.output.clone(),
        &later.machine,
        later.config.clone(),
        so_far.t_par + later.t_par,
        per_pe,
    );
    report.t_seq = later.t_seq;
    report.trace = later.trace.clone();
    report.notes = so_far.notes;
    for note in &later.notes {
        if !report.notes.contains(note) {
            report.notes.push(note.clone());
        }
    }
    report
}

/// How [`run_epochs`] checkpoints: where the snapshot goes and how often.
#[derive(Debug, Clone)]
pub struct Policy {
    /// Where the snapshot goes.
    pub path: PathBuf,
    /// Checkpoint this often (`None`: only when the run stops at a limit or an interrupt).
    pub every: Option<Duration>,
}

/// The configuration of the next epoch of a computation that started at `started`: the
/// snapshot's pieces kept on a stop, its incumbent, what is left of `config`'s limits, and a
/// time limit at the next checkpoint. The flag says whether that checkpoint ends the epoch
/// (rather than `config`'s own time limit).
pub fn epoch_config<T: Task>(
    config: &Config,
    snapshot: &Snapshot<T>,
    policy: &Policy,
    started: Instant,
) -> (Config, bool) {
    let mut epoch = config
        .clone()
        .keep_remaining(true)
        .limits_left(snapshot.work_units, started);
    epoch.incumbent = config.incumbent.max(snapshot.incumbent);
    let user_left = epoch.time_limit;
    let by_checkpoint = match (policy.every, user_left) {
        (Some(every), Some(left)) => every < left,
        (Some(_), None) => true,
        _ => false,
    };
    epoch.time_limit = if by_checkpoint {
        policy.every
    } else {
        user_left
    };
    (epoch, by_checkpoint)
}

/// Fold an epoch's `result` into `snapshot` and write it when the epoch stopped with work
/// left. `None`: go on with the next epoch (it stopped at a checkpoint, `by_checkpoint`).
/// A stop by a limit names `config`'s limit (the whole computation's), not what was left
/// of it for the epoch.
pub fn after_epoch<T: Task>(
    snapshot: &mut Snapshot<T>,
    result: Result<Ended<Pieces<T>>, RunError>,
    config: &Config,
    policy: &Policy,
    by_checkpoint: bool,
) -> Result<Option<Ended<T>>, RunError> {
    let whole = |snapshot: &Snapshot<T>, report| snapshot.whole_report(report);
    match result? {
        Ended::Finished(report) => {
            snapshot.absorb(&report, Vec::new());
            Ok(Some(Ended::Finished(whole(snapshot, report))))
        }
        Ended::Stopped(stopped) => {
            let (limit, report) = (stopped.limit, stopped.report);
            let remaining = stopped
                .remaining
                .into_iter()
                .flat_map(Pieces::into_inner)
                .collect();
            snapshot.absorb(&report, remaining);
            if snapshot.is_finished() {
                // The stop came as the last piece was done.
                return Ok(Some(Ended::Finished(whole(snapshot, report))));
            }
            snapshot
                .write(&policy.path)
                .map_err(|e| RunError::Machine(e.to_string()))?;
            if by_checkpoint && Some(limit) == policy.every.map(Limit::Time) {
                return Ok(None);
            }
            let limit = match limit {
                Limit::Units(_) => config.max_units.map_or(limit, Limit::Units),
                Limit::Time(_) if !by_checkpoint => config.time_limit.map_or(limit, Limit::Time),
                other => other,
            };
            Ok(Some(Ended::Stopped(Stopped {
                limit,
                report: whole(snapshot, report),
                remaining: Vec::new(),
            })))
        }
    }
}

/// Run the computation `snapshot` describes to its end or until a limit or an interrupt,
/// writing a snapshot to `policy.path` every `policy.every` and when stopped. `run` is the
/// machine: it runs a root with a configuration (threads or the simulator; the CLI drives MPI
/// with [`epoch_config`] and [`after_epoch`], the same steps). `config`'s limits count for the
/// whole computation: its `max_units` includes the snapshot's units, its `time_limit` runs
/// from now.
pub fn run_epochs<T: Task>(
    mut snapshot: Snapshot<T>,
    config: &Config,
    policy: &Policy,
    mut run: impl FnMut(Pieces<T>, &Config) -> Result<Ended<Pieces<T>>, RunError>,
) -> Result<(Snapshot<T>, Ended<T>), RunError> {
    let started = Instant::now();
    loop {
        let (epoch, by_checkpoint) = epoch_config(config, &snapshot, policy, started);
        let pieces = Pieces::new(std::mem::take(&mut snapshot.pieces));
        let result = run(pieces, &epoch);
        if let Some(ended) = after_epoch(&mut snapshot, result, config, policy, by_checkpoint)? {
            return Ok((snapshot, ended));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::range::IndexRange;
    use crate::task::testing::{sum, Sum};

    fn snapshot() -> Snapshot<IndexRange<Sum>> {
        let mut s = Snapshot::start(sum(0, 1000), vec!["sum".into()]);
        s.work_units = 7;
        s
    }

    #[test]
    fn files_round_trip_and_damage_is_named() {
        let dir = std::env::temp_dir().join(format!("ts-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.ckpt");
        snapshot().write(&path).unwrap();
        let back = Snapshot::<IndexRange<Sum>>::read(&path).unwrap();
        assert_eq!(
            (back.work_units, back.app.clone()),
            (7, vec!["sum".to_string()])
        );
        assert_eq!(read_app(&path).unwrap(), vec!["sum".to_string()]);
        let bytes = std::fs::read(&path).unwrap();
        let decode = |b: &[u8]| Snapshot::<IndexRange<Sum>>::decode(b).unwrap_err();
        assert_eq!(
            decode(&bytes[..bytes.len() - 1]),
            CheckpointError::Truncated {
                expected: bytes.len() as u64,
                found: bytes.len() as u64 - 1
            }
        );
        assert_eq!(decode(b"hello"), CheckpointError::NotACheckpoint);
        for i in HEADER..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert_eq!(decode(&bad), CheckpointError::Checksum, "byte {i}");
        }
        let mut bad = bytes.clone();
        bad[8] = 9;
        assert!(matches!(
            decode(&bad),
            CheckpointError::Version { found: 9, .. }
        ));
        let wrong = Snapshot::<IndexRange<NoJob>>::read(&path).unwrap_err();
        assert!(
            matches!(wrong, CheckpointError::WrongComputation { .. }),
            "{wrong}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
