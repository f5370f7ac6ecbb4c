//! Fuzz the Standard Task Graph reader (`treesplit_apps::dag::parse_stg`) and what a run
//! computes from a DAG before it starts: work, critical path and the bounds.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(dag) = treesplit_apps::dag::parse_stg(text, "fuzz.stg") {
        let _ = dag.work();
        let _ = dag.critical_path();
        let _ = dag.lower_bound(3);
        let _ = dag.theorem_14_3_bound(3);
    }
});
