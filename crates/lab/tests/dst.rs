//! Deterministic simulation testing (see `treesplit_lab::dst`): random P ≤ 512, trees,
//! balancers, networks, delays and adversaries, every run checked. CI runs 2,000 cases
//! drawn from a fixed generator seed, so it cannot flake; set TREESPLIT_DST_CASES=100000 and
//! PROPTEST_RNG_SEED=<any number> (or use `treesplit dst --cases 100000 --seed S`) to explore
//! further. A failing case prints the `treesplit sim …` command that replays it.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use treesplit_lab::dst::Case;

fn cases() -> u32 {
    std::env::var("TREESPLIT_DST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        rng_seed: std::env::var("PROPTEST_RNG_SEED").ok().and_then(|s| s.parse().ok()).map_or(RngSeed::Fixed(20261121), RngSeed::Fixed),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_simulations_are_correct(seed in any::<u64>()) {
        let case = Case::random(seed, 512);
        if let Err(e) = case.check() {
            prop_assert!(false, "case seed {seed}: {e}\n  replay: {}", case.command_line());
        }
    }
}

/// The system cases (`dst_systems`): the chapter's examples, BFS, task DAGs and
/// checkpoint/resume, 300 of them from fixed seeds. Every kind is drawn, and most resume cases
/// really stop with pieces in the snapshot (so the resume path, not just a completed first
/// run, is what passes).
#[test]
fn system_cases_are_correct() {
    use std::collections::BTreeMap;
    use treesplit_lab::dst_systems::{is_system_seed, SystemCase};
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut resumes, mut carried) = (0, 0);
    for seed in (0..1500u64).filter(|&s| is_system_seed(s)) {
        let case = SystemCase::random(seed, 256);
        match case.check() {
            Ok(pieces) => {
                *kinds.entry(case.kind()).or_default() += 1;
                if case.kind() == "resume" {
                    resumes += 1;
                    carried += usize::from(pieces > 0);
                }
            }
            Err(e) => panic!("system case seed {seed}: {e}\n  {}", case.describe()),
        }
    }
    for kind in ["example", "bfs", "dag", "resume"] {
        assert!(kinds.get(kind).copied().unwrap_or(0) >= 15, "{kinds:?}");
    }
    assert!(
        carried * 2 > resumes,
        "{carried} of {resumes} resumes stopped with pieces"
    );
    eprintln!("{kinds:?}; {carried} of {resumes} resume cases carried pieces");
}
