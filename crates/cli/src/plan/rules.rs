//! Which flags apply to which runs, in one place: the table of balancer options and the
//! balancers that read them (from `crates/treesplit/src/protocol`: `trim` and `fast_init` are
//! read by `protocol/polling/` only, the round by its round-based rules, …), plus the rules of
//! the other flags. A flag the user gave that the run would ignore is bad input (exit code 2)
//! with a message naming the flag and why. The library's configuration is typed per balancer
//! (`treesplit::Balancer` carries exactly its options), so the plan builds that value from
//! the flags; this table is what turns a flag the chosen balancer has no place for into a
//! clear error instead of silently dropping it.

use crate::flags::Given;
use crate::output::Failure;
use treesplit::BalancerKind;

/// A balancer option and the balancers that read it.
pub struct BalancerOption {
    /// clap's id of the flag (the field name in `flags::BalancerOpts`).
    pub id: &'static str,
    /// The flag as typed.
    pub flag: &'static str,
    /// The balancers that read it.
    pub applies: fn(BalancerKind) -> bool,
    /// Why it applies only there.
    pub why: &'static str,
}

fn polling(b: BalancerKind) -> bool {
    !b.is_static()
}

fn round_based(b: BalancerKind) -> bool {
    matches!(b, BalancerKind::RandomShift | BalancerKind::PollAndShuffle)
}

fn poll_and_shuffle(b: BalancerKind) -> bool {
    b == BalancerKind::PollAndShuffle
}

fn neighbour_polling(b: BalancerKind) -> bool {
    b == BalancerKind::NeighbourPolling
}

fn is_static(b: BalancerKind) -> bool {
    b.is_static()
}

fn random_static(b: BalancerKind) -> bool {
    b == BalancerKind::RandomStatic
}

fn master_worker(b: BalancerKind) -> bool {
    b == BalancerKind::MasterWorker
}

fn prefix_sum(b: BalancerKind) -> bool {
    b == BalancerKind::PrefixSum
}

