//! Paper 004 §3's relaxations of α-splitting: Theorem 3's depth on trees whose splits have no
//! guaranteed quality (the random splitting factor model, σ = 1/2 − α), against a control
//! whose paths carry Θ(h) non-reducing splits that the depth does not compensate.
//!
//! Each tree is cut exactly as random-static cuts it (the complete splitting tree of depth h,
//! `Task::split` on every piece h times), which gives its leaves and the splits on every
//! path; the leaves are then placed independently at random (the proof's model, as in
//! `004-thm3`), many placements per tree; beside it the system (the simulator, Feistel
//! permutation) at n = 16.

use super::super::{Control, Ctx, Finding, Premise, Table, Verdict};
use super::tail::{c_valid, proof_depth, EPS};
use crate::scatter::adversary::wilson;
use crate::scatter::montecarlo::mix;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use treesplit::Task;
use treesplit_apps::synthetic::{SplitRule, Synthetic, SyntheticParams};

/// Work units of the trees (the depth sweep's 2^24).
const WORK: u64 = super::WORK;
/// Splits of pieces this large enter the factor statistics (rounding to units is then
/// below 0.1 %).
const FACTOR_MIN: u64 = 1024;
/// The deepest the control is cut beyond h when searching for its compensation, and the
/// most leaves a cut may have there.
const MAX_EXTRA: u32 = 16;
const MAX_LEAVES: usize = 1 << 21;

/// What the complete splitting tree of depth h of one tree gave.
#[derive(Debug, Default)]
pub(super) struct Cut {
    /// The leaf sizes in units (they sum to the work).
    pub leaves: Vec<u64>,
    /// Factors (the requester's fraction) of the splits of pieces ≥ `FACTOR_MIN` units: count,
    /// sum, sum of squares, and how many fell outside [α, 1 − α].
    pub factors: (u64, f64, f64, u64),
    /// The most non-reducing splits on one root-to-leaf path (a split whose smaller part is
    /// a single unit where an α-split would have given at least two).
    pub max_non_reducing: u32,
}

/// Cut a tree to depth h as random-static does, counting the splits on every path.
pub(super) fn cut(
    rule: SplitRule,
    alpha: f64,
    work: u64,
    h: u32,
    seed: u64,
) -> Result<Cut, String> {
    let root = Synthetic::new(SyntheticParams {
        work,
        alpha,
        atomic: 1,
        rule,
        spin: 1,
        seed,
    })?;
    let size = |t: &Synthetic| t.estimate().unwrap_or(0);
    let mut c = Cut::default();
    let mut level = vec![(root, 0u32)];
    for _ in 0..h {
        let mut next = Vec::with_capacity(level.len() * 2);
        for (mut t, k) in level {
            let s = size(&t);
            match t.split() {
                None => next.push((t, k)),
                Some(piece) => {
                    let g = size(&piece);
                    if s >= FACTOR_MIN {
                        let f = g as f64 / s as f64;
                        c.factors.0 += 1;
                        c.factors.1 += f;
                        c.factors.2 += f * f;
                        c.factors.3 += u64::from(f < alpha - 1e-3 || f > 1.0 - alpha + 1e-3);
                    }
                    let stalled = g.min(s - g) == 1 && s as f64 * alpha >= 1.5;
                    let k = k + u32::from(stalled);
                    c.max_non_reducing = c.max_non_reducing.max(k);
                    next.push((t, k));
                    next.push((piece, k));
                }
            }
        }
        level = next;
    }
    c.leaves = level.iter().map(|(t, _)| size(t)).collect();
    if c.leaves.iter().sum::<u64>() != work {
        return Err(format!(
            "{} α = {alpha}, h = {h}: the leaves lost work",
            rule.name()
        ));
    }
    Ok(c)
}

/// n·L_max/W of one independent uniform placement of the leaves on n PEs.
pub(super) fn placement_ratio(leaves: &[u64], n: usize, rng: &mut Xoshiro256PlusPlus) -> f64 {
    let mut loads = vec![0u64; n];
    for &s in leaves {
        let j = ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize;
        loads[j] += s;
    }
    let total: u64 = leaves.iter().sum();
    loads.into_iter().max().unwrap_or(0) as f64 * n as f64 / total as f64
}

/// One tree judged: placements with L_max > (1+ε)/n, of how many, the largest leaf (·W⁻¹).
struct TreeTail {
    hits: u64,
    placements: u64,
    largest: f64,
    /// Its leaves.
    count: usize,
}

