//! What `--help` lists is what the subcommand takes: every option a (sub)command's help shows
//! is accepted by a command line that plans without error, and every application a
//! subcommand lists is one it runs. The witnesses are planned through the CLI's library (no
//! run starts), so the table below must grow with every new option.

mod support;

use clap::CommandFactory;
use support::{stderr, stdout, treesplit};
use treesplit_cli::flags::{self, Cli};
use treesplit_cli::plan::{plan_in, Env};

/// Balancers with the options each reads, as `--balancer(s) B OPTIONS`.
const BALANCERS: &[&str] = &[
    "random-shift --round 30 --trim 2 --fast-init --delta-t 100 --termination response-tree",
    "neighbour-polling --neighbourhood ring",
    "random-polling --permuted-init feistel:6 --poll-within 4",
    "poll-and-shuffle --permutation pseudorandom --adaptive --adaptive-c 2 --adaptive-gamma 0.5 --sync global",
    "random-static --h 4 --static-permutation lcg",
    "master-worker --q 2 --bundle fixed:2 --deal-order largest-first",
    "hierarchical-master-worker --q 2 --fanout 3",
    "shared-memory-master-worker --q 2",
    "prefix-sum --h-from-alpha 0.3 --atomic-jobs",
];

/// The simulated machine's options.
const SIM_MACHINE: &str = "--net mesh2d --model latency-only --t-rout 5 --t-hop 2 --t-split 3 --t-send 1 --t-recv 1 --t-poll 1 --poll-alpha 0.5 --t-count 2 --delay uniform:3 --slow 1:2 --slow-links 1:3 --empty-splits 0.1 --byte-time 0.5 --routing cut-through --contention --proof --sim-threads 1";

/// Every application with arguments that make an instance.
const APPS: &[&str] = &[
    "nqueens 8",
    "uts T1",
    "knapsack {knapsack}",
    "golomb 6",
    "maxclique --random 30,0.5",
    "tsp --random 12",
    "semigroups 8",
    "tree-sum --depth 10",
    "fib 10",
    "puzzle15 --korf 1",
    "hashtable --keys 100 --q 2",
    "mandelbrot --n 64",
    "integrate --f pi",
    "bfs --rmat 4",
    "dag --multiply 1 --balancer work-stealing",
    "synthetic --work 1000",
];

