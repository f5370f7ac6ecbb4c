//! Part of the plan layer: from the application flags to a checked application instance
//! (`treesplit_apps::AppSpec`), whose published answer the commands check.

use crate::flags::{AppArgs, SplitRuleArg};
use treesplit_apps::bfs::Graph;
use treesplit_apps::integrate::{Integrand, IntegrateParams};
use treesplit_apps::mandelbrot::MandelParams;
use treesplit_apps::puzzle15::check_tiles;
pub use treesplit_apps::spec::{AppVisitor, Published};
use treesplit_apps::spec::{BfsSpec, GraphSource, KnapsackFile, MandelSpec, PuzzleSpec};
use treesplit_apps::synthetic::{SplitRule, SyntheticParams};
use treesplit_apps::uts::UtsParams;
pub use treesplit_apps::AppSpec as App;

/// Whether the arguments read an instance from standard input (`-` as the path).
pub fn reads_stdin(args: &AppArgs) -> bool {
    let dash = |p: &std::path::Path| p == std::path::Path::new("-");
    match args {
        AppArgs::Knapsack { file } => dash(file),
        AppArgs::Hashtable { file: Some(f), .. } | AppArgs::Bfs { file: Some(f), .. } => dash(f),
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
        AppArgs::Hashtable { keys, file } => hashtable(*keys, file.as_deref()),
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
            random_order,
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
                        random_order: None,
                    }
                }
                _ => return Err("puzzle15 needs --korf K or --tiles \"…\"".into()),
            };
            spec.complete_last_iteration = *complete_last_iteration;
            spec.random_order = *random_order;
            Ok(App::Puzzle15(spec))
        }
        AppArgs::Mandelbrot {
            n,
            z0,
            a0,
            max_iter,
            png,
        } => {
            let bad = || format!("mandelbrot --z0 expects RE,IM (two numbers), got '{z0}'");
            let (re, im) = z0.split_once(',').ok_or_else(bad)?;
            let part = |s: &str| s.trim().parse::<f64>().map_err(|_| bad());
            let params = MandelParams {
                n: *n,
                z0_re: part(re)?,
                z0_im: part(im)?,
                a0: *a0,
                max_iter: *max_iter,
            };
            params.validate()?;
            if let Some(path) = png {
                let png_ext = path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| e.eq_ignore_ascii_case("png"));
                if !png_ext {
                    return Err(format!(
                        "mandelbrot --png {}: the file name must end in .png",
                        path.display()
                    ));
                }
                if params.n > 1 << 14 {
                    return Err(format!(
                        "mandelbrot --png draws one pixel per point: --n {} is more than 16384 pixels a side",
                        params.n
                    ));
                }
            }
            Ok(App::Mandelbrot(MandelSpec {
                params,
                png: png.clone(),
            }))
        }
        AppArgs::Integrate { f, tol, pieces } => {
            let params = IntegrateParams {
                f: Integrand::parse(f)?,
                tol: *tol,
                pieces: *pieces,
            };
            params.validate()?;
            Ok(App::Integrate(params))
        }
        AppArgs::Bfs {
            file,
            rmat,
            edge_factor,
            graph_seed,
            source,
        } => {
            let (input, graph) = match (file, rmat) {
                (Some(path), None) => (GraphSource::File(path.clone()), Graph::read(path)?),
                (None, Some(scale)) => (
                    GraphSource::Rmat {
                        scale: *scale,
                        edge_factor: *edge_factor,
                        seed: *graph_seed,
                    },
                    Graph::rmat(*scale, *edge_factor, *graph_seed)?,
                ),
                _ => return Err("bfs needs an edge-list FILE or --rmat SCALE".into()),
            };
            let n = graph.vertices();
            if *source < 0 || *source as u64 >= n as u64 {
                return Err(format!(
                    "bfs --source {source}: the graph's vertices are 0..{n}"
                ));
            }
            Ok(App::Bfs(BfsSpec {
                input,
                graph: std::sync::Arc::new(graph),
                source: *source as u32,
            }))
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

/// The hash table's keys; q and P are set by the plan once the machine is known
/// ([`set_table`]).
fn hashtable(keys: Option<u64>, file: Option<&std::path::Path>) -> Result<App, String> {
    use treesplit_apps::hashtable::{parse_keys, HashtableSpec, KeySource, MAX_KEYS};
    let (source, keys) = match (keys, file) {
        (Some(n), None) if n > MAX_KEYS => {
            return Err(format!("hashtable --keys {n}: at most {MAX_KEYS} keys"))
        }
        (Some(n), None) => (KeySource::Generated { n, seed: 0 }, Vec::new()),
        (None, Some(f)) => {
            let (text, name) = if f == std::path::Path::new("-") {
                let text = std::io::read_to_string(std::io::stdin())
                    .map_err(|e| format!("cannot read standard input: {e}"))?;
                (text, "<stdin>".to_string())
            } else {
                let text = std::fs::read_to_string(f)
                    .map_err(|e| format!("cannot read {}: {e}", f.display()))?;
                (text, f.display().to_string())
            };
            let keys = parse_keys(&text, &name)?;
            (KeySource::File(f.to_path_buf()), keys)
        }
        _ => return Err("hashtable needs --keys N or --file F".into()),
    };
    Ok(App::Hashtable(HashtableSpec {
        source,
        keys: std::sync::Arc::new(keys),
        q: 0,
        pes: 0,
    }))
}

/// The hash table's subtable size q (`--q`, required), P (subtables) and the seed of
/// generated keys; other applications are left as they are.
pub fn set_table(
    app: &mut App,
    q: Option<u64>,
    pes: usize,
    seed: Option<u64>,
) -> Result<(), String> {
    use treesplit_apps::hashtable::{generate, KeySource, MAX_BUCKETS};
    let App::Hashtable(h) = app else {
        return Ok(());
    };
    let q = q.ok_or("hashtable needs --q Q, the buckets per PE (subtable size; m = P·q)")?;
    if q == 0 {
        return Err("hashtable --q must be at least 1".into());
    }
    match (q as u128) * (pes.max(1) as u128) {
        m if m > u128::from(MAX_BUCKETS) => {
            return Err(format!(
                "hashtable: m = P·q = {m} buckets is more than the supported {MAX_BUCKETS}"
            ))
        }
        _ => {}
    }
    h.q = q;
    h.pes = pes.max(1) as u64;
    if let KeySource::Generated { n, seed: s } = &mut h.source {
        *s = seed.unwrap_or(1);
        h.keys = std::sync::Arc::new(generate(*n, *s));
    }
    Ok(())
}
