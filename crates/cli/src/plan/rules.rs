//! Which flags apply to which runs, in one place: the table of balancer options and the
//! balancers that read them (from `crates/treesplit/src/protocol`: `trim` and `fast_init` are
//! read by `protocol/polling/` only, the round by its round-based rules, …), plus the rules of
//! the other flags. A flag the user gave that the run would ignore is bad input (exit code 2)
//! with a message naming the flag and why. The library's configuration is typed per balancer
//! (`treesplit::Balancer` carries exactly its options), so the plan builds that value from
//! the flags; this table is what turns a flag the chosen balancer has no place for into a
//! clear error instead of silently dropping it. Flags are named as clap defines them
//! (`flags::BalancerOpts`, `flags::SimOpts`): the table holds only ids and rules.

use crate::flags::{BalancerOpts, Given, SimOpts};
use crate::output::Failure;
use clap::Args;
use std::sync::OnceLock;
use treesplit::BalancerKind;

/// A balancer option and the balancers that read it.
pub struct BalancerOption {
    /// clap's id of the flag (the field name in `flags::BalancerOpts`; the flag as typed comes
    /// from clap's definition, [`flag`]).
    pub id: &'static str,
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
        applies: polling,
        why: "only the polling balancers serve requests (use it with --balancer random-polling, neighbour-polling, global-round-robin, random-shift or poll-and-shuffle)",
    },
    BalancerOption {
        id: "fast_init",
        applies: polling,
        why: "only the polling balancers split the broadcast root locally; the static balancers cut the root into jobs anyway",
    },
    BalancerOption {
        id: "round",
        applies: round_based,
        why: "only random-shift and poll-and-shuffle work in rounds",
    },
    BalancerOption {
        id: "neighbourhood",
        applies: neighbour_polling,
        why: "only neighbour-polling asks neighbours",
    },
    BalancerOption {
        id: "permutation",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle permutes subproblems (random-static's permutation is --static-permutation)",
    },
    BalancerOption {
        id: "adaptive",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle triggers permutations",
    },
    BalancerOption {
        id: "sync",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle has phases to synchronize",
    },
    BalancerOption {
        id: "adaptive_c",
        applies: poll_and_shuffle,
        why: "it tunes adaptive poll-and-shuffle",
    },
    BalancerOption {
        id: "adaptive_gamma",
        applies: poll_and_shuffle,
        why: "it tunes adaptive poll-and-shuffle",
    },
    BalancerOption {
        id: "h",
        applies: is_static,
        why: "only the static balancers (random-static, master-worker, prefix-sum, block, round-robin, random) cut the root into a bag of jobs",
    },
    BalancerOption {
        id: "jobs_per_pe",
        applies: is_static,
        why: "only the static balancers (random-static, master-worker, prefix-sum, block, round-robin, random) cut the root into a bag of jobs",
    },
    BalancerOption {
        id: "h_from_alpha",
        applies: is_static,
        why: "only the static balancers (random-static, master-worker, prefix-sum, block, round-robin, random) cut the root into a bag of jobs",
    },
    BalancerOption {
        id: "embedding",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle lays a hypercube onto the network",
    },
    BalancerOption {
        id: "phase_c",
        applies: poll_and_shuffle,
        why: "only poll-and-shuffle derives its phase length from the network",
    },
    BalancerOption {
        id: "static_permutation",
        applies: random_static,
        why: "only random-static places jobs by a permutation",
    },
    BalancerOption {
        id: "bundle",
        applies: master_worker,
        why: "only master-worker deals out bundles of jobs",
    },
    BalancerOption {
        id: "atomic_jobs",
        applies: prefix_sum,
        why: "only prefix-sum cuts jobs between PEs",
    },
];

/// The flags of a clap `Args` as (clap id, flag as typed), from its definition.
fn flags_of<A: Args>() -> Vec<(&'static str, &'static str)> {
    let command = A::augment_args(clap::Command::new("flags"));
    command
        .get_arguments()
        .filter_map(|a| {
            let long = a.get_long()?;
            let id: &'static str = String::leak(a.get_id().as_str().to_string());
            Some((id, &*String::leak(format!("--{long}"))))
        })
        .collect()
}

/// Every option of `flags::BalancerOpts` (id, flag): with `--balancer`, what a run without a
/// balancer rejects.
pub fn all_balancer_flags() -> &'static [(&'static str, &'static str)] {
    static FLAGS: OnceLock<Vec<(&str, &str)>> = OnceLock::new();
    FLAGS.get_or_init(flags_of::<BalancerOpts>)
}

/// The flag as typed of a simulator or balancer option's clap id.
pub fn flag(id: &str) -> &'static str {
    static FLAGS: OnceLock<Vec<(&str, &str)>> = OnceLock::new();
    FLAGS
        .get_or_init(flags_of::<SimOpts>)
        .iter()
        .find(|(i, _)| *i == id)
        .map_or("?", |(_, f)| *f)
}

/// Reject the balancer options given that none of `balancers` reads.
pub fn check_balancer_options(given: &Given, balancers: &[BalancerKind]) -> Result<(), Failure> {
    for o in BALANCER_OPTIONS {
        if !given.has(o.id) || balancers.iter().any(|&b| (o.applies)(b)) {
            continue;
        }
        return Err(Failure::input(match balancers {
            [b] if !given.has("balancers") => {
                format!("{} does not apply to --balancer {b}: {}", flag(o.id), o.why)
            }
            [b] => format!(
                "{} does not apply to {b} (--balancers): {}",
                flag(o.id),
                o.why
            ),
            _ => format!(
                "{} applies to none of the balancers compared ({}): {}",
                flag(o.id),
                balancers
                    .iter()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(", "),
                o.why
            ),
        }));
    }
    for id in ["adaptive_c", "adaptive_gamma"] {
        if given.has(id) && !given.has("adaptive") {
            return Err(Failure::input(format!(
                "{} applies only with --adaptive (it tunes adaptive poll-and-shuffle)",
                flag(id)
            )));
        }
    }
    Ok(())
}

/// The run limits and the contract check (`flags::LimitFlags`), as the applications refuse
/// them too.
pub use treesplit_apps::app::LIMIT_FLAGS;

/// Reject any of `flags` (id, flag) given, saying `why`.
pub fn reject(given: &Given, flags: &[(&str, &str)], why: &str) -> Result<(), Failure> {
    match flags.iter().find(|(id, _)| given.has(id)) {
        Some((_, flag)) => Err(Failure::input(format!("{flag} {why}"))),
        None => Ok(()),
    }
}