/// One case (rule, α, n) over several trees.
struct Case {
    rule: SplitRule,
    alpha: f64,
    n: usize,
    h: u32,
    trees: Vec<TreeTail>,
    factors: (u64, f64, f64, u64),
    max_non_reducing: u32,
    /// The most leaves of one tree's cut.
    leaves: usize,
    /// The system: (seeds, seeds with L_max > (1+ε)/n), where run.
    system: Option<(u64, u64)>,
}

impl Case {
    /// Whether every tree's (and the system's) Wilson upper 95 % end is at most 1/n.
    fn holds(&self) -> bool {
        let target = 1.0 / self.n as f64;
        self.trees
            .iter()
            .all(|t| wilson(t.hits, t.placements).1 <= target)
            && self
                .system
                .is_none_or(|(seeds, hits)| wilson(hits, seeds).1 <= target)
    }

    fn worst_tail(&self) -> (f64, f64) {
        self.trees
            .iter()
            .map(|t| {
                (
                    t.hits as f64 / t.placements as f64,
                    wilson(t.hits, t.placements).1,
                )
            })
            .fold((0.0, 0.0), |a, b| (a.0.max(b.0), a.1.max(b.1)))
    }

    fn mean_sd(&self) -> (f64, f64) {
        let (k, s, q, _) = self.factors;
        let k = k as f64;
        let mean = s / k;
        (mean, ((q - k * mean * mean) / (k - 1.0)).max(0.0).sqrt())
    }
}

fn run_case(
    rule: SplitRule,
    alpha: f64,
    n: usize,
    h: u32,
    trees: u64,
    system_seeds: u64,
) -> Result<Case, String> {
    let placements = (6 * n as u64).max(96);
    let per_tree: Vec<Result<(TreeTail, Cut), String>> = (0..trees)
        .into_par_iter()
        .map(|t| {
            let seed = 5000 + t;
            let c = cut(rule, alpha, WORK, h, seed)?;
            let mut rng =
                Xoshiro256PlusPlus::seed_from_u64(mix(0x5E3 ^ mix(seed ^ (n as u64) << 40)));
            let hits = (0..placements)
                .filter(|_| placement_ratio(&c.leaves, n, &mut rng) > 1.0 + EPS + 1e-12)
                .count() as u64;
            let largest = c.leaves.iter().copied().max().unwrap_or(0) as f64 / WORK as f64;
            let count = c.leaves.len();
            Ok((
                TreeTail {
                    hits,
                    placements,
                    largest,
                    count,
                },
                Cut {
                    leaves: Vec::new(),
                    ..c
                },
            ))
        })
        .collect();
    let mut case = Case {
        rule,
        alpha,
        n,
        h,
        trees: Vec::new(),
        factors: (0, 0.0, 0.0, 0),
        max_non_reducing: 0,
        leaves: 0,
        system: None,
    };
    for r in per_tree {
        let (t, c) = r?;
        case.leaves = case.leaves.max(t.count);
        case.trees.push(t);
        case.factors.0 += c.factors.0;
        case.factors.1 += c.factors.1;
        case.factors.2 += c.factors.2;
        case.factors.3 += c.factors.3;
        case.max_non_reducing = case.max_non_reducing.max(c.max_non_reducing);
    }
    if system_seeds > 0 {
        let r: Result<Vec<f64>, String> = (0..system_seeds)
            .into_par_iter()
            .map(|s| super::static_imbalance(alpha, rule, n, h, 7000 + s))
            .collect();
        let hits = r?.into_iter().filter(|&x| x > 1.0 + EPS + 1e-12).count() as u64;
        case.system = Some((system_seeds, hits));
    }
    Ok(case)
}

fn row(table: &mut Table, c: &Case, label: String) {
    let (tail, upper) = c.worst_tail();
    let (mean, sd) = c.mean_sd();
    let largest = c.trees.iter().map(|t| t.largest).fold(0.0, f64::max);
    let s_max = 1.0 / (c_valid(1.0) * c.n as f64 * (c.n as f64).ln());
    table.row(vec![
        label.into(),
        c.alpha.into(),
        c.n.into(),
        c.h.into(),
        c.trees.len().into(),
        c.trees.first().map_or(0, |t| t.placements).into(),
        tail.into(),
        upper.into(),
        c.system
            .map_or("—".to_string(), |(s, h)| {
                format!("{h}/{s} (upper {:.3})", wilson(h, s).1)
            })
            .into(),
        (1.0 / c.n as f64).into(),
        mean.into(),
        sd.into(),
        (0.5 - c.alpha).into(),
        (c.factors.3 as f64 / c.factors.0 as f64).into(),
        c.max_non_reducing.into(),
        (largest / s_max).into(),
        c.holds().into(),
    ]);
}

