//! Unit tests of planning: command lines → plans or bad-input errors, in a fixed environment
//! (no process environment, no files: the instances here are generated in memory).

use super::{plan_in, rules, Env, MachinePlan, Plan};
use crate::flags;
use crate::output::Failure;
use treesplit::{Balancer, BalancerKind};

/// Plan `line` (the words after `treesplit`) in `env`.
fn plan_with(line: &str, env: &Env) -> Result<Plan, Failure> {
    let words = std::iter::once("treesplit").chain(line.split_whitespace());
    let (cli, given) = flags::parse_from(words).expect("a command line clap accepts");
    plan_in(cli, &given, env)
}

/// Plan `line` on a machine of 4 cores.
fn plan(line: &str) -> Result<Plan, Failure> {
    plan_with(line, &Env::fixed(4))
}

/// The bad-input message planning gives for `line`.
fn refused(line: &str) -> String {
    match plan(line) {
        Ok(_) => panic!("`{line}` was planned"),
        Err(f) => {
            assert_eq!(f.code, crate::output::BAD_INPUT, "{line}: {}", f.message);
            f.message
        }
    }
}

/// The error clap gives for `line`, which it refuses before any planning.
fn unparsed(line: &str) -> String {
    let words = std::iter::once("treesplit").chain(line.split_whitespace());
    match flags::parse_from(words) {
        Ok(_) => panic!("clap accepted `{line}`"),
        Err(e) => e.to_string(),
    }
}

fn run_plan(line: &str) -> super::RunPlan {
    match plan(line) {
        Ok(Plan::Run(p)) => p,
        Ok(_) => panic!("`{line}` is not a run"),
        Err(f) => panic!("`{line}`: {}", f.message),
    }
}

#[test]
fn threads_default_to_the_cores_and_take_the_apps_delta_t() {
    let p = run_plan("run nqueens 8");
    assert!(matches!(p.machine, MachinePlan::Threads { pes: 4, .. }));
    let config = p.balance.config(4).unwrap();
    assert_eq!(config.delta_t, p.app.default_delta_t());
    assert_eq!(p.app.describe(), "nqueens 8");
}

#[test]
fn oversubscribed_threads_are_a_note_unless_quiet() {
    let env = Env::fixed(2);
    plan_with("run nqueens 6 --pes 9", &env).ok().unwrap();
    let notes = env.notes.take();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("9 threads on 2 cores"), "{notes:?}");
    plan_with("run nqueens 6 --pes 9 --quiet", &env)
        .ok()
        .unwrap();
    assert!(env.notes.take().is_empty());
}

#[test]
fn fault_injection_is_refused_outside_run() {
    let env = Env {
        fault: Some("panic:0:1".into()),
        ..Env::fixed(4)
    };
    let err = plan_with("sim nqueens 6", &env).err().unwrap();
    assert!(err.message.starts_with("TREESPLIT_FAULT=panic:0:1 is set"));
    assert!(err
        .message
        .contains("not to `treesplit sim` (the simulator)"));
    assert!(plan_with("run nqueens 6", &env).is_ok());
}

#[test]
fn a_launcher_job_needs_the_mpi_machine() {
    let env = Env {
        launcher_size: 3,
        ..Env::fixed(4)
    };
    let err = plan_with("run nqueens 6", &env).err().unwrap();
    assert!(err.message.contains("one of 3 started by an MPI launcher"));
}

#[test]
fn balancer_options_apply_only_to_balancers_that_read_them() {
    assert_eq!(
        refused("run nqueens 6 --balancer random-static --trim 2"),
        "--trim does not apply to --balancer random-static: only the polling balancers serve requests (use it with --balancer random-polling, neighbour-polling, global-round-robin, random-shift or poll-and-shuffle)"
    );
    assert!(refused("sim nqueens 6 --bundle fixed:2")
        .starts_with("--bundle does not apply to --balancer random-polling"));
    assert!(plan("run nqueens 6 --balancer master-worker --bundle fixed:2").is_ok());
    assert_eq!(
        refused("compare nqueens 6 --balancers block,block"),
        "--balancers names block twice (each balancer runs once)"
    );
}

