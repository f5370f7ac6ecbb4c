//! `treesplit bench maxclique FILE|DIR`: per graph (one file, or every `.clq` file of a
//! folder in name order), ω and the nodes of the search, and the times of the task alone
//! (`seq`), of the task without Re-NUMBER (`greedy`) and of its skeleton version (the same
//! search as `greedy`: their ratio is the skeleton's cost), of the MCQ peer ([`super::mcq`]), of Debian's
//! `cliquer` where it is installed (`cliquer -su FILE`, a process of its own, timed from
//! outside, stopped after [`CLIQUER_LIMIT`]), of the search forked with rayon and with chili
//! on P threads ([`super::forked`], each at the cut-off its first round found fastest among
//! [`forked::CUTS`]), and of treesplit on threads at 1 and P PEs: medians of `--repeat` interleaved
//! rounds, every ω checked against the task's sequential one and against index.tsv beside
//! the file where it lists the graph. A speed comparison, not a test: the tests check ω.

use super::{forked, mcq, search, Clique, Graph, MaxClique};
use crate::app::{resolve_jobs, AppError, Session};
use crate::peers::{chili_pool, cut_name};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;
use treesplit::task::shared::Shared;
use treesplit::{run_sequential, Config, Threads};

/// One graph to time: its file, its graph and its published ω.
pub struct Bench {
    /// The file (`None` for a random graph, which cliquer is not given).
    pub file: Option<PathBuf>,
    /// The name printed.
    pub name: String,
    /// The graph.
    pub graph: Shared<Graph>,
    /// ω as index.tsv (or `--omega`) gives it.
    pub omega: Option<u32>,
}

/// One graph's row.
#[derive(Debug, Serialize)]
struct Row {
    graph: String,
    n: usize,
    m: u64,
    omega: u32,
    /// Nodes (non-empty candidate sets expanded below the root) of the task alone and MCQ's.
    nodes: u64,
    mcq_nodes: u64,
    /// Median seconds.
    sequential: f64,
    greedy: f64,
    skeleton: f64,
    mcq: f64,
    cliquer: Option<f64>,
    /// Whether cliquer ran past [`CLIQUER_LIMIT`] and was stopped.
    cliquer_stopped: bool,
    /// The search forked with rayon and with chili on P threads, and the cut-offs they ran at.
    rayon_p: f64,
    rayon_cut: String,
    chili_p: f64,
    chili_cut: String,
    treesplit_1: f64,
    treesplit_p: f64,
}

/// `bench maxclique` of `graphs` (see the module comment).
pub fn bench(
    graphs: &[Bench],
    config: &Config,
    repeat: usize,
    session: &dyn Session,
) -> Result<(), AppError> {
    let p = config.pes;
    let mut rows = Vec::new();
    let cliquer = cliquer_installed();
    if !cliquer {
        session.note("cliquer is not installed: its column is left empty");
    }
    for g in graphs {
        let row = measure(g, config, repeat, cliquer, session)?;
        rows.push(row);
    }
    if session.json() {
        #[derive(Serialize)]
        struct Doc<'a> {
            pes: usize,
            repeat: usize,
            graphs: &'a [Row],
        }
        return session.print_json(&Doc {
            pes: p,
            repeat,
            graphs: &rows,
        });
    }
    println!(
        "maximum clique, median seconds of {repeat} interleaved rounds; nodes: candidate sets expanded below the root"
    );
    println!(
        "{:<20} {:>5} {:>7} {:>3} {:>11} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "graph",
        "n",
        "m",
        "ω",
        "nodes",
        "MCQ nodes",
        "seq",
        "greedy",
        "skeleton",
        "MCQ",
        "cliquer",
        format!("rayon {p}"),
        format!("chili {p}"),
        "P=1",
        format!("P={p}")
    );
    for r in &rows {
        let cliquer = match r.cliquer {
            None if r.cliquer_stopped => format!(">{}", CLIQUER_LIMIT.as_secs()),
            None => "—".to_string(),
            Some(t) => format!("{t:.3}"),
        };
        println!(
            "{:<20} {:>5} {:>7} {:>3} {:>11} {:>11} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
            r.graph,
            r.n,
            r.m,
            r.omega,
            r.nodes,
            r.mcq_nodes,
            r.sequential,
            r.greedy,
            r.skeleton,
            r.mcq,
            cliquer,
            r.rayon_p,
            r.chili_p,
            r.treesplit_1,
            r.treesplit_p
        );
    }
    if rows.len() > 1 {
        let sum = |f: fn(&Row) -> f64| rows.iter().map(f).sum::<f64>();
        let mcq = sum(|r| r.mcq);
        println!(
            "sum: seq {:.3} s, greedy {:.3} s, skeleton {:.3} s, MCQ {mcq:.3} s, rayon {p} {:.3} s, chili {p} {:.3} s, P=1 {:.3} s, P={p} {:.3} s ({:.3} × MCQ)",
            sum(|r| r.sequential),
            sum(|r| r.greedy),
            sum(|r| r.skeleton),
            sum(|r| r.rayon_p),
            sum(|r| r.chili_p),
            sum(|r| r.treesplit_1),
            sum(|r| r.treesplit_p),
            sum(|r| r.treesplit_p) / mcq
        );
    }
    Ok(())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One graph, `repeat` interleaved rounds.
