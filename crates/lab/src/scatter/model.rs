//! Paper 003's model computed: Poisson(α) subproblem sizes, a cost polynomial c of degree d,
//! and the predictions of the efficiency η = E[total load] / (P·E[max load]) (2.2).
//!
//! - [`gamma`]: the root γ(x) ∈ (0, 1) of (3.3), γ + x(ln γ − γ + 1) = 0;
//! - [`b_alpha_p`]: the integer b(α, P) > α of (3.2);
//! - [`Regime`]: which case of Theorem 3.1 / Corollary 3.1 (single assignment, q = 1) or of
//!   Theorem 5.2 / Corollary 5.2 (multiple assignment) a point (α, q, P, d) is taken to be in,
//!   with the paper's asymptotic η;
//! - [`exact_eta`]: η at finite P computed from the exact distribution of a PE's load:
//!   E[max of P i.i.d.] = v₀ + Σₖ (vₖ₊₁ − vₖ)·(1 − F(vₖ)^P) (the paper's (3.4)), the load's
//!   distribution being Poisson (q = 1, or d = 1 where Σ Xⱼ is Poisson(qα)), the q-fold
//!   convolution of c(X) (multiple assignment), or its compound Poisson law (random placement,
//!   Poissonized: a PE's job count is Poisson(q) and PEs are taken independent).
//!
//! The paper's `log` is the natural logarithm (γ comes from Stirling's formula).

use serde::Serialize;
use std::fmt;

/// The cost c(X) of a subproblem of size X, a polynomial of degree d with integer values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Cost {
    /// c(X) = X^d.
    Power(u32),
    /// c(X) = X^(d) = X(X−1)…(X−d+1), the falling factorial of Theorem 5.2 (c*(α) = α^d).
    Falling(u32),
    /// c(X) = X(X+1)/2: the redundancy checks of the distributed hash table (Example 2.1).
    Hashtable,
}

/// Largest degree accepted (c(X) must stay well inside u64 for the sizes that occur).
pub const MAX_DEGREE: u32 = 6;

impl Cost {
    /// The degree d.
    pub fn degree(self) -> u32 {
        match self {
            Cost::Power(d) | Cost::Falling(d) => d,
            Cost::Hashtable => 2,
        }
    }

    /// c(x), saturating at u64::MAX.
    pub fn eval(self, x: u64) -> u64 {
        match self {
            Cost::Power(d) => x.saturating_pow(d),
            Cost::Falling(d) => {
                if x < u64::from(d) {
                    return 0;
                }
                (0..u64::from(d)).fold(1u64, |acc, k| acc.saturating_mul(x - k))
            }
            Cost::Hashtable => (x.saturating_mul(x.saturating_add(1))) / 2,
        }
    }

    /// c*(α) = E[c(X)] for X ~ Poisson(α) ((2.1)): for X^d the Touchard polynomial
    /// Σₖ S(d, k) α^k (Stirling numbers of the second kind), for X^(d) α^d, for X(X+1)/2
    /// (α² + 2α)/2.
    pub fn mean(self, alpha: f64) -> f64 {
        match self {
            Cost::Power(d) => {
                let d = d as usize;
                // S(n, k) = k·S(n−1, k) + S(n−1, k−1).
                let mut s = vec![vec![0f64; d + 1]; d + 1];
                s[0][0] = 1.0;
                for n in 1..=d {
                    for k in 1..=n {
                        s[n][k] = k as f64 * s[n - 1][k] + s[n - 1][k - 1];
                    }
                }
                (0..=d).map(|k| s[d][k] * alpha.powi(k as i32)).sum()
            }
            Cost::Falling(d) => alpha.powi(d as i32),
            Cost::Hashtable => (alpha * alpha + 2.0 * alpha) / 2.0,
        }
    }

    /// c on the reals (for c(b), c(α/γ), …), the same polynomial.
    pub fn eval_f(self, x: f64) -> f64 {
        match self {
            Cost::Power(d) => x.powi(d as i32),
            Cost::Falling(d) => (0..d).map(|k| x - f64::from(k)).product(),
            Cost::Hashtable => x * (x + 1.0) / 2.0,
        }
    }