#[test]
fn applications_refuse_what_they_cannot_do() {
    assert!(refused("sim bfs --rmat 4 --trace t.json").starts_with("--trace does not apply to bfs"));
    assert!(refused("run bfs --rmat 4 --pes 2 --max-units 5")
        .starts_with("--max-units does not apply to bfs"));
    assert!(refused("run puzzle15 --korf 1 --pes 2 --checkpoint c")
        .starts_with("--checkpoint does not apply to puzzle15"));
    // Subcommands list only the applications they can run.
    assert!(unparsed("compare bfs --rmat 4").contains("'bfs'"));
    assert!(unparsed("bench hashtable --keys 10").contains("'hashtable'"));
    assert!(unparsed("bench dag --multiply 1").contains("'dag'"));
    assert!(unparsed("compare dag --multiply 1").contains("'dag'"));
    assert!(refused("bench golomb 5 --rayon-depth 2").starts_with("--rayon-depth applies only to"));
    assert!(refused("run dag --multiply 1 --balancer random-polling")
        .contains("balances tree-shaped computations"));
}

#[test]
fn the_hash_table_takes_q_as_its_own_and_adapts_to_p() {
    let p = run_plan("sim hashtable --keys 1000 --q 4 --pes 8");
    assert!(
        p.app.describe().contains("m = P·q = 32 buckets"),
        "{}",
        p.app.describe()
    );
    assert!(refused("sim hashtable --keys 1000 --pes 8").contains("hashtable needs --q Q"));
    // Elsewhere --q is a static balancer's jobs per PE.
    assert!(refused("sim nqueens 6 --q 4")
        .starts_with("--q does not apply to --balancer random-polling"));
}

#[test]
fn the_simulator_spins_synthetic_units_once_unless_asked() {
    let p = run_plan("sim synthetic --work 1000");
    assert!(
        p.app.describe().contains("--spin 1 "),
        "{}",
        p.app.describe()
    );
    let p = run_plan("sim synthetic --work 1000 --spin 3");
    assert!(
        p.app.describe().contains("--spin 3 "),
        "{}",
        p.app.describe()
    );
    let p = run_plan("run synthetic --work 1000");
    assert!(
        p.app.describe().contains("--spin 16 "),
        "{}",
        p.app.describe()
    );
}

#[test]
fn sequential_runs_take_no_machine_flags() {
    let p = run_plan("run nqueens 6 --sequential");
    assert!(matches!(p.machine, MachinePlan::Sequential));
    assert!(refused("run nqueens 6 --sequential --pes 2")
        .starts_with("--pes does not apply with --sequential"));
    // The hash table's --q and --seed are its own, even sequentially.
    assert!(plan("run hashtable --keys 100 --q 2 --seed 3 --sequential").is_ok());
}

#[test]
fn pes_is_one_number_except_for_depth() {
    assert!(unparsed("sim nqueens 6 --pes 2,4").contains("--pes"));
    match plan("depth --pes 4,8 --work 1000") {
        Ok(Plan::Depth(d)) => assert_eq!(d.pes, vec![4, 8]),
        _ => panic!("depth was not planned"),
    }
    assert_eq!(
        refused("depth --pes 1"),
        "--pes needs a list of PE counts, each at least 2"
    );
}

