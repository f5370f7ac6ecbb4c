//! The Mandelbrot set as a bag of independent jobs (paper 001 §14.1.2, Fig. 14.2, and its
//! load-balancing discussion in §14.3–14.4 and Exercise 14.5).
//!
//! The n² grid points c(j, k) = z0 + (j + i·k)·a0/n, j, k ∈ 0..n, are numbered row-major:
//! point p = k·n + j (Exercise 14.5's c(i) is [`MandelParams::point`]). A piece of the computation is a
//! range `lo..hi` of point numbers, so a master–worker bundle, a static block or a stolen
//! piece is described by two numbers and split at its middle, like `task::range`.
//!
//! The arithmetic is fixed, all f64 and in this order, so that every machine, balancer and
//! run gives bit-identical counts: `re = z0.re + (j·a0)/n`, `im = z0.im + (k·a0)/n`; from
//! x = y = 0, one step is `x' = (x·x − y·y) + re`, `y' = (2·x)·y + im`; the point escapes at
//! the first step t ≤ t̂ with `x·x + y·y > 4` and counts t steps, else it counts t̂ steps and
//! lies in the set. A step is one work unit, so the work units of a run equal its
//! `iterations`. The cost of a point is unknown before it is computed (the chapter's point):
//! [`Task::estimate`] is the upper bound t̂ per remaining point, the same for every point.

use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::{Context, Outcome, Task};

/// The largest n: n² points must fit the u64 counters with t̂ steps each (checked too).
pub const MAX_N: u64 = 1 << 20;

/// The parameters of a Mandelbrot run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MandelParams {
    /// Grid points per side.
    pub n: u64,
    /// Real part of the lower left corner z0.
    pub z0_re: f64,
    /// Imaginary part of z0.
    pub z0_im: f64,
    /// Side length a0 of the square.
    pub a0: f64,
    /// The most steps per point, t̂.
    pub max_iter: u64,
}

impl MandelParams {
    /// Check the parameters; the error names the flag.
    pub fn validate(&self) -> Result<(), String> {
        if self.n == 0 || self.n > MAX_N {
            return Err(format!(
                "mandelbrot --n must be in 1..={MAX_N}, got {}",
                self.n
            ));
        }
        if !(self.z0_re.is_finite() && self.z0_im.is_finite()) {
            return Err("mandelbrot --z0 must be two finite numbers RE,IM".into());
        }
        if !(self.a0.is_finite() && self.a0 > 0.0) {
            return Err(format!(
                "mandelbrot --a0 must be a finite number > 0, got {}",
                self.a0
            ));
        }
        if self.max_iter == 0 {
            return Err("mandelbrot --max-iter must be at least 1".into());
        }
        if (self.n * self.n).checked_mul(self.max_iter).is_none() {
            return Err(format!(
                "mandelbrot: n² · max-iter = {}² · {} overflows the 64-bit step count; use a smaller --n or --max-iter",
                self.n, self.max_iter
            ));
        }
        Ok(())
    }

    /// The number of points, n².
    pub fn points(&self) -> u64 {
        self.n * self.n
    }

    /// The grid point c of point number `p` (row-major: p = k·n + j), as (re, im).
    pub fn point(&self, p: u64) -> (f64, f64) {
        let (j, k) = (p % self.n, p / self.n);
        let n = self.n as f64;
        (
            self.z0_re + (j as f64 * self.a0) / n,
            self.z0_im + (k as f64 * self.a0) / n,
        )
    }
}

/// The steps of point c = (re, im), and whether it never escaped (module comment).
pub fn steps(re: f64, im: f64, max_iter: u64) -> (u64, bool) {
    let (mut x, mut y) = (0.0f64, 0.0f64);
    for t in 1..=max_iter {
        let nx = (x * x - y * y) + re;
        let ny = (2.0 * x) * y + im;
        x = nx;
        y = ny;
        if x * x + y * y > 4.0 {
            return (t, false);
        }
    }
    (max_iter, true)
}

/// The result: points in the set and the steps of all points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MandelCount {
    /// Points that never escaped within t̂ steps.
    pub in_set: u64,
    /// The sum of all points' step counts.
    pub iterations: u64,
    /// Points computed.
    pub points: u64,
}

/// Not a search: results must be equal.
impl crate::objective::Objective for MandelCount {
    fn objective(&self) -> Option<u64> {
        None
    }
}

impl Outcome for MandelCount {
    fn merge(&mut self, other: Self) {
        self.in_set += other.in_set;
        self.iterations += other.iterations;
        self.points += other.points;
    }
}

impl fmt::Display for MandelCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "in_set {}, iterations {} ({})",
            self.in_set,
            self.iterations,
            treesplit::words::count(self.points, "point", "points")
        )
    }
}