    /// The name as `--cost` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Cost::Power(_) => "power",
            Cost::Falling(_) => "falling",
            Cost::Hashtable => "hashtable",
        }
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cost::Power(d) => write!(f, "X^{d}"),
            Cost::Falling(d) => write!(f, "X^({d})"),
            Cost::Hashtable => write!(f, "X(X+1)/2"),
        }
    }
}

/// How the m = P·q subproblems are assigned to PEs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Assignment {
    /// Exactly q subproblems per PE (paper 003 §3 for q = 1, §5 for q > 1).
    Multiple,
    /// Every subproblem to an independent uniformly random PE: q per PE only on average
    /// (not the paper's strategy; labelled as such).
    RandomPlacement,
}

impl Assignment {
    /// The name as `--assignment` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Assignment::Multiple => "multiple",
            Assignment::RandomPlacement => "random-placement",
        }
    }
}

/// ln n! (exact sum below 256, Stirling's series above; relative error < 1e-15).
pub fn ln_factorial(n: u64) -> f64 {
    if n < 256 {
        return (2..=n).map(|k| (k as f64).ln()).sum();
    }
    let x = n as f64;
    x * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + 1.0 / (12.0 * x)
        - 1.0 / (360.0 * x.powi(3))
        + 1.0 / (1260.0 * x.powi(5))
}

/// P[X = n] for X ~ Poisson(α).
pub fn poisson_pmf(alpha: f64, n: u64) -> f64 {
    (-alpha + n as f64 * alpha.ln() - ln_factorial(n)).exp()
}

/// The Poisson(α) distribution on the sizes that matter: n ∈ lo..lo+pmf.len(), every size
/// outside holding less than 1e-40 probability.
#[derive(Debug, Clone)]
pub struct PoissonTable {
    /// Smallest size kept.
    pub lo: u64,
    /// P[X = lo + k].
    pub pmf: Vec<f64>,
}

impl PoissonTable {
    /// The table for α > 0.
    pub fn new(alpha: f64) -> Self {
        let mode = alpha.floor() as u64;
        let at_mode = poisson_pmf(alpha, mode);
        let mut lo = mode;
        let mut down = Vec::new();
        let mut v = at_mode;
        while lo > 0 {
            v *= lo as f64 / alpha;
            if v < 1e-40 {
                break;
            }
            lo -= 1;
            down.push(v);
        }
        down.reverse();
        let mut pmf = down;
        pmf.push(at_mode);
        let (mut n, mut v) = (mode, at_mode);
        loop {
            n += 1;
            v *= alpha / n as f64;
            if v < 1e-40 {
                break;
            }
            pmf.push(v);
        }
        PoissonTable { lo, pmf }
    }
}

/// A distribution on sorted nonnegative values: `values[k]` with probability `probs[k]`.
#[derive(Debug, Clone)]
pub struct Dist {
    /// Sorted, increasing.
    pub values: Vec<u64>,
    /// Their probabilities (summing to 1 up to the truncated tails).
    pub probs: Vec<f64>,
}

impl Dist {
    /// c(X) for X ~ Poisson(α) (c is nondecreasing on the integers; equal values merged).
    pub fn cost_of_poisson(alpha: f64, cost: Cost) -> Self {
        let t = PoissonTable::new(alpha);
        let mut d = Dist {
            values: Vec::new(),
            probs: Vec::new(),
        };
        for (k, &p) in t.pmf.iter().enumerate() {
            let v = cost.eval(t.lo + k as u64);
            if d.values.last() == Some(&v) {
                *d.probs.last_mut().expect("a value") += p;
            } else {
                d.values.push(v);
                d.probs.push(p);
            }
        }
        d
    }

