//! `treesplit bench`: an application's treesplit task against its hand-written peers, measured
//! in one invocation, interleaved, with ratios and nanoseconds per work unit: the plain
//! sequential code (`recursion`), the task alone with no runtime (`sequential`), treesplit,
//! rayon and chili at 1 and P threads. Each peer runs at its best depth cut-off, found first
//! by a sweep over the cut-offs the application names (rayon's is skipped when
//! `--rayon-depth` fixes it); the sweep is reported. Each measurement is said on stderr as it
//! is taken (unless --quiet or --json). (Benchmarks, not tests: speed is measured here,
//! correctness is checked by the tests.)

use super::CliSession;
use crate::output::{self, Failure};
use crate::plan::memory::RAYON_STACK;
use crate::plan::BenchPlan;
use serde::Serialize;
use std::fmt::Debug;
use std::time::Instant;
use treesplit::{run_sequential, Config, Task, Threads};
use treesplit_apps::instance::PeerVisitor;
use treesplit_apps::peers::{chili_pool, cut_name, Peers};

#[derive(Debug, Serialize)]
struct Series {
    name: String,
    seconds: Vec<f64>,
    min: f64,
    median: f64,
    /// Nanoseconds per work unit (node), from the minimum.
    ns_per_unit: f64,
}

/// One setting of one peer tried by the sweep.
#[derive(Debug, Serialize)]
struct Tried {
    peer: &'static str,
    threads: usize,
    cut: String,
    /// The fastest of its runs.
    seconds: f64,
}

#[derive(Debug, Serialize)]
struct BenchReport {
    app: String,
    pes: usize,
    delta_t: u64,
    work_units: u64,
    /// The depth cut-off rayon ran at (`every node`, `depth D`) and whether the sweep chose it.
    rayon_cut: String,
    rayon_swept: bool,
    /// The depth cut-off chili ran at, where the application has a chili peer.
    chili_cut: Option<String>,
    /// The settings the sweep tried, at P threads.
    sweep: Vec<Tried>,
    series: Vec<Series>,
    /// T_treesplit,P=1 / T_seq (minimum times): 1.03 means 3 % overhead on one PE.
    one_pe_time_over_sequential: f64,
    /// T_treesplit,P=1 / T_recursion: treesplit on 1 PE against the plain sequential code.
    one_pe_time_over_recursion: f64,
    /// T_seq / T_treesplit,P (speedup, minimum times).
    speedup_treesplit: f64,
    /// T_seq / T_rayon,P.
    speedup_rayon: f64,
    /// T_seq / T_chili,P.
    speedup_chili: Option<f64>,
    /// T_treesplit / T_rayon at P: below 1 means treesplit is faster.
    time_over_rayon: f64,
    /// T_treesplit / T_chili at P: below 1 means treesplit is faster.
    time_over_chili: Option<f64>,
    /// Sequential work units per second (a tree search: nodes per second per core).
    sequential_units_per_second: f64,
}

pub fn bench(args: &BenchPlan) -> Result<(), Failure> {
    let app = &args.app;
    let config = Config::new(args.pes).delta_t(args.delta_t).seed(args.seed);
    let session = CliSession {
        json: args.out.json,
        notes: args.out.notes(),
    };
    if let Some(result) = app.bench_itself(&config, args.repeat, &session) {
        return Ok(result?);
    }
    match app.visit_peer(Measure { args }) {
        Some(result) => result,
        None => super::search_bench::bench(args),
    }
}

/// The task against its peers.
struct Measure<'a> {
    args: &'a BenchPlan,
}

impl PeerVisitor for Measure<'_> {
    type Out = Result<(), Failure>;

    fn visit<T: Task, P: Peers<Output = T::Output>>(
        self,
        make_root: impl Fn() -> T,
        peers: P,
    ) -> Self::Out
    where
        T::Output: PartialEq + Debug + Send,
    {
        measure(self.args, make_root, &peers)
    }
}

fn stats(name: String, mut seconds: Vec<f64>, units: u64) -> Series {
    let raw = seconds.clone();
    seconds.sort_by(f64::total_cmp);
    Series {
        name,
        min: seconds[0],
        median: seconds[seconds.len() / 2],
        ns_per_unit: seconds[0] * 1e9 / units.max(1) as f64,
        seconds: raw,
    }
}

/// Rayon pools of each thread count (deep stacks: the peers recurse).
fn rayon_pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(RAYON_STACK as usize)
        .build()
        .map_err(|e| Failure::input(format!("cannot build the rayon pool: {e}")))
}

/// The peers at one setting: run once, timed, checked against the sequential output.
struct Runner<'p, P: Peers> {
    peers: &'p P,
    want: P::Output,
}