/// The balancer options that only some balancers read. (`--balancer`, `--delta-t`, `--seed`
/// and `--termination` apply to every balancer.)
pub const BALANCER_OPTIONS: &[BalancerOption] = &[
    BalancerOption {
        id: "trim",
        flag: "--trim",
        applies: polling,
        why: "only the polling balancers serve requests (use it with --balancer random-polling, neighbour-polling, global-round-robin, random-shift or poll-and-shuffle)",
    },
    BalancerOption {
        id: "fast_init",
        flag: "--fast-init",
        applies: polling,
        why: "only the polling balancers split the broadcast root locally; the static balancers cut the root into jobs anyway",
    },
    BalancerOption {
        id: "round",
        flag: "--round",
        applies: round_based,
        why: "only random-shift and poll-and-shuffle work in rounds",
    },
    BalancerOption {
        id: "neighbourhood",
        flag: "--neighbourhood",
        applies: neighbour_polling,
        why: "only neighbour-polling asks neighbours",
    },
    BalancerOption {
        id: "permutation",
        flag: "--permutation",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle permutes subproblems (random-static's permutation is --static-permutation)",
    },
    BalancerOption {
        id: "adaptive",
        flag: "--adaptive",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle triggers permutations",
    },
    BalancerOption {
        id: "sync",
        flag: "--sync",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle has phases to synchronize",
    },
    BalancerOption {
        id: "adaptive_c",
        flag: "--adaptive-c",
        applies: poll_and_shuffle,
        why: "it tunes adaptive poll-and-shuffle",
    },
    BalancerOption {
        id: "adaptive_gamma",
        flag: "--adaptive-gamma",
        applies: poll_and_shuffle,
        why: "it tunes adaptive poll-and-shuffle",
    },
    BalancerOption {
        id: "h",
        flag: "--h",
        applies: is_static,
        why: "only the static balancers (random-static, master-worker, prefix-sum, block, round-robin, random) cut the root into a bag of jobs",
    },
    BalancerOption {
        id: "jobs_per_pe",
        flag: "--q",
        applies: is_static,
        why: "only the static balancers (random-static, master-worker, prefix-sum, block, round-robin, random) cut the root into a bag of jobs",
    },
    BalancerOption {
        id: "h_from_alpha",
        flag: "--h-from-alpha",
        applies: is_static,
        why: "only the static balancers (random-static, master-worker, prefix-sum, block, round-robin, random) cut the root into a bag of jobs",
    },
    BalancerOption {
        id: "embedding",
        flag: "--embedding",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle lays a hypercube onto the network",
    },
    BalancerOption {
        id: "phase_c",
        flag: "--phase-c",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle derives its phase length from the network",
    },
    BalancerOption {
        id: "static_permutation",
        flag: "--static-permutation",
        applies: random_static,
        why: "only random-static places jobs by a permutation",
    },
    BalancerOption {
        id: "bundle",
        flag: "--bundle",
        applies: master_worker,
        why: "only master-worker deals out bundles of jobs",
    },
    BalancerOption {
        id: "atomic_jobs",
        flag: "--atomic-jobs",
        applies: prefix_sum,
        why: "only prefix-sum cuts jobs between PEs",
    },
];

/// Every option of `flags::BalancerOpts` (id, flag): what a run without a balancer rejects.
pub const ALL_BALANCER_FLAGS: &[(&str, &str)] = &[
    ("balancer", "--balancer"),
    ("delta_t", "--delta-t"),
    ("seed", "--seed"),
    ("termination", "--termination"),
    ("round", "--round"),
    ("trim", "--trim"),
    ("fast_init", "--fast-init"),
    ("neighbourhood", "--neighbourhood"),
    ("permutation", "--permutation"),
    ("adaptive", "--adaptive"),
    ("sync", "--sync"),
    ("adaptive_c", "--adaptive-c"),
    ("adaptive_gamma", "--adaptive-gamma"),
    ("h", "--h"),
    ("jobs_per_pe", "--q"),
    ("h_from_alpha", "--h-from-alpha"),
    ("static_permutation", "--static-permutation"),
    ("bundle", "--bundle"),
    ("atomic_jobs", "--atomic-jobs"),
];

/// Reject the balancer options given that none of `balancers` reads.
pub fn check_balancer_options(given: &Given, balancers: &[BalancerKind]) -> Result<(), Failure> {
    for o in BALANCER_OPTIONS {
        if !given.has(o.id) || balancers.iter().any(|&b| (o.applies)(b)) {
            continue;
        }
        return Err(Failure::input(match balancers {
            [b] if !given.has("balancers") => {
                format!("{} does not apply to --balancer {b}: {}", o.flag, o.why)
            }
            [b] => format!("{} does not apply to {b} (--balancers): {}", o.flag, o.why),
            _ => format!(
                "{} applies to none of the balancers compared ({}): {}",
                o.flag,
                balancers
                    .iter()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(", "),
                o.why
            ),
        }));
    }
    for (id, flag) in [
        ("adaptive_c", "--adaptive-c"),
        ("adaptive_gamma", "--adaptive-gamma"),
    ] {
        if given.has(id) && !given.has("adaptive") {
            return Err(Failure::input(format!(
                "{flag} applies only with --adaptive (it tunes adaptive poll-and-shuffle)"
            )));
        }
    }
    Ok(())
}

/// The run limits and the contract check (`flags::LimitFlags`).
pub const LIMIT_FLAGS: &[(&str, &str)] = &[
    ("max_units", "--max-units"),
    ("time_limit", "--time-limit"),
    ("check", "--check"),
];

/// Reject any of `flags` (id, flag) given, saying `why`.
pub fn reject(given: &Given, flags: &[(&str, &str)], why: &str) -> Result<(), Failure> {
    match flags.iter().find(|(id, _)| given.has(id)) {
        Some((_, flag)) => Err(Failure::input(format!("{flag} {why}"))),
        None => Ok(()),
    }
}
