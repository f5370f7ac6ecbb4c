//! `treesplit bench` and `treesplit compare`: the benchmark's ratios, and a comparison of
//! balancers that accepts any optimal answer of a search.

mod support;

use support::{stderr, treesplit};

#[test]
fn bench_reports_ratios() {
    let o = treesplit(&[
        "bench", "nqueens", "10", "--pes", "2", "--repeat", "1", "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(j["series"].as_array().unwrap().len(), 4);
    assert!(j["speedup_treesplit"].as_f64().unwrap() > 0.0);
}

/// `compare` on branch-and-bound searches judges answers by the published optimum: search
/// overhead (other unit counts) and another optimal ruler of the same length are right.
#[test]
fn compare_accepts_any_optimal_answer_of_a_search() {
    let o = treesplit(&["compare", "golomb", "7", "--pes", "16", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = treesplit(&[
        "compare",
        "knapsack",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testkit/data/knapsack/f1_l-d_kp_10_269.txt"
        ),
        "--pes",
        "16",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}
