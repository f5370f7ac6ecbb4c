//! Which flags apply to which runs, in one place: the table of balancer options and the
//! balancers that read them (from `crates/treesplit/src/protocol`: `trim` and `fast_init` are
//! read by `polling.rs` only, the round by its round-based rules, …), plus the rules of
//! the other flags. A flag the user gave that the run would ignore is bad input (exit code 2)
//! with a message naming the flag and why. When the library's configuration becomes typed per
//! balancer family, this table is what it replaces.
//!
//! The same table writes the `treesplit sim …` line that replays a DST case, so that line
//! holds only flags that apply.

use crate::flags::Given;
use crate::output::Failure;
use treesplit::Balancer;
use treesplit_apps::dst::Case;

/// A balancer option and the balancers that read it.
pub struct BalancerOption {
    /// clap's id of the flag (the field name in `flags::BalancerOpts`).
    pub id: &'static str,
    /// The flag as typed.
    pub flag: &'static str,
    /// The balancers that read it.
    pub applies: fn(Balancer) -> bool,
    /// Why it applies only there.
    pub why: &'static str,
}

fn polling(b: Balancer) -> bool {
    !b.is_static()
}

fn round_based(b: Balancer) -> bool {
    matches!(b, Balancer::RandomShift | Balancer::PollAndShuffle)
}

fn poll_and_shuffle(b: Balancer) -> bool {
    b == Balancer::PollAndShuffle
}

fn neighbour_polling(b: Balancer) -> bool {
    b == Balancer::NeighbourPolling
}

fn is_static(b: Balancer) -> bool {
    b.is_static()
}

fn random_static(b: Balancer) -> bool {
    b == Balancer::RandomStatic
}

fn master_worker(b: Balancer) -> bool {
    b == Balancer::MasterWorker
}

fn prefix_sum(b: Balancer) -> bool {
    b == Balancer::PrefixSum
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
    ("adaptive_c", "--adaptive-c"),
    ("adaptive_gamma", "--adaptive-gamma"),
    ("h", "--h"),
    ("jobs_per_pe", "--q"),
    ("h_from_alpha", "--h-from-alpha"),
    ("static_permutation", "--static-permutation"),
    ("bundle", "--bundle"),
    ("atomic_jobs", "--atomic-jobs"),
];

/// Whether the balancer option with clap id `id` applies to `balancer` (true for options
/// every balancer reads).
pub fn applies(id: &str, balancer: Balancer) -> bool {
    BALANCER_OPTIONS
        .iter()
        .find(|o| o.id == id)
        .is_none_or(|o| (o.applies)(balancer))
}

/// Reject the balancer options given that none of `balancers` reads.
pub fn check_balancer_options(given: &Given, balancers: &[Balancer]) -> Result<(), Failure> {
    for o in BALANCER_OPTIONS {
        if !given.has(o.id) || balancers.iter().any(|&b| (o.applies)(b)) {
            continue;
        }
        return Err(Failure::input(match balancers {
            [b] => format!("{} does not apply to --balancer {b}: {}", o.flag, o.why),
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

/// Reject any of `flags` (id, flag) given, saying `why`.
pub fn reject(given: &Given, flags: &[(&str, &str)], why: &str) -> Result<(), Failure> {
    match flags.iter().find(|(id, _)| given.has(id)) {
        Some((_, flag)) => Err(Failure::input(format!("{flag} {why}"))),
        None => Ok(()),
    }
}

/// The `treesplit sim …` command line that replays a DST case: the case's application,
/// machine and adversaries, with only the balancer options its balancer reads.
pub fn replay_line(case: &Case) -> String {
    let c = &case.config;
    let s = &case.sim;
    let b = c.balancer;
    let mut line = format!(
        "treesplit sim {} --pes {} --balancer {} --delta-t {} --seed {} --net {} --t-rout {} --t-split {} --t-send {} --t-recv {} --delay {} --termination {}",
        case.app.cli_args(),
        c.pes,
        b,
        c.delta_t,
        c.seed,
        s.topology,
        s.t_rout,
        s.t_split,
        s.t_send,
        s.t_recv,
        s.delay,
        c.termination
    );
    let mut push = |id: &str, text: String| {
        if applies(id, b) {
            line.push(' ');
            line.push_str(&text);
        }
    };
    if let Some(t) = c.trim {
        push("trim", format!("--trim {t}"));
    }
    if c.fast_init {
        push("fast_init", "--fast-init".into());
    }
    push("round", format!("--round {}", c.round));
    push("permutation", format!("--permutation {}", c.permutation));
    if c.adaptive {
        push(
            "adaptive",
            format!(
                "--adaptive --adaptive-c {} --adaptive-gamma {}",
                c.adaptive_c, c.adaptive_gamma
            ),
        );
    }
    push(
        "neighbourhood",
        format!("--neighbourhood {}", c.neighbourhood),
    );
    if let Some(h) = c.h {
        push("h", format!("--h {h}"));
    }
    if let Some(q) = c.jobs_per_pe {
        push("jobs_per_pe", format!("--q {q}"));
    }
    push(
        "static_permutation",
        format!("--static-permutation {}", c.static_permutation),
    );
    push("bundle", format!("--bundle {}", c.bundle));
    if !c.splittable {
        push("atomic_jobs", "--atomic-jobs".into());
    }
    if let Some(h) = s.t_hop {
        line.push_str(&format!(" --t-hop {h}"));
    }
    let list = |v: Vec<String>| v.join(",");
    if !s.slow.is_empty() {
        let pairs = s.slow.iter().map(|(p, f)| format!("{p}:{f}")).collect();
        line.push_str(&format!(" --slow {}", list(pairs)));
    }
    if !s.slow_links.is_empty() {
        let pairs = s.slow_links.iter().map(|(p, d)| format!("{p}:{d}"));
        line.push_str(&format!(" --slow-links {}", list(pairs.collect())));
    }
    if case.empty_splits > 0.0 {
        line.push_str(&format!(" --empty-splits {}", case.empty_splits));
    }
    line
}
