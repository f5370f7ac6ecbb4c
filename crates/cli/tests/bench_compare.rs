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
    assert_eq!(j["series"].as_array().unwrap().len(), 8);
    assert!(j["speedup_treesplit"].as_f64().unwrap() > 0.0);
}

/// The fine-grained trees run on every peer at 1 and 2 threads under the series' names, and
/// the sweep tries each cut-off the application names for rayon and chili.
#[test]
fn bench_runs_every_peer_and_reports_the_sweep() {
    for app in [&["tree-sum", "--depth", "14"][..], &["fib", "18"][..]] {
        let mut args = vec!["bench"];
        args.extend_from_slice(app);
        args.extend_from_slice(&["--pes", "2", "--repeat", "1", "--json"]);
        let o = treesplit(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
        let names: Vec<&str> = j["series"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "recursion",
                "sequential",
                "treesplit P=1",
                "treesplit P=2",
                "rayon 1 thread",
                "rayon 2 threads",
                "chili 1 thread",
                "chili 2 threads"
            ]
        );
        let sweep = j["sweep"].as_array().unwrap();
        assert_eq!(sweep.len(), 10, "five cut-offs for each of rayon and chili");
        // The ratios are treesplit's time over the peer's, from the minimum times.
        let min = |name: &str| {
            j["series"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["name"] == name)
                .unwrap()["min"]
                .as_f64()
                .unwrap()
        };
        let ratio = j["time_over_chili"].as_f64().unwrap();
        let want = min("treesplit P=2") / min("chili 2 threads");
        assert!(
            (ratio - want).abs() <= 1e-9 * want,
            "{ratio} against {want}"
        );
        let ratio = j["one_pe_time_over_sequential"].as_f64().unwrap();
        let want = min("treesplit P=1") / min("sequential");
        assert!(
            (ratio - want).abs() <= 1e-9 * want,
            "{ratio} against {want}"
        );
    }
    // A fixed rayon cut-off is not swept.
    let o = treesplit(&[
        "bench",
        "fib",
        "16",
        "--rayon-depth",
        "3",
        "--repeat",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(j["rayon_cut"], "depth 3");
    assert_eq!(j["rayon_swept"], false);
    assert_eq!(j["sweep"].as_array().unwrap().len(), 5);
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
