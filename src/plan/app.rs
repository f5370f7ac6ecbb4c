//! Part of the plan layer: from the application flags to a checked application instance
//! (`treesplit_apps::AppSpec`), whose published answer the commands check.

use crate::flags::{AppArgs, SplitRuleArg};
use treesplit_apps::puzzle15::check_tiles;
pub use treesplit_apps::spec::{AppVisitor, Published};
use treesplit_apps::spec::{KnapsackFile, PuzzleSpec};
use treesplit_apps::synthetic::{SplitRule, SyntheticParams};
use treesplit_apps::uts::UtsParams;
pub use treesplit_apps::AppSpec as App;

/// Whether the arguments read an instance from standard input (`-` as the path).
pub fn reads_stdin(args: &AppArgs) -> bool {
    let dash = |p: &std::path::Path| p == std::path::Path::new("-");
    match args {
        AppArgs::Knapsack { file } => dash(file),
        AppArgs::Dag {
            file: Some(file), ..
        } => dash(file),
        AppArgs::Puzzle15 {
            korf_file: Some(f), ..
        } => dash(f),
        _ => false,
    }
}

/// The application instance the arguments name (checked).
pub fn from_args(args: &AppArgs) -> Result<App, String> {
    match args {
        AppArgs::Nqueens { n } => {
            treesplit_apps::NQueens::new(*n)?;
            Ok(App::NQueens(*n))
        }
        AppArgs::Uts {
            tree,
            t,
            a,
            d,
            b,
            q,
            m,
            r,
            f,
        } => {
            let mut flags: Vec<String> = tree.iter().cloned().collect();
            for (flag, value) in [
                ("-t", t),
                ("-a", a),
                ("-d", d),
                ("-b", b),
                ("-q", q),
                ("-m", m),
                ("-r", r),
                ("-f", f),
            ] {
                if let Some(v) = value {
                    flags.push(flag.to_string());
                    flags.push(v.clone());
                }
            }
            Ok(App::Uts(UtsParams::parse(&flags)?))
        }
        AppArgs::Knapsack { file } => Ok(App::Knapsack(KnapsackFile::read(file)?)),
        AppArgs::Dag { .. } => Err(
            "a task DAG runs with `treesplit run dag` or `treesplit sim dag` only (its schedulers are not tree balancers)"
                .into(),
        ),
        AppArgs::Golomb { n } => {
            treesplit_apps::golomb::Golomb::new(*n)?;
            Ok(App::Golomb(*n))
        }
        AppArgs::Puzzle15 {
            korf,
            tiles,
            korf_file,
            complete_last_iteration,
        } => {
            let mut spec = match (korf, tiles) {
                (Some(k), None) => match korf_file {
                    Some(path) => PuzzleSpec::korf(path, *k)?,
                    None => PuzzleSpec::korf_built_in(*k)?,
                },
                (None, Some(t)) => {
                    let numbers: Vec<u8> = t
                        .split(|c: char| c.is_whitespace() || c == ',')
                        .filter(|s| !s.is_empty())
                        .map(|s| {
                            s.parse()
                                .map_err(|_| format!("--tiles: '{s}' is not a tile number"))
                        })
                        .collect::<Result<_, _>>()?;
                    PuzzleSpec {
                        tiles: check_tiles(&numbers).map_err(|e| format!("--tiles: {e}"))?,
                        korf: None,
                        optimal: None,
                        nodes: None,
                        complete_last_iteration: false,
                    }
                }
                _ => return Err("puzzle15 needs --korf K or --tiles \"…\"".into()),
            };
            spec.complete_last_iteration = *complete_last_iteration;
            Ok(App::Puzzle15(spec))
        }
        AppArgs::Synthetic {
            work,
            alpha,
            atomic,
            split,
            spin,
            tree_seed,
        } => {
            let params = SyntheticParams {
                work: *work,
                alpha: *alpha,
                atomic: *atomic,
                rule: match split {
                    SplitRuleArg::Random => SplitRule::Random,
                    SplitRuleArg::Adversarial => SplitRule::Adversarial,
                },
                spin: *spin,
                seed: *tree_seed,
            };
            params.validate()?;
            Ok(App::Synthetic(params))
        }
    }
}
