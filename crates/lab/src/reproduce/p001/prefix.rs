//! Paper 001 §14.2: prefix-sum assignment in the simulator — Exercise 14.2 (a job is cut
//! into at most ⌈t_j/s⌉ + 1 pieces), Exercise 14.3 (atomic assignment: ℓ̂ ≤ s + t̂), and
//! Fig. 14.3's nine jobs on four PEs reproduced exactly.

use super::super::{Cell, Ctx, Finding, Table, Verdict};
use super::jobs::{uniform_sizes, JobList, JobOut, SizedJobs};
use super::table::table_sim;
use rayon::prelude::*;
use treesplit::{simulate, Balancer, Config, Jobs};

/// Prefix-sum runs for Exercises 14.2/14.3: (p, t̂, splittable) over some instances.
/// (p, m, t̂ of the generator, output, ℓ̂, largest job).
type PrefixRun = (usize, u64, u64, JobOut, u64, u64);

fn prefix_runs(splittable: bool) -> Result<Vec<PrefixRun>, String> {
    let cases: Vec<(usize, u64, u64)> = vec![
        (4, 64, 10),
        (16, 256, 40),
        (16, 1024, 3),
        (64, 1024, 100),
        (64, 4096, 1000),
    ];
    cases
        .par_iter()
        .map(|&(p, m, t_max)| {
            let config = Config::new(p)
                .balancer(Balancer::PrefixSum {
                    jobs: Jobs::Depth(m.trailing_zeros()),
                    splittable,
                })
                .delta_t(16);
            let r = simulate(
                JobList::new(m, t_max, p as u64 + m, true),
                &config,
                &table_sim(),
            )
            .map_err(|e| e.to_string())?
            .into_report();
            let max_load = r.report.max_work_units();
            Ok((
                p,
                m,
                t_max,
                r.report.output,
                max_load,
                *uniform_sizes(m, t_max, p as u64 + m)
                    .iter()
                    .max()
                    .unwrap_or(&0),
            ))
        })
        .collect()
}

pub(super) fn ex14_2(_: &Ctx) -> Result<Finding, String> {
    let runs = prefix_runs(true)?;
    let mut table = Table::new(&[
        "p",
        "m",
        "t̂",
        "s = ⌈T/p⌉",
        "jobs",
        "max pieces − (⌈t_j/s⌉+1)",
        "violations",
    ]);
    let mut total_viol = 0;
    for (p, m, t_max, out, _, _) in &runs {
        let sizes = uniform_sizes(*m, *t_max, *p as u64 + m);
        let total: u64 = sizes.iter().sum();
        let s = total.div_ceil(*p as u64);
        let mut worst = i64::MIN;
        let mut viol = 0;
        for (j, &t) in sizes.iter().enumerate() {
            let bound = t.div_ceil(s) + 1;
            let pieces = u64::from(out.pieces.get(j).copied().unwrap_or(0));
            worst = worst.max(pieces as i64 - bound as i64);
            viol += usize::from(pieces > bound);
        }
        total_viol += viol;
        table.row(vec![
            (*p).into(),
            (*m).into(),
            (*t_max).into(),
            s.into(),
            sizes.len().into(),
            (worst as f64).into(),
            viol.into(),
        ]);
    }
    Ok(Finding {
        prediction: "splittable prefix-sum assignment cuts job j into at most ⌈t_j/s⌉ + 1 pieces"
            .into(),
        measured: format!(
            "{total_viol} jobs exceed the bound (pieces counted as the PEs worked them)"
        ),
        table,
        plot: None,
        verdict: Verdict::of(total_viol == 0),
        remark: String::new(),
        ..Finding::default()
    })
}

pub(super) fn ex14_3(_: &Ctx) -> Result<Finding, String> {
    let runs = prefix_runs(false)?;
    let mut table = Table::new(&[
        "p",
        "m",
        "t̂",
        "s = ⌈T/p⌉",
        "ℓ̂",
        "s + t̂",
        "ℓ̂/max(s, t̂) (≤ 2)",
    ]);
    let mut ok = true;
    for (p, m, t_max, out, max_load, t_hat) in &runs {
        let s = out.units.div_ceil(*p as u64);
        ok &= *max_load <= s + t_hat;
        table.row(vec![
            (*p).into(),
            (*m).into(),
            (*t_max).into(),
            s.into(),
            (*max_load).into(),
            (s + t_hat).into(),
            (*max_load as f64 / s.max(*t_hat) as f64).into(),
        ]);
    }
    Ok(Finding {
        prediction: "atomic prefix-sum assignment (job j whole to PE ⌊T_j/s⌋) gives ℓ̂ ≤ s + t̂, within a factor 2 of optimal".into(),
        measured: format!("ℓ̂ ≤ s + t̂ in {} of {} instances", table.rows.iter().filter(|r| matches!((&r[4], &r[5]), (Cell::Num(a), Cell::Num(b)) if a <= b)).count(), table.rows.len()),
        table,
        plot: None,
        verdict: Verdict::of(ok),
        remark: String::new(),
        ..Finding::default()
    })
}