impl<P: Peers> Runner<'_, P>
where
    P::Output: PartialEq + Debug,
{
    fn check(&self, what: &str, got: P::Output) -> Result<(), Failure> {
        if got != self.want {
            return Err(Failure::wrong(format!(
                "{what} gave {got:?}, the sequential baseline {:?}",
                self.want
            )));
        }
        Ok(())
    }

    fn rayon(&self, pool: &rayon::ThreadPool, cut: u32) -> Result<f64, Failure> {
        let t0 = Instant::now();
        let got = pool.install(|| self.peers.rayon(cut));
        let t = t0.elapsed().as_secs_f64();
        self.check(&format!("rayon at {}", cut_name(cut)), got)?;
        Ok(t)
    }

    /// `None`: the application has no chili peer. The pool is built outside the timing and
    /// dropped after it (its heartbeat thread would disturb the other measurements).
    fn chili(&self, threads: usize, cut: u32) -> Result<Option<f64>, Failure> {
        let pool = chili_pool(threads);
        let mut scope = pool.scope();
        let t0 = Instant::now();
        let got = self.peers.chili(&mut scope, cut);
        let t = t0.elapsed().as_secs_f64();
        match got {
            None => Ok(None),
            Some(got) => {
                self.check(&format!("chili at {}", cut_name(cut)), got)?;
                Ok(Some(t))
            }
        }
    }
}

/// The fastest cut-off of `cuts` by `time`, each tried `tries` times; the tries are recorded
/// (and each said on stderr as it is measured when `say`).
fn sweep(
    peer: &'static str,
    threads: usize,
    cuts: &[u32],
    tries: usize,
    sweep: &mut Vec<Tried>,
    say: bool,
    mut time: impl FnMut(u32) -> Result<Option<f64>, Failure>,
) -> Result<Option<u32>, Failure> {
    let mut best: Option<(f64, u32)> = None;
    for &cut in cuts {
        let mut fastest = f64::INFINITY;
        for _ in 0..tries {
            match time(cut)? {
                Some(t) => {
                    let at = format_args!("sweep {peer} at {}, {threads} threads", cut_name(cut));
                    super::progress::measured(say, at, t);
                    fastest = fastest.min(t);
                }
                None => return Ok(None),
            }
        }
        sweep.push(Tried {
            peer,
            threads,
            cut: cut_name(cut),
            seconds: fastest,
        });
        if best.is_none_or(|(b, _)| fastest < b) {
            best = Some((fastest, cut));
        }
    }
    Ok(best.map(|(_, cut)| cut))
}