fn measure(
    g: &Bench,
    config: &Config,
    repeat: usize,
    cliquer: bool,
    session: &dyn Session,
) -> Result<Row, AppError> {
    let wrong = |what: &str, got: &Clique, want: u32| {
        AppError::WrongAnswer(format!(
            "{}: {what} found ω = {}, {}",
            g.name,
            got.omega,
            if g.omega == Some(want) {
                format!("index.tsv lists ω = {want}")
            } else {
                format!("the task's sequential search ω = {want}")
            }
        ))
    };
    let check = |what: &str, got: &Clique, want: u32| {
        if got.omega != want || !g.graph.is_clique(&got.clique) {
            Err(wrong(what, got, want))
        } else {
            Ok(())
        }
    };
    let mut one = config.clone();
    one.pes = 1;
    let mut times: [Vec<f64>; 9] = Default::default();
    // The forked peers' cut-offs: swept in the first round, kept after.
    let mut cuts: (Option<u32>, Option<u32>) = (None, None);
    let (mut omega, mut nodes, mut mcq_nodes) = (g.omega, 0, 0);
    let mut cliquer_stopped = false;
    for round in 1..=repeat {
        let s = run_sequential(MaxClique::new(g.graph.clone()));
        let want = *omega.get_or_insert(s.output.omega);
        check("the sequential search", &s.output, want)?;
        nodes = s.work_units;
        times[0].push(s.t_seq);
        let greedy = run_sequential(MaxClique::with_renumber(g.graph.clone(), false));
        check("the search without Re-NUMBER", &greedy.output, want)?;
        times[1].push(greedy.t_seq);
        let k = run_sequential(search(g.graph.clone()));
        check("the skeleton search", &k.output, want)?;
        times[6].push(k.t_seq);
        let t = Instant::now();
        let (found, n) = mcq::solve(&g.graph);
        times[2].push(t.elapsed().as_secs_f64());
        check("MCQ", &found, want)?;
        mcq_nodes = n;
        if let Some(file) = g.file.as_ref().filter(|_| cliquer && !cliquer_stopped) {
            match run_cliquer(file)? {
                None => cliquer_stopped = true,
                Some((_, got)) if got != want => {
                    return Err(AppError::WrongAnswer(format!(
                        "{}: cliquer found ω = {got}, the search {want}",
                        g.name
                    )))
                }
                Some((secs, _)) => times[3].push(secs),
            }
        }
        let (r, c) = forked_peers(g, config.pes, &mut cuts)?;
        let at = |cut: Option<u32>| cut_name(cut.unwrap_or(forked::CUTS[0]));
        check(&format!("rayon at {}", at(cuts.0)), &r.1, want)?;
        check(&format!("chili at {}", at(cuts.1)), &c.1, want)?;
        times[7].push(r.0);
        times[8].push(c.0);
        for (slot, cfg) in [(4, &one), (5, config)] {
            let root = MaxClique::new(g.graph.clone());
            let cfg = resolve_jobs(cfg, &root, session.quiet())?;
            let r = AppError::unless_stopped(
                Threads::new().run(root, &cfg).map_err(AppError::Library)?,
            )?;
            check(&format!("treesplit on {} PEs", cfg.pes), &r.output, want)?;
            times[slot].push(r.t_par);
        }
        session.note(&format!(
            "bench: {} repeat {round}/{repeat}: seq {:.4} s, MCQ {:.4} s, P={} {:.4} s",
            g.name,
            times[0][round - 1],
            times[2][round - 1],
            config.pes,
            times[5][round - 1]
        ));
    }
    let [seq, greedy, mcq, cliquer_t, p1, pp, skel, rayon_t, chili_t] = times;
    Ok(Row {
        graph: g.name.clone(),
        n: g.graph.len(),
        m: g.graph.edges(),
        omega: omega.unwrap_or(0),
        nodes,
        mcq_nodes,
        sequential: median(seq),
        greedy: median(greedy),
        skeleton: median(skel),
        mcq: median(mcq),
        cliquer: (!cliquer_stopped && !cliquer_t.is_empty()).then(|| median(cliquer_t)),
        cliquer_stopped,
        rayon_p: median(rayon_t),
        rayon_cut: cut_name(cuts.0.unwrap_or(forked::CUTS[0])),
        chili_p: median(chili_t),
        chili_cut: cut_name(cuts.1.unwrap_or(forked::CUTS[0])),
        treesplit_1: median(p1),
        treesplit_p: median(pp),
    })
}

