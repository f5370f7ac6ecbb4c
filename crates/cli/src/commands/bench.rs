//! `treesplit bench`: the sequential baseline, treesplit at 1 and P PEs and the idiomatic
//! rayon version at P threads, measured in one invocation, interleaved, with ratios.
//! (Benchmarks, not tests: speed is measured here, correctness is checked by the tests.)

use super::CliSession;
use crate::output::{self, Failure};
use crate::plan::{App, BenchPlan};
use serde::Serialize;
use std::fmt::Debug;
use std::time::Instant;
use treesplit::{run_sequential, Config, Task, Threads};
use treesplit_apps::instance::PeerVisitor;

#[derive(Debug, Serialize)]
struct Series {
    name: String,
    seconds: Vec<f64>,
    min: f64,
    median: f64,
}

#[derive(Debug, Serialize)]
struct BenchReport {
    app: String,
    pes: usize,
    delta_t: u64,
    work_units: u64,
    series: Vec<Series>,
    /// T_seq(min) / T_treesplit,P=1(min): ≥ 0.97 means at most 3 % overhead.
    one_pe_vs_sequential: f64,
    /// T_seq / T_treesplit,P (speedup, minimum times).
    speedup_treesplit: f64,
    /// T_seq / T_rayon,P.
    speedup_rayon: f64,
    /// T_rayon / T_treesplit at P: above 1 means treesplit is faster.
    treesplit_vs_rayon: f64,
    /// Sequential work units per second (a tree search: nodes per second per core).
    sequential_units_per_second: f64,
}

pub fn bench(args: &BenchPlan) -> Result<(), Failure> {
    let app = &args.app;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.pes)
        .stack_size(256 << 20)
        .build()
        .map_err(|e| Failure::input(format!("cannot build the rayon pool: {e}")))?;
    let config = Config::new(args.pes).delta_t(args.delta_t).seed(args.seed);
    let session = CliSession {
        json: args.out.json,
        notes: args.out.notes(),
    };
    if let Some(result) = app.bench_itself(&config, args.repeat, &session) {
        return Ok(result?);
    }
    let peer = Measure { args, pool: &pool };
    match app.visit_peer(peer, args.rayon_depth) {
        Some(result) => result,
        None => super::search_bench::bench(args),
    }
}

/// The task against its rayon peer in the pool.
struct Measure<'a> {
    args: &'a BenchPlan,
    pool: &'a rayon::ThreadPool,
}

impl PeerVisitor for Measure<'_> {
    type Out = Result<(), Failure>;

    fn visit<T: Task>(
        self,
        make_root: impl Fn() -> T,
        rayon_run: impl Fn() -> T::Output + Sync,
    ) -> Self::Out
    where
        T::Output: PartialEq + Debug + Send,
    {
        let pool = self.pool;
        measure(
            &self.args.app,
            self.args,
            self.args.delta_t,
            make_root,
            || pool.install(&rayon_run),
        )
    }
}

fn stats(name: String, mut seconds: Vec<f64>) -> Series {
    let raw = seconds.clone();
    seconds.sort_by(f64::total_cmp);
    Series {
        name,
        min: seconds[0],
        median: seconds[seconds.len() / 2],
        seconds: raw,
    }
}

fn measure<T: Task>(
    app: &App,
    args: &BenchPlan,
    delta_t: u64,
    make_root: impl Fn() -> T,
    rayon_run: impl Fn() -> T::Output,
) -> Result<(), Failure>
where
    T::Output: PartialEq + Debug,
{
    let (mut seq, mut one, mut many, mut ray) = (vec![], vec![], vec![], vec![]);
    let bar = super::progress::steps(args.repeat as u64, "bench", args.out.progress());
    let mut work_units = 0;
    let fail = |what: &str, got: &dyn Debug, want: &dyn Debug| {
        Failure::wrong(format!(
            "{what} gave {got:?}, the sequential baseline {want:?}"
        ))
    };
    for _ in 0..args.repeat {
        let s = run_sequential(make_root());
        seq.push(s.t_seq);
        work_units = s.work_units;
        for (p, times) in [(1, &mut one), (args.pes, &mut many)] {
            let config = Config::new(p).delta_t(delta_t).seed(args.seed);
            let r = Threads::new()
                .run(make_root(), &config)
                .map_err(Failure::from)?
                .into_report();
            if r.output != s.output || r.totals.work_units != s.work_units {
                return Err(fail(
                    &format!("treesplit at P = {p}"),
                    &(&r.output, r.totals.work_units),
                    &(&s.output, s.work_units),
                ));
            }
            times.push(r.t_par);
        }
        let t0 = Instant::now();
        let r = rayon_run();
        ray.push(t0.elapsed().as_secs_f64());
        if r != s.output {
            return Err(fail("rayon", &r, &s.output));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let series = vec![
        stats("sequential".into(), seq),
        stats("treesplit P=1".into(), one),
        stats(format!("treesplit P={}", args.pes), many),
        stats(format!("rayon {} threads", args.pes), ray),
    ];
    let (ts, t1, tp, tr) = (series[0].min, series[1].min, series[2].min, series[3].min);
    let report = BenchReport {
        app: app.describe(),
        pes: args.pes,
        delta_t,
        work_units,
        one_pe_vs_sequential: ts / t1,
        speedup_treesplit: ts / tp,
        speedup_rayon: ts / tr,
        treesplit_vs_rayon: tr / tp,
        sequential_units_per_second: work_units as f64 / ts,
        series,
    };
    if args.out.json {
        return output::print_json(&report);
    }
    println!(
        "bench {}   P = {}   Δt = {}   repeat {}",
        report.app, report.pes, report.delta_t, args.repeat
    );
    println!(
        "{:<22} {:>10} {:>10} {:>10}",
        "", "min s", "median s", "T_seq/T"
    );
    for s in &report.series {
        println!(
            "{:<22} {:>10.4} {:>10.4} {:>10.3}",
            s.name,
            s.min,
            s.median,
            ts / s.min
        );
    }
    println!(
        "1 PE vs sequential: {:.3} ({:+.1} % time)   treesplit vs rayon at P = {}: {:.3} (>1: treesplit faster)",
        report.one_pe_vs_sequential,
        (t1 / ts - 1.0) * 100.0,
        report.pes,
        report.treesplit_vs_rayon
    );
    println!(
        "sequential rate: {:.3} M work units/s on one core ({} units)",
        report.sequential_units_per_second / 1e6,
        work_units
    );
    Ok(())
}