fn measure<T: Task, P: Peers<Output = T::Output>>(
    args: &BenchPlan,
    make_root: impl Fn() -> T,
    peers: &P,
) -> Result<(), Failure>
where
    T::Output: PartialEq + Debug,
{
    let p = args.pes;
    let threads: Vec<usize> = if p == 1 { vec![1] } else { vec![1, p] };
    let pools = threads
        .iter()
        .map(|&t| rayon_pool(t))
        .collect::<Result<Vec<_>, _>>()?;
    let many = pools.last().expect("one pool at least");

    let say = args.out.progress();
    let s = run_sequential(make_root());
    let work_units = s.work_units;
    super::progress::measured(
        say,
        format_args!("the sequential baseline ({work_units} work units)"),
        s.t_seq,
    );
    let runner = Runner {
        peers,
        want: s.output,
    };

    // The sweep: each peer's cut-offs at P threads; the fastest is the peer's setting.
    let cuts = peers.cuts();
    let tries = args.repeat.min(2);
    let mut tried = Vec::new();
    let (rayon_cut, rayon_swept) = match args.rayon_depth {
        Some(cut) => (cut, false),
        None => {
            let best = sweep("rayon", p, &cuts, tries, &mut tried, say, |cut| {
                runner.rayon(many, cut).map(Some)
            })?;
            (best.expect("a rayon peer at every cut-off"), true)
        }
    };
    let chili_cut = sweep(
        "chili",
        p,
        &peers.chili_cuts(),
        tries,
        &mut tried,
        say,
        |cut| runner.chili(p, cut),
    )?;

    let names = |what: &str| -> Vec<String> {
        threads
            .iter()
            .map(|&t| match (what, t) {
                ("treesplit", t) => format!("treesplit P={t}"),
                (_, 1) => format!("{what} 1 thread"),
                (_, t) => format!("{what} {t} threads"),
            })
            .collect()
    };
    let mut rec = vec![];
    let mut seq = vec![];
    let mut ours = vec![vec![]; threads.len()];
    let mut ray = vec![vec![]; threads.len()];
    let mut chi = vec![vec![]; threads.len()];
    let (ours_names, ray_names, chili_names) = (names("treesplit"), names("rayon"), names("chili"));
    for round in 1..=args.repeat {
        let said = |what: &str, t: f64| {
            let at = format_args!("repeat {round}/{}, {what}", args.repeat);
            super::progress::measured(say, at, t);
            t
        };
        let t0 = Instant::now();
        let r = peers.sequential();
        rec.push(said("recursion", t0.elapsed().as_secs_f64()));
        runner.check("the plain sequential code", r)?;
        let s = run_sequential(make_root());
        seq.push(said("sequential", s.t_seq));
        runner.check("the task alone", s.output)?;
        for (i, &t) in threads.iter().enumerate() {
            let config = Config::new(t).delta_t(args.delta_t).seed(args.seed);
            let r = Threads::new()
                .run(make_root(), &config)
                .map_err(Failure::from)?
                .into_report();
            if r.totals.work_units != work_units {
                return Err(Failure::wrong(format!(
                    "treesplit at P = {t} did {} work units, the sequential baseline {work_units}",
                    r.totals.work_units
                )));
            }
            runner.check(&format!("treesplit at P = {t}"), r.output)?;
            ours[i].push(said(&ours_names[i], r.t_par));
            ray[i].push(said(&ray_names[i], runner.rayon(&pools[i], rayon_cut)?));
            if let Some(cut) = chili_cut {
                let t = runner.chili(t, cut)?;
                chi[i].extend(t.map(|t| said(&chili_names[i], t)));
            }
        }
    }

    let mut series = vec![
        stats("recursion".into(), rec, work_units),
        stats("sequential".into(), seq, work_units),
    ];
    for (name, times) in ours_names.into_iter().zip(ours) {
        series.push(stats(name, times, work_units));
    }
    for (name, times) in ray_names.into_iter().zip(ray) {
        series.push(stats(name, times, work_units));
    }
    if chili_cut.is_some() {
        for (name, times) in chili_names.into_iter().zip(chi) {
            series.push(stats(name, times, work_units));
        }
    }
    let min = |name: &str| series.iter().find(|s| s.name == name).map(|s| s.min);
    let last = |what: &str| names(what).pop().and_then(|n| min(&n));
    let tr = min("recursion").expect("measured");
    let ts = min("sequential").expect("measured");
    let t1 = min("treesplit P=1").expect("measured");
    let tp = last("treesplit").expect("measured");
    let tray = last("rayon").expect("measured");
    let tchili = last("chili");
    let report = BenchReport {
        app: args.app.describe(),
        pes: p,
        delta_t: args.delta_t,
        work_units,
        rayon_cut: cut_name(rayon_cut),
        rayon_swept,
        chili_cut: chili_cut.map(cut_name),
        sweep: tried,
        one_pe_time_over_sequential: t1 / ts,
        one_pe_time_over_recursion: t1 / tr,
        speedup_treesplit: ts / tp,
        speedup_rayon: ts / tray,
        speedup_chili: tchili.map(|t| ts / t),
        time_over_rayon: tp / tray,
        time_over_chili: tchili.map(|t| tp / t),
        sequential_units_per_second: work_units as f64 / ts,
        series,
    };
    if args.out.json {
        return output::print_json(&report);
    }
    print_text(&report, args.repeat, ts);
    Ok(())
}

fn print_text(report: &BenchReport, repeat: usize, ts: f64) {
    println!(
        "bench {}   P = {}   Δt = {}   repeat {}   {} work units",
        report.app, report.pes, report.delta_t, repeat, report.work_units
    );
    if !report.sweep.is_empty() {
        println!("sweep at P = {} (fastest of its tries):", report.pes);
        for t in &report.sweep {
            println!("  {:<6} {:<12} {:>10.4} s", t.peer, t.cut, t.seconds);
        }
    }
    let chosen = if report.rayon_swept {
        "swept"
    } else {
        "--rayon-depth"
    };
    print!("rayon at {} ({chosen})", report.rayon_cut);
    match &report.chili_cut {
        Some(cut) => println!(", chili at {cut} (swept)"),
        None => println!(", no chili peer"),
    }
    println!(
        "{:<22} {:>10} {:>10} {:>10} {:>10}",
        "", "min s", "median s", "ns/unit", "T_seq/T"
    );
    for s in &report.series {
        println!(
            "{:<22} {:>10.4} {:>10.4} {:>10.3} {:>10.3}",
            s.name,
            s.min,
            s.median,
            s.ns_per_unit,
            ts / s.min
        );
    }
    println!(
        "1 PE takes {:.3}× the sequential time ({:+.1} %), {:.3}× the recursion's ({:+.1} %)",
        report.one_pe_time_over_sequential,
        (report.one_pe_time_over_sequential - 1.0) * 100.0,
        report.one_pe_time_over_recursion,
        (report.one_pe_time_over_recursion - 1.0) * 100.0,
    );
    print!(
        "at P = {}: treesplit takes {:.3}× rayon's time",
        report.pes, report.time_over_rayon
    );
    match report.time_over_chili {
        Some(r) => println!(", {r:.3}× chili's"),
        None => println!(),
    }
    println!(
        "sequential rate: {:.3} M work units/s on one core",
        report.sequential_units_per_second / 1e6,
    );
}
