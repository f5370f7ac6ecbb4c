//! `--trace FILE.json`: a run's recorded timeline ([`treesplit::timeline::Trace`]) in the Chrome
//! trace-event format, which Perfetto (ui.perfetto.dev) and chrome://tracing open. One
//! process, one track (tid) per PE named by `thread_name` metadata; each state interval is a
//! complete event (`ph: "X"`, `ts`/`dur` in µs: wall-clock on real machines, one virtual time
//! unit as 1 µs in the simulator); each message whose both ends were recorded is a flow from
//! the sender's slice (`ph: "s"`) to the receiver's (`ph: "f"`, `bp: "e"`) with one id. Events
//! of each track are written in time order. The document is written as it is made, one
//! track at a time, so that the writer holds little beside the recorded trace however many
//! PEs and events it has. The path was checked before the run (`output::paths`). Part of the
//! output layer.

use serde::Serialize;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use treesplit::timeline::{EventKind, MessageKind, Trace};

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

/// Write `trace` of a run on `machine` to `path` in the Chrome trace-event format, one PE's
/// track at a time (see [`write_to`]).
pub fn write(path: &Path, trace: &Trace, machine: &str) -> Result<(), String> {
    let file = File::create(path).map_err(|e| e.to_string())?;
    let mut out = BufWriter::new(file);
    write_to(&mut out, trace, machine).map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())
}

/// One end of a message in a PE's track: its id, tick and kind, and whether it is the start
/// (the sender's end) or the finish of the flow.
struct FlowEnd {
    id: u64,
    at: u64,
    kind: MessageKind,
    start: bool,
}

/// Every PE's flow ends, by PE, each PE's in the order of the message ids: a message's id is
/// its number among the messages whose both ends were kept, the senders' messages in PE
/// order and each sender's in the order it sent them; a receive is paired with its send by
/// the per-pair sequence number (the last receive of a number wins), and a pair that would
/// arrive before it was sent (reordered) is left out. Holds 16 bytes per receive while it
/// pairs, then 24 bytes per flow end.
fn flow_ends(trace: &Trace) -> Vec<Vec<FlowEnd>> {
    let at_pe: HashMap<u32, usize> = trace
        .pes
        .iter()
        .enumerate()
        .map(|(i, p)| (p.pe, i))
        .collect();
    // Each PE's receives as (from, seq, at), sorted by (from, seq), the last of equal ones
    // the newest.
    let received: Vec<Vec<(u32, u32, u64)>> = trace
        .pes
        .iter()
        .map(|p| {
            let mut r: Vec<(u32, u32, u64)> = p
                .events()
                .filter_map(|e| match e.kind {
                    EventKind::Receive { from, seq, .. } => Some((from, seq, e.at)),
                    _ => None,
                })
                .collect();
            r.sort_by_key(|&(from, seq, _)| (from, seq));
            r
        })
        .collect();
    let mut ends: Vec<Vec<FlowEnd>> = trace.pes.iter().map(|_| Vec::new()).collect();
    let mut id = 0u64;
    for p in &trace.pes {
        for e in p.events() {
            let EventKind::Send { to, seq, kind } = e.kind else {
                continue;
            };
            let Some(r) = at_pe.get(&to).map(|&i| &received[i]) else {
                continue;
            };
            let after = r.partition_point(|&(from, s, _)| (from, s) <= (p.pe, seq));
            let at = match after.checked_sub(1).map(|i| r[i]) {
                Some((from, s, at)) if (from, s) == (p.pe, seq) => at,
                _ => continue,
            };
            if at < e.at {
                continue;
            }
            // Tracks are placed by PE number, as the rest of the file names them.
            if (p.pe as usize) < ends.len() && (to as usize) < ends.len() {
                ends[p.pe as usize].push(FlowEnd {
                    id,
                    at: e.at,
                    kind,
                    start: true,
                });
                ends[to as usize].push(FlowEnd {
                    id,
                    at,
                    kind,
                    start: false,
                });
            }
            id += 1;
        }
    }
    ends
}

/// `,` and the event `e`.
fn event(out: &mut impl Write, e: &ChromeEvent) -> std::io::Result<()> {
    out.write_all(b",")?;
    serde_json::to_writer(out, e).map_err(std::io::Error::from)
}