/// The points `lo..hi` (row-major numbers) of a Mandelbrot grid.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Mandelbrot {
    params: MandelParams,
    lo: u64,
    hi: u64,
    /// Steps done beyond a slice's budget, reported by the next slices (as in `task::range`).
    owed: u64,
}

impl Mandelbrot {
    /// The whole grid.
    pub fn new(params: MandelParams) -> Result<Self, String> {
        params.validate()?;
        Ok(Mandelbrot {
            params,
            lo: 0,
            hi: params.points(),
            owed: 0,
        })
    }
}

impl Task for Mandelbrot {
    type Output = MandelCount;

    /// Whole points from the front until `budget` steps are done; a point is indivisible, so
    /// the steps beyond the budget are owed to the next slices.
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, MandelCount>) -> u64 {
        let mut done = self.owed;
        let mut count = MandelCount::default();
        while self.lo < self.hi && done < budget {
            let (re, im) = self.params.point(self.lo);
            let (t, inside) = steps(re, im, self.params.max_iter);
            count.iterations += t;
            count.in_set += u64::from(inside);
            count.points += 1;
            done += t;
            self.lo += 1;
        }
        ctx.output().merge(count);
        let reported = done.min(budget);
        self.owed = done - reported;
        reported
    }

    /// The upper half of the points.
    fn split(&mut self) -> Option<Self> {
        if self.hi.saturating_sub(self.lo) < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo) / 2;
        let upper = Mandelbrot {
            params: self.params,
            lo: mid,
            hi: self.hi,
            owed: 0,
        };
        self.hi = mid;
        Some(upper)
    }

    fn is_empty(&self) -> bool {
        self.lo >= self.hi && self.owed == 0
    }

    /// t̂ per remaining point (an upper bound: the cost is unknown in advance).
    fn estimate(&self) -> Option<u64> {
        Some(self.owed + (self.hi - self.lo) * self.params.max_iter)
    }

    /// Keeps ⌊units / t̂⌋ points (at least one), returns the rest.
    fn split_at(&mut self, units: u64) -> Option<Self> {
        let keep = (units / self.params.max_iter).max(1);
        let cut = self.lo.checked_add(keep).filter(|&c| c < self.hi)?;
        let rest = Mandelbrot {
            params: self.params,
            lo: cut,
            hi: self.hi,
            owed: 0,
        };
        self.hi = cut;
        Some(rest)
    }
}

/// Every point's step count, row-major (for the picture; computed with rayon).
pub fn step_grid(params: &MandelParams) -> Vec<u64> {
    use rayon::prelude::*;
    (0..params.points())
        .into_par_iter()
        .map(|p| {
            let (re, im) = params.point(p);
            steps(re, im, params.max_iter).0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit::run_sequential;

    #[test]
    fn matches_a_plain_double_loop() {
        let p = MandelParams {
            n: 64,
            z0_re: -2.0,
            z0_im: -1.25,
            a0: 2.5,
            max_iter: 200,
        };
        let (mut in_set, mut iterations) = (0, 0);
        for k in 0..64u64 {
            for j in 0..64u64 {
                let re = -2.0 + (j as f64 * 2.5) / 64.0;
                let im = -1.25 + (k as f64 * 2.5) / 64.0;
                let (t, inside) = steps(re, im, 200);
                iterations += t;
                in_set += u64::from(inside);
            }
        }
        let r = run_sequential(Mandelbrot::new(p).unwrap());
        assert_eq!((r.output.in_set, r.output.iterations), (in_set, iterations));
        assert_eq!(r.work_units, iterations);
        assert!(in_set > 0 && in_set < 64 * 64);
    }
}

/// The set as a picture (`--png`), one pixel per grid point: row k of the grid is pixel row
/// n−1−k, so the imaginary axis points up; black in the set, else shaded by the escape step.
/// The step counts are computed again, with rayon. The pixels are row-major from the top left.
pub fn picture(params: &MandelParams) -> Vec<[u8; 3]> {
    let n = params.n as usize;
    let steps = step_grid(params);
    let t_max = params.max_iter as f64;
    let mut pixels = vec![[0u8; 3]; n * n];
    for (p, &t) in steps.iter().enumerate() {
        let (j, k) = (p % n, p / n);
        pixels[(n - 1 - k) * n + j] = if t >= params.max_iter {
            [0, 0, 0]
        } else {
            // Logarithmic shading: most points escape within a few steps.
            let s = ((t as f64).ln_1p() / t_max.ln_1p()).clamp(0.0, 1.0);
            [
                (255.0 * s) as u8,
                (255.0 * s.sqrt()) as u8,
                (128.0 + 127.0 * s) as u8,
            ]
        };
    }
    pixels
}

pub mod app;
pub use app::MandelSpec;