    /// E\[max of p independent copies\] = v₀ + Σₖ (vₖ₊₁ − vₖ)·P\[max > vₖ\], with
    /// P\[max > v\] = 1 − (1 − S(v))^p computed as −expm1(p·ln1p(−S)) from the survival
    /// function S summed from the top, so that tiny tails keep their precision.
    pub fn expected_max(&self, p: u64) -> f64 {
        let n = self.values.len();
        let mut survival = vec![0f64; n];
        let mut s = 0.0;
        for k in (0..n).rev() {
            survival[k] = s;
            s += self.probs[k];
        }
        // Normalise for the truncated tails.
        let total = s;
        let mut e = self.values[0] as f64;
        for (w, &sk) in self.values.windows(2).zip(&survival) {
            let sk = (sk / total).min(1.0);
            let above = -(p as f64 * (-sk).ln_1p()).exp_m1();
            e += (w[1] - w[0]) as f64 * above;
        }
        e
    }

    /// The mean.
    pub fn mean(&self) -> f64 {
        let total: f64 = self.probs.iter().sum();
        self.values
            .iter()
            .zip(&self.probs)
            .map(|(&v, &p)| v as f64 * p)
            .sum::<f64>()
            / total
    }

    /// A dense law on offset..offset+g.len() as a [`Dist`].
    fn from_dense(offset: u64, g: &[f64]) -> Self {
        Dist {
            values: (0..g.len() as u64).map(|k| offset + k).collect(),
            probs: g.to_vec(),
        }
    }
}

/// Entries below this are dropped from the tails of a dense law while convolving.
const TRIM: f64 = 1e-40;

/// Most work (entries × support points) an exact computation may take.
pub const MAX_EXACT_WORK: f64 = 4e9;

/// Drop the tails below [`TRIM`] (relative to the largest entry), moving `offset`.
fn trim(offset: &mut u64, g: &mut Vec<f64>) {
    let top = g.iter().cloned().fold(0.0, f64::max);
    let keep = |x: &f64| *x > TRIM * top;
    let first = g.iter().position(keep).unwrap_or(0);
    let last = g.iter().rposition(keep).unwrap_or(0);
    g.truncate(last + 1);
    g.drain(..first);
    *offset += first as u64;
}

/// The law of Σ_{j<q} c(Xⱼ), q independent copies of `f` (iterated convolution with trimmed
/// tails); `None` when that would take more than [`MAX_EXACT_WORK`].
pub fn sum_of_copies(f: &Dist, q: u64) -> Option<Dist> {
    let (m, sd) = moments(f);
    let width = 40.0 * sd * (q as f64).sqrt() + 2.0 * f.values.len() as f64;
    if (q as f64) * width * f.values.len() as f64 > MAX_EXACT_WORK || m * q as f64 > 1e12 {
        return None;
    }
    let (mut offset, mut g) = (0u64, vec![1.0f64]);
    let base = f.values[0];
    for _ in 0..q {
        let span = (f.values.last().expect("a value") - base) as usize;
        let mut next = vec![0f64; g.len() + span];
        for (&v, &pv) in f.values.iter().zip(&f.probs) {
            let shift = (v - base) as usize;
            for (k, &gk) in g.iter().enumerate() {
                next[k + shift] += gk * pv;
            }
        }
        offset += base;
        g = next;
        trim(&mut offset, &mut g);
    }
    Some(Dist::from_dense(offset, &g))
}