/// Write `trace` to `out` as one Chrome trace document, streamed: the process's metadata,
/// then each PE's track (its metadata, then its state intervals and flow ends in time order,
/// a slice before the flows that start at its start), then the machine's data. Only one
/// track's events are held as records at a time (besides the flow ends of every message), so
/// the writer's memory stays a small multiple of the recorded trace's.
pub fn write_to(out: &mut impl Write, trace: &Trace, machine: &str) -> std::io::Result<()> {
    // µs per tick: real machines tick in ns; a simulator's virtual unit is shown as 1 µs.
    let us = if machine == "sim" {
        1.0
    } else {
        trace.tick_seconds * 1e6
    };
    let mut flows = flow_ends(trace);
    out.write_all(b"{\"traceEvents\":[")?;
    let mut m = ChromeEvent::new("process_name", "M", 0.0, 0);
    m.args = Some(serde_json::json!({ "name": format!("treesplit ({machine})") }));
    serde_json::to_writer(&mut *out, &m)?;
    for (i, p) in trace.pes.iter().enumerate() {
        let mut m = ChromeEvent::new("thread_name", "M", 0.0, p.pe);
        m.args = Some(serde_json::json!({ "name": format!("PE {}", p.pe) }));
        event(out, &m)?;
        let mut m = ChromeEvent::new("thread_sort_index", "M", 0.0, p.pe);
        m.args = Some(serde_json::json!({ "sort_index": p.pe }));
        event(out, &m)?;
        let mut events = Vec::new();
        for (state, start, end) in p.states() {
            if end > start {
                let mut e = ChromeEvent::new(state.name(), "X", start as f64 * us, p.pe);
                e.cat = Some("state");
                e.dur = Some((end - start) as f64 * us);
                events.push(e);
            }
        }
        for f in std::mem::take(&mut flows[i]) {
            let mut e = ChromeEvent::new(
                f.kind.name(),
                if f.start { "s" } else { "f" },
                f.at as f64 * us,
                i as u32,
            );
            e.cat = Some("message");
            e.id = Some(f.id);
            e.bp = (!f.start).then_some("e");
            events.push(e);
        }
        // Time order per track (stable: a slice before the flows that start at its start).
        events.sort_by(|a, b| a.ts.total_cmp(&b.ts));
        for e in &events {
            event(out, e)?;
        }
    }
    out.write_all(b"],\"displayTimeUnit\":\"ms\",\"otherData\":")?;
    let other = OtherData {
        machine,
        pes: trace.pes.len(),
        dropped_events: trace.dropped(),
    };
    serde_json::to_writer(&mut *out, &other)?;
    out.write_all(b"}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit::timeline::{PeState, PeTrace};

    /// The document as one value, serialized at once: what the streamed one must equal.
    #[derive(Serialize)]
    struct Whole<'a> {
        #[serde(rename = "traceEvents")]
        trace_events: Vec<ChromeEvent>,
        #[serde(rename = "displayTimeUnit")]
        display_time_unit: &'static str,
        #[serde(rename = "otherData")]
        other_data: OtherData<'a>,
    }

    /// Every event made first, tracks completed from the list of all messages, then the
    /// whole document serialized.
    fn whole(trace: &Trace, machine: &str) -> String {
        let us = if machine == "sim" {
            1.0
        } else {
            trace.tick_seconds * 1e6
        };
        let mut tracks: Vec<Vec<ChromeEvent>> = Vec::new();
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
            if tracks.get(from as usize).is_none() || tracks.get(to as usize).is_none() {
                continue;
            }
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
        let mut m = ChromeEvent::new("process_name", "M", 0.0, 0);
        m.args = Some(serde_json::json!({ "name": format!("treesplit ({machine})") }));
        let mut all = vec![m];
        for (p, mut events) in trace.pes.iter().zip(tracks) {
            let mut m = ChromeEvent::new("thread_name", "M", 0.0, p.pe);
            m.args = Some(serde_json::json!({ "name": format!("PE {}", p.pe) }));
            all.push(m);
            let mut m = ChromeEvent::new("thread_sort_index", "M", 0.0, p.pe);
            m.args = Some(serde_json::json!({ "sort_index": p.pe }));
            all.push(m);
            events.sort_by(|a, b| a.ts.total_cmp(&b.ts));
            all.extend(events);
        }
        serde_json::to_string(&Whole {
            trace_events: all,
            display_time_unit: "ms",
            other_data: OtherData {
                machine,
                pes: trace.pes.len(),
                dropped_events: trace.dropped(),
            },
        })
        .unwrap()
    }

    /// A trace of `pes` PEs with random states and messages (some reordered, some dropped
    /// from full rings, some to the sender itself), from `seed`.
    fn random_trace(pes: u32, capacity: usize, seed: u64) -> Trace {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut traces: Vec<PeTrace> = (0..pes).map(|p| PeTrace::new(p, capacity)).collect();
        let kinds = [MessageKind::Request, MessageKind::Work, MessageKind::Reject];
        let states = [PeState::Working, PeState::Idle, PeState::Requesting];
        for t in 0..200u64 {
            let p = next(u64::from(pes)) as usize;
            if next(3) == 0 {
                traces[p].enter(states[next(3) as usize], t * 10 + next(10));
            } else {
                let to = next(u64::from(pes)) as u32;
                let kind = kinds[next(3) as usize];
                traces[p].send(to, kind, t * 10);
                // Most arrive later; a few before they were sent (reordered), a few never.
                match next(10) {
                    0 => {}
                    1 => traces[to as usize].receive(p as u32, kind, (t * 10).saturating_sub(5)),
                    _ => traces[to as usize].receive(p as u32, kind, t * 10 + next(30)),
                }
            }
        }
        for t in &mut traces {
            t.end = 2_100;
        }
        Trace {
            tick_seconds: 1e-9,
            pes: traces,
        }
    }

    #[test]
    fn the_streamed_document_is_the_document_made_at_once() {
        let mut messages = 0;
        for seed in 1..40 {
            let trace = random_trace(1 + seed as u32 % 6, 8 + seed as usize % 64, seed);
            messages += trace.messages().len();
            for machine in ["sim", "threads"] {
                let mut streamed = Vec::new();
                write_to(&mut streamed, &trace, machine).unwrap();
                assert_eq!(
                    String::from_utf8(streamed).unwrap(),
                    whole(&trace, machine),
                    "seed {seed} on {machine}"
                );
            }
        }
        assert!(messages > 100, "{messages} messages paired");
        let dropped = random_trace(3, 4, 7);
        assert!(dropped.dropped() > 0);
        let mut streamed = Vec::new();
        write_to(&mut streamed, &dropped, "sim").unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), whole(&dropped, "sim"));
    }
}