#[test]
fn balancer_flags_come_from_the_clap_definitions() {
    use super::rules::{all_balancer_flags, flag, BALANCER_FLAGS};
    let all = all_balancer_flags();
    // The balancers' options; `--balancer` itself is apart (`compare` takes none).
    assert_eq!(all.len(), 21, "{all:?}");
    assert!(!all.contains(&("balancer", "--balancer")));
    for pair in [
        ("delta_t", "--delta-t"),
        ("jobs_per_pe", "--q"),
        ("h", "--h"),
        ("atomic_jobs", "--atomic-jobs"),
        ("deal_order", "--deal-order"),
        ("fanout", "--fanout"),
    ] {
        assert!(all.contains(&pair), "{pair:?} in {all:?}");
    }
    for o in BALANCER_FLAGS {
        assert!(flag(o.id).starts_with("--"), "{} has no flag", o.id);
    }
    assert_eq!(flag("phase_c"), "--phase-c");
    // Every balancer flag but those every balancer reads sets an option some balancers take,
    // and every such option of the library has a flag.
    for (id, _) in all {
        assert!(
            matches!(*id, "delta_t" | "termination") || BALANCER_FLAGS.iter().any(|o| o.id == *id),
            "--{id} is not in the table"
        );
    }
    for kind in BalancerKind::ALL {
        for option in kind.options() {
            assert!(
                BALANCER_FLAGS.iter().any(|o| o.option == option),
                "no flag sets {option:?} of {kind}"
            );
        }
    }
}

/// A value of each balancer flag other than what the simulator's defaults give, as typed.
fn sample(id: &str) -> &'static str {
    match id {
        "trim" => "--trim 2",
        "fast_init" => "--fast-init",
        "round" => "--round 30",
        "neighbourhood" => "--neighbourhood hypercube",
        "permutation" => "--permutation messages",
        "adaptive" => "--adaptive",
        "sync" => "--sync local",
        "adaptive_c" => "--adaptive --adaptive-c 2",
        "adaptive_gamma" => "--adaptive --adaptive-gamma 0.5",
        "h" => "--h 3",
        "jobs_per_pe" => "--q 2",
        "h_from_alpha" => "--h-from-alpha 0.3",
        "embedding" => "--embedding row-major",
        "phase_c" => "--phase-c 3",
        "static_permutation" => "--static-permutation lcg",
        "bundle" => "--bundle fixed:2",
        "atomic_jobs" => "--atomic-jobs",
        "deal_order" => "--deal-order largest-first",
        "fanout" => "--fanout 3",
        "permuted_init" => "--permuted-init gf2:5",
        "poll_within" => "--poll-within 4",
        _ => panic!("no sample value of {id}"),
    }
}

#[test]
fn a_balancer_flag_is_read_by_exactly_the_balancers_that_take_its_option() {
    use super::rules::BALANCER_FLAGS;
    for o in BALANCER_FLAGS {
        for kind in BalancerKind::ALL {
            let base = format!("sim nqueens 6 --pes 8 --balancer {kind}");
            let line = format!("{base} {}", sample(o.id));
            match plan(&line) {
                Ok(Plan::Run(p)) => {
                    assert!(kind.takes(o.option), "`{line}` was planned");
                    // The value reached the balancer.
                    let config = |p: &super::RunPlan| p.balance.config(8).unwrap().balancer;
                    assert_ne!(config(&p), config(&run_plan(&base)), "{line}");
                }
                Ok(_) => panic!("`{line}` is not a run"),
                Err(f) => {
                    assert!(!kind.takes(o.option), "{line}: {}", f.message);
                    assert!(
                        f.message.contains("does not apply"),
                        "{line}: {}",
                        f.message
                    );
                    // The sample of --adaptive-c and --adaptive-gamma gives --adaptive first.
                    let first = sample(o.id).split_whitespace().next().unwrap_or_default();
                    assert!(
                        f.message.starts_with(&format!("{first} does not apply")),
                        "{line}: {}",
                        f.message
                    );
                }
            }
        }
    }
}

