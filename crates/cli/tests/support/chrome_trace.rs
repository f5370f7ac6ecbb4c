//! A check of a `--trace` file against the Chrome trace-event format (what Perfetto and
//! chrome://tracing read), shared by the CLI and MPI tests.

/// Check `path` against the Chrome trace-event format for a run on `p` PEs: a JSON object
/// with `traceEvents` and `displayTimeUnit`; per phase the required fields and types; one
/// named track per PE, each with complete events (unless the rings dropped events); flow starts and ends paired by id, the end
/// not before the start, with `bp: "e"`; timestamps monotone per track.
pub fn check_chrome_trace(path: &std::path::Path, p: u64) -> serde_json::Value {
    use std::collections::{BTreeMap, BTreeSet};
    let text = std::fs::read_to_string(path).expect("the trace file was written");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert!(doc["displayTimeUnit"].is_string());
    let events = doc["traceEvents"]
        .as_array()
        .expect("traceEvents is an array");
    let mut named = BTreeSet::new();
    let mut complete: BTreeMap<u64, u64> = BTreeMap::new();
    let mut last_ts: BTreeMap<u64, f64> = BTreeMap::new();
    let mut starts: BTreeMap<u64, (f64, u64)> = BTreeMap::new();
    let mut finishes: BTreeMap<u64, (f64, u64)> = BTreeMap::new();
    for e in events {
        let ph = e["ph"].as_str().expect("ph is a string");
        assert!(e["name"].is_string(), "{e}");
        assert!(e["pid"].is_u64(), "{e}");
        let tid = e["tid"].as_u64().expect("tid is an integer");
        if ph == "M" {
            if e["name"] == "thread_name" {
                assert_eq!(e["args"]["name"], format!("PE {tid}"));
                assert!(named.insert(tid), "track {tid} named twice");
            }
            continue;
        }
        let ts = e["ts"].as_f64().expect("ts is a number");
        assert!(ts >= 0.0);
        let last = last_ts.entry(tid).or_insert(0.0);
        assert!(ts >= *last, "track {tid}: ts {ts} after {last}");
        *last = ts;
        match ph {
            "X" => {
                assert!(e["dur"].as_f64().expect("X has dur") >= 0.0);
                *complete.entry(tid).or_default() += 1;
            }
            "s" | "f" => {
                let id = e["id"].as_u64().expect("flow events have an id");
                let map = if ph == "s" {
                    &mut starts
                } else {
                    assert_eq!(e["bp"], "e", "{e}");
                    &mut finishes
                };
                assert!(map.insert(id, (ts, tid)).is_none(), "flow id {id} twice");
            }
            other => panic!("unexpected phase {other}"),
        }
    }
    let pes: BTreeSet<u64> = (0..p).collect();
    assert_eq!(named, pes, "one named track per PE");
    // Every PE has its states as complete events; where a shortened ring dropped the oldest
    // events, a PE whose kept events are all messages (an idle PE rejecting requests) has
    // none.
    let with_states: BTreeSet<u64> = complete.keys().copied().collect();
    if doc["otherData"]["dropped_events"].as_u64().unwrap_or(0) == 0 {
        assert_eq!(with_states, pes);
    } else {
        assert!(with_states.is_subset(&pes) && !with_states.is_empty());
    }
    assert!(!starts.is_empty(), "no messages");
    assert_eq!(
        starts.keys().collect::<Vec<_>>(),
        finishes.keys().collect::<Vec<_>>()
    );
    for (id, (ts, _)) in &starts {
        assert!(finishes[id].0 >= *ts, "flow {id} ends before it starts");
    }
    doc
}
