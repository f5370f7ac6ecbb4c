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

/// `compare --svg` names every balancer once, and no name overlaps another or a bar.
#[test]
fn compare_chart_names_every_balancer_apart() {
    use support::svg::{elements, overlap};
    let dir = support::scratch("compare-svg");
    let path = dir.join("c.svg");
    let o = treesplit(&[
        "compare",
        "nqueens",
        "8",
        "--pes",
        "16",
        "--json",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let balancers: Vec<&str> = j
        .as_array()
        .expect("one row per balancer")
        .iter()
        .map(|r| r["balancer"].as_str().unwrap())
        .collect();
    assert!(balancers.len() >= 10, "{balancers:?}");
    let all = elements(&std::fs::read_to_string(&path).unwrap());
    let labels: Vec<_> = all
        .iter()
        .filter(|e| e.tag == "text" && balancers.contains(&e.text.as_str()))
        .collect();
    assert_eq!(labels.len(), balancers.len(), "{labels:?}");
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            assert!(
                !overlap(a.bbox(), b.bbox()),
                "'{}' overlaps '{}'",
                a.text,
                b.text
            );
        }
        let bar = all.iter().find(|r| {
            r.tag == "rect" && r.attr("fill") != "#FFFFFF" && overlap(r.bbox(), a.bbox())
        });
        assert!(bar.is_none(), "'{}' over {bar:?}", a.text);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
