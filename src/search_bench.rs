//! `treesplit bench` for the searches (knapsack, Golomb rulers, the 15-puzzle's last IDA*
//! iteration): sequential baseline against treesplit on P threads in the same invocation,
//! with the speedup and the *search overhead* — nodes explored in parallel over nodes
//! explored sequentially (pruning makes the parallel search explore a different tree).

use crate::app::{App, AppVisitor, Published};
use crate::args::BenchArgs;
use crate::Failure;
use std::fmt::{Debug, Display};
use treesplit::{run_sequential, Config, Task, Threads};

pub fn bench(app: &App, args: &BenchArgs, delta_t: u64) -> Result<(), Failure> {
    app.visit(Bench { app, args, delta_t })
}

struct Bench<'a> {
    app: &'a App,
    args: &'a BenchArgs,
    delta_t: u64,
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
        T::Output: Display + PartialEq + Debug,
    {
        let (args, p) = (self.args, self.args.pes);
        let mut seq = Vec::new();
        let mut par = Vec::new();
        for _ in 0..args.repeat {
            let s = run_sequential(make_root());
            if published(&s.output).is_some_and(|c| !c.matches) {
                return Err(Failure {
                    message: format!("sequential result {} is wrong", s.output),
                    code: 3,
                });
            }
            seq.push((s.t_seq, s.work_units));
            let config = Config::new(p).delta_t(self.delta_t);
            let r = Threads::new()
                .run(make_root(), &config)
                .map_err(|e| Failure {
                    message: e.to_string(),
                    code: 1,
                })?;
            if published(&r.output).is_some_and(|c| !c.matches) {
                return Err(Failure {
                    message: format!("parallel result {} is wrong", r.output),
                    code: 3,
                });
            }
            par.push((r.t_par, r.totals.work_units));
        }
        let median = |v: &mut Vec<(f64, u64)>| {
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            v[v.len() / 2]
        };
        let (ts, ns) = median(&mut seq);
        let (tp, np) = median(&mut par);
        println!(
            "{} (median of {} interleaved runs)",
            self.app.describe(),
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