/// Command lines that plan without error, with `{dir}` (a scratch folder), `{knapsack}`,
/// `{checkpoint}` (a checkpoint of `run golomb 9`) and `{clique}` (one of `run maxclique
/// --random 90,0.8`) to fill in.
fn witnesses() -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for b in BALANCERS {
        lines.push(format!("run nqueens 8 --balancer {b}"));
        lines.push(format!("resume {{checkpoint}} --balancer {b}"));
        lines.push(format!("sim nqueens 8 --balancer {b}"));
        lines.push(format!("compare nqueens 7 --balancers {b}"));
    }
    for app in APPS {
        lines.push(format!("run {app}"));
        lines.push(format!("sim {app}"));
    }
    for app in APPS
        .iter()
        .filter(|a| !a.starts_with("dag") && !a.starts_with("bfs"))
    {
        lines.push(format!("compare {app}"));
    }
    for app in APPS
        .iter()
        .filter(|a| !a.starts_with("dag") && !a.starts_with("hashtable"))
    {
        lines.push(format!("bench {app}"));
    }
    let common = "--json --quiet --seed 2";
    lines.extend([
        format!("run nqueens 8 --pes 2 --max-units 1000 --time-limit 5s --check --machine threads {common}"),
        "run nqueens 8 --trace {dir}/t.json --gantt {dir}/g.svg --checkpoint {dir}/c.ckpt --checkpoint-every 1s".into(),
        "run nqueens 8 --baseline".into(),
        "run knapsack {knapsack} --optimum 9147".into(),
        "sim knapsack {knapsack} --no-published".into(),
        "run maxclique --random 30,0.5 --omega 5".into(),
        "run maxclique --random 30,0.5 --instance-seed 3 --seed 4".into(),
        "run dag --random 20 --balancer work-stealing --instance-seed 3".into(),
        "sim hashtable --keys 100 --q 2 --instance-seed 3".into(),
        "compare maxclique --random 30,0.5 --instance-seed 3".into(),
        "bench maxclique --random 30,0.5 --instance-seed 3 --repeat 1".into(),
        "resume {clique} --instance-seed 1 --seed 5".into(),
        "run nqueens 8 --sequential".into(),
        format!("resume {{checkpoint}} --pes 2 --max-units 1000 --time-limit 5s --check --machine threads {common}"),
        "resume {checkpoint} --trace {dir}/t.json --gantt {dir}/g.svg --checkpoint {dir}/c2.ckpt --checkpoint-every 1s".into(),
        format!("sim nqueens 8 --pes 8 --max-units 1000 --time-limit 5s --check --gantt {{dir}}/g.svg --trace {{dir}}/t.json {common}"),
        format!("sim nqueens 8 {SIM_MACHINE}"),
        "sim nqueens 8 --balancer poll-and-shuffle --embedding row-major --phase-c 2".into(),
        format!("compare nqueens 7 --pes 16 --svg {{dir}}/c.svg {common} {SIM_MACHINE}"),
        "compare nqueens 7 --balancers poll-and-shuffle --embedding row-major --phase-c 2".into(),
        format!("bench nqueens 8 --pes 2 --repeat 1 --delta-t 100 --rayon-depth 2 {common}"),
        format!("dst --cases 1 --max-pes 4 {common}"),
        "trees --json --quiet".into(),
        format!("depth --alpha 0.3 --split adversarial --work 1000 --epsilon 0.2 --static-permutation lcg --max-h 6 --pes 4,8 {common}"),
        format!("scatter --alpha 1 --q 1,2 --degree 1 --cost falling --assignment random-placement --trials 10 --svg {{dir}}/s.svg --pes 64 {common}"),
        format!("scatter tail --sizes adversarial --c 1 --jobs 1024 --epsilon 0.5 --trials 10 --svg {{dir}}/t.svg --pes 64 {common}"),
        format!(
            "reproduce --quick --only {} --out {{dir}}/r --json --quiet",
            treesplit_lab::reproduce::ids()[0]
        ),
    ]);
    lines
}

/// A scratch folder, and a checkpoint to resume from (and one of a random graph's search
/// beside it, `clique.ckpt`).
fn setup() -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("treesplit-help-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let checkpoint = dir.join("base.ckpt");
    let o = treesplit(&[
        "run",
        "golomb",
        "9",
        "--pes",
        "2",
        "--max-units",
        "20000",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(1), "the stopped run: {}", stderr(&o));
    let clique = dir.join("clique.ckpt");
    let o = treesplit(&[
        "run",
        "maxclique",
        "--random",
        "90,0.8",
        "--pes",
        "2",
        "--max-units",
        "50",
        "--checkpoint",
        clique.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the stopped search: {}",
        stderr(&o)
    );
    (dir, checkpoint.to_str().unwrap().to_string())
}

/// The words of `line` with the placeholders filled in.
fn words(line: &str, dir: &std::path::Path, checkpoint: &str) -> Vec<String> {
    line.replace("{dir}", dir.to_str().unwrap())
        .replace("{checkpoint}", checkpoint)
        .replace("{clique}", dir.join("clique.ckpt").to_str().unwrap())
        .replace("{knapsack}", support::KNAPSACK)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Every (sub)command below the top, as its path of names, with the clap command; the
/// applications under `run`, `sim`, `bench` and `compare` are not walked (their options are
/// their parent's).
fn commands(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, clap::Command)>) {
    for sub in cmd.get_subcommands() {
        let name = sub.get_name().to_string();
        if name == "help" || treesplit_apps::registry::find(&name).is_some() {
            continue;
        }
        let mut p = path.clone();
        p.push(name);
        commands(sub, p.clone(), out);
        out.push((p, sub.clone()));
    }
}

/// The witnesses of `path`: lines that name it and no deeper subcommand of it.
fn of_path<'a>(lines: &'a [Vec<String>], path: &[String], deeper: &[String]) -> Vec<&'a [String]> {
    lines
        .iter()
        .filter(|w| w.starts_with(path) && !w.get(path.len()).is_some_and(|n| deeper.contains(n)))
        .map(Vec::as_slice)
        .collect()
}

