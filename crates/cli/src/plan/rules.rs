//! Which flags apply to which runs, in one place: the balancer flags with the option each
//! sets, plus the rules of the other flags. A flag the user gave that the run would ignore is
//! bad input (exit code 2) with a message naming the flag and why. Which balancers take an
//! option is the library's knowledge (`treesplit::BalancerKind::takes`, read off its balancer
//! table); this table adds only what is the command line's: the flag's id and the sentence
//! that explains it, in which the balancers that take the option are named from the library
//! ([`BalancerFlag::why`]), so a new balancer needs no change here. Flags are named as clap
//! defines them (`flags::BalancerOpts`, `flags::SimOpts`): the table holds only ids and rules.

use crate::flags::{BalancerOpts, Given, InstanceSeed, SeedFlag, SimOpts};
use crate::output::Failure;
use clap::Args;
use std::sync::OnceLock;
use treesplit::config::BalancerOption;
use treesplit::words::list;
use treesplit::BalancerKind;
use treesplit_apps::app::RunOption;

/// A flag that sets an option only some balancers take.
pub struct BalancerFlag {
    /// clap's id of the flag (the field name in `flags::BalancerOpts` or `flags::SimFlags`;
    /// the flag as typed comes from clap's definition, [`flag`]).
    pub id: &'static str,
    /// The library's option it sets (or tunes): the balancers that take it read the flag.
    pub option: BalancerOption,
    /// Why only those balancers read it, with the balancers named by placeholders
    /// ([`BalancerFlag::why`]).
    pub why: &'static str,
}

impl BalancerFlag {
    /// Why only some balancers read the flag, in words: in [`BalancerFlag::why`],
    /// `{takers}` stands for the balancers that take its option ("a and b"), `{takers-or}`
    /// for them as a choice ("a, b or c") and `{takers-list}` as a list ("a, b, c"), in the
    /// library's order; `{s}`, `{has}` and `{its}` agree with their number ("works", "has",
    /// "its" for one balancer, "work", "have", "their" for more).
    pub fn why(&self) -> String {
        let takers: Vec<&str> = BalancerKind::ALL
            .iter()
            .filter(|k| k.takes(self.option))
            .map(|k| k.name())
            .collect();
        let one = takers.len() == 1;
        self.why
            .replace("{takers}", &list(&takers, "and"))
            .replace("{takers-or}", &list(&takers, "or"))
            .replace("{takers-list}", &takers.join(", "))
            .replace("{s}", if one { "s" } else { "" })
            .replace("{has}", if one { "has" } else { "have" })
            .replace("{its}", if one { "its" } else { "their" })
    }
}

const STATIC_WHY: &str =
    "only the static balancers ({takers-list}) cut the root into a bag of jobs";

