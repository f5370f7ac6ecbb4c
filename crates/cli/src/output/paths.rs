//! Every file a command writes, checked together before the run, under one rule: an output
//! path never costs the user a file. Part of the output layer.
//!
//! The rule, for every output flag of every subcommand (`--trace`, `--gantt`, `--svg`,
//! `--checkpoint`, `reproduce --out`):
//! - the path is not a directory, and its folder exists and can be written;
//! - no two outputs of one command name the same file, and no output names a file the run
//!   reads (an input named in the application's words, the checkpoint it resumes from
//!   unless that is its own `--checkpoint`);
//! - a file already there is replaced only when it is empty or holds what this output
//!   writes: a Chrome trace (`{"traceEvents"`), an SVG or PNG picture, a part of a
//!   reproduction report; a checkpoint path follows the checkpoints' own rule (only a
//!   checkpoint of the same computation, which the run then continues).
//!
//! Anything else is bad input (exit 2) before any work, naming the flag and what to do.

use crate::output::Failure;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What an output writes, and so what it may replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A Chrome trace-event JSON document.
    Trace,
    /// A picture, SVG or PNG by its extension.
    Picture,
    /// A checkpoint (its own rule: `commands::checkpoint_file`).
    Checkpoint,
    /// The Markdown page of a reproduction report.
    ReportPage,
    /// The JSON numbers of a reproduction report.
    ReportNumbers,
}

/// One file a command will write.
#[derive(Debug, Clone)]
pub struct Output {
    /// The flag that names it, as the user wrote it (`--trace`).
    pub flag: &'static str,
    /// The path.
    pub path: PathBuf,
    /// What goes there.
    pub kind: Kind,
}

impl Output {
    /// `flag`'s file `path` of kind `kind`.
    pub fn new(flag: &'static str, path: &Path, kind: Kind) -> Self {
        Output {
            flag,
            path: path.to_path_buf(),
            kind,
        }
    }
}

/// Check a command's `outputs` against each other, against the files it reads (`inputs`:
/// any words, those that name no existing file are ignored) and against what is at their
/// paths now.
pub fn check(outputs: &[Output], inputs: &[PathBuf]) -> Result<(), Failure> {
    for (i, o) in outputs.iter().enumerate() {
        writable(o)?;
        let here = identity(&o.path);
        for earlier in &outputs[..i] {
            if identity(&earlier.path) == here {
                return Err(Failure::input(format!(
                    "{} {} and {} {} name the same file: give each output its own path",
                    earlier.flag,
                    earlier.path.display(),
                    o.flag,
                    o.path.display()
                )));
            }
        }
        if let Some(input) = inputs
            .iter()
            .find(|input| input.is_file() && identity(input) == here)
        {
            return Err(Failure::input(format!(
                "{} {}: that is {}, which this run reads; choose another path",
                o.flag,
                o.path.display(),
                input.display()
            )));
        }
        replaceable(o)?;
    }
    Ok(())
}

/// A command's one picture (`--gantt`, `--svg`): its file type, then [`check`].
pub fn check_picture(flag: &'static str, path: &Path, inputs: &[PathBuf]) -> Result<(), Failure> {
    crate::output::plot::check_path(path, flag).map_err(Failure::input)?;
    check(&[Output::new(flag, path, Kind::Picture)], inputs)
}

/// The paths named by an application's words (its command-line description), some of
/// which are its input files (`FILE#PICK` names FILE too).
pub fn words_as_paths(words: &[String]) -> Vec<PathBuf> {
    words
        .iter()
        .flat_map(|w| {
            [
                w.as_str(),
                w.split_once('=').map_or("", |(_, v)| v),
                w.rsplit_once('#').map_or("", |(f, _)| f),
            ]
        })
        .filter(|w| !w.is_empty() && *w != "-")
        .map(PathBuf::from)
        .collect()
}

/// A path as one file: canonical where it exists, else its folder canonical and its name.
fn identity(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// The path is not a directory and can be written: an existing file is opened for writing
/// (neither created nor truncated); for a new one, a probe file of a name of its own is
/// made beside it and removed, so that the path itself is never touched (the ranks of an MPI
/// job check the same paths at once).
fn writable(o: &Output) -> Result<(), Failure> {
    let cannot = |e: std::io::Error| {
        Failure::input(format!(
            "{} {}: cannot write there: {e}",
            o.flag,
            o.path.display()
        ))
    };
    if o.path.is_dir() {
        return Err(Failure::input(format!(
            "{} {}: is a directory",
            o.flag,
            o.path.display()
        )));
    }
    if std::fs::symlink_metadata(&o.path).is_ok() {
        // Opening a pipe to write waits for a reader, and a device is no file to keep.
        if !std::fs::metadata(&o.path).is_ok_and(|m| m.is_file()) {
            return Err(Failure::input(format!(
                "{} {}: not a regular file (a device, a pipe or a socket); give the path of a file",
                o.flag,
                o.path.display()
            )));
        }
        std::fs::OpenOptions::new()
            .write(true)
            .open(&o.path)
            .map_err(cannot)?;
        return Ok(());
    }
    let dir = match o.path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = o
        .path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    // Unique to this process and moment: ranks on several hosts may share a PID.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let probe = dir.join(format!(
        ".{name}.treesplit-probe-{}-{nanos}",
        std::process::id()
    ));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(cannot)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// A file already at the path holds what this output writes, or nothing.
