//! `figures`: the measurement rows behind BENCHMARKS.md's figures, printed for the record.
//! Each figure reruns one of the lab's sweeps (`treesplit_lab::experiments`) at full size,
//! which takes minutes to hours, so none of them runs with the test suite (small, checked
//! versions of the same sweeps do, in `crates/lab/tests/`):
//!
//! ```text
//! cargo run --release -p treesplit-lab --bin figures -- NAME
//! ```
//!
//! The names and their knobs (environment variables) are in [`USAGE`]. Bad input is exit 2,
//! a failed run exit 1, a knapsack optimum that differs from the published one exit 3.

use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use treesplit::machine::sim::Topology;
use treesplit::machine::sim::{MessageLength, Routing};
use treesplit::{Balancer, BalancerKind};
use treesplit_apps::knapsack::KnapsackFile;
use treesplit_apps::synthetic::{SplitRule, SyntheticParams};
use treesplit_apps::uts::UtsParams;
use treesplit_apps::AppSpec;
use treesplit_lab::experiments::networks::{self, fit_exponent, sweep, Algorithm, Row};
use treesplit_lab::experiments::poll_shuffle::{
    adaptive_rows, knapsack_length_rows, knapsack_piece_bytes, machine, sync_rows,
};

const USAGE: &str = "\
usage: figures NAME

  lemma-4-and-5         poll-and-shuffle's adaptive notes and estimates (Lemmas 4 and 5),
                        hypercube, P = 256, 1024, 4096, c = 2 and 8 (JSON lines)
  local-against-global  local against global phase synchronization, hypercube and 2-D mesh,
                        P = 256, 1024 (JSON lines)
  knapsack-bytes        bytes per split-off knapsack piece, inline against compact, four
                        published instances, 200 splits (name, then a JSON line)
  knapsack-lengths      knapPI_3_1000 on P = 1024 with message lengths not charged and charged
                        at BYTE_TIME per byte (default 0.1,0.5), packet and cut-through routing,
                        inline against compact pieces; ONLY=mesh-rp, mesh-ps or crossbar-rp
                        picks one machine and balancer (JSON lines)
  networks              random polling, row-major and poll-and-shuffle on the 2-D mesh,
                        hypercube and fat tree up to P = 16384, with the fitted exponent of
                        T_par - T_seq/P; WORK sets the synthetic tree's units (default 2^24),
                        APP=T1 (any named UTS tree) sweeps that tree instead, SWEEP=mesh or
                        SWEEP=cube one half (TSV rows)

The knapsack instances are read from KNAPSACK_DIR (default: the test kit's fixtures,
crates/testkit/data/knapsack).";