/// Fig. 14.3's jobs. The text gives T = 28, s = 7, nine jobs on four PEs, T_3 = 5 (so
/// t_1 + t_2 = 5) and the three assignments' ℓ̂ (optimal 7, splittable prefix sums 7,
/// rounded prefix sums 9); the sizes themselves are drawn in the figure only. These sizes
/// satisfy every one of those numbers.
pub(super) const FIG14_3: [u64; 9] = [2, 3, 2, 3, 4, 5, 4, 1, 4];

/// The smallest ℓ̂ of any assignment of `sizes` to `p` PEs (exhaustive: p^m assignments).
fn optimal_max_load(sizes: &[u64], p: usize) -> u64 {
    fn go(sizes: &[u64], loads: &mut [u64], best: &mut u64) {
        let Some((&t, rest)) = sizes.split_first() else {
            *best = (*best).min(loads.iter().copied().max().unwrap_or(0));
            return;
        };
        for i in 0..loads.len() {
            if loads[i] + t < *best {
                loads[i] += t;
                go(rest, loads, best);
                loads[i] -= t;
            }
        }
    }
    let mut best = sizes.iter().sum::<u64>() + 1;
    go(sizes, &mut vec![0; p], &mut best);
    best
}

/// Fig. 14.3 reproduced: the optimum by exhaustive search, and both prefix-sum assignments
/// run by the simulator's prefix-sum balancer on the nine jobs, with the per-PE loads the
/// rule ⌊T_j/s⌋ + 1 predicts.
pub(super) fn fig14_3(_: &Ctx) -> Result<Finding, String> {
    let sizes = FIG14_3.to_vec();
    let p = 4usize;
    let total: u64 = sizes.iter().sum();
    let s = total.div_ceil(p as u64);
    // The rule: job j (1-based) whole to PE ⌊T_j/s⌋ + 1, T_j the exclusive prefix sum.
    let mut rule = vec![0u64; p];
    let mut pe_of = Vec::new();
    let mut at = 0;
    for &t in &sizes {
        let k = ((at / s) as usize).min(p - 1);
        pe_of.push(k + 1);
        rule[k] += t;
        at += t;
    }
    let optimum = optimal_max_load(&sizes, p);
    let mut table = Table::new(&[
        "assignment",
        "PE 1",
        "PE 2",
        "PE 3",
        "PE 4",
        "ℓ̂",
        "the caption's ℓ̂",
    ]);
    table.row(vec![
        "optimal (exhaustive search over 4^9 assignments)".into(),
        "—".into(),
        "—".into(),
        "—".into(),
        "—".into(),
        optimum.into(),
        7u64.into(),
    ]);
    let mut measured = Vec::new();
    for (name, splittable, caption) in [
        ("prefix sums, jobs split (simulator)", true, 7u64),
        ("prefix sums and rounding (simulator)", false, 9),
    ] {
        let config = Config::new(p)
            .balancer(Balancer::PrefixSum {
                jobs: Jobs::Depth(4),
                splittable,
            })
            .delta_t(1);
        let r = simulate(SizedJobs::new(sizes.clone()), &config, &table_sim())
            .map_err(|e| e.to_string())?
            .into_report();
        if r.report.output.units != total {
            return Err(format!(
                "{name}: {} units, not {total}",
                r.report.output.units
            ));
        }
        let loads: Vec<u64> = r
            .report
            .per_pe
            .iter()
            .map(|pe| pe.counters.work_units)
            .collect();
        let mut row: Vec<Cell> = vec![name.into()];
        row.extend(loads.iter().map(|&l| Cell::from(l)));
        row.push(r.report.max_work_units().into());
        row.push(caption.into());
        table.row(row);
        measured.push(loads);
    }
    let mut row: Vec<Cell> = vec!["rule ⌊T_j/s⌋ + 1 by hand".into()];
    row.extend(rule.iter().map(|&l| Cell::from(l)));
    row.push(rule.iter().copied().max().unwrap_or(0).into());
    row.push(9u64.into());
    table.row(row);
    let max = |v: &[u64]| v.iter().copied().max().unwrap_or(0);
    let first_three = pe_of[..3] == [1, 1, 1] && pe_of[3] == 2;
    let ok = total == 28
        && s == 7
        && sizes[..2].iter().sum::<u64>() == 5
        && first_three
        && optimum == 7
        && max(&measured[0]) == 7
        && max(&measured[1]) == 9
        && measured[1] == rule;
    Ok(Finding {
        prediction: "T = 28, s = 7; ℓ̂ = 7 optimal, 7 with prefix sums splitting jobs, 9 with prefix sums and rounding; the first three jobs on PE 1 since ⌊T_3/s⌋ + 1 = ⌊5/7⌋ + 1 = 1".into(),
        measured: format!(
            "sizes {sizes:?}: T = {total}, s = {s}, T_3 = {}; jobs to PEs by the rule {pe_of:?}; ℓ̂: optimal {optimum}, split {} (loads {:?}), rounded {} (loads {:?}, the rule's {rule:?})",
            sizes[0] + sizes[1], max(&measured[0]), measured[0], max(&measured[1]), measured[1]
        ),
        table,
        plot: None,
        verdict: Verdict::of(ok),
        remark: String::new(),
        ..Finding::default()
    })
}
