//! Which flags apply to which runs, in one place: the balancer flags with the option each
//! sets, plus the rules of the other flags. A flag the user gave that the run would ignore is
//! bad input (exit code 2) with a message naming the flag and why. Which balancers take an
//! option is the library's knowledge (`treesplit::BalancerKind::takes`, read off the typed
//! `treesplit::Balancer`); this table adds only what is the command line's: the flag's id and
//! the sentence that explains it. Flags are named as clap defines them
//! (`flags::BalancerOpts`, `flags::SimOpts`): the table holds only ids and rules.

use crate::flags::{BalancerOpts, Given, InstanceSeed, SeedFlag, SimOpts};
use crate::output::Failure;
use clap::Args;
use std::sync::OnceLock;
use treesplit::config::BalancerOption;
use treesplit::BalancerKind;

/// A flag that sets an option only some balancers take.
pub struct BalancerFlag {
    /// clap's id of the flag (the field name in `flags::BalancerOpts` or `flags::SimMachine`;
    /// the flag as typed comes from clap's definition, [`flag`]).
    pub id: &'static str,
    /// The library's option it sets (or tunes): the balancers that take it read the flag.
    pub option: BalancerOption,
    /// Why only those balancers read it.
    pub why: &'static str,
}

const STATIC_WHY: &str = "only the static balancers (random-static, master-worker, prefix-sum, block, round-robin, random) cut the root into a bag of jobs";

/// The balancer flags that only some balancers read, in the order they are judged. (`--balancer`,
/// `--delta-t`, `--seed` and `--termination` apply to every balancer.)
pub const BALANCER_FLAGS: &[BalancerFlag] = &[
    BalancerFlag {
        id: "trim",
        option: BalancerOption::Polling,
        why: "only the polling balancers serve requests (use it with --balancer random-polling, neighbour-polling, global-round-robin, random-shift or poll-and-shuffle)",
    },
    BalancerFlag {
        id: "fast_init",
        option: BalancerOption::Polling,
        why: "only the polling balancers split the broadcast root locally; the static balancers cut the root into jobs anyway",
    },
    BalancerFlag {
        id: "round",
        option: BalancerOption::Round,
        why: "only random-shift and poll-and-shuffle work in rounds",
    },
    BalancerFlag {
        id: "neighbourhood",
        option: BalancerOption::Neighbourhood,
        why: "only neighbour-polling asks neighbours",
    },
    BalancerFlag {
        id: "permutation",
        option: BalancerOption::Permutation,
        why: "only poll-and-shuffle permutes subproblems (random-static's permutation is --static-permutation)",
    },
    BalancerFlag {
        id: "adaptive",
        option: BalancerOption::Adaptive,
        why: "only poll-and-shuffle triggers permutations",
    },
    BalancerFlag {
        id: "sync",
        option: BalancerOption::Sync,
        why: "only poll-and-shuffle has phases to synchronize",
    },
    BalancerFlag {
        id: "adaptive_c",
        option: BalancerOption::Adaptive,
        why: "it tunes adaptive poll-and-shuffle",
    },
    BalancerFlag {
        id: "adaptive_gamma",
        option: BalancerOption::Adaptive,
        why: "it tunes adaptive poll-and-shuffle",
    },
    BalancerFlag {
        id: "h",
        option: BalancerOption::Jobs,
        why: STATIC_WHY,
    },
    BalancerFlag {
        id: "jobs_per_pe",
        option: BalancerOption::Jobs,
        why: STATIC_WHY,
    },
    BalancerFlag {
        id: "h_from_alpha",
        option: BalancerOption::Jobs,
        why: STATIC_WHY,
    },
    BalancerFlag {
        id: "embedding",
        option: BalancerOption::Embedding,
        why: "only poll-and-shuffle lays a hypercube onto the network",
    },
    // The phase that the embedding asks of the network.
    BalancerFlag {
        id: "phase_c",
        option: BalancerOption::Embedding,
        why: "only poll-and-shuffle derives its phase length from the network",
    },
    BalancerFlag {
        id: "static_permutation",
        option: BalancerOption::StaticPermutation,
        why: "only random-static places jobs by a permutation",
    },
    BalancerFlag {
        id: "bundle",
        option: BalancerOption::Bundle,
        why: "only master-worker deals out bundles of jobs",
    },
    BalancerFlag {
        id: "atomic_jobs",
        option: BalancerOption::Splittable,
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
    for o in BALANCER_FLAGS {
        if !given.has(o.id) || balancers.iter().any(|&b| b.takes(o.option)) {
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

/// The seed a random instance is drawn from: `--instance-seed`, else `--seed`; the flag is
/// bad input for an instance that draws nothing.
pub fn instance_seed(
    app: &super::App,
    given: &Given,
    instance: InstanceSeed,
    seed: SeedFlag,
) -> Result<Option<u64>, Failure> {
    if given.has("instance_seed") && !app.draws_instance() {
        return Err(Failure::input(format!(
            "--instance-seed seeds a random instance (maxclique --random N,P, hashtable --keys N, dag --random N); this {} instance draws nothing",
            app.name()
        )));
    }
    Ok(instance.or(seed))
}