#[test]
fn task_dags_take_no_tree_balancer_options() {
    for flag in [
        "--trim 2",
        "--h 3",
        "--embedding network",
        "--check",
        "--termination response-tree",
    ] {
        let line = format!("sim dag --multiply 1 --balancer work-stealing {flag}");
        let name = flag.split_whitespace().next().unwrap();
        assert!(
            refused(&line).starts_with(&format!("{name} does not apply to task DAGs")),
            "{line}"
        );
    }
    assert!(plan("sim dag --multiply 1 --balancer work-stealing --delta-t 5 --seed 2").is_ok());
    // The run limits apply to DAG runs as to tree runs.
    match plan("run dag --multiply 1 --balancer work-stealing --max-units 9 --time-limit 2s") {
        Ok(Plan::Dag(d)) => {
            let config = d.config(2).unwrap_or_else(|f| panic!("{}", f.message));
            assert_eq!(config.max_units, Some(9));
            assert_eq!(config.time_limit, Some(std::time::Duration::from_secs(2)));
        }
        _ => panic!("the DAG run was not planned"),
    }
}

#[test]
fn dst_needs_a_case() {
    assert!(refused("dst --cases 0").starts_with("--cases must be at least 1"));
    assert!(plan("dst --cases 1").is_ok());
}

#[test]
fn instances_larger_than_the_memory_are_refused_and_mpi_ranks_each_hold_one() {
    let available = super::memory::Available {
        bytes: 64 << 20,
        source: "a test's figure".to_string(),
    };
    let env = Env {
        memory: Some(available.clone()),
        ..Env::fixed(4)
    };
    // 2^20 keys take about 26 MiB here, 2^22 keys about 104 MiB.
    assert!(plan_with("run hashtable --keys 1048576 --q 4096 --pes 2", &env).is_ok());
    let err = plan_with("run hashtable --keys 4194304 --q 4096 --pes 2", &env)
        .err()
        .unwrap();
    assert!(
        err.message
            .starts_with("hashtable: the instance needs about 104 MiB")
            && err.message.contains("4194304 keys in m = 8192 buckets")
            && err
                .message
                .contains("the 64 MiB available (a test's figure)"),
        "{}",
        err.message
    );
    let err = plan_with("sim bfs --rmat 18", &env).err().unwrap();
    assert!(
        err.message.contains("262144 vertices and 4194304 edges"),
        "{}",
        err.message
    );
    assert!(plan_with("sim bfs --rmat 12", &env).is_ok());
    // Four MPI ranks on this host hold four copies.
    let mpi = Env {
        launcher_size: 4,
        ranks_here: 4,
        ..Env {
            memory: Some(available),
            ..Env::fixed(4)
        }
    };
    let err = plan_with("run hashtable --keys 1048576 --q 4096 --machine mpi", &mpi)
        .err()
        .unwrap();
    assert!(
        err.message
            .contains("4 processes on this host, each with its own copy"),
        "{}",
        err.message
    );
}

#[test]
fn pes_beyond_the_machines_limit_are_refused_naming_that_machines_limit() {
    for p in ["18446744073709551615", "1000000000", "100000000"] {
        let threads = format!("--pes {p} is more than the thread machine runs (4096");
        let supported = format!("--pes {p} is more than the supported 4194304");
        for (line, want) in [
            (format!("run nqueens 10 --pes {p}"), &threads),
            (format!("bench nqueens 10 --pes {p}"), &threads),
            (
                format!("run nqueens 10 --machine mpi --pes {p}"),
                &supported,
            ),
            (format!("sim nqueens 10 --pes {p}"), &supported),
            (format!("compare nqueens 10 --pes {p}"), &supported),
            (format!("depth --pes {p}"), &supported),
            (
                format!("run dag --random 100 --balancer work-stealing --pes {p}"),
                &threads,
            ),
            (
                format!("sim dag --random 100 --balancer work-stealing --pes {p}"),
                &supported,
            ),
        ] {
            let message = refused(&line);
            assert!(message.starts_with(want.as_str()), "{line}: {message}");
        }
    }
    assert!(refused("dst --max-pes 4194305").starts_with("--max-pes 4194305 is more than"));
    // A --max-h given still decides below the simulator's limit.
    assert!(refused("depth --pes 4096 --max-h 10").starts_with("--max-h 10 is below log₂ P"));
}