/// The balancer flags that only some balancers read, in the order they are judged. (`--balancer`,
/// `--delta-t`, `--seed` and `--termination` apply to every balancer.)
pub const BALANCER_FLAGS: &[BalancerFlag] = &[
    BalancerFlag {
        id: "trim",
        option: BalancerOption::Polling,
        why: "only the polling balancers serve requests (use it with --balancer {takers-or})",
    },
    BalancerFlag {
        id: "fast_init",
        option: BalancerOption::Polling,
        why: "only the polling balancers split the broadcast root locally; the static balancers cut the root into jobs anyway",
    },
    BalancerFlag {
        id: "permuted_init",
        option: BalancerOption::Polling,
        why: "only the polling balancers start dynamic balancing from a placement; the static balancers place their jobs themselves (random-static: --static-permutation)",
    },
    BalancerFlag {
        id: "round",
        option: BalancerOption::Round,
        why: "only {takers} work{s} in rounds",
    },
    BalancerFlag {
        id: "neighbourhood",
        option: BalancerOption::Neighbourhood,
        why: "only {takers} ask{s} neighbours",
    },
    BalancerFlag {
        id: "permutation",
        option: BalancerOption::Permutation,
        why: "only {takers} permute{s} subproblems (random-static's permutation is --static-permutation)",
    },
    BalancerFlag {
        id: "adaptive",
        option: BalancerOption::Adaptive,
        why: "only {takers} trigger{s} permutations",
    },
    BalancerFlag {
        id: "sync",
        option: BalancerOption::Sync,
        why: "only {takers} {has} phases to synchronize",
    },
    BalancerFlag {
        id: "adaptive_c",
        option: BalancerOption::Adaptive,
        why: "it tunes adaptive {takers}",
    },
    BalancerFlag {
        id: "adaptive_gamma",
        option: BalancerOption::Adaptive,
        why: "it tunes adaptive {takers}",
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
        why: "only {takers} lay{s} a hypercube onto the network",
    },
    // The phase that the embedding asks of the network.
    BalancerFlag {
        id: "phase_c",
        option: BalancerOption::Embedding,
        why: "only {takers} derive{s} {its} phase length from the network",
    },
    BalancerFlag {
        id: "static_permutation",
        option: BalancerOption::StaticPermutation,
        why: "only {takers} place{s} jobs by a permutation",
    },
    BalancerFlag {
        id: "bundle",
        option: BalancerOption::Bundle,
        why: "only {takers} deal{s} out bundles of jobs",
    },
    BalancerFlag {
        id: "atomic_jobs",
        option: BalancerOption::Splittable,
        why: "only {takers} cut{s} jobs between PEs",
    },
    BalancerFlag {
        id: "deal_order",
        option: BalancerOption::Order,
        why: "only {takers} deal{s} out jobs from a master",
    },
    BalancerFlag {
        id: "fanout",
        option: BalancerOption::Fanout,
        why: "only {takers} deal{s} through submasters",
    },
    BalancerFlag {
        id: "poll_within",
        option: BalancerOption::Locality,
        why: "only {takers} draw{s} a random victim to poll locally",
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
                format!(
                    "{} does not apply to --balancer {b}: {}",
                    flag(o.id),
                    o.why()
                )
            }
            [b] => format!(
                "{} does not apply to {b} (--balancers): {}",
                flag(o.id),
                o.why()
            ),
            _ => format!(
                "{} applies to none of the balancers compared ({}): {}",
                flag(o.id),
                balancers
                    .iter()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(", "),
                o.why()
            ),
        }));
    }
    for o in BALANCER_FLAGS
        .iter()
        .filter(|o| o.id.starts_with("adaptive_"))
    {
        if given.has(o.id) && !given.has("adaptive") {
            return Err(Failure::input(format!(
                "{} applies only with --adaptive ({})",
                flag(o.id),
                o.why()
            )));
        }
    }
    Ok(())
}

/// A run option's flag (clap id, as typed): the command line's name of what an instance
/// refuses or takes as its own.
pub fn option_flag(option: RunOption) -> (&'static str, &'static str) {
    match option {
        RunOption::Baseline => ("baseline", "--baseline"),
        RunOption::Trace => ("trace", "--trace"),
        RunOption::Gantt => ("gantt", "--gantt"),
        RunOption::MaxUnits => ("max_units", "--max-units"),
        RunOption::TimeLimit => ("time_limit", "--time-limit"),
        RunOption::Check => ("check", "--check"),
        RunOption::Checkpoint => ("checkpoint", "--checkpoint"),
        RunOption::CheckpointEvery => ("checkpoint_every", "--checkpoint-every"),
        RunOption::JobsPerPe => ("jobs_per_pe", "--q"),
        RunOption::Seed => ("seed", "--seed"),
    }
}

/// The flags of `options`, in their order.
pub fn option_flags(options: &[RunOption]) -> Vec<(&'static str, &'static str)> {
    options.iter().map(|&o| option_flag(o)).collect()
}

/// The machine's flags (id, flag as typed).
pub const MACHINE_FLAGS: &[(&str, &str)] = &[("pes", "--pes"), ("machine", "--machine")];

/// What a run without a machine or balancer (`run --sequential`) refuses, in the order they
/// are judged: the balancer and its flags (the seed among them, after `--delta-t`: it seeds
/// the balancer), the run's limits, the machine's flags, then every other run option; less
/// the options the instance takes as its own (the hash table's `--q`, a drawn instance's
/// `--seed`), which apply to it alone too.
pub fn sequential_flags(takes: impl Fn(RunOption) -> bool) -> Vec<(&'static str, &'static str)> {
    let mut flags = vec![("balancer", "--balancer")];
    flags.extend(all_balancer_flags());
    let at = flags
        .iter()
        .position(|(id, _)| *id == "delta_t")
        .map_or(0, |i| i + 1);
    flags.insert(at, option_flag(RunOption::Seed));
    flags.extend(option_flags(RunOption::LIMITS));
    flags.extend(MACHINE_FLAGS);
    for &option in RunOption::ALL {
        if !flags.contains(&option_flag(option)) {
            flags.push(option_flag(option));
        }
    }
    let own: Vec<_> = RunOption::ALL
        .iter()
        .filter(|&&o| takes(o))
        .map(|&o| option_flag(o))
        .collect();
    flags.retain(|f| !own.contains(f));
    flags
}

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
