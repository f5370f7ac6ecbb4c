//! Deterministic simulation testing (see `treesplit_apps::dst`): random P ≤ 512, trees,
//! networks, delays and adversaries, every run checked. CI runs 2,000 cases; set
//! TREESPLIT_DST_CASES=100000 (or use `treesplit dst --cases 100000`) for a long run.
//! A failing case prints the `treesplit sim …` command that replays it.

use proptest::prelude::*;
use treesplit_apps::dst::Case;

fn cases() -> u32 {
    std::env::var("TREESPLIT_DST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_simulations_are_correct(seed in any::<u64>()) {
        let case = Case::random(seed, 512);
        if let Err(e) = case.check() {
            prop_assert!(false, "case seed {seed}: {e}\n  replay: {}", case.command_line());
        }
    }
}