fn replaceable(o: &Output) -> Result<(), Failure> {
    let Ok(meta) = std::fs::metadata(&o.path) else {
        return Ok(());
    };
    if o.kind == Kind::Checkpoint || !meta.is_file() {
        return Ok(()); // a checkpoint's own rule; a non-file is refused as unwritable
    }
    // Read, not the size: a kernel's pseudo-file (/proc, /sys) says 0 bytes and holds some.
    let mut head = Vec::with_capacity(512);
    if let Ok(f) = std::fs::File::open(&o.path) {
        let _ = f.take(512).read_to_end(&mut head);
    }
    if head.is_empty() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&head);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let png = head.starts_with(b"\x89PNG\r\n\x1a\n");
    let svg = text.starts_with("<svg") || text.starts_with("<?xml");
    let (ours, what) = match o.kind {
        Kind::Trace => (text.starts_with("{\"traceEvents\""), "a Chrome trace"),
        Kind::Picture => (png || svg, "an SVG or PNG picture"),
        Kind::ReportPage => (
            text.starts_with("# ") && text.contains("Written by `treesplit reproduce"),
            "a reproduction report's page",
        ),
        Kind::ReportNumbers => (
            text.starts_with('{') && text.contains("\"counts\""),
            "a reproduction report's numbers",
        ),
        Kind::Checkpoint => (true, ""),
    };
    if ours {
        return Ok(());
    }
    Err(Failure::input(format!(
        "{} {}: the file exists and is not {what}; treesplit replaces only a file of the kind it writes there: remove it or choose another path",
        o.flag,
        o.path.display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ts-paths-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn message(r: Result<(), Failure>) -> String {
        format!("{:?}", r.unwrap_err())
    }

    #[test]
    fn a_file_of_another_kind_an_input_or_a_shared_path_is_refused() {
        let d = dir("rule");
        let graph = d.join("g.clq");
        std::fs::write(&graph, "p edge 2 1\ne 1 2\n").unwrap();
        let trace = d.join("t.json");
        let o = |flag, path: &Path, kind| Output::new(flag, path, kind);
        // New files, and files of the kind written before.
        assert!(check(&[o("--trace", &trace, Kind::Trace)], &[]).is_ok());
        std::fs::write(&trace, "{\"traceEvents\":[]}").unwrap();
        let svg = d.join("g.svg");
        std::fs::write(&svg, "<svg width=\"1\"></svg>").unwrap();
        assert!(check(
            &[
                o("--trace", &trace, Kind::Trace),
                o("--gantt", &svg, Kind::Picture)
            ],
            std::slice::from_ref(&graph)
        )
        .is_ok());
        // The input, through another spelling of its path.
        let via = d.join(".").join("g.clq");
        let m = message(check(
            &[o("--trace", &via, Kind::Trace)],
            std::slice::from_ref(&graph),
        ));
        assert!(m.contains("which this run reads"), "{m}");
        // Any other file: refused, and left as it was.
        let m = message(check(&[o("--trace", &graph, Kind::Trace)], &[]));
        assert!(m.contains("is not a Chrome trace"), "{m}");
        let m = message(check(&[o("--gantt", &graph, Kind::Picture)], &[]));
        assert!(m.contains("is not an SVG or PNG picture"), "{m}");
        assert_eq!(
            std::fs::read_to_string(&graph).unwrap(),
            "p edge 2 1\ne 1 2\n"
        );
        // Two outputs on one path.
        let m = message(check(
            &[
                o("--checkpoint", &trace, Kind::Checkpoint),
                o("--trace", &trace, Kind::Trace),
            ],
            &[],
        ));
        assert!(m.contains("name the same file"), "{m}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn words_name_their_paths() {
        let words: Vec<String> = ["maxclique", "--file=a.clq", "-", "b.txt"]
            .map(String::from)
            .to_vec();
        let paths = words_as_paths(&words);
        assert!(paths.contains(&PathBuf::from("a.clq")));
        assert!(paths.contains(&PathBuf::from("b.txt")));
        assert!(!paths.contains(&PathBuf::from("-")));
    }

    /// A kernel's pseudo-file says it is empty and is not; a pipe would block the check.
    #[test]
    fn pseudo_files_and_pipes_are_not_replaced() {
        if std::path::Path::new("/proc/version").exists() {
            let o = Output::new("--trace", Path::new("/proc/version"), Kind::Trace);
            assert!(message(replaceable(&o)).contains("is not a Chrome trace"));
        }
        let d = dir("fifo");
        let fifo = d.join("ff");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let o = Output::new("--trace", &fifo, Kind::Trace);
            assert!(message(check(&[o], &[])).contains("not a regular file"));
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}