/// Why a figure could not be printed, with its exit code.
enum Failure {
    /// Bad input (exit 2).
    Input(String),
    /// A run failed (exit 1).
    Run(String),
    /// A wrong answer (exit 3).
    Wrong(String),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["lemma-4-and-5"] => lemma_4_and_5(),
        ["local-against-global"] => local_against_global(),
        ["knapsack-bytes"] => knapsack_bytes(),
        ["knapsack-lengths"] => knapsack_lengths(),
        ["networks"] => networks_sweep(),
        ["-h" | "--help"] => {
            println!("{USAGE}");
            Ok(())
        }
        [] => Err(Failure::Input("name a figure".into())),
        [name] => Err(Failure::Input(format!("no figure named {name:?}"))),
        _ => Err(Failure::Input("name one figure".into())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(m)) => {
            eprintln!("error: {m}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Run(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(1)
        }
        Err(Failure::Wrong(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(3)
        }
    }
}

/// The environment variable `name` parsed, or `default` when it is unset or empty.
fn knob<T: FromStr>(name: &str, default: T) -> Result<T, Failure> {
    match std::env::var(name) {
        Ok(v) if !v.is_empty() => v
            .parse()
            .map_err(|_| Failure::Input(format!("{name}={v}: not a valid value"))),
        _ => Ok(default),
    }
}

fn print<T: Serialize>(rows: &[T]) {
    for r in rows {
        println!("{}", serde_json::to_string(r).expect("rows serialize"));
    }
}

fn knapsack(name: &str) -> Result<KnapsackFile, Failure> {
    let default = concat!(env!("CARGO_MANIFEST_DIR"), "/../testkit/data/knapsack");
    let dir: PathBuf = knob("KNAPSACK_DIR", PathBuf::from(default))?;
    KnapsackFile::read(&dir.join(name)).map_err(Failure::Input)
}

fn lemma_4_and_5() -> Result<(), Failure> {
    for c in [2.0, 8.0] {
        print(&adaptive_rows(
            &[256, 1024, 4096],
            c,
            20_000_000,
            100,
            &machine(Topology::Hypercube),
        ));
    }
    Ok(())
}

fn local_against_global() -> Result<(), Failure> {
    for topology in [Topology::Hypercube, Topology::Mesh2d] {
        print(&sync_rows(
            &[256, 1024],
            20_000_000,
            100,
            &machine(topology),
        ));
    }
    Ok(())
}

fn knapsack_bytes() -> Result<(), Failure> {
    for name in [
        "knapPI_1_100_1000_1.txt",
        "knapPI_1_1000_1000_1.txt",
        "knapPI_2_1000_1000_1.txt",
        "knapPI_3_1000_1000_1.txt",
    ] {
        let k = knapsack(name)?;
        let b = knapsack_piece_bytes(k.instance.arc().clone(), 200);
        println!(
            "{name}\t{}",
            serde_json::to_string(&b).expect("rows serialize")
        );
    }
    Ok(())
}

/// §6.1's efficiency claim: knapPI_3_1000 on a 32 × 32 mesh (P = 1024; random polling and
/// poll-and-shuffle) and a crossbar (random polling).
fn knapsack_lengths() -> Result<(), Failure> {
    let k = knapsack("knapPI_3_1000_1000_1.txt")?;
    let byte_times: Vec<f64> = match std::env::var("BYTE_TIME") {
        Ok(v) => v
            .split(',')
            .map(|x| {
                x.parse()
                    .map_err(|_| Failure::Input(format!("BYTE_TIME={v}: not a list of numbers")))
            })
            .collect::<Result<_, _>>()?,
        Err(_) => vec![0.1, 0.5],
    };
    let mut lengths = vec![None];
    for &byte_time in &byte_times {
        for routing in [Routing::Packet, Routing::CutThrough] {
            lengths.push(Some(MessageLength {
                byte_time,
                routing,
                contention: false,
            }));
        }
    }
    let random_polling = Balancer::new(BalancerKind::RandomPolling);
    // Poll-and-shuffle with the mesh's embedding and default phase, as in the network sweeps.
    let poll_and_shuffle =
        networks::config(Topology::Mesh2d, 1024, Algorithm::PollAndShuffle, 1).balancer;
    let only = std::env::var("ONLY").unwrap_or_default();
    let machines = [
        ("mesh-rp", Topology::Mesh2d, &random_polling),
        ("mesh-ps", Topology::Mesh2d, &poll_and_shuffle),
        ("crossbar-rp", Topology::Crossbar, &random_polling),
    ];
    if !only.is_empty() && !machines.iter().any(|(name, ..)| *name == only) {
        return Err(Failure::Input(format!(
            "ONLY={only}: mesh-rp, mesh-ps or crossbar-rp"
        )));
    }
    for (name, topology, balancer) in machines {
        if !only.is_empty() && only != name {
            continue;
        }
        let rows = knapsack_length_rows(
            k.instance.arc(),
            1024,
            balancer,
            &machine(topology),
            &lengths,
        )
        .map_err(Failure::Run)?;
        if let Some(r) = rows.iter().find(|r| Some(r.profit) != k.optimum) {
            return Err(Failure::Wrong(format!(
                "{name}: profit {}, the published optimum is {:?}",
                r.profit, k.optimum
            )));
        }
        print(&rows);
    }
    Ok(())
}

/// The network sweep: T_par − T_seq/P against P per network and algorithm, and its fit.
fn networks_sweep() -> Result<(), Failure> {
    let work = knob("WORK", 1u64 << 24)?;
    let synthetic = AppSpec::Synthetic(SyntheticParams {
        work,
        alpha: 0.3,
        atomic: 8,
        rule: SplitRule::Random,
        spin: 1,
        seed: 7,
    });
    let apps = match std::env::var("APP") {
        Ok(tree) if !tree.is_empty() && tree != "synthetic" => [AppSpec::Uts(
            UtsParams::parse(std::slice::from_ref(&tree))
                .map_err(|e| Failure::Input(format!("APP={tree}: {e}")))?,
        )],
        _ => [synthetic],
    };
    let mesh: &[usize] = &[1024, 4096, 16384];
    let cube: &[usize] = &[256, 1024, 4096, 16384];
    let all = [
        Algorithm::PollAndShuffle,
        Algorithm::RowMajor,
        Algorithm::RandomPolling,
    ];
    let print = |r: &Row| println!("{}\t{:.1}s", r.tsv(), r.wall_seconds);
    let which = std::env::var("SWEEP").unwrap_or_default();
    if !matches!(which.as_str(), "" | "mesh" | "cube") {
        return Err(Failure::Input(format!("SWEEP={which}: mesh or cube")));
    }
    let mut rows = Vec::new();
    if which.is_empty() || which == "mesh" {
        rows.extend(
            sweep(&[(Topology::Mesh2d, mesh)], &all, &apps, 1, print).map_err(Failure::Run)?,
        );
    }
    if which.is_empty() || which == "cube" {
        rows.extend(
            sweep(
                &[(Topology::Hypercube, cube), (Topology::FatTree, cube)],
                &[Algorithm::PollAndShuffle, Algorithm::RandomPolling],
                &apps,
                1,
                print,
            )
            .map_err(Failure::Run)?,
        );
    }
    for network in [Topology::Mesh2d, Topology::Hypercube, Topology::FatTree] {
        for algorithm in all {
            let pts: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.network == network && r.algorithm == algorithm)
                .map(|r| (r.pes as f64, r.lower_order))
                .collect();
            if pts.len() >= 2 {
                println!(
                    "fit {network} {algorithm}: T_par − T_seq/P ∝ P^{:.3}",
                    fit_exponent(&pts)
                );
            }
        }
    }
    Ok(())
}
