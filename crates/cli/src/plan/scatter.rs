//! Part of the plan layer: `treesplit scatter` (paper 003's Poisson model) and `scatter tail`
//! (adversarial job sizes, paper 004 §2 and Theorem 14.1), checked: every value in range, no
//! product that overflows or asks for more Monte Carlo work than a run can do.

use super::Output;
use crate::flags::{AssignmentArg, CostArg, Given, ScatterArgs, ScatterMode, SizesArg};
use crate::output::Failure;
use std::path::PathBuf;
use treesplit_lab::scatter::adversary::Sizes;
use treesplit_lab::scatter::model::{Assignment, Cost, Point, MAX_DEGREE};

/// Most PEs of a point.
pub const MAX_PES: usize = 1 << 24;
/// Most Poisson draws (trials × P × q) one point may take.
pub const MAX_DRAWS: f64 = 2e10;
/// Largest α.
pub const MAX_ALPHA: f64 = 1e6;

/// `scatter`: the points of the sweep (one point: a single report).
pub struct ScatterPlan {
    pub mode: ScatterPlanMode,
    pub seed: u64,
    pub out: Output,
    pub svg: Option<PathBuf>,
}

pub enum ScatterPlanMode {
    /// The Poisson model at every point, `trials` Monte Carlo trials each.
    Poisson { points: Vec<Point>, trials: u64 },
    /// Adversarial sizes: the tail at each c (or one instance of uniform/heavy sizes).
    Tail {
        sizes: Sizes,
        pes: u64,
        c: Vec<f64>,
        jobs: Option<u64>,
        epsilon: f64,
        trials: u64,
    },
}

pub fn plan(s: ScatterArgs, given: &Given) -> Result<ScatterPlan, Failure> {
    let pes = match &s.pes[..] {
        [] => vec![1024],
        list => list.to_vec(),
    };
    if let Some(&p) = pes.iter().find(|&&p| !(2..=MAX_PES).contains(&p)) {
        return Err(Failure::input(format!(
            "--pes {p}: scatter needs 2 ≤ P ≤ {MAX_PES}"
        )));
    }
    let seed = s.seed.seed.unwrap_or(1);
    let out = Output::from(&s.common);
    let check_svg = |svg: &Option<PathBuf>| -> Result<(), Failure> {
        if let Some(path) = svg {
            crate::output::paths::check_picture("--svg", path, &[])?;
        }
        Ok(())
    };
    if let Some(ScatterMode::Tail(t)) = s.mode {
        check_svg(&t.svg)?;
        if pes.len() != 1 {
            return Err(Failure::input("scatter tail takes one --pes P"));
        }
        if !(t.epsilon > 0.0 && t.epsilon.is_finite()) {
            return Err(Failure::input(format!(
                "--epsilon must be positive, got {}",
                t.epsilon
            )));
        }
        if t.trials == 0 || t.trials > 10_000_000 {
            return Err(Failure::input("--trials must be in 1..=10000000"));
        }
        let sizes = match t.sizes {
            SizesArg::Adversarial => Sizes::Adversarial,
            SizesArg::Uniform => Sizes::Uniform,
            SizesArg::Heavy => Sizes::Heavy,
        };
        if sizes != Sizes::Adversarial && given.has("c") {
            return Err(Failure::input(
                "--c applies only to --sizes adversarial (uniform and heavy sizes give their own T/t̂)",
            ));
        }
        let p = pes[0] as f64;
        for &c in &t.c {
            if !(c > 0.0 && c * p * p.ln() <= 1e9) {
                return Err(Failure::input(format!(
                    "--c {c}: must be positive with c·P·ln P ≤ 10^9 heavy jobs"
                )));
            }
        }
        if let Some(m) = t.jobs {
            if m < pes[0] as u64 || m > 1 << 30 {
                return Err(Failure::input(format!(
                    "--jobs {m}: scatter tail needs P ≤ m ≤ 2^30 jobs"
                )));
            }
            if sizes == Sizes::Adversarial {
                if let Some(&c) = t.c.iter().find(|&&c| (c * p * p.ln()).ceil() > m as f64) {
                    return Err(Failure::input(format!(
                        "--jobs {m} is fewer than the c·P·ln P = {:.0} heavy jobs of --c {c}",
                        (c * p * p.ln()).ceil()
                    )));
                }
            }
        }
        if sizes != Sizes::Adversarial
            && t.jobs.unwrap_or(64 * pes[0] as u64) as f64 * t.trials as f64 > 4e10
        {
            return Err(Failure::input(
                "too much work: jobs × trials > 4·10^10; lower --trials or --jobs",
            ));
        }
        return Ok(ScatterPlan {
            mode: ScatterPlanMode::Tail {
                sizes,
                pes: pes[0] as u64,
                c: t.c,
                jobs: t.jobs,
                epsilon: t.epsilon,
                trials: t.trials,
            },
            seed,
            out,
            svg: t.svg,
        });
    }
    check_svg(&s.svg)?;
    if s.trials < 2 {
        return Err(Failure::input(
            "--trials must be at least 2 (a confidence interval needs two)",
        ));
    }
    let mut points = Vec::new();
    for &alpha in &s.alpha {
        if !(alpha > 0.0 && alpha <= MAX_ALPHA) {
            return Err(Failure::input(format!(
                "--alpha {alpha}: the mean subproblem size must be in (0, {MAX_ALPHA}]"
            )));
        }
        for &q in &s.q {
            if q == 0 {
                return Err(Failure::input(
                    "--q must be at least 1 (subproblems per PE)",
                ));
            }
            for &d in &s.degree {
                if d == 0 || d > MAX_DEGREE {
                    return Err(Failure::input(format!(
                        "--degree {d}: the cost polynomial's degree must be in 1..={MAX_DEGREE}"
                    )));
                }
                let cost = match s.cost {
                    CostArg::Power => Cost::Power(d),
                    CostArg::Falling => Cost::Falling(d),
                    CostArg::Hashtable if d == 2 => Cost::Hashtable,
                    CostArg::Hashtable => {
                        return Err(Failure::input(format!(
                            "--cost hashtable is X(X+1)/2, of degree 2, not --degree {d}"
                        )))
                    }
                };
                for &p in &pes {
                    // A linear cost draws one Poisson(qα) per PE (exactly q per PE).
                    let linear = d == 1 && s.assignment == AssignmentArg::Multiple;
                    let draws = s.trials as f64 * p as f64 * if linear { 1.0 } else { q as f64 };
                    if draws > MAX_DRAWS {
                        return Err(Failure::input(format!(
                            "too much work: trials × P × q = {draws:.3e} Poisson draws (at most {MAX_DRAWS:e}); lower --trials"
                        )));
                    }
                    let pt = Point {
                        alpha,
                        q,
                        pes: p as u64,
                        cost,
                        assignment: match s.assignment {
                            AssignmentArg::Multiple => Assignment::Multiple,
                            AssignmentArg::RandomPlacement => Assignment::RandomPlacement,
                        },
                    };
                    // The largest load must stay exactly representable.
                    if q as f64 * cost.eval_f(alpha + 12.0 * alpha.sqrt() + 30.0) > 1e15 {
                        return Err(Failure::input(format!(
                            "--alpha {alpha} --q {q} --degree {d}: loads beyond 10^15 overflow the exact sums; lower α, q or d"
                        )));
                    }
                    points.push(pt);
                }
            }
        }
    }
    Ok(ScatterPlan {
        mode: ScatterPlanMode::Poisson {
            points,
            trials: s.trials,
        },
        seed,
        out,
        svg: s.svg,
    })
}