#[test]
fn every_option_and_application_a_help_lists_is_accepted() {
    let (dir, checkpoint) = setup();
    let lines: Vec<Vec<String>> = witnesses()
        .iter()
        .map(|l| words(l, &dir, &checkpoint))
        .collect();
    for w in &lines {
        let argv = std::iter::once("treesplit".to_string()).chain(w.iter().cloned());
        let (cli, given) = flags::parse_from(argv).unwrap_or_else(|e| panic!("{w:?}: {e}"));
        if let Err(f) = plan_in(cli, &given, &Env::fixed(4)) {
            panic!("{w:?} is refused: {}", f.message);
        }
    }
    let mut cli = Cli::command();
    cli.build();
    let mut all = Vec::new();
    commands(&cli, Vec::new(), &mut all);
    for (path, cmd) in &all {
        let deeper: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .filter(|n| treesplit_apps::registry::find(n).is_none())
            .collect();
        let mine = of_path(&lines, path, &deeper);
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let Some(long) = arg.get_long() else { continue };
            if matches!(long, "help" | "version") {
                continue;
            }
            let flag = format!("--{long}");
            assert!(
                mine.iter().any(|w| w.contains(&flag)),
                "`treesplit {} --help` lists {flag}, but no command line that plans uses it",
                path.join(" ")
            );
        }
        for app in cmd
            .get_subcommands()
            .map(|s| s.get_name())
            .filter(|n| treesplit_apps::registry::find(n).is_some())
        {
            assert!(
                mine.iter()
                    .any(|w| w.get(path.len()).is_some_and(|n| n == app)),
                "`treesplit {} --help` lists {app}, but no command line that plans runs it",
                path.join(" ")
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_a_subcommand_never_takes_are_not_listed_and_are_clap_errors() {
    for (sub, absent) in [
        (
            &["trees"][..],
            &["--seed", "--pes", "--max-units", "--check"][..],
        ),
        (
            &["dst"],
            &["--pes", "--max-units", "--time-limit", "--check"],
        ),
        (
            &["reproduce"],
            &["--seed", "--pes", "--max-units", "--check"],
        ),
        (
            &["bench"],
            &["--max-units", "--time-limit", "--check", "--balancer"],
        ),
        (
            &["bench", "nqueens"],
            &["--max-units", "--time-limit", "--check"],
        ),
        (
            &["compare"],
            &[
                "--max-units",
                "--time-limit",
                "--check",
                "--balancer ",
                "--gantt",
                "--trace",
            ],
        ),
        (&["resume"], &["--sequential", "--baseline"]),
    ] {
        let mut args = sub.to_vec();
        args.push("--help");
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let help = stdout(&o);
        for flag in absent {
            assert!(!help.contains(flag), "{args:?} lists {flag}:\n{help}");
        }
    }
    let o = treesplit(&["bench", "--help"]);
    for app in ["dag", "hashtable"] {
        assert!(
            !stdout(&o).lines().any(|l| l.trim_start().starts_with(app)),
            "bench lists {app}:\n{}",
            stdout(&o)
        );
    }
    for args in [
        &["trees", "--seed", "3"][..],
        &["dst", "--pes", "3"],
        &["reproduce", "--pes", "3"],
        &["bench", "nqueens", "8", "--max-units", "5"],
        &["compare", "nqueens", "7", "--check"],
        &["bench", "dag", "--multiply", "1"],
        &["bench", "hashtable", "--keys", "10"],
    ] {
        let o = treesplit(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("error:"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn pes_says_what_p_means_in_each_subcommand() {
    let mut cli = Cli::command();
    cli.build();
    let texts: Vec<String> = ["run", "sim", "bench", "compare", "depth", "scatter"]
        .iter()
        .map(|name| {
            let sub = cli.find_subcommand(name).unwrap();
            let pes = sub
                .get_arguments()
                .find(|a| a.get_long() == Some("pes"))
                .unwrap_or_else(|| panic!("{name} takes no --pes"));
            pes.get_help().unwrap().to_string()
        })
        .collect();
    for (i, a) in texts.iter().enumerate() {
        for b in &texts[i + 1..] {
            assert_ne!(a, b, "two subcommands share one --pes text");
        }
    }
}
