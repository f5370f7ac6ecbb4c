//! `--trace FILE.json`: a run's recorded timeline ([`treesplit::trace::Trace`]) in the Chrome
//! trace-event format, which Perfetto (ui.perfetto.dev) and chrome://tracing open. One
//! process, one track (tid) per PE named by `thread_name` metadata; each state interval is a
//! complete event (`ph: "X"`, `ts`/`dur` in µs: wall-clock on real machines, one virtual time
//! unit as 1 µs in the simulator); each message whose both ends were recorded is a flow from
//! the sender's slice (`ph: "s"`) to the receiver's (`ph: "f"`, `bp: "e"`) with one id. Events
//! of each track are written in time order. Also, the file can be checked before the run
//! ([`check_writable`]), so a bad path fails at once. Part of the output layer.

use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;
use treesplit::trace::Trace;

#[derive(Serialize)]
struct ChromeTrace<'a> {
    #[serde(rename = "traceEvents")]
    trace_events: Vec<ChromeEvent>,
    #[serde(rename = "displayTimeUnit")]
    display_time_unit: &'static str,
    #[serde(rename = "otherData")]
    other_data: OtherData<'a>,
}

#[derive(Serialize)]
struct OtherData<'a> {
    machine: &'a str,
    pes: usize,
    /// Events overwritten in the PEs' rings (the oldest ones).
    dropped_events: u64,
}

#[derive(Serialize)]
struct ChromeEvent {
    name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cat: Option<&'static str>,
    ph: &'static str,
    ts: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    dur: Option<f64>,
    pid: u32,
    tid: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bp: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<serde_json::Value>,
}

impl ChromeEvent {
    fn new(name: &'static str, ph: &'static str, ts: f64, tid: u32) -> Self {
        ChromeEvent {
            name,
            cat: None,
            ph,
            ts,
            dur: None,
            pid: 0,
            tid,
            id: None,
            bp: None,
            args: None,
        }
    }
}

/// Check before the run that `path` can be written (its folder exists and is writable): try
/// to open it for writing, and remove it again if it did not exist. `flag` names the option.
pub fn check_writable(path: &Path, flag: &str) -> Result<(), String> {
    let existed = path.exists();
    if path.is_dir() {
        return Err(format!("{flag} {}: is a directory", path.display()));
    }
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("{flag} {}: cannot write there: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Write `trace` of a run on `machine` to `path` in the Chrome trace-event format.
pub fn write(path: &Path, trace: &Trace, machine: &str) -> Result<(), String> {
    // µs per tick: real machines tick in ns; a simulator's virtual unit is shown as 1 µs.
    let us = if machine == "sim" {
        1.0
    } else {
        trace.tick_seconds * 1e6
    };
    let mut tracks: Vec<Vec<ChromeEvent>> = Vec::with_capacity(trace.pes.len());
    for p in &trace.pes {
        let mut events = Vec::new();
        for (state, start, end) in p.states() {
            if end > start {
                let mut e = ChromeEvent::new(state.name(), "X", start as f64 * us, p.pe);
                e.cat = Some("state");
                e.dur = Some((end - start) as f64 * us);
                events.push(e);
            }
        }
        tracks.push(events);
    }
    for (id, (from, sent, to, received, kind)) in trace.messages().into_iter().enumerate() {
        let (Some(_), Some(_)) = (tracks.get(from as usize), tracks.get(to as usize)) else {
            continue;
        };
        let mut s = ChromeEvent::new(kind.name(), "s", sent as f64 * us, from);
        s.cat = Some("message");
        s.id = Some(id as u64);
        tracks[from as usize].push(s);
        let mut f = ChromeEvent::new(kind.name(), "f", received as f64 * us, to);
        f.cat = Some("message");
        f.id = Some(id as u64);
        f.bp = Some("e");
        tracks[to as usize].push(f);
    }
    let mut trace_events = vec![{
        let mut m = ChromeEvent::new("process_name", "M", 0.0, 0);
        m.args = Some(serde_json::json!({ "name": format!("treesplit ({machine})") }));
        m
    }];
    for (p, mut events) in trace.pes.iter().zip(tracks) {
        let mut m = ChromeEvent::new("thread_name", "M", 0.0, p.pe);
        m.args = Some(serde_json::json!({ "name": format!("PE {}", p.pe) }));
        trace_events.push(m);
        let mut m = ChromeEvent::new("thread_sort_index", "M", 0.0, p.pe);
        m.args = Some(serde_json::json!({ "sort_index": p.pe }));
        trace_events.push(m);
        // Time order per track (stable: a slice before the flows that start at its start).
        events.sort_by(|a, b| a.ts.total_cmp(&b.ts));
        trace_events.extend(events);
    }
    let doc = ChromeTrace {
        trace_events,
        display_time_unit: "ms",
        other_data: OtherData {
            machine,
            pes: trace.pes.len(),
            dropped_events: trace.dropped(),
        },
    };
    let file = File::create(path).map_err(|e| e.to_string())?;
    let mut out = BufWriter::new(file);
    serde_json::to_writer(&mut out, &doc).map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())
}