#[test]
fn threads_that_do_not_fit_under_an_address_space_limit_are_refused() {
    let env = Env {
        address_space: Some(1 << 30),
        ..Env::fixed(2)
    };
    assert!(plan_with("run nqueens 8 --pes 2", &env).is_ok());
    for line in [
        "run nqueens 8 --pes 1000",
        "bench nqueens 8 --pes 8",
        "run dag --random 100 --balancer work-stealing --pes 1000",
        "sim nqueens 8 --pes 64 --sim-threads 16",
    ] {
        let e = plan_with(line, &env).err().unwrap();
        assert!(
            e.message
                .contains("under the address-space limit (ulimit -v)"),
            "{line}: {}",
            e.message
        );
    }
}

/// A balancer's flags (`Balancer::flags`) parse back through the command line to the same
/// balancer, for every balancer with the options DST draws for it (60 seeds each): alone on
/// threads (`run`), and in DST's replay line (`sim`), which parses back to the case's whole
/// configuration and simulated machine.
#[test]
fn balancer_flags_and_dst_replay_lines_parse_back_to_the_same_run() {
    use treesplit_lab::dst::Case;
    let mut on_threads = 0;
    for &kind in BalancerKind::ALL {
        for seed in 0..60u64 {
            let case = Case::of(seed, 512, kind, None);
            let line = case.command_line();
            let p = run_plan(
                line.strip_prefix("treesplit ")
                    .expect("a treesplit command"),
            );
            let MachinePlan::Sim {
                pes,
                sim,
                empty_splits,
                ..
            } = &p.machine
            else {
                panic!("`{line}` is not a simulation")
            };
            assert_eq!(p.balance.config(*pes).unwrap(), case.config, "{line}");
            assert_eq!(*sim, case.sim, "{line}");
            assert_eq!(*empty_splits, case.empty_splits, "{line}");
            // On threads: every balancer but poll-and-shuffle with an embedding of the
            // simulator's (`--embedding` is a flag of `sim`).
            let balancer = case.config.balancer;
            if matches!(balancer, Balancer::PollAndShuffle { embedding, .. } if !embedding.is_network())
            {
                continue;
            }
            let run = format!("run nqueens 6 --pes 4 {}", balancer.flags().join(" "));
            let planned = run_plan(&run).balance.config(4).unwrap().balancer;
            assert_eq!(planned, balancer, "{run}");
            on_threads += 1;
        }
    }
    assert!(on_threads > BalancerKind::ALL.len() * 50, "{on_threads}");
    // Options at their defaults write nothing the command line assumes.
    assert_eq!(
        Balancer::new(BalancerKind::RandomPolling).flags(),
        ["--balancer", "random-polling"]
    );
}

/// A sequential run refuses every run option, the machine's flags and the balancer's, in a
/// fixed order (the seed after --delta-t), less the options the instance takes as its own.
#[test]
fn a_sequential_run_refuses_every_run_option_but_the_instances_own() {
    use treesplit_apps::app::RunOption;
    let all = rules::sequential_flags(|_| false);
    for &option in RunOption::ALL {
        assert!(all.contains(&rules::option_flag(option)), "{option:?}");
    }
    for flag in rules::MACHINE_FLAGS
        .iter()
        .chain(rules::all_balancer_flags())
    {
        assert!(all.contains(flag), "{flag:?}");
    }
    let at = |flag: &str| all.iter().position(|(_, f)| *f == flag).unwrap();
    assert_eq!(at("--seed"), at("--delta-t") + 1);
    assert!(at("--max-units") < at("--pes") && at("--pes") < at("--baseline"));
    let own = rules::sequential_flags(|o| o == RunOption::Seed || o == RunOption::JobsPerPe);
    assert_eq!(own.len(), all.len() - 2);
    assert!(!own.iter().any(|(_, f)| *f == "--seed" || *f == "--q"));
}