/// The compound Poisson law of Σ_{j<N} c(Xⱼ) with N ~ Poisson(λ) (Panjer's recursion
/// gₖ = (λ/k) Σⱼ j·fⱼ·gₖ₋ⱼ, rescaled as it goes so that e^{−λ(1−f₀)} may underflow);
/// `None` when too large.
pub fn compound_poisson(f: &Dist, lambda: f64) -> Option<Dist> {
    let (m, sd) = moments(f);
    let mean = lambda * m;
    let sd_total = (lambda * (sd * sd + m * m)).sqrt();
    let hi = (mean + 40.0 * sd_total + 4.0 * *f.values.last().expect("a value") as f64).ceil();
    if hi * f.values.len() as f64 > MAX_EXACT_WORK || hi > 5e7 {
        return None;
    }
    let hi = hi as usize;
    // Severity as (value, prob) for value ≥ 1.
    let sev: Vec<(usize, f64)> = f
        .values
        .iter()
        .zip(&f.probs)
        .filter(|(&v, _)| v > 0)
        .map(|(&v, &p)| (v as usize, p))
        .collect();
    let mut g = vec![0f64; hi + 1];
    g[0] = 1.0;
    for k in 1..=hi {
        let mut s = 0.0;
        for &(j, fj) in &sev {
            if j > k {
                break;
            }
            s += j as f64 * fj * g[k - j];
        }
        g[k] = lambda / k as f64 * s;
        if g[k] > 1e250 {
            for x in g[..=k].iter_mut() {
                *x *= 1e-250;
            }
        }
    }
    let total: f64 = g.iter().sum();
    for x in g.iter_mut() {
        *x /= total;
    }
    let mut offset = 0;
    trim(&mut offset, &mut g);
    Some(Dist::from_dense(offset, &g))
}

fn moments(f: &Dist) -> (f64, f64) {
    let m = f.mean();
    let total: f64 = f.probs.iter().sum();
    let var = f
        .values
        .iter()
        .zip(&f.probs)
        .map(|(&v, &p)| (v as f64 - m).powi(2) * p)
        .sum::<f64>()
        / total;
    (m, var.sqrt())
}

/// A point of the model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    /// Mean subproblem size α > 0.
    pub alpha: f64,
    /// Subproblems per PE (on average under random placement).
    pub q: u64,
    /// PEs.
    pub pes: u64,
    /// The cost c.
    pub cost: Cost,
    /// How subproblems go to PEs.
    pub assignment: Assignment,
}

impl Point {
    /// α·q^{1/d}: the parameter of the single Poisson variable that dominates a PE's load in
    /// the convex order (Theorem 5.1).
    pub fn alpha_eff(&self) -> f64 {
        self.alpha * (self.q as f64).powf(1.0 / f64::from(self.cost.degree()))
    }

    /// x = α·q^{1/d} / ln P (α^d·q ~ x^d·log^d P).
    pub fn x(&self) -> f64 {
        self.alpha_eff() / (self.pes as f64).ln()
    }
}

/// η at finite P from the exact law of a PE's load (see the module comment); `None` when the
/// law's support is too large to compute.
pub fn exact_eta(pt: &Point) -> Option<f64> {
    let mean_load = pt.q as f64 * pt.cost.mean(pt.alpha);
    let linear = matches!(pt.cost, Cost::Power(1) | Cost::Falling(1));
    let load = match pt.assignment {
        Assignment::Multiple if pt.q == 1 || linear => {
            Dist::cost_of_poisson(pt.alpha * pt.q as f64, pt.cost)
        }
        Assignment::Multiple => sum_of_copies(&Dist::cost_of_poisson(pt.alpha, pt.cost), pt.q)?,
        Assignment::RandomPlacement => {
            compound_poisson(&Dist::cost_of_poisson(pt.alpha, pt.cost), pt.q as f64)?
        }
    };
    Some(mean_load / load.expected_max(pt.pes))
}

