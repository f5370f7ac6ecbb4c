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

/// The system cases (`dst_systems`): the chapter's examples, BFS, task DAGs, skeleton searches and
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
    for kind in ["example", "bfs", "dag", "resume", "search"] {
        assert!(kinds.get(kind).copied().unwrap_or(0) >= 15, "{kinds:?}");
    }
    assert!(
        carried * 2 > resumes,
        "{carried} of {resumes} resumes stopped with pieces"
    );
    eprintln!("{kinds:?}; {carried} of {resumes} resume cases carried pieces");
}

/// A case that DST drew at a fresh seed: random shift with fast initialization on 362 PEs of
/// a crossbar, T_rout 38 but T_hop 1. The crossbar takes T_rout per message, so a hop
/// latency of its own is refused; run with one-unit messages (T_rout 1), it is checked
/// against a bound built on the latency its messages really take, which counts the root's
/// broadcast still being split after the last unit of work.
#[test]
fn a_crossbar_message_takes_t_rout_in_the_run_and_in_its_bound() {
    use treesplit::config::{BalancerOptions, TerminationKind};
    use treesplit::machine::sim::{MessageModel, Topology};
    use treesplit::{BalancerKind, Config, ConfigError, Machine, PollingOptions, RunError};
    use treesplit::{SimConfig, Simulator};
    use treesplit_apps::nqueens::{NQueens, NQueensSpec};
    use treesplit_apps::AppSpec;
    let balancer = BalancerOptions {
        polling: Some(PollingOptions {
            trim: Some(1),
            fast_init: true,
            permuted_init: None,
        }),
        round: Some(207),
        ..BalancerOptions::default()
    }
    .balancer(BalancerKind::RandomShift);
    let config = Config::new(362)
        .balancer(balancer)
        .termination(TerminationKind::FourCounter)
        .delta_t(88)
        .seed(554958);
    let sim = SimConfig {
        topology: Topology::Crossbar,
        model: MessageModel::LatencyOnly,
        t_rout: 38,
        t_hop: Some(1),
        t_split: 15,
        t_send: Some(0),
        t_recv: Some(0),
        ..SimConfig::default()
    };
    let refused = Simulator::new(sim.clone()).run(NQueens::new(7).unwrap(), &config);
    assert!(
        matches!(
            refused,
            Err(RunError::InvalidConfig(ConfigError::HopOnCrossbar {
                t_hop: 1,
                t_rout: 38
            }))
        ),
        "{refused:?}"
    );
    for t_rout in [1, 38] {
        let case = Case {
            app: AppSpec::NQueens(NQueensSpec(7)),
            config: config.clone(),
            sim: SimConfig {
                t_rout,
                t_hop: None,
                ..sim.clone()
            },
            empty_splits: 0.0,
        };
        let r = Simulator::new(case.sim.clone())
            .run(NQueens::new(7).unwrap(), &config)
            .unwrap()
            .into_report();
        assert_eq!(r.diameter_latency, t_rout, "every message takes T_rout");
        let checked = case
            .check()
            .unwrap_or_else(|e| panic!("T_rout {t_rout}: {e}\n  {}", case.command_line()));
        assert_eq!(checked.termination_delay, r.termination_delay);
        assert!(case.command_line().contains("--model latency-only"));
        assert!(!case.command_line().contains("--t-hop"));
    }
}

/// A static balancer under response-tree termination: a PE that placed a piece on nearly every
/// other PE receives one response per piece, one after another, each costing it T_recv. On
/// 1,956 PEs with T_recv 38 that alone takes about 72,000 time units after the last unit of
/// work; the bound counts it, and the run still gives the sequential answer.
#[test]
fn responses_to_a_pe_that_placed_jobs_everywhere_are_inside_the_bound() {
    use treesplit::config::{Jobs, TerminationKind};
    use treesplit::machine::sim::{Delay, MessageModel, Topology};
    use treesplit::{Balancer, Config, SimConfig};
    use treesplit_apps::synthetic::{SplitRule, SyntheticParams};
    use treesplit_apps::AppSpec;
    let config = Config::new(1956)
        .balancer(Balancer::PrefixSum {
            jobs: Jobs::Depth(1),
            splittable: true,
        })
        .termination(TerminationKind::ResponseTree)
        .delta_t(48)
        .seed(41668);
    let case = Case {
        app: AppSpec::Synthetic(SyntheticParams {
            work: 60734,
            alpha: 0.07,
            atomic: 20,
            rule: SplitRule::Adversarial,
            spin: 1,
            seed: 458,
        }),
        config,
        sim: SimConfig {
            topology: Topology::Crossbar,
            model: MessageModel::Blocking,
            t_rout: 42,
            t_split: 11,
            t_recv: Some(38),
            delay: Delay::Uniform(28),
            ..SimConfig::default()
        },
        empty_splits: 0.0,
    };
    let checked = case
        .check()
        .unwrap_or_else(|e| panic!("{e}\n  {}", case.command_line()));
    assert!(
        checked.termination_delay > 1_000 * 38,
        "the responses arrive one after another: {}",
        checked.termination_delay
    );
}

/// A run stopped at a unit limit while poll-and-shuffle's permutation by messages is under
/// way (slow links hold the numbering back): the pieces waiting for their placement are kept
/// with the stopped run's pieces, termination completes, and the resumed run gives the
/// sequential answer. Both cases once hung: the waiting pieces were never finished.
#[test]
fn a_stop_during_a_permutation_by_messages_keeps_the_waiting_pieces() {
    use treesplit_lab::dst_systems::SystemCase;
    for seed in [2324, 14304] {
        let case = SystemCase::random(seed, 512);
        assert!(case.describe().contains("--permutation messages"));
        case.check()
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n  {}", case.describe()));
    }
}

/// Response-tree termination with message length charged: a response carries the results of
/// its record, so on an adaptive integration it is longer than the few dozen bytes of a
/// counter message, and a chain of h responses ping-ponging between two PEs takes longer
/// than a bound built on 64-byte messages (a case from seed 900000: 5 PEs, h = 96). The bound
/// charges the largest termination message the run sent.
#[test]
fn the_termination_bound_charges_responses_their_length() {
    use treesplit_lab::dst_systems::SystemCase;
    let case = SystemCase::random(912834, 2048);
    let described = case.describe();
    assert!(
        described.contains("--termination response-tree"),
        "{described}"
    );
    assert!(described.contains("--byte-time"), "{described}");
    case.check()
        .unwrap_or_else(|e| panic!("{e}\n  {described}"));
}

/// DST draws link contention (paper 002 §6.1) where a message length is charged, with both
/// routings, and the cases it draws it in pass: the first 20 of the range 9,100,000… that
/// `treesplit dst --seed 9100000 --cases 20000` runs whole.
#[test]
fn dst_draws_link_contention() {
    use treesplit::machine::sim::Routing;
    let with: Vec<Case> = (9_100_000u64..9_120_000)
        .map(|seed| Case::random(seed, 512))
        .filter(|c| c.sim.length.is_some_and(|l| l.contention))
        .collect();
    let cut = with
        .iter()
        .filter(|c| {
            c.sim
                .length
                .is_some_and(|l| l.routing == Routing::CutThrough)
        })
        .count();
    assert!(with.len() >= 500, "{} cases with contention", with.len());
    assert!(cut > 0 && cut < with.len(), "both routings drawn");
    for case in with.iter().take(20) {
        assert!(case.command_line().contains("--contention"));
        if let Err(e) = case.check() {
            panic!("{e}\n  replay: {}", case.command_line());
        }
    }
}