/// Theorem 3's depth on relaxed trees: the random splitting factor (inside §3's tolerance)
/// and, as the control, uncompensated non-reducing splits.
pub(super) fn relax(ctx: &Ctx) -> Result<Finding, String> {
    // (α, n, trees, system seeds).
    let cases: Vec<(f64, usize, u64, u64)> = ctx.pick(
        vec![(0.4, 16, 3, 64), (0.3, 16, 3, 0), (0.4, 64, 3, 0)],
        vec![
            (0.4, 16, 10, 200),
            (0.3, 16, 10, 0),
            (0.4, 64, 10, 0),
            (0.45, 256, 6, 0),
        ],
    );
    let mut inside = Vec::new();
    let mut control = Vec::new();
    for &(alpha, n, trees, sys) in &cases {
        let h = proof_depth(alpha, n as u64, 1.0);
        inside.push(run_case(SplitRule::RandomFactor, alpha, n, h, trees, sys)?);
        control.push(run_case(SplitRule::NonReducing, alpha, n, h, trees, sys)?);
    }
    // Not judged: how much deeper the control's trees had to be cut before the same
    // criterion held (the compensation §3 speaks of), searched upwards from h while a cut
    // stays under `MAX_LEAVES` leaves. (the case at the last depth tried, whether it held)
    let mut deeper: Vec<(Case, bool)> = Vec::new();
    for c in control.iter().filter(|_| !ctx.quick) {
        let mut last: Option<Case> = None;
        for extra in 1..=MAX_EXTRA {
            if last.as_ref().map_or(c.leaves, |d| d.leaves) * 2 > MAX_LEAVES {
                break;
            }
            let d = run_case(
                SplitRule::NonReducing,
                c.alpha,
                c.n,
                c.h + extra,
                c.trees.len() as u64,
                0,
            )?;
            let holds = d.holds();
            last = Some(d);
            if holds {
                break;
            }
        }
        if let Some(d) = last {
            let holds = d.holds();
            deeper.push((d, holds));
        }
    }
    let mut table = Table::new(&[
        "split rule",
        "α (σ = 1/2 − α)",
        "n",
        "h: Theorem 3's proof depth",
        "trees",
        "placements per tree",
        "largest P[L_max > (1+ε)/n] over trees",
        "largest Wilson 95 % upper end",
        "system (simulator, Feistel): seeds over (1+ε)/n",
        "target n^−1",
        "factor mean",
        "factor sd",
        "σ",
        "splits outside [α, 1−α]",
        "most non-reducing splits on a path",
        "largest leaf / (1/(c n ln n))",
        "upper ends ≤ n^−1",
    ]);
    for c in inside.iter().chain(&control) {
        row(&mut table, c, c.rule.name().to_string());
    }
    for (d, _) in &deeper {
        row(
            &mut table,
            d,
            format!("{} (deeper, not judged)", d.rule.name()),
        );
    }
    let ok = inside.iter().all(Case::holds);
    let control_ok = control.iter().all(Case::holds);
    let describe = |cs: &[Case]| {
        cs.iter()
            .map(|c| {
                let (t, u) = c.worst_tail();
                format!(
                    "α = {}, n = {}, h = {}: {t:.3} (upper {u:.3}){}",
                    c.alpha,
                    c.n,
                    c.h,
                    c.system
                        .map_or(String::new(), |(s, h)| format!(", system {h}/{s} seeds"))
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let moments: Vec<String> = inside
        .iter()
        .map(|c| {
            let (m, s) = c.mean_sd();
            format!(
                "α = {}: mean {m:.4}, sd {s:.4} (σ = {:.2})",
                c.alpha,
                0.5 - c.alpha
            )
        })
        .collect();
    let moments_ok = inside.iter().all(|c| {
        let (m, s) = c.mean_sd();
        (m - 0.5).abs() <= 0.01 && (s - (0.5 - c.alpha)).abs() <= 0.01
    });
    let outside: Vec<String> = inside
        .iter()
        .map(|c| {
            format!(
                "α = {}: {:.1} %",
                c.alpha,
                100.0 * c.factors.3 as f64 / c.factors.0 as f64
            )
        })
        .collect();
    let relaxed = inside.iter().all(|c| c.factors.3 > 0);
    let nr: Vec<String> = control
        .iter()
        .map(|c| {
            format!(
                "α = {}, n = {}, h = {}: {}",
                c.alpha, c.n, c.h, c.max_non_reducing
            )
        })
        .collect();
    let trees = inside.iter().map(|c| c.trees.len()).min().unwrap_or(0);
    let nr_lo = control
        .iter()
        .map(|c| c.max_non_reducing)
        .min()
        .unwrap_or(0);
    let nr_hi = control
        .iter()
        .map(|c| c.max_non_reducing)
        .max()
        .unwrap_or(0);
    let comp: Vec<String> = deeper
        .iter()
        .zip(&control)
        .map(|((d, held), c)| {
            if *held {
                format!(
                    "α = {}, n = {}: h + {} (most non-reducing splits on a path there: {})",
                    c.alpha,
                    c.n,
                    d.h - c.h,
                    d.max_non_reducing
                )
            } else {
                format!(
                    "α = {}, n = {}: not by h + {} (the deepest cut under {MAX_LEAVES} leaves)",
                    c.alpha,
                    c.n,
                    d.h - c.h
                )
            }
        })
        .collect();
    Ok(Finding {
        prediction: format!(
            "ε = {EPS}, β = 1: at Theorem 3's depth for α (the smallest h with (1−α)^h ≤ 1/(c n ln n), c = {:.1}), a tree whose splitting factor is random, symmetric around 1/2 with σ = 1/2 − α, still balances: P[L_max > (1+ε)/n] ≤ n^−1 for every tree",
            c_valid(1.0)
        ),
        measured: format!("random factor, worst tree per case: {}", describe(&inside)),
        table,
        verdict: Verdict::of(ok),
        remark: format!("The tail is judged per tree (the randomness the theorem speaks of is the placement's; the tree is the adversary's). The non-reducing rule hands over one unit in half the splits, so a path of h splits carries Θ(h) of them, not a bounded O(log n) compensated by extra depth: it is the control, and §3's compensated case is not judged here. Its count on a path ({} to {} here) is itself O(log n), as any count ≤ h is; what puts the control outside §3's tolerance is that nothing compensates it. Not judged, for information (full run only): {}.", nr_lo, nr_hi, if comp.is_empty() { "the compensation search is left out of the quick run".to_string() } else { format!("the same criterion held for the control's trees from depth {}", comp.join("; ")) }),
        premises_measured: vec![
            Premise::new(
                "the splitting factor is symmetric around 1/2 with standard deviation σ = 1/2 − α (within 0.01)",
                format!("over the splits of pieces ≥ {FACTOR_MIN} units of the judged trees: {}", moments.join("; ")),
                moments_ok,
            ),
            Premise::new(
                "the trees are not α-splitting trees (some splits fall outside [α, 1−α]): the relaxation is exercised",
                format!("splits outside [α, 1−α]: {}", outside.join("; ")),
                relaxed,
            ),
        ],
        control: Some(Control {
            system: "non-reducing splits (half the splits, by a hash, hand over one unit; the rest α-splits uniform in [α, 1−α]) at the same h, uncompensated".into(),
            measured: format!(
                "worst tree per case: {}; most non-reducing splits on one path: {}",
                describe(&control),
                nr.join("; ")
            ),
            verdict: Verdict::of(control_ok),
        }),
        seeds: Some(trees),
        ..Finding::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cutting conserves the work; an α-splitting tree never splits outside [α, 1 − α] nor
    /// stalls, and the non-reducing tree stalls on some path.
    #[test]
    fn a_cut_conserves_work_and_counts_its_splits() {
        let a = cut(SplitRule::Random, 0.3, 1 << 16, 8, 1).unwrap();
        assert_eq!(a.leaves.iter().sum::<u64>(), 1 << 16);
        assert_eq!(a.leaves.len(), 256);
        assert_eq!((a.factors.3, a.max_non_reducing), (0, 0));
        let b = cut(SplitRule::NonReducing, 0.3, 1 << 16, 8, 1).unwrap();
        assert_eq!(b.leaves.iter().sum::<u64>(), 1 << 16);
        assert!(b.max_non_reducing >= 2, "{}", b.max_non_reducing);
    }

    /// One PE takes everything; equal leaves on many placements average out.
    #[test]
    fn a_placement_ratio_is_in_range() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        assert!((placement_ratio(&[5, 7, 9], 1, &mut rng) - 1.0).abs() < 1e-12);
        let r = placement_ratio(&vec![1; 4096], 16, &mut rng);
        assert!((1.0..2.0).contains(&r), "{r}");
    }
}