/// One round of the forked peers on `pes` threads: (seconds, clique) of rayon and of chili.
/// Where a peer's cut-off is not chosen yet (the first round), every cut-off of
/// [`forked::CUTS`] is tried once and the fastest kept, with its time and clique.
type Timed = (f64, Clique);
fn forked_peers(
    g: &Bench,
    pes: usize,
    cuts: &mut (Option<u32>, Option<u32>),
) -> Result<(Timed, Timed), AppError> {
    let graph: &Graph = &g.graph;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(pes)
        .build()
        .map_err(|e| AppError::RunFailed(format!("cannot build the rayon pool: {e}")))?;
    let chili = chili_pool(pes);
    let fastest = |chosen: &mut Option<u32>, run: &mut dyn FnMut(u32) -> Timed| -> Timed {
        let tried: Vec<u32> = match chosen {
            Some(c) => vec![*c],
            None => forked::CUTS.to_vec(),
        };
        let mut best: Option<(u32, Timed)> = None;
        for cut in tried {
            let t = run(cut);
            if best.as_ref().is_none_or(|(_, b)| t.0 < b.0) {
                best = Some((cut, t));
            }
        }
        let (cut, t) = best.expect("at least one cut-off");
        *chosen = Some(cut);
        t
    };
    let r = fastest(&mut cuts.0, &mut |cut| {
        let t = Instant::now();
        let c = pool.install(|| forked::rayon(graph, cut));
        (t.elapsed().as_secs_f64(), c)
    });
    let c = fastest(&mut cuts.1, &mut |cut| {
        let mut scope = chili.scope();
        let t = Instant::now();
        let c = forked::chili(&mut scope, graph, cut);
        (t.elapsed().as_secs_f64(), c)
    });
    Ok((r, c))
}

/// Whether `cliquer` can be started.
fn cliquer_installed() -> bool {
    std::process::Command::new("cliquer")
        .arg("--help")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok()
}

/// How long cliquer may take on one graph before `bench` stops it (it is weak on dense
/// graphs: hours where the colouring bound takes seconds) and leaves it out of the rounds
/// that remain.
pub const CLIQUER_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

/// `cliquer -su FILE`: its wall time and ω (its "size=ω" line); `None` when it ran past
/// [`CLIQUER_LIMIT`] and was stopped.
fn run_cliquer(file: &Path) -> Result<Option<(f64, u32)>, AppError> {
    use std::io::Read;
    let t = Instant::now();
    let mut child = std::process::Command::new("cliquer")
        .arg("-su")
        .arg(file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| AppError::RunFailed(format!("cliquer cannot run: {e}")))?;
    let ran = |e: std::io::Error| AppError::RunFailed(format!("cliquer: {e}"));
    loop {
        if child.try_wait().map_err(ran)?.is_some() {
            break;
        }
        if t.elapsed() > CLIQUER_LIMIT {
            // Stopping it can only fail if it has just ended.
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let secs = t.elapsed().as_secs_f64();
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_string(&mut text).map_err(ran)?;
    }
    let size = text
        .split("size=")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| {
            AppError::RunFailed(format!(
                "cliquer gave no size= for {}: {}",
                file.display(),
                text.trim()
            ))
        })?;
    Ok(Some((secs, size)))
}
