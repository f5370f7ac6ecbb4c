//! `treesplit bench` for the searches (branch-and-bound, or only IDA*'s last iteration, which
//! the output says): sequential baseline against treesplit on P threads in the same invocation,
//! with the speedup and the *search overhead* — nodes explored in parallel over nodes
//! explored sequentially (pruning makes the parallel search explore a different tree).

use crate::output::{self, Failure};
use crate::plan::{AppVisitor, BenchPlan, Published};
use serde::Serialize;
use std::fmt::{Debug, Display};
use treesplit::{run_sequential, Config, Task, Threads};

pub fn bench(args: &BenchPlan) -> Result<(), Failure> {
    args.app.visit(Bench { args })
}

struct Bench<'a> {
    args: &'a BenchPlan,
}

/// `bench --json` of a search.
#[derive(Serialize)]
struct SearchBenchJson {
    app: String,
    pes: usize,
    delta_t: u64,
    repeat: usize,
    /// Median sequential time (s) and nodes.
    sequential_seconds: f64,
    sequential_nodes: u64,
    /// Median parallel time (s) and nodes.
    parallel_seconds: f64,
    parallel_nodes: u64,
    speedup: f64,
    /// Nodes in parallel over nodes sequentially.
    search_overhead: f64,
    /// What was timed: the whole search, or only IDA*'s last iteration.
    measured: String,
}

impl AppVisitor for Bench<'_> {
    type Out = Result<(), Failure>;

    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        published: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug + treesplit_apps::spec::Objective,
    {
        let (args, p) = (self.args, self.args.pes);
        let mut seq = Vec::new();
        let mut par = Vec::new();
        let say = |what: &str, round: usize, t: f64| {
            let at = format_args!("repeat {round}/{}, {what}", args.repeat);
            super::progress::measured(args.out.progress(), at, t);
        };
        for round in 1..=args.repeat {
            let s = run_sequential(make_root());
            say("sequential", round, s.t_seq);
            if published(&s.output).is_some_and(|c| !c.matches) {
                return Err(Failure::wrong(format!(
                    "sequential result {} is wrong",
                    s.output
                )));
            }
            seq.push((s.t_seq, s.work_units));
            let config = Config::new(p).delta_t(args.delta_t).seed(args.seed);
            let r = Threads::new()
                .run(make_root(), &config)
                .map_err(Failure::run)?
                .into_report();
            if published(&r.output).is_some_and(|c| !c.matches) {
                return Err(Failure::wrong(format!(
                    "parallel result {} is wrong",
                    r.output
                )));
            }
            say(&format!("treesplit P={p}"), round, r.t_par);
            par.push((r.t_par, r.totals.work_units));
        }
        let median = |v: &mut Vec<(f64, u64)>| {
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            v[v.len() / 2]
        };
        let (ts, ns) = median(&mut seq);
        let (tp, np) = median(&mut par);
        let measured = args.app.bench_measured();
        if args.out.json {
            return output::print_json(&SearchBenchJson {
                app: args.app.describe(),
                pes: p,
                delta_t: args.delta_t,
                repeat: args.repeat,
                sequential_seconds: ts,
                sequential_nodes: ns,
                parallel_seconds: tp,
                parallel_nodes: np,
                speedup: ts / tp,
                search_overhead: np as f64 / ns as f64,
                measured,
            });
        }
        println!(
            "{} (median of {} interleaved runs; timed: {measured})",
            args.app.describe(),
            args.repeat
        );
        println!("sequential          {ts:>9.4} s  {ns:>14} nodes");
        println!(
            "treesplit P = {p:<4}  {tp:>9.4} s  {np:>14} nodes   speedup {:.3}   search overhead {:.3}",
            ts / tp,
            np as f64 / ns as f64
        );
        Ok(())
    }
}
