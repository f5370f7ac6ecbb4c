//! Every application on the thread machine, on P ∈ {1, 2, 3, 4, 7, 16} and several seeds,
//! gives the sequential answer and the published one, and does exactly the sequential
//! number of work units (nothing lost, nothing done twice).

use std::time::Duration;
use treesplit::{run, run_sequential, Config, Report, Task};
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};
use treesplit_apps::uts::{Uts, UtsParams};
use treesplit_apps::NQueens;
use treesplit_testkit::support::within;

const PES: [usize; 6] = [1, 2, 3, 4, 7, 16];
const SEEDS: [u64; 3] = [1, 2, 3];

fn run_checked<T: Task>(root: T, cfg: Config) -> Report<T::Output> {
    within(Duration::from_secs(120), move || {
        run(root, &cfg).expect("run failed").into_report()
    })
}

/// N-Queens totals by n, from the OEIS A000170 table in the test kit's fixtures.
fn published_nqueens() -> Vec<(u32, u64)> {
    treesplit_testkit::data::read("n-queens.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[0].parse().unwrap(), cols[1].parse().unwrap())
        })
        .collect()
}

#[test]
fn nqueens_sequential_matches_oeis() {
    let table = published_nqueens();
    assert!(table.len() >= 15);
    for &(n, total) in table.iter().filter(|(n, _)| *n <= 12) {
        let (solutions, _) = treesplit_apps::nqueens::count_sequential(n).unwrap();
        assert_eq!(solutions, total, "n = {n}");
    }
}

#[test]
fn nqueens_parallel_matches_oeis_on_every_p() {
    let table = published_nqueens();
    for n in [1, 4, 6, 8, 10, 12] {
        let published = table.iter().find(|(m, _)| *m == n).unwrap().1;
        let seq = run_sequential(NQueens::new(n).unwrap());
        assert_eq!(seq.output, published);
        for p in PES {
            for seed in SEEDS {
                // A small Δt forces many polls and splits.
                let r = run_checked(
                    NQueens::new(n).unwrap(),
                    Config::new(p).seed(seed).delta_t(256),
                );
                assert_eq!(r.output, published, "n={n} P={p} seed={seed}");
                assert_eq!(
                    r.totals.work_units, seq.work_units,
                    "n={n} P={p} seed={seed}: work not conserved"
                );
            }
        }
    }
}

#[test]
fn nqueens_rejects_bad_sizes() {
    assert!(NQueens::new(0).is_err());
    assert!(NQueens::new(21).is_err());
}

fn uts(name: &str) -> UtsParams {
    UtsParams::parse(&[name.to_string()]).unwrap()
}

#[test]
fn uts_small_trees_match_published_counts_on_every_p() {
    for (name, nodes) in [("default", 1_732), ("T1-mini", 63_914), ("T3-mini", 6_213)] {
        let params = uts(name);
        assert_eq!(
            params.published_nodes().map(|(_, c)| c),
            Some(nodes),
            "{name}"
        );
        let seq = run_sequential(Uts::new(params));
        assert_eq!(seq.output.nodes, nodes, "{name} sequential");
        assert_eq!(seq.work_units, nodes);
        for p in PES {
            for seed in SEEDS {
                let r = run_checked(Uts::new(params), Config::new(p).seed(seed).delta_t(32));
                assert_eq!(r.output, seq.output, "{name} P={p} seed={seed}");
                assert_eq!(
                    r.totals.work_units, nodes,
                    "{name} P={p} seed={seed}: work not conserved"
                );
            }
        }
    }
}

#[test]
fn uts_t1_and_t3_match_published_counts() {
    for (name, nodes, depth) in [("T1", 4_130_071u64, 10u32), ("T3", 4_112_897, 1_572)] {
        let seq = run_sequential(Uts::new(uts(name)));
        assert_eq!(seq.output.nodes, nodes, "{name}");
        assert_eq!(seq.output.max_height, depth, "{name}");
        for (p, seed) in PES.iter().flat_map(|&p| [(p, 1), (p, p as u64 + 10)]) {
            let r = run_checked(Uts::new(uts(name)), Config::new(p).seed(seed).delta_t(256));
            assert_eq!(r.output, seq.output, "{name} P={p}");
            assert_eq!(
                r.totals.work_units, nodes,
                "{name} P={p}: work not conserved"
            );
            if p > 1 {
                assert!(r.totals.splits > 0, "{name} P={p}: no split");
            }
        }
    }
}

#[test]
fn uts_t2_t4_t5_match_their_documented_counts() {
    for (name, nodes) in [("T2", 4_117_769u64), ("T4", 4_132_453), ("T5", 4_147_582)] {
        let params = uts(name);
        assert_eq!(params.published_nodes().map(|(_, n)| n), Some(nodes));
        let seq = run_sequential(Uts::new(params));
        assert_eq!(seq.output.nodes, nodes, "{name}");
        let r = run_checked(Uts::new(params), Config::new(3).seed(5).delta_t(256));
        assert_eq!(r.output, seq.output, "{name} P=3");
    }
}

#[test]
fn uts_raw_flags_equal_named_tree() {
    let raw: Vec<String> = "-t 1 -a 3 -d 10 -b 4 -r 19"
        .split(' ')
        .map(String::from)
        .collect();
    assert_eq!(UtsParams::parse(&raw).unwrap(), uts("T1"));
    assert_eq!(uts("t1"), uts("T1"), "names are case-insensitive");
    for bad in [
        &["T99"][..],
        &["-t", "7"],
        &["-q", "1.5"],
        &["-d"],
        &["-x", "1"],
        &["-b", "abc"],
    ] {
        let args: Vec<String> = bad.iter().map(|s| s.to_string()).collect();
        assert!(UtsParams::parse(&args).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn synthetic_work_is_exactly_conserved() {
    for (alpha, rule, atomic) in [
        (0.5, SplitRule::Random, 1),
        (0.3, SplitRule::Random, 16),
        (0.1, SplitRule::Adversarial, 1),
        (0.3, SplitRule::Adversarial, 100),
    ] {
        let params = SyntheticParams {
            work: 400_000,
            alpha,
            atomic,
            rule,
            spin: 4,
            seed: 11,
        };
        let seq = run_sequential(Synthetic::new(params).unwrap());
        assert_eq!(seq.work_units, params.work);
        assert_eq!(seq.output.units, params.work);
        for p in PES {
            for seed in SEEDS {
                let r = run_checked(
                    Synthetic::new(params).unwrap(),
                    Config::new(p).seed(seed).delta_t(64),
                );
                assert_eq!(
                    r.totals.work_units, params.work,
                    "α={alpha} {rule:?} P={p} seed={seed}"
                );
                assert_eq!(r.output, seq.output, "α={alpha} {rule:?} P={p} seed={seed}");
            }
        }
    }
}

#[test]
fn synthetic_rejects_bad_parameters() {
    let ok = SyntheticParams {
        work: 10,
        alpha: 0.3,
        atomic: 1,
        rule: SplitRule::Random,
        spin: 1,
        seed: 0,
    };
    assert!(Synthetic::new(ok).is_ok());
    assert!(Synthetic::new(SyntheticParams { work: 0, ..ok }).is_err());
    assert!(Synthetic::new(SyntheticParams { alpha: 0.0, ..ok }).is_err());
    assert!(Synthetic::new(SyntheticParams { alpha: 0.7, ..ok }).is_err());
    assert!(Synthetic::new(SyntheticParams {
        alpha: f64::NAN,
        ..ok
    })
    .is_err());
    assert!(Synthetic::new(SyntheticParams { atomic: 0, ..ok }).is_err());
}