/// The root γ(x) ∈ (0, 1) of (3.3): γ + x(ln γ − γ + 1) = 0 (the left side increases in γ,
/// from −∞ at 0 to 1 at 1: bisection). γ(1) = 1/e.
pub fn gamma(x: f64) -> f64 {
    let f = |g: f64| g + x * (g.ln() - g + 1.0);
    let (mut lo, mut hi) = (f64::MIN_POSITIVE, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// b(α, P) of (3.2): the integer b > α with e^{−α}α^{b+1}/(b+1)! ≤ 1/P < e^{−α}α^b/b!
/// (`None` when already P[X = ⌊α⌋+1] ≤ 1/P: P is too small for (3.2) to have a solution).
pub fn b_alpha_p(alpha: f64, p: u64) -> Option<u64> {
    let inv = 1.0 / p as f64;
    let mut b = alpha.floor() as u64 + 1;
    if poisson_pmf(alpha, b) <= inv {
        return None;
    }
    while poisson_pmf(alpha, b + 1) > inv {
        b += 1;
    }
    Some(b)
}

/// Which case of the paper a point is taken to be in (fixed thresholds on x, since a single
/// finite point has no growth rate: x < 0.25 is "small", x > 10 "large").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Regime {
    /// q = 1, α = Θ(1) (Corollary 3.1 (i)): η ~ (α·ln ln P / ln P)^d → 0.
    ThetaOne,
    /// q > 1, q = o(log^d P) (Theorem 5.2, second case): E\[max\] ≲ c(b(αq^{1/d}, P)), η → 0.
    SmallQ,
    /// α^d·q ~ x^d·log^d P (Corollary 3.1 (iii) for q = 1: η → γ(x)^d; Corollary 5.2 (ii)
    /// for q > 1: η ≳ γ(x)^d).
    XLog,
    /// α^d·q = ω(log^d P) (Corollary 3.1 (iv), 5.2 (i)): η → 1.
    OmegaLog,
}

/// Below this x a point is in the small regime.
pub const X_SMALL: f64 = 0.25;
/// Above this x a point is in the ω(log^d P) regime.
pub const X_LARGE: f64 = 10.0;

impl Regime {
    /// The regime of a point.
    pub fn of(pt: &Point) -> Regime {
        let x = pt.x();
        if x > X_LARGE {
            Regime::OmegaLog
        } else if x >= X_SMALL {
            Regime::XLog
        } else if pt.q == 1 {
            Regime::ThetaOne
        } else {
            Regime::SmallQ
        }
    }

    /// The paper's statement, in words.
    pub fn statement(self) -> &'static str {
        match self {
            Regime::ThetaOne => "Corollary 3.1 (i), alpha = Theta(1): eta ~ (alpha ln ln P / ln P)^d -> 0",
            Regime::SmallQ => "Theorem 5.2, q = o(log^d P): E[max] <~ c(b(alpha q^(1/d), P)), eta -> 0",
            Regime::XLog => "Corollary 3.1 (iii) / 5.2 (ii), alpha^d q ~ x^d log^d P: eta -> gamma(x)^d (q = 1), eta >~ gamma(x)^d (q > 1)",
            Regime::OmegaLog => "Corollary 3.1 (iv) / 5.2 (i), alpha^d q = omega(log^d P): eta -> 1",
        }
    }

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Regime::ThetaOne => "theta-one",
            Regime::SmallQ => "small-q",
            Regime::XLog => "x-log",
            Regime::OmegaLog => "omega-log",
        }
    }
}

/// The paper's asymptotic η for a point in its regime, and whether the paper states it as a
/// lower bound (multiple assignment) rather than a limit.
pub fn predicted_eta(pt: &Point) -> (f64, bool) {
    let d = pt.cost.degree() as i32;
    let lnp = (pt.pes as f64).ln();
    match Regime::of(pt) {
        Regime::ThetaOne => (
            ((pt.alpha * lnp.ln().max(f64::MIN_POSITIVE)) / lnp)
                .powi(d)
                .min(1.0),
            false,
        ),
        Regime::SmallQ => (b_prediction(pt).unwrap_or(1.0), true),
        Regime::XLog => (gamma(pt.x()).powi(d), pt.q > 1),
        Regime::OmegaLog => (1.0, false),
    }
}

/// η from Theorem 3.1's E\[max\] ~ c(b) (q = 1) or Corollary 5.1's bound E\[max\] ≲ c(b) with
/// b = b(α·q^{1/d}, P) (q > 1), evaluated at this finite P: q·c*(α) / c(b).
pub fn b_prediction(pt: &Point) -> Option<f64> {
    let b = b_alpha_p(pt.alpha_eff(), pt.pes)?;
    Some((pt.q as f64 * pt.cost.mean(pt.alpha) / pt.cost.eval_f(b as f64)).min(1.0))
}
